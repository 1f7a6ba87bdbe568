//! The graph entry points as C calls them: engines from edge arrays and
//! from a road graph file, every search's costs and paths against the
//! library's Dijkstra, bad input refused with its status and message.

#![expect(
    clippy::many_single_char_names,
    reason = "the tests read as C does: short handle names"
)]

use std::ffi::CStr;
use std::ptr::{null, null_mut};

use cairns::graph::{NodeId, read_graph};
use cairns::search::{Dijkstra, Search as _, SearchCache};
use cairns_capi::cairns_status::{
    CAIRNS_ERR_ARGUMENT, CAIRNS_ERR_BUFFER_TOO_SMALL, CAIRNS_ERR_ENDPOINT, CAIRNS_ERR_HANDLE,
    CAIRNS_ERR_IO, CAIRNS_ERR_NULL, CAIRNS_ERR_PARSE, CAIRNS_ERR_SPEC, CAIRNS_NO_PATH, CAIRNS_OK,
};
use cairns_capi::*;

fn last_error() -> String {
    // SAFETY: a NUL-terminated string valid until the next call here.
    unsafe { CStr::from_ptr(cairns_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// A searcher of a new engine of `search` on the four-node graph
/// `0 -> 2 -> 1 -> 3` (cost 4, beside a direct 0 -> 1 of 4).
fn small(search: &CStr) -> (*mut cairns_graph_engine, *mut cairns_graph_searcher) {
    let (s, t, w) = ([0u32, 0, 2, 1], [1u32, 2, 1, 3], [4.0, 1.0, 2.0, 1.0]);
    let mut e = null_mut();
    let mut r = null_mut();
    // SAFETY: arrays of 4 values, a NUL-terminated search, out-pointers.
    unsafe {
        let status = cairns_graph_engine_from_edges(
            4,
            s.as_ptr(),
            t.as_ptr(),
            w.as_ptr(),
            4,
            search.as_ptr(),
            &raw mut e,
        );
        assert_eq!(status, CAIRNS_OK, "{}", last_error());
        assert_eq!(cairns_graph_searcher_new(e, &raw mut r), CAIRNS_OK);
    }
    (e, r)
}

#[test]
fn every_graph_search_answers_costs_and_paths() {
    for search in [
        c"dijkstra",
        c"bidijkstra",
        c"alt:4",
        c"ch",
        c"hl",
        c"astar/fastmap:4",
    ] {
        let (e, r) = small(search);
        let (mut cost, mut len) = (0.0, 0);
        let mut nodes = [0u32; 8];
        // SAFETY: live handles, out-pointers and a buffer of 8 values.
        unsafe {
            assert_eq!(cairns_graph_engine_node_count(e), 4);
            assert_eq!(cairns_graph_cost(r, 0, 3, &raw mut cost), CAIRNS_OK);
            assert_eq!(cost, 4.0);
            let status =
                cairns_graph_path(r, 0, 3, nodes.as_mut_ptr(), 8, &raw mut len, &raw mut cost);
            assert_eq!((status, len, cost), (CAIRNS_OK, 4, 4.0));
            assert_eq!(nodes[..4], [0, 2, 1, 3]);
            // Too small a buffer says how long the path is.
            let status =
                cairns_graph_path(r, 0, 3, nodes.as_mut_ptr(), 2, &raw mut len, &raw mut cost);
            assert_eq!((status, len), (CAIRNS_ERR_BUFFER_TOO_SMALL, 4));
            assert_eq!(cairns_graph_cost(r, 3, 0, &raw mut cost), CAIRNS_NO_PATH);
            assert!(cost.is_infinite());
            assert_eq!(
                cairns_graph_cost(r, 0, 4, &raw mut cost),
                CAIRNS_ERR_ENDPOINT
            );
            assert_eq!(last_error(), "goal 4 is outside the graph's nodes 0 to 3");
            // The searcher outlives its engine.
            assert_eq!(cairns_graph_engine_free(e), CAIRNS_OK);
            assert_eq!(cairns_graph_cost(r, 0, 3, &raw mut cost), CAIRNS_OK);
            assert_eq!(cairns_graph_searcher_free(r), CAIRNS_OK);
        }
    }
}

#[test]
fn a_road_graph_file_answers_as_dijkstra() {
    let file = cairns_testdata::road_file("dimacs/rome99.gr");
    let graph = read_graph(&file).unwrap();
    let path = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
    let mut e = null_mut();
    let mut r = null_mut();
    let mut reference = SearchCache::new();
    // SAFETY: NUL-terminated strings, out-pointers, live handles.
    unsafe {
        assert_eq!(
            cairns_graph_engine_read(path.as_ptr(), c"ch".as_ptr(), &raw mut e),
            CAIRNS_OK
        );
        assert_eq!(cairns_graph_engine_first_id(e), 1);
        assert_eq!(cairns_graph_searcher_new(e, &raw mut r), CAIRNS_OK);
        for (s, t) in [(0, 2999), (17, 3300), (2000, 5), (3352, 0)] {
            let want = Dijkstra::new(&graph).search_cost(NodeId(s), NodeId(t), &mut reference);
            let mut cost = 0.0;
            assert_eq!(cairns_graph_cost(r, s, t, &raw mut cost), CAIRNS_OK);
            assert_eq!(Some(cost), want, "{s} -> {t}");
        }
        cairns_graph_searcher_free(r);
        cairns_graph_engine_free(e);
    }
}

/// An OpenStreetMap extract read through the C API: `astar` takes its
/// places and settles fewer nodes than Dijkstra for the same costs;
/// `hl` settles none, and a NULL searcher counts 0.
#[test]
fn an_extract_gives_astar_its_places() {
    let file = cairns_testdata::road_file("osm/andorra.osm.pbf");
    let path = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
    let queries = [(0, 9000), (123, 16_000), (8000, 42)];
    let mut settled = Vec::new();
    let mut costs = Vec::new();
    for search in [c"dijkstra", c"astar", c"hl"] {
        let (mut e, mut r) = (null_mut(), null_mut());
        // SAFETY: NUL-terminated strings, out-pointers, live handles.
        unsafe {
            assert_eq!(
                cairns_graph_engine_read(path.as_ptr(), search.as_ptr(), &raw mut e),
                CAIRNS_OK
            );
            assert_eq!(cairns_graph_engine_first_id(e), 0);
            assert_eq!(cairns_graph_searcher_new(e, &raw mut r), CAIRNS_OK);
            assert_eq!(cairns_graph_settled(r), 0);
            let mut total = 0;
            let mut mine = Vec::new();
            for (s, t) in queries {
                let mut cost = 0.0;
                assert_eq!(cairns_graph_cost(r, s, t, &raw mut cost), CAIRNS_OK);
                mine.push(cost);
                total += cairns_graph_settled(r);
            }
            costs.push(mine);
            settled.push(total);
            cairns_graph_searcher_free(r);
            cairns_graph_engine_free(e);
            assert_eq!(cairns_graph_settled(null()), 0);
        }
    }
    assert_eq!(costs[0], costs[1]);
    assert_eq!(costs[0], costs[2]);
    assert!(settled[1] * 2 < settled[0], "{settled:?}");
    assert_eq!(settled[2], 0);
}

#[test]
fn bad_graphs_and_handles_are_refused() {
    let dir = std::env::temp_dir().join(format!("cairns-capi-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.gr");
    std::fs::write(&bad, "p sp 2 1\na 1 3 1\n").unwrap();
    let bad = std::ffi::CString::new(bad.to_str().unwrap()).unwrap();
    let missing = std::ffi::CString::new(dir.join("missing.gr").to_str().unwrap()).unwrap();
    let mut e = null_mut();
    // SAFETY: NUL-terminated strings or NULL, out-pointers, arrays of one.
    unsafe {
        assert_eq!(
            cairns_graph_engine_read(bad.as_ptr(), c"ch".as_ptr(), &raw mut e),
            CAIRNS_ERR_PARSE
        );
        assert!(last_error().contains("bad.gr: line 2"), "{}", last_error());
        assert_eq!(
            cairns_graph_engine_read(missing.as_ptr(), c"ch".as_ptr(), &raw mut e),
            CAIRNS_ERR_IO
        );
        assert_eq!(
            cairns_graph_engine_read(bad.as_ptr(), c"chh".as_ptr(), &raw mut e),
            CAIRNS_ERR_SPEC
        );
        assert!(
            last_error().contains("unknown graph search"),
            "{}",
            last_error()
        );
        assert_eq!(
            cairns_graph_engine_read(null(), c"ch".as_ptr(), &raw mut e),
            CAIRNS_ERR_NULL
        );
        let (s, t, w) = ([0u32], [5u32], [1.0]);
        let status = cairns_graph_engine_from_edges(
            2,
            s.as_ptr(),
            t.as_ptr(),
            w.as_ptr(),
            1,
            c"ch".as_ptr(),
            &raw mut e,
        );
        assert_eq!(status, CAIRNS_ERR_ARGUMENT, "{}", last_error());
        assert!(e.is_null());
        // A searcher's handle is not an engine's.
        let (e2, r2) = small(c"dijkstra");
        let mut r3 = null_mut();
        let status = cairns_graph_searcher_new(r2.cast::<cairns_graph_engine>(), &raw mut r3);
        assert_eq!(status, CAIRNS_ERR_HANDLE, "{}", last_error());
        cairns_graph_searcher_free(r2);
        cairns_graph_engine_free(e2);
        assert_eq!(cairns_graph_engine_free(null_mut()), CAIRNS_OK);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
