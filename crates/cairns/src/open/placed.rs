//! Entries that remember their place: the shared parts of the OPEN sets
//! built from several containers (buckets, a heap on top, an overflow
//! list), where decrease-key must find a node's entry wherever it is.
//!
//! Each such structure is a [`Filed`] queue: a dense array of [`Place`]s
//! indexed by node id, the number of entries, and a [`Layout`] that names
//! its containers by `part` numbers and decides where entries go. A place
//! is trusted only when the container it names holds the node at that
//! index, so the array is never cleared.

use super::slots::Slots;
use super::{Entry, Key, OpenSet};
use crate::graph::NodeId;

/// Where a node's entry is: container `part`, at `index`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Place {
    pub part: u32,
    pub index: u32,
}

/// How a queue built on [`Filed`] arranges its containers: what differs
/// between the bucket, HOT, radix and two-level queues. Every method gets
/// the [`Place`] array to keep up to date as entries move.
pub(super) trait Layout {
    /// Container `part`; empty for a part number not in use.
    fn list(&self, part: u32) -> &[Entry];

    /// Files `entry`, new or taken out to move, where its key belongs.
    fn file(&mut self, places: &mut [Place], entry: Entry);

    /// Removes the entry that precedes all others; the queue is not empty.
    fn pop_first(&mut self, places: &mut [Place]) -> Option<Entry>;

    /// Gives the entry at `place`, which holds `entry.node`, the lower key
    /// `entry.key`: in place, or by moving it to another container.
    fn lower(&mut self, places: &mut [Place], place: Place, entry: Entry);

    /// Removes every entry.
    fn clear(&mut self);
}

/// A queue of entries in the containers of a [`Layout`], with the
/// [`Place`] of every node's entry and the number of entries: the part
/// that the queues built of several containers share, so that each of
/// them writes only its [`Layout`].
#[derive(Clone, Debug)]
pub(super) struct Filed<L> {
    pub layout: L,
    /// Trusted only where the container it names [`holds`] the node.
    places: Slots<Place>,
    len: usize,
}

impl<L: Layout> Filed<L> {
    /// An empty queue of `layout`, which holds no entries.
    pub fn new(layout: L) -> Self {
        Filed {
            layout,
            places: Slots::default(),
            len: 0,
        }
    }

    /// Where `node`'s entry is, if it is in the set.
    #[inline]
    fn place(&self, node: NodeId) -> Option<Place> {
        self.places.get(node, |place| {
            holds(self.layout.list(place.part), place, node)
        })
    }

    /// The entry at `place`, which is trusted.
    #[inline]
    fn at(&self, place: Place) -> Entry {
        self.layout.list(place.part)[place.index as usize]
    }
}

impl<L: Layout> OpenSet for Filed<L> {
    #[inline]
    fn prepare(&mut self, node_bound: usize) {
        self.places.prepare(node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        debug_assert!(self.place(node).is_none(), "node {node} pushed twice");
        self.places.prepare(node.index() + 1);
        self.layout.file(&mut self.places, Entry { key, node });
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.len == 0 {
            return None;
        }
        let e = self.layout.pop_first(&mut self.places)?;
        self.len -= 1;
        Some((e.node, e.key))
    }

    #[inline]
    fn key(&self, node: NodeId) -> Option<Key> {
        self.place(node).map(|place| self.at(place).key)
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(place) = self.place(node) else {
            self.push(node, key);
            return;
        };
        self.at(place).key.debug_assert_lowered_to(key);
        self.layout
            .lower(&mut self.places, place, Entry { key, node });
    }

    #[inline]
    fn clear(&mut self) {
        self.layout.clear();
        self.len = 0;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }
}

/// Implements [`Default`] (by `new()`) and [`OpenSet`] for a public queue
/// whose `queue` field is a [`Filed`], handing every call to that field:
/// the trait's boilerplate, written once for the four queues built on
/// [`Filed`]. The inline attributes are those the queues had when each
/// wrote its own impl.
macro_rules! open_set_by_filed {
    ($queue:ty) => {
        impl Default for $queue {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $crate::open::OpenSet for $queue {
            fn prepare(&mut self, node_bound: usize) {
                self.queue.prepare(node_bound);
            }

            fn push(&mut self, node: $crate::graph::NodeId, key: $crate::open::Key) {
                self.queue.push(node, key);
            }

            fn pop(&mut self) -> Option<($crate::graph::NodeId, $crate::open::Key)> {
                self.queue.pop()
            }

            fn key(&self, node: $crate::graph::NodeId) -> Option<$crate::open::Key> {
                self.queue.key(node)
            }

            fn decrease_key(&mut self, node: $crate::graph::NodeId, key: $crate::open::Key) {
                self.queue.decrease_key(node, key);
            }

            fn clear(&mut self) {
                self.queue.clear();
            }

            #[inline]
            fn len(&self) -> usize {
                self.queue.len()
            }
        }
    };
}
pub(super) use open_set_by_filed;

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
    use super::{Entry, Key, Place};

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
        heap: &mut [Entry], places: &mut [Place], part: u32, mut i: usize,
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
        heap: &mut [Entry], places: &mut [Place], part: u32, mut i: usize,
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

    /// Gives `heap[i]` the `key`, which does not come after its own, and
    /// moves it up to its place.
    #[inline]
    pub(in crate::open) fn lower(
        heap: &mut [Entry], places: &mut [Place], part: u32, i: usize, key: Key,
    ) {
        heap[i].key = key;
        sift_up(heap, places, part, i);
    }

    /// Adds `entry`.
    #[inline]
    pub(in crate::open) fn push(
        heap: &mut Vec<Entry>, places: &mut [Place], part: u32, entry: Entry,
    ) {
        heap.push(entry);
        let last = heap.len() - 1;
        sift_up(heap, places, part, last);
    }

    /// Removes the first entry.
    #[inline]
    pub(in crate::open) fn pop(
        heap: &mut Vec<Entry>, places: &mut [Place], part: u32,
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
        heap: &mut Vec<Entry>, places: &mut [Place], part: u32, i: usize,
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
    /// The container `part`: the overflow list when `part` is `overflow`
    /// (the number the queue gives it), else the slot of that number, empty
    /// when there is none.
    #[inline]
    pub fn part(&self, part: u32, overflow: u32) -> &[Entry] {
        if part == overflow {
            &self.overflow
        } else {
            self.slots.get(part as usize).map_or(&[], Vec::as_slice)
        }
    }

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
