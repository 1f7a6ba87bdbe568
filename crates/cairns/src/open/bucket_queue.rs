//! Dial's bucket queue, for real-valued keys: a circular array of buckets
//! indexed by a discretised `f`, each ordered exactly.

use super::Entry;
use super::placed::{self, Filed, Layout, Place, Window, heap, open_set_by_filed};

/// The part number of the overflow list.
const OVERFLOW: u32 = u32::MAX;

/// Dial's bucket queue (Dial, "Algorithm 360: shortest-path forest with
/// topological ordering", 1969): a circular array of buckets indexed by the
/// key, scanned forward from the last minimum.
///
/// Dial's keys are integers, one bucket per value. Octile costs are not
/// integers, so this version discretises: an entry goes to bucket
/// `floor(f / width)`, and each bucket is a small binary heap, so entries
/// come out in exact [`Key`](super::Key) order and nothing is lost by discretising. The
/// array covers the `K` bucket numbers from the current one on, circularly;
/// entries beyond that wait in an unsorted overflow list, which is
/// redistributed when the scan reaches its lowest entry. Buckets keep their
/// capacity across searches, so nothing is allocated after warm-up.
///
/// | operation | cost |
/// |---|---|
/// | push | `O(log b)` into a bucket of `b` entries |
/// | pop | `O(log b)`, plus `O(1)` per empty bucket skipped (and the overflow list, when the scan reaches it) |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(log b)` |
/// | clear | `O(K)` |
///
/// With integer costs up to `C` and `K > C`, Dial's algorithm runs
/// Dijkstra in `O(m + n C)` time (Ahuja, Magnanti and Orlin, *Network
/// Flows*, 1993); with a width of about one straight move, each bucket of
/// an octile grid search holds a few distinct `f` values, and bucket heaps
/// stay tiny.
///
/// # Correctness
///
/// Keys must be non-negative, and for speed *monotone*: every key pushed
/// or decreased to has an `f` no smaller than the `f` of the last entry
/// popped (since the last [`clear`](crate::open::OpenSet::clear)), as in A* with a
/// consistent heuristic and non-negative costs, or Dijkstra.
///
/// Monotone keys are what make the queue fast, not what makes it right: a
/// key below the current bucket is filed in the current bucket, whose
/// order is exact, and still comes out in [`Key`](super::Key) order. Such keys come
/// from rounding: an ulp in `f = g + h`, or up to `1.5 *`
/// [`margin`](crate::landmarks::LandmarkTable::margin) under a landmark
/// table that is not exact (costs off the `2^-23` lattice, or a version 1
/// file of `f32` distances), whose margin breaks consistency by that much. That
/// margin grows with the largest distance in the table, not with `f`, so
/// no tolerance relative to `f` would cover it, and the queue asks for
/// none: debug builds assert only that keys are not negative (nor NaN). A
/// heuristic inconsistent by more than rounding makes the current bucket's
/// heap do the work of the whole queue: correct, but a plain heap is then
/// the better choice.
#[derive(Clone, Debug)]
pub struct BucketQueue {
    queue: Filed<Dial>,
}

/// The [`Layout`] of a [`BucketQueue`]: each bucket of the window is a
/// heap.
#[derive(Clone, Debug)]
struct Dial {
    window: Window,
    /// The first bucket of the window.
    current: u64,
}

open_set_by_filed!(BucketQueue);

impl BucketQueue {
    /// The default bucket width: one straight move on a grid.
    pub const DEFAULT_WIDTH: f64 = 1.0;
    /// The default number of buckets.
    pub const DEFAULT_BUCKETS: usize = 256;

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
    /// `u32::MAX - 1`.
    pub fn with_buckets(width: f64, k: usize) -> Self {
        let window = Window::new(width, k, OVERFLOW - 1);
        BucketQueue {
            queue: Filed::new(Dial { window, current: 0 }),
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

impl Dial {
    /// The slot of the bucket for `f`, or `OVERFLOW`.
    #[inline]
    fn part_for(&self, f: f64) -> u32 {
        // A key below the current bucket (by rounding) joins it.
        let b = self.window.bucket_of(f).max(self.current);
        let k = self.window.k();
        if b - self.current < k {
            (b % k) as u32
        } else {
            OVERFLOW
        }
    }

    /// The slot of the lowest non-empty bucket, moving `current` to it and
    /// bringing in overflow entries as the scan reaches them. The set must
    /// not be empty.
    fn lowest(&mut self, places: &mut [Place]) -> Option<usize> {
        let k = self.window.k();
        loop {
            let next = (0..k)
                .map(|j| self.current + j)
                .find(|&b| !self.window.slots[(b % k) as usize].is_empty());
            let overflow_first = !self.window.overflow.is_empty()
                && next.is_none_or(|b| self.window.overflow_min <= b);
            if !overflow_first {
                let b = next?;
                self.current = b;
                return Some((b % k) as usize);
            }
            // The bound can be stale and below `current` (its entry moved out
            // of the overflow list): `current` never moves back, or ring slots
            // would be read as lower buckets than they hold.
            self.current = self.window.overflow_min.max(self.current);
            let spill = self.window.take_overflow();
            for &e in &spill {
                self.file(places, e);
            }
            self.window.reuse(spill);
        }
    }
}

impl Layout for Dial {
    #[inline]
    fn list(&self, part: u32) -> &[Entry] {
        self.window.part(part, OVERFLOW)
    }

    /// Files `entry` by its bucket.
    #[inline]
    fn file(&mut self, places: &mut [Place], entry: Entry) {
        placed::debug_assert_non_negative("BucketQueue", entry.key);
        match self.part_for(entry.key.f) {
            OVERFLOW => {
                let b = self.window.bucket_of(entry.key.f);
                self.window.spill_over(places, OVERFLOW, entry, b);
            }
            slot => heap::push(&mut self.window.slots[slot as usize], places, slot, entry),
        }
    }

    #[inline]
    fn pop_first(&mut self, places: &mut [Place]) -> Option<Entry> {
        let slot = self.lowest(places)?;
        heap::pop(&mut self.window.slots[slot], places, slot as u32)
    }

    #[inline]
    fn lower(&mut self, places: &mut [Place], place: Place, entry: Entry) {
        let Place { part, index } = place;
        let i = index as usize;
        if part == OVERFLOW {
            placed::take(&mut self.window.overflow, places, OVERFLOW, i);
            self.file(places, entry);
        } else if self.part_for(entry.key.f) == part {
            heap::lower(
                &mut self.window.slots[part as usize],
                places,
                part,
                i,
                entry.key,
            );
        } else {
            heap::remove(&mut self.window.slots[part as usize], places, part, i);
            self.file(places, entry);
        }
    }

    fn clear(&mut self) {
        self.window.clear();
        self.current = 0;
    }
}
