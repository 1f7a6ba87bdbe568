//! `.map` files: a small header and the rows of tile characters.

use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

use super::{LoadError, MAX_LINE, ParseError, ParseErrorKind, load};
use crate::grid::{Grid, MAX_CELLS, TileCosts, grid_from_parts, parse_row};
use crate::parse::{LineReader, excerpt, whole_number};

/// Bytes a map row may have beyond the map's width before it is refused
/// unread ([`ParseErrorKind::LineTooLong`]): room for a `\r` and stray
/// characters, so that a row a little too long is still reported with its
/// width ([`ParseErrorKind::RowWidth`]).
pub const ROW_SLACK: usize = 64;

/// Parses the text of a Moving AI `.map` file.
///
/// The header lines `type octile`, `height H` and `width W` may come in any
/// order (`type` may be left out; any other type is an error) and end with a
/// line `map`, followed by `H` rows of `W` tile characters. Lines may end in
/// `\n` or `\r\n`, the last one with or without a line ending; blank lines in
/// the header and after the last row are ignored.
///
/// ```
/// use cairns::movingai::parse_map;
///
/// let grid = parse_map("type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n")?;
/// assert_eq!((grid.width(), grid.height()), (3, 2));
/// assert!(!grid.is_passable(1, 0));
/// # Ok::<(), cairns::movingai::ParseError>(())
/// ```
///
/// # Errors
///
/// A [`ParseError`] naming the first malformed line: a missing, repeated or
/// unknown header line, a size that is not a number, is zero or exceeds
/// [`MAX_CELLS`] (checked before any allocation), a row of the wrong
/// width, an unknown tile, too few rows, a non-blank line after the last
/// row, or a line beyond the [limits](super#limits).
pub fn parse_map(text: &str) -> Result<Grid, ParseError> {
    parse_map_from(text.as_bytes())
}

/// Parses a Moving AI `.map` file from a reader, line by line (see
/// [`parse_map`] for the format).
///
/// Memory stays bounded by what the input holds: one line at a time is
/// buffered, each within the [limits](super#limits), and the tiles grow
/// only as rows arrive, so a header announcing a huge map on a short input
/// costs nothing. Wrap a file in a [`BufReader`](std::io::BufReader).
///
/// # Errors
///
/// As [`parse_map`], plus a line that is not UTF-8 and an I/O error of
/// `reader` (kind [`Io`](ParseErrorKind::Io), the I/O error as the
/// [`source`](std::error::Error::source)).
pub fn parse_map_from(reader: impl BufRead) -> Result<Grid, ParseError> {
    parse_map_letters(reader, None)
}

/// Parses a `.map` file whose rows may also hold the custom letters that
/// `terrain` defines ([`Tile::Custom`](crate::grid::Tile::Custom): `F=3`
/// lets a row hold `F`); a letter it does not define is an unknown tile, as
/// in [`parse_map`].
///
/// ```
/// use cairns::grid::{GridGraph, Neighborhood, Tile, TileCosts};
/// use cairns::movingai::{parse_map, parse_map_with};
///
/// let text = "type octile\nheight 1\nwidth 3\nmap\n.F.\n";
/// let forest: TileCosts = "F=3".parse()?;
/// let grid = parse_map_with(text.as_bytes(), &forest)?;
/// assert_eq!(grid.get(1, 0), Some(Tile::Custom(b'F')));
/// let graph = GridGraph::with_terrain(grid, Neighborhood::Octile, &forest);
/// assert_eq!(graph.cell_cost(graph.node(1, 0).unwrap()), 3.0);
/// assert!(parse_map(text).is_err()); // without the costs, F is unknown
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`parse_map_from`].
pub fn parse_map_with(reader: impl BufRead, terrain: &TileCosts) -> Result<Grid, ParseError> {
    parse_map_letters(reader, Some(terrain))
}

fn parse_map_letters(
    reader: impl BufRead, letters: Option<&TileCosts>,
) -> Result<Grid, ParseError> {
    let mut lines = LineReader::new(reader, MAX_LINE);
    let [(width, width_line), (height, height_line)] = parse_header(&mut lines)?;
    let map_line = lines.number();

    if width == 0 || height == 0 {
        return Err(ParseError::new(
            map_line,
            ParseErrorKind::ZeroSize { width, height },
        ));
    }
    // Both sides as declared; the line is that of a side too large on its
    // own, or the `map` line when only their product is.
    let (Ok(width), Ok(height)) = (u32::try_from(width), u32::try_from(height)) else {
        let line = if height > MAX_CELLS {
            height_line
        } else {
            width_line
        };
        return Err(ParseError::new(
            line,
            ParseErrorKind::SizeTooLarge { width, height },
        ));
    };
    if u64::from(width) * u64::from(height) > MAX_CELLS {
        return Err(ParseError::new(
            map_line,
            ParseErrorKind::SizeTooLarge {
                width: width.into(),
                height: height.into(),
            },
        ));
    }

    lines.set_limit((width as usize).saturating_add(ROW_SLACK));
    let mut tiles = Vec::new();
    for y in 0..height {
        let Some((number, row)) = lines.next_line()? else {
            return Err(ParseError::new(
                lines.number(),
                ParseErrorKind::TooFewRows {
                    expected: height,
                    found: y,
                },
            ));
        };
        parse_row(row, number, y, width, &mut tiles, letters)?;
    }
    while let Some((number, line)) = lines.next_line()? {
        if !line.trim().is_empty() {
            return Err(ParseError::new(
                number,
                ParseErrorKind::TooManyRows { expected: height },
            ));
        }
    }
    grid_from_parts(width, height, tiles, map_line)
}

/// Reads the header up to and including the `map` line; returns the width
/// and the height as declared, each with its line.
fn parse_header(lines: &mut LineReader<impl BufRead>) -> Result<[(u64, usize); 2], ParseError> {
    let mut width = None;
    let mut height = None;
    let mut seen_type = false;
    let mut any_line = false;
    while let Some((number, line)) = lines.next_line()? {
        let mut words = line.split_whitespace();
        let Some(key) = words.next() else {
            continue;
        };
        any_line = true;
        let value = words.next();
        let bad_header = || {
            ParseError::new(
                number,
                ParseErrorKind::BadHeader {
                    text: excerpt(line),
                },
            )
        };
        if words.next().is_some() {
            return Err(bad_header());
        }
        match (key, value) {
            ("map", None) => {
                let width = width.ok_or(ParseError::new(
                    number,
                    ParseErrorKind::MissingHeader { expected: "width" },
                ))?;
                let height = height.ok_or(ParseError::new(
                    number,
                    ParseErrorKind::MissingHeader { expected: "height" },
                ))?;
                return Ok([width, height]);
            }
            ("type", Some(kind)) => {
                if seen_type {
                    return Err(duplicate(number, "type"));
                }
                seen_type = true;
                if kind != "octile" {
                    return Err(ParseError::new(
                        number,
                        ParseErrorKind::UnsupportedType {
                            text: excerpt(kind),
                        },
                    ));
                }
            }
            ("height", Some(n)) => set_size(&mut height, "height", n, number)?,
            ("width", Some(n)) => set_size(&mut width, "width", n, number)?,
            _ => return Err(bad_header()),
        }
    }
    let kind = if any_line {
        ParseErrorKind::MissingHeader { expected: "map" }
    } else {
        ParseErrorKind::Empty
    };
    Err(ParseError::new(lines.number().max(1), kind))
}

fn duplicate(line: usize, field: &'static str) -> ParseError {
    ParseError::new(line, ParseErrorKind::DuplicateHeader { field })
}

/// Parses a `height` or `width` value into `slot`, with its line. Values
/// too large for a `u32` are kept, for the size error that names both
/// sides (a value too large for a `u64` is a bad number).
fn set_size(
    slot: &mut Option<(u64, usize)>, field: &'static str, text: &str, line: usize,
) -> Result<(), ParseError> {
    if slot.is_some() {
        return Err(duplicate(line, field));
    }
    let n: u64 = whole_number(line, field, text)?;
    *slot = Some((n, line));
    Ok(())
}

/// Reads and parses a `.map` file (see [`parse_map`]).
///
/// # Errors
///
/// A [`ParseError`] naming the file: an I/O error (kind
/// [`Io`](ParseErrorKind::Io), the I/O error as its
/// [`source`](std::error::Error::source)) or what the parser found.
pub fn read_map(path: &Path) -> Result<Grid, LoadError> {
    load(path, parse_map_from)
}

/// Reads and parses a `.map` file whose rows may hold the custom letters
/// `terrain` defines (see [`parse_map_with`]).
///
/// # Errors
///
/// As [`read_map`].
pub fn read_map_with(path: &Path, terrain: &TileCosts) -> Result<Grid, LoadError> {
    load(path, |reader| parse_map_with(reader, terrain))
}

/// The text of a `.map` file for `grid`: a `type octile` header and one row
/// per line, each ending in `\n`. [`parse_map`] reads it back to an equal
/// grid.
///
/// ```
/// use cairns::grid::Grid;
/// use cairns::movingai::{parse_map, write_map};
///
/// let grid = Grid::from_ascii(".@\nT.")?;
/// let text = write_map(&grid);
/// assert_eq!(text, "type octile\nheight 2\nwidth 2\nmap\n.@\nT.\n");
/// assert_eq!(parse_map(&text)?, grid);
/// # Ok::<(), cairns::movingai::ParseError>(())
/// ```
pub fn write_map(grid: &Grid) -> String {
    let mut out = String::with_capacity(grid.len() + grid.height() as usize + 48);
    // Writing to a String cannot fail.
    let _ = write!(
        out,
        "type octile\nheight {}\nwidth {}\nmap\n",
        grid.height(),
        grid.width()
    );
    out.push_str(&grid.to_ascii());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;
    use crate::movingai::test_data::{assert_fails, data_dir, real_files};

    fn kind(text: &str) -> ParseErrorKind {
        parse_map(text).unwrap_err().kind().clone()
    }

    /// The kind and line of the error `text` gets.
    fn kind_at(text: &str) -> (ParseErrorKind, Option<usize>) {
        let e = parse_map(text).unwrap_err();
        (e.kind().clone(), e.line())
    }

    #[test]
    fn parses_a_small_map() {
        let g = parse_map("type octile\nheight 2\nwidth 3\nmap\n.@T\nGSW\n").unwrap();
        assert_eq!((g.width(), g.height()), (3, 2));
        assert_eq!(g.get(1, 0), Some(Tile::OutOfBounds));
        assert_eq!(g.get(2, 1), Some(Tile::Water));
        assert_eq!(g.passable_count(), 3);
    }

    #[test]
    fn header_in_any_order_and_type_optional() {
        let a = parse_map("width 3\ntype octile\nheight 1\nmap\n...").unwrap();
        let b = parse_map("height 1\nwidth 3\nmap\n...\n").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn crlf_and_missing_final_newline() {
        let lf = parse_map("type octile\nheight 2\nwidth 2\nmap\n.@\n@.\n").unwrap();
        let crlf = parse_map("type octile\r\nheight 2\r\nwidth 2\r\nmap\r\n.@\r\n@.").unwrap();
        assert_eq!(lf, crlf);
        let crlf_end = parse_map("type octile\r\nheight 2\r\nwidth 2\r\nmap\r\n.@\r\n@.\r\n");
        assert_eq!(crlf_end.unwrap(), lf);
    }

    #[test]
    fn trailing_blank_lines_are_fine_extra_rows_are_not() {
        assert!(parse_map("height 1\nwidth 1\nmap\n.\n\n  \n\r\n").is_ok());
        let e = parse_map("height 1\nwidth 1\nmap\n.\n\n.\n").unwrap_err();
        assert_eq!(e.line(), Some(6));
        assert_eq!(*e.kind(), ParseErrorKind::TooManyRows { expected: 1 });
    }

    #[test]
    fn write_map_round_trips() {
        let text = "type octile\nheight 3\nwidth 4\nmap\n.GS@\nOTW.\n....\n";
        let g = parse_map(text).unwrap();
        assert_eq!(write_map(&g), text);
        assert_eq!(parse_map(&write_map(&g)).unwrap(), g);
    }

    #[test]
    fn truncated_map() {
        assert_fails(
            parse_map("type octile\nheight 3\nwidth 2\nmap\n..\n..\n"),
            6,
            ParseErrorKind::TooFewRows {
                expected: 3,
                found: 2,
            },
            "line 6: expected 3 rows, found 2",
        );
        // Cut in the middle of a row.
        assert_eq!(
            kind("height 2\nwidth 4\nmap\n....\n..\n"),
            ParseErrorKind::RowWidth {
                expected: 4,
                found: 2
            }
        );
        // Cut in the header.
        assert_eq!(
            kind("type octile\nheight 2\nwidth 4\n"),
            ParseErrorKind::MissingHeader { expected: "map" }
        );
    }

    #[test]
    fn wrong_row_width() {
        assert_fails(
            parse_map("height 2\nwidth 3\nmap\n...\n....\n"),
            5,
            ParseErrorKind::RowWidth {
                expected: 3,
                found: 4,
            },
            "line 5: row has 4 tiles, expected 3",
        );
    }

    #[test]
    fn unknown_tile() {
        let e =
            parse_map("height 5\nwidth 5\nmap\n.....\n.....\n.....\n.....\n...Q.\n").unwrap_err();
        assert_eq!(e.to_string(), "line 8: unknown tile 'Q' at (3, 4)");
    }

    #[test]
    fn absurd_sizes_fail_before_allocating() {
        let e = parse_map("type octile\nheight 4000000000\nwidth 4000000000\nmap\n").unwrap_err();
        assert!(
            matches!(e.kind(), ParseErrorKind::SizeTooLarge { .. }),
            "{e}"
        );
        // Fits in MAX_CELLS but not in the input: the tiles grow only as
        // rows arrive.
        let few = ParseErrorKind::TooFewRows {
            expected: 4_000_000_000,
            found: 1,
        };
        assert_eq!(
            kind_at("type octile\nheight 4000000000\nwidth 1\nmap\n.\n"),
            (few, Some(5))
        );
        let (width, height) = (1, 99_999_999_999);
        let too_large = ParseErrorKind::SizeTooLarge { width, height };
        assert_eq!(kind("height 99999999999\nwidth 1\nmap\n"), too_large);
        // Regression test: with the width declared first, this was
        // reported as "map size 1x99999999999": both sides as declared,
        // the cells they make, and the line of the side out of range.
        let text = "type octile\nwidth 4\nheight 99999999999\nmap\n";
        let e = parse_map(text).unwrap_err();
        let large = ParseErrorKind::SizeTooLarge { width: 4, height };
        assert_eq!(kind_at(text), (large, Some(3)));
        assert_eq!(
            e.to_string(),
            "line 3: map size 4x99999999999 is 399999999996 cells, more than the 4294967295 a map may have"
        );
        let e = parse_map("width 99999999999\nheight 4\nmap\n").unwrap_err();
        assert_eq!(e.line(), Some(1));
        let zero = ParseErrorKind::ZeroSize { width, height: 0 };
        assert_eq!(kind("height 0\nwidth 1\nmap\n"), zero);
    }

    #[test]
    fn rows_are_limited_to_the_width_plus_slack() {
        let row = |n| ".".repeat(n);
        let map = |n| format!("height 1\nwidth 100\nmap\n{}\n", row(n));
        assert!(parse_map(&map(100)).is_ok());
        assert_eq!(
            kind(&map(100 + ROW_SLACK)),
            ParseErrorKind::RowWidth {
                expected: 100,
                found: 100 + ROW_SLACK
            }
        );
        let e = parse_map(&map(100 + ROW_SLACK + 1)).unwrap_err();
        assert_eq!(
            (e.line(), e.kind()),
            (Some(4), &ParseErrorKind::LineTooLong { limit: 164 })
        );
        // Header lines have the general limit.
        let e = parse_map(&format!("type {}\n", "x".repeat(MAX_LINE + 1))).unwrap_err();
        assert_eq!(*e.kind(), ParseErrorKind::LineTooLong { limit: MAX_LINE });
    }

    #[test]
    fn quoted_header_text_is_cut() {
        let e = parse_map(&format!("type {}\n", "y".repeat(1000))).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "line 1: unsupported map type \"{}...\" (expected \"octile\")",
                "y".repeat(60)
            )
        );
    }

    #[test]
    fn non_utf8_names_the_line() {
        let e = parse_map_from(&b"height 2\nwidth 2\nmap\n..\n.\xff\n"[..]).unwrap_err();
        assert_eq!(
            (e.line(), e.kind()),
            (Some(5), &ParseErrorKind::NotUtf8 { column: 2 })
        );
    }

    #[test]
    fn bad_headers() {
        for text in ["x1", "-1", "+1"] {
            let bad = ParseErrorKind::BadNumber {
                field: "height",
                text: text.into(),
            };
            assert_eq!(kind(&format!("height {text}\nwidth 1\nmap\n.")), bad);
        }
        assert_eq!(
            kind("height 1\nmap\n."),
            ParseErrorKind::MissingHeader { expected: "width" }
        );
        assert_eq!(
            kind("height 1\nheight 1\nwidth 1\nmap\n."),
            ParseErrorKind::DuplicateHeader { field: "height" }
        );
        assert_eq!(
            kind("type tile\nheight 1\nwidth 1\nmap\n."),
            ParseErrorKind::UnsupportedType {
                text: "tile".into()
            }
        );
        assert_eq!(
            kind("hello\n"),
            ParseErrorKind::BadHeader {
                text: "hello".into()
            }
        );
        assert!(matches!(
            kind("height 1 2\nwidth 1\nmap\n."),
            ParseErrorKind::BadHeader { .. }
        ));
    }

    #[test]
    fn empty_files() {
        for text in ["", "\n", "  \r\n\n"] {
            let e = parse_map(text).unwrap_err();
            assert_eq!(*e.kind(), ParseErrorKind::Empty, "{text:?}");
            assert_eq!(
                e.to_string(),
                format!("line {}: file is empty", e.line().unwrap())
            );
        }
    }

    #[test]
    fn every_real_map_parses() {
        let maps = real_files("map");
        assert!(
            maps.len() >= 50,
            "only {} maps in {}",
            maps.len(),
            data_dir().display()
        );
        for path in maps {
            let grid = read_map(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(grid.passable_count() > 0, "{}", path.display());
        }
    }

    #[test]
    fn real_map_sizes_match_the_inventory() {
        for (file, w, h) in [
            ("dao/orz900d.map", 1491, 656),
            ("sc1/GreenerPastures.map", 768, 512),
            ("da2/ht_mansion_n.map", 133, 270),
            ("street/Berlin_0_256.map", 256, 256),
        ] {
            let grid = read_map(&data_dir().join(file)).unwrap();
            assert_eq!((grid.width(), grid.height()), (w, h), "{file}");
        }
    }

    #[test]
    fn real_map_round_trips_through_write_map() {
        let grid = read_map(&data_dir().join("street/Berlin_0_256.map")).unwrap();
        assert_eq!(parse_map(&write_map(&grid)).unwrap(), grid);
    }
}
