//! `cairns landmarks build`, `--heuristic dh:K` and `--landmarks FILE`.

use std::path::Path;
use std::process::Output;

use cairns::open::OpenKind;

use crate::{
    TempDir, assert_exit, assert_file_refused, assert_refused, assert_stderr_has,
    assert_stdout_has, cairns, data, json_of, rooms_and_scen, rooms_dir, rooms_map, run, run_json,
    scen_for, stderr, stdout, two_maps,
};

fn build(map: &str, k: &str, out: &str, extra: &[&str]) -> Output {
    let mut args = vec!["landmarks", "build", map, "-k", k, "-o", out];
    args.extend_from_slice(extra);
    cairns(&args)
}

/// `scen SCEN --landmarks TABLE --against dijkstra --json`, which must
/// succeed: its JSON summary.
fn scen_with_table(scen: &str, table: &str) -> serde_json::Value {
    run_json(
        "scen {} --landmarks {} --against dijkstra --json",
        &[scen, table],
    )
}

/// `--centroid-of SCEN` places the landmarks among the scenario's goals;
/// the table answers that scenario with no mismatches. A scenario that does
/// not fit the map, too few goals and `--placement` beside it are errors.
#[test]
fn centroid_placement_from_a_scenario_file() {
    let dir = TempDir::new("centroid");
    let (map, scen) = rooms_and_scen(&dir);
    let table = dir.path("centroid.lm");
    let o = build(&map, "4", &table, &["--centroid-of", &scen]);
    assert_exit(&o, 0);
    assert_stdout_has(
        &o,
        &format!("4 placed at the centres of 40 goals of {scen} (seed 1)"),
    );
    let j = scen_with_table(&scen, &table);
    assert_eq!(j["queries"], 40, "{j}");
    assert_eq!(j["mismatches"], 0, "{j}");

    let bad = dir.file(
        "bad.scen",
        "version 1\n0\trooms.map\t64\t48\t0\t0\t99\t0\t1\n",
    );
    let refusals: [(&str, &[&str], &str); 3] = [
        ("1", &["--centroid-of", &bad], "bad.scen: line 2: "),
        (
            "41",
            &["--centroid-of", &scen],
            "fewer than the 41 landmarks asked for",
        ),
        (
            "4",
            &["--centroid-of", &scen, "--placement", "avoid"],
            "--placement",
        ),
    ];
    for (k, extra, error) in refusals {
        let o = build(&map, k, &table, extra);
        assert_exit(&o, 2);
        assert_stderr_has(&o, error);
    }
}

#[test]
fn build_then_scen_with_the_file_has_no_mismatches() {
    let dir = TempDir::new("build");
    let (map, grid) = rooms_map(&dir, "rooms.map", 3);
    let table = dir.path("rooms.lm");
    let o = build(&map, "6", &table, &["--placement", "avoid", "--seed", "9"]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    let bytes = grid.len() * 6 * 8;
    assert!(out.contains(&format!("table bytes {bytes}")), "{out}");
    assert!(out.contains("build s"), "{out}");
    assert!(out.contains("6 placed avoid (seed 9)"), "{out}");
    let coords: Vec<&str> = out.lines().filter(|l| l.starts_with('L')).collect();
    assert_eq!(coords.len(), 6, "{out}");
    assert!(Path::new(&table).is_file());

    let scen = scen_for(&dir, "rooms.map", &grid);
    let j = scen_with_table(&scen, &table);
    assert_eq!(j["queries"], 40, "{j}");
    assert_eq!(j["mismatches"], 0, "{j}");
    assert_eq!(j["table_bytes"], bytes, "{j}");
    assert!(j["preprocess_s"].is_number(), "{j}");
    // The file does not record the placement, so none is claimed.
    assert_eq!(j["heuristic"], "dh:6", "{j}");
    assert_eq!(j["table_files"][0], table.as_str(), "{j}");
    assert_eq!(j["tables"][0]["kind"], "landmarks", "{j}");

    // The same with `--heuristic dh` spelled out, and in the text output.
    let o = run(
        "scen {} --landmarks {} --heuristic dh --against dijkstra",
        &[&scen, &table],
    );
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains(&format!("table bytes  {bytes}")), "{out}");
    assert!(out.contains("preprocess s"), "{out}");
    assert!(out.contains("mismatches   0"), "{out}");
}

#[test]
fn build_with_the_sampled_placement_then_scen_matches() {
    let dir = TempDir::new("build_sampled");
    let (map, grid) = rooms_map(&dir, "rooms.map", 4);
    let table = dir.path("rooms.lm");
    let o = build(
        &map,
        "5",
        &table,
        &["--placement", "sampled", "--seed", "2"],
    );
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("5 placed sampled (seed 2)"), "{out}");
    let scen = scen_for(&dir, "rooms.map", &grid);
    let j = scen_with_table(&scen, &table);
    assert_eq!(j["mismatches"], 0, "{j}");
    assert_eq!(j["open"], "pairing-heap", "{j}");
}

#[test]
fn plain_heuristics_report_no_table() {
    let scen = data("dao/arena.map.scen");
    let j = json_of(&["scen", &scen, "--every", "40", "--json"]);
    assert_eq!(j["table_bytes"], 0, "{j}");
    assert_eq!(j["preprocess_s"], 0.0, "{j}");
    assert_eq!(j["heuristic"], "octile", "{j}");
}

#[test]
fn landmarks_file_works_with_every_open_set() {
    let (dir, map) = TempDir::with(
        "open",
        "t.map",
        "type octile\nheight 4\nwidth 6\nmap\n..@...\n..@...\n..@...\n......\n",
    );
    let scen = dir.file(
        "t.map.scen",
        "version 1\n\
         0\tt.map\t6\t4\t0\t0\t5\t0\t9.24264069\n\
         0\tt.map\t6\t4\t0\t3\t5\t3\t5\n\
         0\tt.map\t6\t4\t3\t0\t4\t1\t1.41421356\n",
    );
    let table = dir.path("t.lm");
    assert_exit(&build(&map, "3", &table, &[]), 0);
    for info in OpenKind::ALL.map(OpenKind::info) {
        let j = run_json(
            "scen {} --landmarks {} --open {} --json",
            &[&scen, &table, info.name],
        );
        assert_eq!(j["open"], info.name);
        assert_eq!(j["queries"], 3, "{}: {j}", info.name);
        assert_eq!(j["mismatches"], 0, "{}: {j}", info.name);
        assert_eq!(j["table_bytes"], 6 * 4 * 3 * 8, "{j}");
    }
}

/// The JSON summary of `cairns scen` on every `every`-th line of `scen`
/// under `heuristic`, which must succeed.
fn scen_json(scen: &str, every: &str, heuristic: &str) -> serde_json::Value {
    run_json(
        "scen {} --every {} --heuristic {} --json",
        &[scen, every, heuristic],
    )
}

/// Asserts that the run `a` expanded fewer nodes per query on average than
/// the run `b`; each comes with its name for the message.
#[track_caller]
fn assert_fewer_expanded(a: (&serde_json::Value, &str), b: (&serde_json::Value, &str)) {
    let mean = |j: &serde_json::Value| j["mean_expanded"].as_f64().unwrap();
    let ((ma, na), (mb, nb)) = ((mean(a.0), a.1), (mean(b.0), b.1));
    assert!(ma < mb, "{na} expanded {ma} on average, {nb} {mb}");
}

#[test]
fn dh4_on_a_dao_map_matches_and_expands_fewer_than_octile() {
    let scen = data("dao/den520d.map.scen");
    let run = |h: &str| scen_json(&scen, "50", h);
    let (dh, octile) = (run("dh:4"), run("octile"));
    assert_eq!(dh["mismatches"], 0, "{dh}");
    assert_eq!(dh["heuristic"], "dh:4:sampled", "{dh}");
    assert_eq!(dh["queries"], octile["queries"]);
    assert!(dh["table_bytes"].as_u64().unwrap() > 0, "{dh}");
    assert!(dh["preprocess_s"].as_f64().unwrap() > 0.0, "{dh}");
    assert_fewer_expanded((&dh, "dh:4"), (&octile, "octile"));
}

#[test]
fn sampled_placement_matches_and_expands_fewer_than_farthest_on_brc202d() {
    // Seeded, so deterministic: on this map the sampled placement's
    // landmarks bound the queries clearly better (1.28x fewer expansions
    // over every 5th line when measured).
    let scen = data("dao/brc202d.map.scen");
    let run = |h: &str| scen_json(&scen, "25", h);
    let (sampled, farthest) = (run("dh:16"), run("dh:16:farthest"));
    for j in [&sampled, &farthest] {
        assert_eq!(j["mismatches"], 0, "{j}");
        assert_eq!(j["open"], "pairing-heap", "{j}");
    }
    // Sampled is the default placement.
    assert_eq!(sampled["heuristic"], "dh:16:sampled", "{sampled}");
    assert_fewer_expanded((&sampled, "sampled"), (&farthest, "farthest"));
}

#[test]
fn compressed_and_adaptive_tables_match_from_the_spec_and_from_a_saved_table() {
    let scen = data("dao/den520d.map.scen");
    let run = |h: &str| scen_json(&scen, "50", h);
    let (keep, adapt, full) = (run("dh:8:keep2"), run("dh:8:adapt"), run("dh:8"));
    for j in [&keep, &adapt, &full] {
        assert_eq!(j["mismatches"], 0, "{j}");
        assert_eq!(j["queries"], full["queries"], "{j}");
    }
    assert_eq!(keep["heuristic"], "dh:8:sampled:keep2", "{keep}");
    assert_eq!(adapt["heuristic"], "dh:8:sampled:adapt", "{adapt}");
    // Two of eight landmarks per cell bound less than all eight.
    assert_fewer_expanded((&full, "dh:8"), (&keep, "dh:8:keep2"));

    let dir = TempDir::new("keep");
    let table = dir.path("den520d.lm");
    assert_exit(&build(&data("dao/den520d.map"), "4", &table, &[]), 0);
    for (h, code, says) in [
        ("dh:keep2", 0, "mismatches   0"),
        ("dh:adapt", 0, "mismatches   0"),
        (
            "dh:keep5",
            2,
            "keep5 keeps more landmarks per cell than the 4",
        ),
    ] {
        let o = cairns(&[
            "scen",
            &scen,
            "--every",
            "100",
            "--landmarks",
            &table,
            "--heuristic",
            h,
        ]);
        assert_exit(&o, code);
        let text = if code == 0 { stdout(&o) } else { stderr(&o) };
        assert!(text.contains(says), "{h}: {text}");
    }
    let o = crate::run("scen {} --heuristic dh:4:keep2 --search jps", &[&scen]);
    assert_refused(&o, &["searched by astar only"]);
}

/// `landmarks build --keep M` saves a compressed table; `scen --landmarks`
/// searches it as `dh:K:keepM`, exactly as compressing the full table at
/// load time does, and refuses what the table cannot give.
#[test]
fn a_saved_compressed_table_searches_like_keep_m_of_the_full_one() {
    let dir = TempDir::new("compressed");
    let (map, scen) = rooms_and_scen(&dir);
    let (full, small) = (dir.path("full.lm"), dir.path("keep2.lmc"));
    assert_exit(&build(&map, "6", &full, &[]), 0);
    let o = build(&map, "6", &small, &["--keep", "2"]);
    assert_exit(&o, 0);
    assert_stdout_has(&o, "search it as dh:6:keep2");
    let (full_bytes, small_bytes) = (
        std::fs::metadata(&full).unwrap().len(),
        std::fs::metadata(&small).unwrap().len(),
    );
    assert!(
        small_bytes * 2 < full_bytes,
        "{small_bytes} vs {full_bytes}"
    );

    let run_with = |table: &str, h: &str| {
        run_json(
            "scen {} --landmarks {} --heuristic {} --against dijkstra --json",
            &[&scen, table, h],
        )
    };
    let (from_file, from_full) = (run_with(&small, "dh"), run_with(&full, "dh:keep2"));
    for j in [&from_file, &from_full] {
        assert_eq!(j["mismatches"], 0, "{j}");
        assert_eq!(j["queries"], 40, "{j}");
        assert_eq!(j["heuristic"], "dh:6:keep2", "{j}");
    }
    assert_eq!(from_file["mean_expanded"], from_full["mean_expanded"]);
    // The search reads the same compressed table; built from the full one,
    // both are held and reported.
    let compressed = |j: &serde_json::Value| {
        let tables = j["tables"].as_array().unwrap().clone();
        let c = tables.iter().find(|t| t["kind"] == "compressed-landmarks");
        c.map(|t| t["bytes"].clone())
    };
    assert_eq!(compressed(&from_file), compressed(&from_full));
    assert_eq!(from_file["table_bytes"], compressed(&from_full).unwrap());
    assert_eq!(
        from_full["tables"].as_array().unwrap().len(),
        2,
        "{from_full}"
    );

    for (h, says) in [
        (
            "dh:keep3",
            "keep3 asks to keep 3 landmarks per cell, but the compressed table keeps 2",
        ),
        ("dh:7", "dh:7 asks for 7 landmarks, but the table has 6"),
        ("octile", "heuristic is octile"),
    ] {
        let o = run("scen {} --landmarks {} --heuristic {}", &[&scen, &small, h]);
        assert_exit(&o, 2);
        assert_stderr_has(&o, says);
    }
    let o = run("scen {} --landmarks {} --search jps", &[&scen, &small]);
    assert_refused(&o, &["searched by astar only"]);
    let o = build(&map, "6", &small, &["--keep", "7"]);
    assert_refused(&o, &["--keep 7: a cell can keep 1 to 6 of the 6 landmarks"]);
}

#[test]
fn path_with_dh_and_with_a_table_file_finds_the_shortest_path() {
    let (dir, map) = TempDir::with(
        "path",
        "m.map",
        "type octile\nheight 5\nwidth 9\nmap\n\
         ....@....\n\
         .@@.@.@@.\n\
         .@..@..@.\n\
         .@.@@@.@.\n\
         .........\n",
    );
    let base = ["path", &map, "--from", "0,0", "--to", "8,0", "--no-draw"];
    let o = cairns(&[&base[..], &["--heuristic", "dh:2:random"]].concat());
    assert_exit(&o, 0);
    assert_stdout_has(&o, "cost       16.000000");
    assert_stdout_has(&o, "heuristic  dh:2:random");

    // 4-connected: the table must be built for that movement too.
    let table = dir.path("m4.lm");
    assert_exit(&build(&map, "2", &table, &["--neighborhood", "4"]), 0);
    let o = cairns(&[&base[..], &["--neighborhood", "4", "--landmarks", &table]].concat());
    assert_exit(&o, 0);
    assert_stdout_has(&o, "cost       16.000000");
    assert_stdout_has(&o, "table bytes 720");
    // ... and under octile movement the error says that the movement
    // differs, not that the map does.
    let o = cairns(&[&base[..], &["--landmarks", &table]].concat());
    assert_refused(
        &o,
        &[
            "another movement rule (4 and octile differ",
            "built for --neighborhood 4, not octile",
        ],
    );
    assert!(!stderr(&o).contains("another map"), "{}", stderr(&o));
}

#[test]
fn a_table_of_another_map_truncated_or_corrupt_is_an_error_naming_the_file() {
    let dir = TempDir::new("broken");
    let (map_a, scen_b) = two_maps(&dir);
    let table = dir.path("a.lm");
    assert_exit(&build(&map_a, "2", &table, &[]), 0);
    let o = cairns(&["scen", &scen_b, "--landmarks", &table, "--json"]);
    assert_file_refused(&o, &table, "built for another map");

    let (map, scen) = rooms_and_scen(&dir);
    let table = dir.path("rooms.lm");
    assert_exit(&build(&map, "2", &table, &[]), 0);
    let bytes = std::fs::read(&table).unwrap();

    for (name, contents, expected) in [
        ("cut.lm", bytes[..bytes.len() / 2].to_vec(), "truncated"),
        ("empty.lm", Vec::new(), "truncated"),
        ("junk.lm", b"not a landmark file".to_vec(), "bad magic"),
        (
            "flipped.lm",
            {
                let mut b = bytes.clone();
                let mid = b.len() / 2;
                b[mid] ^= 0x40;
                b
            },
            "corrupt",
        ),
    ] {
        let path = dir.path(name);
        std::fs::write(&path, contents).unwrap();
        let o = cairns(&["scen", &scen, "--landmarks", &path, "--against", "dijkstra"]);
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert!(err.contains(name), "{name}: {err}");
        assert!(err.contains(expected), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    let missing = dir.path("missing.lm");
    let o = cairns(&["scen", &scen, "--landmarks", &missing]);
    assert_refused(&o, &["missing.lm"]);
}

#[test]
fn bad_heuristic_names_and_combinations_exit_2() {
    let scen = data("dao/arena.map.scen");
    for h in ["dh:0", "dh:x", "dh:65", "dh:4:nowhere"] {
        let o = cairns(&["scen", &scen, "--heuristic", h]);
        assert_exit(&o, 2);
        assert!(
            stderr(&o).contains("invalid value") && stderr(&o).contains(h),
            "{h}: {}",
            stderr(&o)
        );
    }
    // A bare `dh` has nothing to build from.
    let o = cairns(&["scen", &scen, "--heuristic", "dh"]);
    assert_refused(&o, &["bare dh needs a saved landmark table"]);

    let dir = TempDir::new("combine");
    let table = dir.path("arena.lm");
    assert_exit(&build(&data("dao/arena.map"), "2", &table, &[]), 0);
    let o = run(
        "scen {} --landmarks {} --heuristic octile",
        &[&scen, &table],
    );
    assert_refused(&o, &["the heuristic is octile"]);
    let o = cairns(&["scen", &scen, "--landmarks", &table, "--heuristic", "dh:3"]);
    assert_refused(&o, &["has 2"]);
}

#[test]
fn build_errors_exit_2_with_a_message() {
    let (dir, map) = rooms_dir("errors");
    let out = dir.path("t.lm");
    for k in ["0", "65", "1000000", "x"] {
        let o = build(&map, k, &out, &[]);
        assert_exit(&o, 2);
        assert!(stderr(&o).contains("invalid value"), "{k}: {}", stderr(&o));
    }
    // More landmarks than cells with a move.
    let tiny = dir.file("tiny.map", "type octile\nheight 1\nwidth 3\nmap\n..@\n");
    let o = build(&tiny, "3", &out, &[]);
    assert_refused(&o, &["tiny.map", "only 2 cells"]);

    let bad = dir.file("bad.map", "type octile\nheight 1\nwidth 2\nmap\n.Q\n");
    let o = build(&bad, "2", &out, &[]);
    assert_refused(&o, &["bad.map: line 5"]);

    let unwritable = dir.path("no/such/dir/t.lm");
    let o = build(&map, "2", &unwritable, &[]);
    assert_exit(&o, 2);
    assert_stderr_has(&o, &format!("{unwritable}: cannot create"));
    assert!(!Path::new(&out).exists());
}

/// Regression test: the message for a table built under another movement
/// rule said "4-way and 8-way differ" whatever the rules; a table built for
/// octile with corner cutting loads for that rule (by either of its names)
/// and names both rules when used under another.
#[test]
fn a_table_built_for_corner_cutting_loads_for_it() {
    let (dir, map) = rooms_dir("landmarks-cut");
    let table = dir.path("cut.lm");
    let o = build(&map, "2", &table, &["--neighborhood", "8-cut"]);
    assert_exit(&o, 0);
    // The canonical name is printed.
    assert_stdout_has(&o, "(64x48, octile-cut)");
    let (from, to) = (free_cell(&map, false), free_cell(&map, true));
    let query = [
        "path",
        &map,
        "--from",
        &from,
        "--to",
        &to,
        "--no-draw",
        "--table",
        &table,
    ];
    for name in ["8-cut", "octile-cut", "corner-cutting"] {
        let o = cairns(&[&query[..], &["--neighborhood", name]].concat());
        assert_exit(&o, 0);
    }
    let o = cairns(&query);
    assert_refused(
        &o,
        &[
            "octile and octile-cut differ",
            "built for --neighborhood octile-cut, not octile",
        ],
    );
}

/// Regression test: `choose` and `table build` said `--neighborhood` is
/// "4 or 8"; every command's help lists every name of every rule.
#[test]
fn every_help_lists_every_movement_name() {
    for command in [
        &["path"][..],
        &["field"],
        &["render"],
        &["choose"],
        &["table", "build"],
        &["landmarks", "build"],
    ] {
        let help = stdout(&cairns(&[command, &["--help"]].concat()));
        for rule in cairns::grid::Neighborhood::ALL {
            for name in rule.names() {
                assert!(help.contains(name), "{command:?}: no {name} in {help}");
            }
        }
        assert!(!help.contains("4 or 8"), "{command:?}: {help}");
    }
}

/// The first or last passable cell of the map file `map`, as `X,Y`.
fn free_cell(map: &str, last: bool) -> String {
    let grid = cairns::movingai::read_map(std::path::Path::new(map)).unwrap();
    let mut cells = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_passable(x, y));
    let (x, y) = if last {
        cells.next_back()
    } else {
        cells.next()
    }
    .unwrap();
    format!("{x},{y}")
}
