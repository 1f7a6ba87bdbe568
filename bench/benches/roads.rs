//! Contraction hierarchies on road graphs against the `fast_paths` crate:
//! the same graphs, the same random queries from a fixed seed, every cost
//! of both checked against Dijkstra's, no-path queries counted apart.
//!
//! ```text
//! cargo bench -p cairns-bench --bench roads -- [GRAPH...] [--queries N] [--seed S]
//! ```
//!
//! GRAPH is a path under `../shared/data/roads` (default: Bremen by
//! distance and by time, South Seattle; an `.xz` file such as
//! `pace16/NY.gr.xz` is read through `xz -dc`, unit weights). `fast_paths` skips arcs of weight
//! 0, so both are given the graph without them. Per graph it prints the
//! preparation seconds of both, the mean and median microseconds per query
//! (cairns: the cost and the unpacked path, as `fast_paths::calc_path`
//! returns both; and the cost alone), the nodes a cairns query settles,
//! and the ratios cairns / `fast_paths` (below 1: cairns is faster). The two
//! query loops run alternately, three rounds each, and the best round's
//! figures count.
//!
//! With `--alt` it measures bidirectional ALT against bidirectional
//! Dijkstra instead (the `alt` module, `roads/alt.rs`); with `--fastmap`,
//! A* over FastMap embeddings against A* over landmark tables of the same
//! memory (`roads/fastmap.rs`).

use std::hint::black_box;
use std::time::Instant;

use cairns::graph::{CsrGraph, Graph, NodeId};
use cairns::search::{ChCache, ContractionHierarchy};
use cairns_bench::roads::{BestRound, DEFAULT_GRAPHS, RoadArgs, seeded_queries};

#[path = "roads/alt.rs"]
mod alt;
#[path = "roads/fastmap.rs"]
mod fastmap;

/// The graphs of `--alt` and `--fastmap` without GRAPH arguments are
/// `alt::GRAPHS` and `fastmap::GRAPHS`; the others run on
/// [`DEFAULT_GRAPHS`].
fn args() -> RoadArgs {
    let mut args = RoadArgs::from_env(&["--rounds"], &["--alt", "--fastmap"], &DEFAULT_GRAPHS);
    if args.args.sets.is_empty() && args.args.has("--alt") {
        args.graphs = alt::GRAPHS.map(String::from).to_vec();
    }
    if args.args.sets.is_empty() && args.args.has("--fastmap") {
        args.graphs = fastmap::GRAPHS.map(String::from).to_vec();
    }
    args
}

struct Row {
    name: String,
    nodes: usize,
    arcs: usize,
    dropped: usize,
    queries: usize,
    no_path: usize,
    prep: [f64; 2],
    path: (f64, f64),
    cost_only: (f64, f64),
    theirs: (f64, f64),
    settled: f64,
    shortcuts: [usize; 2],
}

fn run(relative: &str, args: &RoadArgs) -> Row {
    let read: CsrGraph = alt::read(relative);
    // fast_paths skips arcs of weight 0 (and self-loops, which no shortest
    // path takes): both sides get the graph without them, so that both
    // answer the same queries on the same graph.
    let mut arcs = Vec::new();
    for u in 0..read.node_count() as u32 {
        for (v, w) in read.successors(NodeId(u)) {
            if w > 0.0 && v.0 != u {
                arcs.push((u, v.0, w));
            }
        }
    }
    let dropped = read.edge_count() - arcs.len();
    // fast_paths numbers the nodes up to the largest id of an arc it kept.
    let n = arcs
        .iter()
        .map(|&(u, v, _)| u.max(v) as usize + 1)
        .max()
        .unwrap_or(0);
    let g = CsrGraph::from_edges(n as u32, &arcs).expect("arcs of the graph read");

    let queries = seeded_queries(&g, args.queries, args.seed);
    let no_path = queries.iter().filter(|q| q.2.is_none()).count();

    // fast_paths' input: the same arcs, weights as integers.
    let mut input = fast_paths::InputGraph::new();
    for u in 0..n as u32 {
        for (v, w) in g.successors(NodeId(u)) {
            assert!(
                w.fract() == 0.0,
                "{relative}: fast_paths takes integer weights"
            );
            input.add_edge(u as usize, v.index(), w as usize);
        }
    }
    input.freeze();

    let t0 = Instant::now();
    let ours = ContractionHierarchy::build(&g);
    let prep_ours = t0.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let fast = fast_paths::prepare(&input);
    let prep_theirs = t0.elapsed().as_secs_f64();

    let mut ch_cache = ChCache::new();
    let mut calc = fast_paths::create_calculator(&fast);
    let mut nodes = Vec::new();
    let mut best: [BestRound; 3] = Default::default();
    let mut settled = 0u64;
    for round in 0..3 {
        // cairns, cost and path.
        let mut times = Vec::with_capacity(queries.len());
        for &(s, t, want) in &queries {
            let t0 = Instant::now();
            let got = ours.search_cost(s, t, &mut ch_cache);
            let found = ours.path_into(&mut ch_cache, &mut nodes);
            times.push(t0.elapsed().as_secs_f64());
            assert_eq!(got, want, "{relative}: cairns {s} to {t}");
            assert_eq!(found, want.is_some());
            if round == 0 {
                settled += ch_cache.settled();
            }
            black_box(&nodes);
        }
        best[0].offer_each(times);
        // fast_paths, cost and path.
        let mut times = Vec::with_capacity(queries.len());
        for &(s, t, want) in &queries {
            let t0 = Instant::now();
            let got = calc.calc_path(&fast, s.index(), t.index());
            times.push(t0.elapsed().as_secs_f64());
            let got = got.map(|p| p.get_weight() as f64);
            assert_eq!(got, want, "{relative}: fast_paths {s} to {t}");
        }
        best[1].offer_each(times);
        // cairns, cost only.
        let mut times = Vec::with_capacity(queries.len());
        for &(s, t, want) in &queries {
            let t0 = Instant::now();
            let got = ours.search_cost(s, t, &mut ch_cache);
            times.push(t0.elapsed().as_secs_f64());
            assert_eq!(got, want, "{relative}: cairns {s} to {t}");
        }
        best[2].offer_each(times);
    }
    Row {
        name: relative.to_owned(),
        nodes: n,
        arcs: g.edge_count(),
        dropped,
        queries: queries.len(),
        no_path,
        prep: [prep_ours, prep_theirs],
        path: best[0].summary(),
        theirs: best[1].summary(),
        cost_only: best[2].summary(),
        settled: settled as f64 / queries.len() as f64,
        shortcuts: [
            ours.edge_count(),
            fast.get_num_out_edges() + fast.get_num_in_edges(),
        ],
    }
}

fn main() {
    let args = args();
    if args.args.has("--alt") {
        alt::main(&args);
        return;
    }
    if args.args.has("--fastmap") {
        fastmap::main(&args);
        return;
    }
    println!(
        "| graph | nodes | arcs | zero arcs dropped | queries | no path | prep s cairns | prep s fast_paths | prep ratio | \
         us/query cairns mean (median) | fast_paths mean (median) | ratio mean (median) | \
         cairns cost only mean (median) | settled | cairns up+down edges | fast_paths up+down edges |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for graph in &args.graphs {
        let r = run(graph, &args);
        println!(
            "| {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.1} ({:.1}) | {:.1} ({:.1}) | {:.2} ({:.2}) | {:.1} ({:.1}) | {:.0} | {} | {} |",
            r.name,
            r.nodes,
            r.arcs,
            r.dropped,
            r.queries,
            r.no_path,
            r.prep[0],
            r.prep[1],
            r.prep[0] / r.prep[1],
            r.path.0,
            r.path.1,
            r.theirs.0,
            r.theirs.1,
            r.path.0 / r.theirs.0,
            r.path.1 / r.theirs.1,
            r.cost_only.0,
            r.cost_only.1,
            r.settled,
            r.shortcuts[0],
            r.shortcuts[1],
        );
    }
}
