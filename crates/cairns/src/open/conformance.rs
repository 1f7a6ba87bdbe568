//! The conformance suite of [`OpenSet`]: what every OPEN set must do, as
//! one set of checks that each structure of this crate runs, and that a
//! downstream crate can run on its own implementation.
//!
//! [`check`] runs all of it on a structure built with `Default`, and
//! [`check_with`] on one built by a closure (a non-default bucket width,
//! say). Each panics with a message naming the first difference. The parts
//! are public too:
//!
//! - [`model`]: a sequence of [`Op`]s (push, pop, decrease-key, clear),
//!   checked after every step against a plain list: the popped key, `len`,
//!   the key (membership) of every node, and
//!   [`precedes_all`](OpenSet::precedes_all) on keys at and around the
//!   front. [`random_ops`] draws such
//!   sequences from a seed; a property-test framework can draw them too.
//!   Keys grow as under a consistent heuristic (`a + b * sqrt(2)` above the
//!   last popped `f`), with some a rounding step *below* it, as under a
//!   landmark table that is not exact (its margin): the monotone queues
//!   ([`OpenKind::needs_monotone_keys`](super::OpenKind::needs_monotone_keys))
//!   take these sequences too.
//! - [`tie_order`]: the documented [order](super#order): smaller `f` first,
//!   larger `g` first among equal `f`.
//! - [`clear`]: `clear` forgets every entry and membership, and the set
//!   works after it.
//! - [`deep_decrease_key`]: decrease-key deep inside a large set.
//! - [`astar`]: a search over the structure, given as a closure (this
//!   module knows no search), finds the costs of a reference Dijkstra on a
//!   few maps (octile and 4-connected, walls, dead ends, walled-in cells),
//!   reusing one cache across queries. `search`'s tests run it with A* over
//!   every OPEN set.
//!
//! Everything is deterministic: the same seeds give the same sequences on
//! every platform ([`SplitMix64`]).
//!
//! # Example
//!
//! A downstream OPEN set (here a thin wrapper over a structure of this
//! crate) runs the suite in one line of a test:
//!
//! ```
//! use cairns::graph::NodeId;
//! use cairns::open::{conformance, Key, OpenSet, PairingHeap};
//!
//! #[derive(Default)]
//! struct MyOpen(PairingHeap);
//!
//! impl OpenSet for MyOpen {
//!     fn prepare(&mut self, node_bound: usize) { self.0.prepare(node_bound) }
//!     fn push(&mut self, node: NodeId, key: Key) { self.0.push(node, key) }
//!     fn pop(&mut self) -> Option<(NodeId, Key)> { self.0.pop() }
//!     fn key(&self, node: NodeId) -> Option<Key> { self.0.key(node) }
//!     fn decrease_key(&mut self, node: NodeId, key: Key) { self.0.decrease_key(node, key) }
//!     fn clear(&mut self) { self.0.clear() }
//!     fn len(&self) -> usize { self.0.len() }
//! }
//!
//! conformance::check::<MyOpen>();
//! ```
//!
//! A structure that breaks the contract fails with the step and the
//! difference:
//!
//! ```should_panic
//! # use cairns::graph::NodeId;
//! # use cairns::open::{conformance, Key, OpenSet};
//! /// Pops the last entry pushed: not an OPEN set.
//! #[derive(Default)]
//! struct Stack(Vec<(NodeId, Key)>);
//!
//! impl OpenSet for Stack {
//!     fn prepare(&mut self, _: usize) {}
//!     fn push(&mut self, node: NodeId, key: Key) { self.0.push((node, key)) }
//!     fn pop(&mut self) -> Option<(NodeId, Key)> { self.0.pop() }
//!     fn key(&self, node: NodeId) -> Option<Key> {
//!         self.0.iter().find(|e| e.0 == node).map(|e| e.1)
//!     }
//!     fn decrease_key(&mut self, node: NodeId, key: Key) {
//!         self.0.iter_mut().filter(|e| e.0 == node).for_each(|e| e.1 = key)
//!     }
//!     fn clear(&mut self) { self.0.clear() }
//!     fn len(&self) -> usize { self.0.len() }
//! }
//!
//! conformance::check::<Stack>(); // panics: "... popped ..., best is ..."
//! ```

use std::f64::consts::SQRT_2;
use std::fmt;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Key, OpenSet};
use crate::graph::{Graph, NodeId};
use crate::grid::{Grid, GridGraph, Neighborhood};
use crate::rng::SplitMix64;

/// The node ids the model sequences use: `0..NODES`.
pub const NODES: u32 = 64;

/// How far below the last popped `f` an [`Op::PushBelow`] goes, per unit
/// of `by`, relative to `1 + f`: `2^-20`, the order of the rounding that
/// a landmark table that is not exact can add (`f32` distances, see
/// [`LandmarkTable`](crate::landmarks::LandmarkTable), "Rounding").
pub const BELOW_STEP: f64 = 1.0 / (1u64 << 20) as f64;

/// One step of a [`model`] sequence. Node ids are below [`NODES`]; the
/// small integer fields are shaped into keys relative to the `f` of the
/// last entry popped (the *floor*, 0 after a clear).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Pushes `node`, unless it is in the set, with
    /// `f = floor + a + b * sqrt(2)` and `g = max(f - depth, 0)`.
    Push {
        /// The node.
        node: u32,
        /// Straight moves of `f` above the floor.
        a: u8,
        /// Diagonal moves of `f` above the floor.
        b: u8,
        /// `f - g`, the heuristic's share.
        depth: u8,
    },
    /// Pushes `node`, unless it is in the set, with `f` a rounding step
    /// below the floor: `f = max(floor - by * BELOW_STEP * (1 + floor), 0)`
    /// and `g = f`.
    PushBelow {
        /// The node.
        node: u32,
        /// Steps of [`BELOW_STEP`] below the floor.
        by: u8,
    },
    /// Pops the first entry.
    Pop,
    /// Lowers the key of entry `pick % len` (in the model's order) by
    /// `by / 2` of `f`, not below the floor, raising `g` by as much.
    Decrease {
        /// Which entry.
        pick: u32,
        /// Half-units of `f` to take off.
        by: u8,
    },
    /// Removes every entry.
    Clear,
}

/// The first difference between an OPEN set and the model: the step of
/// the sequence and what differed.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The index of the [`Op`] after which the difference showed.
    pub step: usize,
    /// What differed, in words.
    pub what: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {}: {}", self.step, self.what)
    }
}

impl std::error::Error for Mismatch {}

/// A random sequence of `len` operations drawn from `rng`: pushes, pops,
/// decrease-keys, a few pushes below the floor and rare clears.
pub fn random_ops(rng: &mut SplitMix64, len: usize) -> Vec<Op> {
    (0..len)
        .map(|_| {
            let node = rng.below(u64::from(NODES)) as u32;
            match rng.below(15) {
                0..6 => Op::Push {
                    node,
                    a: rng.below(12) as u8,
                    b: rng.below(8) as u8,
                    depth: rng.below(6) as u8,
                },
                6 => Op::PushBelow {
                    node,
                    by: rng.below(4) as u8,
                },
                7..11 => Op::Pop,
                11..14 => Op::Decrease {
                    pick: rng.next_u64() as u32,
                    by: rng.below(8) as u8,
                },
                _ => Op::Clear,
            }
        })
        .collect()
}

/// The entry of `model` that precedes all others (the first one among
/// equal keys).
fn best(model: &[(NodeId, Key)]) -> Option<Key> {
    model
        .iter()
        .map(|e| e.1)
        .reduce(|best, k| if k.precedes(best) { k } else { best })
}

/// Runs `ops` on `open` and on a plain list, comparing after every step:
/// the key of each pop (the node may be any of those with that key), `len`,
/// and the key of every node below [`NODES`]. `open` is prepared for
/// [`NODES`] nodes first and should be empty.
///
/// # Errors
///
/// The first [`Mismatch`].
pub fn model<Q: OpenSet + ?Sized>(open: &mut Q, ops: &[Op]) -> Result<(), Mismatch> {
    model_with_diagonal(open, ops, SQRT_2)
}

/// [`model`] with `diagonal` in place of `sqrt(2)` in the keys of
/// [`Op::Push`]: with the grid's [`DIAGONAL`](crate::grid::DIAGONAL), and
/// no [`Op::PushBelow`], every key is on the lattice of the exact grid
/// costs ([`LATTICE`](crate::graph::LATTICE)), which a structure may
/// store more compactly.
///
/// # Errors
///
/// The first [`Mismatch`].
pub fn model_with_diagonal<Q: OpenSet + ?Sized>(
    open: &mut Q, ops: &[Op], diagonal: f64,
) -> Result<(), Mismatch> {
    open.prepare(NODES as usize);
    let mut model: Vec<(NodeId, Key)> = Vec::new();
    let mut floor = 0.0f64;
    for (step, op) in ops.iter().enumerate() {
        let fail = |what: String| Err(Mismatch { step, what });
        match *op {
            Op::Push { node, .. } | Op::PushBelow { node, .. }
                if model.iter().any(|e| e.0 == NodeId(node)) => {}
            Op::Push { node, a, b, depth } => {
                let f = floor + f64::from(a) + f64::from(b) * diagonal;
                let key = Key {
                    f,
                    g: (f - f64::from(depth)).max(0.0),
                };
                open.push(NodeId(node), key);
                model.push((NodeId(node), key));
            }
            Op::PushBelow { node, by } => {
                let f = (floor - f64::from(by) * BELOW_STEP * (1.0 + floor)).max(0.0);
                let key = Key { f, g: f };
                open.push(NodeId(node), key);
                model.push((NodeId(node), key));
            }
            Op::Pop => match (open.pop(), best(&model)) {
                (None, None) => {}
                (Some((node, key)), Some(want)) => {
                    if key != want {
                        return fail(format!("popped {node} with {key:?}, best is {want:?}"));
                    }
                    let Some(i) = model.iter().position(|e| *e == (node, key)) else {
                        return fail(format!("popped {node} with {key:?}, not in the set"));
                    };
                    model.swap_remove(i);
                    floor = key.f;
                }
                (got, want) => return fail(format!("popped {got:?}, best is {want:?}")),
            },
            Op::Decrease { pick, by } => {
                if model.is_empty() {
                    continue;
                }
                let i = pick as usize % model.len();
                let (node, old) = model[i];
                // A lower f, never below the floor, with g raised by as much
                // as f fell (a shorter path to the same node).
                let f = (old.f - f64::from(by) * 0.5).max(floor);
                let key = Key {
                    f,
                    g: old.g + (old.f - f).max(0.0),
                };
                if !(key.precedes(old) || key == old) {
                    continue;
                }
                open.decrease_key(node, key);
                model[i].1 = key;
            }
            Op::Clear => {
                open.clear();
                model.clear();
                floor = 0.0;
            }
        }
        if open.len() != model.len() || open.is_empty() != model.is_empty() {
            return fail(format!(
                "len {} but the model has {}",
                open.len(),
                model.len()
            ));
        }
        for n in 0..NODES {
            let want = model.iter().find(|e| e.0 == NodeId(n)).map(|e| e.1);
            let got = open.key(NodeId(n));
            if want != got {
                return fail(format!("key of {n} is {got:?}, the model says {want:?}"));
            }
        }
        if let Some(what) = front_mismatch(open, &model) {
            return fail(what);
        }
    }
    Ok(())
}

/// How `open.precedes_all` differs from the model, if it does: a `true`
/// must be right for every probe key; a structure that
/// [peeks](OpenSet::PEEKS) must also say `true` whenever it is right (so
/// on an empty set).
fn front_mismatch<Q: OpenSet + ?Sized>(open: &Q, model: &[(NodeId, Key)]) -> Option<String> {
    let probes = match best(model) {
        None => vec![Key { f: 0.0, g: 0.0 }],
        Some(b) => vec![
            b,
            Key {
                f: b.f,
                g: b.g + 1.0,
            },
            Key {
                f: b.f - 1.0,
                g: 0.0,
            },
            Key {
                f: b.f + 1.0,
                g: b.g,
            },
        ],
    };
    probes.into_iter().find_map(|probe| {
        let truth = model.iter().all(|e| probe.precedes(e.1));
        let got = open.precedes_all(probe);
        (got != truth && (got || Q::PEEKS))
            .then(|| format!("precedes_all({probe:?}) is {got}, the model says {truth}"))
    })
}

/// The documented tie order on fixed sequences: smaller `f` first, larger
/// `g` first among equal `f`, a decrease-key that moves a node to the
/// front, membership forgotten once popped, and keys far apart (different
/// buckets, beyond a bucket window) moved near by decrease-key.
///
/// # Panics
///
/// On the first difference.
pub fn tie_order<Q: OpenSet>(mut q: Q) {
    q.prepare(10);
    push_keys(
        &mut q,
        &[
            (1, 5.0, 1.0),
            (2, 3.0, 0.0),
            (3, 5.0, 4.0),
            (4, 9.0, 0.0),
            (5, 5.0, 2.5),
        ],
    );
    q.decrease_key(NodeId(4), Key { f: 1.0, g: 0.5 });
    assert_eq!(
        q.key(NodeId(3)),
        Some(Key { f: 5.0, g: 4.0 }),
        "tie order: key of node 3"
    );
    assert_eq!(
        pop_order(&mut q),
        [4, 2, 3, 5, 1],
        "tie order: smaller f first, then larger g"
    );
    assert_eq!(
        q.key(NodeId(3)),
        None,
        "tie order: a popped node is a member"
    );
    // Keys far apart, moved by decrease-key from far to near and within
    // one `f`.
    push_keys(&mut q, &FAR_APART);
    assert_eq!(q.pop().map(|(n, _)| n.0), Some(5), "order: first pop");
    q.decrease_key(NodeId(4), Key { f: 1.0, g: 0.5 });
    q.decrease_key(NodeId(1), Key { f: 5.5, g: 2.0 });
    q.decrease_key(NodeId(3), Key { f: 4.5, g: 5.0 });
    assert_eq!(
        q.key(NodeId(1)),
        Some(Key { f: 5.5, g: 2.0 }),
        "order: key after decrease-key"
    );
    q.push(NodeId(6), Key { f: 40.0, g: 0.0 });
    assert_eq!(pop_order(&mut q), [4, 3, 2, 1, 6], "order: keys far apart");
    assert!(q.is_empty(), "order: empty after popping everything");
}

/// `clear` forgets every entry (in every part of a structure: a near key
/// and a far one, after a pop) and the set works after it.
///
/// # Panics
///
/// On the first difference.
pub fn clear<Q: OpenSet>(q: Q) {
    let mut q = prepared_with(q, 4, &[(0, 1.0, 0.0), (1, 2000.0, 0.0), (2, 2.0, 0.0)]);
    assert_eq!(q.pop().map(|(n, _)| n.0), Some(0), "clear: first pop");
    q.clear();
    assert_eq!(q.len(), 0, "clear: len after clear");
    assert!(q.is_empty(), "clear: is_empty after clear");
    for n in 0..3 {
        assert_eq!(q.key(NodeId(n)), None, "clear: node {n} is still a member");
    }
    q.push(NodeId(1), Key::new(3.0, 0.0));
    assert_eq!(q.key(NodeId(0)), None, "clear: node 0 came back");
    assert_eq!(q.len(), 1, "clear: len after a push");
    assert_eq!(q.pop(), Some((NodeId(1), Key::new(3.0, 0.0))), "clear: pop");
    assert_eq!(q.pop(), None, "clear: pop from an empty set");
}

/// Decrease-key deep inside a large set: 200 increasing keys (a long path
/// in a tree that is not rebalanced), every fifth lowered below others, one
/// pop (which restructures a self-adjusting heap), then every seventh from
/// 50 on lowered again. Every entry comes out once, in key order. `q` is
/// left empty.
///
/// # Panics
///
/// On the first difference.
pub fn deep_decrease_key<Q: OpenSet + ?Sized>(q: &mut Q) {
    const N: u32 = 200;
    q.prepare(N as usize);
    for n in 0..N {
        q.push(NodeId(n), Key::new(f64::from(n), 0.0));
    }
    for n in (3..N).step_by(5) {
        q.decrease_key(NodeId(n), Key::new(f64::from(n) / 3.0, 0.0));
    }
    assert_eq!(
        q.pop().map(|(n, _)| n),
        Some(NodeId(0)),
        "deep decrease-key: first pop"
    );
    for n in (50..N).step_by(7) {
        let old = q.key(NodeId(n)).expect("deep decrease-key: a member");
        q.decrease_key(NodeId(n), Key::new(old.f - 16.5, 0.0));
    }
    let mut last = Key::new(0.0, 0.0);
    let mut popped = 1;
    while let Some((node, key)) = q.pop() {
        assert!(
            !key.precedes(last),
            "deep decrease-key: popped {node} with {key:?} after {last:?}"
        );
        last = key;
        popped += 1;
    }
    assert_eq!(popped, N, "deep decrease-key: entries popped");
}

/// `q` prepared for `node_bound` nodes, with each `(node, f, g)` of
/// `entries` pushed in order.
pub(crate) fn prepared_with<Q: OpenSet>(
    mut q: Q, node_bound: usize, entries: &[(u32, f64, f64)],
) -> Q {
    q.prepare(node_bound);
    push_keys(&mut q, entries);
    q
}

/// `(node, f, g)` entries whose keys lie far apart (in other buckets and
/// beyond a bucket window): the second part of [`tie_order`], and what a
/// structure with a window is refilled across in its own tests.
pub(crate) const FAR_APART: [(u32, f64, f64); 5] = [
    (1, 5.5, 1.0),
    (2, 4.5, 0.0),
    (3, 5.5, 4.0),
    (4, 90.0, 0.0),
    (5, 0.5, 0.0),
];

/// Pushes each `(node, f, g)` of `entries`, in order.
pub(crate) fn push_keys<Q: OpenSet + ?Sized>(q: &mut Q, entries: &[(u32, f64, f64)]) {
    for &(node, f, g) in entries {
        q.push(NodeId(node), Key { f, g });
    }
}

/// Pops every entry of `q`, returning the nodes in the order popped.
pub fn pop_order<Q: OpenSet + ?Sized>(q: &mut Q) -> Vec<u32> {
    std::iter::from_fn(|| q.pop()).map(|(n, _)| n.0).collect()
}

/// A 10x8 map with walls, a dead end and two walled-in pockets: the cell
/// (9, 7) and the cells (7, 6) and (7, 7).
const MAP: &str = "
    ....@.....
    .@@.@.@@@.
    .@..@...@.
    .@.@@@@.@.
    ...@......
    @@.@.@@@@.
    ...@..@.@@
    .@....@.@.
";

/// Cells of [`MAP`] to search between, walled-in ones included.
const CELLS: [(u32, u32); 9] = [
    (0, 0),
    (9, 0),
    (2, 2),
    (5, 2),
    (0, 7),
    (9, 7),
    (4, 6),
    (7, 6),
    (9, 5),
];

/// A `width x height` grid with about a third of its cells walls, from
/// `seed`.
fn random_grid(seed: u64, width: u32, height: u32) -> Grid {
    let mut rng = SplitMix64::new(seed);
    let walls = (0..width * height).map(|_| rng.below(3) == 0);
    Grid::from_walls(width, height, walls).expect("a valid size")
}

/// `search` (a search over the OPEN set under test, given as a closure so
/// that this suite needs no search of its own: `search(graph, start,
/// goal)` is the cost of a shortest path, `None` for none) finds the
/// costs of a reference Dijkstra between pairs of cells of a few maps
/// (octile and 4-connected, drawn and random), called with the same
/// closure, and so the same cache, for every query.
///
/// ```
/// use cairns::heuristic::Octile;
/// use cairns::open::{OpenSet, PairingHeap, conformance};
/// use cairns::search::{AStar, Search, SearchCache};
///
/// let mut cache = SearchCache::with_open(PairingHeap::new());
/// conformance::astar(|graph, start, goal| {
///     let cost = AStar::new(graph, Octile::new(graph)).search_cost(start, goal, &mut cache);
///     assert!(cache.open_set().len() <= graph.grid().len(), "one entry per cell at most");
///     cost
/// });
/// ```
///
/// # Panics
///
/// On the first cost that differs.
pub fn astar(mut search: impl FnMut(&GridGraph, NodeId, NodeId) -> Option<f64>) {
    let drawn = Grid::from_ascii(MAP).expect("a valid map");
    let mut reached = 0;
    let mut queries = 0;
    for (name, grid, neighborhood) in [
        ("drawn octile", drawn.clone(), Neighborhood::Octile),
        ("drawn 4-connected", drawn, Neighborhood::Four),
        (
            "random octile",
            random_grid(1, 24, 16),
            Neighborhood::Octile,
        ),
        (
            "random 4-connected",
            random_grid(2, 16, 24),
            Neighborhood::Four,
        ),
    ] {
        let graph = GridGraph::new(grid, neighborhood);
        let mut rng = SplitMix64::new(3);
        let cells = graph.width() as usize * graph.height() as usize;
        let pairs: Vec<(NodeId, NodeId)> = if name.starts_with("drawn") {
            let nodes: Vec<NodeId> = CELLS
                .iter()
                .map(|&(x, y)| graph.node(x, y).expect("a cell of the map"))
                .collect();
            nodes
                .iter()
                .flat_map(|&a| nodes.iter().map(move |&z| (a, z)))
                .collect()
        } else {
            (0..40)
                .map(|_| {
                    let mut cell = || NodeId(rng.index(cells) as u32);
                    (cell(), cell())
                })
                .collect()
        };
        for (start, goal) in pairs {
            let want = dijkstra(&graph, start, goal);
            let got = search(&graph, start, goal);
            let same = match (got, want) {
                (Some(g), Some(w)) => (g - w).abs() <= 1e-9 * w.max(1.0),
                (g, w) => g.is_none() && w.is_none(),
            };
            assert!(
                same,
                "search on the {name} map: cost from {start} to {goal} is {got:?}, Dijkstra's {want:?}"
            );
            reached += usize::from(want.is_some());
            queries += 1;
        }
    }
    // Some pairs are connected and some are not.
    assert!(reached > 0 && reached < queries);
}

/// The reference costs of [`astar`]: Dijkstra over `graph`'s successors
/// with the standard library's heap, sharing nothing with the searches and
/// OPEN sets under test.
fn dijkstra(graph: &GridGraph, start: NodeId, goal: NodeId) -> Option<f64> {
    // Costs are finite and non-negative, and the bits of such floats
    // order as their values do: the heap holds the bits.
    let n = graph.node_bound();
    if start.index() >= n || goal.index() >= n {
        return None;
    }
    let mut dist = vec![f64::INFINITY; n];
    let mut heap = BinaryHeap::new();
    dist[start.index()] = 0.0;
    heap.push(Reverse((0f64.to_bits(), start.0)));
    while let Some(Reverse((bits, u))) = heap.pop() {
        let d = f64::from_bits(bits);
        if u == goal.0 {
            return Some(d);
        }
        if d > dist[u as usize] {
            continue;
        }
        for (v, w) in graph.successors(NodeId(u)) {
            let nd = d + w;
            if nd < dist[v.index()] {
                dist[v.index()] = nd;
                heap.push(Reverse((nd.to_bits(), v.0)));
            }
        }
    }
    None
}

/// The seeds [`check`] draws its model sequences from.
pub const SEEDS: std::ops::Range<u64> = 0..64;

/// Runs the suite of the OPEN-set contract on sets built by `make`:
/// [`model`] on a sequence of 300 operations for each of [`SEEDS`], then
/// [`tie_order`], [`clear`] and [`deep_decrease_key`]. [`astar`] checks a
/// search over the set, given as a closure.
///
/// # Panics
///
/// On the first difference, naming the check, the seed and the step.
pub fn check_with<Q: OpenSet>(mut make: impl FnMut() -> Q) {
    let name = std::any::type_name::<Q>();
    for seed in SEEDS {
        let ops = random_ops(&mut SplitMix64::new(seed), 300);
        if let Err(e) = model(&mut make(), &ops) {
            panic!("{name} differs from the model, seed {seed}, {e}");
        }
    }
    tie_order(make());
    clear(make());
    deep_decrease_key(&mut make());
}

/// [`check_with`] on sets built with `Default`.
///
/// # Panics
///
/// On the first difference, naming the check, the seed and the step.
pub fn check<Q: OpenSet + Default>() {
    check_with(Q::default);
}
