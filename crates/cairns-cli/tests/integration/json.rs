//! `--json` on every command that prints results: stdout is one JSON
//! object, with `scen --json`'s field names where they mean the same thing.

use super::{TempDir, assert_exit, cairns, data, json, json_of, rooms_dir, run, stderr, stdout};

/// A den520d query of its scenario file (bucket 88), whose published
/// optimal length is 355.362.
const DEN_FROM: &str = "244,2";
const DEN_TO: &str = "18,204";

#[test]
fn path_json_gives_the_optimal_cost() {
    let map = data("dao/den520d.map");
    let j = json_of(&["path", &map, "--from", DEN_FROM, "--to", DEN_TO, "--json"]);
    let cost = j["cost"].as_f64().unwrap();
    assert!((cost - 355.362).abs() < 1e-3, "{j}");
    assert_eq!(j["search"], "astar", "{j}");
    assert_eq!(j["neighborhood"], "octile", "{j}");
    let path = j["path"].as_array().unwrap();
    assert_eq!(path.len() as u64 - 1, j["steps"].as_u64().unwrap());
    assert_eq!(path[0], serde_json::json!([244, 2]), "{j}");
    // No path: cost null, exit 1, still JSON.
    let (_dir, split) = TempDir::with(
        "json-split",
        "s.map",
        "type octile\nheight 1\nwidth 3\nmap\n.@.\n",
    );
    let o = cairns(&["path", &split, "--from", "0,0", "--to", "2,0", "--json"]);
    assert_exit(&o, 1);
    assert!(json(&o)["cost"].is_null());
}

#[test]
fn field_json_counts_the_cells_reached() {
    let (_dir, map) = TempDir::with(
        "json-field",
        "s.map",
        "type octile\nheight 1\nwidth 3\nmap\n.@.\n",
    );
    let j = json_of(&["field", &map, "--to", "0,0", "--json"]);
    assert_eq!(
        (j["goals"].as_u64(), j["reached"].as_u64()),
        (Some(1), Some(1)),
        "{j}"
    );
}

#[test]
fn table_build_json_gives_both_sizes() {
    let (dir, map) = rooms_dir("json-table");
    let out = dir.path("rooms.jt");
    let j = json_of(&[
        "table", "build", &map, "--search", "jps+", "-o", &out, "--json",
    ]);
    assert_eq!(j["table"], "jumps", "{j}");
    assert_eq!(j["table_bytes"], 64 * 48 * 16, "{j}");
    assert_eq!(
        j["file_bytes"],
        std::fs::metadata(&out).unwrap().len(),
        "{j}"
    );
    assert!(j["preprocess_s"].as_f64().is_some(), "{j}");
}

#[test]
fn landmarks_build_json_lists_the_landmarks() {
    let (dir, map) = rooms_dir("json-landmarks");
    let out = dir.path("rooms.lm");
    let j = json_of(&["landmarks", "build", &map, "-k", "3", "-o", &out, "--json"]);
    assert_eq!(j["landmarks"].as_array().unwrap().len(), 3, "{j}");
    assert_eq!(j["table"], "landmarks", "{j}");
    assert_eq!(
        j["file_bytes"],
        std::fs::metadata(&out).unwrap().len(),
        "{j}"
    );
}

#[test]
fn generate_json_says_what_it_wrote() {
    let dir = TempDir::new("json-generate");
    let out = dir.path("g.map");
    let j = json_of(&[
        "generate", "--kind", "open", "--width", "5", "--height", "4", "-o", &out, "--json",
    ]);
    assert_eq!(
        (j["width"].as_u64(), j["ground"].as_u64()),
        (Some(5), Some(20)),
        "{j}"
    );
    assert_eq!(j["output"], out.as_str(), "{j}");
}

#[test]
fn render_json_gives_each_search() {
    let dir = TempDir::new("json-render");
    let map = dir.file("m.map", "type octile\nheight 1\nwidth 5\nmap\n.....\n");
    let png = dir.path("m.png");
    let j = json_of(&[
        "render",
        &map,
        "--from",
        "0,0",
        "--to",
        "4,0",
        "-o",
        &png,
        "--json",
        "--compare",
        "zero",
    ]);
    let searches = j["searches"].as_array().unwrap();
    assert_eq!(searches.len(), 2, "{j}");
    assert_eq!(searches[0]["cost"], 4.0, "{j}");
    assert_eq!(j["output"], png.as_str(), "{j}");
}

#[test]
fn choose_and_scen_json_parse() {
    let (_dir, map) = rooms_dir("json-choose");
    let j = json_of(&["choose", &map, "--json"]);
    assert!(j["run"].as_str().unwrap().starts_with("cairns path"), "{j}");
    let scen = data("dao/arena.map.scen");
    let j = json_of(&["scen", &scen, "--every", "50", "--json"]);
    assert_eq!(j["mismatches"], 0, "{j}");
}

/// Regression test: `scen --json --per-query -` wrote the JSON summary
/// and the per-query table both on stdout; stdout is now the table alone
/// and the summary goes to stderr.
#[test]
fn scen_per_query_on_stdout_leaves_the_summary_to_stderr() {
    let scen = data("dao/arena.map.scen");
    let o = run("scen {} --every 50 --json --per-query -", &[&scen]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("id\tline\tcost\texpanded\tnanos"),
        "{out}"
    );
    let rows: Vec<&str> = lines.collect();
    assert!(rows.iter().all(|r| r.split('\t').count() == 5), "{out}");
    let summary: serde_json::Value = serde_json::from_str(stderr(&o).trim()).unwrap();
    assert_eq!(summary["queries"], rows.len(), "{summary}");
}

/// Regression test: a scenario file with no query printed `mean us -0.0`
/// (and -0.0 in JSON); it is 0.
#[test]
fn scen_with_no_query_prints_zero_not_minus_zero() {
    let dir = TempDir::new("json-empty-scen");
    let map = dir.file("e.map", "type octile\nheight 1\nwidth 3\nmap\n...\n");
    let scen = dir.file("e.map.scen", "version 1\n");
    let o = run("scen {} --map {}", &[&scen, &map]);
    assert!(!stdout(&o).contains("-0.0"), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("mean us      0.0"),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );
    let o = run("scen {} --map {} --json", &[&scen, &map]);
    let j = json(&o);
    assert_eq!(j["queries"], 0, "{j}");
    for field in ["mean_us", "median_us"] {
        let v = j[field].as_f64().unwrap();
        assert!(v == 0.0 && v.is_sign_positive(), "{field}: {j}");
    }
}
