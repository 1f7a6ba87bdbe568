//! Moving AI Lab `.map` and `.scen` files.

use crate::grid::{Grid, Tile};

/// A malformed map or scenario file: the line and what is wrong there.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong on a line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that is not a tile of the format.
    #[error("unknown tile {ch:?} at ({x}, {y})")]
    UnknownTile {
        /// The character.
        ch: char,
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// A row of the wrong width.
    #[error("row has {found} tiles, expected {expected}")]
    RowWidth {
        /// Width from the header.
        expected: u32,
        /// Width found.
        found: usize,
    },
}

/// Temporary: parses indented ASCII rows.
pub(crate) fn parse_ascii(text: &str) -> Result<Grid, ParseError> {
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let width = rows.first().map_or(0, |r| r.chars().count());
    let mut tiles = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        if row.chars().count() != width {
            return Err(ParseError {
                line: y + 1,
                kind: ParseErrorKind::RowWidth {
                    expected: width as u32,
                    found: row.chars().count(),
                },
            });
        }
        for (x, ch) in row.chars().enumerate() {
            tiles.push(Tile::from_char(ch).ok_or(ParseError {
                line: y + 1,
                kind: ParseErrorKind::UnknownTile {
                    ch,
                    x: x as u32,
                    y: y as u32,
                },
            })?);
        }
    }
    Ok(Grid::from_tiles(width as u32, rows.len() as u32, tiles).expect("size"))
}
