//! Contraction hierarchies (Geisberger, Sanders, Schultes and Delling
//! 2008): the nodes put in an order, each contracted in turn with
//! shortcuts between its neighbours where it lay on their only shortest
//! path; a query is two upward searches that meet at the highest node of a
//! shortest path.

mod build;
mod file;
mod hub_labels;
mod matrix;
mod unpack;

pub use build::ContractionParams;
pub use hub_labels::HubLabels;
pub use matrix::DistanceMatrix;
use unpack::Unpacked;

use super::Path;
use super::lazy_heap::LazyHeap;
use crate::graph::{NodeId, Reversible};

/// The middle of an edge that is not a shortcut.
const NO_MIDDLE: u32 = u32::MAX;

/// An edge of the hierarchy's [`Adjacency`]: the other end (by rank) and
/// the weight, 12 bytes (packed to 4-byte alignment, so that a query's
/// scans read a quarter less memory than with 16). Its id, in the
/// hierarchy's [`Packed`] table, is its position in the adjacency.
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(4))]
struct UpEdge {
    weight: f64,
    other: u32,
}

/// The way a search of the hierarchy climbs: along the graph's edges (up
/// from a query's start) or against them (up from its goal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Climb {
    Forward,
    Backward,
}

/// Each rank's edges to and from the ranks above it, in one array: at
/// each rank its *downward* edges first (those from a rank above, `other`
/// the tail), then its *upward* ones (to a rank above, `other` the head).
/// A settled node's stall check reads one of the two runs and its
/// relaxation the other, so a query reads one region of memory a node.
/// An edge's id is its position.
#[derive(Clone, Debug)]
struct Adjacency {
    /// At `2r` the start of rank `r`'s downward edges, at `2r + 1` the
    /// start of its upward ones, at `2r + 2` their end.
    bounds: Vec<u32>,
    edges: Vec<UpEdge>,
}

impl Adjacency {
    /// The ids of rank `r`'s downward edges and of its upward ones.
    #[inline]
    fn ranges(&self, r: u32) -> (std::ops::Range<u32>, std::ops::Range<u32>) {
        let at = 2 * r as usize;
        let b = &self.bounds[at..at + 3];
        (b[0]..b[1], b[1]..b[2])
    }

    /// The edges of a search that climbs `climb`, at rank `r`: those a
    /// rank above offers `r` a distance along (its stall check), and the
    /// first id and edges of those to the ranks above (it relaxes).
    #[inline]
    fn at(&self, r: u32, climb: Climb) -> (&[UpEdge], u32, &[UpEdge]) {
        let (down, up) = self.ranges(r);
        let slice = |ids: &std::ops::Range<u32>| &self.edges[ids.start as usize..ids.end as usize];
        match climb {
            Climb::Forward => (slice(&down), up.start, slice(&up)),
            Climb::Backward => (slice(&up), down.start, slice(&down)),
        }
    }

    /// The edges from rank `r` to the ranks above in a search that climbs
    /// `climb`, with their ids.
    #[inline]
    fn climbing(&self, r: u32, climb: Climb) -> impl Iterator<Item = (u32, UpEdge)> + '_ {
        let (_, first, edges) = self.at(r, climb);
        (first..).zip(edges.iter().copied())
    }

    /// An adjacency of no ranks yet, with room for `ranks` and `edges`,
    /// filled by [`push`](Self::push) and [`end_run`](Self::end_run).
    fn with_capacity(ranks: usize, edges: usize) -> Adjacency {
        let mut bounds = Vec::with_capacity(2 * ranks + 1);
        bounds.push(0);
        Adjacency {
            bounds,
            edges: Vec::with_capacity(edges),
        }
    }

    /// Adds `edge` at rank `r` to the run being filled (`r`'s downward
    /// run, then its upward one: `upward` says which), and its entry, with
    /// the ids of its two halves (or [`NO_MIDDLE`] twice), to `packed`.
    fn push(
        &mut self, packed: &mut Vec<Packed>, r: u32, upward: bool, edge: UpEdge,
        (first, second): (u32, u32),
    ) {
        let other = edge.other;
        let (tail, head) = if upward { (r, other) } else { (other, r) };
        packed.push(Packed {
            tail,
            head,
            first,
            second,
        });
        self.edges.push(edge);
    }

    /// Ends the run being filled: the next edges go in the next run.
    fn end_run(&mut self) {
        self.bounds.push(self.edges.len() as u32);
    }

    /// The number of ranks.
    fn ranks(&self) -> usize {
        self.bounds.len() / 2
    }

    fn bytes(&self) -> usize {
        self.bounds.len() * 4 + self.edges.len() * std::mem::size_of::<UpEdge>()
    }
}

/// An edge of the hierarchy as the graph's direction has it, `tail ->
/// head` (by rank), and, for a shortcut, the ids of the two edges it
/// stands for (`tail -> middle`, `middle -> head`); [`NO_MIDDLE`] for an
/// edge of the graph. Unpacking a path follows these ids alone.
#[derive(Clone, Copy, Debug)]
struct Packed {
    tail: u32,
    head: u32,
    first: u32,
    second: u32,
}

/// A contraction hierarchy of a directed graph: every node has a rank, and
/// each edge of the graph, or shortcut standing for a path, runs up (to a
/// higher rank) or down. Every shortest path of the graph has a shortest
/// path of the same cost that runs up and then down, so a query searches
/// up from the start and up the reversed edges from the goal.
///
/// Built once by [`ContractionHierarchy::build`] (seconds on a city's road
/// network), queried with [`ContractionHierarchy::search_cost`] and a
/// reusable [`ChCache`].
///
/// # How it is built
///
/// Nodes are contracted one at a time, in the order of a priority: twice
/// the *edge difference* (the shortcuts that contracting the node would
/// add, less the edges it removes), plus the number of its neighbours
/// already contracted, plus its depth (one more than its deepest contracted
/// neighbour's), and, when their weights are set, the edge and hop
/// quotients of Dibbelt, Strasser and Wagner's order; see
/// [`ContractionParams`]. Priorities are updated lazily
/// (a node taken from the queue is priced again and goes back if another
/// is now cheaper) and at the neighbours of each node contracted.
/// Contracting `v` adds a shortcut `u -> w` for each in-neighbour `u` and
/// out-neighbour `w` unless a *witness search* (Dijkstra from `u` that
/// avoids `v`, stopped after a number of settled nodes) finds a path no
/// longer than `u -> v -> w`. A shortcut remembers `v`, its middle node,
/// so that paths unpack to the graph's edges. Self-loops are dropped and
/// parallel edges keep the cheapest.
///
/// # Queries
///
/// Two Dijkstra searches, up from the start and up the reversed edges from
/// the goal, each stopped when its smallest key reaches the best path
/// found; a node is *stalled on demand* (settled but not expanded) when a
/// node above it already offers it a shorter distance, as such a node lies
/// on no shortest up-down path. The nodes are stored in rank order, so the
/// few hundred nodes a query settles lie close together in memory. Each
/// edge's path in the graph is listed once when the hierarchy is built or
/// loaded (three to five nodes an edge on road graphs), so a query's path
/// is copied from its edges' lists rather than unpacked shortcut by
/// shortcut.
///
/// # Contract
///
/// Non-negative edge costs (as [`Graph`](crate::graph::Graph) promises).
///
/// # Example
///
/// ```
/// use cairns::graph::{CsrGraph, NodeId};
/// use cairns::search::{ChCache, ContractionHierarchy};
///
/// let g = CsrGraph::from_undirected_edges(5, &[(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0), (3, 4, 1.0), (0, 4, 9.0)])
///     .unwrap();
/// let ch = ContractionHierarchy::build(&g);
/// let mut cache = ChCache::new();
/// assert_eq!(ch.search_cost(NodeId(0), NodeId(4), &mut cache), Some(4.0));
/// let path = ch.search(NodeId(4), NodeId(1), &mut cache).unwrap();
/// assert_eq!(path.nodes, [4, 3, 2, 1].map(NodeId));
/// ```
#[derive(Clone, Debug)]
pub struct ContractionHierarchy {
    /// Node id to rank (its position in the contraction order).
    rank: Vec<u32>,
    /// Rank to node id.
    node_of: Vec<u32>,
    /// At each rank, the edges from and to higher ranks.
    edges: Adjacency,
    /// Every edge of `edges` by id.
    packed: Vec<Packed>,
    /// Each edge's path in the graph, for unpacking a query's path without
    /// walking the shortcuts' halves.
    unpacked: Unpacked,
    shortcuts: usize,
}

impl ContractionHierarchy {
    /// Builds the hierarchy of `graph` with the default
    /// [`ContractionParams`].
    pub fn build<G: Reversible + ?Sized>(graph: &G) -> ContractionHierarchy {
        build::build(graph, &ContractionParams::default())
    }

    /// Builds the hierarchy of `graph` with the given parameters.
    pub fn build_with<G: Reversible + ?Sized>(
        graph: &G, params: &ContractionParams,
    ) -> ContractionHierarchy {
        build::build(graph, params)
    }

    /// The nodes the last query on `cache` (a query of this hierarchy)
    /// reached in its two upward searches, in id order: its search space,
    /// for drawing.
    pub fn reached_nodes(&self, cache: &ChCache) -> Vec<NodeId> {
        let mut nodes: Vec<NodeId> = cache
            .reached_ranks()
            .into_iter()
            .filter_map(|r| self.node_of.get(r as usize).map(|&v| NodeId(v)))
            .collect();
        nodes.sort_unstable();
        nodes
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.rank.len()
    }

    /// The number of shortcuts added while contracting (some may have
    /// replaced an edge of the graph that cost more).
    pub fn shortcut_count(&self) -> usize {
        self.shortcuts
    }

    /// The number of edges of the hierarchy, upward and downward (each
    /// edge of the graph and shortcut once, parallel edges merged,
    /// self-loops dropped).
    pub fn edge_count(&self) -> usize {
        self.packed.len()
    }

    /// The rank of `node` in the contraction order (0 contracted first).
    pub fn rank(&self, node: NodeId) -> Option<u32> {
        self.rank.get(node.index()).copied()
    }

    /// The bytes the hierarchy's arrays hold.
    pub fn memory_bytes(&self) -> usize {
        self.rank.len() * 8
            + self.edges.bytes()
            + self.packed.len() * std::mem::size_of::<Packed>()
            + self.unpacked.bytes()
    }

    /// The cost of a shortest path from `start` to `goal`, or `None` when
    /// there is none or either is off the graph. The path stays in the
    /// cache for [`path_into`](Self::path_into).
    #[expect(
        clippy::many_single_char_names,
        reason = "the two searches' ends and nodes, as the papers name them"
    )]
    pub fn search_cost(&self, start: NodeId, goal: NodeId, cache: &mut ChCache) -> Option<f64> {
        let n = self.rank.len();
        cache.begin(n);
        if start.index() >= n || goal.index() >= n {
            return None;
        }
        let (s, t) = (self.rank[start.index()], self.rank[goal.index()]);
        let ChCache {
            forward,
            backward,
            meet,
            settled,
            ..
        } = cache;
        forward.reach(s, 0.0, NO_PARENT, NO_PARENT);
        backward.reach(t, 0.0, NO_PARENT, NO_PARENT);
        let mut mu = f64::INFINITY;
        let (mut forward_done, mut backward_done) = (false, false);
        let mut count = 0u64;
        while !(forward_done && backward_done) {
            // The side whose top is smaller, while both go on.
            let forward_turn =
                !forward_done && (backward_done || forward.top_key() <= backward.top_key());
            let (this, other, climb, done) = if forward_turn {
                (&mut *forward, &*backward, Climb::Forward, &mut forward_done)
            } else {
                (
                    &mut *backward,
                    &*forward,
                    Climb::Backward,
                    &mut backward_done,
                )
            };
            let Some((d, r)) = this.pop() else {
                *done = true;
                continue;
            };
            if d >= mu {
                *done = true;
                continue;
            }
            count += 1;
            if let Some(od) = other.dist(r)
                && d + od < mu
            {
                mu = d + od;
                *meet = r;
            }
            // Stall on demand: a node above offers `r` a shorter distance
            // along an edge down to it, so no shortest up-down path passes
            // through `r` upwards.
            let (stall, first, relax) = self.edges.at(r, climb);
            if stall
                .iter()
                .any(|e| this.dist(e.other).is_some_and(|du| du + e.weight < d))
            {
                continue;
            }
            for (id, e) in (first..).zip(relax) {
                let nd = d + e.weight;
                // Nothing at or above the best path found can improve it.
                if nd < mu {
                    this.relax(e.other, nd, id, r);
                }
            }
        }
        *settled = count;
        let cost = Some(mu).filter(|m| m.is_finite());
        cache.cost = cost;
        cost
    }

    /// A shortest path from `start` to `goal` as a new [`Path`] of the
    /// graph's nodes.
    pub fn search(&self, start: NodeId, goal: NodeId, cache: &mut ChCache) -> Option<Path> {
        let cost = self.search_cost(start, goal, cache)?;
        let mut nodes = Vec::new();
        self.path_into(cache, &mut nodes);
        Some(Path { nodes, cost })
    }

    /// Writes the path of the last query in `cache` (start first, in the
    /// graph's nodes, every shortcut unpacked) into `out`, cleared first;
    /// `false` with `out` empty when that query found no path. Reuses the
    /// memory of `out` and of the cache.
    pub fn path_into(&self, cache: &mut ChCache, out: &mut Vec<NodeId>) -> bool {
        out.clear();
        if cache.cost.is_none() {
            return false;
        }
        // The edges of the up path from the start to the meeting node,
        // then those of the down path to the goal, by id.
        let ChCache {
            forward,
            backward,
            meet,
            ranks: ids,
            stack,
            ..
        } = cache;
        ids.clear();
        let first = forward.path_edges(*meet, ids);
        ids.reverse();
        backward.path_edges(*meet, ids);
        out.push(NodeId(self.node_of[first as usize]));
        for &id in ids.iter() {
            if let Some(nodes) = self.unpacked.nodes(id) {
                out.extend(nodes.iter().map(|&v| NodeId(v)));
                continue;
            }
            stack.clear();
            stack.push(id);
            while let Some(e) = stack.pop() {
                let p = self.packed[e as usize];
                if p.first == NO_MIDDLE {
                    out.push(NodeId(self.node_of[p.head as usize]));
                } else {
                    // tail -> middle first: pushed last.
                    stack.push(p.second);
                    stack.push(p.first);
                }
            }
        }
        true
    }
}

/// No parent: the root of a side.
const NO_PARENT: u32 = u32::MAX;

/// What one side of a query knows about a node it reached: its distance,
/// the edge (by id) that reached it and that edge's other end (the rank
/// below it on the side's path, so that a path is read from the labels
/// alone; 16 bytes with or without it).
#[derive(Clone, Copy, Debug)]
struct Label {
    dist: f64,
    edge: u32,
    parent: u32,
}

/// One side of a query: labels by rank, valid where the side's bit of
/// the rank is set, and a heap of `(distance, rank)` with lazy deletion.
///
/// The bits (one per rank, a few kilobytes for a city) stay in the
/// nearest cache where the labels do not: most edges a query scans while
/// stalling lead to nodes the side never reached, which a bit answers
/// without reading a label.
#[derive(Clone, Debug, Default)]
struct ChSide {
    labels: Vec<Label>,
    reached: Vec<u64>,
    /// The ranks whose bits are set, to clear them before the next query.
    touched: Vec<u32>,
    heap: LazyHeap,
}

impl ChSide {
    /// Ready for a query of a hierarchy of `n` nodes: no rank reached.
    fn begin(&mut self, n: usize) {
        if self.labels.len() < n {
            self.labels.resize(
                n,
                Label {
                    dist: f64::INFINITY,
                    edge: NO_PARENT,
                    parent: NO_PARENT,
                },
            );
            self.reached.resize(n.div_ceil(64), 0);
        }
        for &r in &self.touched {
            self.reached[r as usize / 64] = 0;
        }
        self.touched.clear();
        self.heap.clear();
    }

    #[inline]
    fn is_reached(&self, r: u32) -> bool {
        self.reached[r as usize / 64] & (1 << (r % 64)) != 0
    }

    #[inline]
    fn dist(&self, r: u32) -> Option<f64> {
        self.is_reached(r).then(|| self.labels[r as usize].dist)
    }

    #[inline]
    fn reach(&mut self, r: u32, dist: f64, edge: u32, parent: u32) {
        let word = &mut self.reached[r as usize / 64];
        if *word & (1 << (r % 64)) == 0 {
            *word |= 1 << (r % 64);
            self.touched.push(r);
        }
        self.labels[r as usize] = Label { dist, edge, parent };
        // `+ 0.0`: -0.0 (a weight "-0") as 0.0, whose bits order.
        self.heap.push((dist + 0.0).to_bits(), r);
    }

    #[inline]
    fn relax(&mut self, r: u32, dist: f64, edge: u32, parent: u32) {
        if !self.is_reached(r) || dist < self.labels[r as usize].dist {
            self.reach(r, dist, edge, parent);
        }
    }

    /// Pushes onto `ids` the edges of the side's path to `r`, from `r`
    /// back to the side's root, and returns the root.
    fn path_edges(&self, r: u32, ids: &mut Vec<u32>) -> u32 {
        let mut at = r;
        loop {
            let l = self.labels[at as usize];
            if l.edge == NO_PARENT {
                return at;
            }
            ids.push(l.edge);
            at = l.parent;
        }
    }

    /// The smallest key on the heap (stale entries included: they only
    /// make a side look further along than it is), infinite when empty.
    #[inline]
    fn top_key(&self) -> u64 {
        self.heap.min_key().unwrap_or(u64::MAX)
    }

    /// The next node settled and its distance, stale entries skipped
    /// (every entry is of a node reached this query).
    #[inline]
    fn pop(&mut self) -> Option<(f64, u32)> {
        while let Some((k, r)) = self.heap.pop() {
            let d = f64::from_bits(k);
            if d == self.labels[r as usize].dist {
                return Some((d, r));
            }
        }
        None
    }
}

/// The memory of [`ContractionHierarchy`] queries, reused from one query to
/// the next: both sides' labels (with a bit per rank for the ranks
/// reached, cleared at the next query by the list of those set) and heaps,
/// and the unpacking's buffers. After the first query
/// on a hierarchy, later ones of no more nodes allocate nothing but what
/// their heaps outgrow.
///
/// Its own type rather than a [`BiCache`](super::BiCache): a query settles
/// a few hundred nodes, for which a heap without decrease-key (stale
/// entries skipped) and 16-byte labels beat an indexed OPEN set.
#[derive(Clone, Debug, Default)]
pub struct ChCache {
    forward: ChSide,
    backward: ChSide,
    meet: u32,
    cost: Option<f64>,
    settled: u64,
    /// The edges of the last path, by id, while it is unpacked.
    ranks: Vec<u32>,
    stack: Vec<u32>,
}

impl ChCache {
    /// An empty cache; it grows on first use.
    pub fn new() -> ChCache {
        ChCache::default()
    }

    /// The nodes the last query settled, both sides together (stalled
    /// nodes included).
    pub fn settled(&self) -> u64 {
        self.settled
    }

    /// The ranks the last query's upward searches reached (settled, or
    /// left on a heap when the query stopped), either side, in rank
    /// order: meant for renderers ([`ContractionHierarchy::reached_nodes`]
    /// gives their node ids).
    fn reached_ranks(&self) -> Vec<u32> {
        let mut ranks: Vec<u32> = self
            .forward
            .touched
            .iter()
            .chain(&self.backward.touched)
            .copied()
            .collect();
        ranks.sort_unstable();
        ranks.dedup();
        ranks
    }

    fn begin(&mut self, n: usize) {
        self.forward.begin(n);
        self.backward.begin(n);
        self.meet = NO_PARENT;
        self.cost = None;
        self.settled = 0;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::graph::CsrGraph;
    use crate::search::bidirectional::testing::{directed_graph, path_cost};
    use crate::search::{Dijkstra, SearchCache};

    /// Every pair's cost and path against Dijkstra's.
    fn check_all_pairs(g: &CsrGraph, ch: &ContractionHierarchy) -> Result<(), TestCaseError> {
        let n = g.node_count() as u32;
        let (mut one, mut cache) = (SearchCache::new(), ChCache::new());
        let mut path = Vec::new();
        for s in 0..n {
            Dijkstra::new(g).all(NodeId(s), &mut one);
            for t in 0..n {
                let want = one.g(NodeId(t));
                let got = ch.search_cost(NodeId(s), NodeId(t), &mut cache);
                prop_assert_eq!(got, want, "{} to {}", s, t);
                prop_assert_eq!(ch.path_into(&mut cache, &mut path), want.is_some());
                if let Some(cost) = want {
                    prop_assert_eq!((path[0], *path.last().unwrap()), (NodeId(s), NodeId(t)));
                    prop_assert_eq!(
                        path_cost(g, &path),
                        Some(cost),
                        "{} to {}: {:?}",
                        s,
                        t,
                        path
                    );
                }
            }
        }
        Ok(())
    }

    #[test]
    fn shortcuts_unpack_to_the_graphs_edges() {
        // A line contracted from its middle out needs shortcuts, which the
        // paths unpack.
        let edges: Vec<_> = (0..30).map(|i| (i, i + 1, f64::from(i % 3))).collect();
        let g = CsrGraph::from_undirected_edges(31, &edges).unwrap();
        let ch = ContractionHierarchy::build(&g);
        assert!(ch.shortcut_count() > 0);
        check_all_pairs(&g, &ch).unwrap();
    }

    #[test]
    #[expect(
        clippy::many_single_char_names,
        reason = "a graph, its ends and caches"
    )]
    fn tight_witness_limits_stay_exact() {
        let g = crate::graph::testing::road_graph("fast_paths/graph_23rd.gr");
        let params = ContractionParams {
            estimate_settled: 1,
            contract_settled: 2,
            ..ContractionParams::default()
        };
        let loose = ContractionHierarchy::build(&g);
        let tight = ContractionHierarchy::build_with(&g, &params);
        assert!(tight.shortcut_count() > loose.shortcut_count());
        let mut rng = crate::rng::SplitMix64::new(3);
        let (mut one, mut a, mut b) = (SearchCache::new(), ChCache::new(), ChCache::new());
        let n = g.node_count() as u64;
        for _ in 0..300 {
            let (s, t) = (NodeId(rng.below(n) as u32), NodeId(rng.below(n) as u32));
            Dijkstra::new(&g).all(s, &mut one);
            assert_eq!(loose.search_cost(s, t, &mut a), one.g(t), "{s} to {t}");
            assert_eq!(tight.search_cost(s, t, &mut b), one.g(t), "{s} to {t}");
        }
    }

    #[test]
    fn road_graphs_match_dijkstra() {
        for file in [
            "fast_paths/bremen_dist.gr",
            "fast_paths/south_seattle_car.gr",
            "dimacs/rome99.gr",
        ] {
            let g = crate::graph::testing::road_graph(file);
            let ch = ContractionHierarchy::build(&g);
            let mut rng = crate::rng::SplitMix64::new(5);
            let (mut one, mut cache) = (SearchCache::new(), ChCache::new());
            let n = g.node_count() as u64;
            let mut path = Vec::new();
            let (mut found, mut settled) = (0, 0);
            for _ in 0..60 {
                let (s, t) = (NodeId(rng.below(n) as u32), NodeId(rng.below(n) as u32));
                Dijkstra::new(&g).all(s, &mut one);
                let got = ch.search_cost(s, t, &mut cache);
                assert_eq!(got, one.g(t), "{file}: {s} to {t}");
                settled += cache.settled();
                if let Some(cost) = got {
                    found += 1;
                    assert!(ch.path_into(&mut cache, &mut path));
                    assert_eq!(path_cost(&g, &path), Some(cost), "{file}: {s} to {t}");
                }
            }
            assert!(found > 20, "{file}: {found} of 60 connected");
            // A hierarchy's queries settle a tiny part of the graph.
            assert!(
                settled / 60 < n / 20,
                "{file}: {settled} settled in 60 queries"
            );
        }
    }

    proptest! {
        #[test]
        fn matches_dijkstra_on_random_directed_graphs(g in directed_graph(16)) {
            let ch = ContractionHierarchy::build(&g);
            check_all_pairs(&g, &ch)?;
            let tight = ContractionHierarchy::build_with(&g, &ContractionParams {
                estimate_settled: 1,
                contract_settled: 1,
                ..ContractionParams::default()
            });
            check_all_pairs(&g, &tight)?;
            // The quotients' order (Dibbelt, Strasser and Wagner's terms
            // alone) is another order, and as exact.
            let quotients = ContractionHierarchy::build_with(&g, &ContractionParams {
                edge_difference: 0,
                contracted_neighbours: 0,
                depth: 1,
                edge_quotient: 1,
                hop_quotient: 1,
                ..ContractionParams::default()
            });
            check_all_pairs(&g, &quotients)?;
        }
    }

    #[test]
    fn listed_edges_unpack_as_their_halves() {
        let g = crate::graph::testing::road_graph("dimacs/rome99.gr");
        let listed = ContractionHierarchy::build(&g);
        let mut walked = listed.clone();
        walked.unpacked = Unpacked::default();
        assert!(listed.unpacked.nodes(0).is_some() && walked.unpacked.nodes(0).is_none());
        let mut rng = crate::rng::SplitMix64::new(17);
        let (mut cache, mut listed_path, mut walked_path) =
            (ChCache::new(), Vec::new(), Vec::new());
        let n = g.node_count() as u64;
        let mut long = 0;
        for _ in 0..200 {
            let (s, t) = (NodeId(rng.below(n) as u32), NodeId(rng.below(n) as u32));
            if listed.search_cost(s, t, &mut cache).is_some() {
                assert!(listed.path_into(&mut cache, &mut listed_path));
                assert!(walked.path_into(&mut cache, &mut walked_path));
                assert_eq!(listed_path, walked_path, "{s} to {t}");
                long += usize::from(listed_path.len() > 20);
            }
        }
        assert!(long > 50, "{long} paths of more than 20 nodes");
    }

    #[test]
    fn the_quotients_order_differently() {
        let g = crate::graph::testing::road_graph("fast_paths/bremen_dist.gr");
        let quotients = ContractionParams {
            edge_difference: 0,
            contracted_neighbours: 0,
            depth: 1,
            edge_quotient: 1,
            hop_quotient: 1,
            ..ContractionParams::default()
        };
        let default = ContractionHierarchy::build(&g);
        let other = ContractionHierarchy::build_with(&g, &quotients);
        assert_ne!(default.rank, other.rank);
        let mut rng = crate::rng::SplitMix64::new(11);
        let (mut one, mut cache) = (SearchCache::new(), ChCache::new());
        let n = g.node_count() as u64;
        for _ in 0..40 {
            let (s, t) = (NodeId(rng.below(n) as u32), NodeId(rng.below(n) as u32));
            Dijkstra::new(&g).all(s, &mut one);
            assert_eq!(other.search_cost(s, t, &mut cache), one.g(t), "{s} to {t}");
        }
    }
}
