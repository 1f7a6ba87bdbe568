//! Distance matrices over a contraction hierarchy by the bucket method
//! (Knopp, Schultes, Sanders, Schulz and Wagner, "Computing
//! Many-to-Many Shortest Paths Using Highway Hierarchies", 2007, as
//! applied to contraction hierarchies): one upward search per target
//! leaves its distances in buckets, one upward search per source reads
//! them.

use rayon::prelude::*;

use super::{ChCache, Climb, ContractionHierarchy, NO_PARENT};
use crate::graph::NodeId;

/// Rayon tasks a thread, each with one [`ChCache`] (two arrays of the
/// graph's size, so that more tasks cost more than they share out).
const TASKS_A_THREAD: usize = 4;

/// Searches a task, for `len` searches.
fn per_task(len: usize) -> usize {
    len.div_ceil(TASKS_A_THREAD * rayon::current_num_threads())
        .max(1)
}

/// The costs from each of a list of sources to each of a list of targets,
/// dense and by row (source `i`, target `j` at `i * cols + j`), infinite
/// where there is no path. Built by [`ContractionHierarchy::matrix`] or
/// [`HubLabels::matrix`](super::HubLabels::matrix).
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceMatrix {
    rows: usize,
    cols: usize,
    costs: Vec<f64>,
}

impl DistanceMatrix {
    pub(crate) fn new(rows: usize, cols: usize, costs: Vec<f64>) -> DistanceMatrix {
        debug_assert_eq!(costs.len(), rows * cols);
        DistanceMatrix { rows, cols, costs }
    }

    /// The number of sources.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of targets.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cost from source `row` to target `col`, `None` when there is no
    /// path.
    ///
    /// # Panics
    ///
    /// When `row` or `col` is out of range.
    pub fn get(&self, row: usize, col: usize) -> Option<f64> {
        assert!(
            row < self.rows && col < self.cols,
            "({row}, {col}) is outside the {} x {} matrix",
            self.rows,
            self.cols
        );
        Some(self.costs[row * self.cols + col]).filter(|c| c.is_finite())
    }

    /// The costs from source `row` to every target, infinite for no path.
    ///
    /// # Panics
    ///
    /// When `row` is out of range.
    pub fn row(&self, row: usize) -> &[f64] {
        &self.costs[row * self.cols..(row + 1) * self.cols]
    }

    /// Every cost, by row.
    pub fn as_slice(&self) -> &[f64] {
        &self.costs
    }

    /// Every cost, by row, as an owned vector.
    pub fn into_vec(self) -> Vec<f64> {
        self.costs
    }
}

/// A target's entry in a node's bucket: its column and the distance from
/// the node to it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    col: u32,
    dist: f64,
}

impl ContractionHierarchy {
    /// The costs from every node of `sources` to every node of `targets`
    /// (`None` entries where there is no path or a node is off the graph),
    /// in one pass: an upward search over the reversed edges from each
    /// target leaves `(target, distance)` in a bucket at each node it
    /// settles, then an upward search from each source meets them in the
    /// buckets of the nodes it settles. Both kinds of search run to the
    /// end of their (small) upward search spaces, with stall-on-demand, in
    /// parallel (rayon, four tasks a thread).
    ///
    /// Each entry is what [`search_cost`](Self::search_cost) returns for
    /// the pair, at the cost of one upward search per source and per target
    /// rather than two per pair.
    ///
    /// # Example
    ///
    /// ```
    /// use cairns::graph::{CsrGraph, NodeId};
    /// use cairns::search::ContractionHierarchy;
    ///
    /// let g = CsrGraph::from_edges(3, &[(0, 1, 2.0), (1, 2, 3.0)]).unwrap();
    /// let ch = ContractionHierarchy::build(&g);
    /// let m = ch.matrix(&[NodeId(0), NodeId(2)], &[NodeId(1), NodeId(2)]);
    /// assert_eq!(m.get(0, 1), Some(5.0));
    /// assert_eq!(m.get(1, 0), None); // no way back
    /// assert_eq!(m.row(1), [f64::INFINITY, 0.0]);
    /// ```
    pub fn matrix(&self, sources: &[NodeId], targets: &[NodeId]) -> DistanceMatrix {
        let n = self.node_count();
        let cols = targets.len();
        let rank_of = |v: NodeId| (v.index() < n).then(|| self.rank[v.index()]);
        // Each target's backward search space: (rank, distance) at every
        // node settled and not stalled.
        let spaces: Vec<Vec<(u32, f64)>> = targets
            .par_chunks(per_task(cols))
            .flat_map_iter(|chunk| {
                let mut cache = ChCache::new();
                chunk
                    .iter()
                    .map(|&t| {
                        let mut space = Vec::new();
                        if let Some(r) = rank_of(t) {
                            self.upward(Climb::Backward, r, &mut cache, |r, d| {
                                space.push((r, d));
                            });
                        }
                        space
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        // The buckets in compressed sparse rows, by rank.
        let mut offsets = vec![0u32; n + 1];
        for &(r, _) in spaces.iter().flatten() {
            offsets[r as usize + 1] += 1;
        }
        for r in 0..n {
            offsets[r + 1] += offsets[r];
        }
        let mut fill = offsets.clone();
        let mut buckets = vec![Entry { col: 0, dist: 0.0 }; offsets[n] as usize];
        for (col, space) in spaces.iter().enumerate() {
            for &(r, dist) in space {
                let at = &mut fill[r as usize];
                buckets[*at as usize] = Entry {
                    col: col as u32,
                    dist,
                };
                *at += 1;
            }
        }
        drop(spaces);

        let mut costs = vec![f64::INFINITY; sources.len() * cols];
        if cols > 0 {
            let rows = per_task(sources.len());
            costs
                .par_chunks_mut(cols * rows)
                .zip(sources.par_chunks(rows))
                .for_each(|(rows, chunk)| {
                    let mut cache = ChCache::new();
                    for (row, &s) in rows.chunks_mut(cols).zip(chunk) {
                        let Some(r) = rank_of(s) else { continue };
                        self.upward(Climb::Forward, r, &mut cache, |r, d| {
                            let bucket = &buckets
                                [offsets[r as usize] as usize..offsets[r as usize + 1] as usize];
                            for b in bucket {
                                let c = d + b.dist;
                                let cell = &mut row[b.col as usize];
                                if c < *cell {
                                    *cell = c;
                                }
                            }
                        });
                    }
                });
        }
        DistanceMatrix::new(sources.len(), cols, costs)
    }

    /// The whole upward search from rank `root` that climbs `climb`,
    /// stalling on demand over the edges into each node from above in the
    /// same direction: `visit(rank, distance)` at each node settled and
    /// not stalled, in the order settled. The query's stall rule: a node
    /// that a node above offers a shorter distance lies on no shortest
    /// up-down path.
    fn upward(
        &self, climb: Climb, root: u32, cache: &mut ChCache, mut visit: impl FnMut(u32, f64),
    ) {
        cache.begin(self.node_count());
        let side = &mut cache.forward;
        side.reach(root, 0.0, NO_PARENT, NO_PARENT);
        while let Some((d, r)) = side.pop() {
            let (stall, first, relax) = self.edges.at(r, climb);
            if stall
                .iter()
                .any(|e| side.dist(e.other).is_some_and(|du| du + e.weight < d))
            {
                continue;
            }
            visit(r, d);
            for (id, e) in (first..).zip(relax) {
                side.relax(e.other, d + e.weight, id, r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::graph::CsrGraph;
    use crate::search::bidirectional::testing::directed_graph;
    use crate::search::{ContractionParams, Dijkstra, HubLabels, SearchCache};

    /// The matrix of `sources` x `targets` (off-graph nodes allowed)
    /// against Dijkstra's costs, and the hub labels' matrix equal to it.
    fn check(
        g: &CsrGraph, ch: &ContractionHierarchy, sources: &[NodeId], targets: &[NodeId],
    ) -> Result<(), TestCaseError> {
        let m = ch.matrix(sources, targets);
        prop_assert_eq!((m.rows(), m.cols()), (sources.len(), targets.len()));
        let mut one = SearchCache::new();
        let n = g.node_count();
        for (i, &s) in sources.iter().enumerate() {
            if s.index() < n {
                Dijkstra::new(g).all(s, &mut one);
            }
            for (j, &t) in targets.iter().enumerate() {
                let want = if s.index() < n && t.index() < n {
                    one.g(t)
                } else {
                    None
                };
                prop_assert_eq!(m.get(i, j), want, "{} to {}", s, t);
            }
        }
        prop_assert_eq!(&HubLabels::build(ch).matrix(sources, targets), &m);
        Ok(())
    }

    #[test]
    fn empty_lists_give_empty_matrices() {
        let g = CsrGraph::from_edges(2, &[(0, 1, 1.0)]).unwrap();
        let ch = ContractionHierarchy::build(&g);
        let m = ch.matrix(&[], &[NodeId(0)]);
        assert_eq!((m.rows(), m.cols(), m.as_slice().len()), (0, 1, 0));
        let m = ch.matrix(&[NodeId(0), NodeId(1)], &[]);
        assert_eq!((m.rows(), m.cols()), (2, 0));
        assert!(m.into_vec().is_empty());
    }

    #[test]
    fn bremen_matches_dijkstra() {
        let g = crate::graph::testing::road_graph("fast_paths/bremen_time.gr");
        let ch = ContractionHierarchy::build(&g);
        let mut rng = crate::rng::SplitMix64::new(11);
        let n = g.node_count() as u64;
        // Sources over several rayon tasks, repeats and all.
        let sources: Vec<_> = (0..40).map(|_| NodeId(rng.below(n) as u32)).collect();
        let targets: Vec<_> = (0..300).map(|_| NodeId(rng.below(n) as u32)).collect();
        let m = ch.matrix(&sources, &targets);
        let mut one = SearchCache::new();
        let mut found = 0;
        for (i, &s) in sources.iter().enumerate() {
            Dijkstra::new(&g).all(s, &mut one);
            for (j, &t) in targets.iter().enumerate() {
                assert_eq!(m.get(i, j), one.g(t), "{s} to {t}");
                found += usize::from(m.get(i, j).is_some());
            }
        }
        assert!(found > 6000, "{found} of 12000 connected");
    }

    proptest! {
        #[test]
        fn matches_dijkstra_on_random_directed_graphs(
            g in directed_graph(16),
            picks in prop::collection::vec((0u32..18, 0u32..18), 0..40),
        ) {
            // Sources and targets drawn with repeats, some off the graph.
            let sources: Vec<_> = picks.iter().map(|p| NodeId(p.0)).collect();
            let targets: Vec<_> = picks.iter().rev().map(|p| NodeId(p.1)).collect();
            let all: Vec<_> = (0..g.node_count() as u32).map(NodeId).collect();
            let ch = ContractionHierarchy::build(&g);
            check(&g, &ch, &sources, &targets)?;
            check(&g, &ch, &all, &all)?;
            let tight = ContractionHierarchy::build_with(&g, &ContractionParams {
                estimate_settled: 1,
                contract_settled: 1,
                ..ContractionParams::default()
            });
            check(&g, &tight, &all, &all)?;
        }
    }
}
