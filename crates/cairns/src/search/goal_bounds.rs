//! Goal bounding on JPS+ (`jps+bb`): for each jump point and each of the
//! eight moves, the bounding box of the cells whose shortest path from the
//! jump point starts with that move (Rabin and Sturtevant 2016, "Combining
//! Bounding Boxes and JPS to Prune Grid Pathfinding"), kept at jump points
//! only, as in Hu, Harabor, Qin and Yin's JPS+BB+ (2021, "Regarding goal
//! bounding and jump point search"). A query is JPS+
//! ([`JumpPointSearchPlus`]) that, at a jump point with boxes, does not
//! follow a move whose box leaves the goal out, both where it expands a
//! node and at each diagonal jump point a diagonal run passes. Saving and
//! loading the boxes is in [`file`].

#[cfg(test)]
mod cells;
mod file;

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::JumpPointSearchPlus;
use super::jps_plus::{JumpData, MoveFilter};
use crate::graph::NodeId;
use crate::grid::{DIAGONAL, DIAGONAL_SIDES, DIRECTIONS, GridGraph};
use crate::heuristic::{Heuristic, Octile};
use crate::search::boxes::{self, Box4};
use crate::search::{Budgeted, JumpTable};

/// A jump table with goal bounding: for each jump point of the table (a
/// cell JPS+ expands, one a straight run's entry leads to, and each
/// diagonal jump point on the diagonal runs those follow) and each of the
/// eight moves (the bit order of [`GridGraph::moves`]), the bounding box of
/// cells whose shortest path from the jump point starts with that move.
///
/// A query drops a move whose box leaves the goal out, and stays optimal:
/// each cell goes in the box of one of its first moves (the shortest
/// canonical paths' first moves that is canonical after every way a query
/// can arrive at the jump point on a shortest path to the cell, chosen to
/// grow the boxes least), or, when no one move is, in the box of each of
/// them. A jump point without boxes (one the build did not reach within
/// its budget, [`build_within`](GoalBounds::build_within)) drops nothing:
/// the table answers optimally at any budget, and prunes more the more of
/// it is built. The build reaches the jump points queries expand first,
/// then the diagonal ones, each kind scattered over the map. A table
/// goes on filling in later ([`fill_within`](GoalBounds::fill_within)),
/// after a partial build or after wall edits dropped its boxes
/// ([`edited`](GoalBounds::edited)), while its older state serves.
///
/// The boxes are built with one canonical Dijkstra search per jump point
/// (Sturtevant and Rabin 2016): it follows only the canonical paths jump
/// point search follows, goes through OPEN only at jump points, and walks
/// the runs between them cell by cell, keeping for each cell the first
/// moves of its shortest canonical paths (exactly: a cost is a count of
/// straight and of diagonal moves, so that ties are ties). The searches
/// run in parallel over the jump points (rayon). Counting only canonical
/// paths keeps the boxes tight: a cell a diagonal and a straight first
/// move both reach at its cost is reached by the diagonal's alone, since a
/// canonical path takes its diagonal moves first.
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
/// [`build`](GoalBounds::build): one search per jump point, `O(J (V + J
/// log J))` for `J` jump points and `V` cells (a search walks each cell
/// about once, and its OPEN holds jump points only). Memory: the
/// jump table (16 bytes per cell), a quarter of a byte per cell for the
/// index of the boxes, 4 bytes per jump point (its cell) and 64 per jump
/// point with boxes ([`memory_bytes`](GoalBounds::memory_bytes)).
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
#[derive(Clone, Debug)]
pub struct GoalBounds {
    jumps: JumpTable,
    /// The jump points, increasing: found from the jump table when first
    /// asked for, so that an edit ([`edited`](Self::edited)) costs only
    /// the jump table's repair.
    points: OnceLock<Vec<NodeId>>,
    /// Which cells are jump points with boxes, and their ranks among them.
    ranks: Ranks,
    /// Eight boxes per jump point with boxes, in the order of `points`. A
    /// query at a jump point without boxes finds no bit in `ranks` and
    /// reads no box.
    boxes: Vec<Box4>,
}

/// Two tables are equal when their jump tables and boxes are: the jump
/// points follow from the jump table.
impl PartialEq for GoalBounds {
    fn eq(&self, other: &GoalBounds) -> bool {
        self.jumps == other.jumps && self.ranks == other.ranks && self.boxes == other.boxes
    }
}

impl Eq for GoalBounds {}

/// Which cells are jump points with boxes, and the rank of each among
/// them, in a bit per cell: per word of 64 cells, their bits and the number
/// of such jump points before the word. A quarter of a byte per cell,
/// small enough to stay in the processor's cache while a query looks up
/// each jump point's boxes (an index of a `u32` per cell took a load from
/// memory of its own).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ranks {
    words: Vec<(u64, u32)>,
}

impl Ranks {
    /// The ranks of `points` (increasing) on a grid of `cells` cells.
    fn new(cells: usize, points: &[NodeId]) -> Ranks {
        let mut words = vec![(0u64, 0u32); cells.div_ceil(64)];
        for p in points {
            words[p.index() / 64].0 |= 1 << (p.index() % 64);
        }
        let mut before = 0;
        for (bits, rank) in &mut words {
            *rank = before;
            before += bits.count_ones();
        }
        Ranks { words }
    }

    /// The rank of `cell` among the marked cells, if it is one.
    #[inline]
    fn of(&self, cell: NodeId) -> Option<usize> {
        let (bits, before) = self.words[cell.index() / 64];
        let bit = 1u64 << (cell.index() % 64);
        (bits & bit != 0).then(|| before as usize + (bits & (bit - 1)).count_ones() as usize)
    }

    fn memory_bytes(&self) -> usize {
        self.words.len() * size_of::<(u64, u32)>()
    }
}

impl Budgeted for GoalBounds {
    /// The budget of the table a spec (`jps+bb`) builds on `graph`
    /// ([`build_within`](Self::build_within)): 8 seconds times the square
    /// of the grid's cells over `512 * 512` (the build is one search over
    /// the cells per jump point, so it grows with the square), from 0.5
    /// to 8 seconds: 0.5 s on a 256x256 map, 8 s on a 512x512 one or
    /// larger (issue 32's build targets).
    fn spec_budget(graph: &GridGraph) -> Duration {
        let share = cells(graph) as f64 / f64::from(512 * 512);
        Duration::from_secs_f64((8.0 * share * share).clamp(0.5, 8.0))
    }

    /// Starts no jump point's search after `deadline`: the jump points not
    /// reached get no boxes and prune nothing, so the search stays optimal.
    /// [`boxed`](Self::boxed) says how many got boxes.
    fn build_until(graph: &GridGraph, deadline: Option<Instant>) -> GoalBounds {
        GoalBounds::build_where(graph, |_| deadline.is_none_or(|d| Instant::now() < d))
    }
}

impl GoalBounds {
    /// Builds the jump table and every jump point's boxes, in parallel.
    /// Meant for octile graphs ([`JumpPointSearchPlus::bounded`] refuses
    /// the others). [`Budgeted::build_within`] builds within a budget.
    pub fn build(graph: &GridGraph) -> GoalBounds {
        GoalBounds::build_until(graph, None)
    }

    /// Builds the boxes of the jump points for which `go` (asked just
    /// before each one's search) says yes.
    fn build_where(graph: &GridGraph, go: impl Fn(NodeId) -> bool + Sync) -> GoalBounds {
        let mut table = GoalBounds::empty(graph, JumpTable::build(graph));
        table.fill_where(graph, go);
        table
    }

    /// Builds the boxes of the jump points that have none, as
    /// [`build_within`](Self::build_within) does, starting no jump point's
    /// search after `budget` has passed: a table built within a budget, or
    /// one whose boxes wall edits dropped ([`edited`](Self::edited)), fills
    /// in, a budget at a time, on every core. `graph` is the map the table
    /// is of (the one its jump table was built or repaired for).
    ///
    /// ```
    /// use std::time::Duration;
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::search::GoalBounds;
    ///
    /// let mut graph = GridGraph::new(Grid::from_ascii("......\n.@....\n......").unwrap(), Neighborhood::Octile);
    /// let table = GoalBounds::build(&graph);
    /// graph.set_tile(3, 1, Tile::OutOfBounds);
    /// let mut edited = table.edited(&graph, &[graph.node(3, 1).unwrap()]);
    /// assert_eq!(edited.boxed(), 0); // built on the older map: dropped
    /// edited.fill_within(&graph, Duration::from_secs(60));
    /// assert_eq!(edited, GoalBounds::build(&graph));
    /// ```
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn fill_within(&mut self, graph: &GridGraph, budget: Duration) {
        assert!(
            self.fits(graph),
            "a goal-bounding table filled on a grid of another size"
        );
        let deadline = Instant::now() + budget;
        self.fill_where(graph, |_| Instant::now() < deadline);
    }

    /// Builds the boxes of the jump points without boxes for which `go`
    /// (asked just before each one's search) says yes.
    fn fill_where(&mut self, graph: &GridGraph, go: impl Fn(NodeId) -> bool + Sync) {
        let fits = |n: u32| n <= 1 << 16;
        if !(fits(graph.width()) && fits(graph.height())) {
            return;
        }
        let map = Map::new(graph, &self.jumps);
        let arrivals = &map.arrivals;
        let points = self
            .points
            .get_or_init(|| jump_points(&self.jumps, arrivals));
        // The jump points a query expands first, then the diagonal ones
        // it only passes; each kind scattered over the map, so that a
        // budget that runs out leaves boxes all over it.
        let mut order: Vec<usize> = (0..points.len())
            .filter(|&i| self.boxes_at(points[i]).is_none())
            .collect();
        order.sort_by_key(|&i| {
            let cell = points[i];
            // No straight arrival (bits 0 to 3): a diagonal jump point.
            let passed = arrivals[cell.index()].trailing_zeros() >= 4;
            (passed, cell.0.wrapping_mul(0x9e37_79b1), cell.0)
        });
        // Chunks, so that each search reuses the arrays of the last; made
        // only for a chunk that searches (past a budget, the chunks left
        // would each clear a map's worth for nothing).
        let built: Vec<Option<[Box4; 8]>> = order
            .par_chunks(16)
            .flat_map_iter(|chunk| {
                let mut sweep = None;
                chunk
                    .iter()
                    .map(|&i| {
                        let p = points[i];
                        go(p).then(|| {
                            let sweep = sweep.get_or_insert_with(|| Sweep::new(cells(graph)));
                            sweep.boxes_from(&map, p, arrivals[p.index()])
                        })
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        if built.iter().all(Option::is_none) {
            return;
        }
        let mut all: Vec<Option<[Box4; 8]>> =
            points.iter().map(|&p| self.boxes_at(p).copied()).collect();
        for (&i, boxes) in order.iter().zip(built) {
            all[i] = all[i].or(boxes);
        }
        self.set_boxes(graph, &all);
    }

    /// This table after the cells `edited` of `graph` changed: the jump
    /// table repaired near the edits ([`JumpTable::repair`]) and no boxes,
    /// since a box of the older map may leave out a cell whose shortest
    /// path now starts its way. The search then prunes nothing and answers
    /// as `jps+` does, until the table fills in again
    /// ([`fill_within`](Self::fill_within)).
    #[must_use]
    pub fn edited(&self, graph: &GridGraph, edited: &[NodeId]) -> GoalBounds {
        let mut jumps = self.jumps.clone();
        jumps.repair(graph, edited);
        GoalBounds::empty(graph, jumps)
    }

    /// The table of `jumps` with no boxes yet.
    fn empty(graph: &GridGraph, jumps: JumpTable) -> GoalBounds {
        GoalBounds {
            jumps,
            ranks: Ranks::new(cells(graph), &[]),
            boxes: Vec::new(),
            points: OnceLock::new(),
        }
    }

    /// The jump points, increasing.
    fn points(&self) -> &[NodeId] {
        self.points
            .get_or_init(|| jump_points(&self.jumps, &arrivals(&self.jumps)))
    }

    /// Gives each jump point the boxes of its place in `all` (in the order
    /// of the points), or none.
    fn set_boxes(&mut self, graph: &GridGraph, all: &[Option<[Box4; 8]>]) {
        let boxed: Vec<NodeId> = (self.points().iter().zip(all))
            .filter_map(|(&p, b)| b.map(|_| p))
            .collect();
        self.ranks = Ranks::new(cells(graph), &boxed);
        self.boxes = all.iter().flatten().flatten().copied().collect();
    }

    /// The boxes of the jump point at `cell`, if it has them.
    fn boxes_at(&self, cell: NodeId) -> Option<&[Box4; 8]> {
        let i = self.ranks.of(cell)?;
        self.boxes[8 * i..8 * i + 8].try_into().ok()
    }

    /// The jump table.
    pub fn jumps(&self) -> &JumpTable {
        &self.jumps
    }

    /// How many jump points the table has.
    pub fn jump_points(&self) -> usize {
        self.points().len()
    }

    /// How many of the [`jump_points`](Self::jump_points) a query expands
    /// (those a straight entry of the jump table leads to); the others are
    /// diagonal jump points, where a diagonal run's moves are filtered.
    pub fn expanded_jump_points(&self) -> usize {
        arrivals(&self.jumps)
            .iter()
            .filter(|&&a| a & 0x0f != 0)
            .count()
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
        let boxes = self.boxes_at(node)?;
        let [min_x, min_y, max_x, max_y] = boxes[d];
        Some((min_x, min_y, max_x, max_y))
    }

    /// Bytes of the jump table, the jump points, the index of the boxes
    /// and the boxes.
    pub fn memory_bytes(&self) -> usize {
        self.jumps.memory_bytes()
            + self.ranks.memory_bytes()
            + self.points.get().map_or(0, Vec::len) * size_of::<NodeId>()
            + self.boxes.len() * size_of::<Box4>()
    }

    /// [`memory_bytes`](Self::memory_bytes) once every jump point has its
    /// boxes: the most the table can hold.
    pub fn full_bytes(&self) -> usize {
        let points = self.jump_points();
        self.jumps.memory_bytes()
            + self.ranks.memory_bytes()
            + points * (size_of::<NodeId>() + 8 * size_of::<Box4>())
    }

    /// Whether the table has the size of `graph`, which moves by the
    /// octile rule (goal bounding's boxes are those of that rule).
    pub fn fits(&self, graph: &GridGraph) -> bool {
        graph.neighborhood() == crate::grid::Neighborhood::Octile && self.jumps.fits(graph)
    }
}

/// The number of cells of `graph`.
fn cells(graph: &GridGraph) -> usize {
    graph.width() as usize * graph.height() as usize
}

/// The difference between the index of a cell and that of its neighbour
/// in each direction, on a grid `cols` cells wide.
fn offsets(cols: u32) -> [i64; 8] {
    let cols = i64::from(cols);
    DIRECTIONS.map(|(dx, dy)| i64::from(dy) * cols + i64::from(dx))
}

/// For each cell of the grid of `jumps`, the moves by which a query can arrive at it
/// as a jump point and filter its moves there: the straight moves whose
/// entry of `jumps` leads to it (it is then expanded), and the diagonal
/// ones whose entry leads to it (a diagonal run stops there).
fn arrivals(jumps: &JumpTable) -> Vec<u8> {
    let offsets = offsets(jumps.width());
    let mut arrivals = vec![0u8; jumps.width() as usize * jumps.height() as usize];
    // A run's entries count down to 1 at the cell before the cell they
    // lead to (each is the next one's plus one, [`JumpTable::build`]), so
    // the cells arrived at by move `d` are the neighbours along `d` of the
    // cells whose entry `d` is 1: one pass over the entries, each write
    // beside the cell read, instead of following every entry.
    for c in 0..arrivals.len() {
        let entries = jumps.entries(NodeId(c as u32));
        let mut ones = 0u8;
        for (d, &entry) in entries.iter().enumerate() {
            ones |= u8::from(entry == 1) << d;
        }
        while ones != 0 {
            let d = ones.trailing_zeros() as usize;
            ones &= ones - 1;
            arrivals[(c as i64 + offsets[d]) as usize] |= 1 << d;
        }
    }
    arrivals
}

/// The cells that get boxes, increasing: those a straight entry of
/// `jumps` leads to (the jump points a query expands), and the diagonal
/// jump points on the diagonal runs those follow (where a run's straight
/// sides and its going on are filtered too). `arrivals` is
/// [`arrivals`]'s.
fn jump_points(jumps: &JumpTable, arrivals: &[u8]) -> Vec<NodeId> {
    let offsets = offsets(jumps.width());
    let moves = |c: i64| jumps.moves(NodeId(c as u32));
    let mut is_point: Vec<bool> = arrivals.iter().map(|&a| a & 0x0f != 0).collect();
    for (c, &arrived) in arrivals.iter().enumerate() {
        let mut diagonals = 0;
        let mut bits = arrived & 0x0f;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let behind = moves(c as i64 - offsets[a]);
            diagonals |= GridGraph::canonical_after(moves(c as i64), behind, a) & 0xf0;
        }
        while diagonals != 0 {
            let d = diagonals.trailing_zeros() as usize;
            diagonals &= diagonals - 1;
            let mut cell = c as i64;
            loop {
                let entry = jumps.distance(NodeId(cell as u32), d);
                if entry <= 0 {
                    break;
                }
                cell += i64::from(entry) * offsets[d];
                is_point[cell as usize] = true;
            }
        }
    }
    (0..is_point.len() as u32)
        .filter(|&c| is_point[c as usize])
        .map(NodeId)
        .collect()
}

/// Under which first move each cell goes in a jump point's boxes, by the
/// set of first moves of its shortest canonical paths (the index): one
/// move the query follows whichever way it arrives at the jump point on a
/// shortest path to the cell, or 0 when there is none, and the cell then
/// goes in the box of each.
///
/// A query that arrives at `source` by move `a` on a shortest path to a
/// cell goes on by one of the cell's first moves that is canonical after
/// `a`. An arrival counts unless none of the first moves is canonical
/// after it, or one of them leads to a cell that the cell before `source`
/// reaches in the 3x3 block round `source` more cheaply than through
/// `source` (then no shortest path to the cell comes that way). A move
/// canonical after every arrival that counts is one the query follows.
fn choices(graph: &GridGraph, source: NodeId, arrivals: u8) -> [u8; 256] {
    // The 3x3 block round the source, and the least cost between its
    // cells moving inside it.
    let (x, y) = graph.coords(source);
    let at = |(dx, dy): (i32, i32)| ((dy + 1) * 3 + dx + 1) as usize;
    let cost = |d: usize| if d < 4 { 1.0 } else { DIAGONAL };
    let mut dist = [[f64::INFINITY; 9]; 9];
    for (k, row) in dist.iter_mut().enumerate() {
        row[k] = 0.0;
        let (dx, dy) = (k as i32 % 3 - 1, k as i32 / 3 - 1);
        let cell = x
            .checked_add_signed(dx)
            .zip(y.checked_add_signed(dy))
            .and_then(|(cx, cy)| graph.node(cx, cy));
        let Some(cell) = cell else { continue };
        let moves = graph.moves(cell);
        for (d, &(mx, my)) in DIRECTIONS.iter().enumerate() {
            let (tx, ty) = (dx + mx, dy + my);
            if moves & (1 << d) != 0 && tx.abs() <= 1 && ty.abs() <= 1 {
                row[at((tx, ty))] = cost(d);
            }
        }
    }
    for m in 0..9 {
        for i in 0..9 {
            for j in 0..9 {
                dist[i][j] = dist[i][j].min(dist[i][m] + dist[m][j]);
            }
        }
    }
    let mut table = [0u8; 256];
    for (fm, choice) in table.iter_mut().enumerate().skip(1) {
        let fm = fm as u8;
        let mut kept = fm;
        let mut bits = arrivals;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let canonical = graph.canonical_moves_after(source, a);
            if fm & canonical == 0 {
                continue;
            }
            let (ax, ay) = DIRECTIONS[a];
            let before = at((-ax, -ay));
            let shortcut = (0..8).any(|f| {
                fm & (1 << f) != 0 && dist[before][at(DIRECTIONS[f])] < cost(a) + cost(f) - 1e-9
            });
            if !shortcut {
                kept &= canonical;
            }
        }
        *choice = kept;
    }
    table
}

/// The arrays of one canonical Dijkstra search from a jump point (Sturtevant
/// and Rabin 2016), reused by the next (the cells are cleared as the
/// boxes are read from them, or before the next search).
///
/// The search follows canonical paths only (from each cell, the moves
/// [`GridGraph::canonical_moves_after`] keeps after the move that entered
/// it), the paths jump point search follows, and goes through OPEN only at
/// jump points: from each it walks the straight runs of the jump table cell
/// by cell to the next jump point or the wall, and the diagonal runs to the
/// wall, walking both straight sides from each of their cells. A run stops
/// at a cell that has a cheaper cost already (the rest of the run is then
/// dearer than another way). Each cell keeps, per entering move, the first
/// moves of the shortest canonical paths that reach it: exactly those of
/// the cell-by-cell Dijkstra search, at a fraction of its work.
struct Sweep {
    /// Per cell, what the search knows of it (16 bytes, a quarter of a
    /// cache line, so that a run touches one place per cell): the build
    /// is bound by these loads and stores.
    cells: Vec<Cell>,
    /// Whether a search has left cells reached (the others are
    /// [`Cell::UNREACHED`]).
    dirty: bool,
    /// The cells that several moves' boxes could take, with those moves,
    /// while the boxes are read.
    open_choices: Vec<(u16, u16, u8)>,
    /// The jump points to expand, by the bits of their cost's value.
    open: BinaryHeap<Reverse<(u64, u32)>>,
}

/// What a search knows of one cell. Which runs stop at it (the straight
/// entering moves whose bytes of `first` are set and that are
/// [`arrivals`] of the cell) follows from `first`, so it takes no room.
#[derive(Clone, Copy)]
struct Cell {
    /// The cost as (straight moves << 32) | diagonal moves: equal costs
    /// are equal words.
    cost: u64,
    /// Byte `a`: the first moves (a bit each) of the canonical paths that
    /// reach the cell at its cost entering it by move `a`.
    first: u64,
}

impl Cell {
    /// A cell the search has not reached.
    const UNREACHED: Cell = Cell {
        cost: u64::MAX,
        first: 0,
    };
}

/// What a [`Sweep`] searches: the graph, its jump table, the offset of a
/// move in each direction between cell indices, each cell's [`arrivals`],
/// and the runs of passable cells of each row, as `(y, first x, last x)`
/// (the cells a search can reach, in the order of the grid).
struct Map<'a> {
    graph: &'a GridGraph,
    jumps: &'a JumpTable,
    offsets: [i64; 8],
    arrivals: Vec<u8>,
    passable: Vec<(u16, u16, u16)>,
}

impl<'a> Map<'a> {
    fn new(graph: &'a GridGraph, jumps: &'a JumpTable) -> Map<'a> {
        Map {
            graph,
            jumps,
            offsets: offsets(graph.width()),
            arrivals: arrivals(jumps),
            passable: passable_runs(graph),
        }
    }

    /// The straight entering moves whose runs stop at `cell` among those
    /// whose bytes of `first` are set: a straight run stops at a jump point
    /// of its direction, which is what the cell's arrival bit says.
    #[inline]
    fn stops(&self, cell: usize, first: u64) -> u8 {
        let mut stops = self.arrivals[cell] & 0x0f;
        let mut bits = stops;
        while bits != 0 {
            let a = bits.trailing_zeros();
            bits &= bits - 1;
            if (first >> (8 * a)) as u8 == 0 {
                stops &= !(1 << a);
            }
        }
        stops
    }
}

/// The runs of passable cells of each row of `graph`, as `(y, first x,
/// last x)` in the order of the grid (none when a coordinate does not fit
/// 16 bits: no boxes are built there).
fn passable_runs(graph: &GridGraph) -> Vec<(u16, u16, u16)> {
    let (w, h) = (graph.width(), graph.height());
    if w > 1 << 16 || h > 1 << 16 {
        return Vec::new();
    }
    let mut runs = Vec::new();
    for y in 0..h {
        let open = |x: u32| graph.is_passable(NodeId(y * w + x));
        let mut x = 0;
        while x < w {
            if open(x) {
                let first = x;
                while x + 1 < w && open(x + 1) {
                    x += 1;
                }
                runs.push((y as u16, first as u16, x as u16));
            }
            x += 1;
        }
    }
    runs
}

/// Eight boxes while they grow: lane `d` of `min` and `max` holds box
/// `d`'s `x` bounds, lane `8 + d` its `y` bounds. A cell grows the boxes
/// of a set of moves at once, every lane with the same instructions and no
/// branch (the compiler makes them vector instructions), so that one
/// cell's update need not wait on the last one's through memory.
struct Growing {
    min: [u16; 16],
    max: [u16; 16],
}

impl Growing {
    fn new() -> Growing {
        Growing {
            min: [u16::MAX; 16],
            max: [0; 16],
        }
    }

    /// Grows the box of each move of `moves` to hold the cells `x0..=x1`
    /// of row `y`.
    #[inline]
    fn grow(&mut self, moves: u8, (x0, x1): (u16, u16), y: u16) {
        for lane in 0..16 {
            let (low, high) = if lane < 8 { (x0, x1) } else { (y, y) };
            // All ones in the lanes of the moves, else zero.
            let on = 0u16.wrapping_sub((u16::from(moves) >> (lane % 8)) & 1);
            self.min[lane] = self.min[lane].min(low | !on);
            self.max[lane] = self.max[lane].max(high & on);
        }
    }

    /// How many cells box `d` gains by growing to hold `(x, y)`.
    fn growth(&self, d: usize, x: u16, y: u16) -> u64 {
        let area = |x0: u16, y0: u16, x1: u16, y1: u16| {
            if x0 > x1 {
                0
            } else {
                u64::from(x1 - x0 + 1) * u64::from(y1 - y0 + 1)
            }
        };
        let [x0, y0, x1, y1] = self.bounds(d);
        area(x0.min(x), y0.min(y), x1.max(x), y1.max(y)) - area(x0, y0, x1, y1)
    }

    /// Box `d` as `[min_x, min_y, max_x, max_y]`.
    fn bounds(&self, d: usize) -> Box4 {
        [self.min[d], self.min[8 + d], self.max[d], self.max[8 + d]]
    }

    fn boxes(&self) -> [Box4; 8] {
        std::array::from_fn(|d| self.bounds(d))
    }
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
            cells: vec![Cell::UNREACHED; cells],
            dirty: false,
            open_choices: Vec::new(),
            open: BinaryHeap::new(),
        }
    }

    /// Reaches `n` at `cost` by move `d` on paths with the first moves
    /// `first`, keeping those of every way of reaching it at its least
    /// cost. `None` when `n` has a lower cost already, else the first
    /// moves it had at `cost` before (0 when `cost` is new).
    #[inline]
    fn reach(&mut self, n: usize, cost: u64, d: usize, first: u8) -> Option<u64> {
        let first = u64::from(first) << (8 * d);
        let cell = &mut self.cells[n];
        if cell.cost == cost {
            let before = cell.first;
            cell.first |= first;
            return Some(before);
        }
        if cell.cost != u64::MAX && value(cell.cost) < value(cost) {
            return None;
        }
        *cell = Cell { cost, first };
        Some(0)
    }

    /// Walks the straight run from `from` (at `cost`) in direction `d` to
    /// the next jump point, which goes on OPEN (once per cost: a tie with
    /// a run that stopped there already finds it there), or to the wall.
    #[inline]
    fn straight(&mut self, map: &Map, from: usize, d: usize, cost: u64, first: u8) {
        let entry = map.jumps.distance(NodeId(from as u32), d);
        let step = map.offsets[d];
        let len = u64::from(entry.unsigned_abs());
        let mut cell = from as i64;
        for i in 1..=len {
            cell += step;
            let at = cost + i * STEP[0];
            let Some(before) = self.reach(cell as usize, at, d, first) else {
                return;
            };
            if i == len && entry > 0 && map.stops(cell as usize, before) == 0 {
                self.open.push(Reverse((value(at).to_bits(), cell as u32)));
            }
        }
    }

    /// Walks the diagonal run from `from` (at `cost`) in direction `d` to
    /// the wall, and from each of its cells both straight sides.
    fn diagonal(&mut self, map: &Map, from: usize, d: usize, cost: u64, first: u8) {
        let (a, b) = DIAGONAL_SIDES[d - 4];
        let (mut cell, mut at) = (from, cost);
        while map.graph.moves(NodeId(cell as u32)) & (1 << d) != 0 {
            cell = (cell as i64 + map.offsets[d]) as usize;
            at += STEP[1];
            if self.reach(cell, at, d, first).is_none() {
                return;
            }
            self.straight(map, cell, a, at, first);
            self.straight(map, cell, b, at, first);
        }
    }

    /// Follows the moves `out` gives (for each move, the first moves it
    /// carries) from `cell` at `cost`.
    fn follow(&mut self, map: &Map, cell: usize, cost: u64, out: [u8; 8]) {
        for (d, &first) in out.iter().enumerate() {
            if first != 0 {
                if d < 4 {
                    self.straight(map, cell, d, cost, first);
                } else {
                    self.diagonal(map, cell, d, cost, first);
                }
            }
        }
    }

    /// The eight boxes of `source`, which a query may reach by the moves
    /// `arrivals` ([`choices`]): one canonical Dijkstra search over `map`.
    fn boxes_from(&mut self, map: &Map, source: NodeId, arrivals: u8) -> [Box4; 8] {
        self.search(map, source);
        let choices = choices(map.graph, source, arrivals);
        let cols = map.graph.width() as usize;
        // The boxes a cell with each set of first moves grows: that of its
        // chosen move, those of all when none is, none when it has a
        // choice (made last).
        let grows: [u8; 256] = std::array::from_fn(|all| match choices[all] {
            0 => all as u8,
            one if one.is_power_of_two() => one,
            _ => 0,
        });
        let mut boxes = Growing::new();
        self.open_choices.clear();
        // Every passable cell in turn, row by row (a stream the processor
        // fetches ahead, where the cells reached in the order of the search
        // would be loads from all over the map), and each span of cells in
        // a row that grows the same boxes at once. A cell not reached has
        // no first moves, as does the source, and grows none.
        for &(y, x0, x1) in &map.passable {
            let start = usize::from(y) * cols + usize::from(x0);
            let row = &mut self.cells[start..=start + usize::from(x1 - x0)];
            let (mut span, mut start) = (0u8, x0);
            for (x, cell) in (x0..=x1).zip(row) {
                // Read, and cleared for the next search.
                let all = union(std::mem::replace(cell, Cell::UNREACHED).first);
                let moves = grows[usize::from(all)];
                if moves == 0 && all != 0 {
                    self.open_choices.push((x, y, choices[usize::from(all)]));
                }
                if moves != span {
                    if span != 0 {
                        boxes.grow(span, (start, x - 1), y);
                    }
                    (span, start) = (moves, x);
                }
            }
            if span != 0 {
                boxes.grow(span, (start, x1), y);
            }
        }
        self.dirty = false;
        // The cells with a choice last, each where its box grows least
        // around those of the cells without one.
        for &(x, y, chosen) in &self.open_choices {
            let mut bits = chosen;
            let mut best = (u64::MAX, 0);
            while bits != 0 {
                let d = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                best = best.min((boxes.growth(d, x, y), d));
            }
            boxes.grow(1 << best.1, (x, x), y);
        }
        boxes.boxes()
    }

    /// The search from `source`: afterwards the cells it reaches have their
    /// costs and first moves, the others cost `u64::MAX`.
    fn search(&mut self, map: &Map, source: NodeId) {
        if self.dirty {
            self.cells.fill(Cell::UNREACHED);
        }
        self.dirty = true;
        self.open.clear();
        let from = source.index();
        self.reach(from, 0, 0, 0);
        let mut out = [0u8; 8];
        let moves = map.graph.moves(source);
        for (d, first) in out.iter_mut().enumerate() {
            *first = moves & (1 << d);
        }
        self.follow(map, from, 0, out);
        while let Some(Reverse((key, v))) = self.open.pop() {
            let n = v as usize;
            let Cell { cost, first } = self.cells[n];
            // A cell goes on OPEN once per cost it has; an entry of an
            // older, higher cost is left behind.
            if value(cost).to_bits() != key {
                continue;
            }
            // The first moves carried by each move out, from the entering
            // moves whose runs stop here (the others' runs went on).
            let mut stops = map.stops(n, first);
            let mut out = [0u8; 8];
            while stops != 0 {
                let by = stops.trailing_zeros() as usize;
                stops &= stops - 1;
                let mask = (first >> (8 * by)) as u8;
                let mut moves = map.graph.canonical_moves_after(NodeId(v), by);
                while moves != 0 {
                    let d = moves.trailing_zeros() as usize;
                    moves &= moves - 1;
                    out[d] |= mask;
                }
            }
            self.follow(map, n, cost, out);
        }
    }
}

/// The first moves of a cell whatever its entering move: the union of the
/// bytes of its `first` word.
#[inline]
fn union(first: u64) -> u8 {
    let mut all = first | (first >> 32);
    all |= all >> 16;
    (all | (all >> 8)) as u8
}

/// Which moves a query toward one goal follows at each jump point: those
/// whose box holds the goal, or all at a jump point without boxes.
pub(crate) struct GoalFilter<'a> {
    ranks: &'a Ranks,
    boxes: &'a [Box4],
    x: u16,
    y: u16,
    /// Whether the goal's coordinates fit the boxes and the table has
    /// any (else nothing is dropped).
    fits: bool,
}

impl MoveFilter for GoalFilter<'_> {
    /// Goal bounding runs on octile tables only ([`GoalBounds::fits`]).
    const OCTILE_ONLY: bool = true;

    #[inline]
    fn keep(&self, u: NodeId, moves: u8) -> u8 {
        if !self.fits {
            return moves;
        }
        let Some(point) = self.ranks.of(u) else {
            return moves;
        };
        let boxes = &self.boxes[8 * point..8 * point + 8];
        let (x, y) = (self.x, self.y);
        let mut kept = 0;
        let mut bits = moves;
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if boxes::holds(boxes[d], x, y) {
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
        // A table without boxes filters nothing: its queries cost what
        // `jps+`'s do.
        let fits = u16::try_from(x).is_ok() && u16::try_from(y).is_ok() && !self.boxes.is_empty();
        GoalFilter {
            ranks: &self.ranks,
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
        graph: &'g GridGraph, bounds: impl Into<Cow<'g, GoalBounds>>, heuristic: H,
    ) -> Option<Self> {
        Self::over(graph, bounds.into(), GoalBounds::fits, heuristic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;
    use crate::grid::Tile;
    use crate::search::boxes::EMPTY;
    use crate::search::testing::{
        edit_batches, flip_cells, matches_dijkstra_from, proptest_against_dijkstra,
        refuses_other_grids, scattered, walled as grid,
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

    /// The arrivals by following every positive entry to the cell it
    /// leads to: what [`arrivals`] finds by looking at neighbours.
    fn arrivals_followed(jumps: &JumpTable) -> Vec<u8> {
        let offsets = offsets(jumps.width());
        let mut arrivals = vec![0u8; jumps.width() as usize * jumps.height() as usize];
        for c in 0..arrivals.len() {
            for (d, &offset) in offsets.iter().enumerate() {
                let entry = jumps.distance(NodeId(c as u32), d);
                if entry > 0 {
                    arrivals[(c as i64 + i64::from(entry) * offset) as usize] |= 1 << d;
                }
            }
        }
        arrivals
    }

    proptest::proptest! {
        /// A look at each cell's neighbours finds the arrivals that
        /// following every entry finds, on a built or a repaired table.
        #[test]
        fn arrivals_are_where_entries_lead(
            (mut graph, start) in scattered(20, 600),
        ) {
            let mut jumps = JumpTable::build(&graph);
            proptest::prop_assert_eq!(arrivals(&jumps), arrivals_followed(&jumps));
            let (x, y) = graph.coords(start);
            graph.set_tile(x, y, if graph.is_passable(start) { Tile::OutOfBounds } else { Tile::Ground });
            jumps.repair(&graph, &[start]);
            proptest::prop_assert_eq!(arrivals(&jumps), arrivals_followed(&jumps));
            // The jump points read each cell's moves from its entries.
            for c in 0..graph.node_bound() as u32 {
                proptest::prop_assert_eq!(jumps.moves(NodeId(c)), graph.moves(NodeId(c)));
            }
        }

        /// After any sequence of wall edits, a table edited (its boxes
        /// dropped) and filled in a part at a time answers optimally with
        /// each part, and ends equal to the build of the edited grid.
        #[test]
        fn edited_tables_fill_in_to_built_ones(
            (mut graph, start) in scattered(16, 500),
            batches in edit_batches(16),
        ) {
            let mut table = GoalBounds::build(&graph);
            for batch in batches {
                let edited = flip_cells(&mut graph, &batch);
                table = table.edited(&graph, &edited);
                proptest::prop_assert_eq!(table.boxed(), 0);
                proptest::prop_assert_eq!(
                    table.jump_points(),
                    GoalBounds::build_within(&graph, Some(Duration::ZERO)).jump_points()
                );
                table.fill_where(&graph, |n| n.0 % 3 == 0);
                let search = JumpPointSearchPlus::bounded(&graph, &table).unwrap();
                proptest::prop_assert_eq!(matches_dijkstra_from(&graph, &search, start), Ok(()));
                table.fill_within(&graph, Duration::from_secs(600));
                proptest::prop_assert_eq!(&table, &GoalBounds::build(&graph));
            }
        }
    }

    /// The canonical Dijkstra search over runs finds for every cell the
    /// first moves the search through every cell finds.
    fn runs_find_the_first_moves_of_every_cell(
        graph: &GridGraph, start: NodeId,
    ) -> Result<(), String> {
        let jumps = JumpTable::build(graph);
        let mut sweep = Sweep::new(cells(graph));
        // Twice, so that the second search reuses the first's arrays.
        for _ in 0..2 {
            sweep.search(&Map::new(graph, &jumps), start);
        }
        let mut runs = vec![0u8; cells(graph)];
        for (run, cell) in runs.iter_mut().zip(&sweep.cells) {
            *run = union(cell.first);
        }
        let want = cells::first_moves(graph, start);
        match (0..runs.len()).find(|&c| runs[c] != want[c]) {
            Some(c) => Err(format!(
                "cell {:?}: first moves {:08b} by runs, {:08b} cell by cell",
                graph.coords(NodeId(c as u32)),
                runs[c],
                want[c]
            )),
            None => Ok(()),
        }
    }

    /// The runs' first moves against the cell-by-cell search's.
    mod runs {
        use super::*;

        proptest_against_dijkstra! { runs_find_the_first_moves_of_every_cell, cases = 300, scattered(20, 400), rooms(6, 24) }
    }

    /// A cell that two first moves reach at the same cost on canonical
    /// paths goes in one box when no arrival needs the other: round a lone
    /// wall cell, the cell behind it.
    #[test]
    fn a_tie_goes_in_one_box() {
        let graph = grid(5, 5, |x, y| (x, y) == (2, 2));
        let mut sweep = Sweep::new(25);
        let jumps = JumpTable::build(&graph);
        let boxes = sweep.boxes_from(&Map::new(&graph, &jumps), graph.node(2, 1).unwrap(), 0);
        let holds =
            |[x0, y0, x1, y1]: Box4, (x, y): (u16, u16)| x0 <= x && x <= x1 && y0 <= y && y <= y1;
        // West and east round the wall, at the same cost.
        let behind = (2, 3);
        assert!(holds(boxes[1], behind) != holds(boxes[3], behind));
        assert_eq!(boxes[6], EMPTY, "south-west cuts the wall's corner");
        // North leads only to the cell north: the others of that row are
        // a diagonal move away.
        assert_eq!(boxes[0], [2, 0, 2, 0]);
    }

    /// A cell's box is one of its first moves canonical after each way a
    /// query can arrive on a shortest path to it.
    #[test]
    fn choices_follow_every_arrival_that_counts() {
        let graph = grid(5, 5, |_, _| false);
        let center = graph.node(2, 2).unwrap();
        let (north, east, south, west, north_east) = (1u8, 2u8, 4u8, 8u8, 16u8);
        // Arriving by east, only east goes on (no wall forces a turn).
        let choices = choices(&graph, center, east);
        assert_eq!(choices[usize::from(east | north_east)], east);
        // No first move canonical after east: that arrival does not count.
        assert_eq!(choices[usize::from(south)], south);
        // Arriving by west, east goes back to the cell before.
        let choices = super::choices(&graph, center, west);
        assert_eq!(choices[usize::from(east)], east);
        // Arriving by north, west is cheaper diagonally from the cell
        // before, so that arrival does not count.
        let choices = super::choices(&graph, center, north);
        assert_eq!(choices[usize::from(west | north)], west | north);
    }

    /// Only canonical paths count: on an open grid, a cell south-east of
    /// the east row is reached as cheaply by east first, but the canonical
    /// path takes the diagonal first, so the box of east is its row.
    #[test]
    fn boxes_count_canonical_paths_only() {
        let graph = grid(5, 5, |_, _| false);
        let boxes =
            Sweep::new(25).boxes_from(&Map::new(&graph, &JumpTable::build(&graph)), NodeId(0), 0);
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
