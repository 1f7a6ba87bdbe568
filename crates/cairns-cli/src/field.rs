//! `cairns field`: the distance field and flow field towards some goals.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Neighborhood, Tile};
use cairns::search::{DistanceField, SearchCache};
use cairns_draw::{Canvas, Rgb};

use crate::{Outcome, parse_point};

/// Small maps are drawn at least this many pixels on their longest side.
const MIN_SIDE: u32 = 256;

/// Options of `cairns field`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The `.map` file.
    pub map: PathBuf,
    /// A goal cell, `X,Y`; repeat for several goals (the field is the
    /// distance to the nearest).
    #[arg(long = "to", value_name = "X,Y", required = true, value_parser = parse_point)]
    pub goals: Vec<(u32, u32)>,
    /// Movement rule, by name (any name below; the first is the one
    /// printed).
    #[arg(long, default_value = "octile", value_parser = crate::choose::neighborhood_names())]
    pub neighborhood: Neighborhood,
    /// Terrain costs and the agent's size.
    #[command(flatten)]
    pub rules: crate::choose::MapRules,
    /// Print the field on stdout: `flow` (an arrow per cell towards its
    /// next step, `G` at a goal, `x` where no goal can be reached, walls as
    /// in the map) or `distance` (a row of distances per map row, `-` where
    /// no goal can be reached). Stdout then holds the field alone: the
    /// summary goes to stderr.
    #[arg(long, value_name = "WHAT", conflicts_with = "json")]
    pub print: Option<Print>,
    /// Print one JSON object (the summary) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Draw the distance field into this PNG (near cells light, far cells
    /// dark, goals red, unreachable cells grey).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// What `--print` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Print {
    /// An arrow per cell.
    Flow,
    /// A distance per cell.
    Distance,
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    let grid = args.rules.read_map(&args.map)?;
    let name = args.map.display().to_string();
    let graph = args.rules.graph(grid, args.neighborhood)?;
    let goals = args
        .goals
        .iter()
        .map(|&p| crate::choose::endpoint(&graph, &name, "goal", p))
        .collect::<anyhow::Result<Vec<NodeId>>>()?;
    let t0 = Instant::now();
    let field = DistanceField::build(&graph, &goals, &mut SearchCache::new());
    let elapsed = t0.elapsed();
    let farthest = (0..field.node_bound() as u32)
        .filter_map(|n| field.distance(NodeId(n)))
        .fold(0.0f64, f64::max);

    // The picture first: a path that cannot be written fails before
    // anything is printed.
    if let Some(path) = &args.output {
        draw(&graph, &field, farthest)
            .save_png(path)
            .with_context(|| format!("{}: cannot write the picture", path.display()))?;
    }
    if args.json {
        crate::json::print(&serde_json::json!({
            "map": name,
            "goals": goals.len(),
            "size": graph.size(),
            "terrain": args.rules.terrain.as_ref().map(ToString::to_string),
            "reached": field.reached(),
            "farthest": farthest,
            "total_s": elapsed.as_secs_f64(),
            "output": args.output.as_ref().map(|p| p.display().to_string()),
        }))?;
        return Ok(Outcome::Success);
    }
    // With the field on stdout, the summary goes to stderr, so that
    // stdout is the field alone.
    let mut summary: Box<dyn Write> = if args.print.is_some() {
        Box::new(io::stderr().lock())
    } else {
        Box::new(io::stdout().lock())
    };
    writeln!(summary, "goals      {}", goals.len())?;
    writeln!(summary, "reached    {} cells", field.reached())?;
    writeln!(summary, "farthest   {farthest:.6}")?;
    writeln!(summary, "time       {:.1} ms", elapsed.as_secs_f64() * 1e3)?;
    summary.flush()?;
    drop(summary);
    let mut out = io::stdout().lock();
    match args.print {
        Some(Print::Flow) => print_flow(&mut out, &graph, &field)?,
        Some(Print::Distance) => print_distance(&mut out, &graph, &field)?,
        None => {}
    }
    out.flush().context("writing to stdout")?;
    Ok(Outcome::Success)
}

/// The arrow from a cell towards its next step.
fn arrow(graph: &GridGraph, from: NodeId, to: NodeId) -> char {
    let (x0, y0) = graph.coords(from);
    let (x1, y1) = graph.coords(to);
    match (x1.cmp(&x0), y1.cmp(&y0)) {
        (std::cmp::Ordering::Equal, std::cmp::Ordering::Less) => '↑',
        (std::cmp::Ordering::Equal, _) => '↓',
        (std::cmp::Ordering::Greater, std::cmp::Ordering::Less) => '↗',
        (std::cmp::Ordering::Greater, std::cmp::Ordering::Equal) => '→',
        (std::cmp::Ordering::Greater, std::cmp::Ordering::Greater) => '↘',
        (std::cmp::Ordering::Less, std::cmp::Ordering::Less) => '↖',
        (std::cmp::Ordering::Less, std::cmp::Ordering::Equal) => '←',
        (std::cmp::Ordering::Less, std::cmp::Ordering::Greater) => '↙',
    }
}

fn print_flow(out: &mut impl Write, graph: &GridGraph, field: &DistanceField) -> io::Result<()> {
    let grid = graph.grid();
    let mut line = String::new();
    for y in 0..grid.height() {
        line.clear();
        for x in 0..grid.width() {
            let n = grid.node(x, y);
            let tile = grid.get(x, y).map_or('@', Tile::to_char);
            line.push(match (field.distance(n), field.next(n)) {
                (Some(_), Some(next)) => arrow(graph, n, next),
                (Some(_), None) => 'G',
                (None, _) if graph.is_passable(n) => 'x',
                (None, _) => tile,
            });
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn print_distance(
    out: &mut impl Write, graph: &GridGraph, field: &DistanceField,
) -> io::Result<()> {
    let grid = graph.grid();
    let mut line = String::new();
    for y in 0..grid.height() {
        line.clear();
        for x in 0..grid.width() {
            if x > 0 {
                line.push(' ');
            }
            match field.distance(grid.node(x, y)) {
                Some(d) => {
                    let _ = write!(line, "{d:.3}");
                }
                None => line.push('-'),
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// One square per cell: walls black, unreachable cells grey, goals red,
/// the rest from light (near) to dark blue (far).
fn draw(graph: &GridGraph, field: &DistanceField, farthest: f64) -> Canvas {
    const WALL: Rgb = [20, 20, 20];
    const UNREACHED: Rgb = [150, 150, 150];
    const GOAL: Rgb = [220, 30, 30];
    let grid = graph.grid();
    let side = grid.width().max(grid.height()).max(1);
    let scale = MIN_SIDE.div_ceil(side).max(1);
    let mut canvas = Canvas::new(grid.width() * scale, grid.height() * scale, WALL);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let n = grid.node(x, y);
            let color = match field.distance(n) {
                Some(_) if field.is_goal(n) => GOAL,
                Some(d) => {
                    let t = if farthest > 0.0 { d / farthest } else { 0.0 };
                    let shade = |near: f64, far: f64| (near + (far - near) * t).round() as u8;
                    [shade(255.0, 10.0), shade(250.0, 40.0), shade(200.0, 120.0)]
                }
                None if graph.is_passable(n) => UNREACHED,
                None => continue,
            };
            canvas.fill_rect(
                i64::from(x * scale),
                i64::from(y * scale),
                scale,
                scale,
                color,
            );
        }
    }
    canvas
}
