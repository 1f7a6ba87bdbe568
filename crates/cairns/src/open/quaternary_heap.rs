//! A 4-ary indexed heap: shallower than a binary heap, with decrease-key.

use super::slots::{Holder, Slots};
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// Children per node.
const ARITY: usize = 4;

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

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: Key,
    node: NodeId,
}

impl Holder for Entry {
    #[inline]
    fn node(&self) -> NodeId {
        self.node
    }
}

impl QuaternaryHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes `entry` to heap slot `i` and records its position.
    #[inline]
    fn put(&mut self, i: usize, entry: Entry) {
        self.heap[i] = entry;
        self.position.set(entry.node, i as u32);
    }

    #[inline]
    fn sift_up(&mut self, mut i: usize) {
        let entry = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / ARITY;
            let p = self.heap[parent];
            if !entry.key.precedes(p.key) {
                break;
            }
            self.put(i, p);
            i = parent;
        }
        self.put(i, entry);
    }

    #[inline]
    fn sift_down(&mut self, mut i: usize) {
        let len = self.heap.len();
        let entry = self.heap[i];
        loop {
            let first = ARITY * i + 1;
            if first >= len {
                break;
            }
            let end = (first + ARITY).min(len);
            let mut child = first;
            for j in first + 1..end {
                if self.heap[j].key.precedes(self.heap[child].key) {
                    child = j;
                }
            }
            let c = self.heap[child];
            if !c.key.precedes(entry.key) {
                break;
            }
            self.put(i, c);
            i = child;
        }
        self.put(i, entry);
    }
}

impl OpenSet for QuaternaryHeap {
    fn prepare(&mut self, node_bound: usize) {
        self.position.prepare(node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        self.position.claim(node, &self.heap);
        self.heap.push(Entry { key, node });
        self.sift_up(self.heap.len() - 1);
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            return Some((last.node, last.key));
        }
        let top = std::mem::replace(&mut self.heap[0], last);
        self.sift_down(0);
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
                self.heap[i].key = key;
                self.sift_up(i);
            }
            None => self.push(node, key),
        }
    }

    const PEEKS: bool = true;

    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        self.heap.first().is_none_or(|top| key.precedes(top.key))
    }

    fn clear(&mut self) {
        self.heap.clear();
    }

    #[inline]
    fn len(&self) -> usize {
        self.heap.len()
    }
}
