//! Saving goal-bounding tables to disk and loading them back, in the
//! saved-table format every table kind shares ([`crate::saved`]): a magic,
//! a version, the map's hash, checked sizes and a trailing checksum.
//!
//! The format is described at [`GoalBounds::save`].

use std::io::{self, Write};

use super::{Box4, GoalBounds, arrivals, jump_points};
use crate::graph::NodeId;
use crate::grid::GridGraph;
use crate::saved::{
    FileError, FileErrorKind, Hashing, TableKind, grid_table_writer, read_cells, read_grid_table,
    read_words,
};
use crate::search::JumpTable;

/// What the file holds.
const KIND: TableKind = TableKind::Bounds;

impl GoalBounds {
    /// The version of the file format that [`save`](Self::save) writes and
    /// [`load_for`](Self::load_for) reads.
    pub const FILE_VERSION: u32 = 2;

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
        let boxed: Vec<NodeId> = self
            .points
            .iter()
            .copied()
            .filter(|p| self.slots[p.index()] != super::NONE)
            .collect();
        out.put_cells(&boxed)?;
        for p in &boxed {
            let slot = self.slots[p.index()] as usize;
            for b in &self.boxes[8 * slot..8 * slot + 8] {
                for v in b {
                    out.put(&v.to_le_bytes())?;
                }
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
    /// the checksum is verified, and so is every cell the file names: each
    /// must be one of the map's jump points, in increasing order. A box
    /// holds any coordinates (it is only compared with the goal's).
    ///
    /// # Errors
    ///
    /// A [`FileError`] whose [`kind`](FileError::kind) names the first
    /// problem found, in file order: bad magic, unsupported version, map
    /// hash mismatch, size mismatch, bad count, truncation, checksum
    /// mismatch, then a cell that is not one of the map's jump points
    /// ([`BadJumpPoint`](FileErrorKind::BadJumpPoint)).
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
        r: impl io::Read,
        graph: &GridGraph,
        expected_map_hash: u64,
    ) -> Result<GoalBounds, FileError> {
        let header = (KIND, Self::FILE_VERSION, expected_map_hash);
        read_grid_table(r, header, graph, read_bounds, |read| {
            check_bounds(read, graph)
        })
    }
}

/// [`GoalBounds::load_for`]'s body: the boxed cells, then their boxes (8
/// of 4 words each per cell).
fn read_bounds<R: io::Read>(
    r: &mut Hashing<R>,
    size: (u32, u32),
) -> Result<(Vec<u32>, Vec<u16>), FileError> {
    let cells = read_cells(r, size)?;
    let words = read_words(r, 32 * cells.len(), u16::from_le_bytes)?;
    Ok((cells, words))
}

/// Checks what [`read_bounds`] read against `graph` and builds the table:
/// each cell must be a jump point of the map, after the one before it.
fn check_bounds(
    (cells, words): (Vec<u32>, Vec<u16>),
    graph: &GridGraph,
) -> Result<GoalBounds, FileError> {
    let jumps = JumpTable::build(graph);
    let points = jump_points(graph, &jumps, &arrivals(&jumps));
    let mut table = GoalBounds::empty(graph, jumps, points);
    let mut next = 0;
    for (i, &c) in cells.iter().enumerate() {
        let at = table.points[next..].binary_search(&NodeId(c));
        let Ok(at) = at else {
            return Err(FileErrorKind::BadJumpPoint {
                index: i as u64,
                node: c,
            }
            .into());
        };
        let boxes: Vec<Box4> = words[32 * i..32 * i + 32]
            .chunks_exact(4)
            .map(|b| [b[0], b[1], b[2], b[3]])
            .collect();
        table.set(next + at, &boxes);
        next += at + 1;
    }
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

    #[test]
    fn round_trips_full_and_partial() {
        let (g, t, hash) = table();
        assert!(t.boxed() > 0);
        let b = written(|w| t.save(w, hash));
        assert_eq!(b.len(), 32 + 68 * t.boxed() + 8);
        assert_eq!(&b[..8], b"CAIRNSGB");
        assert_eq!(GoalBounds::load_for(&b[..], &g, hash).unwrap(), t);
        let half = GoalBounds::build_where(&g, |n| n.0 % 2 == 1);
        assert!(half.boxed() < t.boxed());
        let b = written(|w| half.save(w, hash));
        assert_eq!(GoalBounds::load_for(&b[..], &g, hash).unwrap(), half);
        // A larger map crosses the write blocks.
        let big = large_map();
        let t = GoalBounds::build(&big);
        let b = written(|w| t.save(w, 5));
        assert!(b.len() > 1 << 16);
        assert_eq!(GoalBounds::load_for(&b[..], &big, 5).unwrap(), t);
    }

    /// A checksum protects against accidents, not against a file written
    /// to mislead: a cell off the grid would make a search index out of
    /// bounds, and one that is not a jump point (or out of order) says the
    /// file is not this map's table, so each is checked.
    #[test]
    fn cells_that_are_not_the_maps_jump_points_are_refused() {
        let (g, t, hash) = table();
        for (i, bad) in [(0, u32::MAX), (0, 3)] {
            let mut b = written(|w| t.save(w, hash));
            b[32 + 4 * i..36 + 4 * i].copy_from_slice(&bad.to_le_bytes());
            reseal(&mut b);
            assert_eq!(
                kind(GoalBounds::load_for(&b[..], &g, hash)),
                FileErrorKind::BadJumpPoint {
                    index: i as u64,
                    node: bad
                }
            );
        }
        // Two cells out of order.
        assert!(t.boxed() >= 2);
        let mut b = written(|w| t.save(w, hash));
        let (first, second) = (b[32..36].to_vec(), b[36..40].to_vec());
        b[32..36].copy_from_slice(&second);
        b[36..40].copy_from_slice(&first);
        reseal(&mut b);
        assert!(matches!(
            kind(GoalBounds::load_for(&b[..], &g, hash)),
            FileErrorKind::BadJumpPoint { index: 1, .. }
        ));
    }
}
