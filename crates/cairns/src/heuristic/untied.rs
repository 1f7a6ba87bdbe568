//! A heuristic without its tie-break, to measure what the tie-break does.

use super::Heuristic;
use crate::graph::NodeId;

/// `base` with every estimate as it is but no tie-break
/// ([`Heuristic::upper_bound`] is infinite): among nodes of equal `f` the
/// larger `g` goes first, and among equal `g` the OPEN set's own order
/// decides, as before heuristics broke ties. The costs are the same; the
/// expansions show what the base's tie-break saves.
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::{Heuristic, Octile, Untied};
///
/// let graph = GridGraph::new(Grid::from_ascii("....").unwrap(), Neighborhood::Octile);
/// let h = Untied(Octile::new(&graph));
/// let goal = h.goal(graph.node(3, 0).unwrap());
/// assert_eq!(h.estimate(graph.node(0, 0).unwrap(), &goal), 3.0);
/// assert_eq!(h.upper_bound(graph.node(0, 0).unwrap(), &goal), f64::INFINITY);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Untied<H>(pub H);

impl<H: Heuristic> Heuristic for Untied<H> {
    type Goal = H::Goal;

    #[inline]
    fn goal(&self, goal: NodeId) -> H::Goal {
        self.0.goal(goal)
    }

    #[inline]
    fn goal_for(&self, start: NodeId, goal: NodeId) -> H::Goal {
        self.0.goal_for(start, goal)
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &H::Goal) -> f64 {
        self.0.estimate(node, goal)
    }

    fn bound(&self) -> f64 {
        self.0.bound()
    }
}
