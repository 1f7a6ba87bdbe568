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
    py: Python<'_>,
    path: PathBuf,
    movement: Option<&Bound<'_, PyAny>>,
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
    d.set_item(
        "line",
        PyArray1::from_vec(py, s.iter().map(|s| s.line as u64).collect()),
    )?;
    d.set_item(
        "bucket",
        PyArray1::from_vec(py, s.iter().map(|s| s.bucket).collect()),
    )?;
    d.set_item("map", s.iter().map(|s| s.map.clone()).collect::<Vec<_>>())?;
    d.set_item(
        "map_width",
        PyArray1::from_vec(py, s.iter().map(|s| s.map_width).collect()),
    )?;
    d.set_item(
        "map_height",
        PyArray1::from_vec(py, s.iter().map(|s| s.map_height).collect()),
    )?;
    d.set_item("start", xy_array(py, s.iter().map(|s| s.start))?)?;
    d.set_item("goal", xy_array(py, s.iter().map(|s| s.goal))?)?;
    d.set_item(
        "optimal",
        PyArray1::from_vec(py, s.iter().map(|s| s.optimal).collect()),
    )?;
    Ok(d)
}

/// Runs every `every`-th scenario of a `.scen` file with `spec` on
/// `threads` threads (0: every core), its map read from `map` or found
/// beside the file (`NAME.map.scen` next to `NAME.map`), and checks each
/// cost against the published length (`reference="published"`) or a
/// Dijkstra search (`"dijkstra"`, for files whose lengths are wrong).
/// Returns a dict: `name`, `queries`, `mismatches` (one message per query
/// whose cost is wrong, as `cairns scen` prints them), `data_errors` (the
/// scenarios that do not fit the map), the columns `line`, `start`,
/// `goal`, `optimal`, `cost` (`inf`: no path), `expanded` and `seconds`
/// (per query), and `total_s`.
#[expect(
    clippy::needless_pass_by_value,
    reason = "pyo3 hands arguments over as owned values"
)]
#[pyfunction]
#[pyo3(signature = (scen, spec = "astar", map = None, every = 1, threads = 1, reference = "published"))]
pub fn run_scen<'py>(
    py: Python<'py>,
    scen: PathBuf,
    spec: &str,
    map: Option<PathBuf>,
    every: usize,
    threads: usize,
    reference: &str,
) -> PyResult<Bound<'py, PyDict>> {
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
    let (instance, summary, resolved) = py.detach(|| -> PyResult<_> {
        let instance =
            Instance::load(&scen, map.as_deref(), every).map_err(|e| instance_to_py(&e))?;
        let engine = Engine::new(instance.graph.clone(), &spec).map_err(|e| to_py(&e))?;
        let summary = runner::run_threads(&instance, || engine.searcher(), reference, threads);
        Ok((instance, summary, engine.spec().to_string()))
    })?;
    let q = &instance.queries;
    let d = PyDict::new(py);
    d.set_item("name", &instance.name)?;
    d.set_item("scen_path", instance.scen_path.display().to_string())?;
    d.set_item("map_path", instance.map_path.display().to_string())?;
    d.set_item("spec", resolved)?;
    d.set_item("queries", summary.queries)?;
    d.set_item("mismatches", lines(&summary.mismatches))?;
    d.set_item("data_errors", lines(&instance.data_errors))?;
    d.set_item(
        "line",
        PyArray1::from_vec(py, q.iter().map(|q| q.line as u64).collect()),
    )?;
    d.set_item("start", xy_array(py, q.iter().map(|q| q.start_xy))?)?;
    d.set_item("goal", xy_array(py, q.iter().map(|q| q.goal_xy))?)?;
    d.set_item(
        "optimal",
        PyArray1::from_vec(py, q.iter().map(|q| q.optimal).collect()),
    )?;
    d.set_item(
        "cost",
        PyArray1::from_vec(
            py,
            summary
                .costs
                .iter()
                .map(|c| c.unwrap_or(f64::INFINITY))
                .collect(),
        ),
    )?;
    d.set_item(
        "expanded",
        PyArray1::from_vec(py, summary.expansions.clone()),
    )?;
    d.set_item("seconds", PyArray1::from_vec(py, summary.times.clone()))?;
    d.set_item("total_s", summary.total_s)?;
    Ok(d)
}

/// Each of `items` as its message.
fn lines<T: ToString>(items: &[T]) -> Vec<String> {
    items.iter().map(ToString::to_string).collect()
}
