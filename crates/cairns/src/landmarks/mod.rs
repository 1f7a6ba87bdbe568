//! Differential heuristics (landmarks, the "ALT" technique): exact
//! distances to and from a few chosen nodes, computed once, give lower
//! bounds on every distance through the triangle inequality.
//!
//! For a landmark `L` and any nodes `a`, `z` of a graph with distance `d`:
//!
//! ```text
//! d(a, L) <= d(a, z) + d(z, L)   so   d(a, z) >= d(a, L) - d(z, L)
//! d(L, z) <= d(L, a) + d(a, z)   so   d(a, z) >= d(L, z) - d(L, a)
//! ```
//!
//! On a symmetric graph (every grid) both read `d(a, z) >= |d(a, L) - d(z, L)|`.
//! The best of these bounds over a handful of well-placed landmarks is
//! often far tighter than a geometric heuristic on maps with walls, and it
//! is admissible and consistent on every graph.
//!
//! The pieces:
//!
//! 1. [`place`] chooses landmark nodes ([`Placement`]).
//! 2. [`LandmarkTable::build`] runs one search per landmark (in parallel)
//!    and stores the distances.
//! 3. [`DifferentialHeuristic`] borrows the table and is a
//!    [`Heuristic`](crate::heuristic::Heuristic) for A*.
//! 4. [`LandmarkTable::save`] and [`LandmarkTable::load`] keep a table on
//!    disk, tied to its map by a hash ([`grid_hash`]); a compressed table
//!    ([`research::CompressedTable`]) has a file of its own; both are
//!    [saved tables](crate::saved), and [`Table::load`](crate::spec::Table::load_for)
//!    reads a file of any kind.
//! 5. [`IncrementalTable`] follows a grid's wall edits, repairing only the
//!    distances that change (the result equals a rebuild).
//!
//! # The fastest setup
//!
//! Measured on the Moving AI dao and maze512 maps with 16 landmarks
//! (`docs/differential-heuristics.md`, `cargo bench -p cairns-bench --bench
//! landmark_floors`):
//!
//! - [`Placement::Sampled`] expands the fewest nodes: 4.10x fewer than
//!   octile on dao and 6.10x on maze512, against 3.63x and 5.79x for
//!   [`Placement::Farthest`], for more placing time (it places a pool of
//!   4k farthest-first, then scores candidates on sampled pairs, in
//!   parallel; `docs/differential-heuristics.md` has the times).
//! - Search with the [`PairingHeap`](crate::open::PairingHeap) as the OPEN
//!   set, not a binary heap (the default is now the 4-ary
//!   [`QuaternaryHeap`](crate::open::QuaternaryHeap)): under a landmark
//!   heuristic A* pushes entries with small `f` into a heap full of entries
//!   it will never pop, and the pairing heap's O(1) insertion and
//!   decrease-key made it 1.17x to 1.20x faster than the indexed binary
//!   heap there (measured when that was the default; it is slower under
//!   octile).
//!
//! Together: mean query time 2.70x lower than octile A* on dao and 4.10x
//! lower on maze512.
//!
//! # Example
//!
//! ```
//! use cairns::grid::{Grid, GridGraph, Neighborhood};
//! use cairns::heuristic::{Heuristic, Octile};
//! use cairns::landmarks::{DifferentialHeuristic, Directedness, LandmarkTable, Placement, place};
//! use cairns::open::PairingHeap;
//! use cairns::search::{AStar, Dijkstra, Search, SearchCache};
//!
//! let grid = Grid::from_ascii("
//!     .........@....
//!     .@@@@@@..@.@@.
//!     .@.....@.@..@.
//!     .@.@@@.@.@@.@.
//!     ...@..........
//! ").unwrap();
//! let graph = GridGraph::new(grid, Neighborhood::Octile);
//! let landmarks = place(&graph, 4, Placement::Sampled { seed: 7 });
//! let table = LandmarkTable::build(&graph, &landmarks, Directedness::Symmetric);
//! let h = DifferentialHeuristic::new(&table, Octile::new(&graph));
//! let (start, goal) = (graph.node(2, 2).unwrap(), graph.node(13, 1).unwrap());
//!
//! // The landmarks know about the walls that the octile distance ignores.
//! let octile = Octile::new(&graph);
//! let (alt, geo) = (h.estimate(start, &h.goal(goal)), octile.estimate(start, &octile.goal(goal)));
//! assert!(alt > geo);
//!
//! // The pairing heap is the faster OPEN set under landmark heuristics.
//! let mut cache = SearchCache::with_open(PairingHeap::new());
//! let path = AStar::new(&graph, h).search(start, goal, &mut cache).unwrap();
//! assert_eq!(Some(path.cost), Dijkstra::new(&graph).search_cost(start, goal, &mut cache));
//! assert!(alt <= path.cost);
//! ```

mod adaptive;
mod column;
mod compressed;
mod compressed_file;
mod file;
mod heuristic;
mod owned;
mod placement;
mod potential;
#[cfg(test)]
mod proptests;
mod repair;
mod stale;
mod table;

pub use crate::saved::grid_hash;
pub use heuristic::{DifferentialGoal, DifferentialHeuristic};
pub(crate) use owned::{OwnedTable, OwnedTableAStar};
pub use placement::{Placement, place};
pub(crate) use potential::{AveragePotential, MAX_ACTIVE};
pub use repair::{IncrementalTable, RepairProgress};
pub use stale::{MapChanges, Move, SafeDifferential, Staleness};
pub use table::{Directedness, LandmarkTable, Layout};

/// The variants from the landmark literature that cairns implements and
/// measures (`cargo bench -p cairns-bench --bench landmarks`,
/// `docs/differential-heuristics.md`) but that a user rarely needs: online
/// (adaptive) landmarks, an extra distance column, compressed tables,
/// placement among known goals, per-start heuristics and best-k selection.
/// The small surface above ([`place`], [`LandmarkTable`],
/// [`DifferentialHeuristic`], the files and map changes) is what the
/// command, the web page and the search specs use.
pub mod research {
    pub use super::adaptive::AdaptiveLandmarks;
    pub use super::column::{ColumnRecorder, DistanceColumn};
    pub use super::compressed::{
        CompressedGoal, CompressedHeuristic, CompressedTable, Compression,
    };
    pub use super::heuristic::{ForStart, MAX_BEST};
    pub use super::placement::{SAMPLE_PAIRS, place_among_goals, place_centroid};
}

use crate::graph::{Graph, NodeId};
use crate::search::{Bfs, Dijkstra, SearchCache};

/// Writes the distance from `source` to every node of `graph` into `out`
/// (`f64::INFINITY` where unreachable), by breadth-first search when every
/// edge costs 1, by Dial's algorithm ([`dial`]) when the graph bounds its
/// costs ([`Graph::cost_bounds`]: every grid without terrain), and by
/// Dijkstra's algorithm otherwise. The last two give the same distances,
/// bit for bit; Dial's leaves `cache` as it was.
fn distances_from<G: Graph>(graph: &G, source: NodeId, cache: &mut SearchCache, out: &mut [f64]) {
    let shape = graph.cost_bounds().and_then(|(lo, hi)| dial_shape(lo, hi));
    if let (Some((w, slots)), false, true) = (shape, graph.unit_costs(), source.index() < out.len())
    {
        out.fill(f64::INFINITY);
        let mut ring = vec![Vec::new(); slots];
        dial(graph, source, w, &mut ring, out);
        return;
    }
    if graph.unit_costs() {
        Bfs::new(graph).all(source, cache);
    } else {
        Dijkstra::new(graph).all(source, cache);
    }
    for (i, d) in out.iter_mut().enumerate() {
        *d = cache.g(NodeId(i as u32)).unwrap_or(f64::INFINITY);
    }
}

/// Dial's ring of buckets of `(node, g)` entries.
pub(crate) type Ring = Vec<Vec<(u32, f64)>>;

/// Dial's bucket width and number of buckets (for [`dial`]) over move
/// costs between `lo` and `hi`, when they suit it: `lo > 0` and `hi` at
/// most 64 times `lo`, so that the ring stays small.
pub(crate) fn dial_shape(lo: f64, hi: f64) -> Option<(f64, usize)> {
    (lo > 0.0 && hi / lo <= 64.0).then(|| (lo, (hi / lo) as usize + 2))
}

/// Lowers `dist[v]` to `d(source, v)` wherever that is smaller, by Dial's
/// algorithm: a ring of empty buckets, each `w` wide, `w` at most every
/// edge cost and `ring.len() - 1` times `w` above every edge cost. A node
/// popped from a bucket has its final distance (no node of the same bucket
/// can lower it, every edge being at least a bucket wide), so every node is
/// settled once, with the same sum of edge costs as Dijkstra's algorithm
/// computes: the same `f64`, bit for bit. Entries lowered by a later bucket
/// stay behind as stale ones and are skipped. With `dist` all infinite
/// this is the one-to-all search, `O(V + E)` with no heap; with `dist` a
/// minimum of earlier distances it visits only the nodes it lowers.
pub(crate) fn dial<G: Graph>(graph: &G, source: NodeId, w: f64, ring: &mut Ring, dist: &mut [f64]) {
    let slots = ring.len();
    dist[source.index()] = 0.0;
    ring[0].push((source.0, 0.0));
    let mut queued = 1usize;
    let mut at = 0usize;
    while queued > 0 {
        let slot = at % slots;
        while let Some((u, g)) = ring[slot].pop() {
            queued -= 1;
            if g > dist[u as usize] {
                continue;
            }
            for (v, c) in graph.successors(NodeId(u)) {
                let ng = g + c;
                if ng < dist[v.index()] {
                    dist[v.index()] = ng;
                    ring[(ng / w) as usize % slots].push((v.0, ng));
                    queued += 1;
                }
            }
        }
        at += 1;
    }
}
