//! `Engine`: a search spec prepared on a grid (the library's owning
//! [`cairns::spec::Engine`]), answering queries from any thread.

use std::time::Duration;

use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Tile};
use cairns::search::{Budget, Progress, SearchStats, Searcher, batch};
use cairns::spec::{Engine as Owning, EngineSearcher, Given, SearchSpec};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use crate::convert::{self, Reduced, path_array};
use crate::errors::to_py;
use crate::grid::Grid;

/// A search (`"astar"`, `"jps+"`, `"astar/dh:16"`, any spec the `cairns`
/// command takes) prepared on a grid: the tables it needs are built once,
/// here. Each query gets a searcher with its own memory; `costs` runs many
/// queries on several threads without the GIL.
///
/// ```text
/// >>> import numpy as np, cairns_path as cp
/// >>> walls = np.zeros((3, 5), dtype=bool)
/// >>> walls[:2, 2] = True
/// >>> engine = cp.Engine(cp.Grid(walls), "astar")
/// >>> engine.spec
/// 'astar/octile/quaternary-heap'
/// >>> path, cost = engine.path((0, 0), (4, 0))
/// >>> path.tolist(), round(cost, 4)
/// ([[0, 0], [1, 1], [1, 2], [2, 2], [3, 2], [4, 1], [4, 0]], 6.8284)
/// >>> engine.costs([(0, 0), (0, 2)], [(4, 0), (4, 2)], threads=2).round(4).tolist()
/// [6.8284, 4.0]
/// >>> path, cost = engine.nearest([(0, 0)], [(4, 0), (1, 2)])
/// >>> path[-1].tolist(), round(cost, 4)
/// ([1, 2], 2.4142)
///
/// ```
#[pyclass(module = "cairns_path", frozen)]
#[derive(Debug)]
pub struct Engine {
    owning: Owning,
    grid: Py<Grid>,
    /// The spec as given (what pickling stores, with the tables).
    given: String,
}

/// The cost as Python sees it: `inf` for no path.
fn cost_or_inf(cost: Option<f64>) -> f64 {
    cost.unwrap_or(f64::INFINITY)
}

/// Search statistics as a dict.
pub fn stats_dict(py: Python<'_>, s: SearchStats) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("expanded", s.expanded)?;
    d.set_item("generated", s.generated)?;
    d.set_item("updated", s.updated)?;
    d.set_item("reopened", s.reopened)?;
    d.set_item("max_open", s.max_open)?;
    Ok(d)
}

/// How many threads `threads` asks for: 0 is every core.
pub(crate) fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        threads
    }
}

/// Loads table `i` of `Engine(tables=[...])`: the bytes of a saved table
/// or the path of a table file, checked against `graph` as the CLI's
/// `--table FILE` is (the message names the file, or the table's place).
fn load_table(
    py: Python<'_>, i: usize, table: &Bound<'_, PyAny>, graph: &GridGraph,
) -> PyResult<Given> {
    convert::load_saved(py, table, &format!("tables[{i}]"), |r| {
        Given::read(r, graph)
    })
}

impl Engine {
    /// The nodes of a query's `start` and `goal` (`(x, y)` each), checked
    /// as the command checks them: on the grid and not on a wall.
    fn ends(
        &self, start: &Bound<'_, PyAny>, goal: &Bound<'_, PyAny>,
    ) -> PyResult<(NodeId, NodeId)> {
        let graph = self.owning.graph();
        let s = convert::endpoint(graph, self.name(), "start", convert::point(start, "start")?)?;
        let g = convert::endpoint(graph, self.name(), "goal", convert::point(goal, "goal")?)?;
        Ok((s, g))
    }

    /// The engine's tables in their saved form.
    fn saved_tables<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let graph = self.owning.graph();
        self.owning
            .tables()
            .iter()
            .map(|t| {
                let mut bytes = Vec::new();
                t.save_for(&mut bytes, graph)?;
                Ok(PyBytes::new(py, &bytes))
            })
            .collect()
    }

    /// Runs `f` with the engine's last searcher (or a new one), which the
    /// engine keeps for the next query: a grid-sized cache is not
    /// allocated per query, and a budgeted query paused by one call
    /// resumes in the next ([`Owning::with_searcher`]).
    fn searching<R>(&self, f: impl FnOnce(&mut EngineSearcher) -> R) -> R {
        self.owning.with_searcher(f)
    }

    /// `sources` and `goals` (`(N, 2)` arrays or lists of `(x, y)`) as
    /// cells, each free and on the grid.
    fn sources_and_goals(
        &self, sources: &Bound<'_, PyAny>, goals: &Bound<'_, PyAny>,
    ) -> PyResult<(Vec<NodeId>, Vec<NodeId>)> {
        let graph = self.owning.graph();
        let sources = convert::points(sources, "sources")?;
        let goals = convert::points(goals, "goals")?;
        Ok((
            convert::endpoints(graph, self.name(), "sources", &sources)?,
            convert::endpoints(graph, self.name(), "goals", &goals)?,
        ))
    }

    /// The engine that follows this one (edited or filled): `owning` on
    /// `grid`.
    fn succeeded_by(&self, owning: Owning, grid: Py<Grid>) -> Engine {
        Engine {
            owning,
            grid,
            given: self.given.clone(),
        }
    }

    fn name(&self) -> &str {
        &self.grid.get().name
    }

    /// The path to `goal` that `searcher`'s last query found, with its
    /// cost: an empty array and `inf` when there is none.
    fn found<'py>(
        &self, py: Python<'py>, searcher: &dyn Searcher, reached: Option<(NodeId, f64)>,
    ) -> PyResult<(Bound<'py, PyArray2<i64>>, f64)> {
        let mut nodes = Vec::new();
        let cost = match reached {
            Some((goal, cost)) if searcher.path_into(goal, &mut nodes) => cost,
            _ => {
                nodes.clear();
                f64::INFINITY
            }
        };
        Ok((path_array(py, self.owning.graph(), &nodes)?, cost))
    }

    fn with_stats<'py>(
        py: Python<'py>, (path, cost): (Bound<'py, PyArray2<i64>>, f64), stats: Option<SearchStats>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        match stats {
            Some(s) => PyTuple::new(
                py,
                [
                    path.into_any(),
                    cost.into_pyobject(py)?.into_any(),
                    stats_dict(py, s)?.into_any(),
                ],
            ),
            None => PyTuple::new(py, [path.into_any(), cost.into_pyobject(py)?.into_any()]),
        }
    }
}

#[pymethods]
impl Engine {
    /// Prepares `spec` (`ALGORITHM[/HEURISTIC[/OPEN]]`, as the `cairns`
    /// command's `--search`, `--heuristic` and `--open` together) on
    /// `grid`, copying the grid into the engine and building every table
    /// the spec needs. Raises `ValueError` for a spec that does not parse
    /// or does not fit the grid (`jps` on a 4-connected grid, say).
    ///
    /// `size`: the agent covers `size` x `size` cells and is placed by its
    /// top-left cell, which may stand only where that whole block is free;
    /// a move is the grid's movement rule applied to the block (no corner
    /// cutting by the block under `"octile"`). Points, paths and costs are
    /// the top-left cell's; every spec and table serves every size. 1 to
    /// 255; above 1, not on a grid with terrain costs (`ValueError`).
    #[new]
    #[pyo3(signature = (grid, spec = "astar", tables = None, size = 1))]
    fn new(
        py: Python<'_>, grid: Bound<'_, Grid>, spec: &str, tables: Option<Vec<Bound<'_, PyAny>>>,
        size: u32,
    ) -> PyResult<Engine> {
        let parsed: SearchSpec = spec.parse().map_err(|e| to_py(&e))?;
        let graph = grid
            .get()
            .graph
            .clone()
            .with_size(size)
            .map_err(|e| to_py(&e))?;
        let given = tables
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, t)| load_table(py, i, t, &graph))
            .collect::<PyResult<Vec<Given>>>()?;
        let engine = py
            .detach(|| Owning::with_tables(graph, &parsed, given))
            .map_err(|e| to_py(&e))?;
        Ok(Engine {
            owning: engine,
            grid: grid.unbind(),
            given: spec.to_owned(),
        })
    }

    /// Pickles as the grid, the spec as given and the tables in their
    /// saved form, so that unpickling loads the tables instead of building
    /// them again.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.get();
        let tables = me.saved_tables(py)?;
        let args = PyTuple::new(
            py,
            [
                me.grid.clone_ref(py).into_bound(py).into_any(),
                me.given.clone().into_pyobject(py)?.into_any(),
                tables.into_pyobject(py)?.into_any(),
                me.owning.graph().size().into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((slf.get_type().into_any(), args))
    }

    /// Each table the engine holds (landmarks, jumps) in the format of
    /// the `cairns` command's table files (`cairns table build`): write
    /// them to files, or give them back to `Engine(grid, spec,
    /// tables=[...])` with the same grid.
    fn table_bytes<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        self.saved_tables(py)
    }

    /// The spec as resolved (defaults filled in): `"astar/octile/4-heap"`.
    #[getter]
    fn spec(&self) -> String {
        self.owning.spec().to_string()
    }

    /// The grid.
    #[getter]
    fn grid(&self, py: Python<'_>) -> Py<Grid> {
        self.grid.clone_ref(py)
    }

    /// The agent's size: its side in cells (`Engine(..., size=K)`).
    #[getter]
    fn size(&self) -> u32 {
        self.owning.graph().size()
    }

    /// Spec `sub`: whether `with_walls` left the subgoal graph of the
    /// older map, the engine answering as `jps+` over the jump table it
    /// keeps until `filled` repairs and ranks the graph. `False` for the
    /// other specs.
    #[getter]
    fn behind(&self) -> bool {
        self.owning.is_behind()
    }

    /// One line per table the spec built: `"jumps built in 0.012 s, 2097152 bytes"`.
    #[getter]
    fn tables(&self) -> Vec<String> {
        self.owning
            .report()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// A shortest path from `start` to `goal` (`(x, y)` each): `(path,
    /// cost)`, the path an `(N, 2)` array of `(x, y)` rows from start to
    /// goal, or an empty array and `inf` when there is none; with
    /// `stats=True`, `(path, cost, stats)`. Raises `ValueError` for an
    /// endpoint off the grid or on a wall.
    #[pyo3(signature = (start, goal, stats = false))]
    fn path<'py>(
        &self, py: Python<'py>, start: &Bound<'py, PyAny>, goal: &Bound<'py, PyAny>, stats: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (s, g) = self.ends(start, goal)?;
        let (found, stats) = self.searching(|searcher| {
            let cost = py.detach(|| searcher.search_cost(s, g));
            let found = self.found(py, searcher, cost.map(|c| (g, c)));
            (found, stats.then(|| searcher.stats()))
        });
        Engine::with_stats(py, found?, stats)
    }

    /// The cost of a shortest path from `start` to `goal`; `inf` when
    /// there is none.
    fn cost(
        &self, py: Python<'_>, start: &Bound<'_, PyAny>, goal: &Bound<'_, PyAny>,
    ) -> PyResult<f64> {
        let (s, g) = self.ends(start, goal)?;
        let cost = self.searching(|searcher| py.detach(|| searcher.search_cost(s, g)));
        Ok(cost_or_inf(cost))
    }

    /// The costs of many queries, `starts[i]` to `goals[i]` (`(N, 2)`
    /// arrays of `(x, y)`), as a float array (`inf`: no path), on
    /// `threads` threads (0: every core) with the GIL released, one
    /// searcher (and search memory) per thread. The answers are those of
    /// a serial run. With `stats=True`, `(costs, expanded)`.
    #[pyo3(signature = (starts, goals, threads = 1, stats = false))]
    fn costs<'py>(
        &self, py: Python<'py>, starts: &Bound<'py, PyAny>, goals: &Bound<'py, PyAny>,
        threads: usize, stats: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let graph = self.owning.graph();
        let starts = convert::points(starts, "starts")?;
        let goals = convert::points(goals, "goals")?;
        convert::same_length(starts.len(), "starts", goals.len(), "goals")?;
        let starts = convert::endpoints(graph, self.name(), "starts", &starts)?;
        let goals = convert::endpoints(graph, self.name(), "goals", &goals)?;
        let queries: Vec<(NodeId, NodeId)> = starts.into_iter().zip(goals).collect();
        let threads = thread_count(threads);
        let results = py.detach(|| batch(&queries, || self.owning.searcher(), threads));
        let costs = PyArray1::from_vec(py, results.iter().map(|r| cost_or_inf(r.cost)).collect());
        if stats {
            let expanded =
                PyArray1::from_vec(py, results.iter().map(|r| r.stats.expanded).collect());
            Ok(PyTuple::new(py, [costs.into_any(), expanded.into_any()])?.into_any())
        } else {
            Ok(costs.into_any())
        }
    }

    /// The nearest of `goals` from any of `sources` (`(N, 2)` arrays of
    /// `(x, y)`), in one search: `(path, cost)` as [`path`] gives them,
    /// the path from the nearest source to the nearest goal.
    fn nearest<'py>(
        &self, py: Python<'py>, sources: &Bound<'py, PyAny>, goals: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (sources, goals) = self.sources_and_goals(sources, goals)?;
        let found = self.searching(|searcher| {
            let reached = py.detach(|| searcher.search_nearest(&sources, &goals));
            self.found(py, searcher, reached.map(|r| (r.goal, r.cost)))
        });
        Engine::with_stats(py, found?, None)
    }

    /// One search from `sources` to the nearest of `goals` under a
    /// budget, as `cairns path --max-expansions N --max-cost C`: at most
    /// `max_expansions` expansions, none of a node whose `f` is above
    /// `max_cost`. Returns a dict: `status` (`"found"`, `"no-path"` or
    /// `"paused"`), `path` and `cost` (when found: the path and its cost;
    /// when paused: the path to the best node so far and its cost `g`),
    /// `closest`, `g` and `h` when paused, and `stats`. Only `astar` and
    /// `dijkstra` take a budget (`ValueError` for the others). A call
    /// with the same sources and goals after one that paused goes on from
    /// there (a game's next frame), unless another query of this engine
    /// ran in between on the same searcher; then it starts over, with the
    /// same answer.
    #[pyo3(signature = (sources, goals, max_expansions = None, max_cost = None))]
    fn budgeted<'py>(
        &self, py: Python<'py>, sources: &Bound<'py, PyAny>, goals: &Bound<'py, PyAny>,
        max_expansions: Option<u64>, max_cost: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (sources, goals) = self.sources_and_goals(sources, goals)?;
        if max_cost.is_some_and(f64::is_nan) {
            return Err(PyValueError::new_err("max_cost must be a number, not NaN"));
        }
        let budget = Budget {
            expansions: max_expansions.unwrap_or(u64::MAX),
            max_f: max_cost.unwrap_or(f64::INFINITY),
        };
        let d = PyDict::new(py);
        self.searching(|searcher| -> PyResult<()> {
            let progress = py.detach(|| searcher.search_budgeted(&sources, &goals, budget));
            let Some(progress) = progress else {
                return Err(PyValueError::new_err(format!(
                    "max_expansions and max_cost need the astar or dijkstra search; {} takes no budget",
                    self.owning.spec().algorithm
                )));
            };
            let (status, end) = match progress {
                Progress::Found(r) => ("found", Some((r.goal, r.cost))),
                Progress::NoPath => ("no-path", None),
                Progress::Paused { closest, g, h } => {
                    let (x, y) = self.owning.graph().coords(closest);
                    d.set_item("closest", (x, y))?;
                    d.set_item("g", g)?;
                    d.set_item("h", h)?;
                    ("paused", Some((closest, g)))
                }
            };
            d.set_item("status", status)?;
            let (path, cost) = self.found(py, searcher, end)?;
            d.set_item("path", path)?;
            d.set_item("cost", cost)?;
            d.set_item("stats", stats_dict(py, searcher.stats())?)?;
            Ok(())
        })?;
        Ok(d)
    }

    /// A new engine on this engine's grid with cells changed: `points`
    /// (`(N, 2)` `(x, y)`) become walls where `walls[i]` is true and open
    /// ground where it is false. Its tables stay exact: a landmark table
    /// is repaired where distances change (the same as a rebuild with the
    /// same landmarks, far sooner), a jump table is repaired near the
    /// cells, a goal-bounding table keeps its repaired jump table and
    /// drops its boxes, and a subgoal graph waits of the older map (see
    /// `behind` and `filled`; `jps+` answers meanwhile). This
    /// engine and its grid are unchanged; the new engine's `grid` is the
    /// edited one. Raises `ValueError` for a point off the grid or lengths
    /// that differ.
    fn with_walls(
        &self, py: Python<'_>, points: &Bound<'_, PyAny>, walls: Vec<bool>,
    ) -> PyResult<Engine> {
        let graph = self.owning.graph();
        let points = convert::points(points, "points")?;
        convert::same_length(points.len(), "points", walls.len(), "walls")?;
        let cells = points
            .iter()
            .zip(walls)
            .enumerate()
            .map(|(i, (&(x, y), wall))| match graph.grid().cell(x, y) {
                Some((x, y)) => Ok((x, y, Tile::wall_if(wall))),
                None => Err(PyValueError::new_err(format!(
                    "points[{i}] ({x}, {y}) is outside {} ({}x{})",
                    self.name(),
                    graph.width(),
                    graph.height()
                ))),
            })
            .collect::<PyResult<Vec<_>>>()?;
        let edited = py
            .detach(|| self.owning.edited(&cells))
            .map_err(|e| to_py(&e))?;
        // The grid is the map itself, whatever the agent's size.
        let map = edited.graph().clone().with_size(1).map_err(|e| to_py(&e))?;
        let grid = Py::new(py, Grid::from_graph(map, self.name().to_owned()))?;
        Ok(self.succeeded_by(edited, grid))
    }

    /// A new engine with more of what its tables lack. Spec `jps+bb`:
    /// the jump points without boxes, after `with_walls` dropped them
    /// (boxes of the older map are not trusted) or the build ran out of
    /// its budget, get theirs until `seconds` have passed, on every core.
    /// Spec `sub`: the subgoal graph that `with_walls` left of the older
    /// map is repaired near the edits and ranked again, cut at `seconds`
    /// as the spec's build is at its own budget. `None` when nothing is
    /// missing or the spec has neither table. The GIL is released
    /// meanwhile, so a thread can fill while others search this engine,
    /// whose answers stay optimal (a jump point without boxes prunes
    /// nothing; a `sub` engine behind its map searches as `jps+` over the
    /// jump table it keeps). Raises
    /// `ValueError` for a negative or non-finite `seconds`.
    fn filled(&self, py: Python<'_>, seconds: f64) -> PyResult<Option<Engine>> {
        let budget = Duration::try_from_secs_f64(seconds).map_err(|_| {
            PyValueError::new_err(format!(
                "seconds must be a finite number, at least 0: got {seconds}"
            ))
        })?;
        let Some(filled) = py
            .detach(|| self.owning.filled_within(budget))
            .map_err(|e| to_py(&e))?
        else {
            return Ok(None);
        };
        let grid = self.grid.clone_ref(py);
        Ok(Some(self.succeeded_by(filled, grid)))
    }

    fn __repr__(&self) -> String {
        let g = self.owning.graph();
        format!(
            "Engine({:?}, {}x{}, movement={:?})",
            self.spec(),
            g.width(),
            g.height(),
            crate::convert::movement_name(g.neighborhood())
        )
    }
}
