//! A radix heap over the bits of `f64` keys.

use super::Entry;
use super::placed::{self, Filed, Layout, Place, heap, open_set_by_filed};

/// Bucket 0 and one bucket per bit of a `u64`.
const BUCKETS: usize = 65;

/// The radix heap of Ahuja, Mehlhorn, Orlin and Tarjan ("Faster algorithms
/// for the shortest path problem", 1990), in the one-level form with a
/// bucket per bit: a key goes to the bucket numbered by the highest bit in
/// which it differs from the last key popped.
///
/// Keys are `f64`, mapped to `u64` by their bit pattern, which preserves
/// order for non-negative values. Bucket 0 holds the keys whose `f` equals
/// the last popped one and is a binary heap, so the `g` tie-break is exact;
/// buckets 1 to 64 are unsorted lists. When bucket 0 is empty, pop finds the
/// first non-empty bucket, takes its smallest `f` as the new reference and
/// redistributes that bucket's entries, each of which moves to a lower
/// bucket. Decrease-key moves the entry to its new bucket through a tracked
/// position (no duplicates).
///
/// | operation | cost |
/// |---|---|
/// | push | `O(1)`, or `O(log z)` into bucket 0 of `z` entries |
/// | pop | `O(64)` amortised per entry, for its moves between buckets, plus `O(log z)` |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(1)`, or `O(log z)` in bucket 0 |
/// | clear | `O(1)` |
///
/// With integer keys up to `C` the radix heap runs Dijkstra in
/// `O(m + n log C)` (Ahuja et al.); each entry moves down at most once per
/// bit of the key. Over `f64` bit patterns the number of buckets is fixed
/// at 65, so an entry moves at most 64 times; in practice the reference
/// grows slowly and most entries sit in low buckets.
///
/// # Correctness
///
/// Keys must be non-negative, and for speed *monotone*: every key pushed
/// or decreased to has an `f` no smaller than the `f` of the last entry
/// popped (since the last [`clear`](crate::open::OpenSet::clear)), as in A* with a
/// consistent heuristic and non-negative costs, or Dijkstra.
///
/// Monotone keys are what make the heap fast, not what makes it right: a
/// key at or below the reference is filed in bucket 0, whose order is
/// exact, and still comes out in [`Key`](super::Key) order (every entry of the other
/// buckets is above the reference). Such keys come from rounding: an ulp in
/// `f = g + h`, or up to `1.5 *`
/// [`margin`](crate::landmarks::LandmarkTable::margin) under a landmark
/// table that is not exact (costs off the `2^-23` lattice, or a version 1
/// file of `f32` distances), whose margin breaks consistency by that much. That
/// margin grows with the largest distance in the table, not with `f`, so
/// no tolerance relative to `f` would cover it, and the heap asks for none:
/// debug builds assert only that keys are not negative (nor NaN). A
/// heuristic inconsistent by more than rounding makes bucket 0 do the work
/// of the whole heap: correct, but a plain heap is then the better choice.
#[derive(Clone, Debug)]
pub struct RadixHeap {
    queue: Filed<Radix>,
}

/// The [`Layout`] of a [`RadixHeap`].
#[derive(Clone, Debug)]
struct Radix {
    /// Bucket 0 is a heap; the others are unsorted.
    buckets: Vec<Vec<Entry>>,
    /// Reused during redistribution.
    spill: Vec<Entry>,
    /// The bits of the last popped `f`.
    last: u64,
}

open_set_by_filed!(RadixHeap);

/// An order-preserving map of non-negative `f64` to `u64`.
#[inline]
fn radix(f: f64) -> u64 {
    // Also maps -0.0 (and any negative value) to the bits of 0.0.
    if f > 0.0 { f.to_bits() } else { 0 }
}

impl RadixHeap {
    /// An empty heap.
    pub fn new() -> Self {
        RadixHeap {
            queue: Filed::new(Radix {
                buckets: vec![Vec::new(); BUCKETS],
                spill: Vec::new(),
                last: 0,
            }),
        }
    }
}

impl Radix {
    /// The bucket for a key with bits `r`.
    #[inline]
    fn bucket_of(&self, r: u64) -> usize {
        if r <= self.last {
            0
        } else {
            (u64::BITS - (r ^ self.last).leading_zeros()) as usize
        }
    }

    /// Refills bucket 0 from the first non-empty bucket.
    fn refill(&mut self, places: &mut [Place]) {
        let Some(b) = (1..BUCKETS).find(|&b| !self.buckets[b].is_empty()) else {
            return;
        };
        std::mem::swap(&mut self.buckets[b], &mut self.spill);
        self.last = self
            .spill
            .iter()
            .map(|e| radix(e.key.f))
            .min()
            .unwrap_or(self.last);
        for i in 0..self.spill.len() {
            let e = self.spill[i];
            match self.bucket_of(radix(e.key.f)) {
                // Unsorted for now; heapified below.
                0 => placed::append(&mut self.buckets[0], places, 0, e),
                b => placed::append(&mut self.buckets[b], places, b as u32, e),
            }
        }
        self.spill.clear();
        heap::heapify(&mut self.buckets[0], places, 0);
    }
}

impl Layout for Radix {
    #[inline]
    fn list(&self, part: u32) -> &[Entry] {
        self.buckets.get(part as usize).map_or(&[], Vec::as_slice)
    }

    #[inline]
    fn file(&mut self, places: &mut [Place], entry: Entry) {
        placed::debug_assert_non_negative("RadixHeap", entry.key);
        match self.bucket_of(radix(entry.key.f)) {
            0 => heap::push(&mut self.buckets[0], places, 0, entry),
            b => placed::append(&mut self.buckets[b], places, b as u32, entry),
        }
    }

    #[inline]
    fn pop_first(&mut self, places: &mut [Place]) -> Option<Entry> {
        if self.buckets[0].is_empty() {
            self.refill(places);
        }
        heap::pop(&mut self.buckets[0], places, 0)
    }

    #[inline]
    fn lower(&mut self, places: &mut [Place], place: Place, entry: Entry) {
        let Place { part, index } = place;
        let i = index as usize;
        if part == 0 {
            heap::lower(&mut self.buckets[0], places, 0, i, entry.key);
        } else {
            placed::take(&mut self.buckets[part as usize], places, part, i);
            self.file(places, entry);
        }
    }

    fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.last = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_preserves_order() {
        let fs = [0.0, 1e-300, 0.5, 1.0, 1.0 + f64::EPSILON, 2.0, 1e300];
        for w in fs.windows(2) {
            assert!(radix(w[0]) < radix(w[1]));
        }
        assert_eq!(radix(-0.0), radix(0.0));
    }
}
