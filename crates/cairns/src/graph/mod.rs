//! The graph trait that the fast searches run on, a weighted graph in
//! compressed sparse row form, and the readers of road graph files
//! (DIMACS, arc lists, PACE: [`read_graph`]; OpenStreetMap PBF with the
//! `osm` feature: `osm`).
//!
//! Searches over [`Graph`] keep their per-node state in dense arrays indexed
//! by [`NodeId`], so a graph numbers its nodes `0..node_bound()`.

mod csr;
#[cfg(feature = "osm")]
pub mod osm;
pub mod read;

pub use csr::{CsrGraph, CsrSuccessors, EdgeError, EdgeErrorKind};
pub use read::{
    GraphFormat, ISOLATED_NODES, MAX_GRAPH_NODES, RoadGraph, parse_arcs, parse_coordinates,
    parse_dimacs, parse_graph, parse_graph_format, parse_pace_with, read_coordinates, read_graph,
    read_graph_format, read_road_graph,
};

pub use crate::parse::{ParseError, ParseErrorKind};

/// A node of a [`Graph`]: a dense index below [`Graph::node_bound`].
///
/// On a grid the node of cell `(x, y)` is `y * width + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The reserved id that no node has, used for "no parent".
    pub const NONE: NodeId = NodeId(u32::MAX);

    /// The id as an index into dense arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl From<u32> for NodeId {
    fn from(id: u32) -> Self {
        NodeId(id)
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The quantum of exact costs: see [`Graph::lattice_costs`].
pub const LATTICE: f64 = 1.0 / (1u64 << 23) as f64;

/// Sums of [`LATTICE`] multiples stay exact in `f64` below this
/// (`2^29 / 2^-23 = 2^52`).
pub const LATTICE_BELOW: f64 = (1u64 << 29) as f64;

/// Whether `cost` is a multiple of [`LATTICE`] below [`LATTICE_BELOW`].
#[inline]
pub fn on_lattice(cost: f64) -> bool {
    (cost / LATTICE).fract() == 0.0 && cost < LATTICE_BELOW
}

/// The earth's mean radius in metres (IUGG): the sphere on which
/// OpenStreetMap lengths are measured (`osm::haversine`) and
/// [`Geometric::lon_lat`](crate::heuristic::Geometric::lon_lat) projects.
pub const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// Longitudes and latitudes in degrees (`[lon, lat]`) as points of a plane
/// in metres: the equirectangular projection about their mean latitude,
/// whose straight lines are never longer than the great circles between
/// the same places near that latitude. What
/// [`Geometric::lon_lat`](crate::heuristic::Geometric::lon_lat) measures
/// on, and what `cairns graph render` draws.
///
/// ```
/// use cairns::graph::{EARTH_RADIUS_M, project_lon_lat};
///
/// // At 60 degrees north a degree of longitude is half a degree of
/// // latitude (111 km): ten of them, 556 km.
/// let p = project_lon_lat(&[[10.0, 60.0], [20.0, 60.0]]);
/// let ten_degrees = 10.0_f64.to_radians() * EARTH_RADIUS_M;
/// assert!((p[1][0] - p[0][0] - ten_degrees / 2.0).abs() < 1e-6);
/// assert_eq!(p[0][1], p[1][1]);
/// ```
pub fn project_lon_lat(lon_lat: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mean = lon_lat.iter().map(|p| p[1]).sum::<f64>() / lon_lat.len().max(1) as f64;
    let along = mean.to_radians().cos() * EARTH_RADIUS_M;
    lon_lat
        .iter()
        .map(|p| {
            [
                p[0].to_radians() * along,
                p[1].to_radians() * EARTH_RADIUS_M,
            ]
        })
        .collect()
}

/// A directed graph with dense node ids and non-negative `f64` edge costs.
///
/// Implementations promise that every node id they return is below
/// [`node_bound`](Graph::node_bound) and that every cost is finite and
/// non-negative: the searches index dense arrays with the ids and rely on the
/// costs for optimality.
pub trait Graph {
    /// The iterator over a node's outgoing edges. It must not allocate.
    type Successors<'a>: Iterator<Item = (NodeId, f64)>
    where
        Self: 'a;

    /// One more than the largest node id: the length of a dense array that
    /// can hold a value for every node.
    fn node_bound(&self) -> usize;

    /// The outgoing edges of `node` as `(target, cost)` pairs.
    fn successors(&self, node: NodeId) -> Self::Successors<'_>;

    /// The successors that a search needs to generate from `node` when it
    /// reached `node` along a shortest known path from `parent`
    /// ([`NodeId::NONE`] at the start). The default is every successor.
    ///
    /// A graph with symmetric paths may leave out successors that some other
    /// path of no greater cost reaches without passing through `node` (the
    /// canonical ordering of [`GridGraph`](crate::grid::GridGraph)); it must
    /// keep at least one shortest path to every node reachable, so that A*,
    /// which calls this method, stays optimal.
    fn successors_from(&self, node: NodeId, parent: NodeId) -> Self::Successors<'_> {
        let _ = parent;
        self.successors(node)
    }

    /// Whether every edge costs exactly 1, so that breadth-first search
    /// finds shortest paths. The default is `false`.
    fn unit_costs(&self) -> bool {
        false
    }

    /// Bounds `(lo, hi)` with `0 < lo <= c <= hi` for the cost `c` of every
    /// edge, when the graph knows them without a scan (`None`, the default,
    /// when it does not). One-to-all searches use them to pick Dial's
    /// bucket queue over a heap: with buckets `lo` wide, no node in a
    /// bucket can lower another in the same bucket, so each node is settled
    /// once, with the distance Dijkstra's algorithm gives it.
    fn cost_bounds(&self) -> Option<(f64, f64)> {
        None
    }

    /// Whether every edge cost is a multiple of [`LATTICE`] (`2^-23`) below
    /// `2^29`, as every grid move is without terrain (1 and
    /// [`DIAGONAL`](crate::grid::DIAGONAL)): then every path sum below
    /// `2^29` is exact in `f64`, and landmark tables need no rounding
    /// margin ([`LandmarkTable::is_exact`](crate::landmarks::LandmarkTable::is_exact)).
    /// The default scans every edge, `O(V + E)`; a graph that knows
    /// answers at once.
    fn lattice_costs(&self) -> bool {
        (0..self.node_bound() as u32)
            .all(|v| self.successors(NodeId(v)).all(|(_, c)| on_lattice(c)))
    }

    /// Whether a path from `from` to `to` may exist: `false` only when the
    /// graph knows there is none, so that a search can answer "no path"
    /// without expanding anything. It must be cheap (`O(1)`); the default
    /// is `true`. A [`GridGraph`](crate::grid::GridGraph) answers from its
    /// connected [`Components`](crate::grid::Components).
    fn may_reach(&self, from: NodeId, to: NodeId) -> bool {
        let _ = (from, to);
        true
    }
}

/// A graph that can also list the incoming edges of a node, as reverse
/// searches (for example landmark tables) need.
pub trait Reversible: Graph {
    /// The iterator over a node's incoming edges.
    type Predecessors<'a>: Iterator<Item = (NodeId, f64)>
    where
        Self: 'a;

    /// The incoming edges of `node` as `(source, cost)` pairs: each is an
    /// edge `source -> node` of that cost.
    fn predecessors(&self, node: NodeId) -> Self::Predecessors<'_>;
}

/// What a view of a graph answers as the graph it views does: the methods
/// of [`Graph`] that size it (`node_bound`) and tell its costs
/// (`unit_costs`, `cost_bounds`, `lattice_costs`). Written
/// `forward_view!(self => self.0)` in the view's `impl Graph`.
macro_rules! forward_view {
    ($s:ident => $inner:expr) => {
        #[inline]
        fn node_bound(&$s) -> usize {
            $inner.node_bound()
        }

        fn unit_costs(&$s) -> bool {
            $inner.unit_costs()
        }

        fn cost_bounds(&$s) -> Option<(f64, f64)> {
            $inner.cost_bounds()
        }

        fn lattice_costs(&$s) -> bool {
            $inner.lattice_costs()
        }
    };
}
pub(crate) use forward_view;

/// The edges of a view of a graph: the iterator `$assoc` and the method
/// `$method` that lists them (`Successors` and `successors`, or
/// `Predecessors` and `predecessors`) are the iterator `G::$iter` and the
/// method `$via` of the viewed graph `$inner`, inlined. Written
/// `forward_edges!(Successors successors => G::Predecessors, self => self.0, predecessors)`
/// in [`Reversed`]'s `impl Graph`.
macro_rules! forward_edges {
    ($assoc:ident $method:ident => G::$iter:ident, $s:ident => $inner:expr, $via:ident) => {
        type $assoc<'a>
            = G::$iter<'a>
        where
            Self: 'a;

        #[inline]
        fn $method(&$s, node: NodeId) -> Self::$assoc<'_> {
            $inner.$via(node)
        }
    };
}

impl<G: Graph + ?Sized> Graph for &G {
    forward_edges!(Successors successors => G::Successors, self => (**self), successors);

    #[expect(
        clippy::inline_always,
        reason = "left to itself the compiler calls it from the search loop; inlined, A* runs 1.3% fewer instructions"
    )]
    #[inline(always)]
    fn successors_from(&self, node: NodeId, parent: NodeId) -> Self::Successors<'_> {
        (**self).successors_from(node, parent)
    }

    forward_view!(self => (**self));

    #[inline]
    fn may_reach(&self, from: NodeId, to: NodeId) -> bool {
        (**self).may_reach(from, to)
    }
}

impl<G: Reversible + ?Sized> Reversible for &G {
    forward_edges!(Predecessors predecessors => G::Predecessors, self => (**self), predecessors);
}

/// A view of a graph with every edge turned around: its successors are the
/// underlying graph's predecessors. A forward search on `Reversed(g)` from
/// `t` computes the distances *to* `t` in `g`.
#[derive(Clone, Copy, Debug)]
pub struct Reversed<G>(pub G);

impl<G: Reversible> Graph for Reversed<G> {
    forward_edges!(Successors successors => G::Predecessors, self => self.0, predecessors);

    forward_view!(self => self.0);

    /// A path `from -> to` here is a path `to -> from` in the underlying
    /// graph.
    #[inline]
    fn may_reach(&self, from: NodeId, to: NodeId) -> bool {
        self.0.may_reach(to, from)
    }
}

impl<G: Reversible> Reversible for Reversed<G> {
    forward_edges!(Predecessors predecessors => G::Successors, self => self.0, successors);
}

/// Graphs for the library's tests.
#[cfg(test)]
pub(crate) mod testing {
    use std::path::Path;

    use super::{CsrGraph, ParseError, parse_graph};

    /// A road graph of `../shared/data/roads` by its relative path
    /// (`fast_paths/bremen_dist.gr`); an `.xz` file is read through the
    /// `xz` command. Panics when the data or `xz` is missing.
    pub(crate) fn road_graph(relative: &str) -> CsrGraph {
        road_graph_at(&cairns_testdata::road_file(relative))
            .unwrap_or_else(|e| panic!("{relative}: {e}"))
    }

    /// The graph of a road file, decompressing `.xz` files with `xz -dc`.
    pub(crate) fn road_graph_at(path: &Path) -> Result<CsrGraph, ParseError> {
        if path.extension().is_none_or(|e| e != "xz") {
            return super::read_graph(path);
        }
        parse_graph(&cairns_testdata::decompressed(path)[..])
    }

    /// An undirected path `0 - 1 - ... - moves` of unit edges.
    pub(crate) fn corridor(moves: u32) -> CsrGraph {
        let edges: Vec<_> = (0..moves).map(|i| (i, i + 1, 1.0)).collect();
        CsrGraph::from_undirected_edges(moves + 1, &edges).unwrap()
    }
}
