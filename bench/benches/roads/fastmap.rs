//! A* over a FastMap embedding against A* over a landmark table of the
//! same memory, on road graphs:
//!
//! ```text
//! cargo bench -p cairns-bench --bench roads -- --fastmap [GRAPH...] [--queries N] [--seed S] [--rounds R]
//! ```
//!
//! GRAPH is a path under `../shared/data/roads` (default [`GRAPHS`]),
//! searched as read. The queries are the other road benches'
//! (`seeded_queries`, default 1,000 here), every cost checked against
//! Dijkstra's. For each K of [`DIMS`], a FastMap embedding of K dimensions
//! (K coordinates of 8 bytes a node) and a directed landmark table of K / 2
//! landmarks placed `avoid` (a distance to and from each landmark, 8 bytes
//! each: the same bytes a node), each guiding the same unidirectional A*;
//! Dijkstra (A* with no heuristic) first, as the base. The table prints,
//! per search, the preparation seconds, the bytes, the nodes settled and
//! the microseconds per query, and Dijkstra's figures over the search's
//! (above 1: the search settles fewer nodes, answers sooner). Each search
//! runs its R rounds (default 2) before the next starts; its best round
//! counts.

use std::time::Instant;

use cairns::graph::NodeId;
use cairns::heuristic::{FastMap, Heuristic, Zero};
use cairns::landmarks::{DifferentialHeuristic, Placement};
use cairns::search::{AStar, Search, SearchCache};
use cairns_bench::roads::{RoadArgs, seeded_queries};

use super::alt::{Measured, measure, prepare, print_head, print_rows, read};

/// The graphs of `--fastmap` without GRAPH arguments.
pub(super) const GRAPHS: [&str; 4] = [
    "fast_paths/bremen_dist.gr",
    "fast_paths/bremen_time.gr",
    "fast_paths/south_seattle_car.gr",
    "dimacs/rome99.gr",
];

/// The dimensions of each embedding; each is matched by a table of half as
/// many landmarks.
const DIMS: [usize; 3] = [4, 8, 16];

/// The seed of the embeddings' first pivot search.
const FASTMAP_SEED: u64 = 1;

/// A* under `h` over `queries`, named `name`.
fn astar<H: Heuristic>(
    name: String, prep: Option<(f64, f64, usize)>, g: &cairns::graph::CsrGraph, h: H,
    queries: &[(NodeId, NodeId, Option<f64>)], rounds: usize,
) -> Measured {
    let search = AStar::new(g, h);
    measure(name, prep, queries, rounds, &|s, t, c: &mut SearchCache| {
        search.search_cost(s, t, c)
    })
}

/// The comparison over `args.graphs`, printed as a Markdown table.
pub(super) fn main(args: &RoadArgs) {
    let rounds = args.args.rounds.unwrap_or(2);
    let queries_asked = args.args.get("--queries").unwrap_or(1000);
    print_head("Dijkstra", "place or embed + table");
    for relative in &args.graphs {
        let g = read(relative);
        let queries = seeded_queries(&g, queries_asked, args.seed);
        let mut rows = vec![astar("Dijkstra".into(), None, &g, Zero, &queries, rounds)];
        for k in DIMS {
            let t0 = Instant::now();
            let fastmap = FastMap::build(&g, k, FASTMAP_SEED);
            let embed_s = t0.elapsed().as_secs_f64();
            assert_eq!(fastmap.dims(), k, "{relative}: fewer dimensions than asked");
            rows.push(astar(
                format!("FastMap, {k} dimensions"),
                Some((embed_s, 0.0, fastmap.memory_bytes())),
                &g,
                &fastmap,
                &queries,
                rounds,
            ));
            let table = prepare(&g, k / 2, Placement::Avoid { seed: args.seed });
            rows.push(astar(
                format!("landmarks, {} avoid", k / 2),
                Some(table.figures()),
                &g,
                DifferentialHeuristic::new(&table.table, Zero),
                &queries,
                rounds,
            ));
        }
        print_rows(relative, &g, &queries, &rows);
    }
}
