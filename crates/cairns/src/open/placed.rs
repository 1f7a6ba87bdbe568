//! Entries that remember their place: the shared parts of the OPEN sets
//! built from several containers (buckets, a heap on top, an overflow
//! list), where decrease-key must find a node's entry wherever it is.
//!
//! Each such structure keeps a dense array of [`Place`]s indexed by node id
//! and names its containers by `part` numbers. A place is trusted only when
//! the container it names holds the node at that index, so the array is
//! never cleared.

use super::Key;
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
