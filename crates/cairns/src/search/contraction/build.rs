//! Building a contraction hierarchy: the node order (edge difference,
//! contracted neighbours and depth, updated lazily and at the neighbours of
//! each contracted node), the witness searches and the shortcuts.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;

use super::{Adjacency, Climb, ContractionHierarchy, NO_MIDDLE, Packed, Unpacked, UpEdge};
use crate::graph::{NodeId, Reversible};
use crate::search::lazy_heap::LazyHeap;

/// How a [`ContractionHierarchy`] is built: the limits of its witness
/// searches and the weights of its node order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContractionParams {
    /// The most nodes a witness search settles while the order is being
    /// estimated (a node's priority); past it, the targets not reached
    /// count as needing shortcuts.
    pub estimate_settled: usize,
    /// The most nodes a witness search settles when a node is contracted.
    /// Smaller limits build faster and add more (needless, never wrong)
    /// shortcuts.
    pub contract_settled: usize,
    /// The weight of the edge difference (shortcuts added less edges
    /// removed) in a node's priority.
    pub edge_difference: i64,
    /// The weight of the number of the node's neighbours already
    /// contracted (spreads the contraction over the graph).
    pub contracted_neighbours: i64,
    /// The weight of the node's depth (one more than the deepest contracted
    /// neighbour's): keeps the hierarchy shallow, so queries settle fewer
    /// nodes.
    pub depth: i64,
    /// The weight of the *edge quotient*, the shortcuts contracting the
    /// node would add over the edges it removes (Dibbelt, Strasser and
    /// Wagner's order, "Customizable Contraction Hierarchies", 2014).
    pub edge_quotient: i64,
    /// The weight of the *hop quotient*, the edges of the graph those
    /// shortcuts stand for over the edges of the graph the removed edges
    /// stand for: a node whose shortcuts would span long paths waits.
    pub hop_quotient: i64,
}

impl Default for ContractionParams {
    fn default() -> Self {
        ContractionParams {
            estimate_settled: 60,
            contract_settled: 400,
            edge_difference: 2,
            contracted_neighbours: 1,
            depth: 1,
            edge_quotient: 0,
            hop_quotient: 0,
        }
    }
}

/// An edge of the graph being contracted: the other end, the weight, the
/// node a shortcut bypasses ([`NO_MIDDLE`] for an edge of the input) and
/// the number of the input's edges it stands for.
#[derive(Clone, Copy, Debug)]
struct Edge {
    other: u32,
    weight: f64,
    middle: u32,
    hops: u32,
}

/// The remaining graph: each uncontracted node's edges to other
/// uncontracted nodes, out and in, at most one per pair (the cheapest).
struct Remaining {
    out: Vec<Vec<Edge>>,
    into: Vec<Vec<Edge>>,
}

impl Remaining {
    fn new<G: Reversible + ?Sized>(graph: &G) -> Remaining {
        let n = graph.node_bound();
        let mut rest = Remaining {
            out: vec![Vec::new(); n],
            into: vec![Vec::new(); n],
        };
        for u in 0..n as u32 {
            for (v, w) in graph.successors(NodeId(u)) {
                rest.add(u, v.0, w, NO_MIDDLE, 1);
            }
        }
        rest
    }

    /// Adds the edge `u -> v`, or lowers the one there is; self-loops are
    /// never on a shortest path and are left out.
    fn add(&mut self, u: u32, v: u32, weight: f64, middle: u32, hops: u32) {
        if u == v {
            return;
        }
        if let Some(e) = self.out[u as usize].iter_mut().find(|e| e.other == v) {
            if weight < e.weight {
                e.weight = weight;
                e.middle = middle;
                e.hops = hops;
                let back = self.into[v as usize]
                    .iter_mut()
                    .find(|e| e.other == u)
                    .expect("every edge is listed at both ends");
                back.weight = weight;
                back.middle = middle;
                back.hops = hops;
            }
            return;
        }
        self.out[u as usize].push(Edge {
            other: v,
            weight,
            middle,
            hops,
        });
        self.into[v as usize].push(Edge {
            other: u,
            weight,
            middle,
            hops,
        });
    }

    /// Takes `v` out of the remaining graph; returns its edges, out and in.
    fn remove(&mut self, v: u32) -> (Vec<Edge>, Vec<Edge>) {
        let out = std::mem::take(&mut self.out[v as usize]);
        let into = std::mem::take(&mut self.into[v as usize]);
        for e in &out {
            self.into[e.other as usize].retain(|b| b.other != v);
        }
        for e in &into {
            self.out[e.other as usize].retain(|b| b.other != v);
        }
        (out, into)
    }
}

/// A bounded Dijkstra search in the remaining graph, one of a node's
/// in-neighbours to its out-neighbours, avoiding the node: whether each
/// path through the node has a *witness* no longer than itself.
struct Witness {
    dist: Vec<f64>,
    stamp: Vec<u32>,
    /// Targets of the current search, marked with its stamp.
    target: Vec<u32>,
    generation: u32,
    heap: LazyHeap,
}

/// A non-negative `f64` as a key that orders as the number does.
#[inline]
fn key(d: f64) -> u64 {
    // `+ 0.0` turns a -0.0 (a weight "-0") into 0.0, whose bits order.
    (d + 0.0).to_bits()
}

impl Witness {
    fn new(n: usize) -> Witness {
        Witness {
            dist: vec![f64::INFINITY; n],
            stamp: vec![0; n],
            target: vec![0; n],
            generation: 0,
            heap: LazyHeap::default(),
        }
    }

    /// Distances from `source` avoiding `avoid`, settled in order until
    /// `max_settled` nodes are settled, the distance passes `max_dist` or
    /// every target is settled; read them with [`Witness::dist`].
    fn run(
        &mut self, rest: &Remaining, source: u32, avoid: u32, targets: &[Edge], max_dist: f64,
        max_settled: usize,
    ) {
        self.generation += 1;
        let generation = self.generation;
        self.heap.clear();
        let mut left = 0usize;
        for t in targets {
            if t.other != source && self.target[t.other as usize] != generation {
                self.target[t.other as usize] = generation;
                left += 1;
            }
        }
        self.stamp[source as usize] = generation;
        self.dist[source as usize] = 0.0;
        self.heap.push(key(0.0), source);
        let mut settled = 0;
        while let Some((k, u)) = self.heap.pop() {
            let d = f64::from_bits(k);
            if d > self.dist[u as usize] {
                continue;
            }
            if d > max_dist || settled >= max_settled {
                break;
            }
            settled += 1;
            if self.target[u as usize] == generation {
                // Settled once: a later, stale entry finds a smaller dist.
                self.target[u as usize] = 0;
                left -= 1;
                if left == 0 {
                    break;
                }
            }
            for e in &rest.out[u as usize] {
                if e.other == avoid {
                    continue;
                }
                let nd = d + e.weight;
                let x = e.other as usize;
                if self.stamp[x] != generation || nd < self.dist[x] {
                    self.stamp[x] = generation;
                    self.dist[x] = nd;
                    self.heap.push(key(nd), e.other);
                }
            }
        }
        // Unmark the targets not settled, so that a later search's marks
        // are its own.
        for t in targets {
            if self.target[t.other as usize] == generation {
                self.target[t.other as usize] = 0;
            }
        }
    }

    /// The distance the last search found to `x` (an upper bound on the
    /// true one where it stopped early), infinite if it did not reach it.
    fn dist(&self, x: u32) -> f64 {
        if self.stamp[x as usize] == self.generation {
            self.dist[x as usize]
        } else {
            f64::INFINITY
        }
    }
}

/// The shortcuts that contracting `v` needs, `(from, to, weight, hops)`,
/// passed to `found`; witness searches settle at most `max_settled` nodes.
fn shortcuts(
    rest: &Remaining, witness: &mut Witness, v: u32, max_settled: usize,
    mut found: impl FnMut(u32, u32, f64, u32),
) {
    let out = &rest.out[v as usize];
    for e_in in &rest.into[v as usize] {
        let u = e_in.other;
        let max_dist = out
            .iter()
            .filter(|e| e.other != u)
            .map(|e| e_in.weight + e.weight)
            .fold(f64::NEG_INFINITY, f64::max);
        if max_dist == f64::NEG_INFINITY {
            continue;
        }
        witness.run(rest, u, v, out, max_dist, max_settled);
        for e_out in out {
            if e_out.other == u {
                continue;
            }
            let through = e_in.weight + e_out.weight;
            if witness.dist(e_out.other) > through {
                found(u, e_out.other, through, e_in.hops + e_out.hops);
            }
        }
    }
}

/// The unit of a priority: a quotient of 1 is this many.
const QUOTIENT_SCALE: i64 = 1000;

/// The state of the node order.
struct Order {
    contracted: Vec<bool>,
    neighbours: Vec<u32>,
    depth: Vec<u32>,
    priority: Vec<i64>,
    heap: BinaryHeap<Reverse<(i64, u32)>>,
}

impl Order {
    fn priority(
        &self, rest: &Remaining, witness: &mut Witness, params: &ContractionParams, v: u32,
    ) -> i64 {
        let (mut added, mut added_hops) = (0i64, 0i64);
        shortcuts(
            rest,
            witness,
            v,
            params.estimate_settled,
            |_, _, _, hops| {
                added += 1;
                added_hops += i64::from(hops);
            },
        );
        let (out, into) = (&rest.out[v as usize], &rest.into[v as usize]);
        let removed = (out.len() + into.len()) as i64;
        let removed_hops: i64 = out.iter().chain(into).map(|e| i64::from(e.hops)).sum();
        // In thousandths, so that the quotients weigh as fractions.
        QUOTIENT_SCALE
            * (params.edge_difference * (added - removed)
                + params.contracted_neighbours * i64::from(self.neighbours[v as usize])
                + params.depth * i64::from(self.depth[v as usize]))
            + params.edge_quotient * QUOTIENT_SCALE * added / removed.max(1)
            + params.hop_quotient * QUOTIENT_SCALE * added_hops / removed_hops.max(1)
    }
}

/// Contracts every node of `graph` in the order the priorities give.
pub(super) fn build<G: Reversible + ?Sized>(
    graph: &G, params: &ContractionParams,
) -> ContractionHierarchy {
    let n = graph.node_bound();
    let mut rest = Remaining::new(graph);
    let mut witness = Witness::new(n);
    let mut order = Order {
        contracted: vec![false; n],
        neighbours: vec![0; n],
        depth: vec![0; n],
        priority: vec![0; n],
        heap: BinaryHeap::with_capacity(n),
    };
    // The first priorities, in parallel: each node's witness searches are
    // its own, over the graph as given.
    let nodes: Vec<u32> = (0..n as u32).collect();
    let chunk = n.div_ceil(4 * rayon::current_num_threads()).max(1);
    let first: Vec<i64> = nodes
        .par_chunks(chunk)
        .flat_map_iter(|chunk| {
            let mut witness = Witness::new(n);
            chunk
                .iter()
                .map(|&v| order.priority(&rest, &mut witness, params, v))
                .collect::<Vec<_>>()
        })
        .collect();
    for (v, p) in first.into_iter().enumerate() {
        order.priority[v] = p;
        order.heap.push(Reverse((p, v as u32)));
    }
    // For each node, in the order contracted: its edges to the nodes
    // contracted later (all of its remaining edges at that time).
    let mut rank = vec![0u32; n];
    let mut by_rank: Vec<u32> = Vec::with_capacity(n);
    let mut ups: Vec<(Vec<Edge>, Vec<Edge>)> = Vec::with_capacity(n);
    let mut found = Vec::new();
    let mut shortcut_count = 0usize;
    while let Some(Reverse((p, v))) = order.heap.pop() {
        if order.contracted[v as usize] || p != order.priority[v as usize] {
            continue;
        }
        // Lazy update: the priority may have grown since it was pushed.
        let now = order.priority(&rest, &mut witness, params, v);
        if now != p {
            order.priority[v as usize] = now;
            if order.heap.peek().is_some_and(|Reverse((q, _))| now > *q) {
                order.heap.push(Reverse((now, v)));
                continue;
            }
        }
        found.clear();
        shortcuts(
            &rest,
            &mut witness,
            v,
            params.contract_settled,
            |a, b, w, hops| {
                found.push((a, b, w, hops));
            },
        );
        for &(a, b, w, hops) in &found {
            rest.add(a, b, w, v, hops);
        }
        shortcut_count += found.len();
        order.contracted[v as usize] = true;
        rank[v as usize] = by_rank.len() as u32;
        by_rank.push(v);
        let (out, into) = rest.remove(v);
        let depth = order.depth[v as usize] + 1;
        let mut touched: Vec<u32> = out.iter().chain(&into).map(|e| e.other).collect();
        touched.sort_unstable();
        touched.dedup();
        for &x in &touched {
            order.neighbours[x as usize] += 1;
            order.depth[x as usize] = order.depth[x as usize].max(depth);
        }
        for &x in &touched {
            let q = order.priority(&rest, &mut witness, params, x);
            if q != order.priority[x as usize] {
                order.priority[x as usize] = q;
                order.heap.push(Reverse((q, x)));
            }
        }
        ups.push((out, into));
    }
    debug_assert_eq!(by_rank.len(), n);
    let (edges, packed) = hierarchy_edges(&ups, &rank);
    let unpacked = Unpacked::new(&packed, &by_rank);
    ContractionHierarchy {
        node_of: by_rank,
        rank,
        edges,
        packed,
        unpacked,
        shortcuts: shortcut_count,
    }
}

/// The hierarchy's edges, in rank order, from each contracted node's
/// remaining edges at its contraction (`ups`, by rank: out, in), and the
/// table of every edge with the ids of the two a shortcut stands for.
fn hierarchy_edges(ups: &[(Vec<Edge>, Vec<Edge>)], rank: &[u32]) -> (Adjacency, Vec<Packed>) {
    let mut packed = Vec::new();
    // Each edge's middle, by rank, until the halves' ids are known.
    let mut middles = Vec::new();
    let mut adjacency = Adjacency::with_capacity(ups.len(), 0);
    for (r, (out, into)) in ups.iter().enumerate() {
        // Downward (from a rank above) first, then upward.
        for (list, upward) in [(into, false), (out, true)] {
            for e in list {
                let other = rank[e.other as usize];
                let edge = UpEdge {
                    weight: e.weight,
                    other,
                };
                adjacency.push(&mut packed, r as u32, upward, edge, (NO_MIDDLE, NO_MIDDLE));
                middles.push(if e.middle == NO_MIDDLE {
                    NO_MIDDLE
                } else {
                    rank[e.middle as usize]
                });
            }
            adjacency.end_run();
        }
    }
    // A shortcut `a -> b` over `m` (below both) stands for `a -> m`, an
    // edge down to `m` (climbing backward from `m`), and `m -> b`, up
    // from `m`.
    let find = |at: u32, climb: Climb, other: u32| {
        adjacency
            .climbing(at, climb)
            .find(|(_, e)| e.other == other)
            .map(|(id, _)| id)
            .expect("the halves of a shortcut are edges of the hierarchy")
    };
    for (p, &m) in packed.iter_mut().zip(&middles) {
        if m != NO_MIDDLE {
            p.first = find(m, Climb::Backward, p.tail);
            p.second = find(m, Climb::Forward, p.head);
        }
    }
    (adjacency, packed)
}
