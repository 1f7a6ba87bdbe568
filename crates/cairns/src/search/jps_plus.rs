//! JPS+: jump point search over precomputed jump distances.
//!
//! The table ([`JumpTable`]) keeps, for each cell and each of the eight
//! directions, how far the next jump point is, or how far the wall is when
//! there is none; the search ([`JumpPointSearchPlus`]) then jumps along a
//! run in one read instead of scanning it. Saving and loading the table is
//! in [`file`].

mod file;
mod repair;

use std::borrow::Cow;

use rayon::prelude::*;

use super::jps::{arrival, fill_runs, legs_between};
use super::{Expand, TowardGoal, grid_table_runs_on};
use crate::graph::{Graph, NodeId};
use crate::grid::{DIAGONAL, DIAGONAL_SIDES, DIRECTIONS, GridGraph, STRAIGHT_SIDES};
use crate::heuristic::{Heuristic, Octile};

/// The jump distances of a grid: for each cell and each of the eight
/// directions (the bit order of [`GridGraph::moves`]), the number of moves
/// to the next jump point in that direction, or to the wall when there is
/// none (Harabor and Grastien's JPS+, for movement without corner cutting),
/// as 16-bit entries (16 bytes per cell, as in warthog).
///
/// An entry `k > 0` says that the cell `k` moves away is a jump point and
/// no cell before it is; an entry `-k <= 0` says that `k` moves can be made
/// in that direction (0: none) and none of the cells they reach is a jump
/// point. Jump points are those of [`JumpPointSearch`](super::JumpPointSearch): a cell where a
/// straight run must consider a turn (a side cell open there but blocked
/// beside the cell before), and a cell of a diagonal run from which one of
/// the diagonal's two straight sides reaches such a cell.
///
/// # Runs longer than an entry holds
///
/// An entry holds at most [`MAX_RUN`](JumpTable::MAX_RUN) (32,767) moves,
/// so only a run longer than that (on a grid more than 32,767 cells wide
/// or high) needs a rule: every [`MAX_RUN`](JumpTable::MAX_RUN)-th cell of
/// such a run counts as a jump point. The search then stops there and goes
/// on in the same direction (an expansion more per 32,767 cells), which
/// changes neither the costs nor the paths' optimality: a jump point is
/// only a cell where the search may stop, and stopping on a cell of a run
/// that leads nowhere else is what the search would do without the table.
///
/// # Complexity
///
/// [`build`](JumpTable::build) takes `O(cells)` time: every entry is one
/// step from its neighbour's, in sweeps along the rows (east and west rows
/// in parallel, the other six directions as parallel sweeps, with rayon).
/// Memory: 16 bytes per cell ([`memory_bytes`](JumpTable::memory_bytes)),
/// and 32 while building.
///
/// The table describes the graph it was built from; after
/// [`GridGraph::set_tile`] it is stale until [`repair`](JumpTable::repair)
/// (or a new build) brings it up to date.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::JumpTable;
///
/// let graph = GridGraph::new(Grid::from_ascii("
///     .....
///     ..@..
///     .....
/// ").unwrap(), Neighborhood::Octile);
/// let table = JumpTable::build(&graph);
/// // East from (0, 0): (3, 0) is a jump point (south opens past the wall).
/// assert_eq!(table.distance(graph.node(0, 0).unwrap(), 1), 3);
/// // East from (3, 0): one move to the border, no jump point.
/// assert_eq!(table.distance(graph.node(3, 0).unwrap(), 1), -1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpTable {
    width: u32,
    height: u32,
    /// Cell-major: the eight entries of cell `n` at `8 n .. 8 n + 8`.
    jumps: Vec<i16>,
}

/// Fills `plane`, a grid of `cols` columns, row by row (from the top when
/// `down`, else from the bottom), each cell `c` with `entry(plane, c)`,
/// which may read the rows filled before it.
fn sweep_rows(plane: &mut [i16], cols: usize, down: bool, entry: impl Fn(&[i16], usize) -> i16) {
    let rows = plane.len().checked_div(cols).unwrap_or(0);
    for i in 0..rows {
        let y = if down { i } else { rows - 1 - i };
        for c in y * cols..(y + 1) * cols {
            plane[c] = entry(plane, c);
        }
    }
}

/// The entry of a cell that can make the move, from the entry of the next
/// cell along the run: 1 when the next cell is a jump point, else one more
/// move than the next cell's (in either sign). A cell that cannot make the
/// move has 0. When one more move would not fit, the next cell is made a
/// jump point (see "Runs longer than an entry holds" at [`JumpTable`]).
#[inline]
fn step_entry(next_is_jump: bool, next: i16) -> i16 {
    if next_is_jump || next.unsigned_abs() >= JumpTable::MAX_RUN.unsigned_abs() {
        1
    } else if next > 0 {
        next + 1
    } else {
        next - 1
    }
}

/// Whether the cell entered by the straight move `d` from a cell with
/// `moves_cur` is a jump point: a side cell open there (`moves_next`) but
/// blocked beside the cell before.
#[inline]
fn forced(moves_cur: u8, moves_next: u8, d: usize) -> bool {
    let [(a, _), (b, _)] = STRAIGHT_SIDES[d];
    moves_next & !moves_cur & ((1 << a) | (1 << b)) != 0
}

impl JumpTable {
    /// The most moves an entry holds: `i16::MAX`. A longer run gets a jump
    /// point every `MAX_RUN` cells.
    pub const MAX_RUN: i16 = i16::MAX;

    /// Builds the table of `graph` in `O(cells)`, in parallel. Meant for
    /// octile graphs ([`JumpPointSearchPlus`] refuses the others).
    pub fn build(graph: &GridGraph) -> JumpTable {
        let cols = graph.width() as usize;
        let rows = graph.height() as usize;
        let cells = cols * rows;
        let moves = |i: usize| graph.moves(NodeId(i as u32));
        // One plane per direction while building, so that each sweep owns
        // its memory; interleaved into cell-major order at the end.
        let mut planes: Vec<Vec<i16>> = (0..8).map(|_| vec![0; cells]).collect();

        let forced = |cur: usize, next: usize, d: usize| forced(moves(cur), moves(next), d);

        // Straight runs: east and west row by row in parallel, north and
        // south as two sweeps over the rows.
        let (straight, diagonal) = planes.split_at_mut(4);
        let [north, east, south, west] = straight else {
            unreachable!("four straight planes")
        };
        let east_west = |east: &mut [i16], west: &mut [i16]| {
            east.par_chunks_mut(cols)
                .zip(west.par_chunks_mut(cols))
                .enumerate()
                .for_each(|(y, (east, west))| {
                    let row = y * cols;
                    for x in (0..cols).rev() {
                        let c = row + x;
                        east[x] = if moves(c) & (1 << 1) != 0 {
                            step_entry(forced(c, c + 1, 1), east[x + 1])
                        } else {
                            0
                        };
                    }
                    for x in 0..cols {
                        let c = row + x;
                        west[x] = if moves(c) & (1 << 3) != 0 {
                            step_entry(forced(c, c - 1, 3), west[x - 1])
                        } else {
                            0
                        };
                    }
                });
        };
        // North and south: `d` moves to the row before (north) or after
        // (south), which is swept first.
        let vertical = |plane: &mut [i16], d: usize| {
            sweep_rows(plane, cols, d == 0, |plane, c| {
                if moves(c) & (1 << d) == 0 {
                    return 0;
                }
                let next = if d == 0 { c - cols } else { c + cols };
                step_entry(forced(c, next, d), plane[next])
            });
        };
        rayon::join(
            || east_west(east, west),
            || rayon::join(|| vertical(north, 0), || vertical(south, 2)),
        );

        // Diagonal runs: a cell is a jump point when one of the diagonal's
        // straight sides reaches a jump point from it; four sweeps in
        // parallel, each over the rows in the order the move enters them.
        let straight: &[Vec<i16>] = straight;
        diagonal.par_iter_mut().enumerate().for_each(|(i, plane)| {
            let d = 4 + i;
            let (a, b) = DIAGONAL_SIDES[i];
            let (dx, dy) = (i64::from(DIRECTIONS[d].0), i64::from(DIRECTIONS[d].1));
            let offset = dy * cols as i64 + dx;
            sweep_rows(plane, cols, dy < 0, |plane, c| {
                if moves(c) & (1 << d) == 0 {
                    return 0;
                }
                let next = (c as i64 + offset) as usize;
                let jump = straight[a][next] > 0 || straight[b][next] > 0;
                step_entry(jump, plane[next])
            });
        });

        let mut jumps = vec![0i16; 8 * cells];
        let planes = &planes;
        jumps
            .par_chunks_mut(8 * cols.max(1))
            .enumerate()
            .for_each(|(y, row)| {
                for (x, cell) in row.chunks_exact_mut(8).enumerate() {
                    for (d, e) in cell.iter_mut().enumerate() {
                        *e = planes[d][y * cols + x];
                    }
                }
            });
        JumpTable {
            width: graph.width(),
            height: graph.height(),
            jumps,
        }
    }

    /// The entry of `node` in direction `d` (0..8, the bit order of
    /// [`GridGraph::moves`]): `k > 0` moves to the next jump point, or
    /// `-k <= 0` with `k` the moves possible before the wall.
    ///
    /// # Panics
    ///
    /// If `node` is off the table's grid or `d >= 8`.
    #[inline]
    pub fn distance(&self, node: NodeId, d: usize) -> i32 {
        assert!(d < 8, "direction {d} is not one of 0..8");
        i32::from(self.jumps[8 * node.index() + d])
    }

    /// The moves of `node` (the bit order of [`GridGraph::moves`]), read
    /// from its entries: an entry is 0 exactly where the cell has no move.
    #[inline]
    pub(crate) fn moves(&self, node: NodeId) -> u8 {
        let entries = self.entries(node);
        (0..8).fold(0u8, |m, d| m | u8::from(entries[d] != 0) << d)
    }

    /// The eight entries of `node`.
    #[inline]
    pub(crate) fn entries(&self, node: NodeId) -> &[i16] {
        &self.jumps[8 * node.index()..8 * node.index() + 8]
    }

    /// Width of the grid the table was built for.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height of the grid the table was built for.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Bytes of the jump distances.
    pub fn memory_bytes(&self) -> usize {
        self.jumps.len() * std::mem::size_of::<i16>()
    }

    /// Whether the table has the size of `graph`.
    pub fn fits(&self, graph: &GridGraph) -> bool {
        self.width == graph.width() && self.height == graph.height()
    }
}

/// What [`JumpPointSearchPlus`] searches over: a jump table, and which of
/// an expanded node's moves to follow toward a goal (every move the
/// canonical ordering keeps, but for goal bounding's
/// [`GoalBounds`](super::GoalBounds), which drops the moves no shortest
/// path to the goal starts with).
pub(crate) trait JumpData: Clone {
    /// The moves kept toward one goal.
    type Filter<'a>: MoveFilter
    where
        Self: 'a;

    /// The jump table.
    fn jumps(&self) -> &JumpTable;

    /// The filter of a query toward the goal at `goal`.
    fn filter(&self, goal: (u32, u32)) -> Self::Filter<'_>;
}

/// Which moves of an expanded node a query follows.
pub(crate) trait MoveFilter {
    /// The moves of `moves` (a mask in the bit order of
    /// [`GridGraph::moves`]) that `u` follows.
    fn keep(&self, u: NodeId, moves: u8) -> u8;
}

/// Every move: plain JPS+.
impl MoveFilter for () {
    #[inline]
    fn keep(&self, _: NodeId, moves: u8) -> u8 {
        moves
    }
}

impl JumpData for JumpTable {
    type Filter<'a> = ();

    #[inline]
    fn jumps(&self) -> &JumpTable {
        self
    }

    #[inline]
    fn filter(&self, _: (u32, u32)) {}
}

/// JPS+ (Harabor and Grastien 2012): jump point search whose jumps are read
/// from a precomputed [`JumpTable`] instead of scanned. It finds the same
/// costs as [`JumpPointSearch`](super::JumpPointSearch) and A* (optimal), through the same
/// best-first loop, with octile or any consistent heuristic
/// ([`with_heuristic`](JumpPointSearchPlus::with_heuristic)).
///
/// From each jump point it follows the moves canonical ordering keeps; in
/// each direction it reads the distance to the next jump point. As in
/// Harabor and Grastien's 2014 JPS2+, intermediate jump points are pruned:
/// a diagonal run is followed from entry to entry to the wall, and the
/// straight jump points of each diagonal jump point on the way become
/// successors of the expanded node, so diagonal jump points never go
/// through OPEN and it expands the nodes
/// [`JumpPointSearch`](super::JumpPointSearch) expands (but for the order
/// of ties: a node that meets the goal may have pushed other successors
/// first). The goal, which the
/// table does not know, counts as a jump point where a run meets it: a
/// straight run stops there, and a diagonal run that meets it, or crosses
/// its row or column where the straight leg from there to it is free (the
/// table is read along the leg only then), makes it a successor, and the
/// expanded node's last: no path through that node is shorter. So the
/// goal costs arithmetic on each run, not reads of the table.
///
/// # Contract
///
/// The graph uses [`Neighborhood::Octile`](crate::grid::Neighborhood::Octile) and the table was built for it
/// (the constructors check the movement and the size; a table of another
/// map of the same size gives wrong paths, which is why saved tables carry
/// the map's hash). Costs are those of the grid: 1 straight, [`DIAGONAL`]
/// diagonal.
///
/// # Complexity
///
/// Worst case `O(V log V)` like A*, with one table read per direction of
/// an expanded node and per diagonal jump point passed. Memory: the table (16 bytes per cell) and the reusable
/// [`SearchCache`](super::SearchCache).
///
/// # Example
///
/// ```
/// use cairns::grid::{DIAGONAL, Grid, GridGraph, Neighborhood};
/// use cairns::search::{JumpPointSearchPlus, JumpTable, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     ..........
///     ....@.....
///     ....@.....
///     ....@.....
///     ..........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// let table = JumpTable::build(&graph);
/// let jps = JumpPointSearchPlus::new(&graph, &table).unwrap();
/// let mut cache = SearchCache::new();
/// let (start, goal) = (graph.node(0, 2).unwrap(), graph.node(9, 2).unwrap());
/// let path = jps.search(start, goal, &mut cache).unwrap();
/// assert_eq!(path.cost, 5.0 + 4.0 * DIAGONAL);
/// // The path lists every cell, not only the jump points.
/// assert_eq!(path.nodes.len(), 10);
/// ```
///
/// The third parameter is what the search reads: a [`JumpTable`], or
/// [`GoalBounds`](super::GoalBounds) (a jump table with goal bounding,
/// `jps+bb`, built by [`bounded`](JumpPointSearchPlus::bounded)).
#[derive(Clone, Debug)]
pub struct JumpPointSearchPlus<'g, H = Octile, T: Clone + 'g = JumpTable> {
    graph: &'g GridGraph,
    table: Cow<'g, T>,
    heuristic: H,
}

impl<'g> JumpPointSearchPlus<'g> {
    /// JPS+ on `graph` with `table` (borrowed or owned) and the octile
    /// heuristic, or `None` unless the graph uses octile movement without
    /// terrain costs and the table has its size.
    pub fn new(graph: &'g GridGraph, table: impl Into<Cow<'g, JumpTable>>) -> Option<Self> {
        Self::with_heuristic(graph, table, Octile::new(graph))
    }
}

impl<'g, H: Heuristic> JumpPointSearchPlus<'g, H> {
    /// JPS+ on `graph` with `table` guided by `heuristic`, or `None` unless
    /// the graph uses octile movement without terrain costs
    /// ([`GridGraph::has_terrain`]) and the table has its size. Any
    /// admissible and consistent heuristic keeps the costs optimal, as for
    /// [`JumpPointSearch::with_heuristic`](super::JumpPointSearch::with_heuristic).
    pub fn with_heuristic(
        graph: &'g GridGraph, table: impl Into<Cow<'g, JumpTable>>, heuristic: H,
    ) -> Option<Self> {
        Self::over(graph, table.into(), JumpTable::fits, heuristic)
    }
}

impl<'g, H: Heuristic, T: Clone> JumpPointSearchPlus<'g, H, T> {
    /// The search over `table`, or `None` unless the graph uses octile
    /// movement without terrain costs and the table `fits` it (has its
    /// size).
    pub(crate) fn over(
        graph: &'g GridGraph, table: Cow<'g, T>, fits: fn(&T, &GridGraph) -> bool, heuristic: H,
    ) -> Option<Self> {
        let fits = fits(&table, graph);
        grid_table_runs_on(graph, fits).then_some(JumpPointSearchPlus {
            graph,
            table,
            heuristic,
        })
    }
}

impl<H, T: Clone> JumpPointSearchPlus<'_, H, T> {
    /// The heuristic.
    pub fn heuristic(&self) -> &H {
        &self.heuristic
    }

    /// The table: the jump table, or the goal bounds.
    pub fn table(&self) -> &T {
        &self.table
    }
}

/// The jump points of one query, read from the table, as the best-first
/// loop's successors, following the moves `filter` keeps.
pub(crate) struct TableJumps<'s, F = ()> {
    graph: &'s GridGraph,
    table: &'s JumpTable,
    filter: F,
    goal: NodeId,
    /// The goal's `(x, y)`.
    goal_at: (u32, u32),
}

impl<F> TableJumps<'_, F> {
    /// The node `steps` moves from `node` in direction `d`.
    #[inline]
    fn step(&self, node: NodeId, d: usize, steps: u32) -> NodeId {
        let (dx, dy) = DIRECTIONS[d];
        let cols = i64::from(self.graph.width());
        let offset = i64::from(dy) * cols + i64::from(dx);
        NodeId((i64::from(node.0) + i64::from(steps) * offset) as u32)
    }

    /// Whether `len` moves in direction `d` from `*cell` are free, moving
    /// `*cell` along as far as the table is read: a positive entry is a
    /// jump point, which the run passes, a non-positive one the wall.
    #[inline]
    fn clear(&self, cell: &mut NodeId, d: usize, mut len: u32) -> bool {
        while len > 0 {
            let entry = self.table.entries(*cell)[d];
            let run = u32::from(entry.unsigned_abs());
            if entry <= 0 && run < len {
                return false;
            }
            let steps = run.min(len);
            *cell = self.step(*cell, d, steps);
            len -= steps;
        }
        true
    }
}

impl<F: MoveFilter> Expand for TableJumps<'_, F> {
    #[inline]
    fn node_bound(&self) -> usize {
        self.graph.node_bound()
    }

    /// The jump points of `u` with the intermediate ones pruned (Harabor
    /// and Grastien 2014): a straight move gives the jump point its entry
    /// names; a diagonal move is followed from entry to entry to the wall,
    /// and at each diagonal jump point on the way the jump points of its
    /// two straight sides become successors of `u`, each reached by the
    /// diagonal and then the straight run ([`fill_runs`] writes that path
    /// back). Of the moves, those the filter drops are not followed.
    ///
    /// The goal counts as a jump point, as in jump point search: a
    /// straight run that meets it stops there, and a diagonal run that
    /// meets it, or crosses its row or column where the straight leg from
    /// there to it is free, makes it a successor of `u` (the leg turns off
    /// the diagonal as the side runs do). That way to the goal is the
    /// diagonal-first path, as short as any, so no later successor of `u`
    /// is needed: the expansion ends there.
    #[inline]
    fn expand(&self, u: NodeId, parent: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let graph = self.graph;
        let here = graph.coords(u);
        let moves = if parent == NodeId::NONE {
            graph.moves(u)
        } else {
            graph.canonical_moves_after(u, arrival(graph, parent, here))
        };
        let moves = self.filter.keep(u, moves);
        // The diagonal-first path to the goal: a run in its first leg's
        // direction meets the goal, or the goal's row or column, after that
        // leg.
        let legs = legs_between(here, self.goal_at);
        let entries = self.table.entries(u);
        let mut straight = moves & 0x0f;
        while straight != 0 {
            let d = straight.trailing_zeros() as usize;
            straight &= straight - 1;
            let entry = entries[d];
            let run = u32::from(entry.unsigned_abs());
            if legs.diagonal_len == 0 && legs.straight == d && legs.straight_len <= run {
                visit(self.goal, f64::from(legs.straight_len));
                return;
            }
            if entry > 0 {
                visit(self.step(u, d, run), f64::from(run));
            }
        }
        let mut diagonal = moves & 0xf0;
        while diagonal != 0 {
            let d = diagonal.trailing_zeros() as usize;
            diagonal &= diagonal - 1;
            let (a, b) = DIAGONAL_SIDES[d - 4];
            // The run meets the goal's row or column once at most.
            let mut meeting = legs.diagonal == d;
            let (mut cell, mut steps) = (u, 0u32);
            loop {
                let entry = self.table.entries(cell)[d];
                let run = u32::from(entry.unsigned_abs());
                if meeting && legs.diagonal_len <= steps + run {
                    let mut corner = self.step(u, d, legs.diagonal_len);
                    if self.clear(&mut corner, legs.straight, legs.straight_len) {
                        let cost = f64::from(legs.diagonal_len) * DIAGONAL;
                        visit(self.goal, cost + f64::from(legs.straight_len));
                        return;
                    }
                    meeting = false;
                }
                if entry <= 0 {
                    break;
                }
                cell = self.step(cell, d, run);
                steps += run;
                let sides = self.table.entries(cell);
                let cost = f64::from(steps) * DIAGONAL;
                let kept = self.filter.keep(cell, (1 << a) | (1 << b) | (1 << d));
                for side in [a, b] {
                    let entry = sides[side];
                    if entry > 0 && kept & (1 << side) != 0 {
                        let len = u32::from(entry.unsigned_abs());
                        visit(self.step(cell, side, len), cost + f64::from(len));
                    }
                }
                if kept & (1 << d) == 0 {
                    break;
                }
            }
        }
    }
}

/// The cache links jump points; [`fill_path`](TowardGoal::fill_path)
/// gives the cells between them, as [`JumpPointSearch`](super::JumpPointSearch)
/// fills in its own.
impl<H: Heuristic, T: JumpData> TowardGoal for JumpPointSearchPlus<'_, H, T> {
    on_grid!(TableJumps<'a, T::Filter<'a>>);

    #[inline]
    fn expander(&self, goal: NodeId) -> Self::Expander<'_> {
        let goal_at = self.graph.coords(goal);
        TableJumps {
            graph: self.graph,
            table: self.table.jumps(),
            filter: self.table.filter(goal_at),
            goal,
            goal_at,
        }
    }

    fn fill_path(&self, path: &mut Vec<NodeId>) {
        fill_runs(self.graph, path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Neighborhood};
    use crate::search::testing::{
        matches_dijkstra_from, open_grids_match_dijkstra, proptest_against_dijkstra,
        refuses_other_grids, walled as grid,
    };
    use crate::search::{Dijkstra, Search, SearchCache};

    /// Checks JPS+ against Dijkstra from `start` to every cell of `graph`.
    fn check_all_from(graph: &GridGraph, start: NodeId) -> Result<(), String> {
        let table = JumpTable::build(graph);
        let jps = JumpPointSearchPlus::new(graph, &table).unwrap();
        matches_dijkstra_from(graph, &jps, start)
    }

    proptest_against_dijkstra! { check_all_from, cases = 300, scattered(15, 500), rooms(6, 20) }

    #[test]
    fn single_cells_rows_and_columns() {
        open_grids_match_dijkstra(check_all_from, &[(1, 1), (1, 7), (7, 1), (2, 2)]);
    }

    #[test]
    fn open_map_needs_few_expansions() {
        let g = grid(64, 64, |_, _| false);
        let table = JumpTable::build(&g);
        let jps = JumpPointSearchPlus::new(&g, &table).unwrap();
        let mut cache = SearchCache::new();
        let cost = jps.search_cost(NodeId(0), g.node(63, 40).unwrap(), &mut cache);
        assert_eq!(cost, Some(23.0 + 40.0 * DIAGONAL));
        assert!(cache.stats().expanded <= 3, "{:?}", cache.stats());
    }

    /// Guards the rule for runs longer than a 16-bit entry holds
    /// ([`JumpTable::MAX_RUN`]): on a grid two entries wide, every entry
    /// stays within the limit, following the entries east along an open
    /// row still reaches its end, and JPS+ finds Dijkstra's costs.
    #[test]
    fn runs_longer_than_an_entry_holds_get_extra_jump_points() {
        let max = u32::from(JumpTable::MAX_RUN.unsigned_abs());
        let width = 2 * max + 100;
        let graph = grid(width, 3, |x, y| y == 0 && x == width - 50);
        let table = JumpTable::build(&graph);
        let n = |x, y| graph.node(x, y).unwrap();
        let (mut x, mut hops) = (0, 0);
        loop {
            let entry = table.distance(n(x, 2), 1);
            assert!(entry.unsigned_abs() <= max, "{entry} at {x}");
            x += entry.unsigned_abs();
            if entry <= 0 {
                break;
            }
            hops += 1;
        }
        assert_eq!(x, width - 1);
        assert!(hops >= 2, "{hops} jump points on a run of {width} cells");

        let jps = JumpPointSearchPlus::new(&graph, &table).unwrap();
        let (mut cache, mut reference) = (SearchCache::new(), SearchCache::new());
        let start = n(0, 0);
        for goal in [
            n(width - 1, 2),
            n(width - 1, 0),
            n(width / 2, 1),
            n(max + 1, 2),
        ] {
            let want = Dijkstra::new(&graph).search_cost(start, goal, &mut reference);
            assert!(want.is_some());
            assert_eq!(jps.search_cost(start, goal, &mut cache), want, "{goal}");
        }
    }

    #[test]
    fn entries_count_moves_to_the_wall_or_the_jump_point() {
        let g = GridGraph::new(
            Grid::from_ascii(
                "
                ......
                ..@...
                ......
                ",
            )
            .unwrap(),
            Neighborhood::Octile,
        );
        let t = JumpTable::build(&g);
        let n = |x, y| g.node(x, y).unwrap();
        // East along the top row: (3, 0) is forced (south opens past the wall).
        assert_eq!(t.distance(n(0, 0), 1), 3);
        assert_eq!(t.distance(n(3, 0), 1), -2);
        assert_eq!(t.distance(n(5, 0), 1), 0);
        // West along the bottom row from the far end: (1, 2) is forced.
        assert_eq!(t.distance(n(5, 2), 3), 4);
        // South-east from (0, 0): (1, 1) is a jump point, since south
        // from it reaches (1, 2), forced (east opens past the wall).
        assert_eq!(t.distance(n(1, 1), 2), 1);
        assert_eq!(t.distance(n(0, 0), 5), 1);
        // North from the top row: no move.
        assert_eq!(t.distance(n(0, 0), 0), 0);
    }

    #[test]
    fn tables_of_another_size_and_four_connected_grids_are_refused() {
        refuses_other_grids(JumpTable::build, |g, t| {
            JumpPointSearchPlus::new(g, t).is_some()
        });
    }
}
