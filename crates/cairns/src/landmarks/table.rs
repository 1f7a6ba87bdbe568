//! The table of exact distances between every node and each landmark.

use rayon::prelude::*;

use super::distances_from;
use crate::graph::{NodeId, Reversed, Reversible};
use crate::grid::Components;
use crate::search::SearchCache;

/// Whether a graph's distances are symmetric, which decides how many
/// distances a [`LandmarkTable`] keeps per landmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Directedness {
    /// `d(a, b) = d(b, a)` for all nodes, as on every grid (each move can be
    /// made back at the same cost) and every graph built with
    /// [`CsrGraph::from_undirected_edges`](crate::graph::CsrGraph::from_undirected_edges).
    /// The table keeps one distance per node and landmark.
    ///
    /// Declaring a directed graph symmetric makes the heuristic
    /// inadmissible: A* may then return paths that are not shortest.
    #[default]
    Symmetric,
    /// Any graph: the table keeps both `d(v, L)` (to the landmark) and
    /// `d(L, v)` (from it), twice the memory and build time.
    Directed,
}

/// The order of the distances in memory. Both give the same answers; they
/// differ in speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// `dist[node * k + l]`: the `k` distances of one node are contiguous,
    /// so an estimate reads two short rows (the node's and the goal's),
    /// usually one or two cache lines each.
    #[default]
    NodeMajor,
    /// `dist[l * nodes + node]`: one landmark's distances are contiguous,
    /// so an estimate touches `k` places far apart. Neighbouring nodes on a
    /// grid share cache lines within each landmark's column.
    LandmarkMajor,
}

/// Distances between every node and each of `k` landmarks, stored as `f32`.
///
/// Built once with [`build`](LandmarkTable::build) and borrowed by any
/// number of [`DifferentialHeuristic`](super::DifferentialHeuristic)s,
/// including from several threads.
///
/// # Storage
///
/// `k * nodes` values of 4 bytes for a [symmetric](Directedness::Symmetric)
/// graph, twice that for a [directed](Directedness::Directed) one, in the
/// chosen [`Layout`]. Unreachable pairs hold `f32::INFINITY`. A table
/// built from a graph also keeps the graph's weakly connected
/// [`Components`] (4 bytes per node), with which the heuristic proves a
/// goal unreachable even where no landmark shares its component; two
/// tables are equal when their distances are, whatever they know of
/// components.
///
/// # Rounding and the admissibility margin
///
/// Each distance is computed in `f64` and rounded to the nearest `f32`
/// (finite distances above `f32::MAX` are clamped to `f32::MAX`, which can
/// only lower a bound). Rounding moves a value by at most `2^-24` times
/// itself, so a difference of two stored values, itself computed in `f32`,
/// may exceed the difference of the true distances by up to
/// `1.5 * 2^-23 * D`, where `D` is the largest finite stored distance. The
/// heuristic subtracts [`margin`](LandmarkTable::margin)` = 2^-22 * D` from
/// every landmark bound, which covers that and leaves `2^-24 * D` for the
/// rounding of the `f64` path sums themselves (below `n * 2^-53 * D` for
/// paths of `n` edges). The bounds are thus never above the distances that
/// [`Dijkstra`](crate::search::Dijkstra) computes. Rounding can break
/// consistency by as much, since it errs at both ends of an edge:
/// `h(u) <= cost(u, v) + h(v) + 1.5 * margin`. A* stays optimal (an
/// admissible heuristic suffices) and such tiny gains are below its
/// reopening threshold.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::landmarks::{Directedness, LandmarkTable};
///
/// let grid = Grid::from_ascii("
///     ..@..
///     ..@..
///     .....
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Four);
/// let corner = graph.node(0, 0).unwrap();
/// let table = LandmarkTable::build(&graph, &[corner], Directedness::Symmetric);
/// // Around the wall: down two, right four, up two.
/// assert_eq!(table.to_landmark(graph.node(4, 0).unwrap(), 0), 8.0);
/// // A wall cell reaches nothing.
/// assert_eq!(table.to_landmark(graph.node(2, 0).unwrap(), 0), f32::INFINITY);
/// ```
#[derive(Clone, Debug)]
pub struct LandmarkTable {
    landmarks: Vec<NodeId>,
    nodes: usize,
    directedness: Directedness,
    layout: Layout,
    /// `d(v, L)`, in `layout` order.
    to: Vec<f32>,
    /// `d(L, v)`, in `layout` order; empty when symmetric.
    from: Vec<f32>,
    margin: f64,
    /// The graph's components, when the table was built from it.
    components: Option<Components>,
}

impl PartialEq for LandmarkTable {
    /// Equal landmarks and distances; the components are the graph's, not
    /// data of the table.
    fn eq(&self, other: &Self) -> bool {
        self.landmarks == other.landmarks
            && self.nodes == other.nodes
            && self.directedness == other.directedness
            && self.layout == other.layout
            && self.to == other.to
            && self.from == other.from
            && self.margin == other.margin
    }
}

/// Rounds a distance for storage: nearest `f32`, finite values clamped to
/// `f32::MAX` (see the table's docs for why this is safe).
#[inline]
pub(super) fn store(d: f64) -> f32 {
    if d.is_finite() {
        (d as f32).min(f32::MAX)
    } else {
        f32::INFINITY
    }
}

/// The margin for a table whose values are `values`: `2^-22` times the
/// largest finite one.
pub(super) fn margin_of<'a>(values: impl IntoIterator<Item = &'a [f32]>) -> f64 {
    let max = values
        .into_iter()
        .flatten()
        .filter(|d| d.is_finite())
        .fold(0.0f32, |m, &d| m.max(d));
    f64::from(max) * f64::powi(2.0, -22)
}

impl LandmarkTable {
    /// The largest number of landmarks a table may have.
    pub const MAX_LANDMARKS: usize = u16::MAX as usize;

    /// Computes the distances between every node of `graph` and each of
    /// `landmarks`, in [`Layout::NodeMajor`].
    ///
    /// Runs one search per landmark on the reversed graph (distances *to*
    /// the landmark) and, for [`Directedness::Directed`], one on the graph
    /// (distances *from* it): breadth-first search when
    /// [`unit_costs`](crate::graph::Graph::unit_costs), Dijkstra's algorithm
    /// otherwise. The searches run in parallel on rayon's thread pool, each
    /// worker with its own [`SearchCache`].
    ///
    /// # Complexity
    ///
    /// `O(k (V + E) log V)` work with Dijkstra, `O(k (V + E))` with BFS, for
    /// `k` landmarks, twice that when directed; memory is the table plus
    /// one column of `V` values per worker.
    ///
    /// # Panics
    ///
    /// When a landmark is not below the graph's node bound, when there are
    /// more than [`MAX_LANDMARKS`](Self::MAX_LANDMARKS) landmarks, or when
    /// the table would not fit in memory.
    pub fn build<G: Reversible + Sync>(
        graph: &G,
        landmarks: &[NodeId],
        directedness: Directedness,
    ) -> LandmarkTable {
        let n = graph.node_bound();
        let k = landmarks.len();
        assert!(
            k <= Self::MAX_LANDMARKS,
            "{k} landmarks, at most {} allowed",
            Self::MAX_LANDMARKS
        );
        for &l in landmarks {
            assert!(
                l.index() < n,
                "landmark {l} is not on the graph ({n} nodes)"
            );
        }
        let len = n.checked_mul(k).expect("landmark table size overflows");
        let directed = directedness == Directedness::Directed;
        let to = vec![0f32; len];
        let from = if directed {
            vec![0f32; len]
        } else {
            Vec::new()
        };

        let mut table = LandmarkTable {
            landmarks: landmarks.to_vec(),
            nodes: n,
            directedness,
            layout: Layout::NodeMajor,
            to,
            from,
            margin: 0.0,
            components: Some(Components::of_graph(graph)),
        };
        let all: Vec<usize> = (0..k).collect();
        table.rebuild_columns(graph, &all);
        table
    }

    /// A symmetric node-major table from exact `f64` distances to each
    /// landmark, stored landmark-major (`exact[l * nodes + node]`), for
    /// [`IncrementalTable`](super::IncrementalTable): the same rounding and
    /// margin as [`build`](Self::build), so equal distances give an equal
    /// table.
    pub(super) fn from_exact(
        landmarks: &[NodeId],
        nodes: usize,
        exact: &[f64],
        components: Components,
    ) -> LandmarkTable {
        let k = landmarks.len();
        debug_assert_eq!(exact.len(), nodes * k);
        let mut to = vec![0f32; nodes * k];
        for (l, column) in exact.chunks_exact(nodes.max(1)).enumerate().take(k) {
            for (node, &d) in column.iter().enumerate() {
                to[node * k + l] = store(d);
            }
        }
        let margin = margin_of([to.as_slice()]);
        LandmarkTable {
            landmarks: landmarks.to_vec(),
            nodes,
            directedness: Directedness::Symmetric,
            layout: Layout::NodeMajor,
            to,
            from: Vec::new(),
            margin,
            components: Some(components),
        }
    }

    /// Sets the stored distance between `node` and landmark `l` (both
    /// directions), for an incremental repair; the caller then sets the
    /// margin with [`set_margin_for`](Self::set_margin_for).
    #[inline]
    pub(super) fn set_distance(&mut self, node: NodeId, l: usize, d: f32) {
        let s = self.slot(node, l);
        self.to[s] = d;
        if let Some(f) = self.from.get_mut(s) {
            *f = d;
        }
    }

    /// Sets the margin for a table whose largest finite distance, before
    /// rounding, is `max` (0 when there is none): what
    /// [`margin_of`] computes from the stored values, since rounding is
    /// monotone.
    pub(super) fn set_margin_for(&mut self, max: f64) {
        self.margin = f64::from(store(max)) * f64::powi(2.0, -22);
    }

    /// Replaces the components (after the graph changed).
    pub(super) fn replace_components(&mut self, components: Components) {
        self.components = Some(components);
    }

    /// A table from node-major distances, for the file reader. The caller
    /// has checked the sizes.
    pub(super) fn from_node_major(
        landmarks: Vec<NodeId>,
        nodes: usize,
        directedness: Directedness,
        to: Vec<f32>,
        from: Vec<f32>,
    ) -> LandmarkTable {
        debug_assert_eq!(to.len(), nodes * landmarks.len());
        let margin = margin_of([to.as_slice(), from.as_slice()]);
        LandmarkTable {
            landmarks,
            nodes,
            directedness,
            layout: Layout::NodeMajor,
            to,
            from,
            margin,
            components: None,
        }
    }

    /// The same table in another layout. Takes `O(k V)` time and, when the
    /// layout changes, a second copy of the distances while it runs.
    #[must_use]
    pub fn with_layout(self, layout: Layout) -> LandmarkTable {
        if layout == self.layout {
            return self;
        }
        let (n, k) = (self.nodes, self.landmarks.len());
        let transpose = |src: &[f32]| -> Vec<f32> {
            if src.is_empty() {
                return Vec::new();
            }
            let mut out = vec![0f32; src.len()];
            for node in 0..n {
                for l in 0..k {
                    let (nm, lm) = (node * k + l, l * n + node);
                    match layout {
                        Layout::NodeMajor => out[nm] = src[lm],
                        Layout::LandmarkMajor => out[lm] = src[nm],
                    }
                }
            }
            out
        };
        LandmarkTable {
            to: transpose(&self.to),
            from: transpose(&self.from),
            layout,
            ..self
        }
    }

    /// A table of only the landmarks at `indices` (in that order), copied
    /// from this one without any search: for instance the first 8 of a
    /// 32-landmark farthest-first table, which are the 8 that
    /// farthest-first placement would choose. Keeps the layout.
    ///
    /// # Panics
    ///
    /// When an index is out of range.
    #[must_use]
    pub fn select(&self, indices: &[usize]) -> LandmarkTable {
        let (n, m) = (self.nodes, indices.len());
        for &l in indices {
            assert!(
                l < self.landmarks.len(),
                "landmark index {l} out of range ({} landmarks)",
                self.landmarks.len()
            );
        }
        let pick = |src: &[f32]| -> Vec<f32> {
            if src.is_empty() {
                return Vec::new();
            }
            let mut out = vec![0f32; n * m];
            for node in 0..n {
                for (j, &l) in indices.iter().enumerate() {
                    let s = self.slot(NodeId(node as u32), l);
                    let t = match self.layout {
                        Layout::NodeMajor => node * m + j,
                        Layout::LandmarkMajor => j * n + node,
                    };
                    out[t] = src[s];
                }
            }
            out
        };
        let (to_l, from_l) = (pick(&self.to), pick(&self.from));
        let margin = margin_of([to_l.as_slice(), from_l.as_slice()]);
        LandmarkTable {
            landmarks: indices.iter().map(|&l| self.landmarks[l]).collect(),
            nodes: n,
            directedness: self.directedness,
            layout: self.layout,
            to: to_l,
            from: from_l,
            margin,
            components: self.components.clone(),
        }
    }

    /// Recomputes the distances of the landmarks at `indices` on `graph`
    /// (after the graph changed; see [`MapChanges`](super::MapChanges)),
    /// leaving the other landmarks' distances as they are, and updates the
    /// [`margin`](Self::margin) and the components. One or two searches per
    /// landmark, in parallel as in [`build`](Self::build), and one linear
    /// pass for the components.
    ///
    /// # Panics
    ///
    /// When an index is out of range or `graph` has another node bound.
    pub fn rebuild<G: Reversible + Sync>(&mut self, graph: &G, indices: &[usize]) {
        self.rebuild_columns(graph, indices);
        self.set_components(graph);
    }

    /// [`rebuild`](Self::rebuild) without taking the components again.
    fn rebuild_columns<G: Reversible + Sync>(&mut self, graph: &G, indices: &[usize]) {
        let n = self.nodes;
        assert_eq!(graph.node_bound(), n, "the graph has another node count");
        let directed = self.directedness == Directedness::Directed;
        // Jobs are (landmark index, forward?) pairs, computed a batch at a
        // time so that memory stays at one column per worker beyond the
        // table, then scattered into the table's layout.
        let jobs: Vec<(usize, bool)> = indices
            .iter()
            .flat_map(|&l| {
                assert!(l < self.landmarks.len(), "landmark index {l} out of range");
                let forward = directed.then_some((l, true));
                std::iter::once((l, false)).chain(forward)
            })
            .collect();
        let batch = rayon::current_num_threads().max(1);
        for chunk in jobs.chunks(batch) {
            let columns: Vec<Vec<f32>> = chunk
                .par_iter()
                .map_init(
                    || (SearchCache::new(), vec![0f64; n]),
                    |(cache, buf), &(l, forward)| {
                        let landmark = self.landmarks[l];
                        if forward {
                            distances_from(graph, landmark, cache, buf);
                        } else {
                            distances_from(&Reversed(graph), landmark, cache, buf);
                        }
                        buf.iter().map(|&d| store(d)).collect()
                    },
                )
                .collect();
            for (&(l, forward), column) in chunk.iter().zip(&columns) {
                for (node, &d) in column.iter().enumerate() {
                    let s = self.slot(NodeId(node as u32), l);
                    if forward {
                        self.from[s] = d;
                    } else {
                        self.to[s] = d;
                    }
                }
            }
        }
        self.margin = margin_of([self.to.as_slice(), self.from.as_slice()]);
    }

    /// Takes the components of `graph` (after it changed, or for a table
    /// read from a file). `O(V + E)`.
    pub(super) fn set_components<G: Reversible>(&mut self, graph: &G) {
        self.components = Some(Components::of_graph(graph));
    }

    /// The component label of `node` in the graph the table was built
    /// from, or `None` when the table does not know its components.
    #[inline]
    pub(super) fn component(&self, node: NodeId) -> Option<u32> {
        self.components.as_ref().and_then(|c| c.label(node))
    }

    /// Moves landmark `l` to `node` without recomputing anything: the
    /// caller then [`rebuild`](Self::rebuild)s `l`.
    pub(super) fn set_landmark(&mut self, l: usize, node: NodeId) {
        assert!(l < self.landmarks.len(), "landmark index {l} out of range");
        assert!(
            node.index() < self.nodes,
            "landmark {node} is not on the graph ({} nodes)",
            self.nodes
        );
        self.landmarks[l] = node;
    }

    /// Moves landmark `l` to `node` and recomputes only its distances on
    /// `graph` with [`rebuild`](Self::rebuild): one or two searches instead
    /// of the `k` of [`build`](Self::build), for an editor where one
    /// landmark is dragged at a time.
    ///
    /// # Panics
    ///
    /// When `l` is out of range, `node` is not below the graph's node bound
    /// or `graph` has another node bound.
    pub fn move_landmark<G: Reversible + Sync>(&mut self, graph: &G, l: usize, node: NodeId) {
        self.set_landmark(l, node);
        // Moving a landmark changes no wall: the components stay.
        self.rebuild_columns(graph, &[l]);
        if self.components.is_none() {
            self.set_components(graph);
        }
    }

    /// Marks `node` unreachable from and to landmark `l`, for a cell that
    /// became a wall when nothing else about `l`'s distances changed.
    pub(super) fn set_unreachable(&mut self, node: NodeId, l: usize) {
        let s = self.slot(node, l);
        self.to[s] = f32::INFINITY;
        if let Some(f) = self.from.get_mut(s) {
            *f = f32::INFINITY;
        }
    }

    /// Recomputes the margin after [`set_unreachable`](Self::set_unreachable).
    pub(super) fn refresh_margin(&mut self) {
        self.margin = margin_of([self.to.as_slice(), self.from.as_slice()]);
    }

    /// The landmark nodes, in the order of the landmark indices `l` used by
    /// the other methods.
    pub fn landmarks(&self) -> &[NodeId] {
        &self.landmarks
    }

    /// The number of landmarks, `k`.
    pub fn landmark_count(&self) -> usize {
        self.landmarks.len()
    }

    /// The number of nodes the table covers: the graph's node bound.
    pub fn node_count(&self) -> usize {
        self.nodes
    }

    /// Whether the table keeps one distance per node and landmark or two.
    pub fn directedness(&self) -> Directedness {
        self.directedness
    }

    /// The memory order of the distances.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The amount every landmark bound is lowered by to stay below the
    /// true distance despite `f32` rounding: `2^-22` times the largest
    /// finite stored distance.
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// Bytes of distance storage.
    pub fn memory_bytes(&self) -> usize {
        (self.to.len() + self.from.len()) * std::mem::size_of::<f32>()
    }

    #[inline]
    pub(super) fn slot(&self, node: NodeId, l: usize) -> usize {
        match self.layout {
            Layout::NodeMajor => node.index() * self.landmarks.len() + l,
            Layout::LandmarkMajor => l * self.nodes + node.index(),
        }
    }

    /// The stored distance from `node` to landmark `l`, `d(node, L)`
    /// (rounded to `f32`; infinite when unreachable).
    ///
    /// # Panics
    ///
    /// When `node` or `l` is out of range.
    pub fn to_landmark(&self, node: NodeId, l: usize) -> f32 {
        assert!(l < self.landmarks.len() && node.index() < self.nodes);
        self.to[self.slot(node, l)]
    }

    /// The stored distance from landmark `l` to `node`, `d(L, node)`. On a
    /// symmetric table this is [`to_landmark`](Self::to_landmark).
    ///
    /// # Panics
    ///
    /// When `node` or `l` is out of range.
    pub fn from_landmark(&self, l: usize, node: NodeId) -> f32 {
        assert!(l < self.landmarks.len() && node.index() < self.nodes);
        self.dist_from()[self.slot(node, l)]
    }

    /// The `d(v, L)` values in layout order.
    #[inline]
    pub(super) fn dist_to(&self) -> &[f32] {
        &self.to
    }

    /// The `d(L, v)` values in layout order (the `to` values when
    /// symmetric).
    #[inline]
    pub(super) fn dist_from(&self) -> &[f32] {
        match self.directedness {
            Directedness::Symmetric => &self.to,
            Directedness::Directed => &self.from,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{CsrGraph, Graph};
    use crate::grid::{Grid, GridGraph, Neighborhood};
    use crate::search::Dijkstra;

    /// A small directed graph with a cycle, a node no landmark reaches
    /// (4 reaches nothing) and one that reaches only some.
    fn five_nodes() -> CsrGraph {
        let edges = [
            (0, 1, 1.5),
            (1, 2, 2.0),
            (2, 0, 0.25),
            (3, 2, 1.0),
            (2, 4, 7.0),
        ];
        CsrGraph::from_edges(5, &edges).unwrap()
    }

    #[test]
    fn moving_a_landmark_equals_building_with_it() {
        let g = five_nodes();
        for directedness in [Directedness::Directed, Directedness::Symmetric] {
            for layout in [Layout::NodeMajor, Layout::LandmarkMajor] {
                let mut t = LandmarkTable::build(&g, &[NodeId(0), NodeId(2)], directedness)
                    .with_layout(layout);
                t.move_landmark(&g, 1, NodeId(3));
                let want = LandmarkTable::build(&g, &[NodeId(0), NodeId(3)], directedness)
                    .with_layout(layout);
                assert_eq!(t, want);
            }
        }
    }

    #[test]
    fn matches_dijkstra_in_both_layouts_and_directions() {
        let g = five_nodes();
        let lms = [NodeId(2), NodeId(4)];
        let nm = LandmarkTable::build(&g, &lms, Directedness::Directed);
        let lm = nm.clone().with_layout(Layout::LandmarkMajor);
        assert_eq!(lm.layout(), Layout::LandmarkMajor);
        assert_eq!(lm.clone().with_layout(Layout::NodeMajor), nm);
        let mut cache = SearchCache::new();
        for (l, &landmark) in lms.iter().enumerate() {
            for v in 0..5 {
                let v = NodeId(v);
                Dijkstra::new(&g).all(v, &mut cache);
                let to = cache.g(landmark).unwrap_or(f64::INFINITY) as f32;
                Dijkstra::new(&g).all(landmark, &mut cache);
                let from = cache.g(v).unwrap_or(f64::INFINITY) as f32;
                for t in [&nm, &lm] {
                    assert_eq!(t.to_landmark(v, l), to, "d({v}, L{l})");
                    assert_eq!(t.from_landmark(l, v), from, "d(L{l}, {v})");
                }
            }
        }
        assert_eq!(nm.to_landmark(NodeId(4), 0), f32::INFINITY);
        assert_eq!(nm.memory_bytes(), 2 * 2 * 5 * 4);
        assert_eq!(nm.margin(), 10.5 * f64::powi(2.0, -22));
    }

    #[test]
    fn grids_use_bfs_and_one_direction() {
        let grid = Grid::from_ascii(
            "
            ...@
            .@..
            ....
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Four);
        assert!(g.unit_costs());
        let t = LandmarkTable::build(&g, &[NodeId(0), NodeId(11)], Directedness::Symmetric);
        assert_eq!(t.memory_bytes(), 2 * 12 * 4);
        assert_eq!(t.to_landmark(NodeId(7), 0), 4.0);
        assert_eq!(t.from_landmark(0, NodeId(7)), 4.0);
        assert_eq!(t.to_landmark(NodeId(3), 1), f32::INFINITY);
        assert_eq!(t.node_count(), g.node_bound());
    }

    #[test]
    fn no_landmarks_is_an_empty_table() {
        let g = CsrGraph::from_edges(3, &[(0, 1, 1.0)]).unwrap();
        let t = LandmarkTable::build(&g, &[], Directedness::Directed);
        assert_eq!(t.landmark_count(), 0);
        assert_eq!(t.memory_bytes(), 0);
        assert_eq!(t.margin(), 0.0);
    }

    #[test]
    fn huge_distances_are_clamped_not_made_infinite() {
        // Regression guard: `1e300 as f32` is infinity, which would claim
        // the two nodes are disconnected.
        assert_eq!(store(1e300), f32::MAX);
        assert_eq!(store(f64::INFINITY), f32::INFINITY);
        assert_eq!(store(0.1), 0.1f32);
    }

    #[test]
    #[should_panic(expected = "not on the graph")]
    fn landmark_off_the_graph_panics() {
        let g = CsrGraph::from_edges(2, &[]).unwrap();
        let _ = LandmarkTable::build(&g, &[NodeId(2)], Directedness::Symmetric);
    }
}
