//! `cairns_engine`: a search spec prepared on a copy of a map (the
//! library's owning [`cairns::spec::Engine`]), shared by every thread,
//! with wall edits that keep its tables correct.

use std::ffi::{CStr, c_char};
use std::time::Duration;

use cairns::graph::NodeId;
use cairns::grid::Tile;
use cairns::search::{DistanceField, SearchCache};
use cairns::spec::{Engine as Owning, Given, Live, SearchSpec};

use crate::error::{Failure, Result, cairns_status, guard, guard_value};
use crate::handle::{self, Handle, Kind};
use crate::map::{self, cairns_map};

/// A search spec prepared on a copy of a map, with the tables it needs
/// (landmarks, the jump table). Any number of threads may use one engine
/// at once, each through a `cairns_searcher` of its own; wall edits
/// (`cairns_engine_set_walls`) reach every searcher at its next query.
#[expect(non_camel_case_types, reason = "the C names are the API")]
pub type cairns_engine = Handle<Engine>;

/// What an engine handle holds: the library's engine of a changing map
/// ([`Live`]), which its searchers follow, and the map's name for
/// messages.
#[derive(Debug)]
pub struct Engine {
    pub(crate) live: Live,
    /// What messages call the map.
    pub(crate) name: String,
}

impl Kind for Engine {
    const TAG: u64 = u64::from_le_bytes(*b"cairnsEN");
    const NAME: &'static str = "cairns_engine";
}

impl Engine {
    /// The current engine.
    pub(crate) fn current(&self) -> Owning {
        self.live.current()
    }
}

/// A spec that does not parse or fit as
/// `CAIRNS_ERR_SPEC`, or a table that
/// does not fit as `CAIRNS_ERR_TABLE`.
fn spec_failure(e: &cairns::spec::SpecError) -> Failure {
    let status = if matches!(e.kind(), cairns::spec::SpecErrorKind::Table(_)) {
        cairns_status::CAIRNS_ERR_TABLE
    } else {
        cairns_status::CAIRNS_ERR_SPEC
    };
    Failure::of(status, e)
}

/// An engine on a copy of `map` prepared for the NUL-terminated `spec`
/// (any spec of the `cairns` command: `"astar"`, `"jps"`, `"jps+"`,
/// `"astar/dh:16"`, `"jps/dh:8/pairing-heap"`...), building every table
/// the spec needs. A spec that does not parse or does not fit the map is
/// `CAIRNS_ERR_SPEC`, with the reason.
///
/// # Safety
///
/// `map` is NULL or a live handle; `spec` a NUL-terminated string; `out`
/// valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_new(
    map: *const cairns_map, spec: *const c_char, out: *mut *mut cairns_engine,
) -> cairns_status {
    // SAFETY: the caller's contract; no tables.
    unsafe { cairns_engine_new_with_tables(map, spec, std::ptr::null(), std::ptr::null(), 0, out) }
}

/// Like `cairns_engine_new`, taking `count` saved tables instead of
/// building them: `tables[i]` points to `lens[i]` bytes of a table as
/// `cairns_engine_save_table` (or the `cairns table build` command) wrote
/// it, for this map and movement. A table that is malformed, cut, or for
/// another map or search is `CAIRNS_ERR_TABLE`
/// naming it (`tables[1]: cannot load the table: ...`).
///
/// # Safety
///
/// As `cairns_engine_new`; `tables` and `lens` are valid for reads of
/// `count` values (NULL when `count` is 0), and each `tables[i]` for
/// `lens[i]` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_new_with_tables(
    map: *const cairns_map, spec: *const c_char, tables: *const *const u8, lens: *const usize,
    count: usize, out: *mut *mut cairns_engine,
) -> cairns_status {
    let made = || {
        // SAFETY: the caller's contract.
        let map = unsafe { handle::get(map, "map")? };
        if spec.is_null() {
            return Err(Failure::null("spec"));
        }
        // SAFETY: non-NULL and NUL-terminated by the caller's contract.
        let spec = unsafe { CStr::from_ptr(spec) };
        let spec: SearchSpec = spec
            .to_str()
            .map_err(|_| Failure::new(cairns_status::CAIRNS_ERR_SPEC, "the spec is not UTF-8"))?
            .parse()
            .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_SPEC, &e))?;
        // SAFETY: the caller's contract.
        let (tables, lens) = unsafe {
            (
                handle::slice(tables, count, "tables")?,
                handle::slice(lens, count, "lens")?,
            )
        };
        let graph = &map.graph;
        let mut given = Vec::with_capacity(count);
        for (i, (&bytes, &len)) in tables.iter().zip(lens).enumerate() {
            let what = format!("tables[{i}]");
            // SAFETY: the caller's contract: `len` readable bytes.
            let bytes = unsafe { handle::slice(bytes, len, &what)? };
            given.push(Given::read(bytes, graph).map_err(|e| {
                let f = Failure::of(cairns_status::CAIRNS_ERR_TABLE, &e);
                Failure::new(
                    cairns_status::CAIRNS_ERR_TABLE,
                    format!("{what}: cannot load the table: {}", f.message),
                )
            })?);
        }
        let engine =
            Owning::with_tables(graph.clone(), &spec, given).map_err(|e| spec_failure(&e))?;
        let engine = Engine {
            live: Live::new(engine),
            name: map.name.clone(),
        };
        Ok(engine)
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// Frees an engine (NULL does nothing). Its searchers keep what they
/// search and stay usable until they are freed.
///
/// # Safety
///
/// `engine` is NULL or a live engine handle, not used after this call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_free(engine: *mut cairns_engine) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe { handle::free(engine, "engine") }
}

/// The engine's spec as resolved (defaults filled in:
/// `"astar/octile/quaternary-heap"`), written NUL-terminated into `buf`
/// of `capacity` bytes; `*len` receives its length without the NUL (the
/// buffer needs `*len + 1`).
///
/// # Safety
///
/// `engine` is NULL or a live handle; `buf` valid for `capacity` bytes
/// (NULL when 0); `len` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_spec(
    engine: *const cairns_engine, buf: *mut c_char, capacity: usize, len: *mut usize,
) -> cairns_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let engine = unsafe { handle::get(engine, "engine")? };
        let text = engine.current().spec().to_string();
        // SAFETY: the caller's contract.
        unsafe { handle::put(len, text.len(), "len")? };
        let mut bytes = text.into_bytes();
        bytes.push(0);
        // SAFETY: the caller's contract.
        let buf = unsafe { handle::buffer(buf.cast::<u8>(), capacity, "buf")? };
        handle::fill(buf, &bytes, "the spec with its NUL", ("bytes", 1))?;
        Ok(cairns_status::CAIRNS_OK)
    })
}

/// How many tables the engine holds (landmarks, the jump table); 0 for a
/// NULL or wrong handle.
///
/// # Safety
///
/// `engine` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_table_count(engine: *const cairns_engine) -> usize {
    guard_value(0, || {
        // SAFETY: the caller's contract.
        let engine = unsafe { handle::get(engine, "engine")? };
        Ok(engine.current().tables().len())
    })
}

/// Table `index` of the engine in its saved form (the format of the
/// `cairns table build` command's files), into `buf` of `capacity` bytes;
/// `*len` receives the size needed. Call with a `capacity` of 0 to learn
/// the size. Give the bytes back to `cairns_engine_new_with_tables` with
/// the same map to skip building the table.
///
/// # Safety
///
/// `engine` is NULL or a live handle; `buf` valid for `capacity` bytes
/// (NULL when 0); `len` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_save_table(
    engine: *const cairns_engine, index: usize, buf: *mut u8, capacity: usize, len: *mut usize,
) -> cairns_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let engine = unsafe { handle::get(engine, "engine")? };
        handle::need(len, "len")?;
        let current = engine.current();
        let tables = current.tables();
        let table = tables.get(index).ok_or_else(|| {
            Failure::new(
                cairns_status::CAIRNS_ERR_ARGUMENT,
                format!(
                    "table {index} does not exist: the engine holds {}",
                    tables.len()
                ),
            )
        })?;
        let mut bytes = Vec::new();
        table
            .save_for(&mut bytes, current.graph())
            .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_TABLE, &e))?;
        // SAFETY: checked non-NULL above; the caller's contract.
        unsafe { handle::put(len, bytes.len(), "len")? };
        // SAFETY: the caller's contract.
        let buf = unsafe { handle::buffer(buf, capacity, "buf")? };
        handle::fill(buf, &bytes, "the table", ("bytes", 1))?;
        Ok(cairns_status::CAIRNS_OK)
    })
}

/// The connected component of cell `(x, y)` in `*label`: two cells are
/// joined by a path exactly when their labels are equal. Searches use the
/// same labels to answer "no path" at once, without a search, and edits
/// keep them up to date.
///
/// # Safety
///
/// `engine` is NULL or a live handle; `label` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_component(
    engine: *const cairns_engine, x: i32, y: i32, label: *mut u32,
) -> cairns_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let engine = unsafe { handle::get(engine, "engine")? };
        let current = engine.current();
        let graph = current.graph();
        let node = map::endpoint(graph, &engine.name, "the cell", x, y)?;
        let found = graph.components().label(node).ok_or_else(|| {
            Failure::new(
                cairns_status::CAIRNS_ERR_ENDPOINT,
                format!("the cell ({x}, {y}) belongs to no component"),
            )
        })?;
        // SAFETY: the caller's contract.
        unsafe { handle::put(label, found, "label")? };
        Ok(cairns_status::CAIRNS_OK)
    })
}

/// Sets `count` cells at once: cell `(xy[2i], xy[2i + 1])` becomes a wall
/// when `walls[i]` is nonzero and open ground (cost 1) otherwise. The
/// engine's tables stay exact, each as its kind keeps itself
/// (`cairns::spec::Engine::edited`): a landmark table is repaired where
/// distances change (identical to a rebuild with the same landmarks), a
/// jump table near the edits; a goal-bounding table's boxes and a subgoal
/// graph wait for `cairns_engine_fill_boxes` while `"jps+"` answers. Searchers take up
/// the new map at their next query; a query running meanwhile finishes on
/// the map it started on. Give many edits in one call: each call repairs
/// once. Nothing changes when a point is off the map
/// (`CAIRNS_ERR_ENDPOINT`).
///
/// # Safety
///
/// `engine` is NULL or a live handle; `xy` valid for reads of `2 * count`
/// values and `walls` of `count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_set_walls(
    engine: *const cairns_engine, xy: *const i32, walls: *const u8, count: usize,
) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe { set_walls(engine, xy, walls, count, false) }
}

/// Safe mode: sets cells as `cairns_engine_set_walls` does, but returns
/// before the landmark table is repaired. Until the repair is done, an
/// `astar` spec with a landmark heuristic (`"astar/dh:16"`) searches the
/// new map at once with an estimate that stays admissible on it (the
/// table as it was, bounded through the cells whose moves appeared), so
/// every cost stays optimal while searches may expand more; call
/// `cairns_engine_repair_step` once a frame to finish the repair. Any
/// other spec is repaired before this returns, as by
/// `cairns_engine_set_walls`.
///
/// # Safety
///
/// As `cairns_engine_set_walls`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_set_walls_later(
    engine: *const cairns_engine, xy: *const i32, walls: *const u8, count: usize,
) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe { set_walls(engine, xy, walls, count, true) }
}

/// One step of the repair that `cairns_engine_set_walls_later` left: about
/// `budget` units of work (a cell searched again), on the calling thread.
/// `*done` is 1 when the landmark table is exact again (searchers take up
/// the repaired table at their next query) and 0 while work is left; an
/// engine with nothing to repair is done at once.
///
/// # Safety
///
/// `engine` is NULL or a live handle; `done` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_repair_step(
    engine: *const cairns_engine, budget: usize, done: *mut i32,
) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe {
        engine_step(engine, done, |engine| {
            engine
                .live
                .repair_step(budget)
                .map_err(|e| spec_failure(&e))
        })
    }
}

/// Builds more of what an engine's tables lack. Spec `"jps+bb"`: the
/// jump points without boxes, after `cairns_engine_set_walls` dropped
/// them (boxes of the older map are not trusted) or the build ran out of
/// its budget, get theirs until `seconds` have passed, on every core.
/// Spec `"sub"`: the subgoal graph that `cairns_engine_set_walls` left
/// of the older map is repaired near the edits and ranked again, cut at
/// `seconds` as the spec's build is at its own budget. Meant for a thread
/// of its own: searchers keep answering meanwhile, optimally (a jump
/// point without boxes prunes nothing, a `"sub"` engine behind its map
/// searches as `"jps+"` over the jump table it keeps), and take up the new tables at
/// their next query. Edits are not held up: an edit made while this
/// builds wins, and what was built for the older map is dropped. `*done`
/// is 1 when the current engine's tables lack nothing (at once for the
/// other specs) and 0 while they do: call it again.
///
/// # Errors
///
/// `CAIRNS_ERR_ARGUMENT` for a negative or non-finite `seconds`.
///
/// # Safety
///
/// `engine` is NULL or a live handle; `done` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_fill_boxes(
    engine: *const cairns_engine, seconds: f64, done: *mut i32,
) -> cairns_status {
    let budget = Duration::try_from_secs_f64(seconds).map_err(|_| {
        Failure::new(
            cairns_status::CAIRNS_ERR_ARGUMENT,
            format!("seconds: {seconds} is not a finite number of at least 0"),
        )
    });
    // SAFETY: the caller's contract.
    unsafe {
        engine_step(engine, done, |engine| {
            engine
                .live
                .fill_within(budget?)
                .map_err(|e| spec_failure(&e))
        })
    }
}

/// The body of an engine call that says whether it is done: `done`
/// checked, the engine's handle read, `step` run on it, its answer
/// written to `*done` (1 or 0), all inside [`guard`].
///
/// # Safety
///
/// `engine` is NULL or a live handle; `done` valid for a write.
unsafe fn engine_step(
    engine: *const cairns_engine, done: *mut i32, step: impl FnOnce(&Engine) -> Result<bool>,
) -> cairns_status {
    guard(|| {
        handle::need(done, "done")?;
        // SAFETY: the caller's contract.
        let engine = unsafe { handle::get(engine, "engine")? };
        let finished = step(engine)?;
        // SAFETY: checked non-NULL above; the caller's contract.
        unsafe { handle::put(done, i32::from(finished), "done")? };
        Ok(cairns_status::CAIRNS_OK)
    })
}

/// `cairns_engine_set_walls`, or with `later` its safe mode.
///
/// # Safety
///
/// As `cairns_engine_set_walls`.
unsafe fn set_walls(
    engine: *const cairns_engine, xy: *const i32, walls: *const u8, count: usize, later: bool,
) -> cairns_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let engine = unsafe { handle::get(engine, "engine")? };
        // SAFETY: the caller's contract.
        let walls = unsafe { handle::slice(walls, count, "walls")? };
        let current = engine.current();
        let graph = current.graph();
        let cells: Vec<(u32, u32, Tile)> = {
            // Every point is checked before anything changes; a wall may be
            // opened, so passability is not asked.
            let len = count.checked_mul(2).ok_or_else(|| {
                Failure::new(cairns_status::CAIRNS_ERR_ARGUMENT, "xy: too many points")
            })?;
            // SAFETY: the caller's contract.
            let xy = unsafe { handle::slice(xy, len, "xy")? };
            xy.chunks_exact(2)
                .zip(walls)
                .enumerate()
                .map(|(i, (p, &wall))| {
                    let (x, y) = (p[0], p[1]);
                    match graph.grid().cell(x.into(), y.into()) {
                        Some((x, y)) => Ok((x, y, Tile::wall_if(wall != 0))),
                        None => Err(Failure::new(
                            cairns_status::CAIRNS_ERR_ENDPOINT,
                            format!(
                                "xy[{i}] ({x}, {y}) is outside {} ({}x{})",
                                engine.name,
                                graph.width(),
                                graph.height()
                            ),
                        )),
                    }
                })
                .collect::<Result<_>>()?
        };
        engine
            .live
            .set(&cells, later)
            .map_err(|e| spec_failure(&e))?;
        Ok(cairns_status::CAIRNS_OK)
    })
}

/// The distance field and flow field to the nearest of `count` goals
/// (`x, y` pairs at `goals`), over the engine's current map: `distance[c]`
/// is the cost from cell `c` (`y * width + x`) to its nearest goal
/// (`INFINITY` where none can be reached), `next[c]` the cell of the next
/// step on a shortest path there (-1 at a goal and where none can be
/// reached). Both arrays hold `cells` values, which must be `width *
/// height`; either may be NULL when not wanted. One Dijkstra search from
/// the goals (`cairns::search::DistanceField`).
///
/// # Safety
///
/// `engine` is NULL or a live handle; `goals` valid for reads of `2 *
/// count` values; `distance` and `next` NULL or valid for writes of
/// `cells` values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_engine_field(
    engine: *const cairns_engine, goals: *const i32, count: usize, distance: *mut f64,
    next: *mut i32, cells: usize,
) -> cairns_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let engine = unsafe { handle::get(engine, "engine")? };
        let current = engine.current();
        let graph = current.graph();
        let bound = graph.grid().len();
        if cells != bound {
            return Err(Failure::new(
                cairns_status::CAIRNS_ERR_ARGUMENT,
                format!(
                    "cells is {cells}, but the map has {}x{} = {bound} cells",
                    graph.width(),
                    graph.height()
                ),
            ));
        }
        // SAFETY: the caller's contract.
        let goals = unsafe { map::endpoints(graph, &engine.name, "goals", goals, count)? };
        // SAFETY: the caller's contract (NULL: not wanted).
        let (distance, next) = unsafe {
            (
                (!distance.is_null())
                    .then(|| handle::buffer(distance, cells, "distance"))
                    .transpose()?,
                (!next.is_null())
                    .then(|| handle::buffer(next, cells, "next"))
                    .transpose()?,
            )
        };
        let field = DistanceField::build(graph, &goals, &mut SearchCache::new());
        if let Some(distance) = distance {
            for (i, d) in distance.iter_mut().enumerate() {
                *d = field.distance(NodeId(i as u32)).unwrap_or(f64::INFINITY);
            }
        }
        if let Some(next) = next {
            for (i, n) in next.iter_mut().enumerate() {
                *n = field.next(NodeId(i as u32)).map_or(-1, |n| n.0 as i32);
            }
        }
        Ok(cairns_status::CAIRNS_OK)
    })
}
