//! The scenario harness against the peers: every query of a Moving AI set
//! run by cairns and by the `pathfinding` crate in the same process, each
//! result checked against the published optimal length.
//!
//! ```text
//! cargo bench -p cairns-bench --bench peers -- [SET...] [--every N] [--csv FILE]
//! ```
//!
//! Defaults: the `dao` set, every scenario. Per map it prints the median
//! time per query of each implementation and the median over the queries of
//! the per-query ratio (peer time / cairns time on the same query), which a
//! preempted query cannot skew the way it skews a mean; at the end, the
//! geometric mean of those per-map ratios over the maps.

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use cairns::heuristic::Octile;
use cairns::search::{AStar, Search, SearchCache};
use cairns_bench::{Instance, geometric_mean, load_set, median};

type Runner = fn(&Instance, usize, &mut Scratch) -> Option<f64>;

/// Memory one implementation keeps across queries.
struct Scratch {
    cache: SearchCache,
    path: Vec<cairns::graph::NodeId>,
    /// The instance's map with canonical ordering on.
    canonical: cairns::grid::GridGraph,
}

fn cairns_octile(inst: &Instance, q: usize, s: &mut Scratch) -> Option<f64> {
    let q = &inst.queries[q];
    let astar = AStar::new(&inst.graph, Octile::new(&inst.graph));
    let cost = astar.search_cost(q.start, q.goal, &mut s.cache);
    // Extract the path too, as the peers do, into a reused buffer.
    s.cache.path_into(q.goal, &mut s.path);
    cost
}

fn cairns_canonical(inst: &Instance, q: usize, s: &mut Scratch) -> Option<f64> {
    let q = &inst.queries[q];
    let astar = AStar::new(&s.canonical, Octile::new(&s.canonical));
    let cost = astar.search_cost(q.start, q.goal, &mut s.cache);
    s.cache.path_into(q.goal, &mut s.path);
    cost
}

fn cairns_jps(inst: &Instance, q: usize, s: &mut Scratch) -> Option<f64> {
    let q = &inst.queries[q];
    let jps = cairns::search::JumpPointSearch::new(&inst.graph).expect("octile grid");
    let cost = jps.search_cost(q.start, q.goal, &mut s.cache);
    // The full cell path, as the other implementations produce.
    jps.path_into(&s.cache, q.goal, &mut s.path);
    cost
}

fn pathfinding_typical(inst: &Instance, q: usize, _: &mut Scratch) -> Option<f64> {
    let q = &inst.queries[q];
    common::pathfinding_astar(&inst.graph, q.start, q.goal)
}

fn pathfinding_dense(inst: &Instance, q: usize, _: &mut Scratch) -> Option<f64> {
    let q = &inst.queries[q];
    common::pathfinding_astar_dense(&inst.graph, q.start, q.goal)
}

const IMPLS: [(&str, Runner); 5] = [
    ("cairns", cairns_octile),
    ("pathfinding", pathfinding_typical),
    ("pathfinding-dense", pathfinding_dense),
    ("cairns-canonical", cairns_canonical),
    ("cairns-jps", cairns_jps),
];

#[expect(
    clippy::too_many_lines,
    reason = "one linear report: parse, run, print"
)]
fn main() {
    let mut sets = Vec::new();
    let mut every = 1usize;
    let mut csv_path = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--every" => every = args.next().and_then(|v| v.parse().ok()).expect("--every N"),
            "--csv" => csv_path = Some(args.next().expect("--csv FILE")),
            "--bench" => {}
            s if s.starts_with('-') => panic!("unknown option {s}"),
            s => sets.push(s.to_string()),
        }
    }
    if sets.is_empty() {
        sets.push("dao".into());
    }
    let mut csv = String::from(
        "set,map,queries,impl,median_us,mean_us,median_query_ratio_to_cairns,median_query_ratio_to_canonical,median_query_ratio_to_jps\n",
    );
    for set in &sets {
        let instances = load_set(set, every);
        println!(
            "\n== {set}: every {every} scenario(s); median and mean microseconds per query =="
        );
        println!(
            "{:<16} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} | {:>9} {:>9} {:>9}  (ratios: medians of per-query ratios)",
            "map",
            "queries",
            "cairns",
            "canonical",
            "jps",
            "pf",
            "pf-dense",
            "pf/cairns",
            "pf/canon",
            "pf/jps"
        );
        let mut ratios = vec![Vec::new(); IMPLS.len()];
        let mut canon_ratios = vec![Vec::new(); IMPLS.len()];
        let mut jps_ratios = vec![Vec::new(); IMPLS.len()];
        for inst in &instances {
            let mut scratch = Scratch {
                cache: SearchCache::new(),
                path: Vec::new(),
                canonical: inst.graph.clone().with_canonical_ordering(true),
            };
            let mut times = vec![Vec::with_capacity(inst.queries.len()); IMPLS.len()];
            for q in 0..inst.queries.len() {
                // Rotate who goes first so that no implementation always
                // finds the caches warmed by another.
                for k in 0..IMPLS.len() {
                    let i = (q + k) % IMPLS.len();
                    let (name, run) = IMPLS[i];
                    let t0 = Instant::now();
                    let cost = black_box(run(inst, q, &mut scratch));
                    times[i].push(t0.elapsed().as_secs_f64());
                    assert!(
                        inst.queries[q].matches(cost),
                        "{name} on {} query {q}: {cost:?} vs published {}",
                        inst.name,
                        inst.queries[q].optimal
                    );
                }
            }
            let means: Vec<f64> = times
                .iter()
                .map(|t| t.iter().sum::<f64>() / t.len().max(1) as f64)
                .collect();
            // Per implementation, the median over the queries of its time
            // divided by the time of implementation `base` on the same query.
            let ratios_to = |base: usize| -> Vec<f64> {
                (0..IMPLS.len())
                    .map(|i| {
                        let mut r: Vec<f64> = times[i]
                            .iter()
                            .zip(&times[base])
                            .map(|(t, c)| t / c)
                            .collect();
                        median(&mut r)
                    })
                    .collect()
            };
            let (query_ratios, to_canonical, to_jps) = (ratios_to(0), ratios_to(3), ratios_to(4));
            let medians: Vec<f64> = times.iter_mut().map(|t| median(t)).collect();
            for i in 0..IMPLS.len() {
                ratios[i].push(query_ratios[i]);
                canon_ratios[i].push(to_canonical[i]);
                jps_ratios[i].push(to_jps[i]);
                let _ = writeln!(
                    csv,
                    "{set},{},{},{},{:.3},{:.3},{:.4},{:.4},{:.4}",
                    inst.name,
                    inst.queries.len(),
                    IMPLS[i].0,
                    medians[i] * 1e6,
                    means[i] * 1e6,
                    query_ratios[i],
                    to_canonical[i],
                    to_jps[i]
                );
            }
            println!(
                "{:<16} {:>6} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} | {:>9.2} {:>9.2} {:>9.2}",
                inst.name,
                inst.queries.len(),
                medians[0] * 1e6,
                medians[3] * 1e6,
                medians[4] * 1e6,
                medians[1] * 1e6,
                medians[2] * 1e6,
                query_ratios[1],
                to_canonical[1],
                to_jps[1],
            );
        }
        println!(
            "{set}: geometric mean over {} maps of the median per-query ratio: pathfinding / cairns = {:.2}x, pathfinding / cairns-canonical = {:.2}x, pathfinding-dense / cairns-canonical = {:.2}x, cairns / cairns-canonical = {:.2}x, pathfinding / cairns-jps = {:.2}x, pathfinding-dense / cairns-jps = {:.2}x",
            instances.len(),
            geometric_mean(&ratios[1]),
            geometric_mean(&canon_ratios[1]),
            geometric_mean(&canon_ratios[2]),
            geometric_mean(&canon_ratios[0]),
            geometric_mean(&jps_ratios[1]),
            geometric_mean(&jps_ratios[2]),
        );
    }
    if let Some(path) = csv_path {
        std::fs::write(&path, csv).unwrap_or_else(|e| panic!("writing {path}: {e}"));
        println!("wrote {path}");
    }
}
