//! Entries that remember their place: the shared parts of the OPEN sets
//! built from several containers (buckets, a heap on top, an overflow
//! list), where decrease-key must find a node's entry wherever it is.
//!
//! Each such structure keeps a dense array of [`Place`]s indexed by node id
//! and names its containers by `part` numbers. A place is trusted only when
//! the container it names holds the node at that index, so the array is
//! never cleared.

use super::slots::Slots;
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// An OPEN entry.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub key: Key,
    pub node: NodeId,
}

/// Where a node's entry is: container `part`, at `index`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Place {
    pub part: u32,
    pub index: u32,
}

/// A structure built of containers that each hold a list of entries, with
/// the [`Place`] of every node's entry.
pub(super) trait Parts {
    /// Container `part`; empty for a part number not in use.
    fn list(&self, part: u32) -> &[Entry];

    /// The place of each node's entry, trusted only where it [`holds`].
    fn places(&self) -> &Slots<Place>;

    /// Where `node`'s entry is, if it is in the set.
    #[inline]
    fn place(&self, node: NodeId) -> Option<Place> {
        self.places()
            .get(node, |place| holds(self.list(place.part), place, node))
    }

    /// Before a push of `node`: checks in debug builds that it is not in
    /// the set, and makes room for it.
    #[inline]
    fn claim(&mut self, node: NodeId)
    where
        Self: OpenSet,
    {
        debug_assert!(self.place(node).is_none(), "node {node} pushed twice");
        self.prepare(node.index() + 1);
    }

    /// The key of `node`, if it is in the set.
    #[inline]
    fn key_of(&self, node: NodeId) -> Option<Key> {
        let place = self.place(node)?;
        Some(self.list(place.part)[place.index as usize].key)
    }

    /// For a decrease-key: the place of `node`, if it is in the set,
    /// checking in debug builds that `key` does not raise its key.
    #[inline]
    fn place_to_lower(&self, node: NodeId, key: Key) -> Option<Place> {
        let place = self.place(node)?;
        self.list(place.part)[place.index as usize]
            .key
            .debug_assert_lowered_to(key);
        Some(place)
    }
}

/// The precondition of the bucket-based queues, checked in debug builds:
/// `f` is not negative (nor NaN). Keys below the current minimum are
/// allowed; see the `# Correctness` section of each queue.
#[inline]
pub(super) fn debug_assert_non_negative(queue: &str, key: Key) {
    debug_assert!(
        key.f >= 0.0,
        "{queue} needs non-negative keys: f {} (g {})",
        key.f,
        key.g
    );
}

/// Whether `list[place.index]` holds `node`.
#[inline]
pub(super) fn holds(list: &[Entry], place: Place, node: NodeId) -> bool {
    list.get(place.index as usize)
        .is_some_and(|e| e.node == node)
}

/// Appends `entry` to the unsorted `list` that is container `part`.
#[inline]
pub(super) fn append(list: &mut Vec<Entry>, places: &mut [Place], part: u32, entry: Entry) {
    places[entry.node.index()] = Place {
        part,
        index: list.len() as u32,
    };
    list.push(entry);
}

/// Removes `list[index]` from the unsorted `list` that is container `part`,
/// moving the last entry into the hole.
#[inline]
pub(super) fn take(list: &mut Vec<Entry>, places: &mut [Place], part: u32, index: usize) -> Entry {
    let entry = list.swap_remove(index);
    if let Some(moved) = list.get(index) {
        places[moved.node.index()] = Place {
            part,
            index: index as u32,
        };
    }
    entry
}

/// Binary min-heap operations on a list of entries that is container
/// `part`, keeping `places` up to date.
pub(super) mod heap {
    use super::{Entry, Place};

    #[inline]
    fn set(heap: &mut [Entry], places: &mut [Place], part: u32, i: usize, e: Entry) {
        heap[i] = e;
        places[e.node.index()] = Place {
            part,
            index: i as u32,
        };
    }

    /// Moves `heap[i]` up to its place.
    #[inline]
    pub(in crate::open) fn sift_up(
        heap: &mut [Entry],
        places: &mut [Place],
        part: u32,
        mut i: usize,
    ) {
        let entry = heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = heap[parent];
            if !entry.key.precedes(p.key) {
                break;
            }
            set(heap, places, part, i, p);
            i = parent;
        }
        set(heap, places, part, i, entry);
    }

    /// Moves `heap[i]` down to its place.
    #[inline]
    pub(in crate::open) fn sift_down(
        heap: &mut [Entry],
        places: &mut [Place],
        part: u32,
        mut i: usize,
    ) {
        let len = heap.len();
        let entry = heap[i];
        loop {
            let left = 2 * i + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && heap[right].key.precedes(heap[left].key) {
                right
            } else {
                left
            };
            let c = heap[child];
            if !c.key.precedes(entry.key) {
                break;
            }
            set(heap, places, part, i, c);
            i = child;
        }
        set(heap, places, part, i, entry);
    }

    /// Adds `entry`.
    #[inline]
    pub(in crate::open) fn push(
        heap: &mut Vec<Entry>,
        places: &mut [Place],
        part: u32,
        entry: Entry,
    ) {
        heap.push(entry);
        let last = heap.len() - 1;
        sift_up(heap, places, part, last);
    }

    /// Removes the first entry.
    #[inline]
    pub(in crate::open) fn pop(
        heap: &mut Vec<Entry>,
        places: &mut [Place],
        part: u32,
    ) -> Option<Entry> {
        let last = heap.pop()?;
        if heap.is_empty() {
            return Some(last);
        }
        let top = std::mem::replace(&mut heap[0], last);
        sift_down(heap, places, part, 0);
        Some(top)
    }

    /// Removes `heap[i]`.
    #[inline]
    pub(in crate::open) fn remove(
        heap: &mut Vec<Entry>,
        places: &mut [Place],
        part: u32,
        i: usize,
    ) -> Entry {
        let last = heap.pop().expect("remove from an empty heap");
        if i == heap.len() {
            return last;
        }
        let removed = std::mem::replace(&mut heap[i], last);
        sift_up(heap, places, part, i);
        // If `last` did not move up, it may need to move down.
        if heap[i].node == last.node {
            sift_down(heap, places, part, i);
        }
        removed
    }

    /// Turns an unsorted list into a heap in linear time (Floyd) and records
    /// every entry's place.
    pub(in crate::open) fn heapify(heap: &mut [Entry], places: &mut [Place], part: u32) {
        for (i, e) in heap.iter().enumerate() {
            places[e.node.index()] = Place {
                part,
                index: i as u32,
            };
        }
        for i in (0..heap.len() / 2).rev() {
            sift_down(heap, places, part, i);
        }
    }
}

/// A circular window of `K` buckets of `f`, each `width` wide, and an
/// unsorted overflow list for the entries beyond the window: the shared
/// part of [`BucketQueue`](super::BucketQueue) and
/// [`HotQueue`](super::HotQueue), which differ in how they keep the lowest
/// bucket.
#[derive(Clone, Debug)]
pub(super) struct Window {
    pub width: f64,
    /// Slot `b % K` holds bucket `b` while `b` is in the window.
    pub slots: Vec<Vec<Entry>>,
    pub overflow: Vec<Entry>,
    /// A lower bound on the bucket numbers in `overflow`.
    pub overflow_min: u64,
    /// Reused during redistribution of the overflow list.
    spill: Vec<Entry>,
}

impl Window {
    /// An empty window of `k` buckets, each covering `width` of `f`.
    ///
    /// # Panics
    ///
    /// If `width` is not positive and finite, or `k` is 0 or not below
    /// `max_k` (the part numbers above it name other containers).
    pub fn new(width: f64, k: usize, max_k: u32) -> Self {
        assert!(
            width > 0.0 && width.is_finite(),
            "bucket width must be positive and finite"
        );
        assert!(k > 0 && k < max_k as usize, "bad bucket count {k}");
        Window {
            width,
            slots: vec![Vec::new(); k],
            overflow: Vec::new(),
            overflow_min: u64::MAX,
            spill: Vec::new(),
        }
    }

    /// `K`, the number of buckets.
    #[inline]
    pub fn k(&self) -> u64 {
        self.slots.len() as u64
    }

    /// The bucket number of `f`.
    #[inline]
    pub fn bucket_of(&self, f: f64) -> u64 {
        // Saturates for huge and infinite f, below the "none" marker.
        ((f / self.width) as u64).min(u64::MAX - 1)
    }

    /// Appends `entry`, of bucket `b` beyond the window, to the overflow
    /// list, which is container `part`.
    #[inline]
    pub fn spill_over(&mut self, places: &mut [Place], part: u32, entry: Entry, b: u64) {
        self.overflow_min = self.overflow_min.min(b);
        append(&mut self.overflow, places, part, entry);
    }

    /// Empties the overflow list for redistribution, returning its entries;
    /// give the list back with [`reuse`](Self::reuse).
    #[inline]
    pub fn take_overflow(&mut self) -> Vec<Entry> {
        std::mem::swap(&mut self.overflow, &mut self.spill);
        self.overflow_min = u64::MAX;
        std::mem::take(&mut self.spill)
    }

    /// Keeps the allocation of a list from
    /// [`take_overflow`](Self::take_overflow) for the next one.
    #[inline]
    pub fn reuse(&mut self, mut spill: Vec<Entry>) {
        spill.clear();
        self.spill = spill;
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        for b in &mut self.slots {
            b.clear();
        }
        self.overflow.clear();
        self.overflow_min = u64::MAX;
    }
}
