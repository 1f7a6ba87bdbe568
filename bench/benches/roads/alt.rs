//! Bidirectional ALT against bidirectional Dijkstra on road graphs:
//!
//! ```text
//! cargo bench -p cairns-bench --bench roads -- --alt [GRAPH...] [--queries N] [--seed S] [--rounds R]
//! ```
//!
//! GRAPH is a path under `../shared/data/roads` (default [`GRAPHS`]; an
//! `.xz` file is read through `xz -dc`). Each graph is searched as read,
//! zero-cost arcs included, with the queries of the contraction hierarchy
//! bench (`seeded_queries`: the same seed, the same sources and targets
//! wherever the node count is the same), every cost checked against
//! Dijkstra's. 16 landmarks placed by `avoid` (and, for comparison, by
//! `farthest`) with the run's seed, in a directed table. Per search it
//! prints the preparation seconds (placement, then table), the table's
//! bytes, the nodes settled per query and the microseconds per query,
//! mean (median), over all queries and over those with a path, and
//! bidirectional Dijkstra's figures over the search's (above 1: the
//! search settles fewer nodes, answers sooner). Each search runs its R
//! rounds (default 3) over the queries before the next search starts; its
//! best round counts.

use std::time::Instant;

use cairns::graph::{CsrGraph, NodeId, parse_graph, read_graph};
use cairns::landmarks::{Directedness, LandmarkTable, Placement, place};
use cairns::search::{BiCache, BidirectionalAlt, BidirectionalDijkstra, SearchCache};

use cairns_bench::roads::{BestRound, RoadArgs, seeded_queries};

/// The graphs of `--alt` without GRAPH arguments.
pub(super) const GRAPHS: [&str; 5] = [
    "fast_paths/bremen_dist.gr",
    "fast_paths/bremen_time.gr",
    "fast_paths/south_seattle_car.gr",
    "dimacs/rome99.gr",
    "pace16/NY.gr.xz",
];

/// Landmarks of every table.
const LANDMARKS: usize = 16;

/// The road graph at `relative`, decompressing an `.xz` file with `xz -dc`.
pub(super) fn read(relative: &str) -> CsrGraph {
    let path = cairns_testdata::road_file(relative);
    let graph = if path.extension().is_some_and(|e| e == "xz") {
        parse_graph(&cairns_testdata::decompressed(&path)[..])
    } else {
        read_graph(&path)
    };
    graph.unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// A landmark table and what it cost to make.
pub(super) struct Prepared {
    pub(super) table: LandmarkTable,
    place_s: f64,
    build_s: f64,
}

/// `k` landmarks placed by `placement` in a directed table of `g`.
pub(super) fn prepare(g: &CsrGraph, k: usize, placement: Placement) -> Prepared {
    let t0 = Instant::now();
    let landmarks = place(g, k, placement);
    let place_s = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let table = LandmarkTable::build(g, &landmarks, Directedness::Directed);
    let build_s = t0.elapsed().as_secs_f64();
    assert_eq!(table.landmark_count(), k);
    Prepared {
        table,
        place_s,
        build_s,
    }
}

impl Prepared {
    /// Placement seconds, table seconds, table bytes.
    pub(super) fn figures(&self) -> (f64, f64, usize) {
        (self.place_s, self.build_s, self.table.memory_bytes())
    }
}

/// A query cache that counts the nodes its last query settled.
pub(super) trait Settles: Default {
    fn settled(&self) -> u64;
}

impl Settles for BiCache {
    fn settled(&self) -> u64 {
        self.stats().expanded
    }
}

impl Settles for SearchCache {
    fn settled(&self) -> u64 {
        self.stats().expanded
    }
}

/// One search's figures on one graph.
pub(super) struct Measured {
    name: String,
    prep: Option<(f64, f64, usize)>,
    /// Settled per query: all, with a path.
    settled: (f64, f64),
    /// Microseconds per query, mean (median): all; mean with a path.
    us: ((f64, f64), f64),
}

type Query = (NodeId, NodeId, Option<f64>);

/// Times `search` over `queries` for `rounds` rounds, checking every cost;
/// the best round's times count. `prep` is what building took: seconds of
/// two steps and the bytes built.
pub(super) fn measure<C: Settles>(
    name: String, prep: Option<(f64, f64, usize)>, queries: &[Query], rounds: usize,
    search: &dyn Fn(NodeId, NodeId, &mut C) -> Option<f64>,
) -> Measured {
    let mut cache = C::default();
    let (mut settled, mut settled_found) = (0u64, 0u64);
    let mut best = BestRound::default();
    for round in 0..rounds.max(1) {
        let mut times = Vec::with_capacity(queries.len());
        for &(s, t, want) in queries {
            let t0 = Instant::now();
            let got = search(s, t, &mut cache);
            times.push(t0.elapsed().as_secs_f64());
            assert_eq!(got, want, "{name}: {s} to {t}");
            if round == 0 {
                settled += cache.settled();
                if want.is_some() {
                    settled_found += cache.settled();
                }
            }
        }
        best.offer_each(times);
    }
    let found: Vec<f64> = queries
        .iter()
        .zip(best.each())
        .filter(|(q, _)| q.2.is_some())
        .map(|(_, &t)| t)
        .collect();
    let connected = found.len().max(1) as f64;
    Measured {
        name,
        prep,
        settled: (
            settled as f64 / queries.len() as f64,
            settled_found as f64 / connected,
        ),
        us: (best.summary(), found.iter().sum::<f64>() / connected * 1e6),
    }
}

/// The ALT comparison over `args.graphs`, printed as a Markdown table.
pub(super) fn main(args: &RoadArgs) {
    let rounds = args.args.rounds.unwrap_or(3);
    print_head("BD", "place + table");
    for relative in &args.graphs {
        let g = read(relative);
        let queries = seeded_queries(&g, args.queries, args.seed);
        let avoid = prepare(&g, LANDMARKS, Placement::Avoid { seed: args.seed });
        let farthest = prepare(&g, LANDMARKS, Placement::Farthest { seed: args.seed });
        let bd = BidirectionalDijkstra::new(&g);
        let k = LANDMARKS;
        let mut rows = vec![measure(
            "bidirectional Dijkstra".into(),
            None,
            &queries,
            rounds,
            &|s, t, c| bd.search_cost(s, t, c),
        )];
        // Each ALT row: its name, its landmarks and how many are active
        // per query (0: all).
        let alts = [
            (format!("ALT, {k} avoid"), &avoid, 0),
            (format!("ALT, {k} avoid, 4 active"), &avoid, 4),
            (format!("ALT, {k} avoid, 8 active"), &avoid, 8),
            (format!("ALT, {k} farthest"), &farthest, 0),
        ];
        for (name, prepared, active) in alts {
            let alt = BidirectionalAlt::new(&g, &prepared.table).with_active(active);
            rows.push(measure(
                name,
                Some(prepared.figures()),
                &queries,
                rounds,
                &|s, t, c| alt.search_cost(s, t, c),
            ));
        }
        print_rows(relative, &g, &queries, &rows);
    }
}

/// The head of a table of [`print_rows`]: `base` names the first row's
/// search, `steps` the two steps of its preparation.
pub(super) fn print_head(base: &str, steps: &str) {
    println!(
        "| graph | nodes | arcs | queries | no path | search | prep s ({steps}) | table bytes | \
         settled/query | settled/query, path found | us/query mean (median) | us/query, path found | \
         settled: {base} / this | us: {base} / this | path found: settled {base} / this | path found: us {base} / this |"
    );
    println!("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
}

/// The rows of one graph, each against the first.
pub(super) fn print_rows(relative: &str, g: &CsrGraph, queries: &[Query], rows: &[Measured]) {
    let no_path = queries.iter().filter(|q| q.2.is_none()).count();
    {
        let base = (rows[0].settled, rows[0].us);
        for r in rows {
            let (prep, bytes) = r.prep.map_or((String::new(), String::new()), |(p, b, m)| {
                (format!("{p:.2} + {b:.2}"), m.to_string())
            });
            println!(
                "| {relative} | {} | {} | {} | {no_path} | {} | {prep} | {bytes} | {:.0} | {:.0} | {:.1} ({:.1}) | {:.1} | {:.2} | {:.2} | {:.2} | {:.2} |",
                g.node_count(),
                g.edge_count(),
                queries.len(),
                r.name,
                r.settled.0,
                r.settled.1,
                r.us.0.0,
                r.us.0.1,
                r.us.1,
                base.0.0 / r.settled.0,
                base.1.0.0 / r.us.0.0,
                base.0.1 / r.settled.1,
                base.1.1 / r.us.1,
            );
        }
    }
}
