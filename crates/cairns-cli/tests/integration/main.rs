//! Integration tests of the `cairns` binary, one module per command.

mod choose;
mod cli;
mod goals;
mod graph;
mod json;
mod jump_table;
mod landmarks;
mod open_sets;
mod render;
mod sizes;
mod terrain;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs the `cairns` binary built for this test with `args`.
pub(crate) fn cairns(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cairns"))
        .args(args)
        .output()
        .expect("running cairns")
}

/// Runs `cairns` with `args`, which must exit 0: its standard output.
#[track_caller]
pub(crate) fn cairns_ok(args: &[&str]) -> String {
    let o = cairns(args);
    assert_exit(&o, 0);
    stdout(&o)
}

/// Runs `cairns` with `args`, which must exit 0: its standard output read
/// as JSON.
#[track_caller]
pub(crate) fn json_of(args: &[&str]) -> serde_json::Value {
    let o = cairns(args);
    assert_exit(&o, 0);
    json(&o)
}

/// Runs `cairns` with the words of `line`, each `{}` replaced by the next
/// of `values` (paths and values that may hold spaces), so that a command
/// reads as it would be typed.
///
/// # Panics
///
/// When the number of `{}` and of `values` differ.
pub(crate) fn run(line: &str, values: &[&str]) -> Output {
    let mut values = values.iter();
    let args: Vec<&str> = line
        .split_whitespace()
        .map(|w| {
            if w == "{}" {
                values.next().expect("a value for every {}")
            } else {
                w
            }
        })
        .collect();
    assert!(values.next().is_none(), "more values than {{}} in {line:?}");
    cairns(&args)
}

/// A fresh directory for one test's files, under the target directory.
pub(crate) fn scratch_dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// A directory in the system's temporary directory, unique to this process
/// and call, removed when dropped.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(test: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("cairns-cli-{test}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// A fresh directory holding one file, `name` with `contents`, and that
    /// file's path.
    pub(crate) fn with(test: &str, name: &str, contents: &str) -> (TempDir, String) {
        let dir = TempDir::new(test);
        let path = dir.file(name, contents);
        (dir, path)
    }

    pub(crate) fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }

    pub(crate) fn file(&self, name: &str, contents: &str) -> String {
        let path = self.path(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts the exit code, showing the output when it differs.
pub(crate) fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// Asserts that the standard output contains `text`, showing it when not.
#[track_caller]
pub(crate) fn assert_stdout_has(o: &Output, text: &str) {
    let out = stdout(o);
    assert!(out.contains(text), "no {text:?} in stdout:\n{out}");
}

/// Asserts that the standard error contains `text`, showing it when not.
#[track_caller]
pub(crate) fn assert_stderr_has(o: &Output, text: &str) {
    let err = stderr(o);
    assert!(err.contains(text), "no {text:?} in stderr:\n{err}");
}

/// Asserts that `o` was refused (exit code 2) with each of `texts` in its
/// standard error.
#[track_caller]
pub(crate) fn assert_refused(o: &Output, texts: &[&str]) {
    assert_exit(o, 2);
    for text in texts {
        assert_stderr_has(o, text);
    }
}

/// Asserts that `o` failed with exit code 2, printed nothing, and names
/// `file` first in an error that contains `text`.
#[track_caller]
pub(crate) fn assert_file_refused(o: &Output, file: &str, text: &str) {
    assert_exit(o, 2);
    let err = stderr(o);
    assert!(err.starts_with(&format!("cairns: {file}: ")), "{err}");
    assert!(err.contains(text), "no {text:?} in {err}");
    assert!(stdout(o).is_empty(), "{}", stdout(o));
}

/// A fresh directory for `test` holding the rooms map `rooms.map` (rooms
/// of 3), and the map's path.
pub(crate) fn rooms_dir(test: &str) -> (TempDir, String) {
    let dir = TempDir::new(test);
    let (map, _) = rooms_map(&dir, "rooms.map", 3);
    (dir, map)
}

/// The rooms map `rooms.map` (rooms of 3) in `dir` and a scenario file
/// for it: their paths.
pub(crate) fn rooms_and_scen(dir: &TempDir) -> (String, String) {
    let (map, grid) = rooms_map(dir, "rooms.map", 3);
    (map, scen_for(dir, "rooms.map", &grid))
}

/// Two rooms maps in `dir`, `a.map` (rooms of 3) and `b.map` (rooms of 4),
/// and a scenario file for `b.map`: for tables built for one map and
/// used on the other. Returns the paths of `a.map` and of the scenario.
pub(crate) fn two_maps(dir: &TempDir) -> (String, String) {
    let (map_a, _) = rooms_map(dir, "a.map", 3);
    let (_, grid_b) = rooms_map(dir, "b.map", 4);
    (map_a, scen_for(dir, "b.map", &grid_b))
}

/// [`run`], which must exit 0, and its standard output read as JSON.
#[track_caller]
pub(crate) fn run_json(line: &str, values: &[&str]) -> serde_json::Value {
    let o = run(line, values);
    assert_exit(&o, 0);
    json(&o)
}

pub(crate) fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(stdout(o).trim())
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stdout(o)))
}

/// A Moving AI data file (`dao/den520d.map`) as a command-line argument.
pub(crate) fn data(file: &str) -> String {
    cairns_testdata::file(file).to_str().unwrap().to_owned()
}

/// A generated 64x48 rooms map, written to `dir/name`.
pub(crate) fn rooms_map(dir: &TempDir, name: &str, seed: u64) -> (String, cairns::grid::Grid) {
    let grid = cairns::grid::MapKind::Rooms { room_size: 7 }
        .generate(64, 48, seed)
        .unwrap();
    (dir.file(name, &cairns::movingai::write_map(&grid)), grid)
}

/// A scenario file of 40 queries between free cells of `grid`, whose
/// published lengths are placeholders: run it `--against dijkstra`.
pub(crate) fn scen_for(dir: &TempDir, map_name: &str, grid: &cairns::grid::Grid) -> String {
    let free: Vec<(u32, u32)> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_passable(x, y))
        .collect();
    let mut text = String::from("version 1\n");
    for i in 0..40 {
        let a = free[(i * 7919) % free.len()];
        let b = free[(i * 104_729 + free.len() / 2) % free.len()];
        let (w, h) = (grid.width(), grid.height());
        writeln!(
            text,
            "0\t{map_name}\t{w}\t{h}\t{}\t{}\t{}\t{}\t0",
            a.0, a.1, b.0, b.1
        )
        .unwrap();
    }
    dir.file(&format!("{map_name}.scen"), &text)
}
