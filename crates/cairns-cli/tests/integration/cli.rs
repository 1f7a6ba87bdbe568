//! The `cairns` binary end to end: exit codes, output and error messages.
//!
//! Exit status: 0 success, 1 no path or a mismatch, 2 an error.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::{
    TempDir, assert_exit, assert_refused, assert_stderr_has, assert_stdout_has, cairns, cairns_ok,
    data, json, json_of, run, run_json, stderr, stdout,
};

/// A 9x5 map on which the shortest path from (0, 0) to (8, 0) goes down,
/// along the bottom row and up (cost 16: every diagonal would cut a corner).
const MAP: &str = "type octile\nheight 5\nwidth 9\nmap\n\
....@....\n\
.@@.@.@@.\n\
.@..@..@.\n\
.@.@@@.@.\n\
.........\n";

/// A 3x3 map whose right column is cut off by a wall.
const SPLIT: &str = "type octile\nheight 3\nwidth 3\nmap\n.@.\n.@.\n.@.\n";

#[test]
fn demo_prints_the_table() {
    // The default demo (`cairns` with no arguments: 500 queries on a 256x256
    // map) takes about 6 s of CPU in a debug build; the same code on a
    // smaller batch.
    let o = cairns(&["demo", "--queries", "50", "--size", "128"]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("cairns demo: generated 128x128"), "{out}");
    assert!(out.contains("50 equal"), "{out}");
    assert!(out.contains("mean expanded"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("A* octile")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("Dijkstra")), "{out}");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn help_and_version() {
    let o = cairns(&["--help"]);
    assert_exit(&o, 0);
    for command in ["demo", "path", "scen"] {
        assert_stdout_has(&o, command);
    }
    assert_exit(&cairns(&["--version"]), 0);
    // A usage error is an error.
    assert_exit(&cairns(&["path"]), 2);
}

#[test]
fn path_prints_cost_steps_expansions_and_the_map() {
    let (_dir, map) = TempDir::with("cli", "m.map", MAP);
    let out = cairns_ok(&["path", &map, "--from", "0,0", "--to", "8,0"]);
    assert!(out.contains("cost       16.000000"), "{out}");
    assert!(out.contains("steps      16"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("expanded")), "{out}");
    assert!(out.contains("map (s start, g goal, * path):"), "{out}");
    let drawn: Vec<&str> = out.lines().rev().take(5).collect();
    assert_eq!(
        drawn,
        [
            "*********",
            "*@.@@@.@*",
            "*@..@..@*",
            "*@@.@.@@*",
            "s...@...g"
        ],
        "{out}"
    );

    // 4-connected with the Manhattan heuristic: the same cost here.
    let o = run(
        "path {} --from 0,0 --to 8,0 --neighborhood 4 --heuristic manhattan --no-draw",
        &[&map],
    );
    assert_exit(&o, 0);
    assert!(stdout(&o).contains("cost       16.000000"));
    assert!(!stdout(&o).contains("map (s start"));
}

#[test]
fn path_exits_2_naming_file_and_line_for_a_malformed_map() {
    let (dir, map) = TempDir::with(
        "cli",
        "bad.map",
        "type octile\nheight 2\nwidth 3\nmap\n...\n.Q.\n",
    );
    let o = cairns(&["path", &map, "--from", "0,0", "--to", "2,0"]);
    assert_exit(&o, 2);
    assert_eq!(
        stderr(&o).trim(),
        format!("cairns: {map}: line 6: unknown tile 'Q' at (1, 1)")
    );
    assert!(stdout(&o).is_empty());

    let missing = dir.0.join("missing.map");
    let o = run("path {} --from 0,0 --to 1,0", &[missing.to_str().unwrap()]);
    assert_refused(&o, &["missing.map: cannot read the file"]);
}

/// Exit 1 when there is no path; 2 with the reason when an endpoint is
/// on a wall or off the map.
#[test]
fn path_exits_1_without_a_path_and_2_for_an_endpoint_on_a_wall_or_off_the_map() {
    let (_dir, map) = TempDir::with("cli", "split.map", SPLIT);
    let o = cairns(&["path", &map, "--from", "0,0", "--to", "2,2"]);
    assert_exit(&o, 1);
    assert!(
        stdout(&o).starts_with("no path from (0, 0) to (2, 2)"),
        "{}",
        stdout(&o)
    );
    let o = cairns(&["path", &map, "--from", "1,1", "--to", "0,0"]);
    assert_refused(&o, &["start (1, 1) is on a blocked tile '@'"]);
    let o = cairns(&["path", &map, "--from", "0,0", "--to", "3,0"]);
    assert_refused(&o, &["goal (3, 0) is outside", "split.map (3x3)"]);
    // Not a coordinate at all: a usage error.
    assert_exit(&cairns(&["path", &map, "--from", "-1,0", "--to", "0,0"]), 2);
}

#[test]
fn scen_json_on_a_real_file() {
    let scen = data("dao/den520d.map.scen");
    let j = json_of(&["scen", &scen, "--every", "20", "--json"]);
    for key in [
        "queries",
        "mismatches",
        "data_errors",
        "mean_expanded",
        "mean_us",
        "median_us",
        "total_s",
    ] {
        assert!(
            j.get(key).is_some_and(serde_json::Value::is_number),
            "{key} in {j}"
        );
    }
    // 890 lines, every 20th.
    assert_eq!(j["queries"], 45);
    assert_eq!(j["mismatches"], 0);
    assert_eq!(j["data_errors"], 0);
    assert!(j["mean_expanded"].as_f64().unwrap() > 0.0);
}

#[test]
fn scen_with_canonical_ordering_and_jump_point_search() {
    let scen = data("dao/den520d.map.scen");
    let plain = json(&cairns(&["scen", &scen, "--every", "20", "--json"]));
    for flag in ["--canonical", "--jps"] {
        let j = json_of(&["scen", &scen, "--every", "20", "--json", flag]);
        assert_eq!(j["queries"], 45, "{flag}");
        assert_eq!(j["mismatches"], 0, "{flag}");
    }
    let jps = json(&run("scen {} --every 20 --json --jps", &[&scen]));
    assert_eq!(jps["search"], "jps");
    // Jump points are far fewer than A*'s expansions.
    assert!(
        jps["mean_expanded"].as_f64().unwrap() * 5.0 < plain["mean_expanded"].as_f64().unwrap(),
        "{jps} vs {plain}"
    );
    // JPS searches with the octile heuristic only.
    let o = cairns(&["scen", &scen, "--jps", "--heuristic", "zero"]);
    assert_refused(&o, &["octile"]);
}

/// The rows of a `--per-query` table after its header: id, line, cost
/// (`None` for `none`), expanded, nanos.
fn per_query_rows(text: &str) -> Vec<(usize, usize, Option<f64>, u64, u64)> {
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("id\tline\tcost\texpanded\tnanos"),
        "{text}"
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l}");
            let cost = (f[2] != "none").then(|| f[2].parse().unwrap());
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                cost,
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn scen_per_query_table_matches_the_file_and_the_summary() {
    let scen = data("dao/den520d.map.scen");
    let dir = TempDir::new("cli");
    let table = dir.path("per-query.tsv");
    for search in ["astar", "jps"] {
        let j = run_json(
            "scen {} --every 20 --json --search {} --per-query {}",
            &[&scen, search, &table],
        );
        let rows = per_query_rows(&std::fs::read_to_string(&table).unwrap());
        assert_eq!(
            rows.len() as u64,
            j["queries"].as_u64().unwrap(),
            "{search}"
        );
        // Each row's line holds the scenario it ran; its cost is that line's
        // published length.
        let file = std::fs::read_to_string(&scen).unwrap();
        let file: Vec<&str> = file.lines().collect();
        for (i, &(id, line, cost, expanded, nanos)) in rows.iter().enumerate() {
            assert_eq!(id, i);
            let published: f64 = file[line - 1].split('\t').nth(8).unwrap().parse().unwrap();
            let cost = cost.unwrap_or_else(|| panic!("{search} line {line}: no path"));
            assert!(
                (cost - published).abs() < 1e-3 * published.max(1.0),
                "line {line}: {cost} vs {published}"
            );
            assert!(expanded >= 1 && nanos > 0, "line {line}");
        }
        // Every 20th scenario, in file order.
        assert!(rows.windows(2).all(|w| w[1].1 == w[0].1 + 20), "{search}");
        let n = rows.len() as f64;
        let mean_expanded = rows.iter().map(|r| r.3 as f64).sum::<f64>() / n;
        assert!(
            (mean_expanded - j["mean_expanded"].as_f64().unwrap()).abs() < 1e-9,
            "{search}"
        );
        let mean_us = rows.iter().map(|r| r.4 as f64).sum::<f64>() / n / 1e3;
        assert!(
            (mean_us - j["mean_us"].as_f64().unwrap()).abs() < 1e-2,
            "{search}: {mean_us} vs {j}"
        );
    }
}

#[test]
fn scen_per_query_to_stdout_marks_no_path() {
    let (dir, _) = TempDir::with("cli", "split.map", SPLIT);
    let scen = dir.file(
        "split.map.scen",
        "version 1\n0\tsplit.map\t3\t3\t0\t0\t0\t2\t2\n0\tsplit.map\t3\t3\t0\t0\t2\t0\t2\n",
    );
    let o = cairns(&["scen", &scen, "--per-query", "-"]);
    // The second query has no path: a mismatch, exit 1, and the table says so.
    assert_exit(&o, 1);
    let out = stdout(&o);
    let table = &out[out.find("id\tline").unwrap_or_else(|| panic!("{out}"))..];
    let rows = per_query_rows(table);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].2, Some(2.0));
    assert_eq!((rows[1].1, rows[1].2), (3, None));
}

#[test]
fn scen_table_output() {
    let scen = data("dao/arena.map.scen");
    let o = cairns(&["scen", &scen, "--every", "8"]);
    assert_exit(&o, 0);
    assert_stdout_has(&o, "scenarios    20");
    assert_stdout_has(&o, "mismatches   0");
}

#[test]
fn scen_exits_1_on_a_wrong_length() {
    let (dir, _) = TempDir::with("cli", "m.map", MAP);
    let scen = dir.file(
        "m.map.scen",
        "version 1\n\
         0\tm.map\t9\t5\t0\t0\t8\t0\t16\n\
         0\tm.map\t9\t5\t0\t0\t8\t4\t12\n\
         0\tm.map\t9\t5\t0\t0\t0\t4\t5\n",
    );
    let o = cairns(&["scen", &scen, "--json"]);
    assert_exit(&o, 1);
    let j = json(&o);
    assert_eq!(j["queries"], 3);
    assert_eq!(j["mismatches"], 1);
    assert!(
        stderr(&o)
            .contains("line 4: mismatch from (0, 0) to (0, 4): published 5, found 4.00000000"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn scen_against_dijkstra_reports_data_errors_on_wc3maps512() {
    // losttemple has 56 lines with a blocked endpoint (INVENTORY.md).
    let scen = data("wc3maps512/losttemple.map.scen");
    let args = [
        "scen",
        &scen,
        "--against",
        "dijkstra",
        "--every",
        "25",
        "--json",
    ];
    // Data errors fail the run (a wrong file must not pass a CI job)...
    let o = cairns(&args);
    assert_exit(&o, 1);
    assert_stderr_has(&o, "--skip-data-errors");
    // ... unless the user asks to skip them.
    let o = cairns(&[&args[..], &["--skip-data-errors"]].concat());
    assert_exit(&o, 0);
    let j = json(&o);
    assert!(j["data_errors"].as_u64().unwrap() > 0, "{j}");
    assert_eq!(j["mismatches"], 0);
    assert_eq!(j["against"], "dijkstra");
    assert_stderr_has(&o, "data error: line");
    assert_stderr_has(&o, "is on a blocked tile");
}

#[test]
fn scen_without_its_map_suggests_map_option() {
    let (dir, scen) = TempDir::with(
        "cli",
        "lonely.map.scen",
        "version 1\n0\tx.map\t3\t3\t0\t0\t1\t1\t1.41421\n",
    );
    let o = cairns(&["scen", &scen]);
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(err.contains("--map"), "{err}");
    assert!(err.contains("lonely.map"), "{err}");

    // Given with --map, it runs; (1, 1) is a wall there, so the one line
    // is a data error, which is reported, is not a mismatch, and fails the
    // run: a file in which every line is a data error must not pass.
    let map = dir.file("elsewhere.map", SPLIT);
    let o = cairns(&["scen", &scen, "--map", &map, "--json"]);
    assert_exit(&o, 1);
    let j = json(&o);
    assert_eq!(
        (&j["queries"], &j["data_errors"]),
        (&0.into(), &1.into()),
        "{j}"
    );
}

#[test]
fn closed_pipe_exits_quietly() {
    let (_dir, map) = TempDir::with("cli", "m.map", MAP);
    let mut child = Command::new(env!("CARGO_BIN_EXE_cairns"))
        .args(["path", &map, "--from", "0,0", "--to", "8,0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end before the child has written anything (it reads
    // the map first), as `cairns path ... | head -c 0` would.
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(stderr(&o).is_empty(), "stderr: {}", stderr(&o));
    assert_exit(&o, 0);
}

/// The map file is found beside the scenario file by name, whatever the
/// scenario's own map column says.
#[test]
fn scen_finds_its_map_by_file_name() {
    assert!(Path::new(&data("bg512/AR0011SR.map")).is_file());
    let o = run(
        "scen {} --every 100 --json",
        &[&data("bg512/AR0011SR.map.scen")],
    );
    assert_exit(&o, 0);
    assert_eq!(json(&o)["mismatches"], 0);
}

#[test]
fn scen_on_threads_matches_the_serial_run() {
    let scen = data("dao/arena.map.scen");
    let run = |threads: &str, search: &str| {
        run_json(
            "scen {} --search {} --threads {} --json",
            &[&scen, search, threads],
        )
    };
    for search in ["astar", "jps"] {
        let serial = run("1", search);
        let parallel = run("2", search);
        assert_eq!(parallel["threads"], 2);
        for key in ["queries", "mismatches", "mean_expanded", "max_open"] {
            assert_eq!(serial[key], parallel[key], "{search} {key}");
        }
        assert!(serial["queries"].as_u64().unwrap() > 100);
    }
}

/// Regression test: a missing `.scen` file gave no reason ("cannot read
/// the file"); the system's is printed too.
#[test]
fn a_missing_scenario_file_gives_the_reason() {
    let o = cairns(&["scen", "/nonexistent/x.map.scen"]);
    assert_refused(
        &o,
        &["/nonexistent/x.map.scen", "No such file or directory"],
    );
}

/// Regression test: `4` and `8` and `8-cut` were the CLI's names, `octile`
/// and `octile-cut` Python's: both are read everywhere.
#[test]
fn movement_rules_take_the_python_names_too() {
    let (_dir, map) = TempDir::with("cli-names", "m.map", MAP);
    let path = |name: &str| {
        cairns(&[
            "path",
            &map,
            "--from",
            "0,0",
            "--to",
            "8,0",
            "--no-draw",
            "--neighborhood",
            name,
        ])
    };
    for name in ["8", "octile", "4", "four", "8-cut", "octile-cut"] {
        assert_exit(&path(name), 0);
    }
    let o = path("6");
    assert_refused(&o, &["6"]);
}
