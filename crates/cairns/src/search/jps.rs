//! Jump point search: A* over an octile grid that jumps along straight and
//! diagonal runs instead of expanding every cell on them.

use std::f64::consts::SQRT_2;

use super::{Expand, Observer, Search, SearchCache, best_first_with, reopen_for};
use crate::graph::{Graph, NodeId};
use crate::grid::{DIAGONAL_SIDES, GridGraph, Neighborhood};
use crate::heuristic::{Heuristic, Octile};
use crate::open::OpenSet;

/// Jump point search (Harabor and Grastien 2011, with the rules for
/// movement without corner cutting of their 2014 paper): A* on an octile
/// [`GridGraph`] whose successors are *jump points*, through the same
/// best-first loop as [`AStar`](super::AStar) (so it reports to an
/// [`Observer`] like any search). The heuristic is octile by default, or any
/// consistent one ([`with_heuristic`](JumpPointSearch::with_heuristic)).
///
/// From each node it only follows the moves that canonical ordering keeps
/// (see [`GridGraph::with_canonical_ordering`]), and instead of stopping at
/// the next cell it runs along the move until the goal, a wall, or a cell
/// where a blocked neighbour forces a turn; a diagonal run also stops where
/// one of its straight sides reaches such a cell. Only those cells go on
/// OPEN. The cost of every path is the same as A*'s (optimal); the number of
/// OPEN operations falls by an order of magnitude on open maps, at the price
/// of scanning the runs.
///
/// # Contract
///
/// The graph uses [`Neighborhood::Octile`] (`new` returns `None`
/// otherwise). Costs are those of the grid: 1 straight, `sqrt(2)` diagonal.
///
/// # Complexity
///
/// Worst case `O(V log V)` like A*; each run scans cells without touching
/// OPEN or the node records. Memory: the reusable [`SearchCache`].
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::{JumpPointSearch, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     ..........
///     ....@.....
///     ....@.....
///     ....@.....
///     ..........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let jps = JumpPointSearch::new(&graph).unwrap();
/// let mut cache = SearchCache::new();
/// let (start, goal) = (graph.node(0, 2).unwrap(), graph.node(9, 2).unwrap());
/// let path = jps.search(start, goal, &mut cache).unwrap();
/// // Over the wall: two diagonals up, along the top, two diagonals down.
/// assert!((path.cost - (5.0 + 4.0 * 2f64.sqrt())).abs() < 1e-9);
/// // The path lists every cell, not only the jump points.
/// assert_eq!(path.nodes.len(), 10);
/// ```
#[derive(Clone, Debug)]
pub struct JumpPointSearch<'g, H = Octile> {
    graph: &'g GridGraph,
    heuristic: H,
}

/// The direction index (bit order of [`GridGraph::moves`]) of a step with
/// signs `(sx, sy)`, by `(sy + 1) * 3 + (sx + 1)`; 8 for no step.
const SIGN_TO_DIRECTION: [usize; 9] = [7, 0, 4, 3, 8, 1, 6, 2, 5];

impl<'g> JumpPointSearch<'g> {
    /// Jump point search on `graph` with the octile heuristic, or `None`
    /// unless it uses octile movement.
    pub fn new(graph: &'g GridGraph) -> Option<Self> {
        Self::with_heuristic(graph, Octile::new(graph))
    }
}

impl<'g, H: Heuristic> JumpPointSearch<'g, H> {
    /// Jump point search on `graph` guided by `heuristic`, or `None` unless
    /// the graph uses octile movement. Any admissible and consistent
    /// heuristic of the grid keeps the costs optimal (a differential
    /// heuristic, say): jump points are A*'s nodes, and the cost between two
    /// of them is the grid distance along the run.
    pub fn with_heuristic(graph: &'g GridGraph, heuristic: H) -> Option<Self> {
        (graph.neighborhood() == Neighborhood::Octile)
            .then_some(JumpPointSearch { graph, heuristic })
    }

    /// The heuristic.
    pub fn heuristic(&self) -> &H {
        &self.heuristic
    }
}

/// The jump points of one query, as the best-first loop's successors.
struct Jumps<'s, 'g, H> {
    jps: &'s JumpPointSearch<'g, H>,
    goal: NodeId,
}

impl<H> Expand for Jumps<'_, '_, H> {
    #[inline]
    fn node_bound(&self) -> usize {
        self.jps.graph.node_bound()
    }

    #[inline]
    fn expand(&self, u: NodeId, parent: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let jps = self.jps;
        let graph = jps.graph;
        let mut bits = if parent == NodeId::NONE {
            graph.moves(u)
        } else {
            graph.canonical_moves_after(u, jps.direction(parent, u))
        };
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let Some((v, steps)) = jps.jump(u, d, self.goal) {
                let cost = if d < 4 {
                    f64::from(steps)
                } else {
                    f64::from(steps) * SQRT_2
                };
                visit(v, cost);
            }
        }
    }
}

impl<H: Heuristic> Search for JumpPointSearch<'_, H> {
    fn bound(&self) -> f64 {
        self.heuristic.bound()
    }

    /// The cache keeps the jump points; [`path_into`](Search::path_into)
    /// gives the cells.
    #[inline]
    fn search_observed<Q: OpenSet, O: Observer + ?Sized>(
        &self,
        start: NodeId,
        goal: NodeId,
        cache: &mut SearchCache<Q>,
        observer: &mut O,
    ) -> Option<f64> {
        if cache.no_path_known(&self.graph, start, goal) {
            return None;
        }
        let target = self.heuristic.goal(goal);
        best_first_with(
            &Jumps { jps: self, goal },
            |n| self.heuristic.estimate(n, &target),
            start,
            &goal,
            cache,
            observer,
            reopen_for(self.heuristic.bound()),
        )
    }

    /// Writes the cells of the last search's path to `node` into `out`,
    /// filling in the runs between jump points; returns `false` (and leaves
    /// `out` empty) when the search did not reach `node`.
    fn path_into<Q: OpenSet>(
        &self,
        cache: &SearchCache<Q>,
        node: NodeId,
        out: &mut Vec<NodeId>,
    ) -> bool {
        if !cache.path_into(node, out) {
            return false;
        }
        // `out` holds the jump points, start first; expand in place from
        // the back so nothing is allocated beyond `out`'s own growth.
        let jumps = out.len();
        let mut cells = 0;
        for i in 1..jumps {
            cells += self.run_length(out[i - 1], out[i]);
        }
        let total = cells + 1;
        out.resize(total.max(jumps), NodeId::NONE);
        let mut write = total;
        for i in (1..jumps).rev() {
            let (from, to) = (out[i - 1], out[i]);
            let d = self.direction(from, to);
            let mut n = to;
            for _ in 0..self.run_length(from, to) {
                write -= 1;
                out[write] = n;
                n = self.graph.step_back(n, d);
            }
        }
        out.truncate(total);
        true
    }
}

impl<H> JumpPointSearch<'_, H> {
    /// Number of moves along the straight or diagonal run `from -> to`.
    fn run_length(&self, from: NodeId, to: NodeId) -> usize {
        let (fx, fy) = self.graph.coords(from);
        let (tx, ty) = self.graph.coords(to);
        fx.abs_diff(tx).max(fy.abs_diff(ty)) as usize
    }

    /// The direction of the run from `from` to `to`.
    fn direction(&self, from: NodeId, to: NodeId) -> usize {
        let (fx, fy) = self.graph.coords(from);
        let (tx, ty) = self.graph.coords(to);
        let sx = (tx.cmp(&fx) as i32 + 1) as usize;
        let sy = (ty.cmp(&fy) as i32 + 1) as usize;
        SIGN_TO_DIRECTION[sy * 3 + sx]
    }

    /// Runs from `node` in direction `d` to the next jump point: returns it
    /// and the number of moves, or `None` at a wall.
    #[inline]
    fn jump(&self, node: NodeId, d: usize, goal: NodeId) -> Option<(NodeId, u32)> {
        if d < 4 {
            self.jump_straight(node, d, goal)
        } else {
            self.jump_diagonal(node, d, goal)
        }
    }

    fn jump_straight(&self, node: NodeId, d: usize, goal: NodeId) -> Option<(NodeId, u32)> {
        let g = self.graph;
        let [(a, _), (b, _)] = crate::grid::STRAIGHT_SIDES[d];
        let mut cur = node;
        let mut steps = 0;
        loop {
            let here = g.moves(cur);
            if here & (1 << d) == 0 {
                return None;
            }
            let next = g.step(cur, d);
            steps += 1;
            if next == goal {
                return Some((next, steps));
            }
            // A side cell open at `next` but blocked beside `cur`: the
            // turn there is forced, so `next` is a jump point.
            let there = g.moves(next);
            let forced = (there & !here) & ((1 << a) | (1 << b));
            if forced != 0 {
                return Some((next, steps));
            }
            cur = next;
        }
    }

    fn jump_diagonal(&self, node: NodeId, d: usize, goal: NodeId) -> Option<(NodeId, u32)> {
        let g = self.graph;
        let (a, b) = DIAGONAL_SIDES[d - 4];
        let mut cur = node;
        let mut steps = 0;
        loop {
            if g.moves(cur) & (1 << d) == 0 {
                return None;
            }
            let next = g.step(cur, d);
            steps += 1;
            if next == goal
                || self.jump_straight(next, a, goal).is_some()
                || self.jump_straight(next, b, goal).is_some()
            {
                return Some((next, steps));
            }
            cur = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Tile};
    use crate::search::Dijkstra;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// Jump point search finds Dijkstra's cost between every pair from
        /// one start, on random maps dense with obstacles, and its paths
        /// are real grid paths of that cost.
        #[test]
        fn jps_equals_dijkstra(
            w in 1u32..14,
            h in 1u32..14,
            walls in proptest::collection::vec(proptest::bool::weighted(0.3), 196),
            start in 0usize..196,
        ) {
            let tiles = (0..(w * h) as usize)
                .map(|i| if walls[i] { Tile::Tree } else { Tile::Ground })
                .collect();
            let graph = GridGraph::new(Grid::from_tiles(w, h, tiles).unwrap(), Neighborhood::Octile);
            let s = NodeId((start % (w * h) as usize) as u32);
            let mut a = SearchCache::new();
            let mut b = SearchCache::new();
            Dijkstra::new(&graph).all(s, &mut a);
            let jps = JumpPointSearch::new(&graph).unwrap();
            for n in 0..w * h {
                let want = a.g(NodeId(n));
                let got = jps.search(s, NodeId(n), &mut b);
                match (want, &got) {
                    (Some(x), Some(p)) => {
                        proptest::prop_assert!((x - p.cost).abs() < 1e-9, "to {}: {} vs {}", n, x, p.cost);
                        proptest::prop_assert_eq!(p.nodes.first(), Some(&s));
                        proptest::prop_assert_eq!(p.nodes.last(), Some(&NodeId(n)));
                        let mut cost = 0.0;
                        for e in p.nodes.windows(2) {
                            let step = graph.successors(e[0]).find(|m| m.0 == e[1]);
                            proptest::prop_assert!(step.is_some(), "{:?} -> {:?} is not a move", e[0], e[1]);
                            cost += step.unwrap().1;
                        }
                        proptest::prop_assert!((cost - x).abs() < 1e-9);
                    }
                    (None, None) => {}
                    _ => proptest::prop_assert!(false, "to {}: {:?} vs {:?}", n, want, got.map(|p| p.cost)),
                }
            }
        }
    }

    #[test]
    fn four_connected_grids_are_refused() {
        let g = GridGraph::new(
            Grid::filled(3, 3, Tile::Ground).unwrap(),
            Neighborhood::Four,
        );
        assert!(JumpPointSearch::new(&g).is_none());
    }

    #[test]
    fn open_map_needs_few_jump_points() {
        let g = GridGraph::new(
            Grid::filled(64, 64, Tile::Ground).unwrap(),
            Neighborhood::Octile,
        );
        let jps = JumpPointSearch::new(&g).unwrap();
        let mut cache = SearchCache::new();
        let cost = jps.search_cost(NodeId(0), g.node(63, 40).unwrap(), &mut cache);
        assert!((cost.unwrap() - (23.0 + 40.0 * SQRT_2)).abs() < 1e-9);
        assert!(cache.stats().expanded <= 3, "{:?}", cache.stats());
    }
}
