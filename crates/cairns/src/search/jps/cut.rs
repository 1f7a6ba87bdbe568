//! Jump points on octile grids whose diagonals may cut corners, under
//! either rule: past one wall's corner (`OctileCornerCutting`) or also
//! between two walls that touch at a corner (`OctileSqueeze`). These are
//! the rules of Harabor and Grastien's first paper (2011): after a straight
//! move, a path goes on, and turns diagonally only past the corner of a
//! blocked cell beside it; after a diagonal, it goes on or along either of
//! its straight sides, and turns the other way only past a blocked cell
//! behind it. Which diagonal moves are legal is the graph's rule (its move
//! masks), so one set of rules serves both.
//!
//! A diagonal run is scanned as in the search without corner cutting (its
//! straight sides scanned at every cell, their jump points successors of
//! the node expanded), but it stops at a cell with a forced neighbour,
//! which becomes a successor itself.

use super::{JumpPointSearch, SIGN_TO_DIRECTION};
use crate::graph::NodeId;
use crate::grid::{DIAGONAL_SIDES, DIRECTIONS};

/// The diagonal between two perpendicular straight directions.
#[inline]
fn diagonal_of(a: usize, b: usize) -> usize {
    let (ax, ay) = DIRECTIONS[a];
    let (bx, by) = DIRECTIONS[b];
    SIGN_TO_DIRECTION[((ay + by + 1) * 3 + (ax + bx + 1)) as usize]
}

/// The straight direction opposite `d` (0..4).
#[inline]
fn opposite(d: usize) -> usize {
    (d + 2) % 4
}

/// The moves among `all` (a cell's legal moves) that the 2011 rules keep
/// after a move in direction `d`: after a straight move, it and each
/// diagonal past a blocked cell beside it; after a diagonal, it, its two
/// straight sides, and each diagonal past a blocked cell behind it.
#[inline]
pub(in crate::search) fn canonical_after(all: u8, d: usize) -> u8 {
    let blocked = |s: usize| all & (1 << s) == 0;
    let mut keep = 1u8 << d;
    if d < 4 {
        for side in [(d + 1) % 4, (d + 3) % 4] {
            if blocked(side) {
                keep |= 1 << diagonal_of(d, side);
            }
        }
    } else {
        let (v, h) = DIAGONAL_SIDES[d - 4];
        keep |= 1 << v | 1 << h;
        if blocked(opposite(h)) {
            keep |= 1 << diagonal_of(v, opposite(h));
        }
        if blocked(opposite(v)) {
            keep |= 1 << diagonal_of(h, opposite(v));
        }
    }
    all & keep
}

impl<H> JumpPointSearch<'_, H> {
    /// The successors of `u` at `(x, y)` along `moves` when diagonals may
    /// cut corners: the jump points of its straight runs, and those its
    /// diagonal runs reach.
    #[inline]
    pub(super) fn runs_cut(
        &self, u: NodeId, (x, y): (u32, u32), moves: u8, visit: &mut impl FnMut(NodeId, f64),
    ) {
        for d in 0..4 {
            if moves & (1 << d) != 0
                && let Some(steps) = self.bits.jump_cut(d, x, y)
            {
                visit(self.cell(x, y, d, steps), f64::from(steps));
            }
        }
        for d in 4..8 {
            if moves & (1 << d) != 0 {
                self.fan::<true>(u, (x, y), d, visit);
            }
        }
    }
}
