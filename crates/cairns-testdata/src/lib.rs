//! Where the benchmark data is, for the tests and benchmarks of the
//! workspace: one lookup instead of one per test binary.
//!
//! The data lives outside the repository: the Moving AI maps in
//! `$CAIRNS_DATA` or `shared/data/movingai` beside it
//! (`<repo>/../shared/data/movingai`), the road graphs in `$CAIRNS_ROADS`
//! or `shared/data/roads` beside it ([`roads_dir`]). Every function here
//! panics when its data is missing: the tests and benchmarks that need the
//! real maps, scenarios and road graphs fail, they never skip quietly.

#![deny(missing_docs)]

use std::path::{Path, PathBuf};

/// The Moving AI data directory (the one holding `dao/`, `bg512/`, ...):
/// `$CAIRNS_DATA` if set, otherwise `shared/data/movingai` beside the
/// repository.
///
/// # Panics
///
/// When the directory has no `dao/` set: the data is missing.
pub fn data_dir() -> PathBuf {
    let dir = shared_dir("CAIRNS_DATA", "movingai");
    assert!(
        dir.join("dao").is_dir(),
        "Moving AI benchmark data not found at {} (set CAIRNS_DATA to the directory \
         holding dao/, bg512/, ...): the tests and benchmarks need the real maps and \
         scenarios and do not skip without them",
        dir.display()
    );
    dir
}

/// A file of the data directory by its relative path (`dao/den520d.map`).
///
/// # Panics
///
/// When the data directory or the file is missing.
pub fn file(relative: &str) -> PathBuf {
    file_of(&data_dir(), relative, "Moving AI data file", "CAIRNS_DATA")
}

/// The names of the benchmark sets (the subdirectories of the data
/// directory), sorted.
///
/// # Panics
///
/// When the data directory is missing or cannot be listed.
pub fn sets() -> Vec<String> {
    let mut sets: Vec<String> = list(&data_dir())
        .into_iter()
        .filter(|p| p.is_dir())
        .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
        .collect();
    sets.sort();
    sets
}

/// Every `.scen` file of one set, sorted by name.
///
/// # Panics
///
/// When the set is missing or holds no scenario file.
pub fn scen_files(set: &str) -> Vec<PathBuf> {
    let dir = data_dir().join(set);
    let mut files: Vec<PathBuf> = list(&dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .scen files in {}", dir.display());
    files
}

/// Every `*/*.EXT` file of the data directory (`map` or `scen`), sorted.
///
/// # Panics
///
/// When the data directory is missing or cannot be listed.
pub fn real_files(ext: &str) -> Vec<PathBuf> {
    files_below(&data_dir(), |p| p.extension().is_some_and(|e| e == ext))
}

/// The road graph directory (the one holding `README.md`, `dimacs/`,
/// `fast_paths/`, `pace16/`): `$CAIRNS_ROADS` if set, otherwise
/// `shared/data/roads` beside the repository.
///
/// # Panics
///
/// When the directory has no `README.md` and `fast_paths/`: the data is
/// missing.
pub fn roads_dir() -> PathBuf {
    let dir = shared_dir("CAIRNS_ROADS", "roads");
    assert!(
        dir.join("README.md").is_file() && dir.join("fast_paths").is_dir(),
        "road graph data not found at {} (set CAIRNS_ROADS to the directory holding \
         README.md, dimacs/, fast_paths/ and pace16/): the tests and benchmarks need the \
         real road graphs and do not skip without them",
        dir.display()
    );
    dir
}

/// A file of the road graph directory by its relative path
/// (`fast_paths/bremen_dist.gr`).
///
/// # Panics
///
/// When the directory or the file is missing.
pub fn road_file(relative: &str) -> PathBuf {
    file_of(&roads_dir(), relative, "road graph file", "CAIRNS_ROADS")
}

/// Every file of the road graph directory's subdirectories, sorted
/// (`dimacs/rome99.gr`, ..., `pace16/NY.gr.xz`, `osm/...`).
///
/// # Panics
///
/// When the directory is missing or cannot be listed.
pub fn road_files() -> Vec<PathBuf> {
    files_below(&roads_dir(), Path::is_file)
}

/// The bytes of the file at `path`, an `.xz` file decompressed by the
/// `xz` command (the PACE graphs).
///
/// # Panics
///
/// When the file cannot be read, or `xz` cannot run or fails.
pub fn decompressed(path: &Path) -> Vec<u8> {
    if path.extension().is_none_or(|e| e != "xz") {
        return std::fs::read(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    }
    let out = std::process::Command::new("xz")
        .arg("-dc")
        .arg(path)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `xz -dc {}` (install xz-utils): {e}",
                path.display()
            )
        });
    assert!(
        out.status.success(),
        "`xz -dc {}` failed: {}",
        path.display(),
        out.status
    );
    out.stdout
}

/// The directory `$var` names, or `shared/data/<beside>` beside the
/// repository.
fn shared_dir(var: &str, beside: &str) -> PathBuf {
    std::env::var_os(var).map_or_else(
        || {
            PathBuf::from(format!(
                "{}/../../../shared/data/{beside}",
                env!("CARGO_MANIFEST_DIR")
            ))
        },
        PathBuf::from,
    )
}

/// `relative` in `dir`, a `what` that `var` would point elsewhere.
///
/// # Panics
///
/// When the file is missing.
fn file_of(dir: &Path, relative: &str, what: &str, var: &str) -> PathBuf {
    let path = dir.join(relative);
    assert!(
        path.is_file(),
        "{what} {} not found (set {var})",
        path.display()
    );
    path
}

/// The entries of `dir`'s subdirectories that `keep` keeps, sorted.
///
/// # Panics
///
/// When a directory cannot be listed.
fn files_below(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = list(dir)
        .into_iter()
        .filter(|p| p.is_dir())
        .flat_map(|sub| list(&sub))
        .filter(|p| keep(p))
        .collect();
    files.sort();
    files
}

/// The entries of a directory.
fn list(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| {
            entry
                .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path()
        })
        .collect()
}
