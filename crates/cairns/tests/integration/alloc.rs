//! Reusing a `SearchCache` allocates nothing: after a first query, batches
//! of A*, Dijkstra and BFS queries on a real map make no heap allocation.
//!
//! The counting allocator is the global allocator of the whole integration
//! binary; it counts per thread, so tests running in parallel on other
//! threads do not disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Neighborhood};
use cairns::heuristic::Octile;
use cairns::landmarks::research::{CompressedHeuristic, CompressedTable, Compression};
use cairns::landmarks::{DifferentialHeuristic, Directedness, LandmarkTable, Placement, place};
use cairns::movingai::runner::{Instance, same_cost};
use cairns::open::PairingHeap;
use cairns::search::{AStar, Bfs, Dijkstra, Search, SearchCache};

use super::scen_files;

struct Counting;

thread_local! {
    // `const` initialisation and a `Copy` value: no lazy setup and no
    // destructor, so reading the counter never allocates.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    // The largest block requested since it was last reset.
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn count(size: usize) {
    // `try_with`: a thread being torn down still allocates.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    let _ = LARGEST.try_with(|c| c.set(c.get().max(size)));
}

// SAFETY: every method forwards to `System` unchanged; counting touches only
// a thread-local `Cell`, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract for `alloc` is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: the caller's contract for `realloc` is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations (including reallocations) made by this thread so far.
fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Runs `f` and returns how many allocations it made on this thread.
fn allocations_in(f: impl FnOnce()) -> u64 {
    let before = allocations();
    f();
    allocations() - before
}

/// Runs `f` and returns its result and the largest block it allocated on
/// this thread.
pub(crate) fn largest_allocation_in<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LARGEST.with(|c| c.replace(0));
    let result = f();
    let largest = LARGEST.with(|c| c.replace(before.max(c.get())));
    (result, largest)
}

#[test]
fn the_counter_counts() {
    let n = allocations_in(|| {
        let v: Vec<u8> = Vec::with_capacity(10);
        std::hint::black_box(v);
    });
    assert_eq!(n, 1);
    assert_eq!(allocations_in(|| {}), 0);
    let ((), largest) = largest_allocation_in(|| {
        std::hint::black_box(Vec::<u8>::with_capacity(1000));
    });
    assert_eq!(largest, 1000);
}

/// 200 start/goal pairs of a real map (dao/den520d, 256x257), evenly
/// spread over its scenario file: short and long queries alike.
fn den520d() -> (GridGraph, Vec<(NodeId, NodeId)>) {
    let file = scen_files("dao")
        .into_iter()
        .find(|f| f.ends_with("den520d.map.scen"))
        .expect("dao/den520d.map.scen");
    let inst = Instance::load(&file, None, 1).unwrap_or_else(|e| panic!("{e}"));
    assert!(inst.data_errors.is_empty());
    let step = inst.queries.len() / 200;
    let pairs: Vec<_> = inst
        .queries
        .iter()
        .step_by(step)
        .take(200)
        .map(|q| (q.start, q.goal))
        .collect();
    assert_eq!(pairs.len(), 200);
    (inst.graph, pairs)
}

/// A batch whose allocations are counted after a warm-up.
type Counted = fn(WarmUp) -> u64;

/// How the cache is warmed up before the counted batch.
#[derive(Clone, Copy, Debug, PartialEq)]
enum WarmUp {
    /// One query, the first of the batch: what the docs promise suffices
    /// ("sized on first use; later searches on graphs of the same size
    /// allocate nothing").
    FirstQuery,
    /// The whole batch once: the steady state of a server answering
    /// queries on one map.
    WholeBatch,
}

/// Runs `query` (which searches and writes the path into the reused Vec)
/// over `pairs` after warming up, and returns the allocations of the
/// counted batch.
fn batch_allocations(
    pairs: &[(NodeId, NodeId)], warm_up: WarmUp,
    mut query: impl FnMut(NodeId, NodeId, &mut Vec<NodeId>),
) -> u64 {
    let mut path = Vec::new();
    let warm = if warm_up == WarmUp::FirstQuery {
        &pairs[..1]
    } else {
        pairs
    };
    for &(s, t) in warm {
        query(s, t, &mut path);
    }
    // The caller's path buffer is the caller's business: give it room for
    // any path, so that only the library's own memory is measured.
    path.reserve(pairs.len().max(1 << 17));
    allocations_in(|| {
        for &(s, t) in pairs {
            query(s, t, &mut path);
        }
    })
}

fn astar_allocations(warm_up: WarmUp) -> u64 {
    let (graph, pairs) = den520d();
    let astar = AStar::new(&graph, Octile::new(&graph));
    let mut cache = SearchCache::new();
    batch_allocations(&pairs, warm_up, |s, t, path| {
        assert!(astar.search_cost(s, t, &mut cache).is_some());
        assert!(cache.path_into(t, path));
        assert_eq!(path.last(), Some(&t));
    })
}

fn dijkstra_allocations(warm_up: WarmUp) -> u64 {
    let (graph, pairs) = den520d();
    let dijkstra = Dijkstra::new(&graph);
    let mut cache = SearchCache::new();
    // Every 4th pair: Dijkstra is slow in debug builds.
    let pairs: Vec<_> = pairs.into_iter().step_by(4).collect();
    batch_allocations(&pairs, warm_up, |s, t, path| {
        assert!(dijkstra.search_cost(s, t, &mut cache).is_some());
        assert!(cache.path_into(t, path));
    })
}

fn bfs_allocations(warm_up: WarmUp) -> u64 {
    let (graph, pairs) = den520d();
    // BFS finds shortest paths on the 4-connected version of the map.
    let graph = GridGraph::new(graph.into_grid(), Neighborhood::Four);
    let bfs = Bfs::new(&graph);
    let mut cache = SearchCache::new();
    batch_allocations(&pairs, warm_up, |s, t, path| {
        assert!(bfs.search_cost(s, t, &mut cache).is_some());
        assert!(cache.path_into(t, path));
    })
}

/// A* with landmark heuristics (plain and compressed tables, built before
/// the count) and the pairing heap, their recommended OPEN set.
fn landmark_allocations(warm_up: WarmUp) -> u64 {
    let (graph, pairs) = den520d();
    let lms = place(&graph, 8, Placement::Farthest { seed: 1 });
    let table = LandmarkTable::build(&graph, &lms, Directedness::Symmetric);
    let compressed = CompressedTable::new(&table, 2, Compression::Nearest);
    let dh = AStar::new(
        &graph,
        DifferentialHeuristic::new(&table, Octile::new(&graph)),
    );
    let cdh = AStar::new(
        &graph,
        CompressedHeuristic::new(&compressed, Octile::new(&graph)),
    );
    let mut cache = SearchCache::with_open(PairingHeap::new());
    batch_allocations(&pairs, warm_up, |s, t, path| {
        let a = dh.search_cost(s, t, &mut cache).unwrap();
        // Equal up to the order the same costs were summed in.
        let b = cdh.search_cost(s, t, &mut cache).unwrap();
        assert!(same_cost(Some(a), Some(b)), "{a} vs {b}");
        assert!(cache.path_into(t, path));
    })
}

#[test]
fn landmark_batch_with_the_pairing_heap_allocates_nothing_after_the_first_query() {
    assert_eq!(landmark_allocations(WarmUp::FirstQuery), 0);
}

// The promise of the docs: no allocation after the *first* query. The
// default OPEN set and the BFS queue reserve room for every node when the
// cache first sees a graph of this size (regression: before, they grew on
// later, larger queries: 6 allocations in 200 A* queries on den520d).
#[test]
fn batches_allocate_nothing_after_the_first_query_and_once_warm() {
    let searches: [(&str, Counted); 3] = [
        ("A*", astar_allocations),
        ("Dijkstra", dijkstra_allocations),
        ("BFS", bfs_allocations),
    ];
    for (search, allocations) in searches {
        for warm_up in [WarmUp::FirstQuery, WarmUp::WholeBatch] {
            assert_eq!(allocations(warm_up), 0, "{search}, {warm_up:?}");
        }
    }
}
