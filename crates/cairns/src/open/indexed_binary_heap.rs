//! A binary heap that knows where each node is: the default OPEN set until
//! the [`QuaternaryHeap`](super::QuaternaryHeap).

use super::order::{decode, encode};
use super::slots::{self, Slots};
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// A binary min-heap of `(key, node)` entries with each node's position
/// tracked in a dense array, so that a node whose key improves moves up from
/// where it is (decrease-key) instead of being pushed again.
///
/// | operation | cost |
/// |---|---|
/// | `push` | `O(log n)` |
/// | `pop` | `O(log n)` |
/// | `key` (membership) | `O(1)` |
/// | `decrease_key` | `O(log n)` |
/// | `clear` | `O(1)` |
///
/// Three details make it fast (each measured, see `docs/performance.md`):
///
/// - Each key is stored as one 128-bit integer whose unsigned order is
///   the [`Key`] order (the bits of `f`, then the complemented bits of `g`),
///   so a comparison is a single branch-free integer compare, and the key
///   lives next to its node so a sift never leaves the heap array.
/// - `pop` moves the hole left by the minimum all the way down along the
///   smaller children (one comparison per level instead of two) and then
///   sifts the last entry up from there; the last entry usually belongs near
///   the bottom, so that sift is short.
/// - The position array is never cleared: a position is trusted only when
///   the heap slot it names holds that node, which makes `clear` free and
///   keeps a batch of searches from touching memory for nodes they never
///   reach.
#[derive(Clone, Debug, Default)]
pub struct IndexedBinaryHeap {
    heap: Vec<Entry>,
    position: Slots,
}

/// A heap entry: 24 bytes (a `u128` field would align the entry to 32).
#[derive(Clone, Copy, Debug)]
struct Entry {
    hi: u64,
    lo: u64,
    node: NodeId,
}

impl Entry {
    #[inline]
    fn new(order: u128, node: NodeId) -> Entry {
        Entry {
            hi: (order >> 64) as u64,
            lo: order as u64,
            node,
        }
    }

    #[inline]
    fn order(&self) -> u128 {
        (u128::from(self.hi) << 64) | u128::from(self.lo)
    }
}

super::slots::node_field_holder!(Entry);

impl IndexedBinaryHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes `entry` to heap slot `i` and records its position.
    ///
    /// Callers guarantee `i < self.heap.len()`; every node in the heap has
    /// `node.index() < self.position.len()` because `push` grows `position`
    /// before inserting.
    #[inline]
    fn place(&mut self, i: usize, entry: Entry) {
        debug_assert!(i < self.heap.len() && entry.node.index() < self.position.len());
        // SAFETY: both indices are in bounds by the invariants above, which
        // the model-based property test exercises after every operation.
        unsafe {
            *self.heap.get_unchecked_mut(i) = entry;
            *self.position.get_unchecked_mut(entry.node.index()) = i as u32;
        }
    }

    /// The entry in heap slot `i`, which callers guarantee is `< len`.
    #[inline]
    fn at(&self, i: usize) -> Entry {
        debug_assert!(i < self.heap.len());
        // SAFETY: callers pass `i < self.heap.len()` (loop bounds in the
        // sifts), checked in debug builds above.
        unsafe { *self.heap.get_unchecked(i) }
    }

    /// Moves `entry`, destined for slot `i`, up to where it belongs.
    #[inline]
    fn sift_up(&mut self, mut i: usize, entry: Entry) {
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.at(parent);
            if entry.order() >= p.order() {
                break;
            }
            self.place(i, p);
            i = parent;
        }
        self.place(i, entry);
    }
}

impl OpenSet for IndexedBinaryHeap {
    /// Grows the position array to `node_bound` and reserves room for
    /// `node_bound` entries (a node is on OPEN at most once), so that no
    /// later search on a graph of this size allocates. Reserved pages that
    /// are never written are never touched.
    fn prepare(&mut self, node_bound: usize) {
        self.position.prepare(node_bound);
        slots::reserve_total(&mut self.heap, node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        if self.position.lacks_room(node, &self.heap) {
            self.prepare(node.index() + 1);
        }
        let entry = Entry::new(encode(key), node);
        self.heap.push(entry);
        self.sift_up(self.heap.len() - 1, entry);
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        let last = self.heap.pop()?;
        let len = self.heap.len();
        if len == 0 {
            return Some((last.node, decode(last.order())));
        }
        let top = self.heap[0];
        // Walk the hole down to a leaf along the smaller children...
        let mut hole = 0;
        let mut child = 1;
        while child + 1 < len {
            child += usize::from(self.at(child + 1).order() < self.at(child).order());
            self.place(hole, self.at(child));
            hole = child;
            child = 2 * hole + 1;
        }
        if child < len {
            self.place(hole, self.at(child));
            hole = child;
        }
        // ...and fill it with the last entry, sifted up from there.
        self.sift_up(hole, last);
        Some((top.node, decode(top.order())))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.position
            .find(node, &self.heap)
            .map(|i| decode(self.heap[i].order()))
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        match self.position.find(node, &self.heap) {
            Some(i) => {
                let order = encode(key);
                debug_assert!(order <= self.heap[i].order(), "decrease_key raised a key");
                self.sift_up(i, Entry::new(order, node));
            }
            None => self.push(node, key),
        }
    }

    const PEEKS: bool = true;

    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        self.heap
            .first()
            .is_none_or(|top| encode(key) < top.order())
    }

    fn clear(&mut self) {
        self.heap.clear();
    }

    #[inline]
    fn len(&self) -> usize {
        self.heap.len()
    }
}
