//! Line of sight between cell centres, and string pulling: the geometry of
//! any-angle paths on a grid.
//!
//! # The rule
//!
//! Cells are closed unit squares; a cell's point is its centre. The straight
//! segment between two centres has *line of sight* when it touches no
//! blocked cell and does not leave the map: not its inside, and not even one
//! of its corners. A segment between centres can never run along a cell's
//! edge (the centres are half-way between grid lines), so it touches a cell
//! it does not enter only where it passes exactly through a grid corner;
//! there all four cells around the corner must be passable.
//!
//! This is the octile movement rule without corner cutting carried over to
//! straight lines: a diagonal step between two cells has line of sight
//! exactly when [`GridGraph`] allows it, so every octile grid path is a chain
//! of segments with line of sight, and string pulling never makes a path
//! longer. Squeezing diagonally between two blocked cells that touch at a
//! corner is refused, and so is grazing a single blocked corner.

use std::cmp::Ordering;

use super::GridGraph;
use crate::graph::NodeId;

impl GridGraph {
    /// Whether the segment between the centres of cells `a` and `b` has line
    /// of sight: it touches no blocked cell, not even at a corner. `false`
    /// when either cell is off the map or blocked.
    ///
    /// Walks the cells the segment touches in order, deciding which grid
    /// line it crosses next with exact integer arithmetic: `O(|dx| + |dy|)`.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("
    ///     ....
    ///     .@..
    ///     ....
    /// ").unwrap(), Neighborhood::Octile);
    /// let at = |x, y| graph.node(x, y).unwrap();
    /// assert!(graph.line_of_sight(at(0, 0), at(3, 0)));  // along the top row
    /// assert!(!graph.line_of_sight(at(0, 0), at(2, 2))); // through the wall
    /// assert!(!graph.line_of_sight(at(0, 0), at(1, 2))); // enters the wall cell
    /// assert!(!graph.line_of_sight(at(1, 0), at(2, 1))); // grazes its corner
    /// assert!(graph.line_of_sight(at(2, 0), at(3, 2)));
    /// ```
    pub fn line_of_sight(&self, a: NodeId, b: NodeId) -> bool {
        if !self.is_passable(a) || !self.is_passable(b) {
            return false;
        }
        // One walk per kind of cell store, so the passability test inlines.
        match self.terrain_costs() {
            None => {
                let tiles = self.grid().tiles();
                self.walk_in_sight(a, b, |i| tiles[i].is_passable())
            }
            Some(cells) => self.walk_in_sight(a, b, |i| cells[i].is_finite()),
        }
    }

    /// [`line_of_sight`](Self::line_of_sight)'s walk between two passable
    /// cells, by cell index: every cell it visits lies in the bounding box
    /// of `a` and `b`, so on the map.
    #[inline]
    #[allow(clippy::many_single_char_names)] // a, b, an index and counters, as in the geometry
    fn walk_in_sight(&self, a: NodeId, b: NodeId, open: impl Fn(usize) -> bool) -> bool {
        let (x0, y0) = self.coords(a);
        let (x1, y1) = self.coords(b);
        let width = self.width() as usize;
        let (dx, dy) = (i64::from(x1) - i64::from(x0), i64::from(y1) - i64::from(y0));
        let (adx, ady) = (dx.unsigned_abs(), dy.unsigned_abs());
        // The index steps of one cell across and one cell down the segment.
        let step_x = if dx < 0 { usize::MAX } else { 1 }; // -1 or +1, wrapping
        let step_y = if dy < 0 { width.wrapping_neg() } else { width };
        let mut i = a.index();
        // The k-th vertical grid line is crossed at t = (2k - 1) / (2 adx),
        // the m-th horizontal one at t = (2m - 1) / (2 ady).
        let (mut k, mut m) = (1u64, 1u64);
        while k <= adx || m <= ady {
            let next = if k > adx {
                Ordering::Greater
            } else if m > ady {
                Ordering::Less
            } else {
                ((2 * k - 1) * ady).cmp(&((2 * m - 1) * adx))
            };
            match next {
                Ordering::Less => {
                    i = i.wrapping_add(step_x);
                    k += 1;
                }
                Ordering::Greater => {
                    i = i.wrapping_add(step_y);
                    m += 1;
                }
                Ordering::Equal => {
                    // Through a grid corner: the two cells beside it too.
                    if !open(i.wrapping_add(step_x)) || !open(i.wrapping_add(step_y)) {
                        return false;
                    }
                    i = i.wrapping_add(step_x).wrapping_add(step_y);
                    k += 1;
                    m += 1;
                }
            }
            if !open(i) {
                return false;
            }
        }
        true
    }

    /// The straight-line distance between the centres of two cells.
    pub fn euclidean_distance(&self, a: NodeId, b: NodeId) -> f64 {
        let (x0, y0) = self.coords(a);
        let (x1, y1) = self.coords(b);
        (f64::from(x0) - f64::from(x1)).hypot(f64::from(y0) - f64::from(y1))
    }

    /// The length of the polyline through the centres of `points`: the sum
    /// of the straight-line distances between consecutive points (0 for
    /// fewer than two).
    pub fn polyline_length(&self, points: &[NodeId]) -> f64 {
        points
            .windows(2)
            .map(|w| self.euclidean_distance(w[0], w[1]))
            .sum()
    }

    /// String pulling: writes into `out` (cleared first) the corners of a
    /// path through the centres of `path`'s cells that keeps only the
    /// turns: from each corner, the path goes straight to the farthest
    /// later cell of `path` such that every cell up to it is in
    /// [line of sight](Self::line_of_sight) of the corner (greedy, one pass).
    ///
    /// Each straight segment replaces a part of `path` between the same two
    /// cells, so when consecutive cells of `path` are in line of sight of
    /// each other (any octile or 4-connected grid path is), the result is
    /// never longer than `path` by [`polyline_length`](Self::polyline_length)
    /// and every segment of it has line of sight. Two consecutive cells
    /// without line of sight (a path of jump points) are kept as they are.
    /// `O(n * L)` for `n` cells and segments of `L` cells.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::heuristic::Octile;
    /// use cairns::search::{AStar, Search, SearchCache};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("
    ///     .......
    ///     .......
    ///     .......
    /// ").unwrap(), Neighborhood::Octile);
    /// let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(6, 2).unwrap());
    /// let path = AStar::new(&graph, Octile::new(&graph))
    ///     .search(start, goal, &mut SearchCache::new())
    ///     .unwrap();
    /// let mut corners = Vec::new();
    /// graph.pull_string(&path.nodes, &mut corners);
    /// assert_eq!(corners, [start, goal]); // one straight line
    /// assert!(graph.polyline_length(&corners) < path.cost);
    /// ```
    pub fn pull_string(&self, path: &[NodeId], out: &mut Vec<NodeId>) {
        out.clear();
        let Some(&first) = path.first() else {
            return;
        };
        out.push(first);
        let mut anchor = 0;
        for j in 1..path.len() {
            if !self.line_of_sight(path[anchor], path[j]) {
                // The previous cell was the farthest in sight; if that is the
                // anchor itself, keep the path's own step.
                anchor = if j - 1 > anchor { j - 1 } else { j };
                out.push(path[anchor]);
            }
        }
        if anchor + 1 < path.len() {
            out.push(path[path.len() - 1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::grid::Neighborhood;

    fn graph(ascii: &str) -> GridGraph {
        GridGraph::from_ascii(ascii, Neighborhood::Octile).unwrap()
    }

    #[test]
    fn line_of_sight_table() {
        let g = graph(
            "
            ......
            .@....
            ...@..
            ......
            @.....
            ",
        );
        let at = |x, y| g.node(x, y).unwrap();
        // (from, to, expected, why)
        let table = [
            ((0, 0), (0, 0), true, "a cell sees itself"),
            ((1, 1), (1, 1), false, "a blocked cell sees nothing"),
            ((0, 0), (5, 0), true, "straight along an open row"),
            ((0, 1), (5, 1), false, "straight through a wall cell"),
            (
                (0, 0),
                (2, 2),
                false,
                "diagonal through the wall cell's inside",
            ),
            (
                (1, 0),
                (2, 1),
                false,
                "diagonal step grazing the wall's corner",
            ),
            (
                (0, 1),
                (1, 2),
                false,
                "diagonal step grazing the wall's corner",
            ),
            (
                (2, 0),
                (5, 3),
                false,
                "long diagonal grazing the corner of (3, 2)",
            ),
            (
                (0, 2),
                (5, 0),
                false,
                "shallow line crossing the wall (1, 1)",
            ),
            ((0, 3), (5, 3), true, "open row under the walls"),
            (
                (0, 3),
                (5, 1),
                false,
                "through the corner between (2, 2) and (3, 2)",
            ),
            ((1, 3), (5, 1), false, "passes through the corner of (3, 2)"),
            ((4, 0), (5, 4), true, "steep line on the open right side"),
            (
                (0, 3),
                (1, 4),
                false,
                "diagonal step beside the wall (0, 4)",
            ),
            ((1, 4), (5, 2), true, "shallow line along the bottom"),
            ((2, 0), (4, 1), true, "knight's move above (3, 2)"),
            ((2, 1), (4, 3), false, "corner-to-corner across (3, 2)"),
        ];
        for ((a, b, want, why), i) in table.iter().zip(0..) {
            let (a, b) = (at(a.0, a.1), at(b.0, b.1));
            assert_eq!(g.line_of_sight(a, b), *want, "row {i}: {why}");
            assert_eq!(g.line_of_sight(b, a), *want, "row {i} reversed: {why}");
        }
    }

    #[test]
    #[allow(clippy::many_single_char_names)]
    fn a_diagonal_step_has_sight_exactly_when_the_grid_allows_it() {
        let g = graph(
            "
            .@..@
            ..@..
            @....
            ..@.@
            ",
        );
        for n in 0..g.node_bound() as u32 {
            let n = NodeId(n);
            let (x, y) = g.coords(n);
            for (d, &(dx, dy)) in crate::grid::DIRECTIONS.iter().enumerate() {
                let (nx, ny) = (i64::from(x) + i64::from(dx), i64::from(y) + i64::from(dy));
                let Some(m) = u32::try_from(nx)
                    .ok()
                    .zip(u32::try_from(ny).ok())
                    .and_then(|(nx, ny)| g.node(nx, ny))
                else {
                    continue;
                };
                let legal = g.is_passable(n) && g.moves(n) & (1 << d) != 0;
                assert_eq!(
                    g.line_of_sight(n, m),
                    legal,
                    "{:?} -> {:?}",
                    (x, y),
                    (nx, ny)
                );
            }
        }
    }

    #[test]
    fn string_pulling_keeps_turns_and_endpoints() {
        let g = graph(
            "
            .....
            .@@@.
            .....
            ",
        );
        let at = |x, y| g.node(x, y).unwrap();
        // Down the left side and along the bottom.
        let path = [
            at(0, 0),
            at(0, 1),
            at(0, 2),
            at(1, 2),
            at(2, 2),
            at(3, 2),
            at(4, 2),
        ];
        let mut out = Vec::new();
        g.pull_string(&path, &mut out);
        assert_eq!(out, [at(0, 0), at(0, 2), at(4, 2)]);
        g.pull_string(&path[..1], &mut out);
        assert_eq!(out, [at(0, 0)]);
        g.pull_string(&[], &mut out);
        assert!(out.is_empty());
        // Two cells without sight between them (jump points) stay.
        g.pull_string(&[at(0, 0), at(4, 2)], &mut out);
        assert_eq!(out, [at(0, 0), at(4, 2)]);
        assert!((g.polyline_length(&[at(0, 0), at(0, 2), at(4, 2)]) - 6.0).abs() < 1e-12);
    }
}
