//! Jump points on 4-connected grids (JPS4: J. Baum, "Jump Point Search
//! Pathfinding in 4-connected Grids", 2025), under the horizontal-first
//! canonical ordering: of the shortest paths between two cells, the one
//! that moves horizontally as early as it can.
//!
//! After a horizontal move a path may go on or turn up or down; after a
//! vertical move it goes on, and turns horizontally only where the cell
//! beside the previous cell is blocked (else the path that turned a row
//! earlier comes first). So a vertical run stops at such a cell, which is
//! the rule [`BitGrid::jump`](crate::grid::BitGrid) scans for, and a
//! horizontal run is never put on OPEN: at each of its cells the two
//! vertical runs are scanned, and the jump points they find become
//! successors of the node expanded, as a diagonal run does in the octile
//! search. Every successor is linked to its node by a horizontal leg
//! followed by a vertical one.

use super::JumpPointSearch;
use crate::graph::NodeId;
use crate::grid::GridGraph;

/// The straight directions (bit order of [`GridGraph::moves`]).
pub(in crate::search) const NORTH: usize = 0;
pub(in crate::search) const EAST: usize = 1;
pub(in crate::search) const SOUTH: usize = 2;
pub(in crate::search) const WEST: usize = 3;

/// The vertical moves.
const VERTICAL: u8 = 1 << NORTH | 1 << SOUTH;

impl<H> JumpPointSearch<'_, H> {
    /// The successors of `(x, y)` along `moves` on a 4-connected grid: the
    /// jump points of its vertical runs and of the vertical runs from each
    /// cell of its horizontal ones.
    #[inline]
    pub(super) fn runs_four(
        &self, (x, y): (u32, u32), moves: u8, visit: &mut impl FnMut(NodeId, f64),
    ) {
        for d in [NORTH, SOUTH] {
            if moves & (1 << d) != 0
                && let Some(steps) = self.bits.jump(d, x, y)
            {
                visit(self.cell(x, y, d, steps), f64::from(steps));
            }
        }
        for d in [EAST, WEST] {
            if moves & (1 << d) != 0 {
                self.fan_four((x, y), d, visit);
            }
        }
    }

    /// Runs horizontally from `(x, y)` in direction `d` to a wall; at each
    /// cell on the way, scans the two vertical runs and offers their jump
    /// points as successors.
    #[inline]
    fn fan_four(&self, (x, y): (u32, u32), d: usize, visit: &mut impl FnMut(NodeId, f64)) {
        let run = self.bits.run(d, x, y, u32::MAX);
        for k in 1..=run {
            let cx = if d == EAST { x + k } else { x - k };
            for v in [NORTH, SOUTH] {
                if let Some(steps) = self.bits.jump(v, cx, y) {
                    visit(self.cell(cx, y, v, steps), f64::from(k + steps));
                }
            }
        }
    }

    /// The cost from `(x, y)` to the goal at `target` when the
    /// horizontal-first path is free and starts with a move in `moves`.
    #[inline]
    pub(super) fn goal_in_sight_four(
        &self, (x, y): (u32, u32), target: (u32, u32), moves: u8,
    ) -> Option<f64> {
        let (tx, ty) = target;
        let across = x.abs_diff(tx);
        let along = y.abs_diff(ty);
        let horizontal = if tx > x { EAST } else { WEST };
        let vertical = if ty > y { SOUTH } else { NORTH };
        let first = if across > 0 { horizontal } else { vertical };
        if moves & (1 << first) == 0 {
            return None;
        }
        let free = (across == 0 || self.bits.clear(horizontal, x, y, across))
            && (along == 0 || self.bits.clear(vertical, tx, y, along));
        free.then(|| f64::from(across + along))
    }
}

/// The moves canonical ordering keeps from `u` at `(x, y)`, entered from
/// `parent`, on a 4-connected grid: jump point search's and JPS+'s.
#[inline]
pub(in crate::search) fn kept(
    graph: &GridGraph, u: NodeId, parent: NodeId, (x, y): (u32, u32),
) -> u8 {
    graph.moves(u) & canonical_after(graph, u, arrival(graph.coords(parent), (x, y)))
}

/// The direction of the last move into `(x, y)` from `(px, py)` along the
/// horizontal-first path: vertical unless the two share a row.
#[inline]
fn arrival((px, py): (u32, u32), (x, y): (u32, u32)) -> usize {
    match (y.cmp(&py), x.cmp(&px)) {
        (std::cmp::Ordering::Greater, _) => SOUTH,
        (std::cmp::Ordering::Less, _) => NORTH,
        (_, std::cmp::Ordering::Greater) => EAST,
        _ => WEST,
    }
}

/// The moves canonical ordering keeps from `node`, entered by a move in
/// direction `d`: after a horizontal move, it and both vertical ones;
/// after a vertical move, it and each horizontal move whose cell beside
/// the previous cell is blocked.
#[inline]
fn canonical_after(graph: &GridGraph, node: NodeId, d: usize) -> u8 {
    if d == EAST || d == WEST {
        return 1 << d | VERTICAL;
    }
    let behind = graph.moves(graph.step_back(node, d));
    1 << d | (!behind & (1 << EAST | 1 << WEST))
}

/// Turns the jump points in `out` (start first, each linked to the next by
/// a horizontal leg and then a vertical one, either possibly empty) into
/// every cell of the path, in place.
pub(super) fn fill_path(graph: &GridGraph, out: &mut Vec<NodeId>) {
    super::fill_legs(graph, out, |from, to| {
        let ((fx, fy), (tx, ty)) = (graph.coords(from), graph.coords(to));
        let vertical = if ty > fy { SOUTH } else { NORTH };
        let horizontal = if tx > fx { EAST } else { WEST };
        [(vertical, fy.abs_diff(ty)), (horizontal, fx.abs_diff(tx))]
    });
}
