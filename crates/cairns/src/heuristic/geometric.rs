//! The straight-line distance between a graph's own node coordinates (a
//! road graph's `.co` file, an OpenStreetMap extract's positions), scaled
//! to the graph's cheapest cost per unit of distance.

use super::Heuristic;
use crate::graph::{Graph, NodeId, project_lon_lat};

/// The margin taken off the scale, so that rounding in the distances
/// cannot lift an estimate above a cost.
const MARGIN: f64 = 1.0 - 1e-9;

/// A heuristic from coordinates a graph's nodes carry: `s` times the
/// straight-line distance between a node and the goal, where `s` is the
/// least cost per unit of distance over the graph's edges. Every edge then
/// costs at least `s` times the distance between its ends, so by the
/// triangle inequality the heuristic is consistent (and admissible) on any
/// graph whatever its costs mean (metres, seconds) and whatever its
/// coordinates' unit, with no assumption about either: the graph itself
/// fixes `s`. An edge between two nodes at one point does not bound `s`.
///
/// [`planar`](Self::planar) takes the coordinates as points of a plane
/// (DIMACS `.co` files); [`lon_lat`](Self::lon_lat) takes longitudes and
/// latitudes in degrees and projects them (equirectangular about their
/// mean latitude) to metres first, so that east-west and north-south
/// distances weigh alike.
///
/// ```
/// use cairns::graph::{CsrGraph, NodeId};
/// use cairns::heuristic::{Geometric, Heuristic};
///
/// // A square of side 1 whose edges cost 2 a unit, and a diagonal of 5.
/// let g = CsrGraph::from_undirected_edges(4, &[(0, 1, 2.0), (1, 2, 2.0), (2, 3, 2.0), (3, 0, 2.0), (0, 2, 5.0)])
///     .unwrap();
/// let h = Geometric::planar(&g, vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]).unwrap();
/// assert!((h.scale() - 2.0).abs() < 1e-6);
/// let goal = h.goal(NodeId(2));
/// assert!((h.estimate(NodeId(0), &goal) - 2.0 * 2f64.sqrt()).abs() < 1e-6);
/// assert!(Geometric::planar(&g, vec![[0.0, 0.0]]).is_none(), "a point for each node");
/// ```
#[derive(Clone, Debug)]
pub struct Geometric {
    points: Vec<[f64; 2]>,
    scale: f64,
}

impl Geometric {
    /// The heuristic of `graph` over `points`, one a node, as points of a
    /// plane; `None` when there is not one point a node or a point is not
    /// finite (a node with no place has no bound, and a path through it
    /// none either).
    pub fn planar<G: Graph + ?Sized>(graph: &G, points: Vec<[f64; 2]>) -> Option<Geometric> {
        let n = graph.node_bound();
        if points.len() != n || points.iter().flatten().any(|c| !c.is_finite()) {
            return None;
        }
        let mut scale = f64::INFINITY;
        for u in 0..n as u32 {
            let p = points[u as usize];
            for (v, cost) in graph.successors(NodeId(u)) {
                let d = distance(p, points[v.index()]);
                if d > 0.0 {
                    scale = scale.min(cost / d);
                }
            }
        }
        let scale = if scale.is_finite() {
            scale * MARGIN
        } else {
            0.0
        };
        Some(Geometric { points, scale })
    }

    /// [`planar`](Self::planar) over longitudes and latitudes in degrees
    /// (`[lon, lat]`, as OpenStreetMap and the DIMACS USA files give them,
    /// the latter times 10^6: scale them first), projected to metres
    /// about their mean latitude ([`project_lon_lat`]).
    pub fn lon_lat<G: Graph + ?Sized>(graph: &G, lon_lat: &[[f64; 2]]) -> Option<Geometric> {
        Geometric::planar(graph, project_lon_lat(lon_lat))
    }

    /// The least cost per unit of distance over the graph's edges (less a
    /// margin of 10^-9 for rounding), by which distances are multiplied; 0
    /// when no edge joins two distinct points or one of them costs 0.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The bytes of the points.
    pub fn memory_bytes(&self) -> usize {
        self.points.len() * 16
    }
}

#[inline]
fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

impl Heuristic for Geometric {
    type Goal = [f64; 2];

    fn goal(&self, goal: NodeId) -> [f64; 2] {
        self.points
            .get(goal.index())
            .copied()
            .unwrap_or([f64::NAN; 2])
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &[f64; 2]) -> f64 {
        match self.points.get(node.index()) {
            // A goal off the graph (NaN) bounds nothing.
            Some(&p) if !goal[0].is_nan() => self.scale * distance(p, *goal),
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::graph::{CsrGraph, EARTH_RADIUS_M};
    use crate::search::bidirectional::testing::directed_graph;
    use crate::search::{AStar, Dijkstra, Search, SearchCache};

    proptest! {
        /// On random points, whatever the costs, A* over the geometric
        /// heuristic answers every pair as Dijkstra does, and no edge's
        /// ends estimate more than its cost.
        #[test]
        fn astar_over_any_points_answers_as_dijkstra(
            g in directed_graph(12),
            seed in prop::collection::vec((-50.0f64..50.0, -50.0f64..50.0), 12),
        ) {
            let n = g.node_count();
            let points: Vec<[f64; 2]> = (0..n).map(|i| [seed[i % 12].0, seed[i % 12].1]).collect();
            let h = Geometric::planar(&g, points).unwrap();
            for u in 0..n as u32 {
                for (v, c) in g.successors(NodeId(u)) {
                    prop_assert!(h.estimate(NodeId(u), &h.goal(v)) <= c);
                }
            }
            let (mut one, mut cache) = (SearchCache::new(), SearchCache::new());
            let astar = AStar::new(&g, &h);
            for s in 0..n as u32 {
                Dijkstra::new(&g).all(NodeId(s), &mut one);
                for t in 0..n as u32 {
                    prop_assert_eq!(astar.search_cost(NodeId(s), NodeId(t), &mut cache), one.g(NodeId(t)));
                }
            }
        }
    }

    #[test]
    fn missing_or_unplaced_points_are_refused() {
        let g = crate::graph::testing::corridor(2);
        assert!(Geometric::planar(&g, vec![[0.0, 0.0]; 2]).is_none());
        assert!(Geometric::planar(&g, vec![[0.0, 0.0], [1.0, f64::NAN], [2.0, 0.0]]).is_none());
        let all_at_one = Geometric::planar(&g, vec![[1.0, 1.0]; 3]).unwrap();
        assert_eq!(all_at_one.scale(), 0.0);
        let h = Geometric::planar(&g, vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]).unwrap();
        assert_eq!(
            h.estimate(NodeId(0), &h.goal(NodeId(7))),
            0.0,
            "a goal off the graph"
        );
    }

    #[test]
    fn longitudes_are_shortened_by_the_latitude() {
        // Two arcs of 1 km, one east and one north, at 60 degrees north.
        let g = CsrGraph::from_undirected_edges(3, &[(0, 1, 1000.0), (0, 2, 1000.0)]).unwrap();
        let east = 1000.0 / (EARTH_RADIUS_M * 60f64.to_radians().cos());
        let north = 1000.0 / EARTH_RADIUS_M;
        let at = [
            [10.0, 60.0],
            [10.0 + east.to_degrees(), 60.0],
            [10.0, 60.0 + north.to_degrees()],
        ];
        let h = Geometric::lon_lat(&g, &at).unwrap();
        // Both arcs are 1 km long in the projection, within the mean
        // latitude's shift of a third of a millidegree.
        assert!((h.scale() - 1.0).abs() < 1e-4, "{}", h.scale());
    }
}
