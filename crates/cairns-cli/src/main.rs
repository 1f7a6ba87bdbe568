//! The `cairns` command.
//!
//! Exit status: 0 on success, 1 when no path exists or a scenario does not
//! match its published length, 2 on an error. A closed output pipe ends the
//! program quietly.

mod choose;
mod demo;
mod landmarks;
mod path;
mod render;
mod scen;
mod serve;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Optimal pathfinding on grid maps: A* with interchangeable OPEN sets and
/// heuristics, checked against the Moving AI benchmarks.
///
/// With no command, runs a batch of queries on a map it generates itself,
/// checks each against Dijkstra and prints a summary.
#[derive(Debug, Parser)]
#[command(name = "cairns", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the built-in demo: a generated map, a batch of checked queries.
    Demo(demo::Args),
    /// Find a shortest path on a map between two cells.
    Path(path::Args),
    /// Run every scenario of a Moving AI `.scen` file and check its length.
    Scen(scen::Args),
    /// Draw one or two searches on a map into a PNG.
    Render(render::Args),
    /// Serve the browser visualizer.
    Serve(serve::Args),
    /// Build and save landmark tables for the differential heuristic.
    Landmarks(landmarks::Args),
    /// List the OPEN sets that `scen --open` accepts, with their costs.
    OpenSets,
}

/// How a command ended, when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: no path, or a mismatch.
    NotFound,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => demo::run(&demo::Args::default()),
        Some(Command::Demo(args)) => demo::run(&args),
        Some(Command::Path(args)) => path::run(&args),
        Some(Command::Scen(args)) => scen::run(&args),
        Some(Command::Render(args)) => render::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Landmarks(args)) => landmarks::run(&args),
        Some(Command::OpenSets) => list_open_sets(),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::NotFound) => ExitCode::from(1),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(io::stderr(), "cairns: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// `cairns open-sets`: one line per OPEN set of the catalogue, the default
/// first, with the cost of its operations.
fn list_open_sets() -> anyhow::Result<Outcome> {
    let mut out = io::stdout().lock();
    let width = cairns::open::CATALOGUE
        .iter()
        .map(|info| info.name.len())
        .max()
        .unwrap_or(0);
    for info in cairns::open::CATALOGUE {
        let default = if info.name == cairns::open::DEFAULT_NAME {
            " (default)"
        } else {
            ""
        };
        writeln!(out, "{:<width$}  {}{default}", info.name, info.complexity)?;
    }
    Ok(Outcome::Success)
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Parses `X,Y`.
pub(crate) fn parse_point(s: &str) -> Result<(u32, u32), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y, got {s:?}"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("{t:?} is not a non-negative integer coordinate"))
    };
    Ok((num(x)?, num(y)?))
}

/// Whether two search results agree: both "no path", or costs equal up to
/// a relative 1e-9 (the same path summed in another order).
pub(crate) fn same_cost(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * b.max(1.0),
        (a, b) => a.is_none() && b.is_none(),
    }
}

/// The median of some samples (sorted in place); 0 for none.
pub(crate) fn median(samples: &mut [f64]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.sort_by(f64::total_cmp);
    let mid = samples.len() / 2;
    if samples.len() % 2 == 1 {
        samples[mid]
    } else {
        f64::midpoint(samples[mid - 1], samples[mid])
    }
}
