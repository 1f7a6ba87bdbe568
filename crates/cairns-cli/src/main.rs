//! The `cairns` command.
//!
//! Exit status: 0 on success, 1 when no path exists or a scenario does not
//! match its published length, 2 on an error. A closed output pipe ends the
//! program quietly.

mod choose;
mod demo;
mod field;
mod generate;
mod graph;
mod graph_render;
mod json;
mod landmarks;
mod path;
mod pick;
mod progress;
mod render;
mod scen;
mod serve;
mod table;

use std::io::{self, Write};
use std::process::ExitCode;

use cairns::open::OpenKind;
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
    /// The distance and flow field towards some goals: every cell's
    /// distance to the nearest goal and its next step.
    Field(field::Args),
    /// Run every scenario of a Moving AI `.scen` file and check its length.
    Scen(scen::Args),
    /// Draw one or two searches on a map into a PNG.
    Render(render::Args),
    /// Serve the browser visualizer.
    Serve(serve::Args),
    /// Build and save landmark tables for the differential heuristic.
    Landmarks {
        #[command(subcommand)]
        command: Build<landmarks::BuildArgs>,
    },
    /// Build and save the table a search needs before its first query,
    /// for `--table FILE`.
    Table {
        #[command(subcommand)]
        command: Build<table::BuildArgs>,
    },
    /// Say which search to run on a map, given the seconds and bytes that
    /// may be spent before its first query, and why.
    Choose(pick::Args),
    /// List the OPEN sets that `scen --open` accepts, with their costs.
    OpenSets,
    /// Searches on weighted graphs (road networks): DIMACS, PACE or arc
    /// list files.
    Graph {
        #[command(subcommand)]
        command: graph::Command,
    },
    /// Write a generated map (rooms, maze, random, open), with terrain
    /// patches for --terrain if asked.
    Generate(generate::Args),
}

/// The one subcommand of `cairns landmarks` and `cairns table`; the options
/// say what it builds.
#[derive(Debug, Subcommand)]
enum Build<A: clap::Args> {
    Build(A),
}

/// How a command ended, when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: no path, or a mismatch.
    NotFound,
}

impl Outcome {
    /// `Success` when `ok` (a path found, no mismatch), else `NotFound`.
    pub fn success_if(ok: bool) -> Outcome {
        if ok {
            Outcome::Success
        } else {
            Outcome::NotFound
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(table::old_commands_spelled_out(std::env::args_os()));
    let result = match cli.command {
        None => demo::run(&demo::Args::default()),
        Some(Command::Demo(args)) => demo::run(&args),
        Some(Command::Path(args)) => path::run(&args),
        Some(Command::Field(args)) => field::run(&args),
        Some(Command::Scen(args)) => scen::run(&args),
        Some(Command::Render(args)) => render::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Landmarks {
            command: Build::Build(args),
        }) => landmarks::build(&args),
        Some(Command::Table {
            command: Build::Build(args),
        }) => table::build(&args),
        Some(Command::Choose(args)) => pick::run(&args),
        Some(Command::OpenSets) => list_open_sets(),
        Some(Command::Generate(args)) => generate::run(&args),
        Some(Command::Graph { command }) => graph::run(&command),
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
    let width = OpenKind::ALL
        .iter()
        .map(|kind| kind.name().len())
        .max()
        .unwrap_or(0);
    for kind in OpenKind::ALL {
        let default = if kind == OpenKind::default() {
            " (default)"
        } else {
            ""
        };
        writeln!(
            out,
            "{:<width$}  {}{default}",
            kind.name(),
            kind.info().complexity
        )?;
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
