//! Many queries at once on several threads, one searcher (and so one
//! cache) per thread.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::{SearchStats, Searcher};
use crate::graph::NodeId;

/// What one query of a [`batch`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchResult {
    /// The cost of a shortest path, or `None` when there is none.
    pub cost: Option<f64>,
    /// The search's statistics.
    pub stats: SearchStats,
    /// Seconds the search took (on its thread, so with other threads
    /// running beside it).
    pub seconds: f64,
}

/// Runs every `(start, goal)` query on `threads` threads and returns the
/// results in query order, the same as running them one after the other.
///
/// `make` builds a searcher (with its own cache); it is called once per
/// thread, never per query, so each search reuses its cache's memory. The
/// threads take the queries one at a time from a shared counter, so a run
/// of long queries (scenario files list theirs last) is shared out as
/// evenly as the short ones. `threads` of 0 or 1 runs on the calling
/// thread, which always takes part; a thread that cannot be started
/// leaves its share to the others.
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::batch;
/// use cairns::spec::SearchSpec;
///
/// let graph = GridGraph::new(Grid::from_ascii("....\n.@@.\n....").unwrap(), Neighborhood::Octile);
/// let prepared = SearchSpec::default().prepare(&graph).unwrap();
/// let queries: Vec<_> = (0..12).map(|i| (graph.node(i % 4, 0).unwrap(), graph.node(3 - i % 4, 2).unwrap())).collect();
/// let results = batch(&queries, || prepared.searcher(), 2);
/// assert_eq!(results.len(), 12);
/// assert!(results.iter().all(|r| r.cost.is_some()));
/// ```
pub fn batch<S, F>(queries: &[(NodeId, NodeId)], make: F, threads: usize) -> Vec<BatchResult>
where
    S: Searcher,
    F: Fn() -> S + Sync,
{
    let next = AtomicUsize::new(0);
    // Takes queries from the counter until none is left.
    let work = || -> Vec<(usize, BatchResult)> {
        let mut searcher = make();
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(start, goal)) = queries.get(i) else {
                return done;
            };
            let t0 = Instant::now();
            let cost = searcher.search_cost(start, goal);
            let seconds = t0.elapsed().as_secs_f64();
            let stats = searcher.stats();
            done.push((
                i,
                BatchResult {
                    cost,
                    stats,
                    seconds,
                },
            ));
        }
    };
    let threads = threads.clamp(1, queries.len().max(1));
    let mut parts: Vec<Vec<(usize, BatchResult)>> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
            .collect();
        let mut parts = vec![work()];
        for helper in helpers {
            match helper.join() {
                Ok(part) => parts.push(part),
                // A search that panicked on its thread panics here too.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        parts
    });
    let mut results: Vec<Option<BatchResult>> = vec![None; queries.len()];
    for (i, r) in parts.drain(..).flatten() {
        results[i] = Some(r);
    }
    // Every index was taken by exactly one thread, and every thread that
    // took one finished it.
    results.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{GridGraph, MapKind, Neighborhood};
    use crate::spec::SearchSpec;

    /// A batch on several threads gives, query by query, the costs and
    /// expansions of the same searches run one after the other.
    #[test]
    fn threads_give_the_serial_results_in_order() {
        let grid = MapKind::Rooms { room_size: 7 }.generate(64, 48, 3).unwrap();
        let graph = GridGraph::new(grid, Neighborhood::Octile);
        let queries = crate::grid::random_queries(&graph, 300, 9);
        for name in ["astar", "jps", "astar/dh:3/pairing-heap", "dijkstra"] {
            let spec: SearchSpec = name.parse().unwrap();
            let prepared = spec.prepare(&graph).unwrap();
            let serial = batch(&queries, || prepared.searcher(), 1);
            for threads in [2, 3] {
                let parallel = batch(&queries, || prepared.searcher(), threads);
                assert_eq!(parallel.len(), queries.len());
                for (i, (a, b)) in serial.iter().zip(&parallel).enumerate() {
                    assert_eq!((a.cost, a.stats), (b.cost, b.stats), "{name}, query {i}");
                }
            }
            assert!(serial.iter().any(|r| r.cost.is_some()), "{name}");
        }
        let prepared = SearchSpec::default().prepare(&graph).unwrap();
        assert!(batch(&[], || prepared.searcher(), 4).is_empty());
    }
}
