//! The fuzz corpus (`fuzz/corpus/TARGET/`) replayed through the fuzz
//! targets' own checks (`fuzz/src/lib.rs`, included here) on the stable
//! toolchain: no file makes them panic, and the known-bad inputs give their
//! specific error and line. Over-long lines are made here, in memory, rather
//! than committed.

#[path = "../../../../fuzz/src/lib.rs"]
mod checks;

use std::path::PathBuf;

use cairns::movingai::{MAX_LINE, ParseError, ParseErrorKind, ROW_SLACK};
use cairns::saved::FileErrorKind;

use super::alloc::largest_allocation_in;

/// The files of `fuzz/corpus/TARGET`, sorted, with their contents.
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus")).join(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("cannot list the corpus").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let data = std::fs::read(&path).expect("cannot read a corpus file");
            (name, data)
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 15,
        "only {} files in {}",
        files.len(),
        dir.display()
    );
    files
}

/// How many of `files` the `target` check accepts, after checking that it
/// panics on none of them.
fn accepted(target: &str, files: &[(String, Vec<u8>)], check: impl Fn(&[u8]) -> bool) -> usize {
    files
        .iter()
        .filter(|(name, data)| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(data)))
                .unwrap_or_else(|_| panic!("{target} check panicked on {name}"))
        })
        .count()
}

/// The one file of `files` called `name`.
fn file<'a>(files: &'a [(String, Vec<u8>)], name: &str) -> &'a [u8] {
    &files
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} is not in the corpus"))
        .1
}

/// The error's kind and line, after checking that it is one.
fn error<T: std::fmt::Debug>(r: Result<T, ParseError>) -> (ParseErrorKind, Option<usize>) {
    let e = r.expect_err("the input should be refused");
    (e.kind().clone(), e.line())
}

/// Every valid map and scenario file of the corpora parses; each invalid
/// one is refused with its kind of error and its line.
#[test]
fn map_and_scen_corpora() {
    let maps = corpus("map");
    let parsed = accepted("map", &maps, |data| checks::map(data).is_ok());
    assert!(parsed >= 8, "{parsed} valid maps");
    let scens = corpus("scen");
    let parsed = accepted("scen", &scens, |data| checks::scen(data).is_ok());
    assert!(parsed >= 8, "{parsed} valid scenario files");

    let map = |name| error(checks::map(file(&maps, name)));
    assert_eq!(
        map("long-row.map"),
        (
            ParseErrorKind::LineTooLong {
                limit: 2 + ROW_SLACK
            },
            Some(5)
        )
    );
    assert_eq!(
        map("latin1.map"),
        (ParseErrorKind::NotUtf8 { column: 2 }, Some(6))
    );
    assert_eq!(
        map("latin1-header.map"),
        (ParseErrorKind::NotUtf8 { column: 9 }, Some(1))
    );
    assert_eq!(
        map("unknown-tile.map"),
        (
            ParseErrorKind::UnknownTile {
                ch: 'Q',
                x: 2,
                y: 1
            },
            Some(6)
        )
    );
    assert_eq!(
        map("huge-height-short-input.map"),
        (
            ParseErrorKind::TooFewRows {
                expected: 4_000_000_000,
                found: 2
            },
            Some(6)
        )
    );
    let (kind, line) = map("long-type.map");
    assert_eq!(line, Some(1));
    let ParseErrorKind::UnsupportedType { text } = kind else {
        panic!("{kind:?}");
    };
    assert_eq!(text, format!("{}...", "x".repeat(60)));

    let scen = |name| error(checks::scen(file(&scens, name)));
    let fields = |found, separator| ParseErrorKind::FieldCount {
        expected: 9,
        found,
        separator,
    };
    assert_eq!(scen("ten-fields-v1.scen"), (fields(10, '\t'), Some(2)));
    assert_eq!(scen("ten-fields-v1.0.scen"), (fields(10, ' '), Some(2)));
    assert_eq!(scen("trailing-tab.scen"), (fields(10, '\t'), Some(2)));
    assert_eq!(scen("spaces-in-v1.scen"), (fields(1, '\t'), Some(2)));
    assert_eq!(
        scen("latin1.scen"),
        (ParseErrorKind::NotUtf8 { column: 4 }, Some(3))
    );
    let (kind, line) = scen("long-number.scen");
    assert_eq!(line, Some(2));
    assert_eq!(
        kind,
        ParseErrorKind::BadNumber {
            field: "optimal length",
            text: format!("{}...", "9".repeat(60))
        }
    );
}

/// Every valid road graph of the corpus parses (in the format its content
/// tells); each invalid one is refused with its kind of error and its line.
#[test]
fn graph_corpus() {
    use cairns::graph::GraphFormat;
    let graphs = corpus("graph");
    let parsed = accepted("graph", &graphs, |data| checks::graph(data).is_ok());
    assert!(parsed >= 7, "{parsed} valid graphs");
    let format = |name| checks::graph(file(&graphs, name)).map(|(_, f)| f).ok();
    assert_eq!(format("dimacs-triangle.gr"), Some(GraphFormat::Dimacs));
    assert_eq!(format("dimacs-crlf.gr"), Some(GraphFormat::Dimacs));
    assert_eq!(format("arcs-cycle.gr"), Some(GraphFormat::Arcs));
    assert_eq!(format("pace-path.gr"), Some(GraphFormat::Pace));

    // The invalid files and their errors, one a line of a data file.
    let mut checked = 0;
    for (name, kind, line) in listed_errors("graph-errors.txt") {
        let (found, at) = error(checks::graph(file(&graphs, &name)));
        let found = format!("{found:?}");
        assert_eq!(
            (found.split([' ', '{']).next(), at),
            (Some(kind.as_str()), Some(line)),
            "{name}: {found}"
        );
        checked += 1;
    }
    assert!(checked >= 12, "{checked} invalid graphs listed");
}

/// The invalid files of a corpus and their errors, one a line of a data
/// file (`fuzz/corpus/NAME`): `file kind line`.
fn listed_errors(name: &str) -> Vec<(String, String, usize)> {
    let listed = format!("{}/../../fuzz/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    let listed = std::fs::read_to_string(&listed).unwrap_or_else(|e| panic!("{listed}: {e}"));
    listed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|row| {
            let [file, kind, line] = row.split_whitespace().collect::<Vec<_>>()[..] else {
                panic!("{name}: {row:?} is not `file kind line`");
            };
            let line = line.parse().unwrap_or_else(|_| panic!("{name}: {row:?}"));
            (file.to_owned(), kind.to_owned(), line)
        })
        .collect()
}

/// Every valid PBF file of the corpus reads (with the counts pinned here
/// for a few); each invalid one is refused with its kind of error and the
/// blob it names.
#[cfg(feature = "osm")]
#[test]
fn osm_corpus() {
    let files = corpus("osm");
    let read = accepted("osm", &files, |data| checks::osm(data).is_ok());
    assert!(read >= 9, "{read} valid PBF files");
    let counts = |name| {
        let osm = checks::osm(file(&files, name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        (osm.graph.node_count(), osm.graph.edge_count())
    };
    assert_eq!(counts("two-way.osm.pbf"), (3, 4));
    assert_eq!(counts("one-way.osm.pbf"), (5, 4));
    assert_eq!(counts("roundabout-zlib.osm.pbf"), (3, 3));
    assert_eq!(counts("motorway.osm.pbf"), (3, 3));
    assert_eq!(counts("missing-node.osm.pbf"), (2, 2));
    assert_eq!(counts("footway-only.osm.pbf"), (0, 0));
    assert_eq!(counts("plain-nodes.osm.pbf"), (5, 4));
    assert_eq!(counts("two-data-blobs.osm.pbf"), (5, 8));
    assert_eq!(counts("header-only.osm.pbf"), (0, 0));
    let mut checked = 0;
    for (name, kind, blob) in listed_errors("osm-errors.txt") {
        let e = checks::osm(file(&files, &name)).expect_err(&name);
        let found = format!("{:?}", e.kind());
        assert_eq!(
            (found.split([' ', '{']).next(), e.line()),
            (Some(kind.as_str()), Some(blob)),
            "{name}: {e}"
        );
        assert!(e.byte().is_some(), "{name}: {e}");
        checked += 1;
    }
    assert!(checked >= 12, "{checked} invalid PBF files listed");
}

#[test]
fn landmarks_corpus() {
    let files = corpus("landmarks");
    accepted("landmark", &files, |data| {
        let _ = checks::landmarks(data);
        true
    });
    let kinds =
        |name| checks::landmarks(file(&files, name)).map(|r| r.err().map(|e| e.kind().clone()));
    let mismatch =
        |kind: &Option<FileErrorKind>| matches!(kind, Some(FileErrorKind::MovementMismatch { .. }));
    // [4-way, 8-way]: a table built for 8-way movement loaded for 4-way says
    // that the movement differs, not that the map does.
    let [four, octile] = kinds("octile.lm");
    assert!(mismatch(&four) && octile.is_none(), "{four:?} {octile:?}");
    let [four, octile] = kinds("four.lm");
    assert!(four.is_none() && mismatch(&octile), "{four:?} {octile:?}");
    for kind in kinds("other-map.lm") {
        assert!(
            matches!(kind, Some(FileErrorKind::MapHashMismatch { .. })),
            "{kind:?}"
        );
    }
    // The header is whole: under 4-way movement the hash is checked first.
    let [four, octile] = kinds("truncated.lm");
    assert!(mismatch(&four), "{four:?}");
    assert_eq!(octile, Some(FileErrorKind::Truncated));
}

#[test]
fn search_corpus() {
    let files = corpus("search");
    let searched = accepted("search", &files, |data| checks::search(data).is_some());
    assert!(searched >= 15, "{searched} searches");
    // The map walled off in the middle: no path either way.
    assert_eq!(
        checks::search(file(&files, "walled-off.bin")),
        Some((None, None))
    );
}

/// A line of 4 MiB: refused with a short message that names the line, and
/// without allocating anything near the line's size (the readers used to
/// hold the whole input, and the scenario parser about 14 bytes per input
/// byte on top).
#[test]
fn multi_megabyte_lines_are_refused_unread() {
    let long = "7".repeat(4 << 20);
    let cases = [
        (
            "scenario line",
            format!("version 1\n{long}\n"),
            ParseErrorKind::LineTooLong { limit: MAX_LINE },
            2,
        ),
        (
            "map header",
            format!("type octile\nheight {long}\n"),
            ParseErrorKind::LineTooLong { limit: MAX_LINE },
            2,
        ),
        (
            "map row",
            format!("type octile\nheight 1\nwidth 3\nmap\n{long}\n"),
            ParseErrorKind::LineTooLong {
                limit: 3 + ROW_SLACK,
            },
            5,
        ),
    ];
    for (what, input, kind, line) in cases {
        let (message, largest) = largest_allocation_in(|| {
            let e = if what == "scenario line" {
                checks::scen(input.as_bytes()).map(drop).unwrap_err()
            } else {
                checks::map(input.as_bytes()).map(drop).unwrap_err()
            };
            assert_eq!((e.kind(), e.line()), (&kind, Some(line)), "{what}");
            e.to_string()
        });
        assert!(message.len() < 100, "{what}: {message}");
        // The check also parses the text as a &str, through the same
        // bounded reader; nothing may come near the line's 4 MiB.
        assert!(
            largest <= 4 * MAX_LINE,
            "{what}: a block of {largest} bytes"
        );
    }
}
