//! Hub labels on grid maps against the grid tiers that preprocess, `jps+bb`
//! (JPS+ with goal bounding) and `sub` (subgoal graphs): the labels of a
//! contraction hierarchy of the map's octile graph, and both engines, on
//! the same scenario queries, every cost checked against the published
//! length.
//!
//! ```text
//! cargo bench -p cairns-bench --bench grid_labels --profile release -- [SET/NAME.map.scen...] [--every N]
//! ```
//!
//! A file is a scenario file under the data directory (default: a few
//! maps of several families, small enough for the hierarchy to build in
//! seconds); `--every N` keeps every N-th scenario (default 1). Per map it
//! prints the cells, the seconds and bytes of each preparation (the
//! hierarchy, then the labels over it; each engine's tables), the mean
//! microseconds a query of each (the three run in turn, the first
//! rotating from query to query), and the ratios of the labels' time to
//! each tier's (below 1: the labels are faster).

use std::time::Instant;

use cairns::movingai::runner::{Checker, Reference};
use cairns::search::{ContractionHierarchy, HubLabels, Searcher as _};
use cairns_bench::{BenchArgs, load_file, spec_engine, time_checked};

/// The maps measured without arguments.
const DEFAULT_FILES: [&str; 5] = [
    "dao/arena.map.scen",
    "da2/ht_mansion_n.map.scen",
    "da2/ht_chantry.map.scen",
    "dao/den520d.map.scen",
    "street/Berlin_0_256.map.scen",
];

fn main() {
    let args = BenchArgs::from_env(&["--every"]);
    let every: usize = args.get("--every").unwrap_or(1);
    let files = args.sets_or(&DEFAULT_FILES);
    println!(
        "| map | cells | queries | CH build s | HL build s | HL bytes | hubs a label | jps+bb prep s | jps+bb bytes | sub prep s | sub bytes | us/query HL | jps+bb | sub | HL / jps+bb | HL / sub |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for file in &files {
        let inst = load_file(file, every);
        let graph = &inst.graph;
        let t0 = Instant::now();
        let ch = ContractionHierarchy::build(graph);
        let ch_s = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let labels = HubLabels::build(&ch);
        let hl_s = t0.elapsed().as_secs_f64();
        let (bb, bb_s, bb_bytes) = spec_engine(graph, "jps+bb");
        let (sub, sub_s, sub_bytes) = spec_engine(graph, "sub");
        let (mut bb, mut sub) = (bb.searcher(), sub.searcher());
        let mut checker = Checker::new(graph, Reference::Published);
        let mut total = [0.0f64; 3];
        for (q, query) in inst.queries.iter().enumerate() {
            for k in 0..3 {
                let side = (q + k) % 3;
                let (s, g) = (query.start, query.goal);
                total[side] += match side {
                    0 => time_checked(&"hl", &inst, query, &mut checker, || labels.cost(s, g)),
                    1 => time_checked(&"jps+bb", &inst, query, &mut checker, || {
                        bb.search_cost(s, g)
                    }),
                    _ => time_checked(&"sub", &inst, query, &mut checker, || sub.search_cost(s, g)),
                };
            }
        }
        let n = inst.queries.len().max(1) as f64;
        let us = total.map(|t| t / n * 1e6);
        println!(
            "| {} | {} | {} | {ch_s:.2} | {hl_s:.2} | {} | {:.1} | {bb_s:.2} | {bb_bytes} | {sub_s:.2} | {sub_bytes} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            inst.name,
            graph.grid().passable_count(),
            inst.queries.len(),
            labels.memory_bytes(),
            labels.average_label_size(),
            us[0],
            us[1],
            us[2],
            us[0] / us[1],
            us[0] / us[2],
        );
    }
}
