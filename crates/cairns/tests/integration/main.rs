//! Integration tests of the cairns library, in one test binary (see
//! STYLE.md, Tests): the data-driven scenario suite, property tests, an
//! allocation check, malformed input through the public API and the fuzz
//! corpus replayed through the fuzz targets' checks, and the docs' lists of
//! names checked against the library's registries.

mod alloc;
mod any_angle;
mod bad_input;
mod docs_lists;
mod fuzz_corpus;
mod goals;
mod matrix;
mod properties;
mod scenarios;
mod sizes;
mod terrain;

use std::path::Path;

/// The Moving AI benchmark data, its sets and their scenario files: the
/// workspace's one lookup, which fails (never skips) without the data.
pub(crate) use cairns_testdata::{data_dir, scen_files, sets};

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
