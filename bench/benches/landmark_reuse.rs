//! Reusing what searches already know (issue #12, item 5): a stream of
//! queries with repeated goals, searched with 16 landmarks alone and with a
//! partial column kept from the previous search to the same goal.
//!
//! ```text
//! cargo bench -p cairns-bench --bench landmark_reuse -- [SET...] [--every N] [--rounds R] [--repeat K]
//! ```
//!
//! The stream: for each sampled scenario `i` of a map, its goal `z_i` is
//! asked `K` times (default 4), from the starts of scenarios `i`, `i + 1`,
//! ..., `i + K - 1` (wrapping around the sample): a unit, then others,
//! heading for the same place. Three configurations run the same stream:
//!
//! - `dh:16`: A* with 16 landmarks placed farthest-first (seed 1), every
//!   query searched from its start.
//! - `dh:16 + partial column`: the first query to a goal is searched from
//!   the goal to the start (the same cost on these symmetric grids); its
//!   closed nodes' `g` values are then exact distances to the goal, kept as
//!   a partial column ([`DistanceColumn::from_search`]) that the next
//!   queries to that goal add to the 16 landmarks
//!   ([`DifferentialHeuristic::with_extra`]). One column is kept, emptied
//!   ([`DistanceColumn::start_partial`]: only the entries it knew are
//!   cleared) and filled during each goal's first search by observing it
//!   ([`DistanceColumn::recorder`]); both are inside the timed work of the
//!   first query.
//! - `dh:16 + full column`: the first query to a goal also runs a complete
//!   reverse Dijkstra from it, kept whole ([`DistanceColumn::to_node`]),
//!   also timed: what reuse cost before the partial column.
//!
//! Every round runs the configurations in a rotating order; a query's time
//! is its fastest round. Every cost is checked against Dijkstra's (the
//! repeated queries are not in the scenario file). Reported: mean
//! expansions and mean time per query over the whole stream, and over the
//! repeated queries alone (the second to `K`-th to each goal).

use std::hint::black_box;
use std::time::Instant;

use cairns::graph::{Graph, NodeId};
use cairns::grid::GridGraph;
use cairns::heuristic::Octile;
use cairns::landmarks::research::DistanceColumn;
use cairns::landmarks::{DifferentialHeuristic, Directedness, LandmarkTable};
use cairns::movingai::runner::same_cost;
use cairns::open::PairingHeap;
use cairns::search::{AStar, Dijkstra, Search, SearchCache};
use cairns::spec::{PLACEMENT_SEED, PlacementKind, build_table};
use cairns_bench::{BenchArgs, load_set};

/// The number of landmarks.
const K: usize = 16;
/// The configurations, in the order of the report.
const CONFIGS: [&str; 3] = ["dh:16", "dh:16 + partial column", "dh:16 + full column"];

/// One configuration's totals over a set.
#[derive(Default)]
struct Totals {
    expanded: [u64; 2],
    seconds: [f64; 2],
    queries: [usize; 2],
    known: u64,
}

/// What the searches of a map keep between queries.
struct Memory {
    cache: SearchCache<PairingHeap>,
    /// For the full column's reverse Dijkstra.
    column_cache: SearchCache,
    /// The partial column, emptied and refilled by each goal's first search.
    partial: Option<DistanceColumn>,
}

/// Runs the stream of one goal (`pairs[0]` first) under configuration `c`;
/// returns per query `(expanded, seconds, cost)` and the column's known
/// count.
fn run_goal(
    c: usize, g: &GridGraph, table: &LandmarkTable, pairs: &[(NodeId, NodeId)],
    memory: &mut Memory, out: &mut Vec<(u64, f64, Option<f64>)>,
) -> u64 {
    let Memory {
        cache,
        column_cache,
        partial,
    } = memory;
    let h = DifferentialHeuristic::new(table, Octile::new(g));
    let (first_start, goal) = pairs[0];
    let t0 = Instant::now();
    let full;
    let (first, column) = match c {
        0 => (AStar::new(g, h).search_cost(first_start, goal, cache), None),
        1 => {
            let symmetric = Directedness::Symmetric;
            let column =
                partial.get_or_insert_with(|| DistanceColumn::from_distances(goal, symmetric, &[]));
            column.start_partial(goal, symmetric, g.node_bound());
            let cost =
                AStar::new(g, h).search_observed(goal, first_start, cache, &mut column.recorder());
            (cost, Some(&*column))
        }
        _ => {
            let cost = AStar::new(g, h).search_cost(first_start, goal, cache);
            full = DistanceColumn::to_node(g, goal, Directedness::Symmetric, column_cache);
            (cost, Some(&full))
        }
    };
    out.push((cache.stats().expanded, t0.elapsed().as_secs_f64(), first));
    let known = column.map_or(0, |c| c.known_count() as u64);
    for &(start, goal) in &pairs[1..] {
        let t0 = Instant::now();
        let cost = match column {
            Some(column) => AStar::new(g, h.with_extra(column)).search_cost(start, goal, cache),
            None => AStar::new(g, h).search_cost(start, goal, cache),
        };
        out.push((
            cache.stats().expanded,
            t0.elapsed().as_secs_f64(),
            black_box(cost),
        ));
    }
    known
}

fn main() {
    let args = BenchArgs::from_env(&["--every", "--sets", "--rounds", "--repeat"]);
    let sets = args.sets_or(&["dao", "maze", "room", "street"]);
    let every = args.every.unwrap_or(40);
    let rounds = args.rounds.unwrap_or(3);
    let repeat: usize = args.get("--repeat").unwrap_or(4).max(2);
    println!(
        "every {every} scenario(s), each goal asked {repeat} times, {rounds} rounds, a query's time is its fastest round"
    );
    for set in &sets {
        let instances = load_set(set, every);
        let mut totals: [Totals; 3] = Default::default();
        let mut goals = 0;
        for inst in &instances {
            let g = &inst.graph;
            let table = build_table(g, K, PlacementKind::Farthest.with_seed(PLACEMENT_SEED))
                .expect("the maps have room for the landmarks");
            let n = inst.queries.len();
            let streams: Vec<Vec<(NodeId, NodeId)>> = (0..n)
                .map(|i| {
                    let goal = inst.queries[i].goal;
                    (0..repeat)
                        .map(|j| (inst.queries[(i + j) % n].start, goal))
                        .collect()
                })
                .collect();
            let mut truth_cache = SearchCache::new();
            let truth: Vec<Vec<Option<f64>>> = streams
                .iter()
                .map(|pairs| {
                    pairs
                        .iter()
                        .map(|&(s, z)| Dijkstra::new(g).search_cost(s, z, &mut truth_cache))
                        .collect()
                })
                .collect();
            goals += n;
            let mut memory = Memory {
                cache: SearchCache::with_open(PairingHeap::new()),
                column_cache: SearchCache::new(),
                partial: None,
            };
            // best[c][stream][query] = fastest seconds.
            let mut best = vec![vec![vec![f64::INFINITY; repeat]; n]; 3];
            let mut out = Vec::with_capacity(repeat);
            for r in 0..rounds {
                for c in (0..3).map(|i| (i + r) % 3) {
                    for (i, pairs) in streams.iter().enumerate() {
                        out.clear();
                        let known = run_goal(c, g, &table, pairs, &mut memory, &mut out);
                        for (j, &(expanded, seconds, cost)) in out.iter().enumerate() {
                            assert!(
                                same_cost(cost, truth[i][j]),
                                "{} on {}: query {j} to goal {i}: {cost:?} vs Dijkstra {:?}",
                                CONFIGS[c],
                                inst.name,
                                truth[i][j]
                            );
                            best[c][i][j] = best[c][i][j].min(seconds);
                            if r == 0 {
                                let part = usize::from(j > 0);
                                totals[c].expanded[part] += expanded;
                                totals[c].queries[part] += 1;
                            }
                        }
                        if r == 0 {
                            totals[c].known += known;
                        }
                    }
                }
            }
            for (c, per_stream) in best.iter().enumerate() {
                for times in per_stream {
                    totals[c].seconds[0] += times[0];
                    totals[c].seconds[1] += times[1..].iter().sum::<f64>();
                }
            }
        }
        report(set, instances.len(), goals, repeat, &totals);
    }
}

/// Prints one set's table.
fn report(set: &str, maps: usize, goals: usize, repeat: usize, totals: &[Totals; 3]) {
    println!(
        "\n{set}: {maps} maps, {goals} goals, {} queries",
        goals * repeat
    );
    println!(
        "| configuration | mean expanded, all | mean us, all | mean expanded, repeated | mean us, repeated | known entries per column | time vs dh:16, all |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let all_us =
        |t: &Totals| (t.seconds[0] + t.seconds[1]) / (t.queries[0] + t.queries[1]) as f64 * 1e6;
    let base = all_us(&totals[0]);
    for (name, t) in CONFIGS.iter().zip(totals) {
        let q = (t.queries[0] + t.queries[1]) as f64;
        println!(
            "| {name} | {:.0} | {:.1} | {:.0} | {:.1} | {:.0} | **{:.2}x** |",
            (t.expanded[0] + t.expanded[1]) as f64 / q,
            all_us(t),
            t.expanded[1] as f64 / t.queries[1] as f64,
            t.seconds[1] / t.queries[1] as f64 * 1e6,
            t.known as f64 / t.queries[0] as f64,
            base / all_us(t),
        );
    }
}
