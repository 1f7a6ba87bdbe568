//! The two sifts of an implicit d-ary heap, written once for the array
//! heaps that differ only in what a slot holds, where its [`Key`] is and
//! what else must be written when an item moves (a node's position, or
//! nothing). Each sift reads the key of the item it moves once.
//!
//! [`IndexedBinaryHeap`](super::IndexedBinaryHeap) keeps its own sifts:
//! its pop walks the hole to a leaf first, a different algorithm.

use super::{Entry, Key};

/// An array heap as the sifts see it: slots `ROOT..`, the children of
/// slot `i` from [`first_child(i)`](ArrayHeap::first_child), `ARITY` of
/// them.
pub(super) trait ArrayHeap {
    /// What a slot holds.
    type Item: Copy;

    /// Children per slot.
    const ARITY: usize;

    /// The slot of the root: 0, or 1 in a heap laid out 1-based.
    const ROOT: usize = 0;

    /// The slots, counting any before [`ROOT`](Self::ROOT).
    fn slots(&self) -> &[Self::Item];

    /// Writes `item` to slot `i`, and records its position where the heap
    /// keeps positions.
    fn put(&mut self, i: usize, item: Self::Item);

    /// The key of `item`, by which items are ordered.
    fn key(&self, item: Self::Item) -> Key;

    /// The parent of slot `i`, which is not the root.
    #[inline]
    fn parent(i: usize) -> usize {
        (i - 1) / Self::ARITY
    }

    /// The first child of slot `i`.
    #[inline]
    fn first_child(i: usize) -> usize {
        Self::ARITY * i + 1
    }
}

/// A binary heap of entries that records nothing when they move.
impl ArrayHeap for [Entry] {
    type Item = Entry;
    const ARITY: usize = 2;

    #[inline]
    fn slots(&self) -> &[Entry] {
        self
    }

    #[inline]
    fn put(&mut self, i: usize, entry: Entry) {
        self[i] = entry;
    }

    #[inline]
    fn key(&self, entry: Entry) -> Key {
        entry.key
    }
}

/// Moves `item`, bound for slot `i`, up to its place.
#[inline]
pub(super) fn sift_up<H: ArrayHeap + ?Sized>(heap: &mut H, mut i: usize, item: H::Item) {
    let key = heap.key(item);
    while i > H::ROOT {
        let parent = H::parent(i);
        let p = heap.slots()[parent];
        if !key.precedes(heap.key(p)) {
            break;
        }
        heap.put(i, p);
        i = parent;
    }
    heap.put(i, item);
}

/// Moves `item`, bound for slot `i`, down to its place.
#[inline]
pub(super) fn sift_down<H: ArrayHeap + ?Sized>(heap: &mut H, mut i: usize, item: H::Item) {
    let len = heap.slots().len();
    let key = heap.key(item);
    loop {
        let first = H::first_child(i);
        if first >= len {
            break;
        }
        // The first of the children, chosen by index alone: for two
        // children this is the select of the textbook binary heap, which
        // carrying the best child's key along was measured to slow down.
        let mut child = first;
        for j in first + 1..(first + H::ARITY).min(len) {
            if heap
                .key(heap.slots()[j])
                .precedes(heap.key(heap.slots()[child]))
            {
                child = j;
            }
        }
        let c = heap.slots()[child];
        if !heap.key(c).precedes(key) {
            break;
        }
        heap.put(i, c);
        i = child;
    }
    heap.put(i, item);
}
