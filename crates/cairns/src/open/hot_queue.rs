//! The heap-on-top queue: buckets of `f`, with a heap only for the lowest.

use super::Entry;
use super::placed::{self, Filed, Layout, Place, Window, heap, open_set_by_filed};

/// The part number of the heap on top.
const HEAP: u32 = u32::MAX;
/// The part number of the overflow list.
const OVERFLOW: u32 = u32::MAX - 1;

/// The heap-on-top (HOT) queue of Cherkassky, Goldberg and Silverstein
/// ("Buckets, heaps, lists, and monotone priority queues", 1997/1999): `K`
/// buckets, each covering a range of `f` of a fixed width, where only the
/// lowest non-empty bucket is kept as a binary heap and the others are
/// unsorted lists. When the heap empties, the next non-empty bucket becomes
/// the top and is heapified in linear time.
///
/// Bucket `b` holds the entries with `floor(f / width) == b`. The buckets
/// form a window of `K` consecutive bucket numbers starting at the top's,
/// kept in a circular array; entries beyond the window wait in an unsorted
/// overflow list, which is redistributed when the window reaches its lowest
/// entry.
///
/// | operation | cost |
/// |---|---|
/// | push | `O(1)`, or `O(log t)` into the top heap of `t` entries |
/// | pop | `O(log t)`, plus `O(K + b)` when the top moves on to a bucket of `b` entries (and the overflow list, when the window reaches it) |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(1)`, or `O(log t)` in the top heap |
/// | clear | `O(K)` |
///
/// Cherkassky, Goldberg and Silverstein combine a multi-level bucket
/// structure with a heap on top and prove `O(m + n (log C)^(1/3 + e))`
/// expected time for Dijkstra's algorithm with integer costs up to `C`;
/// this one-level version keeps their idea that keys far from the minimum
/// need no order until they come near it. Within the top bucket, entries
/// come out in exact [`Key`](super::Key) order, so bucketing changes no result.
///
/// # Correctness
///
/// Keys must be non-negative, and for speed *monotone*: every key pushed
/// or decreased to has an `f` no smaller than the `f` of the last entry
/// popped (since the last [`clear`](crate::open::OpenSet::clear)), as in A* with a
/// consistent heuristic and non-negative costs, or Dijkstra.
///
/// Monotone keys are what make the queue fast, not what makes it right: a
/// key below the top bucket is filed in the top heap, whose order is exact,
/// and still comes out in [`Key`](super::Key) order. Such keys come from rounding: an
/// ulp in `f = g + h`, or up to `1.5 *`
/// [`margin`](crate::landmarks::LandmarkTable::margin) under a landmark
/// table that is not exact (costs off the `2^-23` lattice, or a version 1
/// file of `f32` distances), whose margin breaks consistency by that much. That
/// margin grows with the largest distance in the table, not with `f`, so
/// no tolerance relative to `f` would cover it, and the queue asks for
/// none: debug builds assert only that keys are not negative (nor NaN). A
/// heuristic inconsistent by more than rounding makes the top heap do the
/// work of the whole queue: correct, but a plain heap is then the better
/// choice.
#[derive(Clone, Debug)]
pub struct HotQueue {
    queue: Filed<Hot>,
}

/// The [`Layout`] of a [`HotQueue`].
#[derive(Clone, Debug)]
struct Hot {
    /// The unsorted buckets `top + 1 .. top + K` (the window's slot for
    /// bucket `top` is empty).
    window: Window,
    /// Bucket number `top`, as a heap.
    heap: Vec<Entry>,
    top: u64,
}

open_set_by_filed!(HotQueue);

impl HotQueue {
    /// The default bucket width, for octile grids: about 8 straight moves'
    /// worth of `f`, so that the top heap holds a few layers of the search
    /// frontier.
    pub const DEFAULT_WIDTH: f64 = 8.0;
    /// The default number of buckets.
    pub const DEFAULT_BUCKETS: usize = 64;

    /// An empty queue with [`DEFAULT_WIDTH`](Self::DEFAULT_WIDTH) and
    /// [`DEFAULT_BUCKETS`](Self::DEFAULT_BUCKETS).
    pub fn new() -> Self {
        Self::with_buckets(Self::DEFAULT_WIDTH, Self::DEFAULT_BUCKETS)
    }

    /// An empty queue of `k` buckets, each covering `width` of `f`.
    ///
    /// # Panics
    ///
    /// If `width` is not positive and finite, or `k` is 0 or above
    /// `u32::MAX - 2`.
    pub fn with_buckets(width: f64, k: usize) -> Self {
        let window = Window::new(width, k, OVERFLOW - 1);
        HotQueue {
            queue: Filed::new(Hot {
                window,
                heap: Vec::new(),
                top: 0,
            }),
        }
    }

    /// The width of a bucket.
    pub fn width(&self) -> f64 {
        self.queue.layout.window.width
    }

    /// The number of buckets.
    pub fn buckets(&self) -> usize {
        self.queue.layout.window.slots.len()
    }
}

impl Hot {
    /// Moves the top to the lowest non-empty bucket; the set is not empty
    /// and the heap is.
    fn advance(&mut self, places: &mut [Place]) {
        let k = self.window.k();
        while self.heap.is_empty() {
            let next = (1..k)
                .map(|j| self.top + j)
                .find(|&b| !self.window.slots[(b % k) as usize].is_empty());
            let mut top = next.unwrap_or(u64::MAX);
            if !self.window.overflow.is_empty() {
                // The bound can be stale and below `top` (its entry moved
                // out of the overflow list): the top never moves back.
                top = top.min(self.window.overflow_min.max(self.top));
            }
            if top == u64::MAX {
                debug_assert!(false, "advance on an empty queue");
                return;
            }
            self.top = top;
            let slot = (top % k) as usize;
            std::mem::swap(&mut self.heap, &mut self.window.slots[slot]);
            if !self.window.overflow.is_empty() && self.window.overflow_min < top.saturating_add(k)
            {
                let spill = self.window.take_overflow();
                for &e in &spill {
                    // Into the heap unsorted; heapified below.
                    if self.window.bucket_of(e.key.f) == top {
                        placed::append(&mut self.heap, places, HEAP, e);
                    } else {
                        self.file(places, e);
                    }
                }
                self.window.reuse(spill);
            }
            heap::heapify(&mut self.heap, places, HEAP);
        }
    }
}

impl Layout for Hot {
    #[inline]
    fn list(&self, part: u32) -> &[Entry] {
        if part == HEAP {
            &self.heap
        } else {
            self.window.part(part, OVERFLOW)
        }
    }

    /// Files `entry` by its bucket.
    #[inline]
    fn file(&mut self, places: &mut [Place], entry: Entry) {
        placed::debug_assert_non_negative("HotQueue", entry.key);
        // A key below the top (by rounding) joins the top heap.
        let b = self.window.bucket_of(entry.key.f).max(self.top);
        let k = self.window.k();
        if b == self.top {
            heap::push(&mut self.heap, places, HEAP, entry);
        } else if b - self.top < k {
            let slot = (b % k) as u32;
            placed::append(&mut self.window.slots[slot as usize], places, slot, entry);
        } else {
            self.window.spill_over(places, OVERFLOW, entry, b);
        }
    }

    #[inline]
    fn pop_first(&mut self, places: &mut [Place]) -> Option<Entry> {
        if self.heap.is_empty() {
            self.advance(places);
        }
        heap::pop(&mut self.heap, places, HEAP)
    }

    #[inline]
    fn lower(&mut self, places: &mut [Place], place: Place, entry: Entry) {
        let Place { part, index } = place;
        let i = index as usize;
        match part {
            HEAP => heap::lower(&mut self.heap, places, HEAP, i, entry.key),
            OVERFLOW => {
                placed::take(&mut self.window.overflow, places, OVERFLOW, i);
                self.file(places, entry);
            }
            slot => {
                placed::take(&mut self.window.slots[slot as usize], places, slot, i);
                self.file(places, entry);
            }
        }
    }

    fn clear(&mut self) {
        self.window.clear();
        self.heap.clear();
        self.top = 0;
    }
}
