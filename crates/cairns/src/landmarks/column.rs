//! One landmark column outside a table: the distances to a single node,
//! kept from a search that has already run.

use super::distances_from;
use super::table::{Directedness, margin_of_f32 as margin_of, store_f32 as store};
use crate::graph::{NodeId, Reversed, Reversible};
use crate::open::OpenSet;
use crate::search::{Observer, SearchCache};

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
/// would make the heuristic inadmissible; [`from_search`](Self::from_search)
/// keeps the closed set's exact ones and nothing else.
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
    /// For a partial column, the nodes it knows (the others are NaN);
    /// `None` for a full one.
    known: Option<Vec<NodeId>>,
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
        graph: &G, node: NodeId, directedness: Directedness, cache: &mut SearchCache,
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
        node: NodeId, directedness: Directedness, distances: &[f64],
    ) -> DistanceColumn {
        let to: Vec<f32> = distances.iter().map(|&d| store(d)).collect();
        let margin = margin_of([to.as_slice()]);
        DistanceColumn {
            node,
            directedness,
            to,
            margin,
            known: None,
        }
    }

    /// A partial column from a search that stopped at its goal: the exact
    /// distances of the nodes it expanded, no information on the others.
    ///
    /// A one-to-one search from `node` with a consistent heuristic (every
    /// heuristic of this crate but the compressed one, unweighted) expands
    /// each node along a shortest path, so the `g` of every closed node is
    /// its exact distance from `node`; that is what the column keeps. The
    /// other entries are unknown: the column's bound for a pair with an
    /// unknown end is no bound (NaN, which
    /// [`with_extra`](super::DifferentialHeuristic::with_extra) ignores), so
    /// only pairs whose entries are both known use it.
    ///
    /// The search must have run from `node` on the graph whose distances
    /// the column holds, `d(v, node)`: on a symmetric graph (every grid)
    /// the graph itself, and the natural use is a query searched from its
    /// goal, whose column then knows the exact distance to that goal of
    /// every node the search expanded; on a directed graph, its
    /// [`Reversed`] view. `node_bound` is the graph's.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::heuristic::{Heuristic, Octile};
    /// use cairns::landmarks::{DifferentialHeuristic, Directedness, LandmarkTable, research::DistanceColumn};
    /// use cairns::search::{AStar, Search, SearchCache};
    ///
    /// let grid = Grid::from_ascii("
    ///     .......
    ///     @@@@@@.
    ///     .......
    /// ").unwrap();
    /// let graph = GridGraph::new(grid, Neighborhood::Octile);
    /// let (a, z) = (graph.node(0, 0).unwrap(), graph.node(0, 2).unwrap());
    /// // A query to z, searched from z: its closed nodes know d(v, z).
    /// let mut cache = SearchCache::new();
    /// AStar::new(&graph, Octile::new(&graph)).search_cost(z, a, &mut cache);
    /// let column = DistanceColumn::from_search(z, Directedness::Symmetric, &cache, graph.grid().len());
    /// let table = LandmarkTable::build(&graph, &[], Directedness::Symmetric);
    /// let h = DifferentialHeuristic::new(&table, Octile::new(&graph)).with_extra(&column);
    /// // The next query to z from a knows the way round the wall.
    /// assert!(h.estimate(a, &h.goal(z)) > 13.99);
    /// ```
    pub fn from_search<Q: OpenSet>(
        node: NodeId, directedness: Directedness, cache: &SearchCache<Q>, node_bound: usize,
    ) -> DistanceColumn {
        let mut column = DistanceColumn {
            node,
            directedness,
            to: vec![f32::NAN; node_bound],
            margin: 0.0,
            known: Some(Vec::new()),
        };
        column.fill(cache);
        column
    }

    /// Makes this column the partial column of another search, as
    /// [`from_search`](Self::from_search) does, reusing its memory: only
    /// the entries the column knew are cleared. [`from_search`](Self::from_search)
    /// and this scan the cache's records for the closed nodes (`O(V)`); a
    /// stream of queries that keeps one column records them during the
    /// search instead ([`start_partial`](Self::start_partial) and
    /// [`recorder`](Self::recorder)), for the cost of the nodes each search
    /// expands.
    pub fn refill_from_search<Q: OpenSet>(
        &mut self, node: NodeId, directedness: Directedness, cache: &SearchCache<Q>,
        node_bound: usize,
    ) {
        self.start_partial(node, directedness, node_bound);
        self.fill(cache);
    }

    /// Empties the column (clearing only the entries it knew, unless it was
    /// a full column or of another size) and makes it a partial column to
    /// `node` that knows nothing yet: fill it with a search from `node`
    /// observed by [`recorder`](Self::recorder). The conditions of
    /// [`from_search`](Self::from_search) apply to that search.
    pub fn start_partial(&mut self, node: NodeId, directedness: Directedness, node_bound: usize) {
        match self.known.as_mut() {
            Some(known) if self.to.len() == node_bound => {
                for v in known.drain(..) {
                    self.to[v.index()] = f32::NAN;
                }
            }
            _ => {
                self.to.clear();
                self.to.resize(node_bound, f32::NAN);
                self.known = Some(Vec::new());
            }
        }
        self.node = node;
        self.directedness = directedness;
        self.margin = 0.0;
    }

    /// An [`Observer`] that writes the `g` of every node the observed
    /// search expands into this partial column (the lowest, should a node
    /// be expanded twice). Start the column with
    /// [`start_partial`](Self::start_partial):
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::heuristic::Octile;
    /// use cairns::landmarks::{Directedness, research::DistanceColumn};
    /// use cairns::search::{AStar, Search, SearchCache};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("......").unwrap(), Neighborhood::Octile);
    /// let (z, a) = (graph.node(0, 0).unwrap(), graph.node(5, 0).unwrap());
    /// let mut column = DistanceColumn::from_distances(z, Directedness::Symmetric, &[]);
    /// column.start_partial(z, Directedness::Symmetric, graph.grid().len());
    /// let mut cache = SearchCache::new();
    /// AStar::new(&graph, Octile::new(&graph)).search_observed(z, a, &mut cache, &mut column.recorder());
    /// assert_eq!((column.known_count(), column.distance(graph.node(3, 0).unwrap())), (5, 3.0));
    /// ```
    ///
    /// The goal itself is not expanded, so it stays unknown.
    pub fn recorder(&mut self) -> ColumnRecorder<'_> {
        let known = self.known.get_or_insert_with(Vec::new);
        ColumnRecorder {
            to: &mut self.to,
            known,
            margin: &mut self.margin,
        }
    }

    /// Writes the closed nodes' distances of `cache` into a cleared
    /// partial column.
    fn fill<Q: OpenSet>(&mut self, cache: &SearchCache<Q>) {
        let mut recorder = self.recorder();
        for v in cache.closed_nodes() {
            if let Some(g) = cache.g(v) {
                recorder.expand(v, g, 0.0);
            }
        }
    }

    /// How many nodes the column knows a distance for: every node for a
    /// full column, the expanded ones for a partial one
    /// ([`from_search`](Self::from_search)).
    pub fn known_count(&self) -> usize {
        self.known.as_ref().map_or(self.to.len(), Vec::len)
    }

    /// The node `P` the distances lead to.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The number of nodes the column covers.
    pub fn node_count(&self) -> usize {
        self.to.len()
    }

    /// The stored distance `d(v, P)` (infinite when unreachable, NaN when
    /// a partial column does not know it).
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

/// Writes the distances of the nodes a search expands into a partial
/// [`DistanceColumn`]: made by [`DistanceColumn::recorder`].
#[derive(Debug)]
pub struct ColumnRecorder<'c> {
    to: &'c mut Vec<f32>,
    known: &'c mut Vec<NodeId>,
    margin: &'c mut f64,
}

impl Observer for ColumnRecorder<'_> {
    #[inline]
    fn expand(&mut self, node: NodeId, g: f64, _h: f64) {
        let Some(slot) = self.to.get_mut(node.index()) else {
            return;
        };
        let d = store(g);
        if slot.is_nan() {
            self.known.push(node);
        } else if *slot <= d {
            return;
        }
        *slot = d;
        if d.is_finite() {
            *self.margin = self.margin.max(margin_of([[d].as_slice()]));
        }
    }
}
