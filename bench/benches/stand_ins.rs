//! The preprocessed tiers against the tier they stand on, on large maps:
//! `jps+bb` and `sub` built within their default budgets (a partial table
//! answers as `jps+` when it would prune too little,
//! `Table::defers_to_stand_in`), each timed against `jps+` on the same
//! queries in the same process, in turn, the first of the two alternating
//! from query to query; every cost checked against the published optimal
//! length.
//!
//! ```text
//! cargo bench -p cairns-bench --bench stand_ins -- [MAP...] [--every N]
//! ```
//!
//! MAP is a map of the data directory (`street/Paris_1_1024.map`) or a
//! path to a `.map` with its `.scen` beside it (Aurora of GPPC 2014, say);
//! the default is every map of the data directory at 1024 cells across or
//! more. `--every` (8) keeps every Nth scenario. Per map and tier it
//! prints what the budget built (boxed jump points, the subgoal graph's
//! core), the median us per query of each side, the median per-query
//! ratio (tier / `jps+`) and the ratio of the sides' mean times; at the
//! end, per tier, the geometric mean of the median ratios over the maps.

use std::path::Path;

use cairns::movingai::runner::{Checker, Instance, Reference};
use cairns::spec::{Engine, SearchSpec};
use cairns_bench::{BenchArgs, RatioTable, alternated_engines, jps_plus_engine};

fn main() {
    let args = BenchArgs::from_env(&["--every"]);
    let every = args.every.unwrap_or(8);
    let maps = args.sets_or(&[
        "dao/orz900d.map",
        "sc1/TheFrozenSea.map",
        "street/Berlin_0_1024.map",
        "street/Boston_0_1024.map",
        "street/Paris_1_1024.map",
    ]);
    let names = ["jps+bb".to_owned(), "sub".to_owned()];
    let mut table = RatioTable::new(&names, ["jps+", "tier"]);
    println!("every {every} scenario(s); each tier built within its default budget");
    println!("{}", table.start_set());
    for map in maps {
        let scen = if Path::new(&map).exists() {
            format!("{map}.scen").into()
        } else {
            cairns_testdata::file(&format!("{map}.scen"))
        };
        let inst = Instance::load(&scen, None, every).unwrap_or_else(|e| panic!("{e}"));
        let base = jps_plus_engine(&inst.graph);
        for (k, name) in names.iter().enumerate() {
            let spec: SearchSpec = name.parse().expect("a spec");
            let tier = Engine::new(inst.graph.clone(), &spec).expect("the tier on an octile map");
            let built: Vec<String> = tier
                .tables()
                .iter()
                .flat_map(cairns::spec::Table::details)
                .map(|(label, value)| format!("{label} {value}"))
                .collect();
            let mut checker = Checker::new(&inst.graph, Reference::Published);
            let paired = alternated_engines(&inst, &mut checker, [("jps+", &base), (name, &tier)]);
            let mean = |t: &[f64]| t.iter().sum::<f64>() / t.len() as f64;
            println!(
                "{}  mean ratio {:.3}  ({})",
                table.row(k, &inst, &paired),
                mean(&paired.times[1]) / mean(&paired.times[0]),
                built.join("; ")
            );
        }
    }
    println!("{}", table.summary("large maps").join("\n"));
}
