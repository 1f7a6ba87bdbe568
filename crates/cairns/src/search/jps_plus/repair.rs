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

use super::{JumpTable, forced, step_entry};
use crate::graph::{Graph, NodeId};
use crate::grid::{DIAGONAL_SIDES, DIRECTIONS, GridGraph};

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
            "a jump table repaired on a grid of another size"
        );
        let (cols, rows) = (i64::from(self.width), i64::from(self.height));
        // The cells whose moves may have changed: each edited cell and its
        // eight neighbours.
        let mut moved = Vec::with_capacity(9 * edited.len());
        for &e in edited.iter().filter(|e| e.index() < graph.node_bound()) {
            let (x, y) = graph.coords(e);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
                    if (0..cols).contains(&nx) && (0..rows).contains(&ny) {
                        moved.push((ny * cols + nx) as usize);
                    }
                }
            }
        }
        moved.sort_unstable();
        moved.dedup();
        // Straight directions first, noting the cells whose straight entry
        // became or stopped being a jump point.
        let mut turned = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        for (d, turned) in turned.iter_mut().enumerate() {
            let seeds = self.seeds(d, &moved, &[]);
            let jumps = |_: &JumpTable, cur: usize, next: usize| {
                forced(
                    graph.moves(NodeId(cur as u32)),
                    graph.moves(NodeId(next as u32)),
                    d,
                )
            };
            self.rerun(graph, d, seeds, jumps, |c, before, after| {
                if (before > 0) != (after > 0) {
                    turned.push(c);
                }
            });
        }
        for (i, &(a, b)) in DIAGONAL_SIDES.iter().enumerate() {
            let d = 4 + i;
            let mut sides: Vec<usize> = turned[a].iter().chain(&turned[b]).copied().collect();
            sides.sort_unstable();
            sides.dedup();
            let seeds = self.seeds(d, &moved, &sides);
            let jumps = |table: &JumpTable, _: usize, next: usize| {
                table.jumps[8 * next + a] > 0 || table.jumps[8 * next + b] > 0
            };
            self.rerun(graph, d, seeds, jumps, |_, _, _| {});
        }
    }

    /// The cells whose entry in direction `d` must be computed again: the
    /// cells in `moved`, the cells whose next cell is in `moved`, and the
    /// cells whose next cell is in `next_changed`; ordered so that a cell
    /// comes after the cell it reads (the next one along `d`).
    fn seeds(&self, d: usize, moved: &[usize], next_changed: &[usize]) -> Vec<usize> {
        let (cols, rows) = (i64::from(self.width), i64::from(self.height));
        let (dx, dy) = (i64::from(DIRECTIONS[d].0), i64::from(DIRECTIONS[d].1));
        let mut seeds: Vec<usize> = moved.to_vec();
        for &c in moved.iter().chain(next_changed) {
            let (x, y) = (c as i64 % cols, c as i64 / cols);
            let (px, py) = (x - dx, y - dy);
            if (0..cols).contains(&px) && (0..rows).contains(&py) {
                seeds.push((py * cols + px) as usize);
            }
        }
        // Along `d`, `dx x + dy y` grows by `dx² + dy²` a move: the larger
        // first.
        seeds.sort_unstable_by_key(|&c| {
            let (x, y) = (c as i64 % cols, c as i64 / cols);
            std::cmp::Reverse((dx * x + dy * y, c))
        });
        seeds.dedup();
        seeds
    }

    /// Computes the entries of direction `d` again from each seed (in the
    /// order given) backwards along the run, while they change;
    /// `jumps(table, c, next)` says whether `next` is a jump point for a
    /// move from `c`, and `changed(c, before, after)` hears of each entry
    /// that changed.
    fn rerun(
        &mut self,
        graph: &GridGraph,
        d: usize,
        seeds: Vec<usize>,
        jumps: impl Fn(&JumpTable, usize, usize) -> bool,
        mut changed: impl FnMut(usize, i16, i16),
    ) {
        let (cols, rows) = (i64::from(self.width), i64::from(self.height));
        let (dx, dy) = (i64::from(DIRECTIONS[d].0), i64::from(DIRECTIONS[d].1));
        for seed in seeds {
            let (mut x, mut y) = (seed as i64 % cols, seed as i64 / cols);
            while (0..cols).contains(&x) && (0..rows).contains(&y) {
                let c = (y * cols + x) as usize;
                let entry = if graph.moves(NodeId(c as u32)) & (1 << d) == 0 {
                    0
                } else {
                    let next = ((y + dy) * cols + x + dx) as usize;
                    step_entry(jumps(self, c, next), self.jumps[8 * next + d])
                };
                let before = self.jumps[8 * c + d];
                if entry == before {
                    // The cells behind read this one, unchanged: they are
                    // as they were, or seeds of their own.
                    break;
                }
                self.jumps[8 * c + d] = entry;
                changed(c, before, entry);
                (x, y) = (x - dx, y - dy);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::grid::Tile;
    use crate::search::testing::{scattered, walled};

    proptest! {
        /// Any sequence of wall edits, repaired after each batch, leaves the
        /// table the build of the edited grid would give.
        #[test]
        fn repaired_tables_equal_built_ones(
            (mut graph, _) in scattered(24, 600),
            batches in prop::collection::vec(prop::collection::vec((any::<u32>(), any::<u32>()), 1..4), 1..6),
        ) {
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
