//! `cairns jump-table build`: precompute the JPS+ jump distances of a map
//! and save them for `scen --jump-table` and `path --jump-table`.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use cairns::grid::{GridGraph, Neighborhood};
use cairns::landmarks::grid_hash;
use cairns::movingai::read_map;
use cairns::search::JumpTable;

use crate::Outcome;
use crate::choose::save_table;

/// Options of `cairns jump-table`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// The `jump-table` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Build the jump table of a map (octile movement) and save it.
    Build(BuildArgs),
}

/// Options of `cairns jump-table build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The `.map` file.
    pub map: PathBuf,
    /// The table file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    match &args.command {
        Command::Build(args) => build(args),
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    // JPS+ runs on octile movement only, so that is what the table is for.
    let grid = read_map(&args.map)?;
    let hash = grid_hash(&grid, Neighborhood::Octile);
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let t0 = Instant::now();
    let table = JumpTable::build(&graph);
    let build_s = t0.elapsed().as_secs_f64();

    save_table(&args.output, "jump table", |w| table.save(w, hash))?;
    let out_name = args.output.display();

    let mut out = io::stdout().lock();
    writeln!(
        out,
        "map         {} ({}x{}, octile)",
        args.map.display(),
        graph.width(),
        graph.height()
    )?;
    writeln!(out, "build s     {build_s:.3}")?;
    writeln!(out, "table bytes {}", table.memory_bytes())?;
    writeln!(out, "wrote       {out_name}")?;
    out.flush().context("writing to stdout")?;
    Ok(Outcome::Success)
}
