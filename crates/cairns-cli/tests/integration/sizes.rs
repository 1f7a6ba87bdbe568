//! `--size K`: agents of K x K cells through the commands that search.

use super::{TempDir, assert_refused, cairns, cairns_ok, data, json_of};

/// A wall down the middle with a gap one cell high (row 1) and one two
/// cells high (rows 4 and 5): the 1-cell agent takes the upper gap, the
/// 2x2 one goes round by the lower gap, and the 3x3 one cannot pass.
const GAPS: &str =
    "type octile\nheight 6\nwidth 7\nmap\n...@...\n.......\n...@...\n...@...\n.......\n.......\n";

#[test]
fn path_takes_the_gap_the_agent_fits_through_and_says_its_size() {
    let dir = TempDir::new("size-gaps");
    let map = dir.file("gaps.map", GAPS);
    let cost = |size: &str, search: &str| {
        let j = json_of(&[
            "path", &map, "--from", "0,0", "--to", "4,0", "--size", size, "--search", search,
            "--json",
        ]);
        assert_eq!(j["size"].as_u64().unwrap().to_string(), size, "{j}");
        j["cost"].as_f64()
    };
    let d = cairns::grid::DIAGONAL;
    for search in ["astar", "jps", "jps+", "jps+bb", "sub", "dijkstra"] {
        assert_eq!(cost("1", search), Some(4.0 + d), "{search}");
        // Down 4 (one diagonal), across 3 in the lower gap, up 4.
        assert_eq!(cost("2", search), Some(10.0 + d), "{search}");
    }
    // No 3x3 block passes either gap: no path (exit 1).
    let o = cairns(&[
        "path", &map, "--from", "0,0", "--to", "4,0", "--size", "3", "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(super::json(&o)["cost"].is_null());
    let text = cairns_ok(&[
        "path",
        &map,
        "--from",
        "0,0",
        "--to",
        "4,0",
        "--size",
        "2",
        "--no-draw",
    ]);
    assert!(text.contains("size       2 (a 2x2 agent"), "{text}");
}

#[test]
fn an_endpoint_too_tight_for_the_agent_or_terrain_with_a_size_is_refused() {
    let dir = TempDir::new("size-refused");
    let map = dir.file("gaps.map", GAPS);
    let o = cairns(&[
        "path",
        &map,
        "--from",
        "2,0",
        "--to",
        "0,0",
        "--size",
        "2",
        "--no-draw",
    ]);
    assert_refused(
        &o,
        &[
            "start (2, 0) is not open to an agent of size 2",
            "2x2 block",
        ],
    );
    let o = cairns(&[
        "path",
        &map,
        "--from",
        "0,0",
        "--to",
        "1,0",
        "--size",
        "2",
        "--terrain",
        "S=3",
        "--no-draw",
    ]);
    assert_refused(&o, &["terrain costs"]);
    for bad in ["0", "256"] {
        let o = cairns(&["path", &map, "--from", "0,0", "--to", "1,0", "--size", bad]);
        assert_refused(&o, &["--size"]);
    }
}

/// `scen --size 2` leaves out the scenarios too tight for the agent, checks
/// the others against Dijkstra, and says both; `choose --size` passes the
/// size on to its `run:` line.
#[test]
fn scen_and_choose_take_a_size() {
    let scen = data("dao/den520d.map.scen");
    let j = json_of(&[
        "scen", &scen, "--every", "40", "--search", "jps+", "--size", "2", "--json",
    ]);
    assert_eq!(j["size"], 2, "{j}");
    assert_eq!(j["against"], "dijkstra", "{j}");
    assert_eq!(j["mismatches"], 0, "{j}");
    let (kept, tight) = (
        j["queries"].as_u64().unwrap(),
        j["too_tight"].as_u64().unwrap(),
    );
    let all = json_of(&["scen", &scen, "--every", "40", "--search", "jps+", "--json"]);
    assert_eq!(kept + tight, all["queries"].as_u64().unwrap(), "{j}");
    assert!(kept > 0 && tight > 0, "{j}");

    let out = cairns_ok(&["choose", &data("dao/den520d.map"), "--size", "3"]);
    assert!(out.contains("--size 3 "), "{out}");
}

/// `field --size` and `landmarks build --size`: the field reaches fewer
/// cells for a larger agent, and a landmark table built for one size loads
/// for that size only.
#[test]
fn fields_and_landmark_tables_take_a_size() {
    let map = data("dao/den520d.map");
    let reached = |size: &str| {
        json_of(&["field", &map, "--to", "100,100", "--size", size, "--json"])["reached"]
            .as_u64()
            .unwrap()
    };
    let (one, three) = (reached("1"), reached("3"));
    assert!(0 < three && three < one, "{three} of {one}");

    let dir = TempDir::new("size-landmarks");
    let table = dir.path("two.lm");
    cairns_ok(&[
        "landmarks",
        "build",
        &map,
        "-k",
        "4",
        "--size",
        "2",
        "-o",
        &table,
    ]);
    let search = |size: &str| {
        cairns(&[
            "path",
            &map,
            "--from",
            "100,100",
            "--to",
            "200,200",
            "--size",
            size,
            "--table",
            &table,
            "--heuristic",
            "dh:4",
            "--json",
        ])
    };
    let o = search("2");
    assert_eq!(o.status.code(), Some(0), "{}", super::stderr(&o));
    let plain = json_of(&[
        "path", &map, "--from", "100,100", "--to", "200,200", "--size", "2", "--json",
    ]);
    assert_eq!(super::json(&o)["cost"], plain["cost"]);
    assert_refused(&search("1"), &["built for another map or agent size"]);
}
