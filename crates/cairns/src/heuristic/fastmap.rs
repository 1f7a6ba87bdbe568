//! FastMap (Cohen, Uras, Jahangiri, Arunasalam, Koenig and Kumar, "The
//! FastMap Algorithm for Shortest Path Computations", IJCAI 2018): an
//! embedding of a graph's nodes in `K` dimensions, learned from the graph
//! by `3 K` Dijkstra searches, whose L1 distance is a consistent heuristic
//! for A* on any graph, with coordinates or without.

use super::Heuristic;
use crate::graph::{CsrGraph, Graph, NodeId};
use crate::rng::SplitMix64;
use crate::search::{Dijkstra, SearchCache};

/// No component: a node off the graph.
const NO_COMPONENT: u32 = u32::MAX;

/// A FastMap embedding: `K` coordinates a node, whose L1 distance bounds
/// the cost between two nodes from below. Build it with
/// [`FastMap::build`]; it is a [`Heuristic`] for [`AStar`](crate::search::AStar).
///
/// # How it is built
///
/// The graph is taken undirected: each edge `u -> v` of cost `c` stands for
/// `u - v` of cost `c` too, so undirected distances bound the directed
/// ones from below. Each dimension `i` takes two far-apart *pivots* `a`
/// and `b` (a random node of the largest connected component, the node
/// farthest from it, `a`, and the node farthest from `a`, `b`) and gives
/// every node `v` the coordinate `p(v) = (d(a, v) + d(a, b) - d(v, b)) / 2`,
/// where `d` are the distances under the *residual* costs: each edge's
/// cost less the L1 distance its two ends already have in the dimensions
/// before. A dimension whose pivots are at distance 0 adds nothing, so the
/// embedding may stop with fewer dimensions than asked
/// ([`dims`](Self::dims)).
///
/// # Why it is exact
///
/// `d(a, .)` and `d(., b)` change by at most an edge's residual cost along
/// that edge, so `|p(u) - p(v)|` is at most the residual cost of `u - v`,
/// and the residual costs stay non-negative. Summed over the dimensions,
/// the L1 distance of an edge's two ends is at most its cost: the
/// heuristic is consistent, and so admissible. On integer costs every
/// coordinate is a multiple of `2^-K` and exact in `f64`; on other costs
/// rounding may break consistency by an ulp, which [`AStar`](crate::search::AStar)
/// absorbs by reopening a node. Nodes in different connected components
/// (of the undirected graph) estimate infinity: no path joins them.
///
/// # Example
///
/// ```
/// use cairns::graph::{CsrGraph, NodeId};
/// use cairns::heuristic::{FastMap, Heuristic};
/// use cairns::search::{AStar, Search, SearchCache};
///
/// // A ring of 8 nodes, and an island.
/// let mut edges: Vec<_> = (0..8).map(|i| (i, (i + 1) % 8, 1.0)).collect();
/// edges.push((8, 9, 1.0));
/// let g = CsrGraph::from_undirected_edges(10, &edges).unwrap();
/// let fastmap = FastMap::build(&g, 2, 1);
/// let goal = fastmap.goal(NodeId(4));
/// assert!(fastmap.estimate(NodeId(0), &goal) <= 4.0);
/// assert_eq!(fastmap.estimate(NodeId(8), &goal), f64::INFINITY);
/// let astar = AStar::new(&g, &fastmap);
/// assert_eq!(astar.search_cost(NodeId(0), NodeId(4), &mut SearchCache::new()), Some(4.0));
/// ```
#[derive(Clone, Debug)]
pub struct FastMap {
    dims: usize,
    /// `dims` coordinates a node, node by node.
    coords: Vec<f64>,
    /// Each node's connected component (of the undirected graph).
    component: Vec<u32>,
    /// The pivots `(a, b)` of each dimension.
    pivots: Vec<(NodeId, NodeId)>,
}

impl FastMap {
    /// The most dimensions an embedding may have.
    pub const MAX_DIMS: usize = 64;

    /// Embeds `graph` in up to `dims` dimensions (at most
    /// [`MAX_DIMS`](Self::MAX_DIMS)), the first pivot search starting from
    /// a node picked with `seed`.
    pub fn build<G: Graph + ?Sized>(graph: &G, dims: usize, seed: u64) -> FastMap {
        let want = dims.min(Self::MAX_DIMS);
        let n = graph.node_bound();
        let mut edges = Vec::new();
        for v in 0..n as u32 {
            for (w, c) in graph.successors(NodeId(v)) {
                if w.0 != v {
                    edges.push((v, w.0, c));
                    edges.push((w.0, v, c));
                }
            }
        }
        let component = components(n, &edges);
        let largest = largest(&component);
        let members: Vec<u32> = (0..n as u32)
            .filter(|&v| Some(component[v as usize]) == largest)
            .collect();
        let mut columns: Vec<Vec<f64>> = Vec::new();
        let mut pivots = Vec::new();
        let mut cache = SearchCache::new();
        let mut rng = SplitMix64::new(seed);
        while columns.len() < want && !members.is_empty() {
            // The costs are non-negative and finite by the graph's promise,
            // and the residual ones are clamped at 0.
            let Ok(residual) = CsrGraph::from_edges(n as u32, &edges) else {
                break;
            };
            let mut distances = |from: u32| {
                Dijkstra::new(&residual).all(NodeId(from), &mut cache);
                (0..n as u32)
                    .map(|v| cache.g(NodeId(v)).unwrap_or(f64::INFINITY))
                    .collect::<Vec<f64>>()
            };
            let a = farthest(&distances(rng.pick(&members)));
            let from_a = distances(a);
            let b = farthest(&from_a);
            let from_b = distances(b);
            let span = from_a[b as usize];
            if span.is_nan() || span <= 0.0 {
                break;
            }
            let column: Vec<f64> = (0..n)
                .map(|v| {
                    let (da, db) = (from_a[v], from_b[v]);
                    if da.is_finite() && db.is_finite() {
                        (da + span - db) / 2.0
                    } else {
                        0.0
                    }
                })
                .collect();
            for e in &mut edges {
                let gap = (column[e.0 as usize] - column[e.1 as usize]).abs();
                e.2 = (e.2 - gap).max(0.0);
            }
            columns.push(column);
            pivots.push((NodeId(a), NodeId(b)));
        }
        let dims = columns.len();
        let mut coords = vec![0.0; n * dims];
        for (i, column) in columns.iter().enumerate() {
            for (v, &p) in column.iter().enumerate() {
                coords[v * dims + i] = p;
            }
        }
        FastMap {
            dims,
            coords,
            component,
            pivots,
        }
    }

    /// The number of dimensions (at most the number asked for).
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The pivots of each dimension, `(a, b)`.
    pub fn pivots(&self) -> &[(NodeId, NodeId)] {
        &self.pivots
    }

    /// The coordinates of `node`, or `None` off the graph.
    pub fn coordinates(&self, node: NodeId) -> Option<&[f64]> {
        let at = node.index().checked_mul(self.dims)?;
        self.coords.get(at..at + self.dims)
    }

    /// The bytes of the coordinates and components.
    pub fn memory_bytes(&self) -> usize {
        self.coords.len() * 8 + self.component.len() * 4
    }
}

/// A goal of a [`FastMap`]: its component and where its coordinates start,
/// looked up once a search rather than at every estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastMapGoal {
    /// The goal's component, `NO_COMPONENT` when it is off the graph.
    component: u32,
    /// The index of its first coordinate.
    at: usize,
}

impl Heuristic for FastMap {
    type Goal = FastMapGoal;

    #[inline]
    fn goal(&self, goal: NodeId) -> FastMapGoal {
        match self.component.get(goal.index()) {
            Some(&component) => FastMapGoal {
                component,
                at: goal.index() * self.dims,
            },
            None => FastMapGoal {
                component: NO_COMPONENT,
                at: 0,
            },
        }
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &FastMapGoal) -> f64 {
        let Some(&c) = self.component.get(node.index()) else {
            return 0.0;
        };
        if goal.component == NO_COMPONENT {
            return 0.0;
        }
        if c != goal.component {
            return f64::INFINITY;
        }
        let d = self.dims;
        let u = node.index() * d;
        self.coords[u..u + d]
            .iter()
            .zip(&self.coords[goal.at..goal.at + d])
            .map(|(x, y)| (x - y).abs())
            .sum()
    }
}

/// The node of largest finite distance (the first of them; 0 when there is
/// none).
fn farthest(distances: &[f64]) -> u32 {
    let mut best = (0, f64::NEG_INFINITY);
    for (v, &d) in distances.iter().enumerate() {
        if d.is_finite() && d > best.1 {
            best = (v as u32, d);
        }
    }
    best.0
}

/// The connected component of each node, given both directions of every
/// edge; nodes numbered from 0 in the order first reached.
fn components(n: usize, edges: &[(u32, u32, f64)]) -> Vec<u32> {
    /// The root of `v`'s tree, halving the path there.
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            let up = parent[parent[v as usize] as usize];
            parent[v as usize] = up;
            v = up;
        }
        v
    }
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for &(u, v, _) in edges {
        let (ru, rv) = (root(&mut parent, u), root(&mut parent, v));
        if ru != rv {
            parent[ru.max(rv) as usize] = ru.min(rv);
        }
    }
    let mut id = vec![NO_COMPONENT; n];
    let mut next = 0;
    let mut component = vec![0; n];
    for v in 0..n as u32 {
        let r = root(&mut parent, v) as usize;
        if id[r] == NO_COMPONENT {
            id[r] = next;
            next += 1;
        }
        component[v as usize] = id[r];
    }
    component
}

/// The component with the most nodes, `None` on an empty graph.
fn largest(component: &[u32]) -> Option<u32> {
    let mut sizes = Vec::new();
    for &c in component {
        let c = c as usize;
        if sizes.len() <= c {
            sizes.resize(c + 1, 0usize);
        }
        sizes[c] += 1;
    }
    (0..sizes.len() as u32).max_by_key(|&c| (sizes[c as usize], std::cmp::Reverse(c)))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::search::bidirectional::testing::directed_graph;
    use crate::search::{AStar, Search};

    /// Every edge's ends are no farther apart than its cost, and the
    /// estimate of a node to itself is 0.
    fn check_consistent(g: &CsrGraph, fm: &FastMap) -> Result<(), TestCaseError> {
        for v in 0..g.node_count() as u32 {
            let v = NodeId(v);
            prop_assert_eq!(fm.estimate(v, &fm.goal(v)), 0.0);
            for (w, c) in g.successors(v) {
                let gap = fm.estimate(v, &fm.goal(w));
                prop_assert!(gap <= c, "{} -> {} costs {} but estimates {}", v, w, c, gap);
            }
        }
        Ok(())
    }

    proptest! {
        /// The embedding is consistent, never above a true cost, and A*
        /// over it answers every pair as Dijkstra does.
        #[test]
        fn astar_over_fastmap_answers_as_dijkstra(g in directed_graph(14), dims in 1usize..6, seed in 0u64..50) {
            let fm = FastMap::build(&g, dims, seed);
            prop_assert!(fm.dims() <= dims);
            check_consistent(&g, &fm)?;
            let n = g.node_count() as u32;
            let (mut one, mut cache) = (SearchCache::new(), SearchCache::new());
            let astar = AStar::new(&g, &fm);
            for s in 0..n {
                Dijkstra::new(&g).all(NodeId(s), &mut one);
                for t in 0..n {
                    let want = one.g(NodeId(t));
                    let h = fm.estimate(NodeId(s), &fm.goal(NodeId(t)));
                    prop_assert!(want.is_none_or(|d| h <= d), "{} to {}: h {} above {:?}", s, t, h, want);
                    prop_assert_eq!(astar.search_cost(NodeId(s), NodeId(t), &mut cache), want);
                }
            }
        }
    }

    #[test]
    fn a_line_is_embedded_exactly_in_one_dimension() {
        let g = crate::graph::testing::corridor(9);
        let fm = FastMap::build(&g, 4, 7);
        // The pivots are the two ends, and every later dimension is empty.
        assert_eq!(fm.dims(), 1);
        let ends = fm.pivots()[0];
        assert!(ends == (NodeId(0), NodeId(9)) || ends == (NodeId(9), NodeId(0)));
        for s in 0..10 {
            for t in 0..10 {
                let want = f64::from(s.max(t) - s.min(t));
                assert_eq!(fm.estimate(NodeId(s), &fm.goal(NodeId(t))), want);
            }
        }
    }

    #[test]
    fn islands_are_infinitely_far_and_off_graph_nodes_are_not_bounded() {
        let g =
            CsrGraph::from_undirected_edges(5, &[(0, 1, 2.0), (1, 2, 2.0), (3, 4, 1.0)]).unwrap();
        let fm = FastMap::build(&g, 3, 1);
        assert_eq!(fm.estimate(NodeId(0), &fm.goal(NodeId(4))), f64::INFINITY);
        assert_eq!(
            fm.estimate(NodeId(3), &fm.goal(NodeId(4))),
            0.0,
            "no dimension spans the small island"
        );
        assert_eq!(fm.estimate(NodeId(0), &fm.goal(NodeId(2))), 4.0);
        assert_eq!(fm.estimate(NodeId(9), &fm.goal(NodeId(2))), 0.0);
        assert_eq!(fm.estimate(NodeId(2), &fm.goal(NodeId(9))), 0.0);
        assert_eq!(fm.coordinates(NodeId(9)), None);
        let empty = FastMap::build(&CsrGraph::from_edges(0, &[]).unwrap(), 3, 1);
        assert_eq!((empty.dims(), empty.memory_bytes()), (0, 0));
    }

    #[test]
    fn a_road_graph_gets_every_dimension_and_bounds_its_costs() {
        let rome = crate::graph::testing::road_graph("dimacs/rome99.gr");
        let fm = FastMap::build(&rome, 8, 1);
        assert_eq!(fm.dims(), 8);
        check_consistent(&rome, &fm).unwrap();
        let mut one = SearchCache::new();
        let mut rng = SplitMix64::new(2);
        let nodes = rome.node_count() as u64;
        let (mut sum_h, mut sum_d) = (0.0, 0.0);
        for _ in 0..20 {
            let from = NodeId(rng.below(nodes) as u32);
            Dijkstra::new(&rome).all(from, &mut one);
            for _ in 0..20 {
                let to = NodeId(rng.below(nodes) as u32);
                if let Some(cost) = one.g(to) {
                    let bound = fm.estimate(from, &fm.goal(to));
                    assert!(bound <= cost, "{from} to {to}: {bound} above {cost}");
                    (sum_h, sum_d) = (sum_h + bound, sum_d + cost);
                }
            }
        }
        // Eight dimensions recover most of the distance on a city's roads.
        assert!(sum_h > 0.6 * sum_d, "{sum_h} of {sum_d}");
    }
}
