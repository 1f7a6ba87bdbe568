//! Moving AI Lab `.map` and `.scen` files.
//!
//! The [Moving AI Lab grid benchmarks](https://movingai.com/benchmarks/grids.html)
//! (N. Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012) ship each map
//! as a `NAME.map` file and its start/goal pairs with their optimal lengths as
//! `NAME.map.scen` beside it.
//!
//! * [`parse_map`], [`read_map`] and [`write_map`] read and write maps
//!   (format in [`map`](self#map-files) below).
//! * [`parse_scen`] and [`read_scen`] read scenario files, in both dialects;
//!   [`Scenario::endpoints`] checks a scenario against its map and
//!   [`lengths_match`] compares a computed cost with a printed length.
//! * [`map_path_for`] finds a scenario file's map.
//!
//! Parsers never panic: every malformed input is a [`ParseError`] naming the
//! 1-based line and what is wrong there, and the file-level functions wrap it
//! (or the I/O error) in a [`LoadError`] naming the file.
//!
//! # Map files
//!
//! ```text
//! type octile
//! height 4
//! width 6
//! map
//! ......
//! .@@.T.
//! .@..T.
//! ......
//! ```
//!
//! Rows are `y` from the top, columns `x` from the left. The tile characters
//! and their meaning for the benchmarks' movement model ([`Tile`](crate::grid::Tile)):
//!
//! | char | meaning | passable |
//! |---|---|---|
//! | `.` | ground | yes |
//! | `G` | ground (synonym of `.`) | yes |
//! | `S` | swamp | yes |
//! | `@` | out of bounds | no |
//! | `O` | out of bounds (synonym of `@`) | no |
//! | `T` | trees | no |
//! | `W` | water | no |
//!
//! # Scenario files
//!
//! A version line (`version 1`, tab-separated, or `version 1.0`,
//! space-separated) and one scenario per line:
//! `bucket map width height start_x start_y goal_x goal_y optimal_length`.
//! The map column is not a usable path (see [`map_path_for`]).

mod map;
mod scen;

use std::fmt;
use std::path::PathBuf;

pub(crate) use map::parse_ascii;
pub use map::{parse_map, read_map, write_map};
pub mod runner;

pub use scen::{
    Endpoint, ScenVersion, Scenario, ScenarioError, ScenarioErrorKind, ScenarioFile, lengths_match,
    map_path_for, parse_scen, read_scen,
};

use crate::grid::MAX_CELLS;

/// A malformed map or scenario file: the line and what is wrong there.
///
/// Displayed as `line 7: unknown tile 'Q' at (3, 4)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// 1-based line number. Errors about the end of the input (a missing
    /// row or header) name the last line.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong on a line of a map or scenario file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input holds nothing but whitespace.
    #[error("file is empty")]
    Empty,
    /// A map header line that is required did not appear before `map`, or
    /// the input ended before the `map` line.
    #[error("missing header line '{expected}'")]
    MissingHeader {
        /// The header keyword: `height`, `width` or `map`.
        expected: &'static str,
    },
    /// A map header line that is not `type T`, `height N`, `width N` or `map`.
    #[error("bad header line {text:?}")]
    BadHeader {
        /// The line.
        text: String,
    },
    /// A map header line that appears twice.
    #[error("duplicate header line '{field}'")]
    DuplicateHeader {
        /// The header keyword.
        field: &'static str,
    },
    /// A map type other than `octile`.
    #[error("unsupported map type {text:?} (expected \"octile\")")]
    UnsupportedType {
        /// The type given.
        text: String,
    },
    /// A field that should be a number and is not one (or is out of range).
    #[error("bad {field} {text:?}")]
    BadNumber {
        /// Which field: `height`, `width`, `bucket`, `start x`, ...
        field: &'static str,
        /// The text found.
        text: String,
    },
    /// A map whose width or height is zero.
    #[error("map size {width}x{height} has no cells")]
    ZeroSize {
        /// Width from the header.
        width: u64,
        /// Height from the header.
        height: u64,
    },
    /// A map with more than [`MAX_CELLS`] cells.
    #[error("map size {width}x{height} exceeds {MAX_CELLS} cells")]
    SizeTooLarge {
        /// Width from the header.
        width: u64,
        /// Height from the header.
        height: u64,
    },
    /// A map header that announces more tiles than the rest of the input
    /// has bytes, so the rows cannot all be there.
    #[error("map size {width}x{height} needs more tiles than the {remaining} bytes left")]
    SizeExceedsInput {
        /// Width from the header.
        width: u64,
        /// Height from the header.
        height: u64,
        /// Bytes of input after the `map` line.
        remaining: usize,
    },
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
        /// Width from the header (or the first row).
        expected: u32,
        /// Width found.
        found: usize,
    },
    /// The input ended before all rows of the map.
    #[error("expected {expected} rows, found {found}")]
    TooFewRows {
        /// Height from the header.
        expected: u32,
        /// Rows found.
        found: u32,
    },
    /// A non-blank line after the last row of the map.
    #[error("extra row after the {expected} rows of the map")]
    TooManyRows {
        /// Height from the header.
        expected: u32,
    },
    /// The first line of a scenario file is not `version 1` or `version 1.0`.
    #[error("bad version line {text:?} (expected \"version 1\" or \"version 1.0\")")]
    BadVersion {
        /// The line.
        text: String,
    },
    /// A scenario line with too few fields.
    #[error("expected at least {expected} fields, found {found}")]
    MissingFields {
        /// The minimum number of fields.
        expected: usize,
        /// Fields found.
        found: usize,
    },
}

impl ParseError {
    pub(crate) fn new(line: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { line, kind }
    }
}

/// A map or scenario file that could not be read or parsed.
///
/// Displayed as `path/to/x.map: line 7: unknown tile 'Q' at (3, 4)`, or
/// `path/to/x.map: cannot read the file` with the I/O error as the
/// [`source`](std::error::Error::source).
#[derive(Debug)]
pub struct LoadError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub kind: LoadErrorKind,
}

/// What went wrong loading a file.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The file could not be read (including: it is not UTF-8).
    Io(std::io::Error),
    /// The file's contents are malformed.
    Parse(ParseError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            LoadErrorKind::Io(_) => write!(f, "{}: cannot read the file", self.path.display()),
            LoadErrorKind::Parse(e) => write!(f, "{}: {e}", self.path.display()),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            LoadErrorKind::Io(e) => Some(e),
            // The parse error is already part of the message.
            LoadErrorKind::Parse(_) => None,
        }
    }
}

/// Reads a whole file as text and parses it, naming the file in errors.
fn load<T>(
    path: &std::path::Path,
    parse: impl FnOnce(&str) -> Result<T, ParseError>,
) -> Result<T, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|e| LoadError {
        path: path.to_path_buf(),
        kind: LoadErrorKind::Io(e),
    })?;
    parse(&text).map_err(|e| LoadError {
        path: path.to_path_buf(),
        kind: LoadErrorKind::Parse(e),
    })
}

/// The lines of a text with their 1-based numbers, split on `\n` with a
/// trailing `\r` removed, keeping track of the bytes not yet read.
#[derive(Clone, Debug)]
struct Lines<'a> {
    rest: &'a str,
    number: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines {
            rest: text,
            number: 0,
        }
    }

    /// Bytes after the last line returned.
    fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// The number of the last line returned (0 before the first).
    fn number(&self) -> usize {
        self.number
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, rest) = match self.rest.split_once('\n') {
            Some((line, rest)) => (line, rest),
            None => (self.rest, ""),
        };
        self.rest = rest;
        self.number += 1;
        Some((self.number, line.strip_suffix('\r').unwrap_or(line)))
    }
}

/// The Moving AI benchmark files shared by the tests, found by the
/// workspace's one lookup (`cairns-testdata`). Tests that use them fail
/// (never skip) when the directory is missing.
#[cfg(test)]
pub(crate) mod test_data {
    pub(crate) use cairns_testdata::{data_dir, real_files};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_error_display() {
        let e = ParseError::new(
            7,
            ParseErrorKind::UnknownTile {
                ch: 'Q',
                x: 3,
                y: 4,
            },
        );
        assert_eq!(e.to_string(), "line 7: unknown tile 'Q' at (3, 4)");
    }

    #[test]
    fn load_error_display_and_source() {
        use std::error::Error as _;
        let missing = std::path::Path::new("/nonexistent/cairns/x.map");
        let e = read_map(missing).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/nonexistent/cairns/x.map: cannot read the file"
        );
        assert!(e.source().is_some());

        let e = LoadError {
            path: PathBuf::from("a/b.map"),
            kind: LoadErrorKind::Parse(ParseError::new(2, ParseErrorKind::Empty)),
        };
        assert_eq!(e.to_string(), "a/b.map: line 2: file is empty");
        assert!(e.source().is_none());
    }

    #[test]
    fn lines_strip_crlf_and_count() {
        let mut lines = Lines::new("a\r\nb\n\nc");
        assert_eq!(lines.next(), Some((1, "a")));
        assert_eq!(lines.remaining(), 4);
        assert_eq!(lines.next(), Some((2, "b")));
        assert_eq!(lines.next(), Some((3, "")));
        assert_eq!(lines.next(), Some((4, "c")));
        assert_eq!(lines.next(), None);
        assert_eq!(lines.number(), 4);
        assert_eq!(Lines::new("x\n").count(), 1);
    }

    mod no_panic {
        use proptest::prelude::*;

        use super::super::test_data::data_dir;
        use super::super::{parse_ascii, parse_map, parse_scen};

        fn real(file: &str) -> Vec<u8> {
            std::fs::read(data_dir().join(file)).expect("cannot read a real data file")
        }

        /// A byte that is likely to matter to the parsers.
        fn interesting_byte() -> impl Strategy<Value = u8> {
            prop_oneof![
                prop::sample::select(b"\n\r\t .@GOTSW0123456789-+eE".to_vec()),
                any::<u8>(),
            ]
        }

        /// Edits of a file: replace, insert or delete a byte at a position
        /// (taken modulo the length), or cut the file there.
        #[derive(Clone, Debug)]
        enum Edit {
            Replace(usize, u8),
            Insert(usize, u8),
            Delete(usize),
            Truncate(usize),
        }

        fn edits() -> impl Strategy<Value = Vec<Edit>> {
            let edit = prop_oneof![
                (any::<usize>(), interesting_byte()).prop_map(|(i, b)| Edit::Replace(i, b)),
                (any::<usize>(), interesting_byte()).prop_map(|(i, b)| Edit::Insert(i, b)),
                any::<usize>().prop_map(Edit::Delete),
                any::<usize>().prop_map(Edit::Truncate),
            ];
            prop::collection::vec(edit, 1..8)
        }

        fn mutate(mut bytes: Vec<u8>, edits: &[Edit]) -> String {
            for edit in edits {
                let n = bytes.len().max(1);
                match *edit {
                    Edit::Replace(i, b) => {
                        if let Some(x) = bytes.get_mut(i % n) {
                            *x = b;
                        }
                    }
                    Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
                    Edit::Delete(i) => {
                        if !bytes.is_empty() {
                            bytes.remove(i % n);
                        }
                    }
                    Edit::Truncate(i) => bytes.truncate(i % n),
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }

        fn parse_all(text: &str) {
            let _ = parse_map(text);
            let _ = parse_scen(text);
            let _ = parse_ascii(text);
        }

        proptest! {
            #[test]
            fn random_text_never_panics(text in ".{0,200}") {
                parse_all(&text);
            }

            #[test]
            fn random_bytes_never_panic(bytes in prop::collection::vec(interesting_byte(), 0..300)) {
                parse_all(&String::from_utf8_lossy(&bytes));
            }

            #[test]
            fn mutated_real_map_never_panics(edits in edits()) {
                let text = mutate(real("dao/den201d.map"), &edits);
                parse_all(&text);
            }

            #[test]
            fn mutated_real_scen_never_panics(edits in edits()) {
                let text = mutate(real("bg512/AR0011SR.map.scen"), &edits);
                parse_all(&text);
            }

            #[test]
            fn mutated_header_never_panics(edits in edits()) {
                let text = mutate(b"type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n".to_vec(), &edits);
                parse_all(&text);
            }
        }
    }
}
