//! Hub labels and distance matrices over a contraction hierarchy, on road
//! graphs: label queries against hierarchy queries on the same random
//! queries from a fixed seed, and a many-to-many matrix against one
//! hierarchy query per entry. Every cost is checked: the queries' against
//! Dijkstra's, every matrix entry against the single queries' and a sample
//! of rows against Dijkstra's.
//!
//! ```text
//! cargo bench -p cairns-bench --bench hub_labels -- [GRAPH...] [--queries N] [--seed S] [--matrix M]
//! ```
//!
//! GRAPH is a path under `../shared/data/roads` (default: Bremen by
//! distance and by time, South Seattle), read as it is (arcs of weight 0
//! kept). Two tables:
//!
//! - queries: the build seconds of the hierarchy and of the labels (with
//!   rayon's threads and with one), the labels' bytes and mean size, and
//!   microseconds per query of both, mean (median): the mean from a loop
//!   timed as a whole, the median from each query timed alone (which adds
//!   the clock's own cost). The two loops run alternately, five rounds
//!   each; the best round counts. The label builds alternate likewise.
//! - matrix: an M x M matrix (default 1000) of random sources and targets,
//!   seconds for the bucket method (rayon's threads and one), for the hub
//!   labels' matrix (the least of five alternated rounds each), and for
//!   M^2 single hierarchy queries in turn (once); the ratio single queries
//!   / bucket method.

use std::hint::black_box;
use std::time::Instant;

use cairns::graph::{CsrGraph, NodeId, read_graph};
use cairns::rng::SplitMix64;
use cairns::search::{ChCache, ContractionHierarchy, Dijkstra, HubLabels, SearchCache};
use cairns_bench::roads::{BestRound, DEFAULT_GRAPHS, RoadArgs, seeded_queries};

/// Rounds of each timed loop, taken in turn; the best counts.
const ROUNDS: usize = 5;

/// Rows of each matrix checked against Dijkstra.
const DIJKSTRA_ROWS: usize = 20;

/// The command line: [`RoadArgs`] and `--matrix M`, the sources and
/// targets of each matrix (1000 unless given).
fn args() -> RoadArgs {
    RoadArgs::from_env(&["--matrix"], &[], &DEFAULT_GRAPHS)
}

/// `f` on a rayon pool of one thread.
fn one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool of one thread")
        .install(f)
}

/// Seconds `f` took, and what it returned.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t0 = Instant::now();
    let out = f();
    (t0.elapsed().as_secs_f64(), out)
}

struct QueryRow {
    name: String,
    nodes: usize,
    arcs: usize,
    queries: usize,
    no_path: usize,
    ch_build: f64,
    ch_bytes: usize,
    hl_build: f64,
    hl_build_one: f64,
    hl_bytes: usize,
    label_size: f64,
    ch: (f64, f64),
    hl: (f64, f64),
}

struct MatrixRow {
    name: String,
    size: usize,
    no_path: usize,
    buckets: f64,
    buckets_one: f64,
    labels: f64,
    single: f64,
}

/// One round of `f` over `queries`: timed as a whole, then each query
/// timed alone, every cost of both checked.
fn query_round(
    queries: &[(NodeId, NodeId, Option<f64>)], name: &str,
    mut f: impl FnMut(NodeId, NodeId) -> Option<f64>, best: &mut BestRound,
) {
    let mut got = Vec::with_capacity(queries.len());
    let t0 = Instant::now();
    for &(s, t, _) in queries {
        got.push(f(black_box(s), black_box(t)));
    }
    let total = t0.elapsed().as_secs_f64();
    for (&(s, t, want), got) in queries.iter().zip(got) {
        assert_eq!(got, want, "{name}: {s} to {t}");
    }
    let mut each = Vec::with_capacity(queries.len());
    for &(s, t, want) in queries {
        let t0 = Instant::now();
        let got = f(s, t);
        each.push(t0.elapsed().as_secs_f64());
        assert_eq!(got, want, "{name}: {s} to {t}");
    }
    best.offer(total, each);
}

fn run(relative: &str, args: &RoadArgs) -> (QueryRow, MatrixRow) {
    let path = cairns_testdata::road_file(relative);
    let g: CsrGraph = read_graph(&path).unwrap_or_else(|e| panic!("{e}"));
    let n = g.node_count();

    // The queries and their Dijkstra costs, as the roads bench draws them.
    let queries = seeded_queries(&g, args.queries, args.seed);
    let no_path = queries.iter().filter(|q| q.2.is_none()).count();

    let (ch_build, ch) = timed(|| ContractionHierarchy::build(&g));
    // The labels built on rayon's threads and on one, alternately, the
    // least of each kept.
    let (mut hl_build, mut hl_build_one) = (f64::INFINITY, f64::INFINITY);
    let mut hl = None;
    for _ in 0..ROUNDS {
        let (t, built) = timed(|| HubLabels::build(&ch));
        hl_build = hl_build.min(t);
        let (t, one) = one_thread(|| timed(|| HubLabels::build(&ch)));
        hl_build_one = hl_build_one.min(t);
        assert_eq!(one.entry_count(), built.entry_count(), "{relative}");
        hl = Some(built);
    }
    let hl = hl.expect("at least one round");

    let mut ch_cache = ChCache::new();
    let (mut best_ch, mut best_hl) = (BestRound::default(), BestRound::default());
    for _ in 0..ROUNDS {
        query_round(
            &queries,
            relative,
            |s, t| ch.search_cost(s, t, &mut ch_cache),
            &mut best_ch,
        );
        query_round(&queries, relative, |s, t| hl.cost(s, t), &mut best_hl);
    }
    let row = QueryRow {
        name: relative.to_owned(),
        nodes: n,
        arcs: g.edge_count(),
        queries: queries.len(),
        no_path,
        ch_build,
        ch_bytes: ch.memory_bytes(),
        hl_build,
        hl_build_one,
        hl_bytes: hl.memory_bytes(),
        label_size: hl.average_label_size(),
        ch: best_ch.summary(),
        hl: best_hl.summary(),
    };
    (row, matrix(relative, &g, &ch, &hl, args))
}

/// The matrix runs of one graph, every entry checked.
fn matrix(
    relative: &str, g: &CsrGraph, ch: &ContractionHierarchy, hl: &HubLabels, args: &RoadArgs,
) -> MatrixRow {
    let n = g.node_count() as u64;
    let m = args.args.get("--matrix").unwrap_or(1000);
    let mut rng = SplitMix64::new(args.seed ^ 0x6d61_7472_6978);
    let sources: Vec<_> = (0..m).map(|_| NodeId(rng.below(n) as u32)).collect();
    let targets: Vec<_> = (0..m).map(|_| NodeId(rng.below(n) as u32)).collect();

    // Each way in turn, the least of five rounds kept.
    let (mut buckets, mut buckets_one, mut labels) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let mut got = None;
    for _ in 0..ROUNDS {
        let (t, m) = timed(|| ch.matrix(&sources, &targets));
        buckets = buckets.min(t);
        let (t, one) = one_thread(|| timed(|| ch.matrix(&sources, &targets)));
        buckets_one = buckets_one.min(t);
        let (t, from_labels) = timed(|| hl.matrix(&sources, &targets));
        labels = labels.min(t);
        assert_eq!(one, m, "{relative}: buckets, one thread");
        assert_eq!(from_labels, m, "{relative}: hub labels");
        got = Some(m);
    }
    let got = got.expect("at least one round");
    let mut cache = ChCache::new();
    let (single, want) = timed(|| {
        let mut out = Vec::with_capacity(m * m);
        for &s in &sources {
            for &t in &targets {
                out.push(ch.search_cost(s, t, &mut cache).unwrap_or(f64::INFINITY));
            }
        }
        out
    });
    assert_eq!(got.as_slice(), want, "{relative}: buckets");
    let mut one = SearchCache::new();
    for (i, &s) in sources.iter().enumerate().take(DIJKSTRA_ROWS) {
        Dijkstra::new(g).all(s, &mut one);
        for (j, &t) in targets.iter().enumerate() {
            assert_eq!(got.get(i, j), one.g(t), "{relative}: {s} to {t}");
        }
    }
    MatrixRow {
        name: relative.to_owned(),
        size: m,
        no_path: want.iter().filter(|c| c.is_infinite()).count(),
        buckets,
        buckets_one,
        labels,
        single,
    }
}

fn main() {
    let args = args();
    let threads = rayon::current_num_threads();
    let mut matrices = Vec::new();
    println!(
        "| graph | nodes | arcs | queries | no path | CH build s | CH bytes | HL build s ({threads} threads) | \
         HL build s (1 thread) | HL bytes | hubs a label | us/query CH mean (median) | \
         us/query HL mean (median) | HL / CH mean |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for graph in &args.graphs {
        let (r, m) = run(graph, &args);
        println!(
            "| {} | {} | {} | {} | {} | {:.2} | {} | {:.2} | {:.2} | {} | {:.1} | {:.2} ({:.2}) | {:.3} ({:.3}) | {:.3} |",
            r.name,
            r.nodes,
            r.arcs,
            r.queries,
            r.no_path,
            r.ch_build,
            r.ch_bytes,
            r.hl_build,
            r.hl_build_one,
            r.hl_bytes,
            r.label_size,
            r.ch.0,
            r.ch.1,
            r.hl.0,
            r.hl.1,
            r.hl.0 / r.ch.0,
        );
        matrices.push(m);
    }
    println!();
    println!(
        "| graph | matrix | no path | buckets s ({threads} threads) | buckets s (1 thread) | \
         HL matrix s ({threads} threads) | single CH queries s | single / buckets ({threads} threads) | \
         single / buckets (1 thread) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for m in &matrices {
        println!(
            "| {} | {} x {} | {} | {:.3} | {:.3} | {:.3} | {:.2} | {:.1} | {:.1} |",
            m.name,
            m.size,
            m.size,
            m.no_path,
            m.buckets,
            m.buckets_one,
            m.labels,
            m.single,
            m.single / m.buckets,
            m.single / m.buckets_one,
        );
    }
}
