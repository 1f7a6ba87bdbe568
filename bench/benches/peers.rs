//! The scenario harness against the peers: every query of a Moving AI set
//! run by cairns and by the `pathfinding` crate in the same process, each
//! result checked against the published optimal length.
//!
//! ```text
//! cargo bench -p cairns-bench --bench peers -- [SET...] [--every N] [--csv FILE]
//! ```
//!
//! The cairns searches are built from their spec names (`astar/octile`,
//! `canonical/octile`, `jps/octile`); the CSV path is taken from the
//! workspace root.
//!
//! Defaults: the `dao` set, every scenario. Per map it prints the median
//! time per query of each implementation and the median over the queries of
//! the per-query ratio (peer time / cairns time on the same query), which a
//! preempted query cannot skew the way it skews a mean; at the end, the
//! geometric mean of those per-map ratios over the maps.

mod common;

use std::fmt::Write as _;

use cairns::graph::NodeId;
use cairns::grid::GridGraph;
use cairns::movingai::runner::{Checker, Reference, median};
use cairns::search::Searcher;
use cairns::spec::SearchSpec;
use cairns_bench::{BenchArgs, geometric_mean, load_set, time_checked};

/// How one implementation is run: a cairns search by its spec name, or a
/// peer's function.
#[derive(Clone, Copy)]
enum Impl {
    Cairns(&'static str),
    Peer(fn(&GridGraph, NodeId, NodeId) -> Option<f64>),
}

const IMPLS: [(&str, Impl); 5] = [
    ("cairns", Impl::Cairns("astar/octile")),
    ("pathfinding", Impl::Peer(common::pathfinding_astar)),
    (
        "pathfinding-dense",
        Impl::Peer(common::pathfinding_astar_dense),
    ),
    ("cairns-canonical", Impl::Cairns("canonical/octile")),
    ("cairns-jps", Impl::Cairns("jps/octile")),
];

/// Runs implementation `imp` on one query; a cairns search also extracts
/// the full cell path into a reused buffer, as the peers do.
fn run(
    imp: Impl, searcher: Option<&mut cairns::spec::BoxedSearcher<'_>>, graph: &GridGraph,
    (start, goal): (NodeId, NodeId), path: &mut Vec<NodeId>,
) -> Option<f64> {
    match (imp, searcher) {
        (Impl::Cairns(_), Some(s)) => {
            let cost = s.search_cost(start, goal);
            s.path_into(goal, path);
            cost
        }
        (Impl::Peer(f), _) => f(graph, start, goal),
        (Impl::Cairns(name), None) => unreachable!("{name} has a searcher"),
    }
}

#[expect(
    clippy::too_many_lines,
    reason = "one linear report: parse, run, print"
)]
fn main() {
    let args = BenchArgs::from_env(&["--every", "--sets", "--csv"]);
    let sets = args.sets_or(&["dao"]);
    let every = args.every.unwrap_or(1);
    let specs: Vec<Option<SearchSpec>> = IMPLS
        .iter()
        .map(|(_, imp)| match imp {
            Impl::Cairns(name) => Some(name.parse().expect("a valid search spec")),
            Impl::Peer(_) => None,
        })
        .collect();
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
            let graph = &inst.graph;
            let prepared: Vec<_> = specs
                .iter()
                .map(|spec| spec.map(|s| s.prepare(graph).expect("the search runs on octile maps")))
                .collect();
            let mut searchers: Vec<_> = prepared
                .iter()
                .map(|p| p.as_ref().map(cairns::spec::Prepared::searcher))
                .collect();
            let mut checker = Checker::new(graph, Reference::Published);
            let mut path = Vec::new();
            let mut times = vec![Vec::with_capacity(inst.queries.len()); IMPLS.len()];
            for (q, query) in inst.queries.iter().enumerate() {
                // Rotate who goes first so that no implementation always
                // finds the caches warmed by another.
                for k in 0..IMPLS.len() {
                    let i = (q + k) % IMPLS.len();
                    let (name, imp) = IMPLS[i];
                    let searcher = searchers[i].as_mut();
                    times[i].push(time_checked(&name, inst, query, &mut checker, || {
                        run(imp, searcher, graph, (query.start, query.goal), &mut path)
                    }));
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
                        let r: Vec<f64> = times[i]
                            .iter()
                            .zip(&times[base])
                            .map(|(t, c)| t / c)
                            .collect();
                        median(&r)
                    })
                    .collect()
            };
            let (query_ratios, to_canonical, to_jps) = (ratios_to(0), ratios_to(3), ratios_to(4));
            let medians: Vec<f64> = times.iter().map(|t| median(t)).collect();
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
    if let Some(path) = &args.csv {
        std::fs::write(path, csv).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        println!("wrote {}", path.display());
    }
}
