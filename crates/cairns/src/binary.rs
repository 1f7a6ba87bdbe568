//! What the binary table files (landmark tables, jump tables) share: the
//! FNV-1a checksum, a reader that hashes what it reads, little-endian
//! integers, arrays read in chunks so that a huge declared size on a short
//! input costs no more memory than the input, and a writer that hashes
//! and writes in blocks.

use std::io::{self, Read, Write};

/// The binary table files cairns writes, each known by its first eight
/// bytes, so that a loader handed a file of another kind can say which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TableFile {
    /// A landmark table, `CAIRNSLM`.
    Landmarks,
    /// A compressed landmark table, `CAIRNSLC`.
    CompressedLandmarks,
    /// A JPS+ jump table, `CAIRNSJP`.
    JumpTable,
}

impl TableFile {
    const ALL: [TableFile; 3] = [
        TableFile::Landmarks,
        TableFile::CompressedLandmarks,
        TableFile::JumpTable,
    ];

    /// The first eight bytes of a file of this kind.
    pub(crate) const fn magic(self) -> [u8; 8] {
        match self {
            TableFile::Landmarks => *b"CAIRNSLM",
            TableFile::CompressedLandmarks => *b"CAIRNSLC",
            TableFile::JumpTable => *b"CAIRNSJP",
        }
    }

    /// The kind of a file that starts with `magic`, if cairns writes it.
    pub(crate) fn of(magic: [u8; 8]) -> Option<TableFile> {
        TableFile::ALL.into_iter().find(|k| k.magic() == magic)
    }

    /// What the file is and what writes it, for error messages.
    pub(crate) const fn describe(self) -> &'static str {
        match self {
            TableFile::Landmarks => "landmark table (`cairns landmarks build`)",
            TableFile::CompressedLandmarks => {
                "compressed landmark table (`cairns landmarks build --keep M`)"
            }
            TableFile::JumpTable => "jump table (`cairns jump-table build`)",
        }
    }
}

/// FNV-1a 64-bit offset basis.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
pub(crate) const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over `bytes`, continuing from `hash`.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// A reader that hashes what passes through it.
pub(crate) struct Hashing<R> {
    /// The reader.
    pub(crate) inner: R,
    /// FNV-1a of every byte read so far.
    pub(crate) hash: u64,
}

impl<R> Hashing<R> {
    pub(crate) fn new(inner: R) -> Self {
        Hashing {
            inner,
            hash: FNV_OFFSET,
        }
    }
}

impl<R: Read> Hashing<R> {
    /// Reads the trailing checksum, which is not hashed: `(found,
    /// computed)`, the stored checksum and the hash of everything read
    /// before it.
    pub(crate) fn checksums(mut self) -> io::Result<(u64, u64)> {
        let computed = self.hash;
        let found = read_u64(&mut self.inner)?;
        Ok((found, computed))
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash = fnv1a(self.hash, &buf[..n]);
        Ok(n)
    }
}

pub(crate) fn read_array<const N: usize>(r: &mut impl Read) -> io::Result<[u8; N]> {
    let mut b = [0u8; N];
    r.read_exact(&mut b)?;
    Ok(b)
}

pub(crate) fn read_u32(r: &mut impl Read) -> io::Result<u32> {
    read_array(r).map(u32::from_le_bytes)
}

pub(crate) fn read_u64(r: &mut impl Read) -> io::Result<u64> {
    read_array(r).map(u64::from_le_bytes)
}

/// Reads `count` values of `N` bytes each, decoded by `decode`
/// (`i32::from_le_bytes`, `i16::from_le_bytes`), growing the vector only
/// as data arrives.
pub(crate) fn read_words<const N: usize, T>(
    r: &mut impl Read,
    count: usize,
    decode: impl Fn([u8; N]) -> T,
) -> io::Result<Vec<T>> {
    let chunk = (1 << 14) / N.max(1);
    let mut out = Vec::with_capacity(count.min(chunk));
    let mut buf = [0u8; 1 << 14];
    while out.len() < count {
        let n = (count - out.len()).min(chunk);
        r.read_exact(&mut buf[..N * n])?;
        out.extend(buf[..N * n].chunks_exact(N).map(|c| {
            let mut word = [0u8; N];
            word.copy_from_slice(c);
            decode(word)
        }));
    }
    Ok(out)
}

/// Writes in blocks of 64 KiB, hashing every byte, and ends with the
/// checksum.
pub(crate) struct HashingWriter<W> {
    inner: W,
    buf: Vec<u8>,
    hash: u64,
}

impl<W: Write> HashingWriter<W> {
    pub(crate) fn new(inner: W) -> Self {
        HashingWriter {
            inner,
            buf: Vec::with_capacity(1 << 16),
            hash: FNV_OFFSET,
        }
    }

    /// Adds `bytes`, writing out a full block.
    pub(crate) fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= 1 << 16 {
            self.flush_block()?;
        }
        Ok(())
    }

    fn flush_block(&mut self) -> io::Result<()> {
        self.hash = fnv1a(self.hash, &self.buf);
        let r = self.inner.write_all(&self.buf);
        self.buf.clear();
        r
    }

    /// Writes what is left and the FNV-1a checksum of everything written.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.flush_block()?;
        self.inner.write_all(&self.hash.to_le_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::TableFile;

    #[test]
    fn each_table_file_is_known_by_its_own_magic() {
        for kind in TableFile::ALL {
            assert_eq!(TableFile::of(kind.magic()), Some(kind));
        }
        assert_eq!(TableFile::of(*b"CAIRNSXX"), None);
    }
}
