//! `cairns jump-table build`, `--search jps+` and `--jump-table FILE`.

use crate::{
    TempDir, assert_exit, assert_file_refused, assert_refused, assert_stderr_has,
    assert_stdout_has, cairns, json, rooms_and_scen, rooms_dir, rooms_map, run, run_json, scen_for,
    stderr, stdout, two_maps,
};

#[test]
fn build_then_scen_and_path_with_the_file_match_dijkstra() {
    let dir = TempDir::new("jump-table-build");
    let (map, grid) = rooms_map(&dir, "rooms.map", 3);
    let scen = scen_for(&dir, "rooms.map", &grid);
    let table = dir.path("rooms.jt");
    let o = cairns(&["jump-table", "build", &map, "-o", &table]);
    assert_exit(&o, 0);
    assert_stdout_has(&o, "table bytes 49152");
    // The header, the size and the movement rule, the entries, the sum.
    assert_eq!(std::fs::metadata(&table).unwrap().len(), 32 + 49_152 + 8);

    // --jump-table alone implies jps+.
    let j = run_json(
        "scen {} --jump-table {} --against dijkstra --json",
        &[&scen, &table],
    );
    assert_eq!(j["search"], "jps+", "{j}");
    assert_eq!(j["table_files"][0], table.as_str(), "{j}");
    assert_eq!(j["tables"][0]["kind"], "jumps", "{j}");
    assert_eq!(j["tables"][0]["given"], true, "{j}");
    assert_eq!(j["queries"], 40, "{j}");
    assert_eq!(j["mismatches"], 0, "{j}");
    assert_eq!(j["table_bytes"], 49_152, "{j}");
    assert!(j["preprocess_s"].as_f64().unwrap() > 0.0, "{j}");

    // With a landmark heuristic built on the fly, and without the file.
    for extra in [&["--heuristic", "dh:2"][..], &["--search", "jps+"][..]] {
        let mut args = vec!["scen", &scen, "--against", "dijkstra", "--json"];
        args.extend_from_slice(extra);
        if extra[0] == "--heuristic" {
            args.extend_from_slice(&["--jump-table", &table]);
        }
        let o = cairns(&args);
        assert_exit(&o, 0);
        let j = json(&o);
        assert_eq!(j["mismatches"], 0, "{extra:?}: {j}");
        assert_eq!(j["search"], "jps+", "{j}");
    }

    let free = |i: usize| {
        (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.is_passable(x, y))
            .nth(i)
            .unwrap()
    };
    let (a, b) = (free(0), free(1500));
    let from = format!("{},{}", a.0, a.1);
    let to = format!("{},{}", b.0, b.1);
    let base = ["path", &map, "--from", &from, "--to", &to, "--no-draw"];
    let astar = cairns(&base);
    assert_exit(&astar, 0);
    let plus = cairns(&[&base[..], &["--jump-table", &table]].concat());
    assert_exit(&plus, 0);
    let cost = |o: &std::process::Output| stdout(o).lines().next().unwrap().to_string();
    assert_eq!(cost(&astar), cost(&plus));
    assert_stdout_has(&plus, "table bytes 49152");
}

#[test]
fn a_jump_table_of_another_map_or_search_truncated_corrupt_or_newer_is_an_error() {
    let dir = TempDir::new("jump-table-other");
    let (map_a, scen_b) = two_maps(&dir);
    let table = dir.path("a.jt");
    assert_exit(&cairns(&["jump-table", "build", &map_a, "-o", &table]), 0);
    let o = cairns(&["scen", &scen_b, "--jump-table", &table, "--json"]);
    assert_file_refused(&o, &table, "built for another map");

    let scen_a = scen_for(&dir, "a.map", &rooms_map(&dir, "a.map", 3).1);
    let o = cairns(&["scen", &scen_a, "--jump-table", &table, "--search", "astar"]);
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("--table") && err.contains("a jump table is for the jps+ search"),
        "{err}"
    );

    // Truncated, corrupt or newer: an error, not a panic.
    let (map, scen) = rooms_and_scen(&dir);
    let table = dir.path("rooms.jt");
    assert_exit(&cairns(&["jump-table", "build", &map, "-o", &table]), 0);
    let bytes = std::fs::read(&table).unwrap();
    let edited = |at: usize, value: u8| {
        let mut b = bytes.clone();
        b[at] ^= value;
        b
    };
    for (name, contents, expected) in [
        ("cut.jt", bytes[..bytes.len() / 2].to_vec(), "truncated"),
        ("empty.jt", Vec::new(), "truncated"),
        ("junk.jt", b"not a jump table".to_vec(), "bad magic"),
        ("flipped.jt", edited(bytes.len() / 2, 0x40), "corrupt"),
        (
            "version.jt",
            edited(8, 0x04),
            "jump table: unsupported file version 7 (this library reads versions 2 to 3",
        ),
    ] {
        let path = dir.path(name);
        std::fs::write(&path, contents).unwrap();
        let o = run(
            "scen {} --jump-table {} --against dijkstra",
            &[&scen, &path],
        );
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert!(err.contains(name), "{name}: {err}");
        assert!(err.contains(expected), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

/// `jps+` under the other movement rules: a table built and saved under a
/// rule answers that rule's scenarios as Dijkstra does, and is refused
/// under another rule; goal bounding still needs octile movement.
#[test]
fn jps_plus_runs_under_every_rule_and_its_table_keeps_the_rule() {
    let dir = TempDir::new("jump-table-rules");
    let (map, scen) = rooms_and_scen(&dir);
    for rule in ["4", "8-cut", "8-squeeze"] {
        let table = dir.path(&format!("rooms-{rule}.jt"));
        let o = run(
            "table build {} --search jps+ --neighborhood {} -o {}",
            &[&map, rule, &table],
        );
        assert_exit(&o, 0);
        let j = run_json(
            "scen {} --table {} --neighborhood {} --json",
            &[&scen, &table, rule],
        );
        assert_eq!(j["search"], "jps+", "{rule}: {j}");
        assert_eq!(j["against"], "dijkstra", "{rule}: {j}");
        assert_eq!(j["tables"][0]["given"], true, "{rule}: {j}");
        assert_eq!(j["mismatches"], 0, "{rule}: {j}");
        assert!(j["queries"].as_u64().unwrap() > 0, "{rule}: {j}");
        let o = run("scen {} --table {}", &[&scen, &table]);
        assert_file_refused(&o, &table, "another movement rule");
    }
    let (_dir, map) = rooms_dir("jump-table-four");
    let o = run(
        "path {} --from 1,1 --to 2,2 --neighborhood 4 --search jps+bb",
        &[&map],
    );
    assert_refused(&o, &["octile movement"]);
}

/// `cairns table build` saves the one table a search builds, the same
/// bytes as `jump-table build`; `--table` takes files of several kinds at
/// once, each told apart by its magic and reported on a line of its own;
/// a search that builds no table, or two, is refused with the reason.
#[test]
fn table_build_and_tables_of_several_kinds() {
    let dir = TempDir::new("table-build");
    let (map, scen) = rooms_and_scen(&dir);
    let (jt, old, lm) = (dir.path("a.jt"), dir.path("b.jt"), dir.path("a.lm"));
    assert_exit(
        &cairns(&["table", "build", &map, "--search", "jps+", "-o", &jt]),
        0,
    );
    assert_exit(&cairns(&["jump-table", "build", &map, "-o", &old]), 0);
    assert_eq!(std::fs::read(&jt).unwrap(), std::fs::read(&old).unwrap());
    assert_exit(
        &cairns(&["landmarks", "build", &map, "-k", "3", "-o", &lm]),
        0,
    );

    let j = run_json(
        "scen {} --table {} --table {} --against dijkstra --json",
        &[&scen, &lm, &jt],
    );
    assert_eq!(j["search"], "jps+", "{j}");
    assert_eq!(j["heuristic"], "dh:3", "{j}");
    assert_eq!(j["mismatches"], 0, "{j}");
    let kinds: Vec<&str> = j["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["landmarks", "jumps"], "{j}");
    let o = run(
        "scen {} --table {} --table {} --against dijkstra",
        &[&scen, &jt, &lm],
    );
    assert_exit(&o, 0);
    assert_stdout_has(&o, "table        landmarks loaded in");
    assert_stdout_has(&o, "table        jumps loaded in");

    for (search, says) in [
        (&["--search", "astar"][..], "builds no table"),
        (
            &["--search", "jps+", "--heuristic", "dh:2"][..],
            "builds 2 tables (landmarks, jumps)",
        ),
    ] {
        let o = cairns(&[&["table", "build", &map, "-o", &jt][..], search].concat());
        assert_exit(&o, 2);
        assert_stderr_has(&o, says);
    }
    let o = run("scen {} --table {} --table {}", &[&scen, &jt, &old]);
    assert_refused(&o, &["a second jump table"]);
}

/// `cairns table build --search jps+bb` saves the goal-bounding table
/// (saying how many jump points got boxes); `--table` with it alone
/// implies `jps+bb`, whose costs match Dijkstra's; `jps+` refuses it.
#[test]
fn goal_bounding_table_build_and_load() {
    let dir = TempDir::new("bounds-build");
    let (map, scen) = rooms_and_scen(&dir);
    let gb = dir.path("a.gb");
    let o = cairns(&["table", "build", &map, "--search", "jps+bb", "-o", &gb]);
    assert_exit(&o, 0);
    assert_stdout_has(&o, "table       bounds");
    assert_stdout_has(&o, "boxes       ");
    assert_eq!(&std::fs::read(&gb).unwrap()[..8], b"CAIRNSGB");

    let j = run_json(
        "scen {} --table {} --against dijkstra --json",
        &[&scen, &gb],
    );
    assert_eq!(j["search"], "jps+bb", "{j}");
    assert_eq!(j["tables"][0]["kind"], "bounds", "{j}");
    assert_eq!(j["tables"][0]["given"], true, "{j}");
    assert_eq!(j["mismatches"], 0, "{j}");
    let j = run_json(
        "scen {} --search jps+bb --against dijkstra --json",
        &[&scen],
    );
    assert_eq!(j["mismatches"], 0, "{j}");

    let o = run("scen {} --search jps+ --table {}", &[&scen, &gb]);
    assert_refused(&o, &["goal-bounding table is for the jps+bb search"]);
}

/// `cairns table build --seconds S` builds `jps+bb`'s and `sub`'s tables
/// within S seconds instead of their searches' budgets: 0 leaves every
/// jump point without boxes (the table still answers, as JPS+), 600 boxes
/// them all, and the flag is refused for a search it does not bound and
/// for a bad number.
#[test]
fn table_build_takes_a_budget_in_seconds() {
    let dir = TempDir::new("bounds-seconds");
    let (map, scen) = rooms_and_scen(&dir);
    let build = |search: &str, seconds: &str, out: &str| {
        let seconds = format!("--seconds={seconds}");
        cairns(&[
            "table", "build", &map, "--search", search, &seconds, "-o", out,
        ])
    };
    // "boxes       B of J jump points": (B, J).
    let boxed = |o: &std::process::Output| {
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let line = out.lines().find_map(|l| l.strip_prefix("boxes       "));
        let words: Vec<u64> = line
            .unwrap()
            .split(' ')
            .filter_map(|w| w.parse().ok())
            .collect();
        (words[0], words[1])
    };
    let gb = dir.path("a.gb");
    for (seconds, all) in [("0", false), ("600", true)] {
        let o = build("jps+bb", seconds, &gb);
        assert_exit(&o, 0);
        let (boxes, points) = boxed(&o);
        assert!(points > 0);
        assert_eq!(boxes, if all { points } else { 0 }, "--seconds {seconds}");
        let j = run_json(
            "scen {} --table {} --against dijkstra --json",
            &[&scen, &gb],
        );
        assert_eq!(j["mismatches"], 0, "{j}");
    }

    // "core        C of S subgoals, B boxed": (C, S, B).
    let core = |o: &std::process::Output| {
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let line = out.lines().find_map(|l| l.strip_prefix("core        "));
        let words: Vec<u64> = line
            .unwrap()
            .split([' ', ','])
            .filter_map(|w| w.parse().ok())
            .collect();
        (words[0], words[1], words[2])
    };
    let sg = dir.path("a.sg");
    for seconds in ["0", "5"] {
        let o = build("sub", seconds, &sg);
        assert_exit(&o, 0);
        let (left, subgoals, boxed) = core(&o);
        assert!(subgoals > 0);
        if seconds == "0" {
            // Nothing contracted, nothing boxed: the flat graph answers.
            assert_eq!((left, boxed), (subgoals, 0));
        } else {
            // Within the budget, the core (if any) is boxed whole.
            assert_eq!(boxed, left);
        }
        let j = run_json(
            "scen {} --table {} --against dijkstra --json",
            &[&scen, &sg],
        );
        assert_eq!(j["search"], "sub", "{j}");
        assert_eq!(j["mismatches"], 0, "{j}");
    }

    for (search, seconds, says) in [
        (
            "jps+",
            "1",
            "--seconds bounds the build of jps+bb and sub, not jps+",
        ),
        ("jps+bb", "-1", "--seconds takes a number of seconds"),
    ] {
        let o = build(search, seconds, &gb);
        assert_exit(&o, 2);
        assert_stderr_has(&o, says);
    }
}

/// Regression test: `table build -o /nonexistent/x` built for seconds (18
/// s on orz900d) before failing on the path; the path is checked before
/// the build, and nothing is printed.
#[test]
fn table_build_fails_on_its_output_before_building() {
    let map = crate::data("dao/orz900d.map");
    let t0 = std::time::Instant::now();
    let o = run(
        "table build {} --search jps+bb --seconds 3 -o /nonexistent/x",
        &[&map],
    );
    // The build alone takes its 3 s.
    assert!(t0.elapsed().as_secs_f64() < 2.0, "{:?}", t0.elapsed());
    assert_refused(
        &o,
        &["/nonexistent/x: cannot create", "No such file or directory"],
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let o = run("landmarks build {} -k 16 -o /nonexistent/x", &[&map]);
    assert_refused(&o, &["/nonexistent/x: cannot create"]);
}

/// Regression tests: `table build` with no `--search` built astar's (no)
/// table; it builds jps+'s, and `--heuristic dh:K` astar's landmarks. Its
/// report gives the bytes of the table in memory and of the file, each
/// labelled (only the memory's were, as "table bytes").
#[test]
fn table_build_defaults_to_jps_plus_and_reports_both_sizes() {
    let (dir, map) = rooms_dir("table-default");
    let jt = dir.path("rooms.jt");
    let o = cairns(&["table", "build", &map, "-o", &jt]);
    assert_exit(&o, 0);
    assert_stdout_has(&o, "table       jumps");
    assert_stdout_has(&o, "table bytes 49152 (in memory)");
    let file = std::fs::metadata(&jt).unwrap().len();
    assert_stdout_has(&o, &format!("file bytes  {file}"));
    // No spinner where stderr is no terminal.
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let lm = dir.path("rooms.lm");
    let o = cairns(&["table", "build", &map, "--heuristic", "dh:2", "-o", &lm]);
    assert_exit(&o, 0);
    assert_stdout_has(&o, "table       landmarks");
    let help = stdout(&cairns(&["table", "build", "--help"]));
    assert!(help.contains("jps+ by default"), "{help}");
}
