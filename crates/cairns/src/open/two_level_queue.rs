//! A heap of the promising entries over an unsorted list of the rest.

use super::Entry;
use super::placed::{self, Filed, Layout, Place, heap, open_set_by_filed};

/// The part number of the heap.
const HEAP: u32 = 0;
/// The part number of the unsorted list.
const LIST: u32 = 1;

/// A two-level OPEN set: entries whose `f` is below a threshold ("good"
/// nodes) are kept in a binary heap, the others in an unsorted list. When
/// the heap empties, the threshold becomes the smallest `f` in the list plus
/// a fixed window, and the entries below it move to the heap.
///
/// | operation | cost |
/// |---|---|
/// | push | `O(1)` into the list, `O(log h)` into a heap of `h` entries |
/// | pop | `O(log h)`, plus `O(l)` when the heap is refilled from a list of `l` entries |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(1)` in the list, `O(log h)` into or in the heap |
/// | clear | `O(1)` |
///
/// This is the split used by the threshold algorithm of Glover, Glover and
/// Klingman (1984), which Cherkassky, Goldberg and Radzik ("Shortest paths
/// algorithms: theory and experimental evaluation", 1996) found among the
/// fastest in practice: most pushed entries are never the minimum, so they
/// need no order until they come near it. Unlike the bucket queues, this
/// needs no monotonicity: the heap always holds exactly the entries below
/// the threshold, so its minimum is the minimum of the set, and entries come
/// out in exact [`Key`](super::Key) order whatever the window.
///
/// A small window makes refills frequent, each scanning the whole list; a
/// large one makes the heap large.
#[derive(Clone, Debug)]
pub struct TwoLevelQueue {
    queue: Filed<TwoLevel>,
}

/// The [`Layout`] of a [`TwoLevelQueue`].
#[derive(Clone, Debug)]
struct TwoLevel {
    window: f64,
    threshold: f64,
    heap: Vec<Entry>,
    list: Vec<Entry>,
}

open_set_by_filed!(TwoLevelQueue);

impl TwoLevelQueue {
    /// The default window for octile grids: a few moves' worth of `f`
    /// above the list's minimum.
    pub const DEFAULT_WINDOW: f64 = 4.0;

    /// An empty queue with [`DEFAULT_WINDOW`](Self::DEFAULT_WINDOW).
    pub fn new() -> Self {
        Self::with_window(Self::DEFAULT_WINDOW)
    }

    /// An empty queue whose heap, when refilled, takes the entries with `f`
    /// below the list's minimum plus `window`.
    ///
    /// # Panics
    ///
    /// If `window` is not positive (it may be infinite: one big heap).
    pub fn with_window(window: f64) -> Self {
        assert!(window > 0.0, "window must be positive");
        TwoLevelQueue {
            queue: Filed::new(TwoLevel {
                window,
                threshold: f64::NEG_INFINITY,
                heap: Vec::new(),
                list: Vec::new(),
            }),
        }
    }

    /// The window.
    pub fn window(&self) -> f64 {
        self.queue.layout.window
    }
}

impl TwoLevel {
    /// Moves the entries below a new threshold from the list to the empty
    /// heap.
    fn refill(&mut self, places: &mut [Place]) {
        let Some(min) = self.list.iter().map(|e| e.key.f).reduce(f64::min) else {
            return;
        };
        let threshold = min + self.window;
        // A window lost to rounding next to a huge f takes everything.
        self.threshold = if threshold > min {
            threshold
        } else {
            f64::INFINITY
        };
        let mut i = 0;
        while i < self.list.len() {
            if self.list[i].key.f < self.threshold {
                let e = placed::take(&mut self.list, places, LIST, i);
                // Unsorted for now; heapified below.
                placed::append(&mut self.heap, places, HEAP, e);
            } else {
                i += 1;
            }
        }
        heap::heapify(&mut self.heap, places, HEAP);
    }
}

impl Layout for TwoLevel {
    #[inline]
    fn list(&self, part: u32) -> &[Entry] {
        if part == HEAP { &self.heap } else { &self.list }
    }

    #[inline]
    fn file(&mut self, places: &mut [Place], entry: Entry) {
        if entry.key.f < self.threshold {
            heap::push(&mut self.heap, places, HEAP, entry);
        } else {
            placed::append(&mut self.list, places, LIST, entry);
        }
    }

    #[inline]
    fn pop_first(&mut self, places: &mut [Place]) -> Option<Entry> {
        if self.heap.is_empty() {
            self.refill(places);
        }
        heap::pop(&mut self.heap, places, HEAP)
    }

    #[inline]
    fn lower(&mut self, places: &mut [Place], place: Place, entry: Entry) {
        let i = place.index as usize;
        if place.part == HEAP {
            heap::lower(&mut self.heap, places, HEAP, i, entry.key);
        } else if entry.key.f < self.threshold {
            placed::take(&mut self.list, places, LIST, i);
            heap::push(&mut self.heap, places, HEAP, entry);
        } else {
            self.list[i].key = entry.key;
        }
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.list.clear();
        self.threshold = f64::NEG_INFINITY;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::NodeId;
    use crate::open::conformance::{FAR_APART, prepared_with, push_keys};
    use crate::open::{Key, OpenSet};

    #[test]
    fn pops_in_key_order_across_refills() {
        let mut q = TwoLevelQueue::with_window(1.0);
        q.prepare(10);
        push_keys(&mut q, &FAR_APART);
        assert_eq!(q.pop().map(|(n, _)| n.0), Some(5));
        // Below the threshold (1.5): straight into the heap.
        q.decrease_key(NodeId(4), Key { f: 1.0, g: 0.5 });
        assert_eq!(q.queue.layout.heap.len(), 1);
        q.decrease_key(NodeId(1), Key { f: 5.5, g: 2.0 });
        assert_eq!(q.key(NodeId(1)), Some(Key { f: 5.5, g: 2.0 }));
        q.push(NodeId(6), Key { f: 0.75, g: 0.0 });
        let order = crate::open::conformance::pop_order(&mut q);
        assert_eq!(order, [6, 4, 2, 3, 1]);
        assert!(q.is_empty());
    }

    #[test]
    fn keys_need_not_be_monotone() {
        let mut q = prepared_with(TwoLevelQueue::new(), 4, &[(0, 10.0, 0.0), (1, 20.0, 0.0)]);
        assert_eq!(q.pop().map(|(n, _)| n.0), Some(0));
        q.push(NodeId(2), Key::new(1.0, 0.0));
        assert_eq!(q.pop().map(|(n, _)| n.0), Some(2));
        assert_eq!(q.pop().map(|(n, _)| n.0), Some(1));
    }
}
