//! Line-oriented text input shared by the grid's ASCII parser
//! ([`Grid::from_ascii`](crate::grid::Grid::from_ascii)), the Moving AI
//! file parsers ([`crate::movingai`]) and the road graph readers
//! ([`crate::graph::read`](crate::graph)): the error they report, the line
//! splitter they read with and the file opener that names the file in
//! errors. Its public types are re-exported from [`crate::movingai`] and
//! [`crate::graph`].

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

/// The largest number of cells a grid may have: node ids are `u32` and
/// `u32::MAX` is reserved as "no node". Here, below both the grid and the
/// parsers that check it; re-exported as `grid::MAX_CELLS`.
pub const MAX_CELLS: u64 = u32::MAX as u64;

/// A map, scenario file or ASCII grid that could not be read or parsed:
/// what is wrong ([`kind`](Self::kind)), on which line
/// ([`line`](Self::line)) and, for a file, which file
/// ([`path`](Self::path)).
///
/// Displayed as `line 7: unknown tile 'Q' at (3, 4)`, prefixed with the
/// path when there is one: `maps/x.map: line 7: unknown tile 'Q' at (3, 4)`.
/// An I/O error (kind [`Io`](ParseErrorKind::Io)) is the
/// [`source`](std::error::Error::source).
///
/// A binary file has no lines: an error in an OpenStreetMap PBF file
/// (`graph::osm`, with the
/// `osm` feature) names the blob it is in, counted from 1, and the
/// byte of the file where that blob starts ([`byte`](Self::byte)), displayed
/// as `x.osm.pbf: blob 3 (from byte 70212): corrupt PBF data: ...`; its
/// [`line`](Self::line) is the blob's number.
#[derive(Debug)]
pub struct ParseError {
    kind: ParseErrorKind,
    at: At,
    path: Option<PathBuf>,
    source: Option<io::Error>,
}

/// Where in its input a [`ParseError`] is: as small as the `Option<usize>`
/// line it was before blobs (16 bytes), so that the errors that hold one
/// stay small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// Before anything was read.
    Nowhere,
    /// A 1-based line of text.
    Line(usize),
    /// A 1-based blob of a binary file (at most `u32::MAX`; a planet file
    /// has some 50,000) and the byte where it starts.
    #[cfg_attr(
        not(feature = "osm"),
        expect(
            dead_code,
            reason = "only the PBF reader (the osm feature) reads blobs"
        )
    )]
    Blob(u32, u64),
}

/// What is wrong on a line of a map, scenario or road graph file.
///
/// Input quoted in a kind (`text` fields) is cut to its first 60
/// characters followed by `...`, so that an error about a long line stays
/// short.
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
        /// The line, cut to 60 characters (see [`ParseErrorKind`]).
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
        /// The type given, cut to 60 characters.
        text: String,
    },
    /// A field that should be a number and is not one (or is out of range).
    #[error("bad {field} {text:?}")]
    BadNumber {
        /// Which field: `height`, `width`, `bucket`, `start x`, ...
        field: &'static str,
        /// The text found, cut to 60 characters.
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
    #[error(
        "map size {width}x{height} is {} cells, more than the {MAX_CELLS} a map may have",
        u128::from(*width) * u128::from(*height)
    )]
    SizeTooLarge {
        /// Width from the header.
        width: u64,
        /// Height from the header.
        height: u64,
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
        /// The line, cut to 60 characters.
        text: String,
    },
    /// A scenario line without exactly the fields of its dialect: nine,
    /// separated by tabs in `version 1` and by spaces in `version 1.0`.
    #[error(
        "expected {expected} {}-separated fields, found {found}",
        if *separator == '\t' { "tab" } else { "space" }
    )]
    FieldCount {
        /// The number of fields of a scenario line.
        expected: usize,
        /// Fields found.
        found: usize,
        /// The dialect's separator: `'\t'` or `' '` (any run of
        /// whitespace).
        separator: char,
    },
    /// A line longer than the reader's limit (see
    /// [`movingai`](crate::movingai#limits)); found before the line is
    /// stored.
    #[error("line is longer than {limit} bytes")]
    LineTooLong {
        /// The limit, in bytes, not counting the line ending.
        limit: usize,
    },
    /// A line that is not valid UTF-8.
    #[error("invalid UTF-8 at byte {column}")]
    NotUtf8 {
        /// The 1-based byte position of the first invalid byte in the line.
        column: usize,
    },
    /// The input could not be read; the I/O error is the
    /// [`source`](std::error::Error::source).
    #[error("cannot read the file")]
    Io,
    /// A line of a graph file with too few or too many fields for its
    /// record: `a U V W` (an arc) has 4.
    #[error("{record} line has {found} fields, expected {expected}")]
    Fields {
        /// What the line holds: `arc`, `edge`, `problem`, `coordinate`.
        record: &'static str,
        /// The fields that record has.
        expected: usize,
        /// Fields found (whitespace-separated words).
        found: usize,
    },
    /// A node id outside the graph's ids (`first..first + nodes`).
    #[error(
        "node {node} is out of range (ids {first} to {})",
        (*first + *nodes).saturating_sub(1)
    )]
    NodeOutOfRange {
        /// The id as written.
        node: u64,
        /// The first id of the format: 1 for DIMACS and PACE, 0 for arc lists.
        first: u64,
        /// The node count (from the header, or the largest id plus one).
        nodes: u64,
    },
    /// An edge weight that is negative, infinite or not a number.
    #[error("weight {text:?} is not a finite non-negative number")]
    BadWeight {
        /// The weight as written (or as the caller's weight function gave
        /// it), cut to 60 characters.
        text: String,
    },
    /// A header whose count disagrees with what the file holds.
    #[error("header declares {declared} {what}, the file has {found}")]
    CountMismatch {
        /// What is counted: `arcs`, `edges`, `coordinates`.
        what: &'static str,
        /// The count in the header.
        declared: u64,
        /// The count found.
        found: u64,
    },
    /// A line that is none of the records of its format (`c`, `p`, `a`
    /// in DIMACS).
    #[error("unknown line {text:?} (expected {expected})")]
    UnknownRecord {
        /// The line, cut to 60 characters.
        text: String,
        /// The records the format has.
        expected: &'static str,
    },
    /// A node given coordinates twice.
    #[error("node {node} already has coordinates")]
    DuplicateNode {
        /// The id as written.
        node: u64,
    },
    /// A graph with more nodes than the readers take
    /// ([`MAX_GRAPH_NODES`](crate::graph::MAX_GRAPH_NODES)).
    #[error("{nodes} nodes is more than the {max} a graph file may have")]
    TooManyNodes {
        /// The count declared or implied.
        nodes: u64,
        /// The limit.
        max: u64,
    },
    /// A graph whose node count is far above its edge count: all but twice
    /// its edges (and [`ISOLATED_NODES`](crate::graph::ISOLATED_NODES)
    /// more) could only be isolated nodes, and each costs memory.
    #[error(
        "{nodes} nodes for {edges} edges: a graph file may have at most {max} (twice its edges and {} more; the others could only be isolated)",
        crate::graph::ISOLATED_NODES
    )]
    SparseNodes {
        /// The count declared or implied.
        nodes: u64,
        /// The edges declared or found.
        edges: u64,
        /// The most nodes for that many edges.
        max: u64,
    },
    /// Compressed input, which the library does not decompress.
    #[error("the input is {format}-compressed: decompress it first")]
    Compressed {
        /// `xz`, `gzip`, `bzip2` or `zstd`.
        format: &'static str,
    },
    /// Input whose format cannot be told from its first lines.
    #[error(
        "unknown graph format {text:?} (expected a DIMACS `p sp`, a PACE `p tw` or an `a FROM TO WEIGHT` line)"
    )]
    UnknownFormat {
        /// The first line that is not a comment, cut to 60 characters.
        text: String,
    },
    /// An OpenStreetMap PBF file, in a build without the `osm` feature
    /// that reads them.
    #[error(
        "the input is OpenStreetMap PBF, which this build does not read (build cairns with the `osm` feature)"
    )]
    OsmDisabled,
    /// A PBF file that ends inside a blob: its length prefix, its header
    /// or its data.
    #[error("truncated PBF: the {what} needs {expected} bytes, the file has {found} more")]
    Truncated {
        /// What was being read: `blob header length`, `blob header` or
        /// `blob data`.
        what: &'static str,
        /// The bytes it needs.
        expected: u64,
        /// The bytes the input had left.
        found: u64,
    },
    /// A PBF blob header or blob whose declared size is above the format's
    /// limit (64 KiB for a header, 32 MiB for a blob).
    #[error("the {what} declares {size} bytes, more than the {max} a PBF file may have")]
    BlobTooLarge {
        /// `blob header` or `blob data`.
        what: &'static str,
        /// The declared size.
        size: u64,
        /// The format's limit.
        max: u64,
    },
    /// PBF content that does not decode: a bad protobuf message, zlib
    /// stream or string table index, or a blob out of place.
    #[error("corrupt PBF data: {text}")]
    CorruptPbf {
        /// What the decoder said, cut to 60 characters.
        text: String,
    },
    /// A PBF file that requires a feature this reader does not have
    /// (it reads `OsmSchema-V0.6` and `DenseNodes`).
    #[error("the file requires the PBF feature {text:?}, which the reader does not support")]
    UnsupportedFeature {
        /// The feature's name, cut to 60 characters.
        text: String,
    },
    /// An OpenStreetMap node whose coordinates are outside the earth's
    /// (longitude -180 to 180, latitude -90 to 90 degrees).
    #[error(
        "node {node} has coordinates ({}, {}) outside the earth's",
        *lon as f64 * 1e-9, *lat as f64 * 1e-9
    )]
    BadCoordinates {
        /// The OSM node id.
        node: i64,
        /// Longitude in nanodegrees.
        lon: i64,
        /// Latitude in nanodegrees.
        lat: i64,
    },
}

impl ParseError {
    /// An error about line `line` (1-based).
    pub(crate) fn new(line: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            kind,
            at: At::Line(line),
            path: None,
            source: None,
        }
    }

    /// An error about blob `blob` (1-based) of a binary file, which starts at
    /// byte `byte` of it.
    #[cfg(feature = "osm")]
    pub(crate) fn in_blob(blob: usize, byte: u64, kind: ParseErrorKind) -> ParseError {
        ParseError::new(blob, kind).at_byte(byte)
    }

    /// The same error, about the blob of a binary file that starts at byte
    /// `byte` (its [`line`](Self::line) is the blob's number).
    #[must_use]
    #[cfg(feature = "osm")]
    pub(crate) fn at_byte(mut self, byte: u64) -> ParseError {
        let blob = match self.at {
            At::Line(n) => u32::try_from(n).unwrap_or(u32::MAX),
            At::Blob(n, _) => n,
            At::Nowhere => 1,
        };
        self.at = At::Blob(blob, byte);
        self
    }

    /// `text` is not a `field` (a number of that kind), on line `line`.
    pub(crate) fn bad_number(line: usize, field: &'static str, text: &str) -> ParseError {
        ParseError::new(
            line,
            ParseErrorKind::BadNumber {
                field,
                text: excerpt(text),
            },
        )
    }

    /// An I/O error, on line `line` when reading had started.
    pub(crate) fn io(source: io::Error, line: Option<usize>) -> ParseError {
        ParseError {
            kind: ParseErrorKind::Io,
            at: line.map_or(At::Nowhere, At::Line),
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
    /// opened). In a binary file (PBF), which has no lines, the 1-based
    /// number of the blob the error is in (see [`byte`](Self::byte)).
    pub fn line(&self) -> Option<usize> {
        match self.at {
            At::Nowhere => None,
            At::Line(line) => Some(line),
            At::Blob(blob, _) => Some(blob as usize),
        }
    }

    /// For an error in a binary file (PBF), the byte of the file where the
    /// blob the error is in starts (its length prefix); `None` for text.
    pub fn byte(&self) -> Option<u64> {
        match self.at {
            At::Blob(_, byte) => Some(byte),
            At::Nowhere | At::Line(_) => None,
        }
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
        match self.at {
            At::Blob(blob, byte) => write!(f, "blob {blob} (from byte {byte}): ")?,
            At::Line(line) => write!(f, "line {line}: ")?,
            At::Nowhere => {}
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

/// Opens a file and parses it as it is read (in a 64 KiB buffer), naming
/// the file in errors.
pub(crate) fn load<T>(
    path: &Path, parse: impl FnOnce(BufReader<File>) -> Result<T, ParseError>,
) -> Result<T, ParseError> {
    let file = File::open(path).map_err(|e| ParseError::io(e, None).with_path(path))?;
    parse(BufReader::with_capacity(64 * 1024, file)).map_err(|e| e.with_path(path))
}

/// At most this many characters of input are quoted in an error, counted
/// as displayed (escaped).
const QUOTE_CHARS: usize = 60;

/// `text` to quote in an error: as many of its first characters as take
/// at most [`QUOTE_CHARS`] characters once escaped the way the messages
/// show them (`{:?}`), followed by `...` when that is not all of it.
///
/// Counting escapes matters: a control character displays as up to ten
/// characters (`\u{10ffff}`), and 60 of them made a 600-byte message (found
/// by the `map` fuzz target).
pub(crate) fn excerpt(text: &str) -> String {
    let mut shown = 0;
    for (i, ch) in text.char_indices() {
        shown += ch.escape_debug().count();
        if shown > QUOTE_CHARS {
            return format!("{}...", &text[..i]);
        }
    }
    text.to_owned()
}

/// `text` as a whole number of ASCII digits only (no sign), read as the
/// `field` of line `line`; a number too large for `T` is a bad one.
pub(crate) fn whole_number<T: std::str::FromStr>(
    line: usize, field: &'static str, text: &str,
) -> Result<T, ParseError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::bad_number(line, field, text));
    }
    text.parse()
        .map_err(|_| ParseError::bad_number(line, field, text))
}

/// Reads the lines of a text one at a time, numbered from 1, split on `\n`
/// with a trailing `\r` removed.
///
/// A line is copied into one buffer that is reused, and a line longer than
/// the limit is an error ([`ParseErrorKind::LineTooLong`]) as soon as the
/// limit is passed, so memory stays within the limit plus the reader's own
/// buffer whatever the input. A line that is not UTF-8 is an error naming
/// it ([`ParseErrorKind::NotUtf8`]).
#[derive(Debug)]
pub(crate) struct LineReader<R> {
    reader: R,
    line: Vec<u8>,
    number: usize,
    limit: usize,
}

impl<R: BufRead> LineReader<R> {
    /// Reads lines of at most `limit` bytes, not counting the line ending.
    pub(crate) fn new(reader: R, limit: usize) -> Self {
        LineReader {
            reader,
            line: Vec::new(),
            number: 0,
            limit,
        }
    }

    /// Changes the limit for the following lines.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    /// The number of the last line returned (0 before the first).
    pub(crate) fn number(&self) -> usize {
        self.number
    }

    /// The next line and its number, or `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> Result<Option<(usize, &str)>, ParseError> {
        self.line.clear();
        let mut started = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // The line being read; none before the first byte.
                    let line = if started {
                        Some(self.number)
                    } else {
                        Some(self.number + 1).filter(|_| self.number > 0)
                    };
                    return Err(ParseError::io(e, line));
                }
            };
            if available.is_empty() {
                if !started {
                    return Ok(None);
                }
                break;
            }
            if !started {
                started = true;
                self.number += 1;
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.unwrap_or(available.len());
            // One byte past the limit may be the `\r` of a `\r\n` ending.
            if self.line.len() + take > self.limit.saturating_add(1) {
                return Err(self.too_long());
            }
            self.line.extend_from_slice(&available[..take]);
            self.reader.consume(take + usize::from(newline.is_some()));
            if newline.is_some() {
                break;
            }
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        if self.line.len() > self.limit {
            return Err(self.too_long());
        }
        match std::str::from_utf8(&self.line) {
            Ok(line) => Ok(Some((self.number, line))),
            Err(e) => Err(ParseError::new(
                self.number,
                ParseErrorKind::NotUtf8 {
                    column: e.valid_up_to() + 1,
                },
            )),
        }
    }

    fn too_long(&self) -> ParseError {
        ParseError::new(
            self.number,
            ParseErrorKind::LineTooLong { limit: self.limit },
        )
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

    /// All lines of `input` with limit `limit`, or the first error.
    fn lines(input: &[u8], limit: usize) -> Result<Vec<(usize, String)>, ParseError> {
        let mut reader = LineReader::new(input, limit);
        let mut out = Vec::new();
        while let Some((n, line)) = reader.next_line()? {
            out.push((n, line.to_owned()));
        }
        Ok(out)
    }

    #[test]
    fn lines_strip_crlf_and_count() {
        let got = lines(b"a\r\nb\n\nc", 10).unwrap();
        let want = [(1, "a"), (2, "b"), (3, ""), (4, "c")];
        assert_eq!(got.len(), want.len());
        for ((n, line), (m, expected)) in got.iter().zip(want) {
            assert_eq!((*n, line.as_str()), (m, expected));
        }
        assert_eq!(lines(b"x\n", 10).unwrap().len(), 1);
        assert!(lines(b"", 10).unwrap().is_empty());
        // A lone `\r` inside a line stays.
        assert_eq!(lines(b"a\rb\n", 10).unwrap()[0].1, "a\rb");
    }

    #[test]
    fn limit_counts_bytes_without_the_line_ending() {
        assert!(lines(b"abcd\r\nabcd\nabcd", 4).is_ok());
        for input in [
            &b"ok\nabcde\n"[..],
            b"ok\nabcde",
            b"ok\nabcde\r\n",
            b"ok\nabcd\r\r\n",
        ] {
            let e = lines(input, 4).unwrap_err();
            assert_eq!(
                e.kind(),
                &ParseErrorKind::LineTooLong { limit: 4 },
                "{input:?}"
            );
            assert_eq!(e.to_string(), "line 2: line is longer than 4 bytes");
        }
    }

    /// A reader that hands out at most 3 bytes per call, to cross the
    /// limit and line ends between calls.
    struct Trickle<'a>(&'a [u8]);

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(3).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_long_line_is_refused_without_being_stored() {
        let mut input = b"short\n".to_vec();
        input.resize(1 << 20, b'x');
        let mut reader = LineReader::new(io::BufReader::with_capacity(3, Trickle(&input)), 100);
        assert_eq!(reader.next_line().unwrap(), Some((1, "short")));
        let e = reader.next_line().unwrap_err();
        assert_eq!(e.kind(), &ParseErrorKind::LineTooLong { limit: 100 });
        assert_eq!(e.line(), Some(2));
        assert!(reader.line.capacity() < 256, "{}", reader.line.capacity());
    }

    #[test]
    fn invalid_utf8_names_the_line_and_byte() {
        let e = lines(b"fine\n\xc3\xa9t\xe9\n", 100).unwrap_err();
        assert_eq!(
            (e.line(), e.kind()),
            (Some(2), &ParseErrorKind::NotUtf8 { column: 4 })
        );
        assert_eq!(e.to_string(), "line 2: invalid UTF-8 at byte 4");
    }

    #[test]
    fn io_errors_come_through_source_with_the_line() {
        struct FailsAfter(usize);
        impl io::Read for FailsAfter {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk on fire"));
                }
                let n = self.0.min(buf.len());
                buf[..n].fill(b'\n');
                self.0 -= n;
                Ok(n)
            }
        }
        let read = |n| {
            let mut reader = LineReader::new(io::BufReader::new(FailsAfter(n)), 10);
            while reader.next_line()?.is_some() {}
            Ok::<_, ParseError>(())
        };
        let e = read(0).unwrap_err();
        assert_eq!((e.kind(), e.line()), (&ParseErrorKind::Io, None));
        assert_eq!(
            std::error::Error::source(&e).unwrap().to_string(),
            "disk on fire"
        );
        let e = read(2).unwrap_err();
        assert_eq!((e.kind(), e.line()), (&ParseErrorKind::Io, Some(3)));
        assert_eq!(e.to_string(), "line 3: cannot read the file");
    }

    #[test]
    fn excerpts_are_cut_to_60_characters() {
        assert_eq!(excerpt("short"), "short");
        let sixty = "é".repeat(60);
        assert_eq!(excerpt(&sixty), sixty);
        assert_eq!(excerpt(&format!("{sixty}x")), format!("{sixty}..."));
    }

    /// Control characters display escaped (`\u{3}`, five characters each):
    /// the fuzzer found 60 of them making a 330-byte message.
    #[test]
    fn excerpts_count_escaped_characters() {
        let controls = "\u{3}".repeat(100);
        let cut = excerpt(&controls);
        assert_eq!(cut, format!("{}...", "\u{3}".repeat(12)));
        assert!(format!("{cut:?}").len() <= 60 + 5);
        let e = ParseError::new(
            3,
            ParseErrorKind::UnsupportedType {
                text: excerpt(&format!("octile{controls}")),
            },
        );
        assert!(e.to_string().len() < 120, "{e}");
    }
}
