//! `.scen` files: start/goal pairs with their optimal octile lengths.

use std::ffi::OsString;
use std::fmt;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::{LoadError, MAX_LINE, ParseError, ParseErrorKind, load};
use crate::graph::NodeId;
use crate::grid::{Grid, Tile};
use crate::parse::{LineReader, excerpt, whole_number};

/// The dialect of a scenario file, from its first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScenVersion {
    /// `version 1`: tab-separated fields, lengths printed `%g`-style with at
    /// most 6 significant digits (or, in the street maps, 8 fixed decimals).
    V1,
    /// `version 1.0`: space-separated fields, lengths printed with 2
    /// decimals.
    V1_0,
}

impl ScenVersion {
    /// The version number as written after `version`: `1` or `1.0`.
    pub fn as_str(self) -> &'static str {
        match self {
            ScenVersion::V1 => "1",
            ScenVersion::V1_0 => "1.0",
        }
    }
}

impl fmt::Display for ScenVersion {
    /// The version line, `version 1` or `version 1.0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "version {}", self.as_str())
    }
}

/// One line of a scenario file: a start, a goal and the optimal length
/// between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// 1-based line number in the file.
    pub line: usize,
    /// The bucket (a difficulty class; the files number them from 0 or 1).
    pub bucket: u32,
    /// The map column as written. It is not a usable path: use
    /// [`map_path_for`] on the scenario file's path instead.
    pub map: String,
    /// Width of the map the scenario was made for.
    pub map_width: u32,
    /// Height of the map the scenario was made for.
    pub map_height: u32,
    /// Start `(x, y)`.
    pub start: (u32, u32),
    /// Goal `(x, y)`.
    pub goal: (u32, u32),
    /// The optimal octile length as printed.
    pub optimal: f64,
    /// How many decimals `optimal` was printed with (for
    /// [`lengths_match`]).
    pub decimals: u32,
}

/// A parsed scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioFile {
    /// The dialect of the file.
    pub version: ScenVersion,
    /// The scenarios in file order.
    pub scenarios: Vec<Scenario>,
}

/// Which end of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// The start.
    Start,
    /// The goal.
    Goal,
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// A scenario that does not fit its map: what is wrong
/// ([`kind`](Self::kind)) and the scenario's line ([`line`](Self::line)).
///
/// Displayed as `line 12: start (3, 4) is on a blocked tile '@'`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ScenarioError {
    line: usize,
    kind: ScenarioErrorKind,
}

impl ScenarioError {
    /// What is wrong.
    pub fn kind(&self) -> &ScenarioErrorKind {
        &self.kind
    }

    /// The 1-based line of the scenario in its file (always `Some`; an
    /// `Option` like every error of the library that can name a line).
    pub fn line(&self) -> Option<usize> {
        Some(self.line)
    }
}

/// What is wrong with a scenario for a given map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScenarioErrorKind {
    /// The scenario's map size is not the map's size.
    #[error(
        "scenario is for a {}x{} map, the map is {}x{}",
        expected.0, expected.1, found.0, found.1
    )]
    MapSize {
        /// `(width, height)` written in the scenario.
        expected: (u32, u32),
        /// `(width, height)` of the map.
        found: (u32, u32),
    },
    /// An endpoint outside the map.
    #[error("{which} ({x}, {y}) is outside the map")]
    OutOfRange {
        /// Start or goal.
        which: Endpoint,
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// An endpoint on a tile that is not passable.
    #[error("{which} ({x}, {y}) is on a blocked tile {tile:?}")]
    Blocked {
        /// Start or goal.
        which: Endpoint,
        /// Column.
        x: u32,
        /// Row.
        y: u32,
        /// The tile's character.
        tile: char,
    },
}

impl Scenario {
    /// The start and goal node ids on `grid`, after checking that the
    /// scenario was made for a map of this size and that both endpoints are
    /// on the map and passable.
    ///
    /// ```
    /// use cairns::grid::Grid;
    /// use cairns::movingai::parse_scen;
    ///
    /// let grid = Grid::from_ascii("
    ///     ...
    ///     .@.
    /// ")?;
    /// let file = parse_scen("version 1\n0\tx.map\t3\t2\t0\t0\t2\t1\t2.41421356\n")?;
    /// let (start, goal) = file.scenarios[0].endpoints(&grid)?;
    /// assert_eq!(grid.coords(goal), (2, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ScenarioErrorKind::MapSize`] when the scenario's width and height
    /// are not the grid's, [`ScenarioErrorKind::OutOfRange`] or
    /// [`ScenarioErrorKind::Blocked`] for the first bad endpoint (start
    /// before goal).
    pub fn endpoints(&self, grid: &Grid) -> Result<(NodeId, NodeId), ScenarioError> {
        self.endpoints_where(grid, Tile::is_passable)
    }

    /// [`endpoints`](Self::endpoints) with another rule for which tiles a
    /// unit may stand on: under terrain costs, those of finite cost.
    ///
    /// # Errors
    ///
    /// As [`endpoints`](Self::endpoints).
    pub fn endpoints_where(
        &self, grid: &Grid, passable: impl Fn(Tile) -> bool,
    ) -> Result<(NodeId, NodeId), ScenarioError> {
        self.check_map_size(grid)?;
        let start = self.endpoint(grid, &passable, Endpoint::Start, self.start)?;
        let goal = self.endpoint(grid, &passable, Endpoint::Goal, self.goal)?;
        Ok((start, goal))
    }

    fn check_map_size(&self, grid: &Grid) -> Result<(), ScenarioError> {
        let expected = (self.map_width, self.map_height);
        let found = (grid.width(), grid.height());
        if expected == found {
            Ok(())
        } else {
            Err(self.error(ScenarioErrorKind::MapSize { expected, found }))
        }
    }

    fn endpoint(
        &self, grid: &Grid, passable: &impl Fn(Tile) -> bool, which: Endpoint, (x, y): (u32, u32),
    ) -> Result<NodeId, ScenarioError> {
        match grid.get(x, y) {
            None => Err(self.error(ScenarioErrorKind::OutOfRange { which, x, y })),
            Some(tile) if !passable(tile) => Err(self.error(ScenarioErrorKind::Blocked {
                which,
                x,
                y,
                tile: tile.to_char(),
            })),
            Some(_) => Ok(grid.node(x, y)),
        }
    }

    fn error(&self, kind: ScenarioErrorKind) -> ScenarioError {
        ScenarioError {
            line: self.line,
            kind,
        }
    }
}

impl ScenarioFile {
    /// Checks that every scenario was made for a map of `grid`'s size.
    ///
    /// # Errors
    ///
    /// [`ScenarioErrorKind::MapSize`] for the first line that disagrees.
    pub fn check_map_size(&self, grid: &Grid) -> Result<(), ScenarioError> {
        self.scenarios
            .iter()
            .try_for_each(|s| s.check_map_size(grid))
    }
}

/// The fields of a scenario line after the bucket and the map name.
const NUMERIC_FIELDS: [&str; 7] = [
    "map width",
    "map height",
    "start x",
    "start y",
    "goal x",
    "goal y",
    "optimal length",
];
/// The number of fields of a scenario line.
const FIELDS: usize = NUMERIC_FIELDS.len() + 2;

/// Parses the text of a Moving AI `.scen` file.
///
/// The first non-blank line is `version 1` or `version 1.0`; each further
/// non-blank line is `bucket map width height start_x start_y goal_x goal_y
/// optimal_length`: exactly nine fields, separated by tabs in `version 1`
/// (a map name may then hold spaces; spaces around a field are ignored)
/// and by runs of spaces in `version 1.0`. Lines may end in `\n` or
/// `\r\n`. A file holding only the version line has no scenarios.
///
/// ```
/// use cairns::movingai::{ScenVersion, parse_scen};
///
/// let file = parse_scen("version 1.0\n3 maps/x.map 512 512 1 2 3 4 5.66\n")?;
/// assert_eq!(file.version, ScenVersion::V1_0);
/// let s = &file.scenarios[0];
/// assert_eq!((s.start, s.goal, s.optimal, s.decimals), ((1, 2), (3, 4), 5.66, 2));
/// # Ok::<(), cairns::movingai::ParseError>(())
/// ```
///
/// # Errors
///
/// A [`ParseError`] for the first malformed line: an empty input, a bad
/// version line, a line without exactly nine fields, a field that is not a
/// non-negative number (a whole number except for the length), or a line
/// beyond the [limits](super#limits).
pub fn parse_scen(text: &str) -> Result<ScenarioFile, ParseError> {
    parse_scen_from(text.as_bytes())
}

/// Parses a Moving AI `.scen` file from a reader, line by line (see
/// [`parse_scen`] for the format).
///
/// One line at a time is buffered, within the [limits](super#limits); the
/// memory kept is that of the scenarios read. Wrap a file in a
/// [`BufReader`](std::io::BufReader).
///
/// # Errors
///
/// As [`parse_scen`], plus a line that is not UTF-8 and an I/O error of
/// `reader` (kind [`Io`](ParseErrorKind::Io), the I/O error as the
/// [`source`](std::error::Error::source)).
pub fn parse_scen_from(reader: impl BufRead) -> Result<ScenarioFile, ParseError> {
    let mut lines = LineReader::new(reader, MAX_LINE);
    let mut version = None;
    let mut scenarios = Vec::new();
    while let Some((number, line)) = lines.next_line()? {
        if line.trim().is_empty() {
            continue;
        }
        match version {
            Some(version) => scenarios.push(parse_scenario(number, line, version)?),
            None => version = Some(parse_version(number, line)?),
        }
    }
    let Some(version) = version else {
        return Err(ParseError::new(1, ParseErrorKind::Empty));
    };
    Ok(ScenarioFile { version, scenarios })
}

fn parse_version(number: usize, line: &str) -> Result<ScenVersion, ParseError> {
    let mut words = line.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some("version"), Some("1"), None) => Ok(ScenVersion::V1),
        (Some("version"), Some("1.0"), None) => Ok(ScenVersion::V1_0),
        _ => Err(ParseError::new(
            number,
            ParseErrorKind::BadVersion {
                text: excerpt(line),
            },
        )),
    }
}

/// Splits `line` into `out`; returns the number of fields, which may be
/// more than `out` holds.
fn split_fields<'a>(fields: impl Iterator<Item = &'a str>, out: &mut [&'a str; FIELDS]) -> usize {
    let mut found = 0;
    for field in fields {
        if let Some(slot) = out.get_mut(found) {
            *slot = field;
        }
        found += 1;
    }
    found
}

fn parse_scenario(number: usize, line: &str, version: ScenVersion) -> Result<Scenario, ParseError> {
    let mut fields = [""; FIELDS];
    let (found, separator) = match version {
        ScenVersion::V1 => (
            split_fields(line.split('\t').map(str::trim), &mut fields),
            '\t',
        ),
        ScenVersion::V1_0 => (split_fields(line.split_whitespace(), &mut fields), ' '),
    };
    if found != FIELDS {
        return Err(ParseError::new(
            number,
            ParseErrorKind::FieldCount {
                expected: FIELDS,
                found,
                separator,
            },
        ));
    }
    let [bucket, map, numbers @ ..] = fields;
    let uint = |i: usize| whole_number::<u32>(number, NUMERIC_FIELDS[i], numbers[i]);
    let length_text = numbers[6];
    let (optimal, decimals) = parse_length(length_text)
        .ok_or_else(|| ParseError::bad_number(number, "optimal length", length_text))?;
    Ok(Scenario {
        line: number,
        bucket: whole_number(number, "bucket", bucket)?,
        map: map.to_owned(),
        map_width: uint(0)?,
        map_height: uint(1)?,
        start: (uint(2)?, uint(3)?),
        goal: (uint(4)?, uint(5)?),
        optimal,
        decimals,
    })
}

/// A non-negative finite decimal number, optionally with an exponent
/// (`%g` may print one), and the number of decimals it was printed with:
/// the digits after the point, less the exponent.
fn parse_length(text: &str) -> Option<(f64, u32)> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (text.get(..i)?, text.get(i + 1..)?),
        None => (text, "0"),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
        return None;
    }
    let exponent_digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    if exponent_digits.is_empty() || !digits(exponent_digits) {
        return None;
    }
    let exponent: i64 = exponent.parse().ok()?;
    let value: f64 = text.parse().ok()?;
    if !value.is_finite() {
        return None;
    }
    let decimals = (frac.len() as i64).saturating_sub(exponent).clamp(0, 400);
    Some((value, decimals as u32))
}

/// Reads and parses a `.scen` file (see [`parse_scen`]).
///
/// # Errors
///
/// A [`ParseError`] naming the file: an I/O error (kind
/// [`Io`](ParseErrorKind::Io), the I/O error as its
/// [`source`](std::error::Error::source)) or what the parser found.
pub fn read_scen(path: &Path) -> Result<ScenarioFile, LoadError> {
    load(path, parse_scen_from)
}

/// Whether a computed path cost matches a length printed with `decimals`
/// decimals in a scenario file.
///
/// The published lengths are rounded for printing and also carry their
/// generator's own floating-point error, so they match when
/// `|computed - printed| <= max(0.5 * 10^-decimals, 1e-5 * printed)`. This
/// accepts every optimal path in the Moving AI sets and little else (a
/// path one diagonal-for-two-straights longer differs by about 0.59).
///
/// ```
/// use cairns::movingai::lengths_match;
///
/// assert!(lengths_match(22.556354, 22.55634918, 8));
/// assert!(lengths_match(23.556354, 23.5563, 4));
/// assert!(!lengths_match(24.0, 23.5563, 4));
/// ```
pub fn lengths_match(computed: f64, printed: f64, decimals: u32) -> bool {
    let rounding = 0.5 * 10f64.powi(-(decimals.min(400) as i32));
    let tolerance = rounding.max(1e-5 * printed.abs());
    (computed - printed).abs() <= tolerance
}

/// The map file of a scenario file: `x/NAME.map.scen` gives `x/NAME.map`
/// beside it.
///
/// The map column inside scenario files is not usable for this (it may be
/// `maps/dao/x.map`, `maps/bgmaps/x.map` for a file whose map is elsewhere,
/// or a bare name). A final `.scen` is removed, and `.map` is appended when
/// what remains does not end in `.map` (`x/NAME.scen` gives `x/NAME.map`).
///
/// ```
/// use std::path::Path;
/// use cairns::movingai::map_path_for;
///
/// assert_eq!(map_path_for(Path::new("dao/arena.map.scen")), Path::new("dao/arena.map"));
/// ```
pub fn map_path_for(scen_path: &Path) -> PathBuf {
    let mut path = scen_path.to_path_buf();
    if path.extension().is_some_and(|e| e == "scen") {
        path.set_extension("");
    }
    if path.extension().is_none_or(|e| e != "map") {
        let mut name: OsString = path.file_name().map(ToOwned::to_owned).unwrap_or_default();
        name.push(".map");
        path.set_file_name(name);
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movingai::map::parse_map;
    use crate::movingai::read_map;
    use crate::movingai::test_data::{assert_fails, data_dir, real_files};

    fn kind(text: &str) -> ParseErrorKind {
        parse_scen(text).unwrap_err().kind().clone()
    }

    fn one(line: &str) -> Scenario {
        let file = parse_scen(&format!("version 1\n{line}\n")).unwrap();
        assert_eq!(file.scenarios.len(), 1);
        file.scenarios.into_iter().next().unwrap()
    }

    #[test]
    fn both_dialects() {
        let v1 = parse_scen("version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n").unwrap();
        assert_eq!(v1.version, ScenVersion::V1);
        let s = &v1.scenarios[0];
        assert_eq!(s.line, 2);
        assert_eq!(s.bucket, 0);
        assert_eq!(s.map, "maps/dao/arena.map");
        assert_eq!((s.map_width, s.map_height), (49, 49));
        assert_eq!((s.start, s.goal), ((1, 11), (1, 12)));
        assert_eq!((s.optimal, s.decimals), (1.0, 0));

        let v10 = parse_scen(
            "version 1.0\r\n61 maps/bgmaps/AR0011SR.map 512 512 210 395 87 201 244.95\r\n",
        )
        .unwrap();
        assert_eq!(v10.version, ScenVersion::V1_0);
        let s = &v10.scenarios[0];
        assert_eq!((s.optimal, s.decimals), (244.95, 2));
        assert_eq!(s.map, "maps/bgmaps/AR0011SR.map");
        assert_eq!(ScenVersion::V1_0.to_string(), "version 1.0");
    }

    #[test]
    fn map_names_with_spaces_and_blank_lines() {
        let file =
            parse_scen("\nversion 1\n\n1\tmy  map.map\t4\t4\t0\t0\t3\t3\t4.24264\n\n").unwrap();
        let s = &file.scenarios[0];
        assert_eq!(s.line, 4);
        assert_eq!(s.map, "my  map.map");
        assert_eq!(s.decimals, 5);
    }

    #[test]
    fn version_only_and_empty_files() {
        let file = parse_scen("version 1\n").unwrap();
        assert!(file.scenarios.is_empty());
        assert!(parse_scen("version 1.0").unwrap().scenarios.is_empty());
        for text in ["", "\n\n", " \r\n"] {
            let e = parse_scen(text).unwrap_err();
            assert_eq!(*e.kind(), ParseErrorKind::Empty, "{text:?}");
        }
    }

    #[test]
    fn bad_version() {
        for text in [
            "version 2\n",
            "1\tx.map\t1\t1\t0\t0\t0\t0\t0\n",
            "version\n",
        ] {
            assert!(
                matches!(kind(text), ParseErrorKind::BadVersion { .. }),
                "{text:?}"
            );
        }
        let e = parse_scen("version 3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: bad version line \"version 3\" (expected \"version 1\" or \"version 1.0\")"
        );
    }

    #[test]
    fn missing_fields() {
        assert_fails(
            parse_scen("version 1\n0\tx.map\t4\t4\t0\t0\t3\t3\n"),
            2,
            ParseErrorKind::FieldCount {
                expected: 9,
                found: 8,
                separator: '\t',
            },
            "line 2: expected 9 tab-separated fields, found 8",
        );
    }

    /// A version-1 line with a tenth field used to be read by its last
    /// nine fields; each dialect now takes exactly nine.
    #[test]
    fn extra_fields_are_an_error() {
        let e = parse_scen("version 1\n0\tx.map\t4\t4\t0\t0\t3\t3\t4.24\t7\n").unwrap_err();
        assert_eq!(
            (e.line(), e.kind()),
            (
                Some(2),
                &ParseErrorKind::FieldCount {
                    expected: 9,
                    found: 10,
                    separator: '\t'
                }
            )
        );
        // A trailing tab makes an empty tenth field.
        assert!(parse_scen("version 1\n0\tx.map\t4\t4\t0\t0\t3\t3\t4.24\t\n").is_err());
        // Space-separated fields in a tab-separated dialect.
        assert!(matches!(
            kind("version 1\n0 x.map 4 4 0 0 3 3 4.24\n"),
            ParseErrorKind::FieldCount { found: 1, .. }
        ));
        let e = parse_scen("version 1.0\n0 a b.map 4 4 0 0 3 3 4.24\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: expected 9 space-separated fields, found 10"
        );
        // Spaces around tab-separated fields are fine.
        let s = one("0 \t x.map\t4\t4\t0\t0\t3\t3\t4.24 ");
        assert_eq!((s.map.as_str(), s.optimal), ("x.map", 4.24));
    }

    #[test]
    fn long_lines_are_refused_and_quotes_cut() {
        let long = "9".repeat(MAX_LINE + 1);
        let e = parse_scen(&format!("version 1\n{long}\n")).unwrap_err();
        assert_eq!(
            (e.line(), e.kind()),
            (Some(2), &ParseErrorKind::LineTooLong { limit: MAX_LINE })
        );
        let e = parse_scen(&format!(
            "version 1\n0\tm\t4\t4\t0\t0\t3\t3\t{}\n",
            &long[..1000]
        ))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("line 2: bad optimal length \"{}...\"", "9".repeat(60))
        );
        let e = parse_scen(&format!("version {}", &long[..100])).unwrap_err();
        assert!(e.to_string().len() < 160, "{e}");
    }

    #[test]
    fn non_utf8_names_the_line() {
        let e =
            parse_scen_from(&b"version 1\n\n0\tm\xe9.map\t4\t4\t0\t0\t3\t3\t1\n"[..]).unwrap_err();
        assert_eq!(
            (e.line(), e.kind()),
            (Some(3), &ParseErrorKind::NotUtf8 { column: 4 })
        );
    }

    #[test]
    fn non_numeric_fields() {
        let cases = [
            ("x\tm\t4\t4\t0\t0\t3\t3\t1", "bucket", "x"),
            ("0\tm\t4a\t4\t0\t0\t3\t3\t1", "map width", "4a"),
            ("0\tm\t4\t4\t-1\t0\t3\t3\t1", "start x", "-1"),
            ("0\tm\t4\t4\t0\t0\t3\t+3\t1", "goal y", "+3"),
            (
                "0\tm\t4\t4\t0\t0\t99999999999\t3\t1",
                "goal x",
                "99999999999",
            ),
            ("0\tm\t4\t4\t0\t0\t3\t3\tinf", "optimal length", "inf"),
            ("0\tm\t4\t4\t0\t0\t3\t3\tNaN", "optimal length", "NaN"),
            ("0\tm\t4\t4\t0\t0\t3\t3\t-1.5", "optimal length", "-1.5"),
            ("0\tm\t4\t4\t0\t0\t3\t3\t1.2.3", "optimal length", "1.2.3"),
            ("0\tm\t4\t4\t0\t0\t3\t3\t.", "optimal length", "."),
            ("0\tm\t4\t4\t0\t0\t3\t3\t1e", "optimal length", "1e"),
        ];
        for (line, field, text) in cases {
            let e = parse_scen(&format!("version 1\n{line}\n")).unwrap_err();
            assert_eq!(e.line(), Some(2), "{line}");
            let ParseErrorKind::BadNumber { field: f, text: t } = e.kind() else {
                panic!("{line}: {e}");
            };
            assert_eq!((*f, t.as_str()), (field, text), "{line}");
        }
    }

    #[test]
    fn huge_length_is_a_number() {
        // 99999999999 as the length is a valid (if absurd) length.
        let s = one("0\tm\t4\t4\t0\t0\t3\t3\t99999999999");
        assert_eq!(s.optimal, 99_999_999_999.0);
    }

    #[test]
    fn decimals_are_counted_as_printed() {
        for (text, value, decimals) in [
            ("1", 1.0, 0),
            ("3.82843", 3.82843, 5),
            ("2835.11", 2835.11, 2),
            ("2.00000000", 2.0, 8),
            ("1.23457e+06", 1_234_570.0, 0),
            ("1.5e-3", 0.0015, 4),
            ("7.", 7.0, 0),
        ] {
            let s = one(&format!("0\tm\t4\t4\t0\t0\t3\t3\t{text}"));
            assert_eq!((s.optimal, s.decimals), (value, decimals), "{text}");
        }
    }

    #[test]
    fn lengths_match_inventory_examples() {
        assert!(lengths_match(22.556_354, 22.556_349_18, 8));
        assert!(lengths_match(23.556_354, 23.5563, 4));
        assert!(lengths_match(3.82843, 3.828_427, 6));
        assert!(lengths_match(3.828_427, 3.82843, 5));
        assert!(!lengths_match(24.0, 23.5563, 4));
        // Rounding of a 2-decimal length.
        assert!(lengths_match(244.954, 244.95, 2));
        assert!(!lengths_match(244.97, 244.95, 2));
        assert!(!lengths_match(f64::NAN, 1.0, 0));
    }

    #[test]
    fn map_path_for_scenario_files() {
        let p = |s: &str| map_path_for(Path::new(s));
        assert_eq!(p("x/NAME.map.scen"), PathBuf::from("x/NAME.map"));
        assert_eq!(
            p("/a/b/Berlin_0_256.map.scen"),
            PathBuf::from("/a/b/Berlin_0_256.map")
        );
        assert_eq!(p("NAME.scen"), PathBuf::from("NAME.map"));
        assert_eq!(p("x/NAME"), PathBuf::from("x/NAME.map"));
    }

    const MAP: &str = "type octile\nheight 3\nwidth 4\nmap\n....\n.@T.\n....\n";

    fn check(line: &str) -> Result<(NodeId, NodeId), ScenarioError> {
        let grid = parse_map(MAP).unwrap();
        let file = parse_scen(&format!("version 1\n\n{line}\n")).unwrap();
        file.scenarios[0].endpoints(&grid)
    }

    #[test]
    fn endpoints_of_a_valid_scenario() {
        let (s, g) = check("0\tm\t4\t3\t0\t0\t3\t2\t3.82843").unwrap();
        assert_eq!((s, g), (NodeId(0), NodeId(11)));
    }

    #[test]
    fn endpoints_out_of_range() {
        let e = check("0\tm\t4\t3\t0\t0\t4\t2\t4").unwrap_err();
        assert_eq!(e.line(), Some(3));
        assert_eq!(
            *e.kind(),
            ScenarioErrorKind::OutOfRange {
                which: Endpoint::Goal,
                x: 4,
                y: 2
            }
        );
        assert_eq!(e.to_string(), "line 3: goal (4, 2) is outside the map");
        let e = check("0\tm\t4\t3\t0\t3\t0\t0\t4").unwrap_err();
        assert!(matches!(
            e.kind(),
            ScenarioErrorKind::OutOfRange {
                which: Endpoint::Start,
                ..
            }
        ));
    }

    #[test]
    fn start_on_a_wall() {
        let e = check("0\tm\t4\t3\t1\t1\t0\t0\t1.41421").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: start (1, 1) is on a blocked tile '@'"
        );
        let e = check("0\tm\t4\t3\t0\t0\t2\t1\t2.41421").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: goal (2, 1) is on a blocked tile 'T'"
        );
    }

    #[test]
    fn map_size_mismatch() {
        let e = check("0\tm\t3\t4\t0\t0\t1\t0\t1").unwrap_err();
        assert_eq!(
            *e.kind(),
            ScenarioErrorKind::MapSize {
                expected: (3, 4),
                found: (4, 3)
            }
        );
        assert_eq!(
            e.to_string(),
            "line 3: scenario is for a 3x4 map, the map is 4x3"
        );

        let grid = parse_map(MAP).unwrap();
        let file =
            parse_scen("version 1.0\n0 m 4 3 0 0 1 0 1\n0 m 4 4 0 0 1 0 1\n0 m 5 5 0 0 1 0 1\n")
                .unwrap();
        let e = file.check_map_size(&grid).unwrap_err();
        assert_eq!(e.line(), Some(3));
        file.scenarios[0].endpoints(&grid).unwrap();
    }

    #[test]
    fn real_scenario_files_of_both_dialects() {
        let dir = data_dir();
        let dao = read_scen(&dir.join("dao/arena.map.scen")).unwrap();
        assert_eq!(dao.version, ScenVersion::V1);
        assert_eq!(dao.scenarios.len(), 160);
        let bg = read_scen(&dir.join("bg512/AR0011SR.map.scen")).unwrap();
        assert_eq!(bg.version, ScenVersion::V1_0);
        assert_eq!(bg.scenarios.len(), 1280);
        assert!(bg.scenarios.iter().all(|s| s.decimals == 2));
        let street = read_scen(&dir.join("street/Berlin_0_256.map.scen")).unwrap();
        assert_eq!(street.scenarios.len(), 930);
        assert!(street.scenarios.iter().all(|s| s.decimals == 8));
    }

    /// Every scenario file parses and fits its map; only wc3maps512 has
    /// endpoints on blocked tiles, as many as INVENTORY.md says.
    #[test]
    fn every_real_scenario_fits_its_map() {
        let files = real_files("scen");
        assert!(files.len() >= 50, "only {} scenario files", files.len());
        for path in files {
            let file = read_scen(&path).unwrap_or_else(|e| panic!("{e}"));
            let grid = read_map(&map_path_for(&path)).unwrap_or_else(|e| panic!("{e}"));
            file.check_map_size(&grid)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let blocked = file
                .scenarios
                .iter()
                .filter(|s| match s.endpoints(&grid) {
                    Ok(_) => false,
                    Err(e) if matches!(e.kind(), ScenarioErrorKind::Blocked { .. }) => true,
                    Err(e) => panic!("{}: {e}", path.display()),
                })
                .count();
            let name = path.file_name().unwrap().to_string_lossy();
            let expected = match name.as_ref() {
                "battleground.map.scen" => 15,
                "divideandconquer.map.scen" => 24,
                "losttemple.map.scen" => 56,
                _ => 0,
            };
            assert_eq!(blocked, expected, "{}", path.display());
        }
    }

    #[test]
    fn scenario_counts_match_the_inventory() {
        for (file, lines) in [
            ("dao/orz900d.map.scen", 7015),
            ("maze/maze512-1-0.map.scen", 11960),
            ("wc3maps512/battleground.map.scen", 1237),
        ] {
            let scen = read_scen(&data_dir().join(file)).unwrap();
            assert_eq!(scen.scenarios.len(), lines, "{file}");
        }
    }
}
