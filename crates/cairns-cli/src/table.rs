//! `cairns table build`: prepare a search on a map and save the table it
//! builds before its first query, for `--table FILE` (`path`, `scen`,
//! `render`).

use std::path::PathBuf;

use anyhow::bail;
use cairns::saved::grid_hash;
use cairns::spec::Algorithm;

use crate::Outcome;
use crate::choose::{BuildReport, SearchArgs, TerrainArgs, save_table};

/// Options of `cairns table build`.
#[derive(Debug, clap::Args)]
#[command(about = "Build the table a search needs on a map and save it")]
pub struct BuildArgs {
    /// The `.map` file.
    pub map: PathBuf,
    /// The table file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Movement: 4 or 8 (octile, the default).
    #[arg(long, default_value = "8", value_parser = crate::choose::parse_neighborhood)]
    pub neighborhood: cairns::grid::Neighborhood,
    /// The search whose table to build (`--search jps+`: its jump table).
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub terrain: TerrainArgs,
}

/// `cairns jump-table build MAP -o FILE`, kept as the name of
/// `cairns table build MAP --search jps+ -o FILE`.
pub fn build_jumps(map: PathBuf, output: PathBuf) -> anyhow::Result<Outcome> {
    let search = SearchArgs {
        algorithm: Some(Algorithm::JpsPlus),
        ..SearchArgs::default()
    };
    build(&BuildArgs {
        map,
        output,
        neighborhood: cairns::grid::Neighborhood::Octile,
        search,
        terrain: TerrainArgs::default(),
    })
}

pub fn build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    let grid = args.terrain.read_map(&args.map)?;
    let hash = grid_hash(&grid, args.neighborhood);
    let graph = args.terrain.graph(grid, args.neighborhood);
    let prepared = args.search.prepare(&graph)?;
    let spec = prepared.spec();
    let (table, report) = match (prepared.tables(), prepared.report()) {
        ([table], [report]) => (table, report),
        ([], _) => bail!("{spec} builds no table before its first query (jps+ and dh:K do)"),
        (tables, _) => {
            let kinds: Vec<&str> = tables.iter().map(|t| t.kind().name()).collect();
            bail!(
                "{spec} builds {} tables ({}); a file holds one: build them one search at a time",
                tables.len(),
                kinds.join(", ")
            )
        }
    };
    save_table(&args.output, &table.kind().to_string(), |w| {
        table.save(w, hash)
    })?;
    BuildReport {
        map: &args.map,
        graph: &graph,
        details: vec![format!("table       {}", table.kind().name())],
        build_s: report.seconds,
        bytes: report.bytes,
        output: &args.output,
        listing: Vec::new(),
    }
    .print()?;
    Ok(Outcome::Success)
}
