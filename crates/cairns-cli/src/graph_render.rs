//! `cairns graph render`: one or two searches on a road graph drawn into a
//! PNG, over the nodes' places (an OpenStreetMap extract's longitudes and
//! latitudes, or a DIMACS `.co` file's points).
//!
//! The graph's arcs are drawn as thin grey lines, north up (longitudes and
//! latitudes projected as `astar` measures them,
//! `cairns::graph::project_lon_lat`, so that a street's angles stay
//! true). Over them, each node search A settled is an orange dot, B's
//! sky blue, both's purple (the grid render's colours, see
//! `render`); then A's path as a yellow line, the start (a disc) and the
//! goal (a square with a cross), and a legend below. The longest side is
//! [`MAX_SIDE`] pixels.

use std::time::Instant;

use anyhow::bail;
use cairns::graph::{CsrGraph, Graph as _, NodeId, read_road_graph};
use cairns::spec::{GraphCache, GraphEngine, GraphSearch};
use cairns_draw::{Canvas, Rgb, text_height, text_width};

use crate::Outcome;
use crate::graph::{GraphArgs, engine_for, load_engine, node_of, parse_search, where_nodes_lie};
use crate::render::{
    BOTH, GOAL, INK, MARGIN, MAX_SIDE, ONLY_A, ONLY_B, PAPER, PATH, PictureArgs, START,
    compare_line, cost_text, draw_ends, draw_legend, millis, print_summary, thousands,
};

/// The arcs' colour: light, so that the searched nodes stand out.
const ARC: Rgb = [200, 200, 196];

/// Options of `cairns graph render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// The graph and search A (`--search`, `--table`), and `--coordinates`
    /// for a graph whose file does not place its nodes.
    #[command(flatten)]
    pub graph: GraphArgs,
    /// The start node, its id as in the graph file.
    pub from: u64,
    /// The goal node, its id as in the graph file.
    pub to: u64,
    /// Search B, drawn beside A: nodes only B settled sky blue, both
    /// purple.
    #[arg(long, value_name = "NAME", value_parser = parse_search)]
    pub compare: Option<GraphSearch>,
    #[command(flatten)]
    pub picture: PictureArgs,
}

/// One search drawn.
struct Run {
    search: GraphSearch,
    cost: Option<f64>,
    path: Vec<NodeId>,
    searched: Vec<NodeId>,
    settled: u64,
    seconds: f64,
    preprocess_s: f64,
    table_bytes: usize,
}

/// Runs `engine`'s query from `s` to `t` and keeps what it searched.
fn run_one(engine: &GraphEngine, s: NodeId, t: NodeId) -> Run {
    let mut cache = GraphCache::default();
    let t0 = Instant::now();
    let found = engine.path(s, t, &mut cache);
    let seconds = t0.elapsed().as_secs_f64();
    Run {
        search: engine.search(),
        cost: found.as_ref().map(|p| p.cost),
        path: found.map(|p| p.nodes).unwrap_or_default(),
        searched: engine.searched_nodes(&cache),
        settled: engine.settled(&cache),
        seconds,
        preprocess_s: engine.preprocess_s(),
        table_bytes: engine.table_bytes(),
    }
}

/// Runs `cairns graph render`.
pub fn run(args: &RenderArgs) -> anyhow::Result<Outcome> {
    let t_total = Instant::now();
    let path = &args.graph.graph;
    let file = read_road_graph(path)?;
    let n = file.graph.node_count();
    let Some(places) = where_nodes_lie(&args.graph, &file)? else {
        bail!(
            "{}: the file does not say where its nodes lie, which a drawing needs: give --coordinates FILE.co (an OpenStreetMap extract brings its own)",
            path.display()
        );
    };
    let node = |id| {
        node_of(id, file.format, n).map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))
    };
    let (s, t) = (node(args.from)?, node(args.to)?);
    let a = args.graph.search.unwrap_or(GraphSearch::Ch);
    let first = match &args.graph.table {
        Some(table) => load_engine(file.graph.clone(), table, args.graph.search)?,
        None => engine_for(file.graph.clone(), a, Some(&places))?,
    };
    let mut runs = vec![run_one(&first, s, t)];
    if let Some(b) = args.compare {
        let second = engine_for(file.graph.clone(), b, Some(&places))?;
        runs.push(run_one(&second, s, t));
    }
    let points = places.on_plane();
    let canvas = draw(
        &file.graph,
        &points,
        &runs,
        (s, t),
        args.picture.title.as_deref(),
    );
    canvas.save_png(&args.picture.output)?;
    let outcome = Outcome::success_if(runs[0].cost.is_some());
    if args.picture.json {
        let searches: Vec<serde_json::Value> = ["a", "b"]
            .iter()
            .zip(&runs)
            .map(|(tag, r)| {
                serde_json::json!({
                    "run": tag,
                    "search": r.search.to_string(),
                    "cost": r.cost,
                    "path_nodes": r.path.len(),
                    "settled": r.settled,
                    "drawn": r.searched.len(),
                    "time_us": r.seconds * 1e6,
                    "preprocess_s": r.preprocess_s,
                    "table_bytes": r.table_bytes,
                })
            })
            .collect();
        crate::json::print(&serde_json::json!({
            "graph": path.display().to_string(),
            "from": args.from,
            "to": args.to,
            "searches": searches,
            "output": args.picture.output.display().to_string(),
            "width_px": canvas.width(),
            "height_px": canvas.height(),
        }))?;
        return Ok(outcome);
    }
    let line = |r: &Run| {
        format!(
            "{:<16} settled {:>9}  cost {}  search {:.3} ms",
            r.search.to_string(),
            r.settled,
            cost_text(r.cost),
            r.seconds * 1e3,
        )
    };
    let written = (args.picture.output.as_path(), &canvas, None);
    print_summary(&runs, line, written, t_total.elapsed().as_secs_f64())?;
    Ok(outcome)
}

/// Places as pixels: the bounding box scaled so that its longer side is
/// [`MAX_SIDE`] pixels, y flipped (north up), inside a margin.
struct Frame {
    top_left: [f64; 2],
    scale: f64,
    width: u32,
    height: u32,
    top: i64,
}

impl Frame {
    fn new(points: &[[f64; 2]], top: i64) -> Frame {
        let mut min = [f64::INFINITY; 2];
        let mut max = [f64::NEG_INFINITY; 2];
        for p in points {
            for k in 0..2 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        if points.is_empty() {
            (min, max) = ([0.0; 2], [1.0; 2]);
        }
        let span = (max[0] - min[0]).max(max[1] - min[1]);
        let scale = if span > 0.0 {
            f64::from(MAX_SIDE) / span
        } else {
            1.0
        };
        let side = |k: usize| ((max[k] - min[k]) * scale).ceil() as u32 + 1;
        Frame {
            top_left: [min[0], max[1]],
            scale,
            width: side(0),
            height: side(1),
            top,
        }
    }

    fn pixel(&self, p: [f64; 2]) -> (i64, i64) {
        let x = ((p[0] - self.top_left[0]) * self.scale).round() as i64;
        let y = ((self.top_left[1] - p[1]) * self.scale).round() as i64;
        (i64::from(MARGIN) + x, self.top + i64::from(MARGIN) + y)
    }
}

/// The legend: the comparison, each search's counts and time, then the
/// colours.
fn legend_lines(runs: &[Run]) -> Vec<(Option<Rgb>, String)> {
    let mut lines = Vec::new();
    if let [a, b] = runs {
        let (an, bn) = (a.search.to_string(), b.search.to_string());
        lines.push((
            None,
            compare_line(
                (&an, a.settled),
                (&bn, b.settled),
                ("settles", "settle"),
                "nodes",
            ),
        ));
    }
    for (tag, r) in ["A", "B"].iter().zip(runs) {
        let built = if r.table_bytes > 0 {
            format!(" (built in {})", millis(r.preprocess_s))
        } else {
            String::new()
        };
        lines.push((
            None,
            format!(
                "{tag} {}: {} nodes settled, {}{built}",
                r.search,
                thousands(r.settled),
                millis(r.seconds)
            ),
        ));
    }
    if runs.len() > 1 {
        lines.push((Some(ONLY_A), "nodes settled by A only".to_string()));
        lines.push((Some(ONLY_B), "nodes settled by B only".to_string()));
        lines.push((Some(BOTH), "nodes settled by both".to_string()));
    } else {
        lines.push((Some(ONLY_A), "nodes settled".to_string()));
    }
    let path = match runs[0].cost {
        Some(c) => format!("path {c:.2} ({} nodes)", runs[0].path.len()),
        None => "no path".to_string(),
    };
    lines.push((Some(PATH), format!("{path}: line")));
    lines.push((Some(START), "start: disc".to_string()));
    lines.push((Some(GOAL), "goal: square with a cross".to_string()));
    lines.push((Some(ARC), "arcs of the graph".to_string()));
    lines
}

fn draw(
    graph: &CsrGraph, points: &[[f64; 2]], runs: &[Run], (s, t): (NodeId, NodeId),
    title: Option<&str>,
) -> Canvas {
    let scale = 2;
    let line_h = text_height(scale) + 8;
    let title_h = title.map_or(0, |_| line_h + 4);
    let frame = Frame::new(points, i64::from(title_h));
    let legend = legend_lines(runs);
    let text_w = |t: &str| 40 + text_width(t, scale) + MARGIN;
    let legend_w = legend
        .iter()
        .map(|(_, t)| text_w(t))
        .chain(title.map(|t| text_w(t) - 32))
        .max()
        .unwrap_or(0);
    let (map_w, map_h) = (frame.width + 2 * MARGIN, frame.height + 2 * MARGIN);
    let legend_h = legend.len() as u32 * line_h + 12;
    let mut canvas = Canvas::new(map_w.max(legend_w), title_h + map_h + legend_h, PAPER);
    if let Some(title) = title {
        canvas.text(i64::from(MARGIN), i64::from(MARGIN), title, scale, INK);
    }
    let at = |v: NodeId| frame.pixel(points[v.index()]);
    for u in 0..graph.node_count() as u32 {
        for (v, _) in graph.successors(NodeId(u)) {
            canvas.line(at(NodeId(u)), at(v), 1, ARC);
        }
    }
    // Which search settled each node: bit 0 A, bit 1 B.
    let mut by = vec![0u8; graph.node_count()];
    for (bit, r) in runs.iter().enumerate() {
        for v in &r.searched {
            by[v.index()] |= 1 << bit;
        }
    }
    let colour = [PAPER, ONLY_A, ONLY_B, BOTH];
    for (i, &b) in by.iter().enumerate() {
        if b != 0 {
            let (x, y) = at(NodeId(i as u32));
            canvas.fill_rect(x - 1, y - 1, 3, 3, colour[usize::from(b)]);
        }
    }
    let path: Vec<(i64, i64)> = runs[0].path.iter().map(|&v| at(v)).collect();
    for (thickness, c) in [(5, INK), (3, PATH)] {
        for pair in path.windows(2) {
            canvas.line(pair[0], pair[1], thickness, c);
        }
    }
    draw_ends(&mut canvas, Some(at(s)), Some(at(t)), 6);
    draw_legend(&mut canvas, &legend, title_h + map_h + 8, line_h, scale);
    canvas
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_puts_north_up_and_fits_the_longer_side() {
        let points = [[0.0, 0.0], [2.0, 1.0]];
        let f = Frame::new(&points, 0);
        assert_eq!((f.width, f.height), (MAX_SIDE + 1, MAX_SIDE / 2 + 1));
        let m = i64::from(MARGIN);
        // The southwest corner at the bottom left, northeast at the top right.
        assert_eq!(f.pixel([0.0, 0.0]), (m, m + i64::from(MAX_SIDE / 2)));
        assert_eq!(f.pixel([2.0, 1.0]), (m + i64::from(MAX_SIDE), m));
        // One point, or none, still frames.
        assert_eq!(Frame::new(&[[5.0, 5.0]], 0).width, 1);
        assert!(Frame::new(&[], 0).width >= 1);
    }
}
