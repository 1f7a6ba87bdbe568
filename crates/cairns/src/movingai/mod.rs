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
//! * [`parse_map_from`] and [`parse_scen_from`] read from any
//!   [`BufRead`](std::io::BufRead), line by line.
//!
//! Parsers never panic: every malformed input is a [`ParseError`] naming the
//! 1-based line and what is wrong there; the file-level functions add the
//! file's path, and an I/O error comes as the error's
//! [`source`](std::error::Error::source).
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
//! space-separated) and one scenario per line, of exactly nine fields:
//! `bucket map width height start_x start_y goal_x goal_y optimal_length`.
//! The map column is not a usable path (see [`map_path_for`]).
//!
//! # Limits
//!
//! The readers hold one line at a time and refuse a line that is too long
//! ([`ParseErrorKind::LineTooLong`]) as soon as its length passes the limit,
//! before storing it, so that memory stays bounded whatever the input:
//!
//! * a scenario line or a map header line: [`MAX_LINE`] (64 KiB);
//! * a map row, or a line after the rows: the map's width plus
//!   [`ROW_SLACK`] bytes.
//!
//! A line that is not UTF-8 is an error naming the line
//! ([`ParseErrorKind::NotUtf8`]), and input quoted in an error is cut to 60
//! characters followed by `...`.

mod map;
mod scen;

pub use map::{
    ROW_SLACK, parse_map, parse_map_from, parse_map_with, read_map, read_map_with, write_map,
};
pub mod runner;

pub use scen::{
    Endpoint, ScenVersion, Scenario, ScenarioError, ScenarioErrorKind, ScenarioFile, lengths_match,
    map_path_for, parse_scen, parse_scen_from, read_scen,
};

pub use crate::parse::{ParseError, ParseErrorKind};

/// The error of the functions that read a file ([`read_map`],
/// [`read_scen`]): a [`ParseError`] naming the file
/// ([`ParseError::path`]). It is the same type because the readers stream,
/// so an I/O error can come on any line; the name is kept for callers.
pub type LoadError = ParseError;

/// The longest line, in bytes without its line ending, of a scenario file
/// or a map's header (see [limits](self#limits)).
pub const MAX_LINE: usize = 64 * 1024;

use crate::parse::load;

/// The Moving AI benchmark files shared by the tests, found by the
/// workspace's one lookup (`cairns-testdata`). Tests that use them fail
/// (never skip) when the directory is missing. And the one check of a
/// parse error.
#[cfg(test)]
pub(crate) mod test_data {
    pub(crate) use cairns_testdata::{data_dir, real_files};

    use crate::parse::{ParseError, ParseErrorKind};

    /// Asserts that a parse failed on `line` with `kind` and `message`.
    #[track_caller]
    pub(crate) fn assert_fails<T: std::fmt::Debug>(
        result: Result<T, ParseError>, line: usize, kind: ParseErrorKind, message: &str,
    ) {
        let e = result.unwrap_err();
        assert_eq!((e.line(), e.kind().clone()), (Some(line), kind));
        assert_eq!(e.to_string(), message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_errors_name_the_file() {
        use std::error::Error as _;
        let missing = std::path::Path::new("/nonexistent/cairns/x.map");
        let e = read_map(missing).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/nonexistent/cairns/x.map: cannot read the file"
        );
        assert_eq!(e.kind(), &ParseErrorKind::Io);
        assert_eq!((e.line(), e.path()), (None, Some(missing)));
        assert!(e.source().is_some());

        let e =
            ParseError::new(2, ParseErrorKind::Empty).with_path(std::path::Path::new("a/b.map"));
        assert_eq!(e.to_string(), "a/b.map: line 2: file is empty");
        assert!(e.source().is_none());
    }

    mod no_panic {
        use proptest::prelude::*;

        use super::super::test_data::data_dir;
        use super::super::{parse_map, parse_scen};
        use crate::grid::Grid;

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
            let _ = Grid::from_ascii(text);
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
