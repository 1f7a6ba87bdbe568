//! Every tier a movement rule takes against A* on that rule: the same
//! queries in the same run, in turn, every cost checked against Dijkstra on
//! the rule (the published lengths are octile ones).
//!
//! ```text
//! cargo bench -p cairns-bench --bench rules -- [SET...] [--every N] [--rules 4,octile-cut] [--specs jps,jps+,astar/dh:16]
//! ```
//!
//! Defaults: the dao, street (its 512x512 maps) and room sets, every 40th
//! scenario, the rules `4`, `octile-cut` and `octile-squeeze`, and the
//! specs `jps`, `jps+` and `astar/dh:16` (a tier a rule refuses is reported as
//! refused). Per map, rule and spec it prints the median time per query of
//! each side and the median per-query ratio (tier / astar); per set the
//! geometric mean of the ratios over its maps; per rule the geometric mean
//! over the sets, and the speedup it stands for.

use cairns::grid::Neighborhood;
use cairns::movingai::runner::{Checker, Instance, Reference};
use cairns::spec::{Engine, SearchSpec};
use cairns_bench::{BenchArgs, RatioTable, alternated_engines, geometric_mean, load_set};

/// The maps of `set` the bench runs: the street set's 512x512 ones, every
/// map of the others.
fn maps(set: &str, every: usize) -> Vec<Instance> {
    let mut all = load_set(set, every);
    if set == "street" {
        all.retain(|inst| inst.name.contains("_512"));
    }
    all
}

fn main() {
    let args = BenchArgs::from_env(&["--every", "--specs", "--rules"]);
    let every = args.every.unwrap_or(40);
    let sets = args.sets_or(&["dao", "street", "room"]);
    let rules: Vec<Neighborhood> = args.get_list("--rules").unwrap_or_else(|| {
        vec![
            Neighborhood::Four,
            Neighborhood::OctileCornerCutting,
            Neighborhood::OctileSqueeze,
        ]
    });
    let (names, specs) = args.specs_or(&["jps", "jps+", "astar/dh:16"]);
    let astar: SearchSpec = "astar".parse().expect("a spec");
    let loaded: Vec<(String, Vec<Instance>)> = sets
        .iter()
        .map(|set| (set.clone(), maps(set, every)))
        .collect();
    for &rule in &rules {
        let mut by_set = vec![Vec::new(); specs.len()];
        for (set, instances) in &loaded {
            let mut table = RatioTable::new(&names, ["astar", "tier"]);
            let header = table.start_set();
            println!(
                "\n== {} on {set}: every {every} scenario(s); median us per query ==\n{header}",
                rule.name()
            );
            let mut refused = vec![false; specs.len()];
            for inst in instances {
                let inst = inst.clone().under(rule);
                let base = Engine::new(inst.graph.clone(), &astar).expect("astar takes every rule");
                for (k, spec) in specs.iter().enumerate() {
                    let tier = match Engine::new(inst.graph.clone(), spec) {
                        Ok(tier) => tier,
                        Err(e) => {
                            if !refused[k] {
                                println!(
                                    "{:<16} {:>7} {:<10} refused: {e}",
                                    inst.name, "", names[k]
                                );
                                refused[k] = true;
                            }
                            continue;
                        }
                    };
                    let mut checker = Checker::new(&inst.graph, Reference::Dijkstra);
                    let paired = alternated_engines(
                        &inst,
                        &mut checker,
                        [("astar", &base), (&names[k], &tier)],
                    );
                    println!("{}", table.row(k, &inst, &paired));
                }
            }
            println!("{}", table.summary(set).join("\n"));
            for (k, mean) in table.means().into_iter().enumerate() {
                if !refused[k] {
                    by_set[k].push(mean);
                }
            }
        }
        for (k, means) in by_set.iter().enumerate() {
            if means.len() == loaded.len() {
                let g = geometric_mean(means);
                println!(
                    "{}: {}: geometric mean over {} sets of tier / astar = {g:.3} ({:.1}x faster than astar)",
                    rule.name(),
                    names[k],
                    means.len(),
                    1.0 / g
                );
            }
        }
    }
}
