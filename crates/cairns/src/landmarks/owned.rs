//! A* over a landmark table that the searcher owns: a compressed table, or
//! landmarks that move with the queries. These are what the spec names
//! `dh:K:keepM` and `dh:K:adapt` build.
//!
//! Over a compressed table, whose estimates are admissible but not
//! consistent, the search propagates them as BPMX does (bidirectional
//! pathmax: Felner, Zahavi, Schaeffer and Holte 2005; Zhang, Sturtevant,
//! Holte, Schaeffer and Felner 2009): an expanded node's estimate is raised
//! to its best successor's less the step, and each successor's to that less
//! the step. On a grid (every move can be made both ways at the same cost)
//! both stay admissible. Measured in `docs/differential-heuristics.md`:
//! far fewer reopenings and expansions.

use std::borrow::Cow;
use std::cell::Cell;

use super::adaptive::AdaptiveLandmarks;
use super::compressed::{CompressedHeuristic, CompressedTable};
use super::heuristic::DifferentialHeuristic;
use crate::graph::{Graph, NodeId};
use crate::grid::GridGraph;
use crate::heuristic::{Heuristic, Octile, Weighted};
use crate::open::OpenSet;
use crate::search::{
    AStar, Budget, Expand, Observer, Progress, Reached, Reopen, Search, SearchCache, SearchStats,
    Searcher, best_first,
};

/// A landmark table a searcher keeps: the heuristic it gives, and what it
/// does after each query.
pub(crate) trait OwnedTable {
    /// The heuristic over the octile distance.
    type Heuristic<'a>: Heuristic
    where
        Self: 'a;

    /// Whether point-to-point searches propagate the estimates (BPMX):
    /// for inconsistent ones.
    const PROPAGATE: bool = false;

    /// The heuristic of the table as it is now, on `graph`.
    fn heuristic(&self, graph: &GridGraph) -> Self::Heuristic<'_>;

    /// Called after each point-to-point query.
    fn after_query(&mut self, graph: &GridGraph, start: NodeId, goal: NodeId) {
        let _ = (graph, start, goal);
    }
}

impl OwnedTable for Cow<'_, CompressedTable> {
    type Heuristic<'a>
        = CompressedHeuristic<'a, Octile>
    where
        Self: 'a;

    const PROPAGATE: bool = true;

    fn heuristic(&self, graph: &GridGraph) -> Self::Heuristic<'_> {
        CompressedHeuristic::new(self, Octile::new(graph))
    }
}

/// The raised estimates of one query, stamped with it so that a new query
/// starts from the table's own.
#[derive(Debug, Default)]
struct Raised {
    value: Vec<Cell<f64>>,
    stamp: Vec<Cell<u32>>,
    now: u32,
}

impl Raised {
    /// Starts a query on a graph of `node_bound` nodes.
    fn begin(&mut self, node_bound: usize) {
        if self.value.len() < node_bound {
            self.value.resize_with(node_bound, Cell::default);
            self.stamp.resize_with(node_bound, Cell::default);
        }
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.iter().for_each(|s| s.set(0));
            self.now = 1;
        }
    }

    /// The raised estimate of `node` in this query (0: not raised).
    #[inline]
    fn get(&self, node: NodeId) -> f64 {
        if self.stamp[node.index()].get() == self.now {
            self.value[node.index()].get()
        } else {
            0.0
        }
    }

    /// Raises the estimate of `node` to at least `h`.
    #[inline]
    fn raise(&self, node: NodeId, h: f64) {
        let i = node.index();
        if self.stamp[i].get() != self.now {
            self.stamp[i].set(self.now);
            self.value[i].set(h);
        } else if h > self.value[i].get() {
            self.value[i].set(h);
        }
    }
}

/// The moves of a grid with BPMX propagation of a heuristic's estimates
/// toward one goal.
struct Propagating<'a, H: Heuristic> {
    graph: &'a GridGraph,
    heuristic: &'a H,
    goal: H::Goal,
    raised: &'a Raised,
}

impl<H: Heuristic> Propagating<'_, H> {
    /// The estimate of `node`: the heuristic's, or what propagation raised
    /// it to.
    #[inline]
    fn estimate(&self, node: NodeId) -> f64 {
        self.heuristic
            .estimate(node, &self.goal)
            .max(self.raised.get(node))
    }
}

impl<H: Heuristic> Expand for Propagating<'_, H> {
    fn node_bound(&self) -> usize {
        self.graph.node_bound()
    }

    /// Raises `node`'s estimate to its best successor's less the step,
    /// then each successor's to that less its step, and offers them.
    fn expand(&self, node: NodeId, _parent: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let mut h = self.estimate(node);
        for (v, cost) in self.graph.successors(node) {
            h = h.max(self.estimate(v) - cost);
        }
        for (v, cost) in self.graph.successors(node) {
            self.raised.raise(v, h - cost);
            visit(v, cost);
        }
    }
}

impl OwnedTable for AdaptiveLandmarks {
    type Heuristic<'a> = DifferentialHeuristic<'a, Octile>;

    fn heuristic(&self, graph: &GridGraph) -> Self::Heuristic<'_> {
        AdaptiveLandmarks::heuristic(self, Octile::new(graph))
    }

    /// Moves a landmark to `goal` now and then, rebuilding its column
    /// ([`AdaptiveLandmarks::after_query`]).
    fn after_query(&mut self, graph: &GridGraph, start: NodeId, goal: NodeId) {
        self.after_query(graph, start, goal);
    }
}

/// A* (weighted by `weight`, 1 for optimal) over the heuristic of a table
/// it owns, as a [`Searcher`]: the search is rebuilt from the table for
/// each call, which costs a borrow.
pub(crate) struct OwnedTableAStar<'g, T, Q> {
    graph: &'g GridGraph,
    table: T,
    weight: f64,
    cache: SearchCache<Q>,
    raised: Raised,
}

impl<'g, T: OwnedTable, Q: OpenSet> OwnedTableAStar<'g, T, Q> {
    /// A* over `table` on `graph`, its estimates times `weight` (at least 1,
    /// checked by the caller).
    pub(crate) fn new(graph: &'g GridGraph, table: T, weight: f64, cache: SearchCache<Q>) -> Self {
        OwnedTableAStar {
            graph,
            table,
            weight,
            cache,
            raised: Raised::default(),
        }
    }

    /// A* toward `goal` with BPMX propagation ([`OwnedTable::PROPAGATE`]).
    /// The spec refuses a weight with the tables that propagate.
    fn search_propagated(
        &mut self,
        start: NodeId,
        goal: NodeId,
        observer: &mut dyn Observer,
    ) -> Option<f64> {
        if self.cache.no_path_known(self.graph, start, goal) {
            return None;
        }
        self.raised.begin(self.graph.node_bound());
        let heuristic = self.table.heuristic(self.graph);
        let expand = Propagating {
            graph: self.graph,
            heuristic: &heuristic,
            goal: heuristic.goal_for(start, goal),
            raised: &self.raised,
        };
        best_first(
            &expand,
            |n| expand.estimate(n),
            start,
            &goal,
            &mut self.cache,
            observer,
            Reopen::Yes,
        )
    }
}

/// The A* of a table's current heuristic.
fn astar<'a, T: OwnedTable>(
    graph: &'a GridGraph,
    table: &'a T,
    weight: f64,
) -> AStar<&'a GridGraph, Weighted<T::Heuristic<'a>>> {
    AStar::new(graph, Weighted::checked(table.heuristic(graph), weight))
}

impl<T: OwnedTable, Q: OpenSet> Searcher for OwnedTableAStar<'_, T, Q> {
    fn search_cost(&mut self, start: NodeId, goal: NodeId) -> Option<f64> {
        self.search_observed(start, goal, &mut ())
    }

    /// The search, then the table's [`OwnedTable::after_query`] (adaptive
    /// landmarks rebuild a column there, inside the query's time).
    fn search_observed(
        &mut self,
        start: NodeId,
        goal: NodeId,
        observer: &mut dyn Observer,
    ) -> Option<f64> {
        let cost = if T::PROPAGATE {
            self.search_propagated(start, goal, observer)
        } else {
            astar(self.graph, &self.table, self.weight).search_observed(
                start,
                goal,
                &mut self.cache,
                observer,
            )
        };
        self.table.after_query(self.graph, start, goal);
        cost
    }

    fn search_nearest(&mut self, sources: &[NodeId], goals: &[NodeId]) -> Option<Reached> {
        astar(self.graph, &self.table, self.weight).search_nearest(sources, goals, &mut self.cache)
    }

    fn search_budgeted(
        &mut self,
        sources: &[NodeId],
        goals: &[NodeId],
        budget: Budget,
    ) -> Option<Progress> {
        astar(self.graph, &self.table, self.weight).search_budgeted(
            sources,
            goals,
            &mut self.cache,
            budget,
        )
    }

    fn path_into(&self, node: NodeId, out: &mut Vec<NodeId>) -> bool {
        self.cache.path_into(node, out)
    }

    fn stats(&self) -> SearchStats {
        self.cache.stats()
    }

    fn is_closed(&self, node: NodeId) -> bool {
        self.cache.is_closed(node)
    }

    fn is_reached(&self, node: NodeId) -> bool {
        self.cache.is_reached(node)
    }

    fn bound(&self) -> f64 {
        self.weight
    }

    fn prepare(&mut self, node_bound: usize) {
        self.cache.prepare(node_bound);
        if T::PROPAGATE {
            self.raised.begin(node_bound);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{MapKind, Neighborhood, random_queries};
    use crate::landmarks::research::Compression;
    use crate::landmarks::{Directedness, LandmarkTable, Placement, place};
    use crate::open::IndexedBinaryHeap;
    use crate::search::Dijkstra;

    fn table(graph: &GridGraph) -> LandmarkTable {
        let landmarks = place(graph, 6, Placement::Farthest { seed: 3 });
        LandmarkTable::build(graph, &landmarks, Directedness::Symmetric)
    }

    /// Every query's cost is Dijkstra's, and its path is a path of that
    /// cost; the adaptive table moves landmarks on the way.
    fn check<T: OwnedTable>(
        graph: &GridGraph,
        searcher: &mut OwnedTableAStar<'_, T, IndexedBinaryHeap>,
    ) {
        let mut cache = SearchCache::new();
        let mut path = Vec::new();
        for (s, z) in random_queries(graph, 60, 9) {
            let want = Dijkstra::new(graph).search_cost(s, z, &mut cache);
            let got = searcher.search_cost(s, z);
            assert_eq!(got.is_some(), want.is_some(), "{s:?} -> {z:?}");
            if let (Some(g), Some(w)) = (got, want) {
                assert!((g - w).abs() < 1e-9, "{s:?} -> {z:?}: {g} vs {w}");
                assert!(searcher.path_into(z, &mut path));
                assert_eq!((path[0], path[path.len() - 1]), (s, z));
            }
        }
    }

    #[test]
    fn compressed_and_adaptive_tables_find_dijkstras_costs() {
        let grid = MapKind::Rooms { room_size: 6 }.generate(40, 30, 5).unwrap();
        let graph = GridGraph::new(grid, Neighborhood::Octile);
        let full = table(&graph);
        let compressed = CompressedTable::new(&full, 2, Compression::Nearest);
        let mut searcher =
            OwnedTableAStar::new(&graph, Cow::Borrowed(&compressed), 1.0, SearchCache::new());
        check(&graph, &mut searcher);
        let mut adaptive = OwnedTableAStar::new(
            &graph,
            AdaptiveLandmarks::new(full, 1.0, 4),
            1.0,
            SearchCache::new(),
        );
        check(&graph, &mut adaptive);
        assert!(adaptive.table.moves() > 0, "p = 1 moves landmarks");
    }
}
