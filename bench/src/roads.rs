//! What the road graph benchmarks (`roads`, `hub_labels`) share: their
//! command line and their seeded queries, so that both time the same
//! queries on the same graphs.

use cairns::graph::{CsrGraph, NodeId};
use cairns::movingai::runner::median;
use cairns::rng::SplitMix64;
use cairns::search::{Dijkstra, SearchCache};

use crate::BenchArgs;

/// The graphs a road benchmark runs on when none is named: Bremen by
/// distance and by travel time, and South Seattle (`../shared/data/roads`).
pub const DEFAULT_GRAPHS: [&str; 3] = [
    "fast_paths/bremen_dist.gr",
    "fast_paths/bremen_time.gr",
    "fast_paths/south_seattle_car.gr",
];

/// Sources per graph; each gets `queries / SOURCES` random targets, so
/// that one Dijkstra search per source checks all of its queries.
pub const SOURCES: usize = 200;

/// A road benchmark's command line: the graphs named (files of the road
/// data directory), `--queries N` (10,000 unless given), `--seed S`
/// (2016), and the benchmark's own flags and switches in [`args`](Self::args).
#[derive(Clone, Debug)]
pub struct RoadArgs {
    /// The graphs named, or `default`'s.
    pub graphs: Vec<String>,
    /// Queries per graph.
    pub queries: usize,
    /// The seed the queries are drawn from.
    pub seed: u64,
    /// The whole command line, for the benchmark's own flags.
    pub args: BenchArgs,
}

impl RoadArgs {
    /// Parses the process's arguments for a road benchmark that takes
    /// `takes` (flags with a value) and `switches` (flags without one)
    /// besides `--queries` and `--seed`; `default` gives the graphs when
    /// none is named.
    ///
    /// Prints the error and exits with status 2 on a bad command line.
    pub fn from_env(takes: &[&str], switches: &[&str], default: &[&str]) -> RoadArgs {
        let mut all = vec!["--queries", "--seed"];
        all.extend_from_slice(takes);
        let args = BenchArgs::from_env_with_switches(&all, switches);
        RoadArgs {
            graphs: args.sets_or(default),
            queries: args.get("--queries").unwrap_or(10_000),
            seed: args.get("--seed").unwrap_or(2016),
            args,
        }
    }
}

/// The queries of a run on `g` and their Dijkstra costs: [`SOURCES`]
/// random sources drawn from `seed`, each with `queries / SOURCES` random
/// targets (rounded up), shuffled.
pub fn seeded_queries(
    g: &CsrGraph, queries: usize, seed: u64,
) -> Vec<(NodeId, NodeId, Option<f64>)> {
    let n = g.node_count() as u64;
    let mut rng = SplitMix64::new(seed);
    let per = queries.div_ceil(SOURCES);
    let mut out = Vec::with_capacity(SOURCES * per);
    let mut cache = SearchCache::new();
    for _ in 0..SOURCES {
        let s = NodeId(rng.below(n) as u32);
        Dijkstra::new(g).all(s, &mut cache);
        for _ in 0..per {
            let t = NodeId(rng.below(n) as u32);
            out.push((s, t, cache.g(t)));
        }
    }
    rng.shuffle(&mut out);
    out
}

/// The best of several rounds of one query loop: the round whose total
/// time was least, with each of its queries' seconds.
#[derive(Clone, Debug, Default)]
pub struct BestRound {
    total: f64,
    each: Vec<f64>,
}

impl BestRound {
    /// Keeps a round of `total` seconds whose queries took `each` if it is
    /// the first or the quickest so far.
    pub fn offer(&mut self, total: f64, each: Vec<f64>) {
        if self.each.is_empty() || total < self.total {
            self.total = total;
            self.each = each;
        }
    }

    /// [`offer`](Self::offer) with the queries' seconds summed as the total.
    pub fn offer_each(&mut self, each: Vec<f64>) {
        self.offer(each.iter().sum(), each);
    }

    /// Each query's seconds in the round kept.
    pub fn each(&self) -> &[f64] {
        &self.each
    }

    /// Mean (the total over the queries) and median microseconds a query.
    pub fn summary(&self) -> (f64, f64) {
        (
            self.total / self.each.len() as f64 * 1e6,
            median(&self.each) * 1e6,
        )
    }
}
