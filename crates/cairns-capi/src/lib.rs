//! The C API of cairns, for game engines (Unity, Unreal, Godot, engines of
//! one's own) and any language that calls C.
//!
//! The binding is thin: it converts and maps errors, and every behaviour is
//! the library's, through the owning engine [`cairns::spec::Engine`]. The
//! header `include/cairns.h` is generated from this crate by cbindgen (the
//! test `tests/header.rs` fails when the checked-in copy differs), and
//! `docs/engines.md` is the guide.
//!
//! # Conventions
//!
//! - Three opaque handles for grids: [`cairns_map`] (a grid under a
//!   movement rule), [`cairns_engine`] (a search spec prepared on a copy
//!   of a map, with its tables; shared by every thread) and
//!   [`cairns_searcher`] (one per thread: its own search memory); two for
//!   weighted graphs (road networks): [`cairns_graph_engine`] (a graph
//!   search on a graph, shared) and [`cairns_graph_searcher`] (one per
//!   thread), whose nodes are `uint32_t` ids from 0. Each is created by a function taking
//!   an out-pointer and freed by its `_free` function (which accepts NULL).
//! - Every function but the getters returns a [`cairns_status`]: `0` on
//!   success, a positive code for an answer that is not an error
//!   (`CAIRNS_NO_PATH`,
//!   `CAIRNS_PAUSED`), a negative one for an
//!   error, whose message [`cairns_last_error`] gives (the same text as the
//!   `cairns` command prints: the file, the line, what is wrong).
//! - Points are `(x, y)`, as in the Moving AI files; lists of points are
//!   `int32_t` arrays of `x, y` pairs. Arrays over the whole grid (fields)
//!   are indexed by cell, `y * width + x`.
//! - Outputs go into buffers the caller owns: a function is given the
//!   capacity and writes back the length it needs, so a call with a small
//!   buffer says how large one must be
//!   (`CAIRNS_ERR_BUFFER_TOO_SMALL`).
//! - No panic crosses the boundary: each entry point runs inside
//!   [`std::panic::catch_unwind`] and reports one as
//!   `CAIRNS_ERR_PANIC`. There is no global
//!   state besides each thread's last error message.

mod engine;
mod error;
mod graph;
mod handle;
mod map;
mod searcher;

pub use engine::{
    cairns_engine, cairns_engine_component, cairns_engine_field, cairns_engine_fill_boxes,
    cairns_engine_free, cairns_engine_new, cairns_engine_new_with_tables,
    cairns_engine_repair_step, cairns_engine_save_table, cairns_engine_set_walls,
    cairns_engine_set_walls_later, cairns_engine_spec, cairns_engine_table_count,
};
pub use error::{cairns_last_error, cairns_status, cairns_status_name};
pub use graph::{
    cairns_graph_cost, cairns_graph_engine, cairns_graph_engine_first_id, cairns_graph_engine_free,
    cairns_graph_engine_from_edges, cairns_graph_engine_node_count, cairns_graph_engine_read,
    cairns_graph_path, cairns_graph_searcher, cairns_graph_searcher_free,
    cairns_graph_searcher_new, cairns_graph_settled,
};
pub use map::{
    cairns_map, cairns_map_free, cairns_map_from_costs, cairns_map_from_walls, cairns_map_height,
    cairns_map_parse, cairns_map_read, cairns_map_width, cairns_map_with_size, cairns_movement,
};
pub use searcher::{
    cairns_progress, cairns_search_budgeted, cairns_search_cost, cairns_search_nearest,
    cairns_search_path, cairns_searcher, cairns_searcher_free, cairns_searcher_last_path,
    cairns_searcher_new, cairns_searcher_stats, cairns_stats,
};

/// Whether a computed path cost matches a length printed with `decimals`
/// decimals in a Moving AI scenario file: the library's tolerance
/// ([`cairns::movingai::lengths_match`]), for programs that check their
/// answers against published lengths. Returns 1 or 0.
#[unsafe(no_mangle)]
pub extern "C" fn cairns_lengths_match(computed: f64, printed: f64, decimals: u32) -> i32 {
    i32::from(cairns::movingai::lengths_match(computed, printed, decimals))
}

/// The version of the library, a static NUL-terminated string such as
/// `"0.1.0"`.
#[unsafe(no_mangle)]
pub extern "C" fn cairns_version() -> *const std::ffi::c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
