//! Bringing a jump table up to date after wall edits, near the edits
//! instead of over the whole grid.
//!
//! An entry depends on its own cell's moves, on whether the next cell along
//! its direction is a jump point, and on the next cell's entry. An edit
//! changes the moves of the edited cell and of its eight neighbours; from
//! those cells the change runs backwards along each direction, entry by
//! entry, and stops where a recomputed entry is what it was. Straight
//! entries are repaired first: where a cell's straight entry turns into a
//! jump point or stops being one, the diagonal entries that look at it
//! change too.

use super::{JumpTable, Rules, Stop, step_entry};
use crate::graph::NodeId;
use crate::grid::{DIRECTIONS, GridGraph};

impl JumpTable {
    /// Brings the table up to date with `graph` after the cells `edited`
    /// changed (walls added or removed, in any number and order, with
    /// [`GridGraph::set_tile`]): afterwards it equals
    /// [`JumpTable::build`] on `graph`. The work is the entries that
    /// change, plus one entry per direction where each change stops; a
    /// cell off the grid is ignored.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::search::JumpTable;
    ///
    /// let mut graph = GridGraph::new(Grid::from_ascii("......\n......\n......").unwrap(), Neighborhood::Octile);
    /// let mut table = JumpTable::build(&graph);
    /// graph.set_tile(2, 1, Tile::OutOfBounds);
    /// table.repair(&graph, &[graph.node(2, 1).unwrap()]);
    /// assert_eq!(table, JumpTable::build(&graph));
    /// ```
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn repair(&mut self, graph: &GridGraph, edited: &[NodeId]) {
        assert!(
            self.fits(graph),
            "a jump table repaired on a grid of another size or movement rule"
        );
        let rules = Rules::of(self.neighborhood);
        // The cells whose moves may have changed: each edited cell and its
        // eight neighbours.
        let moved = graph.around(edited.iter().map(|e| e.index()));
        // The directions whose stops read the moves alone first, noting
        // the cells whose entry became or stopped being a jump point; then
        // those whose stops read the entries of their sides there.
        let mut turned: [Vec<usize>; 8] = Default::default();
        for fanned in [false, true] {
            for d in 0..8 {
                let stop = Stop::of(rules, d);
                let sides = match stop {
                    Stop::Never => continue,
                    Stop::Sides { .. } if !fanned => continue,
                    Stop::Forced { .. } if fanned => continue,
                    Stop::Sides { a, b, .. } => {
                        let mut sides: Vec<usize> =
                            turned[a].iter().chain(&turned[b]).copied().collect();
                        sides.sort_unstable();
                        sides.dedup();
                        sides
                    }
                    Stop::Forced { .. } => Vec::new(),
                };
                let seeds = self.seeds(d, &moved, &sides);
                let jumps = |table: &JumpTable, cur: usize, next: usize| {
                    let moves = |c: usize| graph.moves(NodeId(c as u32));
                    stop.is_jump(d, moves(cur), moves(next), |s| table.jumps[8 * next + s])
                };
                let turned = &mut turned[d];
                self.rerun(graph, d, seeds, jumps, |c, before, after| {
                    if (before > 0) != (after > 0) {
                        turned.push(c);
                    }
                });
            }
        }
    }

    /// The cells whose entry in direction `d` must be computed again: the
    /// cells in `moved`, the cells whose next cell is in `moved`, and the
    /// cells whose next cell is in `next_changed`; ordered so that a cell
    /// comes after the cells it reads (the next ones along `d`): by row,
    /// from the side the runs go to, for a move that changes row, else
    /// by column, from the side the runs go to.
    fn seeds(&self, d: usize, moved: &[usize], next_changed: &[usize]) -> Vec<usize> {
        let (cols, rows) = (self.width as usize, self.height as usize);
        let (dx, dy) = DIRECTIONS[d];
        let order = |c: usize| -> u64 {
            let (x, y) = (c % cols, c / cols);
            let first = match (dx, dy) {
                (_, 1) => rows - 1 - y,
                (_, -1) => y,
                (1, _) => cols - 1 - x,
                _ => x,
            };
            // A cell index fits 32 bits (node ids are `u32`).
            ((first as u64) << 32) | c as u64
        };
        let mut seeds: Vec<u64> = moved.iter().map(|&c| order(c)).collect();
        for &c in moved.iter().chain(next_changed) {
            let (px, py) = (
                (c % cols) as i64 - i64::from(dx),
                (c / cols) as i64 - i64::from(dy),
            );
            if (0..cols as i64).contains(&px) && (0..rows as i64).contains(&py) {
                seeds.push(order(py as usize * cols + px as usize));
            }
        }
        seeds.sort_unstable();
        seeds.dedup();
        seeds
            .into_iter()
            .map(|k| (k & u64::from(u32::MAX)) as usize)
            .collect()
    }

    /// Computes the entries of direction `d` again from the seeds (in the
    /// order of [`seeds`](Self::seeds)) backwards along the runs, while
    /// they change; `jumps(table, c, next)` says whether `next` is a jump
    /// point for a move from `c`, and `changed(c, before, after)` hears of
    /// each entry that changed. A move that changes row is repaired a row
    /// at a time, so that the entries read lie side by side in memory
    /// (following one run reads a cache line, and often a page, per step).
    fn rerun(
        &mut self, graph: &GridGraph, d: usize, seeds: Vec<usize>,
        jumps: impl Fn(&JumpTable, usize, usize) -> bool, mut changed: impl FnMut(usize, i16, i16),
    ) {
        let cols = self.width as usize;
        // Directions are -1, 0 or 1.
        let (dx, dy) = (DIRECTIONS[d].0 as isize, DIRECTIONS[d].1 as isize);
        let step = dy * cols as isize + dx;
        // The entry of `c` (whose move `d` leads to `c + step` when it
        // has it) again: whether it changed.
        let mut redo = |table: &mut JumpTable, c: usize| -> bool {
            let entry = if graph.moves(NodeId(c as u32)) & (1 << d) == 0 {
                0
            } else {
                let next = c.wrapping_add_signed(step);
                step_entry(jumps(table, c, next), table.jumps[8 * next + d])
            };
            let before = table.jumps[8 * c + d];
            if entry == before {
                return false;
            }
            table.jumps[8 * c + d] = entry;
            changed(c, before, entry);
            true
        };
        if dy == 0 {
            // Along a row: each seed's run backwards, cell by cell.
            for seed in seeds {
                let (mut x, y) = ((seed % cols) as isize, seed / cols);
                while (0..cols as isize).contains(&x) && redo(self, y * cols + x as usize) {
                    // The cells behind read this one, changed.
                    x -= dx;
                }
            }
            return;
        }
        // Row by row from the side the runs go to: the cells to redo in
        // this row (a bit per column), and those the changes make dirty
        // in the next row, each a cell behind a changed one.
        let words = cols.div_ceil(64);
        let (mut dirty, mut next) = (vec![0u64; words], vec![0u64; words]);
        let mut seeds = seeds.into_iter().peekable();
        let Some(&first) = seeds.peek() else {
            return;
        };
        let mut y = first / cols;
        loop {
            while let Some(c) = seeds.next_if(|&c| c / cols == y) {
                let x = c % cols;
                dirty[x / 64] |= 1 << (x % 64);
            }
            let mut any = false;
            for (w, word) in dirty.iter_mut().enumerate() {
                let mut bits = std::mem::take(word);
                while bits != 0 {
                    let x = 64 * w + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let redone = redo(self, y * cols + x);
                    // The cell behind reads this one, changed.
                    if let Some(behind) = x.checked_add_signed(-dx).filter(|&b| redone && b < cols)
                    {
                        next[behind / 64] |= 1 << (behind % 64);
                        any = true;
                    }
                }
            }
            std::mem::swap(&mut dirty, &mut next);
            // The next row: behind this one, or the next seed's when no
            // change goes on.
            let behind = y
                .checked_add_signed(-dy)
                .filter(|&b| b < self.height as usize);
            y = match (any, behind, seeds.peek()) {
                (true, Some(b), _) => b,
                (_, _, Some(&c)) => {
                    dirty.fill(0);
                    c / cols
                }
                _ => return,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::grid::{Neighborhood, Tile};
    use crate::search::testing::{scattered, walled};

    proptest! {
        /// Any sequence of wall edits, repaired after each batch, leaves the
        /// table the build of the edited grid would give, under every
        /// movement rule.
        #[test]
        fn repaired_tables_equal_built_ones(
            (graph, _) in scattered(24, 600),
            rule in prop::sample::select(&Neighborhood::ALL[..]),
            batches in prop::collection::vec(prop::collection::vec((any::<u32>(), any::<u32>()), 1..4), 1..6),
        ) {
            let mut graph = graph.with_neighborhood(rule);
            let (w, h) = (graph.width(), graph.height());
            let mut table = JumpTable::build(&graph);
            for batch in batches {
                let mut edited = Vec::new();
                for (x, y) in batch {
                    let (x, y) = (x % w, y % h);
                    let n = graph.node(x, y).unwrap();
                    let tile = if graph.is_passable(n) { Tile::OutOfBounds } else { Tile::Ground };
                    graph.set_tile(x, y, tile);
                    edited.push(n);
                }
                table.repair(&graph, &edited);
                prop_assert_eq!(&table, &JumpTable::build(&graph));
            }
        }
    }

    /// Cells by the grid's edges, closed and opened one at a time: the
    /// runs of cells whose next cell is off the grid.
    #[test]
    fn edits_by_the_edges() {
        for rule in Neighborhood::ALL {
            edits_by_the_edges_under(rule);
        }
    }

    fn edits_by_the_edges_under(rule: Neighborhood) {
        let mut graph = walled(12, 9, |x, y| (x + 2 * y) % 7 == 3).with_neighborhood(rule);
        let mut table = JumpTable::build(&graph);
        let (w, h) = (graph.width(), graph.height());
        let edges = (0..w).flat_map(|x| [(x, 0), (x, 1), (x, h - 2), (x, h - 1)]);
        let sides = (0..h).flat_map(|y| [(0, y), (1, y), (w - 2, y), (w - 1, y)]);
        for (x, y) in edges.chain(sides) {
            let n = graph.node(x, y).unwrap();
            for _ in 0..2 {
                let tile = if graph.is_passable(n) {
                    Tile::OutOfBounds
                } else {
                    Tile::Ground
                };
                graph.set_tile(x, y, tile);
                table.repair(&graph, &[n]);
                assert_eq!(
                    table,
                    JumpTable::build(&graph),
                    "({x}, {y}) made {tile:?} under {rule:?}"
                );
            }
        }
    }

    #[test]
    fn a_wall_across_an_open_map_and_back() {
        let mut graph = walled(40, 30, |_, _| false);
        let mut table = JumpTable::build(&graph);
        let mut edited = Vec::new();
        for y in 0..29 {
            graph.set_tile(20, y, Tile::OutOfBounds);
            edited.push(graph.node(20, y).unwrap());
        }
        table.repair(&graph, &edited);
        assert_eq!(table, JumpTable::build(&graph));
        for &n in &edited {
            let (x, y) = graph.coords(n);
            graph.set_tile(x, y, Tile::Ground);
        }
        table.repair(&graph, &edited);
        assert_eq!(table, JumpTable::build(&graph));
    }
}
