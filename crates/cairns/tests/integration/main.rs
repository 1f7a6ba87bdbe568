//! Integration tests of the cairns library, in one test binary (see
//! STYLE.md, Tests): the data-driven scenario suite, property tests, an
//! allocation check and malformed input through the public API.

mod alloc;
mod bad_input;
mod properties;
mod scenarios;

use std::path::Path;

use cairns::grid::{GridGraph, Neighborhood};
use cairns::movingai::{ScenarioFile, map_path_for, read_map, read_scen};
/// The Moving AI benchmark data, its sets and their scenario files: the
/// workspace's one lookup, which fails (never skips) without the data.
pub(crate) use cairns_testdata::{data_dir, scen_files, sets};

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
