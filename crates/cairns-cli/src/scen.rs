//! `cairns scen`: run a Moving AI scenario file and check every length.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Neighborhood};
use cairns::movingai::{Scenario, lengths_match, map_path_for, read_map, read_scen};
use cairns::open::{DEFAULT_NAME, OpenSet};

/// The OPEN set `scen` uses under a landmark heuristic unless told
/// otherwise: the fastest there (docs/differential-heuristics.md).
const LANDMARK_DEFAULT: &str = "pairing-heap";
use cairns::search::{AStar, Dijkstra, JumpPointSearch, SearchCache};
use cairns::with_open_set;
use indicatif::{ProgressBar, ProgressStyle};

use crate::choose::{HeuristicName, Prepared, parse_open_name, prepare, with_heuristic};
use crate::{Outcome, median, same_cost};

/// Options of `cairns scen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The `.scen` file.
    pub scen: PathBuf,
    /// The `.map` file; by default the one beside the scenario file, named
    /// after it (`NAME.map.scen` -> `NAME.map`).
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Heuristic: zero, manhattan, octile (the default), euclidean, or
    /// `dh:K[:PLACEMENT]`, the differential heuristic of K landmarks placed
    /// random, farthest (the default, seed 1), avoid or sampled, over octile; the
    /// table is built once before the queries.
    #[arg(long, value_name = "NAME")]
    pub heuristic: Option<HeuristicName>,
    /// Use the differential heuristic of a landmark table saved by
    /// `cairns landmarks build` for this map; --heuristic may then only be
    /// dh, or dh:K with the file's K.
    #[arg(long, value_name = "FILE")]
    pub landmarks: Option<PathBuf>,
    /// OPEN set, by name (`cairns open-sets` lists them). By default the
    /// indexed binary heap, or the pairing heap under a landmark heuristic,
    /// where it is faster (docs/differential-heuristics.md).
    #[arg(long = "open", value_name = "NAME", value_parser = parse_open_name)]
    pub open: Option<String>,
    /// Run only every Nth scenario.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub every: u32,
    /// What each cost is checked against: the published length, or a
    /// Dijkstra search (for files whose lengths are known to be wrong).
    #[arg(long, value_enum, default_value_t = Against::Published)]
    pub against: Against,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Prune successors by canonical ordering (jump point search's rules
    /// without jumping): same optimal costs, fewer nodes generated.
    #[arg(long)]
    pub canonical: bool,
    /// Search with jump point search (octile heuristic, octile movement)
    /// instead of A*: the same optimal costs, far fewer OPEN operations.
    #[arg(long, conflicts_with_all = ["landmarks", "canonical"])]
    pub jps: bool,
}

/// The reference a scenario's cost is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Against {
    /// The optimal length printed in the file.
    Published,
    /// A Dijkstra search on the same map.
    Dijkstra,
}

/// What a run of scenarios measured.
#[derive(Debug, Default)]
pub struct Summary {
    pub queries: usize,
    pub mismatches: usize,
    pub data_errors: usize,
    pub expanded: u64,
    pub max_open: u64,
    pub times: Vec<f64>,
    pub total_s: f64,
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    let file = read_scen(&args.scen)?;
    let map_path = args.map.clone().unwrap_or_else(|| map_path_for(&args.scen));
    let grid = read_map(&map_path).with_context(|| {
        format!(
            "reading the map of {} (give it with --map)",
            args.scen.display()
        )
    })?;
    file.check_map_size(&grid).with_context(|| {
        format!(
            "{} does not fit {}",
            args.scen.display(),
            map_path.display()
        )
    })?;
    let graph = GridGraph::new(grid, Neighborhood::Octile).with_canonical_ordering(args.canonical);
    let prepared = prepare(args.heuristic, args.landmarks.as_deref(), &graph)?;
    let chosen: Vec<&Scenario> = file.scenarios.iter().step_by(args.every as usize).collect();

    let bar = ProgressBar::new(chosen.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} scenarios {elapsed}")
            .expect("static template"),
    );
    let mut problems = Vec::new();
    let jps = if args.jps {
        if prepared.name != HeuristicName::Octile {
            bail!(
                "--jps searches with the octile heuristic, not {}",
                prepared.name
            );
        }
        Some(JumpPointSearch::new(&graph).context("jump point search needs octile movement")?)
    } else {
        None
    };
    let open = args.open.as_deref().unwrap_or(if prepared.table.is_some() {
        LANDMARK_DEFAULT
    } else {
        DEFAULT_NAME
    });
    let summary = with_open_set!(open, |Q| {
        let mut cache = SearchCache::with_open(Q::default());
        if let Some(jps) = &jps {
            run_batch(
                &graph,
                |s, t, c: &mut SearchCache<Q>| jps.search_cost(s, t, c),
                &chosen,
                args.against,
                &mut cache,
                &bar,
                &mut problems,
            )
        } else {
            with_heuristic!(prepared.name, &graph, prepared.table.as_ref(), |h| {
                let astar = AStar::new(&graph, h);
                run_batch(
                    &graph,
                    |s, t, c: &mut SearchCache<Q>| astar.search_cost(s, t, c),
                    &chosen,
                    args.against,
                    &mut cache,
                    &bar,
                    &mut problems,
                )
            })
        }
    })
    .with_context(|| format!("unknown OPEN set {open:?}"))?;
    bar.finish_and_clear();

    report(args, &map_path, &prepared, open, &summary, &problems)
}

/// Prints the problems (to stderr) and the summary of a run.
fn report(
    args: &Args,
    map_path: &std::path::Path,
    prepared: &Prepared,
    open: &str,
    summary: &Summary,
    problems: &[String],
) -> anyhow::Result<Outcome> {
    let scen_name = args.scen.display();
    for p in problems.iter().take(20) {
        eprintln!("{scen_name}: {p}");
    }
    if problems.len() > 20 {
        eprintln!("{scen_name}: ... and {} more", problems.len() - 20);
    }
    let mut times = summary.times.clone();
    let n = summary.queries.max(1) as f64;
    let mean_us = summary.times.iter().sum::<f64>() / n * 1e6;
    let median_us = median(&mut times) * 1e6;
    let mean_expanded = summary.expanded as f64 / n;
    let mut out = io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "scen": args.scen.display().to_string(),
            "map": map_path.display().to_string(),
            "heuristic": prepared.label,
            "search": if args.jps { "jps" } else { "astar" },
            "landmarks": args.landmarks.as_ref().map(|p| p.display().to_string()),
            "preprocess_s": prepared.preprocess_s,
            "table_bytes": prepared.table_bytes(),
            "open": open,
            "canonical": args.canonical,
            "against": format!("{:?}", args.against).to_lowercase(),
            "queries": summary.queries,
            "mismatches": summary.mismatches,
            "data_errors": summary.data_errors,
            "mean_expanded": mean_expanded,
            "max_open": summary.max_open,
            "mean_us": mean_us,
            "median_us": median_us,
            "total_s": summary.total_s,
        });
        writeln!(out, "{json}")?;
    } else {
        writeln!(out, "heuristic    {}", prepared.label)?;
        writeln!(
            out,
            "search       {}",
            if args.jps { "jump point search" } else { "A*" }
        )?;
        writeln!(out, "open set     {open}")?;
        if prepared.table.is_some() {
            writeln!(out, "preprocess s {:.3}", prepared.preprocess_s)?;
            writeln!(out, "table bytes  {}", prepared.table_bytes())?;
        }
        writeln!(out, "scenarios    {}", summary.queries)?;
        writeln!(out, "matched      {}", summary.queries - summary.mismatches)?;
        writeln!(out, "mismatches   {}", summary.mismatches)?;
        writeln!(out, "data errors  {}", summary.data_errors)?;
        writeln!(out, "mean expanded {mean_expanded:.1}")?;
        writeln!(out, "mean us      {mean_us:.1}")?;
        writeln!(out, "median us    {median_us:.1}")?;
        writeln!(out, "total s      {:.3}", summary.total_s)?;
    }
    Ok(if summary.mismatches > 0 {
        Outcome::NotFound
    } else {
        Outcome::Success
    })
}

/// Runs the scenarios with one heuristic and OPEN set, checking each cost.
/// Problems (data errors and mismatches) are described in `problems`.
pub fn run_batch<Q: OpenSet>(
    graph: &GridGraph,
    mut search: impl FnMut(NodeId, NodeId, &mut SearchCache<Q>) -> Option<f64>,
    scenarios: &[&Scenario],
    against: Against,
    cache: &mut SearchCache<Q>,
    bar: &ProgressBar,
    problems: &mut Vec<String>,
) -> Summary {
    let mut reference = SearchCache::new();
    let mut summary = Summary {
        times: Vec::with_capacity(scenarios.len()),
        ..Summary::default()
    };
    let total = Instant::now();
    for (i, s) in scenarios.iter().enumerate() {
        if i.is_multiple_of(64) {
            bar.set_position(i as u64);
        }
        let (start, goal): (NodeId, NodeId) = match s.endpoints(graph.grid()) {
            Ok(e) => e,
            Err(e) => {
                summary.data_errors += 1;
                problems.push(format!("data error: {e}"));
                continue;
            }
        };
        let t0 = Instant::now();
        let cost = search(start, goal, cache);
        summary.times.push(t0.elapsed().as_secs_f64());
        summary.queries += 1;
        let stats = cache.stats();
        summary.expanded += stats.expanded;
        summary.max_open = summary.max_open.max(stats.max_open);
        let ok = match against {
            Against::Published => cost.is_some_and(|c| lengths_match(c, s.optimal, s.decimals)),
            Against::Dijkstra => {
                let d = Dijkstra::new(graph).search_cost(start, goal, &mut reference);
                same_cost(cost, d)
            }
        };
        if !ok {
            summary.mismatches += 1;
            problems.push(format!(
                "line {}: mismatch from {:?} to {:?}: published {}, found {}",
                s.line,
                s.start,
                s.goal,
                s.optimal,
                cost.map_or("no path".to_string(), |c| format!("{c:.8}"))
            ));
        }
    }
    summary.total_s = total.elapsed().as_secs_f64();
    summary
}
