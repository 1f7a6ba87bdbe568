//! Where a search's expansions go: the nodes expanded with `f < C*` (the
//! ones every A* with the same heuristic expands) against those with
//! `f = C*` (where the order among equal keys decides), and of the latter
//! how many lie on the path found, on some optimal path, or on none; the
//! wasted ones by how far along the query they lie (`g / C*` in tenths).
//! Every cost is checked against the published length.
//!
//! ```text
//! cargo bench -p cairns-bench --bench plateau -- SET... [--every N] [--configs SPEC,SPEC]
//! ```
//!
//! Defaults: the `room` set, every 40th scenario, `astar/dh:16`. The
//! figures of docs/notes/2026-11-26-landmark-tie-break.md ("Why the ties matter") come
//! from `-- room street --every 40`. Each query also runs two Dijkstra
//! searches (from its start and from its goal) to tell which nodes lie on
//! some optimal path, so a sample of a few hundred queries takes seconds.

use std::collections::HashSet;

use cairns::graph::NodeId;
use cairns::search::{DistanceField, Observer, SearchCache};
use cairns::spec::SearchSpec;
use cairns_bench::{BenchArgs, load_set};

/// The expansions of one query: node, `g` and `f`, split at the cost
/// found once the search is over.
#[derive(Default)]
struct Expanded(Vec<(NodeId, f64, f64)>);

impl Observer for Expanded {
    fn expand(&mut self, node: NodeId, g: f64, h: f64) {
        self.0.push((node, g, g + h));
    }
}

/// Sums over the queries of one set.
#[derive(Default)]
struct Totals {
    queries: u64,
    below: u64,
    plateau: u64,
    on_path: u64,
    on_some_optimal_path: u64,
    path_nodes: u64,
    wasted_by_tenth: [u64; 10],
}

fn main() {
    let args = BenchArgs::from_env(&["--every", "--configs"]);
    let every = args.every.unwrap_or(40);
    let specs = args
        .configs
        .clone()
        .unwrap_or_else(|| vec!["astar/dh:16".to_string()]);
    for set in args.sets_or(&["room"]) {
        let instances = load_set(&set, every);
        for name in &specs {
            let spec: SearchSpec = name
                .parse()
                .unwrap_or_else(|e| panic!("--configs {name}: {e}"));
            let mut t = Totals::default();
            for inst in &instances {
                let prepared = spec
                    .prepare(&inst.graph)
                    .unwrap_or_else(|e| panic!("{name} on {}: {e}", inst.name));
                let mut searcher = prepared.searcher();
                let mut cache = SearchCache::new();
                let mut path = Vec::new();
                let mut expanded = Expanded::default();
                for q in &inst.queries {
                    expanded.0.clear();
                    let cost = searcher
                        .search_observed(q.start, q.goal, &mut expanded)
                        .unwrap_or_else(|| panic!("{}: line {}: no path", inst.name, q.line));
                    assert!(
                        (cost - q.optimal).abs() <= 1e-4 * q.optimal.max(1.0),
                        "{}: line {}: {name} found {cost}, published {}",
                        inst.name,
                        q.line,
                        q.optimal
                    );
                    searcher.path_into(q.goal, &mut path);
                    let on_path: HashSet<NodeId> = path.iter().copied().collect();
                    let from_start = DistanceField::build(&inst.graph, &[q.start], &mut cache);
                    let to_goal = DistanceField::build(&inst.graph, &[q.goal], &mut cache);
                    t.queries += 1;
                    t.path_nodes += path.len() as u64;
                    for &(v, g, f) in &expanded.0 {
                        // Split at the cost found (the published one is
                        // rounded); a tolerance of 1e-9 absorbs the rounding
                        // of `g + h`, and distinct exact costs differ by far
                        // more.
                        if f < cost - 1e-9 {
                            t.below += 1;
                            continue;
                        }
                        t.plateau += 1;
                        if on_path.contains(&v) {
                            t.on_path += 1;
                        }
                        let through = from_start.distance(v).unwrap_or(f64::INFINITY)
                            + to_goal.distance(v).unwrap_or(f64::INFINITY);
                        if (through - cost).abs() <= 1e-9 * cost.max(1.0) {
                            t.on_some_optimal_path += 1;
                        } else {
                            // `g / C*` is at most 1: the last tenth takes it.
                            t.wasted_by_tenth[((g / cost * 10.0) as usize).min(9)] += 1;
                        }
                    }
                }
            }
            let per = |x: u64| x as f64 / t.queries.max(1) as f64;
            println!(
                "{set} {name}: {} queries (every {every}), all costs checked; per query: {:.1} expanded = {:.1} with f < C* + {:.1} with f = C*; of the latter {:.1} on the path found ({:.1} nodes), {:.1} on some optimal path",
                t.queries,
                per(t.below + t.plateau),
                per(t.below),
                per(t.plateau),
                per(t.on_path),
                per(t.path_nodes),
                per(t.on_some_optimal_path),
            );
            let tenths: Vec<String> = t
                .wasted_by_tenth
                .iter()
                .map(|&w| format!("{:.0}", per(w)))
                .collect();
            println!(
                "  f = C* off every optimal path, by g / C* in tenths: {}",
                tenths.join(", ")
            );
        }
    }
}
