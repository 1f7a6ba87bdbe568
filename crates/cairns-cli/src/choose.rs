//! The search options every command shares (`--search`, `--heuristic`,
//! `--open`, `--landmarks`, `--jump-table`, and the `--jps`/`--canonical`
//! aliases), read into the library's [`SearchSpec`]: the names, defaults
//! and checks are the library's; this module only adds the command-line
//! words and loading saved tables.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use anyhow::bail;
use cairns::graph::NodeId;
use cairns::grid::{Grid, GridGraph, Neighborhood, TileCosts};
use cairns::landmarks::{SavedTable, grid_hash};
use cairns::open::OpenKind;
use cairns::search::JumpTable;
use cairns::spec::{Algorithm, GivenTables, HeuristicSpec, Prepared, SearchSpec, Weight};

/// The search of a command.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SearchArgs {
    /// Search algorithm: astar (the default), canonical (A* with canonical
    /// ordering), jps (jump point search), jps+ (jump point search over a
    /// jump table built before the first query), dijkstra, bfs, theta
    /// (Theta*: any-angle paths, Euclidean lengths) or focal (focal search:
    /// costs at most --weight W times optimal).
    #[arg(long = "search", value_name = "NAME")]
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
    /// Use the differential heuristic of a landmark table saved by
    /// `cairns landmarks build` for this map; --heuristic may then only be
    /// dh, or dh:K with the file's K.
    #[arg(long, value_name = "FILE")]
    pub landmarks: Option<PathBuf>,
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
    /// Use the jump table saved by `cairns jump-table build` for this map
    /// instead of building it: implies --search jps+ (the only search that
    /// takes one).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["jps", "canonical"])]
    pub jump_table: Option<PathBuf>,
    /// Same as --search canonical.
    #[arg(long, conflicts_with_all = ["algorithm", "jps"])]
    pub canonical: bool,
    /// Same as --search jps.
    #[arg(long, conflicts_with = "algorithm")]
    pub jps: bool,
}

impl SearchArgs {
    /// The spec the options name (defaults not yet filled in).
    pub fn spec(&self) -> SearchSpec {
        let algorithm = if self.jps {
            Algorithm::Jps
        } else if self.canonical {
            Algorithm::Canonical
        } else if self.jump_table.is_some() && self.algorithm.is_none() {
            Algorithm::JpsPlus
        } else {
            self.algorithm.unwrap_or_default()
        };
        SearchSpec {
            algorithm,
            heuristic: self.heuristic,
            open: self.open,
            weight: self.weight,
            pull: self.pull,
        }
    }

    /// Checks the spec on `graph` and builds what it needs: the table of
    /// `dh:K`, or the one in `--landmarks`, and the jump table of `jps+`,
    /// or the one in `--jump-table`. Warns on stderr when the heuristic is
    /// not admissible.
    ///
    /// # Errors
    ///
    /// A combination the library refuses (the message says why), or a
    /// landmark or jump table file that cannot be loaded for this map.
    pub fn prepare<'g>(&self, graph: &'g GridGraph) -> anyhow::Result<Prepared<'g>> {
        let spec = self.spec();
        let t0 = Instant::now();
        let landmarks = self
            .landmarks
            .as_deref()
            .map(|file| load_table(file, graph))
            .transpose()?;
        let jumps = self
            .jump_table
            .as_deref()
            .map(|file| load_jump_table(file, graph))
            .transpose()?;
        let (landmarks, compressed) = match landmarks {
            Some(SavedTable::Full(t)) => (Some(t), None),
            Some(SavedTable::Compressed(c)) => (None, Some(c)),
            None => (None, None),
        };
        let given = GivenTables {
            landmarks,
            compressed,
            jumps,
            seconds: t0.elapsed().as_secs_f64(),
        };
        let files: Vec<String> = [
            ("--landmarks", &self.landmarks),
            ("--jump-table", &self.jump_table),
        ]
        .into_iter()
        .filter_map(|(flag, file)| file.as_ref().map(|f| format!("{flag} {}", f.display())))
        .collect();
        let prepared = if files.is_empty() {
            spec.prepare(graph)?
        } else {
            spec.prepare_given(graph, given)
                .with_context(|| files.join(", "))?
        };
        if let Some(why) = prepared.inadmissible() {
            eprintln!("cairns: warning: {why}; paths may not be shortest");
        }
        Ok(prepared)
    }
}

/// The terrain costs of a command's map (`--terrain`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TerrainArgs {
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
}

impl TerrainArgs {
    /// Reads the `.map` file at `path`: with terrain costs, its rows may
    /// hold the custom letters the costs define (`F=3`).
    pub fn read_map(&self, path: &Path) -> Result<Grid, cairns::movingai::LoadError> {
        match &self.terrain {
            Some(costs) => cairns::movingai::read_map_with(path, costs),
            None => cairns::movingai::read_map(path),
        }
    }

    /// The graph of `grid` under `neighborhood`, with the terrain costs if
    /// any.
    pub fn graph(&self, grid: Grid, neighborhood: Neighborhood) -> GridGraph {
        match &self.terrain {
            Some(costs) => GridGraph::with_terrain(grid, neighborhood, costs),
            None => GridGraph::new(grid, neighborhood),
        }
    }
}

/// Checks that `(x, y)` is a passable cell of `graph` (by its tile, or by
/// its terrain cost); `name` names the map in messages.
pub fn endpoint(
    graph: &GridGraph,
    name: &str,
    what: &str,
    (x, y): (u32, u32),
) -> anyhow::Result<NodeId> {
    let grid = graph.grid();
    match (grid.get(x, y), graph.node(x, y)) {
        (Some(t), Some(node)) if !graph.is_passable(node) => {
            let rule = if graph.has_terrain() {
                " under --terrain"
            } else {
                ""
            };
            bail!(
                "{what} ({x}, {y}) is on a blocked tile '{}'{rule} in {name}",
                t.to_char()
            )
        }
        (Some(_), Some(node)) => Ok(node),
        _ => bail!(
            "{what} ({x}, {y}) is outside {name} ({}x{})",
            grid.width(),
            grid.height()
        ),
    }
}

/// Opens `path` for a table file of `what` (`landmark`, `jump table`),
/// naming the file in the error.
fn open_table(path: &Path, what: &str) -> anyhow::Result<BufReader<File>> {
    let file = File::open(path)
        .with_context(|| format!("{}: cannot open the {what} file", path.display()))?;
    Ok(BufReader::new(file))
}

/// Writes a table file of `what` to `path` with `save` (buffered, flushed),
/// naming the file in every error.
pub fn save_table(
    path: &Path,
    what: &str,
    save: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let name = path.display();
    let file = File::create(path).with_context(|| format!("{name}: cannot create"))?;
    let mut w = BufWriter::new(file);
    save(&mut w)
        .and_then(|()| w.flush())
        .with_context(|| format!("{name}: cannot write the {what}"))
}

/// What `landmarks build` and `jump-table build` print once the table is
/// saved: the map, the lines particular to the table (`details`), the
/// build time, the table's bytes, the file written, then `listing`.
pub struct BuildReport<'a> {
    pub map: &'a Path,
    pub graph: &'a GridGraph,
    pub details: Vec<String>,
    pub build_s: f64,
    pub bytes: usize,
    pub output: &'a Path,
    pub listing: Vec<String>,
}

impl BuildReport<'_> {
    /// Prints the report to stdout.
    pub fn print(&self) -> anyhow::Result<()> {
        let mut out = std::io::stdout().lock();
        let g = self.graph;
        writeln!(
            out,
            "map         {} ({}x{}, {}-connected)",
            self.map.display(),
            g.width(),
            g.height(),
            g.neighborhood().directions()
        )?;
        for line in &self.details {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "build s     {:.3}", self.build_s)?;
        writeln!(out, "table bytes {}", self.bytes)?;
        writeln!(out, "wrote       {}", self.output.display())?;
        for line in &self.listing {
            writeln!(out, "{line}")?;
        }
        out.flush().context("writing to stdout")
    }
}

/// Loads the landmark table in `path` for `graph`, full or compressed,
/// checking that it was built for this map and movement rule. Every error
/// names the file.
pub fn load_table(path: &Path, graph: &GridGraph) -> anyhow::Result<SavedTable> {
    let file = open_table(path, "landmark")?;
    let hash = grid_hash(graph.grid(), graph.neighborhood());
    SavedTable::load_for(file, graph, hash)
        .with_context(|| format!("{}: cannot load the landmark table", path.display()))
}

/// Loads the jump table in `path` for `graph`, checking that it was built
/// for this map (and octile movement). Every error names the file.
pub fn load_jump_table(path: &Path, graph: &GridGraph) -> anyhow::Result<JumpTable> {
    let file = open_table(path, "jump table")?;
    let hash = grid_hash(graph.grid(), graph.neighborhood());
    JumpTable::load_for(file, graph, hash)
        .with_context(|| format!("{}: cannot load the jump table", path.display()))
}

/// Parses `4` or `8`.
pub fn parse_neighborhood(s: &str) -> Result<Neighborhood, String> {
    match s {
        "4" => Ok(Neighborhood::Four),
        "8" => Ok(Neighborhood::Octile),
        _ => Err(format!("neighborhood must be 4 or 8, got {s:?}")),
    }
}
