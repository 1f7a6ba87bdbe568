//! `cairns choose`: the search for a map from the seconds and bytes that
//! may be spent before its first query.

use super::{
    TempDir, assert_exit, assert_refused, cairns, cairns_ok, json_of, rooms_and_scen, run, stdout,
};

/// Each allowance picks its tier, says why in JSON, and the search picked
/// answers the map's scenarios with no mismatch.
#[test]
fn each_allowance_picks_its_tier_and_the_pick_runs() {
    let dir = TempDir::new("choose_tiers");
    let (map, scen) = rooms_and_scen(&dir);
    let pick = |extra: &[&str]| {
        let mut args = vec!["choose", map.as_str(), "--json"];
        args.extend_from_slice(extra);
        json_of(&args)
    };
    let roomy = pick(&[]);
    assert_eq!(roomy["search"], "jps+bb", "{roomy}");
    assert_eq!(roomy["preprocess_s_at_most"], 0.5, "{roomy}");
    let jumps = 64 * 48 * 16;
    assert!(roomy["table_bytes_at_most"].as_u64().unwrap() > jumps);
    let short = pick(&["--seconds", "0.1"]);
    assert_eq!(short["search"], "jps+", "{short}");
    assert_eq!(short["table_bytes_at_most"], jumps, "{short}");
    let why = short["why"].as_str().unwrap();
    assert!(why.contains("over the 0.1 s allowed"), "{why}");
    let small = pick(&["--memory", "1000"]);
    assert_eq!(small["search"], "jps", "{small}");
    // Under the other rules, jump points over the rule's jump table (JPS4
    // 4-connected), or with no table when it does not fit.
    let four = pick(&["--neighborhood", "4"]);
    assert_eq!(four["search"], "jps+", "{four}");
    assert_eq!(four["table_bytes_at_most"], jumps, "{four}");
    let cut = pick(&["--neighborhood", "octile-cut"]);
    assert_eq!(cut["search"], "jps+", "{cut}");
    let tight = pick(&["--neighborhood", "4", "--memory", "1000"]);
    assert_eq!(tight["search"], "jps", "{tight}");
    assert_eq!(tight["table_bytes_at_most"], 0, "{tight}");
    // Each pick runs: octile ones, and those of the other rules (whose
    // costs `scen` checks against Dijkstra on the rule).
    let picks = [
        (&roomy, "8"),
        (&short, "8"),
        (&small, "8"),
        (&four, "4"),
        (&cut, "octile-cut"),
    ];
    for (chosen, rule) in picks {
        let search = chosen["search"].as_str().unwrap();
        let o = run(
            "scen {} --search {} --neighborhood {} --against dijkstra --json",
            &[&scen, search, rule],
        );
        let j = super::json(&o);
        assert_eq!(
            (j["mismatches"].as_u64(), j["search"].as_str()),
            (Some(0), Some(search)),
            "{rule}"
        );
    }
    let text = String::from_utf8(cairns(&["choose", &map]).stdout).unwrap();
    assert!(
        text.starts_with("search: jps+bb\nwhy: goal bounding fits"),
        "{text}"
    );
    assert!(text.contains("run: cairns path"), "{text}");
}

#[test]
fn a_bad_allowance_and_a_missing_map_are_refused() {
    let dir = TempDir::new("choose_refusals");
    let (map, _) = rooms_and_scen(&dir);
    assert_refused(&cairns(&["choose", &map, "--seconds=-1"]), &["--seconds"]);
    assert_refused(
        &cairns(&["choose", &map, "--seconds", "nan"]),
        &["--seconds"],
    );
    assert_refused(
        &cairns(&["choose", &map, "--memory", "lots"]),
        &["--memory"],
    );
    let missing = dir.path("none.map");
    assert_refused(&cairns(&["choose", &missing]), &["none.map"]);
}

/// Regression test: on a terrain map the suggested `run:` command left out
/// `--terrain` (and `--neighborhood`), so that run as printed it answered
/// "no path" instead of 250.1 (docs/terrain.md's query).
#[test]
fn the_suggested_command_keeps_the_terrain_and_the_movement() {
    let map = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/data/terrain-rooms.map"
    );
    let out = cairns_ok(&["choose", map, "--terrain", "S=3,W=inf,T=2"]);
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("run: cairns "))
        .unwrap_or_else(|| panic!("no run line in {out}"));
    assert!(line.contains("--terrain"), "{line}");
    let words: Vec<&str> = line
        .split_whitespace()
        .scan("", |last, w| {
            let word = match (*last, w) {
                ("--from", "X,Y") => "1,12",
                ("--to", "X,Y") => "127,127",
                _ => w,
            };
            *last = w;
            Some(word)
        })
        .chain(["--no-draw"])
        .collect();
    let o = cairns(&words);
    assert_exit(&o, 0);
    let out = stdout(&o);
    let cost: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("cost"))
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or_else(|| panic!("no cost in {out}"));
    assert!((cost - 250.1076).abs() < 1e-3, "{out}");

    // The movement rule, when not the default, is part of it too.
    let dir = TempDir::new("choose_movement");
    let (rooms, _) = rooms_and_scen(&dir);
    let out = cairns_ok(&["choose", &rooms, "--neighborhood", "4"]);
    assert!(out.contains("--neighborhood 4 "), "{out}");
}
