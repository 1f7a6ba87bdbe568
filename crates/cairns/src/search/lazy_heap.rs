//! A quaternary heap of `(key, item)` pairs for the small Dijkstra
//! searches that keep stale entries rather than decrease keys: a
//! contraction hierarchy's queries and its witness searches.

/// Children of a node of the heap.
const ARITY: usize = 4;

/// A min-heap of `u64` keys with `u32` items, four children a node, that
/// keeps no position of its items: an item pushed twice is there twice,
/// and the caller skips the stale entry when it comes out. Entries of
/// equal keys come out in no promised order.
///
/// Unlike [`QuaternaryHeap`](crate::open::QuaternaryHeap), an
/// [`OpenSet`](crate::open::OpenSet) with decrease-key and an exact tie
/// order over A*'s entries, it is a bare vector of pairs; a take picks the
/// least of each four children without a branch on their order. On the
/// few hundred entries of a hierarchy's query it answers in 8 to 15
/// percent less time than `std`'s `BinaryHeap` of the same pairs (Bremen
/// and South Seattle, `cargo bench -p cairns-bench --bench roads`), and a
/// radix heap over the keys' bits measured slower than either.
#[derive(Clone, Debug, Default)]
pub(crate) struct LazyHeap {
    entries: Vec<(u64, u32)>,
}

impl LazyHeap {
    /// Empties the heap, keeping its memory.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// Adds `item` under `key`.
    #[inline]
    pub(crate) fn push(&mut self, key: u64, item: u32) {
        let mut at = self.entries.len();
        self.entries.push((key, item));
        while at > 0 {
            let parent = (at - 1) / ARITY;
            if self.entries[parent].0 <= key {
                break;
            }
            self.entries[at] = self.entries[parent];
            at = parent;
        }
        self.entries[at] = (key, item);
    }

    /// The least key, if any.
    #[inline]
    pub(crate) fn min_key(&self) -> Option<u64> {
        self.entries.first().map(|e| e.0)
    }

    /// Takes an entry of the least key.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        let top = *self.entries.first()?;
        let last = self.entries.pop()?;
        let n = self.entries.len();
        if n == 0 {
            return Some(top);
        }
        // The last entry sinks from the root along the least children.
        let mut at = 0;
        loop {
            let first = ARITY * at + 1;
            if first >= n {
                break;
            }
            let (mut least, mut least_key) = (first, self.entries[first].0);
            for child in first + 1..(first + ARITY).min(n) {
                let key = self.entries[child].0;
                let less = key < least_key;
                least = if less { child } else { least };
                least_key = if less { key } else { least_key };
            }
            if least_key >= last.0 {
                break;
            }
            self.entries[at] = self.entries[least];
            at = least;
        }
        self.entries[at] = last;
        Some(top)
    }

    /// The entries held, stale ones included.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Pushes and takes, interleaved, give the keys a binary heap
        /// gives, and every entry pushed comes out once.
        #[test]
        fn takes_in_key_order(steps in proptest::collection::vec((0u64..64, 0u32..8, any::<bool>()), 1..300)) {
            let (mut heap, mut reference) = (LazyHeap::default(), BinaryHeap::new());
            let (mut pushed, mut taken) = (Vec::new(), Vec::new());
            for (i, &(key, item, take)) in steps.iter().enumerate() {
                if i % 97 == 96 {
                    heap.clear();
                    reference.clear();
                    pushed.clear();
                    taken.clear();
                }
                heap.push(key, item);
                reference.push(Reverse(key));
                pushed.push((key, item));
                if take {
                    prop_assert_eq!(heap.min_key(), reference.peek().map(|Reverse(k)| *k));
                    let (k, it) = heap.pop().unwrap();
                    prop_assert_eq!(Some(k), reference.pop().map(|Reverse(k)| k));
                    taken.push((k, it));
                }
                prop_assert_eq!(heap.len(), reference.len());
            }
            let mut rest = Vec::new();
            while let Some(entry) = heap.pop() {
                rest.push(entry);
            }
            prop_assert!(rest.windows(2).all(|w| w[0].0 <= w[1].0));
            taken.extend(rest);
            taken.sort_unstable();
            pushed.sort_unstable();
            prop_assert_eq!(taken, pushed);
            prop_assert_eq!(heap.pop(), None);
        }
    }
}
