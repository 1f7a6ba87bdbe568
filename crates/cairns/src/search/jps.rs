//! Jump point search: A* over an octile grid that jumps along straight and
//! diagonal runs instead of expanding every cell on them.

use std::f64::consts::SQRT_2;

use super::astar::relax;
use super::{NodeRecord, Path, SearchCache, in_bounds};
use crate::graph::{Graph, NodeId};
use crate::grid::{DIAGONAL_SIDES, GridGraph, Neighborhood};
use crate::heuristic::{Heuristic, Octile};
use crate::open::{Key, OpenSet};

/// Jump point search (Harabor and Grastien 2011, with the rules for
/// movement without corner cutting of their 2014 paper): A* with the octile
/// heuristic on an octile [`GridGraph`], whose successors are *jump
/// points*.
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
/// use cairns::search::{JumpPointSearch, SearchCache};
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
pub struct JumpPointSearch<'g> {
    graph: &'g GridGraph,
    heuristic: Octile,
}

/// The direction index (bit order of [`GridGraph::moves`]) of a step with
/// signs `(sx, sy)`, by `(sy + 1) * 3 + (sx + 1)`; 8 for no step.
const SIGN_TO_DIRECTION: [usize; 9] = [7, 0, 4, 3, 8, 1, 6, 2, 5];

impl<'g> JumpPointSearch<'g> {
    /// Jump point search on `graph`, or `None` unless it uses octile
    /// movement.
    pub fn new(graph: &'g GridGraph) -> Option<Self> {
        (graph.neighborhood() == Neighborhood::Octile).then(|| JumpPointSearch {
            graph,
            heuristic: Octile::new(graph),
        })
    }

    /// The cost of a shortest path from `start` to `goal`, or `None` when
    /// there is none or either node is off the grid. The cache keeps the
    /// jump points; [`path_into`](Self::path_into) gives the cells. After
    /// the first call, this allocates nothing.
    pub fn search_cost<Q: OpenSet>(
        &self,
        start: NodeId,
        goal: NodeId,
        cache: &mut SearchCache<Q>,
    ) -> Option<f64> {
        let graph = self.graph;
        let bound = graph.node_bound();
        cache.begin(bound);
        if !in_bounds(start, bound) || !in_bounds(goal, bound) {
            return None;
        }
        let target = self.heuristic.goal(goal);
        let h = |n: NodeId| self.heuristic.estimate(n, &target);
        let open_stamp = cache.open_stamp();
        let closed_stamp = cache.closed_stamp();
        let SearchCache {
            records,
            open,
            stats,
            ..
        } = cache;
        let h0 = h(start);
        records[start.index()] = NodeRecord {
            g: 0.0,
            h: h0,
            parent: NodeId::NONE,
            stamp: open_stamp,
        };
        open.push(start, Key::new(0.0, h0));
        let mut max_open = 1usize;
        let mut expanded = 0u64;
        let mut generated = 0u64;
        let found = loop {
            let Some((u, key)) = open.pop() else {
                break None;
            };
            let ru = records[u.index()];
            if ru.stamp == closed_stamp || key.g > ru.g {
                continue;
            }
            records[u.index()].stamp = closed_stamp;
            if u == goal {
                break Some(ru.g);
            }
            expanded += 1;
            let moves = if ru.parent == NodeId::NONE {
                graph.moves(u)
            } else {
                graph.canonical_moves_after(u, self.direction(ru.parent, u))
            };
            let mut bits = moves;
            while bits != 0 {
                let d = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some((v, steps)) = self.jump(u, d, goal) {
                    generated += 1;
                    let cost = if d < 4 {
                        f64::from(steps)
                    } else {
                        f64::from(steps) * SQRT_2
                    };
                    relax(records, open, stats, &h, u, v, ru.g + cost, open_stamp);
                }
            }
            max_open = max_open.max(open.len());
        };
        stats.expanded = expanded;
        stats.generated = generated;
        stats.max_open = max_open as u64;
        found
    }

    /// A shortest path from `start` to `goal`, every cell listed.
    pub fn search<Q: OpenSet>(
        &self,
        start: NodeId,
        goal: NodeId,
        cache: &mut SearchCache<Q>,
    ) -> Option<Path> {
        let cost = self.search_cost(start, goal, cache)?;
        let mut nodes = Vec::new();
        self.path_into(cache, goal, &mut nodes);
        Some(Path { nodes, cost })
    }

    /// Writes the cells of the last search's path to `node` into `out`,
    /// filling in the runs between jump points; returns `false` (and leaves
    /// `out` empty) when the search did not reach `node`.
    pub fn path_into<Q: OpenSet>(
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
