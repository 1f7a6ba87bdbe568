//! `cairns` with no arguments: a generated map and a batch of checked
//! queries.

use std::io::{self, Write};
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::graph::NodeId;
use cairns::grid::{GridGraph, MapKind, Neighborhood};
use cairns::movingai::runner::{median, same_cost};
use cairns::rng::SplitMix64;
use cairns::spec::{Algorithm, Prepared, SearchSpec};

use crate::Outcome;

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
}

impl Default for Args {
    fn default() -> Self {
        Args {
            size: 256,
            queries: 500,
            seed: 1,
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
    let grid = MapKind::Rooms { room_size: 15 }
        .generate(args.size, args.size, args.seed)
        .context("generating the demo map")?;
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let cells: Vec<NodeId> = (0..graph.grid().len() as u32)
        .map(NodeId)
        .filter(|&n| graph.is_passable(n))
        .collect();
    if cells.is_empty() {
        bail!("the generated map has no passable cell");
    }
    let mut rng = SplitMix64::new(args.seed);
    let pairs: Vec<(NodeId, NodeId)> = (0..args.queries)
        .map(|_| (rng.pick(&cells), rng.pick(&cells)))
        .collect();

    // The searches of the table, Dijkstra (the reference) last.
    let mut rows = [
        ("A* octile", Algorithm::AStar),
        ("A* canonical", Algorithm::Canonical),
        ("JPS", Algorithm::Jps),
        ("Dijkstra", Algorithm::Dijkstra),
    ]
    .map(|(name, algorithm)| Row::new(name, algorithm));
    let prepared = rows
        .iter()
        .map(|row| SearchSpec::new(row.algorithm).prepare(&graph))
        .collect::<Result<Vec<_>, _>>()?;
    let mut searchers: Vec<_> = prepared.iter().map(Prepared::searcher).collect();
    let mut checked = 0usize;
    let mut unreachable = 0usize;
    for &(from, to) in &pairs {
        // Each search in turn, timed; the costs in the order of `rows`.
        let mut costs = [None; 4];
        for ((cost, row), searcher) in costs.iter_mut().zip(&mut rows).zip(&mut searchers) {
            let t0 = Instant::now();
            *cost = searcher.search_cost(from, to);
            row.add(t0.elapsed().as_secs_f64(), searcher.stats().expanded);
        }
        let reference = costs[3];
        if !costs.iter().all(|&c| same_cost(c, reference)) {
            bail!(
                "A*, canonical A*, JPS and Dijkstra disagree from {:?} to {:?}: {costs:?}",
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

    let mut out = io::stdout().lock();
    writeln!(
        out,
        "cairns demo: generated {}x{} rooms map (seed {}), octile movement, {} queries",
        graph.width(),
        graph.height(),
        args.seed,
        pairs.len()
    )?;
    writeln!(
        out,
        "every cost (A* plain and canonical, JPS) checked against Dijkstra: {checked} equal, {unreachable} unreachable for all\n"
    )?;
    writeln!(
        out,
        "{:<12} {:>8} {:>14} {:>12} {:>12}",
        "search", "queries", "mean expanded", "mean us", "median us"
    )?;
    for row in &mut rows {
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
    algorithm: Algorithm,
    times: Vec<f64>,
    expanded: u64,
}

impl Row {
    fn new(name: &'static str, algorithm: Algorithm) -> Self {
        Row {
            name,
            algorithm,
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
