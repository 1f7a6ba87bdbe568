//! The entry points as C calls them, checked against the library's own
//! answers.

#![expect(
    clippy::many_single_char_names,
    reason = "the tests read as C does: short handle names"
)]

use std::ffi::{CStr, c_char};
use std::ptr::{null, null_mut};

use cairns::grid::{GridGraph, Neighborhood, Tile};
use cairns::search::Searcher as _;
use cairns::spec::{Engine, SearchSpec};
use cairns_capi::cairns_movement::{
    CAIRNS_MOVE_FOUR, CAIRNS_MOVE_OCTILE, CAIRNS_MOVE_OCTILE_CUT, CAIRNS_MOVE_OCTILE_SQUEEZE,
};
use cairns_capi::cairns_status::{
    self, CAIRNS_ERR_ARGUMENT, CAIRNS_ERR_BUFFER_TOO_SMALL, CAIRNS_ERR_ENDPOINT, CAIRNS_ERR_HANDLE,
    CAIRNS_ERR_NULL, CAIRNS_ERR_PARSE, CAIRNS_ERR_SPEC, CAIRNS_ERR_TABLE, CAIRNS_NO_PATH,
    CAIRNS_OK, CAIRNS_PAUSED,
};
use cairns_capi::*;

const MAP: &str = "\
type octile
height 5
width 9
map
....@....
.@@.@.@@.
.@..@..@.
.@.@@@.@.
.........
";

fn last_error() -> String {
    // SAFETY: the library returns a NUL-terminated string valid until the
    // next call on this thread.
    unsafe { CStr::from_ptr(cairns_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Asserts that `status` is `want` and that the message of the error holds
/// `text`.
#[track_caller]
fn assert_error(status: cairns_status, want: cairns_status, text: &str) {
    assert_eq!(status, want, "{}", last_error());
    assert!(last_error().contains(text), "{}", last_error());
}

fn parse(text: &str, movement: i32) -> (cairns_status, *mut cairns_map) {
    let mut map = null_mut();
    // SAFETY: `text` is readable for its length; `map` for a write.
    let status =
        unsafe { cairns_map_parse(text.as_ptr().cast(), text.len(), movement, &raw mut map) };
    (status, map)
}

fn engine(map: *const cairns_map, spec: &CStr) -> *mut cairns_engine {
    let mut engine = null_mut();
    // SAFETY: a live map, a C string, an out-pointer.
    let status = unsafe { cairns_engine_new(map, spec.as_ptr(), &raw mut engine) };
    assert_eq!(status, CAIRNS_OK, "{}", last_error());
    engine
}

fn searcher(engine: *const cairns_engine) -> *mut cairns_searcher {
    let mut s = null_mut();
    // SAFETY: a live engine, an out-pointer.
    assert_eq!(
        unsafe { cairns_searcher_new(engine, &raw mut s) },
        CAIRNS_OK
    );
    s
}

fn cost(s: *mut cairns_searcher, from: (i32, i32), to: (i32, i32)) -> (cairns_status, f64) {
    let mut c = 0.0;
    // SAFETY: a live searcher used by this thread only, an out-pointer.
    let status = unsafe { cairns_search_cost(s, from.0, from.1, to.0, to.1, &raw mut c) };
    (status, c)
}

/// One budgeted search from `from` to `to`.
fn budgeted(
    s: *mut cairns_searcher, from: [i32; 2], to: [i32; 2], max_expansions: u64, max_cost: f64,
) -> (cairns_status, cairns_progress) {
    let mut progress = cairns_progress::default();
    // SAFETY: a live searcher used by this thread only, one point each, an
    // out-pointer.
    let status = unsafe {
        cairns_search_budgeted(
            s,
            from.as_ptr(),
            1,
            to.as_ptr(),
            1,
            max_expansions,
            max_cost,
            &raw mut progress,
        )
    };
    (status, progress)
}

/// Frame by frame: each budgeted call with the same ends takes up the query
/// the last one paused, to the same end with `expanded` expansions in all.
fn assert_budget_resumes(s: *mut cairns_searcher, expanded: u64) {
    let mut frames = 0;
    let last = loop {
        frames += 1;
        assert!(frames < 100, "a paused search was not taken up");
        let (status, progress) = budgeted(s, [0, 0], [8, 0], 2, f64::INFINITY);
        if status != CAIRNS_PAUSED {
            break (status, progress.cost);
        }
    };
    assert_eq!(last, (CAIRNS_OK, 16.0));
    let mut resumed = cairns_stats::default();
    // SAFETY: a live searcher, an out-pointer.
    assert_eq!(
        unsafe { cairns_searcher_stats(s, &raw mut resumed) },
        CAIRNS_OK
    );
    assert_eq!(resumed.expanded, expanded);
    assert!(frames > 1);
}

/// The library's own answer on the same map and spec.
fn library_cost(graph: &GridGraph, spec: &str, from: (u32, u32), to: (u32, u32)) -> Option<f64> {
    let spec: SearchSpec = spec.parse().unwrap();
    let engine = Engine::new(graph.clone(), &spec).unwrap();
    let (a, b) = (
        graph.node(from.0, from.1).unwrap(),
        graph.node(to.0, to.1).unwrap(),
    );
    engine.searcher().search_cost(a, b)
}

fn graph() -> GridGraph {
    GridGraph::new(
        cairns::movingai::parse_map(MAP).unwrap(),
        Neighborhood::Octile,
    )
}

#[test]
fn searches_answer_as_the_library_does() {
    let (status, map) = parse(MAP, CAIRNS_MOVE_OCTILE as i32);
    assert_eq!(status, CAIRNS_OK);
    let g = graph();
    for spec in [
        c"astar",
        c"jps",
        c"jps+",
        c"astar/dh:2",
        c"jps+/dh:2/pairing-heap",
    ] {
        let e = engine(map, spec);
        let s = searcher(e);
        let queries = [((0, 0), (8, 0)), ((0, 4), (8, 0)), ((2, 2), (5, 2))];
        assert_answers_as(s, &g, spec.to_str().unwrap(), queries);
        // SAFETY: live handles, freed once.
        unsafe { free_all(&[s], &[e], &[]) };
    }
    // SAFETY: a live map, freed once.
    unsafe { free_all(&[], &[], &[map]) };
}

#[test]
fn a_path_goes_into_the_callers_buffer_or_says_how_long_it_is() {
    let (map, e, s) = open(c"astar");
    let (mut len, mut c) = (0usize, 0.0);
    let mut small = [0i32; 4];
    // SAFETY: a buffer of 2 points (4 values), out-pointers.
    let status = unsafe {
        cairns_search_path(
            s,
            0,
            0,
            8,
            0,
            small.as_mut_ptr(),
            2,
            &raw mut len,
            &raw mut c,
        )
    };
    assert_error(status, CAIRNS_ERR_BUFFER_TOO_SMALL, "the buffer holds 2");
    assert_eq!(c, 16.0);
    assert!(len > 2);
    let mut xy = vec![0i32; 2 * len];
    let mut again = 0;
    // SAFETY: a buffer of `len` points.
    let status = unsafe { cairns_searcher_last_path(s, xy.as_mut_ptr(), len, &raw mut again) };
    assert_eq!((status, again), (CAIRNS_OK, len));
    assert_eq!((&xy[..2], &xy[2 * len - 2..]), (&[0, 0][..], &[8, 0][..]));
    // Each step is one king move onto open ground.
    let grid = cairns::movingai::parse_map(MAP).unwrap();
    for w in xy.chunks_exact(2).collect::<Vec<_>>().windows(2) {
        assert!((w[0][0] - w[1][0]).abs() <= 1 && (w[0][1] - w[1][1]).abs() <= 1);
        assert!(grid.is_passable(w[1][0] as u32, w[1][1] as u32));
    }
    // SAFETY: live handles, freed once.
    unsafe { free_all(&[s], &[e], &[map]) };
}

#[test]
fn bad_input_gets_an_error_code_and_a_message() {
    let (status, map) = parse(
        "type octile\nheight 1\nwidth 2\nmap\n.Q\n",
        CAIRNS_MOVE_OCTILE as i32,
    );
    assert_eq!((status, map), (CAIRNS_ERR_PARSE, null_mut()));
    assert_eq!(last_error(), "line 5: unknown tile 'Q' at (1, 0)");
    // Corner cutting parses; goal bounding refuses it with the reason.
    let (status, cut) = parse(MAP, CAIRNS_MOVE_OCTILE_CUT as i32);
    assert_eq!(status, CAIRNS_OK);
    let mut refused = null_mut();
    // SAFETY: a live map, a spec string, an out-pointer.
    let status = unsafe { cairns_engine_new(cut, c"jps+bb".as_ptr(), &raw mut refused) };
    assert_eq!((status, refused), (CAIRNS_ERR_SPEC, null_mut()));
    assert!(
        last_error().contains("without corner cutting"),
        "{}",
        last_error()
    );
    // JPS+ takes it, over a jump table of that rule.
    let mut plus = null_mut();
    // SAFETY: a live map, a spec string, an out-pointer.
    let status = unsafe { cairns_engine_new(cut, c"jps+".as_ptr(), &raw mut plus) };
    assert_eq!(status, CAIRNS_OK, "{}", last_error());
    // SAFETY: the engine is live and freed once.
    assert_eq!(unsafe { cairns_engine_free(plus) }, CAIRNS_OK);
    // SAFETY: the map is live and freed once.
    unsafe { cairns_map_free(cut) };
    assert_eq!(parse(MAP, 7).0, CAIRNS_ERR_ARGUMENT);
    let walls = [0u8; 6];
    let mut out = null_mut();
    // SAFETY: 6 readable bytes, but 7 claimed: refused before reading.
    let status = unsafe {
        cairns_map_from_walls(
            walls.as_ptr(),
            5,
            3,
            2,
            CAIRNS_MOVE_FOUR as i32,
            &raw mut out,
        )
    };
    assert_eq!(status, CAIRNS_ERR_ARGUMENT);
    assert_eq!(
        last_error(),
        "cells holds 5 values, but a 3x2 grid has 6 cells"
    );
    let costs = [1.0f32, f32::NAN, 1.0, 1.0];
    // SAFETY: 4 readable floats.
    let status = unsafe {
        cairns_map_from_costs(
            costs.as_ptr(),
            4,
            2,
            2,
            CAIRNS_MOVE_FOUR as i32,
            &raw mut out,
        )
    };
    assert_error(status, CAIRNS_ERR_ARGUMENT, "cell (1, 0)");
    // SAFETY: NULL everywhere, which every function refuses.
    unsafe {
        assert_eq!(
            cairns_map_from_walls(null(), 6, 3, 2, 4, &raw mut out),
            CAIRNS_ERR_NULL
        );
        assert_eq!(
            cairns_engine_new(null(), c"astar".as_ptr(), null_mut()),
            CAIRNS_ERR_NULL
        );
        assert_eq!(cairns_map_width(null()), 0);
    }
    let (_, map) = parse(MAP, CAIRNS_MOVE_FOUR as i32);
    let mut e = null_mut();
    // SAFETY: a live map, C strings, an out-pointer.
    unsafe {
        assert_eq!(
            cairns_engine_new(map, c"jps+bb".as_ptr(), &raw mut e),
            CAIRNS_ERR_SPEC
        );
        assert!(last_error().contains("octile"), "{}", last_error());
        assert_eq!(
            cairns_engine_new(map, c"no-such".as_ptr(), &raw mut e),
            CAIRNS_ERR_SPEC
        );
        // A map where an engine belongs.
        let wrong = map.cast::<cairns_engine>();
        let mut s = null_mut();
        assert_eq!(cairns_searcher_new(wrong, &raw mut s), CAIRNS_ERR_HANDLE);
        assert!(last_error().contains("not a cairns_engine"));
    }
    let e = engine(map, c"astar");
    let s = searcher(e);
    assert_eq!(cost(s, (9, 0), (0, 0)).0, CAIRNS_ERR_ENDPOINT);
    assert_eq!(last_error(), "start (9, 0) is outside the map (9x5)");
    assert_eq!(cost(s, (0, 0), (4, 0)).0, CAIRNS_ERR_ENDPOINT);
    assert_eq!(
        last_error(),
        "goal (4, 0) is on a blocked tile '@' in the map"
    );
    assert_eq!(
        budgeted(s, [0, 0], [8, 0], 0, f64::NAN).0,
        CAIRNS_ERR_ARGUMENT
    );
    // SAFETY: live handles, freed once; then a freed pointer would be UB
    // to pass, so only NULL is tried.
    unsafe {
        free_all(&[s], &[e], &[map]);
        assert_eq!(cairns_map_free(null_mut()), CAIRNS_OK);
    }
}

/// [`MAP`] (octile), an engine on it with `spec`, and a searcher of that
/// engine.
fn open(spec: &CStr) -> (*mut cairns_map, *mut cairns_engine, *mut cairns_searcher) {
    let (status, map) = parse(MAP, CAIRNS_MOVE_OCTILE as i32);
    assert_eq!(status, CAIRNS_OK, "{}", last_error());
    let e = engine(map, spec);
    (map, e, searcher(e))
}

/// Frees `searchers`, then `engines`, then `maps`, checking that each
/// free succeeds.
///
/// # Safety
///
/// Each handle is live and freed nowhere else.
unsafe fn free_all(
    searchers: &[*mut cairns_searcher], engines: &[*mut cairns_engine], maps: &[*mut cairns_map],
) {
    // SAFETY: the caller's contract.
    unsafe {
        for &s in searchers {
            assert_eq!(cairns_searcher_free(s), CAIRNS_OK);
        }
        for &e in engines {
            assert_eq!(cairns_engine_free(e), CAIRNS_OK);
        }
        for &m in maps {
            assert_eq!(cairns_map_free(m), CAIRNS_OK);
        }
    }
}

/// The edits of the edit tests, as `x, y` pairs and wall flags: open the
/// walls at (4, 0) and (4, 1), close (3, 3).
const EDIT_XY: [i32; 6] = [4, 0, 4, 1, 3, 3];
const EDIT_WALLS: [u8; 3] = [0, 0, 1];

/// The library's [`graph`] after those edits.
fn edited_graph() -> GridGraph {
    let mut g = graph();
    g.set_tile(4, 0, Tile::Ground);
    g.set_tile(4, 1, Tile::Ground);
    g.set_tile(3, 3, Tile::OutOfBounds);
    g
}

/// The queries across the edits.
const EDITED_QUERIES: [((i32, i32), (i32, i32)); 3] =
    [((3, 0), (5, 0)), ((0, 4), (8, 0)), ((2, 3), (8, 4))];

/// Asserts that `s` answers `queries` as the library's `spec` does on `g`,
/// with `CAIRNS_NO_PATH` where there is no path.
fn assert_answers_as(
    s: *mut cairns_searcher, g: &GridGraph, spec: &str, queries: [((i32, i32), (i32, i32)); 3],
) {
    for (from, to) in queries {
        let (fx, fy, tx, ty) = (from.0 as u32, from.1 as u32, to.0 as u32, to.1 as u32);
        let expected = library_cost(g, spec, (fx, fy), (tx, ty));
        let (status, c) = cost(s, from, to);
        let found = if expected.is_some() {
            CAIRNS_OK
        } else {
            CAIRNS_NO_PATH
        };
        assert_eq!(status, found, "{spec} from {from:?} to {to:?}");
        let got = Some(c).filter(|c| c.is_finite());
        assert_eq!(got, expected, "{spec} from {from:?} to {to:?}");
    }
}

#[test]
fn edits_keep_the_tables_exact() {
    let (_, map) = parse(MAP, CAIRNS_MOVE_OCTILE as i32);
    for spec in [c"astar/dh:3", c"jps+", c"astar/dh:3:keep2"] {
        let e = engine(map, spec);
        let s = searcher(e);
        let before = library_cost(&graph(), spec.to_str().unwrap(), (3, 0), (5, 0));
        assert_eq!(Some(cost(s, (3, 0), (5, 0)).1), before);
        // SAFETY: 3 points and 3 flags.
        let status =
            unsafe { cairns_engine_set_walls(e, EDIT_XY.as_ptr(), EDIT_WALLS.as_ptr(), 3) };
        assert_eq!(status, CAIRNS_OK, "{}", last_error());
        assert_answers_as(s, &edited_graph(), spec.to_str().unwrap(), EDITED_QUERIES);
        // An edit off the map changes nothing.
        // SAFETY: one point and one flag.
        let status = unsafe { cairns_engine_set_walls(e, [9, 0].as_ptr(), [1].as_ptr(), 1) };
        assert_eq!(status, CAIRNS_ERR_ENDPOINT);
        // SAFETY: live handles, freed once.
        unsafe { free_all(&[s], &[e], &[]) };
    }
    // SAFETY: a live map, freed once.
    unsafe { free_all(&[], &[], &[map]) };
}

/// Safe mode: after `cairns_engine_set_walls_later` the landmark engine
/// answers the edited map at once, optimally, and repair steps of a few
/// cells each end with the table exact.
#[test]
fn edits_answered_later_stay_optimal_while_the_repair_steps() {
    let (map, e, s) = open(c"astar/dh:3");
    // SAFETY: 3 points and 3 flags.
    let status =
        unsafe { cairns_engine_set_walls_later(e, EDIT_XY.as_ptr(), EDIT_WALLS.as_ptr(), 3) };
    assert_eq!(status, CAIRNS_OK, "{}", last_error());
    let g = edited_graph();
    let answers_as_dijkstra = || assert_answers_as(s, &g, "dijkstra", EDITED_QUERIES);
    answers_as_dijkstra();
    let (mut done, mut steps) = (0, 0);
    while done == 0 {
        // SAFETY: a live engine and an out-pointer.
        let status = unsafe { cairns_engine_repair_step(e, 3, &raw mut done) };
        assert_eq!(status, CAIRNS_OK, "{}", last_error());
        answers_as_dijkstra();
        steps += 1;
        assert!(steps < 1000, "the repair ends");
    }
    assert!(steps > 1, "a budget of 3 cells takes several steps");
    // Done stays done; a NULL `done` is refused.
    // SAFETY: a live engine, an out-pointer, then NULL.
    unsafe {
        assert_eq!(cairns_engine_repair_step(e, 3, &raw mut done), CAIRNS_OK);
        assert_eq!(done, 1);
        assert_error(
            cairns_engine_repair_step(e, 3, null_mut()),
            CAIRNS_ERR_NULL,
            "done",
        );
        free_all(&[s], &[e], &[map]);
    }
}

/// Goal bounding and subgoal graphs after an edit: the engine answers the
/// edited map at once (goal bounding's boxes dropped; the subgoal graph's
/// subgoals and edges repaired, its hierarchy flat), and
/// `cairns_engine_fill_boxes` fills the boxes in or ranks the graph again,
/// after which it answers as before and says it is done.
#[test]
fn tables_fill_in_after_an_edit() {
    for spec in [c"jps+bb", c"sub"] {
        let (map, e, s) = open(spec);
        let mut done = 0;
        // SAFETY: a live engine and an out-pointer.
        let status = unsafe { cairns_engine_fill_boxes(e, 1.0, &raw mut done) };
        assert_eq!(
            (status, done),
            (CAIRNS_OK, 1),
            "{spec:?} built whole: nothing to fill"
        );
        // SAFETY: 3 points and 3 flags.
        let status =
            unsafe { cairns_engine_set_walls(e, EDIT_XY.as_ptr(), EDIT_WALLS.as_ptr(), 3) };
        assert_eq!(status, CAIRNS_OK, "{}", last_error());
        let g = edited_graph();
        assert_answers_as(s, &g, "dijkstra", EDITED_QUERIES);
        // SAFETY: a live engine and an out-pointer.
        let status = unsafe { cairns_engine_fill_boxes(e, 0.0, &raw mut done) };
        assert_eq!(
            (status, done),
            (CAIRNS_OK, 0),
            "{spec:?}: no time, still to fill"
        );
        // SAFETY: as above.
        let status = unsafe { cairns_engine_fill_boxes(e, 60.0, &raw mut done) };
        assert_eq!((status, done), (CAIRNS_OK, 1), "{}", last_error());
        assert_answers_as(s, &g, "dijkstra", EDITED_QUERIES);
        // SAFETY: a live engine, out-pointers, NULL.
        unsafe {
            assert_error(
                cairns_engine_fill_boxes(e, f64::NAN, &raw mut done),
                CAIRNS_ERR_ARGUMENT,
                "seconds",
            );
            assert_error(
                cairns_engine_fill_boxes(e, -1.0, &raw mut done),
                CAIRNS_ERR_ARGUMENT,
                "seconds",
            );
            assert_error(
                cairns_engine_fill_boxes(e, 1.0, null_mut()),
                CAIRNS_ERR_NULL,
                "done",
            );
            free_all(&[s], &[e], &[map]);
        }
    }
    let mut done = 0;
    // SAFETY: NULL and an out-pointer.
    let status = unsafe { cairns_engine_fill_boxes(null(), 1.0, &raw mut done) };
    assert_error(status, CAIRNS_ERR_NULL, "engine");
}

/// `cairns_engine_new_with_tables` for `jps+` on `map` with the saved
/// tables at `ptrs` of `lens` bytes: its status and the engine.
///
/// # Safety
///
/// `map` is live; each pointer is valid for reads of its length.
unsafe fn with_tables(
    map: *const cairns_map, ptrs: &[*const u8], lens: &[usize],
) -> (cairns_status, *mut cairns_engine) {
    assert_eq!(ptrs.len(), lens.len());
    let mut out = null_mut();
    // SAFETY: the caller's contract; `ptrs` and `lens` of one length.
    let status = unsafe {
        cairns_engine_new_with_tables(
            map,
            c"jps+".as_ptr(),
            ptrs.as_ptr(),
            lens.as_ptr(),
            ptrs.len(),
            &raw mut out,
        )
    };
    (status, out)
}

#[test]
fn saved_tables_load_back_and_bad_ones_are_refused() {
    let (_, map) = parse(MAP, CAIRNS_MOVE_OCTILE as i32);
    let e = engine(map, c"jps+/dh:2");
    // SAFETY: live handles; size queries with NULL buffers of capacity 0.
    unsafe {
        assert_eq!(cairns_engine_table_count(e), 2);
        let mut saved = Vec::new();
        for i in 0..2 {
            let mut len = 0;
            assert_eq!(
                cairns_engine_save_table(e, i, null_mut(), 0, &raw mut len),
                CAIRNS_ERR_BUFFER_TOO_SMALL
            );
            let mut bytes = vec![0u8; len];
            assert_eq!(
                cairns_engine_save_table(e, i, bytes.as_mut_ptr(), len, &raw mut len),
                CAIRNS_OK
            );
            saved.push(bytes);
        }
        let ptrs: Vec<*const u8> = saved.iter().map(Vec::as_ptr).collect();
        let lens: Vec<usize> = saved.iter().map(Vec::len).collect();
        let (status, loaded) = with_tables(map, &ptrs, &lens);
        assert_eq!(status, CAIRNS_OK, "{}", last_error());
        let mut spec = [0 as c_char; 64];
        let mut len = 0;
        assert_eq!(
            cairns_engine_spec(loaded, spec.as_mut_ptr(), 64, &raw mut len),
            CAIRNS_OK
        );
        assert_eq!(CStr::from_ptr(spec.as_ptr()).to_str().unwrap().len(), len);
        let (a, b) = (searcher(e), searcher(loaded));
        assert_eq!(cost(a, (0, 4), (8, 0)), cost(b, (0, 4), (8, 0)));
        // A cut table.
        let cut = [saved[0].len() / 2];
        let (status, _) = with_tables(map, &ptrs[..1], &cut);
        assert_error(status, CAIRNS_ERR_TABLE, "tables[0]: cannot load the table");
        assert!(last_error().starts_with("tables[0]"), "{}", last_error());
        free_all(&[a, b], &[loaded, e], &[map]);
    }
}

#[test]
fn fields_nearest_budgets_and_components() {
    let (map, e, s) = open(c"astar");
    let g = graph();
    let cells = g.grid().len();
    let (mut distance, mut next) = (vec![0.0f64; cells], vec![0i32; cells]);
    // SAFETY: one goal, two buffers of `cells` values.
    unsafe {
        let status = cairns_engine_field(
            e,
            [8, 0].as_ptr(),
            1,
            distance.as_mut_ptr(),
            next.as_mut_ptr(),
            cells,
        );
        assert_eq!(status, CAIRNS_OK);
        assert_eq!(
            cairns_engine_field(
                e,
                [8, 0].as_ptr(),
                1,
                distance.as_mut_ptr(),
                null_mut(),
                cells - 1
            ),
            CAIRNS_ERR_ARGUMENT
        );
    }
    assert_eq!(distance[2 * 9 + 8], 2.0);
    assert_eq!(next[2 * 9 + 8], 9 + 8);
    assert_eq!(next[8], -1);
    assert_eq!(
        Some(distance[0]),
        library_cost(&g, "dijkstra", (0, 0), (8, 0))
    );
    let (mut len, mut c) = (0, 0.0);
    let mut xy = [0i32; 64];
    // SAFETY: two sources, two goals, a buffer of 32 points.
    let status = unsafe {
        cairns_search_nearest(
            s,
            [0, 0, 0, 4].as_ptr(),
            2,
            [8, 0, 8, 4].as_ptr(),
            2,
            xy.as_mut_ptr(),
            32,
            &raw mut len,
            &raw mut c,
        )
    };
    assert_eq!((status, c, len), (CAIRNS_OK, 8.0, 9));
    assert_eq!((xy[0], xy[1], xy[16], xy[17]), (0, 4, 8, 4));
    let (status, progress) = budgeted(s, [0, 0], [8, 0], 5, f64::INFINITY);
    assert_eq!(status, CAIRNS_PAUSED);
    assert!(progress.cost + progress.h <= 16.0);
    let (status, progress) = budgeted(s, [0, 0], [8, 0], 0, f64::INFINITY);
    assert_eq!(
        (status, progress.x, progress.y, progress.cost),
        (CAIRNS_OK, 8, 0, 16.0)
    );
    let mut stats = cairns_stats::default();
    // SAFETY: a live searcher, an out-pointer.
    assert_eq!(
        unsafe { cairns_searcher_stats(s, &raw mut stats) },
        CAIRNS_OK
    );
    assert!(stats.expanded > 5);
    assert_budget_resumes(s, stats.expanded);
    // Walling in the corner (0, 0) (its diagonal (1, 1) is a wall) makes
    // two components: "no path" without a search.
    let (mut a, mut b) = (0, 0);
    // SAFETY: a live engine, two points and two flags, out-pointers.
    unsafe {
        assert_eq!(cairns_engine_component(e, 0, 0, &raw mut a), CAIRNS_OK);
        assert_eq!(cairns_engine_component(e, 8, 4, &raw mut b), CAIRNS_OK);
        assert_eq!(a, b);
        assert_eq!(
            cairns_engine_set_walls(e, [1, 0, 0, 1].as_ptr(), [1, 1].as_ptr(), 2),
            CAIRNS_OK
        );
        assert_eq!(cairns_engine_component(e, 0, 0, &raw mut a), CAIRNS_OK);
        assert_eq!(cairns_engine_component(e, 8, 4, &raw mut b), CAIRNS_OK);
    }
    assert_ne!(a, b);
    assert_eq!(cost(s, (0, 0), (8, 4)), (CAIRNS_NO_PATH, f64::INFINITY));
    let mut stats = cairns_stats::default();
    // SAFETY: a live searcher, an out-pointer.
    unsafe { cairns_searcher_stats(s, &raw mut stats) };
    assert_eq!(
        stats.expanded, 0,
        "no path across components costs no search"
    );
    // SAFETY: live handles, freed once.
    unsafe { free_all(&[s], &[e], &[map]) };
}

#[test]
fn status_names_and_the_tolerance() {
    // SAFETY: static strings.
    let name = |s: i32| {
        unsafe { CStr::from_ptr(cairns_status_name(s)) }
            .to_str()
            .unwrap()
    };
    assert_eq!(name(CAIRNS_NO_PATH as i32), "CAIRNS_NO_PATH");
    assert_eq!(name(-11), "CAIRNS_ERR_PANIC");
    assert_eq!(name(42), "CAIRNS_UNKNOWN");
    assert_eq!(cairns_lengths_match(23.556_354, 23.5563, 4), 1);
    assert_eq!(cairns_lengths_match(24.0, 23.5563, 4), 0);
}

/// `cairns_map_with_size`: the 2x2 agent goes round by the lower gap, an
/// endpoint too tight for its block is `CAIRNS_ERR_ENDPOINT`, an edit of the
/// map closes the gap for it, and sizes out of range are refused.
#[test]
fn a_map_for_a_larger_agent_searches_its_blocks() {
    const GAPS: &str = "type octile\nheight 6\nwidth 7\nmap\n...@...\n.......\n...@...\n...@...\n.......\n.......\n";
    let (status, map) = parse(GAPS, CAIRNS_MOVE_OCTILE as i32);
    assert_eq!(status, CAIRNS_OK, "{}", last_error());
    let mut big = null_mut();
    // SAFETY: a live map and an out-pointer.
    unsafe {
        assert_eq!(cairns_map_with_size(map, 2, &raw mut big), CAIRNS_OK);
        assert_eq!(cairns_map_width(big), 7);
        let mut other = null_mut();
        assert_error(
            cairns_map_with_size(map, 0, &raw mut other),
            CAIRNS_ERR_ARGUMENT,
            "from 1 to 255",
        );
        assert_eq!(cairns_map_with_size(map, 2, null_mut()), CAIRNS_ERR_NULL);
    }
    let diagonal = cairns::grid::DIAGONAL;
    for spec in [c"astar", c"jps+", c"jps+bb", c"sub"] {
        let e = engine(big, spec);
        let s = searcher(e);
        assert_eq!(cost(s, (0, 0), (4, 0)), (CAIRNS_OK, 10.0 + diagonal));
        let (status, _) = cost(s, (2, 0), (0, 0));
        assert_error(
            status,
            CAIRNS_ERR_ENDPOINT,
            "not open to an agent of size 2",
        );
        // A wall in the lower gap: no way round for the 2x2 agent.
        let (xy, walls) = ([3, 4], [1u8]);
        // SAFETY: a live engine, one point and one flag.
        let status = unsafe { cairns_engine_set_walls(e, xy.as_ptr(), walls.as_ptr(), 1) };
        assert_eq!(status, CAIRNS_OK, "{}", last_error());
        assert_eq!(cost(s, (0, 0), (4, 0)).0, CAIRNS_NO_PATH);
        // SAFETY: live handles, each freed once.
        unsafe { free_all(&[s], &[e], &[]) };
    }
    // SAFETY: live maps, each freed once.
    unsafe { free_all(&[], &[], &[big, map]) };
}

/// `CAIRNS_MOVE_OCTILE_SQUEEZE`: a diagonal between two walls that touch
/// at a corner, which every other rule refuses.
#[test]
fn squeezing_between_walls_is_a_movement_of_its_own() {
    const CHECKER: &str = "type octile\nheight 2\nwidth 2\nmap\n.@\n@.\n";
    let rules = [
        (CAIRNS_MOVE_FOUR, None),
        (CAIRNS_MOVE_OCTILE, None),
        (CAIRNS_MOVE_OCTILE_CUT, None),
        (CAIRNS_MOVE_OCTILE_SQUEEZE, Some(cairns::grid::DIAGONAL)),
    ];
    for (rule, want) in rules {
        let (status, map) = parse(CHECKER, rule as i32);
        assert_eq!(status, CAIRNS_OK, "{}", last_error());
        let e = engine(map, c"astar");
        let s = searcher(e);
        let found = cost(s, (0, 0), (1, 1));
        match want {
            Some(c) => assert_eq!(found, (CAIRNS_OK, c), "{rule:?}"),
            None => assert_eq!(found.0, CAIRNS_NO_PATH, "{rule:?}"),
        }
        // SAFETY: live handles, each freed once.
        unsafe { free_all(&[s], &[e], &[map]) };
    }
}
