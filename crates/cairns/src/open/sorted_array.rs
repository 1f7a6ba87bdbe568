//! An OPEN set kept as a sorted array with the best entry at the end.

use super::slots::Slots;
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// An array of `(node, key)` entries sorted from worst to best, so that
/// popping the best is a plain [`Vec::pop`]. Insertion finds its place by
/// binary search and shifts the better entries up by one; each node's key
/// is also kept in a dense array for membership.
///
/// | operation | cost |
/// |---|---|
/// | `push` | `O(log n)` comparisons + `O(n)` moves |
/// | `pop` | `O(1)` |
/// | `key` (membership) | `O(1)` |
/// | `decrease_key` | `O(log n + e)` comparisons + `O(n)` moves |
/// | `clear` | `O(n)` |
///
/// (`e` is the number of entries whose key equals the old one.)
///
/// This is the "sorted array" or "sorted list" of the classic A* literature:
/// the best node is always at hand, so expansion is free, and the cost moves
/// to insertion. It fits searches that expand much more often than they
/// insert, or whose OPEN stays small, where one `memmove` of a short,
/// contiguous array is cheaper than a heap's scattered sifts; with large
/// frontiers every push pays for shifting the better half of the array.
///
/// [`decrease_key`](OpenSet::decrease_key) finds the entry by binary search
/// on its old key, then scans the run of equal keys for the node. It then
/// removes it and reinserts it at its new place by rotating only the
/// entries in between, since a better key can only move toward the end.
///
/// Among entries with equal keys, the one pushed (or decreased) last is
/// popped first: a new entry goes after the entries with its key.
#[derive(Clone, Debug, Default)]
pub struct SortedArray {
    /// Sorted so that no entry precedes an entry before it.
    entries: Vec<Entry>,
    /// The key of each member node, `None` for the others.
    keys: Slots<Option<Key>>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    node: NodeId,
    key: Key,
}

impl SortedArray {
    /// An empty array.
    pub fn new() -> Self {
        Self::default()
    }

    /// Where `key` goes among `entries`: after every entry it does not
    /// precede, so after the entries that equal it.
    #[inline]
    fn insertion_point(entries: &[Entry], key: Key) -> usize {
        entries.partition_point(|e| !e.key.precedes(key))
    }

    /// The index of `node`, whose key is `key`.
    fn position(&self, node: NodeId, key: Key) -> usize {
        let first = self.entries.partition_point(|e| key.precedes(e.key));
        self.entries[first..]
            .iter()
            .position(|e| e.node == node)
            .map(|i| first + i)
            .expect("a member node is in the array")
    }
}

impl OpenSet for SortedArray {
    fn prepare(&mut self, node_bound: usize) {
        self.keys.prepare(node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        self.keys.insert_key(node, key);
        let i = Self::insertion_point(&self.entries, key);
        self.entries.insert(i, Entry { node, key });
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        let top = self.entries.pop()?;
        self.keys.set(top.node, None);
        Some((top.node, top.key))
    }

    #[inline]
    fn key(&self, node: NodeId) -> Option<Key> {
        self.keys.at(node)
    }

    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(old) = self.key(node) else {
            self.push(node, key);
            return;
        };
        old.debug_assert_lowered_to(key);
        let i = self.position(node, old);
        // The entries after `i` that the new key does not precede end up
        // before it: rotate them down by one and put the entry after them.
        let j = i + 1 + Self::insertion_point(&self.entries[i + 1..], key);
        self.entries[i..j].rotate_left(1);
        self.entries[j - 1].key = key;
        self.keys.set(node, Some(key));
    }

    const PEEKS: bool = true;

    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        self.entries.last().is_none_or(|top| key.precedes(top.key))
    }

    fn clear(&mut self) {
        for e in self.entries.drain(..) {
            self.keys.set(e.node, None);
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_sorted(a: &SortedArray) {
        for w in a.entries.windows(2) {
            assert!(!w[0].key.precedes(w[1].key), "{w:?} out of order");
        }
    }

    #[test]
    fn equal_keys_pop_last_pushed_first() {
        let mut a = SortedArray::new();
        let k = Key { f: 2.0, g: 1.0 };
        a.push(NodeId(9), Key { f: 1.0, g: 0.0 });
        for n in [7, 3, 5] {
            a.push(NodeId(n), k);
        }
        a.push(NodeId(8), Key { f: 2.0, g: 0.0 });
        // Decreasing 7 to the key it already has moves it to the front of
        // its run, as a removal and reinsertion would.
        a.decrease_key(NodeId(7), k);
        assert_sorted(&a);
        let order = crate::open::conformance::pop_order(&mut a);
        assert_eq!(order, [9, 7, 5, 3, 8]);
    }

    #[test]
    fn decrease_key_finds_the_node_among_equal_keys() {
        let mut a = SortedArray::new();
        let k = Key { f: 4.0, g: 2.0 };
        for n in 0..6 {
            a.push(NodeId(n), k);
        }
        a.decrease_key(NodeId(2), Key { f: 3.0, g: 3.0 });
        a.decrease_key(NodeId(4), Key { f: 4.0, g: 2.5 });
        assert_sorted(&a);
        let order = crate::open::conformance::pop_order(&mut a);
        assert_eq!(order, [2, 4, 5, 3, 1, 0]);
    }
}
