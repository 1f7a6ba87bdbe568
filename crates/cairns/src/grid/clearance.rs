//! Agents larger than one cell: true clearance (Harabor and Botea,
//! "Hierarchical path planning for multi-size agents in heterogeneous
//! environments", 2008).
//!
//! An agent of size `k` covers the `k` x `k` block of cells whose top-left
//! cell is its position (its *anchor*). A cell is open to it when that whole
//! block is on the map and passable; a move is the graph's movement rule
//! applied to the blocks: a straight move needs the block it enters free, a
//! diagonal one under octile movement also both blocks beside it (no corner
//! cutting by the block), under corner cutting one of them. Those are the
//! rules of the size-1 agent on the map whose open cells are the cells
//! open to size `k`, so a graph for a size ([`GridGraph::with_size`]) is
//! that map, and every search and table runs on it unchanged: a size costs
//! its own tables, nothing per query.
//!
//! The clearance of a cell is the side of the largest free block anchored
//! there: 0 on a wall, `1 + min(east, south, south-east)` otherwise. It is
//! kept capped at the graph's size, so that an edit of one cell changes at
//! most the `k` x `k` cells whose blocks hold it.
//!
//! [`GridGraph::with_size`]: super::GridGraph::with_size

use std::fmt;

/// The largest agent size: a clearance is kept in a byte per cell.
pub const MAX_AGENT_SIZE: u32 = 255;

/// Why [`GridGraph::with_size`](super::GridGraph::with_size) refused a
/// size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSizeError {
    /// The size is 0 or above [`MAX_AGENT_SIZE`].
    OutOfRange(u32),
    /// The graph has terrain costs: what a block larger than a cell pays to
    /// cross cells of different costs is not defined yet.
    Terrain,
}

impl fmt::Display for AgentSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSizeError::OutOfRange(size) => {
                write!(f, "agent size {size} is not from 1 to {MAX_AGENT_SIZE}")
            }
            AgentSizeError::Terrain => f.write_str(
                "agents larger than one cell take maps without terrain costs (what a \
                 block pays across cells of different costs is not defined)",
            ),
        }
    }
}

impl std::error::Error for AgentSizeError {}

/// The clearance of every cell, capped at a size: a byte per cell, row
/// major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clearance {
    width: u32,
    height: u32,
    cap: u8,
    cells: Vec<u8>,
}

impl Clearance {
    /// The clearances, capped at `cap`, of the `width` x `height` cells
    /// whose passability `open` gives. `O(cells)`.
    pub(crate) fn new(width: u32, height: u32, cap: u8, open: impl Fn(u32, u32) -> bool) -> Self {
        let mut c = Clearance {
            width,
            height,
            cap,
            cells: vec![0; width as usize * height as usize],
        };
        if width > 0 {
            c.recompute(0..width, 0..height, open);
        }
        c
    }

    /// The clearance of `(x, y)` (0 off the map).
    #[inline]
    pub(crate) fn get(&self, x: u32, y: u32) -> u8 {
        if x < self.width && y < self.height {
            self.cells[y as usize * self.width as usize + x as usize]
        } else {
            0
        }
    }

    /// Recomputes the clearances after the passability of `(x, y)` changed
    /// to what `open` now gives, and returns the block of cells whose
    /// clearance may have changed: `(x0..=x, y0..=y)`, the anchors of the
    /// blocks up to `cap` wide that hold the cell.
    pub(crate) fn update(
        &mut self, x: u32, y: u32, open: impl Fn(u32, u32) -> bool,
    ) -> (std::ops::RangeInclusive<u32>, std::ops::RangeInclusive<u32>) {
        let reach = u32::from(self.cap).saturating_sub(1);
        let (x0, y0) = (x.saturating_sub(reach), y.saturating_sub(reach));
        self.recompute(x0..x + 1, y0..y + 1, open);
        (x0..=x, y0..=y)
    }

    /// Recomputes the cells of the block `xs` x `ys` from the south-east,
    /// each from its east, south and south-east neighbours (outside the
    /// block: kept values).
    fn recompute(
        &mut self, xs: std::ops::Range<u32>, ys: std::ops::Range<u32>,
        open: impl Fn(u32, u32) -> bool,
    ) {
        for y in ys.rev() {
            for x in xs.clone().rev() {
                let value = if open(x, y) {
                    let around = self
                        .get(x + 1, y)
                        .min(self.get(x, y + 1))
                        .min(self.get(x + 1, y + 1));
                    around.saturating_add(1).min(self.cap)
                } else {
                    0
                };
                self.cells[y as usize * self.width as usize + x as usize] = value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The clearance by its definition: the largest free block anchored at
    /// `(x, y)`, capped.
    fn by_definition(open: &[Vec<bool>], col: usize, row: usize, cap: u8) -> u8 {
        let (rows, cols) = (open.len(), open[0].len());
        let mut side = 0;
        while side < usize::from(cap)
            && col + side < cols
            && row + side < rows
            && (0..=side).all(|i| (0..=side).all(|j| open[row + j][col + i]))
        {
            side += 1;
        }
        side as u8
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Built and then edited cell by cell, the clearances are those of
        /// the definition.
        #[test]
        fn clearances_match_their_definition_after_edits(
            (w, h, mut open) in (1usize..9, 1usize..9).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), proptest::collection::vec(
                    proptest::collection::vec(proptest::bool::weighted(0.8), w), h))
            }),
            cap in 1u8..5,
            edits in proptest::collection::vec((0usize..9, 0usize..9), 0..12),
        ) {
            let check = |c: &Clearance, open: &[Vec<bool>]| -> Result<(), TestCaseError> {
                for y in 0..h {
                    for x in 0..w {
                        prop_assert_eq!(
                            c.get(x as u32, y as u32), by_definition(open, x, y, cap),
                            "({}, {})", x, y
                        );
                    }
                }
                Ok(())
            };
            let mut c = {
                let o = open.clone();
                Clearance::new(w as u32, h as u32, cap, |x, y| o[y as usize][x as usize])
            };
            check(&c, &open)?;
            for (ex, ey) in edits.into_iter().map(|(x, y)| (x % w, y % h)) {
                open[ey][ex] = !open[ey][ex];
                let o = open.clone();
                c.update(ex as u32, ey as u32, |x, y| o[y as usize][x as usize]);
                check(&c, &open)?;
            }
        }
    }
}
