//! JPS+: jump point search over precomputed jump distances.
//!
//! The table ([`JumpTable`]) keeps, for each cell and each of the eight
//! directions, how far the next jump point is, or how far the wall is when
//! there is none; the search ([`JumpPointSearchPlus`]) then jumps along a
//! run in one read instead of scanning it, under every movement rule jump
//! point search takes. Saving and loading the table is in [`file`].

mod file;
mod repair;

use std::borrow::Cow;

use rayon::prelude::*;

use super::jps::four::{self, EAST, NORTH, SOUTH, WEST};
use super::jps::{Rules, arrival, cut, legs_between};
use super::{Expand, TowardGoal};
use crate::graph::{Graph, NodeId};
use crate::grid::{DIAGONAL, DIAGONAL_SIDES, DIRECTIONS, GridGraph, Neighborhood, STRAIGHT_SIDES};
use crate::heuristic::{Heuristic, Octile};

/// The jump distances of a grid under its movement rule: for each cell and
/// each of the eight directions (the bit order of [`GridGraph::moves`]),
/// the number of moves to the next jump point in that direction, or to the
/// wall when there is none (Harabor and Grastien's JPS+), as 16-bit entries
/// (16 bytes per cell, as in warthog).
///
/// An entry `k > 0` says that the cell `k` moves away is a jump point and
/// no cell before it is; an entry `-k <= 0` says that `k` moves can be made
/// in that direction (0: none) and none of the cells they reach is a jump
/// point. Jump points are those of [`JumpPointSearch`](super::JumpPointSearch) under the
/// table's rule:
///
/// - **Octile without corner cutting** (the 2014 rules): a cell where a
///   straight run must consider a turn (a side cell open there but blocked
///   beside the cell before), and a cell of a diagonal run from which one
///   of the diagonal's two straight sides reaches such a cell.
/// - **4-connected** (JPS4, Baum 2025, horizontal first): a cell where a
///   vertical run must consider a horizontal turn (the same rule), and a
///   cell of a row from which a vertical run reaches such a cell; the
///   diagonal entries are 0.
/// - **Corner cutting**, past one wall or between two (the 2011 rules): a
///   cell where a straight run must consider a diagonal turn past a
///   blocked cell beside it, and a cell of a diagonal run where a diagonal
///   turn past a blocked cell behind it is legal or from which a straight
///   side reaches a jump point.
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
    /// The movement rule the entries follow.
    neighborhood: Neighborhood,
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

/// The entries of `graph` in direction `d`, one plane of cells: 0 where the
/// cell has no move `d`, else [`step_entry`] of whether `jump(c, next)`
/// (the next cell along `d` is a jump point) and the next cell's entry.
/// Rows are filled in parallel for a move along the row (each row from
/// the end the runs go to), else swept from the row the moves go to.
fn fill_plane(graph: &GridGraph, d: usize, jump: impl Fn(usize, usize) -> bool + Sync) -> Vec<i16> {
    let cols = graph.width() as usize;
    let cells = cols * graph.height() as usize;
    let has = |c: usize| graph.moves(NodeId(c as u32)) & (1 << d) != 0;
    let mut plane = vec![0i16; cells];
    let (dx, dy) = (DIRECTIONS[d].0 as isize, DIRECTIONS[d].1 as isize);
    if dy == 0 {
        plane
            .par_chunks_mut(cols.max(1))
            .enumerate()
            .for_each(|(y, row)| {
                let first = y * cols;
                let mut entry = |x: usize| {
                    let c = first + x;
                    if has(c) {
                        let next = x.wrapping_add_signed(dx);
                        row[x] = step_entry(jump(c, first + next), row[next]);
                    }
                };
                if dx > 0 {
                    (0..cols).rev().for_each(&mut entry);
                } else {
                    (0..cols).for_each(&mut entry);
                }
            });
    } else {
        let offset = dy * cols as isize + dx;
        sweep_rows(&mut plane, cols, dy < 0, |plane, c| {
            if !has(c) {
                return 0;
            }
            let next = c.wrapping_add_signed(offset);
            step_entry(jump(c, next), plane[next])
        });
    }
    plane
}

/// What makes the next cell along a direction a jump point (a positive
/// entry), by movement rule and direction.
#[derive(Clone, Copy, Debug)]
enum Stop {
    /// A straight run's rule: a turn forced at the next cell, read from
    /// the moves of the cell and the next one; `cut` for the rules of
    /// corner cutting (Harabor and Grastien 2011: a diagonal past a
    /// blocked cell beside the next cell), else the rule without it
    /// ([`forced`]), which JPS4's vertical runs share.
    Forced { cut: bool },
    /// A fanned run's rule (an octile diagonal, a 4-connected row): one of
    /// the straight sides `a`, `b` reaches a jump point from the next cell
    /// (its entry is positive); with `cut`, also a diagonal turn forced
    /// at the next cell.
    Sides { a: usize, b: usize, cut: bool },
    /// No move in this direction (a 4-connected grid's diagonals).
    Never,
}

impl Stop {
    /// The stop of direction `d` under `rules`: without corner cutting,
    /// straight runs stop at forced turns and diagonals where a side
    /// does; 4-connected, vertical runs stop at forced turns and rows
    /// where a vertical side does (JPS4's horizontal-first order).
    fn of(rules: Rules, d: usize) -> Stop {
        match rules {
            Rules::Octile | Rules::Cut if d < 4 => Stop::Forced {
                cut: rules == Rules::Cut,
            },
            Rules::Octile | Rules::Cut => {
                let (a, b) = DIAGONAL_SIDES[d - 4];
                Stop::Sides {
                    a,
                    b,
                    cut: rules == Rules::Cut,
                }
            }
            Rules::Four if d == NORTH || d == SOUTH => Stop::Forced { cut: false },
            Rules::Four if d < 4 => Stop::Sides {
                a: NORTH,
                b: SOUTH,
                cut: false,
            },
            Rules::Four => Stop::Never,
        }
    }

    /// The entries of direction `d` of `graph` ([`fill_plane`]), under
    /// this stop, reading the planes `done` of the sides; each kind of
    /// stop is its own loop (a test of the kind per cell made the build
    /// take twice as many instructions).
    fn plane(self, graph: &GridGraph, d: usize, done: &[Vec<i16>]) -> Vec<i16> {
        let moves = |i: usize| graph.moves(NodeId(i as u32));
        match self {
            Stop::Forced { cut: false } => {
                fill_plane(graph, d, |c, n| forced(moves(c), moves(n), d))
            }
            Stop::Forced { cut: true } => {
                fill_plane(graph, d, |_, n| cut_forced_straight(moves(n), d))
            }
            Stop::Sides { a, b, cut: false } => {
                let (a, b) = (&done[a][..], &done[b][..]);
                fill_plane(graph, d, |_, n| a[n] > 0 || b[n] > 0)
            }
            Stop::Sides { a, b, cut: true } => {
                let (pa, pb) = (&done[a][..], &done[b][..]);
                fill_plane(graph, d, |_, n| {
                    pa[n] > 0 || pb[n] > 0 || cut_forced_diagonal(moves(n), d, a, b)
                })
            }
            Stop::Never => vec![0; graph.width() as usize * graph.height() as usize],
        }
    }

    /// Whether the cell after one with `moves_cur`, in direction `d`, is a
    /// jump point: it has `moves_next`, and `side(s)` is its entry in
    /// direction `s` (what [`plane`](Self::plane) computes for each cell).
    #[inline]
    fn is_jump(self, d: usize, moves_cur: u8, moves_next: u8, side: impl Fn(usize) -> i16) -> bool {
        match self {
            Stop::Forced { cut: false } => forced(moves_cur, moves_next, d),
            Stop::Forced { cut: true } => cut_forced_straight(moves_next, d),
            Stop::Sides { a, b, cut } => {
                side(a) > 0 || side(b) > 0 || cut && cut_forced_diagonal(moves_next, d, a, b)
            }
            Stop::Never => false,
        }
    }
}

/// Whether the 2011 rules keep a move other than a straight `d` itself at a
/// cell with `moves` entered by `d`: a diagonal turn forced past a blocked
/// cell beside it.
#[inline]
fn cut_forced_straight(moves: u8, d: usize) -> bool {
    cut::canonical_after(moves, d) & !(1 << d) != 0
}

/// Whether the 2011 rules keep a move other than a diagonal `d`'s natural
/// ones (`d` and its straight sides `a`, `b`) at a cell with `moves`
/// entered by `d`: a turn forced past a blocked cell behind it.
#[inline]
fn cut_forced_diagonal(moves: u8, d: usize, a: usize, b: usize) -> bool {
    cut::canonical_after(moves, d) & !(1 << d | 1 << a | 1 << b) != 0
}

impl JumpTable {
    /// The most moves an entry holds: `i16::MAX`. A longer run gets a jump
    /// point every `MAX_RUN` cells.
    pub const MAX_RUN: i16 = i16::MAX;

    /// Builds the table of `graph` in `O(cells)`, in parallel, under its
    /// movement rule ([`Neighborhood::Four`] and the rules of corner
    /// cutting as well as octile; terrain costs are ignored, and
    /// [`JumpPointSearchPlus`] refuses a graph that has them).
    pub fn build(graph: &GridGraph) -> JumpTable {
        let neighborhood = graph.neighborhood();
        let rules = Rules::of(neighborhood);
        let cells = graph.width() as usize * graph.height() as usize;
        // One plane per direction while building, so that each sweep owns
        // its memory, interleaved into cell-major order at the end: first
        // the directions whose stops read the moves alone, in parallel,
        // then those that read their sides' entries (`Stop::Sides`).
        let mut planes: Vec<Vec<i16>> = vec![Vec::new(); 8];
        for fanned in [false, true] {
            let done: &[Vec<i16>] = &planes;
            let filled: Vec<(usize, Vec<i16>)> = (0..8)
                .into_par_iter()
                .filter(|&d| matches!(Stop::of(rules, d), Stop::Sides { .. }) == fanned)
                .map(|d| (d, Stop::of(rules, d).plane(graph, d, done)))
                .collect();
            for (d, plane) in filled {
                planes[d] = plane;
            }
        }
        let cols = graph.width() as usize;
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
            neighborhood,
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

    /// The bytes [`memory_bytes`](Self::memory_bytes) gives for the table
    /// of `graph`, known without building it: 16 a cell.
    pub fn bytes_for(graph: &GridGraph) -> usize {
        8 * std::mem::size_of::<i16>() * graph.width() as usize * graph.height() as usize
    }

    /// The movement rule the table was built under.
    pub fn neighborhood(&self) -> Neighborhood {
        self.neighborhood
    }

    /// Whether the table has the size and the movement rule of `graph`.
    pub fn fits(&self, graph: &GridGraph) -> bool {
        self.width == graph.width()
            && self.height == graph.height()
            && self.neighborhood == graph.neighborhood()
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
    /// Whether the filter serves octile tables only (goal bounding's), so
    /// that the search skips the test of the table's rule.
    const OCTILE_ONLY: bool = false;

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
/// The graph has no terrain costs and the table was built for it, under
/// its movement rule (the constructors check the rule and the size; a
/// table of another map of the same size gives wrong paths, which is why
/// saved tables carry the map's hash). Costs are those of the grid: 1
/// straight, [`DIAGONAL`] diagonal. On a 4-connected grid give it the
/// [`Manhattan`](crate::heuristic::Manhattan) heuristic
/// ([`with_heuristic`](JumpPointSearchPlus::with_heuristic)); the octile
/// one of `new` is admissible there but weaker.
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
    /// heuristic, or `None` when the graph has terrain costs or the table
    /// was built for another size or movement rule.
    pub fn new(graph: &'g GridGraph, table: impl Into<Cow<'g, JumpTable>>) -> Option<Self> {
        Self::with_heuristic(graph, table, Octile::new(graph))
    }
}

impl<'g, H: Heuristic> JumpPointSearchPlus<'g, H> {
    /// JPS+ on `graph` with `table` guided by `heuristic`, or `None` when
    /// the graph has terrain costs ([`GridGraph::has_terrain`]) or the table
    /// was built for another size or movement rule. Any
    /// admissible and consistent heuristic keeps the costs optimal, as for
    /// [`JumpPointSearch::with_heuristic`](super::JumpPointSearch::with_heuristic).
    pub fn with_heuristic(
        graph: &'g GridGraph, table: impl Into<Cow<'g, JumpTable>>, heuristic: H,
    ) -> Option<Self> {
        Self::over(graph, table.into(), JumpTable::fits, heuristic)
    }
}

impl<'g, H: Heuristic, T: Clone> JumpPointSearchPlus<'g, H, T> {
    /// The search over `table`, or `None` when the graph has terrain
    /// costs or the table does not `fit` it (its size and movement rule;
    /// goal bounding's, octile movement too).
    pub(crate) fn over(
        graph: &'g GridGraph, table: Cow<'g, T>, fits: fn(&T, &GridGraph) -> bool, heuristic: H,
    ) -> Option<Self> {
        let fits = fits(&table, graph);
        (fits && !graph.has_terrain()).then_some(JumpPointSearchPlus {
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
    /// The table's jump rules.
    rules: Rules,
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
    /// diagonal and then the straight run ([`fill_runs`](super::jps::fill_runs) writes that path
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
        if !F::OCTILE_ONLY && self.rules != Rules::Octile {
            return self.expand_other(u, parent, &mut visit);
        }
        self.expand_eight::<false>(u, parent, &mut visit);
    }
}

impl<F: MoveFilter> TableJumps<'_, F> {
    /// [`expand`](Expand::expand) under the rules but octile, out of line
    /// so that the octile loop stays as it was.
    #[inline(never)]
    fn expand_other(&self, u: NodeId, parent: NodeId, visit: &mut impl FnMut(NodeId, f64)) {
        if self.rules == Rules::Four {
            self.expand_four(u, parent, visit);
        } else {
            self.expand_eight::<true>(u, parent, visit);
        }
    }

    /// [`expand`](Expand::expand) on an octile grid: without corner
    /// cutting (the 2014 rules, as described at [`expand`](Expand::expand)),
    /// or with `CUT` under the rules of corner cutting (Harabor and
    /// Grastien 2011, as [`JumpPointSearch`](super::JumpPointSearch) takes them): the moves those
    /// rules keep, straight runs that stop where a diagonal turn is forced,
    /// and diagonal runs followed as without corner cutting but for a cell
    /// with a forced diagonal turn, which ends the run and is a successor
    /// itself (the table marks it a jump point).
    #[inline]
    fn expand_eight<const CUT: bool>(
        &self, u: NodeId, parent: NodeId, visit: &mut impl FnMut(NodeId, f64),
    ) {
        let graph = self.graph;
        let here = graph.coords(u);
        let moves = match parent {
            NodeId::NONE => graph.moves(u),
            _ if CUT => cut::canonical_after(graph.moves(u), arrival(graph, parent, here)),
            _ => graph.canonical_moves_after(u, arrival(graph, parent, here)),
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
                let cost = f64::from(steps) * DIAGONAL;
                if CUT && cut_forced_diagonal(graph.moves(cell), d, a, b) {
                    visit(cell, cost);
                    break;
                }
                let sides = self.table.entries(cell);
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

    /// [`expand`](Expand::expand) on a 4-connected grid (JPS4's rules, as
    /// [`JumpPointSearch`](super::JumpPointSearch) takes them): vertical runs jump to the next cell
    /// where a horizontal turn is forced; a row is followed from entry to
    /// entry to the wall, and the vertical jump points of each cell on the
    /// way where one starts become successors of `u`, each reached by the
    /// row and then the column. The goal is a successor where a column
    /// meets it, or where a row crosses its column and the vertical leg
    /// from there is free: the horizontal-first path, as short as any.
    #[inline]
    fn expand_four(&self, u: NodeId, parent: NodeId, visit: &mut impl FnMut(NodeId, f64)) {
        let graph = self.graph;
        let (x, y) = graph.coords(u);
        let moves = if parent == NodeId::NONE {
            graph.moves(u)
        } else {
            four::kept(graph, u, parent, (x, y))
        };
        let moves = self.filter.keep(u, moves);
        let (tx, ty) = self.goal_at;
        let (across, along) = (x.abs_diff(tx), y.abs_diff(ty));
        let horizontal = if tx > x { EAST } else { WEST };
        let vertical = if ty > y { SOUTH } else { NORTH };
        let entries = self.table.entries(u);
        for d in [NORTH, SOUTH] {
            if moves & (1 << d) == 0 {
                continue;
            }
            let entry = entries[d];
            let run = u32::from(entry.unsigned_abs());
            if across == 0 && d == vertical && along <= run {
                visit(self.goal, f64::from(along));
                return;
            }
            if entry > 0 {
                visit(self.step(u, d, run), f64::from(run));
            }
        }
        for d in [EAST, WEST] {
            if moves & (1 << d) == 0 {
                continue;
            }
            let mut meeting = across > 0 && d == horizontal;
            let (mut cell, mut steps) = (u, 0u32);
            loop {
                let entry = self.table.entries(cell)[d];
                let run = u32::from(entry.unsigned_abs());
                if meeting && across <= steps + run {
                    let mut corner = self.step(u, d, across);
                    if self.clear(&mut corner, vertical, along) {
                        visit(self.goal, f64::from(across + along));
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
                let kept = self.filter.keep(cell, 1 << NORTH | 1 << SOUTH | 1 << d);
                for side in [NORTH, SOUTH] {
                    let entry = sides[side];
                    if entry > 0 && kept & (1 << side) != 0 {
                        let len = u32::from(entry.unsigned_abs());
                        visit(self.step(cell, side, len), f64::from(steps + len));
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
            rules: Rules::of(self.table.jumps().neighborhood()),
        }
    }

    fn fill_path(&self, path: &mut Vec<NodeId>) {
        Rules::of(self.table.jumps().neighborhood()).fill_path(self.graph, path);
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

    /// JPS+ on `graph` under `rule`, with the rule's heuristic (Manhattan
    /// 4-connected, octile else), against Dijkstra from `start`.
    fn check_under(graph: &GridGraph, start: NodeId, rule: Neighborhood) -> Result<(), String> {
        let graph = graph.clone().with_neighborhood(rule);
        let table = JumpTable::build(&graph);
        if rule == Neighborhood::Four {
            let h = crate::heuristic::Manhattan::new(&graph);
            let jps = JumpPointSearchPlus::with_heuristic(&graph, &table, h).unwrap();
            matches_dijkstra_from(&graph, &jps, start)
        } else {
            let jps = JumpPointSearchPlus::new(&graph, &table).unwrap();
            matches_dijkstra_from(&graph, &jps, start)
        }
    }

    fn check_four(graph: &GridGraph, start: NodeId) -> Result<(), String> {
        check_under(graph, start, Neighborhood::Four)
    }

    fn check_cut(graph: &GridGraph, start: NodeId) -> Result<(), String> {
        check_under(graph, start, Neighborhood::OctileCornerCutting)
    }

    fn check_squeeze(graph: &GridGraph, start: NodeId) -> Result<(), String> {
        check_under(graph, start, Neighborhood::OctileSqueeze)
    }

    /// JPS4+ on 4-connected grids.
    mod four {
        use super::*;
        proptest_against_dijkstra! { check_four, cases = 300, scattered(15, 500), rooms(6, 20) }
    }

    /// The 2011 rules where diagonals cut a wall's corner.
    mod corner_cutting {
        use super::*;
        proptest_against_dijkstra! { check_cut, cases = 300, scattered(15, 500), rooms(6, 20) }
    }

    /// The 2011 rules where diagonals also squeeze between two walls.
    mod squeezing {
        use super::*;
        proptest_against_dijkstra! { check_squeeze, cases = 300, scattered(15, 500), rooms(6, 20) }
    }

    #[test]
    fn single_cells_rows_and_columns_under_every_rule() {
        let sizes = [(1, 1), (1, 7), (7, 1), (2, 2), (9, 4)];
        open_grids_match_dijkstra(check_four, &sizes);
        open_grids_match_dijkstra(check_cut, &sizes);
        open_grids_match_dijkstra(check_squeeze, &sizes);
    }

    /// A table answers only for the rule it was built under.
    #[test]
    fn a_table_of_another_rule_is_refused() {
        let graph = grid(6, 5, |x, y| (x + y) % 4 == 0);
        for built in Neighborhood::ALL {
            let table = JumpTable::build(&graph.clone().with_neighborhood(built));
            assert_eq!(table.neighborhood(), built);
            for rule in Neighborhood::ALL {
                let other = graph.clone().with_neighborhood(rule);
                let accepted = JumpPointSearchPlus::new(&other, &table).is_some();
                assert_eq!(accepted, rule == built, "built {built:?}, run {rule:?}");
            }
        }
    }

    /// 4-connected, the entries of a row count the moves to the next cell
    /// from which a column reaches a forced turn (JPS4's rows).
    #[test]
    fn four_connected_rows_stop_where_a_column_reaches_a_turn() {
        let g = one_wall(Neighborhood::Four);
        let t = JumpTable::build(&g);
        let n = |x, y| g.node(x, y).unwrap();
        // South from (3, 0): (3, 2) is forced (west opens past the wall).
        assert_eq!(t.distance(n(3, 0), 2), 2);
        // East along the top row: from (1, 0) the column reaches (1, 2),
        // forced (east opens past the wall); from (2, 0) no column does.
        assert_eq!(t.distance(n(0, 0), 1), 1);
        assert_eq!(t.distance(n(1, 0), 1), 2);
        // No diagonal entries.
        assert!((4..8).all(|d| t.distance(n(0, 0), d) == 0));
    }

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

    /// Three rows of six cells, a wall at (2, 1), under `rule`.
    fn one_wall(rule: Neighborhood) -> GridGraph {
        let grid = Grid::from_ascii("......\n..@...\n......").unwrap();
        GridGraph::new(grid, rule)
    }

    #[test]
    fn entries_count_moves_to_the_wall_or_the_jump_point() {
        let g = one_wall(Neighborhood::Octile);
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
    fn tables_of_another_size_or_rule_are_refused() {
        refuses_other_grids(JumpTable::build, |g, t| {
            JumpPointSearchPlus::new(g, t).is_some()
        });
    }
}
