//! `Graph` and `GraphEngine`: weighted directed graphs (road networks)
//! from numpy edge arrays, a `scipy.sparse` matrix or a file, and the
//! library's graph searches on them ([`cairns::spec::GraphEngine`]).

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
use std::sync::Arc;

use cairns::graph::{CsrGraph, Graph as _, NodeId, read_coordinates, read_road_graph};
use cairns::spec::{Coordinates, GraphEngine as Owning, GraphSearch};
use numpy::{PyArray1, PyArray2, PyArrayMethods as _, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::convert::{Reduced, asarray, dtype_kind, load_saved, same_length};
use crate::errors::to_py;

/// Edge columns as numpy arrays: `(sources, targets, weights)`.
type EdgeArrays<'py> = (
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<f64>>,
);

/// A weighted directed graph with nodes `0 .. node_count`, copied once
/// from edge arrays (`Graph(n, sources, targets, weights)`), a
/// `scipy.sparse` matrix (`Graph.from_sparse`) or a road graph file
/// (`Graph.read`: DIMACS, PACE or `a FROM TO WEIGHT` arcs, OpenStreetMap
/// PBF). Weights are finite and non-negative; parallel edges and
/// self-loops are allowed. Where the nodes lie (`coordinates`: an
/// OpenStreetMap extract's longitudes and latitudes, a DIMACS `.co`
/// file's points, or an `(N, 2)` array given) is what `"astar"` takes for
/// its heuristic.
///
/// ```text
/// >>> import cairns_path as cp
/// >>> g = cp.Graph(4, [0, 0, 2, 1], [1, 2, 1, 3], [4.0, 1.0, 2.0, 1.0])
/// >>> g
/// Graph(4 nodes, 4 edges)
/// >>> engine = cp.GraphEngine(g, "ch")
/// >>> path, cost = engine.path(0, 3)
/// >>> path.tolist(), cost
/// ([0, 2, 1, 3], 4.0)
/// >>> engine.costs([0, 3], [3, 0]).tolist()
/// [4.0, inf]
///
/// ```
#[pyclass(module = "cairns_path", frozen)]
#[derive(Debug)]
pub struct Graph {
    csr: Arc<CsrGraph>,
    /// The id the file gave node 0 (1 for DIMACS and PACE files).
    first_id: u32,
    /// Where the nodes lie, one point a node, when known.
    places: Option<Arc<Coordinates>>,
}

/// Node places from an `(N, 2)` float array, one finite row a node of a
/// graph of `nodes` nodes; longitudes and latitudes when `lon_lat`.
fn places(obj: &Bound<'_, PyAny>, nodes: usize, lon_lat: bool) -> PyResult<Coordinates> {
    let array = asarray(obj)?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if shape != [nodes, 2] {
        return Err(PyValueError::new_err(format!(
            "coordinates must have shape ({nodes}, 2), one point a node, not {shape:?}"
        )));
    }
    let kind = dtype_kind(&array)?;
    if !"iuf".contains(kind.as_str()) {
        return Err(PyTypeError::new_err(format!(
            "coordinates must be numbers, not an array of dtype kind '{kind}'"
        )));
    }
    let array: PyReadonlyArray2<'_, f64> = array.call_method1("astype", ("float64",))?.extract()?;
    let mut points = Vec::with_capacity(nodes);
    for (i, row) in array.as_array().rows().into_iter().enumerate() {
        let p = [row[0], row[1]];
        if !p.iter().all(|c| c.is_finite())
            || (lon_lat && (p[0].abs() > 180.0 || p[1].abs() > 90.0))
        {
            let what = if lon_lat {
                "a longitude and latitude"
            } else {
                "a finite point"
            };
            return Err(PyValueError::new_err(format!(
                "coordinates[{i}] is {p:?}, not {what}"
            )));
        }
        points.push(p);
    }
    Ok(if lon_lat {
        Coordinates::LonLat(points)
    } else {
        Coordinates::Planar(points)
    })
}

/// A 1-D numpy array of `what`, converted to `dtype`; `kinds` are the
/// dtype kinds accepted.
fn column<T: numpy::Element + Copy>(
    obj: &Bound<'_, PyAny>, what: &str, kinds: &str, dtype: &str,
) -> PyResult<Vec<T>> {
    let array = asarray(obj)?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(PyValueError::new_err(format!(
            "{what} must be a 1-D array, not {ndim}-D"
        )));
    }
    let size: usize = array.getattr("size")?.extract()?;
    if size == 0 {
        return Ok(Vec::new());
    }
    let kind = dtype_kind(&array)?;
    if !kinds.contains(kind.as_str()) {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an array of dtype kind {kinds:?}, not '{kind}'"
        )));
    }
    let array: PyReadonlyArray1<'_, T> = array.call_method1("astype", (dtype,))?.extract()?;
    Ok(array.as_array().to_vec())
}

/// Node ids of `what`, each below `bound`; a negative or too large one
/// names its index.
fn ids(obj: &Bound<'_, PyAny>, what: &str, bound: usize) -> PyResult<Vec<NodeId>> {
    column::<i64>(obj, what, "iu", "int64")?
        .into_iter()
        .enumerate()
        .map(|(i, v)| match u32::try_from(v) {
            Ok(n) if (n as usize) < bound => Ok(NodeId(n)),
            _ => Err(PyValueError::new_err(format!(
                "{what}[{i}] is node {v}, outside the graph's nodes 0 to {}",
                bound.saturating_sub(1)
            ))),
        })
        .collect()
}

impl Graph {
    fn from_columns(
        nodes: usize, sources: &Bound<'_, PyAny>, targets: &Bound<'_, PyAny>,
        weights: &Bound<'_, PyAny>,
    ) -> PyResult<Graph> {
        let n = u32::try_from(nodes).map_err(|_| {
            PyValueError::new_err(format!("{nodes} nodes are more than a graph may have"))
        })?;
        let s = ids(sources, "sources", nodes)?;
        let t = ids(targets, "targets", nodes)?;
        let w = column::<f64>(weights, "weights", "iuf", "float64")?;
        same_length(s.len(), "sources", t.len(), "targets")?;
        same_length(s.len(), "sources", w.len(), "weights")?;
        let edges: Vec<(u32, u32, f64)> = s
            .iter()
            .zip(&t)
            .zip(&w)
            .map(|((s, t), &w)| (s.0, t.0, w))
            .collect();
        let graph = CsrGraph::from_edges(n, &edges).map_err(|e| to_py(&e))?;
        Ok(Graph {
            csr: Arc::new(graph),
            first_id: 0,
            places: None,
        })
    }

    /// The edges as `(sources, targets, weights)` columns.
    fn columns(&self) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
        let g = &*self.csr;
        let (mut s, mut t, mut w) = (Vec::new(), Vec::new(), Vec::new());
        for u in 0..g.node_count() as u32 {
            for (v, c) in g.successors(NodeId(u)) {
                s.push(u);
                t.push(v.0);
                w.push(c);
            }
        }
        (s, t, w)
    }
}

#[pymethods]
impl Graph {
    /// `coordinates`, an `(N, 2)` array, places the nodes (longitudes and
    /// latitudes in degrees when `lon_lat`); `first_id` is the id node 0
    /// has in the caller's numbering (kept, not used by the searches).
    #[new]
    #[pyo3(signature = (nodes, sources, targets, weights, *, coordinates = None, lon_lat = false, first_id = 0))]
    fn new(
        nodes: usize, sources: &Bound<'_, PyAny>, targets: &Bound<'_, PyAny>,
        weights: &Bound<'_, PyAny>, coordinates: Option<&Bound<'_, PyAny>>, lon_lat: bool,
        first_id: u32,
    ) -> PyResult<Graph> {
        let mut graph = Graph::from_columns(nodes, sources, targets, weights)?;
        graph.first_id = first_id;
        if let Some(c) = coordinates {
            graph.places = Some(Arc::new(places(c, nodes, lon_lat)?));
        }
        Ok(graph)
    }

    /// A graph from a square `scipy.sparse` matrix: entry `(i, j)` is an
    /// edge `i -> j` of that weight (as `scipy.sparse.csgraph` reads it;
    /// explicit zeros are zero-weight edges).
    #[staticmethod]
    fn from_sparse(matrix: &Bound<'_, PyAny>) -> PyResult<Graph> {
        let shape: (usize, usize) = matrix.getattr("shape")?.extract()?;
        if shape.0 != shape.1 {
            return Err(PyValueError::new_err(format!(
                "an adjacency matrix must be square, not {}x{}",
                shape.0, shape.1
            )));
        }
        let coo = matrix.call_method0("tocoo")?;
        Graph::from_columns(
            shape.0,
            &coo.getattr("row")?,
            &coo.getattr("col")?,
            &coo.getattr("data")?,
        )
    }

    /// A road graph file (DIMACS `.gr`, PACE `.gr` with unit weights, or
    /// `a FROM TO WEIGHT` arcs, told by its content; or an OpenStreetMap
    /// PBF extract, `.osm.pbf`, read with the library's car profile, its
    /// nodes numbered from 0 in the order of their OSM ids, with their
    /// longitudes and latitudes). Node `i` here is the file's node
    /// `i + first_id` (DIMACS and PACE count from 1). `coordinates` names
    /// a DIMACS `.co` file (`v ID X Y`) that places the nodes. A
    /// malformed file raises `ValueError` naming the file and line (for
    /// PBF, the blob and its byte).
    #[staticmethod]
    #[pyo3(signature = (path, coordinates = None))]
    #[expect(
        clippy::needless_pass_by_value,
        reason = "pyo3 extracts arguments by value"
    )]
    fn read(py: Python<'_>, path: PathBuf, coordinates: Option<PathBuf>) -> PyResult<Graph> {
        let (file, co) = py
            .detach(|| {
                let file = read_road_graph(&path)?;
                let co = match &coordinates {
                    Some(co) => Some(read_coordinates(co, file.graph.node_count())?),
                    None => None,
                };
                Ok::<_, cairns::graph::ParseError>((file, co))
            })
            .map_err(|e| to_py(&e))?;
        let places = match (co, file.lon_lat) {
            (Some(points), _) => Some(Coordinates::Planar(points)),
            (None, Some(points)) => Some(Coordinates::LonLat(points)),
            (None, None) => None,
        };
        Ok(Graph {
            csr: Arc::new(file.graph),
            first_id: file.format.first_id(),
            places: places.map(Arc::new),
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.get();
        let (s, t, w) = me.columns();
        let args = (
            me.csr.node_count(),
            PyArray1::from_vec(py, s),
            PyArray1::from_vec(py, t),
            PyArray1::from_vec(py, w),
        );
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("coordinates", me.coordinates(py)?)?;
        kwargs.set_item("lon_lat", me.lon_lat())?;
        kwargs.set_item("first_id", me.first_id)?;
        // `Graph` takes its places by keyword: `functools.partial` carries them.
        let partial = py
            .import("functools")?
            .getattr("partial")?
            .call((py.get_type::<Graph>(),), Some(&kwargs))?;
        Ok((partial, args.into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "Graph({} nodes, {} edges)",
            self.csr.node_count(),
            self.csr.edge_count()
        )
    }

    /// The number of nodes.
    #[getter]
    fn node_count(&self) -> usize {
        self.csr.node_count()
    }

    /// The number of edges.
    #[getter]
    fn edge_count(&self) -> usize {
        self.csr.edge_count()
    }

    /// The id the file gave node 0: 1 for DIMACS and PACE files, 0 for arc
    /// lists and graphs made from arrays.
    #[getter]
    fn first_id(&self) -> u32 {
        self.first_id
    }

    /// Where the nodes lie, an `(N, 2)` float array (`[longitude,
    /// latitude]` rows when `lon_lat`), or `None` when the graph was given
    /// no places.
    #[getter]
    fn coordinates<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<f64>>>> {
        let Some(places) = &self.places else {
            return Ok(None);
        };
        let points = places.points();
        let flat: Vec<f64> = points.iter().flatten().copied().collect();
        Ok(Some(
            PyArray1::from_vec(py, flat).reshape([points.len(), 2])?,
        ))
    }

    /// Whether `coordinates` are longitudes and latitudes (an
    /// OpenStreetMap extract's) rather than points of a plane.
    #[getter]
    fn lon_lat(&self) -> bool {
        matches!(self.places.as_deref(), Some(Coordinates::LonLat(_)))
    }

    /// The edges as `(sources, targets, weights)` arrays.
    fn edges<'py>(&self, py: Python<'py>) -> EdgeArrays<'py> {
        let (s, t, w) = self.columns();
        (
            PyArray1::from_vec(py, s),
            PyArray1::from_vec(py, t),
            PyArray1::from_vec(py, w),
        )
    }
}

/// A graph search (`"dijkstra"`, `"astar"`, `"bidijkstra"`, `"alt:K"`,
/// `"ch"`, `"hl"`, `"astar/fastmap:K"`) on a graph, with what it builds
/// before its first query built here, without the GIL. `"astar"` takes
/// the graph's `coordinates` for its heuristic (without them it searches
/// as Dijkstra does). Queries take node ids; `costs` answers many on
/// several threads and `matrix` many sources to many targets, without the
/// GIL. The table of `ch`, `hl` and `alt:K` saves to a file (`save`) or
/// bytes (`to_bytes`), the `cairns graph build` format, and loads back
/// with `GraphEngine.load`; an engine pickles as its graph and that
/// table, so a worker that unpickles one does not build it again.
#[pyclass(module = "cairns_path", frozen)]
#[derive(Debug)]
pub struct GraphEngine {
    owning: Owning,
    graph: Py<Graph>,
}

/// Loads the table `table` (the bytes of a saved one, or a file's path)
/// for `graph`; the message names the file or `table`.
fn load_engine(py: Python<'_>, graph: &Graph, table: &Bound<'_, PyAny>) -> PyResult<Owning> {
    let csr = CsrGraph::clone(&graph.csr);
    load_saved(py, table, "table", |r| Owning::load(csr, r))
}

impl GraphEngine {
    /// The saved form of the engine's table, or `ValueError` saying why
    /// the search has none.
    fn saved(&self) -> PyResult<Vec<u8>> {
        let mut bytes = Vec::new();
        self.owning
            .save(&mut bytes)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(bytes)
    }

    /// `node` checked against the graph's nodes.
    fn node(&self, node: i64, what: &str) -> PyResult<NodeId> {
        let n = self.owning.graph().node_count();
        match u32::try_from(node) {
            Ok(v) if (v as usize) < n => Ok(NodeId(v)),
            _ => Err(PyValueError::new_err(format!(
                "{what} {node} is outside the graph's nodes 0 to {}",
                n.saturating_sub(1)
            ))),
        }
    }
}

#[pymethods]
impl GraphEngine {
    #[new]
    #[pyo3(signature = (graph, search = "ch"))]
    fn new(py: Python<'_>, graph: Bound<'_, Graph>, search: &str) -> PyResult<GraphEngine> {
        let search: GraphSearch = search.parse().map_err(|e| to_py(&e))?;
        let g = graph.get();
        let csr = CsrGraph::clone(&g.csr);
        let owning = match (&g.places, search) {
            (Some(places), GraphSearch::Astar) => py
                .detach(|| Owning::with_coordinates(csr, places, search))
                .map_err(|e| to_py(&e))?,
            _ => py.detach(|| Owning::new(csr, search)),
        };
        Ok(GraphEngine {
            owning,
            graph: graph.unbind(),
        })
    }

    /// The engine of the table `table` saved for `graph` (`save`,
    /// `to_bytes` or `cairns graph build`): the bytes of one, or a file's
    /// path. The search is the table's (`ch`, `hl` or `alt:K`). A table of
    /// another graph, or a damaged one, raises `ValueError` naming what is
    /// wrong; a file that cannot be opened, `OSError`.
    #[staticmethod]
    fn load(
        py: Python<'_>, graph: Bound<'_, Graph>, table: &Bound<'_, PyAny>,
    ) -> PyResult<GraphEngine> {
        let owning = load_engine(py, graph.get(), table)?;
        Ok(GraphEngine {
            owning,
            graph: graph.unbind(),
        })
    }

    /// Writes the engine's table to `path` in the saved format that
    /// `GraphEngine.load` and `cairns graph ... --table` read. A search
    /// that builds no table (`dijkstra`, `astar`, `bidijkstra`) or one not
    /// saved (`astar/fastmap:K`, rebuilt in a few Dijkstra searches)
    /// raises `ValueError`.
    #[expect(
        clippy::needless_pass_by_value,
        reason = "pyo3 extracts arguments by value"
    )]
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let bytes = self.saved()?;
        py.detach(|| {
            let mut w = BufWriter::new(File::create(&path)?);
            w.write_all(&bytes)?;
            w.flush()
        })
        .map_err(|e| {
            PyErr::from(std::io::Error::new(
                e.kind(),
                format!("{}: cannot write the table: {e}", path.display()),
            ))
        })
    }

    /// The engine's table in its saved format, as bytes (what `save`
    /// writes).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.saved()?))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.get();
        let graph = me.graph.clone_ref(py).into_bound(py).into_any();
        let ty = py.get_type::<GraphEngine>();
        if me.owning.table_kind().is_some() {
            let table = PyBytes::new(py, &me.saved()?).into_any();
            return Ok((ty.getattr("load")?, PyTuple::new(py, [graph, table])?));
        }
        let search = me.owning.search().to_string().into_pyobject(py)?.into_any();
        Ok((ty.into_any(), PyTuple::new(py, [graph, search])?))
    }

    fn __repr__(&self) -> String {
        format!(
            "GraphEngine({}, {} nodes, {} edges)",
            self.owning.search(),
            self.owning.graph().node_count(),
            self.owning.graph().edge_count()
        )
    }

    /// The search, as it parses (`"alt:16"`).
    #[getter]
    fn search(&self) -> String {
        self.owning.search().to_string()
    }

    /// The graph searched.
    #[getter]
    fn graph(&self, py: Python<'_>) -> Py<Graph> {
        self.graph.clone_ref(py)
    }

    /// The seconds spent building before the first query.
    #[getter]
    fn preprocess_s(&self) -> f64 {
        self.owning.preprocess_s()
    }

    /// The bytes of what was built (0 for a search that builds nothing).
    #[getter]
    fn table_bytes(&self) -> usize {
        self.owning.table_bytes()
    }

    /// Whether the table was loaded (`GraphEngine.load`, or unpickled)
    /// rather than built here; `preprocess_s` is then the load's seconds.
    #[getter]
    fn loaded(&self) -> bool {
        self.owning.is_loaded()
    }

    /// The cost of a shortest path from `start` to `goal` (node ids);
    /// `inf` when there is none.
    fn cost(&self, py: Python<'_>, start: i64, goal: i64) -> PyResult<f64> {
        let (s, g) = (self.node(start, "start")?, self.node(goal, "goal")?);
        let cost = py.detach(|| self.owning.with_cache(|c| self.owning.cost(s, g, c)));
        Ok(cost.unwrap_or(f64::INFINITY))
    }

    /// A shortest path from `start` to `goal`: `(path, cost)`, the path a
    /// `uint32` array of node ids from start to goal, or an empty array and
    /// `inf` when there is none.
    fn path<'py>(
        &self, py: Python<'py>, start: i64, goal: i64,
    ) -> PyResult<(Bound<'py, PyArray1<u32>>, f64)> {
        let (s, g) = (self.node(start, "start")?, self.node(goal, "goal")?);
        let found = py.detach(|| self.owning.with_cache(|c| self.owning.path(s, g, c)));
        Ok(match found {
            Some(p) => (
                PyArray1::from_vec(py, p.nodes.iter().map(|n| n.0).collect()),
                p.cost,
            ),
            None => (PyArray1::from_vec(py, Vec::new()), f64::INFINITY),
        })
    }

    /// The costs of many queries, `starts[i]` to `goals[i]` (1-D arrays of
    /// node ids), as a float array (`inf`: no path), on `threads` threads
    /// (0: every core) with the GIL released, one cache per thread.
    #[pyo3(signature = (starts, goals, threads = 1))]
    fn costs<'py>(
        &self, py: Python<'py>, starts: &Bound<'py, PyAny>, goals: &Bound<'py, PyAny>,
        threads: usize,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let n = self.owning.graph().node_count();
        let starts = ids(starts, "starts", n)?;
        let goals = ids(goals, "goals", n)?;
        same_length(starts.len(), "starts", goals.len(), "goals")?;
        let threads = crate::engine::thread_count(threads);
        let mut out = vec![f64::INFINITY; starts.len()];
        py.detach(|| {
            let chunk = starts.len().div_ceil(threads.max(1)).max(1);
            std::thread::scope(|scope| {
                for (i, part) in out.chunks_mut(chunk).enumerate() {
                    let (starts, goals) = (&starts[i * chunk..], &goals[i * chunk..]);
                    scope.spawn(move || {
                        let mut cache = self.owning.cache();
                        for (k, slot) in part.iter_mut().enumerate() {
                            let cost = self.owning.cost(starts[k], goals[k], &mut cache);
                            *slot = cost.unwrap_or(f64::INFINITY);
                        }
                    });
                }
            });
        });
        Ok(PyArray1::from_vec(py, out))
    }

    /// The costs from each of `sources` to each of `targets` (1-D arrays
    /// of node ids) as a `(len(sources), len(targets))` float array
    /// (`inf`: no path), without the GIL: for `ch` the hierarchy's bucket
    /// method and for `hl` label merges, both on every core; one query a
    /// pair on this thread for the other searches.
    fn matrix<'py>(
        &self, py: Python<'py>, sources: &Bound<'py, PyAny>, targets: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let n = self.owning.graph().node_count();
        let sources = ids(sources, "sources", n)?;
        let targets = ids(targets, "targets", n)?;
        let (rows, cols) = (sources.len(), targets.len());
        let m = py.detach(|| self.owning.matrix(&sources, &targets));
        PyArray1::from_vec(py, m.into_vec()).reshape([rows, cols])
    }
}
