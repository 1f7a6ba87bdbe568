//! `cairns render`: one or two searches drawn into a PNG.
//!
//! The map is drawn one colour per cell: walls dark, free cells white,
//! free cells the start cannot reach grey, cells expanded by heuristic A
//! only orange, by B only sky blue, by both purple (colours that stay apart
//! under the common kinds of colour blindness, and differ in lightness).
//! Jump point search expands only its jump points: they are drawn as dots.
//! Over that come the path, the landmarks (numbered triangles), the start
//! (a disc) and the goal (a square with a cross), and below the map a
//! legend and a ratio line in a built-in bitmap font; `--title` adds a line
//! above. The path is a thin yellow line (a dark outline only from
//! [`OUTLINE_FROM`] pixels per cell), so that the cells under it keep their
//! colour: with a good heuristic B expands little more than the path, and
//! a wide path would hide all of it. Below [`HALO_BELOW`] pixels per cell,
//! the explored cells under the path are drawn [`HALO_BELOW`] pixels wide
//! (a halo on each side of the line). Maps are scaled by a whole factor
//! (`--scale`, or up until the longest side is at least [`MIN_SIDE`]
//! pixels, down until it is at most [`MAX_SIDE`]); `--crop` draws a
//! rectangle of cells only; a margin of [`MARGIN`] pixels keeps markers on
//! the map's edge whole.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::graph::Graph;
use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Neighborhood};
use cairns::saved::TableKind;
use cairns::spec::{Algorithm, HeuristicSpec, LandmarkMode, PlacementKind};
use cairns_draw::{Canvas, Rgb, text_height, text_width};
use clap::builder::{PathBufValueParser, TypedValueParser};

use crate::choose::{MapRules, SearchArgs, TableFiles, endpoint};
use crate::{Outcome, parse_point};

/// Maps are scaled up until their longest side is at least this many pixels.
pub const MIN_SIDE: u32 = 512;
/// Maps are scaled down until their longest side is at most this many pixels.
pub const MAX_SIDE: u32 = 1024;

/// Pixels around the map, so that markers on its edge are not clipped.
pub const MARGIN: u32 = 8;

/// The path gets a dark outline from this many pixels per cell.
pub const OUTLINE_FROM: u32 = 6;

/// Below this many pixels per cell, the explored cells under the path are
/// drawn this many pixels wide, so that their colour shows beside the line.
pub const HALO_BELOW: u32 = 4;

// The page's colours (crates/cairns-web/static/app.js).
pub(crate) const WALL: Rgb = [48, 48, 56];
pub(crate) const FREE: Rgb = [255, 255, 255];
pub(crate) const UNREACHABLE: Rgb = [190, 190, 190];
pub(crate) const ONLY_A: Rgb = [245, 176, 65];
pub(crate) const ONLY_B: Rgb = [93, 173, 226];
pub(crate) const BOTH: Rgb = [125, 91, 166];
pub(crate) const PATH: Rgb = [255, 212, 0];
pub(crate) const START: Rgb = [0, 158, 115];
pub(crate) const GOAL: Rgb = [213, 94, 0];
pub(crate) const LANDMARK: Rgb = [240, 228, 66];
pub(crate) const INK: Rgb = [20, 20, 20];
pub(crate) const WHITE: Rgb = [255, 255, 255];
pub(crate) const PAPER: Rgb = [245, 245, 240];

/// Options of `cairns render`.
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
    /// Heuristic A: zero, manhattan, octile, euclidean, or
    /// `dh:K[:PLACEMENT]` (a differential heuristic over K landmarks placed
    /// random, farthest, avoid or sampled (the default, seed 1), with octile as
    /// base); a bare `dh` uses the landmark table of --table. By default
    /// the search's own, as `path` picks it (octile on octile maps,
    /// euclidean for theta, none for dijkstra and bfs).
    #[arg(long)]
    pub heuristic: Option<HeuristicSpec>,
    /// Heuristic B: cells only B expanded are drawn sky blue, cells both
    /// expanded purple.
    #[arg(long)]
    pub compare: Option<HeuristicSpec>,
    /// Search algorithm, by name (jps is drawn with its jump points).
    #[arg(long = "search", value_name = "NAME", value_parser = crate::choose::algorithm_names())]
    pub algorithm: Option<Algorithm>,
    #[command(flatten)]
    pub tables: TableFiles,
    /// Movement rule, by name (any name below; the first is the one
    /// printed).
    #[arg(long, default_value = "octile", value_parser = crate::choose::neighborhood_names())]
    pub neighborhood: Neighborhood,
    /// Terrain costs (cells made passable by them are drawn as free).
    #[command(flatten)]
    pub rules: MapRules,
    /// Pixels per cell (1 to 64), instead of the scale that fits the map
    /// between 512 and 1024 pixels.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub scale: Option<u32>,
    /// Draw only the cells from `X0,Y0` (top left) to `X1,Y1` (bottom
    /// right), both included.
    #[arg(long, value_name = "X0,Y0,X1,Y1", value_parser = parse_crop)]
    pub crop: Option<Crop>,
    #[command(flatten)]
    pub picture: PictureArgs,
}

/// What both renders take about the picture: a title, `--json`, the file.
#[derive(Debug, clap::Args)]
pub struct PictureArgs {
    /// A line of text drawn above the picture.
    #[arg(long)]
    pub title: Option<String>,
    /// Print one JSON object (each search, and the file written) instead
    /// of text.
    #[arg(long)]
    pub json: bool,
    /// The PNG file to write; its name must end in `.png`.
    #[arg(
        short = 'o',
        long = "output",
        value_parser = PathBufValueParser::new().try_map(png_path),
    )]
    pub output: PathBuf,
}

/// Accepts an output path ending in `.png` (in any case): render writes
/// nothing else, and a `.jpg` holding PNG bytes would mislead. Clap's error
/// names the path.
fn png_path(path: PathBuf) -> Result<PathBuf, &'static str> {
    if path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("png"))
    {
        Ok(path)
    } else {
        Err("only PNG is written: give a file name ending in .png")
    }
}

/// The rectangle of cells drawn: its top-left cell and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crop {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// `X0,Y0,X1,Y1`, corners included: the top-left corner, then the
/// bottom-right one. Reversed corners are refused rather than swapped: they
/// are more likely a mistake than a choice.
fn parse_crop(s: &str) -> Result<Crop, String> {
    let v: Vec<u32> = s
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{s:?}: {e}"))?;
    let [x0, y0, x1, y1] = v[..] else {
        return Err(format!("{s:?}: give four numbers, X0,Y0,X1,Y1"));
    };
    if x0 > x1 || y0 > y1 {
        return Err(format!(
            "{s:?}: give the top-left corner first (X0 <= X1 and Y0 <= Y1)"
        ));
    }
    Ok(Crop {
        x: x0,
        y: y0,
        width: x1 - x0 + 1,
        height: y1 - y0 + 1,
    })
}

/// What one search found, for drawing.
#[derive(Debug)]
struct Run {
    label: String,
    cost: Option<f64>,
    path: Vec<NodeId>,
    expanded: u64,
    closed: Vec<NodeId>,
    landmarks: Vec<NodeId>,
    search_seconds: f64,
    table_seconds: Option<f64>,
}

/// Whether the table file `path` holds landmarks (read from its magic
/// bytes; a file that cannot be read is not, and fails when loaded).
fn holds_landmarks(path: &Path) -> bool {
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok()
        && matches!(
            TableKind::of(magic),
            Some(TableKind::Landmarks | TableKind::CompressedLandmarks)
        )
}

/// The searches of `render`: the algorithm, and the tables given.
struct Searches<'a> {
    algorithm: Option<Algorithm>,
    tables: &'a [PathBuf],
}

/// Runs the search with `heuristic` (`None`: the search's default); the
/// landmark tables go to it only if `landmarks`, the table of a search
/// always.
fn run_one(
    graph: &GridGraph, searches: &Searches<'_>, heuristic: Option<HeuristicSpec>, landmarks: bool,
    start: NodeId, goal: NodeId,
) -> anyhow::Result<Run> {
    let search = SearchArgs {
        algorithm: searches.algorithm,
        heuristic,
        tables: TableFiles {
            files: searches
                .tables
                .iter()
                .filter(|&t| landmarks || !holds_landmarks(t))
                .cloned()
                .collect(),
        },
        ..SearchArgs::default()
    };
    let prepared = search.prepare(graph)?;
    let mut searcher = prepared.searcher();
    let t0 = Instant::now();
    let cost = searcher.search_cost(start, goal);
    let search_seconds = t0.elapsed().as_secs_f64();
    let label = match heuristic {
        // `dh:K` for the default placement keeps the legend short.
        Some(HeuristicSpec::Landmarks {
            count: Some(k),
            placement,
            mode: LandmarkMode::All,
        }) if placement == PlacementKind::default() => format!("dh:{k}"),
        _ => prepared.heuristic_label(),
    };
    let mut path = Vec::new();
    if cost.is_some() {
        searcher.path_into(goal, &mut path);
    }
    let closed = (0..graph.node_bound() as u32)
        .map(NodeId)
        .filter(|&n| searcher.is_closed(n))
        .collect();
    Ok(Run {
        label,
        cost,
        path,
        expanded: searcher.stats().expanded,
        closed,
        landmarks: prepared
            .landmark_nodes()
            .map(<[NodeId]>::to_vec)
            .unwrap_or_default(),
        search_seconds,
        table_seconds: (!prepared.report().is_empty()).then_some(prepared.preprocess_s()),
    })
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    let t_total = Instant::now();
    let grid = args.rules.read_map(&args.map)?;
    let name = args.map.display().to_string();
    let graph = args.rules.graph(grid, args.neighborhood)?;
    let start = endpoint(&graph, &name, "start", args.from)?;
    let goal = endpoint(&graph, &name, "goal", args.to)?;
    let compare_dh = args.compare.is_some_and(HeuristicSpec::is_landmarks);
    // A takes the landmark tables under dh, or under no heuristic named
    // (they make it dh) unless B is the one with dh.
    let a_dh = match args.heuristic {
        Some(h) => h.is_landmarks(),
        None => !compare_dh,
    };
    if let Some(file) = args.tables.files.iter().find(|t| holds_landmarks(t))
        && !a_dh
        && !compare_dh
    {
        bail!(
            "--table {} holds a landmark table, which needs a differential heuristic: give --heuristic dh or --compare dh",
            file.display()
        );
    }
    // Dijkstra and breadth-first search take no heuristic: none is given
    // them, and there is nothing to compare.
    let informed = args.algorithm.is_none_or(Algorithm::uses_heuristic);
    let heuristic = args.heuristic.filter(|_| informed);
    let searches = Searches {
        algorithm: args.algorithm,
        tables: &args.tables.files,
    };
    let mut runs = vec![run_one(&graph, &searches, heuristic, a_dh, start, goal)?];
    if let Some(b) = args.compare.filter(|_| informed) {
        runs.push(run_one(
            &graph,
            &searches,
            Some(b),
            compare_dh,
            start,
            goal,
        )?);
    }
    let crop = args.crop.unwrap_or(Crop {
        x: 0,
        y: 0,
        width: graph.width(),
        height: graph.height(),
    });
    if crop.x + crop.width > graph.width() || crop.y + crop.height > graph.height() {
        bail!(
            "--crop reaches outside the map ({}x{})",
            graph.width(),
            graph.height()
        );
    }
    let layout = match args.scale {
        Some(up) => Layout::scaled(crop.width, crop.height, up),
        None => Layout::for_map(crop.width, crop.height),
    };
    let jump_points = args.algorithm == Some(Algorithm::Jps);
    let title = title(args.picture.title.as_deref(), &graph);
    let picture = Picture {
        layout,
        crop,
        title: title.as_deref(),
        jump_points,
    };
    let canvas = draw(&graph, &picture, &runs, start, goal);
    canvas.save_png(&args.picture.output)?;

    let outcome = Outcome::success_if(runs[0].cost.is_some());
    if args.picture.json {
        print_json(args, &runs, &canvas, &layout)?;
        return Ok(outcome);
    }
    let line = |r: &Run| {
        format!(
            "{:<10} expanded {:>9}  cost {}  search {:.3} ms{}",
            r.label,
            r.expanded,
            cost_text(r.cost),
            r.search_seconds * 1e3,
            r.table_seconds
                .map_or_else(String::new, |t| format!("  table {:.1} ms", t * 1e3)),
        )
    };
    let how = layout.describe();
    let written = (args.picture.output.as_path(), &canvas, Some(how.as_str()));
    print_summary(&runs, line, written, t_total.elapsed().as_secs_f64())?;
    Ok(outcome)
}

/// A cost as the text summaries print it: six decimals, or `none`.
pub(crate) fn cost_text(cost: Option<f64>) -> String {
    cost.map_or_else(|| "none".to_string(), |c| format!("{c:.6}"))
}

/// The text summary of a render: `line` of each run (tagged `a`, `b`),
/// then the file written, its size, how it was scaled (`how`) and the
/// seconds the whole command took.
pub(crate) fn print_summary<R>(
    runs: &[R], line: impl Fn(&R) -> String, (output, canvas, how): (&Path, &Canvas, Option<&str>),
    seconds: f64,
) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    for (tag, r) in ["a", "b"].iter().zip(runs) {
        writeln!(out, "{tag} {}", line(r))?;
    }
    let how = how.map_or_else(String::new, |h| format!(", {h}"));
    writeln!(
        out,
        "wrote {} ({}x{} px{how}) in {:.0} ms",
        output.display(),
        canvas.width(),
        canvas.height(),
        seconds * 1e3
    )?;
    out.flush().context("writing to stdout")?;
    Ok(())
}

/// `--json`: each search (`cost` null without a path) and the picture
/// written.
fn print_json(args: &Args, runs: &[Run], canvas: &Canvas, layout: &Layout) -> anyhow::Result<()> {
    let name = args.map.display().to_string();
    let searches: Vec<serde_json::Value> = (["a", "b"].iter().zip(runs))
        .map(|(tag, r)| {
            serde_json::json!({
                "run": tag,
                "heuristic": r.label,
                "cost": r.cost,
                "steps": (!r.path.is_empty()).then(|| r.path.len() - 1),
                "expanded": r.expanded,
                "time_us": r.search_seconds * 1e6,
                "preprocess_s": r.table_seconds,
            })
        })
        .collect();
    crate::json::print(&serde_json::json!({
        "map": name,
        "search": args.algorithm.unwrap_or_default().name(),
        "searches": searches,
        "output": args.picture.output.display().to_string(),
        "width_px": canvas.width(),
        "height_px": canvas.height(),
        "scale": layout.describe(),
    }))
}

/// How map cells become pixels: each cell `up` x `up` pixels, or each pixel
/// `down` x `down` cells (one of the two is 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub up: u32,
    pub down: u32,
    pub width: u32,
    pub height: u32,
}

impl Layout {
    /// The scale for a `width` x `height` map.
    pub fn for_map(width: u32, height: u32) -> Layout {
        let side = width.max(height).max(1);
        let (up, down) = if side < MIN_SIDE {
            (MIN_SIDE.div_ceil(side), 1)
        } else {
            (1, side.div_ceil(MAX_SIDE))
        };
        Layout {
            up,
            down,
            width: width.div_ceil(down) * up,
            height: height.div_ceil(down) * up,
        }
    }

    /// `up` pixels per cell.
    pub fn scaled(width: u32, height: u32, up: u32) -> Layout {
        Layout {
            up,
            down: 1,
            width: width * up,
            height: height * up,
        }
    }

    fn describe(&self) -> String {
        if self.down > 1 {
            format!("{} cells per pixel side", self.down)
        } else {
            format!("{} px per cell", self.up)
        }
    }

    /// The top-left pixel of the cell's block and the block's side.
    fn cell_rect(&self, x: u32, y: u32) -> (i64, i64, u32) {
        (
            i64::from(x / self.down * self.up),
            i64::from(y / self.down * self.up),
            self.up,
        )
    }
}

/// The region of a cell explored by the searches of `bits` (bit 0: A,
/// bit 1: B): 3 A only, 4 B only, 5 both.
fn region(bits: u8) -> u8 {
    match bits {
        1 => 3,
        2 => 4,
        _ => 5,
    }
}

/// One class per cell (0 free, 1 unreachable from the start, 2 wall, then
/// the explored regions of [`region`], unless the searches expanded jump
/// points, drawn as dots) and which searches expanded each cell.
fn cell_classes(
    graph: &GridGraph, runs: &[Run], start: NodeId, jump_points: bool,
) -> (Vec<u8>, Vec<u8>) {
    let reachable = cairns_web::reachable_from(graph, start);
    let mut class: Vec<u8> = (0..graph.node_bound() as u32)
        .map(|n| graph.is_passable(NodeId(n)))
        .zip(&reachable)
        .map(|(passable, &r)| match (passable, r) {
            (false, _) => 2,
            (true, false) => 1,
            (true, true) => 0,
        })
        .collect();
    let mut explored = vec![0u8; class.len()];
    for (i, r) in runs.iter().enumerate() {
        for &n in &r.closed {
            explored[n.index()] |= 1 << i;
        }
    }
    if !jump_points {
        for (c, &e) in class.iter_mut().zip(&explored) {
            if e != 0 {
                *c = region(e);
            }
        }
    }
    (class, explored)
}

/// The picture's title: `--title`, followed by the movement rule and the
/// agent's size where they are not the benchmark's (octile, one cell), so
/// that a picture says what it was searched under.
fn title(given: Option<&str>, graph: &GridGraph) -> Option<String> {
    let mut rules = Vec::new();
    if graph.neighborhood() != Neighborhood::Octile {
        rules.push(graph.neighborhood().name().to_string());
    }
    if graph.size() > 1 {
        rules.push(format!("agent {0}x{0}", graph.size()));
    }
    match (given, rules.is_empty()) {
        (given, true) => given.map(str::to_string),
        (Some(t), false) => Some(format!("{t} ({})", rules.join(", "))),
        (None, false) => Some(rules.join(", ")),
    }
}

/// How the picture is framed: the scale, the cells drawn, a title, and
/// whether the searches expanded jump points (drawn as dots).
struct Picture<'a> {
    layout: Layout,
    crop: Crop,
    title: Option<&'a str>,
    jump_points: bool,
}

fn draw(graph: &GridGraph, pic: &Picture<'_>, runs: &[Run], start: NodeId, goal: NodeId) -> Canvas {
    let grid = graph.grid();
    let (layout, crop) = (&pic.layout, pic.crop);
    let w = grid.width();
    // Per pixel, the largest class of its cells.
    let (class, explored) = cell_classes(graph, runs, start, pic.jump_points);
    let (pixel_class, pw, ph) = pixel_classes(&class, w, layout, crop);

    let legend = legend_lines(runs, pic.jump_points);
    let scale = 2;
    let line_h = text_height(scale) + 8;
    let title_h = pic.title.map_or(0, |_| line_h + 4);
    let text_w = |t: &str| 40 + text_width(t, scale) + MARGIN;
    let legend_w = legend
        .iter()
        // Text starts at x = 40; the same margin as the map's on the right.
        .map(|(_, t)| text_w(t))
        .chain(pic.title.map(|t| text_w(t) - 32))
        .max()
        .unwrap_or(0);
    let legend_h = legend.len() as u32 * line_h + 12;
    let map_w = layout.width + 2 * MARGIN;
    let map_h = layout.height + 2 * MARGIN;
    let mut canvas = Canvas::new(map_w.max(legend_w), title_h + map_h + legend_h, PAPER);
    if let Some(title) = pic.title {
        canvas.text(i64::from(MARGIN), i64::from(MARGIN), title, scale, INK);
    }

    let palette = [FREE, UNREACHABLE, WALL, ONLY_A, ONLY_B, BOTH];
    let up = layout.up;
    let (left, top) = (i64::from(MARGIN), i64::from(MARGIN + title_h));
    for py in 0..ph {
        for px in 0..pw {
            let color = palette[pixel_class[(py * pw + px) as usize] as usize];
            canvas.fill_rect(
                left + i64::from(px * up),
                top + i64::from(py * up),
                up,
                up,
                color,
            );
        }
    }
    // The centre of a cell in pixels (cells outside the crop fall outside
    // the map and are clipped by the canvas, or drawn in its margin).
    let centre = |n: NodeId| {
        let (x, y) = graph.coords(n);
        let (px, py, side) = layout.cell_rect(x, y);
        let (ox, oy, _) = layout.cell_rect(crop.x, crop.y);
        let half = i64::from(side / 2);
        (left + px - ox + half, top + py - oy + half)
    };
    let inside = |n: NodeId| {
        let (x, y) = graph.coords(n);
        (crop.x..crop.x + crop.width).contains(&x) && (crop.y..crop.y + crop.height).contains(&y)
    };
    if pic.jump_points {
        let dot = (up / 3).max(2);
        for (i, &e) in explored.iter().enumerate() {
            if e != 0 && inside(NodeId(i as u32)) {
                let (cx, cy) = centre(NodeId(i as u32));
                canvas.fill_circle(cx, cy, dot + 1, INK);
                canvas.fill_circle(cx, cy, dot, palette[region(e) as usize]);
            }
        }
    } else if up < HALO_BELOW && layout.down == 1 {
        // The explored cells under the path, a little wider than a cell,
        // so that their colour shows on both sides of the line.
        let back = i64::from(HALO_BELOW / 2);
        for &n in runs[0].path.iter().filter(|&&n| inside(n)) {
            let e = explored[n.index()];
            if e != 0 {
                let (cx, cy) = centre(n);
                let color = palette[region(e) as usize];
                canvas.fill_rect(cx - back, cy - back, HALO_BELOW, HALO_BELOW, color);
            }
        }
    }

    draw_path(&mut canvas, &runs[0].path, up, &centre, &inside);
    draw_markers(
        &mut canvas,
        runs,
        (start, goal),
        (up / 2).max(5),
        &centre,
        &inside,
    );
    draw_legend(&mut canvas, &legend, title_h + map_h + 8, line_h, scale);
    canvas
}

/// The legend's lines from pixel row `top`, `line_h` apart, each with its
/// swatch where it has one, in text of `scale`.
pub(crate) fn draw_legend(
    canvas: &mut Canvas, legend: &[(Option<Rgb>, String)], top: u32, line_h: u32, scale: u32,
) {
    for (i, (swatch, text)) in legend.iter().enumerate() {
        let y = i64::from(top + i as u32 * line_h);
        if let Some(color) = swatch {
            canvas.fill_rect(8, y - 1, 24, text_height(scale) + 2, INK);
            canvas.fill_rect(9, y, 22, text_height(scale), *color);
        }
        canvas.text(40, y, text, scale, INK);
    }
}

/// Per pixel of the map's part of the picture, the largest class of its
/// cells in `crop` (of a map `w` cells wide); and the part's size.
fn pixel_classes(class: &[u8], w: u32, layout: &Layout, crop: Crop) -> (Vec<u8>, u32, u32) {
    let (pw, ph) = (
        crop.width.div_ceil(layout.down),
        crop.height.div_ceil(layout.down),
    );
    let mut pixel_class = vec![0u8; pw as usize * ph as usize];
    for y in 0..crop.height {
        let at = ((crop.y + y) * w + crop.x) as usize;
        let row = &class[at..at + crop.width as usize];
        let prow = (y / layout.down * pw) as usize;
        for (x, &c) in row.iter().enumerate() {
            let p = &mut pixel_class[prow + x / layout.down as usize];
            *p = (*p).max(c);
        }
    }

    (pixel_class, pw, ph)
}

/// The path: a thin yellow line, outlined once cells are large (`up`
/// pixels a cell).
fn draw_path(
    canvas: &mut Canvas, path: &[NodeId], up: u32, centre: &dyn Fn(NodeId) -> (i64, i64),
    inside: &dyn Fn(NodeId) -> bool,
) {
    let core = (up / 4).max(1);
    // Segments leaving the crop are left out: they would cross the margin.
    let points: Vec<Option<(i64, i64)>> =
        path.iter().map(|&n| inside(n).then(|| centre(n))).collect();
    let pens: &[(u32, Rgb)] = if up >= OUTLINE_FROM {
        &[(core + 2, INK), (core, PATH)]
    } else {
        &[(core, PATH)]
    };
    for &(thickness, color) in pens {
        for pair in points.windows(2) {
            if let [Some(a), Some(b)] = *pair {
                canvas.line(a, b, thickness, color);
            }
        }
    }
}

/// The landmarks (numbered triangles), the goal (a square with a cross)
/// and the start (a disc), of side about `2 * size`, where they are inside
/// the picture.
fn draw_markers(
    canvas: &mut Canvas, runs: &[Run], (start, goal): (NodeId, NodeId), size: u32,
    centre: &dyn Fn(NodeId) -> (i64, i64), inside: &dyn Fn(NodeId) -> bool,
) {
    let landmarks = runs.iter().find(|r| !r.landmarks.is_empty());
    for (k, &n) in landmarks
        .into_iter()
        .flat_map(|r| r.landmarks.iter())
        .enumerate()
    {
        let (lx, ly) = centre(n);
        canvas.fill_triangle_up(lx, ly, size + 2, INK);
        canvas.fill_triangle_up(lx, ly + 1, size - 1, LANDMARK);
        // Numbered from 1, as the page numbers them.
        let label = (k + 1).to_string();
        let (tw, th) = (text_width(&label, 1), text_height(1));
        let (tx, ty) = (lx + i64::from(size) + 3, ly - i64::from(th) / 2);
        canvas.fill_rect(tx - 1, ty - 1, tw + 2, th + 2, WHITE);
        canvas.text(tx, ty, &label, 1, INK);
    }
    draw_ends(
        canvas,
        inside(start).then(|| centre(start)),
        inside(goal).then(|| centre(goal)),
        size,
    );
}

/// The goal (a square with a cross) and the start (a disc) at these
/// pixels, where given, of side about `2 * size`.
pub(crate) fn draw_ends(
    canvas: &mut Canvas, start: Option<(i64, i64)>, goal: Option<(i64, i64)>, size: u32,
) {
    if let Some((gx, gy)) = goal {
        let gr = i64::from(size);
        canvas.fill_rect(gx - gr - 1, gy - gr - 1, 2 * size + 3, 2 * size + 3, INK);
        canvas.fill_rect(gx - gr, gy - gr, 2 * size + 1, 2 * size + 1, GOAL);
        let arm = gr - 2;
        canvas.line((gx - arm, gy - arm), (gx + arm, gy + arm), 1, WHITE);
        canvas.line((gx - arm, gy + arm), (gx + arm, gy - arm), 1, WHITE);
    }
    if let Some((sx, sy)) = start {
        canvas.fill_circle(sx, sy, size + 1, INK);
        canvas.fill_circle(sx, sy, size, START);
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

pub(crate) fn millis(seconds: f64) -> String {
    format!("{:.2} ms", seconds * 1e3)
}

/// "B (dh:4) expands 2.6x fewer cells than A (zero)".
fn ratio_line(runs: &[Run], what: &str) -> Option<String> {
    let [a, b] = runs else { return None };
    let verbs = ("expands", "expand");
    Some(compare_line(
        (&a.label, a.expanded),
        (&b.label, b.expanded),
        verbs,
        what,
    ))
}

/// How B's count compares with A's, each given as `(label, count)`:
/// "B (dh:4) expands 2.6x fewer cells than A (zero)", with `verbs` the
/// verb's singular and plural ("expands", "expand").
pub(crate) fn compare_line(
    (a_label, a): (&str, u64), (b_label, b): (&str, u64), (one, both): (&str, &str), what: &str,
) -> String {
    let (a_name, b_name) = (format!("A ({a_label})"), format!("B ({b_label})"));
    if a == b {
        return format!("{b_name} and {a_name} {both} as many {what}");
    }
    let (x, word) = if b < a {
        (a as f64 / b.max(1) as f64, "fewer")
    } else {
        (b as f64 / a.max(1) as f64, "more")
    };
    format!("{b_name} {one} {x:.1}x {word} {what} than {a_name}")
}

fn legend_lines(runs: &[Run], jump_points: bool) -> Vec<(Option<Rgb>, String)> {
    let mut lines = Vec::new();
    let what = if jump_points { "jump points" } else { "cells" };
    if let Some(ratio) = ratio_line(runs, what) {
        lines.push((None, ratio));
    }
    for (tag, r) in ["A", "B"].iter().zip(runs) {
        let table = r
            .table_seconds
            .map_or_else(String::new, |t| format!(" (table {})", millis(t)));
        let text = format!(
            "{tag} {}: {} {what} expanded, {}{table}",
            r.label,
            thousands(r.expanded),
            millis(r.search_seconds)
        );
        lines.push((None, text));
    }
    if runs.len() > 1 {
        lines.push((Some(ONLY_A), format!("{what} expanded by A only")));
        lines.push((Some(ONLY_B), format!("{what} expanded by B only")));
        lines.push((Some(BOTH), format!("{what} expanded by both")));
    } else {
        lines.push((Some(ONLY_A), format!("{what} expanded")));
    }
    let path = match runs[0].cost {
        Some(c) => format!(
            "path {c:.2} ({} steps)",
            runs[0].path.len().saturating_sub(1)
        ),
        None => "no path".to_string(),
    };
    lines.push((Some(PATH), format!("{path}: thin line")));
    lines.push((Some(START), "start: disc".to_string()));
    lines.push((Some(GOAL), "goal: square with a cross".to_string()));
    if runs.iter().any(|r| !r.landmarks.is_empty()) {
        lines.push((Some(LANDMARK), "landmarks: numbered triangles".to_string()));
    }
    lines.push((
        Some(UNREACHABLE),
        "floor the start cannot reach".to_string(),
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairns::grid::Grid;

    #[test]
    fn layout_scales_small_maps_up_and_large_maps_down() {
        assert_eq!(Layout::for_map(64, 48).up, 8);
        assert_eq!(
            (
                Layout::for_map(64, 48).width,
                Layout::for_map(64, 48).height
            ),
            (512, 384)
        );
        let big = Layout::for_map(3000, 1000);
        assert_eq!((big.up, big.down, big.width, big.height), (1, 3, 1000, 334));
        assert_eq!(Layout::for_map(1024, 1024).down, 1);
        assert_eq!(Layout::for_map(512, 100).up, 1);
    }

    /// Regression test: on a narrow map the picture is as wide as its
    /// longest legend line, and the ratio line (the first, often the
    /// longest) must be drawn whole: its ink ends at least a margin short
    /// of the right edge, and reaches as far as the text is wide.
    #[test]
    fn the_ratio_line_fits_on_a_narrow_map() {
        let grid = Grid::from_ascii(&vec!["...."; 64].join("\n")).unwrap();
        let graph = GridGraph::new(grid, Neighborhood::Octile);
        let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(3, 63).unwrap());
        let run = |label: &str, expanded: u64| Run {
            label: label.to_string(),
            cost: Some(64.0),
            path: vec![start, goal],
            expanded,
            closed: vec![start],
            landmarks: Vec::new(),
            search_seconds: 0.001,
            table_seconds: None,
        };
        let runs = [run("euclidean", 200), run("dh:32:sampled", 3)];
        let layout = Layout::for_map(4, 64);
        let picture = Picture {
            layout,
            crop: Crop {
                x: 0,
                y: 0,
                width: 4,
                height: 64,
            },
            title: None,
            jump_points: false,
        };
        let canvas = draw(&graph, &picture, &runs, start, goal);
        let ratio = ratio_line(&runs, "cells").unwrap();
        let scale = 2;
        let top = layout.height + 2 * MARGIN + 8;
        let ink_right = (top..top + text_height(scale))
            .flat_map(|y| (0..canvas.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.pixel(x, y) == Some(INK))
            .map(|(x, _)| x)
            .max()
            .unwrap();
        assert!(
            ink_right + MARGIN < canvas.width(),
            "{ink_right} of {}",
            canvas.width()
        );
        assert!(
            ink_right + 1 >= 40 + text_width(&ratio, scale) - scale,
            "{ratio}"
        );
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(12_345), "12,345");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
