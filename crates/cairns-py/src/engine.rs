//! `Engine`: a search spec prepared on a grid (the library's owning
//! [`cairns::spec::Engine`]), answering queries from any thread.

use cairns::graph::NodeId;
use cairns::search::{SearchStats, Searcher, batch};
use std::sync::Mutex;

use cairns::spec::{Engine as Owning, EngineSearcher, SearchSpec};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::convert::{self, path_array};
use crate::errors::to_py;
use crate::grid::Grid;

/// A search (`"astar"`, `"jps+"`, `"astar/dh:16"`, any spec the `cairns`
/// command takes) prepared on a grid: the tables it needs are built once,
/// here. Each query gets a searcher with its own memory; `costs` runs many
/// queries on several threads without the GIL.
#[pyclass(module = "cairns_path", frozen)]
#[derive(Debug)]
pub struct Engine {
    owning: Owning,
    grid: Py<Grid>,
    /// The spec as given (pickling rebuilds from it).
    given: String,
    /// Searchers of finished queries, whose memory the next query reuses
    /// (a grid-sized cache is not allocated per query).
    idle: Mutex<Vec<EngineSearcher>>,
}

/// How many idle searchers an engine keeps.
const IDLE: usize = 4;

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
fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        threads
    }
}

impl Engine {
    /// An idle searcher, or a new one.
    fn take(&self) -> EngineSearcher {
        self.idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.pop())
            .unwrap_or_else(|| self.owning.searcher())
    }

    /// Keeps `searcher` for a later query.
    fn give(&self, searcher: EngineSearcher) {
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < IDLE
        {
            idle.push(searcher);
        }
    }

    fn name(&self) -> &str {
        &self.grid.get().name
    }

    /// The path to `goal` that `searcher`'s last query found, with its
    /// cost: an empty array and `inf` when there is none.
    fn found<'py>(
        &self,
        py: Python<'py>,
        searcher: &dyn Searcher,
        reached: Option<(NodeId, f64)>,
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
        py: Python<'py>,
        (path, cost): (Bound<'py, PyArray2<i64>>, f64),
        stats: Option<SearchStats>,
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
    #[new]
    #[pyo3(signature = (grid, spec = "astar"))]
    fn new(py: Python<'_>, grid: Bound<'_, Grid>, spec: &str) -> PyResult<Engine> {
        let parsed: SearchSpec = spec.parse().map_err(|e| to_py(&e))?;
        let graph = grid.get().graph.clone();
        let engine = py
            .detach(|| Owning::new(graph, &parsed))
            .map_err(|e| to_py(&e))?;
        Ok(Engine {
            owning: engine,
            grid: grid.unbind(),
            given: spec.to_owned(),
            idle: Mutex::new(Vec::new()),
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (Py<Grid>, String)) {
        let me = slf.get();
        (
            slf.get_type().into_any(),
            (me.grid.clone_ref(slf.py()), me.given.clone()),
        )
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
        &self,
        py: Python<'py>,
        start: &Bound<'py, PyAny>,
        goal: &Bound<'py, PyAny>,
        stats: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let graph = self.owning.graph();
        let s = convert::endpoint(graph, self.name(), "start", convert::point(start, "start")?)?;
        let g = convert::endpoint(graph, self.name(), "goal", convert::point(goal, "goal")?)?;
        let mut searcher = self.take();
        let cost = py.detach(|| searcher.search_cost(s, g));
        let found = self.found(py, &searcher, cost.map(|c| (g, c)));
        let stats = stats.then(|| searcher.stats());
        self.give(searcher);
        Engine::with_stats(py, found?, stats)
    }

    /// The cost of a shortest path from `start` to `goal`; `inf` when
    /// there is none.
    fn cost(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: &Bound<'_, PyAny>,
    ) -> PyResult<f64> {
        let graph = self.owning.graph();
        let s = convert::endpoint(graph, self.name(), "start", convert::point(start, "start")?)?;
        let g = convert::endpoint(graph, self.name(), "goal", convert::point(goal, "goal")?)?;
        let mut searcher = self.take();
        let cost = py.detach(|| searcher.search_cost(s, g));
        self.give(searcher);
        Ok(cost_or_inf(cost))
    }

    /// The costs of many queries, `starts[i]` to `goals[i]` (`(N, 2)`
    /// arrays of `(x, y)`), as a float array (`inf`: no path), on
    /// `threads` threads (0: every core) with the GIL released, one
    /// searcher (and search memory) per thread. The answers are those of
    /// a serial run. With `stats=True`, `(costs, expanded)`.
    #[pyo3(signature = (starts, goals, threads = 1, stats = false))]
    fn costs<'py>(
        &self,
        py: Python<'py>,
        starts: &Bound<'py, PyAny>,
        goals: &Bound<'py, PyAny>,
        threads: usize,
        stats: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let graph = self.owning.graph();
        let starts = convert::points(starts, "starts")?;
        let goals = convert::points(goals, "goals")?;
        if starts.len() != goals.len() {
            return Err(PyValueError::new_err(format!(
                "{} starts but {} goals",
                starts.len(),
                goals.len()
            )));
        }
        let starts = convert::endpoints(graph, self.name(), "starts", &starts)?;
        let goals = convert::endpoints(graph, self.name(), "goals", &goals)?;
        let queries: Vec<(NodeId, NodeId)> = starts.into_iter().zip(goals).collect();
        let threads = thread_count(threads);
        let results = py.detach(|| batch(&queries, || self.take(), threads));
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
        &self,
        py: Python<'py>,
        sources: &Bound<'py, PyAny>,
        goals: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let graph = self.owning.graph();
        let sources = convert::points(sources, "sources")?;
        let goals = convert::points(goals, "goals")?;
        let sources = convert::endpoints(graph, self.name(), "sources", &sources)?;
        let goals = convert::endpoints(graph, self.name(), "goals", &goals)?;
        let mut searcher = self.take();
        let reached = py.detach(|| searcher.search_nearest(&sources, &goals));
        let found = self.found(py, &searcher, reached.map(|r| (r.goal, r.cost)));
        self.give(searcher);
        Engine::with_stats(py, found?, None)
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
