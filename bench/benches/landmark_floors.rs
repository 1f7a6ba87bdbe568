//! The landmark floors of the differential-heuristic issue, measured so that
//! machine noise cannot decide them: per Moving AI set, A* with octile and
//! A* with 16 farthest-first landmarks (seed 1, the CLI's `dh:16`), each
//! with the default binary heap and with the pairing heap, over the same
//! sampled queries.
//!
//! ```text
//! cargo bench -p cairns-bench --bench landmark_floors -- [SET...] [--every N] [--rounds R]
//! ```
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
use cairns::search::{AStar, SearchCache};
use cairns_bench::{Instance, load_set, median};

/// The number of landmarks of the floors.
const K: usize = 16;
/// The placement seed of the CLI's `dh:K`.
const SEED: u64 = 1;
/// The configurations, in the order of the report.
const NAMES: [&str; 4] = [
    "octile, binary heap (default)",
    "octile, pairing heap",
    "dh:16, binary heap (default)",
    "dh:16, pairing heap",
];

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
        let mut times: [Vec<f64>; 4] = Default::default();
        let mut expanded = [0u64; 4];
        let mut queries = 0;
        let mut prep = 0.0;
        for inst in &instances {
            let g = &inst.graph;
            let n = inst.queries.len();
            queries += n;
            let t0 = Instant::now();
            let table = LandmarkTable::build(
                g,
                &place(g, K, Placement::Farthest { seed: SEED }),
                Directedness::Symmetric,
            );
            prep += t0.elapsed().as_secs_f64();
            let octile = Octile::new(g);
            let dh = DifferentialHeuristic::new(&table, Octile::new(g));
            let mut best = vec![vec![f64::INFINITY; n]; 4];
            for r in 0..rounds {
                for c in (0..4).map(|i| (i + r) % 4) {
                    let (b, name) = (&mut best[c], NAMES[c]);
                    let e = match c {
                        0 => round(inst, octile, &mut heap, b, name),
                        1 => round(inst, octile, &mut pairing, b, name),
                        2 => round(inst, dh, &mut heap, b, name),
                        _ => round(inst, dh, &mut pairing, b, name),
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
        let q = queries as f64;
        let mean = |t: &[f64]| t.iter().sum::<f64>() / q;
        let base_mean = mean(&times[0]);
        let base_median = median(&mut times[0].clone());
        let base_exp = expanded[0] as f64 / q;
        println!(
            "\n{set}: {} maps, {queries} queries; placing and building {K} landmarks: {prep:.2} s over all maps (not in the query times)",
            instances.len()
        );
        println!(
            "| configuration | mean expanded | fewer expansions | mean us | median us | lower mean time | ns per expansion |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|");
        for c in 0..4 {
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
}
