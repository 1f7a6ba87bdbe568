//! String pulling after any grid search, as a [`Searcher`].

use super::{Observer, Reached, SearchMemory, SearchStats, Searcher};
use crate::graph::NodeId;
use crate::grid::GridGraph;

/// A grid searcher whose paths are straightened by string pulling
/// ([`GridGraph::pull_string`]) after each query: the cheap any-angle
/// post-process. The cost it returns is the Euclidean length of the pulled
/// path (never above the inner search's cost, never below the straight-line
/// distance), and [`path_into`](Searcher::path_into) writes the pulled
/// path's corners.
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::Octile;
/// use cairns::search::{AStar, Cached, SearchCache, Searcher, StringPulled};
///
/// let graph = GridGraph::new(Grid::from_ascii("
///     ........
///     ........
/// ").unwrap(), Neighborhood::Octile);
/// let astar = Cached::new(AStar::new(&graph, Octile::new(&graph)), SearchCache::new());
/// let mut pulled = StringPulled::new(&graph, astar);
/// let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(7, 1).unwrap());
/// let cost = pulled.search_cost(start, goal).unwrap();
/// assert!((cost - 50f64.sqrt()).abs() < 1e-9); // A* found 6 + sqrt 2
/// let mut corners = Vec::new();
/// assert!(pulled.path_into(goal, &mut corners));
/// assert_eq!(corners, [start, goal]);
/// ```
#[derive(Debug)]
pub struct StringPulled<'g, S> {
    graph: &'g GridGraph,
    inner: S,
    /// The inner search's path of the last query, reused.
    cells: Vec<NodeId>,
    /// Its pulled corners.
    corners: Vec<NodeId>,
    /// The goal of the last query that found a path.
    goal: Option<NodeId>,
}

impl<'g, S: Searcher> StringPulled<'g, S> {
    /// `inner`'s paths on `graph`, pulled.
    pub fn new(graph: &'g GridGraph, inner: S) -> Self {
        StringPulled {
            graph,
            inner,
            cells: Vec::new(),
            corners: Vec::new(),
            goal: None,
        }
    }

    /// The inner searcher.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    fn pull(&mut self, goal: NodeId, found: Option<f64>) -> Option<f64> {
        self.goal = None;
        self.corners.clear();
        found?;
        if !self.inner.path_into(goal, &mut self.cells) {
            return None;
        }
        self.graph.pull_string(&self.cells, &mut self.corners);
        self.goal = Some(goal);
        Some(self.graph.polyline_length(&self.corners))
    }
}

impl<S: Searcher> Searcher for StringPulled<'_, S> {
    fn search_cost(&mut self, start: NodeId, goal: NodeId) -> Option<f64> {
        let found = self.inner.search_cost(start, goal);
        self.pull(goal, found)
    }

    fn search_observed(
        &mut self, start: NodeId, goal: NodeId, observer: &mut dyn Observer,
    ) -> Option<f64> {
        let found = self.inner.search_observed(start, goal, observer);
        self.pull(goal, found)
    }

    fn search_nearest(&mut self, sources: &[NodeId], goals: &[NodeId]) -> Option<Reached> {
        let reached = self.inner.search_nearest(sources, goals)?;
        let cost = self.pull(reached.goal, Some(reached.cost))?;
        Some(Reached {
            goal: reached.goal,
            cost,
        })
    }

    fn prepare(&mut self, node_bound: usize) {
        self.inner.prepare(node_bound);
    }

    fn take_memory(&mut self) -> SearchMemory {
        self.goal = None;
        self.corners.clear();
        self.inner.take_memory()
    }

    fn give_memory(&mut self, memory: SearchMemory) {
        self.goal = None;
        self.corners.clear();
        self.inner.give_memory(memory);
    }

    /// The pulled corners for the last query's goal; for another node, the
    /// inner search's path to it.
    fn path_into(&self, node: NodeId, out: &mut Vec<NodeId>) -> bool {
        if self.goal == Some(node) {
            out.clone_from(&self.corners);
            return true;
        }
        self.inner.path_into(node, out)
    }

    fn stats(&self) -> SearchStats {
        self.inner.stats()
    }

    fn is_closed(&self, node: NodeId) -> bool {
        self.inner.is_closed(node)
    }

    fn is_reached(&self, node: NodeId) -> bool {
        self.inner.is_reached(node)
    }

    fn bound(&self) -> f64 {
        self.inner.bound()
    }

    fn any_angle(&self) -> bool {
        true
    }
}
