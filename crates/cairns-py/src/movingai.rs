//! Moving AI `.map` and `.scen` files, and whole scenario runs with every
//! cost checked ([`cairns::movingai::runner`]).

use std::path::PathBuf;

use cairns::grid::{GridGraph, Neighborhood};
use cairns::movingai::runner::{self, Instance, Reference};
use cairns::spec::{Engine, SearchSpec};
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{neighborhood, xy_array};
use crate::errors::{instance_to_py, to_py};
use crate::grid::Grid;

fn rule(movement: Option<&Bound<'_, PyAny>>) -> PyResult<Neighborhood> {
    movement.map_or(Ok(Neighborhood::Octile), neighborhood)
}

/// Reads a Moving AI `.map` file into a [`Grid`]. Raises `OSError` when
/// the file cannot be read and `ValueError` naming the file and line when
/// it is malformed.
#[expect(
    clippy::needless_pass_by_value,
    reason = "pyo3 hands arguments over as owned values"
)]
#[pyfunction]
#[pyo3(signature = (path, movement = None))]
pub fn read_map(
    py: Python<'_>, path: PathBuf, movement: Option<&Bound<'_, PyAny>>,
) -> PyResult<Grid> {
    let rule = rule(movement)?;
    let tiles = py
        .detach(|| cairns::movingai::read_map(&path))
        .map_err(|e| to_py(&e))?;
    Ok(Grid::from_graph(
        GridGraph::new(tiles, rule),
        path.display().to_string(),
    ))
}

/// Parses the text of a Moving AI `.map` file into a [`Grid`].
#[pyfunction]
#[pyo3(signature = (text, movement = None))]
pub fn parse_map(text: &str, movement: Option<&Bound<'_, PyAny>>) -> PyResult<Grid> {
    let rule = rule(movement)?;
    let tiles = cairns::movingai::parse_map(text).map_err(|e| to_py(&e))?;
    Ok(Grid::from_graph(
        GridGraph::new(tiles, rule),
        "the map".to_owned(),
    ))
}

/// Reads a Moving AI `.scen` file (either dialect) as a dict of columns:
/// `line`, `bucket`, `map`, `map_width`, `map_height`, `start` and `goal`
/// (`(N, 2)` arrays of `(x, y)`), `optimal` (the published lengths), and
/// `version`.
#[expect(
    clippy::needless_pass_by_value,
    reason = "pyo3 hands arguments over as owned values"
)]
#[pyfunction]
pub fn read_scen(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyDict>> {
    let file = py
        .detach(|| cairns::movingai::read_scen(&path))
        .map_err(|e| to_py(&e))?;
    let s = &file.scenarios;
    let d = PyDict::new(py);
    d.set_item("version", file.version.as_str())?;
    column(&d, "bucket", s.iter().map(|s| s.bucket).collect())?;
    d.set_item("map", s.iter().map(|s| s.map.clone()).collect::<Vec<_>>())?;
    column(&d, "map_width", s.iter().map(|s| s.map_width).collect())?;
    column(&d, "map_height", s.iter().map(|s| s.map_height).collect())?;
    let queries = s.iter().map(|s| (s.line, s.start, s.goal, s.optimal));
    query_columns(&d, queries)?;
    Ok(d)
}

/// Runs every `every`-th scenario of a `.scen` file with `spec` on
/// `threads` threads (0: every core), its map read from `map` or found
/// beside the file (`NAME.map.scen` next to `NAME.map`), and checks each
/// cost against the published length (`reference="published"`) or a
/// Dijkstra search (`"dijkstra"`, for files whose lengths are wrong).
/// `movement` is the rule the map is searched under (`"octile"`, `"4"`
/// or `"octile-cut"`, as for `Grid`); the published lengths are octile
/// ones, so under another rule every cost is checked against Dijkstra.
/// Returns a dict: `name`, `queries`, `mismatches` (one message per query
/// whose cost is wrong, as `cairns scen` prints them), `data_errors` (the
/// scenarios that do not fit the map), the columns `line`, `start`,
/// `goal`, `optimal`, `cost` (`inf`: no path), `expanded` and `seconds`
/// (per query), and `total_s`.
#[expect(
    clippy::needless_pass_by_value,
    clippy::too_many_arguments,
    reason = "pyo3 hands arguments over as owned values, one a keyword of the Python function"
)]
#[pyfunction]
#[pyo3(signature = (scen, spec = "astar", map = None, every = 1, threads = 1, reference = "published", movement = None, size = 1))]
pub fn run_scen<'py>(
    py: Python<'py>, scen: PathBuf, spec: &str, map: Option<PathBuf>, every: usize, threads: usize,
    reference: &str, movement: Option<&Bound<'py, PyAny>>, size: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let movement = rule(movement)?;
    let spec: SearchSpec = spec.parse().map_err(|e| to_py(&e))?;
    let reference = match reference {
        "published" => Reference::Published,
        "dijkstra" => Reference::Dijkstra,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown reference {other:?} (expected \"published\" or \"dijkstra\")"
            )));
        }
    };
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        threads
    };
    let (instance, summary, resolved, reference) = py.detach(|| -> PyResult<_> {
        let instance = Instance::load(&scen, map.as_deref(), every)
            .map_err(|e| instance_to_py(&e))?
            .under(movement)
            .for_size(size)
            .map_err(|e| to_py(&e))?;
        let reference = instance.reference(reference);
        let engine = Engine::new(instance.graph.clone(), &spec).map_err(|e| to_py(&e))?;
        let summary = runner::run_threads(&instance, || engine.searcher(), reference, threads);
        Ok((instance, summary, engine.spec().to_string(), reference))
    })?;
    let q = &instance.queries;
    let d = PyDict::new(py);
    d.set_item("name", &instance.name)?;
    d.set_item("scen_path", instance.scen_path.display().to_string())?;
    d.set_item("map_path", instance.map_path.display().to_string())?;
    d.set_item("spec", resolved)?;
    d.set_item("movement", movement.token())?;
    d.set_item("size", size)?;
    d.set_item("reference", reference.name())?;
    d.set_item("queries", summary.queries)?;
    d.set_item("mismatches", lines(&summary.mismatches))?;
    d.set_item("data_errors", lines(&instance.data_errors))?;
    query_columns(
        &d,
        q.iter().map(|q| (q.line, q.start_xy, q.goal_xy, q.optimal)),
    )?;
    let costs = summary.costs.iter().map(|c| c.unwrap_or(f64::INFINITY));
    column(&d, "cost", costs.collect())?;
    column(&d, "expanded", summary.expansions.clone())?;
    column(&d, "seconds", summary.times.clone())?;
    d.set_item("total_s", summary.total_s)?;
    Ok(d)
}

/// Each of `items` as its message.
fn lines<T: ToString>(items: &[T]) -> Vec<String> {
    items.iter().map(ToString::to_string).collect()
}

/// Sets `name` in `d` to a numpy array of `values`.
fn column<T: numpy::Element>(d: &Bound<'_, PyDict>, name: &str, values: Vec<T>) -> PyResult<()> {
    d.set_item(name, PyArray1::from_vec(d.py(), values))
}

/// The columns every scenario table has, from each query's line, start,
/// goal and published optimal length: `line`, `start` and `goal` (`(N, 2)`
/// arrays of `(x, y)`) and `optimal`.
fn query_columns(
    d: &Bound<'_, PyDict>,
    queries: impl ExactSizeIterator<Item = (usize, (u32, u32), (u32, u32), f64)> + Clone,
) -> PyResult<()> {
    let py = d.py();
    column(d, "line", queries.clone().map(|q| q.0 as u64).collect())?;
    d.set_item("start", xy_array(py, queries.clone().map(|q| q.1))?)?;
    d.set_item("goal", xy_array(py, queries.clone().map(|q| q.2))?)?;
    column(d, "optimal", queries.map(|q| q.3).collect())
}
