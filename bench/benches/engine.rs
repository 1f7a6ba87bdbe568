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

use cairns::movingai::runner::{Checker, Query, Reference};
use cairns::search::Searcher;
use cairns::spec::Engine;
use cairns_bench::{BenchArgs, RatioTable, Timed, load_set};

fn main() {
    let args = BenchArgs::from_env(&["--every", "--sets", "--specs"]);
    let sets = args.sets_or(&["dao"]);
    let every = args.every.unwrap_or(4);
    let (names, specs) = args.specs_or(&["astar", "jps", "jps+"]);
    let mut table = RatioTable::new(&names, ["borrowing", "engine"]);
    for set in &sets {
        let instances = load_set(set, every);
        let header = table.start_set();
        println!("\n== {set}: every {every} scenario(s); median us per query ==\n{header}");
        for inst in &instances {
            let graph = &inst.graph;
            for (k, spec) in specs.iter().enumerate() {
                let prepared = spec.prepare(graph).expect("the spec runs on the map");
                let engine = Engine::new(graph.clone(), spec).expect("the spec runs on the map");
                let mut borrowing = prepared.searcher();
                let mut owning = engine.searcher();
                let mut checker = Checker::new(graph, Reference::Published);
                let mut first = |q: &Query| borrowing.search_cost(q.start, q.goal);
                let mut second = |q: &Query| owning.search_cost(q.start, q.goal);
                let searches: [Timed; 2] = [&mut first, &mut second];
                println!("{}", table.timed_row(k, inst, &mut checker, searches));
            }
        }
        println!("{}", table.summary(set).join("\n"));
    }
}
