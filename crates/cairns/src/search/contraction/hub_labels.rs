//! Hub labels (Delling, Goldberg, Savchenko and Werneck, "Hub Labels:
//! Theory and Practice", 2014) from a contraction hierarchy's order: each
//! node keeps the hubs its upward searches reach at their true distances,
//! and a query merges two sorted lists.

use rayon::prelude::*;

use super::matrix::DistanceMatrix;
use super::{Adjacency, Climb, ContractionHierarchy};
use crate::graph::NodeId;

/// Nodes of one level per rayon task while the labels are built.
const LEVEL_CHUNK: usize = 8;

/// Every node's label in one direction, flat: the label of node `v` is
/// `hubs[offsets[v]..offsets[v + 1]]` (hubs by rank, ascending) with the
/// distances beside them in `dists`.
#[derive(Clone, Debug, Default)]
pub(super) struct Labels {
    pub(super) offsets: Vec<u32>,
    pub(super) hubs: Vec<u32>,
    pub(super) dists: Vec<f64>,
}

impl Labels {
    /// The labels built by rank, laid out by node id.
    fn flatten(by_rank: &[Label], rank: &[u32]) -> Labels {
        let total: usize = by_rank.iter().map(|l| l.hubs.len()).sum();
        assert!(u32::try_from(total).is_ok(), "more than 2^32 label entries");
        let mut out = Labels {
            offsets: Vec::with_capacity(rank.len() + 1),
            hubs: Vec::with_capacity(total),
            dists: Vec::with_capacity(total),
        };
        out.offsets.push(0);
        for &r in rank {
            let l = &by_rank[r as usize];
            out.hubs.extend_from_slice(&l.hubs);
            out.dists.extend_from_slice(&l.dists);
            out.offsets.push(out.hubs.len() as u32);
        }
        out
    }

    #[inline]
    pub(super) fn at(&self, v: usize) -> (&[u32], &[f64]) {
        let range = self.offsets[v] as usize..self.offsets[v + 1] as usize;
        (&self.hubs[range.clone()], &self.dists[range])
    }

    fn bytes(&self) -> usize {
        self.offsets.len() * 4 + self.hubs.len() * 4 + self.dists.len() * 8
    }
}

/// One node's label while the labels are built (by rank).
#[derive(Clone, Debug, Default)]
struct Label {
    hubs: Vec<u32>,
    dists: Vec<f64>,
}

/// The smallest `a[x] + b[x]` over the hubs `x` of both sorted lists,
/// infinite when they share none: the one merge of every hub-label query.
#[inline]
fn meet(a_hubs: &[u32], a_dists: &[f64], b_hubs: &[u32], b_dists: &[f64]) -> f64 {
    // Distances as long as their hubs, so that one bound check covers both.
    let (a_dists, b_dists) = (&a_dists[..a_hubs.len()], &b_dists[..b_hubs.len()]);
    let (mut i, mut j) = (0, 0);
    let mut best = f64::INFINITY;
    while i < a_hubs.len() && j < b_hubs.len() {
        let (x, y) = (a_hubs[i], b_hubs[j]);
        if x == y {
            let through = a_dists[i] + b_dists[j];
            if through < best {
                best = through;
            }
        }
        // Both step on a shared hub; otherwise the smaller one does, with
        // no branch to mispredict.
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    best
}

/// A node's candidate hubs while its label is built: `(rank, distance)`
/// pairs, then the same sorted and without repeats in two columns.
#[derive(Debug, Default)]
struct Scratch {
    pairs: Vec<(u32, f64)>,
    hubs: Vec<u32>,
    dists: Vec<f64>,
}

/// The label of rank `r` in one direction: `climb` is that direction's
/// way up `edges`, `same` the labels of that direction and `other` those of
/// the opposite one, both final at every rank above `r` that `r` reaches.
///
/// The candidates are `r` itself and each upward neighbour's label
/// shifted by the edge's weight, the cheapest kept for each hub: every hub
/// of `r`'s upward search whose distance there is the true one is among
/// them at that distance (its upward path leaves `r` by some edge, and the
/// rest is a true distance of the neighbour, which kept it). A candidate
/// `(h, d)` is dropped when a query on the candidates and `h`'s opposite
/// label (final: `h` ranks above `r`) finds a shorter path: then `d` is not
/// the true distance. What stays is exactly the hubs of the upward search
/// at their true distances.
fn label(
    r: u32, edges: &Adjacency, climb: Climb, same: &[Label], other: &[Label], scratch: &mut Scratch,
) -> Label {
    let Scratch { pairs, hubs, dists } = scratch;
    pairs.clear();
    for (_, e) in edges.climbing(r, climb) {
        let l = &same[e.other as usize];
        pairs.extend(
            l.hubs
                .iter()
                .zip(&l.dists)
                .map(|(&h, &d)| (h, e.weight + d)),
        );
    }
    // By hub, then by distance, so that the first of each hub is its
    // cheapest. Every neighbour's hub ranks above `r`.
    pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    pairs.dedup_by_key(|p| p.0);
    hubs.clear();
    dists.clear();
    hubs.push(r);
    dists.push(0.0);
    hubs.extend(pairs.iter().map(|p| p.0));
    dists.extend(pairs.iter().map(|p| p.1));

    let mut out = Label {
        hubs: Vec::with_capacity(hubs.len()),
        dists: Vec::with_capacity(hubs.len()),
    };
    out.hubs.push(r);
    out.dists.push(0.0);
    for i in 1..hubs.len() {
        let (h, d) = (hubs[i], dists[i]);
        // The hubs below `h` are not in `h`'s label (it holds `h` and hubs
        // above), and `h` itself offers `d`: the rest decides.
        let o = &other[h as usize];
        if meet(&hubs[i + 1..], &dists[i + 1..], &o.hubs[1..], &o.dists[1..]) >= d {
            out.hubs.push(h);
            out.dists.push(d);
        }
    }
    out
}

/// Hub labels over a [`ContractionHierarchy`]'s order: each node has a
/// forward label (hubs it reaches, with the distances to them) and a
/// backward label (hubs that reach it, with the distances from them), so
/// that a shortest path's cost is the smallest forward plus backward
/// distance over the hubs the two labels share. A query reads two short
/// sorted lists and settles nothing: it answers in 2 to 7 percent of a
/// hierarchy query's time on road graphs, for labels that take several
/// times the hierarchy's memory.
///
/// # How they are built
///
/// The "hierarchical hub labeling" of Delling, Goldberg, Savchenko and
/// Werneck: the forward label of `v` holds the nodes that `v`'s upward
/// search in the hierarchy reaches, at the distances it reaches them, less
/// every entry whose distance is not the true one (a query on the labels
/// already built finds a shorter path); the backward label the same over
/// the reversed edges. Nodes are labelled from the highest rank down, each
/// label from its upward neighbours' labels (which are final by then), so
/// no search runs. The nodes whose upward neighbours all have labels (one
/// level of the hierarchy) are labelled in parallel (rayon). Hubs are
/// stored as ranks, ascending, in one flat array per direction.
///
/// # Contract
///
/// The hierarchy's: non-negative edge costs. Costs are sums of the edge
/// costs in another order than Dijkstra's, so equal to the last bit only
/// where such sums are exact (integer costs, as road graphs have).
///
/// # Complexity
///
/// A query is linear in the two labels' sizes (30 to 55 hubs on average
/// on the city road graphs of `docs/roads.md`). Memory is 12 bytes a hub
/// per direction, six to eight times the hierarchy's there.
///
/// # Example
///
/// ```
/// use cairns::graph::{CsrGraph, NodeId};
/// use cairns::search::{ContractionHierarchy, HubLabels};
///
/// // 0 -> 1 -> 2 -> 3, and 3 -> 0 dearer than the way round.
/// let g = CsrGraph::from_edges(4, &[(0, 1, 1.0), (1, 2, 2.0), (2, 3, 3.0), (3, 0, 1.0)]).unwrap();
/// let labels = HubLabels::build(&ContractionHierarchy::build(&g));
/// assert_eq!(labels.cost(NodeId(0), NodeId(3)), Some(6.0));
/// assert_eq!(labels.cost(NodeId(3), NodeId(2)), Some(4.0));
/// assert_eq!(labels.cost(NodeId(2), NodeId(2)), Some(0.0));
/// assert_eq!(labels.cost(NodeId(0), NodeId(9)), None); // off the graph
/// ```
#[derive(Clone, Debug)]
pub struct HubLabels {
    pub(super) forward: Labels,
    pub(super) backward: Labels,
}

impl HubLabels {
    /// The labels of every node of `ch`'s graph.
    pub fn build(ch: &ContractionHierarchy) -> HubLabels {
        let n = ch.node_count();
        // A node's level: one more than the highest level among the nodes
        // its upward edges (either direction) reach, 0 at the top. Every
        // hub of a node's labels has a smaller level, so one level's nodes
        // can be labelled together.
        let mut level = vec![0u32; n];
        for r in (0..n).rev() {
            let (down, up) = ch.edges.ranges(r as u32);
            level[r] = ch.edges.edges[down.start as usize..up.end as usize]
                .iter()
                .map(|e| level[e.other as usize] + 1)
                .max()
                .unwrap_or(0);
        }
        let mut by_level: Vec<u32> = (0..n as u32).collect();
        by_level.sort_by_key(|&r| level[r as usize]);

        let mut forward = vec![Label::default(); n];
        let mut backward = vec![Label::default(); n];
        for ranks in by_level.chunk_by(|a, b| level[*a as usize] == level[*b as usize]) {
            let made: Vec<(Label, Label)> = ranks
                .par_iter()
                .with_min_len(LEVEL_CHUNK)
                .map_init(Scratch::default, |scratch, &r| {
                    (
                        label(r, &ch.edges, Climb::Forward, &forward, &backward, scratch),
                        label(r, &ch.edges, Climb::Backward, &backward, &forward, scratch),
                    )
                })
                .collect();
            for (&r, (f, b)) in ranks.iter().zip(made) {
                forward[r as usize] = f;
                backward[r as usize] = b;
            }
        }
        HubLabels {
            forward: Labels::flatten(&forward, &ch.rank),
            backward: Labels::flatten(&backward, &ch.rank),
        }
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.forward.offsets.len().saturating_sub(1)
    }

    /// The cost of a shortest path from `start` to `goal`, or `None` when
    /// there is none or either is off the graph.
    #[inline]
    pub fn cost(&self, start: NodeId, goal: NodeId) -> Option<f64> {
        let n = self.node_count();
        if start.index() >= n || goal.index() >= n {
            return None;
        }
        let (fh, fd) = self.forward.at(start.index());
        let (bh, bd) = self.backward.at(goal.index());
        Some(meet(fh, fd, bh, bd)).filter(|c| c.is_finite())
    }

    /// The costs from every source to every target (sources by row), as
    /// [`ContractionHierarchy::matrix`] gives them but by a label query per
    /// entry, rows in parallel (rayon).
    pub fn matrix(&self, sources: &[NodeId], targets: &[NodeId]) -> DistanceMatrix {
        let cols = targets.len();
        let mut costs = vec![f64::INFINITY; sources.len() * cols];
        if cols > 0 {
            costs
                .par_chunks_mut(cols)
                .zip(sources)
                .for_each(|(row, &s)| {
                    for (c, &t) in row.iter_mut().zip(targets) {
                        *c = self.cost(s, t).unwrap_or(f64::INFINITY);
                    }
                });
        }
        DistanceMatrix::new(sources.len(), cols, costs)
    }

    /// The hubs of all labels, forward and backward.
    pub fn entry_count(&self) -> usize {
        self.forward.hubs.len() + self.backward.hubs.len()
    }

    /// The mean number of hubs in a label (forward and backward labels
    /// together); 0 without nodes.
    pub fn average_label_size(&self) -> f64 {
        let n = self.node_count();
        if n == 0 {
            0.0
        } else {
            self.entry_count() as f64 / (2 * n) as f64
        }
    }

    /// The bytes the labels' arrays hold.
    pub fn memory_bytes(&self) -> usize {
        self.forward.bytes() + self.backward.bytes()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::graph::CsrGraph;
    use crate::search::bidirectional::testing::directed_graph;
    use crate::search::{ContractionParams, Dijkstra, SearchCache};

    /// Every pair's cost against Dijkstra's, and every label sorted by
    /// rank with the node itself first.
    fn check_all_pairs(g: &CsrGraph, labels: &HubLabels) -> Result<(), TestCaseError> {
        let n = g.node_count() as u32;
        prop_assert_eq!(labels.node_count(), n as usize);
        for side in [&labels.forward, &labels.backward] {
            for v in 0..n as usize {
                let (hubs, _) = side.at(v);
                prop_assert!(hubs.windows(2).all(|w| w[0] < w[1]), "{}: {:?}", v, hubs);
            }
        }
        let mut one = SearchCache::new();
        for s in 0..n {
            Dijkstra::new(g).all(NodeId(s), &mut one);
            for t in 0..n {
                let got = labels.cost(NodeId(s), NodeId(t));
                prop_assert_eq!(got, one.g(NodeId(t)), "{} to {}", s, t);
            }
        }
        prop_assert_eq!(labels.cost(NodeId(n), NodeId(0)), None);
        prop_assert_eq!(labels.cost(NodeId(0), NodeId(n)), None);
        Ok(())
    }

    /// Every hub of every label at its true distance (what pruning
    /// promises), by all-pairs Dijkstra.
    fn check_true_distances(
        g: &CsrGraph, ch: &ContractionHierarchy, labels: &HubLabels,
    ) -> Result<(), TestCaseError> {
        let n = g.node_count();
        let mut node_of = vec![0u32; n];
        for v in 0..n as u32 {
            node_of[ch.rank(NodeId(v)).unwrap() as usize] = v;
        }
        let mut one = SearchCache::new();
        let dist: Vec<Vec<Option<f64>>> = (0..n as u32)
            .map(|s| {
                Dijkstra::new(g).all(NodeId(s), &mut one);
                (0..n as u32).map(|t| one.g(NodeId(t))).collect()
            })
            .collect();
        for (v, from_v) in dist.iter().enumerate() {
            let (hubs, dists) = labels.forward.at(v);
            for (&h, &d) in hubs.iter().zip(dists) {
                let h = node_of[h as usize] as usize;
                prop_assert_eq!(Some(d), from_v[h], "forward {} hub {}", v, h);
            }
            let (hubs, dists) = labels.backward.at(v);
            for (&h, &d) in hubs.iter().zip(dists) {
                let h = node_of[h as usize] as usize;
                prop_assert_eq!(Some(d), dist[h][v], "backward {} hub {}", v, h);
            }
        }
        Ok(())
    }

    #[test]
    fn labels_are_pruned_to_true_distances() {
        // A line 0 - 1 - ... - 30, each way: the upward searches reach
        // hubs along dear detours too, which pruning drops.
        let edges: Vec<_> = (0..30).map(|i| (i, i + 1, f64::from(1 + i % 3))).collect();
        let g = CsrGraph::from_undirected_edges(31, &edges).unwrap();
        let ch = ContractionHierarchy::build(&g);
        let labels = HubLabels::build(&ch);
        check_all_pairs(&g, &labels).unwrap();
        check_true_distances(&g, &ch, &labels).unwrap();
        assert!(labels.average_label_size() < 31.0);
        assert_eq!(
            labels.memory_bytes(),
            2 * 32 * 4 + labels.entry_count() * 12
        );
    }

    #[test]
    fn an_empty_graph_has_empty_labels() {
        let g = CsrGraph::from_edges(0, &[]).unwrap();
        let labels = HubLabels::build(&ContractionHierarchy::build(&g));
        assert_eq!(labels.node_count(), 0);
        assert_eq!(labels.average_label_size(), 0.0);
        assert_eq!(labels.cost(NodeId(0), NodeId(0)), None);
        assert_eq!(labels.matrix(&[NodeId(0)], &[]).cols(), 0);
    }

    #[test]
    fn bremen_matches_dijkstra() {
        for file in ["fast_paths/bremen_dist.gr", "fast_paths/bremen_time.gr"] {
            let g = crate::graph::testing::road_graph(file);
            let labels = HubLabels::build(&ContractionHierarchy::build(&g));
            let mut rng = crate::rng::SplitMix64::new(7);
            let mut one = SearchCache::new();
            let n = g.node_count() as u64;
            let mut found = 0;
            for _ in 0..20 {
                let s = NodeId(rng.below(n) as u32);
                Dijkstra::new(&g).all(s, &mut one);
                for _ in 0..50 {
                    let t = NodeId(rng.below(n) as u32);
                    let got = labels.cost(s, t);
                    assert_eq!(got, one.g(t), "{file}: {s} to {t}");
                    found += usize::from(got.is_some());
                }
            }
            assert!(found > 500, "{file}: {found} of 1000 connected");
            // Labels a small part of the graph.
            assert!(labels.average_label_size() < 400.0, "{file}");
        }
    }

    proptest! {
        #[test]
        fn matches_dijkstra_on_random_directed_graphs(g in directed_graph(16)) {
            let ch = ContractionHierarchy::build(&g);
            let labels = HubLabels::build(&ch);
            check_all_pairs(&g, &labels)?;
            check_true_distances(&g, &ch, &labels)?;
            // A hierarchy with every shortcut a witness could have spared:
            // more candidates, the same labels' costs.
            let tight = ContractionHierarchy::build_with(&g, &ContractionParams {
                estimate_settled: 1,
                contract_settled: 1,
                ..ContractionParams::default()
            });
            let labels = HubLabels::build(&tight);
            check_all_pairs(&g, &labels)?;
            check_true_distances(&g, &tight, &labels)?;
        }
    }
}
