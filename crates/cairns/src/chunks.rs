//! A vector whose copies share memory until they write: the values are
//! kept in chunks of `CHUNK` behind an [`Arc`] each, so a clone costs a
//! reference count per chunk and a write copies only the chunk it lands
//! in (when another copy still shares it).
//!
//! This is what lets an edited map's tables be made from the old map's
//! without copying them whole: [`JumpTable`](crate::search::JumpTable)
//! keeps its entries this way, so an engine edit
//! ([`Engine::edited`](crate::spec::Engine::edited)) clones the table in
//! microseconds and its repair copies the few chunks it changes.

use std::sync::Arc;

/// `Copy` values in chunks of `CHUNK` (a power of two) that clones share
/// until one of them writes to a chunk. Reads cost one more indirection
/// than a `Vec`'s.
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedChunks<T, const CHUNK: usize> {
    chunks: Vec<Arc<[T]>>,
    len: usize,
}

impl<T: Copy, const CHUNK: usize> SharedChunks<T, CHUNK> {
    /// Checked at compile time where the type is used: chunks are a
    /// power of two, so that an index splits with a shift and a mask.
    const POWER_OF_TWO: () = assert!(CHUNK.is_power_of_two());

    /// `len` values, the value of index `i` being `value(i)`.
    pub(crate) fn from_fn(len: usize, value: impl Fn(usize) -> T) -> Self {
        let () = Self::POWER_OF_TWO;
        let chunks = (0..len.div_ceil(CHUNK))
            .map(|k| (k * CHUNK..len.min((k + 1) * CHUNK)).map(&value).collect())
            .collect();
        SharedChunks { chunks, len }
    }

    /// Like [`from_fn`](Self::from_fn), the chunks made in parallel.
    pub(crate) fn par_from_fn(len: usize, value: impl Fn(usize) -> T + Sync) -> Self
    where
        T: Send + Sync,
    {
        use rayon::prelude::*;
        let () = Self::POWER_OF_TWO;
        let chunks = (0..len.div_ceil(CHUNK))
            .into_par_iter()
            .map(|k| (k * CHUNK..len.min((k + 1) * CHUNK)).map(&value).collect())
            .collect();
        SharedChunks { chunks, len }
    }

    /// The number of values.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The value at `i`.
    ///
    /// # Panics
    ///
    /// If `i` is out of range.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> T {
        self.chunks[i / CHUNK][i % CHUNK]
    }

    /// The `n` values from `i`, which must lie in one chunk (`i / CHUNK ==
    /// (i + n - 1) / CHUNK`).
    ///
    /// # Panics
    ///
    /// If they are out of range or cross a chunk's end.
    #[inline]
    pub(crate) fn run(&self, i: usize, n: usize) -> &[T] {
        let at = i % CHUNK;
        &self.chunks[i / CHUNK][at..at + n]
    }

    /// Sets the value at `i`, first copying its chunk if another clone
    /// shares it.
    ///
    /// # Panics
    ///
    /// If `i` is out of range.
    #[inline]
    pub(crate) fn set(&mut self, i: usize, value: T) {
        Arc::make_mut(&mut self.chunks[i / CHUNK])[i % CHUNK] = value;
    }

    /// Every value in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.chunks.iter().flat_map(|c| c.iter().copied())
    }
}

/// Equal values; chunks still shared are equal without a look.
impl<T: PartialEq, const CHUNK: usize> PartialEq for SharedChunks<T, CHUNK> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && self
                .chunks
                .iter()
                .zip(&other.chunks)
                .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
    }
}

impl<T: Eq, const CHUNK: usize> Eq for SharedChunks<T, CHUNK> {}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Writes through a clone leave the original as it was, and each
        /// behaves as a `Vec` given the same writes.
        #[test]
        fn clones_behave_as_vectors(
            len in 0usize..40,
            writes in prop::collection::vec((any::<usize>(), any::<u8>(), any::<bool>()), 0..30),
        ) {
            let a = SharedChunks::<u8, 8>::from_fn(len, |i| i as u8);
            let mut b = a.clone();
            let mut c = a.clone();
            let mut model_b: Vec<u8> = a.iter().collect();
            let mut model_c = model_b.clone();
            for (i, v, to_b) in writes {
                if len == 0 {
                    break;
                }
                let i = i % len;
                if to_b {
                    b.set(i, v);
                    model_b[i] = v;
                } else {
                    c.set(i, v);
                    model_c[i] = v;
                }
            }
            prop_assert_eq!(a.iter().collect::<Vec<_>>(), (0..len).map(|i| i as u8).collect::<Vec<_>>());
            prop_assert_eq!(b.iter().collect::<Vec<_>>(), model_b.clone());
            prop_assert_eq!(c.iter().collect::<Vec<_>>(), model_c.clone());
            prop_assert_eq!(b == c, model_b == model_c);
            prop_assert_eq!(b.len(), len);
            for i in 0..len {
                prop_assert_eq!(b.get(i), model_b[i]);
            }
            let par = SharedChunks::<u8, 8>::par_from_fn(len, |i| model_b[i]);
            prop_assert!(par == b);
        }
    }

    #[test]
    fn a_run_reads_inside_one_chunk() {
        let v = SharedChunks::<u16, 4>::from_fn(10, |i| i as u16);
        assert_eq!(v.run(4, 4), [4, 5, 6, 7]);
        assert_eq!(v.run(8, 2), [8, 9]);
    }
}
