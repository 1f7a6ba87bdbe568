//! An OPEN set stored in a hash table from node to key.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Key, OpenSet};
use crate::graph::NodeId;

/// A hash table from node to key; popping scans every entry for the best
/// key.
///
/// | operation | cost |
/// |---|---|
/// | `push` | `O(1)` expected, amortized |
/// | `pop` | `O(n)`, over the table's capacity |
/// | `key` (membership) | `O(1)` expected |
/// | `decrease_key` | `O(1)` expected |
/// | `clear` | `O(capacity)` byte writes |
///
/// The classic A* literature uses a hash table for OPEN when the state
/// space is too large or too sparse to give every state an array cell
/// (puzzles, planning domains, implicit graphs): memory is proportional to
/// the frontier rather than to the number of states, and membership tests
/// stay `O(1)`. Used alone, selecting the best entry is a full scan, so in
/// practice it is paired with a priority queue; on dense grid ids an
/// [`IndexedArray`](super::IndexedArray) does the same job without hashing.
///
/// The table keeps its capacity across [`clear`](OpenSet::clear) so that
/// later searches do not reallocate. Both `clear` and the scan in `pop`
/// walk the table's buckets, about one control byte per bucket, so they
/// cost `O(capacity)`, where the capacity tracks the largest OPEN set held
/// so far, never the node bound. [`prepare`](OpenSet::prepare) does
/// nothing.
///
/// The hasher is a multiplicative one in the style of `FxHash`, which is
/// fast on the small integer ids that dense graphs use and is not meant to
/// resist adversarial keys. Among entries with equal keys, `pop` returns the
/// one with the smallest node id, whatever the table's iteration order.
#[derive(Clone, Debug, Default)]
pub struct HashTable {
    map: HashMap<NodeId, Key, BuildHasherDefault<IdHasher>>,
}

/// A multiplicative hasher for small integer keys, after rustc's `FxHasher`.
#[derive(Clone, Copy, Debug, Default)]
struct IdHasher {
    hash: u64,
}

impl IdHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for IdHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.add(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

impl HashTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }
}

impl OpenSet for HashTable {
    fn prepare(&mut self, _node_bound: usize) {}

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        let old = self.map.insert(node, key);
        debug_assert!(old.is_none(), "node {node} pushed twice");
    }

    fn pop(&mut self) -> Option<(NodeId, Key)> {
        let mut best: Option<(NodeId, Key)> = None;
        for (&n, &k) in &self.map {
            match best {
                Some((bn, bk)) if !k.precedes(bk) && (bk.precedes(k) || bn < n) => {}
                _ => best = Some((n, k)),
            }
        }
        let (node, key) = best?;
        self.map.remove(&node);
        Some((node, key))
    }

    #[inline]
    fn key(&self, node: NodeId) -> Option<Key> {
        self.map.get(&node).copied()
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let old = self.map.insert(node, key);
        debug_assert!(
            old.is_none_or(|old| !old.precedes(key)),
            "decrease_key raised a key"
        );
    }

    fn clear(&mut self) {
        self.map.clear();
    }

    #[inline]
    fn len(&self) -> usize {
        self.map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hasher_spreads_consecutive_ids() {
        use std::hash::Hash;
        let hash = |n: u32| {
            let mut h = IdHasher::default();
            NodeId(n).hash(&mut h);
            h.finish()
        };
        // The top 7 bits pick a bucket's tag and the low bits its group:
        // consecutive ids must differ in both.
        let tops: std::collections::HashSet<u64> = (0..64).map(|n| hash(n) >> 57).collect();
        let lows: std::collections::HashSet<u64> = (0..64).map(|n| hash(n) & 63).collect();
        assert!(tops.len() > 32, "{} distinct tags", tops.len());
        assert_eq!(lows.len(), 64);
    }
}
