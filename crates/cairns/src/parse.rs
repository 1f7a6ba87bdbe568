//! Line-oriented text input shared by the grid's ASCII parser
//! ([`Grid::from_ascii`](crate::grid::Grid::from_ascii)) and the Moving AI
//! file parsers ([`crate::movingai`]): the error they report and the line
//! splitter they read with. Its public types are re-exported from
//! [`crate::movingai`].

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::grid::MAX_CELLS;

/// A map, scenario file or ASCII grid that could not be read or parsed:
/// what is wrong ([`kind`](Self::kind)), on which line
/// ([`line`](Self::line)) and, for a file, which file
/// ([`path`](Self::path)).
///
/// Displayed as `line 7: unknown tile 'Q' at (3, 4)`, prefixed with the
/// path when there is one: `maps/x.map: line 7: unknown tile 'Q' at (3, 4)`.
/// An I/O error (kind [`Io`](ParseErrorKind::Io)) is the
/// [`source`](std::error::Error::source).
#[derive(Debug)]
pub struct ParseError {
    kind: ParseErrorKind,
    line: Option<usize>,
    path: Option<PathBuf>,
    source: Option<io::Error>,
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
    /// The input could not be read; the I/O error is the
    /// [`source`](std::error::Error::source).
    #[error("cannot read the file")]
    Io,
}

impl ParseError {
    /// An error about line `line` (1-based).
    pub(crate) fn new(line: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            kind,
            line: Some(line),
            path: None,
            source: None,
        }
    }

    /// An I/O error, on line `line` when reading had started.
    pub(crate) fn io(source: io::Error, line: Option<usize>) -> ParseError {
        ParseError {
            kind: ParseErrorKind::Io,
            line,
            path: None,
            source: Some(source),
        }
    }

    /// The same error, naming the file it is about.
    #[must_use]
    pub(crate) fn with_path(mut self, path: &Path) -> ParseError {
        self.path = Some(path.to_path_buf());
        self
    }

    /// What is wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The 1-based line the error is about. Errors about the end of the
    /// input (a missing row or header) name the last line; `None` only for
    /// an I/O error before anything was read (such as a file that cannot be
    /// opened).
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// The file, for errors of the functions that read one
    /// ([`read_map`](crate::movingai::read_map),
    /// [`read_scen`](crate::movingai::read_scen)).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{}: ", path.display())?;
        }
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The lines of a text with their 1-based numbers, split on `\n` with a
/// trailing `\r` removed, keeping track of the bytes not yet read.
#[derive(Clone, Debug)]
pub(crate) struct Lines<'a> {
    rest: &'a str,
    number: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Lines {
            rest: text,
            number: 0,
        }
    }

    /// Bytes after the last line returned.
    pub(crate) fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// The number of the last line returned (0 before the first).
    pub(crate) fn number(&self) -> usize {
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
}
