//! `cairns path`: one query on a map.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Neighborhood};
use cairns::search::{Budget, Path, Progress, Reached, SearchStats, Searcher};
use cairns::spec::Prepared;

use crate::choose::{MapRules, SearchArgs, endpoint};
use crate::{Outcome, parse_point};

/// Maps up to this size in both directions are printed with the path.
const DRAW_LIMIT: u32 = 200;

/// Options of `cairns path`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The `.map` file.
    pub map: PathBuf,
    /// Start cell, `X,Y` (column, row from the top-left, 0-based); repeat
    /// for several sources (the path starts at the nearest).
    #[arg(long, value_name = "X,Y", required = true, value_parser = parse_point)]
    pub from: Vec<(u32, u32)>,
    /// Goal cell, `X,Y`; repeat for several goals (the path ends at the
    /// nearest). With several sources or goals, astar and dijkstra answer
    /// in one search, the other searches with one per pair.
    #[arg(long, visible_alias = "goal", value_name = "X,Y", required = true, value_parser = parse_point)]
    pub to: Vec<(u32, u32)>,
    /// Movement rule, by name (any name below; the first is the one
    /// printed).
    #[arg(long, default_value = "octile", value_parser = crate::choose::neighborhood_names())]
    pub neighborhood: Neighborhood,
    /// The search: algorithm, heuristic, OPEN set.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Terrain costs.
    #[command(flatten)]
    pub rules: MapRules,
    /// Never print the map, whatever its size.
    #[arg(long)]
    pub no_draw: bool,
    /// A budget: stop after this many expansions. A search that runs out
    /// prints `paused` with the best node so far (the expanded node closest
    /// to a goal by the heuristic) and its path, and exits 1. astar and
    /// dijkstra take a budget.
    #[arg(long, value_name = "N")]
    pub max_expansions: Option<u64>,
    /// A budget: expand no node whose f = g + h is above this; a search
    /// that stops on it has shown that no path costs that little (with an
    /// admissible heuristic). As --max-expansions otherwise.
    #[arg(long, value_name = "COST")]
    pub max_cost: Option<f64>,
    /// Print one JSON object instead of text (`cost` is null when there is
    /// no path; the path's cells are `path`, its corners for any-angle
    /// searches).
    #[arg(long)]
    pub json: bool,
}

/// The report's lines for the terrain and the agent's size, when not the
/// Moving AI rule's.
fn write_rules(out: &mut impl Write, args: &Args, graph: &GridGraph) -> io::Result<()> {
    if let Some(costs) = &args.rules.terrain {
        writeln!(
            out,
            "terrain    {costs} (cheapest cell {})",
            graph.min_cost()
        )?;
    }
    if graph.size() > 1 {
        let k = graph.size();
        writeln!(
            out,
            "size       {k} (a {k}x{k} agent, placed by its top-left cell)"
        )?;
    }
    Ok(())
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    let grid = args.rules.read_map(&args.map)?;
    let name = args.map.display().to_string();
    let graph = args.rules.graph(grid, args.neighborhood)?;
    let cells = |what: &str, points: &[(u32, u32)]| {
        points
            .iter()
            .map(|&p| endpoint(&graph, &name, what, p))
            .collect::<anyhow::Result<Vec<NodeId>>>()
    };
    let sources = cells("start", &args.from)?;
    let goals = cells("goal", &args.to)?;
    let prepared = args.search.prepare(&graph)?;
    let mut searcher = prepared.searcher();
    let t0 = Instant::now();
    let mut paused = None;
    let reached = if args.max_expansions.is_some() || args.max_cost.is_some() {
        match budgeted(args, &mut *searcher, &prepared, &sources, &goals)? {
            Progress::Found(reached) => Some(reached),
            Progress::NoPath => None,
            Progress::Paused { closest, g, h } => {
                paused = Some((closest, g, h));
                None
            }
        }
    } else if let ([start], [goal]) = (&sources[..], &goals[..]) {
        searcher
            .search_cost(*start, *goal)
            .map(|cost| Reached { goal: *goal, cost })
    } else {
        searcher.search_nearest(&sources, &goals)
    };
    let elapsed = t0.elapsed();
    let stats = searcher.stats();
    if let Some(paused) = paused {
        print_paused(args, &*searcher, &graph, paused, &sources, &goals)?;
        return Ok(Outcome::NotFound);
    }
    let found = reached.map(|r| Path {
        nodes: path_to(&*searcher, r.goal),
        cost: r.cost,
    });
    if args.json {
        return print_json(args, &graph, &prepared, found.as_ref(), stats, elapsed);
    }

    let mut out = io::stdout().lock();
    let Some(path) = found else {
        writeln!(
            out,
            "no path from {} to {} ({} nodes expanded)",
            list(&args.from),
            list(&args.to),
            stats.expanded
        )?;
        return Ok(Outcome::NotFound);
    };
    let g = graph.grid();
    if prepared.spec().any_angle() {
        // The path is its corners, joined by straight lines.
        writeln!(out, "length     {:.6} (any-angle)", path.cost)?;
        let corners: Vec<String> = path
            .nodes
            .iter()
            .map(|&n| format!("{:?}", g.coords(n)))
            .collect();
        writeln!(out, "corners    {}", corners.join(" "))?;
    } else {
        writeln!(out, "cost       {:.6}", path.cost)?;
        writeln!(out, "steps      {}", path.nodes.len() - 1)?;
    }
    if sources.len() > 1 || goals.len() > 1 {
        let (first, last) = (path.nodes[0], path.nodes[path.nodes.len() - 1]);
        writeln!(out, "from       {:?}", g.coords(first))?;
        writeln!(out, "to         {:?}", g.coords(last))?;
    }
    writeln!(out, "expanded   {}", stats.expanded)?;
    writeln!(out, "generated  {}", stats.generated)?;
    writeln!(out, "max open   {}", stats.max_open)?;
    writeln!(out, "time       {:.1} us", elapsed.as_secs_f64() * 1e6)?;
    write_rules(&mut out, args, &graph)?;
    if !prepared.report().is_empty() {
        writeln!(out, "heuristic  {}", prepared.heuristic_label())?;
    }
    crate::choose::write_tables(&mut out, &prepared, 10)?;
    if !args.no_draw && g.width() <= DRAW_LIMIT && g.height() <= DRAW_LIMIT {
        let what = if prepared.spec().any_angle() {
            "* corners of the path"
        } else {
            "* path"
        };
        draw(&mut out, g, &path, &sources, &goals, what)?;
    }
    out.flush().context("writing to stdout")?;
    Ok(Outcome::Success)
}

/// `--json`: the query's answer (`cost` null without a path: exit 1) and
/// counts, with `scen --json`'s names where they mean the same thing.
fn print_json(
    args: &Args, graph: &GridGraph, prepared: &Prepared<'_>, found: Option<&Path>,
    stats: SearchStats, elapsed: std::time::Duration,
) -> anyhow::Result<Outcome> {
    let name = args.map.display().to_string();
    let g = graph.grid();
    let cells = |p: &Path| -> Vec<[u32; 2]> {
        p.nodes
            .iter()
            .map(|&n| {
                let (x, y) = g.coords(n);
                [x, y]
            })
            .collect()
    };
    let spec = prepared.spec();
    crate::json::print(&serde_json::json!({
        "map": name,
        "spec": spec.to_string(),
        "search": spec.algorithm.name(),
        "heuristic": prepared.heuristic_label(),
        "neighborhood": graph.neighborhood().token(),
        "terrain": args.rules.terrain.as_ref().map(ToString::to_string),
        "size": graph.size(),
        "from": args.from.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
        "to": args.to.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
        "cost": found.map(|p| p.cost),
        "any_angle": spec.any_angle(),
        "steps": found.map(|p| p.nodes.len() - 1),
        "path": found.map(cells),
        "expanded": stats.expanded,
        "generated": stats.generated,
        "max_open": stats.max_open,
        "time_us": elapsed.as_secs_f64() * 1e6,
        "tables": crate::choose::tables_json(prepared),
        "preprocess_s": prepared.preprocess_s(),
        "table_bytes": prepared.table_bytes(),
    }))?;
    Ok(Outcome::success_if(found.is_some()))
}

/// One call of the search under the budget of `--max-expansions` and
/// `--max-cost`.
fn budgeted(
    args: &Args, searcher: &mut dyn Searcher, prepared: &Prepared<'_>, sources: &[NodeId],
    goals: &[NodeId],
) -> anyhow::Result<Progress> {
    let budget = Budget {
        expansions: args.max_expansions.unwrap_or(u64::MAX),
        max_f: args.max_cost.unwrap_or(f64::INFINITY),
    };
    match searcher.search_budgeted(sources, goals, budget) {
        Some(progress) => Ok(progress),
        None => bail!(
            "--max-expansions and --max-cost need the astar or dijkstra search; {} takes no budget",
            prepared.spec().algorithm
        ),
    }
}

/// Prints a paused search: which budget stopped it, its best node so far
/// and the path there.
fn print_paused(
    args: &Args, searcher: &dyn Searcher, graph: &GridGraph, (closest, g, h): (NodeId, f64, f64),
    sources: &[NodeId], goals: &[NodeId],
) -> anyhow::Result<()> {
    let stats = searcher.stats();
    let mut out = io::stdout().lock();
    let mut nodes = Vec::new();
    searcher.path_into(closest, &mut nodes);
    let grid = graph.grid();
    let capped = args
        .max_cost
        .filter(|_| stats.expanded < args.max_expansions.unwrap_or(u64::MAX));
    match capped {
        Some(cap) => writeln!(
            out,
            "paused     no path costs {cap} or less (every node left has f above it), after {} expansions",
            stats.expanded
        )?,
        None => writeln!(
            out,
            "paused     the budget of {} expansions ran out",
            stats.expanded
        )?,
    }
    writeln!(
        out,
        "closest    {:?}, cost so far {g:.6}, estimate to go {h:.6}",
        grid.coords(closest)
    )?;
    writeln!(out, "steps      {}", nodes.len().saturating_sub(1))?;
    if !args.no_draw && grid.width() <= DRAW_LIMIT && grid.height() <= DRAW_LIMIT {
        let path = Path { nodes, cost: g };
        draw(
            &mut out,
            grid,
            &path,
            sources,
            goals,
            "* path to the closest node",
        )?;
    }
    out.flush().context("writing to stdout")?;
    Ok(())
}

/// Prints the map with the path's nodes as `*` and the endpoints as `s`
/// and `g`; `what` says what the stars are.
fn draw(
    out: &mut impl Write, g: &cairns::grid::Grid, path: &Path, sources: &[NodeId],
    goals: &[NodeId], what: &str,
) -> io::Result<()> {
    let mut text: Vec<Vec<u8>> = g
        .to_ascii()
        .lines()
        .map(|l| l.as_bytes().to_vec())
        .collect();
    for &n in &path.nodes {
        let (x, y) = g.coords(n);
        text[y as usize][x as usize] = b'*';
    }
    let marks = sources.iter().map(|&n| (n, b's'));
    for (n, ch) in marks.chain(goals.iter().map(|&n| (n, b'g'))) {
        let (x, y) = g.coords(n);
        text[y as usize][x as usize] = ch;
    }
    writeln!(out, "\nmap (s start, g goal, {what}):")?;
    for line in text {
        out.write_all(&line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The path to `goal` that `searcher` found, from its first node.
fn path_to(searcher: &dyn Searcher, goal: NodeId) -> Vec<NodeId> {
    let mut nodes = Vec::new();
    searcher.path_into(goal, &mut nodes);
    nodes
}

/// `(3, 4)` or `(3, 4), (9, 9)`: the cells as given.
fn list(points: &[(u32, u32)]) -> String {
    let cells: Vec<String> = points.iter().map(|p| format!("{p:?}")).collect();
    cells.join(", ")
}
