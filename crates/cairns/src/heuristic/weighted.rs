//! Weighted heuristics: bounded-suboptimal search.

use super::Heuristic;
use crate::graph::NodeId;

/// A heuristic multiplied by a weight `w >= 1`: A* with it is weighted A*
/// (Pohl 1970), which expands far fewer nodes on maps with few obstacles
/// and returns a path of cost at most `w` times the optimal one, whenever
/// the base heuristic is admissible.
///
/// Why the bound holds: when the goal is popped with cost `C`, some node `n`
/// of an optimal path is on OPEN with `g(n) = g*(n)` (A* reopens nodes, so
/// this holds even though `w * h` is not consistent), hence
/// `C <= g*(n) + w h(n) <= w (g*(n) + h*(n)) = w C*`.
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::{Octile, Weighted};
/// use cairns::search::{AStar, Search, SearchCache};
///
/// let graph = GridGraph::new(Grid::from_ascii("....@....\n.@@.@.@@.\n.........").unwrap(), Neighborhood::Octile);
/// let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 0).unwrap());
/// let mut cache = SearchCache::new();
/// let weighted = AStar::new(&graph, Weighted::new(Octile::new(&graph), 1.5).unwrap());
/// let cost = weighted.search_cost(start, goal, &mut cache).unwrap();
/// assert!(cost <= 1.5 * 12.0);
/// assert!(Weighted::new(Octile::new(&graph), 0.5).is_none()); // below 1
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Weighted<H> {
    base: H,
    weight: f64,
}

impl<H> Weighted<H> {
    /// `base` times `weight`, or `None` unless `weight` is finite and at
    /// least 1.
    pub fn new(base: H, weight: f64) -> Option<Self> {
        (weight.is_finite() && weight >= 1.0).then_some(Weighted { base, weight })
    }

    /// `base` times `weight`, for callers that checked the weight (the
    /// spec); a weight of 1 leaves every estimate exactly as it was.
    pub(crate) fn checked(base: H, weight: f64) -> Self {
        debug_assert!(weight.is_finite() && weight >= 1.0);
        Weighted { base, weight }
    }

    /// The weight.
    pub fn weight(&self) -> f64 {
        self.weight
    }
}

impl<H: Heuristic> Heuristic for Weighted<H> {
    type Goal = H::Goal;

    #[inline]
    fn goal(&self, goal: NodeId) -> H::Goal {
        self.base.goal(goal)
    }

    #[inline]
    fn goal_for(&self, start: NodeId, goal: NodeId) -> H::Goal {
        self.base.goal_for(start, goal)
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &H::Goal) -> f64 {
        // `INFINITY` (a proven dead end) stays infinite.
        self.weight * self.base.estimate(node, goal)
    }

    #[inline]
    fn upper_bound(&self, node: NodeId, goal: &H::Goal) -> f64 {
        self.base.upper_bound(node, goal)
    }

    fn bound(&self) -> f64 {
        self.weight * self.base.bound()
    }
}
