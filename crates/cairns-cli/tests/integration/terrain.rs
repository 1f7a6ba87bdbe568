//! `--terrain` on `path` and `scen`, and `generate --patches`: costs that
//! follow the documented rule, the searches that cannot be optimal refused,
//! bad tables refused with the letter or value at fault; `scen` under
//! another movement rule.

use super::{
    TempDir, assert_exit, assert_refused, assert_stderr_has, assert_stdout_has, cairns, data, run,
    run_json,
};

/// A 5x3 map with a block of swamp in the middle of its top two rows.
const MAP: &str = "type octile\nheight 3\nwidth 5\nmap\n.SSS.\n.SSS.\n.....\n";

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The cost line of `cairns path`.
fn cost(out: &std::process::Output) -> f64 {
    let text = stdout(out);
    let line = text
        .lines()
        .find(|l| l.starts_with("cost"))
        .unwrap_or_else(|| panic!("no cost in {text}"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn path_follows_the_terrain_costs() {
    let (_dir, map) = TempDir::with("terrain-path", "swamp.map", MAP);
    let query = ["path", &map, "--from", "0,0", "--to", "4,0"];
    // Uniform: straight across the top row.
    let plain = cairns(&query);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert_eq!(cost(&plain), 4.0);
    // Swamp at 3: across costs (1+3)/2 + 3 + 3 + (3+1)/2 = 10; around it,
    // down 1, a diagonal past the swamp's corner (sqrt(2): only its two
    // cells count), 2 along the bottom, a diagonal and up 1: 4 + 2 sqrt(2).
    let around = 4.0 + 2.0 * std::f64::consts::SQRT_2;
    for search in ["astar", "dijkstra", "astar/dh:2"] {
        let (algorithm, heuristic) = search.split_once('/').unwrap_or((search, ""));
        let mut args = query.to_vec();
        args.extend(["--terrain", "S=3", "--search", algorithm]);
        if !heuristic.is_empty() {
            args.extend(["--heuristic", heuristic]);
        }
        let out = cairns(&args);
        assert!(out.status.success(), "{search}: {}", stderr(&out));
        assert!(
            (cost(&out) - around).abs() < 1e-6,
            "{search}: {}",
            cost(&out)
        );
        assert_stdout_has(&out, "terrain    S=3");
    }
    // Swamp impassable: no diagonal may cut its corner, so 1 + 1 + 4 + 1 + 1.
    let mut args = query.to_vec();
    args.extend(["--terrain", "S=inf"]);
    assert_eq!(cost(&cairns(&args)), 8.0);
    // An endpoint made impassable is refused, naming the rule.
    let out = run("path {} --from 1,0 --to 4,0 --terrain S=inf", &[&map]);
    assert_exit(&out, 2);
    assert_stderr_has(
        &out,
        "start (1, 0) is on a blocked tile 'S' (its cost is inf)",
    );
}

#[test]
fn searches_that_need_uniform_costs_are_refused() {
    let (_dir, map) = TempDir::with("terrain-refused", "swamp.map", MAP);
    for search in ["jps", "jps+", "canonical"] {
        let out = run(
            "path {} --from 0,0 --to 4,0 --terrain S=3 --search {}",
            &[&map, search],
        );
        assert_eq!(out.status.code(), Some(2), "{search}");
        let err = stderr(&out);
        assert!(err.contains(&format!("{search} ")), "{err}");
        assert!(err.contains("terrain costs"), "{err}");
    }
    // The Moving AI rule written out is no terrain: jump points run.
    let out = run(
        "path {} --from 0,0 --to 4,0 --terrain S=1 --search jps",
        &[&map],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(cost(&out), 4.0);
}

#[test]
fn bad_terrain_tables_are_refused() {
    let (_dir, map) = TempDir::with("terrain-bad", "swamp.map", MAP);
    for (bad, want) in [
        ("S=3,é=2", "unknown tile 'é'"),
        ("S=3,QR=2", "unknown tile 'QR'"),
        (
            "S=-1",
            "tile 'S': the cost must be a positive number or inf, got \"-1\"",
        ),
        ("S=0", "got \"0\""),
        ("S", "expected LETTER=COST, got \"S\""),
        ("S=cheap", "got \"cheap\""),
        // Regression: A* said "no path" and Dijkstra "cost inf" at 1e308,
        // and 1e300 printed a 300-digit cost.
        (
            ".=1e308",
            "tile '.': the cost 1e308 is above the largest finite cost, 1e9",
        ),
        (".=1e300", "the cost 1e300 is above"),
        // Regression: the second cost was kept silently.
        ("Q=3,Q=4", "tile 'Q' is given twice"),
    ] {
        let out = run("path {} --from 0,0 --to 4,0 --terrain {}", &[&map, bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains(want), "{bad}: {}", stderr(&out));
    }
}

#[test]
fn scen_with_terrain_checks_against_dijkstra() {
    let data = cairns_testdata::data_dir().join("dao");
    let scen = data.join("arena.map.scen");
    let scen = scen.to_str().unwrap();
    let out = cairns(&["scen", scen, "--every", "10", "--terrain", "T=3", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["against"], "dijkstra");
    assert_eq!(json["terrain"], "T=3");
    assert_eq!(json["mismatches"], 0);
    assert!(json["queries"].as_u64().unwrap() > 0);
    let out = run("scen {} --every 10 --terrain T=3 --search jps", &[scen]);
    assert_refused(&out, &["terrain costs"]);
}

/// `scen --neighborhood`: under a movement rule other than octile the
/// published lengths do not apply, so every cost is checked against
/// Dijkstra on that rule (with the published ones, 4-connected costs would
/// mismatch and exit 1); jump points run on it, and the octile-only
/// searches refuse the rule and name what serves it.
#[test]
fn scen_under_another_movement_rule_checks_against_dijkstra() {
    let scen = data("dao/arena.map.scen");
    for rule in ["4", "octile-cut"] {
        // Jump points too, scanned and read from a jump table: JPS4
        // 4-connected, the 2011 rules where diagonals cut corners.
        for search in [
            "--search astar",
            "--search dijkstra",
            "--heuristic dh:4",
            "--search jps",
            "--search jps+",
        ] {
            let line = format!("scen {{}} --every 10 --neighborhood {rule} {search} --json");
            let j = run_json(&line, &[&scen]);
            assert_eq!(j["against"], "dijkstra", "{rule} {search}");
            assert_eq!(j["neighborhood"], rule, "{rule} {search}");
            assert_eq!(j["mismatches"], 0, "{rule} {search}");
            assert!(j["queries"].as_u64().unwrap() > 0, "{rule} {search}");
        }
    }
    let out = run("scen {} --every 10 --neighborhood 4", &[&scen]);
    assert_stdout_has(&out, "movement     4 (checked against dijkstra)");
    let out = run(
        "scen {} --every 10 --neighborhood 4 --search jps+bb",
        &[&scen],
    );
    assert_refused(
        &out,
        &[
            "jps+bb needs octile movement without corner cutting, not 4-connected",
            "there use jps+ (jump points read from a jump table of the rule",
        ],
    );
}

#[test]
fn generate_paints_terrain_that_path_can_cross() {
    let dir = TempDir::new("terrain-generate");
    let map = dir.path("t.map");
    let out = run(
        "generate --kind open --width 40 --height 30 --patches 6 -o {}",
        &[&map],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&map).unwrap();
    assert!(
        text.starts_with("type octile\nheight 30\nwidth 40\nmap\n"),
        "{text}"
    );
    for letter in ['S', 'W', 'T'] {
        assert!(text.contains(letter), "no {letter} in\n{text}");
    }
    // The same options make the same map.
    let again = dir.path("u.map");
    let out = run(
        "generate --kind open --width 40 --height 30 --patches 6 -o {}",
        &[&again],
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    let out = cairns(&["generate", "--kind", "hills:3", "-o", &map]);
    assert_refused(&out, &["unknown map kind \"hills\""]);
}

/// Regression test: `random:150` wrote an all-wall map, and `rooms:0` and
/// `maze:0` passed (the library takes them as 1): each is refused, with
/// the bound, and nothing is written.
#[test]
fn generate_refuses_parameters_out_of_range() {
    let dir = TempDir::new("terrain-generate-range");
    let map = dir.path("bad.map");
    for (kind, want) in [
        ("random:150", "0 to 99"),
        ("random:100", "0 to 99"),
        ("rooms:0", "at least 1 cell"),
        ("maze:0", "at least 1 cell"),
    ] {
        let out = cairns(&["generate", "--kind", kind, "-o", &map]);
        assert_refused(&out, &[kind, want]);
        assert!(!std::path::Path::new(&map).exists(), "{kind}");
    }
    for kind in ["random:99", "random:0", "rooms:1", "maze:1"] {
        let out = cairns(&[
            "generate", "--kind", kind, "--width", "8", "--height", "8", "-o", &map,
        ]);
        assert!(out.status.success(), "{kind}: {}", stderr(&out));
    }
}

#[test]
fn letters_of_your_own_need_a_terrain_cost() {
    // Forest `F` across the middle row but for a cell of mud `M`.
    let (_dir, map) = TempDir::with(
        "terrain-custom",
        "forest.map",
        "type octile\nheight 3\nwidth 5\nmap\n.....\nFFMFF\n.....\n",
    );
    let query = ["path", &map, "--from", "2,0", "--to", "2,2"];
    let with = |terrain: &str| {
        let mut args = query.to_vec();
        args.extend(["--terrain", terrain]);
        cairns(&args)
    };
    // Straight down through the mud: (1 + 1.5) / 2 twice.
    let out = with("F=3,M=1.5");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(cost(&out), 2.5);
    assert_stdout_has(&out, "terrain    F=3,M=1.5");
    // Mud walled: around it through the forest, 1 + 2 + 2 + 1.
    assert_eq!(cost(&with("F=3,M=inf")), 6.0);
    // A letter no table names is an unknown tile, with its line and cell.
    for (out, want) in [
        (cairns(&query), "line 6: unknown tile 'F' at (0, 1)"),
        (with("F=3"), "line 6: unknown tile 'M' at (2, 1)"),
    ] {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert_stderr_has(&out, want);
    }
}
