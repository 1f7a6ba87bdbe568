//! The textbook indexed binary heap: node ids in a 1-based array, keys and
//! positions in dense per-node arrays.

use super::slots::Slots;
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// A binary min-heap laid out as in the textbooks: a 1-based array of node
/// ids (slot 0 unused, so the parent of slot `i` is `i / 2` and its children
/// are `2i` and `2i + 1`), each node's key in a dense array indexed by node
/// id, and each node's heap slot in another dense array.
///
/// | operation | cost |
/// |---|---|
/// | push | `O(log n)` |
/// | pop | `O(log n)` |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(log n)` |
/// | clear | `O(1)` |
///
/// This is the heap of Williams (1964) with the position array that
/// Dijkstra's and Prim's algorithms need for decrease-key, as in Cormen et
/// al. and Sedgewick's `IndexMinPQ`. Compared with
/// [`IndexedBinaryHeap`](super::IndexedBinaryHeap), every comparison during
/// a sift reads the key of a node through the dense key array: one more
/// indirection, into memory spread over the whole graph, in exchange for a
/// heap array of 4-byte entries. It is here as the baseline that the
/// literature measures against.
///
/// Neither dense array is cleared between searches: a node's slot is trusted
/// only when the heap array holds that node there, and its key only when its
/// slot is trusted.
#[derive(Clone, Debug)]
pub struct ClassicBinaryHeap {
    /// `heap[1..]` is the heap; `heap[0]` is a placeholder, `NodeId::NONE`,
    /// so a position of 0 never holds a node.
    heap: Vec<NodeId>,
    keys: Vec<Key>,
    position: Slots,
}

impl Default for ClassicBinaryHeap {
    fn default() -> Self {
        ClassicBinaryHeap {
            heap: vec![NodeId::NONE],
            keys: Vec::new(),
            position: Slots::default(),
        }
    }
}

impl ClassicBinaryHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn key_of(&self, node: NodeId) -> Key {
        self.keys[node.index()]
    }

    /// Writes `node` to heap slot `i` and records its position.
    #[inline]
    fn put(&mut self, i: usize, node: NodeId) {
        self.heap[i] = node;
        self.position.set(node, i as u32);
    }

    #[inline]
    fn sift_up(&mut self, mut i: usize) {
        let node = self.heap[i];
        let key = self.key_of(node);
        while i > 1 {
            let parent = i / 2;
            let p = self.heap[parent];
            if !key.precedes(self.key_of(p)) {
                break;
            }
            self.put(i, p);
            i = parent;
        }
        self.put(i, node);
    }

    #[inline]
    fn sift_down(&mut self, mut i: usize) {
        let len = self.heap.len();
        let node = self.heap[i];
        let key = self.key_of(node);
        loop {
            let left = 2 * i;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len
                && self
                    .key_of(self.heap[right])
                    .precedes(self.key_of(self.heap[left]))
            {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if !self.key_of(c).precedes(key) {
                break;
            }
            self.put(i, c);
            i = child;
        }
        self.put(i, node);
    }
}

impl OpenSet for ClassicBinaryHeap {
    fn prepare(&mut self, node_bound: usize) {
        self.position.prepare(node_bound);
        if self.keys.len() < node_bound {
            self.keys.resize(node_bound, Key::default());
        }
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        debug_assert!(
            self.position.find(node, &self.heap).is_none(),
            "node {node} pushed twice"
        );
        self.prepare(node.index() + 1);
        self.keys[node.index()] = key;
        self.heap.push(node);
        self.sift_up(self.heap.len() - 1);
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.heap.len() <= 1 {
            return None;
        }
        let last = self.heap.pop()?;
        let top = if self.heap.len() == 1 {
            last
        } else {
            let top = std::mem::replace(&mut self.heap[1], last);
            self.sift_down(1);
            top
        };
        Some((top, self.key_of(top)))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.position
            .find(node, &self.heap)
            .map(|_| self.key_of(node))
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        match self.position.find(node, &self.heap) {
            Some(i) => {
                self.key_of(node).debug_assert_lowered_to(key);
                self.keys[node.index()] = key;
                self.sift_up(i);
            }
            None => self.push(node, key),
        }
    }

    const PEEKS: bool = true;

    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        self.heap.len() <= 1 || key.precedes(self.key_of(self.heap[1]))
    }

    fn clear(&mut self) {
        self.heap.truncate(1);
    }

    #[inline]
    fn len(&self) -> usize {
        self.heap.len() - 1
    }
}
