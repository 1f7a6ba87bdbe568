//! `cairns_map`: a grid under a movement rule, from a byte array of walls,
//! a float array of cell costs, or a Moving AI `.map` file or text.

use std::ffi::{CStr, c_char};
use std::path::PathBuf;

use cairns::graph::NodeId;
use cairns::grid::{Grid, GridGraph, Neighborhood};

use crate::error::{Failure, Result, cairns_status, guard_value};
use crate::handle::{self, Handle, Kind};

/// A grid map under a movement rule: create it with
/// `cairns_map_from_walls`, `cairns_map_from_costs`, `cairns_map_parse` or
/// `cairns_map_read`, free it with `cairns_map_free`. Engines copy the map,
/// so it may be freed once they are made. Read-only: any thread may use it.
#[expect(non_camel_case_types, reason = "the C names are the API")]
pub type cairns_map = Handle<Map>;

/// What a map handle holds.
#[derive(Debug)]
pub struct Map {
    pub graph: GridGraph,
    /// What error messages call the map: its file, or "the map".
    pub name: String,
}

impl Kind for Map {
    const TAG: u64 = u64::from_le_bytes(*b"cairnsMP");
    const NAME: &'static str = "cairns_map";
}

/// Movement rules, the `movement` argument of the map constructors.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[expect(non_camel_case_types, reason = "the C names are the API")]
pub enum cairns_movement {
    /// 4-connected: north, east, south, west, each costing 1 (times the
    /// mean cost of the two cells under terrain costs).
    CAIRNS_MOVE_FOUR = 4,
    /// Octile: 8 moves, a diagonal costing sqrt(2) and allowed only when
    /// both cells beside it are passable (no corner cutting): the Moving AI
    /// rule.
    CAIRNS_MOVE_OCTILE = 8,
    /// Octile with corner cutting: a diagonal needs one of the two cells
    /// beside it passable (past one wall's corner, never between two);
    /// the jump point searches, canonical ordering and Theta* refuse it
    /// (`CAIRNS_ERR_SPEC`).
    CAIRNS_MOVE_OCTILE_CUT = 9,
    /// Octile squeezing between walls: a diagonal is allowed whatever the
    /// two cells beside it are, even between two walls that touch at a
    /// corner (Godot's `DIAGONAL_MODE_ALWAYS`); the searches built on the
    /// no-corner rule refuse it (`CAIRNS_ERR_SPEC`).
    CAIRNS_MOVE_OCTILE_SQUEEZE = 10,
}

/// The movement rule numbered `movement` (a [`cairns_movement`]).
fn neighborhood(movement: i32) -> Result<Neighborhood> {
    match movement {
        m if m == cairns_movement::CAIRNS_MOVE_FOUR as i32 => Ok(Neighborhood::Four),
        m if m == cairns_movement::CAIRNS_MOVE_OCTILE as i32 => Ok(Neighborhood::Octile),
        m if m == cairns_movement::CAIRNS_MOVE_OCTILE_CUT as i32 => {
            Ok(Neighborhood::OctileCornerCutting)
        }
        m if m == cairns_movement::CAIRNS_MOVE_OCTILE_SQUEEZE as i32 => {
            Ok(Neighborhood::OctileSqueeze)
        }
        other => Err(Failure::new(
            cairns_status::CAIRNS_ERR_ARGUMENT,
            format!(
                "unknown movement {other} (expected CAIRNS_MOVE_FOUR = 4, CAIRNS_MOVE_OCTILE = 8, CAIRNS_MOVE_OCTILE_CUT = 9 or CAIRNS_MOVE_OCTILE_SQUEEZE = 10)"
            ),
        )),
    }
}

/// Checks that `len` values are one per cell of a `width` x `height` grid.
fn check_cells(len: usize, width: u32, height: u32, what: &str) -> Result<()> {
    Grid::check_size(u64::from(width), u64::from(height))
        .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_ARGUMENT, &e))?;
    let cells = u64::from(width) * u64::from(height);
    if len as u64 == cells {
        Ok(())
    } else {
        Err(Failure::new(
            cairns_status::CAIRNS_ERR_ARGUMENT,
            format!("{what} holds {len} values, but a {width}x{height} grid has {cells} cells"),
        ))
    }
}

/// The movement rule and the `len` values at `cells`, one per cell of a
/// `width` x `height` grid: what the array constructors check first.
///
/// # Safety
///
/// `cells` is valid for reads of `len` values.
unsafe fn array<'a, T>(
    cells: *const T, len: usize, (width, height): (u32, u32), movement: i32, what: &str,
) -> Result<(Neighborhood, &'a [T])> {
    let rule = neighborhood(movement)?;
    check_cells(len, width, height, what)?;
    // SAFETY: the caller's contract.
    Ok((rule, unsafe { handle::slice(cells, len, what)? }))
}

/// Tiles from one wall flag per cell.
fn tiles(width: u32, height: u32, walls: impl Iterator<Item = bool>) -> Result<Grid> {
    Grid::from_walls(width, height, walls)
        .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_ARGUMENT, &e))
}

/// `graph` as a map the C API can number the cells of.
fn map_of(graph: GridGraph, name: String) -> Result<Map> {
    if graph.grid().len() > i32::MAX as usize {
        return Err(Failure::new(
            cairns_status::CAIRNS_ERR_ARGUMENT,
            format!(
                "{name} has {} cells; the C API numbers cells with int32_t, so at most {}",
                graph.grid().len(),
                i32::MAX
            ),
        ));
    }
    Ok(Map { graph, name })
}

/// A map from one byte per cell, row by row (`cells[y * width + x]`):
/// nonzero is a wall. `len` must be `width * height`. On success `*out`
/// holds a new map.
///
/// # Safety
///
/// `cells` is valid for reads of `len` bytes; `out` for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_map_from_walls(
    cells: *const u8, len: usize, width: u32, height: u32, movement: i32, out: *mut *mut cairns_map,
) -> cairns_status {
    let made = || {
        // SAFETY: the caller's contract.
        let (rule, cells) = unsafe { array(cells, len, (width, height), movement, "cells")? };
        let grid = tiles(width, height, cells.iter().map(|&c| c != 0))?;
        map_of(GridGraph::new(grid, rule), "the map".to_owned())
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// A map from one cost per cell, row by row (`costs[y * width + x]`): a
/// positive number, or `INFINITY` for a wall. A move costs its length (1 or
/// sqrt(2)) times the mean cost of its two cells. Costs that are all 1 or
/// `INFINITY` make the plain grid every search takes; other costs are
/// refused by the searches that assume uniform costs (`jps`, `jps+`,
/// `canonical`, `bfs`). A cost that is zero, negative or NaN is
/// `CAIRNS_ERR_ARGUMENT`, naming the
/// cell.
///
/// # Safety
///
/// `costs` is valid for reads of `len` floats; `out` for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_map_from_costs(
    costs: *const f32, len: usize, width: u32, height: u32, movement: i32,
    out: *mut *mut cairns_map,
) -> cairns_status {
    let made = || {
        // SAFETY: the caller's contract.
        let (rule, costs) = unsafe { array(costs, len, (width, height), movement, "costs")? };
        let costs: Vec<f64> = costs.iter().map(|&c| f64::from(c)).collect();
        let grid = tiles(width, height, costs.iter().map(|&c| c == f64::INFINITY))?;
        let graph = GridGraph::with_cell_costs(grid, rule, costs)
            .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_ARGUMENT, &e))?;
        map_of(graph, "the map".to_owned())
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// A map from the text of a Moving AI `.map` file (`len` bytes, not
/// necessarily NUL-terminated). A malformed text is
/// `CAIRNS_ERR_PARSE`, its message naming
/// the line: `line 6: unknown tile 'Q' at (4, 1)`.
///
/// # Safety
///
/// `text` is valid for reads of `len` bytes; `out` for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_map_parse(
    text: *const c_char, len: usize, movement: i32, out: *mut *mut cairns_map,
) -> cairns_status {
    let made = || {
        let rule = neighborhood(movement)?;
        // SAFETY: the caller's contract.
        let text = unsafe { handle::slice(text.cast::<u8>(), len, "text")? };
        let grid = cairns::movingai::parse_map_from(text)
            .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_PARSE, &e))?;
        map_of(GridGraph::new(grid, rule), "the map".to_owned())
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// A map from a Moving AI `.map` file (`path` NUL-terminated). A file that
/// cannot be read is `CAIRNS_ERR_IO`, a
/// malformed one `CAIRNS_ERR_PARSE`; the
/// message names the file (and the line).
///
/// # Safety
///
/// `path` is a NUL-terminated string; `out` is valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_map_read(
    path: *const c_char, movement: i32, out: *mut *mut cairns_map,
) -> cairns_status {
    let made = || {
        if path.is_null() {
            return Err(Failure::null("path"));
        }
        let rule = neighborhood(movement)?;
        // SAFETY: non-NULL, NUL-terminated by the caller's contract.
        let path = path_of(unsafe { CStr::from_ptr(path) })?;
        let grid = cairns::movingai::read_map(&path)
            .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_PARSE, &e))?;
        let name = path.display().to_string();
        map_of(GridGraph::new(grid, rule), name)
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// A path from C: any bytes on Unix, UTF-8 elsewhere.
#[cfg(unix)]
#[expect(clippy::unnecessary_wraps, reason = "the same signature as elsewhere")]
pub(crate) fn path_of(path: &CStr) -> Result<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Ok(PathBuf::from(std::ffi::OsStr::from_bytes(path.to_bytes())))
}

/// A path from C: any bytes on Unix, UTF-8 elsewhere.
#[cfg(not(unix))]
pub(crate) fn path_of(path: &CStr) -> Result<PathBuf> {
    path.to_str()
        .map(PathBuf::from)
        .map_err(|_| Failure::new(cairns_status::CAIRNS_ERR_ARGUMENT, "path is not UTF-8"))
}

/// The map for an agent of `size` x `size` cells, placed by its top-left
/// cell: a cell is open to it where that whole block is free, and a move
/// is the map's movement rule applied to the block (no corner cutting by
/// the block under `CAIRNS_MOVE_OCTILE`). Engines made from it search for
/// that agent with every spec and table (saved tables are for that size);
/// points, paths and costs are the top-left cell's, and
/// `cairns_engine_set_walls` edits the map itself. Size 1 is the map for
/// one cell. A size of 0 or above 255, or above 1 on a map with terrain
/// costs, is `CAIRNS_ERR_ARGUMENT`. `map` is unchanged; on success `*out`
/// holds a new map.
///
/// # Safety
///
/// `map` is NULL or a live handle; `out` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_map_with_size(
    map: *const cairns_map, size: u32, out: *mut *mut cairns_map,
) -> cairns_status {
    let made = || {
        // SAFETY: the caller's contract.
        let map = unsafe { handle::get(map, "map")? };
        let graph = map
            .graph
            .clone()
            .with_size(size)
            .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_ARGUMENT, &e))?;
        map_of(graph, map.name.clone())
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// The width of the map (columns, `x`); 0 for a NULL or wrong handle.
///
/// # Safety
///
/// `map` is NULL or a live handle of this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_map_width(map: *const cairns_map) -> u32 {
    // SAFETY: the caller's contract.
    guard_value(0, || Ok(unsafe { handle::get(map, "map")? }.graph.width()))
}

/// The height of the map (rows, `y`); 0 for a NULL or wrong handle.
///
/// # Safety
///
/// `map` is NULL or a live handle of this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_map_height(map: *const cairns_map) -> u32 {
    // SAFETY: the caller's contract.
    guard_value(0, || Ok(unsafe { handle::get(map, "map")? }.graph.height()))
}

/// Frees a map (NULL does nothing). Engines made from it keep their copy.
///
/// # Safety
///
/// `map` is NULL or a live map handle, not used after this call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_map_free(map: *mut cairns_map) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe { handle::free(map, "map") }
}

/// The node of `(x, y)` on `graph`, refused as the `cairns` command refuses
/// it ([`GridGraph::endpoint`]): off the map, on a blocked cell, too tight
/// for the agent. `what` names the point and `name` the map in the message.
pub(crate) fn endpoint(
    graph: &GridGraph, name: &str, what: &str, x: i32, y: i32,
) -> Result<NodeId> {
    graph
        .endpoint(x.into(), y.into())
        .map_err(|e| Failure::new(cairns_status::CAIRNS_ERR_ENDPOINT, e.describe(what, name)))
}

/// The nodes of the `count` points (`x, y` pairs) at `xy`, each checked
/// by [`endpoint`]; a refused one names its place (`what[3]`).
///
/// # Safety
///
/// `xy` is valid for reads of `2 * count` values.
pub(crate) unsafe fn endpoints(
    graph: &GridGraph, name: &str, what: &str, xy: *const i32, count: usize,
) -> Result<Vec<NodeId>> {
    let len = count.checked_mul(2).ok_or_else(|| {
        Failure::new(
            cairns_status::CAIRNS_ERR_ARGUMENT,
            format!("{what}: {count} points are more than any array holds"),
        )
    })?;
    // SAFETY: the caller's contract.
    let xy = unsafe { handle::slice(xy, len, what)? };
    xy.chunks_exact(2)
        .enumerate()
        .map(|(i, p)| endpoint(graph, name, &format!("{what}[{i}]"), p[0], p[1]))
        .collect()
}
