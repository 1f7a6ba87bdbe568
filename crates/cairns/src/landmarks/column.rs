//! One landmark column outside a table: the distances to a single node,
//! kept from a search that has already run.

use super::distances_from;
use super::table::{Directedness, margin_of, store};
use crate::graph::{NodeId, Reversed, Reversible};
use crate::search::SearchCache;

/// Exact distances `d(v, P)` from every node `v` to one node `P`, stored
/// like one landmark of a [`LandmarkTable`](super::LandmarkTable): a
/// temporary extra landmark at `P` for
/// [`DifferentialHeuristic::with_extra`](super::DifferentialHeuristic::with_extra).
///
/// The typical source is a search that has run anyway: a full reverse
/// Dijkstra from a previous query's goal, or any one-to-all search on a
/// symmetric graph. When the next query's goal is `P` itself the column is
/// the exact distance, the perfect heuristic; when the goal is near `P`,
/// `d(a, z) >= d(a, P) - d(z, P)` is nearly exact.
///
/// # Correctness
///
/// The distances must be exact, from a search that settled every node it
/// reaches (`Dijkstra::all`, `Bfs::all`). The `g` values left by an A*
/// that stopped at its goal are only upper bounds off the closed set and
/// would make the heuristic inadmissible.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::{Heuristic, Octile};
/// use cairns::landmarks::{DifferentialHeuristic, Directedness, LandmarkTable}; use cairns::landmarks::research::DistanceColumn;
/// use cairns::search::SearchCache;
///
/// let grid = Grid::from_ascii("
///     .......
///     @@@@@@.
///     .......
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let (a, z) = (graph.node(0, 0).unwrap(), graph.node(0, 2).unwrap());
/// let table = LandmarkTable::build(&graph, &[], Directedness::Symmetric);
/// let mut cache = SearchCache::new();
/// let column = DistanceColumn::to_node(&graph, z, Directedness::Symmetric, &mut cache);
/// let h = DifferentialHeuristic::new(&table, Octile::new(&graph)).with_extra(&column);
/// // The column knows the way round the wall to its own node.
/// assert!(h.estimate(a, &h.goal(z)) > 13.99);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceColumn {
    node: NodeId,
    directedness: Directedness,
    to: Vec<f32>,
    margin: f64,
}

impl DistanceColumn {
    /// Runs a one-to-all search towards `node` (on the reversed graph, so
    /// that it gives `d(v, node)`; breadth-first when every edge costs 1)
    /// and keeps its distances. `directedness` says whether the graph's
    /// distances are symmetric, which doubles the bounds the column gives.
    ///
    /// # Panics
    ///
    /// When `node` is not below the graph's node bound.
    pub fn to_node<G: Reversible>(
        graph: &G,
        node: NodeId,
        directedness: Directedness,
        cache: &mut SearchCache,
    ) -> DistanceColumn {
        let n = graph.node_bound();
        assert!(
            node.index() < n,
            "node {node} is not on the graph ({n} nodes)"
        );
        let mut buf = vec![0f64; n];
        distances_from(&Reversed(graph), node, cache, &mut buf);
        DistanceColumn::from_distances(node, directedness, &buf)
    }

    /// A column from distances already computed: `distances[v] = d(v, node)`
    /// for every node `v`, `f64::INFINITY` where `v` cannot reach `node`;
    /// for instance the `g` values of `Dijkstra::all` from `node` on a
    /// symmetric graph. See the type's `# Correctness` section.
    pub fn from_distances(
        node: NodeId,
        directedness: Directedness,
        distances: &[f64],
    ) -> DistanceColumn {
        let to: Vec<f32> = distances.iter().map(|&d| store(d)).collect();
        let margin = margin_of([to.as_slice()]);
        DistanceColumn {
            node,
            directedness,
            to,
            margin,
        }
    }

    /// The node `P` the distances lead to.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The number of nodes the column covers.
    pub fn node_count(&self) -> usize {
        self.to.len()
    }

    /// The stored distance `d(v, P)` (infinite when unreachable).
    ///
    /// # Panics
    ///
    /// When `v` is out of range.
    pub fn distance(&self, v: NodeId) -> f32 {
        self.to[v.index()]
    }

    /// The rounding margin subtracted from the column's bounds, as for a
    /// [`LandmarkTable`](super::LandmarkTable).
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// Bytes of distance storage.
    pub fn memory_bytes(&self) -> usize {
        self.to.len() * std::mem::size_of::<f32>()
    }

    /// The column's bound on `d(a, z)` before the margin: may be negative,
    /// infinite (the pair is unreachable) or NaN (no information).
    #[inline]
    pub(super) fn term(&self, a: NodeId, z: NodeId) -> f32 {
        let (da, dz) = (self.to[a.index()], self.to[z.index()]);
        match self.directedness {
            // d(z, P) <= d(z, a) + d(a, P) and d(z, a) = d(a, z).
            Directedness::Symmetric => (da - dz).abs(),
            // d(a, P) <= d(a, z) + d(z, P).
            Directedness::Directed => da - dz,
        }
    }
}
