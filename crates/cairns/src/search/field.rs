//! Distance fields ("Dijkstra maps") and flow fields: every node's distance
//! to the nearest of some goals, and its next step towards it.

use super::{Dijkstra, Path, SearchCache};
use crate::graph::{NodeId, Reversed, Reversible};
use crate::open::OpenSet;

/// The distance from every node to the nearest of a set of goals, and each
/// node's next step on a shortest path there (the flow field): what many
/// units heading for the same goals share, one search for all of them.
///
/// # How it is built
///
/// One Dijkstra search over the reversed graph ([`Reversed`]), with every
/// goal at distance 0: a forward search on the reversed graph from `t`
/// computes distances *to* `t`, and seeding all goals at once gives the
/// distance to the nearest one. A node's next step is the node the reverse
/// search reached it from, so following the steps walks a shortest path
/// and the edge costs along it add up to the node's distance.
///
/// # Complexity
///
/// `O((V + E) log V)` to build, one [`SearchCache`] search; 12 bytes per
/// node kept; `O(1)` per lookup.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::{DistanceField, SearchCache};
///
/// let graph = GridGraph::new(Grid::from_ascii("
///     ....@....
///     .@@.@.@@.
///     .........
/// ").unwrap(), Neighborhood::Octile);
/// let node = |x, y| graph.node(x, y).unwrap();
/// let field = DistanceField::build(&graph, &[node(8, 0)], &mut SearchCache::new());
/// assert_eq!(field.distance(node(8, 2)), Some(2.0));
/// assert_eq!(field.next(node(8, 2)), Some(node(8, 1)));   // one step north
/// assert_eq!(field.next(node(8, 0)), None);               // at the goal
/// assert_eq!(field.distance(node(4, 0)), None);           // a wall
/// let path = field.path_from(node(0, 0)).unwrap();       // follow the flow
/// assert_eq!(path.nodes.last(), Some(&node(8, 0)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceField {
    distance: Vec<f64>,
    next: Vec<NodeId>,
}

impl DistanceField {
    /// The field towards `goals` on `graph` (goals off the graph are
    /// ignored; with none left, no node has a distance). Uses `cache` for
    /// the search and allocates the field's two arrays.
    pub fn build<G: Reversible, Q: OpenSet>(
        graph: G, goals: &[NodeId], cache: &mut SearchCache<Q>,
    ) -> DistanceField {
        let bound = graph.node_bound();
        Dijkstra::new(Reversed(&graph)).all_from(goals, cache);
        let mut distance = vec![f64::INFINITY; bound];
        let mut next = vec![NodeId::NONE; bound];
        for (i, (d, n)) in distance.iter_mut().zip(&mut next).enumerate() {
            let node = NodeId(i as u32);
            if let Some(g) = cache.g(node) {
                *d = g;
                *n = cache.parent(node).unwrap_or(NodeId::NONE);
            }
        }
        DistanceField { distance, next }
    }

    /// One more than the largest node id the field covers.
    pub fn node_bound(&self) -> usize {
        self.distance.len()
    }

    /// The cost of a shortest path from `node` to the nearest goal, or
    /// `None` when no goal can be reached from it (or it is off the graph).
    pub fn distance(&self, node: NodeId) -> Option<f64> {
        self.distance
            .get(node.index())
            .copied()
            .filter(|d| d.is_finite())
    }

    /// The next node on a shortest path from `node` to the nearest goal:
    /// `None` at a goal and where no goal can be reached.
    pub fn next(&self, node: NodeId) -> Option<NodeId> {
        self.next
            .get(node.index())
            .copied()
            .filter(|&n| n != NodeId::NONE)
    }

    /// Whether `node` is one of the goals (distance 0 and no next step).
    pub fn is_goal(&self, node: NodeId) -> bool {
        self.distance(node) == Some(0.0) && self.next(node).is_none()
    }

    /// How many nodes can reach a goal (goals included).
    pub fn reached(&self) -> usize {
        self.distance.iter().filter(|d| d.is_finite()).count()
    }

    /// Writes the path from `node` to its nearest goal, following the next
    /// steps, into `out` (cleared first, `node` first) and returns `true`;
    /// `false` and `out` empty when no goal can be reached from `node`.
    pub fn path_into(&self, node: NodeId, out: &mut Vec<NodeId>) -> bool {
        out.clear();
        if self.distance(node).is_none() {
            return false;
        }
        let mut n = node;
        out.push(n);
        // A shortest-path tree has no cycle; the bound guards the loop all
        // the same.
        while let Some(m) = self.next(n) {
            if out.len() > self.distance.len() {
                break;
            }
            out.push(m);
            n = m;
        }
        true
    }

    /// The path from `node` to its nearest goal, with its cost (the
    /// node's distance), or `None` when no goal can be reached.
    pub fn path_from(&self, node: NodeId) -> Option<Path> {
        let cost = self.distance(node)?;
        let mut nodes = Vec::new();
        self.path_into(node, &mut nodes);
        Some(Path { nodes, cost })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::CsrGraph;

    #[test]
    fn directed_edges_point_the_flow_the_right_way() {
        // 0 -> 1 -> 2 (goal), 3 -> 0, and 2 -> 4 (4 cannot reach the goal).
        let g =
            CsrGraph::from_edges(5, &[(0, 1, 1.0), (1, 2, 2.0), (3, 0, 4.0), (2, 4, 1.0)]).unwrap();
        let field = DistanceField::build(&g, &[NodeId(2)], &mut SearchCache::new());
        let d: Vec<_> = (0..5).map(|i| field.distance(NodeId(i))).collect();
        assert_eq!(d, [Some(3.0), Some(2.0), Some(0.0), Some(7.0), None]);
        assert_eq!(field.next(NodeId(3)), Some(NodeId(0)));
        assert!(field.is_goal(NodeId(2)));
        assert_eq!(field.reached(), 4);
        assert_eq!(
            field.path_from(NodeId(3)).unwrap().nodes,
            [NodeId(3), NodeId(0), NodeId(1), NodeId(2)]
        );
        assert_eq!(field.path_from(NodeId(4)), None);
        assert_eq!(field.distance(NodeId(99)), None);
    }

    #[test]
    fn no_goal_on_the_graph_reaches_nothing() {
        let g = CsrGraph::from_edges(2, &[(0, 1, 1.0)]).unwrap();
        let field = DistanceField::build(&g, &[NodeId(7)], &mut SearchCache::new());
        assert_eq!(field.reached(), 0);
        assert_eq!(field.node_bound(), 2);
    }
}
