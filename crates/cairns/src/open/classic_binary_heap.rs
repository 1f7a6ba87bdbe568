//! The textbook indexed binary heap: node ids in a 1-based array, keys and
//! positions in dense per-node arrays.

use super::sift::{self, ArrayHeap};
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
}

/// The textbook layout: slot 1 is the root, the parent of slot `i` is
/// `i / 2` and its children are `2i` and `2i + 1`.
impl ArrayHeap for ClassicBinaryHeap {
    type Item = NodeId;
    const ARITY: usize = 2;
    const ROOT: usize = 1;

    #[inline]
    fn slots(&self) -> &[NodeId] {
        &self.heap
    }

    /// Writes `node` to heap slot `i` and records its position.
    #[inline]
    fn put(&mut self, i: usize, node: NodeId) {
        self.heap[i] = node;
        self.position.set(node, i as u32);
    }

    /// Through the dense key array: the indirection this heap is here to
    /// measure.
    #[inline]
    fn key(&self, node: NodeId) -> Key {
        self.key_of(node)
    }

    #[inline]
    fn parent(i: usize) -> usize {
        i / 2
    }

    #[inline]
    fn first_child(i: usize) -> usize {
        2 * i
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
        let last = self.heap.len() - 1;
        sift::sift_up(self, last, node);
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
            let top = self.heap[1];
            sift::sift_down(self, 1, last);
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
                sift::sift_up(self, i, node);
            }
            None => self.push(node, key),
        }
    }

    fn clear(&mut self) {
        self.heap.truncate(1);
    }

    #[inline]
    fn len(&self) -> usize {
        self.heap.len() - 1
    }
}
