//! Saving jump tables to disk and loading them back, in the saved-table
//! format every table kind shares ([`crate::saved`]): a magic, a version,
//! the map's hash, checked sizes and a trailing checksum.
//!
//! The format is described at [`JumpTable::save`].

use std::io::{self, Read, Write};

use super::JumpTable;
use crate::grid::{DIRECTIONS, Grid, GridGraph, Neighborhood};
use crate::saved::{
    FileError, FileErrorKind, Hashing, TableKind, check_sum, grid_table_writer, movement_code,
    movement_of_code, read_grid_size, read_header, read_table, read_u32, read_words,
};

/// The kind of a jump table's file.
const KIND: TableKind = TableKind::Jumps;

impl JumpTable {
    /// The version of the file format that [`save`](Self::save) writes and
    /// [`load`](Self::load) reads.
    pub const FILE_VERSION: u32 = 3;

    /// Writes the table in its saved format, tagged with
    /// `map_hash` (for a grid, [`grid_hash`](crate::saved::grid_hash)
    /// of the grid under the table's movement rule), and the rule. Writes
    /// in blocks of 64 KiB; `O(cells)` time.
    ///
    /// The format, `CAIRNSJP`, is in [the saved-table formats](crate::saved#the-formats).
    ///
    /// # Errors
    ///
    /// Any error of `w`.
    pub fn save(&self, w: impl Write, map_hash: u64) -> io::Result<()> {
        let header = (KIND, Self::FILE_VERSION, map_hash);
        let mut out = grid_table_writer(w, header, (self.width, self.height))?;
        out.put(&u32::from(movement_code(self.neighborhood)).to_le_bytes())?;
        for e in &self.jumps {
            out.put(&e.to_le_bytes())?;
        }
        out.finish()
    }

    /// Reads a table written by [`save`](Self::save) (which describes the
    /// format), checking that it was saved with `expected_map_hash`.
    ///
    /// Any input is safe: every field is checked, the size before anything
    /// is allocated for it, memory grows only as data arrives, the checksum
    /// is verified, and so is every entry (none leads off the grid), so a
    /// search never reads outside the graph. Wrap a file in a
    /// [`BufReader`](std::io::BufReader) for speed.
    ///
    /// # Errors
    ///
    /// A [`FileError`] whose [`kind`](FileError::kind)
    /// names the first problem found, in file order: bad magic, unsupported
    /// version, map hash mismatch, bad size, truncation, checksum mismatch,
    /// then an entry off the grid.
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::saved::grid_hash;
    /// use cairns::saved::FileErrorKind;
    /// use cairns::search::JumpTable;
    ///
    /// let grid = Grid::from_ascii("
    ///     ....
    ///     .@@.
    /// ").unwrap();
    /// let hash = grid_hash(&grid, Neighborhood::Octile);
    /// let graph = GridGraph::new(grid, Neighborhood::Octile);
    /// let table = JumpTable::build(&graph);
    ///
    /// let mut bytes = Vec::new();
    /// table.save(&mut bytes, hash).unwrap();
    /// assert_eq!(JumpTable::load_for(&bytes[..], &graph, hash).unwrap(), table);
    ///
    /// let err = JumpTable::load(&bytes[..], hash ^ 1).unwrap_err();
    /// assert!(matches!(err.kind(), FileErrorKind::MapHashMismatch { .. }));
    /// ```
    pub fn load(r: impl Read, expected_map_hash: u64) -> Result<JumpTable, FileError> {
        read(r, expected_map_hash, None)
    }

    /// Like [`load`](Self::load), and also checks that the table has the
    /// size of `graph`.
    ///
    /// # Errors
    ///
    /// As [`load`](Self::load), plus
    /// [`SizeMismatch`](FileErrorKind::SizeMismatch).
    pub fn load_for(
        r: impl Read, graph: &GridGraph, expected_map_hash: u64,
    ) -> Result<JumpTable, FileError> {
        read(r, expected_map_hash, Some((graph.width(), graph.height())))
    }
}

fn read(
    r: impl Read, expected_map_hash: u64, expected_size: Option<(u32, u32)>,
) -> Result<JumpTable, FileError> {
    read_table(r, KIND, |r| read_jumps(r, expected_map_hash, expected_size))
}

/// [`read`] after the magic bytes.
fn read_jumps<R: Read>(
    mut r: Hashing<R>, expected_map_hash: u64, expected_size: Option<(u32, u32)>,
) -> Result<JumpTable, FileError> {
    let version = read_header(
        &mut r,
        KIND,
        (2, JumpTable::FILE_VERSION),
        expected_map_hash,
    )?;
    let (width, height) = read_grid_size(&mut r, expected_size)?;
    let cells = u64::from(width) * u64::from(height);
    if Grid::check_size(width.into(), height.into()).is_err() || cells > (isize::MAX as u64) / 16 {
        return Err(FileErrorKind::BadSize { width, height }.into());
    }
    // Version 2 held octile tables only, and no rule.
    let neighborhood = if version >= 3 {
        let code = read_u32(&mut r)?;
        movement_of_code(code).ok_or(FileErrorKind::BadMovement { code })?
    } else {
        Neighborhood::Octile
    };
    let jumps = read_words(&mut r, 8 * cells as usize, i16::from_le_bytes)?;
    check_sum(r)?;
    let (cols, rows) = (i64::from(width), i64::from(height));
    for (i, &value) in jumps.iter().enumerate() {
        let cell = (i / 8) as i64;
        let direction = i % 8;
        let (x, y) = (cell % cols, cell / cols);
        let (dx, dy) = DIRECTIONS[direction];
        let (dx, dy) = (i64::from(dx), i64::from(dy));
        let k = i64::from(value.unsigned_abs());
        let (ex, ey) = (x + k * dx, y + k * dy);
        if !(0..cols).contains(&ex) || !(0..rows).contains(&ey) {
            return Err(FileErrorKind::BadEntry {
                x: x as u32,
                y: y as u32,
                direction: direction as u8,
                value: i32::from(value),
            }
            .into());
        }
    }
    Ok(JumpTable {
        width,
        height,
        neighborhood,
        jumps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Neighborhood;
    use crate::saved::testing::{kind, reseal, small_map_table, written};

    fn table() -> (GridGraph, JumpTable, u64) {
        small_map_table(JumpTable::build)
    }

    #[test]
    fn round_trips() {
        let (g, t, hash) = table();
        let b = written(|w| t.save(w, hash));
        assert_eq!(b.len(), 32 + 18 * 16 + 8);
        assert_eq!(&b[..8], b"CAIRNSJP");
        assert_eq!(JumpTable::load_for(&b[..], &g, hash).unwrap(), t);
        let mut longer = b.clone();
        longer.extend_from_slice(b"more");
        assert_eq!(JumpTable::load(&longer[..], hash).unwrap(), t);
        // A large table crosses the write blocks.
        let big = crate::grid::testing::open_map(300, 40, Neighborhood::Octile);
        let t = JumpTable::build(&big);
        assert_eq!(
            JumpTable::load(&written(|w| t.save(w, 5))[..], 5).unwrap(),
            t
        );
    }

    /// A table keeps its movement rule through the file; a file of
    /// version 2 (octile tables only, no rule) still loads, as octile; a
    /// rule code no rule has is refused.
    #[test]
    fn the_movement_rule_is_saved() {
        let (g, _, _) = table();
        for rule in Neighborhood::ALL {
            let graph = g.clone().with_neighborhood(rule);
            let t = JumpTable::build(&graph);
            let hash = crate::saved::grid_hash(graph.grid(), rule);
            let b = written(|w| t.save(w, hash));
            let back = JumpTable::load_for(&b[..], &graph, hash).unwrap();
            assert_eq!(back.neighborhood(), rule);
            assert_eq!(back, t);
        }
        let (_, t, hash) = table();
        let b = written(|w| t.save(w, hash));
        let mut old = b[..28].to_vec();
        old[8..12].copy_from_slice(&2u32.to_le_bytes());
        old.extend_from_slice(&b[32..]);
        reseal(&mut old);
        assert_eq!(JumpTable::load(&old[..], hash).unwrap(), t);
        let mut bad = b.clone();
        bad[28..32].copy_from_slice(&5u32.to_le_bytes());
        reseal(&mut bad);
        assert_eq!(
            kind(JumpTable::load(&bad[..], hash)),
            FileErrorKind::BadMovement { code: 5 }
        );
    }

    #[test]
    fn each_problem_has_its_own_error() {
        let (g, t, hash) = table();
        let good = written(|w| t.save(w, hash));
        let load = |b: &[u8]| kind(JumpTable::load(b, hash));
        // Bad magic, another kind and another version: the suite of every
        // saved kind (`spec/tables.rs`). A file of the first format (32-bit entries) says to build again.
        let mut b = good.clone();
        b[8] = 1;
        assert_eq!(
            JumpTable::load(&b[..], hash).unwrap_err().to_string(),
            "jump table: unsupported file version 1 (this library reads versions 2 to 3; build the table again with `cairns table build MAP --search jps+`)"
        );

        let err = JumpTable::load(&good[..], 99).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "jump table: built for another map or agent size (map hash {hash:#018x}, expected 0x0000000000000063)"
            )
        );

        assert!(JumpTable::load_for(&good[..], &g, hash).is_ok());

        for n in [0, 3, 20, 40, good.len() - 1] {
            assert_eq!(load(&good[..n]), FileErrorKind::Truncated, "{n} bytes");
        }

        // A size of more cells than a grid may have: refused before
        // anything is allocated.
        let mut b = good[..20].to_vec();
        b.extend_from_slice(&u32::MAX.to_le_bytes());
        b.extend_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            load(&b[..]),
            FileErrorKind::BadSize {
                width: u32::MAX,
                height: u32::MAX
            }
        );
        // A large but possible size on a short input: truncated.
        let mut b = good[..20].to_vec();
        b.extend_from_slice(&60_000u32.to_le_bytes());
        b.extend_from_slice(&60_000u32.to_le_bytes());
        b.extend_from_slice(&8u32.to_le_bytes());
        b.extend_from_slice(&[0; 1000]);
        assert_eq!(load(&b[..]), FileErrorKind::Truncated);
    }

    /// A checksum protects against accidents, not against a file written to
    /// mislead; an entry leading off the grid would make a search index out
    /// of bounds, so each one is checked.
    #[test]
    fn an_entry_off_the_grid_with_a_valid_checksum_is_refused() {
        let (_, t, hash) = table();
        let mut b = written(|w| t.save(w, hash));
        // Cell (0, 0), east: 6 moves would end at x = 6, off a 6-wide grid.
        b[32 + 2..32 + 4].copy_from_slice(&6i16.to_le_bytes());
        reseal(&mut b);
        assert_eq!(
            kind(JumpTable::load(&b[..], hash)),
            FileErrorKind::BadEntry {
                x: 0,
                y: 0,
                direction: 1,
                value: 6
            }
        );
        let mut b = written(|w| t.save(w, hash));
        b[32..34].copy_from_slice(&i16::MIN.to_le_bytes());
        reseal(&mut b);
        assert!(matches!(
            kind(JumpTable::load(&b[..], hash)),
            FileErrorKind::BadEntry { .. }
        ));
    }
}
