//! The one scenario runner: load a `.scen` file with its map, sample its
//! queries, run a [`Searcher`] on them, check every cost against the
//! published length (or Dijkstra) and summarise.
//!
//! `cairns scen`, the scenario test suite and every benchmark go through
//! it; benchmarks add only their timing policy (rounds, rotation, minimum)
//! around [`Instance::queries`] and [`Checker::check`].

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{
    ParseError, ScenarioError, lengths_match, map_path_for, read_map, read_map_with, read_scen,
};
use crate::graph::NodeId;
use crate::grid::{AgentSizeError, GridGraph, Neighborhood, Tile, TileCosts};
use crate::search::{Dijkstra, Search, SearchCache, SearchStats, Searcher, batch};

/// One query of a scenario file, resolved to node ids on its map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Query {
    /// The scenario's 1-based line in the file.
    pub line: usize,
    /// Start cell.
    pub start: NodeId,
    /// Goal cell.
    pub goal: NodeId,
    /// Start `(x, y)` as written.
    pub start_xy: (u32, u32),
    /// Goal `(x, y)` as written.
    pub goal_xy: (u32, u32),
    /// Published optimal length.
    pub optimal: f64,
    /// Decimals the length was printed with.
    pub decimals: u32,
}

impl Query {
    /// Whether `cost` matches the published length ([`lengths_match`]).
    pub fn matches(&self, cost: Option<f64>) -> bool {
        cost.is_some_and(|c| lengths_match(c, self.optimal, self.decimals))
    }
}

/// A scenario file loaded with its map under octile movement, keeping every
/// `every`-th scenario: the queries whose endpoints are on the map and
/// passable, and the data errors of the others.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The map's file name without `.map` (`den520d`).
    pub name: String,
    /// The scenario file.
    pub scen_path: PathBuf,
    /// The map file.
    pub map_path: PathBuf,
    /// The map under octile movement.
    pub graph: GridGraph,
    /// The sampled queries, in file order.
    pub queries: Vec<Query>,
    /// The sampled scenarios that do not fit the map (an endpoint off the
    /// map or on a wall, another map size).
    pub data_errors: Vec<ScenarioError>,
}

/// A scenario file or its map that could not be loaded.
///
/// Displayed as its [`kind`](Self::kind); the I/O error beneath, if any
/// (the operating system's reason: "No such file or directory"), is the
/// [`source`](std::error::Error::source), so that a chain of errors
/// printed whole (`{:#}` of anyhow) ends with it.
#[derive(Debug)]
pub struct InstanceError {
    kind: InstanceErrorKind,
}

impl std::fmt::Display for InstanceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for InstanceError {
    /// The I/O error under the kind: the kind's own message already
    /// holds that of the parse error, so the chain skips it.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            InstanceErrorKind::Scen(e) | InstanceErrorKind::Map { error: e, .. } => {
                std::error::Error::source(e)
            }
            InstanceErrorKind::Dir { error, .. } => Some(error),
        }
    }
}

impl InstanceError {
    /// What went wrong.
    pub fn kind(&self) -> &InstanceErrorKind {
        &self.kind
    }
}

/// The kinds of [`InstanceError`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstanceErrorKind {
    /// The scenario file could not be read or parsed.
    #[error("{0}")]
    Scen(#[source] ParseError),
    /// The map could not be read or parsed.
    #[error("reading the map of {scen}: {error}")]
    Map {
        /// The scenario file.
        scen: PathBuf,
        /// Why.
        #[source]
        error: ParseError,
    },
    /// A directory of scenario files could not be listed.
    #[error("{}: cannot list the directory", path.display())]
    Dir {
        /// The directory.
        path: PathBuf,
        /// Why.
        #[source]
        error: std::io::Error,
    },
}

impl From<InstanceErrorKind> for InstanceError {
    fn from(kind: InstanceErrorKind) -> Self {
        InstanceError { kind }
    }
}

impl Instance {
    /// Loads `scen` and its map (`map`, or the one named after the scenario
    /// file beside it, [`map_path_for`]), keeping every `every`-th scenario
    /// (`every` of 0 counts as 1).
    ///
    /// # Errors
    ///
    /// When either file cannot be read or parsed; the error names the file
    /// and line.
    pub fn load(scen: &Path, map: Option<&Path>, every: usize) -> Result<Instance, InstanceError> {
        Instance::load_on(scen, map, every, None)
    }

    /// [`load`](Self::load) on the map with terrain costs
    /// ([`GridGraph::with_terrain`]): the map may hold the custom letters
    /// `costs` defines ([`read_map_with`]), an endpoint may stand on any
    /// tile of finite cost, and the published lengths are those of the
    /// Moving AI rule, so check costs against [`Reference::Dijkstra`]
    /// (which searches the same costs).
    ///
    /// # Errors
    ///
    /// As [`load`](Self::load).
    pub fn load_with_terrain(
        scen: &Path, map: Option<&Path>, every: usize, costs: &TileCosts,
    ) -> Result<Instance, InstanceError> {
        Instance::load_on(scen, map, every, Some(costs))
    }

    fn load_on(
        scen: &Path, map: Option<&Path>, every: usize, terrain: Option<&TileCosts>,
    ) -> Result<Instance, InstanceError> {
        let file = read_scen(scen).map_err(InstanceErrorKind::Scen)?;
        let map_path = map.map_or_else(|| map_path_for(scen), Path::to_path_buf);
        let grid = match terrain {
            Some(costs) => read_map_with(&map_path, costs),
            None => read_map(&map_path),
        }
        .map_err(|error| InstanceErrorKind::Map {
            scen: scen.to_path_buf(),
            error,
        })?;
        let passable =
            |tile: Tile| terrain.map_or(tile.is_passable(), |c| c.cost(tile).is_finite());
        let mut queries = Vec::new();
        let mut data_errors = Vec::new();
        for s in file.scenarios.iter().step_by(every.max(1)) {
            match s.endpoints_where(&grid, passable) {
                Ok((start, goal)) => queries.push(Query {
                    line: s.line,
                    start,
                    goal,
                    start_xy: s.start,
                    goal_xy: s.goal,
                    optimal: s.optimal,
                    decimals: s.decimals,
                }),
                Err(e) => data_errors.push(e),
            }
        }
        let name = map_path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Instance {
            name,
            scen_path: scen.to_path_buf(),
            map_path,
            graph: match terrain {
                Some(costs) => GridGraph::with_terrain(grid, Neighborhood::Octile, costs),
                None => GridGraph::new(grid, Neighborhood::Octile),
            },
            queries,
            data_errors,
        })
    }

    /// The instance on its map with terrain costs
    /// ([`GridGraph::with_terrain`]): the queries are kept, but their
    /// published lengths are those of the Moving AI rule, so check costs
    /// against [`Reference::Dijkstra`] (which searches the same costs). A
    /// query whose endpoint the terrain makes impassable has no path.
    #[must_use]
    pub fn with_terrain(self, costs: &TileCosts) -> Instance {
        let graph = GridGraph::with_terrain(self.graph.into_grid(), Neighborhood::Octile, costs);
        Instance { graph, ..self }
    }

    /// The instance on its map under another movement rule (its terrain
    /// costs kept): the queries are kept, but their published lengths are
    /// octile ones, so [`reference`](Self::reference) then checks against
    /// [`Reference::Dijkstra`].
    #[must_use]
    pub fn under(self, neighborhood: Neighborhood) -> Instance {
        let graph = self.graph.with_neighborhood(neighborhood);
        Instance { graph, ..self }
    }

    /// The instance for an agent of `size` x `size` cells
    /// ([`GridGraph::with_size`]): the queries whose endpoints are open to
    /// it are kept (compare [`queries`](Self::queries)' length), and
    /// [`reference`](Self::reference) then checks against
    /// [`Reference::Dijkstra`].
    ///
    /// # Errors
    ///
    /// Those of [`GridGraph::with_size`].
    pub fn for_size(self, size: u32) -> Result<Instance, AgentSizeError> {
        let graph = self.graph.with_size(size)?;
        let mut queries = self.queries;
        queries.retain(|q| graph.is_passable(q.start) && graph.is_passable(q.goal));
        Ok(Instance {
            graph,
            queries,
            ..self
        })
    }

    /// What the costs are checked against when `requested` is asked for:
    /// the published lengths hold only on the octile map with the Moving AI
    /// rule's costs for an agent of one cell, so on any other graph
    /// Dijkstra's.
    pub fn reference(&self, requested: Reference) -> Reference {
        if self.graph.neighborhood() == Neighborhood::Octile
            && !self.graph.has_terrain()
            && self.graph.size() == 1
        {
            requested
        } else {
            Reference::Dijkstra
        }
    }

    /// Keeps at most `max` of the queries, evenly spread: every
    /// `ceil(n / max)`-th, starting with the first (for test suites that
    /// cap the work per file).
    pub fn keep_at_most(&mut self, max: usize) {
        let step = self.queries.len().div_ceil(max.max(1)).max(1);
        self.queries = self.queries.iter().copied().step_by(step).collect();
    }

    /// Loads every `*.map.scen` file of a directory (a benchmark set such as
    /// `dao`), sorted by name, with every `every`-th scenario.
    ///
    /// # Errors
    ///
    /// When the directory cannot be listed or a file cannot be loaded.
    pub fn load_dir(dir: &Path, every: usize) -> Result<Vec<Instance>, InstanceError> {
        let listing = |error| InstanceErrorKind::Dir {
            path: dir.to_path_buf(),
            error,
        };
        let mut scens = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(listing)? {
            let path = entry.map_err(listing)?.path();
            if path.to_string_lossy().ends_with(".map.scen") {
                scens.push(path);
            }
        }
        scens.sort();
        scens
            .iter()
            .map(|scen| Instance::load(scen, None, every))
            .collect()
    }
}

/// What a query's cost is checked against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reference {
    /// The optimal length printed in the file.
    #[default]
    Published,
    /// A Dijkstra search on the same map (for files whose lengths are
    /// wrong, such as wc3maps512).
    Dijkstra,
}

impl Reference {
    /// `published` or `dijkstra`.
    pub fn name(self) -> &'static str {
        match self {
            Reference::Published => "published",
            Reference::Dijkstra => "dijkstra",
        }
    }
}

/// Checks costs against a [`Reference`], keeping the Dijkstra search's
/// memory across queries.
#[derive(Debug)]
pub struct Checker<'g> {
    graph: &'g GridGraph,
    reference: Reference,
    bound: f64,
    any_angle: bool,
    cache: SearchCache,
}

impl<'g> Checker<'g> {
    /// A checker for queries on `graph`.
    pub fn new(graph: &'g GridGraph, reference: Reference) -> Self {
        Checker {
            graph,
            reference,
            bound: 1.0,
            any_angle: false,
            cache: SearchCache::new(),
        }
    }

    /// The checker of a bounded-suboptimal search ([`Searcher::bound`]):
    /// a cost passes when it is at least the optimal one and at most
    /// `bound` times it (up to the rounding of [`lengths_match`]).
    #[must_use]
    pub fn with_bound(mut self, bound: f64) -> Self {
        self.bound = bound;
        self
    }

    /// The checker of any-angle costs ([`Searcher::any_angle`]: Theta*,
    /// string pulling): a cost passes when it is at least the straight-line
    /// distance between the endpoints and at most the bound times the
    /// optimal (octile) cost, up to the rounding of [`lengths_match`].
    #[must_use]
    pub fn with_any_angle(mut self, any_angle: bool) -> Self {
        self.any_angle = any_angle;
        self
    }

    /// The checker for `searcher`'s costs: its bound and whether they are
    /// any-angle lengths.
    pub fn for_searcher(
        graph: &'g GridGraph, reference: Reference, searcher: &dyn Searcher,
    ) -> Self {
        Checker::new(graph, reference)
            .with_bound(searcher.bound())
            .with_any_angle(searcher.any_angle())
    }

    /// Whether `cost` is the query's optimal cost (or, with a bound,
    /// within it; or, for any-angle costs, between the straight line and
    /// the bound times the optimum).
    pub fn check(&mut self, query: &Query, cost: Option<f64>) -> bool {
        if self.bound > 1.0 || self.any_angle {
            return self.within_bound(query, cost);
        }
        match self.reference {
            Reference::Published => query.matches(cost),
            Reference::Dijkstra => {
                let want =
                    Dijkstra::new(self.graph).search_cost(query.start, query.goal, &mut self.cache);
                same_cost(cost, want)
            }
        }
    }

    fn within_bound(&mut self, query: &Query, cost: Option<f64>) -> bool {
        let optimal = match self.reference {
            Reference::Published => Some(query.optimal),
            Reference::Dijkstra => {
                Dijkstra::new(self.graph).search_cost(query.start, query.goal, &mut self.cache)
            }
        };
        match (cost, optimal) {
            (Some(c), Some(o)) => {
                // The published lengths are rounded and carry their
                // generator's rounding (see `lengths_match`), and diagonal
                // moves cost `grid::DIAGONAL`, 2.4e-8 below sqrt(2): allow
                // both. Dijkstra's costs are this crate's own.
                let slack = match self.reference {
                    Reference::Published => {
                        10f64.powi(-(query.decimals.min(15) as i32)) + 1e-5 * o.abs()
                    }
                    Reference::Dijkstra => 1e-9 * (1.0 + o.abs()),
                };
                let lowest = if self.any_angle {
                    let (dx, dy) = (
                        f64::from(query.start_xy.0) - f64::from(query.goal_xy.0),
                        f64::from(query.start_xy.1) - f64::from(query.goal_xy.1),
                    );
                    // Diagonal moves cost grid::DIAGONAL, 1.7e-8
                    // (relative) below sqrt(2).
                    dx.hypot(dy) - 2e-8 * (1.0 + o)
                } else {
                    o - slack
                };
                c >= lowest && c <= self.bound * o + self.bound * slack
            }
            (c, o) => c.is_none() && o.is_none(),
        }
    }
}

/// Whether two search results agree: both "no path", or costs equal up to
/// floating-point summation order (relative 1e-9). The one tolerance for
/// comparing two computed costs.
pub fn same_cost(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * (1.0 + x.abs().max(y.abs())),
        _ => false,
    }
}

/// A query whose cost was not the reference's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mismatch {
    /// The query.
    pub query: Query,
    /// What the search found.
    pub found: Option<f64>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: mismatch from {:?} to {:?}: published {}, found ",
            self.query.line, self.query.start_xy, self.query.goal_xy, self.query.optimal
        )?;
        match self.found {
            Some(c) => write!(f, "{c:.8}"),
            None => f.write_str("no path"),
        }
    }
}

/// What a run of queries measured.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Queries run.
    pub queries: usize,
    /// Queries whose cost was not the reference's.
    pub mismatches: Vec<Mismatch>,
    /// Scenarios skipped because they do not fit the map.
    pub data_errors: usize,
    /// Nodes expanded, summed over the queries.
    pub expanded: u64,
    /// Successors generated, summed over the queries.
    pub generated: u64,
    /// The largest OPEN size of any query.
    pub max_open: u64,
    /// Seconds per query, in query order.
    pub times: Vec<f64>,
    /// The cost each query found (`None`: no path), in query order, beside
    /// [`times`](Summary::times).
    pub costs: Vec<Option<f64>>,
    /// Nodes each query expanded, in query order, beside
    /// [`times`](Summary::times).
    pub expansions: Vec<u64>,
    /// Seconds for the whole run, checks included.
    pub total_s: f64,
    /// The sum over the queries with a path of found cost / published
    /// length (1 per query for an optimal search).
    pub cost_ratio_sum: f64,
    /// The largest found cost / published length.
    pub cost_ratio_max: f64,
}

impl Summary {
    /// Mean expansions per query.
    pub fn mean_expanded(&self) -> f64 {
        self.expanded as f64 / self.queries.max(1) as f64
    }

    /// Mean microseconds per query; 0 (never -0) with no query.
    pub fn mean_us(&self) -> f64 {
        // The sum starts at 0.0: `Iterator::sum` of no f64 is -0.0, which
        // printed as `mean us -0.0`.
        self.times.iter().fold(0.0, |sum, t| sum + t) / self.queries.max(1) as f64 * 1e6
    }

    /// Median microseconds per query; 0 with no query.
    pub fn median_us(&self) -> f64 {
        median(&self.times) * 1e6
    }

    /// Mean found cost / published length (1 for an optimal search; at
    /// most the weight for a bounded-suboptimal one).
    pub fn mean_cost_ratio(&self) -> f64 {
        self.cost_ratio_sum / self.queries.max(1) as f64
    }

    /// Checks the recorded costs, in query order, and records the
    /// queries whose cost `checker` refuses.
    fn check(&mut self, queries: &[Query], checker: &mut Checker) {
        for (q, &found) in queries.iter().zip(&self.costs) {
            if !checker.check(q, found) {
                self.mismatches.push(Mismatch { query: *q, found });
            }
        }
    }

    fn add_cost(&mut self, query: &Query, cost: Option<f64>) {
        self.costs.push(cost);
        if let Some(c) = cost {
            let ratio = if query.optimal > 0.0 {
                c / query.optimal
            } else {
                1.0
            };
            self.cost_ratio_sum += ratio;
            self.cost_ratio_max = self.cost_ratio_max.max(ratio);
        }
    }

    fn add(&mut self, stats: SearchStats, seconds: f64) {
        self.queries += 1;
        self.expanded += stats.expanded;
        self.generated += stats.generated;
        self.max_open = self.max_open.max(stats.max_open);
        self.times.push(seconds);
        self.expansions.push(stats.expanded);
    }
}

/// The median of some samples; 0 for none.
pub fn median(samples: &[f64]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        f64::midpoint(sorted[mid - 1], sorted[mid])
    }
}

/// Runs every query of `instance` once with `searcher`, timing each search
/// alone and checking each cost against `reference`; `progress` is told
/// how many queries are done now and then (every 64).
///
/// The searches run back to back and the costs are checked after the last
/// one, so a [`Reference::Dijkstra`] check (a search of its own over much
/// of the map) does not evict the timed search's memory between queries.
pub fn run(
    instance: &Instance, searcher: &mut dyn Searcher, reference: Reference,
    progress: &mut dyn FnMut(usize),
) -> Summary {
    let mut checker = Checker::for_searcher(&instance.graph, reference, searcher);
    let mut summary = Summary {
        times: Vec::with_capacity(instance.queries.len()),
        data_errors: instance.data_errors.len(),
        ..Summary::default()
    };
    let total = Instant::now();
    for (i, q) in instance.queries.iter().enumerate() {
        if i.is_multiple_of(64) {
            progress(i);
        }
        let t0 = Instant::now();
        let cost = searcher.search_cost(q.start, q.goal);
        summary.add(searcher.stats(), t0.elapsed().as_secs_f64());
        summary.add_cost(q, cost);
    }
    progress(instance.queries.len());
    summary.check(&instance.queries, &mut checker);
    summary.total_s = total.elapsed().as_secs_f64();
    summary
}

/// Like [`run`], on `threads` threads ([`batch`]): `make` builds one
/// searcher per chunk of queries. The costs, expansions and mismatches are
/// those of a serial run; the times are per query on its thread, and
/// `total_s` is the wall time of the whole batch, checks included.
pub fn run_threads<S: Searcher>(
    instance: &Instance, make: impl Fn() -> S + Sync, reference: Reference, threads: usize,
) -> Summary {
    let total = Instant::now();
    let pairs: Vec<(NodeId, NodeId)> = instance.queries.iter().map(|q| (q.start, q.goal)).collect();
    let mut checker = Checker::for_searcher(&instance.graph, reference, &make());
    let results = batch(&pairs, make, threads);
    let mut summary = Summary {
        times: Vec::with_capacity(results.len()),
        data_errors: instance.data_errors.len(),
        ..Summary::default()
    };
    for (q, r) in instance.queries.iter().zip(&results) {
        summary.add(r.stats, r.seconds);
        summary.add_cost(q, r.cost);
    }
    summary.check(&instance.queries, &mut checker);
    summary.total_s = total.elapsed().as_secs_f64();
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::spec::SearchSpec;

    /// An instance over a small map whose "published" lengths are Dijkstra's,
    /// with one query whose goal is walled off (no path).
    fn instance() -> Instance {
        let grid = Grid::from_ascii(
            "
            ....@....@.
            .@@.@.@@.@.
            .@..@..@.@.
            .@.@@@.@.@@
            ...........
            ",
        )
        .unwrap();
        let graph = GridGraph::new(grid, Neighborhood::Octile);
        let mut cache = SearchCache::new();
        let pairs = [
            ((0, 0), (8, 0)),
            ((2, 2), (10, 4)),
            ((10, 0), (0, 4)),
            ((5, 2), (5, 2)),
        ];
        let queries = pairs
            .iter()
            .enumerate()
            .map(|(i, &(s, g))| {
                let (start, goal) = (graph.node(s.0, s.1).unwrap(), graph.node(g.0, g.1).unwrap());
                let optimal = Dijkstra::new(&graph)
                    .search_cost(start, goal, &mut cache)
                    .unwrap_or(-1.0);
                Query {
                    line: i + 2,
                    start,
                    goal,
                    start_xy: s,
                    goal_xy: g,
                    optimal,
                    decimals: 8,
                }
            })
            .collect();
        Instance {
            name: "test".into(),
            scen_path: PathBuf::from("test.map.scen"),
            map_path: PathBuf::from("test.map"),
            graph,
            queries,
            data_errors: Vec::new(),
        }
    }

    /// Under another rule the graph takes it (terrain kept), and the
    /// published lengths no longer count: Dijkstra checks every cost, and
    /// the 4-connected costs it finds do not match the octile ones.
    #[test]
    fn another_movement_rule_is_checked_against_dijkstra() {
        let octile = instance();
        assert_eq!(octile.reference(Reference::Published), Reference::Published);
        let same = instance().under(Neighborhood::Octile);
        assert_eq!(same.graph.grid(), octile.graph.grid());
        assert_eq!(same.graph.neighborhood(), Neighborhood::Octile);
        for rule in [Neighborhood::Four, Neighborhood::OctileCornerCutting] {
            let moved = instance().under(rule);
            assert_eq!(moved.graph.neighborhood(), rule);
            assert_eq!(moved.queries, octile.queries);
            assert_eq!(moved.reference(Reference::Published), Reference::Dijkstra);
            let search = SearchSpec::new(crate::spec::Algorithm::AStar);
            let prepared = search.prepare(&moved.graph).unwrap();
            let against =
                |reference| run(&moved, &mut *prepared.searcher(), reference, &mut |_| {});
            let checked = against(Reference::Dijkstra);
            assert!(
                checked.mismatches.is_empty(),
                "{rule:?}: {:?}",
                checked.mismatches
            );
            if rule == Neighborhood::Four {
                let published = against(Reference::Published);
                assert!(
                    !published.mismatches.is_empty(),
                    "4-connected costs are not octile ones"
                );
            }
        }
        let costs: TileCosts = "S=3".parse().unwrap();
        let swamp = Instance {
            graph: GridGraph::with_terrain(
                octile.graph.grid().clone(),
                Neighborhood::Octile,
                &costs,
            ),
            ..instance()
        };
        let moved = swamp.under(Neighborhood::Four);
        assert_eq!(moved.graph.tile_costs(), costs, "the terrain is kept");
    }

    /// Regression test: a missing scenario file gave no reason; the I/O
    /// error is the source, so that the CLI's `{:#}` prints it.
    #[test]
    fn a_missing_file_keeps_the_reason_as_the_source() {
        let e = Instance::load(Path::new("/nonexistent/x.map.scen"), None, 1).unwrap_err();
        let source = std::error::Error::source(&e).expect("a source");
        let io = source
            .downcast_ref::<std::io::Error>()
            .expect("an io::Error");
        assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
        assert!(e.to_string().contains("/nonexistent/x.map.scen"), "{e}");
    }

    /// Regression test: a run of no query printed `mean us -0.0` (the
    /// sum of no f64 is -0.0).
    #[test]
    fn a_summary_of_no_query_is_zero_not_minus_zero() {
        let none = Summary::default();
        for value in [none.mean_us(), none.median_us(), none.mean_expanded()] {
            assert!(value == 0.0 && value.is_sign_positive(), "{value}");
        }
        assert_eq!(format!("{:.1}", none.mean_us()), "0.0");
    }

    #[test]
    fn summary_keeps_each_querys_cost_and_expansions_in_query_order() {
        let inst = instance();
        let prepared = "astar/octile"
            .parse::<SearchSpec>()
            .unwrap()
            .prepare(&inst.graph)
            .unwrap();
        let mut searcher = prepared.searcher();
        let serial = run(&inst, &mut *searcher, Reference::Dijkstra, &mut |_| {});
        assert!(serial.mismatches.is_empty(), "{:?}", serial.mismatches);
        assert_eq!(serial.costs.len(), inst.queries.len());
        assert_eq!(serial.expansions.len(), inst.queries.len());
        assert_eq!(serial.expansions.iter().sum::<u64>(), serial.expanded);
        let mut cache = SearchCache::new();
        for (q, cost) in inst.queries.iter().zip(&serial.costs) {
            let want = Dijkstra::new(&inst.graph).search_cost(q.start, q.goal, &mut cache);
            assert!(
                same_cost(*cost, want),
                "line {}: {cost:?} vs {want:?}",
                q.line
            );
        }
        // The walled-off goal: no path, recorded as such.
        assert_eq!(serial.costs[2], None);
        // A query from a cell to itself expands at most its start; the
        // long ones many more.
        assert!(serial.expansions[3] <= 1);
        assert!(
            serial.expansions[0] > 5 && serial.expansions[1] > 5,
            "{:?}",
            serial.expansions
        );
        // The threaded runner records the same results in the same order.
        let threaded = run_threads(&inst, || prepared.searcher(), Reference::Dijkstra, 2);
        assert_eq!(threaded.expansions, serial.expansions);
        assert!(
            threaded
                .costs
                .iter()
                .zip(&serial.costs)
                .all(|(a, b)| same_cost(*a, *b))
        );
        assert_eq!(threaded.times.len(), inst.queries.len());
    }
}
