//! A radix heap over the bits of `f64` keys.

use super::placed::{self, Entry, Parts, Place, heap};
use super::slots::Slots;
use super::{Key, OpenSet};
use crate::graph::NodeId;

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
/// popped (since the last [`clear`](OpenSet::clear)), as in A* with a
/// consistent heuristic and non-negative costs, or Dijkstra.
///
/// Monotone keys are what make the heap fast, not what makes it right: a
/// key at or below the reference is filed in bucket 0, whose order is
/// exact, and still comes out in [`Key`] order (every entry of the other
/// buckets is above the reference). Such keys come from rounding: an ulp in
/// `f = g + h`, or up to `1.5 *`
/// [`margin`](crate::landmarks::LandmarkTable::margin) under a landmark
/// heuristic, whose `f32` distances break consistency by that much. That
/// margin grows with the largest distance in the table, not with `f`, so
/// no tolerance relative to `f` would cover it, and the heap asks for none:
/// debug builds assert only that keys are not negative (nor NaN). A
/// heuristic inconsistent by more than rounding makes bucket 0 do the work
/// of the whole heap: correct, but a plain heap is then the better choice.
#[derive(Clone, Debug)]
pub struct RadixHeap {
    /// Bucket 0 is a heap; the others are unsorted.
    buckets: Vec<Vec<Entry>>,
    /// Reused during redistribution.
    spill: Vec<Entry>,
    places: Slots<Place>,
    /// The bits of the last popped `f`.
    last: u64,
    len: usize,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap {
            buckets: vec![Vec::new(); BUCKETS],
            spill: Vec::new(),
            places: Slots::default(),
            last: 0,
            len: 0,
        }
    }
}

/// An order-preserving map of non-negative `f64` to `u64`.
#[inline]
fn radix(f: f64) -> u64 {
    // Also maps -0.0 (and any negative value) to the bits of 0.0.
    if f > 0.0 { f.to_bits() } else { 0 }
}

impl RadixHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }

    /// The bucket for a key with bits `r`.
    #[inline]
    fn bucket_of(&self, r: u64) -> usize {
        if r <= self.last {
            0
        } else {
            (u64::BITS - (r ^ self.last).leading_zeros()) as usize
        }
    }

    #[inline]
    fn file(&mut self, entry: Entry) {
        placed::debug_assert_non_negative("RadixHeap", entry.key);
        match self.bucket_of(radix(entry.key.f)) {
            0 => heap::push(&mut self.buckets[0], &mut self.places, 0, entry),
            b => placed::append(&mut self.buckets[b], &mut self.places, b as u32, entry),
        }
    }

    /// Refills bucket 0 from the first non-empty bucket.
    fn refill(&mut self) {
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
                0 => placed::append(&mut self.buckets[0], &mut self.places, 0, e),
                b => placed::append(&mut self.buckets[b], &mut self.places, b as u32, e),
            }
        }
        self.spill.clear();
        heap::heapify(&mut self.buckets[0], &mut self.places, 0);
    }
}

impl Parts for RadixHeap {
    #[inline]
    fn list(&self, part: u32) -> &[Entry] {
        self.buckets.get(part as usize).map_or(&[], Vec::as_slice)
    }

    #[inline]
    fn places(&self) -> &Slots<Place> {
        &self.places
    }
}

impl OpenSet for RadixHeap {
    fn prepare(&mut self, node_bound: usize) {
        self.places.prepare(node_bound);
    }

    fn push(&mut self, node: NodeId, key: Key) {
        self.claim(node);
        self.file(Entry { key, node });
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            self.refill();
        }
        let e = heap::pop(&mut self.buckets[0], &mut self.places, 0)?;
        self.len -= 1;
        Some((e.node, e.key))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.key_of(node)
    }

    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(Place { part, index }) = self.place_to_lower(node, key) else {
            self.push(node, key);
            return;
        };
        let (b, i) = (part as usize, index as usize);
        if b == 0 {
            self.buckets[0][i].key = key;
            heap::sift_up(&mut self.buckets[0], &mut self.places, 0, i);
        } else {
            placed::take(&mut self.buckets[b], &mut self.places, part, i);
            self.file(Entry { key, node });
        }
    }

    fn clear(&mut self) {
        if self.len > 0 {
            for b in &mut self.buckets {
                b.clear();
            }
        }
        self.last = 0;
        self.len = 0;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
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
