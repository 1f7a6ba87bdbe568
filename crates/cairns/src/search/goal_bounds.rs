//! Goal bounding on JPS+ (`jps+bb`): for each jump point and each of the
//! eight moves, the bounding box of the cells whose shortest path from the
//! jump point starts with that move (Rabin and Sturtevant 2016, "Combining
//! Bounding Boxes and JPS to Prune Grid Pathfinding", boxes kept at jump
//! points only). A query is JPS+ ([`JumpPointSearchPlus`]) that, at a jump
//! point with boxes, does not follow a move whose box leaves the goal out.
//! Saving and loading the boxes is in [`file`].

mod file;

use std::borrow::Cow;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::JumpPointSearchPlus;
use super::jps_plus::{JumpData, MoveFilter};
use crate::graph::NodeId;
use crate::grid::{DIAGONAL, DIRECTIONS, GridGraph};
use crate::heuristic::{Heuristic, Octile};
use crate::search::JumpTable;

/// One move's box: the least and greatest column and row of the cells it
/// leads to on a shortest path, `[min_x, min_y, max_x, max_y]`.
type Box4 = [u16; 4];

/// The box of a move that no shortest path starts with: it holds no cell.
const EMPTY: Box4 = [u16::MAX, u16::MAX, 0, 0];

/// The slot of a cell without boxes.
const NONE: u32 = u32::MAX;

/// A jump table with goal bounding: for each jump point of the table (a
/// cell JPS+ can expand: one a straight run's entry leads to) and each of
/// the eight moves (the bit order of [`GridGraph::moves`]), the bounding
/// box of the cells whose shortest path from the jump point can start with
/// that move.
///
/// A cell reached on a shortest canonical path by several first moves is
/// in the box of each of them, so a box that leaves the goal out says that
/// no shortest canonical path to the goal starts with that move, and
/// dropping the move keeps the search optimal. A jump point without boxes (one the build did
/// not reach within its budget, [`build_within`](GoalBounds::build_within))
/// drops nothing: the table answers optimally at any budget, and prunes
/// more the more of it is built.
///
/// The boxes are built with one Dijkstra search per jump point over the
/// grid's canonical paths (those jump point search follows), keeping for
/// each cell the set of first moves that reach it on a shortest one
/// (exactly: a cost is a count of straight and of diagonal moves, so that
/// ties are ties), in parallel over the jump points (rayon). Counting only
/// canonical paths keeps the boxes tight: a cell a diagonal and a straight
/// first move both reach at its cost is in the diagonal's box alone, since
/// a canonical path takes its diagonal moves first.
/// The jump table is the one [`JumpTable::build`] makes of the same graph
/// (it is rebuilt, not saved, when the boxes are loaded).
///
/// # Limits
///
/// Box coordinates are 16-bit: on a grid wider or higher than 65,536
/// cells no jump point gets boxes (the search is then JPS+).
///
/// # Complexity
///
/// [`build`](GoalBounds::build): one Dijkstra search per jump point,
/// `O(J V)` for `J` jump points and `V` cells (each search is linear: its
/// buckets are one unit of cost wide, and no move costs less). Memory: the
/// jump table (16 bytes per cell), 4 bytes per cell for the index of its
/// boxes and 64 bytes per jump point with boxes
/// ([`memory_bytes`](GoalBounds::memory_bytes)).
///
/// # Example
///
/// ```
/// use cairns::grid::{DIAGONAL, Grid, GridGraph, Neighborhood};
/// use cairns::search::{GoalBounds, JumpPointSearchPlus, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     ..........
///     ....@.....
///     ....@.....
///     ....@.....
///     ..........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let bounds = GoalBounds::build(&graph);
/// assert_eq!(bounds.boxed(), bounds.jump_points());
/// let search = JumpPointSearchPlus::bounded(&graph, &bounds).unwrap();
/// let mut cache = SearchCache::new();
/// let (start, goal) = (graph.node(0, 2).unwrap(), graph.node(9, 2).unwrap());
/// let path = search.search(start, goal, &mut cache).unwrap();
/// assert_eq!(path.cost, 5.0 + 4.0 * DIAGONAL);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalBounds {
    jumps: JumpTable,
    /// The jump points, increasing.
    points: Vec<NodeId>,
    /// For each cell, the index of its eight boxes in `boxes` divided by
    /// eight, or [`NONE`].
    slots: Vec<u32>,
    /// Eight boxes per jump point with boxes, in the order of `points`.
    boxes: Vec<Box4>,
}

impl GoalBounds {
    /// The budget of the table a spec (`jps+bb`) builds on `graph`
    /// ([`build_within`](Self::build_within)): 8 seconds times the square
    /// of the grid's cells over `512 * 512` (the build is one search over
    /// the cells per jump point, so it grows with the square), from 0.5
    /// to 8 seconds: 0.5 s on a 256x256 map, 8 s on a 512x512 one or
    /// larger (issue 32's build targets).
    pub fn spec_budget(graph: &GridGraph) -> Duration {
        let share = cells(graph) as f64 / f64::from(512 * 512);
        Duration::from_secs_f64((8.0 * share * share).clamp(0.5, 8.0))
    }

    /// The table a spec (`jps+bb`) and `cairns table build` make: built
    /// within [`spec_budget`](Self::spec_budget).
    pub fn build_for_spec(graph: &GridGraph) -> GoalBounds {
        GoalBounds::build_within(graph, Some(GoalBounds::spec_budget(graph)))
    }

    /// Builds the jump table and every jump point's boxes, in parallel.
    /// Meant for octile graphs ([`JumpPointSearchPlus::bounded`] refuses
    /// the others).
    pub fn build(graph: &GridGraph) -> GoalBounds {
        GoalBounds::build_within(graph, None)
    }

    /// Like [`build`](Self::build), but starts no jump point's search after
    /// `budget` (when given) has passed: the jump points not reached get no
    /// boxes and prune nothing, so the search stays optimal.
    /// [`boxed`](Self::boxed) says how many got boxes.
    pub fn build_within(graph: &GridGraph, budget: Option<Duration>) -> GoalBounds {
        let deadline = budget.map(|b| Instant::now() + b);
        GoalBounds::build_where(graph, |_| deadline.is_none_or(|d| Instant::now() < d))
    }

    /// Builds the boxes of the jump points for which `go` (asked just
    /// before each one's search) says yes.
    fn build_where(graph: &GridGraph, go: impl Fn(NodeId) -> bool + Sync) -> GoalBounds {
        let jumps = JumpTable::build(graph);
        let points = jump_points(graph, &jumps);
        let fits = |n: u32| n <= 1 << 16;
        let built: Vec<Option<[Box4; 8]>> = if fits(graph.width()) && fits(graph.height()) {
            // Chunks, so that each search reuses the arrays of the last;
            // made only for a chunk that searches (past a budget, the
            // chunks left would each clear a map's worth for nothing).
            points
                .par_chunks(16)
                .flat_map_iter(|chunk| {
                    let mut sweep = None;
                    chunk
                        .iter()
                        .map(|&p| {
                            go(p).then(|| {
                                let sweep = sweep.get_or_insert_with(|| Sweep::new(cells(graph)));
                                sweep.boxes_from(graph, p)
                            })
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        } else {
            vec![None; points.len()]
        };
        let mut table = GoalBounds::empty(graph, jumps, points);
        for (i, boxes) in built.into_iter().enumerate() {
            if let Some(boxes) = boxes {
                table.set(i, &boxes);
            }
        }
        table
    }

    /// This table after the cells `edited` of `graph` changed: the jump
    /// table repaired near the edits ([`JumpTable::repair`]) and no boxes,
    /// since a box of the older map may leave out a cell whose shortest
    /// path now starts its way. The search then prunes nothing and answers
    /// as `jps+` does, until the table is built again.
    #[must_use]
    pub fn edited(&self, graph: &GridGraph, edited: &[NodeId]) -> GoalBounds {
        let mut jumps = self.jumps.clone();
        jumps.repair(graph, edited);
        let points = jump_points(graph, &jumps);
        GoalBounds::empty(graph, jumps, points)
    }

    /// The table of `jumps` with no boxes yet.
    fn empty(graph: &GridGraph, jumps: JumpTable, points: Vec<NodeId>) -> GoalBounds {
        GoalBounds {
            jumps,
            points,
            slots: vec![NONE; cells(graph)],
            boxes: Vec::new(),
        }
    }

    /// Gives the `i`-th jump point the boxes `boxes`.
    fn set(&mut self, i: usize, boxes: &[Box4]) {
        let cell = self.points[i].index();
        self.slots[cell] = (self.boxes.len() / 8) as u32;
        self.boxes.extend_from_slice(boxes);
    }

    /// The jump table.
    pub fn jumps(&self) -> &JumpTable {
        &self.jumps
    }

    /// How many jump points the table has.
    pub fn jump_points(&self) -> usize {
        self.points.len()
    }

    /// How many jump points have boxes (all of them, unless the build ran
    /// out of its budget).
    pub fn boxed(&self) -> usize {
        self.boxes.len() / 8
    }

    /// The box of move `d` (0..8, the bit order of [`GridGraph::moves`])
    /// at `node`, as `(min_x, min_y, max_x, max_y)`: `None` when `node` has
    /// no boxes, `Some` with a minimum above the maximum when no shortest
    /// path from `node` starts with `d`.
    ///
    /// # Panics
    ///
    /// If `node` is off the table's grid or `d >= 8`.
    pub fn bounds(&self, node: NodeId, d: usize) -> Option<(u16, u16, u16, u16)> {
        assert!(d < 8, "direction {d} is not one of 0..8");
        let slot = self.slots[node.index()];
        (slot != NONE).then(|| {
            let [min_x, min_y, max_x, max_y] = self.boxes[8 * slot as usize + d];
            (min_x, min_y, max_x, max_y)
        })
    }

    /// Bytes of the jump table, the index of the boxes and the boxes.
    pub fn memory_bytes(&self) -> usize {
        self.jumps.memory_bytes()
            + self.slots.len() * size_of::<u32>()
            + self.points.len() * size_of::<NodeId>()
            + self.boxes.len() * size_of::<Box4>()
    }

    /// [`memory_bytes`](Self::memory_bytes) once every jump point has its
    /// boxes: the most the table can hold.
    pub fn full_bytes(&self) -> usize {
        let unboxed = self.jump_points() - self.boxed();
        self.memory_bytes() + unboxed * 8 * size_of::<Box4>()
    }

    /// Whether the table has the size of `graph`.
    pub fn fits(&self, graph: &GridGraph) -> bool {
        self.jumps.fits(graph)
    }
}

/// The number of cells of `graph`.
fn cells(graph: &GridGraph) -> usize {
    graph.width() as usize * graph.height() as usize
}

/// The cells JPS+ can expand besides a query's start and goal: those a
/// straight entry of `jumps` leads to (the diagonal runs' successors are
/// reached by straight entries too), increasing.
fn jump_points(graph: &GridGraph, jumps: &JumpTable) -> Vec<NodeId> {
    let cols = i64::from(graph.width());
    let mut is_point = vec![false; cells(graph)];
    for c in 0..is_point.len() {
        for (d, &(dx, dy)) in DIRECTIONS[..4].iter().enumerate() {
            let entry = jumps.distance(NodeId(c as u32), d);
            if entry > 0 {
                let to = c as i64 + i64::from(entry) * (i64::from(dy) * cols + i64::from(dx));
                is_point[to as usize] = true;
            }
        }
    }
    (0..is_point.len() as u32)
        .filter(|&c| is_point[c as usize])
        .map(NodeId)
        .collect()
}

/// The arrays of one Dijkstra search from a jump point, reused by the
/// next (a generation stamp per cell instead of clearing them).
///
/// The search follows canonical paths only (from each cell, the moves
/// [`GridGraph::canonical_moves_after`] keeps after the move that entered
/// it), the paths jump point search follows: the jump points on the path
/// a query finds are expanded after such moves, so the box of the move a
/// shortest canonical path to the goal starts with holds the goal. Since a
/// cell's canonical moves depend on the move that entered it, the first
/// moves are kept per entering move.
struct Sweep {
    /// The cost of each reached cell as (straight moves << 32) | diagonal
    /// moves: equal costs are equal words.
    cost: Vec<u64>,
    /// Byte `a`: the first moves (a bit each) of the canonical paths that
    /// reach the cell at its cost entering it by move `a`.
    first: Vec<u64>,
    /// `2 g` when reached in search `g`, `2 g + 1` when settled.
    stamp: Vec<u32>,
    generation: u32,
    /// The cells whose cost lies in `[k, k + 1)`, at `k mod 3`: a move costs
    /// 1 or [`DIAGONAL`], so it leads one or two buckets on, and the cells
    /// of one bucket cannot improve each other (nor, settled, be reached
    /// again at their cost).
    buckets: [Vec<u32>; 3],
}

/// The cost word of one straight move and of one diagonal move.
const STEP: [u64; 2] = [1 << 32, 1];

/// The value of a cost word.
#[inline]
fn value(cost: u64) -> f64 {
    (cost >> 32) as f64 + (cost & 0xffff_ffff) as f64 * DIAGONAL
}

impl Sweep {
    fn new(cells: usize) -> Sweep {
        Sweep {
            cost: vec![0; cells],
            first: vec![0; cells],
            stamp: vec![0; cells],
            generation: 0,
            buckets: Default::default(),
        }
    }

    /// Reaches `n` at `cost` by move `d` on paths with the first moves
    /// `first`, keeping those of every way of reaching it at its least
    /// cost.
    #[inline]
    fn reach(&mut self, n: usize, cost: u64, d: usize, first: u8) {
        let reached = 2 * self.generation;
        let stamp = self.stamp[n];
        let first = u64::from(first) << (8 * d);
        if stamp == reached + 1 {
            return;
        }
        if stamp == reached {
            let old = self.cost[n];
            if old == cost {
                self.first[n] |= first;
                return;
            }
            if value(old) < value(cost) {
                return;
            }
        }
        self.stamp[n] = reached;
        self.cost[n] = cost;
        self.first[n] = first;
        self.buckets[value(cost) as usize % 3].push(n as u32);
    }

    /// The eight boxes of `source`: one Dijkstra search over `graph`.
    fn boxes_from(&mut self, graph: &GridGraph, source: NodeId) -> [Box4; 8] {
        if self.generation >= u32::MAX / 2 - 1 {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        let settled = 2 * self.generation + 1;
        let cols = graph.width();
        let offsets = DIRECTIONS.map(|(dx, dy)| i64::from(dy) * i64::from(cols) + i64::from(dx));
        let mut boxes = [EMPTY; 8];
        let from = source.index();
        self.stamp[from] = settled;
        let mut moves = graph.moves(source);
        while moves != 0 {
            let d = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let next = (from as i64 + offsets[d]) as usize;
            self.reach(next, STEP[d / 4], d, 1 << d);
        }
        let mut at = 1;
        while self.buckets.iter().any(|b| !b.is_empty()) {
            let mut bucket = std::mem::take(&mut self.buckets[at % 3]);
            for &v in &bucket {
                if self.stamp[v as usize] == settled {
                    continue;
                }
                self.stamp[v as usize] = settled;
                let cell = NodeId(v);
                let (cost, first) = (self.cost[cell.index()], self.first[cell.index()]);
                let (x, y) = ((v % cols) as u16, (v / cols) as u16);
                // Every first move, whatever the entering one.
                let mut all = first | (first >> 32);
                all |= all >> 16;
                let mut bits = (all | (all >> 8)) as u8;
                while bits != 0 {
                    let d = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let b = &mut boxes[d];
                    *b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
                }
                // The first moves carried by each move out.
                let mut out = [0u8; 8];
                let mut entered = first;
                while entered != 0 {
                    let by = (entered.trailing_zeros() / 8) as usize;
                    let mask = (first >> (8 * by)) as u8;
                    entered &= !(0xff << (8 * by));
                    let mut moves = graph.canonical_moves_after(cell, by);
                    while moves != 0 {
                        let d = moves.trailing_zeros() as usize;
                        moves &= moves - 1;
                        out[d] |= mask;
                    }
                }
                for (d, &mask) in out.iter().enumerate() {
                    if mask != 0 {
                        let next = (i64::from(v) + offsets[d]) as usize;
                        self.reach(next, cost + STEP[d / 4], d, mask);
                    }
                }
            }
            bucket.clear();
            self.buckets[at % 3] = bucket;
            at += 1;
        }
        boxes
    }
}

/// Which moves a query toward one goal follows at each jump point: those
/// whose box holds the goal, or all at a jump point without boxes.
pub(crate) struct GoalFilter<'a> {
    slots: &'a [u32],
    boxes: &'a [Box4],
    x: u16,
    y: u16,
    /// Whether the goal's coordinates fit the boxes (else nothing is
    /// dropped).
    fits: bool,
}

impl MoveFilter for GoalFilter<'_> {
    #[inline]
    fn keep(&self, u: NodeId, moves: u8) -> u8 {
        let slot = self.slots[u.index()];
        if slot == NONE || !self.fits {
            return moves;
        }
        let boxes = &self.boxes[8 * slot as usize..8 * slot as usize + 8];
        let (x, y) = (self.x, self.y);
        let mut kept = 0;
        let mut bits = moves;
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let [x0, y0, x1, y1] = boxes[d];
            if x0 <= x && x <= x1 && y0 <= y && y <= y1 {
                kept |= 1 << d;
            }
        }
        kept
    }
}

impl JumpData for GoalBounds {
    type Filter<'a> = GoalFilter<'a>;

    #[inline]
    fn jumps(&self) -> &JumpTable {
        &self.jumps
    }

    #[inline]
    fn filter(&self, (x, y): (u32, u32)) -> GoalFilter<'_> {
        let fits = u16::try_from(x).is_ok() && u16::try_from(y).is_ok();
        GoalFilter {
            slots: &self.slots,
            boxes: &self.boxes,
            x: x as u16,
            y: y as u16,
            fits,
        }
    }
}

impl<'g> JumpPointSearchPlus<'g, Octile, GoalBounds> {
    /// JPS+ with goal bounding (`jps+bb`) on `graph` over `bounds`
    /// (borrowed or owned) with the octile heuristic, or `None` unless the
    /// graph uses octile movement without terrain costs and the table has
    /// its size.
    pub fn bounded(graph: &'g GridGraph, bounds: impl Into<Cow<'g, GoalBounds>>) -> Option<Self> {
        Self::bounded_with_heuristic(graph, bounds, Octile::new(graph))
    }
}

impl<'g, H: Heuristic> JumpPointSearchPlus<'g, H, GoalBounds> {
    /// JPS+ with goal bounding on `graph` over `bounds`, guided by
    /// `heuristic` (admissible and consistent for optimal costs, as for
    /// [`with_heuristic`](JumpPointSearchPlus::with_heuristic)), or `None`
    /// as for [`bounded`](JumpPointSearchPlus::bounded).
    pub fn bounded_with_heuristic(
        graph: &'g GridGraph,
        bounds: impl Into<Cow<'g, GoalBounds>>,
        heuristic: H,
    ) -> Option<Self> {
        let bounds = bounds.into();
        let fits = bounds.fits(graph);
        Self::over(graph, bounds, fits, heuristic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::{
        matches_dijkstra_from, proptest_against_dijkstra, refuses_other_grids, walled as grid,
    };
    use crate::search::{Search, SearchCache};

    /// Checks JPS+ with goal bounding against Dijkstra from `start` to
    /// every cell of `graph`, with every jump point's boxes and with those
    /// of every other one.
    fn check_all_from(graph: &GridGraph, start: NodeId) -> Result<(), String> {
        let full = GoalBounds::build(graph);
        if full.boxed() != full.jump_points() {
            return Err(format!("{} of {} boxed", full.boxed(), full.jump_points()));
        }
        let search = JumpPointSearchPlus::bounded(graph, &full).unwrap();
        matches_dijkstra_from(graph, &search, start)?;
        let half = GoalBounds::build_where(graph, |n| n.0 % 2 == 0);
        let search = JumpPointSearchPlus::bounded(graph, &half).unwrap();
        matches_dijkstra_from(graph, &search, start)
    }

    // Rooms have many ties between the ways round a wall: the case where
    // a cell must be in the box of each first move.
    proptest_against_dijkstra! { check_all_from, cases = 200, scattered(15, 500), rooms(6, 20) }

    /// A cell that two first moves reach at the same cost on canonical
    /// paths is in both boxes: round a lone wall cell, the cell behind it.
    #[test]
    fn a_tie_is_in_the_box_of_each_first_move() {
        let graph = grid(5, 5, |x, y| (x, y) == (2, 2));
        let mut sweep = Sweep::new(25);
        let boxes = sweep.boxes_from(&graph, graph.node(2, 1).unwrap());
        let behind = (2, 3);
        // West and east round the wall, at the same cost.
        for d in [1, 3] {
            let [x0, y0, x1, y1] = boxes[d];
            assert!(
                x0 <= behind.0 && behind.0 <= x1 && y0 <= behind.1 && behind.1 <= y1,
                "{d}"
            );
        }
        assert_eq!(boxes[6], EMPTY, "south-west cuts the wall's corner");
        // North leads only to the cell north: the others of that row are
        // a diagonal move away.
        assert_eq!(boxes[0], [2, 0, 2, 0]);
    }

    /// Only canonical paths count: on an open grid, a cell south-east of
    /// the east row is reached as cheaply by east first, but the canonical
    /// path takes the diagonal first, so the box of east is its row.
    #[test]
    fn boxes_count_canonical_paths_only() {
        let graph = grid(5, 5, |_, _| false);
        let boxes = Sweep::new(25).boxes_from(&graph, NodeId(0));
        assert_eq!(boxes[1], [1, 0, 4, 0]);
        assert_eq!(boxes[2], [0, 1, 0, 4]);
        assert_eq!(boxes[5], [1, 1, 4, 4]);
        for d in [0, 3, 4, 6, 7] {
            assert_eq!(boxes[d], EMPTY, "{d}");
        }
    }

    /// A budget of zero builds no boxes, and the search is then JPS+:
    /// optimal, and expanding the same nodes.
    #[test]
    fn a_table_built_out_of_budget_prunes_nothing_and_stays_optimal() {
        let graph = grid(30, 20, |x, y| {
            (x % 6 == 3 && y % 5 != 2) || (x, y) == (10, 10)
        });
        let none = GoalBounds::build_within(&graph, Some(Duration::ZERO));
        assert_eq!(none.boxed(), 0);
        assert!(none.jump_points() > 0);
        let full = GoalBounds::build_within(&graph, Some(Duration::from_secs(600)));
        assert_eq!(full.boxed(), full.jump_points());
        let jumps = JumpTable::build(&graph);
        let plain = JumpPointSearchPlus::new(&graph, &jumps).unwrap();
        let bounded = JumpPointSearchPlus::bounded(&graph, &none).unwrap();
        let pruned = JumpPointSearchPlus::bounded(&graph, &full).unwrap();
        let (mut a, mut b, mut c) = (SearchCache::new(), SearchCache::new(), SearchCache::new());
        let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(29, 19).unwrap());
        let want = plain.search_cost(start, goal, &mut a);
        assert!(want.is_some());
        assert_eq!(bounded.search_cost(start, goal, &mut b), want);
        assert_eq!(a.stats().expanded, b.stats().expanded);
        assert_eq!(pruned.search_cost(start, goal, &mut c), want);
        assert!(c.stats().expanded <= a.stats().expanded);
        assert_eq!(matches_dijkstra_from(&graph, &bounded, start), Ok(()));
        assert_eq!(matches_dijkstra_from(&graph, &pruned, start), Ok(()));
    }

    #[test]
    fn tables_of_another_size_and_four_connected_grids_are_refused() {
        refuses_other_grids(GoalBounds::build, |g, t| {
            JumpPointSearchPlus::bounded(g, t).is_some()
        });
    }
}
