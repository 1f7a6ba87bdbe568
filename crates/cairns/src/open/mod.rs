//! OPEN sets: the priority queues that hold A*'s frontier.
//!
//! Every structure implements [`OpenSet`], the handful of operations A*
//! performs on its frontier, and is a type parameter of
//! [`SearchCache`](crate::search::SearchCache) with [`QuaternaryHeap`] as
//! the default: a 4-ary heap whose keys on the exact grid costs are 64-bit
//! integers, up to 1.16x faster than the [`IndexedBinaryHeap`] (the
//! default before it, and the fastest of the other structures) under
//! octile A* on the dao maps (`docs/open-sets.md`). Under a landmark heuristic
//! ([`crate::landmarks`]) the [`PairingHeap`] is faster (1.17x to 1.20x on
//! dao and maze512, `docs/differential-heuristics.md`).
//!
//! # Order
//!
//! Entries are ordered by [`Key`]: smaller `f` first and, among equal `f`,
//! larger `g` first (the node deeper along its path, which is closer to the
//! goal under a consistent heuristic), or the tie [`Key::tied`] makes from
//! an upper bound. Entries with equal keys come out in an order that
//! depends on the structure but is deterministic.

mod boxed;
mod bucket_queue;
mod classic_binary_heap;
pub mod conformance;
mod hash_table;
mod hot_queue;
mod indexed_array;
mod indexed_binary_heap;
mod lazy_binary_heap;
pub(crate) mod order;
mod pairing_heap;
mod placed;
mod quaternary_heap;
mod radix_heap;
mod skip_list;
mod slots;
mod sorted_array;
mod sorted_list;
mod splay_tree;
mod two_level_queue;
mod unsorted_array;

/// Also at the crate root, where `#[macro_export]` puts it.
#[doc(inline)]
pub use crate::{with_boxed_open, with_open_set};
pub use boxed::{BoxedOpen, DynOpen};
pub use bucket_queue::BucketQueue;
pub use classic_binary_heap::ClassicBinaryHeap;
pub use hash_table::HashTable;
pub use hot_queue::HotQueue;
pub use indexed_array::IndexedArray;
pub use indexed_binary_heap::IndexedBinaryHeap;
pub use lazy_binary_heap::LazyBinaryHeap;
pub use pairing_heap::PairingHeap;
pub use quaternary_heap::QuaternaryHeap;
pub use radix_heap::RadixHeap;
pub use skip_list::SkipList;
pub use sorted_array::SortedArray;
pub use sorted_list::SortedList;
pub use splay_tree::SplayTree;
pub use two_level_queue::TwoLevelQueue;
pub use unsorted_array::UnsortedArray;

use crate::graph::NodeId;

/// What an OPEN set is called on the command line, in the web API and in
/// benchmarks, and what it costs: one line of [`OpenKind::info`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSetInfo {
    /// The kebab-case name, as [`OpenKind`]'s `Display` writes it.
    pub name: &'static str,
    /// One line on what the structure is.
    pub summary: &'static str,
    /// One line on the cost of its operations (`n` entries on OPEN).
    pub complexity: &'static str,
}

/// Every OPEN set of this module, as a value: the registry that names
/// them. The default ([`QuaternaryHeap`]) comes first, then the other
/// heaps and trees, the bucket-based queues for monotone keys, and the
/// linear-scan and sorted structures of the early A* literature.
///
/// [`with_open_set!`] turns a kind into its type with an exhaustive
/// `match`, so the compiler keeps the registry complete; names parse with
/// `FromStr` (in [`crate::spec`], where every name of a search is read).
///
/// ```
/// use cairns::open::OpenKind;
///
/// assert_eq!(OpenKind::ALL[0], OpenKind::default());
/// assert_eq!(OpenKind::HotQueue.to_string(), "hot-queue");
/// assert_eq!("pairing-heap".parse::<OpenKind>().unwrap(), OpenKind::PairingHeap);
/// assert!("fibonacci-heap".parse::<OpenKind>().unwrap_err().to_string().contains("radix-heap"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpenKind {
    #[default]
    /// [`QuaternaryHeap`].
    QuaternaryHeap,
    /// [`IndexedBinaryHeap`].
    IndexedBinaryHeap,
    /// [`ClassicBinaryHeap`].
    ClassicBinaryHeap,
    /// [`LazyBinaryHeap`].
    LazyBinaryHeap,
    /// [`PairingHeap`].
    PairingHeap,
    /// [`SplayTree`].
    SplayTree,
    /// [`HotQueue`].
    HotQueue,
    /// [`TwoLevelQueue`].
    TwoLevelQueue,
    /// [`BucketQueue`].
    BucketQueue,
    /// [`RadixHeap`].
    RadixHeap,
    /// [`UnsortedArray`].
    UnsortedArray,
    /// [`SortedArray`].
    SortedArray,
    /// [`SortedList`].
    SortedList,
    /// [`SkipList`].
    SkipList,
    /// [`IndexedArray`].
    IndexedArray,
    /// [`HashTable`].
    HashTable,
}

impl OpenKind {
    /// Every kind, the default first.
    pub const ALL: [OpenKind; 16] = [
        OpenKind::QuaternaryHeap,
        OpenKind::IndexedBinaryHeap,
        OpenKind::ClassicBinaryHeap,
        OpenKind::LazyBinaryHeap,
        OpenKind::PairingHeap,
        OpenKind::SplayTree,
        OpenKind::HotQueue,
        OpenKind::TwoLevelQueue,
        OpenKind::BucketQueue,
        OpenKind::RadixHeap,
        OpenKind::UnsortedArray,
        OpenKind::SortedArray,
        OpenKind::SortedList,
        OpenKind::SkipList,
        OpenKind::IndexedArray,
        OpenKind::HashTable,
    ];

    /// The kind's name, summary and complexity.
    pub fn info(self) -> &'static OpenSetInfo {
        // In the order of the variants (checked by the tests: every name
        // parses back to its kind).
        const INFO: [OpenSetInfo; 16] = [
            OpenSetInfo {
                name: "quaternary-heap",
                summary: "4-ary heap with positions for decrease-key, 64-bit keys on the grid costs; the default",
                complexity: "push, decrease-key O(log4 n); pop O(4 log4 n); membership O(1)",
            },
            OpenSetInfo {
                name: "indexed-binary-heap",
                summary: "binary heap of (key, node) with positions for decrease-key",
                complexity: "push, pop, decrease-key O(log n); membership O(1)",
            },
            OpenSetInfo {
                name: "classic-binary-heap",
                summary: "textbook 1-based binary heap of node ids, keys in a dense array",
                complexity: "push, pop, decrease-key O(log n); membership O(1)",
            },
            OpenSetInfo {
                name: "lazy-binary-heap",
                summary: "binary heap without decrease-key: improved keys are pushed again",
                complexity: "push, decrease-key O(log N), pop O(log N) amortised, N counting stale entries",
            },
            OpenSetInfo {
                name: "pairing-heap",
                summary: "self-adjusting multiway tree with two-pass pairing; the fastest under landmark heuristics",
                complexity: "push O(1); pop O(log n) amortised; decrease-key O(1) actual",
            },
            OpenSetInfo {
                name: "splay-tree",
                summary: "top-down splay tree ordered by key and node id",
                complexity: "push, pop, decrease-key O(log n) amortised; membership O(1)",
            },
            OpenSetInfo {
                name: "hot-queue",
                summary: "heap-on-top queue: f buckets, only the lowest kept as a heap (monotone keys)",
                complexity: "push O(1) or O(log t) into the top heap of t; pop O(log t) + O(K + b) per bucket change",
            },
            OpenSetInfo {
                name: "two-level-queue",
                summary: "heap for f below a threshold, unsorted list above it",
                complexity: "push O(1) or O(log h); pop O(log h) + O(l) per refill from a list of l",
            },
            OpenSetInfo {
                name: "bucket-queue",
                summary: "Dial's circular bucket array over f, each bucket a small heap (monotone keys)",
                complexity: "push, decrease-key O(log b) in a bucket of b; pop O(log b) + O(1) per empty bucket",
            },
            OpenSetInfo {
                name: "radix-heap",
                summary: "one-level radix heap over the bits of f (monotone keys)",
                complexity: "push, decrease-key O(1); pop O(64) amortised per entry",
            },
            OpenSetInfo {
                name: "unsorted-array",
                summary: "unsorted array with slot index; pop scans every entry",
                complexity: "push, decrease-key O(1); pop O(n)",
            },
            OpenSetInfo {
                name: "sorted-array",
                summary: "array sorted worst to best; insertion shifts entries",
                complexity: "push, decrease-key O(log n) compares + O(n) moves; pop O(1)",
            },
            OpenSetInfo {
                name: "sorted-list",
                summary: "doubly linked list sorted best to worst, walked from the nearer end",
                complexity: "push, decrease-key O(n) walk; pop O(1)",
            },
            OpenSetInfo {
                name: "skip-list",
                summary: "skip list (p = 1/4) sorted by key and node id",
                complexity: "push, decrease-key O(log n) expected; pop O(1) expected",
            },
            OpenSetInfo {
                name: "indexed-array",
                summary: "keys in an array indexed by node id plus a member list; pop scans members",
                complexity: "push, decrease-key O(1); pop O(n)",
            },
            OpenSetInfo {
                name: "hash-table",
                summary: "hash map from node to key; pop scans the table",
                complexity: "push, decrease-key O(1) expected; pop O(capacity)",
            },
        ];
        &INFO[self as usize]
    }

    /// The kebab-case name (`quaternary-heap`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether the structure is built for monotone keys: no key pushed
    /// below the last one popped, as a consistent heuristic guarantees. A
    /// key below it (by rounding, as under a landmark heuristic) still comes
    /// out in order but is filed with the current minimum, so far-below
    /// keys slow the structure down (see each type's `# Correctness`).
    pub fn needs_monotone_keys(self) -> bool {
        matches!(
            self,
            OpenKind::HotQueue | OpenKind::BucketQueue | OpenKind::RadixHeap
        )
    }
}

/// Runs code with a type alias for the OPEN set of an [`OpenKind`]:
/// `with_open_set!(kind, |Q| body)` evaluates `body` with `Q` standing for
/// the structure's type. Every structure implements [`OpenSet`],
/// [`Default`] and [`Debug`](std::fmt::Debug), so the body can build one
/// with `Q::default()` and call generic code with it.
///
/// The body is compiled once per structure (16 times), so keep it to a call
/// of a generic function.
///
/// # Example
///
/// ```
/// use cairns::grid::{DIAGONAL, Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::Octile;
/// use cairns::open::{OpenKind, OpenSet};
/// use cairns::search::{AStar, Search, SearchCache};
/// use cairns::with_open_set;
///
/// let grid = Grid::from_ascii("
///     ..@..
///     ..@..
///     .....
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let astar = AStar::new(&graph, Octile::new(&graph));
/// let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(4, 0).unwrap());
/// for kind in OpenKind::ALL {
///     let cost = with_open_set!(kind, |Q| {
///         astar.search_cost(start, goal, &mut SearchCache::with_open(Q::default()))
///     });
///     assert_eq!(cost, Some(4.0 + 2.0 * DIAGONAL));
/// }
/// ```
#[macro_export]
macro_rules! with_open_set {
    ($kind:expr, |$q:ident| $body:expr) => {{
        let kind: $crate::open::OpenKind = $kind;
        match kind {
            $crate::open::OpenKind::IndexedBinaryHeap => {
                type $q = $crate::open::IndexedBinaryHeap;
                $body
            }
            $crate::open::OpenKind::ClassicBinaryHeap => {
                type $q = $crate::open::ClassicBinaryHeap;
                $body
            }
            $crate::open::OpenKind::QuaternaryHeap => {
                type $q = $crate::open::QuaternaryHeap;
                $body
            }
            $crate::open::OpenKind::LazyBinaryHeap => {
                type $q = $crate::open::LazyBinaryHeap;
                $body
            }
            $crate::open::OpenKind::PairingHeap => {
                type $q = $crate::open::PairingHeap;
                $body
            }
            $crate::open::OpenKind::SplayTree => {
                type $q = $crate::open::SplayTree;
                $body
            }
            $crate::open::OpenKind::HotQueue => {
                type $q = $crate::open::HotQueue;
                $body
            }
            $crate::open::OpenKind::TwoLevelQueue => {
                type $q = $crate::open::TwoLevelQueue;
                $body
            }
            $crate::open::OpenKind::BucketQueue => {
                type $q = $crate::open::BucketQueue;
                $body
            }
            $crate::open::OpenKind::RadixHeap => {
                type $q = $crate::open::RadixHeap;
                $body
            }
            $crate::open::OpenKind::UnsortedArray => {
                type $q = $crate::open::UnsortedArray;
                $body
            }
            $crate::open::OpenKind::SortedArray => {
                type $q = $crate::open::SortedArray;
                $body
            }
            $crate::open::OpenKind::SortedList => {
                type $q = $crate::open::SortedList;
                $body
            }
            $crate::open::OpenKind::SkipList => {
                type $q = $crate::open::SkipList;
                $body
            }
            $crate::open::OpenKind::IndexedArray => {
                type $q = $crate::open::IndexedArray;
                $body
            }
            $crate::open::OpenKind::HashTable => {
                type $q = $crate::open::HashTable;
                $body
            }
        }
    }};
}

/// The priority of an OPEN entry: `f = g + h`, then `g` (the larger
/// first) to break ties.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Key {
    /// Estimated cost of a path through the node: `g + h`.
    pub f: f64,
    /// The order among equal `f`, the larger first: the cost of the best
    /// known path from the start to the node ([`Key::new`]), or, when the
    /// heuristic knows an upper bound on the node's distance to the goal,
    /// a value of that bound and the estimate ([`Key::tied`]).
    pub g: f64,
}

/// How far [`Key::tied`] may move a tie below the value it breaks:
/// `2^-24`, half the quantum of the exact grid costs (`2^-23`, see
/// [`Graph::lattice_costs`](crate::graph::Graph::lattice_costs)).
pub const TIE_SPAN: f64 = 1.0 / 16_777_216.0;

/// The width of a bracket that [`Key::tied`] maps to 1/2: it spreads the
/// usual widths (up to a few thousand) over `[0, 1)` finely enough for
/// the `f64` bits below [`TIE_SPAN`].
const TIE_SCALE: f64 = 1024.0;

impl Key {
    /// A key from `g` and `h`.
    #[inline]
    pub fn new(g: f64, h: f64) -> Key {
        Key { f: g + h, g }
    }

    /// The key of a node at cost `g` with estimate `h` and an `upper`
    /// bound on its distance to the goal
    /// ([`Heuristic::upper_bound`](crate::heuristic::Heuristic::upper_bound)):
    /// `f = g + h`, and among equal `f` the node whose bracket
    /// `[h, upper]` has the smaller middle comes out first (the tie is
    /// `-(h + upper)`), then the one whose bracket is narrower (the tie
    /// lowered by less than [`TIE_SPAN`]). Without a bound
    /// (`upper` infinite) the tie is `g`, as in [`Key::new`]; such a node
    /// comes before every node with a bound at the same `f` (`g` is not
    /// negative, the middle's tie is), which only matters for a heuristic
    /// that knows bounds for some nodes and not others (a landmark that
    /// does not reach every node of a directed graph).
    ///
    /// `f` is untouched, so the search stays optimal whatever the tie. On
    /// the exact grid costs, whose distinct sums differ by at least
    /// `2^-23`, the width never reorders two distinct middles (elsewhere
    /// it may reorder middles closer than `2^-24`, which only moves a
    /// tie-break); where the sums are too large for `f64` to resolve the
    /// width (from `2^28`), it is rounded away.
    #[inline]
    pub fn tied(g: f64, h: f64, upper: f64) -> Key {
        let f = g + h;
        if upper < f64::INFINITY {
            let width = (upper - h).max(0.0);
            Key {
                f,
                g: -(h + upper) - width / (width + TIE_SCALE) * TIE_SPAN,
            }
        } else {
            Key { f, g }
        }
    }

    /// Whether `self` comes out of OPEN before `other`: smaller `f`, then
    /// larger [`g`](Key::g).
    #[inline]
    pub fn precedes(self, other: Key) -> bool {
        self.f < other.f || (self.f == other.f && self.g > other.g)
    }

    /// The precondition of [`OpenSet::decrease_key`], checked in debug
    /// builds: `new` does not come after `self`, the node's current key.
    #[inline]
    #[track_caller]
    pub(crate) fn debug_assert_lowered_to(self, new: Key) {
        debug_assert!(!self.precedes(new), "decrease_key raised a key");
    }
}

/// An OPEN entry, for the structures that keep a key next to its node.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: Key,
    node: NodeId,
}

/// The operations A* performs on its OPEN set.
///
/// Node ids are dense (below the bound given to [`prepare`](OpenSet::prepare)),
/// and a node is in the set at most once, except in structures that say
/// otherwise (see [`decrease_key`](OpenSet::decrease_key)).
pub trait OpenSet {
    /// Makes room for nodes `0..node_bound`. Called at the start of every
    /// search; must be cheap when the bound has not grown.
    fn prepare(&mut self, node_bound: usize);

    /// Adds a node that is not in the set.
    fn push(&mut self, node: NodeId, key: Key);

    /// Removes and returns the entry that [precedes](Key::precedes) all
    /// others.
    fn pop(&mut self) -> Option<(NodeId, Key)>;

    /// The key of `node` if it is in the set (membership).
    fn key(&self, node: NodeId) -> Option<Key>;

    /// Gives `node`, which is in the set, a key that precedes its current one
    /// (the "re-sort an existing item" step).
    ///
    /// A structure without decrease-key may instead push a second entry and
    /// later return the stale one from `pop`; A* recognises and skips stale
    /// entries, since their `f` is worse than the node's recorded `g + h`.
    fn decrease_key(&mut self, node: NodeId, key: Key);

    /// Whether [`pop`](OpenSet::pop) may return stale entries: a node
    /// whose key was lowered by a second entry, or a node popped before.
    /// The search loop checks each popped entry against the node's record
    /// unless the structure says `false` (it lowers keys in place and holds
    /// a node at most once). The default, `true`, is always safe.
    const STALE: bool = true;

    /// Whether [`precedes_all`](OpenSet::precedes_all) answers from the
    /// structure's front at once. The search loop then keeps the best
    /// successor of an expansion out of the set when it precedes every
    /// entry (it is the next node to expand) instead of pushing it and
    /// popping it right back. Structures that leave it `false` see every
    /// push, in the order the successors are generated.
    const PEEKS: bool = false;

    /// Whether `key` [precedes](Key::precedes) the key of every entry:
    /// `true` on an empty set. A structure may answer `false` when it
    /// cannot tell (the default); with stale entries it may compare with
    /// theirs too, since an entry no live one precedes is still a bound.
    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        let _ = key;
        false
    }

    /// Removes every entry.
    fn clear(&mut self);

    /// Number of entries.
    fn len(&self) -> usize;

    /// Whether there are no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::conformance::{self, NODES, Op};
    use super::{BucketQueue, HotQueue, Key, OpenKind, OpenSet, TwoLevelQueue};
    use crate::graph::NodeId;

    /// Pushes four entries, two with equal `f`, and lowers one to the
    /// front (the start of [`conformance::tie_order`]); returns the order
    /// they pop in.
    pub(super) fn push_tied<Q: OpenSet + ?Sized>(q: &mut Q) -> [u32; 4] {
        q.prepare(10);
        conformance::push_keys(
            q,
            &[(1, 5.0, 1.0), (2, 3.0, 0.0), (3, 5.0, 4.0), (4, 9.0, 0.0)],
        );
        q.decrease_key(NodeId(4), Key { f: 1.0, g: 0.5 });
        [4, 2, 3, 1]
    }

    /// The order among equal keys that each structure documenting one
    /// promises, all in one table: the nodes pushed in this order with one
    /// key pop in the order given.
    #[test]
    fn equal_keys_pop_in_each_structures_documented_order() {
        let pushed = [70, 3, 500, 42, 9];
        let by_node = [3, 9, 42, 70, 500];
        let last_pushed_first = [9, 42, 500, 3, 70];
        // Popping slot 0 moves the last entry into it.
        let slot_0_refilled = [70, 9, 42, 500, 3];
        let documented = [
            (OpenKind::HashTable, by_node),
            (OpenKind::SkipList, by_node),
            (OpenKind::SplayTree, by_node),
            (OpenKind::SortedArray, last_pushed_first),
            (OpenKind::SortedList, last_pushed_first),
            (OpenKind::IndexedArray, slot_0_refilled),
            (OpenKind::UnsortedArray, slot_0_refilled),
        ];
        for (kind, want) in documented {
            let order = crate::with_open_set!(kind, |Q| {
                let mut q = Q::default();
                for n in pushed {
                    q.push(NodeId(n), Key { f: 2.0, g: 1.0 });
                }
                conformance::pop_order(&mut q)
            });
            assert_eq!(order, want, "{kind}");
        }
    }

    /// The type name of the structure a kind dispatches to, after running
    /// the conformance suite on it.
    fn conforming(kind: OpenKind) -> &'static str {
        crate::with_open_set!(kind, |Q| {
            conformance::check::<Q>();
            std::any::type_name::<Q>()
        })
    }

    #[test]
    fn an_upper_bound_orders_only_equal_f() {
        let quantum = 1.0 / 8_388_608.0; // 2^-23, the exact grid costs' step
        let (cost, est) = (700.0 + 3.0 * std::f64::consts::SQRT_2, 41.5);
        let up = est + 20.0;
        // Equal f and equal middles: the narrower bracket goes first.
        let narrow = Key::tied(cost, est, up);
        let wide = Key::tied(cost + 1.0, est - 1.0, up + 1.0);
        assert_eq!((narrow.f, wide.f), (cost + est, cost + est));
        assert!(narrow.precedes(wide) && !wide.precedes(narrow));
        // A middle one exact step below goes first, however wide.
        let below = Key::tied(cost + 500.0, est - 500.0, est + 500.0 + quantum);
        let above = Key::tied(cost - quantum, est + quantum, est + quantum);
        assert_eq!((below.f, above.f), (narrow.f, narrow.f));
        assert!(below.precedes(above) && !above.precedes(below));
        // A larger g with a wider bracket around the same middle goes
        // after: the diagonal step into a flattered triangle.
        let diagonal = std::f64::consts::SQRT_2;
        let straight = Key::tied(cost + 1.0, est - 1.0, up - 1.0);
        let into = Key::tied(cost + diagonal, est - diagonal, up - 1.0 + (diagonal - 1.0));
        assert!(straight.precedes(into));
        // Without a bound the larger g goes first.
        assert!(Key::tied(cost, est, f64::INFINITY).precedes(Key::tied(
            cost - quantum,
            est + quantum,
            f64::INFINITY
        )));
        assert_eq!(Key::tied(cost, est, f64::INFINITY), Key::new(cost, est));
        // A smaller f goes first, whatever the ties.
        assert!(Key::tied(0.0, cost + est - quantum, up).precedes(Key::tied(cost, est, est)));
        // The heap's integer order agrees.
        assert!(super::order::encode(narrow) < super::order::encode(wide));
        assert!(super::order::encode(straight) < super::order::encode(into));
    }

    #[test]
    fn every_kind_conforms_and_dispatches_to_a_distinct_structure() {
        let mut types: Vec<&str> = OpenKind::ALL.iter().map(|&k| conforming(k)).collect();
        assert_eq!(types[0], std::any::type_name::<super::QuaternaryHeap>());
        types.sort_unstable();
        types.dedup();
        assert_eq!(types.len(), 16, "two kinds dispatch to one structure");
    }

    #[test]
    fn bucket_structures_conform_with_few_narrow_buckets() {
        // Few narrow buckets: the overflow lists, refills and rebasing get
        // exercised on every sequence.
        conformance::check_with(|| BucketQueue::with_buckets(0.5, 4));
        conformance::check_with(|| BucketQueue::with_buckets(2.0, 4));
        conformance::check_with(|| HotQueue::with_buckets(1.0, 4));
        conformance::check_with(|| HotQueue::with_buckets(1.0, 3));
        conformance::check_with(|| TwoLevelQueue::with_window(0.5));
    }

    /// The overflow minimum is only a bound once its entry moves out: a
    /// stale bound must neither lose entries nor move the window back.
    #[test]
    fn a_stale_overflow_bound_does_not_lose_entries() {
        fn check<Q: OpenSet>(q: Q) {
            let mut q = conformance::prepared_with(q, 4, &[(0, 10.0, 0.0), (1, 20.0, 0.0)]);
            q.decrease_key(NodeId(0), Key::new(0.5, 0.0));
            assert_eq!(conformance::pop_order(&mut q), [0, 1]);
        }
        check(BucketQueue::with_buckets(1.0, 2));
        check(HotQueue::with_buckets(1.0, 2));
    }

    /// Regression guard (issue 10): the differential heuristic rounded
    /// through `f32` then (a table that is not exact still subtracts a
    /// margin), so a successor's `f` can fall a little below the last
    /// popped `f`, and the monotone queues' debug assertions (tolerance
    /// `1e-9`) panicked on this query. They now file such keys with the
    /// current minimum and pop them in order.
    #[test]
    fn monotone_queues_take_landmark_rounding_below_the_last_popped_f() {
        use crate::grid::{Grid, GridGraph, Neighborhood};
        use crate::spec::SearchSpec;

        let graph = GridGraph::new(
            Grid::from_ascii(
                "
                ..@..
                ..@..
                .....
                ",
            )
            .unwrap(),
            Neighborhood::Octile,
        );
        let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(4, 0).unwrap());
        for kind in OpenKind::ALL
            .into_iter()
            .filter(|k| k.needs_monotone_keys())
        {
            for algorithm in ["astar", "jps", "canonical"] {
                let spec: SearchSpec = format!("{algorithm}/dh:1/{kind}").parse().unwrap();
                let prepared = spec.prepare(&graph).unwrap();
                let cost = prepared.searcher().search_cost(start, goal);
                assert_eq!(cost, Some(4.0 + 2.0 * crate::grid::DIAGONAL), "{spec}");
            }
        }
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (0..NODES, 0u8..12, 0u8..8, 0u8..6)
                .prop_map(|(node, a, b, depth)| Op::Push { node, a, b, depth }),
            1 => (0..NODES, 0u8..4).prop_map(|(node, by)| Op::PushBelow { node, by }),
            4 => Just(Op::Pop),
            3 => (any::<u32>(), 0u8..8).prop_map(|(pick, by)| Op::Decrease { pick, by }),
            1 => Just(Op::Clear),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Every OPEN set matches the model under random sequences, which
        /// proptest shrinks to a minimal failing one.
        #[test]
        fn every_kind_matches_the_model(
            kind in proptest::sample::select(OpenKind::ALL.to_vec()),
            ops in prop::collection::vec(op(), 0..300),
        ) {
            let result = crate::with_open_set!(kind, |Q| conformance::model(&mut Q::default(), &ops));
            if let Err(e) = result {
                prop_assert!(false, "{kind}: {e}");
            }
        }
    }

    #[test]
    fn names_are_unique_kebab_case_and_default_first() {
        assert_eq!(OpenKind::ALL[0], OpenKind::default());
        let mut names: Vec<&str> = OpenKind::ALL.iter().map(|k| k.name()).collect();
        for (name, kind) in names.iter().zip(OpenKind::ALL) {
            assert!(
                name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{name} is not kebab-case"
            );
            assert!(!kind.info().summary.is_empty() && !kind.info().complexity.is_empty());
            assert_eq!(kind.to_string(), *name);
            assert_eq!(name.parse::<OpenKind>(), Ok(kind));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), OpenKind::ALL.len());
        let mut sorted = OpenKind::ALL;
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            OpenKind::ALL,
            "ALL lists the kinds in declaration order"
        );
        assert!(crate::with_open_set!(OpenKind::RadixHeap, |Q| Q::default().is_empty()));
    }

    /// `ALL` holds every OPEN set, in the order named here (`assert_all_lists_every!`).
    #[test]
    fn all_holds_every_open_set_in_declaration_order() {
        assert_all_lists_every!(
            OpenKind: QuaternaryHeap, IndexedBinaryHeap, ClassicBinaryHeap, LazyBinaryHeap, PairingHeap, SplayTree, HotQueue, TwoLevelQueue, BucketQueue, RadixHeap, UnsortedArray, SortedArray, SortedList, SkipList, IndexedArray, HashTable
        );
    }
}
