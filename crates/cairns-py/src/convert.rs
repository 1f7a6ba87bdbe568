//! Numpy arrays and Python values in and out: points, point lists,
//! movement names, saved tables given as bytes or files.

use std::error::Error;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;

use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Neighborhood};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::prefixed;

/// What a class's `__reduce__` returns for pickling: the callable that
/// unpickling calls (the class, or a constructor of its state) and its
/// arguments.
pub type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, pyo3::types::PyTuple>);

/// A saved table given to a constructor or a loader: the bytes of one
/// (`what` names them in errors) or a file's path, read by `load` (a
/// file's without the GIL). A file that cannot be opened raises `OSError`
/// "`PATH: cannot open the table file: ...`"; a table `load` refuses,
/// "`NAME: cannot load the table: ...`" (as the CLI's `--table FILE`).
pub fn load_saved<T: Send, E: Error + Send + 'static>(
    py: Python<'_>, table: &Bound<'_, PyAny>, what: &str,
    load: impl FnOnce(&mut dyn Read) -> Result<T, E> + Send,
) -> PyResult<T> {
    let (name, loaded) = if let Ok(bytes) = table.cast::<PyBytes>() {
        (what.to_string(), load(&mut bytes.as_bytes()))
    } else {
        let path: PathBuf = table.extract()?;
        let name = path.display().to_string();
        let file = File::open(&path).map_err(|e| {
            PyErr::from(io::Error::new(
                e.kind(),
                format!("{name}: cannot open the table file: {e}"),
            ))
        })?;
        let loaded = py.detach(|| load(&mut BufReader::new(file)));
        (name, loaded)
    };
    loaded.map_err(|e| prefixed(&format!("{name}: cannot load the table"), &e))
}

/// The movement rule named `movement`: any name the library reads
/// ([`Neighborhood::names`]: `"octile"` (or `8`), `"4"` (or `4`, `"four"`),
/// `"octile-cut"` (or `"8-cut"`, `"corner-cutting"`), octile with corner
/// cutting), the same names as the command line's `--neighborhood`.
pub fn neighborhood(movement: &Bound<'_, PyAny>) -> PyResult<Neighborhood> {
    let name: String = if let Ok(n) = movement.extract::<i64>() {
        n.to_string()
    } else if let Ok(s) = movement.extract::<String>() {
        s
    } else {
        return Err(PyTypeError::new_err(
            "movement must be \"octile\", \"4\", \"octile-cut\", \"octile-squeeze\", 8 or 4",
        ));
    };
    name.parse::<Neighborhood>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The name of a movement rule, as [`neighborhood`] reads it: the
/// library's canonical name.
pub fn movement_name(n: Neighborhood) -> &'static str {
    n.token()
}

/// `obj` as a numpy array (`numpy.asarray`).
pub fn asarray<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let np = obj.py().import("numpy")?;
    np.call_method1("asarray", (obj,))
}

/// The dtype kind of a numpy array (`b`, `i`, `u`, `f`...).
pub fn dtype_kind(array: &Bound<'_, PyAny>) -> PyResult<String> {
    array.getattr("dtype")?.getattr("kind")?.extract()
}

/// Points `(x, y)` from an `(N, 2)` integer array (or anything numpy turns
/// into one; an empty sequence is no points). `what` names the argument in
/// errors.
pub fn points(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<(i64, i64)>> {
    let array = asarray(obj)?;
    let size: usize = array.getattr("size")?.extract()?;
    if size == 0 {
        return Ok(Vec::new());
    }
    let kind = dtype_kind(&array)?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "{what} must be integer (x, y) points, not an array of dtype kind '{kind}'"
        )));
    }
    let array = array.call_method1("astype", ("int64",))?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if ndim == 1 && shape == [2] {
        let p: (i64, i64) = array.call_method0("tolist")?.extract()?;
        return Ok(vec![p]);
    }
    if ndim != 2 || shape[1] != 2 {
        return Err(PyValueError::new_err(format!(
            "{what} must have shape (N, 2), one (x, y) per row, not {shape:?}"
        )));
    }
    let array: PyReadonlyArray2<'_, i64> = array.extract()?;
    Ok(array
        .as_array()
        .rows()
        .into_iter()
        .map(|r| (r[0], r[1]))
        .collect())
}

/// One point `(x, y)`.
pub fn point(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(i64, i64)> {
    obj.extract::<(i64, i64)>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be an (x, y) pair of integers")))
}

/// The node of `(x, y)` on `graph`, refused as the CLI refuses it
/// ([`GridGraph::endpoint`]). `name` names the map in the message.
pub fn endpoint(graph: &GridGraph, name: &str, what: &str, (x, y): (i64, i64)) -> PyResult<NodeId> {
    graph
        .endpoint(x, y)
        .map_err(|e| PyValueError::new_err(e.describe(what, name)))
}

/// The nodes of `points`, each checked by [`endpoint`]; a refused one
/// names its row (`what[3]`).
pub fn endpoints(
    graph: &GridGraph, name: &str, what: &str, points: &[(i64, i64)],
) -> PyResult<Vec<NodeId>> {
    points
        .iter()
        .enumerate()
        .map(|(i, &p)| endpoint(graph, name, &format!("{what}[{i}]"), p))
        .collect()
}

/// Checks that two arrays given together have one length:
/// `ValueError` "`{a} {what_a} but {b} {what_b}`" when they do not.
pub fn same_length(a: usize, what_a: &str, b: usize, what_b: &str) -> PyResult<()> {
    if a == b {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{a} {what_a} but {b} {what_b}"
        )))
    }
}

/// A path of nodes as an `(N, 2)` array of `(x, y)` rows.
pub fn path_array<'py>(
    py: Python<'py>, graph: &GridGraph, nodes: &[NodeId],
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let flat: Vec<i64> = nodes
        .iter()
        .flat_map(|&n| {
            let (x, y) = graph.coords(n);
            [i64::from(x), i64::from(y)]
        })
        .collect();
    PyArray1::from_vec(py, flat).reshape([nodes.len(), 2])
}

/// `(x, y)` points as an `(N, 2)` array.
pub fn xy_array(
    py: Python<'_>, points: impl ExactSizeIterator<Item = (u32, u32)>,
) -> PyResult<Bound<'_, PyArray2<i64>>> {
    let n = points.len();
    let flat: Vec<i64> = points
        .flat_map(|(x, y)| [i64::from(x), i64::from(y)])
        .collect();
    PyArray1::from_vec(py, flat).reshape([n, 2])
}
