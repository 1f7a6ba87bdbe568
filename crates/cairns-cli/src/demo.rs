//! `cairns` with no arguments: a generated map and a batch of checked
//! queries.

use std::io::{self, Write};
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::graph::NodeId;
use cairns::grid::{MapKind, Neighborhood, paint_terrain, random_queries};
use cairns::movingai::runner::{median, same_cost};

use cairns::spec::{Prepared, SearchSpec};

use crate::Outcome;
use crate::choose::MapRules;

/// Options of the demo.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Side of the generated square map.
    #[arg(long, default_value_t = 256)]
    pub size: u32,
    /// Number of start/goal pairs.
    #[arg(long, default_value_t = 500)]
    pub queries: usize,
    /// Seed of the map and of the queries.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Paint this many patches of swamp, water and trees on the map (see
    /// `cairns generate`), for --terrain.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub patches: u32,
    /// Terrain costs per tile letter (`S=3,W=inf`; as `cairns path
    /// --terrain`): the table then compares A* (octile scaled by the
    /// cheapest cell, and 8 landmarks) with Dijkstra, the searches that
    /// need uniform costs left out.
    #[arg(long, value_name = "COSTS")]
    pub terrain: Option<cairns::grid::TileCosts>,
}

impl Default for Args {
    fn default() -> Self {
        Args {
            size: 256,
            queries: 500,
            seed: 1,
            patches: 0,
            terrain: None,
        }
    }
}

/// The most queries the demo runs: each keeps its endpoints and four
/// timings (40 bytes), so this bounds them at 40 MB. Checked before
/// anything is allocated for them (`--queries 4294967295` used to abort on
/// a 34 GB allocation).
const MAX_QUERIES: usize = 1_000_000;

/// The largest side of the demo map: 4096 x 4096 cells is 16.8 million,
/// which the map, its graph, the passable-cell list and the search cache
/// hold in well under a gigabyte.
const MAX_SIZE: u32 = 4096;

/// Refuses sizes that would allocate more than the limits above.
fn check_limits(args: &Args) -> anyhow::Result<()> {
    if args.queries > MAX_QUERIES {
        bail!(
            "--queries {} is more than the demo runs (at most {MAX_QUERIES})",
            args.queries
        );
    }
    if args.size > MAX_SIZE {
        bail!(
            "--size {} is larger than the demo's maps (at most {MAX_SIZE})",
            args.size
        );
    }
    Ok(())
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    check_limits(args)?;
    let mut grid = MapKind::Rooms { room_size: 15 }
        .generate(args.size, args.size, args.seed)
        .context("generating the demo map")?;
    paint_terrain(&mut grid, args.patches, args.seed);
    let rules = MapRules {
        terrain: args.terrain.clone(),
        size: 1,
    };
    let graph = rules.graph(grid, Neighborhood::Octile)?;
    let pairs = random_queries(&graph, args.queries, args.seed);
    if pairs.is_empty() && args.queries > 0 {
        bail!("the generated map has no passable cell");
    }

    // The searches of the table, Dijkstra (the reference) last; with
    // terrain, those that stay optimal on it.
    let specs: &[(&'static str, &str)] = if graph.has_terrain() {
        &[
            ("A* octile", "astar"),
            ("A* dh:8", "astar/dh:8"),
            ("Dijkstra", "dijkstra"),
        ]
    } else {
        &[
            ("A* octile", "astar"),
            ("A* canonical", "canonical"),
            ("JPS", "jps"),
            ("Dijkstra", "dijkstra"),
        ]
    };
    let mut rows: Vec<Row> = specs.iter().map(|&(name, _)| Row::new(name)).collect();
    let prepared = specs
        .iter()
        .map(|(_, spec)| spec.parse::<SearchSpec>()?.prepare(&graph))
        .collect::<Result<Vec<_>, _>>()?;
    let mut searchers: Vec<_> = prepared.iter().map(Prepared::searcher).collect();
    let mut checked = 0usize;
    let mut unreachable = 0usize;
    let mut costs = vec![None; rows.len()];
    for &(from, to) in &pairs {
        // Each search in turn, timed; the costs in the order of `rows`.
        for ((cost, row), searcher) in costs.iter_mut().zip(&mut rows).zip(&mut searchers) {
            let t0 = Instant::now();
            *cost = searcher.search_cost(from, to);
            row.add(t0.elapsed().as_secs_f64(), searcher.stats().expanded);
        }
        let reference = costs[costs.len() - 1];
        if !costs.iter().all(|&c| same_cost(c, reference)) {
            let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
            bail!(
                "{} disagree from {:?} to {:?}: {costs:?}",
                names.join(", "),
                graph.coords(from),
                graph.coords(to)
            );
        }
        if reference.is_some() {
            checked += 1;
        } else {
            unreachable += 1;
        }
    }
    let others = if graph.has_terrain() {
        "A* octile and dh:8"
    } else {
        "A* plain and canonical, JPS"
    };

    print_table(
        args,
        &graph,
        &pairs,
        others,
        checked,
        unreachable,
        &mut rows,
    )
}

/// Prints the demo's header and table.
fn print_table(
    args: &Args, graph: &cairns::grid::GridGraph, pairs: &[(NodeId, NodeId)], others: &str,
    checked: usize, unreachable: usize, rows: &mut [Row],
) -> anyhow::Result<Outcome> {
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "cairns demo: generated {}x{} rooms map (seed {}), octile movement, {} queries",
        graph.width(),
        graph.height(),
        args.seed,
        pairs.len()
    )?;
    if let Some(costs) = &args.terrain {
        writeln!(
            out,
            "terrain {costs} on {} patches (cheapest cell {})",
            args.patches,
            graph.min_cost()
        )?;
    }
    writeln!(
        out,
        "every cost ({others}) checked against Dijkstra: {checked} equal, {unreachable} unreachable for all\n"
    )?;
    writeln!(
        out,
        "{:<12} {:>8} {:>14} {:>12} {:>12}",
        "search", "queries", "mean expanded", "mean us", "median us"
    )?;
    for row in rows.iter_mut() {
        writeln!(
            out,
            "{:<12} {:>8} {:>14.0} {:>12.1} {:>12.1}",
            row.name,
            row.times.len(),
            row.expanded as f64 / row.times.len().max(1) as f64,
            row.times.iter().sum::<f64>() / row.times.len().max(1) as f64 * 1e6,
            median(&row.times) * 1e6,
        )?;
    }
    Ok(Outcome::Success)
}

struct Row {
    name: &'static str,
    times: Vec<f64>,
    expanded: u64,
}

impl Row {
    fn new(name: &'static str) -> Self {
        Row {
            name,
            times: Vec::new(),
            expanded: 0,
        }
    }

    fn add(&mut self, seconds: f64, expanded: u64) {
        self.times.push(seconds);
        self.expanded += expanded;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--queries 4294967295` aborted on a 34 GB allocation for the query
    /// pairs; sizes from the command line are checked first.
    #[test]
    fn huge_numbers_are_refused_before_allocating() {
        let args = |queries, size| Args {
            size,
            queries,
            ..Args::default()
        };
        let e = run(&args(4_294_967_295, 256)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--queries 4294967295 is more than the demo runs (at most 1000000)"
        );
        let e = run(&args(500, 65_535)).unwrap_err();
        assert!(e.to_string().starts_with("--size 65535 is larger"), "{e}");
        assert!(check_limits(&args(MAX_QUERIES, MAX_SIZE)).is_ok());
    }
}
