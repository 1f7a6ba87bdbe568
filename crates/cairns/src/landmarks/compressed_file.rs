//! Saving compressed landmark tables to disk and loading them back.
//!
//! The format is described at [`CompressedTable::save`]; it shares the
//! header, the checks and the errors of the full table's format
//! ([`LandmarkTable::save`](super::LandmarkTable::save)).

use std::io::{self, Read, Write};

use super::compressed::CompressedTable;
use super::file::read_landmarks;
use crate::graph::Graph;
use crate::saved::{
    FileError, FileErrorKind, Hashing, HashingWriter, TableKind, check_distances, check_sum,
    read_header, read_node_count, read_table, read_u32, read_words, write_header,
};

/// The kind of a compressed table's file.
const KIND: TableKind = TableKind::CompressedLandmarks;

impl CompressedTable {
    /// The version of the file format that [`save`](Self::save) writes and
    /// [`load`](Self::load) reads.
    pub const FILE_VERSION: u32 = 1;

    /// Writes the table in its saved format,
    /// tagged with `map_hash` (for a grid,
    /// [`grid_hash`](super::grid_hash)). `O(m V)` time, in blocks of 64 KiB.
    ///
    /// The format, `CAIRNSLC`, is in [the saved-table formats](crate::saved#the-formats).
    ///
    /// # Errors
    ///
    /// Any error of `w`.
    pub fn save(&self, mut w: impl Write, map_hash: u64) -> io::Result<()> {
        let mut out = HashingWriter::new(&mut w);
        write_header(&mut out, KIND, Self::FILE_VERSION, map_hash)?;
        out.put(&(self.node_count() as u64).to_le_bytes())?;
        out.put(&(self.landmark_count() as u32).to_le_bytes())?;
        out.put(&(self.kept() as u32).to_le_bytes())?;
        for l in self.landmarks() {
            out.put(&l.0.to_le_bytes())?;
        }
        for d in self.between() {
            out.put(&d.to_le_bytes())?;
        }
        let nodes = (0..self.node_count() as u32).map(crate::graph::NodeId);
        for v in nodes.clone() {
            for (l, _) in self.entries(v) {
                out.put(&[l as u8])?;
            }
        }
        for v in nodes {
            for (_, d) in self.entries(v) {
                out.put(&d.to_le_bytes())?;
            }
        }
        out.finish()
    }

    /// Reads a table written by [`save`](Self::save), checking that it was
    /// saved with `expected_map_hash`. As safe on any input as
    /// [`LandmarkTable::load`](super::LandmarkTable::load): sizes are
    /// checked before anything is allocated for them, every field and
    /// entry is checked, and the checksum before the table is returned.
    ///
    /// # Errors
    ///
    /// A [`FileError`] naming the first problem found, in file
    /// order: bad magic (or a full table's file,
    /// [`WrongKind`](FileErrorKind::WrongKind)), unsupported version, map
    /// hash mismatch, absurd sizes or kept count, a landmark id out of
    /// range, truncation, checksum mismatch, then an entry naming no
    /// landmark or an invalid distance.
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::landmarks::{Directedness, LandmarkTable, grid_hash};
    /// use cairns::landmarks::research::{CompressedTable, Compression};
    ///
    /// let grid = Grid::from_ascii("
    ///     .....
    ///     .@@@.
    /// ").unwrap();
    /// let hash = grid_hash(&grid, Neighborhood::Octile);
    /// let graph = GridGraph::new(grid, Neighborhood::Octile);
    /// let ends = [graph.node(0, 0).unwrap(), graph.node(4, 1).unwrap(), graph.node(2, 0).unwrap()];
    /// let full = LandmarkTable::build(&graph, &ends, Directedness::Symmetric);
    /// let table = CompressedTable::new(&full, 2, Compression::Nearest);
    ///
    /// let mut bytes = Vec::new();
    /// table.save(&mut bytes, hash).unwrap();
    /// assert_eq!(CompressedTable::load_for(&bytes[..], &graph, hash).unwrap(), table);
    /// ```
    pub fn load(r: impl Read, expected_map_hash: u64) -> Result<CompressedTable, FileError> {
        read(r, expected_map_hash, None)
    }

    /// Like [`load`](Self::load), and also checks that the table covers
    /// exactly the nodes of `graph`.
    ///
    /// # Errors
    ///
    /// As [`load`](Self::load), plus
    /// [`NodeCountMismatch`](FileErrorKind::NodeCountMismatch).
    pub fn load_for<G: Graph>(
        r: impl Read, graph: &G, expected_map_hash: u64,
    ) -> Result<CompressedTable, FileError> {
        read(r, expected_map_hash, Some(graph.node_bound() as u64))
    }
}

fn read(
    r: impl Read, expected_map_hash: u64, expected_nodes: Option<u64>,
) -> Result<CompressedTable, FileError> {
    read_table(r, KIND, |r| {
        read_compressed(r, expected_map_hash, expected_nodes)
    })
}

/// [`CompressedTable::load`] after the magic bytes.
fn read_compressed<R: Read>(
    mut r: Hashing<R>, expected_map_hash: u64, expected_nodes: Option<u64>,
) -> Result<CompressedTable, FileError> {
    let version = CompressedTable::FILE_VERSION;
    read_header(&mut r, KIND, (version, version), expected_map_hash)?;
    let nodes = read_node_count(&mut r, expected_nodes)?;
    let (k, m) = (read_u32(&mut r)?, read_u32(&mut r)?);
    if k == 0 || k as usize > CompressedTable::MAX_LANDMARKS || m == 0 || m > k {
        return Err(FileErrorKind::BadKept {
            kept: m,
            landmarks: k,
        }
        .into());
    }
    // Node ids are u32 with u32::MAX reserved; 5 bytes per entry must fit
    // the address space.
    let entries = nodes
        .checked_mul(m.into())
        .filter(|&e| u32::try_from(nodes).is_ok() && e <= (isize::MAX as u64) / 8);
    let Some(entries) = entries else {
        return Err(FileErrorKind::TooLarge {
            nodes,
            landmarks: k.into(),
        }
        .into());
    };
    let landmarks = read_landmarks(&mut r, k, nodes)?;
    let between = read_words(&mut r, (k * k) as usize, f32::from_le_bytes)?;
    let index = read_words(&mut r, entries as usize, |[b]: [u8; 1]| b)?;
    let dist = read_words(&mut r, entries as usize, f32::from_le_bytes)?;
    check_sum(r)?;
    if let Some((entry, &value)) = index.iter().enumerate().find(|(_, l)| u32::from(**l) >= k) {
        return Err(FileErrorKind::BadLandmarkIndex {
            entry: entry as u64,
            value,
            landmarks: k,
        }
        .into());
    }
    check_distances(between.iter().chain(&dist).copied())?;
    Ok(CompressedTable::from_parts(
        landmarks, m as usize, index, dist, between,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::NodeId;
    use crate::grid::{GridGraph, Neighborhood};
    use crate::landmarks::research::Compression;
    use crate::landmarks::{Directedness, LandmarkTable};
    use crate::saved::grid_hash;
    use crate::saved::testing::{kind, small_map, written};
    use crate::spec::Table;

    fn table() -> (GridGraph, LandmarkTable, CompressedTable, u64) {
        let (g, hash) = small_map();
        let full = LandmarkTable::build(
            &g,
            &[NodeId(0), NodeId(17), NodeId(5)],
            Directedness::Symmetric,
        );
        let c = CompressedTable::new(&full, 2, Compression::Nearest);
        (g, full, c, hash)
    }

    fn bytes(t: &CompressedTable, hash: u64) -> Vec<u8> {
        written(|w| t.save(w, hash))
    }

    #[test]
    fn round_trips_and_reads_as_a_saved_table() {
        let (g, full, c, hash) = table();
        let b = bytes(&c, hash);
        // Header 36, ids 12, between 36, 18 nodes * 2 entries * 5, checksum.
        assert_eq!(b.len(), 36 + 12 + 36 + 18 * 2 * 5 + 8);
        assert_eq!(&b[..8], b"CAIRNSLC");
        let back = CompressedTable::load_for(&b[..], &g, hash).unwrap();
        assert_eq!(back, c);
        assert_eq!(back.margin(), c.margin());
        assert_eq!(back.landmarks(), full.landmarks());
        assert_eq!(Table::load_for(&b[..], &g, hash).unwrap(), Table::from(c));
        let mut fb = Vec::new();
        full.save(&mut fb, hash).unwrap();
        assert_eq!(
            Table::load_for(&fb[..], &g, hash).unwrap(),
            Table::from(full)
        );
    }

    #[test]
    fn a_table_of_another_kind_is_named_by_every_loader() {
        let (graph, full, compressed, hash) = table();
        let good = bytes(&compressed, hash);
        let mut fb = Vec::new();
        full.save(&mut fb, hash).unwrap();
        let e = CompressedTable::load(&fb[..], hash).unwrap_err();
        assert_eq!(
            e.to_string(),
            "compressed landmark table: the file holds a landmark table (`cairns landmarks build MAP -k K`)"
        );
        let e = LandmarkTable::load(&good[..], hash).unwrap_err();
        assert_eq!(
            e.to_string(),
            "landmark table: the file holds a compressed landmark table (`cairns landmarks build MAP -k K --keep M`)"
        );

        let mut b = bytes(&compressed, hash);
        b[..8].copy_from_slice(b"CAIRNSJP");
        let e = CompressedTable::load_for(&b[..], &graph, hash).unwrap_err();
        assert_eq!(
            e.to_string(),
            "compressed landmark table: the file holds a jump table (`cairns table build MAP --search jps+`)"
        );
        assert_eq!(
            CompressedTable::load(&b[..], hash).unwrap_err().kind(),
            e.kind()
        );
    }

    #[test]
    fn each_problem_has_its_own_error() {
        let (graph, _, compressed, hash) = table();
        let good = bytes(&compressed, hash);
        let load = |b: &[u8]| kind(CompressedTable::load(b, hash));
        // Bad magic, another kind and another version: the suite of every
        // saved kind (`spec/tables.rs`).
        assert!(matches!(
            kind(CompressedTable::load(&good[..], hash ^ 1)),
            FileErrorKind::MapHashMismatch { .. }
        ));
        let four = grid_hash(graph.grid(), Neighborhood::Four);
        assert!(matches!(
            kind(CompressedTable::load(&good[..], four)),
            FileErrorKind::MovementMismatch { .. }
        ));
        let small = crate::graph::CsrGraph::from_edges(3, &[]).unwrap();
        assert_eq!(
            kind(CompressedTable::load_for(&good[..], &small, hash)),
            FileErrorKind::NodeCountMismatch {
                expected: 3,
                found: 18
            }
        );

        // Kept count 4 of 3 landmarks (offset 32: after the node count).
        let mut b = good.clone();
        b[32] = 4;
        assert_eq!(
            load(&b),
            FileErrorKind::BadKept {
                kept: 4,
                landmarks: 3
            }
        );
        // A landmark id beyond the nodes (offset 36: the first id).
        let mut b = good.clone();
        b[36..40].copy_from_slice(&18u32.to_le_bytes());
        assert!(matches!(
            load(&b),
            FileErrorKind::LandmarkOutOfRange { node: 18, .. }
        ));

        assert_eq!(load(&good[..good.len() - 1]), FileErrorKind::Truncated);
        assert_eq!(load(&good[..20]), FileErrorKind::Truncated);
        let mut b = good.clone();
        b[90] ^= 0x01;
        assert!(matches!(load(&b), FileErrorKind::ChecksumMismatch { .. }));

        // With the checksum redone: an entry naming landmark 3 of 3, and a
        // negative distance.
        let resum = |mut b: Vec<u8>| {
            let n = b.len() - 8;
            let sum = crate::saved::fnv1a(crate::saved::FNV_OFFSET, &b[..n]);
            b[n..].copy_from_slice(&sum.to_le_bytes());
            b
        };
        let entries = 36 + 12 + 36;
        let mut b = good.clone();
        b[entries + 5] = 3;
        assert_eq!(
            load(&resum(b)),
            FileErrorKind::BadLandmarkIndex {
                entry: 5,
                value: 3,
                landmarks: 3
            }
        );
        let mut b = good.clone();
        let d = entries + 18 * 2;
        b[d..d + 4].copy_from_slice(&(-1.0f32).to_le_bytes());
        assert!(matches!(
            load(&resum(b)),
            FileErrorKind::BadDistance { value: -1.0, .. }
        ));

        // A large but possible size on a short input: truncated, with
        // nothing allocated for it; an impossible one: too large.
        let mut b = good[..20].to_vec();
        b.extend_from_slice(&u64::from(u32::MAX).to_le_bytes());
        b.extend_from_slice(&64u32.to_le_bytes());
        b.extend_from_slice(&64u32.to_le_bytes());
        assert!(matches!(load(&b), FileErrorKind::Truncated));
        let mut b = good[..20].to_vec();
        b.extend_from_slice(&u64::MAX.to_le_bytes());
        b.extend_from_slice(&3u32.to_le_bytes());
        b.extend_from_slice(&2u32.to_le_bytes());
        assert!(matches!(load(&b), FileErrorKind::TooLarge { .. }));
    }
}
