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

mod heuristic;
mod table;

pub use heuristic::{DifferentialGoal, DifferentialHeuristic, ForStart, MAX_BEST};
pub use table::{Directedness, LandmarkTable, Layout};

use crate::graph::{Graph, NodeId};
use crate::search::{Bfs, Dijkstra, SearchCache};

/// Writes the distance from `source` to every node of `graph` into `out`
/// (`f64::INFINITY` where unreachable), by breadth-first search when every
/// edge costs 1 and by Dijkstra's algorithm otherwise.
fn distances_from<G: Graph>(graph: &G, source: NodeId, cache: &mut SearchCache, out: &mut [f64]) {
    if graph.unit_costs() {
        Bfs::new(graph).all(source, cache);
    } else {
        Dijkstra::new(graph).all(source, cache);
    }
    for (i, d) in out.iter_mut().enumerate() {
        *d = cache.g(NodeId(i as u32)).unwrap_or(f64::INFINITY);
    }
}
