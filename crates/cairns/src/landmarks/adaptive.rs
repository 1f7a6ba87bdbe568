//! Landmarks that follow the queries: the least useful one moves to a
//! recent goal.

use super::heuristic::DifferentialHeuristic;
use super::table::LandmarkTable;
use crate::graph::{NodeId, Reversible};
use crate::heuristic::Zero;
use crate::rng::SplitMix64;

/// A [`LandmarkTable`] whose landmarks adapt to the query stream.
///
/// Each landmark earns a point for every query whose `(start, goal)` it
/// bounds best (one `O(k)` evaluation at the start node per query, outside
/// the search loop). After a query, with probability `p` drawn from a
/// seeded generator, the landmark with the fewest points moves to the
/// query's goal and only its column is recomputed
/// ([`LandmarkTable::rebuild`]: one search over the graph, or two for a
/// directed table). The moved landmark starts with the mean of the other
/// landmarks' points, so that it gets a fair trial before it can be the
/// least useful again.
///
/// The idea: a landmark at or near a goal that comes back gives nearly
/// exact bounds (`h(a, z) >= d(a, z) - 2 d(z, L)` on a symmetric graph),
/// and a landmark that never bounds a query best is wasted memory.
///
/// Every state of the table is a valid landmark table, so the heuristic
/// stays admissible across moves; the decisions, and hence the table, are
/// a deterministic function of the seed and the query sequence.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::Octile;
/// use cairns::landmarks::{Directedness, LandmarkTable, Placement, place}; use cairns::landmarks::research::AdaptiveLandmarks;
/// use cairns::search::{AStar, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     ..........
///     .@@@@@@@@.
///     ..........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let table = LandmarkTable::build(&graph, &place(&graph, 2, Placement::Farthest { seed: 1 }), Directedness::Symmetric);
/// let mut adaptive = AdaptiveLandmarks::new(table, 1.0, 7);
/// let mut cache = SearchCache::new();
/// let (s, z) = (graph.node(0, 0).unwrap(), graph.node(4, 2).unwrap());
/// let cost = AStar::new(&graph, adaptive.heuristic(Octile::new(&graph))).search_cost(s, z, &mut cache);
/// assert!(cost.is_some());
/// // With p = 1 the least useful landmark moves to the goal at once.
/// let moved = adaptive.after_query(&graph, s, z).unwrap();
/// assert_eq!(adaptive.table().landmarks()[moved], z);
/// ```
#[derive(Clone, Debug)]
pub struct AdaptiveLandmarks {
    table: LandmarkTable,
    points: Vec<u64>,
    probability: f64,
    rng: SplitMix64,
    moves: u64,
}

impl AdaptiveLandmarks {
    /// Adapts `table`, moving a landmark after a query with probability
    /// `probability`, drawn from a generator seeded with `seed`.
    ///
    /// # Panics
    ///
    /// When `probability` is not in `0.0..=1.0`.
    pub fn new(table: LandmarkTable, probability: f64, seed: u64) -> AdaptiveLandmarks {
        assert!(
            (0.0..=1.0).contains(&probability),
            "probability {probability} is not in 0..=1"
        );
        AdaptiveLandmarks {
            points: vec![0; table.landmark_count()],
            table,
            probability,
            rng: SplitMix64::new(seed),
            moves: 0,
        }
    }

    /// The current table.
    pub fn table(&self) -> &LandmarkTable {
        &self.table
    }

    /// The current table, taken out.
    pub fn into_table(self) -> LandmarkTable {
        self.table
    }

    /// The heuristic of the current table over `base`.
    pub fn heuristic<B: crate::heuristic::Heuristic>(
        &self, base: B,
    ) -> DifferentialHeuristic<'_, B> {
        DifferentialHeuristic::new(&self.table, base)
    }

    /// Each landmark's points: the number of queries it bounded best.
    pub fn points(&self) -> &[u64] {
        &self.points
    }

    /// How many landmarks have moved so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// Gives a point to the landmark that bounds `d(start, goal)` best
    /// (ties to the lowest index) and returns its index; `None` when the
    /// table has no landmarks. `O(k)`.
    ///
    /// # Panics
    ///
    /// When a node is not in the table.
    pub fn record(&mut self, start: NodeId, goal: NodeId) -> Option<usize> {
        if self.table.landmark_count() == 0 {
            return None;
        }
        let h = DifferentialHeuristic::new(&self.table, Zero).with_best(1);
        let best = usize::from(*h.for_query(start, goal).active()?.first()?);
        self.points[best] += 1;
        Some(best)
    }

    /// Call after each query: [`record`](Self::record)s it, then with the
    /// probability moves the landmark with the fewest points (ties to the
    /// lowest index) to `goal` and recomputes its distances on `graph`.
    /// Returns the index of the landmark moved, or `None`: no draw, or
    /// `goal` is already a landmark or has no edge (it would bound
    /// nothing). The random draw happens on every call, so the sequence of
    /// decisions depends only on the seed and the queries.
    ///
    /// # Panics
    ///
    /// When a node is not in the table, or `graph` has another node bound
    /// than the table.
    pub fn after_query<G: Reversible + Sync>(
        &mut self, graph: &G, start: NodeId, goal: NodeId,
    ) -> Option<usize> {
        self.record(start, goal)?;
        // 53 random bits give a uniform draw in [0, 1).
        let draw = (self.rng.next_u64() >> 11) as f64 * f64::powi(2.0, -53);
        if draw >= self.probability
            || self.table.landmarks().contains(&goal)
            || (graph.successors(goal).next().is_none()
                && graph.predecessors(goal).next().is_none())
        {
            return None;
        }
        let least = (0..self.points.len()).min_by_key(|&l| (self.points[l], l))?;
        let others = self.points.len() as u64 - 1;
        let rest: u64 = self.points.iter().sum::<u64>() - self.points[least];
        self.points[least] = rest.checked_div(others).unwrap_or(0);
        self.table.set_landmark(least, goal);
        self.table.rebuild(graph, &[least]);
        self.moves += 1;
        Some(least)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, GridGraph, Neighborhood};
    use crate::heuristic::Octile;
    use crate::landmarks::{Directedness, Placement, place};
    use crate::search::Search;
    use crate::search::{AStar, Dijkstra, SearchCache};

    fn rooms() -> GridGraph {
        let grid = Grid::from_ascii(
            "
            ......@.......@.....
            .@@@@.@.@@@@@.@.@@@.
            .@....@.....@.@...@.
            .@.@@@@@@@@.@.@@@.@.
            .@.........@@.....@.
            .@@@@@@.@@@@@@@@@.@.
            ........@...........
            ",
        )
        .unwrap();
        GridGraph::new(grid, Neighborhood::Octile)
    }

    /// A fixed pseudo-random query stream over the passable cells.
    fn stream(g: &GridGraph, len: usize, seed: u64) -> Vec<(NodeId, NodeId)> {
        crate::grid::random_queries(g, len, seed)
    }

    fn run(g: &GridGraph, p: f64, seed: u64) -> (Vec<NodeId>, Vec<u64>, u64) {
        let table = LandmarkTable::build(
            g,
            &place(g, 4, Placement::Farthest { seed: 3 }),
            Directedness::Symmetric,
        );
        let mut adaptive = AdaptiveLandmarks::new(table, p, seed);
        for (s, z) in stream(g, 60, 11) {
            adaptive.after_query(g, s, z);
        }
        (
            adaptive.table().landmarks().to_vec(),
            adaptive.points().to_vec(),
            adaptive.moves(),
        )
    }

    #[test]
    fn same_seed_same_moves() {
        let g = rooms();
        let a = run(&g, 0.3, 5);
        assert_eq!(a, run(&g, 0.3, 5));
        assert!(a.2 > 0, "p = 0.3 over 60 queries should move something");
        assert_ne!(a.0, run(&g, 0.3, 6).0, "another seed, another history");
        assert_eq!(run(&g, 0.0, 5).2, 0);
    }

    #[test]
    fn stays_admissible_and_exact_after_moves() {
        // After every move the table equals one built from scratch on the
        // new landmarks, and A* with it returns the Dijkstra cost.
        let g = rooms();
        let table = LandmarkTable::build(
            &g,
            &place(&g, 3, Placement::Avoid { seed: 1 }),
            Directedness::Symmetric,
        );
        let mut adaptive = AdaptiveLandmarks::new(table, 0.5, 9);
        let mut cache = SearchCache::new();
        for (s, z) in stream(&g, 80, 2) {
            let h = adaptive.heuristic(Octile::new(&g));
            let got = AStar::new(&g, h).search_cost(s, z, &mut cache);
            let truth = Dijkstra::new(&g).search_cost(s, z, &mut cache);
            match (got, truth) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9, "{s} -> {z}: {a} vs {b}"),
                (a, b) => assert_eq!(a, b, "{s} -> {z}"),
            }
            if adaptive.after_query(&g, s, z).is_some() {
                let fresh =
                    LandmarkTable::build(&g, adaptive.table().landmarks(), Directedness::Symmetric);
                assert_eq!(adaptive.table(), &fresh);
            }
        }
        assert!(adaptive.moves() > 0);
    }

    #[test]
    fn the_least_useful_landmark_moves_to_the_goal() {
        // A corridor 0 - 1 - ... - 9 with landmarks at both ends and one in
        // the middle. Queries 6 -> 9 are bounded exactly by the landmarks
        // at 0 and 9; the middle one (index 1) never wins a point.
        let g = crate::graph::testing::corridor(9);
        let lms = [NodeId(0), NodeId(5), NodeId(9)];
        let table = LandmarkTable::build(&g, &lms, Directedness::Symmetric);
        let mut adaptive = AdaptiveLandmarks::new(table, 0.0, 1);
        for _ in 0..3 {
            assert_eq!(adaptive.after_query(&g, NodeId(6), NodeId(9)), None);
        }
        assert_eq!(adaptive.points(), &[3, 0, 0]);
        let mut adaptive = AdaptiveLandmarks::new(adaptive.into_table(), 1.0, 1);
        adaptive.record(NodeId(6), NodeId(9));
        // The goal 9 is already a landmark: nothing moves.
        assert_eq!(adaptive.after_query(&g, NodeId(6), NodeId(9)), None);
        assert_eq!(adaptive.after_query(&g, NodeId(1), NodeId(7)), Some(1));
        assert_eq!(
            adaptive.table().landmarks(),
            &[NodeId(0), NodeId(7), NodeId(9)]
        );
        assert_eq!(adaptive.table().to_landmark(NodeId(2), 1), 5.0);
        assert_eq!(adaptive.moves(), 1);
    }
}
