//! The landmark floors of the differential-heuristic issue, measured so that
//! machine noise cannot decide them: per Moving AI set, A* with octile and
//! A* with 16 landmarks placed farthest-first (seed 1, the CLI's `dh:16`)
//! and by `Placement::Sampled` (seed 1, `dh:16:sampled`), each with the
//! indexed binary heap (the default when these floors were set) and with
//! the pairing heap, and jump point search
//! alone and with the same two tables, over the same sampled queries. Each configuration is a search spec (`astar/dh:16:sampled/pairing-heap`)
//! built by the library; the two landmark tables of a map are built once
//! and shared by the binary-heap and pairing-heap searches.
//!
//! ```text
//! cargo bench -p cairns-bench --bench landmark_floors -- [SET...] [--every N] [--rounds R] [--configs I,J,...]
//! ```
//!
//! `--configs` runs only the configurations with those indices (0 to 8 in
//! the order of the report; 0, octile with the default heap, is always
//! run as the baseline), for quick before-and-after comparisons. 6 to 8
//! are jump point search alone and with the two landmark tables
//! (`jps/dh:16`, issue #12's "landmarks inside jump point search"); the
//! report compares them with `jps` alone as well.
//!
//! Defaults: `dao maze`, every 5th scenario, 5 rounds. Every round runs
//! every configuration on every query of a map, in an order that rotates
//! from round to round; a query's time is its fastest round (a stall of the
//! machine inflates one round, not the minimum). Every result of every
//! round is checked against the published optimal length. Reported per
//! configuration: mean expansions, mean and median of the per-query times,
//! and the ratios of octile with the default heap to it.

use std::time::Instant;

use cairns::movingai::runner::{Checker, Instance, Reference, median};
use cairns::search::Searcher;
use cairns::spec::{HeuristicSpec, PLACEMENT_SEED, PlacementKind, SearchSpec, Table, build_table};
use cairns_bench::{BenchArgs, load_set, parse_list, time_checked};

/// The number of landmarks of the floors.
const K: usize = 16;
/// The configurations, in the order of the report: the name printed and
/// the search spec run.
const CONFIGS: [(&str, &str); 9] = [
    (
        "octile, binary heap (the default then)",
        "astar/octile/indexed-binary-heap",
    ),
    ("octile, pairing heap", "astar/octile/pairing-heap"),
    (
        "dh:16 farthest, binary heap",
        "astar/dh:16:farthest/indexed-binary-heap",
    ),
    (
        "dh:16 farthest, pairing heap",
        "astar/dh:16:farthest/pairing-heap",
    ),
    (
        "dh:16 sampled, binary heap",
        "astar/dh:16:sampled/indexed-binary-heap",
    ),
    (
        "dh:16 sampled, pairing heap",
        "astar/dh:16:sampled/pairing-heap",
    ),
    ("jps, octile", "jps/octile"),
    ("jps, dh:16 farthest", "jps/dh:16:farthest"),
    ("jps, dh:16 sampled", "jps/dh:16:sampled"),
];
/// The configuration that the jump point searches with landmarks are
/// compared with: `jps` alone.
const JPS: usize = 6;
/// The placements whose tables the configurations use.
const PLACEMENTS: [PlacementKind; 2] = [PlacementKind::Farthest, PlacementKind::Sampled];
const N: usize = CONFIGS.len();

/// Runs every query of `inst` once with `searcher`, checking each cost;
/// keeps each query's fastest time in `best` and returns the expansions.
fn round(
    inst: &Instance, searcher: &mut dyn Searcher, checker: &mut Checker<'_>, best: &mut [f64],
    name: &str,
) -> u64 {
    let mut expanded = 0;
    for (i, q) in inst.queries.iter().enumerate() {
        let t = time_checked(&name, inst, q, checker, || {
            searcher.search_cost(q.start, q.goal)
        });
        best[i] = best[i].min(t);
        expanded += searcher.stats().expanded;
    }
    expanded
}

fn main() {
    let args = BenchArgs::from_env(&["--every", "--sets", "--rounds", "--configs"]);
    let sets = args.sets_or(&["dao", "maze"]);
    let every = args.every.unwrap_or(5);
    let rounds = args.rounds.unwrap_or(5);
    let mut run_config = [true; N];
    if let Some(list) = &args.configs {
        run_config = [false; N];
        run_config[0] = true;
        for i in parse_list::<usize>("--configs", list) {
            assert!(i < N, "--configs: no configuration {i}");
            run_config[i] = true;
        }
    }
    let specs: Vec<SearchSpec> = CONFIGS
        .iter()
        .map(|(_, spec)| spec.parse().expect("a valid search spec"))
        .collect();
    println!("every {every} scenario(s), {rounds} rounds, a query's time is its fastest round");
    for set in &sets {
        let instances = load_set(set, every);
        let mut times: [Vec<f64>; N] = Default::default();
        let mut expanded = [0u64; N];
        let mut queries = 0;
        // Placing and building, per placement, over all maps.
        let mut prep = [0.0; 2];
        for inst in &instances {
            let g = &inst.graph;
            let n = inst.queries.len();
            queries += n;
            let tables: Vec<Table> = PLACEMENTS
                .iter()
                .zip(&mut prep)
                .map(|(&p, t)| {
                    let t0 = Instant::now();
                    let table = build_table(g, K, p.with_seed(PLACEMENT_SEED))
                        .expect("the maps have room for the landmarks");
                    *t += t0.elapsed().as_secs_f64();
                    Table::from(table)
                })
                .collect();
            let mut searchers: Vec<cairns::spec::BoxedSearcher<'_>> = specs
                .iter()
                .map(|spec| {
                    let table = match spec.heuristic {
                        Some(HeuristicSpec::Landmarks { placement, .. }) => {
                            let i = PLACEMENTS.iter().position(|&p| p == placement);
                            std::slice::from_ref(&tables[i.expect("a placement with a table")])
                        }
                        _ => &[],
                    };
                    spec.searcher(g, table).expect("a search of the floors")
                })
                .collect();
            let mut checker = Checker::new(g, Reference::Published);
            let mut best = vec![vec![f64::INFINITY; n]; N];
            for r in 0..rounds {
                for c in (0..N).map(|i| (i + r) % N).filter(|&c| run_config[c]) {
                    let e = round(
                        inst,
                        &mut *searchers[c],
                        &mut checker,
                        &mut best[c],
                        CONFIGS[c].0,
                    );
                    if r == 0 {
                        expanded[c] += e;
                    }
                }
            }
            for (t, b) in times.iter_mut().zip(best) {
                t.extend(b);
            }
        }
        report(
            set,
            instances.len(),
            queries,
            prep,
            &expanded,
            &times,
            run_config,
        );
    }
}

/// Prints one set's table.
fn report(
    set: &str, maps: usize, queries: usize, prep: [f64; 2], expanded: &[u64; N],
    times: &[Vec<f64>; N], run_config: [bool; N],
) {
    let q = queries as f64;
    let mean = |t: &[f64]| t.iter().sum::<f64>() / q;
    let base_mean = mean(&times[0]);
    let base_median = median(&times[0]);
    let base_exp = expanded[0] as f64 / q;
    println!(
        "\n{set}: {maps} maps, {queries} queries; placing and building {K} landmarks over all maps (not in the query times): farthest {:.2} s, sampled {:.2} s",
        prep[0], prep[1]
    );
    println!(
        "| configuration | mean expanded | fewer expansions | mean us | median us | lower mean time | ns per expansion |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for c in (0..N).filter(|&c| run_config[c]) {
        let exp = expanded[c] as f64 / q;
        let m = mean(&times[c]);
        let med = median(&times[c]);
        println!(
            "| {} | {exp:.0} | {:.2}x | {:.1} | {:.1} (median ratio {:.2}x) | **{:.2}x** | {:.0} |",
            CONFIGS[c].0,
            base_exp / exp,
            m * 1e6,
            med * 1e6,
            base_median / med,
            base_mean / m,
            m / exp * 1e9
        );
    }
    if run_config[JPS] {
        let (jps_mean, jps_median) = (mean(&times[JPS]), median(&times[JPS]));
        for c in (JPS + 1..N).filter(|&c| run_config[c]) {
            println!(
                "{} against jps alone: {:.2}x fewer expansions, {:.2}x lower mean time, {:.2}x lower median time",
                CONFIGS[c].0,
                expanded[JPS] as f64 / expanded[c] as f64,
                jps_mean / mean(&times[c]),
                jps_median / median(&times[c]),
            );
        }
    }
}
