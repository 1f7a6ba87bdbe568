//! Bidirectional ALT: the bidirectional loop under the average landmark
//! potential.

use super::{BiCache, bidirectional};
use crate::graph::{NodeId, Reversible};
use crate::landmarks::{AveragePotential, LandmarkTable};
use crate::open::OpenSet;
use crate::search::Path;

/// Bidirectional ALT (A*, landmarks, triangle inequality; Goldberg and
/// Harrelson, SODA 2005): [`BidirectionalDijkstra`](super::BidirectionalDijkstra)'s
/// loop, both sides guided by the *average potential* of a
/// [`LandmarkTable`],
///
/// ```text
/// p(v) = (π_f(v) - π_b(v)) / 2
/// ```
///
/// where `π_f(v)`, the largest landmark lower bound on `d(v, goal)`, and
/// `π_b(v)`, the largest on `d(start, v)`, use both `d(v, L)` and
/// `d(L, v)` of each landmark `L`. The forward side orders its OPEN set by
/// `g_f(v) + p(v)`, the backward one by `g_b(v) - p(v)`; both then search
/// the same graph of non-negative reduced costs, and the query stops when
/// the two tops sum to at least the best path found (their section 5).
/// Nodes that a landmark proves to lie on no path from
/// the start to the goal are never opened, so most queries without a path
/// end before expanding anything.
///
/// [`with_active(n)`](Self::with_active) uses, for each query, only the
/// `n` landmarks whose bound on `d(start, goal)` is largest (the static
/// form of the paper's active landmarks): cheaper potentials, more
/// settled nodes.
///
/// # Contract
///
/// Edge costs are non-negative (as [`Graph`](crate::graph::Graph)
/// promises); zero-cost edges, parallel edges and self-loops are fine.
/// The graph lists its incoming edges ([`Reversible`]). The table must
/// have been built on this graph, with
/// [`Directedness::Directed`](crate::landmarks::Directedness::Directed)
/// unless every edge can be walked back at the same cost (a symmetric
/// table on a directed graph gives bounds that may be too large, and
/// paths that are not shortest).
///
/// # Exactness
///
/// With an [exact](LandmarkTable::is_exact) table (every cost a multiple
/// of `2^-23`, integers among them, distances below `2^29`) the bounds,
/// their half differences and the keys are exact in `f64`, the potential
/// is feasible without rounding and the costs equal Dijkstra's. Otherwise
/// the table's margin keeps every bound below the true distance, and the
/// reduced costs are non-negative up to `f64` rounding.
///
/// # Complexity
///
/// `O((V + E) log V)` for a query, as bidirectional Dijkstra, with an
/// `O(k)` potential (`O(n)` with `with_active(n)`) computed once per node
/// and side reached; on road graphs it settles a small fraction of what
/// bidirectional Dijkstra does. The table holds `2 k V` distances of 8
/// bytes ([`LandmarkTable::memory_bytes`]); placing the landmarks and
/// building it takes a few searches per landmark.
///
/// # Panics
///
/// [`new`](Self::new) panics when the table covers another number of
/// nodes than the graph.
///
/// # Example
///
/// ```
/// use cairns::graph::{CsrGraph, NodeId};
/// use cairns::landmarks::{Directedness, LandmarkTable, Placement, place};
/// use cairns::search::{BiCache, BidirectionalAlt};
///
/// // A one-way ring 0 -> 1 -> 2 -> 3 -> 0 and a short cut 0 -> 2.
/// let g = CsrGraph::from_edges(
///     4,
///     &[(0, 1, 2.0), (1, 2, 2.0), (2, 3, 2.0), (3, 0, 2.0), (0, 2, 3.0)],
/// )
/// .unwrap();
/// let landmarks = place(&g, 2, Placement::Avoid { seed: 1 });
/// let table = LandmarkTable::build(&g, &landmarks, Directedness::Directed);
/// let search = BidirectionalAlt::new(&g, &table);
/// let mut cache = BiCache::new();
/// let path = search.search(NodeId(0), NodeId(3), &mut cache).unwrap();
/// assert_eq!(path.cost, 5.0);
/// assert_eq!(path.nodes, [NodeId(0), NodeId(2), NodeId(3)]);
/// // One way round: back from 3 to 0 is the last edge of the ring.
/// assert_eq!(search.search_cost(NodeId(3), NodeId(0), &mut cache), Some(2.0));
/// ```
#[derive(Clone, Debug)]
pub struct BidirectionalAlt<'t, G> {
    graph: G,
    table: &'t LandmarkTable,
    /// Landmarks per query; 0 means all.
    active: usize,
}

impl<'t, G: Reversible> BidirectionalAlt<'t, G> {
    /// Bidirectional ALT on `graph` with every landmark of `table`.
    ///
    /// # Panics
    ///
    /// When `table` covers another number of nodes than `graph`.
    pub fn new(graph: G, table: &'t LandmarkTable) -> Self {
        assert_eq!(
            table.node_count(),
            graph.node_bound(),
            "the landmark table covers another number of nodes than the graph"
        );
        BidirectionalAlt {
            graph,
            table,
            active: 0,
        }
    }

    /// Uses only the `n` landmarks (at most 16) whose bound on
    /// `d(start, goal)` is largest in each query; 0, or `n` at least the
    /// table's landmark count, uses them all.
    #[must_use]
    pub fn with_active(self, n: usize) -> Self {
        BidirectionalAlt {
            active: n.min(crate::landmarks::MAX_ACTIVE),
            ..self
        }
    }

    /// The landmark table.
    pub fn table(&self) -> &'t LandmarkTable {
        self.table
    }

    /// The cost of a shortest path from `start` to `goal`, or `None` when
    /// there is none or either is off the graph. The path stays in the
    /// cache ([`BiCache::path_into`]).
    pub fn search_cost<Q: OpenSet>(
        &self, start: NodeId, goal: NodeId, cache: &mut BiCache<Q>,
    ) -> Option<f64> {
        let bound = self.graph.node_bound();
        if start.index() >= bound || goal.index() >= bound {
            cache.begin(bound);
            return None;
        }
        let mut p = AveragePotential::new(self.table, start, goal);
        if self.active > 0 {
            p = p.with_active(self.active);
        }
        bidirectional(&self.graph, start, goal, cache, |v| p.at(v))
    }

    /// A shortest path from `start` to `goal` as a new [`Path`].
    pub fn search<Q: OpenSet>(
        &self, start: NodeId, goal: NodeId, cache: &mut BiCache<Q>,
    ) -> Option<Path> {
        let cost = self.search_cost(start, goal, cache)?;
        Some(cache.path_of(cost))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::testing::{directed_graph, pairs_match_dijkstra, path_cost};
    use super::*;
    use crate::graph::{CsrGraph, Graph};
    use crate::landmarks::{Directedness, Placement, place};
    use crate::search::{BidirectionalDijkstra, Dijkstra, SearchCache};

    /// `d(s, v)` for every `v` (infinite where unreachable).
    fn distances(g: &CsrGraph, s: NodeId, cache: &mut SearchCache) -> Vec<f64> {
        Dijkstra::new(g).all(s, cache);
        (0..g.node_count() as u32)
            .map(|v| cache.g(NodeId(v)).unwrap_or(f64::INFINITY))
            .collect()
    }

    /// A random directed graph of up to `n` nodes with a directed table of
    /// at least `min_k` (up to 4) landmarks placed avoid, farthest or at
    /// random, and a count of active landmarks (0: all).
    fn graph_and_table(
        n: u32, min_k: usize,
    ) -> impl Strategy<Value = (CsrGraph, LandmarkTable, usize)> {
        let placement = prop_oneof![
            (0u64..1000).prop_map(|seed| Placement::Avoid { seed }),
            (0u64..1000).prop_map(|seed| Placement::Farthest { seed }),
            (0u64..1000).prop_map(|seed| Placement::Random { seed }),
        ];
        (directed_graph(n), min_k..5, placement, 0usize..3).prop_map(|(g, k, placement, active)| {
            let table = LandmarkTable::build(&g, &place(&g, k, placement), Directedness::Directed);
            (g, table, active)
        })
    }

    proptest! {
        #[test]
        fn matches_dijkstra_on_random_directed_graphs(
            (g, table, active) in graph_and_table(24, 0),
            pairs in prop::collection::vec((0u32..24, 0u32..24), 1..12),
        ) {
            let search = BidirectionalAlt::new(&g, &table).with_active(active);
            pairs_match_dijkstra(&g, &pairs, |s, t, bi| search.search_cost(s, t, bi))?;
        }

        #[test]
        fn the_potential_is_feasible_and_prunes_only_nodes_off_every_path(
            (g, table, active) in graph_and_table(20, 1),
            (s, t) in (0u32..20, 0u32..20),
        ) {
            let n = g.node_count() as u32;
            let (s, t) = (NodeId(s % n), NodeId(t % n));
            let mut p = AveragePotential::new(&table, s, t);
            if active > 0 {
                p = p.with_active(active);
            }
            let mut cache = SearchCache::new();
            let from_s = distances(&g, s, &mut cache);
            let to_t: Vec<f64> = (0..n)
                .map(|v| {
                    Dijkstra::new(&g).all(NodeId(v), &mut cache);
                    cache.g(t).unwrap_or(f64::INFINITY)
                })
                .collect();
            for v in (0..n).map(NodeId) {
                let (fw, bw) = p.sides(v);
                prop_assert!(fw <= to_t[v.index()], "π_f({}) = {} > d = {}", v, fw, to_t[v.index()]);
                prop_assert!(bw <= from_s[v.index()], "π_b({}) = {} > d = {}", v, bw, from_s[v.index()]);
                if p.at(v).is_nan() {
                    prop_assert!(
                        !(from_s[v.index()] + to_t[v.index()]).is_finite(),
                        "{} pruned but on a path", v
                    );
                }
                for (w, c) in g.successors(v) {
                    let (pu, pw) = (p.at(v), p.at(w));
                    if pu.is_finite() && pw.is_finite() {
                        prop_assert!(c - pu + pw >= 0.0, "reduced cost of {} -> {}: {}", v, w, c - pu + pw);
                    }
                }
            }
        }
    }

    #[test]
    fn active_landmarks_are_those_with_the_largest_bound() {
        // A corridor 0 - 1 - ... - 10 with landmarks at 5, 0 and 10: for
        // the query 4 -> 6 the landmarks at 0 and 10 bound d = 2 exactly,
        // the one at 5 (between them) bounds nothing.
        let g = crate::graph::testing::corridor(10);
        let lms = [NodeId(5), NodeId(0), NodeId(10)];
        let table = LandmarkTable::build(&g, &lms, Directedness::Symmetric);
        let p = AveragePotential::new(&table, NodeId(4), NodeId(6)).with_active(2);
        assert_eq!(p.active(), Some(&[1, 2][..]));
        let p = AveragePotential::new(&table, NodeId(4), NodeId(6)).with_active(3);
        assert_eq!(p.active(), None);
        let search = BidirectionalAlt::new(&g, &table).with_active(2);
        let mut cache = BiCache::new();
        assert_eq!(
            search.search_cost(NodeId(4), NodeId(6), &mut cache),
            Some(2.0)
        );
        // The bound is exact along the corridor: only the path is settled.
        assert!(cache.stats().expanded <= 3, "{:?}", cache.stats());
        assert_eq!(search.search_cost(NodeId(0), NodeId(11), &mut cache), None);
    }

    #[test]
    fn a_pair_the_landmarks_prove_unreachable_expands_nothing() {
        // 0 -> 1 -> 2 and 3 -> 4 -> 5, a landmark at each end of each.
        let g =
            CsrGraph::from_edges(6, &[(0, 1, 1.0), (1, 2, 1.0), (3, 4, 1.0), (4, 5, 1.0)]).unwrap();
        let lms = [NodeId(0), NodeId(2), NodeId(3), NodeId(5)];
        let table = LandmarkTable::build(&g, &lms, Directedness::Directed);
        let search = BidirectionalAlt::new(&g, &table);
        let mut cache = BiCache::new();
        for (s, t) in [(2, 0), (0, 5), (4, 1)] {
            assert_eq!(search.search_cost(NodeId(s), NodeId(t), &mut cache), None);
            assert_eq!(cache.stats().expanded, 0, "{s} to {t}");
        }
        assert_eq!(
            search.search_cost(NodeId(0), NodeId(2), &mut cache),
            Some(2.0)
        );
    }

    /// 40 random queries on a road graph with 16 landmarks placed by
    /// `avoid`: the costs and paths of Dijkstra, and fewer settled nodes
    /// than bidirectional Dijkstra.
    fn matches_dijkstra_on(relative: &str) {
        let g = crate::graph::testing::road_graph(relative);
        let lms = place(&g, 16, Placement::Avoid { seed: 7 });
        let table = LandmarkTable::build(&g, &lms, Directedness::Directed);
        assert!(table.is_exact(), "{relative}: integer weights");
        let alt = BidirectionalAlt::new(&g, &table);
        let bd = BidirectionalDijkstra::new(&g);
        let (mut one, mut bi) = (SearchCache::new(), BiCache::new());
        let mut rng = crate::rng::SplitMix64::new(23);
        let n = g.node_count() as u64;
        let (mut found, mut by_alt, mut by_bd) = (0, 0, 0);
        let mut path = Vec::new();
        for _ in 0..40 {
            let s = NodeId(rng.below(n) as u32);
            let t = NodeId(rng.below(n) as u32);
            let want = crate::search::Search::search_cost(&Dijkstra::new(&g), s, t, &mut one);
            assert_eq!(
                bd.search_cost(s, t, &mut bi),
                want,
                "{relative}: {s} to {t}"
            );
            by_bd += bi.stats().expanded;
            let got = alt.search_cost(s, t, &mut bi);
            by_alt += bi.stats().expanded;
            assert_eq!(got, want, "{relative}: {s} to {t}");
            assert_eq!(alt.clone().with_active(4).search_cost(s, t, &mut bi), want);
            if let Some(cost) = got {
                found += 1;
                assert!(bi.path_into(&mut path));
                assert_eq!((path[0], path[path.len() - 1]), (s, t));
                assert_eq!(path_cost(&g, &path), Some(cost), "{relative}: {s} to {t}");
            }
        }
        assert!(found > 10, "{relative}: {found} of 40 pairs connected");
        assert!(
            by_alt * 2 < by_bd,
            "{relative}: ALT settled {by_alt} against bidirectional Dijkstra's {by_bd}"
        );
    }

    #[test]
    fn bremen_by_distance_matches_dijkstra() {
        matches_dijkstra_on("fast_paths/bremen_dist.gr");
    }

    #[test]
    fn bremen_by_time_matches_dijkstra() {
        matches_dijkstra_on("fast_paths/bremen_time.gr");
    }

    #[test]
    fn south_seattle_matches_dijkstra() {
        matches_dijkstra_on("fast_paths/south_seattle_car.gr");
    }

    #[test]
    fn rome_matches_dijkstra() {
        matches_dijkstra_on("dimacs/rome99.gr");
    }
}
