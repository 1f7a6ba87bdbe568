//! `cairns jump-table build`: precompute the JPS+ jump distances of a map
//! and save them for `scen --jump-table` and `path --jump-table`.

use std::path::PathBuf;
use std::time::Instant;

use cairns::grid::{GridGraph, Neighborhood};
use cairns::landmarks::grid_hash;
use cairns::movingai::read_map;
use cairns::search::JumpTable;

use crate::Outcome;
use crate::choose::{BuildReport, save_table};

/// Options of `cairns jump-table build`.
#[derive(Debug, clap::Args)]
#[command(about = "Build the jump table of a map (octile movement) and save it")]
pub struct BuildArgs {
    /// The `.map` file.
    pub map: PathBuf,
    /// The table file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
}

pub fn build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    // JPS+ runs on octile movement only, so that is what the table is for.
    let grid = read_map(&args.map)?;
    let hash = grid_hash(&grid, Neighborhood::Octile);
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let t0 = Instant::now();
    let table = JumpTable::build(&graph);
    let build_s = t0.elapsed().as_secs_f64();

    save_table(&args.output, "jump table", |w| table.save(w, hash))?;
    BuildReport {
        map: &args.map,
        graph: &graph,
        details: Vec::new(),
        build_s,
        bytes: table.memory_bytes(),
        output: &args.output,
        listing: Vec::new(),
    }
    .print()?;
    Ok(Outcome::Success)
}
