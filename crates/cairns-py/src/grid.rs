//! `Grid`: a map under a movement rule, from numpy or a Moving AI file.

use cairns::graph::NodeId;
use cairns::grid::{Grid as Tiles, GridGraph, Neighborhood};
use cairns::search::{DistanceField, SearchCache};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::convert::{self, Reduced, asarray, dtype_kind, movement_name, neighborhood};
use crate::errors::to_py;

/// A grid map under a movement rule: walls (and optionally a cost per
/// cell), copied once from a numpy array or read from a Moving AI `.map`
/// file. Arrays are indexed `[y, x]` (row `y`, column `x`), points are
/// `(x, y)` as in the Moving AI files and the `cairns` command.
///
/// ```text
/// >>> import numpy as np, cairns_path as cp
/// >>> walls = np.zeros((3, 5), dtype=bool)
/// >>> walls[:2, 2] = True                    # a wall with a gap at the bottom
/// >>> grid = cp.Grid(walls)
/// >>> grid
/// Grid(5x3, movement="octile", the grid)
/// >>> distance, step = grid.field([(4, 0)])  # the flow field to (4, 0)
/// >>> distance[2].round(2).tolist(), step[2, 0].tolist()
/// ([5.41, 4.41, 3.41, 2.41, 2.0], [1, 2])
///
/// ```
#[pyclass(module = "cairns_path", frozen)]
#[derive(Debug)]
pub struct Grid {
    pub graph: GridGraph,
    /// What error messages call the map: its file, or "the grid".
    pub name: String,
}

impl Grid {
    pub fn from_graph(graph: GridGraph, name: String) -> Grid {
        Grid { graph, name }
    }
}

/// A distance field and its flow field, as [`Grid::field`] returns them.
type Field<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray3<i64>>);

/// The `(height, width)` of a 2-D array as `u32`s, refusing what cairns
/// cannot hold.
fn dims(shape: &[usize]) -> PyResult<(u32, u32)> {
    let [h, w] = shape else {
        return Err(PyValueError::new_err(format!(
            "a grid must be a 2-D array indexed [y, x], not of shape {shape:?}"
        )));
    };
    // Checked before the cells are copied: a broadcast view of a huge
    // shape costs numpy nothing, but its copy would exhaust the memory.
    Tiles::check_size(*w as u64, *h as u64).map_err(|e| to_py(&e))?;
    Ok((*h as u32, *w as u32))
}

fn tiles_of(width: u32, height: u32, walls: impl Iterator<Item = bool>) -> PyResult<Tiles> {
    Tiles::from_walls(width, height, walls).map_err(|e| to_py(&e))
}

#[pymethods]
impl Grid {
    /// A grid from a 2-D array indexed `[y, x]`: booleans (`True` is a
    /// wall) or numbers, each cell's terrain cost (`inf` is a wall; a move
    /// costs its length times the mean cost of its two cells). `movement`
    /// is `"octile"` (8 moves, no corner cutting), `"4"` or `"octile-cut"`
    /// (8 moves with corner cutting: a diagonal past one wall's corner).
    #[new]
    #[pyo3(signature = (cells, movement = None))]
    fn new(cells: &Bound<'_, PyAny>, movement: Option<&Bound<'_, PyAny>>) -> PyResult<Grid> {
        let rule = match movement {
            Some(m) => neighborhood(m)?,
            None => Neighborhood::Octile,
        };
        let array = asarray(cells)?;
        let shape: Vec<usize> = array.getattr("shape")?.extract()?;
        let (height, width) = dims(&shape)?;
        let kind = dtype_kind(&array)?;
        let graph = match kind.as_str() {
            "b" => {
                let walls: PyReadonlyArray2<'_, bool> = array.extract()?;
                let tiles = tiles_of(width, height, walls.as_array().iter().copied())?;
                GridGraph::new(tiles, rule)
            }
            "i" | "u" | "f" => {
                let costs: PyReadonlyArray2<'_, f64> =
                    array.call_method1("astype", ("float64",))?.extract()?;
                let costs: Vec<f64> = costs.as_array().iter().copied().collect();
                let tiles = tiles_of(width, height, costs.iter().map(|c| *c == f64::INFINITY))?;
                GridGraph::with_cell_costs(tiles, rule, costs).map_err(|e| to_py(&e))?
            }
            other => {
                return Err(PyTypeError::new_err(format!(
                    "a grid must be an array of booleans (walls) or numbers (costs), \
                     not of dtype kind '{other}'"
                )));
            }
        };
        Ok(Grid::from_graph(graph, "the grid".to_owned()))
    }

    /// Rebuilds a pickled grid: its map text, movement and cell costs.
    #[staticmethod]
    #[pyo3(signature = (map_text, movement, costs, name))]
    fn _from_state(
        map_text: &str, movement: &Bound<'_, PyAny>, costs: Option<Vec<f64>>, name: String,
    ) -> PyResult<Grid> {
        let rule = neighborhood(movement)?;
        let tiles = cairns::movingai::parse_map(map_text).map_err(|e| to_py(&e))?;
        let graph = match costs {
            Some(costs) => GridGraph::with_cell_costs(tiles, rule, costs).map_err(|e| to_py(&e))?,
            None => GridGraph::new(tiles, rule),
        };
        Ok(Grid::from_graph(graph, name))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.get();
        let g = &me.graph;
        let costs = g.has_terrain().then(|| me.cell_costs());
        let args = PyTuple::new(
            py,
            [
                cairns::movingai::write_map(g.grid())
                    .into_pyobject(py)?
                    .into_any(),
                movement_name(g.neighborhood())
                    .into_pyobject(py)?
                    .into_any(),
                costs.into_pyobject(py)?.into_any(),
                me.name.clone().into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((slf.get_type().getattr("_from_state")?, args))
    }

    /// Width (columns, `x`).
    #[getter]
    fn width(&self) -> u32 {
        self.graph.width()
    }

    /// Height (rows, `y`).
    #[getter]
    fn height(&self) -> u32 {
        self.graph.height()
    }

    /// `(height, width)`, the shape of the arrays.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.graph.height() as usize, self.graph.width() as usize)
    }

    /// `"octile"`, `"4"` or `"octile-cut"`.
    #[getter]
    fn movement(&self) -> &'static str {
        movement_name(self.graph.neighborhood())
    }

    /// Whether cells have costs other than 1 (then `jps`, `jps+` and
    /// `canonical` refuse the grid).
    #[getter]
    fn has_terrain(&self) -> bool {
        self.graph.has_terrain()
    }

    /// The map's file, or "the grid".
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The walls, a boolean array indexed `[y, x]`.
    fn walls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let g = &self.graph;
        let walls: Vec<bool> = (0..g.grid().len() as u32)
            .map(|i| !g.is_passable(NodeId(i)))
            .collect();
        PyArray1::from_vec(py, walls).reshape(self.shape())
    }

    /// Each cell's cost (1 without terrain, `inf` for a wall), indexed
    /// `[y, x]`.
    fn costs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        PyArray1::from_vec(py, self.cell_costs()).reshape(self.shape())
    }

    /// Whether the cell `(x, y)` is passable (`False` off the map).
    fn is_passable(&self, x: i64, y: i64) -> bool {
        u32::try_from(x)
            .ok()
            .zip(u32::try_from(y).ok())
            .and_then(|(x, y)| self.graph.node(x, y))
            .is_some_and(|n| self.graph.is_passable(n))
    }

    /// The map in the Moving AI `.map` format (walls as `@`, the tiles of
    /// a map read from a file as they were).
    fn to_map_text(&self) -> String {
        cairns::movingai::write_map(self.graph.grid())
    }

    /// The distance field to `goals` (`(x, y)` points or an `(N, 2)`
    /// array): `(distance, next)`, where `distance[y, x]` is the cost from
    /// `(x, y)` to its nearest goal (`inf` where none is reachable) and
    /// `next[y, x]` the `(x, y)` of the next step towards it (`(-1, -1)`
    /// at a goal and where none is reachable): the flow field. With
    /// `size=K`, for an agent of `K` x `K` cells placed by its top-left
    /// cell (as `Engine(..., size=K)`): the cells its block does not fit
    /// reach no goal.
    #[pyo3(signature = (goals, size = 1))]
    fn field<'py>(
        &self, py: Python<'py>, goals: &Bound<'py, PyAny>, size: u32,
    ) -> PyResult<Field<'py>> {
        let sized;
        let graph = if size == 1 {
            &self.graph
        } else {
            sized = self.graph.clone().with_size(size).map_err(|e| to_py(&e))?;
            &sized
        };
        let goals = convert::points(goals, "goals")?;
        let goals = convert::endpoints(graph, &self.name, "goals", &goals)?;
        let (distance, next) = py.detach(|| {
            let field = DistanceField::build(graph, &goals, &mut SearchCache::new());
            let bound = graph.grid().len() as u32;
            let distance: Vec<f64> = (0..bound)
                .map(|i| field.distance(NodeId(i)).unwrap_or(f64::INFINITY))
                .collect();
            let next: Vec<i64> = (0..bound)
                .flat_map(|i| match field.next(NodeId(i)) {
                    Some(n) => {
                        let (x, y) = graph.coords(n);
                        [i64::from(x), i64::from(y)]
                    }
                    None => [-1, -1],
                })
                .collect();
            (distance, next)
        });
        let (h, w) = self.shape();
        Ok((
            PyArray1::from_vec(py, distance).reshape([h, w])?,
            PyArray1::from_vec(py, next).reshape([h, w, 2])?,
        ))
    }

    fn __repr__(&self) -> String {
        let terrain = if self.graph.has_terrain() {
            ", terrain"
        } else {
            ""
        };
        format!(
            "Grid({}x{}, movement={:?}{terrain}, {})",
            self.graph.width(),
            self.graph.height(),
            self.movement(),
            self.name
        )
    }
}

impl Grid {
    fn cell_costs(&self) -> Vec<f64> {
        let g = &self.graph;
        (0..g.grid().len() as u32)
            .map(|i| g.cell_cost(NodeId(i)))
            .collect()
    }
}
