//! The tile characters of Moving AI maps as text: the row parser that the
//! `.map` reader ([`crate::movingai`]) shares, and [`Grid::from_ascii`].

use super::{Grid, GridSizeErrorKind, Tile, TileCosts};
use crate::parse::{LineReader, ParseError, ParseErrorKind};

/// Appends the tiles of row `y` (line `line`) to `tiles`: the seven Moving
/// AI letters, and the custom letters `letters` defines, if given.
pub(crate) fn parse_row(
    row: &str, line: usize, y: u32, width: u32, tiles: &mut Vec<Tile>, letters: Option<&TileCosts>,
) -> Result<(), ParseError> {
    let row_width = |found| {
        ParseError::new(
            line,
            ParseErrorKind::RowWidth {
                expected: width,
                found,
            },
        )
    };
    let mut found = 0usize;
    for (x, ch) in row.chars().enumerate() {
        if x >= width as usize {
            return Err(row_width(row.chars().count()));
        }
        let own = || Tile::custom(ch).filter(|&t| letters.is_some_and(|l| l.defines(t)));
        let tile = Tile::from_char(ch).or_else(own).ok_or(ParseError::new(
            line,
            ParseErrorKind::UnknownTile { ch, x: x as u32, y },
        ))?;
        tiles.push(tile);
        found += 1;
    }
    if found != width as usize {
        return Err(row_width(found));
    }
    Ok(())
}

/// A grid from its parsed parts; a size the grid refuses becomes a
/// [`ParseError`] at `line`.
pub(crate) fn grid_from_parts(
    width: u32, height: u32, tiles: Vec<Tile>, line: usize,
) -> Result<Grid, ParseError> {
    Grid::from_tiles(width, height, tiles).map_err(|e| {
        let kind = match *e.kind() {
            GridSizeErrorKind::Empty { width, height } => {
                ParseErrorKind::ZeroSize { width, height }
            }
            GridSizeErrorKind::TooLarge { width, height } => {
                ParseErrorKind::SizeTooLarge { width, height }
            }
            // The parsers push whole rows, so this does not happen; the
            // honest description if it did.
            GridSizeErrorKind::TileCount {
                width,
                height,
                tiles,
            } => ParseErrorKind::TooFewRows {
                expected: height,
                found: (tiles / width.max(1) as usize) as u32,
            },
        };
        ParseError::new(line, kind)
    })
}

/// Parses a grid drawn in map characters, one row per line, as used by
/// [`Grid::from_ascii`]: each line is trimmed of surrounding whitespace,
/// blank lines before the first row and after the last are ignored, and
/// every row must have the first row's width. Line numbers in errors count
/// from the first line of `text`.
pub(crate) fn parse_ascii(text: &str) -> Result<Grid, ParseError> {
    // The text is in memory already, so its lines need no limit.
    let mut lines = LineReader::new(text.as_bytes(), usize::MAX);
    let mut first_line = None;
    let mut width = 0u32;
    let mut height = 0u32;
    let mut tiles = Vec::new();
    // Rows end at the first blank line; only blank lines may follow it.
    let mut blank_from = None;
    while let Some((number, line)) = lines.next_line()? {
        let row = line.trim();
        if row.is_empty() {
            if first_line.is_some() {
                blank_from = blank_from.or(Some(number));
            }
            continue;
        }
        if let Some(blank) = blank_from {
            return Err(ParseError::new(
                blank,
                ParseErrorKind::RowWidth {
                    expected: width,
                    found: 0,
                },
            ));
        }
        if first_line.is_none() {
            first_line = Some(number);
            let found = row.chars().count();
            width = u32::try_from(found).map_err(|_| {
                ParseError::new(
                    number,
                    ParseErrorKind::SizeTooLarge {
                        width: found as u64,
                        height: 1,
                    },
                )
            })?;
        }
        parse_row(row, number, height, width, &mut tiles, None)?;
        height = height.checked_add(1).ok_or(ParseError::new(
            number,
            ParseErrorKind::SizeTooLarge {
                width: width.into(),
                height: u64::from(u32::MAX) + 1,
            },
        ))?;
    }
    let Some(first_line) = first_line else {
        return Err(ParseError::new(1, ParseErrorKind::Empty));
    };
    grid_from_parts(width, height, tiles, first_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_trims_lines_and_ignores_outer_blank_lines() {
        let g = Grid::from_ascii("\n\n    .@.\n    ...\n  \n").unwrap();
        assert_eq!((g.width(), g.height()), (3, 2));
        assert_eq!(g.to_ascii(), ".@.\n...\n");
        let e = Grid::from_ascii("\n  ..\n  ...\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: row has 3 tiles, expected 2");
        let e = Grid::from_ascii("..\n\n..\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: row has 0 tiles, expected 2");
        let e = Grid::from_ascii("..\n.x\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: unknown tile 'x' at (1, 1)");
    }

    #[test]
    fn blank_text_is_empty() {
        for text in ["", " \n\n"] {
            assert_eq!(
                Grid::from_ascii(text).unwrap_err().kind().clone(),
                ParseErrorKind::Empty
            );
        }
    }
}
