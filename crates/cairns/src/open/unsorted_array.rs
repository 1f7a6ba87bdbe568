//! An OPEN set kept as an unsorted array, scanned on every pop.

use super::slots::Slots;
use super::{Entry, Key, OpenSet};
use crate::graph::NodeId;

/// An unsorted array of `(node, key)` entries with each node's slot tracked
/// in a dense array: pushing appends, popping scans every entry for the best
/// one and fills its slot with the last entry.
///
/// | operation | cost |
/// |---|---|
/// | `push` | `O(1)` amortized |
/// | `pop` | `O(n)` |
/// | `key` (membership) | `O(1)` |
/// | `decrease_key` | `O(1)` |
/// | `clear` | `O(1)` |
///
/// This is the "unsorted list" of the classic A* literature: the simplest
/// OPEN set and the one whose insertions and updates cost nothing, at the
/// price of a linear scan per expansion. It is the right choice when OPEN
/// stays small (tens of entries: short paths, open maps with a good
/// heuristic), where a scan over a few contiguous cache lines beats a heap's
/// bookkeeping; on large frontiers the `O(n)` pop makes a search quadratic.
///
/// Many texts pair the unsorted array with a linear search for membership;
/// here the dense slot index makes [`key`](OpenSet::key) and
/// [`decrease_key`](OpenSet::decrease_key) `O(1)`. A slot is trusted only
/// when the entry it names holds that node, so the index is never cleared.
///
/// Among entries with equal keys, `pop` returns the one at the lowest slot.
#[derive(Clone, Debug, Default)]
pub struct UnsortedArray {
    entries: Vec<Entry>,
    slot: Slots,
}

impl UnsortedArray {
    /// An empty array.
    pub fn new() -> Self {
        Self::default()
    }
}

impl OpenSet for UnsortedArray {
    fn prepare(&mut self, node_bound: usize) {
        self.slot.prepare(node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        self.slot.claim(node, &self.entries);
        self.slot.set(node, self.entries.len() as u32);
        self.entries.push(Entry { key, node });
    }

    fn pop(&mut self) -> Option<(NodeId, Key)> {
        let (first, rest) = self.entries.split_first()?;
        let mut best = 0;
        let mut best_key = first.key;
        for (i, e) in rest.iter().enumerate() {
            if e.key.precedes(best_key) {
                best = i + 1;
                best_key = e.key;
            }
        }
        let top = self.entries.swap_remove(best);
        if let Some(moved) = self.entries.get(best) {
            self.slot.set(moved.node, best as u32);
        }
        Some((top.node, top.key))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.slot
            .find(node, &self.entries)
            .map(|i| self.entries[i].key)
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        match self.slot.find(node, &self.entries) {
            Some(i) => {
                self.entries[i].key.debug_assert_lowered_to(key);
                self.entries[i].key = key;
            }
            None => self.push(node, key),
        }
    }

    fn clear(&mut self) {
        self.entries.clear();
    }

    #[inline]
    fn len(&self) -> usize {
        self.entries.len()
    }
}
