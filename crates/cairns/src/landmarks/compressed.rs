//! Compressed differential heuristics (Goldenberg, Sturtevant, Felner and
//! Schaeffer, "The compressed differential heuristic", AAAI 2011): each
//! node keeps the distances to only `m` of the `k` landmarks, so more
//! landmarks fit in the same memory.

use super::table::{margin_of_f32, store_f32};
use super::{Directedness, LandmarkTable};
use crate::graph::NodeId;
use crate::heuristic::Heuristic;

/// Which `m` of the `k` landmarks a node keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// The `m` landmarks nearest the node (ties to the lower index).
    /// Nearby nodes keep mostly the same landmarks, so a node and a goal
    /// close to it usually share them; distant pairs may share none.
    Nearest,
    /// Landmarks `(node + j * (k / m)) mod k` for `j` in `0..m`: every
    /// landmark is kept by the same share of nodes, spread evenly.
    RoundRobin,
}

/// Distances to `m` of `k` landmarks per node: a landmark index (`u8`) and
/// an `f32` distance per entry, 5 bytes, against `4 k` bytes per node for a
/// plain [`LandmarkTable`].
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::Octile;
/// use cairns::landmarks::{Directedness, LandmarkTable, Placement, place}; use cairns::landmarks::research::{CompressedHeuristic, CompressedTable, Compression};
/// use cairns::search::{AStar, Dijkstra, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     .........@....
///     .@@@@@@..@.@@.
///     .@.....@.@..@.
///     .@.@@@.@.@@.@.
///     ...@..........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let full = LandmarkTable::build(&graph, &place(&graph, 8, Placement::Farthest { seed: 1 }), Directedness::Symmetric);
/// let table = CompressedTable::new(&full, 2, Compression::Nearest);
/// assert_eq!(table.memory_bytes(), graph.grid().len() * 2 * 5 + 8 * 8 * 4);
/// let h = CompressedHeuristic::new(&table, Octile::new(&graph));
/// let (a, z) = (graph.node(2, 2).unwrap(), graph.node(13, 1).unwrap());
/// let mut cache = SearchCache::new();
/// let cost = AStar::new(&graph, h).search_cost(a, z, &mut cache);
/// assert_eq!(cost, Dijkstra::new(&graph).search_cost(a, z, &mut cache));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CompressedTable {
    /// The landmark nodes, by index.
    landmarks: Vec<NodeId>,
    kept: usize,
    nodes: usize,
    /// `index[node * m + j]`: the landmark of a node's `j`-th entry.
    index: Vec<u8>,
    /// `dist[node * m + j]`: its distance.
    dist: Vec<f32>,
    /// `between[i * k + j]`: the distance between landmarks `i` and `j`.
    between: Vec<f32>,
    /// The rounding margin of the values kept (see
    /// [`LandmarkTable::margin`]): the bounds use no others.
    margin: f64,
}

impl CompressedTable {
    /// The largest number of landmarks a compressed table may have.
    pub const MAX_LANDMARKS: usize = 64;

    /// Keeps `m` of the landmarks of `full` for each node, chosen by `rule`.
    /// Takes `O(V k log k)` time, no search.
    ///
    /// # Panics
    ///
    /// When `full` is [directed](Directedness::Directed), has more than
    /// [`MAX_LANDMARKS`](Self::MAX_LANDMARKS) landmarks, or `m` is 0 or
    /// above its landmark count.
    pub fn new(full: &LandmarkTable, m: usize, rule: Compression) -> CompressedTable {
        let k = full.landmark_count();
        assert_eq!(
            full.directedness(),
            Directedness::Symmetric,
            "compressed tables are for symmetric graphs"
        );
        assert!(
            k <= Self::MAX_LANDMARKS,
            "{k} landmarks, at most 64 allowed"
        );
        assert!((1..=k).contains(&m), "cannot keep {m} of {k} landmarks");
        let n = full.node_count();
        let mut index = Vec::with_capacity(n * m);
        let mut dist = Vec::with_capacity(n * m);
        let mut order: Vec<usize> = Vec::with_capacity(k);
        for v in (0..n as u32).map(NodeId) {
            order.clear();
            match rule {
                Compression::Nearest => {
                    order.extend(0..k);
                    // Stable: ties keep the lower index first.
                    order.sort_by(|&a, &b| {
                        full.to_landmark(v, a).total_cmp(&full.to_landmark(v, b))
                    });
                    order.truncate(m);
                }
                Compression::RoundRobin => {
                    let step = k / m;
                    order.extend((0..m).map(|j| (v.index() + j * step) % k));
                }
            }
            for &l in &order {
                index.push(l as u8);
                dist.push(store_f32(full.to_landmark(v, l)));
            }
        }
        let between = full
            .landmarks()
            .iter()
            .flat_map(|&l| (0..k).map(move |j| store_f32(full.to_landmark(l, j))))
            .collect();
        CompressedTable::from_parts(full.landmarks().to_vec(), m, index, dist, between)
    }

    /// A table from its parts, for [`new`](Self::new) and the file reader,
    /// which have checked the sizes (`dist` and `index` of `n * m` entries,
    /// `between` of `k * k`) and the indices (below `k`).
    pub(super) fn from_parts(
        landmarks: Vec<NodeId>, m: usize, index: Vec<u8>, dist: Vec<f32>, between: Vec<f32>,
    ) -> CompressedTable {
        let k = landmarks.len();
        debug_assert!(m > 0 && index.len() == dist.len() && dist.len().is_multiple_of(m));
        debug_assert_eq!(between.len(), k * k);
        let margin = margin_of_f32([dist.as_slice(), between.as_slice()]);
        CompressedTable {
            landmarks,
            kept: m,
            nodes: dist.len() / m,
            index,
            dist,
            between,
            margin,
        }
    }

    /// The landmark nodes, in the order of the landmark indices of
    /// [`entries`](Self::entries).
    pub fn landmarks(&self) -> &[NodeId] {
        &self.landmarks
    }

    /// The amount every bound is lowered by to stay below the true
    /// distance despite `f32` rounding: `2^-22` times the largest finite
    /// distance kept (see [`LandmarkTable::margin`]).
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// The distances between landmarks, `k * k` of them: entry `i * k + j`
    /// is `d(L_i, L_j)`.
    pub fn between(&self) -> &[f32] {
        &self.between
    }

    /// The number of landmarks, `k`.
    pub fn landmark_count(&self) -> usize {
        self.landmarks.len()
    }

    /// The number of landmarks each node keeps, `m`.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// The number of nodes covered.
    pub fn node_count(&self) -> usize {
        self.nodes
    }

    /// Bytes of storage: 5 per entry, plus the `k * k` distances between
    /// landmarks.
    pub fn memory_bytes(&self) -> usize {
        self.index.len() + (self.dist.len() + self.between.len()) * std::mem::size_of::<f32>()
    }

    /// The entries of `node`: `(landmark index, distance)`.
    ///
    /// # Panics
    ///
    /// When `node` is not in the table.
    pub fn entries(&self, node: NodeId) -> impl Iterator<Item = (usize, f32)> + '_ {
        let r = node.index() * self.kept..(node.index() + 1) * self.kept;
        self.index[r.clone()]
            .iter()
            .zip(&self.dist[r])
            .map(|(&l, &d)| (usize::from(l), d))
    }
}

/// The heuristic of a [`CompressedTable`] combined with a base heuristic,
/// taking the larger estimate.
///
/// For each landmark `L` the node `a` keeps, the goal `z`'s distance
/// `d(z, L)` is known exactly when `z` keeps `L` too; otherwise it is
/// bounded through the landmarks `L'` that `z` keeps, as in Goldenberg et
/// al.: `|d(z, L') - d(L', L)| <= d(z, L) <= d(z, L') + d(L', L)` (the
/// distances between landmarks are kept, `k * k` of them). With those
/// bounds `[lo, hi]`, `d(a, z) >= max(d(a, L) - hi, lo - d(a, L))`; the
/// estimate is the largest such bound less the table's rounding margin.
/// The bounds are computed once per query, in [`Heuristic::goal`], so an
/// estimate costs `O(m)`.
///
/// # Contract
///
/// Admissible on the graph the table was built for, like the full table's
/// bounds of which these are a subset. Not consistent in general: a node and
/// its neighbour may use different landmarks, so A* may reopen nodes
/// (counted in [`SearchStats::reopened`](crate::search::SearchStats)); it
/// still returns shortest paths.
#[derive(Clone, Copy, Debug)]
pub struct CompressedHeuristic<'t, B> {
    table: &'t CompressedTable,
    base: B,
}

/// The goal value of a [`CompressedHeuristic`]: bounds on the goal's
/// distance to every landmark (equal where the goal keeps the landmark).
#[derive(Clone, Copy, Debug)]
pub struct CompressedGoal<G> {
    base: G,
    lo: [f64; CompressedTable::MAX_LANDMARKS],
    hi: [f64; CompressedTable::MAX_LANDMARKS],
}

impl<'t, B: Heuristic> CompressedHeuristic<'t, B> {
    /// The heuristic of `table` with `base`.
    pub fn new(table: &'t CompressedTable, base: B) -> Self {
        CompressedHeuristic { table, base }
    }
}

impl<B: Heuristic> Heuristic for CompressedHeuristic<'_, B> {
    type Goal = CompressedGoal<B::Goal>;

    /// # Panics
    ///
    /// When `goal` is not in the table.
    fn goal(&self, goal: NodeId) -> Self::Goal {
        let t = self.table;
        let k = t.landmark_count();
        // Unknown: no lower bound, no upper bound.
        let mut lo = [0.0; CompressedTable::MAX_LANDMARKS];
        let mut hi = [f64::INFINITY; CompressedTable::MAX_LANDMARKS];
        // The goal's entries, in a fixed array: a query allocates nothing.
        let mut kept = [(0usize, 0f64); CompressedTable::MAX_LANDMARKS];
        let mut known = 0u64;
        for (slot, (l, d)) in kept.iter_mut().zip(t.entries(goal)) {
            let d = f64::from(d);
            *slot = (l, d);
            (lo[l], hi[l]) = (d, d);
            known |= 1 << l;
        }
        let kept = &kept[..t.kept];
        for (l, (lo, hi)) in lo.iter_mut().zip(&mut hi).enumerate().take(k) {
            if known & (1 << l) != 0 {
                continue;
            }
            for &(kl, d) in kept.iter().filter(|(_, d)| d.is_finite()) {
                let between = f64::from(t.between[kl * k + l]);
                if between.is_finite() {
                    *hi = hi.min(d + between);
                    *lo = lo.max((d - between).abs());
                } else {
                    // The goal reaches `kl`, which cannot reach `l`.
                    (*lo, *hi) = (f64::INFINITY, f64::INFINITY);
                    break;
                }
            }
        }
        CompressedGoal {
            base: self.base.goal(goal),
            lo,
            hi,
        }
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &Self::Goal) -> f64 {
        let t = self.table;
        let r = node.index() * t.kept..(node.index() + 1) * t.kept;
        // With `lo == hi` this is `|d(a, L) - d(z, L)|`. NaN (both
        // infinite: no information) is ignored by `max`; an infinite bound
        // proves the goal unreachable.
        let lm = t.index[r.clone()]
            .iter()
            .zip(&t.dist[r])
            .fold(0.0f64, |best, (&l, &d)| {
                let (d, l) = (f64::from(d), usize::from(l));
                best.max(d - goal.hi[l]).max(goal.lo[l] - d)
            });
        if lm == f64::INFINITY {
            return f64::INFINITY;
        }
        let lm = (lm - t.margin).max(0.0);
        self.base.estimate(node, &goal.base).max(lm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, GridGraph, Neighborhood};

    #[test]
    fn rules_keep_the_expected_landmarks() {
        let grid = Grid::from_ascii(
            "
            ..........
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Octile);
        let lms = [NodeId(0), NodeId(9), NodeId(4), NodeId(6)];
        let full = LandmarkTable::build(&g, &lms, Directedness::Symmetric);
        let near = CompressedTable::new(&full, 2, Compression::Nearest);
        let e: Vec<_> = near.entries(NodeId(1)).collect();
        assert_eq!(e, [(0, 1.0), (2, 3.0)]);
        let rr = CompressedTable::new(&full, 2, Compression::RoundRobin);
        let e: Vec<_> = rr.entries(NodeId(1)).map(|e| e.0).collect();
        assert_eq!(e, [1, 3]);
        assert_eq!(rr.memory_bytes(), 10 * 2 * 5 + 4 * 4 * 4);
        // Keeping all is the plain heuristic.
        let all = CompressedTable::new(&full, 4, Compression::Nearest);
        let h = CompressedHeuristic::new(&all, crate::heuristic::Zero);
        assert!((h.estimate(NodeId(2), &h.goal(NodeId(8))) - 6.0).abs() < 1e-5);
    }

    #[test]
    fn a_landmark_the_goal_does_not_keep_is_bounded_through_one_it_does() {
        // A path 0 - 1 - ... - 20 with landmarks at both ends; each node
        // keeps one of them (round robin: even nodes the first).
        let g = crate::graph::testing::corridor(20);
        let full = LandmarkTable::build(&g, &[NodeId(0), NodeId(20)], Directedness::Symmetric);
        let table = CompressedTable::new(&full, 1, Compression::RoundRobin);
        assert_eq!(table.entries(NodeId(2)).next().map(|e| e.0), Some(0));
        assert_eq!(table.entries(NodeId(15)).next().map(|e| e.0), Some(1));
        let h = CompressedHeuristic::new(&table, crate::heuristic::Zero);
        // Node 2 keeps d(2, L0) = 2; the goal 15 keeps only d(15, L1) = 5,
        // and d(L1, L0) = 20 bounds d(15, L0) to [15, 25]: 15 - 2 = 13,
        // the exact distance, where sharing no landmark would give 0.
        let est = h.estimate(NodeId(2), &h.goal(NodeId(15)));
        assert!(est > 13.0 - 1e-4 && est <= 13.0, "{est}");
        // And the other way round.
        let est = h.estimate(NodeId(15), &h.goal(NodeId(2)));
        assert!(est > 13.0 - 1e-4 && est <= 13.0, "{est}");
    }
}
