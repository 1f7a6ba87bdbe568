//! Integration tests of the cairns library, in one test binary (see
//! STYLE.md, Tests): the data-driven scenario suite, property tests, an
//! allocation check, malformed input through the public API and the fuzz
//! corpus replayed through the fuzz targets' checks.

mod alloc;
mod bad_input;
mod fuzz_corpus;
mod matrix;
mod properties;
mod scenarios;

use std::path::{Path, PathBuf};

use cairns::grid::{GridGraph, Neighborhood};
use cairns::movingai::{ScenarioFile, map_path_for, read_map, read_scen};

/// The Moving AI benchmark data: `$CAIRNS_DATA` if set, otherwise
/// `shared/data/movingai` three levels above this crate. Panics (the test
/// fails, it is never skipped) when the directory is missing.
fn data_dir() -> PathBuf {
    let dir = std::env::var_os("CAIRNS_DATA").map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/data/movingai"
            ))
        },
        PathBuf::from,
    );
    assert!(
        dir.join("dao").is_dir(),
        "Moving AI benchmark data not found at {} (set CAIRNS_DATA to the directory \
         holding dao/, bg512/, ...): the scenario suite needs the real maps and \
         scenarios and does not skip without them",
        dir.display()
    );
    dir
}

/// The names of the benchmark sets (subdirectories of the data directory),
/// sorted.
fn sets() -> Vec<String> {
    let mut sets: Vec<String> = std::fs::read_dir(data_dir())
        .expect("cannot list the data directory")
        .map(|e| e.expect("cannot list the data directory").path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    sets.sort();
    sets
}

/// Every `.scen` file of one set, sorted by name.
fn scen_files(set: &str) -> Vec<PathBuf> {
    let dir = data_dir().join(set);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("cannot list a data set").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .scen files in {}", dir.display());
    files
}

/// A scenario file and its map (found beside it) as an octile graph.
fn load(scen: &Path) -> (GridGraph, ScenarioFile) {
    let file = read_scen(scen).unwrap_or_else(|e| panic!("{e}"));
    let grid = read_map(&map_path_for(scen)).unwrap_or_else(|e| panic!("{e}"));
    file.check_map_size(&grid)
        .unwrap_or_else(|e| panic!("{}: {e}", scen.display()));
    (GridGraph::new(grid, Neighborhood::Octile), file)
}

/// A short name for messages: `set/NAME.map.scen`.
fn short(path: &Path) -> String {
    let set = path
        .parent()
        .and_then(Path::file_name)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = path.file_name().unwrap().to_string_lossy();
    format!("{set}/{name}")
}
