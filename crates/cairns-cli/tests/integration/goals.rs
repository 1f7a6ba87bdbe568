//! `cairns path` with several sources and goals, and `cairns field`.

use crate::assert_stdout_has;
use crate::{
    TempDir, assert_exit, assert_refused, cairns, cairns_ok, rooms_map, run, stderr, stdout,
};

/// The value of the `name` line of a command's output (`cost   12.5`).
fn value(out: &str, name: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name:?} line in:\n{out}"))
        .trim()
        .to_owned()
}

fn cost(out: &str) -> f64 {
    value(out, "cost").parse().unwrap()
}

/// Free cells of `grid`, spread over the map.
fn free_cells(grid: &cairns::grid::Grid, n: usize) -> Vec<String> {
    let free: Vec<(u32, u32)> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_passable(x, y))
        .collect();
    (0..n)
        .map(|i| {
            let (x, y) = free[(i * 7919 + 13) % free.len()];
            format!("{x},{y}")
        })
        .collect()
}

/// With two sources and three goals, every search reports the cheapest of
/// the six single queries, and names the goal and source it used.
#[test]
fn path_to_the_nearest_goal_from_the_nearest_source() {
    let dir = TempDir::new("nearest");
    let (map, grid) = rooms_map(&dir, "rooms.map", 5);
    let cells = free_cells(&grid, 5);
    let (sources, goals) = cells.split_at(2);
    let mut best: Option<(f64, &str, &str)> = None;
    for s in sources {
        for t in goals {
            let o = cairns(&["path", &map, "--from", s, "--to", t, "--no-draw"]);
            if o.status.code() == Some(0) {
                let c = cost(&stdout(&o));
                if best.is_none_or(|(b, _, _)| c < b) {
                    best = Some((c, s, t));
                }
            }
        }
    }
    let (expected, _, _) = best.expect("some pair is connected on a rooms map");
    let mut args = vec!["path", map.as_str(), "--no-draw"];
    for s in sources {
        args.extend(["--from", s.as_str()]);
    }
    for t in goals {
        args.extend(["--goal", t.as_str()]);
    }
    for search in ["astar", "dijkstra", "jps", "canonical"] {
        let mut a = args.clone();
        a.extend(["--search", search]);
        let o = cairns(&a);
        assert_exit(&o, 0);
        let out = stdout(&o);
        assert!(
            (cost(&out) - expected).abs() < 1e-6,
            "{search}: {} vs {expected}",
            cost(&out)
        );
        let from = value(&out, "from");
        let to = value(&out, "to");
        let cell = |s: &str| {
            let (x, y) = s.split_once(',').unwrap();
            format!("({x}, {y})")
        };
        assert!(
            sources.iter().any(|s| cell(s) == from),
            "{search}: from {from}"
        );
        assert!(goals.iter().any(|t| cell(t) == to), "{search}: to {to}");
        // The reported pair costs what was reported.
        let (fx, fy) = from.trim_matches(['(', ')']).split_once(", ").unwrap();
        let (tx, ty) = to.trim_matches(['(', ')']).split_once(", ").unwrap();
        let single = run(
            "path {} --from {} --to {} --no-draw",
            &[&map, &format!("{fx},{fy}"), &format!("{tx},{ty}")],
        );
        assert!((cost(&stdout(&single)) - expected).abs() < 1e-6);
    }
}

const SPLIT: &str = "type octile\nheight 4\nwidth 6\nmap\n...@..\n.@.@..\n...@..\n...@..\n";

/// The flow field's arrows, goal and unreachable cells on a small map, and
/// its distances equal to the costs `cairns path` finds.
#[test]
fn field_prints_flow_and_distances_that_paths_confirm() {
    let (dir, map) = TempDir::with("field", "split.map", SPLIT);
    // Regression: the summary came first on stdout, mixed into the data;
    // with --print, stdout is the field alone and the summary on stderr.
    let o = cairns(&["field", &map, "--to", "0,0", "--print", "flow"]);
    assert_exit(&o, 0);
    assert_eq!(value(&stderr(&o), "reached"), "11 cells");
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert!(rows[0].starts_with("G←←@xx"), "{out}");
    assert_eq!(rows[1].chars().nth(1), Some('@'));
    assert_eq!(rows[2].chars().next(), Some('↑'));
    // Straight up the left column, then diagonally towards the goal.
    assert_eq!(rows[3].chars().nth(1), Some('↖'), "{out}");

    let out = cairns_ok(&["field", &map, "--to", "0,0", "--print", "distance"]);
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(rows.len(), 4, "{out}");
    for (y, row) in rows.iter().enumerate() {
        for (x, d) in row.iter().enumerate() {
            let path = cairns(&["path", &map, "--from", &format!("{x},{y}"), "--to", "0,0"]);
            if *d == "-" {
                assert_ne!(path.status.code(), Some(0), "({x}, {y})");
            } else {
                assert_exit(&path, 0);
                let want = cost(&stdout(&path));
                assert!(
                    (d.parse::<f64>().unwrap() - want).abs() < 1e-3,
                    "({x}, {y}): {d} vs {want}"
                );
            }
        }
    }

    let png = dir.path("field.png");
    let o = cairns(&["field", &map, "--to", "0,0", "--to", "5,3", "-o", &png]);
    assert_exit(&o, 0);
    assert_eq!(value(&stdout(&o), "reached"), "19 cells");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

/// Regression test: `field -o` printed its summary, then failed on the
/// output path; the picture is written first, so a failure prints nothing.
#[test]
fn field_fails_on_its_output_before_printing() {
    let (_dir, map) = TempDir::with("field-output", "split.map", SPLIT);
    let o = cairns(&["field", &map, "--to", "0,0", "-o", "/nonexistent/dir/f.png"]);
    assert_refused(&o, &["/nonexistent/dir/f.png", "No such file or directory"]);
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn field_exits_2_for_a_goal_on_a_wall() {
    let (_dir, map) = TempDir::with("field-wall", "split.map", SPLIT);
    let o = cairns(&["field", &map, "--to", "3,0"]);
    assert_refused(&o, &["goal (3, 0) is on a blocked tile '@'", "split.map"]);
}

/// `--max-expansions` pauses a search with its best node so far, a budget
/// large enough finds the same cost as no budget, `--max-cost` below the
/// cost pauses and at the cost finds it, and a search without budgets
/// says so.
#[test]
fn budgets_pause_or_finish_the_search() {
    let dir = TempDir::new("budgets");
    let (map, grid) = rooms_map(&dir, "rooms.map", 5);
    let cells = free_cells(&grid, 40);
    // The pair whose path is longest, so that a small budget runs out.
    let (from, to, full) = cells
        .iter()
        .skip(1)
        .filter_map(|t| {
            let o = cairns(&["path", &map, "--from", &cells[0], "--to", t, "--no-draw"]);
            (o.status.code() == Some(0)).then(|| (cells[0].as_str(), t.as_str(), cost(&stdout(&o))))
        })
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .expect("a connected pair");
    let query = [
        "path",
        map.as_str(),
        "--from",
        from,
        "--to",
        to,
        "--no-draw",
    ];
    let with = |extra: &[&str]| {
        let mut args = query.to_vec();
        args.extend(extra);
        cairns(&args)
    };
    for search in ["astar", "dijkstra"] {
        let paused = with(&["--search", search, "--max-expansions", "3"]);
        assert_exit(&paused, 1);
        let out = stdout(&paused);
        assert!(
            out.contains("paused     the budget of 3 expansions ran out"),
            "{out}"
        );
        let steps: usize = value(&out, "steps").parse().unwrap();
        assert!(steps <= 3, "{out}");
        let done = with(&["--search", search, "--max-expansions", "1000000"]);
        assert_exit(&done, 0);
        assert!((cost(&stdout(&done)) - full).abs() < 1e-9);
    }
    let below = format!("{}", full - 0.5);
    let capped = with(&["--max-cost", &below]);
    assert_exit(&capped, 1);
    assert_stdout_has(&capped, &format!("no path costs {below} or less"));
    let at = format!("{}", full + 1e-6);
    let found = with(&["--max-cost", &at]);
    assert_exit(&found, 0);
    assert!((cost(&stdout(&found)) - full).abs() < 1e-9);
    let refused = with(&["--search", "jps", "--max-expansions", "3"]);
    assert_refused(&refused, &["jps takes no budget"]);
}
