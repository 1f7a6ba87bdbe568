//! A binary heap without decrease-key: improved keys are pushed again and
//! the stale entries skipped when they come out.

use super::{Key, OpenSet};
use crate::graph::NodeId;

/// A binary min-heap of `(key, node)` entries that handles decrease-key by
/// pushing a second entry ("lazy deletion"), with a dense per-node array of
/// current keys so that [`key`](OpenSet::key), [`len`](OpenSet::len) and
/// [`pop`](OpenSet::pop) see only the live entry of each node.
///
/// | operation | cost |
/// |---|---|
/// | push | `O(log N)` |
/// | pop | `O(log N)` amortised, including the stale entries it discards |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(log N)` (a push) |
/// | clear | `O(1)` |
///
/// where `N` counts stale entries too: at most the number of pushes plus
/// decrease-keys since the last clear. This is how most textbook and library
/// Dijkstra implementations use a plain priority queue (Chen, Chowdhury,
/// Ramachandran, Roche and Tong, "Priority queues and Dijkstra's algorithm",
/// 2007, found it usually faster than heaps with decrease-key), trading
/// `O(1)` extra memory per decrease-key for sifts without position updates.
///
/// # Stale entries
///
/// Each node has a current key and a generation stamp in dense arrays. An
/// entry is live when its node is stamped with the current generation and its
/// key is the node's current key; [`pop`](OpenSet::pop) discards the others,
/// so it never returns a stale entry. A node leaves the set by being popped
/// or by [`clear`](OpenSet::clear), which starts a new generation instead of
/// touching the arrays.
#[derive(Clone, Debug)]
pub struct LazyBinaryHeap {
    heap: Vec<Entry>,
    current: Vec<Current>,
    generation: u32,
    live: usize,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: Key,
    node: NodeId,
}

/// A node's live key, valid when `stamp` is the heap's generation.
#[derive(Clone, Copy, Debug, Default)]
struct Current {
    key: Key,
    stamp: u32,
}

impl Default for LazyBinaryHeap {
    fn default() -> Self {
        LazyBinaryHeap {
            heap: Vec::new(),
            current: Vec::new(),
            generation: 1,
            live: 0,
        }
    }
}

impl LazyBinaryHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of entries in the heap array, live or stale.
    pub fn entries(&self) -> usize {
        self.heap.len()
    }

    #[inline]
    fn current(&self, node: NodeId) -> Option<Key> {
        let c = self.current.get(node.index())?;
        (c.stamp == self.generation).then_some(c.key)
    }

    #[inline]
    fn insert(&mut self, node: NodeId, key: Key) {
        self.current[node.index()] = Current {
            key,
            stamp: self.generation,
        };
        self.heap.push(Entry { key, node });
        let mut i = self.heap.len() - 1;
        let entry = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !entry.key.precedes(p.key) {
                break;
            }
            self.heap[i] = p;
            i = parent;
        }
        self.heap[i] = entry;
    }

    /// Removes the top entry of the heap array, live or not.
    #[inline]
    fn pop_entry(&mut self) -> Option<Entry> {
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            return Some(last);
        }
        let top = self.heap[0];
        let len = self.heap.len();
        let mut i = 0;
        loop {
            let left = 2 * i + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && self.heap[right].key.precedes(self.heap[left].key) {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if !c.key.precedes(last.key) {
                break;
            }
            self.heap[i] = c;
            i = child;
        }
        self.heap[i] = last;
        Some(top)
    }
}

impl OpenSet for LazyBinaryHeap {
    fn prepare(&mut self, node_bound: usize) {
        if self.current.len() < node_bound {
            self.current.resize(node_bound, Current::default());
        }
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        debug_assert!(self.current(node).is_none(), "node {node} pushed twice");
        if self.current.len() <= node.index() {
            self.prepare(node.index() + 1);
        }
        self.live += 1;
        self.insert(node, key);
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        while let Some(Entry { key, node }) = self.pop_entry() {
            let c = &mut self.current[node.index()];
            // The key compares equal only to the node's latest entry, or to
            // an identical earlier one, which is as good.
            if c.stamp == self.generation && c.key == key {
                c.stamp = 0;
                self.live -= 1;
                return Some((node, key));
            }
        }
        None
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.current(node)
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        match self.current(node) {
            Some(old) => {
                old.debug_assert_lowered_to(key);
                if old != key {
                    self.insert(node, key);
                }
            }
            None => self.push(node, key),
        }
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.live = 0;
        if self.generation == u32::MAX {
            // Once in four billion clears: forget every stamp.
            for c in &mut self.current {
                c.stamp = 0;
            }
            self.generation = 0;
        }
        self.generation += 1;
    }

    #[inline]
    fn len(&self) -> usize {
        self.live
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::open::conformance::prepared_with;

    #[test]
    fn pops_in_key_order_and_skips_stale_entries() {
        let mut h = LazyBinaryHeap::new();
        crate::open::tests::push_tied(&mut h);
        h.decrease_key(NodeId(1), Key { f: 4.0, g: 2.0 });
        // Each decrease-key left a stale entry in the array.
        assert_eq!((h.len(), h.entries()), (4, 6));
        assert_eq!(h.key(NodeId(1)), Some(Key { f: 4.0, g: 2.0 }));
        assert_eq!(crate::open::conformance::pop_order(&mut h), [4, 2, 1, 3]);
        assert_eq!((h.len(), h.entries()), (0, 0));
    }

    #[test]
    fn a_popped_node_can_come_back() {
        let mut h = prepared_with(LazyBinaryHeap::new(), 4, &[(0, 1.0, 0.0)]);
        h.decrease_key(NodeId(0), Key::new(0.5, 0.0));
        assert_eq!(h.pop(), Some((NodeId(0), Key::new(0.5, 0.0))));
        // The stale entry (f = 1) is still in the array; pushing the node
        // again with that very key must give one entry, not two.
        h.push(NodeId(0), Key::new(1.0, 0.0));
        assert_eq!(h.len(), 1);
        assert_eq!(h.pop(), Some((NodeId(0), Key::new(1.0, 0.0))));
        assert_eq!(h.pop(), None);
    }
}
