//! Malformed maps and scenario files through the public API: every error
//! names the file, the line and the specific problem, and nothing panics or
//! allocates for sizes the input cannot hold.

use std::error::Error as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cairns::grid::Grid;
use cairns::movingai::{
    Endpoint, ParseError, ParseErrorKind, ScenarioErrorKind, parse_map, read_map, read_scen,
};

/// A file in the system's temporary directory with a name unique to this
/// process and call, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("cairns-bad-input-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Loads `contents` as a map file and returns the error, after checking
/// that it names the file and displays as `PATH: line N: ...`.
fn map_error(contents: &str) -> ParseError {
    let file = TempFile::new("bad.map", contents);
    let err = read_map(&file.0).expect_err("the map should be rejected");
    parse_error_of(&file, err)
}

fn scen_error(contents: &str) -> ParseError {
    let file = TempFile::new("bad.map.scen", contents);
    let err = read_scen(&file.0).expect_err("the scenario file should be rejected");
    parse_error_of(&file, err)
}

fn parse_error_of(file: &TempFile, err: ParseError) -> ParseError {
    assert_eq!(err.path(), Some(file.0.as_path()));
    let line = err.line().expect("a parse error names its line");
    assert_eq!(
        err.to_string(),
        format!("{}: line {line}: {}", file.0.display(), err.kind())
    );
    assert!(err.source().is_none());
    err
}

/// The message of a file's error after its `PATH: ` prefix (which
/// [`parse_error_of`] checks).
fn after_path(e: &ParseError) -> String {
    let text = e.to_string();
    let path = e
        .path()
        .expect("the error names its file")
        .display()
        .to_string();
    text.strip_prefix(&format!("{path}: "))
        .unwrap_or_else(|| panic!("{text:?} does not start with the path"))
        .to_owned()
}

/// Asserts that `e` is on `line`, of `kind`, with `message` after the path.
#[track_caller]
fn assert_error(e: &ParseError, line: usize, kind: ParseErrorKind, message: &str) {
    assert_eq!((e.line(), e.kind().clone()), (Some(line), kind));
    assert_eq!(after_path(e), message);
}

#[test]
fn truncated_map() {
    // Cut after a row: the error names the last line.
    assert_error(
        &map_error("type octile\nheight 4\nwidth 6\nmap\n......\n.@@.T.\n"),
        6,
        ParseErrorKind::TooFewRows {
            expected: 4,
            found: 2,
        },
        "line 6: expected 4 rows, found 2",
    );

    // Enough bytes (CRLF endings) but a row short.
    assert_error(
        &map_error("type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n....\r\n....\r\n"),
        6,
        ParseErrorKind::TooFewRows {
            expected: 3,
            found: 2,
        },
        "line 6: expected 3 rows, found 2",
    );

    // A real map cut in half.
    let real = std::fs::read_to_string(super::data_dir().join("dao/den201d.map")).unwrap();
    let e = map_error(&real[..real.len() / 2]);
    assert!(
        matches!(
            e.kind(),
            ParseErrorKind::RowWidth { expected: 37, .. }
                | ParseErrorKind::TooFewRows { expected: 37, .. }
        ),
        "{e}"
    );
}

#[test]
fn wrong_row_width() {
    assert_error(
        &map_error("type octile\nheight 3\nwidth 4\nmap\n....\n.....\n....\n"),
        6,
        ParseErrorKind::RowWidth {
            expected: 4,
            found: 5,
        },
        "line 6: row has 5 tiles, expected 4",
    );

    let e = map_error("type octile\nheight 2\nwidth 4\nmap\n....\n..\n\n\n\n\n");
    assert_eq!(
        (e.line(), e.kind().to_string()),
        (Some(6), "row has 2 tiles, expected 4".into())
    );
}

#[test]
fn unknown_tile() {
    assert_error(
        &map_error("type octile\nheight 3\nwidth 4\nmap\n....\n..Q.\n....\n"),
        6,
        ParseErrorKind::UnknownTile {
            ch: 'Q',
            x: 2,
            y: 1,
        },
        "line 6: unknown tile 'Q' at (2, 1)",
    );
}

#[test]
fn huge_header_fails_fast_without_allocating_the_map() {
    let t0 = Instant::now();
    // The tiles grow only as rows arrive.
    let e = map_error("type octile\nheight 4000000000\nwidth 1\nmap\n.\n.\n");
    assert_eq!(e.line(), Some(6));
    assert_eq!(
        *e.kind(),
        ParseErrorKind::TooFewRows {
            expected: 4_000_000_000,
            found: 2
        }
    );
    // More cells than node ids can number.
    assert_error(
        &map_error("type octile\nheight 4000000000\nwidth 2\nmap\n..\n"),
        4,
        ParseErrorKind::SizeTooLarge {
            width: 2,
            height: 4_000_000_000,
        },
        "line 4: map size 2x4000000000 is 8000000000 cells, more than the 4294967295 a map may have",
    );
    // Beyond u32.
    let e = map_error("type octile\nheight 99999999999\nwidth 1\nmap\n.\n");
    assert_eq!(e.line(), Some(2));
    assert!(
        matches!(e.kind(), ParseErrorKind::SizeTooLarge { .. }),
        "{e}"
    );
    // A 4-billion-tile allocation would take seconds and gigabytes.
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
}

#[test]
fn empty_files() {
    for text in ["", "\n\n", "  \r\n\t\n"] {
        let e = map_error(text);
        assert_eq!(*e.kind(), ParseErrorKind::Empty, "{text:?}");
        assert!(e.to_string().ends_with(": file is empty"), "{e}");
        let e = scen_error(text);
        assert_eq!(
            (e.line(), e.kind()),
            (Some(1), &ParseErrorKind::Empty),
            "{text:?}"
        );
    }
    // A header without rows or without its `map` line.
    let e = map_error("type octile\nheight 2\nwidth 2\n");
    assert_eq!(*e.kind(), ParseErrorKind::MissingHeader { expected: "map" });
    assert_eq!(e.line(), Some(3));
    assert_error(
        &map_error("type octile\nheight 2\nmap\n..\n..\n"),
        3,
        ParseErrorKind::MissingHeader { expected: "width" },
        "line 3: missing header line 'width'",
    );
    // Zero size.
    let e = map_error("type octile\nheight 0\nwidth 5\nmap\n");
    assert_eq!(
        *e.kind(),
        ParseErrorKind::ZeroSize {
            width: 5,
            height: 0
        }
    );
}

#[test]
fn bad_header_lines() {
    let e = map_error("type hex\nheight 1\nwidth 1\nmap\n.\n");
    assert_eq!(
        (e.line(), e.kind().to_string()),
        (
            Some(1),
            "unsupported map type \"hex\" (expected \"octile\")".into()
        )
    );
    let e = map_error("type octile\nheight -3\nwidth 1\nmap\n.\n");
    assert_eq!(
        *e.kind(),
        ParseErrorKind::BadNumber {
            field: "height",
            text: "-3".into()
        }
    );
    let e = map_error("type octile\nheight 1\nheight 1\nwidth 1\nmap\n.\n");
    assert_eq!(
        (e.line(), e.kind().clone()),
        (Some(3), ParseErrorKind::DuplicateHeader { field: "height" })
    );
    let e = map_error("type octile\nheight 1\nwidth 1\nmap\n.\n.\n");
    assert_eq!(
        (e.line(), e.kind().clone()),
        (Some(6), ParseErrorKind::TooManyRows { expected: 1 })
    );
}

#[test]
fn scenario_lines_with_missing_or_bad_fields() {
    assert_error(
        &scen_error("version 1\n0\tx.map\t3\t2\t0\t0\t2\t1\t2.41421356\n0\tx.map\t3\t2\t0\t0\n"),
        3,
        ParseErrorKind::FieldCount {
            expected: 9,
            found: 6,
            separator: '\t',
        },
        "line 3: expected 9 tab-separated fields, found 6",
    );

    let e = scen_error("version 1.0\n0 x.map 3 2 -1 0 2 1 2.41\n");
    assert_eq!(
        (e.line(), e.kind().clone()),
        (
            Some(2),
            ParseErrorKind::BadNumber {
                field: "start x",
                text: "-1".into()
            }
        )
    );
    let e = scen_error("version 1.0\n0 x.map 3 2 0 0 2 1 long\n");
    assert_eq!(after_path(&e), "line 2: bad optimal length \"long\"");
    let e = scen_error("version 2\n");
    assert_eq!(
        after_path(&e),
        "line 1: bad version line \"version 2\" (expected \"version 1\" or \"version 1.0\")"
    );
    // A line number counts blank lines too.
    let e = scen_error("version 1\n\n\n0\tx.map\t3\n");
    assert_eq!(e.line(), Some(4));
}

/// The map and scenario of the endpoint tests: 3x2 with a wall at (1, 1).
const MAP: &str = "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n";

fn scenario_kind(scen_line: &str) -> (usize, ScenarioErrorKind, String) {
    let map = TempFile::new("m.map", MAP);
    let scen = TempFile::new(
        "m.map.scen",
        &format!("version 1\n0\tm.map\t3\t2\t0\t0\t2\t1\t2.41421356\n{scen_line}\n"),
    );
    let grid = read_map(&map.0).unwrap();
    let file = read_scen(&scen.0).unwrap();
    assert!(file.scenarios[0].endpoints(&grid).is_ok());
    let e = file.scenarios[1]
        .endpoints(&grid)
        .expect_err("the scenario should not fit");
    if let ScenarioErrorKind::MapSize { .. } = e.kind() {
        assert_eq!(file.check_map_size(&grid), Err(e.clone()));
    } else {
        assert!(file.check_map_size(&grid).is_ok());
    }
    (e.line().unwrap(), e.kind().clone(), e.to_string())
}

/// Each scenario line that does not fit the map: the kind of error, on
/// line 3, and its message.
#[test]
fn scenarios_that_do_not_fit_the_map() {
    let cases = [
        (
            "0\tm.map\t3\t2\t0\t0\t3\t1\t3",
            ScenarioErrorKind::OutOfRange {
                which: Endpoint::Goal,
                x: 3,
                y: 1,
            },
            "line 3: goal (3, 1) is outside the map",
        ),
        (
            "0\tm.map\t3\t2\t1\t1\t0\t0\t1.41421356",
            ScenarioErrorKind::Blocked {
                which: Endpoint::Start,
                x: 1,
                y: 1,
                tile: '@',
            },
            "line 3: start (1, 1) is on a blocked tile '@'",
        ),
        (
            "0\tm.map\t4\t2\t0\t0\t1\t0\t1",
            ScenarioErrorKind::MapSize {
                expected: (4, 2),
                found: (3, 2),
            },
            "line 3: scenario is for a 4x2 map, the map is 3x2",
        ),
    ];
    for (scen_line, want_kind, want_text) in cases {
        let (line, kind, text) = scenario_kind(scen_line);
        assert_eq!((line, kind, text.as_str()), (3, want_kind, want_text));
    }
    let (_, kind, _) = scenario_kind("0\tm.map\t3\t2\t0\t4000000000\t0\t0\t3");
    assert!(matches!(
        kind,
        ScenarioErrorKind::OutOfRange {
            which: Endpoint::Start,
            ..
        }
    ));
}

#[test]
fn missing_file_is_an_io_error_naming_the_file() {
    let path = std::env::temp_dir().join(format!("cairns-missing-{}.map", std::process::id()));
    let e = read_map(&path).unwrap_err();
    assert_eq!(e.kind(), &ParseErrorKind::Io);
    assert_eq!(
        e.to_string(),
        format!("{}: cannot read the file", path.display())
    );
    assert!(e.source().is_some());
    let e = read_scen(&path).unwrap_err();
    assert_eq!(e.kind(), &ParseErrorKind::Io);
}

#[test]
fn non_utf8_file_names_the_line() {
    let file = TempFile::new("latin1.map", "");
    std::fs::write(&file.0, b"type octile\nheight 1\nwidth 1\nmap\n\xe9\n").unwrap();
    let e = read_map(&file.0).unwrap_err();
    assert_eq!(
        (e.line(), e.kind()),
        (Some(5), &ParseErrorKind::NotUtf8 { column: 1 })
    );
    assert_eq!(
        e.to_string(),
        format!("{}: line 5: invalid UTF-8 at byte 1", file.0.display())
    );
}

#[test]
fn a_directory_is_an_io_error_naming_it() {
    let dir = std::env::temp_dir();
    let e = read_scen(&dir).unwrap_err();
    assert_eq!(e.kind(), &ParseErrorKind::Io);
    assert_eq!(e.path(), Some(dir.as_path()));
    assert!(e.source().is_some());
}

#[test]
fn ascii_grids_report_lines_too() {
    let e = Grid::from_ascii("\n  ...\n  .X.\n").unwrap_err();
    assert_eq!(e.to_string(), "line 3: unknown tile 'X' at (1, 1)");
    assert!(parse_map("map\n").is_err());
}
