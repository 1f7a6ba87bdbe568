//! Theta*: any-angle paths on an octile grid.

use super::{Expand, Reopen, TowardGoal};
use crate::graph::{Graph, NodeId};
use crate::grid::{GridGraph, Neighborhood};
use crate::heuristic::{Euclidean, Heuristic};

/// Theta* (Nash, Daniel, Koenig and Felner 2007): A* on the octile grid
/// whose paths may turn at any angle. A successor `v` of the expanded node
/// `u` is offered a straight line from `u`'s parent when that line has
/// [line of sight](GridGraph::line_of_sight) ("path 2"), and the grid step
/// from `u` otherwise ("path 1"); costs are Euclidean lengths between cell
/// centres. The path it writes ([`Search::path_into`](super::Search::path_into)) is the list of its
/// corners, start and goal included, each consecutive pair in line of sight.
///
/// # Contract
///
/// The heuristic must not overestimate the straight-line distance to the
/// goal ([`Euclidean`], the default, or [`Zero`](crate::heuristic::Zero)).
/// The cost is the Euclidean length of the path found (the path the
/// parents link, measured: a node reopened late can leave the goal's `g`
/// above it). Theta* does not
/// promise the shortest any-angle path, but its cost is never above the
/// octile optimum: every relaxation offers at most what A* would, and a
/// closed node that gets a shorter path is reopened, so A*'s argument holds
/// (checked against Dijkstra in the property tests and on every scenario of
/// the suite). It is never below the straight-line distance, since every
/// segment is a straight line.
///
/// # Complexity
///
/// Like A*, times a line-of-sight walk of `O(L)` cells for each successor
/// (`L` the length of the segment from the parent).
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::{Search, SearchCache, ThetaStar};
///
/// let graph = GridGraph::new(Grid::from_ascii("
///     .........
///     .@@@@....
///     .........
/// ").unwrap(), Neighborhood::Octile);
/// let theta = ThetaStar::new(&graph).unwrap();
/// let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 2).unwrap());
/// let path = theta.search(start, goal, &mut SearchCache::new()).unwrap();
/// // Along the top row past the wall, then straight to the goal.
/// assert_eq!(path.nodes, [start, graph.node(5, 0).unwrap(), goal]);
/// assert!((path.cost - (5.0 + 3f64.hypot(2.0))).abs() < 1e-9);
/// // The octile optimum is 8 + 2 (sqrt 2 - 1) = 8.83; this is 8.61.
/// assert!(path.cost < 8.0 + 2.0 * (2f64.sqrt() - 1.0));
/// ```
#[derive(Clone, Debug)]
pub struct ThetaStar<'g, H = Euclidean> {
    graph: &'g GridGraph,
    heuristic: H,
}

impl<'g> ThetaStar<'g> {
    /// Theta* on `graph` with the [`Euclidean`] heuristic, or `None` unless
    /// the graph has octile movement.
    pub fn new(graph: &'g GridGraph) -> Option<Self> {
        Self::with_heuristic(graph, Euclidean::new(graph))
    }
}

impl<'g, H: Heuristic> ThetaStar<'g, H> {
    /// Theta* with `heuristic`, which must not overestimate the straight-line
    /// distance (see the contract), or `None` unless the graph has octile
    /// movement.
    pub fn with_heuristic(graph: &'g GridGraph, heuristic: H) -> Option<Self> {
        (graph.neighborhood() == Neighborhood::Octile).then_some(ThetaStar { graph, heuristic })
    }
}

/// Theta*'s successors: the grid neighbours, each through the parent when
/// the parent sees it.
pub(crate) struct Sight<'g>(&'g GridGraph);

impl Expand for Sight<'_> {
    #[inline]
    fn node_bound(&self) -> usize {
        self.0.node_bound()
    }

    fn expand(&self, node: NodeId, _parent: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        // Not called by the loop (it calls `expand_via`); the grid steps.
        for (v, cost) in self.0.successors(node) {
            visit(v, cost);
        }
    }

    #[inline]
    fn expand_via(&self, node: NodeId, parent: NodeId, mut visit: impl FnMut(NodeId, NodeId, f64)) {
        let graph = self.0;
        for (v, cost) in graph.successors(node) {
            if v == parent {
                continue;
            }
            if parent != NodeId::NONE && graph.line_of_sight(parent, v) {
                visit(parent, v, graph.euclidean_distance(parent, v));
            } else {
                visit(node, v, cost);
            }
        }
    }
}

/// Theta* always reopens: a node reached along a line of sight may get a
/// cheaper parent after it was closed.
impl<'g, H: Heuristic> TowardGoal for ThetaStar<'g, H> {
    on_grid!(Sight<'g>);

    #[inline]
    fn expander(&self, _goal: NodeId) -> Sight<'g> {
        Sight(self.graph)
    }

    fn reopen(&self) -> Reopen {
        Reopen::Yes
    }

    fn any_angle(&self) -> bool {
        true
    }

    /// The length of the path the parents link, which can be shorter than
    /// the goal's `g`: a node reopened with a shorter path after its
    /// successors took their `g` from it gives them a shorter way too, but
    /// their `g` (and the goal's) only follow once it is expanded again,
    /// which the search need not wait for.
    fn reached_cost<Q: crate::open::OpenSet>(
        &self, cache: &super::SearchCache<Q>, goal: NodeId, g: f64,
    ) -> f64 {
        let mut length = 0.0f64;
        let mut end = goal;
        for parent in cache.links(goal).skip(1) {
            length += self.graph.euclidean_distance(parent, end);
            end = parent;
        }
        // Only links that end at the start measure the whole path.
        if cache.record(end).is_some_and(|r| r.parent == NodeId::NONE) {
            length.min(g)
        } else {
            g
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::heuristic::{Octile, Zero};
    use crate::search::AStar;
    use crate::search::{Search, SearchCache};

    #[test]
    fn open_grid_gives_the_straight_line() {
        let g = crate::grid::testing::open_map(20, 9, Neighborhood::Octile);
        let theta = ThetaStar::new(&g).unwrap();
        let mut cache = SearchCache::new();
        let (s, t) = (g.node(0, 0).unwrap(), g.node(19, 6).unwrap());
        let p = theta.search(s, t, &mut cache).unwrap();
        assert_eq!(p.nodes, [s, t]);
        assert!((p.cost - 19f64.hypot(6.0)).abs() < 1e-9);
        // Start at the goal.
        assert_eq!(theta.search_cost(s, s, &mut cache), Some(0.0));
    }

    #[test]
    fn four_connected_grids_are_refused_and_walls_are_respected() {
        let grid = Grid::from_ascii("..@..\n..@..\n..@..").unwrap();
        assert!(ThetaStar::new(&GridGraph::new(grid.clone(), Neighborhood::Four)).is_none());
        let g = GridGraph::new(grid, Neighborhood::Octile);
        let theta = ThetaStar::with_heuristic(&g, Zero).unwrap();
        let mut cache = SearchCache::new();
        assert_eq!(
            theta.search_cost(g.node(0, 0).unwrap(), g.node(4, 0).unwrap(), &mut cache),
            None
        );
    }

    #[test]
    fn cost_is_between_the_straight_line_and_the_octile_optimum_around_a_wall() {
        let g = GridGraph::new(
            Grid::from_ascii(
                "
                ..........
                ..@@@@@@..
                ..@.......
                ..@.@@@@@@
                ..........
                ",
            )
            .unwrap(),
            Neighborhood::Octile,
        );
        let theta = ThetaStar::new(&g).unwrap();
        let astar = AStar::new(&g, Octile::new(&g));
        let (mut c1, mut c2) = (SearchCache::new(), SearchCache::new());
        let (s, t) = (g.node(0, 0).unwrap(), g.node(9, 4).unwrap());
        let p = theta.search(s, t, &mut c1).unwrap();
        let octile = astar.search_cost(s, t, &mut c2).unwrap();
        assert!(p.cost < octile - 0.1, "{} vs {octile}", p.cost);
        assert!(p.cost >= g.euclidean_distance(s, t));
        assert!((g.polyline_length(&p.nodes) - p.cost).abs() < 1e-9);
        for w in p.nodes.windows(2) {
            assert!(g.line_of_sight(w[0], w[1]));
        }
    }
}
