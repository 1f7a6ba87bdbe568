//! The landmark floors of the differential-heuristic issue, measured so that
//! machine noise cannot decide them: per Moving AI set, A* with octile and
//! A* with 16 landmarks placed farthest-first (seed 1, the CLI's `dh:16`)
//! and by `Placement::Sampled` (seed 1, `dh:16:sampled`), each with the
//! default binary heap and with the pairing heap, over the same sampled
//! queries.
//!
//! ```text
//! cargo bench -p cairns-bench --bench landmark_floors -- [SET...] [--every N] [--rounds R] [--configs I,J,...]
//! ```
//!
//! `--configs` runs only the configurations with those indices (0 to 5 in
//! the order of the report; 0, octile with the default heap, is always
//! run as the baseline), for quick before-and-after comparisons.
//!
//! Defaults: `dao maze`, every 5th scenario, 5 rounds. Every round runs
//! every configuration on every query of a map, in an order that rotates
//! from round to round; a query's time is its fastest round (a stall of the
//! machine inflates one round, not the minimum). Every result of every
//! round is checked against the published optimal length. Reported per
//! configuration: mean expansions, mean and median of the per-query times,
//! and the ratios of octile with the default heap to it.

use std::hint::black_box;
use std::time::Instant;

use cairns::heuristic::{Heuristic, Octile};
use cairns::landmarks::{DifferentialHeuristic, Directedness, LandmarkTable, Placement, place};
use cairns::open::{IndexedBinaryHeap, OpenSet, PairingHeap};
use cairns::search::{AStar, Search, SearchCache};
use cairns_bench::{Instance, load_set, median};

/// The number of landmarks of the floors.
const K: usize = 16;
/// The placement seed of the CLI's `dh:K`.
const SEED: u64 = 1;
/// The configurations, in the order of the report.
const NAMES: [&str; 6] = [
    "octile, binary heap (default)",
    "octile, pairing heap",
    "dh:16 farthest, binary heap",
    "dh:16 farthest, pairing heap",
    "dh:16 sampled, binary heap",
    "dh:16 sampled, pairing heap",
];
const CONFIGS: usize = NAMES.len();

/// Runs every query of `inst` once with `h` and an OPEN set of type `Q`,
/// checking each cost; keeps each query's fastest time in `best` and
/// returns the expansions.
fn round<H: Heuristic, Q: OpenSet>(
    inst: &Instance,
    h: H,
    cache: &mut SearchCache<Q>,
    best: &mut [f64],
    name: &str,
) -> u64 {
    let astar = AStar::new(&inst.graph, h);
    let mut expanded = 0;
    for (i, q) in inst.queries.iter().enumerate() {
        let t0 = Instant::now();
        let cost = black_box(astar.search_cost(q.start, q.goal, cache));
        let t = t0.elapsed().as_secs_f64();
        assert!(
            q.matches(cost),
            "{name} on {} query {i}: {cost:?} vs published {}",
            inst.name,
            q.optimal
        );
        best[i] = best[i].min(t);
        expanded += cache.stats().expanded;
    }
    expanded
}

fn main() {
    let mut sets = Vec::new();
    let mut every = 5usize;
    let mut rounds = 5usize;
    let mut run_config = [true; CONFIGS];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |what: &str| -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .filter(|&n| n > 0)
                .unwrap_or_else(|| panic!("{what} takes a positive number"))
        };
        match a.as_str() {
            "--every" => every = num("--every"),
            "--rounds" => rounds = num("--rounds"),
            "--configs" => {
                let list = args.next().expect("--configs I,J,...");
                run_config = [false; CONFIGS];
                run_config[0] = true;
                for i in list.split(',') {
                    let i: usize = i.parse().expect("--configs takes indices");
                    assert!(i < CONFIGS, "--configs: no configuration {i}");
                    run_config[i] = true;
                }
            }
            "--bench" => {}
            s if s.starts_with('-') => panic!("unknown option {s}"),
            s => sets.push(s.to_string()),
        }
    }
    if sets.is_empty() {
        sets = vec!["dao".to_string(), "maze".to_string()];
    }
    println!("every {every} scenario(s), {rounds} rounds, a query's time is its fastest round");
    let mut heap: SearchCache<IndexedBinaryHeap> = SearchCache::new();
    let mut pairing = SearchCache::with_open(PairingHeap::new());
    for set in &sets {
        let instances = load_set(set, every);
        let mut times: [Vec<f64>; CONFIGS] = Default::default();
        let mut expanded = [0u64; CONFIGS];
        let mut queries = 0;
        // Placing and building, per placement, over all maps.
        let mut prep = [0.0; 2];
        for inst in &instances {
            let g = &inst.graph;
            let n = inst.queries.len();
            queries += n;
            let tables: Vec<LandmarkTable> = [
                Placement::Farthest { seed: SEED },
                Placement::Sampled { seed: SEED },
            ]
            .iter()
            .zip(&mut prep)
            .map(|(&p, t)| {
                let t0 = Instant::now();
                let table = LandmarkTable::build(g, &place(g, K, p), Directedness::Symmetric);
                *t += t0.elapsed().as_secs_f64();
                table
            })
            .collect();
            let octile = Octile::new(g);
            let far = DifferentialHeuristic::new(&tables[0], Octile::new(g));
            let sampled = DifferentialHeuristic::new(&tables[1], Octile::new(g));
            let mut best = vec![vec![f64::INFINITY; n]; CONFIGS];
            for r in 0..rounds {
                for c in (0..CONFIGS)
                    .map(|i| (i + r) % CONFIGS)
                    .filter(|&c| run_config[c])
                {
                    let (b, name) = (&mut best[c], NAMES[c]);
                    let e = match c {
                        0 => round(inst, octile, &mut heap, b, name),
                        1 => round(inst, octile, &mut pairing, b, name),
                        2 => round(inst, far, &mut heap, b, name),
                        3 => round(inst, far, &mut pairing, b, name),
                        4 => round(inst, sampled, &mut heap, b, name),
                        _ => round(inst, sampled, &mut pairing, b, name),
                    };
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
            &mut times,
            run_config,
        );
    }
}

/// Prints one set's table.
fn report(
    set: &str,
    maps: usize,
    queries: usize,
    prep: [f64; 2],
    expanded: &[u64; CONFIGS],
    times: &mut [Vec<f64>; CONFIGS],
    run_config: [bool; CONFIGS],
) {
    let q = queries as f64;
    let mean = |t: &[f64]| t.iter().sum::<f64>() / q;
    let base_mean = mean(&times[0]);
    let base_median = median(&mut times[0].clone());
    let base_exp = expanded[0] as f64 / q;
    println!(
        "\n{set}: {maps} maps, {queries} queries; placing and building {K} landmarks over all maps (not in the query times): farthest {:.2} s, sampled {:.2} s",
        prep[0], prep[1]
    );
    println!(
        "| configuration | mean expanded | fewer expansions | mean us | median us | lower mean time | ns per expansion |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for c in (0..CONFIGS).filter(|&c| run_config[c]) {
        let exp = expanded[c] as f64 / q;
        let m = mean(&times[c]);
        let med = median(&mut times[c]);
        println!(
            "| {} | {exp:.0} | {:.2}x | {:.1} | {:.1} (median ratio {:.2}x) | **{:.2}x** | {:.0} |",
            NAMES[c],
            base_exp / exp,
            m * 1e6,
            med * 1e6,
            base_median / med,
            base_mean / m,
            m / exp * 1e9
        );
    }
}
