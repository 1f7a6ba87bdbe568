//! The owning engine against the borrowing API: the same spec prepared on
//! the same map both ways (`SearchSpec::prepare` then `Prepared::searcher`,
//! and `Engine::new` then `Engine::searcher`), run on the same queries in
//! the same process, in turn, the first of the two alternating from query
//! to query; every cost checked against the published optimal length.
//!
//! ```text
//! cargo bench -p cairns-bench --bench engine -- [SET...] [--every N] [--specs jps,astar]
//! ```
//!
//! Defaults: the `dao` set, every 4th scenario, specs `astar`, `jps` and
//! `jps+`. Per map and spec it prints the median time per query of each and
//! the median over the queries of the per-query ratio (engine / borrowing);
//! at the end, per spec, the geometric mean of those ratios over the maps.

use cairns::movingai::runner::{Checker, Reference, median};
use cairns::search::Searcher;
use cairns::spec::{Engine, SearchSpec};
use cairns_bench::{BenchArgs, geometric_mean, load_set, time_checked};

fn main() {
    let args = BenchArgs::from_env(&["--every", "--sets", "--specs"]);
    let sets = args.sets_or(&["dao"]);
    let every = args.every.unwrap_or(4);
    let names: Vec<String> = args
        .get_list("--specs")
        .unwrap_or_else(|| vec!["astar".into(), "jps".into(), "jps+".into()]);
    let specs: Vec<SearchSpec> = names
        .iter()
        .map(|n| n.parse().unwrap_or_else(|e| panic!("--specs {n}: {e}")))
        .collect();
    let header = format!(
        "{:<16} {:>7} {:<10} {:>10} {:>10} {:>14}",
        "map", "queries", "spec", "borrowing", "engine", "engine/borrow"
    );
    for set in &sets {
        let instances = load_set(set, every);
        println!("\n== {set}: every {every} scenario(s); median us per query ==\n{header}");
        let mut ratios = vec![Vec::new(); specs.len()];
        for inst in &instances {
            let graph = &inst.graph;
            for (k, spec) in specs.iter().enumerate() {
                let prepared = spec.prepare(graph).expect("the spec runs on the map");
                let engine = Engine::new(graph.clone(), spec).expect("the spec runs on the map");
                let mut borrowing = prepared.searcher();
                let mut owning = engine.searcher();
                let mut checker = Checker::new(graph, Reference::Published);
                let (mut tb, mut te) = (Vec::new(), Vec::new());
                for (q, query) in inst.queries.iter().enumerate() {
                    let (s, g) = (query.start, query.goal);
                    let mut searchers: [(&mut Vec<f64>, &str, &mut dyn Searcher); 2] = [
                        (&mut tb, "borrowing", &mut *borrowing),
                        (&mut te, "engine", &mut owning),
                    ];
                    // The first of the two alternates from query to query.
                    searchers.rotate_left(q % 2);
                    for (times, what, searcher) in searchers {
                        times.push(time_checked(&what, inst, query, &mut checker, || {
                            searcher.search_cost(s, g)
                        }));
                    }
                }
                let per_query: Vec<f64> = te.iter().zip(&tb).map(|(e, b)| e / b).collect();
                let ratio = median(&per_query);
                ratios[k].push(ratio);
                println!(
                    "{:<16} {:>7} {:<10} {:>10.2} {:>10.2} {:>14.3}",
                    inst.name,
                    inst.queries.len(),
                    names[k],
                    median(&tb) * 1e6,
                    median(&te) * 1e6,
                    ratio
                );
            }
        }
        for (k, name) in names.iter().enumerate() {
            println!(
                "{set}: {name}: geometric mean over {} maps of the median per-query ratio engine / borrowing = {:.3}",
                instances.len(),
                geometric_mean(&ratios[k])
            );
        }
    }
}
