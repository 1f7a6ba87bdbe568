//! The search options every command shares (`--search`, `--heuristic`,
//! `--open`, `--table` with its aliases `--landmarks` and `--jump-table`,
//! and the `--jps`/`--canonical` aliases), read into the library's
//! [`SearchSpec`]: the names, defaults and checks are the library's; this
//! module only adds the command-line words and loading saved tables.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use anyhow::bail;
use cairns::graph::NodeId;
use cairns::grid::{Grid, GridGraph, Neighborhood, TileCosts};
use cairns::open::OpenKind;
use cairns::saved::{FileErrorKind, TableKind, movement_rules};
use cairns::spec::{Algorithm, Given, HeuristicSpec, Prepared, SearchSpec, Table, Weight};
use clap::builder::TypedValueParser as _;

/// `--search`'s parser: the library's names, each listed in `--help`
/// with what it is.
pub(crate) fn algorithm_names() -> impl clap::builder::TypedValueParser<Value = Algorithm> {
    let names = Algorithm::ALL.map(|a| clap::builder::PossibleValue::new(a.name()).help(a.about()));
    clap::builder::PossibleValuesParser::new(names).try_map(|s| s.parse::<Algorithm>())
}

/// `--table`: tables saved for the map, given instead of built.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TableFiles {
    /// Use a table saved for this map instead of building it (repeat for
    /// several): a landmark table from `cairns landmarks build`, for a
    /// differential heuristic (a heuristic given as dh becomes the file's,
    /// and dh:K must have the file's K; without --heuristic the heuristic
    /// becomes dh), or the table of a search from `cairns table build
    /// --search NAME` (which implies that search). The file says which it
    /// is.
    #[arg(
        long = "table",
        visible_aliases = TableKind::ALL.iter().filter_map(|k| k.info().old_option),
        value_name = "FILE"
    )]
    pub files: Vec<PathBuf>,
}

/// The search of a command.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SearchArgs {
    /// Search algorithm, by name.
    #[arg(long = "search", value_name = "NAME", value_parser = algorithm_names())]
    pub algorithm: Option<Algorithm>,
    /// Heuristic: zero, manhattan, octile (the default on octile maps),
    /// euclidean, or `dh:K[:PLACEMENT][:bestN|:keepM|:adapt]`, the
    /// differential heuristic of K landmarks placed random, farthest, avoid
    /// or sampled (the default, seed 1), over octile; the table is built
    /// before the first query.
    #[arg(long, value_name = "NAME")]
    pub heuristic: Option<HeuristicSpec>,
    /// OPEN set, by name (`cairns open-sets` lists them). By default the
    /// 4-ary heap (`quaternary-heap`), or the pairing heap under a landmark heuristic,
    /// where it is faster (docs/differential-heuristics.md).
    #[arg(long = "open", value_name = "NAME")]
    pub open: Option<OpenKind>,
    #[command(flatten)]
    pub tables: TableFiles,
    /// Bounded-suboptimal search: costs at most W (at least 1) times the
    /// optimal ones, far fewer nodes expanded. With astar, canonical or jps
    /// the heuristic is multiplied by W (weighted A*); with focal, W bounds
    /// the focal list.
    #[arg(long, value_name = "W")]
    pub weight: Option<Weight>,
    /// Straighten each path found by string pulling: the cost becomes the
    /// any-angle (Euclidean) length of the pulled path.
    #[arg(long)]
    pub pull: bool,
    /// Same as --search canonical.
    #[arg(long, conflicts_with_all = ["algorithm", "jps"])]
    pub canonical: bool,
    /// Same as --search jps.
    #[arg(long, conflicts_with = "algorithm")]
    pub jps: bool,
}

impl SearchArgs {
    /// The spec the options name (defaults not yet filled in) with
    /// `tables` given: without a search named, a table that one search
    /// builds itself implies that search ([`Algorithm::using`]).
    pub(crate) fn spec_for(&self, tables: &[Table]) -> SearchSpec {
        let implied = || tables.iter().find_map(|t| Algorithm::using(t.kind()));
        let algorithm = if self.jps {
            Algorithm::Jps
        } else if self.canonical {
            Algorithm::Canonical
        } else {
            self.algorithm.or_else(implied).unwrap_or_default()
        };
        SearchSpec {
            algorithm,
            heuristic: self.heuristic,
            open: self.open,
            weight: self.weight,
            pull: self.pull,
        }
    }

    /// Checks the spec on `graph` and builds what it needs, taking the
    /// tables in the `--table` files instead of building them. Warns on
    /// stderr when the heuristic is not admissible.
    ///
    /// # Errors
    ///
    /// A combination the library refuses (the message says why), or a
    /// table file that cannot be loaded for this map (the message names
    /// the file).
    pub fn prepare<'g>(&self, graph: &'g GridGraph) -> anyhow::Result<Prepared<'g>> {
        let given = self
            .tables
            .files
            .iter()
            .map(|file| load_table(file, graph))
            .collect::<anyhow::Result<Vec<Given>>>()?;
        let tables: Vec<Table> = given.iter().map(|g| g.table.clone()).collect();
        let spec = self.spec_for(&tables);
        // The tables left to build, shown by a spinner on a terminal while
        // they are.
        let to_build: Vec<&str> = spec
            .table_kinds(graph.neighborhood())
            .into_iter()
            .filter(|k| tables.iter().all(|t| t.kind() != *k))
            .map(TableKind::name)
            .collect();
        let spinner = (!to_build.is_empty()).then(|| {
            crate::progress::Spinner::new(&format!(
                "{spec}: building {} before the first query",
                to_build.join(" and ")
            ))
        });
        let prepared = if given.is_empty() {
            spec.prepare(graph)?
        } else {
            let files: Vec<String> = self
                .tables
                .files
                .iter()
                .map(|f| format!("--table {}", f.display()))
                .collect();
            spec.prepare_with(graph, given)
                .with_context(|| files.join(", "))?
        };
        drop(spinner);
        if let Some(why) = prepared.inadmissible() {
            eprintln!("cairns: warning: {why}; paths may not be shortest");
        }
        Ok(prepared)
    }
}

/// What preparation built or loaded, for JSON summaries: an array of
/// `{"kind", "seconds", "bytes", "given"}`, one per table.
pub fn tables_json(prepared: &Prepared) -> serde_json::Value {
    prepared
        .report()
        .iter()
        .map(|r| {
            serde_json::json!({
                "kind": r.kind.name(),
                "seconds": r.seconds,
                "bytes": r.bytes,
                "given": r.given,
            })
        })
        .collect()
}

/// Writes what preparation built or loaded, for the commands' reports: a
/// line per table (`table        jumps built in 0.004 s, 49152 bytes`),
/// then the seconds and bytes of them all; nothing without tables. Each
/// label is padded to `width`.
pub fn write_tables(
    out: &mut impl Write, prepared: &Prepared, width: usize,
) -> std::io::Result<()> {
    if prepared.report().is_empty() {
        return Ok(());
    }
    for table in prepared.report() {
        writeln!(out, "{:width$} {table}", "table")?;
    }
    writeln!(
        out,
        "{:width$} {:.3}",
        "preprocess s",
        prepared.preprocess_s()
    )?;
    writeln!(out, "{:width$} {}", "table bytes", prepared.table_bytes())
}

/// What a command's map is searched for: its terrain costs (`--terrain`)
/// and the agent's size (`--size`).
#[derive(Debug, Clone, clap::Args)]
pub struct MapRules {
    /// Terrain costs per tile letter, `S=3,W=inf,T=2`: a positive cost, or
    /// inf for impassable, for any of `. G @ O T S W`, or for a letter of
    /// your own that the map then may hold (`F=3`: forest); letters left
    /// out keep the Moving AI rule (`. G S` cost 1, the others are
    /// impassable). A
    /// move costs its length times the mean cost of its two cells
    /// (docs/terrain.md). Jump points, canonical ordering and bfs refuse a
    /// map with terrain costs.
    #[arg(long, value_name = "COSTS")]
    pub terrain: Option<TileCosts>,
    /// The agent's size: it covers K x K cells and is placed by its
    /// top-left cell, which may stand only where that whole block is free;
    /// a move is the movement rule applied to the block (no corner cutting
    /// by the block under octile). Coordinates, paths and costs are the
    /// top-left cell's. 1 to 255; above 1, not with --terrain.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(cairns::grid::MAX_AGENT_SIZE)))]
    pub size: u32,
}

impl Default for MapRules {
    fn default() -> Self {
        MapRules {
            terrain: None,
            size: 1,
        }
    }
}

impl MapRules {
    /// Reads the `.map` file at `path`: with terrain costs, its rows may
    /// hold the custom letters the costs define (`F=3`).
    pub fn read_map(&self, path: &Path) -> Result<Grid, cairns::movingai::LoadError> {
        match &self.terrain {
            Some(costs) => cairns::movingai::read_map_with(path, costs),
            None => cairns::movingai::read_map(path),
        }
    }

    /// The graph of `grid` under `neighborhood`, with the terrain costs if
    /// any, for an agent of the size.
    ///
    /// # Errors
    ///
    /// A size above 1 with terrain costs.
    pub fn graph(&self, grid: Grid, neighborhood: Neighborhood) -> anyhow::Result<GridGraph> {
        let graph = match &self.terrain {
            Some(costs) => GridGraph::with_terrain(grid, neighborhood, costs),
            None => GridGraph::new(grid, neighborhood),
        };
        Ok(graph.with_size(self.size)?)
    }
}

/// Checks that `(x, y)` is a start or goal on `graph` (on the map, open
/// to the agent: [`GridGraph::endpoint`]); `name` names the map in
/// messages.
pub fn endpoint(
    graph: &GridGraph, name: &str, what: &str, (x, y): (u32, u32),
) -> anyhow::Result<NodeId> {
    graph
        .endpoint(x.into(), y.into())
        .map_err(|e| anyhow::anyhow!(e.describe(what, name)))
}

/// Opens the table file `path`, naming the file in the error.
fn open_table(path: &Path) -> anyhow::Result<BufReader<File>> {
    let file = File::open(path)
        .with_context(|| format!("{}: cannot open the table file", path.display()))?;
    Ok(BufReader::new(file))
}

/// A file to be written once some work is done: created at once as a
/// temporary file beside `path` (`.NAME.part`), so that a path that
/// cannot be written fails before the work rather than after it, and
/// renamed onto `path` once written whole; removed if dropped unwritten.
#[derive(Debug)]
pub struct OutputFile {
    path: PathBuf,
    temp: PathBuf,
    file: Option<File>,
}

impl OutputFile {
    /// Creates the temporary file beside `path`.
    ///
    /// # Errors
    ///
    /// When it cannot be created (no such directory, no permission): the
    /// error names `path` and carries the system's reason.
    pub fn create(path: &Path) -> anyhow::Result<OutputFile> {
        let name = path.display();
        let Some(file_name) = path.file_name() else {
            bail!("{name}: not a file name");
        };
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(file_name);
        temp_name.push(".part");
        let temp = path.with_file_name(temp_name);
        let file = File::create(&temp).with_context(|| format!("{name}: cannot create"))?;
        Ok(OutputFile {
            path: path.to_path_buf(),
            temp,
            file: Some(file),
        })
    }

    /// Writes the file with `save` (buffered, flushed) and moves it onto
    /// its path; `what` names the contents in errors, which name the file.
    pub fn save(
        mut self, what: &str, save: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
    ) -> anyhow::Result<()> {
        let name = self.path.display().to_string();
        let file = self.file.take().context("the file was written already")?;
        let mut w = BufWriter::new(file);
        save(&mut w)
            .and_then(|()| w.flush())
            .with_context(|| format!("{name}: cannot write the {what}"))?;
        drop(w);
        std::fs::rename(&self.temp, &self.path)
            .with_context(|| format!("{name}: cannot write the {what}"))?;
        Ok(())
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        // Written and renamed, the temporary file is gone; otherwise it
        // is removed, leaving whatever was at the path before.
        let _ = std::fs::remove_file(&self.temp);
    }
}

/// What a table was built on: a map, or a road graph (`cairns graph
/// build`) read in its format.
pub enum BuildInput<'a> {
    Map(&'a Path, &'a GridGraph),
    Graph(
        &'a Path,
        &'a cairns::graph::CsrGraph,
        cairns::graph::GraphFormat,
    ),
}

impl BuildInput<'_> {
    /// The report's first line.
    fn line(&self) -> String {
        match self {
            BuildInput::Map(map, g) => format!(
                "map         {} ({}x{}, {})",
                map.display(),
                g.width(),
                g.height(),
                g.neighborhood()
            ),
            BuildInput::Graph(file, g, format) => format!(
                "graph       {} ({} nodes, {} arcs, {format})",
                file.display(),
                g.node_count(),
                g.edge_count()
            ),
        }
    }

    /// The report's JSON fields about it.
    fn json(&self) -> serde_json::Value {
        match self {
            BuildInput::Map(map, g) => serde_json::json!({
                "map": map.display().to_string(),
                "width": g.width(),
                "height": g.height(),
                "neighborhood": g.neighborhood().token(),
            }),
            BuildInput::Graph(file, g, format) => serde_json::json!({
                "graph": file.display().to_string(),
                "format": format.to_string(),
                "nodes": g.node_count(),
                "arcs": g.edge_count(),
            }),
        }
    }
}

/// What `landmarks build`, `table build` and `graph build` print once the table is
/// saved: the map, the lines particular to the table (`details`), the
/// build time, the table's bytes in memory and in its file, the file
/// written, then `listing`; or one JSON object of them (`json`, with the
/// lines particular to the table as `extra`).
pub struct BuildReport<'a> {
    pub input: BuildInput<'a>,
    pub details: Vec<String>,
    pub build_s: f64,
    pub bytes: usize,
    pub output: &'a Path,
    pub listing: Vec<String>,
    pub json: Option<serde_json::Value>,
}

impl BuildReport<'_> {
    /// Prints the report to stdout.
    pub fn print(&self) -> anyhow::Result<()> {
        // What the file takes on disk, beside what the table takes in
        // memory: they differ by the header, the checksum and the layout.
        let file_bytes = std::fs::metadata(self.output)
            .with_context(|| format!("{}: cannot read its size", self.output.display()))?
            .len();
        if let Some(extra) = &self.json {
            let mut json = self.input.json();
            crate::json::merge(
                &mut json,
                serde_json::json!({
                    "preprocess_s": self.build_s,
                    "table_bytes": self.bytes,
                    "file_bytes": file_bytes,
                    "output": self.output.display().to_string(),
                }),
            );
            crate::json::merge(&mut json, extra.clone());
            return crate::json::print(&json);
        }
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", self.input.line())?;
        for line in &self.details {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "build s     {:.3}", self.build_s)?;
        writeln!(out, "table bytes {} (in memory)", self.bytes)?;
        writeln!(out, "file bytes  {file_bytes}")?;
        writeln!(out, "wrote       {}", self.output.display())?;
        for line in &self.listing {
            writeln!(out, "{line}")?;
        }
        out.flush().context("writing to stdout")
    }
}

/// Loads the saved table in `path` for `graph`, of any kind, checking
/// that it was built for this map and movement rule, timed. Every error
/// names the file.
pub fn load_table(path: &Path, graph: &GridGraph) -> anyhow::Result<Given> {
    let file = open_table(path)?;
    Given::read(file, graph).map_err(|e| {
        // The hashes tell which two rules differ; the one not this run's
        // is the file's.
        let built = match *e.kind() {
            FileErrorKind::MovementMismatch { expected, found } => movement_rules(expected, found)
                .and_then(|pair| pair.into_iter().find(|&r| r != graph.neighborhood())),
            _ => None,
        };
        let name = path.display();
        let context = match built {
            Some(built) => format!(
                "{name}: cannot load the table: it was built for --neighborhood {built}, not {}",
                graph.neighborhood()
            ),
            None => format!("{name}: cannot load the table"),
        };
        anyhow::Error::new(e).context(context)
    })
}

/// `--neighborhood`'s parser: the library's names of each movement rule
/// ([`Neighborhood::names`]: the canonical one, its aliases), each listed
/// in `--help` with what it is.
pub fn neighborhood_names() -> impl clap::builder::TypedValueParser<Value = Neighborhood> {
    let names = Neighborhood::ALL.map(|n| {
        let aliases = &n.names()[1..];
        clap::builder::PossibleValue::new(n.token())
            .aliases(aliases.iter().copied())
            .help(format!("{} (also {})", n.name(), aliases.join(", ")))
    });
    clap::builder::PossibleValuesParser::new(names).try_map(|s| s.parse::<Neighborhood>())
}
