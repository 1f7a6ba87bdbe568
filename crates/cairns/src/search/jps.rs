//! Jump point search: A* over a grid under any movement rule that jumps
//! along runs instead of expanding every cell on them.

pub(super) mod cut;
pub(super) mod four;

use super::{Expand, TowardGoal};
use crate::graph::{Graph, NodeId};
use crate::grid::{BitGrid, DIAGONAL, DIAGONAL_SIDES, DIRECTIONS, GridGraph, Neighborhood};
use crate::heuristic::{Heuristic, Octile};

/// Jump point search (Harabor and Grastien 2011, with the rules for
/// movement without corner cutting and the improvements of their 2014
/// paper): A* on an octile [`GridGraph`] whose successors are *jump
/// points*, through the same best-first loop as [`AStar`](super::AStar) (so
/// it reports to an [`Observer`](super::Observer) like any search). The heuristic is octile
/// by default, or any consistent one
/// ([`with_heuristic`](JumpPointSearch::with_heuristic)).
///
/// From each node it only follows the moves that canonical ordering keeps
/// (see [`GridGraph::with_canonical_ordering`]), and instead of stopping at
/// the next cell it runs along the move until a wall or a cell where a
/// blocked neighbour forces a turn. Straight runs are scanned 64 cells at a
/// time on a [`BitGrid`] of the map. A diagonal run is not put on OPEN at
/// all: at each of its cells the two straight runs to its sides are
/// scanned, and the jump points they find become successors of the node
/// being expanded (pruning intermediate jump points), so no run is scanned
/// twice. When the goal is in sight of the expanded node (the diagonal-first
/// path to it, along a direction canonical ordering keeps, is free) the goal
/// is its only successor: no path through that node is shorter. The cost of
/// every path is the same as A*'s (optimal).
///
/// On a 4-connected grid ([`Neighborhood::Four`]) it runs JPS4 (Baum
/// 2025) instead: the canonical ordering that moves horizontally first,
/// vertical runs that stop where a horizontal turn is forced, and
/// horizontal runs scanned up and down at every cell, as diagonal runs are
/// here. Give it the [`Manhattan`](crate::heuristic::Manhattan) heuristic
/// there ([`with_heuristic`](JumpPointSearch::with_heuristic)): the octile
/// one of `new` is admissible but weaker. Where diagonals may cut corners
/// ([`Neighborhood::OctileCornerCutting`], [`Neighborhood::OctileSqueeze`])
/// it takes Harabor and Grastien's first rules (2011), under which a
/// diagonal run stops at a cell with a forced neighbour.
///
/// # Contract
///
/// The graph has no terrain costs (`new` returns `None` otherwise), under
/// any movement rule. Costs are those of the grid: 1 straight,
/// [`DIAGONAL`] diagonal.
/// The searcher keeps a [`BitGrid`] snapshot of the graph, built by `new`
/// and `with_heuristic`.
///
/// # Complexity
///
/// Worst case `O(V log V)` like A*; each run scans words of cells without
/// touching OPEN or the node records. Building: `O(cells)` time and about
/// four bits per cell for the [`BitGrid`]. Per query: the reusable
/// [`SearchCache`](super::SearchCache).
///
/// # Example
///
/// ```
/// use cairns::grid::{DIAGONAL, Grid, GridGraph, Neighborhood};
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
/// assert_eq!(path.cost, 5.0 + 4.0 * DIAGONAL);
/// // The path lists every cell, not only the jump points.
/// assert_eq!(path.nodes.len(), 10);
/// ```
#[derive(Clone, Debug)]
pub struct JumpPointSearch<'g, H = Octile> {
    graph: &'g GridGraph,
    bits: BitGrid,
    heuristic: H,
    /// The jump rules of the graph's movement rule.
    rules: Rules,
}

/// Which jump rules a graph's movement rule takes: jump point search's,
/// and the entries of a [`JumpTable`](super::JumpTable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rules {
    /// Octile without corner cutting: Harabor and Grastien's 2014 rules.
    Octile,
    /// 4-connected: JPS4's (Baum 2025).
    Four,
    /// Octile with diagonals that cut corners, past one wall or between
    /// two: the 2011 rules.
    Cut,
}

impl Rules {
    /// The rules of `neighborhood`.
    pub(super) fn of(neighborhood: Neighborhood) -> Rules {
        match neighborhood {
            Neighborhood::Octile => Rules::Octile,
            Neighborhood::Four => Rules::Four,
            Neighborhood::OctileCornerCutting | Neighborhood::OctileSqueeze => Rules::Cut,
        }
    }

    /// Turns the jump points in `out` (start first) into every cell of the
    /// path, in place, by how these rules link a node to its successors:
    /// a horizontal leg then a vertical one 4-connected, else a diagonal
    /// run then a straight one. Jump point search's and JPS+'s.
    pub(super) fn fill_path(self, graph: &GridGraph, out: &mut Vec<NodeId>) {
        if self == Rules::Four {
            four::fill_path(graph, out);
        } else {
            fill_runs(graph, out);
        }
    }
}

/// The direction index (bit order of [`GridGraph::moves`]) of a step with
/// signs `(sx, sy)`, by `(sy + 1) * 3 + (sx + 1)`; 8 for no step.
const SIGN_TO_DIRECTION: [usize; 9] = [7, 0, 4, 3, 8, 1, 6, 2, 5];

/// The moves of a mask that are diagonal.
const DIAGONALS: u8 = 0xf0;

impl<'g> JumpPointSearch<'g> {
    /// Jump point search on `graph` with the octile heuristic, or `None`
    /// when it has terrain costs. Builds the [`BitGrid`] of the graph
    /// (`O(cells)`).
    pub fn new(graph: &'g GridGraph) -> Option<Self> {
        Self::with_heuristic(graph, Octile::new(graph))
    }
}

impl<'g, H: Heuristic> JumpPointSearch<'g, H> {
    /// Jump point search on `graph` guided by `heuristic`, or `None` when
    /// the graph has terrain costs
    /// ([`GridGraph::has_terrain`]: jumping assumes every straight move
    /// costs 1 and every diagonal `sqrt(2)`). Any admissible and consistent
    /// heuristic of the grid keeps the costs optimal (a differential
    /// heuristic, say): jump points are A*'s nodes, and the cost between two
    /// of them is the grid distance along the run. Builds the [`BitGrid`]
    /// of the graph (`O(cells)`).
    pub fn with_heuristic(graph: &'g GridGraph, heuristic: H) -> Option<Self> {
        (!graph.has_terrain()).then(|| JumpPointSearch {
            graph,
            bits: BitGrid::new(graph.grid()),
            heuristic,
            rules: Rules::of(graph.neighborhood()),
        })
    }

    /// The heuristic.
    pub fn heuristic(&self) -> &H {
        &self.heuristic
    }
}

/// The jump points of one query, as the best-first loop's successors.
pub(crate) struct Jumps<'s, 'g, H> {
    jps: &'s JumpPointSearch<'g, H>,
    goal: NodeId,
    /// The goal's `(x, y)`.
    target: (u32, u32),
}

impl<H> Expand for Jumps<'_, '_, H> {
    #[inline]
    fn node_bound(&self) -> usize {
        self.jps.graph.node_bound()
    }

    #[inline]
    fn expand(&self, u: NodeId, parent: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let jps = self.jps;
        if jps.rules != Rules::Octile {
            return self.expand_other(u, parent, &mut visit);
        }
        let graph = jps.graph;
        let (x, y) = graph.coords(u);
        let moves = if parent == NodeId::NONE {
            graph.moves(u)
        } else {
            graph.canonical_moves_after(u, arrival(graph, parent, (x, y)))
        };
        if let Some(cost) = jps.goal_in_sight(u, (x, y), self.target, moves) {
            visit(self.goal, cost);
            return;
        }
        let mut straight = moves & !DIAGONALS;
        while straight != 0 {
            let d = straight.trailing_zeros() as usize;
            straight &= straight - 1;
            if let Some(steps) = jps.bits.jump(d, x, y) {
                visit(jps.cell(x, y, d, steps), f64::from(steps));
            }
        }
        let mut diagonal = moves & DIAGONALS;
        while diagonal != 0 {
            let d = diagonal.trailing_zeros() as usize;
            diagonal &= diagonal - 1;
            jps.fan::<false>(u, (x, y), d, &mut visit);
        }
    }
}

impl<H> Jumps<'_, '_, H> {
    /// [`expand`](Expand::expand) under the rules but octile: the moves
    /// canonical ordering keeps, the goal alone when the path the rules
    /// link a node to it by is free, else the jump points of the runs.
    /// Kept out of line: inlined into [`expand`](Expand::expand), it made
    /// the octile search's loop run 7.7% more instructions on den520d
    /// (callgrind); out of line, 0.5% more than with no other rules.
    #[inline(never)]
    fn expand_other(&self, u: NodeId, parent: NodeId, visit: &mut impl FnMut(NodeId, f64)) {
        let jps = self.jps;
        let graph = jps.graph;
        let (x, y) = graph.coords(u);
        let four = jps.rules == Rules::Four;
        let moves = match parent {
            NodeId::NONE => graph.moves(u),
            _ if four => four::kept(graph, u, parent, (x, y)),
            _ => cut::canonical_after(graph.moves(u), arrival(graph, parent, (x, y))),
        };
        let sight = if four {
            jps.goal_in_sight_four((x, y), self.target, moves)
        } else {
            jps.goal_in_sight(u, (x, y), self.target, moves)
        };
        if let Some(cost) = sight {
            visit(self.goal, cost);
        } else if four {
            jps.runs_four((x, y), moves, visit);
        } else {
            jps.runs_cut(u, (x, y), moves, visit);
        }
    }
}

/// The cache links jump points; [`fill_path`](TowardGoal::fill_path)
/// gives the cells between them.
impl<'g, H: Heuristic> TowardGoal for JumpPointSearch<'g, H> {
    on_grid!(Jumps<'a, 'g, H>);

    #[inline]
    fn expander(&self, goal: NodeId) -> Jumps<'_, 'g, H> {
        Jumps {
            jps: self,
            goal,
            target: self.graph.coords(goal),
        }
    }

    fn fill_path(&self, path: &mut Vec<NodeId>) {
        self.rules.fill_path(self.graph, path);
    }
}

/// Turns the jump points in `out` (start first; each step between two of
/// them a diagonal run followed by a straight one, either possibly empty)
/// into every cell of the path, in place. Shared by jump point search and
/// JPS+, whose consecutive jump points are linked the same way.
pub(super) fn fill_runs(graph: &GridGraph, out: &mut Vec<NodeId>) {
    fill_legs(graph, out, |a, b| {
        let legs = legs_between(graph.coords(a), graph.coords(b));
        [
            (legs.straight, legs.straight_len),
            (legs.diagonal, legs.diagonal_len),
        ]
    });
}

/// Turns the jump points in `out` (start first) into every cell of the
/// path, in place from the back, so nothing is allocated beyond `out`'s
/// own growth: `legs(a, b)` gives the two runs that link `a` to `b`, the
/// last first, each a direction and a length (0 for none).
pub(super) fn fill_legs(
    graph: &GridGraph, out: &mut Vec<NodeId>, legs: impl Fn(NodeId, NodeId) -> [(usize, u32); 2],
) {
    let jumps = out.len();
    let cells: usize = (1..jumps)
        .flat_map(|i| legs(out[i - 1], out[i]))
        .map(|(_, len)| len as usize)
        .sum();
    let total = cells + 1;
    out.resize(total.max(jumps), NodeId::NONE);
    let mut write = total;
    for i in (1..jumps).rev() {
        let mut n = out[i];
        for (d, len) in legs(out[i - 1], out[i]) {
            for _ in 0..len {
                write -= 1;
                out[write] = n;
                n = graph.step_back(n, d);
            }
        }
    }
    out.truncate(total);
}

/// The direction of the last move into `(x, y)` from `parent` on `graph`:
/// the straight leg of the diagonal-first path between them if it has one,
/// else its diagonal (for JPS+, whose jump points are linked by one straight
/// or diagonal line, that line's direction).
#[inline]
pub(super) fn arrival(graph: &GridGraph, parent: NodeId, (x, y): (u32, u32)) -> usize {
    let legs = legs_between(graph.coords(parent), (x, y));
    if legs.straight_len > 0 {
        legs.straight
    } else {
        legs.diagonal
    }
}

/// The path between two cells that moves diagonally first, then straight:
/// how jump point search links a node to each of its successors.
pub(super) struct Legs {
    pub(super) diagonal: usize,
    pub(super) diagonal_len: u32,
    pub(super) straight: usize,
    pub(super) straight_len: u32,
}

impl Legs {
    /// These legs if their first move (the diagonal, or the straight leg
    /// when there is no diagonal) is one of `moves`; `None` for no move.
    #[inline]
    pub(super) fn starting_in(self, moves: u8) -> Option<Legs> {
        let first = if self.diagonal_len > 0 {
            self.diagonal
        } else {
            self.straight
        };
        (first < 8 && moves & (1 << first) != 0).then_some(self)
    }
}

impl<H> JumpPointSearch<'_, H> {
    /// The node `steps` moves from `(x, y)` in direction `d`.
    #[inline]
    fn cell(&self, x: u32, y: u32, d: usize, steps: u32) -> NodeId {
        let (dx, dy) = DIRECTIONS[d];
        let nx = x.wrapping_add_signed(dx * steps as i32);
        let ny = y.wrapping_add_signed(dy * steps as i32);
        NodeId(ny * self.graph.width() + nx)
    }

    /// The cost from `u` at `(x, y)` to the goal at `target` when the
    /// diagonal-first path is free and starts with a move in `moves`.
    #[inline]
    fn goal_in_sight(
        &self, node: NodeId, (x, y): (u32, u32), target: (u32, u32), moves: u8,
    ) -> Option<f64> {
        let legs = legs_between((x, y), target).starting_in(moves)?;
        let graph = self.graph;
        let mut corner = node;
        for _ in 0..legs.diagonal_len {
            if graph.moves(corner) & (1 << legs.diagonal) == 0 {
                return None;
            }
            corner = graph.step(corner, legs.diagonal);
        }
        if legs.straight_len > 0 {
            let (cx, cy) = if legs.diagonal_len > 0 {
                let (dx, dy) = DIRECTIONS[legs.diagonal];
                let k = legs.diagonal_len as i32;
                (x.wrapping_add_signed(dx * k), y.wrapping_add_signed(dy * k))
            } else {
                (x, y)
            };
            if !self.bits.clear(legs.straight, cx, cy, legs.straight_len) {
                return None;
            }
        }
        Some(f64::from(legs.diagonal_len) * DIAGONAL + f64::from(legs.straight_len))
    }

    /// Runs diagonally from `u` at `(x, y)` in direction `d` to a wall; at
    /// each cell on the way, scans the two straight runs to its sides and
    /// offers their jump points as successors of `u`. With `CUT` (the 2011
    /// rules, where diagonals cut corners) the straight runs stop by those
    /// rules, and the diagonal run stops at a cell with a forced neighbour,
    /// offered as a successor itself.
    #[inline]
    fn fan<const CUT: bool>(
        &self, node: NodeId, (x, y): (u32, u32), dir: usize, visit: &mut impl FnMut(NodeId, f64),
    ) {
        let graph = self.graph;
        let (vertical, horizontal) = DIAGONAL_SIDES[dir - 4];
        let natural = 1u8 << dir | 1 << vertical | 1 << horizontal;
        let (dx, dy) = DIRECTIONS[dir];
        let (mut cell, mut cx, mut cy) = (node, x, y);
        let mut run = 0.0;
        while graph.moves(cell) & (1 << dir) != 0 {
            cell = graph.step(cell, dir);
            cx = cx.wrapping_add_signed(dx);
            cy = cy.wrapping_add_signed(dy);
            run += DIAGONAL;
            if CUT && cut::canonical_after(graph.moves(cell), dir) & !natural != 0 {
                visit(cell, run);
                return;
            }
            for side in [vertical, horizontal] {
                let jump = if CUT {
                    self.bits.jump_cut(side, cx, cy)
                } else {
                    self.bits.jump(side, cx, cy)
                };
                if let Some(steps) = jump {
                    visit(self.cell(cx, cy, side, steps), run + f64::from(steps));
                }
            }
        }
    }
}

/// The diagonal-first path from `(fx, fy)` to `(tx, ty)`. A leg of length
/// zero has direction 8 (no move).
pub(super) fn legs_between((fx, fy): (u32, u32), (tx, ty): (u32, u32)) -> Legs {
    let (adx, ady) = (fx.abs_diff(tx), fy.abs_diff(ty));
    let sx = (tx.cmp(&fx) as i32 + 1) as usize;
    let sy = (ty.cmp(&fy) as i32 + 1) as usize;
    let diagonal_len = adx.min(ady);
    let straight_len = adx.max(ady) - diagonal_len;
    let diagonal = if diagonal_len > 0 {
        SIGN_TO_DIRECTION[sy * 3 + sx]
    } else {
        8
    };
    let straight = match adx.cmp(&ady) {
        std::cmp::Ordering::Greater => SIGN_TO_DIRECTION[3 + sx],
        std::cmp::Ordering::Less => SIGN_TO_DIRECTION[sy * 3 + 1],
        std::cmp::Ordering::Equal => 8,
    };
    Legs {
        diagonal,
        diagonal_len,
        straight,
        straight_len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::grid::testing::open_map;
    use crate::heuristic::Manhattan;
    use crate::search::Dijkstra;
    use crate::search::{Search, SearchCache};

    /// Checks jump point search against one-to-all Dijkstra from `s` to
    /// each of `targets`: the same cost (or both no path), and a path that
    /// lists real grid moves of that cost from `s` to the target.
    /// Octile maps with the octile heuristic, 4-connected ones with
    /// Manhattan.
    fn check_against_dijkstra(
        graph: &GridGraph, start: NodeId, targets: impl Iterator<Item = u32>,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        if graph.neighborhood() == Neighborhood::Four {
            check_with(graph, Manhattan::new(graph), start, targets)
        } else {
            check_with(graph, Octile::new(graph), start, targets)
        }
    }

    fn check_with<H: Heuristic>(
        graph: &GridGraph, heuristic: H, start: NodeId, targets: impl Iterator<Item = u32>,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let mut reference = SearchCache::new();
        let mut cache = SearchCache::new();
        Dijkstra::new(graph).all(start, &mut reference);
        let jps = JumpPointSearch::with_heuristic(graph, heuristic).unwrap();
        for n in targets {
            let want = reference.g(NodeId(n));
            let got = jps.search(start, NodeId(n), &mut cache);
            match (want, &got) {
                (Some(dist), Some(path)) => {
                    proptest::prop_assert!(
                        (dist - path.cost).abs() < 1e-9,
                        "to {}: {} vs {}",
                        n,
                        dist,
                        path.cost
                    );
                    proptest::prop_assert_eq!(path.nodes.first(), Some(&start));
                    proptest::prop_assert_eq!(path.nodes.last(), Some(&NodeId(n)));
                    let mut cost = 0.0;
                    for e in path.nodes.windows(2) {
                        let step = graph.successors(e[0]).find(|m| m.0 == e[1]);
                        proptest::prop_assert!(
                            step.is_some(),
                            "{:?} -> {:?} is not a move",
                            e[0],
                            e[1]
                        );
                        cost += step.unwrap().1;
                    }
                    proptest::prop_assert!((cost - dist).abs() < 1e-9);
                }
                (None, None) => {}
                _ => proptest::prop_assert!(
                    false,
                    "to {}: {:?} vs {:?}",
                    n,
                    want,
                    got.map(|p| p.cost)
                ),
            }
        }
        Ok(())
    }

    /// A map of `w` x `h` cells of one of four shapes, drawn from `seed`:
    /// random obstacles, corridors (walls every few rows or columns with a
    /// few gaps), an open room with a few pillars, or a border of walls
    /// around an open inside.
    fn shaped_map(w: u32, h: u32, shape: u8, seed: u64, rule: Neighborhood) -> GridGraph {
        let mut rng = crate::rng::SplitMix64::new(seed);
        let walls = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| match shape {
                0 => rng.below(100) < 30,
                1 => {
                    let (along, across) = if seed.is_multiple_of(2) {
                        (x, y)
                    } else {
                        (y, x)
                    };
                    across % 3 == 1 && rng.below(100) < 90 || along % 7 == 3 && rng.below(100) < 20
                }
                2 => rng.below(100) < 3,
                _ => x == 0 || y == 0 || x + 1 == w || y + 1 == h || rng.below(100) < 5,
            });
        GridGraph::new(Grid::from_walls(w, h, walls).unwrap(), rule)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// Jump point search finds Dijkstra's cost between every pair from
        /// one start, on random maps dense with obstacles, and its paths
        /// are real grid paths of that cost.
        #[test]
        fn jps_equals_dijkstra((graph, s) in crate::grid::testing::dense_map()) {
            let cells = graph.node_bound() as u32;
            check_against_dijkstra(&graph, s, 0..cells)?;
        }

        /// The same maps under the other rules: JPS4 4-connected, the 2011
        /// rules where diagonals cut corners.
        #[test]
        fn jps_equals_dijkstra_under_every_rule(
            (graph, s) in crate::grid::testing::dense_map(),
            rule in proptest::sample::select(&Neighborhood::ALL[..]),
        ) {
            let graph = graph.with_neighborhood(rule);
            let cells = graph.node_bound() as u32;
            check_against_dijkstra(&graph, s, 0..cells)?;
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// The same on corridors, open rooms, walled borders and random
        /// obstacles, with widths and heights around one and two words of
        /// the bit grid (64, 128) and single rows or columns, so that scans
        /// cross word boundaries and stop at the map's edge.
        #[test]
        fn jps_equals_dijkstra_on_shaped_maps(
            w in proptest::prop_oneof![1u32..4, 62u32..67, 126u32..131],
            h in proptest::prop_oneof![1u32..4, 5u32..24, 62u32..67],
            shape in 0u8..4,
            seed in proptest::prelude::any::<u64>(),
            start in proptest::prelude::any::<u32>(),
            rule in proptest::sample::select(&Neighborhood::ALL[..]),
        ) {
            let graph = shaped_map(w, h, shape, seed, rule);
            let cells = w * h;
            let s = NodeId(start % cells);
            // Every target on small maps, a stride of them on large ones.
            let stride = (cells / 97).max(1);
            check_against_dijkstra(&graph, s, (0..cells).step_by(stride as usize))?;
        }
    }

    #[test]
    fn single_cell_and_neighbours() {
        let one = open_map(1, 1, Neighborhood::Octile);
        let jps = JumpPointSearch::new(&one).unwrap();
        let mut cache = SearchCache::new();
        let path = jps.search(NodeId(0), NodeId(0), &mut cache).unwrap();
        assert_eq!((path.cost, path.nodes), (0.0, vec![NodeId(0)]));
        // A goal one move away is the start's only successor.
        let open = open_map(5, 5, Neighborhood::Octile);
        let jps = JumpPointSearch::new(&open).unwrap();
        let (s, t) = (open.node(2, 2).unwrap(), open.node(3, 3).unwrap());
        let path = jps.search(s, t, &mut cache).unwrap();
        assert_eq!(path.nodes, vec![s, t]);
        assert_eq!(cache.stats().generated, 1);
    }

    #[test]
    fn terrain_is_refused() {
        let grid = Grid::from_ascii("..\n..").unwrap();
        let terrain =
            GridGraph::with_cell_costs(grid, Neighborhood::Four, vec![1.0, 2.0, 1.0, 1.0]);
        assert!(JumpPointSearch::new(&terrain.unwrap()).is_none());
    }

    /// JPS4 on an open room: the horizontal-first path, a few jump points.
    #[test]
    fn open_four_connected_map_needs_few_jump_points() {
        let g = open_map(64, 64, Neighborhood::Four);
        let jps = JumpPointSearch::with_heuristic(&g, Manhattan::new(&g)).unwrap();
        let mut cache = SearchCache::new();
        let goal = g.node(63, 40).unwrap();
        let path = jps.search(NodeId(0), goal, &mut cache).unwrap();
        assert_eq!(path.cost, 103.0);
        assert_eq!(path.nodes.len(), 104);
        // Along the top row first, then down.
        assert_eq!(path.nodes[63], g.node(63, 0).unwrap());
        assert!(cache.stats().expanded <= 2, "{:?}", cache.stats());
    }

    #[test]
    fn open_map_needs_few_jump_points() {
        let g = open_map(64, 64, Neighborhood::Octile);
        let jps = JumpPointSearch::new(&g).unwrap();
        let mut cache = SearchCache::new();
        let cost = jps.search_cost(NodeId(0), g.node(63, 40).unwrap(), &mut cache);
        assert_eq!(cost, Some(23.0 + 40.0 * DIAGONAL));
        assert!(cache.stats().expanded <= 3, "{:?}", cache.stats());
    }
}
