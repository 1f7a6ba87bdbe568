//! The table of exact distances between every node and each landmark.

use rayon::prelude::*;

use super::distances_from;
use crate::graph::{LATTICE_BELOW, NodeId, Reversed, Reversible};
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

/// Distances between every node and each of `k` landmarks, stored as `f64`.
///
/// Built once with [`build`](LandmarkTable::build) and borrowed by any
/// number of [`DifferentialHeuristic`](super::DifferentialHeuristic)s,
/// including from several threads.
///
/// # Storage
///
/// `k * nodes` values of 8 bytes for a [symmetric](Directedness::Symmetric)
/// graph, twice that for a [directed](Directedness::Directed) one, in the
/// chosen [`Layout`]. Unreachable pairs hold `f64::INFINITY`. A table
/// built from a graph also keeps the graph's weakly connected
/// [`Components`] (4 bytes per node), with which the heuristic proves a
/// goal unreachable even where no landmark shares its component; two
/// tables are equal when their distances are, whatever they know of
/// components.
///
/// # Exact distances, and the admissibility margin otherwise
///
/// On a grid every move costs 1 or [`DIAGONAL`](crate::grid::DIAGONAL)
/// (`sqrt(2)` rounded to `f32`), both multiples of `2^-23`, so every path
/// sum below `2^29` is exact in `f64`, and so is every difference of two
/// such distances. A table built from a graph whose edge costs are all
/// multiples of `2^-23` and whose largest finite distance is below `2^29`
/// is therefore *exact* ([`is_exact`](LandmarkTable::is_exact)): its bounds
/// are the true triangle-inequality bounds, with no margin, and the
/// heuristic is consistent. That matters beyond admissibility: along a
/// shortest path towards a landmark the bound equals the distance, so
/// `f = g + h` is *exactly* the optimal cost on every node of that path,
/// and A*'s tie-break towards larger `g` follows it without expanding its
/// neighbours. With `f32` storage (this crate before version 2 of the
/// table file) the rounding made those `f` differ by a few `2^-14`, and
/// den520d expanded 5.2 times as many nodes with 16 landmarks
/// (`docs/differential-heuristics.md`).
///
/// Any other table (other costs, or a table read without its graph)
/// subtracts [`margin`](LandmarkTable::margin)` = 2^-22 * D` from every
/// landmark bound, `D` being the largest finite stored distance: this
/// covers the rounding of the `f64` path sums (below `n * 2^-53 * D` for
/// paths of `n` edges) and of values read from a version 1 file (rounded
/// to `f32`, at most `2^-24 * D` each). The bounds are then never above the
/// distances that [`Dijkstra`](crate::search::Dijkstra) computes, and
/// consistent up to `1.5 * margin`: A* stays optimal and such tiny gains
/// are below its reopening threshold.
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
/// assert_eq!(table.to_landmark(graph.node(2, 0).unwrap(), 0), f64::INFINITY);
/// // Every move costs 1: the distances are exact.
/// assert!(table.is_exact() && table.margin() == 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct LandmarkTable {
    landmarks: Vec<NodeId>,
    nodes: usize,
    directedness: Directedness,
    layout: Layout,
    /// `d(v, L)`, in `layout` order.
    to: Vec<f64>,
    /// `d(L, v)`, in `layout` order; empty when symmetric.
    from: Vec<f64>,
    /// Whether the distances are exact sums of costs on the `2^-23`
    /// lattice (see the type's docs); the margin is then 0.
    exact: bool,
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
            && self.exact == other.exact
            && self.margin == other.margin
    }
}

/// Rounds a distance for the `f32` stores (compressed tables, distance
/// columns): nearest `f32`, finite values clamped to `f32::MAX`, which can
/// only lower a bound.
#[inline]
pub(super) fn store_f32(d: f64) -> f32 {
    if d.is_finite() {
        (d as f32).min(f32::MAX)
    } else {
        f32::INFINITY
    }
}

/// The margin for `f32` values rounded by [`store_f32`]: `2^-22` times the
/// largest finite one. Rounding moves a value by at most `2^-24` times
/// itself, so a difference of two or three stored values errs by at most
/// `1.5 * 2^-23` (`3 * 2^-24`) times the largest, which this covers, with
/// room for the rounding of the `f64` path sums.
pub(super) fn margin_of_f32<'a>(values: impl IntoIterator<Item = &'a [f32]>) -> f64 {
    let max = values
        .into_iter()
        .flatten()
        .filter(|d| d.is_finite())
        .fold(0.0f32, |m, &d| m.max(d));
    f64::from(max) * f64::powi(2.0, -22)
}

/// The margin for a table whose values are `values`: 0 when they are
/// exact (`exact`, and the largest finite one below `2^29`), else `2^-22`
/// times the largest finite one.
pub(super) fn margin_of<'a>(values: impl IntoIterator<Item = &'a [f64]>, exact: bool) -> f64 {
    margin_for(
        values
            .into_iter()
            .flatten()
            .filter(|d| d.is_finite())
            .fold(0.0f64, |m, &d| m.max(d)),
        exact,
    )
}

/// [`margin_of`] for a table whose largest finite value is `max`.
pub(super) fn margin_for(max: f64, exact: bool) -> f64 {
    if exact && max < LATTICE_BELOW {
        0.0
    } else {
        max * f64::powi(2.0, -22)
    }
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
        graph: &G, landmarks: &[NodeId], directedness: Directedness,
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
        let to = vec![0f64; len];
        let from = if directed {
            vec![0f64; len]
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
            exact: true,
            margin: 0.0,
            components: Some(Components::of_graph(graph)),
        };
        let all: Vec<usize> = (0..k).collect();
        table.rebuild_columns(graph, &all);
        table
    }

    /// A symmetric node-major table from the `f64` distances to each
    /// landmark, stored landmark-major (`columns[l * nodes + node]`), for
    /// [`IncrementalTable`](super::IncrementalTable), whose graph has
    /// lattice costs or not (`lattice`): the same table and margin as
    /// [`build`](Self::build) gives for equal distances.
    pub(super) fn from_columns(
        landmarks: &[NodeId], nodes: usize, columns: &[f64], lattice: bool, components: Components,
    ) -> LandmarkTable {
        let k = landmarks.len();
        debug_assert_eq!(columns.len(), nodes * k);
        let mut to = vec![0f64; nodes * k];
        for (l, column) in columns.chunks_exact(nodes.max(1)).enumerate().take(k) {
            for (node, &d) in column.iter().enumerate() {
                to[node * k + l] = d;
            }
        }
        let margin = margin_of([to.as_slice()], lattice);
        LandmarkTable {
            landmarks: landmarks.to_vec(),
            nodes,
            directedness: Directedness::Symmetric,
            layout: Layout::NodeMajor,
            to,
            from: Vec::new(),
            exact: lattice,
            margin,
            components: Some(components),
        }
    }

    /// The stored distances of a symmetric node-major table, `k` per node
    /// (`rows[node * k + l]`), for an incremental repair that writes
    /// several landmarks at once; the caller then sets the margin with
    /// [`set_margin_for`](Self::set_margin_for).
    pub(super) fn rows_mut(&mut self) -> &mut [f64] {
        assert!(
            self.layout == Layout::NodeMajor && self.from.is_empty(),
            "rows of a symmetric node-major table"
        );
        &mut self.to
    }

    /// Sets the margin for a table whose largest finite distance is `max`
    /// (0 when there is none): what [`margin_of`] computes from the stored
    /// values.
    pub(super) fn set_margin_for(&mut self, max: f64) {
        self.margin = margin_for(max, self.exact);
    }

    /// Replaces the components (after the graph changed).
    pub(super) fn replace_components(&mut self, components: Components) {
        self.components = Some(components);
    }

    /// A table from node-major distances, for the file reader. The caller
    /// has checked the sizes. Not exact: the reader declares it exact
    /// ([`set_exact`](Self::set_exact)) once it knows the graph.
    pub(super) fn from_node_major(
        landmarks: Vec<NodeId>, nodes: usize, directedness: Directedness, to: Vec<f64>,
        from: Vec<f64>,
    ) -> LandmarkTable {
        debug_assert_eq!(to.len(), nodes * landmarks.len());
        let margin = margin_of([to.as_slice(), from.as_slice()], false);
        LandmarkTable {
            landmarks,
            nodes,
            directedness,
            layout: Layout::NodeMajor,
            to,
            from,
            exact: false,
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
        let transpose = |src: &[f64]| -> Vec<f64> {
            if src.is_empty() {
                return Vec::new();
            }
            let mut out = vec![0f64; src.len()];
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
        let pick = |src: &[f64]| -> Vec<f64> {
            if src.is_empty() {
                return Vec::new();
            }
            let mut out = vec![0f64; n * m];
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
        let margin = margin_of([to_l.as_slice(), from_l.as_slice()], self.exact);
        LandmarkTable {
            landmarks: indices.iter().map(|&l| self.landmarks[l]).collect(),
            nodes: n,
            directedness: self.directedness,
            layout: self.layout,
            to: to_l,
            from: from_l,
            exact: self.exact,
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
        let every = (0..self.landmarks.len()).all(|l| indices.contains(&l));
        // A margin of 0 on an exact table says every distance is below
        // `LATTICE_BELOW`; see the end.
        let was_zero = self.exact && self.margin == 0.0;
        self.note_recomputed(graph.lattice_costs(), every);
        let directed = self.directedness == Directedness::Directed;
        let mut recomputed_max = 0.0f64;
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
        let landmarks = self.landmarks.clone();
        let column = |cache: &mut SearchCache, buf: &mut [f64], (l, forward): (usize, bool)| {
            if forward {
                distances_from(graph, landmarks[l], cache, buf);
            } else {
                distances_from(&Reversed(graph), landmarks[l], cache, buf);
            }
        };
        for chunk in jobs.chunks(batch) {
            let columns: Vec<Vec<f64>> = if let &[job] = chunk {
                // One column (a landmark moved): on this thread, rather
                // than handed to the pool and waited for (on a loaded
                // machine the pool's thread may wait for a core).
                let mut buf = vec![0f64; n];
                column(&mut SearchCache::new(), &mut buf, job);
                vec![buf]
            } else {
                chunk
                    .par_iter()
                    .map_init(
                        || (SearchCache::new(), vec![0f64; n]),
                        |(cache, buf), &job| {
                            column(cache, buf, job);
                            buf.clone()
                        },
                    )
                    .collect()
            };
            for (&(l, forward), column) in chunk.iter().zip(&columns) {
                recomputed_max = column
                    .iter()
                    .filter(|d| d.is_finite())
                    .fold(recomputed_max, |m, &d| m.max(d));
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
        // The columns left alone were below `LATTICE_BELOW` (the margin was
        // 0), so a table still exact whose new columns are below it too
        // keeps the margin 0: what the scan of the whole table (16 MB for
        // 8 landmarks on 512 x 512, a landmark drag's every move) would
        // find.
        self.margin = if was_zero && self.exact && recomputed_max < LATTICE_BELOW {
            0.0
        } else {
            margin_of([self.to.as_slice(), self.from.as_slice()], self.exact)
        };
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
        self.to[s] = f64::INFINITY;
        if let Some(f) = self.from.get_mut(s) {
            *f = f64::INFINITY;
        }
    }

    /// Recomputes the margin after [`set_unreachable`](Self::set_unreachable).
    pub(super) fn refresh_margin(&mut self) {
        self.margin = margin_of([self.to.as_slice(), self.from.as_slice()], self.exact);
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
    /// true distance despite rounding: 0 for an [exact](Self::is_exact)
    /// table, else `2^-22` times the largest finite stored distance.
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// Whether the distances are exact (see the type's docs): built from a
    /// graph whose costs are multiples of `2^-23`, every grid among them,
    /// with every distance below `2^29`. The bounds then need no margin.
    pub fn is_exact(&self) -> bool {
        self.exact && self.margin == 0.0
    }

    /// Updates the exactness after some columns were recomputed on a graph
    /// with lattice costs or not (`lattice`), all of them when `every`:
    /// exact when the new columns are and so were the columns left alone.
    pub(super) fn note_recomputed(&mut self, lattice: bool, every: bool) {
        self.exact = lattice && (self.exact || every);
    }

    /// Declares the distances exact or not (a table read from a file, once
    /// its graph is known) and sets the margin accordingly.
    pub(super) fn set_exact(&mut self, exact: bool) {
        self.exact = exact;
        self.refresh_margin();
    }

    /// Bytes of distance storage.
    pub fn memory_bytes(&self) -> usize {
        (self.to.len() + self.from.len()) * std::mem::size_of::<f64>()
    }

    #[inline]
    pub(super) fn slot(&self, node: NodeId, l: usize) -> usize {
        match self.layout {
            Layout::NodeMajor => node.index() * self.landmarks.len() + l,
            Layout::LandmarkMajor => l * self.nodes + node.index(),
        }
    }

    /// The stored distance from `node` to landmark `l`, `d(node, L)`
    /// (infinite when unreachable).
    ///
    /// # Panics
    ///
    /// When `node` or `l` is out of range.
    pub fn to_landmark(&self, node: NodeId, l: usize) -> f64 {
        assert!(l < self.landmarks.len() && node.index() < self.nodes);
        self.to[self.slot(node, l)]
    }

    /// The stored distance from landmark `l` to `node`, `d(L, node)`. On a
    /// symmetric table this is [`to_landmark`](Self::to_landmark).
    ///
    /// # Panics
    ///
    /// When `node` or `l` is out of range.
    pub fn from_landmark(&self, l: usize, node: NodeId) -> f64 {
        assert!(l < self.landmarks.len() && node.index() < self.nodes);
        self.dist_from()[self.slot(node, l)]
    }

    /// The `d(v, L)` values in layout order.
    #[inline]
    pub(super) fn dist_to(&self) -> &[f64] {
        &self.to
    }

    /// The `d(L, v)` values in layout order (the `to` values when
    /// symmetric).
    #[inline]
    pub(super) fn dist_from(&self) -> &[f64] {
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
                let to = cache.g(landmark).unwrap_or(f64::INFINITY);
                Dijkstra::new(&g).all(landmark, &mut cache);
                let from = cache.g(v).unwrap_or(f64::INFINITY);
                for t in [&nm, &lm] {
                    assert_eq!(t.to_landmark(v, l), to, "d({v}, L{l})");
                    assert_eq!(t.from_landmark(l, v), from, "d(L{l}, {v})");
                }
            }
        }
        assert_eq!(nm.to_landmark(NodeId(4), 0), f64::INFINITY);
        assert_eq!(nm.memory_bytes(), 2 * 2 * 5 * 8);
        // Costs 1.5, 2, 0.25, 1 and 7 are multiples of 2^-23: exact.
        assert!(nm.is_exact() && lm.is_exact());
        assert_eq!(nm.margin(), 0.0);
        // A cost of 0.1 is not: the margin is 2^-22 times the largest
        // finite distance.
        let off = CsrGraph::from_edges(2, &[(0, 1, 0.1)]).unwrap();
        let t = LandmarkTable::build(&off, &[NodeId(0)], Directedness::Directed);
        assert!(!t.is_exact());
        assert_eq!(t.margin(), 0.1 * f64::powi(2.0, -22));
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
        assert_eq!(t.memory_bytes(), 2 * 12 * 8);
        assert_eq!(t.to_landmark(NodeId(7), 0), 4.0);
        assert_eq!(t.from_landmark(0, NodeId(7)), 4.0);
        assert_eq!(t.to_landmark(NodeId(3), 1), f64::INFINITY);
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
        assert_eq!(store_f32(1e300), f32::MAX);
        assert_eq!(store_f32(f64::INFINITY), f32::INFINITY);
        assert_eq!(store_f32(0.1), 0.1f32);
    }

    #[test]
    #[should_panic(expected = "not on the graph")]
    fn landmark_off_the_graph_panics() {
        let g = CsrGraph::from_edges(2, &[]).unwrap();
        let _ = LandmarkTable::build(&g, &[NodeId(2)], Directedness::Symmetric);
    }
}
