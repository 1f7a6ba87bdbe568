//! Tables whose build a time budget may cut short, and that answer
//! exactly when it does.

use std::time::{Duration, Instant};

use crate::grid::GridGraph;

/// A table whose build a time budget may cut short while its queries stay
/// optimal: goal bounding ([`GoalBounds`](super::GoalBounds): the jump
/// points not reached get no boxes, and prune nothing) and subgoal graphs
/// ([`SubgoalGraph`](super::SubgoalGraph): the subgoals not contracted
/// stay in the core, which every query searches). A cut table only
/// answers more slowly.
///
/// ```
/// use std::time::Duration;
///
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::{Budgeted, GoalBounds};
///
/// let grid = Grid::from_walls(32, 32, (0..32 * 32).map(|i| i % 7 == 3)).unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let cut = GoalBounds::build_within(&graph, Some(Duration::ZERO));
/// assert_eq!(cut.boxed(), 0);
/// let whole = GoalBounds::build_within(&graph, None);
/// assert_eq!(whole.boxed(), whole.jump_points());
/// ```
pub trait Budgeted: Sized {
    /// The budget of the table a spec (`jps+bb`, `sub`) builds on `graph`.
    fn spec_budget(graph: &GridGraph) -> Duration;

    /// Builds the table of `graph`, starting none of the work a budget
    /// cuts once `deadline` (when given) has passed.
    fn build_until(graph: &GridGraph, deadline: Option<Instant>) -> Self;

    /// Builds the table of `graph` within `budget` from now (whole
    /// without one).
    fn build_within(graph: &GridGraph, budget: Option<Duration>) -> Self {
        Self::build_until(graph, budget.map(|b| Instant::now() + b))
    }

    /// The table a spec and `cairns table build` make: built within
    /// [`spec_budget`](Self::spec_budget).
    fn build_for_spec(graph: &GridGraph) -> Self {
        Self::build_within(graph, Some(Self::spec_budget(graph)))
    }
}
