//! Breadth-first search for graphs whose edges all cost 1.

use super::{NodeRecord, Observer, Search, SearchCache};
use crate::graph::{Graph, NodeId};
use crate::open::OpenSet;

/// Breadth-first search: shortest paths by number of edges, which are
/// shortest by cost when every edge costs 1 (see [`Graph::unit_costs`]).
/// Edge costs are ignored; the cost of a path is its number of edges.
///
/// # Complexity
///
/// `O(V + E)` time; `O(V)` memory in the reusable [`SearchCache`] (its OPEN
/// set is not used).
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::{Bfs, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     ..@.
///     ..@.
///     ....
/// ").unwrap();
/// let g = GridGraph::new(grid, Neighborhood::Four);
/// let mut cache = SearchCache::new();
/// let path = Bfs::new(&g).search(g.node(0, 0).unwrap(), g.node(3, 0).unwrap(), &mut cache).unwrap();
/// assert_eq!(path.cost, 7.0);
/// ```
#[derive(Clone, Debug)]
pub struct Bfs<G> {
    graph: G,
}

impl<G: Graph> Bfs<G> {
    /// Breadth-first search on `graph`.
    pub fn new(graph: G) -> Self {
        Bfs { graph }
    }

    /// Computes the edge count from `source` to every node it reaches; read
    /// them with [`SearchCache::g`].
    pub fn all<Q: OpenSet>(&self, source: NodeId, cache: &mut SearchCache<Q>) {
        self.run(source, None, cache, &mut ());
    }

    /// The first-in first-out loop: unlike the best-first loop of the other
    /// searches, it needs no OPEN set and no keys, only the cache's queue.
    fn run<Q: OpenSet, O: Observer + ?Sized>(
        &self, start: NodeId, goal: Option<NodeId>, cache: &mut SearchCache<Q>, observer: &mut O,
    ) -> Option<f64> {
        let bound = self.graph.node_bound();
        if cache.off_graph(start, bound)
            || goal.is_some_and(|g| cache.no_path_known(&self.graph, start, g))
        {
            return None;
        }
        cache.begin(bound);
        let closed = cache.closed_stamp();
        let SearchCache {
            records,
            queue,
            stats,
            ..
        } = cache;
        records[start.index()] = NodeRecord {
            h: 0.0,
            g: 0.0,
            parent: NodeId::NONE,
            stamp: closed,
        };
        queue.push(start);
        observer.open(start, NodeId::NONE, 0.0);
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            let gu = records[u.index()].g;
            if Some(u) == goal {
                stats.max_open = stats.max_open.max((queue.len() - head + 1) as u64);
                return Some(gu);
            }
            stats.expanded += 1;
            observer.expand(u, gu, 0.0);
            for (v, _) in self.graph.successors(u) {
                stats.generated += 1;
                let rv = &mut records[v.index()];
                if rv.stamp != closed {
                    *rv = NodeRecord {
                        h: 0.0,
                        g: gu + 1.0,
                        parent: u,
                        stamp: closed,
                    };
                    queue.push(v);
                    observer.open(v, u, gu + 1.0);
                }
            }
            stats.max_open = stats.max_open.max((queue.len() - head) as u64);
        }
        None
    }
}

/// The cost of a path is its number of edges.
impl<G: Graph> Search for Bfs<G> {
    fn search_observed<Q: OpenSet, O: Observer + ?Sized>(
        &self, start: NodeId, goal: NodeId, cache: &mut SearchCache<Q>, observer: &mut O,
    ) -> Option<f64> {
        self.run(start, Some(goal), cache, observer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, GridGraph, Neighborhood};
    use crate::heuristic::Zero;
    use crate::search::AStar;

    #[test]
    fn bfs_agrees_with_dijkstra_on_unit_costs() {
        let grid = Grid::from_ascii(
            "
            ....@.....
            .@@.@.@@@.
            .@..@...@.
            .@.@@@@.@.
            ..........
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Four);
        assert!(g.unit_costs());
        let mut a = SearchCache::new();
        let mut b = SearchCache::new();
        Bfs::new(&g).all(NodeId(0), &mut a);
        for n in 0..50 {
            let d = AStar::new(&g, Zero).search_cost(NodeId(0), NodeId(n), &mut b);
            assert_eq!(a.g(NodeId(n)), d, "node {n}");
        }
    }
}
