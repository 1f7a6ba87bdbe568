//! `cairns choose`: the search for a map from the seconds and bytes that
//! may be spent before its first query.

use super::{TempDir, assert_refused, cairns, json_of, rooms_and_scen, run};

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
    let four = pick(&["--neighborhood", "4"]);
    assert_eq!(four["search"], "astar", "{four}");
    for chosen in [&roomy, &short, &small] {
        let search = chosen["search"].as_str().unwrap();
        let o = run(
            "scen {} --search {} --against dijkstra --json",
            &[&scen, search],
        );
        let j = super::json(&o);
        assert_eq!(
            (j["mismatches"].as_u64(), j["search"].as_str()),
            (Some(0), Some(search))
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
