//! `--json` on every command that prints results: stdout is one JSON
//! object, with `scen --json`'s field names where they mean the same thing.

use super::{assert_exit, data, run, stderr, stdout};

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
