//! Saving goal-bounding tables to disk and loading them back, in the
//! saved-table format every table kind shares ([`crate::saved`]): a magic,
//! a version, the map's hash, checked sizes and a trailing checksum.
//!
//! The format is described at [`GoalBounds::save`].

use std::io::{self, Write};

use super::GoalBounds;
use crate::grid::GridGraph;
use crate::saved::{
    FileError, FileErrorKind, Hashing, TableKind, grid_table_writer, read_array, read_grid_table,
    read_u32, read_words,
};
use crate::search::JumpTable;
use crate::search::boxes::{Box4, EMPTY, box_bytes, box_from_bytes};

/// What the file holds.
const KIND: TableKind = TableKind::Bounds;

impl GoalBounds {
    /// The version of the file format that [`save`](Self::save) writes and
    /// [`load_for`](Self::load_for) reads.
    pub const FILE_VERSION: u32 = 3;

    /// Saves the boxes, tagged with `map_hash` ([`grid_hash`] of the grid
    /// under octile movement, for a grid), in `O(jump points)` time.
    ///
    /// The format, `CAIRNSGB`, is in [the saved-table formats](crate::saved#the-formats).
    ///
    /// [`grid_hash`]: crate::saved::grid_hash
    ///
    /// # Errors
    ///
    /// Those of `w`.
    pub fn save(&self, w: impl Write, map_hash: u64) -> io::Result<()> {
        let header = (KIND, Self::FILE_VERSION, map_hash);
        let size = (self.jumps.width(), self.jumps.height());
        let mut out = grid_table_writer(w, header, size)?;
        out.put(&(self.points().len() as u32).to_le_bytes())?;
        let mut marks = vec![0u8; self.points().len().div_ceil(8)];
        for (i, &p) in self.points().iter().enumerate() {
            if self.boxes_at(p).is_some() {
                marks[i / 8] |= 1 << (i % 8);
            }
        }
        out.put(&marks)?;
        for boxes in self.points().iter().filter_map(|&p| self.boxes_at(p)) {
            let held = (0..8).filter(|&d| !is_empty(boxes[d]));
            out.put(&[held.clone().fold(0u8, |mask, d| mask | 1 << d)])?;
            for d in held {
                out.put(&box_bytes(boxes[d]))?;
            }
        }
        out.finish()
    }

    /// Reads a table written by [`save`](Self::save) (which describes the
    /// format) for `graph`, checking that it was saved with
    /// `expected_map_hash` and has the graph's size, and builds the jump
    /// table of `graph`.
    ///
    /// Any input is safe: every field is checked, the sizes before
    /// anything is allocated for them, memory grows only as data arrives,
    /// and the checksum is verified. The file must count as many jump
    /// points as the map has, and mark none past the last. A box holds any
    /// coordinates (it is only compared with the goal's).
    ///
    /// # Errors
    ///
    /// A [`FileError`] whose [`kind`](FileError::kind) names the first
    /// problem found, in file order: bad magic, unsupported version, map
    /// hash mismatch, size mismatch, another count of jump points than the
    /// map's or a mark past the last
    /// ([`JumpPointCount`](FileErrorKind::JumpPointCount)), truncation,
    /// checksum mismatch.
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::saved::{FileErrorKind, grid_hash};
    /// use cairns::search::GoalBounds;
    ///
    /// let grid = Grid::from_ascii("
    ///     ....
    ///     .@@.
    ///     ....
    /// ").unwrap();
    /// let hash = grid_hash(&grid, Neighborhood::Octile);
    /// let graph = GridGraph::new(grid, Neighborhood::Octile);
    /// let table = GoalBounds::build(&graph);
    ///
    /// let mut bytes = Vec::new();
    /// table.save(&mut bytes, hash).unwrap();
    /// assert_eq!(GoalBounds::load_for(&bytes[..], &graph, hash).unwrap(), table);
    ///
    /// let err = GoalBounds::load_for(&bytes[..], &graph, hash ^ 1).unwrap_err();
    /// assert!(matches!(err.kind(), FileErrorKind::MapHashMismatch { .. }));
    /// ```
    pub fn load_for(
        r: impl io::Read, graph: &GridGraph, expected_map_hash: u64,
    ) -> Result<GoalBounds, FileError> {
        let header = (KIND, Self::FILE_VERSION, expected_map_hash);
        read_grid_table(r, header, graph, |r, _| read_bounds(r, graph), Ok)
    }
}

/// Whether a box holds no cell.
fn is_empty([min_x, min_y, max_x, max_y]: Box4) -> bool {
    min_x > max_x || min_y > max_y
}

/// [`GoalBounds::load_for`]'s body, read into the table of `graph`'s jump
/// points: their count (checked against the map's before anything is
/// read for them), the marks of those with boxes, then each one's mask of
/// boxes that hold cells and those boxes.
fn read_bounds<R: io::Read>(
    r: &mut Hashing<R>, graph: &GridGraph,
) -> Result<GoalBounds, FileError> {
    let jumps = JumpTable::build(graph);
    let mut table = GoalBounds::empty(graph, jumps);
    let expected = table.jump_points();
    let mut all = vec![None; expected];
    let count_error = |found: u64| FileErrorKind::JumpPointCount {
        expected: expected as u64,
        found,
    };
    let found = read_u32(r)?;
    if found as usize != expected {
        return Err(count_error(u64::from(found)).into());
    }
    let marks = read_words(r, expected.div_ceil(8), |[b]: [u8; 1]| b)?;
    let marked = |i: usize| marks[i / 8] & (1 << (i % 8)) != 0;
    if let Some(past) = (expected..8 * marks.len()).find(|&i| marked(i)) {
        return Err(count_error(past as u64 + 1).into());
    }
    for i in (0..expected).filter(|&i| marked(i)) {
        let [mask] = read_array(r)?;
        let mut held = read_words(r, mask.count_ones() as usize, box_from_bytes)?.into_iter();
        // `held` has a box for each bit of the mask.
        let boxes: [Box4; 8] = std::array::from_fn(|d| match mask & (1 << d) {
            0 => EMPTY,
            _ => held.next().unwrap_or(EMPTY),
        });
        all[i] = Some(boxes);
    }
    table.set_boxes(graph, &all);
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::saved::testing::{kind, reseal, small_map_table, written};
    use crate::search::testing::large_map;

    fn table() -> (GridGraph, GoalBounds, u64) {
        small_map_table(GoalBounds::build)
    }

    /// The bytes `save` writes for `t`: header, size and count (32), marks, then
    /// a mask and the boxes that hold cells for each jump point with boxes.
    fn expected_len(t: &GoalBounds) -> usize {
        let held: usize = (0..t.jump_points())
            .map(|i| t.points()[i])
            .filter_map(|p| t.bounds(p, 0).map(|_| p))
            .map(|p| 1 + 8 * (0..8).filter(|&d| !is_empty(box_of(t, p, d))).count())
            .sum();
        32 + t.jump_points().div_ceil(8) + held + 8
    }

    fn box_of(t: &GoalBounds, p: crate::graph::NodeId, d: usize) -> Box4 {
        let (min_x, min_y, max_x, max_y) = t.bounds(p, d).unwrap();
        [min_x, min_y, max_x, max_y]
    }

    #[test]
    fn round_trips_full_and_partial() {
        let (g, t, hash) = table();
        assert!(t.boxed() > 0);
        let b = written(|w| t.save(w, hash));
        assert_eq!(b.len(), expected_len(&t));
        // Fewer bytes than eight boxes per jump point: some boxes are empty.
        assert!(b.len() < 32 + 65 * t.boxed() + 8);
        assert_eq!(&b[..8], b"CAIRNSGB");
        assert_eq!(GoalBounds::load_for(&b[..], &g, hash).unwrap(), t);
        let half = GoalBounds::build_where(&g, |n| n.0 % 2 == 1);
        assert!(half.boxed() < t.boxed());
        let b = written(|w| half.save(w, hash));
        assert_eq!(b.len(), expected_len(&half));
        assert_eq!(GoalBounds::load_for(&b[..], &g, hash).unwrap(), half);
        // A larger map crosses the write blocks.
        let big = large_map();
        let t = GoalBounds::build(&big);
        let b = written(|w| t.save(w, 5));
        assert!(b.len() > 1 << 16);
        assert_eq!(GoalBounds::load_for(&b[..], &big, 5).unwrap(), t);
    }

    /// A checksum protects against accidents, not against a file written
    /// to mislead: a count of jump points other than the map's would read
    /// the marks wrong, and a mark past the last would name no jump point,
    /// so each is refused.
    #[test]
    fn counts_and_marks_that_do_not_fit_the_map_are_refused() {
        let (g, t, hash) = table();
        let points = t.jump_points() as u64;
        let mut b = written(|w| t.save(w, hash));
        b[28..32].copy_from_slice(&(points as u32 + 1).to_le_bytes());
        reseal(&mut b);
        assert_eq!(
            kind(GoalBounds::load_for(&b[..], &g, hash)),
            FileErrorKind::JumpPointCount {
                expected: points,
                found: points + 1
            }
        );
        // The small map's jump points leave bits of the last mark byte.
        assert_ne!(points % 8, 0);
        let mut b = written(|w| t.save(w, hash));
        let last = 32 + t.jump_points().div_ceil(8) - 1;
        b[last] |= 0x80;
        reseal(&mut b);
        assert_eq!(
            kind(GoalBounds::load_for(&b[..], &g, hash)),
            FileErrorKind::JumpPointCount {
                expected: points,
                found: 8 * points.div_ceil(8)
            }
        );
    }
}
