//! `cairns table build`: prepare a search on a map and save the table it
//! builds before its first query, for `--table FILE` (`path`, `scen`,
//! `render`).

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::bail;
use cairns::saved::{TableKind, grid_hash};
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
    /// The search whose table to build.
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub terrain: TerrainArgs,
}

/// The command line with each table kind's older build command
/// ([`TableInfo::old_command`](cairns::saved::TableInfo::old_command):
/// `cairns jump-table build MAP -o FILE`) spelled as it is now, `cairns
/// table build --search jps+ MAP -o FILE`.
pub fn old_commands_spelled_out(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    let named = |i: usize| args.get(i).and_then(|a| a.to_str());
    let search = TableKind::ALL
        .into_iter()
        .filter(|k| k.info().old_command.is_some() && k.info().old_command == named(1))
        .find_map(Algorithm::using);
    if let Some(search) = search
        && named(2) == Some("build")
    {
        let now = ["table", "build", "--search", search.name()];
        args.splice(1..3, now.map(OsString::from));
    }
    args
}

pub fn build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    let grid = args.terrain.read_map(&args.map)?;
    let hash = grid_hash(&grid, args.neighborhood);
    let graph = args.terrain.graph(grid, args.neighborhood);
    let prepared = args.search.prepare(&graph)?;
    let spec = prepared.spec();
    let (table, report) = match (prepared.tables(), prepared.report()) {
        ([table], [report]) => (table, report),
        ([], _) => {
            let some: Vec<&str> = Algorithm::ALL
                .into_iter()
                .filter(|a| !a.tables().is_empty())
                .map(Algorithm::name)
                .collect();
            bail!(
                "{spec} builds no table before its first query ({} and any search with --heuristic dh:K do)",
                some.join(", ")
            )
        }
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
        details: std::iter::once(format!("table       {}", table.kind().name()))
            .chain(table.bounds().map(|b| {
                // Those the budget left without boxes prune nothing.
                format!(
                    "boxes       {} of {} jump points",
                    b.boxed(),
                    b.jump_points()
                )
            }))
            .collect(),
        build_s: report.seconds,
        bytes: report.bytes,
        output: &args.output,
        listing: Vec::new(),
    }
    .print()?;
    Ok(Outcome::Success)
}
