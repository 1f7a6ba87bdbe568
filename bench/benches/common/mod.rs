//! The peers: other crates' A* set up on the same octile rules as cairns.

use std::f64::consts::SQRT_2;
use std::ops::Add;

use cairns::graph::NodeId;
use cairns::grid::GridGraph;
use pathfinding::num_traits::Zero;

/// An `f64` cost with the total order that `pathfinding::astar` requires.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost(pub f64);

impl Eq for Cost {}

impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Cost {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost(self.0 + o.0)
    }
}

impl Zero for Cost {
    fn zero() -> Self {
        Cost(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

/// `pathfinding::prelude::astar` as its documentation suggests using it:
/// `(x, y)` nodes, a successor closure that checks the map and returns a
/// `Vec`, and the octile heuristic. No corner cutting, diagonal `sqrt(2)`.
pub fn pathfinding_astar(graph: &GridGraph, start: NodeId, goal: NodeId) -> Option<f64> {
    let grid = graph.grid();
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let free =
        |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h && grid.is_passable(x as u32, y as u32);
    let (sx, sy) = graph.coords(start);
    let (gx, gy) = graph.coords(goal);
    let goal = (gx as i32, gy as i32);
    let result = pathfinding::prelude::astar(
        &(sx as i32, sy as i32),
        |&(x, y)| {
            let mut out = Vec::with_capacity(8);
            for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                if free(x + dx, y + dy) {
                    out.push(((x + dx, y + dy), Cost(1.0)));
                }
            }
            for (dx, dy) in [(1, -1), (1, 1), (-1, 1), (-1, -1)] {
                if free(x + dx, y + dy) && free(x + dx, y) && free(x, y + dy) {
                    out.push(((x + dx, y + dy), Cost(SQRT_2)));
                }
            }
            out
        },
        |&(x, y)| {
            let (dx, dy) = (f64::from((x - goal.0).abs()), f64::from((y - goal.1).abs()));
            Cost(dx.max(dy) + (SQRT_2 - 1.0) * dx.min(dy))
        },
        |&p| p == goal,
    );
    result.map(|(_, c)| c.0)
}

/// `pathfinding::prelude::astar` on dense `u32` node ids with cairns's own
/// non-allocating neighbour iterator: how fast the crate's search loop is
/// when it is handed the same graph representation as cairns.
#[allow(dead_code, reason = "each bench binary uses a different subset")]
pub fn pathfinding_astar_dense(graph: &GridGraph, start: NodeId, goal: NodeId) -> Option<f64> {
    use cairns::graph::Graph;
    let w = graph.width();
    let (gx, gy) = graph.coords(goal);
    let result = pathfinding::prelude::astar(
        &start.0,
        |&n| graph.successors(NodeId(n)).map(|(m, c)| (m.0, Cost(c))),
        |&n| {
            let (dx, dy) = (
                f64::from((n % w).abs_diff(gx)),
                f64::from((n / w).abs_diff(gy)),
            );
            Cost(dx.max(dy) + (SQRT_2 - 1.0) * dx.min(dy))
        },
        |&n| n == goal.0,
    );
    result.map(|(_, c)| c.0)
}
