//! The differential-heuristic harness: per Moving AI set, A* with octile
//! beside A* with landmark tables of 4 to 32 landmarks (farthest-first), of
//! 16 landmarks placed at random, by "Avoid", by goal centroids and
//! adaptively, of 16 landmarks chosen by `Placement::Sampled`, per-query
//! landmark selection, compressed tables, and an extra distance column on
//! goal-sorted and shared-goal streams (all with the default OPEN set, the
//! 4-ary heap; the binary heap when the tables in the docs were measured),
//! then F16 and S16 again with the pairing heap; every
//! result checked against the published optimal length (shared-goal
//! queries without one against the exact distance column).
//!
//! ```text
//! cargo bench -p cairns-bench --bench landmarks -- [SET...] [--every N] [--maps M] [--perfect-every P]
//! ```
//!
//! Defaults: every set the brief names, every 20th scenario, every map.
//! Per set it prints mean expansions, mean and median microseconds per
//! query, their ratios to octile, nanoseconds per expansion, the
//! preprocessing time and table bytes; then, on every `P`-th sampled query,
//! the expansions of the perfect heuristic (a full reverse Dijkstra from
//! the goal before the query, not timed), to say how much of the gap
//! between octile and perfect each option closes. Finally, the time to
//! build 16 landmarks on a 1024x1024 street map.

use std::hint::black_box;
use std::time::Instant;

use cairns::graph::{Graph, NodeId};
use cairns::heuristic::{FnHeuristic, Heuristic, Octile};
use cairns::landmarks::research::{
    AdaptiveLandmarks, CompressedHeuristic, CompressedTable, Compression, DistanceColumn,
    place_centroid,
};
use cairns::landmarks::{
    DifferentialHeuristic, Directedness, LandmarkTable, Layout, Placement, place,
};
use cairns::movingai::runner::{Instance, Query, median};
use cairns::open::{OpenSet, PairingHeap};
use cairns::search::{AStar, Dijkstra, Search, SearchCache};
use cairns_bench::{BenchArgs, load_set};

const SETS: [&str; 8] = [
    "dao", "maze", "room", "random", "street", "sc1", "bg512", "da2",
];
const SEED: u64 = 1;

/// Totals of one configuration over a set.
#[derive(Default, Clone)]
struct Totals {
    name: String,
    expanded: u64,
    times: Vec<f64>,
    prep: f64,
    bytes: usize,
    /// Expansions on the perfect-heuristic sample.
    sample_expanded: u64,
}

impl Totals {
    fn named(name: &str) -> Totals {
        Totals {
            name: name.to_string(),
            ..Totals::default()
        }
    }
}

/// Runs every query of `inst` with `h`, checking each cost, adding to `t`.
/// `sample` marks the queries of the perfect-heuristic sample.
fn run<H: Heuristic + Copy, Q: OpenSet>(
    inst: &Instance, h: H, cache: &mut SearchCache<Q>, t: &mut Totals,
    sample: &dyn Fn(usize) -> bool,
) {
    run_each(inst, |_| h, cache, t, sample);
}

/// Like [`run`] with a heuristic made per query (inside the timing).
fn run_each<H: Heuristic, Q: OpenSet>(
    inst: &Instance, make: impl Fn(&Query) -> H, cache: &mut SearchCache<Q>, t: &mut Totals,
    sample: &dyn Fn(usize) -> bool,
) {
    for (i, q) in inst.queries.iter().enumerate() {
        let t0 = Instant::now();
        let astar = AStar::new(&inst.graph, make(q));
        let cost = black_box(astar.search_cost(q.start, q.goal, cache));
        t.times.push(t0.elapsed().as_secs_f64());
        assert!(
            q.matches(cost),
            "{} on {} query {i}: {cost:?} vs published {}",
            t.name,
            inst.name,
            q.optimal
        );
        let e = cache.stats().expanded;
        t.expanded += e;
        if sample(i) {
            t.sample_expanded += e;
        }
    }
}

#[expect(
    clippy::too_many_lines,
    reason = "one linear script of configurations reads best in one place"
)]
fn main() {
    let args = BenchArgs::from_env(&["--every", "--sets", "--maps", "--show", "--perfect-every"]);
    let sets = args.sets_or(&SETS);
    let every = args.every.unwrap_or(20);
    let max_maps = args.get::<usize>("--maps").unwrap_or(usize::MAX);
    let perfect_every = args.get::<usize>("--perfect-every").unwrap_or(5).max(1);
    // Print the explored tiles of the first `show` queries of each set.
    let mut show = args.get::<usize>("--show").unwrap_or(0);
    println!(
        "every {every} scenario(s), {} per set, perfect heuristic on every {perfect_every}th sampled query",
        if max_maps == usize::MAX {
            "every map".to_string()
        } else {
            format!("at most {max_maps} map(s)")
        }
    );
    let mut cache = SearchCache::new();
    let mut pairing = SearchCache::with_open(PairingHeap::new());
    for set in &sets {
        let mut instances = load_set(set, every);
        instances.truncate(max_maps);
        let mut configs: Vec<Totals> = [
            "octile",
            "F4",
            "F8",
            "F16",
            "F32",
            "R16",
            "A16",
            "F16-lm",
            "perfect",
            "F5",
            "C4/16n",
            "C4/16rr",
            "Ct16",
            "Ad16",
            "F16b4q",
            "F16+col",
            "F16 sh",
            "F16+col sh",
            "S16",
            "F16 ph",
            "S16 ph",
        ]
        .iter()
        .map(|n| Totals::named(n))
        .collect();
        let mut queries = 0usize;
        let sample = |i: usize| i.is_multiple_of(perfect_every);
        for inst in &instances {
            let g = &inst.graph;
            queries += inst.queries.len();
            // Warm up: size the cache for this map outside the timings.
            if let Some(q) = inst.queries.first() {
                let astar = AStar::new(g, Octile::new(g));
                black_box(astar.search_cost(q.start, q.goal, &mut cache));
            }
            run(inst, Octile::new(g), &mut cache, &mut configs[0], &sample);
            if show > 0 {
                let lms = place(g, 16, Placement::Farthest { seed: SEED });
                let table = LandmarkTable::build(g, &lms, Directedness::Symmetric);
                for q in inst.queries.iter().take(show) {
                    let oct = AStar::new(g, Octile::new(g));
                    let dh = AStar::new(g, DifferentialHeuristic::new(&table, Octile::new(g)));
                    let c = oct.search_cost(q.start, q.goal, &mut cache);
                    let e0 = cache.stats().expanded;
                    assert!(q.matches(c));
                    let c = dh.search_cost(q.start, q.goal, &mut cache);
                    assert!(q.matches(c));
                    println!(
                        "{} {:?} -> {:?} (length {:.2}): octile {e0} tiles vs 16 farthest landmarks {} tiles",
                        inst.name,
                        g.coords(q.start),
                        g.coords(q.goal),
                        q.optimal,
                        cache.stats().expanded
                    );
                }
                show = 0;
            }

            // Farthest-first is greedy, so the first k of 32 are the k it
            // would place: one placement and one build serve every k. The
            // preprocessing time of k landmarks is placement + build of k,
            // measured for 32 and scaled by k / 32 (both are k searches).
            let t0 = Instant::now();
            let far = place(g, 32, Placement::Farthest { seed: SEED });
            let table32 = LandmarkTable::build(g, &far, Directedness::Symmetric);
            let prep32 = t0.elapsed().as_secs_f64();
            for (c, k) in [(1, 4), (2, 8), (3, 16), (4, 32)] {
                let idx: Vec<usize> = (0..k.min(far.len())).collect();
                let table = table32.select(&idx);
                configs[c].prep += prep32 * k as f64 / 32.0;
                configs[c].bytes += table.memory_bytes();
                let h = DifferentialHeuristic::new(&table, Octile::new(g));
                run(inst, h, &mut cache, &mut configs[c], &sample);
                if k == 16 {
                    // Equal bytes: 4 of 16 compressed (20 B/node) against
                    // a plain table of 5 (20 B/node).
                    let plain5 = table32.select(&[0, 1, 2, 3, 4]);
                    configs[9].prep += prep32 * 5.0 / 32.0;
                    configs[9].bytes += plain5.memory_bytes();
                    let h = DifferentialHeuristic::new(&plain5, Octile::new(g));
                    run(inst, h, &mut cache, &mut configs[9], &sample);
                    for (c, rule) in [(10, Compression::Nearest), (11, Compression::RoundRobin)] {
                        let ct = CompressedTable::new(&table, 4, rule);
                        configs[c].prep += prep32 / 2.0;
                        configs[c].bytes += ct.memory_bytes();
                        let h = CompressedHeuristic::new(&ct, Octile::new(g));
                        run(inst, h, &mut cache, &mut configs[c], &sample);
                    }
                    // Goldberg-Harrelson selection: the 4 landmarks best
                    // for (start, goal), chosen per query.
                    let h = DifferentialHeuristic::new(&table, Octile::new(g)).with_best(4);
                    configs[14].prep += prep32 / 2.0;
                    configs[14].bytes += table.memory_bytes();
                    run_each(
                        inst,
                        |q| h.for_start(q.start),
                        &mut cache,
                        &mut configs[14],
                        &sample,
                    );
                    adaptive(
                        inst,
                        &table,
                        prep32 / 2.0,
                        &mut cache,
                        &mut configs[13],
                        &sample,
                    );
                    with_column(inst, &table, prep32 / 2.0, &mut cache, &mut configs[15]);
                    let (plain, col) = configs.split_at_mut(17);
                    shared_goals(inst, &table, &mut cache, &mut plain[16], &mut col[0]);
                    let lm = table.with_layout(Layout::LandmarkMajor);
                    configs[7].prep += prep32 / 2.0;
                    configs[7].bytes += lm.memory_bytes();
                    let h = DifferentialHeuristic::new(&lm, Octile::new(g));
                    run(inst, h, &mut cache, &mut configs[7], &sample);
                }
            }
            // Sampled placement, and both 16-landmark tables with the
            // pairing heap.
            let t0 = Instant::now();
            let sampled = place(g, 16, Placement::Sampled { seed: SEED });
            let s16 = LandmarkTable::build(g, &sampled, Directedness::Symmetric);
            let s16_prep = t0.elapsed().as_secs_f64();
            let f16 = table32.select(&(0..16.min(far.len())).collect::<Vec<_>>());
            for (c, table, prep, ph) in [
                (18, &s16, s16_prep, false),
                (19, &f16, prep32 / 2.0, true),
                (20, &s16, s16_prep, true),
            ] {
                configs[c].prep += prep;
                configs[c].bytes += table.memory_bytes();
                let h = DifferentialHeuristic::new(table, Octile::new(g));
                if ph {
                    if let Some(q) = inst.queries.first() {
                        // Size the cache outside the timings.
                        black_box(AStar::new(g, h).search_cost(q.start, q.goal, &mut pairing));
                    }
                    run(inst, h, &mut pairing, &mut configs[c], &sample);
                } else {
                    run(inst, h, &mut cache, &mut configs[c], &sample);
                }
            }
            for (c, placement) in [
                (5, Placement::Random { seed: SEED }),
                (6, Placement::Avoid { seed: SEED }),
            ] {
                let t0 = Instant::now();
                let lms = place(g, 16, placement);
                let table = LandmarkTable::build(g, &lms, Directedness::Symmetric);
                configs[c].prep += t0.elapsed().as_secs_f64();
                configs[c].bytes += table.memory_bytes();
                let h = DifferentialHeuristic::new(&table, Octile::new(g));
                run(inst, h, &mut cache, &mut configs[c], &sample);
            }

            // Centroid: k-means on the goals of scenario lines outside the
            // sample (the last 256 of them), as "recent goals".
            let t0 = Instant::now();
            let recent = training_goals(inst, every);
            let lms = place_centroid(g, 16, &recent, SEED);
            let table = LandmarkTable::build(g, &lms, Directedness::Symmetric);
            configs[12].prep += t0.elapsed().as_secs_f64();
            configs[12].bytes += table.memory_bytes();
            let h = DifferentialHeuristic::new(&table, Octile::new(g));
            run(inst, h, &mut cache, &mut configs[12], &sample);

            // The perfect heuristic: exact distances to the goal.
            let mut exact = vec![f64::INFINITY; g.node_bound()];
            for (i, q) in inst.queries.iter().enumerate().filter(|(i, _)| sample(*i)) {
                Dijkstra::new(g).all(q.goal, &mut cache);
                for (v, d) in exact.iter_mut().enumerate() {
                    *d = cache.g(NodeId(v as u32)).unwrap_or(f64::INFINITY);
                }
                let h = FnHeuristic(|n: NodeId, _: NodeId| exact[n.index()]);
                let cost = AStar::new(g, h).search_cost(q.start, q.goal, &mut cache);
                assert!(q.matches(cost), "perfect on {} query {i}", inst.name);
                configs[8].sample_expanded += cache.stats().expanded;
            }
        }
        report(set, instances.len(), queries, &mut configs);
    }
    street_build_time();
}

/// Goals of the scenario lines of `inst`'s file that the sample skips
/// (every line when `every` is 1), the last 256 of them.
fn training_goals(inst: &Instance, every: usize) -> Vec<NodeId> {
    let all =
        Instance::load(&inst.scen_path, Some(&inst.map_path), 1).unwrap_or_else(|e| panic!("{e}"));
    let goals: Vec<NodeId> = all
        .queries
        .iter()
        .enumerate()
        .filter(|(i, _)| every == 1 || i % every != 0)
        .map(|(_, q)| q.goal)
        .collect();
    goals[goals.len().saturating_sub(256)..].to_vec()
}

/// Adaptive landmarks from the F16 table, p = 0.1: query times as usual;
/// the moves' rebuilds are added to the preprocessing time.
fn adaptive(
    inst: &Instance, table: &LandmarkTable, prep: f64, cache: &mut SearchCache, t: &mut Totals,
    sample: &dyn Fn(usize) -> bool,
) {
    let g = &inst.graph;
    let mut ad = AdaptiveLandmarks::new(table.clone(), 0.1, SEED);
    t.prep += prep;
    t.bytes += table.memory_bytes();
    for (i, q) in inst.queries.iter().enumerate() {
        let t0 = Instant::now();
        let astar = AStar::new(g, ad.heuristic(Octile::new(g)));
        let cost = black_box(astar.search_cost(q.start, q.goal, cache));
        t.times.push(t0.elapsed().as_secs_f64());
        assert!(q.matches(cost), "Ad16 on {} query {i}", inst.name);
        let e = cache.stats().expanded;
        t.expanded += e;
        if sample(i) {
            t.sample_expanded += e;
        }
        let t0 = Instant::now();
        ad.after_query(g, q.start, q.goal);
        t.prep += t0.elapsed().as_secs_f64();
    }
}

/// The queries sorted by goal (row-major), each with F16 plus the distance
/// column of the previous query's goal as an extra landmark; the column
/// (one full reverse search per distinct goal) is timed into `prep`. No
/// perfect-heuristic sample: the order differs.
fn with_column(
    inst: &Instance, table: &LandmarkTable, prep: f64, cache: &mut SearchCache, t: &mut Totals,
) {
    let g = &inst.graph;
    let mut order: Vec<&Query> = inst.queries.iter().collect();
    order.sort_by_key(|q| (g.coords(q.goal).1, g.coords(q.goal).0));
    t.prep += prep;
    t.bytes += table.memory_bytes() + g.node_bound() * 4;
    let mut column: Option<DistanceColumn> = None;
    let mut search = SearchCache::new();
    for q in order {
        let h = DifferentialHeuristic::new(table, Octile::new(g));
        let t0 = Instant::now();
        let cost = match &column {
            Some(c) => AStar::new(g, h.with_extra(c)).search_cost(q.start, q.goal, cache),
            None => AStar::new(g, h).search_cost(q.start, q.goal, cache),
        };
        t.times.push(t0.elapsed().as_secs_f64());
        assert!(q.matches(black_box(cost)), "F16+col on {}", inst.name);
        t.expanded += cache.stats().expanded;
        if column.as_ref().is_none_or(|c| c.node() != q.goal) {
            column = Some(timed_column(g, q.goal, &mut search, &mut t.prep));
        }
    }
}

/// The distance column of `goal` (a full reverse search), its time added
/// to `prep`.
fn timed_column(
    g: &cairns::grid::GridGraph, goal: NodeId, search: &mut SearchCache, prep: &mut f64,
) -> DistanceColumn {
    let t0 = Instant::now();
    let column = DistanceColumn::to_node(g, goal, Directedness::Symmetric, search);
    *prep += t0.elapsed().as_secs_f64();
    column
}

/// A stream where consecutive queries share goals: each sampled query
/// `(s_i, z_i)` followed by `(s_{i+1}, z_i)`, `(s_{i+2}, z_i)`,
/// `(s_{i+3}, z_i)`. F16 alone (`plain`) against F16 plus the column of
/// `z_i`, a full reverse search run after the first query of each goal and
/// timed into `col.prep`. The first query of each group is checked against
/// its published length, the others against the column's exact distance.
fn shared_goals(
    inst: &Instance, table: &LandmarkTable, cache: &mut SearchCache, plain: &mut Totals,
    col: &mut Totals,
) {
    let g = &inst.graph;
    let qs = &inst.queries;
    let mut search = SearchCache::new();
    let h = DifferentialHeuristic::new(table, Octile::new(g));
    for (i, q) in qs.iter().enumerate() {
        let mut column: Option<DistanceColumn> = None;
        for j in 0..4 {
            let start = qs[(i + j) % qs.len()].start;
            let mut costs = [None; 2];
            for (c, t) in [(0, &mut *plain), (1, &mut *col)] {
                let t0 = Instant::now();
                let cost = match (&column, c) {
                    (Some(d), 1) => {
                        AStar::new(g, h.with_extra(d)).search_cost(start, q.goal, cache)
                    }
                    _ => AStar::new(g, h).search_cost(start, q.goal, cache),
                };
                t.times.push(t0.elapsed().as_secs_f64());
                t.expanded += cache.stats().expanded;
                costs[c] = black_box(cost);
            }
            if j == 0 {
                assert!(
                    q.matches(costs[0]) && q.matches(costs[1]),
                    "shared goals on {}",
                    inst.name
                );
                column = Some(timed_column(g, q.goal, &mut search, &mut col.prep));
            } else if let Some(d) = &column {
                let exact = f64::from(d.distance(start));
                for c in costs {
                    let c = c.unwrap_or(f64::INFINITY);
                    // Both infinite: a start the goal cannot be reached from.
                    assert!(
                        c == exact || (c - exact).abs() <= 1e-5 * (1.0 + exact),
                        "shared goals on {}: {c} vs {exact}",
                        inst.name
                    );
                }
            }
        }
    }
}

fn report(set: &str, maps: usize, queries: usize, configs: &mut [Totals]) {
    let q = queries.max(1) as f64;
    let base_exp = configs[0].expanded as f64 / q;
    let base_mean = configs[0].times.iter().sum::<f64>() / q;
    let (oct_s, perfect_s) = (
        configs[0].sample_expanded as f64,
        configs[8].sample_expanded as f64,
    );
    println!("\n== {set}: {maps} maps, {queries} queries, all costs checked ==");
    println!(
        "{:<10} {:>9} {:>7} {:>9} {:>9} {:>7} {:>7} {:>9} {:>8} {:>8} {:>10}",
        "config",
        "mean exp",
        "exp x",
        "mean us",
        "med us",
        "time x",
        "ns/exp",
        "gap shut",
        "log gap",
        "prep s",
        "MiB"
    );
    for (i, c) in configs.iter_mut().enumerate() {
        if i == 8 {
            continue;
        }
        let exp = c.expanded as f64 / q;
        let sum: f64 = c.times.iter().sum();
        let mean = sum / q;
        let med = median(&c.times);
        // F16+col runs the queries in another order, without the sample.
        // The gap from octile to the perfect heuristic, shut linearly and
        // on a log scale of expansions (ln(octile / config) over
        // ln(octile / perfect)).
        let (gap, log_gap) = if (15..=17).contains(&i) {
            (f64::NAN, f64::NAN)
        } else if oct_s > perfect_s {
            let config = (c.sample_expanded as f64).max(1.0);
            (
                (oct_s - config) / (oct_s - perfect_s),
                (oct_s / config).ln() / (oct_s / perfect_s.max(1.0)).ln(),
            )
        } else {
            (1.0, 1.0)
        };
        let percent = |x: f64| {
            if x.is_nan() {
                "-".to_string()
            } else {
                format!("{:.1}%", x * 100.0)
            }
        };
        println!(
            "{:<10} {:>9.0} {:>7.2} {:>9.1} {:>9.1} {:>7.2} {:>7.1} {:>9} {:>8} {:>8.2} {:>10.1}",
            c.name,
            exp,
            base_exp / exp.max(1e-9),
            mean * 1e6,
            med * 1e6,
            base_mean / mean,
            sum * 1e9 / (c.expanded.max(1) as f64),
            percent(gap),
            percent(log_gap),
            c.prep,
            c.bytes as f64 / 1_048_576.0
        );
    }
    println!(
        "perfect heuristic on the sample: {} expansions vs octile {} (sum over the sample)",
        configs[8].sample_expanded, configs[0].sample_expanded
    );
}

/// The issue's floor: 16 landmarks on a 1024x1024 street map in under 2 s.
fn street_build_time() {
    const SCEN: &str = "street/Berlin_0_1024.map.scen";
    if !cairns_testdata::data_dir().join(SCEN).exists() {
        return;
    }
    let inst = cairns_bench::load_file(SCEN, 1_000_000);
    let g = &inst.graph;
    let t0 = Instant::now();
    let lms = place(g, 16, Placement::Farthest { seed: SEED });
    let t1 = Instant::now();
    let table = LandmarkTable::build(g, &lms, Directedness::Symmetric);
    let t2 = Instant::now();
    let sampled = place(g, 16, Placement::Sampled { seed: SEED });
    let t3 = Instant::now();
    println!(
        "\nBerlin_0_1024 ({} cells): place 16 farthest {:.2} s, build 16 {:.2} s, total {:.2} s, {} threads, {:.1} MiB; place 16 sampled {:.2} s",
        g.grid().len(),
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        (t2 - t0).as_secs_f64(),
        rayon_threads(),
        table.memory_bytes() as f64 / 1_048_576.0,
        (t3 - t2).as_secs_f64()
    );
    assert_eq!(sampled.len(), 16);
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}
