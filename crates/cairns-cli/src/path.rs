//! `cairns path`: one query on a map.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::grid::{GridGraph, Neighborhood};
use cairns::movingai::read_map;
use cairns::search::Path;

use crate::choose::{SearchArgs, parse_neighborhood};
use crate::{Outcome, parse_point};

/// Maps up to this size in both directions are printed with the path.
const DRAW_LIMIT: u32 = 200;

/// Options of `cairns path`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The `.map` file.
    pub map: PathBuf,
    /// Start cell, `X,Y` (column, row from the top-left, 0-based).
    #[arg(long, value_parser = parse_point)]
    pub from: (u32, u32),
    /// Goal cell, `X,Y`.
    #[arg(long, value_parser = parse_point)]
    pub to: (u32, u32),
    /// Movement: 4 (straight moves) or 8 (octile, no corner cutting).
    #[arg(long, default_value = "8", value_parser = parse_neighborhood)]
    pub neighborhood: Neighborhood,
    /// The search: algorithm, heuristic, OPEN set.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Never print the map, whatever its size.
    #[arg(long)]
    pub no_draw: bool,
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    let grid = read_map(&args.map)?;
    let name = args.map.display();
    let endpoint = |what: &str, (x, y): (u32, u32)| match grid.get(x, y) {
        None => bail!(
            "{what} ({x}, {y}) is outside {name} ({}x{})",
            grid.width(),
            grid.height()
        ),
        Some(t) if !t.is_passable() => bail!(
            "{what} ({x}, {y}) is on a blocked tile '{}' in {name}",
            t.to_char()
        ),
        Some(_) => Ok(grid.node(x, y)),
    };
    let start = endpoint("start", args.from)?;
    let goal = endpoint("goal", args.to)?;
    let graph = GridGraph::new(grid, args.neighborhood);
    let prepared = args.search.prepare(&graph)?;
    let mut searcher = prepared.searcher();
    let t0 = Instant::now();
    let cost = searcher.search_cost(start, goal);
    let elapsed = t0.elapsed();
    let stats = searcher.stats();
    let mut nodes = Vec::new();
    let found = cost.map(|cost| {
        searcher.path_into(goal, &mut nodes);
        Path { nodes, cost }
    });

    let mut out = io::stdout().lock();
    let Some(path) = found else {
        writeln!(
            out,
            "no path from {:?} to {:?} ({} nodes expanded)",
            args.from, args.to, stats.expanded
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
    writeln!(out, "expanded   {}", stats.expanded)?;
    writeln!(out, "generated  {}", stats.generated)?;
    writeln!(out, "max open   {}", stats.max_open)?;
    writeln!(out, "time       {:.1} us", elapsed.as_secs_f64() * 1e6)?;
    if prepared.table().is_some() || prepared.jump_table().is_some() {
        writeln!(out, "heuristic  {}", prepared.heuristic_label())?;
        writeln!(out, "preprocess {:.1} ms", prepared.preprocess_s() * 1e3)?;
        writeln!(out, "table      {} bytes", prepared.table_bytes())?;
    }
    if !args.no_draw && g.width() <= DRAW_LIMIT && g.height() <= DRAW_LIMIT {
        let mut text: Vec<Vec<u8>> = g
            .to_ascii()
            .lines()
            .map(|l| l.as_bytes().to_vec())
            .collect();
        for &n in &path.nodes {
            let (x, y) = g.coords(n);
            text[y as usize][x as usize] = b'*';
        }
        for (n, ch) in [(start, b's'), (goal, b'g')] {
            let (x, y) = g.coords(n);
            text[y as usize][x as usize] = ch;
        }
        let what = if prepared.spec().any_angle() {
            "* corners of the path"
        } else {
            "* path"
        };
        writeln!(out, "\nmap (s start, g goal, {what}):")?;
        for line in text {
            out.write_all(&line)?;
            out.write_all(b"\n")?;
        }
    }
    out.flush().context("writing to stdout")?;
    Ok(Outcome::Success)
}
