//! `cairns_graph_engine` and `cairns_graph_searcher`: a graph search
//! (`"dijkstra"`, `"bidijkstra"`, `"alt:K"`, `"ch"`, `"hl"`, `"astar/fastmap:K"`) on a weighted directed graph
//! (road networks: a DIMACS, PACE or arc list file, or edge arrays), and
//! one thread's searcher of it. Nodes are numbered from 0 (a DIMACS
//! file's node 1 is node 0: `cairns_graph_engine_first_id`).

use std::ffi::{CStr, c_char};
use std::sync::Arc;

use cairns::graph::{CsrGraph, NodeId, read_road_graph};
use cairns::spec::{Coordinates, GraphCache, GraphEngine, GraphSearch};

use crate::error::{Failure, Result, cairns_status, guard, guard_value};
use crate::handle::{self, Handle, Kind};
use crate::map::path_of;

/// A graph search prepared on a graph: what it builds before the first
/// query (the contraction hierarchy of `"ch"`) built once, in the function
/// that makes it. Read-only: shared by every thread.
#[expect(non_camel_case_types, reason = "the C names are the API")]
pub type cairns_graph_engine = Handle<EngineState>;

/// What a graph engine handle holds.
#[derive(Debug)]
pub struct EngineState {
    engine: Arc<GraphEngine>,
    first_id: u32,
}

impl Kind for EngineState {
    const TAG: u64 = u64::from_le_bytes(*b"cairnsGE");
    const NAME: &'static str = "cairns_graph_engine";
}

/// A searcher of a graph engine: its own search memory, reused by every
/// query. One per thread; it stays usable after its engine is freed.
#[expect(non_camel_case_types, reason = "the C names are the API")]
pub type cairns_graph_searcher = Handle<SearcherState>;

/// What a graph searcher handle holds.
#[derive(Debug)]
pub struct SearcherState {
    engine: Arc<GraphEngine>,
    cache: GraphCache,
}

impl Kind for SearcherState {
    const TAG: u64 = u64::from_le_bytes(*b"cairnsGS");
    const NAME: &'static str = "cairns_graph_searcher";
}

/// The graph search named by the NUL-terminated `search`.
///
/// # Safety
///
/// `search` is NULL or NUL-terminated.
unsafe fn search_of(search: *const c_char) -> Result<GraphSearch> {
    if search.is_null() {
        return Err(Failure::null("search"));
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let text = unsafe { CStr::from_ptr(search) }.to_str();
    text.map_err(|_| Failure::new(cairns_status::CAIRNS_ERR_SPEC, "the search is not UTF-8"))?
        .parse()
        .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_SPEC, &e))
}

/// An engine running `search` on `graph`, `astar` over `places` where
/// given.
fn engine_of(
    graph: CsrGraph, search: GraphSearch, first_id: u32, places: Option<&Coordinates>,
) -> Result<EngineState> {
    let engine = match places {
        Some(places) if search == GraphSearch::Astar => {
            GraphEngine::with_coordinates(graph, places, search)
                .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_SPEC, &e))?
        }
        _ => GraphEngine::new(graph, search),
    };
    Ok(EngineState {
        engine: Arc::new(engine),
        first_id,
    })
}

/// A graph engine on the road graph file `path` (DIMACS `.gr`, PACE `.gr`
/// with unit weights, or `a FROM TO WEIGHT` arcs, told by its content, or
/// an OpenStreetMap `.osm.pbf` extract; NUL-terminated) running `search`
/// (`"dijkstra"`, `"astar"`, `"bidijkstra"`, `"alt:K"`, `"ch"`, `"hl"` or
/// `"astar/fastmap:K"`). `"astar"` takes an extract's longitudes and
/// latitudes for its heuristic (the text formats place no nodes: there it
/// searches as Dijkstra does). A file that cannot be read is
/// `CAIRNS_ERR_IO`, a malformed one `CAIRNS_ERR_PARSE` (the message names
/// the file and line), an unknown search `CAIRNS_ERR_SPEC`.
///
/// # Safety
///
/// `path` and `search` are NUL-terminated strings; `out` is valid for a
/// write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_engine_read(
    path: *const c_char, search: *const c_char, out: *mut *mut cairns_graph_engine,
) -> cairns_status {
    let made = || {
        // SAFETY: the caller's contract.
        let search = unsafe { search_of(search)? };
        if path.is_null() {
            return Err(Failure::null("path"));
        }
        // SAFETY: non-NULL, NUL-terminated by the caller's contract.
        let path = path_of(unsafe { CStr::from_ptr(path) })?;
        let file =
            read_road_graph(&path).map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_PARSE, &e))?;
        let places = file.lon_lat.map(Coordinates::LonLat);
        engine_of(file.graph, search, file.format.first_id(), places.as_ref())
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// A graph engine on `nodes` nodes and `count` edges `sources[i] ->
/// targets[i]` of cost `weights[i]` (finite, not negative; parallel edges
/// and self-loops allowed), running `search`. An edge out of range or a
/// bad weight is `CAIRNS_ERR_ARGUMENT`, naming the edge.
///
/// # Safety
///
/// `sources`, `targets` and `weights` are valid for reads of `count`
/// values (NULL when `count` is 0); `search` NUL-terminated; `out` valid
/// for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_engine_from_edges(
    nodes: u32, sources: *const u32, targets: *const u32, weights: *const f64, count: usize,
    search: *const c_char, out: *mut *mut cairns_graph_engine,
) -> cairns_status {
    let made = || {
        // SAFETY: the caller's contract.
        let (search, sources, targets, weights) = unsafe {
            (
                search_of(search)?,
                handle::slice(sources, count, "sources")?,
                handle::slice(targets, count, "targets")?,
                handle::slice(weights, count, "weights")?,
            )
        };
        let edges: Vec<(u32, u32, f64)> = (0..count)
            .map(|i| (sources[i], targets[i], weights[i]))
            .collect();
        let graph = CsrGraph::from_edges(nodes, &edges)
            .map_err(|e| Failure::of(cairns_status::CAIRNS_ERR_ARGUMENT, &e))?;
        engine_of(graph, search, 0, None)
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// Frees a graph engine (NULL does nothing); its searchers stay usable.
///
/// # Safety
///
/// `engine` is NULL or a live graph engine handle, not used after this call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_engine_free(
    engine: *mut cairns_graph_engine,
) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe { handle::free(engine, "engine") }
}

/// The number of nodes of the engine's graph; 0 for a NULL or wrong handle.
///
/// # Safety
///
/// `engine` is NULL or a live handle of this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_engine_node_count(engine: *const cairns_graph_engine) -> u32 {
    // SAFETY: the caller's contract.
    guard_value(0, || {
        Ok(unsafe { handle::get(engine, "engine")? }
            .engine
            .graph()
            .node_count() as u32)
    })
}

/// The id the file gave node 0: 1 for DIMACS and PACE files, 0 for arc
/// lists and graphs from edge arrays (and for a NULL or wrong handle).
///
/// # Safety
///
/// `engine` is NULL or a live handle of this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_engine_first_id(engine: *const cairns_graph_engine) -> u32 {
    // SAFETY: the caller's contract.
    guard_value(0, || Ok(unsafe { handle::get(engine, "engine")? }.first_id))
}

/// A new searcher of `engine` in `*out`.
///
/// # Safety
///
/// `engine` is NULL or a live handle; `out` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_searcher_new(
    engine: *const cairns_graph_engine, out: *mut *mut cairns_graph_searcher,
) -> cairns_status {
    let made = || {
        // SAFETY: the caller's contract.
        let engine = Arc::clone(&unsafe { handle::get(engine, "engine")? }.engine);
        let cache = engine.cache();
        Ok(SearcherState { engine, cache })
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// Frees a graph searcher (NULL does nothing).
///
/// # Safety
///
/// `searcher` is NULL or a live graph searcher handle, not used after this
/// call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_searcher_free(
    searcher: *mut cairns_graph_searcher,
) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe { handle::free(searcher, "searcher") }
}

impl SearcherState {
    /// The node `id`, checked against the graph.
    fn node(&self, what: &str, id: u32) -> Result<NodeId> {
        let n = self.engine.graph().node_count();
        if (id as usize) < n {
            Ok(NodeId(id))
        } else {
            Err(Failure::new(
                cairns_status::CAIRNS_ERR_ENDPOINT,
                format!(
                    "{what} {id} is outside the graph's nodes 0 to {}",
                    n.saturating_sub(1)
                ),
            ))
        }
    }
}

/// The cost of a shortest path from node `start` to node `goal` in
/// `*cost`: `CAIRNS_OK`, or `CAIRNS_NO_PATH` with `INFINITY`; a node off
/// the graph is `CAIRNS_ERR_ENDPOINT`.
///
/// # Safety
///
/// `searcher` is NULL or a live handle used by no other thread meanwhile;
/// `cost` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_cost(
    searcher: *mut cairns_graph_searcher, start: u32, goal: u32, cost: *mut f64,
) -> cairns_status {
    guard(|| {
        handle::need(cost, "cost")?;
        // SAFETY: the caller's contract.
        let s = unsafe { handle::get_mut(searcher, "searcher")? };
        let (start, goal) = (s.node("start", start)?, s.node("goal", goal)?);
        let found = s.engine.cost(start, goal, &mut s.cache);
        // SAFETY: checked non-NULL above; valid by contract.
        unsafe { handle::put(cost, found.unwrap_or(f64::INFINITY), "cost")? };
        Ok(status(found.is_some()))
    })
}

/// The nodes the searcher's last query settled (both sides of a
/// bidirectional search; 0 for `"hl"`, whose cost query merges two
/// labels, for a searcher that has answered none, and for a NULL or wrong
/// handle).
///
/// # Safety
///
/// `searcher` is NULL or a live handle used by no other thread meanwhile.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_settled(searcher: *const cairns_graph_searcher) -> u64 {
    // SAFETY: the caller's contract.
    guard_value(0, || {
        let s = unsafe { handle::get(searcher, "searcher")? };
        Ok(s.engine.settled(&s.cache))
    })
}

/// A shortest path from node `start` to node `goal`: its cost in `*cost`,
/// its nodes (start first) in `nodes` of `capacity` values, their number
/// in `*len`. `CAIRNS_OK`, `CAIRNS_NO_PATH` (`INFINITY`, length 0), or
/// `CAIRNS_ERR_BUFFER_TOO_SMALL` with `*len` the length needed (call with
/// a capacity of 0 to ask for it).
///
/// # Safety
///
/// As `cairns_graph_cost`; `nodes` NULL or valid for writes of `capacity`
/// values; `len` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_graph_path(
    searcher: *mut cairns_graph_searcher, start: u32, goal: u32, nodes: *mut u32, capacity: usize,
    len: *mut usize, cost: *mut f64,
) -> cairns_status {
    guard(|| {
        handle::need(cost, "cost")?;
        handle::need(len, "len")?;
        // SAFETY: the caller's contract.
        let s = unsafe { handle::get_mut(searcher, "searcher")? };
        let (start, goal) = (s.node("start", start)?, s.node("goal", goal)?);
        let found = s.engine.path(start, goal, &mut s.cache);
        let ids: Vec<u32> = found
            .iter()
            .flat_map(|p| p.nodes.iter().map(|n| n.0))
            .collect();
        // SAFETY: checked non-NULL above; valid by contract.
        unsafe {
            handle::put(
                cost,
                found.as_ref().map_or(f64::INFINITY, |p| p.cost),
                "cost",
            )?;
            handle::put(len, ids.len(), "len")?;
        }
        // SAFETY: the caller's contract.
        let out = unsafe { handle::buffer(nodes, capacity, "nodes")? };
        handle::fill(out, &ids, "the path", ("nodes", 1))?;
        Ok(status(found.is_some()))
    })
}

/// The status of a finished search: found or not.
fn status(found: bool) -> cairns_status {
    if found {
        cairns_status::CAIRNS_OK
    } else {
        cairns_status::CAIRNS_NO_PATH
    }
}
