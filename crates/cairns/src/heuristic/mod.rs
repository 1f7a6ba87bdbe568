//! Heuristics: lower bounds on the remaining cost to the goal.
//!
//! A [`Heuristic`] first turns a goal into a small value
//! ([`Heuristic::Goal`], for example the goal's coordinates), once per query,
//! and then estimates the cost from any node to that goal. A* is optimal when
//! the heuristic is *admissible* (never above the true remaining cost) and
//! expands every node at most once when it is also *consistent*
//! (`h(u) <= cost(u, v) + h(v)` for every edge).
//!
//! | heuristic | admissible for |
//! |---|---|
//! | [`Zero`] | every graph with non-negative costs (A* becomes Dijkstra) |
//! | [`Manhattan`] | 4-connected grids with unit costs; **not** for octile movement |
//! | [`Octile`] | octile grids (8 directions, diagonal `sqrt(2)`) and 4-connected grids |
//! | [`Euclidean`] | any grid whose step costs are at least their straight-line length times `DIAGONAL / sqrt(2)` |
//! | [`FastMap`] | every graph with non-negative costs: an embedding learned from the graph by Dijkstra searches |
//! | [`Geometric`] | every graph whose nodes carry coordinates: the straight line, scaled to the graph's cheapest cost per unit of length |
//!
//! On octile grids [`Octile`] is the tightest of these; on 4-connected grids
//! [`Manhattan`] is. All six are consistent wherever they are admissible.
//! On graphs without coordinates (road networks read from a file),
//! [`FastMap`] is the one that knows distances; the landmark tables of
//! [`crate::landmarks`] are the other heuristics learned from a graph.

mod distance;
mod fastmap;
mod geometric;
mod untied;
mod weighted;

pub use distance::{Euclidean, Manhattan, Octile, Zero};
pub use fastmap::{FastMap, FastMapGoal};
pub use geometric::Geometric;
pub use untied::Untied;
pub use weighted::Weighted;

use crate::graph::NodeId;

/// An estimate of the cost from a node to a goal.
pub trait Heuristic {
    /// What the heuristic needs to know about a goal, computed once per
    /// query by [`goal`](Heuristic::goal).
    type Goal: Copy;

    /// Prepares the estimates towards `goal`.
    fn goal(&self, goal: NodeId) -> Self::Goal;

    /// Prepares the estimates of a query from `start` to `goal`: by default
    /// [`goal`](Heuristic::goal); a heuristic that picks what to consult
    /// for each pair (the landmarks best for it,
    /// [`with_best`](crate::landmarks::DifferentialHeuristic::with_best))
    /// uses `start` too. The one-goal searches call this.
    fn goal_for(&self, start: NodeId, goal: NodeId) -> Self::Goal {
        let _ = start;
        self.goal(goal)
    }

    /// A lower bound on the cost from `node` to the goal.
    fn estimate(&self, node: NodeId, goal: &Self::Goal) -> f64;

    /// An upper bound on the cost from `node` to the goal, which breaks
    /// the ties among nodes of equal `f` ([`Key::tied`](crate::open::Key::tied)):
    /// the node whose bracket `[estimate, upper]` on its distance has the
    /// smaller middle goes first, then the one with the narrower bracket.
    /// The default knows none (`f64::INFINITY`): the larger `g` goes first.
    /// The [differential heuristic](crate::landmarks::DifferentialHeuristic)
    /// gives the way round through the landmark nearest the goal. The tie
    /// never changes the order of distinct `f`, so it costs no optimality,
    /// and a bound that is not one (a stale table's) only moves a tie.
    #[inline]
    fn upper_bound(&self, node: NodeId, goal: &Self::Goal) -> f64 {
        let _ = (node, goal);
        f64::INFINITY
    }

    /// How far above the optimal cost a search guided by this heuristic may
    /// go: 1 for an admissible heuristic (the default), `w` for a
    /// [`Weighted`] one.
    fn bound(&self) -> f64 {
        1.0
    }
}

impl<H: Heuristic + ?Sized> Heuristic for &H {
    type Goal = H::Goal;

    #[inline]
    fn goal(&self, goal: NodeId) -> H::Goal {
        (**self).goal(goal)
    }

    #[inline]
    fn goal_for(&self, start: NodeId, goal: NodeId) -> H::Goal {
        (**self).goal_for(start, goal)
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &H::Goal) -> f64 {
        (**self).estimate(node, goal)
    }

    #[inline]
    fn upper_bound(&self, node: NodeId, goal: &H::Goal) -> f64 {
        (**self).upper_bound(node, goal)
    }

    fn bound(&self) -> f64 {
        (**self).bound()
    }
}

/// A heuristic from a closure `|node, goal| estimate`, for graphs whose
/// nodes carry their own geometry.
///
/// ```
/// use cairns::graph::NodeId;
/// use cairns::heuristic::{FnHeuristic, Heuristic};
///
/// // Nodes on a line: the distance between positions is a lower bound.
/// let positions: [f64; 3] = [0.0, 2.0, 5.0];
/// let h = FnHeuristic(|n: NodeId, goal: NodeId| (positions[n.index()] - positions[goal.index()]).abs());
/// let goal = h.goal(NodeId(2));
/// assert_eq!(h.estimate(NodeId(1), &goal), 3.0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FnHeuristic<F>(pub F);

impl<F: Fn(NodeId, NodeId) -> f64> Heuristic for FnHeuristic<F> {
    type Goal = NodeId;

    #[inline]
    fn goal(&self, goal: NodeId) -> NodeId {
        goal
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &NodeId) -> f64 {
        (self.0)(node, *goal)
    }
}
