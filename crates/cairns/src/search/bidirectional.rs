//! Bidirectional Dijkstra: one search forward from the start and one
//! backward from the goal over the reversed edges, meeting in the middle,
//! and the memory both sides reuse from one query to the next
//! ([`BiCache`]).
//!
//! The loop ([`bidirectional`]) takes a *potential* `p`: the forward side
//! orders its OPEN set by `g_f(v) + p(v)` and the backward side by
//! `g_b(v) - p(v)`. With `p = 0` it is bidirectional Dijkstra; with the
//! average landmark potential it is bidirectional ALT
//! ([`BidirectionalAlt`](super::BidirectionalAlt)). Both sides then search
//! the same graph of reduced costs `w(u, v) - p(u) + p(v)`, so one stopping
//! rule serves both: stop when the tops of the two OPEN sets sum to at
//! least the best path found, `top_f + top_b >= μ` (Goldberg and
//! Harrelson 2005, section 5; Pohl 1971 for `p = 0`).

mod alt;

pub use alt::BidirectionalAlt;

use super::{NodeRecord, Path, SearchStats, UNSEEN, next_generation};
use crate::graph::{NodeId, Reversible};
use crate::open::{Key, OpenSet, QuaternaryHeap};

/// The memory of a bidirectional search, reused across queries: for each
/// side the per-node records (stamped with a generation, as in
/// [`SearchCache`](super::SearchCache)) and an OPEN set `Q`, and where the
/// last search's sides met.
///
/// After the first query on a graph, later queries on graphs of no more
/// nodes allocate nothing.
#[derive(Clone, Debug)]
pub struct BiCache<Q = QuaternaryHeap> {
    pub(super) forward: Side<Q>,
    pub(super) backward: Side<Q>,
    generation: u32,
    /// The node where the best path found runs from one side to the other
    /// ([`NodeId::NONE`] when none was found).
    pub(super) meet: NodeId,
    pub(super) cost: Option<f64>,
    pub(super) stats: SearchStats,
}

/// One side of a bidirectional search.
#[derive(Clone, Debug)]
pub(super) struct Side<Q> {
    pub(super) records: Vec<NodeRecord>,
    pub(super) open: Q,
}

impl<Q: OpenSet> Side<Q> {
    fn prepare(&mut self, node_bound: usize) {
        if self.records.len() < node_bound {
            self.records.resize(node_bound, UNSEEN);
        }
        self.open.prepare(node_bound);
    }

    /// Opens `root` as this side's start: cost 0, estimate `h`.
    fn seed(&mut self, root: NodeId, h: f64, open_stamp: u32) {
        self.records[root.index()] = NodeRecord {
            g: 0.0,
            h,
            parent: NodeId::NONE,
            stamp: open_stamp,
        };
        self.open.push(root, Key::new(0.0, h));
    }

    /// The parent links from `node` back to this side's root, `node` first.
    fn links(&self, node: NodeId, stamp: u32) -> impl Iterator<Item = NodeId> + '_ {
        let first = Some(node).filter(|n| self.records[n.index()].stamp >= stamp);
        std::iter::successors(first, |n| {
            Some(self.records[n.index()].parent).filter(|&p| p != NodeId::NONE)
        })
        .take(self.records.len() + 1)
    }
}

impl BiCache<QuaternaryHeap> {
    /// An empty cache with the default OPEN set. It grows on first use.
    pub fn new() -> Self {
        Self::with_open(QuaternaryHeap::new(), QuaternaryHeap::new())
    }
}

impl Default for BiCache<QuaternaryHeap> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Q: OpenSet> BiCache<Q> {
    /// An empty cache with the given OPEN sets, forward and backward.
    pub fn with_open(forward: Q, backward: Q) -> Self {
        BiCache {
            forward: Side {
                records: Vec::new(),
                open: forward,
            },
            backward: Side {
                records: Vec::new(),
                open: backward,
            },
            generation: 0,
            meet: NodeId::NONE,
            cost: None,
            stats: SearchStats::default(),
        }
    }

    /// Sizes the cache for graphs of up to `node_bound` nodes, so that the
    /// first query does not allocate.
    pub fn prepare(&mut self, node_bound: usize) {
        self.forward.prepare(node_bound);
        self.backward.prepare(node_bound);
    }

    /// Starts a query: sizes the arrays, empties both OPEN sets and takes a
    /// new generation.
    pub(super) fn begin(&mut self, node_bound: usize) {
        self.prepare(node_bound);
        self.forward.open.clear();
        self.backward.open.clear();
        self.stats = SearchStats::default();
        self.meet = NodeId::NONE;
        self.cost = None;
        let (forward, backward) = (&mut self.forward.records, &mut self.backward.records);
        next_generation(&mut self.generation, u32::MAX / 2 - 1, || {
            for r in forward.iter_mut().chain(backward) {
                r.stamp = 0;
            }
        });
    }

    /// The stamp of a node reached (open) in the current query; one more
    /// once settled.
    #[inline]
    pub(super) fn open_stamp(&self) -> u32 {
        2 * self.generation
    }

    /// Every node the last query settled on either side, in id order (a
    /// node both sides settled, once). Scans both record arrays: meant for
    /// renderers, not for hot loops.
    pub fn closed_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        let closed = self.open_stamp() + 1;
        let settled =
            move |side: &Side<Q>, i: usize| side.records.get(i).is_some_and(|r| r.stamp == closed);
        let n = self.forward.records.len().max(self.backward.records.len());
        (0..n)
            .filter(move |&i| {
                self.generation > 0 && (settled(&self.forward, i) || settled(&self.backward, i))
            })
            .map(|i| NodeId(i as u32))
    }

    /// The statistics of the last query: `expanded` counts the nodes both
    /// sides settled.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The cost the last query found, or `None` when it found no path.
    pub fn cost(&self) -> Option<f64> {
        self.cost
    }

    /// Where the best path of the last query passed from the forward side
    /// to the backward one, when it found one.
    pub fn meeting_node(&self) -> Option<NodeId> {
        Some(self.meet).filter(|&m| m != NodeId::NONE)
    }

    /// Writes the path of the last query (start first) into `out`, cleared
    /// first: the forward side's parent links to the meeting node, then the
    /// backward side's to the goal. Returns `false`, with `out` empty, when
    /// the last query found no path.
    pub fn path_into(&self, out: &mut Vec<NodeId>) -> bool {
        out.clear();
        let Some(meet) = self.meeting_node() else {
            return false;
        };
        let stamp = self.open_stamp();
        out.extend(self.forward.links(meet, stamp));
        out.reverse();
        out.extend(self.backward.links(meet, stamp).skip(1));
        true
    }

    /// The last query's path as a new [`Path`] of `cost` (what its
    /// `search_cost` returned): the searches' `search`.
    pub(super) fn path_of(&self, cost: f64) -> Path {
        let mut nodes = Vec::new();
        self.path_into(&mut nodes);
        Path { nodes, cost }
    }
}

/// Where one side of the search is: its top entry, held out of OPEN until
/// it is settled.
struct Top {
    node: NodeId,
    key: Key,
}

/// The bidirectional loop from `start` to `goal` on `graph` (forward along
/// its successors, backward along its predecessors) under the potential
/// `p` (see the [module](self)). Leaves the cost, the meeting node and the
/// parent links in `cache`, and returns the cost.
///
/// # Correctness
///
/// `p` must be *feasible* for both sides: `w(u, v) - p(u) + p(v) >= 0` for
/// every edge (then `-p` is feasible for the reversed graph). `p = 0` is.
/// Costs are non-negative, as [`Graph`] promises. A node whose potential
/// is not finite (infinite or NaN) must lie on no path from `start` to
/// `goal`: it is never opened, and a start or goal of such a potential
/// ends the query with `None` at once. Feasibility is asked of the other
/// nodes only.
#[expect(
    clippy::too_many_lines,
    reason = "one loop for both sides and every potential: the relaxation reads both sides' records"
)]
pub(crate) fn bidirectional<G, Q>(
    graph: &G, start: NodeId, goal: NodeId, cache: &mut BiCache<Q>, p: impl Fn(NodeId) -> f64,
) -> Option<f64>
where
    G: Reversible + ?Sized,
    Q: OpenSet,
{
    let bound = graph.node_bound();
    cache.begin(bound);
    if start.index() >= bound || goal.index() >= bound || !graph.may_reach(start, goal) {
        return None;
    }
    let open_stamp = cache.open_stamp();
    let closed_stamp = open_stamp + 1;
    let BiCache {
        forward,
        backward,
        meet,
        stats,
        ..
    } = cache;
    let (pf, pb) = (p(start), -p(goal));
    if !pf.is_finite() || !pb.is_finite() {
        // The potential proves the goal unreachable from the start.
        return None;
    }
    forward.seed(start, pf, open_stamp);
    backward.seed(goal, pb, open_stamp);

    let mut mu = f64::INFINITY;
    if start == goal {
        mu = 0.0;
        *meet = start;
    }
    let mut top_f: Option<Top> = None;
    let mut top_b: Option<Top> = None;
    let mut expanded = 0u64;
    let mut generated = 0u64;
    loop {
        if top_f.is_none() {
            top_f = pop_live(forward, closed_stamp);
        }
        if top_b.is_none() {
            top_b = pop_live(backward, closed_stamp);
        }
        let (Some(tf), Some(tb)) = (&top_f, &top_b) else {
            // One side has settled everything it reaches: every path from
            // the start to the goal has been seen.
            break;
        };
        if tf.key.f + tb.key.f >= mu {
            break;
        }
        // Expand the side whose top is smaller (the forward one on ties).
        let forward_turn = !tb.key.precedes(tf.key);
        let (this, other, top) = if forward_turn {
            (&mut *forward, &*backward, top_f.take())
        } else {
            (&mut *backward, &*forward, top_b.take())
        };
        let Some(Top { node: u, .. }) = top else {
            break;
        };
        let ru = this.records[u.index()];
        this.records[u.index()].stamp = closed_stamp;
        expanded += 1;
        let sign = if forward_turn { 1.0 } else { -1.0 };
        let mut relax = |v: NodeId, w: f64| {
            generated += 1;
            let g = ru.g + w;
            let rv = &mut this.records[v.index()];
            if rv.stamp < open_stamp {
                // The other side's estimate of a node it reached is this
                // side's negated: no second potential to compute.
                let ro = &other.records[v.index()];
                let h = if ro.stamp >= open_stamp {
                    -ro.h
                } else {
                    sign * p(v)
                };
                if !h.is_finite() {
                    // The potential proves `v` on no path from the start
                    // to the goal: closed at once, never opened, never a
                    // meeting node (its `g` is infinite). The other side
                    // reads its `h` as not finite too.
                    *rv = NodeRecord {
                        g: f64::INFINITY,
                        h: f64::NAN,
                        parent: NodeId::NONE,
                        stamp: closed_stamp,
                    };
                    return;
                }
                *rv = NodeRecord {
                    g,
                    h,
                    parent: u,
                    stamp: open_stamp,
                };
                this.open.push(v, Key::new(g, h));
            } else if g < rv.g && rv.stamp != closed_stamp {
                rv.g = g;
                rv.parent = u;
                this.open.decrease_key(v, Key::new(g, rv.h));
            } else {
                return;
            }
            let ro = &other.records[v.index()];
            if ro.stamp >= open_stamp && g + ro.g < mu {
                mu = g + ro.g;
                *meet = v;
            }
        };
        if forward_turn {
            for (v, w) in graph.successors(u) {
                relax(v, w);
            }
        } else {
            for (v, w) in graph.predecessors(u) {
                relax(v, w);
            }
        }
    }
    stats.expanded = expanded;
    stats.generated = generated;
    let cost = Some(mu).filter(|m| m.is_finite());
    cache.cost = cost;
    cost
}

/// The next entry of a side's OPEN set that is not a stale duplicate.
#[inline]
fn pop_live<Q: OpenSet>(side: &mut Side<Q>, closed_stamp: u32) -> Option<Top> {
    loop {
        let (node, key) = side.open.pop()?;
        let r = side.records[node.index()];
        if Q::STALE && (r.stamp == closed_stamp || key.f > r.g + r.h) {
            continue;
        }
        return Some(Top { node, key });
    }
}

/// Bidirectional Dijkstra: a search forward from the start and one
/// backward from the goal, each settling the node of smallest distance of
/// the two sides next, stopped when the two smallest distances on OPEN sum
/// to at least the best path found. On road networks it settles about half
/// the nodes one-way Dijkstra does.
///
/// # Contract
///
/// Edge costs are non-negative (as [`Graph`](crate::graph::Graph) promises); zero-cost edges,
/// parallel edges and self-loops are fine. The graph must list its incoming
/// edges ([`Reversible`]).
///
/// # Complexity
///
/// `O((V + E) log V)` with a heap; `O(V)` memory for each side in the
/// reusable [`BiCache`], which a query after the first does not grow.
///
/// # Example
///
/// ```
/// use cairns::graph::{CsrGraph, NodeId};
/// use cairns::search::{BiCache, BidirectionalDijkstra};
///
/// let g = CsrGraph::from_edges(4, &[(0, 1, 4.0), (0, 2, 1.0), (2, 1, 2.0), (1, 3, 1.0)]).unwrap();
/// let search = BidirectionalDijkstra::new(&g);
/// let mut cache = BiCache::new();
/// let path = search.search(NodeId(0), NodeId(3), &mut cache).unwrap();
/// assert_eq!(path.cost, 4.0);
/// assert_eq!(path.nodes, [NodeId(0), NodeId(2), NodeId(1), NodeId(3)]);
/// assert_eq!(search.search_cost(NodeId(3), NodeId(0), &mut cache), None);
/// ```
#[derive(Clone, Debug)]
pub struct BidirectionalDijkstra<G> {
    graph: G,
}

impl<G: Reversible> BidirectionalDijkstra<G> {
    /// Bidirectional Dijkstra on `graph`.
    pub fn new(graph: G) -> Self {
        BidirectionalDijkstra { graph }
    }

    /// The cost of a shortest path from `start` to `goal`, or `None` when
    /// there is none or either is off the graph. The path stays in the
    /// cache ([`BiCache::path_into`]).
    pub fn search_cost<Q: OpenSet>(
        &self, start: NodeId, goal: NodeId, cache: &mut BiCache<Q>,
    ) -> Option<f64> {
        bidirectional(&self.graph, start, goal, cache, |_| 0.0)
    }

    /// A shortest path from `start` to `goal` as a new [`Path`].
    pub fn search<Q: OpenSet>(
        &self, start: NodeId, goal: NodeId, cache: &mut BiCache<Q>,
    ) -> Option<Path> {
        let cost = self.search_cost(start, goal, cache)?;
        Some(cache.path_of(cost))
    }
}

/// Shared checks of the bidirectional searches' tests: random directed
/// graphs with zero-cost edges, parallel edges, self-loops and unreachable
/// pairs, and a path's cost along its edges.
#[cfg(test)]
pub(crate) mod testing {
    use proptest::prelude::*;

    use super::BiCache;
    use crate::graph::{CsrGraph, Graph, NodeId};
    use crate::search::{Dijkstra, SearchCache};

    /// A random directed graph of 1 to `max_nodes` nodes with up to
    /// `3 * max_nodes` edges of integer costs 0 to 9 (a quarter of them
    /// 0), self-loops and parallel edges allowed.
    pub(crate) fn directed_graph(max_nodes: u32) -> impl Strategy<Value = CsrGraph> {
        (1..=max_nodes).prop_flat_map(move |n| {
            let edge = (
                0..n,
                0..n,
                prop_oneof![Just(0.0), (1u32..10).prop_map(f64::from)],
            );
            prop::collection::vec(edge, 0..=(3 * max_nodes as usize))
                .prop_map(move |edges| CsrGraph::from_edges(n, &edges).unwrap())
        })
    }

    /// Checks `search`'s cost and the path it leaves in its cache against
    /// Dijkstra's on each of `pairs` (ids taken modulo the node count).
    pub(crate) fn pairs_match_dijkstra(
        g: &CsrGraph, pairs: &[(u32, u32)],
        search: impl Fn(NodeId, NodeId, &mut BiCache) -> Option<f64>,
    ) -> Result<(), TestCaseError> {
        let n = g.node_count() as u32;
        let (mut one, mut bi) = (SearchCache::new(), BiCache::new());
        let mut path = Vec::new();
        for &(s, t) in pairs {
            let (s, t) = (NodeId(s % n), NodeId(t % n));
            Dijkstra::new(g).all(s, &mut one);
            let want = one.g(t);
            prop_assert_eq!(search(s, t, &mut bi), want, "{} to {}", s, t);
            prop_assert_eq!(bi.path_into(&mut path), want.is_some());
            if let Some(cost) = want {
                prop_assert_eq!((path[0], *path.last().unwrap()), (s, t));
                prop_assert_eq!(path_cost(g, &path), Some(cost));
            }
        }
        Ok(())
    }

    /// The cheapest cost of each edge of `path`, summed; `None` when a
    /// step is not an edge.
    pub(crate) fn path_cost(g: &CsrGraph, path: &[NodeId]) -> Option<f64> {
        path.windows(2)
            .map(|w| {
                g.successors(w[0])
                    .filter(|&(v, _)| v == w[1])
                    .map(|(_, c)| c)
                    .reduce(f64::min)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::testing::{directed_graph, pairs_match_dijkstra, path_cost};
    use super::*;
    use crate::graph::parse_arcs;
    use crate::search::{Dijkstra, SearchCache};

    #[test]
    fn stops_only_when_the_tops_reach_mu() {
        // The first meeting (through 1, cost 10) is not the best: the path
        // through 2 and 3 (cost 6) is found only if the search goes on
        // after the sides first touch.
        let arcs = "a 0 1 5\na 1 4 5\na 0 2 2\na 2 3 2\na 3 4 2\n";
        let g = parse_arcs(arcs.as_bytes()).unwrap();
        let mut cache = BiCache::new();
        let search = BidirectionalDijkstra::new(&g);
        let path = search.search(NodeId(0), NodeId(4), &mut cache).unwrap();
        assert_eq!(path.cost, 6.0);
        assert_eq!(path.nodes, [0, 2, 3, 4].map(NodeId));
        assert_eq!(
            search.search_cost(NodeId(2), NodeId(2), &mut cache),
            Some(0.0)
        );
        let mut out = Vec::new();
        assert!(cache.path_into(&mut out));
        assert_eq!(out, [NodeId(2)]);
        assert_eq!(search.search_cost(NodeId(4), NodeId(0), &mut cache), None);
        assert!(!cache.path_into(&mut out));
        assert!(out.is_empty());
        assert_eq!(search.search_cost(NodeId(0), NodeId(9), &mut cache), None);
    }

    #[test]
    fn a_second_query_allocates_nothing() {
        let g = crate::graph::testing::corridor(50);
        let mut cache = BiCache::new();
        let search = BidirectionalDijkstra::new(&g);
        assert_eq!(
            search.search_cost(NodeId(0), NodeId(50), &mut cache),
            Some(50.0)
        );
        let sizes = (
            cache.forward.records.capacity(),
            cache.backward.records.capacity(),
        );
        assert_eq!(
            search.search_cost(NodeId(50), NodeId(3), &mut cache),
            Some(47.0)
        );
        assert_eq!(
            sizes,
            (
                cache.forward.records.capacity(),
                cache.backward.records.capacity()
            )
        );
        // Both sides settle about half the corridor each.
        assert!(cache.stats().expanded <= 50, "{:?}", cache.stats());
    }

    #[test]
    fn bremen_matches_dijkstra() {
        let g = crate::graph::testing::road_graph("fast_paths/bremen_time.gr");
        let (mut one, mut bi) = (SearchCache::new(), BiCache::new());
        let search = BidirectionalDijkstra::new(&g);
        let mut rng = crate::rng::SplitMix64::new(11);
        let n = g.node_count() as u64;
        let (mut found, mut uni, mut both) = (0, 0, 0);
        let mut path = Vec::new();
        for _ in 0..40 {
            let s = NodeId(rng.below(n) as u32);
            let t = NodeId(rng.below(n) as u32);
            let want = crate::search::Search::search_cost(&Dijkstra::new(&g), s, t, &mut one);
            uni += one.stats().expanded;
            let got = search.search_cost(s, t, &mut bi);
            both += bi.stats().expanded;
            assert_eq!(got, want, "{s} to {t}");
            if let Some(cost) = got {
                found += 1;
                assert!(bi.path_into(&mut path));
                assert_eq!((path[0], path[path.len() - 1]), (s, t));
                assert_eq!(path_cost(&g, &path), Some(cost), "{s} to {t}");
            }
        }
        assert!(found > 10, "{found} of 40 pairs connected");
        assert!(both < uni, "settled {both} against Dijkstra's {uni}");
    }

    proptest! {
        #[test]
        fn matches_dijkstra_on_random_directed_graphs(
            g in directed_graph(24),
            pairs in prop::collection::vec((0u32..24, 0u32..24), 1..12),
        ) {
            let search = BidirectionalDijkstra::new(&g);
            pairs_match_dijkstra(&g, &pairs, |s, t, bi| search.search_cost(s, t, bi))?;
        }
    }
}
