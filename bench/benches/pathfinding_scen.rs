//! The `pathfinding` crate as an outside peer: runs
//! `pathfinding::prelude::astar` (written as its documentation suggests,
//! [`common::pathfinding_astar`]) on every query of one scenario file and
//! prints one tab-separated line per query, as warthog does, for
//! `bench/scripts/peerbench.py`, which checks every cost.
//!
//! ```text
//! cargo bench -p cairns-bench --bench pathfinding_scen -- SCEN [--map MAP]
//! ```
//!
//! Output: a header, then `id line cost nanos` per query (`cost` is
//! `none` when no path was found; `nanos` is the search alone). The map is
//! the one named after the scenario file unless `--map` is given; a
//! scenario whose endpoint is off the map or on a wall is skipped and
//! counted on stderr.

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cairns::movingai::runner::Instance;
use cairns_bench::BenchArgs;

fn main() -> ExitCode {
    let args = BenchArgs::from_env(&["--map"]);
    let [scen] = args.sets.as_slice() else {
        eprintln!("usage: pathfinding_scen SCEN [--map MAP]");
        return ExitCode::from(2);
    };
    let map: Option<PathBuf> = args.get("--map");
    let inst = match Instance::load(scen.as_ref(), map.as_deref(), 1) {
        Ok(inst) => inst,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut out = String::from("id\tline\tcost\tnanos\n");
    for (id, q) in inst.queries.iter().enumerate() {
        let t0 = Instant::now();
        let cost = black_box(common::pathfinding_astar(&inst.graph, q.start, q.goal));
        let nanos = t0.elapsed().as_nanos();
        let cost = cost.map_or_else(|| "none".to_owned(), |c| format!("{c:.9}"));
        let _ = writeln!(out, "{id}\t{}\t{cost}\t{nanos}", q.line);
    }
    if !inst.data_errors.is_empty() {
        eprintln!(
            "{scen}: {} scenario(s) skipped: they do not fit the map",
            inst.data_errors.len()
        );
    }
    match io::stdout().lock().write_all(out.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("writing the results: {e}");
            ExitCode::from(2)
        }
    }
}
