//! A* over the [`Graph`] trait.

use super::{Edges, TowardGoal};
use crate::graph::{Graph, NodeId};
use crate::heuristic::Heuristic;

/// The A* search engine: a graph and a heuristic, both borrowed or owned,
/// never changed by a search. All per-query memory is in the
/// [`SearchCache`](super::SearchCache) passed to each call, whose type parameter picks the OPEN
/// set.
///
/// # Contract
///
/// Edge costs are non-negative. With an *admissible* heuristic (never above
/// the true remaining cost) the path found is a shortest one. With a
/// *consistent* heuristic every node is expanded at most once; with an
/// admissible but inconsistent one, a closed node that is reached more
/// cheaply is reopened (counted in [`SearchStats::reopened`](super::SearchStats)),
/// so the result is still shortest.
///
/// A heuristic may return `f64::INFINITY` for a node from which it knows
/// the goal is unreachable (a landmark table can prove this); such nodes are
/// never put on OPEN, and an infinite estimate at the start ends the search
/// with `None` at once.
///
/// # Order of expansion
///
/// The OPEN entry with the smallest `f = g + h` is expanded first; among
/// equal `f`, the one with the larger `g`, or, when the heuristic gives an
/// [upper bound](crate::heuristic::Heuristic::upper_bound), the one whose
/// bracket `[h, upper]` has the smaller middle, then the narrower
/// ([`Key::tied`](crate::open::Key::tied)). Remaining ties depend on the
/// OPEN set and are deterministic.
///
/// # Complexity
///
/// `O((V + E) log V)` time with a heap-based OPEN set, and `O(V)` memory in
/// the cache, allocated by the first search and reused by the next.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::Octile;
/// use cairns::search::{AStar, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     ....@....
///     .@@.@.@@.
///     .@..@..@.
///     .@.@@@.@.
///     .........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let astar = AStar::new(&graph, Octile::new(&graph));
/// let mut cache = SearchCache::new();
/// let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 0).unwrap());
/// let path = astar.search(start, goal, &mut cache).unwrap();
/// assert_eq!(path.nodes.first(), Some(&start));
/// assert_eq!(path.nodes.last(), Some(&goal));
/// // Down, along the bottom row and up: every diagonal would cut a corner.
/// assert_eq!(path.cost, 16.0);
/// // The cache can be reused for the next query without allocating.
/// assert_eq!(astar.search_cost(goal, start, &mut cache), Some(path.cost));
/// ```
#[derive(Clone, Debug)]
pub struct AStar<G, H> {
    graph: G,
    heuristic: H,
}

impl<G: Graph, H: Heuristic> AStar<G, H> {
    /// An engine for `graph` with `heuristic`.
    pub fn new(graph: G, heuristic: H) -> Self {
        AStar { graph, heuristic }
    }

    /// The graph.
    pub fn graph(&self) -> &G {
        &self.graph
    }

    /// The heuristic.
    pub fn heuristic(&self) -> &H {
        &self.heuristic
    }
}

impl<G: Graph, H: Heuristic> TowardGoal for AStar<G, H> {
    along_edges!(H, |self| &self.heuristic);
}

#[cfg(test)]
mod tests {
    /// The conformance suite's search check, with A* over every OPEN set
    /// and one cache per set: the costs are Dijkstra's, and OPEN never
    /// holds more entries than there are cells.
    #[test]
    fn astar_over_every_open_set_passes_the_conformance_search_check() {
        use crate::open::{OpenKind, OpenSet, conformance};
        for kind in OpenKind::ALL {
            crate::with_open_set!(kind, |Q| {
                let mut cache = crate::search::SearchCache::with_open(Q::default());
                conformance::astar(|graph, start, goal| {
                    let astar = AStar::new(graph, crate::heuristic::Octile::new(graph));
                    let cost = crate::search::Search::search_cost(&astar, start, goal, &mut cache);
                    assert!(
                        cache.open_set().len() <= graph.grid().len(),
                        "{kind}: OPEN holds more entries than there are cells"
                    );
                    cost
                });
            });
        }
    }

    use super::*;
    use crate::graph::CsrGraph;
    use crate::grid::testing::open_map;
    use crate::grid::{Grid, GridGraph, Neighborhood};
    use crate::heuristic::{FnHeuristic, Manhattan, Octile, Zero};
    use crate::search::{Observer, Search, SearchCache};

    #[test]
    fn start_equals_goal_costs_nothing() {
        let g = open_map(3, 3, Neighborhood::Octile);
        let mut cache = SearchCache::new();
        let p = AStar::new(&g, Octile::new(&g))
            .search(NodeId(4), NodeId(4), &mut cache)
            .unwrap();
        assert_eq!(p.cost, 0.0);
        assert_eq!(p.nodes, [NodeId(4)]);
        assert_eq!(cache.stats().expanded, 0);
    }

    #[test]
    fn walled_off_goal_has_no_path() {
        let grid = Grid::from_ascii(
            "
            ..@..
            ..@..
            ..@..
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Octile);
        let mut cache = SearchCache::new();
        let astar = AStar::new(&g, Octile::new(&g));
        assert_eq!(astar.search(NodeId(0), NodeId(4), &mut cache), None);
        // The grid's components answer before any expansion.
        assert_eq!(cache.stats().expanded, 0);
        assert_eq!(astar.search(NodeId(0), NodeId(99), &mut cache), None);
    }

    #[test]
    fn ties_prefer_deeper_nodes() {
        // On an open 4-connected grid with Manhattan, every cell in the
        // start-goal rectangle has the same f. Preferring larger g walks
        // straight to the goal, expanding only the cells of one path.
        let g = open_map(20, 20, Neighborhood::Four);
        let mut cache = SearchCache::new();
        let p = AStar::new(&g, Manhattan::new(&g))
            .search(NodeId(0), g.node(19, 19).unwrap(), &mut cache)
            .unwrap();
        assert_eq!(p.cost, 38.0);
        assert_eq!(cache.stats().expanded, 38);
    }

    #[test]
    fn inconsistent_heuristic_reopens_and_stays_optimal() {
        // 0 -> 1 -> 3 is cheaper than 0 -> 2 -> 3 (cost 2 vs 3), but an
        // admissible, inconsistent h makes 1 look worse at first... and a
        // cheaper route to 2 appears only after 2 is closed.
        let edges = [(0, 1, 1.0), (0, 2, 3.0), (1, 2, 1.0), (2, 3, 3.0)];
        let g = CsrGraph::from_edges(4, &edges).unwrap();
        let hv = [0.0, 4.0, 0.0, 0.0];
        let h = FnHeuristic(move |n: NodeId, _| hv[n.index()]);
        let mut cache = SearchCache::new();
        let cost = AStar::new(&g, h).search_cost(NodeId(0), NodeId(3), &mut cache);
        assert_eq!(cost, Some(5.0));
        assert_eq!(cache.stats().reopened, 1);
        let mut path = Vec::new();
        assert!(cache.path_into(NodeId(3), &mut path));
        assert_eq!(path, [NodeId(0), NodeId(1), NodeId(2), NodeId(3)]);
    }

    #[test]
    fn cache_is_reused_across_queries_and_graphs() {
        let small = CsrGraph::from_edges(2, &[(0, 1, 1.0)]).unwrap();
        let big = open_map(30, 30, Neighborhood::Four);
        let mut cache = SearchCache::new();
        let a = AStar::new(&big, Zero);
        let b = AStar::new(&small, Zero);
        assert_eq!(
            a.search_cost(NodeId(0), NodeId(899), &mut cache),
            Some(58.0)
        );
        assert_eq!(b.search_cost(NodeId(0), NodeId(1), &mut cache), Some(1.0));
        assert!(!cache.is_reached(NodeId(5)));
        assert_eq!(
            a.search_cost(NodeId(899), NodeId(0), &mut cache),
            Some(58.0)
        );
        assert!(cache.is_closed(NodeId(5)) || cache.is_reached(NodeId(5)));
    }

    /// Guards the decrease-key contract: on octile grids a second path can
    /// be cheaper by a rounding error only, so that `g + h` rounds to the
    /// same `f` while `g` is smaller. Handing the heap that key would raise
    /// it in the tie order (and tripped the heap's debug assertion).
    #[test]
    fn rounding_level_improvements_do_not_raise_keys() {
        // Two routes to node 2 whose costs differ in the last bit: the
        // direct edge is found first, the route through 1 is cheaper.
        let via_one: f64 = 0.1 + 0.2; // 0.30000000000000004
        let direct = f64::from_bits(via_one.to_bits() + 1);
        let edges = [(0, 1, 0.1), (1, 2, 0.2), (0, 2, direct), (2, 3, 1.0)];
        let g = CsrGraph::from_edges(4, &edges).unwrap();
        // A large h makes the two g values round to one f.
        let h = FnHeuristic(|n: NodeId, _| if n.0 == 3 { 0.0 } else { 1e6 });
        let mut cache = SearchCache::new();
        let cost = AStar::new(&g, h).search_cost(NodeId(0), NodeId(3), &mut cache);
        assert!((cost.unwrap() - 1.3).abs() < 1e-9);
    }

    #[test]
    fn infinite_estimate_prunes_dead_ends() {
        // 0 -> 1 -> 3 and 0 -> 2 (a dead end the heuristic knows about).
        let g = CsrGraph::from_edges(4, &[(0, 2, 1.0), (0, 1, 2.0), (1, 3, 2.0)]).unwrap();
        let h = FnHeuristic(|n: NodeId, _| if n.0 == 2 { f64::INFINITY } else { 0.0 });
        let mut cache = SearchCache::new();
        let astar = AStar::new(&g, h);
        assert_eq!(
            astar.search_cost(NodeId(0), NodeId(3), &mut cache),
            Some(4.0)
        );
        assert_eq!(cache.stats().expanded, 2);
        assert_eq!(astar.search_cost(NodeId(2), NodeId(3), &mut cache), None);
        assert_eq!(cache.stats().expanded, 0);
    }

    #[test]
    fn observer_sees_every_expansion() {
        #[derive(Default)]
        struct Count(u64, u64);
        impl Observer for Count {
            fn expand(&mut self, _: NodeId, _: f64, _: f64) {
                self.0 += 1;
            }
            fn open(&mut self, _: NodeId, _: NodeId, _: f64) {
                self.1 += 1;
            }
        }
        let g = open_map(9, 9, Neighborhood::Octile);
        let mut cache = SearchCache::new();
        let mut count = Count::default();
        AStar::new(&g, Zero).search_observed(NodeId(0), NodeId(80), &mut cache, &mut count);
        assert_eq!(count.0, cache.stats().expanded);
        assert_eq!(count.0 as usize + 1, cache.closed_nodes().count());
        assert!(count.1 >= count.0);
    }
}
