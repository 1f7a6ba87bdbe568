//! An OPEN set stored in a dense array indexed by node id.

use super::slots::Slots;
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// A dense array indexed directly by node id holding each member's key, plus
/// the list of member nodes; popping scans the member list for the best key.
///
/// | operation | cost |
/// |---|---|
/// | `push` | `O(1)` amortized |
/// | `pop` | `O(n)` |
/// | `key` (membership) | `O(1)` |
/// | `decrease_key` | `O(1)` |
/// | `clear` | `O(n)` |
///
/// This is the "array indexed by state" of the classic A* literature: when
/// the state space is small and dense (a grid), every state gets a cell, so
/// membership and key updates are a single array access and cost nothing
/// next to the successor generation. Selecting the best entry is a linear
/// scan, so it suits small frontiers, or searches that update keys far more
/// often than they expand. Unlike [`UnsortedArray`](super::UnsortedArray),
/// the keys live at the nodes' own indices, so the pop scan reads them
/// scattered across the array rather than contiguously.
///
/// `clear` resets only the cells of the current members, so it costs
/// `O(n)`, never `O(node_bound)`.
///
/// Among entries with equal keys, `pop` returns the one earliest in the
/// member list (which `pop` reorders by moving the last member into the
/// popped one's place).
#[derive(Clone, Debug, Default)]
pub struct IndexedArray {
    keys: Slots<Option<Key>>,
    members: Vec<NodeId>,
}

impl IndexedArray {
    /// An empty array.
    pub fn new() -> Self {
        Self::default()
    }
}

impl OpenSet for IndexedArray {
    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        self.keys.insert_key(node, key);
        self.members.push(node);
    }

    fn prepare(&mut self, node_bound: usize) {
        self.keys.prepare(node_bound);
    }

    fn pop(&mut self) -> Option<(NodeId, Key)> {
        let mut best: Option<(usize, Key)> = None;
        for (i, n) in self.members.iter().enumerate() {
            let Some(k) = self.keys.at(*n) else {
                debug_assert!(false, "member {n} has no key");
                continue;
            };
            match best {
                Some((_, b)) if !k.precedes(b) => {}
                _ => best = Some((i, k)),
            }
        }
        let (i, key) = best?;
        let node = self.members.swap_remove(i);
        self.keys.set(node, None);
        Some((node, key))
    }

    #[inline]
    fn key(&self, node: NodeId) -> Option<Key> {
        self.keys.at(node)
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        match self.keys.at(node) {
            Some(old) => {
                old.debug_assert_lowered_to(key);
                self.keys.set(node, Some(key));
            }
            None => self.push(node, key),
        }
    }

    fn clear(&mut self) {
        for n in self.members.drain(..) {
            self.keys.set(n, None);
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.members.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::open::conformance::prepared_with;

    #[test]
    fn clear_forgets_membership_and_keeps_the_bound() {
        let mut a = prepared_with(IndexedArray::new(), 4, &[(0, 1.0, 0.0), (1, 2.0, 0.0)]);
        a.clear();
        assert_eq!(a.key(NodeId(0)), None);
        assert_eq!(a.key(NodeId(1)), None);
        a.push(NodeId(1), Key::new(3.0, 0.0));
        assert_eq!(a.key(NodeId(0)), None);
        assert_eq!(a.len(), 1);
        assert_eq!(a.keys.len(), 4);
    }
}
