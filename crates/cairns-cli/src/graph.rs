//! `cairns graph`: searches on weighted graphs (road networks) in any of
//! the formats `cairns::graph` reads, ids as in the file (from 1 in DIMACS
//! and PACE files, from 0 in arc lists), and the graph's dense ids from 0
//! for OpenStreetMap PBF extracts (nodes in the order of their OSM ids).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::graph::{
    CsrGraph, GraphFormat, NodeId, RoadGraph, read_coordinates, read_graph_format, read_road_graph,
};
use cairns::movingai::runner::median;
use cairns::rng::SplitMix64;
use cairns::spec::{Coordinates, GraphEngine, GraphSearch};

use crate::Outcome;
use crate::choose::{BuildInput, BuildReport, OutputFile};

/// The commands of `cairns graph`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Build the table a search needs on a graph (the contraction
    /// hierarchy of `ch`, the hub labels of `hl`, the landmarks of
    /// `alt:K`) and save it, for `--table FILE`.
    Build(BuildArgs),
    /// Answer many `SOURCE TARGET` queries and print a summary (as `scen`
    /// does for a map).
    Queries(QueriesArgs),
    /// Find one shortest path.
    Path(PathArgs),
    /// Compute a distance matrix from random sources to random targets in
    /// one pass (the hierarchy's bucket method for `ch`, label merges for
    /// `hl`), timed and checked.
    Matrix(MatrixArgs),
    /// Draw one or two searches from a start to a goal into a PNG, over
    /// the nodes' places (an OpenStreetMap extract's, or --coordinates):
    /// the nodes each settled, and the path.
    Render(crate::graph_render::RenderArgs),
}

/// `--search`'s parser: the library's graph search names.
pub(crate) fn parse_search(s: &str) -> Result<GraphSearch, String> {
    s.parse()
        .map_err(|e: cairns::spec::SpecError| e.to_string())
}

/// The graph and the search every `cairns graph` command takes.
#[derive(Debug, clap::Args)]
pub struct GraphArgs {
    /// The graph file: DIMACS `.gr` (`p sp`), PACE `.gr` (`p tw`, unit
    /// weights) or `a FROM TO WEIGHT` arcs, told by its content, or an
    /// OpenStreetMap PBF extract (`.osm.pbf`, or told by its first bytes;
    /// the roads a car may drive, weighed in metres, node ids the graph's
    /// own from 0 in the order of the OSM node ids, not the OSM ids).
    /// Compressed files are refused: decompress them first (`xz -dk`).
    pub graph: PathBuf,
    /// The search: dijkstra, bidijkstra, alt:K (bidirectional ALT over K
    /// landmarks; alt is alt:16), ch (contraction hierarchies), hl (hub
    /// labels), astar (A* over the nodes' coordinates, Dijkstra's search
    /// without them) or astar/fastmap:K (A* over a FastMap embedding of K
    /// dimensions; astar/fastmap is astar/fastmap:16). Those from alt on
    /// build before the first query. Ch unless --table names a file, whose
    /// table says which.
    #[arg(long = "search", value_name = "NAME", value_parser = parse_search)]
    pub search: Option<GraphSearch>,
    /// Load the table the search needs from this file (written by `cairns
    /// graph build`) instead of building it; its kind tells the search.
    #[arg(long = "table", value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// The nodes' coordinates, a DIMACS `.co` file (`v ID X Y`), for
    /// `--search astar`'s straight-line heuristic. An OpenStreetMap
    /// extract brings its own.
    #[arg(long = "coordinates", value_name = "FILE")]
    pub coordinates: Option<PathBuf>,
}

/// Options of `cairns graph build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// The graph file, as the other `cairns graph` commands read it.
    pub graph: PathBuf,
    /// The search whose table to build: ch (the contraction hierarchy),
    /// hl (hub labels, saved with their hierarchy) or alt:K (K landmarks).
    #[arg(long = "search", value_name = "NAME", default_value = "ch", value_parser = parse_search)]
    pub search: GraphSearch,
    /// The table file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Options of `cairns graph queries`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["queries", "random"])))]
pub struct QueriesArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    /// A file of queries, one `SOURCE TARGET` pair a line (ids as in the
    /// graph file; `#` starts a comment).
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// N random pairs of nodes instead (see --seed).
    #[arg(long, value_name = "N")]
    pub random: Option<usize>,
    /// The seed of --random.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Check every cost against this search's (dijkstra); a mismatch exits 1.
    #[arg(long, value_name = "NAME", value_parser = parse_search)]
    pub against: Option<GraphSearch>,
    /// Print one JSON object instead of text (the fields of `scen --json`
    /// where they mean the same).
    #[arg(long)]
    pub json: bool,
}

/// Options of `cairns graph path`.
#[derive(Debug, clap::Args)]
pub struct PathArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    /// The start node, its id as in the graph file (from 0 for a PBF
    /// extract).
    pub from: u64,
    /// The goal node, its id as in the graph file (from 0 for a PBF
    /// extract).
    pub to: u64,
    /// Print one JSON object instead of text (`cost` is null when there is
    /// no path).
    #[arg(long)]
    pub json: bool,
}

/// Options of `cairns graph matrix`.
#[derive(Debug, clap::Args)]
pub struct MatrixArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    /// N random sources and N random targets (see --seed).
    #[arg(long, value_name = "N")]
    pub random: usize,
    /// The seed of --random.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Check every entry against this search's single queries (dijkstra);
    /// a mismatch exits 1.
    #[arg(long, value_name = "NAME", value_parser = parse_search)]
    pub against: Option<GraphSearch>,
    /// Write the matrix to this file, one row of costs a line separated
    /// by commas (`inf`: no path), the sources' and targets' file ids first.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs a `cairns graph` command.
pub fn run(command: &Command) -> anyhow::Result<Outcome> {
    match command {
        Command::Build(args) => build(args),
        Command::Queries(args) => queries(args),
        Command::Path(args) => path(args),
        Command::Matrix(args) => matrix(args),
        Command::Render(args) => crate::graph_render::run(args),
    }
}

/// A graph read, with where its file's ids start, and the engine of the
/// search on it (built, with a spinner on a terminal while it is).
struct Loaded {
    engine: GraphEngine,
    format: GraphFormat,
    read_s: f64,
}

impl Loaded {
    fn new(args: &GraphArgs) -> anyhow::Result<Loaded> {
        let t0 = Instant::now();
        let file = read_road_graph(&args.graph)?;
        let read_s = t0.elapsed().as_secs_f64();
        let search = args.search.unwrap_or(GraphSearch::Ch);
        if args.coordinates.is_some() && search != GraphSearch::Astar {
            bail!("--coordinates is for --search astar, whose heuristic they give");
        }
        let format = file.format;
        let engine = if let Some(table) = &args.table {
            load_engine(file.graph, table, args.search)?
        } else {
            // Only `astar` takes the places: the others are not read for.
            let places = match search {
                GraphSearch::Astar => where_nodes_lie(args, &file)?,
                _ => None,
            };
            engine_for(file.graph, search, places.as_ref())?
        };
        Ok(Loaded {
            engine,
            format,
            read_s,
        })
    }

    fn graph(&self) -> &CsrGraph {
        self.engine.graph()
    }
}

/// Where the nodes of `file` lie: the `--coordinates` file, or an
/// OpenStreetMap extract's own longitudes and latitudes; `None` for a
/// graph without them.
pub(crate) fn where_nodes_lie(
    args: &GraphArgs, file: &RoadGraph,
) -> anyhow::Result<Option<Coordinates>> {
    if let Some(co) = &args.coordinates {
        let points = read_coordinates(co, file.graph.node_count())?;
        return Ok(Some(Coordinates::Planar(points)));
    }
    Ok(file.lon_lat.clone().map(Coordinates::LonLat))
}

/// `search` on `graph`, built now (with a spinner on a terminal): `astar`
/// over `places` where given.
pub(crate) fn engine_for(
    graph: CsrGraph, search: GraphSearch, places: Option<&Coordinates>,
) -> anyhow::Result<GraphEngine> {
    Ok(match places {
        Some(places) if search == GraphSearch::Astar => {
            GraphEngine::with_coordinates(graph, places, search)?
        }
        _ => crate::progress::during(&format!("{search}: building"), || {
            GraphEngine::new(graph, search)
        }),
    })
}

/// The node of file id `id` in a graph of `n` nodes read from a file of
/// `format`, or why there is none.
pub(crate) fn node_of(id: u64, format: GraphFormat, n: usize) -> Result<NodeId, String> {
    let first = u64::from(format.first_id());
    let n = n as u64;
    match id.checked_sub(first) {
        Some(i) if i < n => Ok(NodeId(i as u32)),
        _ => Err(format!(
            "node {id} is out of range (ids {first} to {})",
            (first + n).saturating_sub(1)
        )),
    }
}

impl Loaded {
    /// The node of file id `id`, or why there is none.
    fn node(&self, id: u64) -> Result<NodeId, String> {
        node_of(id, self.format, self.graph().node_count())
    }

    /// The file id of `node`.
    fn id(&self, node: NodeId) -> u64 {
        u64::from(node.0) + u64::from(self.format.first_id())
    }

    /// The text head every `cairns graph` command prints: the graph, what
    /// the search built.
    fn print_head(&self, file: &Path) {
        let g = self.graph();
        println!(
            "{}: {} nodes, {} arcs ({}, read in {:.2} s)",
            file.display(),
            g.node_count(),
            g.edge_count(),
            self.format,
            self.read_s
        );
        let e = &self.engine;
        println!(
            "{}: {} in {:.2} s, {} bytes",
            e.search(),
            if e.is_loaded() { "loaded" } else { "built" },
            e.preprocess_s(),
            e.table_bytes()
        );
    }

    /// The JSON fields every `cairns graph` command prints.
    fn json(&self, file: &Path) -> serde_json::Value {
        let graph = self.graph();
        serde_json::json!({
            "graph": file.display().to_string(),
            "format": self.format.to_string(),
            "nodes": graph.node_count(),
            "arcs": graph.edge_count(),
            "read_s": self.read_s,
            "search": self.engine.search().name(),
            "spec": self.engine.search().to_string(),
            "preprocess_s": self.engine.preprocess_s(),
            "table_bytes": self.engine.table_bytes(),
            "loaded": self.engine.is_loaded(),
        })
    }
}

/// The engine of the table saved in `file` for `graph`, checked to be of
/// `search` when one is asked for; every error names the file.
pub(crate) fn load_engine(
    graph: CsrGraph, file: &Path, search: Option<GraphSearch>,
) -> anyhow::Result<GraphEngine> {
    let name = file.display();
    let reader = std::fs::File::open(file).with_context(|| format!("{name}: cannot open"))?;
    let engine = GraphEngine::load(graph, std::io::BufReader::new(reader))
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    if let Some(asked) = search
        && asked != engine.search()
    {
        let held = engine
            .table_kind()
            .map_or("no table".to_string(), |k| k.to_string());
        bail!(
            "{name}: the file holds a {held}, the table of --search {}, not {asked}",
            engine.search()
        );
    }
    Ok(engine)
}

/// `cairns graph build`.
fn build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    let search = args.search;
    let Some(kind) = search.table_kind() else {
        let some: Vec<String> = GraphSearch::ALL
            .into_iter()
            .filter(|s| s.table_kind().is_some())
            .map(|s| s.name().to_string())
            .collect();
        bail!(
            "{search} builds no table before its first query ({} do)",
            some.join(", ")
        );
    };
    let (graph, format) = read_graph_format(&args.graph)?;
    // Before the build, which may take seconds: a path that cannot be
    // written fails now.
    let output = OutputFile::create(&args.output)?;
    let engine = crate::progress::during(&format!("{search}: building"), || {
        GraphEngine::new(graph, search)
    });
    if engine.table_kind().is_none() {
        bail!(
            "{}: the graph has no nodes, so {search} builds nothing to save",
            args.graph.display()
        );
    }
    output.save(&kind.to_string(), |w| engine.save(w))?;
    BuildReport {
        input: BuildInput::Graph(&args.graph, engine.graph(), format),
        details: std::iter::once(format!("table       {}", kind.name()))
            .chain(
                engine
                    .table_details()
                    .into_iter()
                    .map(|(label, value)| format!("{label:<11} {value}")),
            )
            .collect(),
        build_s: engine.preprocess_s(),
        bytes: engine.table_bytes(),
        output: &args.output,
        listing: Vec::new(),
        json: args.json.then(|| {
            let mut extra = serde_json::json!({
                "search": search.name(),
                "spec": search.to_string(),
                "table": kind.name(),
            });
            for (label, count) in engine.table_details() {
                extra[label] = count.into();
            }
            extra
        }),
    }
    .print()?;
    Ok(Outcome::Success)
}

/// Reads a queries file: `SOURCE TARGET` a line.
fn read_queries(file: &Path, loaded: &Loaded) -> anyhow::Result<Vec<(NodeId, NodeId)>> {
    let text = std::fs::read_to_string(file).with_context(|| format!("{}", file.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |why: String| anyhow::anyhow!("{}: line {}: {why}", file.display(), i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let [s, t] = words[..] else {
            return Err(at(format!(
                "expected `SOURCE TARGET`, found {} words",
                words.len()
            )));
        };
        let id = |w: &str| {
            w.parse::<u64>()
                .map_err(|_| at(format!("{w:?} is not a node id")))
        };
        let (s, t) = (id(s)?, id(t)?);
        out.push((loaded.node(s).map_err(at)?, loaded.node(t).map_err(at)?));
    }
    Ok(out)
}

/// The queries of `cairns graph queries`: from its file, or random pairs.
fn pairs(args: &QueriesArgs, loaded: &Loaded) -> anyhow::Result<Vec<(NodeId, NodeId)>> {
    let n = loaded.graph().node_count() as u64;
    match (&args.queries, args.random) {
        (Some(file), _) => read_queries(file, loaded),
        (None, Some(_)) if n == 0 => bail!(
            "{}: the graph has no nodes to pick queries from",
            args.graph.graph.display()
        ),
        (None, Some(count)) => {
            let mut rng = SplitMix64::new(args.seed);
            let mut node = || NodeId(rng.below(n) as u32);
            Ok((0..count).map(|_| (node(), node())).collect())
        }
        (None, None) => bail!("give --queries FILE or --random N"),
    }
}

/// What `cairns graph queries` found: each query's seconds, and the
/// queries whose cost the reference search disagrees with.
struct Answers {
    times: Vec<f64>,
    settled: u64,
    no_path: usize,
    mismatches: Vec<(NodeId, NodeId, Option<f64>, Option<f64>)>,
}

impl Answers {
    /// Answers `pairs` on `engine`, each checked against `reference`'s
    /// cost when given.
    fn of(
        engine: &GraphEngine, pairs: &[(NodeId, NodeId)], reference: Option<&GraphEngine>,
    ) -> Answers {
        let mut cache = engine.cache();
        let mut checks = reference.map(|r| (r, r.cache()));
        let mut out = Answers {
            times: Vec::new(),
            settled: 0,
            no_path: 0,
            mismatches: Vec::new(),
        };
        for &(s, t) in pairs {
            let t0 = Instant::now();
            let cost = engine.cost(s, t, &mut cache);
            out.times.push(t0.elapsed().as_secs_f64());
            out.settled += engine.settled(&cache);
            out.no_path += usize::from(cost.is_none());
            if let Some((r, c)) = &mut checks {
                let want = r.cost(s, t, c);
                if want != cost {
                    out.mismatches.push((s, t, cost, want));
                }
            }
        }
        out
    }

    /// `(mean us, median us, mean settled nodes)` a query; zeros for none.
    fn means(&self) -> (f64, f64, f64) {
        if self.times.is_empty() {
            return (0.0, 0.0, 0.0);
        }
        let n = self.times.len() as f64;
        (
            self.times.iter().sum::<f64>() / n * 1e6,
            median(&self.times) * 1e6,
            self.settled as f64 / n,
        )
    }
}

/// `cairns graph queries`.
fn queries(args: &QueriesArgs) -> anyhow::Result<Outcome> {
    let loaded = Loaded::new(&args.graph)?;
    let pairs = pairs(args, &loaded)?;
    let engine = &loaded.engine;
    let reference = args
        .against
        .map(|s| GraphEngine::new(engine.graph().clone(), s));
    let answers = Answers::of(engine, &pairs, reference.as_ref());
    let (mean_us, median_us, mean_settled) = answers.means();
    let (queries, no_path, mismatches) = (pairs.len(), answers.no_path, &answers.mismatches);
    if args.json {
        let mut out = loaded.json(&args.graph.graph);
        crate::json::merge(
            &mut out,
            serde_json::json!({
                "queries": queries,
                "no_path": no_path,
                "against": args.against.map(GraphSearch::name),
                "mismatches": mismatches.len(),
                "mean_us": mean_us,
                "median_us": median_us,
                "mean_settled": mean_settled,
                "seed": args.random.map(|_| args.seed),
            }),
        );
        crate::json::print(&out)?;
    } else {
        loaded.print_head(&args.graph.graph);
        println!(
            "{queries} queries, {no_path} without a path: mean {mean_us:.1} us, median {median_us:.1} us, {mean_settled:.0} nodes settled a query"
        );
        if let Some(r) = args.against {
            println!("checked against {r}: {} mismatches", mismatches.len());
        }
        for (s, t, got, want) in mismatches.iter().take(10) {
            println!(
                "mismatch: {} -> {}: {} gave {got:?}, {} gave {want:?}",
                loaded.id(*s),
                loaded.id(*t),
                engine.search(),
                args.against.map_or("", GraphSearch::name)
            );
        }
    }
    Ok(Outcome::success_if(mismatches.is_empty()))
}

/// `n` random nodes of `graph` from `rng`.
fn random_nodes(rng: &mut SplitMix64, graph: &CsrGraph, n: usize) -> Vec<NodeId> {
    let bound = graph.node_count() as u64;
    (0..n).map(|_| NodeId(rng.below(bound) as u32)).collect()
}

/// `cairns graph matrix`.
fn matrix(args: &MatrixArgs) -> anyhow::Result<Outcome> {
    let loaded = Loaded::new(&args.graph)?;
    let graph = loaded.graph();
    if graph.node_count() == 0 {
        bail!(
            "{}: the graph has no nodes to pick from",
            args.graph.graph.display()
        );
    }
    let mut rng = SplitMix64::new(args.seed);
    let sources = random_nodes(&mut rng, graph, args.random);
    let targets = random_nodes(&mut rng, graph, args.random);
    let t0 = Instant::now();
    let m = loaded.engine.matrix(&sources, &targets);
    let seconds = t0.elapsed().as_secs_f64();
    let no_path = m.as_slice().iter().filter(|c| c.is_infinite()).count();
    let mut mismatches = 0usize;
    if let Some(r) = args.against {
        let reference = GraphEngine::new(graph.clone(), r);
        let mut cache = reference.cache();
        for (i, &s) in sources.iter().enumerate() {
            for (j, &t) in targets.iter().enumerate() {
                mismatches += usize::from(reference.cost(s, t, &mut cache) != m.get(i, j));
            }
        }
    }
    if let Some(file) = &args.output {
        let ids = |nodes: &[NodeId]| {
            nodes
                .iter()
                .map(|&n| loaded.id(n).to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut text = format!("# sources {}\n# targets {}\n", ids(&sources), ids(&targets));
        for i in 0..m.rows() {
            let row: Vec<String> = m.row(i).iter().map(ToString::to_string).collect();
            text.push_str(&row.join(","));
            text.push('\n');
        }
        std::fs::write(file, text)
            .with_context(|| format!("{}: cannot write the matrix", file.display()))?;
    }
    if args.json {
        let mut out = loaded.json(&args.graph.graph);
        crate::json::merge(
            &mut out,
            serde_json::json!({
                "rows": m.rows(),
                "cols": m.cols(),
                "matrix_s": seconds,
                "no_path": no_path,
                "against": args.against.map(GraphSearch::name),
                "mismatches": mismatches,
                "seed": args.seed,
            }),
        );
        crate::json::print(&out)?;
    } else {
        loaded.print_head(&args.graph.graph);
        println!(
            "{} x {} matrix in {seconds:.3} s, {no_path} entries without a path",
            m.rows(),
            m.cols()
        );
        if let Some(r) = args.against {
            println!("checked against {r}'s single queries: {mismatches} mismatches");
        }
    }
    Ok(Outcome::success_if(mismatches == 0))
}

/// `cairns graph path`.
fn path(args: &PathArgs) -> anyhow::Result<Outcome> {
    let loaded = Loaded::new(&args.graph)?;
    let file = args.graph.graph.display();
    let node = |id| {
        loaded
            .node(id)
            .map_err(|why| anyhow::anyhow!("{file}: {why}"))
    };
    let (s, t) = (node(args.from)?, node(args.to)?);
    let mut cache = loaded.engine.cache();
    let t0 = Instant::now();
    let found = loaded.engine.path(s, t, &mut cache);
    let us = t0.elapsed().as_secs_f64() * 1e6;
    let ids: Vec<u64> = found
        .iter()
        .flat_map(|p| p.nodes.iter().map(|&n| loaded.id(n)))
        .collect();
    if args.json {
        let mut out = loaded.json(&args.graph.graph);
        crate::json::merge(
            &mut out,
            serde_json::json!({
                "from": args.from,
                "to": args.to,
                "cost": found.as_ref().map(|p| p.cost),
                "path": ids,
                "settled": loaded.engine.settled(&cache),
                "us": us,
            }),
        );
        crate::json::print(&out)?;
    } else if let Some(p) = &found {
        loaded.print_head(&args.graph.graph);
        println!(
            "cost {} over {} nodes ({}, {us:.1} us)",
            p.cost,
            p.nodes.len(),
            loaded.engine.search()
        );
        println!(
            "{}",
            ids.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
    } else {
        loaded.print_head(&args.graph.graph);
        println!("no path from {} to {}", args.from, args.to);
    }
    Ok(Outcome::success_if(found.is_some()))
}
