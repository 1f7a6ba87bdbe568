//! Integration tests of the `cairns` binary, one module per command.

mod landmarks;
mod open_sets;

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the `cairns` binary built for this test with `args`.
pub(crate) fn cairns(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cairns"))
        .args(args)
        .output()
        .expect("running cairns")
}

/// A fresh directory for one test's files, under the target directory.
pub(crate) fn scratch_dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}
