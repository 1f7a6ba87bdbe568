//! `Graph` and `GraphEngine`: weighted directed graphs (road networks)
//! from numpy edge arrays, a `scipy.sparse` matrix or a file, and the
//! library's graph searches on them ([`cairns::spec::GraphEngine`]).

use std::path::PathBuf;
use std::sync::Arc;

use cairns::graph::{CsrGraph, Graph as _, NodeId, read_graph_format};
use cairns::spec::{GraphEngine as Owning, GraphSearch};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::convert::{Reduced, asarray, dtype_kind, same_length};
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
/// (`Graph.read`: DIMACS, PACE or `a FROM TO WEIGHT` arcs). Weights are
/// finite and non-negative; parallel edges and self-loops are allowed.
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
    graph: Arc<CsrGraph>,
    /// The id the file gave node 0 (1 for DIMACS and PACE files).
    first_id: u32,
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
            graph: Arc::new(graph),
            first_id: 0,
        })
    }

    /// The edges as `(sources, targets, weights)` columns.
    fn columns(&self) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
        let g = &*self.graph;
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
    #[new]
    #[pyo3(signature = (nodes, sources, targets, weights))]
    fn new(
        nodes: usize, sources: &Bound<'_, PyAny>, targets: &Bound<'_, PyAny>,
        weights: &Bound<'_, PyAny>,
    ) -> PyResult<Graph> {
        Graph::from_columns(nodes, sources, targets, weights)
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
    /// nodes numbered from 0 in the order of their OSM ids). Node `i` here
    /// is the file's node `i + first_id` (DIMACS and PACE count from 1). A
    /// malformed file raises `ValueError` naming the file and line (for
    /// PBF, the blob and its byte).
    #[staticmethod]
    #[expect(
        clippy::needless_pass_by_value,
        reason = "pyo3 extracts arguments by value"
    )]
    fn read(py: Python<'_>, path: PathBuf) -> PyResult<Graph> {
        let (graph, format) = py
            .detach(|| read_graph_format(&path))
            .map_err(|e| to_py(&e))?;
        Ok(Graph {
            graph: Arc::new(graph),
            first_id: format.first_id(),
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.get();
        let (s, t, w) = me.columns();
        let args = (
            me.graph.node_count(),
            PyArray1::from_vec(py, s),
            PyArray1::from_vec(py, t),
            PyArray1::from_vec(py, w),
        );
        Ok((py.get_type::<Graph>().into_any(), args.into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "Graph({} nodes, {} edges)",
            self.graph.node_count(),
            self.graph.edge_count()
        )
    }

    /// The number of nodes.
    #[getter]
    fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    /// The number of edges.
    #[getter]
    fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// The id the file gave node 0: 1 for DIMACS and PACE files, 0 for arc
    /// lists and graphs made from arrays.
    #[getter]
    fn first_id(&self) -> u32 {
        self.first_id
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

/// A graph search (`"dijkstra"`, `"bidijkstra"`, `"alt:K"`, `"ch"`,
/// `"hl"`, `"astar/fastmap:K"`) on a graph, with
/// what it builds before its first query built here, without the GIL.
/// Queries take node ids; `costs` answers many on several threads without
/// the GIL. Pickles as its graph and search (the hierarchy is built again
/// when unpickled).
#[pyclass(module = "cairns_path", frozen)]
#[derive(Debug)]
pub struct GraphEngine {
    owning: Owning,
    graph: Py<Graph>,
}

impl GraphEngine {
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
        let csr = CsrGraph::clone(&graph.get().graph);
        let owning = py.detach(|| Owning::new(csr, search));
        Ok(GraphEngine {
            owning,
            graph: graph.unbind(),
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.get();
        let args = (me.graph.clone_ref(py), me.owning.search().to_string());
        Ok((
            py.get_type::<GraphEngine>().into_any(),
            args.into_pyobject(py)?,
        ))
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
}
