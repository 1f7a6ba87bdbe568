//! A 4-ary indexed heap with 64-bit keys for the exact costs of grids: the
//! default OPEN set.

use super::order::{decode, encode};
use super::slots::{self, Holder, Slots};
use super::{Key, OpenSet};
use crate::graph::{LATTICE, NodeId};

/// Children per node.
const ARITY: usize = 4;

/// Steps of [`LATTICE`] in 1.
const STEPS: f64 = (1u64 << 23) as f64;

/// Bits of a packed key that hold `f`, in steps of [`LATTICE`]: `f` below
/// `2^36` steps, 8,192.
const F_BITS: u32 = 36;

/// Bits of `g`, in steps of [`LATTICE`], that a packed entry keeps: `g`
/// below `2^40` steps, 131,072.
const G_BITS: u32 = 40;

/// Bits of a packed key that hold the top bits of `g` (the tie).
const TIE_BITS: u32 = 64 - F_BITS;

/// The low bits of `g`, kept with the node and not compared.
const LOW_BITS: u32 = G_BITS - TIE_BITS;

/// A 4-ary min-heap of `(key, node)` entries with each node's position
/// tracked in a dense array, so that a node whose key improves moves up from
/// where it is (decrease-key). The default OPEN set.
///
/// | operation | cost |
/// |---|---|
/// | push | `O(log4 n)` |
/// | pop | `O(4 log4 n)` comparisons, `O(log4 n)` moves |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(log4 n)` |
/// | clear | `O(1)` |
///
/// The d-ary heap is Johnson's (1975) generalisation of the binary heap for
/// graphs with many decrease-keys: a wider node makes push and decrease-key
/// (sift up) cheaper, at the price of `d - 1` comparisons per level in pop.
/// Johnson suggested `d = max(2, m / n)`; the measurements of LaMarca and
/// Ladner (1996) and of Larkin, Sen and Tarjan (2014) find the 4-ary heap
/// at least as fast as the binary heap in practice.
///
/// # Keys of 64 bits
///
/// Keys and nodes live in two arrays (the four children's keys side by
/// side), and while every key is on the lattice of the exact grid costs
/// (`f` and `g` multiples of [`LATTICE`], `f` below 8,192 and `g` below
/// 131,072, as on every grid without terrain) a key is one `u64`: `f` in
/// steps in the top 36 bits, then the top 28 of `g`'s 40 bits,
/// complemented (the larger `g` first). A pop compares four of them with
/// three integer comparisons per level, where the 128-bit keys of
/// [`IndexedBinaryHeap`](super::IndexedBinaryHeap) take two instructions
/// each; that, more than the shallower heap, makes it the faster of the two
/// under A* on grids (`docs/performance.md`). `g`'s low 12 bits ride with
/// the node, so a pop returns the key exactly, but they are not compared:
/// entries of equal `f` whose `g` differ by less than `2^-11` come out in
/// either order (and [`precedes_all`](OpenSet::precedes_all), which
/// compares with the front's exact key, treats the front as the first of
/// them). `f` is compared exactly, so A* stays optimal.
///
/// The first key off that lattice (terrain costs, a landmark heuristic's
/// ties, a graph of arbitrary costs) turns the heap, for the rest of the
/// search, into the same 4-ary heap over the exact 128-bit keys that
/// [`IndexedBinaryHeap`](super::IndexedBinaryHeap) compares; `clear` turns
/// it back.
///
/// The position array is never cleared: a position is trusted only when
/// the heap slot it names holds that node, which makes `clear` free.
#[expect(clippy::doc_markdown, reason = "LaMarca is a name, not code")]
#[derive(Clone, Debug, Default)]
pub struct QuaternaryHeap {
    packed: Dary<u64>,
    wide: Dary<u128>,
    /// Whether the entries are in `wide` (a key off the lattice came).
    is_wide: bool,
    position: Slots,
}

/// A heap entry's node, in the low 32 bits, and for a packed key the low
/// bits of its `g` above them.
#[derive(Clone, Copy, Debug)]
struct Item(u64);

impl Holder for Item {
    #[inline]
    fn node(&self) -> NodeId {
        NodeId(self.0 as u32)
    }
}

/// A heap key type: what a [`Key`] becomes in the heap, smaller first.
trait Packing: Copy + Ord + std::fmt::Debug {
    /// The key and item of `node` with `key`, when this type can hold it.
    fn pack(key: Key, node: NodeId) -> Option<(Self, Item)>;
    /// The key back, exactly, from the key and item `pack` made.
    fn unpack(self, item: Item) -> Key;
    /// The largest key: the sentinel past the end of a heap.
    const MAX: Self;
}

impl Packing for u64 {
    const MAX: u64 = u64::MAX;

    #[inline]
    fn pack(key: Key, node: NodeId) -> Option<(u64, Item)> {
        // Scaling by a power of two is exact.
        let (f, g) = (key.f * STEPS, key.g * STEPS);
        // Whole steps: through `i64`, whose conversions are one
        // instruction each, and back. A NaN becomes 0 and a value beyond
        // `i64` saturates, neither of which converts back to itself (but
        // `2^63`, which the range test below turns away with the
        // negative values).
        let (fi, gi) = (f as i64, g as i64);
        if fi as f64 != f || gi as f64 != g {
            return None;
        }
        // In range, as unsigned integers (a negative value is far above).
        if (fi as u64) >= 1 << F_BITS || (gi as u64) >= 1 << G_BITS {
            return None;
        }
        let (fi, gi) = (fi as u64, gi as u64);
        let tie = (1u64 << TIE_BITS) - 1 - (gi >> LOW_BITS);
        let low = gi & ((1 << LOW_BITS) - 1);
        Some((
            (fi << TIE_BITS) | tie,
            Item(u64::from(node.0) | (low << 32)),
        ))
    }

    #[inline]
    fn unpack(self, item: Item) -> Key {
        let tie_mask = (1u64 << TIE_BITS) - 1;
        let high = tie_mask - (self & tie_mask);
        let gi = (high << LOW_BITS) | (item.0 >> 32);
        Key {
            f: (self >> TIE_BITS) as i64 as f64 * LATTICE,
            g: gi as i64 as f64 * LATTICE,
        }
    }
}

impl Packing for u128 {
    const MAX: u128 = u128::MAX;

    #[inline]
    fn pack(key: Key, node: NodeId) -> Option<(u128, Item)> {
        Some((encode(key), Item(u64::from(node.0))))
    }

    #[inline]
    fn unpack(self, _: Item) -> Key {
        decode(self)
    }
}

/// The 4-ary heap over keys of one [`Packing`]: keys and items in two
/// arrays, heap-ordered by key; the heap is as long as `items`. Positions
/// are written into the [`Slots`] its owner passes.
///
/// `keys` runs at least [`ARITY`] slots past the last entry, and every key
/// past it is [`Packing::MAX`]: a node's children are always four keys,
/// compared without a test of how many of them are in the heap. A real
/// key equal to the sentinel still wins, since ties go to the earlier slot.
#[derive(Clone, Debug, Default)]
struct Dary<K> {
    keys: Vec<K>,
    items: Vec<Item>,
}

impl<K: Packing> Dary<K> {
    /// Writes `(key, item)` to slot `i` and records its position.
    #[inline]
    fn place(&mut self, position: &mut Slots, i: usize, key: K, item: Item) {
        let node = item.node().index();
        debug_assert!(i < self.items.len() && node < position.len());
        // SAFETY: `i` is a slot of the heap (the sifts stay below its
        // length, and `keys` is longer than `items`) and every node in the
        // heap has room in `position` (`claim` on push), checked in debug
        // builds above and exercised by the model-based property test after
        // every operation.
        unsafe {
            *self.keys.get_unchecked_mut(i) = key;
            *self.items.get_unchecked_mut(i) = item;
            *position.get_unchecked_mut(node) = i as u32;
        }
    }

    /// The entry in slot `i`, which is below the heap's length.
    #[inline]
    fn at(&self, i: usize) -> (K, Item) {
        debug_assert!(i < self.items.len());
        // SAFETY: callers pass a slot below the length (the loop bounds of
        // the sifts), checked in debug builds above.
        unsafe { (*self.keys.get_unchecked(i), *self.items.get_unchecked(i)) }
    }

    /// The number of entries.
    #[inline]
    fn len(&self) -> usize {
        self.items.len()
    }

    /// Moves `(key, item)` up from slot `i` to where it belongs.
    #[inline]
    fn sift_up(&mut self, position: &mut Slots, mut i: usize, key: K, item: Item) {
        while i > 0 {
            let parent = (i - 1) / ARITY;
            let (pk, pi) = self.at(parent);
            if key >= pk {
                break;
            }
            self.place(position, i, pk, pi);
            i = parent;
        }
        self.place(position, i, key, item);
    }

    /// The slot of the smallest of the four keys from `first` (which is in
    /// the heap; those past its end are sentinels), and that key.
    #[inline]
    fn min_child(&self, first: usize) -> (usize, K) {
        debug_assert!(first < self.len() && first + ARITY <= self.keys.len());
        // SAFETY: `keys` runs `ARITY` slots past the last entry, and
        // `first` is in the heap (checked in debug builds above).
        let key = |i: usize| unsafe { *self.keys.get_unchecked(i) };
        // Two pairs, then their winners: two levels of comparisons instead
        // of a chain of three, on keys loaded once (the winners' keys are
        // carried, not loaded again after their slots are known).
        let (k0, k1, k2, k3) = (key(first), key(first + 1), key(first + 2), key(first + 3));
        let a = if k1 < k0 {
            (first + 1, k1)
        } else {
            (first, k0)
        };
        let b = if k3 < k2 {
            (first + 3, k3)
        } else {
            (first + 2, k2)
        };
        if b.1 < a.1 { b } else { a }
    }

    #[inline]
    fn push(&mut self, position: &mut Slots, key: K, item: Item) {
        let i = self.items.len();
        self.items.push(item);
        if self.keys.len() < i + 1 + ARITY {
            self.keys.resize(i + 1 + ARITY, K::MAX);
        }
        self.sift_up(position, i, key, item);
    }

    /// Removes the smallest entry: the hole it leaves walks down to a leaf
    /// along the smaller children, and the last entry fills it from there,
    /// sifted up (it rarely moves: the last entry is among the largest).
    #[inline]
    fn pop(&mut self, position: &mut Slots) -> Option<(K, Item)> {
        let last_item = self.items.pop()?;
        let len = self.items.len();
        // The last slot becomes a sentinel.
        let last_key = std::mem::replace(&mut self.keys[len], K::MAX);
        if len == 0 {
            return Some((last_key, last_item));
        }
        let top = self.at(0);
        let mut hole = 0;
        loop {
            let first = ARITY * hole + 1;
            if first >= len {
                break;
            }
            let (child, ck) = self.min_child(first);
            // SAFETY: `child` is a slot of the heap: `first` is, and a
            // sentinel after it never wins.
            let ci = unsafe { *self.items.get_unchecked(child) };
            self.place(position, hole, ck, ci);
            hole = child;
        }
        self.sift_up(position, hole, last_key, last_item);
        Some(top)
    }

    /// The smallest key and its item, unless the heap is empty.
    #[inline]
    fn front(&self) -> Option<(K, Item)> {
        (!self.items.is_empty()).then(|| self.at(0))
    }

    fn clear(&mut self) {
        // Every key past the (now empty) heap is a sentinel again.
        self.keys.clear();
        self.items.clear();
    }
}

impl QuaternaryHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves every entry to the 128-bit heap, for a key the packed one
    /// cannot hold.
    #[cold]
    fn widen(&mut self) {
        debug_assert!(!self.is_wide && self.wide.len() == 0);
        // Pushed one by one: packed keys leave ties of `g` within `2^-11`
        // unordered, which the exact keys order.
        for (&k, &item) in self.packed.keys.iter().zip(&self.packed.items) {
            let (wk, wi) =
                u128::pack(k.unpack(item), item.node()).expect("every key fits 128 bits");
            self.wide.push(&mut self.position, wk, wi);
        }
        self.packed.clear();
        self.is_wide = true;
    }
}

impl OpenSet for QuaternaryHeap {
    fn prepare(&mut self, node_bound: usize) {
        self.position.prepare(node_bound);
        slots::reserve_total(&mut self.packed.keys, node_bound + ARITY);
        slots::reserve_total(&mut self.packed.items, node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        if self.is_wide {
            self.position.claim(node, &self.wide.items);
        } else {
            self.position.claim(node, &self.packed.items);
            if let Some((k, item)) = u64::pack(key, node) {
                self.packed.push(&mut self.position, k, item);
                return;
            }
            self.widen();
        }
        let (k, item) = u128::pack(key, node).expect("every key fits 128 bits");
        self.wide.push(&mut self.position, k, item);
    }

    #[expect(
        clippy::inline_always,
        reason = "inlined into the search loop, A* on dao runs 8% fewer instructions and 1.04-1.05x faster (paired per query); push and decrease-key inlined too gave no more"
    )]
    #[inline(always)]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.is_wide {
            let (k, item) = self.wide.pop(&mut self.position)?;
            Some((item.node(), k.unpack(item)))
        } else {
            let (k, item) = self.packed.pop(&mut self.position)?;
            Some((item.node(), k.unpack(item)))
        }
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        if self.is_wide {
            let i = self.position.find(node, &self.wide.items)?;
            let (k, item) = self.wide.at(i);
            Some(k.unpack(item))
        } else {
            let i = self.position.find(node, &self.packed.items)?;
            let (k, item) = self.packed.at(i);
            Some(k.unpack(item))
        }
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        if !self.is_wide {
            let Some(i) = self.position.find(node, &self.packed.items) else {
                return self.push(node, key);
            };
            if let Some((k, item)) = u64::pack(key, node) {
                debug_assert!(k <= self.packed.at(i).0, "decrease_key raised a key");
                self.packed.sift_up(&mut self.position, i, k, item);
                return;
            }
            self.widen();
        }
        let Some(i) = self.position.find(node, &self.wide.items) else {
            return self.push(node, key);
        };
        let (k, item) = u128::pack(key, node).expect("every key fits 128 bits");
        debug_assert!(k <= self.wide.at(i).0, "decrease_key raised a key");
        self.wide.sift_up(&mut self.position, i, k, item);
    }

    const PEEKS: bool = true;

    /// Keys are lowered in place and a node is in the heap at most once.
    const STALE: bool = false;

    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        if self.is_wide {
            self.wide.front().is_none_or(|(top, _)| encode(key) < top)
        } else {
            // Against the front's key itself, whatever `key` is.
            self.packed
                .front()
                .is_none_or(|(top, item)| key.precedes(top.unpack(item)))
        }
    }

    fn clear(&mut self) {
        self.packed.clear();
        self.wide.clear();
        self.is_wide = false;
    }

    #[inline]
    fn len(&self) -> usize {
        if self.is_wide {
            self.wide.len()
        } else {
            self.packed.len()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::DIAGONAL;
    use crate::open::conformance;

    #[test]
    fn lattice_keys_pack_into_64_bits_and_back_exactly() {
        let keys = [
            Key { f: 0.0, g: 0.0 },
            Key { f: 1.0, g: 0.5 },
            Key {
                f: 700.0 + 300.0 * DIAGONAL,
                g: 12.0 + 41.0 * DIAGONAL,
            },
            Key {
                f: 8191.0,
                g: 131_071.0,
            },
        ];
        for key in keys {
            let (k, item) = u64::pack(key, NodeId(77)).expect("on the lattice");
            assert_eq!(k.unpack(item), key);
            assert_eq!(item.node(), NodeId(77));
        }
        // Off the lattice, or out of range: the 128-bit keys take them.
        for key in [
            Key {
                f: std::f64::consts::SQRT_2,
                g: 0.0,
            },
            Key { f: 8192.0, g: 0.0 },
            Key { f: 1.0, g: -1.0 },
            Key {
                f: 1.0,
                g: 131_072.0,
            },
            Key {
                f: f64::NAN,
                g: 0.0,
            },
        ] {
            assert!(u64::pack(key, NodeId(1)).is_none(), "{key:?}");
        }
        // Smaller f first, then larger g.
        let pack = |f: f64, g: f64| u64::pack(Key { f, g }, NodeId(0)).unwrap().0;
        assert!(pack(3.0, 0.0) < pack(3.0 + DIAGONAL - 1.0, 3.0));
        assert!(pack(3.0, 2.0) < pack(3.0, 1.0));
    }

    #[test]
    fn a_key_off_the_lattice_widens_the_heap_in_order() {
        let mut q = QuaternaryHeap::new();
        q.prepare(64);
        for n in 0..40u32 {
            let f = f64::from(n % 7) + f64::from(n % 3) * DIAGONAL;
            q.push(
                NodeId(n),
                Key {
                    f,
                    g: f64::from(n % 5),
                },
            );
        }
        assert!(!q.is_wide);
        q.decrease_key(NodeId(3), Key { f: 0.25, g: 0.0 });
        q.push(
            NodeId(50),
            Key {
                f: std::f64::consts::SQRT_2,
                g: 0.0,
            },
        );
        assert!(q.is_wide);
        assert_eq!(q.len(), 41);
        let mut last = Key {
            f: f64::NEG_INFINITY,
            g: f64::INFINITY,
        };
        while let Some((_, key)) = q.pop() {
            assert!(!key.precedes(last), "{key:?} after {last:?}");
            last = key;
        }
        q.clear();
        q.push(NodeId(1), Key { f: 1.0, g: 1.0 });
        assert!(!q.is_wide, "clear goes back to the packed keys");
    }

    #[test]
    fn matches_the_model_on_lattice_keys() {
        // The model's sequences with the grid's diagonal and without the
        // pushes below the floor: every key on the lattice, so the packed
        // keys all the way (the suite's own keys, with `sqrt(2)`, widen the
        // heap at the first diagonal).
        for seed in conformance::SEEDS {
            let ops: Vec<conformance::Op> =
                conformance::random_ops(&mut crate::rng::SplitMix64::new(seed), 300)
                    .into_iter()
                    .filter(|op| !matches!(op, conformance::Op::PushBelow { .. }))
                    .collect();
            let mut q = QuaternaryHeap::new();
            if let Err(e) = conformance::model_with_diagonal(&mut q, &ops, DIAGONAL) {
                panic!("seed {seed}: {e}");
            }
            assert!(!q.is_wide, "seed {seed}: a lattice key widened the heap");
        }
    }
}
