//! A* over a landmark table that the searcher owns: a compressed table, or
//! landmarks that move with the queries. These are what the spec names
//! `dh:K:keepM` and `dh:K:adapt` build.

use std::borrow::Cow;
use std::cell::RefCell;

use super::adaptive::AdaptiveLandmarks;
use super::compressed::{CompressedHeuristic, CompressedTable};
use super::heuristic::DifferentialHeuristic;
use crate::graph::{Graph, NodeId};
use crate::grid::GridGraph;
use crate::heuristic::{Heuristic, Octile, Weighted};
use crate::open::OpenSet;
use crate::search::{AStar, Budget, Observer, Progress, Reached, Search, SearchCache};

/// A landmark table a searcher keeps: the heuristic it gives, and what it
/// does after each query.
pub(crate) trait OwnedTable {
    /// The heuristic over the octile distance.
    type Heuristic<'a>: Heuristic
    where
        Self: 'a;

    /// The heuristic of the table as it is now, on `graph`.
    fn heuristic(&self, graph: &GridGraph) -> Self::Heuristic<'_>;

    /// Called after each point-to-point query between nodes of `graph`.
    fn after_query(&mut self, graph: &GridGraph, start: NodeId, goal: NodeId) {
        let _ = (graph, start, goal);
    }
}

impl OwnedTable for Cow<'_, CompressedTable> {
    type Heuristic<'a>
        = CompressedHeuristic<'a, Octile>
    where
        Self: 'a;

    fn heuristic(&self, graph: &GridGraph) -> Self::Heuristic<'_> {
        CompressedHeuristic::new(self, Octile::new(graph))
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
        AdaptiveLandmarks::after_query(self, graph, start, goal);
    }
}

/// A* (weighted by `weight`, 1 for optimal) over the heuristic of a table
/// it owns, as a [`Search`] (a [`Cached`](crate::search::Cached) makes it a
/// [`Searcher`](crate::search::Searcher)): the A* is rebuilt from the table
/// for each call, which costs a borrow.
pub(crate) struct OwnedTableAStar<'g, T> {
    graph: &'g GridGraph,
    /// Borrowed by each search, changed after one by
    /// [`OwnedTable::after_query`].
    table: RefCell<T>,
    weight: f64,
}

impl<'g, T: OwnedTable> OwnedTableAStar<'g, T> {
    /// A* over `table` on `graph`, its estimates times `weight` (at least 1,
    /// checked by the caller).
    pub(crate) fn new(graph: &'g GridGraph, table: T, weight: f64) -> Self {
        OwnedTableAStar {
            graph,
            table: RefCell::new(table),
            weight,
        }
    }
}

/// The A* of a table's current heuristic.
fn astar<'a, T: OwnedTable>(
    graph: &'a GridGraph, table: &'a T, weight: f64,
) -> AStar<&'a GridGraph, Weighted<T::Heuristic<'a>>> {
    AStar::new(graph, Weighted::checked(table.heuristic(graph), weight))
}

impl<T: OwnedTable> Search for OwnedTableAStar<'_, T> {
    /// The search, then the table's [`OwnedTable::after_query`] (adaptive
    /// landmarks rebuild a column there, inside the query's time).
    fn search_observed<Q: OpenSet, O: Observer + ?Sized>(
        &self, start: NodeId, goal: NodeId, cache: &mut SearchCache<Q>, observer: &mut O,
    ) -> Option<f64> {
        let cost = astar(self.graph, &*self.table.borrow(), self.weight)
            .search_observed(start, goal, cache, observer);
        // A node off the graph has no place in the table to learn from
        // (and `AdaptiveLandmarks::after_query` panics on one).
        let bound = self.graph.node_bound();
        if start.index() < bound && goal.index() < bound {
            self.table.borrow_mut().after_query(self.graph, start, goal);
        }
        cost
    }

    fn bound(&self) -> f64 {
        self.weight
    }

    fn search_nearest<Q: OpenSet>(
        &self, sources: &[NodeId], goals: &[NodeId], cache: &mut SearchCache<Q>,
    ) -> Option<Reached> {
        astar(self.graph, &*self.table.borrow(), self.weight).search_nearest(sources, goals, cache)
    }

    fn search_budgeted<Q: OpenSet>(
        &self, sources: &[NodeId], goals: &[NodeId], cache: &mut SearchCache<Q>, budget: Budget,
    ) -> Option<Progress> {
        astar(self.graph, &*self.table.borrow(), self.weight)
            .search_budgeted(sources, goals, cache, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{MapKind, Neighborhood, random_queries};
    use crate::landmarks::research::Compression;
    use crate::landmarks::{Directedness, LandmarkTable, Placement, place};
    use crate::search::Dijkstra;

    fn table(graph: &GridGraph) -> LandmarkTable {
        let landmarks = place(graph, 6, Placement::Farthest { seed: 3 });
        LandmarkTable::build(graph, &landmarks, Directedness::Symmetric)
    }

    /// Every query's cost is Dijkstra's, and its path runs from the start
    /// to the goal; the adaptive table moves landmarks on the way.
    fn check<T: OwnedTable>(graph: &GridGraph, search: &OwnedTableAStar<'_, T>) {
        let (mut cache, mut reference) = (SearchCache::new(), SearchCache::new());
        let mut path = Vec::new();
        for (s, z) in random_queries(graph, 60, 9) {
            let want = Dijkstra::new(graph).search_cost(s, z, &mut reference);
            let got = search.search_cost(s, z, &mut cache);
            assert_eq!(got.is_some(), want.is_some(), "{s:?} -> {z:?}");
            if let (Some(g), Some(w)) = (got, want) {
                assert!((g - w).abs() < 1e-9, "{s:?} -> {z:?}: {g} vs {w}");
                assert!(search.path_into(&cache, z, &mut path));
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
        check(
            &graph,
            &OwnedTableAStar::new(&graph, Cow::Borrowed(&compressed), 1.0),
        );
        let adaptive = OwnedTableAStar::new(&graph, AdaptiveLandmarks::new(full, 1.0, 4), 1.0);
        check(&graph, &adaptive);
        assert!(adaptive.table.borrow().moves() > 0, "p = 1 moves landmarks");
    }
}
