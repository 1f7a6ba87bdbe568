//! A 4-ary indexed heap: shallower than a binary heap, with decrease-key.

use super::sift::{self, ArrayHeap};
use super::slots::Slots;
use super::{Entry, Key, OpenSet};
use crate::graph::NodeId;

/// A 4-ary min-heap of `(key, node)` entries with each node's position
/// tracked in a dense array, so that a node whose key improves moves up from
/// where it is (decrease-key).
///
/// | operation | cost |
/// |---|---|
/// | push | `O(log4 n)` |
/// | pop | `O(4 log4 n)` comparisons, `O(log4 n)` moves |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(log4 n)` |
/// | clear | `O(1)` |
///
/// The d-ary heap is Johnson's (1975) generalisation of the binary heap for
/// graphs with many decrease-keys: a wider node makes push and decrease-key
/// (sift up) cheaper, at the price of `d - 1` comparisons per level in pop
/// (sift down). Johnson suggested `d = max(2, m / n)`; with `d = 4` the four
/// children of a node are adjacent in memory, and the measurements of
/// LaMarca and Ladner (1996) and of Larkin, Sen and Tarjan (2014) find the
/// 4-ary heap at least as fast as the binary heap in practice.
///
/// Keys live in the heap array next to their node, as in
/// [`IndexedBinaryHeap`](super::IndexedBinaryHeap), and the position array
/// is never cleared: a position is trusted only when the heap slot it names
/// holds that node, which makes `clear` free.
#[expect(clippy::doc_markdown, reason = "LaMarca is a name, not code")]
#[derive(Clone, Debug, Default)]
pub struct QuaternaryHeap {
    heap: Vec<Entry>,
    position: Slots,
}

impl QuaternaryHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }
}

impl ArrayHeap for QuaternaryHeap {
    type Item = Entry;
    const ARITY: usize = 4;

    #[inline]
    fn slots(&self) -> &[Entry] {
        &self.heap
    }

    /// Writes `entry` to heap slot `i` and records its position.
    #[inline]
    fn put(&mut self, i: usize, entry: Entry) {
        self.heap[i] = entry;
        self.position.set(entry.node, i as u32);
    }

    #[inline]
    fn key(&self, entry: Entry) -> Key {
        entry.key
    }
}

impl OpenSet for QuaternaryHeap {
    fn prepare(&mut self, node_bound: usize) {
        self.position.prepare(node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        self.position.claim(node, &self.heap);
        let entry = Entry { key, node };
        self.heap.push(entry);
        let last = self.heap.len() - 1;
        sift::sift_up(self, last, entry);
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            return Some((last.node, last.key));
        }
        let top = self.heap[0];
        sift::sift_down(self, 0, last);
        Some((top.node, top.key))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.position
            .find(node, &self.heap)
            .map(|i| self.heap[i].key)
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        match self.position.find(node, &self.heap) {
            Some(i) => {
                self.heap[i].key.debug_assert_lowered_to(key);
                sift::sift_up(self, i, Entry { key, node });
            }
            None => self.push(node, key),
        }
    }

    fn clear(&mut self) {
        self.heap.clear();
    }

    #[inline]
    fn len(&self) -> usize {
        self.heap.len()
    }
}
