//! Repair proportional to the change: a landmark table whose distances
//! follow wall edits by updating only the cells whose distance changes.
//!
//! Each landmark's distances are a single-source shortest-path tree. After
//! moves disappear (walls added) the cells whose every shortest path used
//! one of them get longer; after moves appear (walls removed) cells near
//! them get shorter. [`IncrementalTable`] repairs each landmark (several
//! at once on several cores in [`repair`](IncrementalTable::repair)) as
//! dynamic shortest-path algorithms do (Ramalingam and Reps, 1996), with
//! Dial's buckets for the queues when the move costs allow:
//!
//! 1. **Raise.** From the far ends of the moves that disappeared and were
//!    tight (on a shortest path), in increasing old distance, a cell is
//!    *affected* when no unaffected neighbour still gives it its old
//!    distance over a move of the new map; the cells it gave its distance
//!    to are examined next. Cells not reached keep their distance.
//! 2. **Reset.** Each affected cell takes the best distance through its
//!    unaffected neighbours (infinite when it has none).
//! 3. **Seed.** Each move that appeared lowers its far end when it is a
//!    shortcut.
//! 4. **Lower.** Dijkstra's algorithm from the reset and lowered cells,
//!    relaxing only moves that make a distance smaller.
//!
//! The work is proportional to the cells whose distance changes and their
//! neighbours, not to the map.
//!
//! # Identical to a rebuild
//!
//! The distances are kept exactly as [`LandmarkTable::build`] computes them:
//! `f64` sums `d(u) + cost`, the same operation
//! in the same precision. Those values are the one solution of
//! `d(s) = 0`, `d(v) = min over moves u -> v of fl(d(u) + cost)` (costs are
//! at least 1, so `fl(d + cost) > d`, and the cell of smallest value where
//! two solutions differ would contradict either), whatever order a search
//! finds them in; the repair computes a solution of the same equations, so
//! the table after a repair is bit for bit the one a rebuild gives
//! (property test `incremental_repair_equals_a_rebuild`). The repair
//! works landmark by landmark, so an `IncrementalTable` keeps the
//! distances a second time, landmark-major beside the node-major table
//! the searches read: 8 more bytes per cell and landmark.
//!
//! # A door that opens and closes
//!
//! When the only edit since the table was fresh has been repaired, the
//! table keeps that repair's undo list (the value each changed entry had
//! before), up to half the table's entries. An edit that undoes it (the
//! same cell set back to the same tile, nothing else edited) is then
//! repaired by writing those values back, in `O(entries)` with no search
//! ([`RepairProgress::restored`]), and the values it overwrites are kept
//! in turn, so a door that keeps opening and closing is searched once.
//! The values are the ones a rebuild gives on that map, so the table is
//! still bit for bit a rebuild's (property test
//! `a_door_that_opens_and_closes_equals_a_rebuild`).
//!
//! # Serving while it repairs
//!
//! [`repair_step`](IncrementalTable::repair_step) does a bounded amount of
//! work (for a frame of an interactive editor) and writes a landmark's
//! distances into the table only when that landmark is finished, so every
//! landmark in the table is exact on some map since which the recorded
//! changes happened; [`heuristic`](IncrementalTable::heuristic) is then a
//! [`SafeDifferential`] that stays admissible. An edit during a repair
//! undoes the landmark under repair (its table distances were not written
//! yet) and it starts again on the next step.
//! [`start_rebuild`](IncrementalTable::start_rebuild) instead builds a
//! whole new table on a thread from a copy of the map, while the old table
//! keeps serving in the safe mode; [`finish_rebuild`](IncrementalTable::finish_rebuild)
//! swaps it in, with the edits made meanwhile still recorded.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Mutex, PoisonError};
use std::thread::JoinHandle;

use rayon::prelude::*;

use super::stale::{MapChanges, Move};
use super::table::LandmarkTable;
use super::{DifferentialHeuristic, Ring, SafeDifferential, dial_shape, distances_from};
use crate::graph::{Graph, NodeId, Reversed};
use crate::grid::{GridGraph, Tile};
use crate::heuristic::Heuristic;
use crate::search::SearchCache;

/// Cells of work after which [`IncrementalTable::repair`] shares the
/// landmarks left with the other cores.
const PARALLEL_REPAIR: usize = 1 << 15;

/// Changed entries below which [`IncrementalTable::finish`] writes the
/// table on one core.
const PARALLEL_FINISH: usize = 1 << 14;

/// A min-heap of cells by distance: non-negative `f64` bits order as the
/// values do.
type Heap = BinaryHeap<Reverse<(u64, u32)>>;

/// Cells by distance, smallest first, for one phase of a landmark's repair.
///
/// On a graph whose move costs lie between `w > 0` and a bounded multiple
/// of it ([`Graph::cost_bounds`], every grid without terrain) this is
/// Dial's ring of buckets `w` wide, as the rebuild's search
/// ([`distances_from`]) uses: a cell taken from a bucket cannot be lowered
/// by another cell of the same bucket, every move being at least `w` long,
/// so the order within a bucket does not matter. Seeds, which may lie
/// anywhere, wait in a heap and join the ring when it reaches their
/// bucket. Otherwise (terrain costs) everything goes through the heap.
/// The default is a queue without memory, left in a finished job.
#[derive(Debug, Default)]
struct CellQueue {
    /// `(w, ring)`: Dial's buckets when the costs are bounded.
    dial: Option<(f64, Ring)>,
    /// The bucket being emptied (`floor(d / w)`).
    at: usize,
    /// Entries in the ring.
    in_ring: usize,
    seeds: Heap,
}

impl CellQueue {
    /// An empty queue for the move costs of `graph`: `spare`, emptied by
    /// an earlier job and keeping its memory, when it suits them.
    fn new(graph: &GridGraph, spare: Option<CellQueue>) -> CellQueue {
        let bounds = graph
            .cost_bounds()
            .and_then(|(lo, hi)| dial_shape(lo, hi))
            // A power of two, so that a bucket's slot is a mask.
            .map(|(w, slots)| (w, slots.next_power_of_two()));
        if let Some(q) = spare {
            let shape = q.dial.as_ref().map(|(w, ring)| (*w, ring.len()));
            if shape == bounds && q.in_ring == 0 && q.seeds.is_empty() {
                return q;
            }
        }
        CellQueue {
            dial: bounds.map(|(w, slots)| (w, vec![Vec::new(); slots])),
            at: 0,
            in_ring: 0,
            seeds: Heap::new(),
        }
    }

    /// Bytes its buffers hold.
    fn bytes(&self) -> usize {
        let ring = self.dial.as_ref().map_or(0, |(_, ring)| {
            ring.iter().map(Vec::capacity).sum::<usize>() * std::mem::size_of::<(u32, f64)>()
        });
        ring + self.seeds.capacity() * std::mem::size_of::<Reverse<(u64, u32)>>()
    }

    /// Queues `v` at distance `d`, anywhere; before the first
    /// [`pop`](Self::pop) of the phase.
    fn seed(&mut self, v: u32, d: f64) {
        self.seeds.push(Reverse((d.to_bits(), v)));
    }

    /// Queues `v` at distance `d`, at least a move's cost beyond the
    /// distance of the cell last popped.
    fn push(&mut self, v: u32, d: f64) {
        match &mut self.dial {
            Some((w, ring)) => {
                let mask = ring.len() - 1;
                ring[(d / *w) as usize & mask].push((v, d));
                self.in_ring += 1;
            }
            None => self.seed(v, d),
        }
    }

    /// The cell of smallest distance (up to the order within a bucket),
    /// with the distance it was queued at.
    fn pop(&mut self) -> Option<(u32, f64)> {
        let Some((w, ring)) = &mut self.dial else {
            let Reverse((bits, v)) = self.seeds.pop()?;
            return Some((v, f64::from_bits(bits)));
        };
        let mask = ring.len() - 1;
        loop {
            while let Some(&Reverse((bits, v))) = self.seeds.peek() {
                let d = f64::from_bits(bits);
                if self.in_ring == 0 {
                    self.at = (d / *w) as usize;
                } else if (d / *w) as usize > self.at {
                    break;
                }
                self.seeds.pop();
                ring[self.at & mask].push((v, d));
                self.in_ring += 1;
            }
            if let Some(entry) = ring[self.at & mask].pop() {
                self.in_ring -= 1;
                return Some(entry);
            }
            if self.in_ring == 0 && self.seeds.is_empty() {
                return None;
            }
            self.at += 1;
        }
    }
}

/// Per-cell stamps of one repair worker (in the raise queue, affected),
/// and the queues its finished jobs emptied.
#[derive(Debug)]
struct Scratch {
    queued: Vec<u32>,
    affected: Vec<u32>,
    stamp: u32,
    queues: Vec<CellQueue>,
    /// A finished job's emptied lists of affected cells and of changes.
    spare_affected: Vec<u32>,
    spare_undo: Vec<(u32, f64)>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            queued: vec![0; n],
            affected: vec![0; n],
            stamp: 0,
            queues: Vec::new(),
            spare_affected: Vec::new(),
            spare_undo: Vec::new(),
        }
    }

    /// A stamp that no cell carries yet.
    fn next(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.queued.fill(0);
            self.affected.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Its stamps, and what its spare queues and lists hold on to.
    fn bytes(&self) -> usize {
        let queues: usize = self.queues.iter().map(CellQueue::bytes).sum();
        (self.queued.len() + self.affected.len() + self.spare_affected.capacity())
            * std::mem::size_of::<u32>()
            + self.spare_undo.capacity() * std::mem::size_of::<(u32, f64)>()
            + queues
    }
}

/// A symmetric [`LandmarkTable`] of a [`GridGraph`] that follows the grid's
/// wall edits with a repair proportional to the change (see the module
/// docs for the algorithm and why the result equals a rebuild).
///
/// Make the edits through [`set_tile`](Self::set_tile), search with
/// [`heuristic`](Self::heuristic) (admissible at every moment, repaired or
/// not), and repair with [`repair`](Self::repair) (all at once) or
/// [`repair_step`](Self::repair_step) (a budget at a time).
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
/// use cairns::heuristic::Octile;
/// use cairns::landmarks::{Directedness, IncrementalTable, LandmarkTable};
/// use cairns::search::{AStar, Search, SearchCache};
///
/// let grid = Grid::from_ascii("
///     ........
///     @@@@@@@.
///     ........
/// ").unwrap();
/// let mut graph = GridGraph::new(grid, Neighborhood::Octile);
/// let corner = graph.node(0, 0).unwrap();
/// let mut table = IncrementalTable::build(&graph, &[corner]);
/// table.set_tile(&mut graph, 0, 1, Tile::Ground); // a shortcut
/// // Before the repair the safe heuristic still finds the shortest path.
/// let (a, z) = (corner, graph.node(0, 2).unwrap());
/// let h = table.heuristic(&graph, Octile::new(&graph));
/// let mut cache = SearchCache::new();
/// assert_eq!(AStar::new(&graph, &h).search_cost(a, z, &mut cache), Some(2.0));
/// let done = table.repair(&graph);
/// assert!(done.changed > 0 && done.changed < graph.grid().len());
/// assert_eq!(*table.table(), LandmarkTable::build(&graph, &[corner], Directedness::Symmetric));
/// ```
#[derive(Debug)]
pub struct IncrementalTable {
    table: LandmarkTable,
    /// `d(v, L)` before rounding, landmark-major: `exact[l * n + v]`.
    exact: Vec<f64>,
    /// The largest finite value of each landmark's column (0 when none).
    column_max: Vec<f64>,
    /// For each landmark, the changes since its distances were exact.
    changes: Vec<MapChanges>,
    /// The changes since the table's components were the map's.
    components_changes: MapChanges,
    /// The landmark under repair.
    job: Option<Job>,
    /// Where the next repair looks for a landmark to repair.
    cursor: usize,
    /// Per-cell stamps, one set per worker of a parallel
    /// [`repair`](Self::repair); the first serves the job.
    scratch: Vec<Scratch>,
    background: Option<Background>,
    /// Whether the map's move costs are on the lattice
    /// ([`Graph::lattice_costs`], a scan of every move under terrain):
    /// found by the first repair step that finishes a landmark after an
    /// edit, and forgotten at each edit.
    lattice: Option<bool>,
    /// The edits since the table was last fresh: their number and the
    /// last one.
    edits: (usize, Option<Edit>),
    /// The values the landmarks finished since the table was last fresh
    /// replaced: what [`Revert`] keeps once the repair of a single edit is
    /// finished.
    replaced: Vec<Replaced>,
    /// The last repaired edit, when it was the only one since the table
    /// was fresh, with the values its repair replaced; kept by an edit
    /// that undoes it (then the only edit since, see
    /// [`reverting`](Self::reverting)), dropped by any other.
    last: Option<Revert>,
}

/// A tile set through [`IncrementalTable::set_tile`]: where, and the tile
/// before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Edit {
    x: u32,
    y: u32,
    before: Tile,
    after: Tile,
}

/// The values one landmark's repair replaced: the landmark, the repair's
/// undo list (`(cell, value before)` for every change, in order: a cell's
/// first entry holds its value before), the number of entries it changed
/// and its column's largest finite value before.
#[derive(Debug)]
struct Replaced {
    l: usize,
    undo: Vec<(u32, f64)>,
    /// Whether `undo` is already in cell order with one entry per cell
    /// (after a first restore).
    by_cell: bool,
    changed: usize,
    max: f64,
}

impl Replaced {
    /// Swaps its values with the landmark's `column`: afterwards the
    /// column holds the values before the repair and the list, in cell
    /// order with one entry per cell, the values the swap replaced. The
    /// first time, the undo list becomes such a list: a short one sorted
    /// and cut to each cell's first entry, a long one by a bit set of its
    /// cells, whose values the column gives before the undo list is
    /// applied backwards (each cell ends with its first entry's value, the
    /// one before the repair).
    fn swap_into(&mut self, column: &mut [f64]) {
        if !self.by_cell && self.undo.len() * 64 < column.len() {
            // Few entries: sorted (stably, so that a cell's first entry,
            // its value before the repair, leads) and cut to that entry.
            self.undo.sort_by_key(|&(v, _)| v);
            self.undo.dedup_by_key(|&mut (v, _)| v);
            self.by_cell = true;
        }
        if self.by_cell {
            for (v, d) in &mut self.undo {
                std::mem::swap(&mut column[*v as usize], d);
            }
            return;
        }
        let mut words = vec![0u64; column.len().div_ceil(64)];
        for &(v, _) in &self.undo {
            words[v as usize / 64] |= 1 << (v % 64);
        }
        let cells = words.iter().map(|w| w.count_ones() as usize).sum();
        let mut after = Vec::with_capacity(cells);
        for (w, &word) in words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let v = w * 64 + bits.trailing_zeros() as usize;
                after.push((v as u32, column[v]));
                bits &= bits - 1;
            }
        }
        for &(v, old) in self.undo.iter().rev() {
            column[v as usize] = old;
        }
        self.undo = after;
        self.by_cell = true;
    }
}

/// A repaired edit and the values its repair replaced, so that the edit
/// undoing it is repaired by writing them back (a door that opens and
/// closes again): `O(entries changed)`, with no search.
#[derive(Debug)]
struct Revert {
    edit: Edit,
    replaced: Vec<Replaced>,
}

/// The most entries a [`Revert`] keeps, as a share of the table's: a half
/// (16 bytes each, so at most the table's memory again), or
/// [`REVERT_ENTRIES`] on a small table.
const REVERT_SHARE: usize = 2;

/// The entries a [`Revert`] may keep whatever the table's size (1 MiB).
const REVERT_ENTRIES: usize = 1 << 16;

/// A rebuild running on another thread, and the edits made since it
/// copied the map.
#[derive(Debug)]
struct Background {
    handle: JoinHandle<(Vec<f64>, LandmarkTable)>,
    since: MapChanges,
}

/// The landmark a [`Job`] repairs: its index in the table, its node and
/// the largest finite value of its column before the repair.
#[derive(Clone, Copy, Debug)]
struct Landmark {
    l: usize,
    source: u32,
    max: f64,
}

impl Landmark {
    /// Landmark `l` of `table`, whose columns' largest values are
    /// `column_max`.
    fn of(table: &LandmarkTable, column_max: &[f64], l: usize) -> Landmark {
        Landmark {
            l,
            source: table.landmarks()[l].0,
            max: column_max[l],
        }
    }
}

/// Where a landmark's repair stands.
#[derive(Debug)]
struct Job {
    l: usize,
    /// The landmark's node.
    source: u32,
    /// This job's stamp in its worker's [`Scratch`].
    stamp: u32,
    phase: Phase,
    appeared: Vec<Move>,
    raise: CellQueue,
    affected: Vec<u32>,
    reset: usize,
    lower: CellQueue,
    /// `(cell, value before)` for every change of the column, in order.
    undo: Vec<(u32, f64)>,
    /// The column's largest finite value: before the repair, and after it
    /// once [`run`](Job::run) has finished.
    max: f64,
    /// Once `run` has finished: the cells whose value changed.
    changed: Changed,
    /// The column's largest finite value before the repair.
    max_before: f64,
    /// Whether a finished job keeps its undo list (for [`Revert`])
    /// instead of handing its memory to the worker's next job.
    keep: bool,
}

/// The cells whose value a finished [`Job`] changed, each once: a list for
/// a few, one bit per cell of the map for many, so that
/// [`IncrementalTable::finish`] writes the table's rows in node order (a
/// row holds every landmark: written landmark by landmark in the order the
/// search changed them, each entry costs a cache miss).
#[derive(Debug)]
enum Changed {
    /// `(cell, new value)`.
    List(Vec<(u32, f64)>),
    /// Bit `v % 64` of word `v / 64` is set for a changed cell `v`, whose
    /// new value is in the landmark's column; `count` bits are set.
    Bits { words: Vec<u64>, count: usize },
}

impl Changed {
    fn len(&self) -> usize {
        match self {
            Changed::List(list) => list.len(),
            Changed::Bits { count, .. } => *count,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Raise,
    Reset,
    Lower,
}

/// What a call of [`IncrementalTable::repair_step`] or
/// [`IncrementalTable::repair`] did and what is left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RepairProgress {
    /// Cells taken from a queue or reset (the unit of the budget).
    pub work: usize,
    /// Landmarks whose repair finished in this call.
    pub landmarks_done: usize,
    /// Table entries whose distance changed in the landmarks finished in
    /// this call.
    pub changed: usize,
    /// Landmarks whose distances are not yet exact on the map, the one
    /// under repair included; 0 when the table is fresh.
    pub landmarks_left: usize,
    /// Whether the edit undid the last repaired one (the only edit since
    /// the table was fresh), so that the repair wrote back the values that
    /// repair had replaced instead of searching.
    pub restored: bool,
}

impl RepairProgress {
    /// Whether the table is exact on the map.
    pub fn done(&self) -> bool {
        self.landmarks_left == 0
    }
}

impl IncrementalTable {
    /// Computes the distances between every cell of `graph` and each of
    /// `landmarks`, as [`LandmarkTable::build`] with
    /// [`Directedness::Symmetric`](super::Directedness::Symmetric) does (one
    /// search per landmark, in parallel), keeping them unrounded for later
    /// repairs.
    ///
    /// # Panics
    ///
    /// As [`LandmarkTable::build`]: when a landmark is off the graph or
    /// there are more than [`LandmarkTable::MAX_LANDMARKS`].
    pub fn build(graph: &GridGraph, landmarks: &[NodeId]) -> IncrementalTable {
        let (exact, table) = build_exact(graph, landmarks);
        Self::from_parts(exact, table, MapChanges::new())
    }

    fn from_parts(exact: Vec<f64>, table: LandmarkTable, since: MapChanges) -> IncrementalTable {
        let n = table.node_count();
        let k = table.landmark_count();
        let column_max = (0..k)
            .map(|l| column_max(&exact[l * n..(l + 1) * n]))
            .collect();
        let since_empty = since.is_empty();
        IncrementalTable {
            table,
            exact,
            column_max,
            changes: vec![since.clone(); k],
            components_changes: since,
            job: None,
            cursor: 0,
            scratch: vec![Scratch::new(n)],
            background: None,
            lattice: None,
            // Edits made before the table came (during a background
            // rebuild) count as several: no single edit undoes them.
            edits: (if since_empty { 0 } else { 2 }, None),
            replaced: Vec::new(),
            last: None,
        }
    }

    /// The table: exact on the map for the landmarks already repaired,
    /// stale for the others. Search it through [`heuristic`](Self::heuristic)
    /// while [`is_fresh`](Self::is_fresh) is `false`.
    pub fn table(&self) -> &LandmarkTable {
        &self.table
    }

    /// The table, giving up the state kept for repairs.
    pub fn into_table(self) -> LandmarkTable {
        self.table
    }

    /// Whether no recorded edit waits for a repair.
    pub fn is_fresh(&self) -> bool {
        self.job.is_none()
            && self.components_changes.is_empty()
            && self.changes.iter().all(MapChanges::is_empty)
    }

    /// Bytes of memory: the table, its landmark-major copy and the
    /// repair's per-cell stamps (8 bytes per cell for each core a
    /// [`repair`](Self::repair) has used) with the queues and lists each
    /// core keeps from its last repairs, and the values kept for an edit
    /// that undoes the last one (see the module docs).
    pub fn memory_bytes(&self) -> usize {
        let kept = self
            .last
            .iter()
            .flat_map(|r| &r.replaced)
            .chain(&self.replaced)
            .map(|r| r.undo.capacity())
            .sum::<usize>();
        self.table.memory_bytes()
            + self.exact.len() * std::mem::size_of::<f64>()
            + self.scratch.iter().map(Scratch::bytes).sum::<usize>()
            + kept * std::mem::size_of::<(u32, f64)>()
    }

    /// Sets the tile at `(x, y)` with [`GridGraph::set_tile`] and records
    /// the change for every landmark (and for a rebuild running in the
    /// background). A repair in progress undoes the landmark it was working
    /// on; the next step starts it again. Returns `false` (changing
    /// nothing) when the cell is off the grid.
    ///
    /// For an agent larger than one cell ([`GridGraph::with_size`]) this
    /// edits the map, and records a change for each cell the agent sees
    /// open or close.
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn set_tile(&mut self, graph: &mut GridGraph, x: u32, y: u32, tile: Tile) -> bool {
        self.check(graph);
        if !graph.map().contains(x, y) {
            return false;
        }
        for (x, y, tile) in graph.map_edit(x, y, tile) {
            self.set_cell(graph, x, y, tile);
        }
        true
    }

    /// [`set_tile`](Self::set_tile) of a cell of the grid the agent sees
    /// ([`GridGraph::map_edit`] gives them).
    pub(crate) fn set_cell(&mut self, graph: &mut GridGraph, x: u32, y: u32, tile: Tile) -> bool {
        let Some(before) = graph.grid().get(x, y) else {
            return false;
        };
        let edit = Edit {
            x,
            y,
            before,
            after: tile,
        };
        if self.is_fresh() {
            self.edits = (0, None);
            self.replaced.clear();
            let undoes = |last: &Revert| {
                last.edit.before != last.edit.after
                    && (last.edit.x, last.edit.y, last.edit.after, last.edit.before)
                        == (x, y, before, tile)
            };
            if !self.last.as_ref().is_some_and(undoes) {
                self.last = None;
            }
        } else {
            self.last = None;
        }
        self.edits = (self.edits.0 + 1, Some(edit));
        if let Some(job) = self.job.take() {
            let n = self.table.node_count();
            let column = &mut self.exact[job.l * n..(job.l + 1) * n];
            for &(v, old) in job.undo.iter().rev() {
                column[v as usize] = old;
            }
        }
        for c in &mut self.changes {
            c.note(graph, x, y, tile);
        }
        self.components_changes.note(graph, x, y, tile);
        if let Some(b) = &mut self.background {
            b.since.note(graph, x, y, tile);
        }
        self.lattice = None;
        graph.set_cell(x, y, tile)
    }

    /// A differential heuristic over the table that is admissible on
    /// `graph` whatever has been repaired: the table's own heuristic when
    /// it is fresh, otherwise its [`SafeDifferential`] form over the moves
    /// that appeared since each landmark was exact.
    pub fn heuristic<B: Heuristic + Clone>(
        &self, graph: &GridGraph, base: B,
    ) -> SafeDifferential<'_, B> {
        SafeDifferential::after_all(
            DifferentialHeuristic::new(&self.table, base),
            self.changes.iter().chain([&self.components_changes]),
            graph,
        )
    }

    /// Repairs every landmark on `graph`: afterwards the table equals
    /// [`LandmarkTable::build`] on `graph` with the same landmarks. The
    /// landmarks are repaired in parallel (each core takes the next
    /// landmark left), as the rebuild builds them.
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn repair(&mut self, graph: &GridGraph) -> RepairProgress {
        self.check(graph);
        if self.reverting() {
            return self.restore(graph);
        }
        let mut progress = RepairProgress::default();
        let n = self.table.node_count();
        // The landmark a step left unfinished, first.
        let mut jobs = Vec::new();
        if let Some(mut job) = self.job.take() {
            let column = &mut self.exact[job.l * n..(job.l + 1) * n];
            job.run(
                graph,
                column,
                &mut self.scratch[0],
                usize::MAX,
                &mut progress.work,
            );
            jobs.push(job);
        }
        let keep = self.one_edit();
        let mut tasks = Vec::new();
        for (l, column) in self.exact.chunks_exact_mut(n.max(1)).enumerate() {
            if !self.changes[l].is_empty() {
                let moves = self.changes[l].moves(graph);
                let landmark = Landmark::of(&self.table, &self.column_max, l);
                tasks.push((landmark, column, moves));
            }
        }
        // Tasks are taken from the back: reversed, the landmarks go in order.
        tasks.reverse();
        let tasks = Mutex::new(tasks);
        // Repairs landmarks on `scratch` until none is left or `enough`
        // cells of work are done.
        let worker = |scratch: &mut Scratch, enough: usize| {
            let (mut done, mut work) = (Vec::new(), 0);
            while work < enough {
                let task = tasks.lock().unwrap_or_else(PoisonError::into_inner).pop();
                let Some((landmark, column, moves)) = task else {
                    break;
                };
                let mut job = Job::start(graph, landmark, column, scratch, moves, keep);
                job.run(graph, column, scratch, usize::MAX, &mut work);
                done.push(job);
            }
            (done, work)
        };
        // A small repair stays on this thread, where it is done before the
        // other cores would wake up; a large one (the first landmarks took
        // long) shares the rest.
        let (done, work) = worker(&mut self.scratch[0], PARALLEL_REPAIR);
        jobs.extend(done);
        progress.work += work;
        let left = tasks.lock().unwrap_or_else(PoisonError::into_inner).len();
        let workers = left.min(rayon::current_num_threads());
        if workers > 0 {
            if self.scratch.len() < workers {
                self.scratch.resize_with(workers, || Scratch::new(n));
            }
            let rest: Vec<(Vec<Job>, usize)> = self.scratch[..workers]
                .par_iter_mut()
                .map(|scratch| worker(scratch, usize::MAX))
                .collect();
            for (done, work) in rest {
                jobs.extend(done);
                progress.work += work;
            }
        }
        progress.landmarks_done += jobs.len();
        progress.changed += self.finish(&jobs);
        self.keep_replaced(&mut jobs);
        self.conclude(graph, &mut progress);
        progress
    }

    /// Repairs for about `budget` units of work (a cell taken from a queue
    /// or reset; the step may overrun by one cell's neighbours), for an
    /// editor that spreads the repair over frames. A landmark's distances
    /// reach the table when its repair is finished; until
    /// [`RepairProgress::done`], search with [`heuristic`](Self::heuristic).
    /// The step works on one landmark at a time, on the calling thread.
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn repair_step(&mut self, graph: &GridGraph, budget: usize) -> RepairProgress {
        self.check(graph);
        if self.reverting() {
            return self.restore(graph);
        }
        let mut progress = RepairProgress::default();
        let (n, k) = (self.table.node_count(), self.table.landmark_count());
        let mut fresh = 0;
        while progress.work < budget && fresh < k {
            if self.job.is_none() {
                let l = self.cursor;
                self.cursor = (self.cursor + 1) % k;
                if self.changes[l].is_empty() {
                    fresh += 1;
                    continue;
                }
                let moves = self.changes[l].moves(graph);
                let landmark = Landmark::of(&self.table, &self.column_max, l);
                let keep = self.one_edit();
                let column = &self.exact[l * n..(l + 1) * n];
                let scratch = &mut self.scratch[0];
                self.job = Some(Job::start(graph, landmark, column, scratch, moves, keep));
            }
            let mut job = self.job.take().expect("a job was just set");
            let column = &mut self.exact[job.l * n..(job.l + 1) * n];
            let left = budget - progress.work;
            if job.run(
                graph,
                column,
                &mut self.scratch[0],
                left,
                &mut progress.work,
            ) {
                progress.changed += self.finish(std::slice::from_ref(&job));
                self.keep_replaced(std::slice::from_mut(&mut job));
                progress.landmarks_done += 1;
                fresh = 0;
            } else {
                self.job = Some(job);
            }
        }
        self.conclude(graph, &mut progress);
        progress
    }

    /// What is left after a repair, and the table's margin and components
    /// once landmarks are finished.
    fn conclude(&mut self, graph: &GridGraph, progress: &mut RepairProgress) {
        progress.landmarks_left = self.changes.iter().filter(|c| !c.is_empty()).count();
        if progress.landmarks_done > 0 {
            let lattice = *self.lattice.get_or_insert_with(|| graph.lattice_costs());
            self.table
                .note_recomputed(lattice, progress.landmarks_left == 0);
            let max = self.column_max.iter().fold(0.0f64, |m, &c| m.max(c));
            self.table.set_margin_for(max);
        }
        if progress.landmarks_left == 0 && !self.components_changes.is_empty() {
            self.table.replace_components(graph.components().clone());
            self.components_changes = MapChanges::new();
        }
        if progress.landmarks_left == 0 && progress.landmarks_done > 0 {
            // Fresh again: the values replaced since the one edit serve its
            // undoing; after several edits, none can.
            let replaced = std::mem::take(&mut self.replaced);
            let kept: usize = replaced.iter().map(|r| r.undo.len()).sum();
            let room = (self.table.node_count() * self.table.landmark_count() / REVERT_SHARE)
                .max(REVERT_ENTRIES);
            self.last = match self.edits {
                (1, Some(edit)) if kept <= room => Some(Revert { edit, replaced }),
                _ => None,
            };
            self.edits = (0, None);
        }
    }

    /// Whether the edits since the table was fresh are one edit that
    /// undoes the last repaired one (`set_tile` keeps `last` only then):
    /// the next repair restores the values that repair replaced.
    fn reverting(&self) -> bool {
        self.one_edit() && self.last.is_some()
    }

    /// Whether one edit has been made since the table was fresh: its
    /// repair keeps the values it replaces, for an edit that undoes it.
    fn one_edit(&self) -> bool {
        self.edits.0 == 1
    }

    /// Keeps the values finished `jobs` replaced, for [`Revert`], while
    /// a single edit is being repaired.
    fn keep_replaced(&mut self, jobs: &mut [Job]) {
        if !self.one_edit() {
            return;
        }
        for job in jobs {
            self.replaced.push(Replaced {
                l: job.l,
                undo: std::mem::take(&mut job.undo),
                by_cell: false,
                changed: job.changed.len(),
                max: job.max_before,
            });
        }
    }

    /// Repairs an edit that undoes the last one by writing back the
    /// values the last repair replaced, keeping the ones it overwrites so
    /// that undoing this edit in turn restores them.
    fn restore(&mut self, graph: &GridGraph) -> RepairProgress {
        let mut last = self.last.take().expect("a revert has a last repair");
        let k = self.table.landmark_count();
        let n = self.table.node_count();
        let rows = self.table.rows_mut();
        let mut progress = RepairProgress {
            restored: true,
            ..RepairProgress::default()
        };
        // Each landmark's column first, in parallel (the columns are
        // apart), then the rows, in parallel by ranges of nodes.
        let mut columns: Vec<Option<&mut [f64]>> =
            self.exact.chunks_exact_mut(n.max(1)).map(Some).collect();
        let mut work: Vec<(&mut Replaced, &mut [f64])> = last
            .replaced
            .iter_mut()
            .map(|r| {
                let column = columns[r.l].take().expect("one list per landmark");
                (r, column)
            })
            .collect();
        let kept: usize = work.iter().map(|(r, _)| r.undo.len()).sum();
        if kept < PARALLEL_FINISH {
            // Few: done before other cores would wake up.
            for (r, column) in &mut work {
                r.swap_into(column);
            }
        } else {
            work.par_iter_mut()
                .for_each(|(r, column)| r.swap_into(column));
        }
        let lists: Vec<(usize, &[(u32, f64)])> =
            last.replaced.iter().map(|r| (r.l, &r.undo[..])).collect();
        let exact = &self.exact;
        let entries: usize = lists.iter().map(|(_, list)| list.len()).sum();
        let few = entries < PARALLEL_FINISH;
        // Writes the rows of nodes `lo..` from the columns: a few entries
        // straight from the lists, many 64 nodes at a time, every
        // landmark's, so that the rows stay in the cache (as `finish`
        // writes them).
        let write = |lo: usize, rows: &mut [f64]| {
            if few {
                for &(l, list) in &lists {
                    for &(v, _) in list {
                        rows[v as usize * k + l] = exact[l * n + v as usize];
                    }
                }
                return;
            }
            let hi = lo + rows.len() / k.max(1);
            let mut at: Vec<usize> = lists
                .iter()
                .map(|(_, list)| list.partition_point(|&(v, _)| (v as usize) < lo))
                .collect();
            for block in (lo..hi).step_by(64) {
                let end = (block + 64).min(hi);
                for ((l, list), at) in lists.iter().zip(&mut at) {
                    while let Some(&(v, _)) = list.get(*at).filter(|(v, _)| (*v as usize) < end) {
                        let v = v as usize;
                        rows[(v - lo) * k + l] = exact[l * n + v];
                        *at += 1;
                    }
                }
            }
        };
        write_rows(rows, n, k, few, write);
        for r in &mut last.replaced {
            std::mem::swap(&mut self.column_max[r.l], &mut r.max);
            progress.changed += r.changed;
        }
        progress.work = progress.changed;
        progress.landmarks_done = self.changes.iter().filter(|c| !c.is_empty()).count();
        for c in &mut self.changes {
            *c = MapChanges::new();
        }
        last.edit = Edit {
            before: last.edit.after,
            after: last.edit.before,
            ..last.edit
        };
        // Fresh after this: the restore used up the edit.
        self.edits = (0, None);
        self.conclude(graph, &mut progress);
        // `conclude` saw no values replaced; the restored ones serve the
        // next undoing.
        self.last = Some(last);
        progress
    }

    fn check(&self, graph: &GridGraph) {
        assert_eq!(
            graph.node_bound(),
            self.table.node_count(),
            "the graph has another size than the landmark table"
        );
    }

    /// Writes finished landmarks' changed distances into the table and
    /// forgets their changes; returns how many entries changed. The table's
    /// rows are written in parallel, each core its own range of nodes
    /// (reading every job's changes): a node's row holds every landmark,
    /// so writing by landmark would share rows between the cores. The
    /// jobs that changed many cells ([`Changed::Bits`]) are written 64
    /// nodes at a time, all of them, in node order.
    fn finish(&mut self, jobs: &[Job]) -> usize {
        let (n, k) = (self.table.node_count(), self.table.landmark_count());
        for job in jobs {
            self.column_max[job.l] = job.max;
            self.changes[job.l] = MapChanges::new();
        }
        // The jobs with bit sets: landmark, bits and column.
        let bit_sets: Vec<(usize, &[u64], &[f64])> = jobs
            .iter()
            .filter_map(|job| match &job.changed {
                Changed::Bits { words, .. } => {
                    Some((job.l, &words[..], &self.exact[job.l * n..(job.l + 1) * n]))
                }
                Changed::List(_) => None,
            })
            .collect();
        // Writes the rows of nodes `lo..` (`lo` a multiple of 64).
        let write = |lo: usize, rows: &mut [f64]| {
            let hi = lo + rows.len() / k.max(1);
            for job in jobs {
                if let Changed::List(list) = &job.changed {
                    for &(v, d) in list {
                        let v = v as usize;
                        if (lo..hi).contains(&v) {
                            rows[(v - lo) * k + job.l] = d;
                        }
                    }
                }
            }
            if bit_sets.is_empty() {
                return;
            }
            // The bit sets 64 nodes at a time, every landmark's, so the
            // rows being written stay in the cache.
            for w in lo / 64..hi.div_ceil(64) {
                for &(l, words, column) in &bit_sets {
                    let mut bits = words[w];
                    while bits != 0 {
                        let v = w * 64 + bits.trailing_zeros() as usize;
                        rows[(v - lo) * k + l] = column[v];
                        bits &= bits - 1;
                    }
                }
            }
        };
        let changed: usize = jobs.iter().map(|j| j.changed.len()).sum();
        write_rows(
            self.table.rows_mut(),
            n,
            k,
            changed < PARALLEL_FINISH,
            write,
        );
        changed
    }

    /// Starts building a new table on another thread from a copy of
    /// `graph` (its current tiles), with the same landmarks. Meanwhile the
    /// current table keeps serving through [`heuristic`](Self::heuristic),
    /// and edits are recorded for both. A rebuild already running is
    /// replaced.
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn start_rebuild(&mut self, graph: &GridGraph) {
        self.check(graph);
        let copy = graph.clone();
        let landmarks = self.table.landmarks().to_vec();
        let handle = std::thread::spawn(move || build_exact(&copy, &landmarks));
        self.background = Some(Background {
            handle,
            since: MapChanges::new(),
        });
    }

    /// Whether a rebuild is running or finished and not yet swapped in.
    pub fn rebuilding(&self) -> bool {
        self.background.is_some()
    }

    /// Swaps in the table built by [`start_rebuild`](Self::start_rebuild)
    /// when it is finished, or, with `wait`, after waiting for it. The
    /// edits made since it started stay recorded (a [`repair`](Self::repair)
    /// brings it up to date). Returns whether a table was swapped in.
    pub fn finish_rebuild(&mut self, wait: bool) -> bool {
        match self.background.take() {
            Some(b) if wait || b.handle.is_finished() => {
                let (exact, table) = match b.handle.join() {
                    Ok(parts) => parts,
                    Err(panic) => std::panic::resume_unwind(panic),
                };
                *self = Self::from_parts(exact, table, b.since);
                true
            }
            other => {
                self.background = other;
                false
            }
        }
    }
}

impl Job {
    /// A new job for `landmark`, whose distances are `column`: the far
    /// ends of the tight moves that disappeared go into the raise queue.
    fn start(
        graph: &GridGraph, Landmark { l, source, max }: Landmark, column: &[f64],
        scratch: &mut Scratch, (appeared, disappeared): (Vec<Move>, Vec<Move>), keep: bool,
    ) -> Job {
        let stamp = scratch.next();
        let mut raise = CellQueue::new(graph, scratch.queues.pop());
        for m in &disappeared {
            let (u, v) = (m.from.index(), m.to.index());
            let dv = column[v];
            if dv.is_finite() && column[u] + m.cost == dv && scratch.queued[v] != stamp {
                scratch.queued[v] = stamp;
                raise.seed(m.to.0, dv);
            }
        }
        Job {
            l,
            source,
            stamp,
            phase: Phase::Raise,
            appeared,
            raise,
            affected: std::mem::take(&mut scratch.spare_affected),
            reset: 0,
            lower: CellQueue::new(graph, scratch.queues.pop()),
            undo: std::mem::take(&mut scratch.spare_undo),
            max,
            changed: Changed::List(Vec::new()),
            max_before: max,
            keep,
        }
    }

    /// Runs the job on its landmark's `column` for at most `budget` units,
    /// adding them to `work`; `true` when the landmark is repaired.
    fn run(
        &mut self, graph: &GridGraph, column: &mut [f64], scratch: &mut Scratch, budget: usize,
        work: &mut usize,
    ) -> bool {
        let stamp = self.stamp;
        debug_assert_eq!(stamp, scratch.stamp, "a job runs with its own stamps");
        let (queued, affected) = (&mut scratch.queued, &mut scratch.affected);
        let mut spent = 0;
        if self.phase == Phase::Raise {
            while spent < budget {
                let Some((v, _)) = self.raise.pop() else {
                    self.phase = Phase::Reset;
                    break;
                };
                spent += 1;
                if v == self.source {
                    continue;
                }
                let dv = column[v as usize];
                let supported = graph
                    .successors(NodeId(v))
                    .any(|(u, c)| affected[u.index()] != stamp && column[u.index()] + c == dv);
                if supported {
                    continue;
                }
                affected[v as usize] = stamp;
                self.affected.push(v);
                for (x, c) in graph.successors(NodeId(v)) {
                    let dx = column[x.index()];
                    if queued[x.index()] != stamp && dv + c == dx {
                        queued[x.index()] = stamp;
                        self.raise.push(x.0, dx);
                    }
                }
            }
        }
        if self.phase == Phase::Reset {
            while spent < budget && self.reset < self.affected.len() {
                let v = self.affected[self.reset];
                self.reset += 1;
                spent += 1;
                let best = graph
                    .successors(NodeId(v))
                    .filter(|(u, _)| affected[u.index()] != stamp)
                    .fold(f64::INFINITY, |m, (u, c)| m.min(column[u.index()] + c));
                self.undo.push((v, column[v as usize]));
                column[v as usize] = best;
                if best.is_finite() {
                    self.lower.seed(v, best);
                }
            }
            if self.reset == self.affected.len() {
                for m in &self.appeared {
                    let candidate = column[m.from.index()] + m.cost;
                    if candidate < column[m.to.index()] {
                        self.undo.push((m.to.0, column[m.to.index()]));
                        column[m.to.index()] = candidate;
                        self.lower.seed(m.to.0, candidate);
                    }
                }
                self.phase = Phase::Lower;
            }
        }
        if self.phase == Phase::Lower {
            while spent < budget {
                let Some((v, d)) = self.lower.pop() else {
                    *work += spent;
                    self.settle(column, scratch);
                    // Both queues are empty now: their memory serves the
                    // worker's next job.
                    let (raise, lower) = (&mut self.raise, &mut self.lower);
                    scratch
                        .queues
                        .extend([std::mem::take(raise), std::mem::take(lower)]);
                    // So do the lists, which a finished job no longer
                    // needs (`changed` holds what `finish` writes), but
                    // for the undo list a revert may need (kept in place).
                    self.affected.clear();
                    scratch.spare_affected = std::mem::take(&mut self.affected);
                    if !self.keep {
                        self.undo.clear();
                        scratch.spare_undo = std::mem::take(&mut self.undo);
                    }
                    return true;
                };
                spent += 1;
                let dv = column[v as usize];
                if d.to_bits() != dv.to_bits() {
                    continue;
                }
                for (x, c) in graph.successors(NodeId(v)) {
                    let candidate = dv + c;
                    if candidate < column[x.index()] {
                        self.undo.push((x.0, column[x.index()]));
                        column[x.index()] = candidate;
                        self.lower.push(x.0, candidate);
                    }
                }
            }
        }
        *work += spent;
        false
    }

    /// Once the repair is finished: the cells whose value changed, with
    /// their new values, and the largest finite value of the repaired
    /// `column`, from the one before and the changes (a scan of the column
    /// when a cell that held the old largest value changed). The first
    /// undo entry of a cell holds its value before the repair.
    fn settle(&mut self, column: &[f64], scratch: &mut Scratch) {
        let seen = scratch.next();
        let (mut max, mut rescan) = (self.max, false);
        // Bits when the changes may number one per 64 cells or more.
        let mut changed = if self.undo.len() * 64 >= column.len() {
            Changed::Bits {
                words: vec![0; column.len().div_ceil(64)],
                count: 0,
            }
        } else {
            Changed::List(Vec::new())
        };
        for &(v, old) in &self.undo {
            if scratch.queued[v as usize] == seen {
                continue;
            }
            scratch.queued[v as usize] = seen;
            let d = column[v as usize];
            if d.to_bits() != old.to_bits() {
                match &mut changed {
                    Changed::List(list) => list.push((v, d)),
                    Changed::Bits { words, count } => {
                        words[v as usize / 64] |= 1 << (v % 64);
                        *count += 1;
                    }
                }
            }
            if d.is_finite() {
                max = max.max(d);
            }
            rescan |= old == self.max && d != old;
        }
        self.max = if rescan { column_max(column) } else { max };
        self.changed = changed;
    }
}

/// Runs `write(lo, rows)` over a table's `rows` (`k` entries for each of
/// `n` nodes, node-major), `lo` being the first node of `rows`: on this
/// thread over all of them when the work is `few`, otherwise in parallel,
/// each core its own range of nodes (a multiple of 64), so that no two
/// cores share a row.
fn write_rows(
    rows: &mut [f64], n: usize, k: usize, few: bool, write: impl Fn(usize, &mut [f64]) + Sync,
) {
    if few || n == 0 {
        write(0, rows);
        return;
    }
    let per = n
        .div_ceil(rayon::current_num_threads())
        .next_multiple_of(64);
    rows.par_chunks_mut(per * k)
        .enumerate()
        .for_each(|(part, rows)| write(part * per, rows));
}

/// The unrounded distances (landmark-major) and the table of `landmarks`
/// on `graph`.
fn build_exact(graph: &GridGraph, landmarks: &[NodeId]) -> (Vec<f64>, LandmarkTable) {
    let n = graph.node_bound();
    assert!(
        landmarks.len() <= LandmarkTable::MAX_LANDMARKS,
        "{} landmarks, at most {} allowed",
        landmarks.len(),
        LandmarkTable::MAX_LANDMARKS
    );
    for &l in landmarks {
        assert!(
            l.index() < n,
            "landmark {l} is not on the graph ({n} nodes)"
        );
    }
    let columns: Vec<Vec<f64>> = landmarks
        .par_iter()
        .map_init(SearchCache::new, |cache, &l| {
            let mut column = vec![0f64; n];
            distances_from(&Reversed(graph), l, cache, &mut column);
            column
        })
        .collect();
    let exact = columns.concat();
    let table = LandmarkTable::from_columns(
        landmarks,
        n,
        &exact,
        graph.lattice_costs(),
        graph.components().clone(),
    );
    (exact, table)
}

/// The largest finite value of a column, 0 when there is none.
fn column_max(column: &[f64]) -> f64 {
    column
        .iter()
        .filter(|d| d.is_finite())
        .fold(0.0f64, |m, &d| m.max(d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Neighborhood};
    use crate::landmarks::Directedness;

    /// [`rooms`], its [`landmarks`] and their incremental table.
    fn rooms_table() -> (GridGraph, Vec<NodeId>, IncrementalTable) {
        let g = rooms();
        let lms = landmarks(&g);
        let t = IncrementalTable::build(&g, &lms);
        (g, lms, t)
    }

    fn rooms() -> GridGraph {
        let grid = Grid::from_ascii(
            "
            ..........@.........
            ..........@.........
            ....@@@@..@..@@@@...
            ....@.....@.....@...
            ....@.....@.....@...
            @@.@@@@@@@@@@.@@@@@.
            ....................
            ....@.....@.....@...
            ",
        )
        .unwrap();
        GridGraph::new(grid, Neighborhood::Octile)
    }

    fn landmarks(g: &GridGraph) -> Vec<NodeId> {
        vec![
            g.node(0, 0).unwrap(),
            g.node(19, 7).unwrap(),
            g.node(12, 3).unwrap(),
        ]
    }

    #[test]
    fn build_equals_the_plain_build() {
        let g = rooms();
        let lms = landmarks(&g);
        let t = IncrementalTable::build(&g, &lms);
        assert_eq!(
            *t.table(),
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
        assert!(t.is_fresh());
        assert_eq!(
            t.memory_bytes(),
            2 * t.table().memory_bytes() + 8 * g.node_bound()
        );
    }

    #[test]
    fn an_edit_that_undoes_the_last_one_restores_the_table() {
        let (mut g, lms, mut t) = rooms_table();
        let rebuilt = |g: &GridGraph| LandmarkTable::build(g, &lms, Directedness::Symmetric);
        let closed = t.table().clone();
        // The wall between the top rooms opens and closes like a door.
        for round in 0..3 {
            t.set_tile(&mut g, 10, 0, Tile::Ground);
            let opened = t.repair(&g);
            assert_eq!(opened.restored, round > 0, "{opened:?}");
            assert!(opened.done() && opened.changed > 3, "{opened:?}");
            assert_eq!(*t.table(), rebuilt(&g));
            t.set_tile(&mut g, 10, 0, Tile::OutOfBounds);
            let p = t.repair(&g);
            assert!(p.restored && p.done() && t.is_fresh(), "{p:?}");
            assert_eq!(p.changed, opened.changed);
            assert_eq!(*t.table(), closed);
            assert_eq!(*t.table(), rebuilt(&g));
        }
        // In steps: the restore is one step, whatever the budget.
        t.set_tile(&mut g, 10, 0, Tile::Ground);
        let p = t.repair_step(&g, 1);
        assert!(p.restored && p.done(), "{p:?}");
        assert_eq!(*t.table(), rebuilt(&g));
        t.set_tile(&mut g, 10, 0, Tile::OutOfBounds);
        assert!(t.repair_step(&g, 1).restored);
        assert_eq!(*t.table(), closed);
        // Another blocked tile is another map under terrain costs: searched.
        t.set_tile(&mut g, 10, 0, Tile::Ground);
        assert!(t.repair(&g).restored);
        t.set_tile(&mut g, 10, 0, Tile::Tree);
        assert!(!t.repair(&g).restored);
        assert_eq!(*t.table(), closed);
        // Two edits, then the first undone: nothing to restore from.
        t.set_tile(&mut g, 10, 0, Tile::Ground);
        t.set_tile(&mut g, 2, 5, Tile::Tree);
        t.repair(&g);
        t.set_tile(&mut g, 10, 0, Tile::Tree);
        assert!(!t.repair(&g).restored);
        assert_eq!(*t.table(), rebuilt(&g));
        // A repair in steps of a single edit is restorable too, and an
        // edit between the steps forgets it.
        t.set_tile(&mut g, 2, 5, Tile::Ground);
        while !t.repair_step(&g, 4).done() {}
        assert_eq!(*t.table(), rebuilt(&g));
        t.set_tile(&mut g, 2, 5, Tile::Tree);
        assert!(t.repair_step(&g, 4).restored);
        assert_eq!(*t.table(), rebuilt(&g));
        t.set_tile(&mut g, 2, 5, Tile::Ground);
        t.repair_step(&g, 2);
        t.set_tile(&mut g, 19, 0, Tile::Tree);
        t.repair(&g);
        t.set_tile(&mut g, 19, 0, Tile::Ground);
        let p = t.repair(&g);
        assert!(p.restored, "{p:?}");
        assert_eq!(*t.table(), rebuilt(&g));
    }

    #[test]
    fn one_cell_edits_touch_only_what_changes() {
        let (mut g, lms, mut t) = rooms_table();
        // A wall in a dead-end corner changes only that cell's distances.
        t.set_tile(&mut g, 19, 0, Tile::Tree);
        assert!(!t.is_fresh());
        let p = t.repair(&g);
        assert!(p.done());
        assert_eq!(p.landmarks_done, 3);
        assert!(p.changed >= 3 && p.changed < 10, "{p:?}");
        assert_eq!(
            *t.table(),
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
        // Opening the wall between the top rooms shortens many distances.
        t.set_tile(&mut g, 10, 0, Tile::Ground);
        let p = t.repair(&g);
        assert!(p.changed > 3, "{p:?}");
        assert_eq!(
            *t.table(),
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
        // Closing a door lengthens them.
        t.set_tile(&mut g, 2, 5, Tile::Tree);
        t.set_tile(&mut g, 13, 5, Tile::Tree);
        t.repair(&g);
        assert_eq!(
            *t.table(),
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
        assert!(t.is_fresh());
    }

    /// A `side` x `side` field cut in two by a wall across the middle row,
    /// passable only at its west end.
    fn halves(side: u32, nb: Neighborhood) -> GridGraph {
        let rows: Vec<String> = (0..side)
            .map(|y| {
                (0..side)
                    .map(|x| if y == side / 2 && x > 0 { '@' } else { '.' })
                    .collect()
            })
            .collect();
        GridGraph::new(Grid::from_ascii(&rows.join("\n")).unwrap(), nb)
    }

    #[test]
    fn a_large_repair_shares_the_landmarks_between_cores_and_equals_a_rebuild() {
        for nb in [Neighborhood::Octile, Neighborhood::Four] {
            let mut g = halves(192, nb);
            let lms: Vec<NodeId> = [(0, 0), (191, 0), (191, 191), (96, 0), (0, 191), (96, 191)]
                .iter()
                .map(|&(x, y)| g.node(x, y).unwrap())
                .collect();
            let mut t = IncrementalTable::build(&g, &lms);
            let rebuilt = |g: &GridGraph| LandmarkTable::build(g, &lms, Directedness::Symmetric);
            // A door at the east end: every landmark's far half gets closer.
            t.set_tile(&mut g, 180, 96, Tile::Ground);
            let p = t.repair(&g);
            assert!(p.done() && p.landmarks_done == lms.len(), "{p:?}");
            assert!(p.work > PARALLEL_REPAIR, "{p:?}");
            assert!(p.changed > PARALLEL_FINISH, "{p:?}");
            assert_eq!(*t.table(), rebuilt(&g));
            // The memory counts what the workers keep for the next repair.
            let bare = 2 * t.table().memory_bytes() + 8 * g.node_bound();
            assert!(t.memory_bytes() > bare);
            // Closed again: the same cells get farther.
            t.set_tile(&mut g, 180, 96, Tile::Tree);
            let q = t.repair(&g);
            assert_eq!(q.changed, p.changed, "{q:?}");
            assert_eq!(*t.table(), rebuilt(&g));
            assert!(t.is_fresh());
        }
    }

    #[test]
    fn the_cell_queue_pops_by_bucket_with_seeds_anywhere() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let terrain = {
            let costs: crate::grid::TileCosts = "S=3".parse().unwrap();
            let mut grid = rooms().grid().clone();
            grid.set(5, 6, Tile::Swamp);
            GridGraph::with_terrain(grid, Neighborhood::Octile, &costs)
        };
        // Each graph twice: a new queue, then the emptied one again, and
        // the Dial queue handed to the terrain graph is not reused.
        let mut spare = None;
        for g in [
            &halves(8, Neighborhood::Octile),
            &halves(8, Neighborhood::Octile),
            &terrain,
            &terrain,
        ] {
            let mut q = CellQueue::new(g, spare.take());
            assert_eq!(q.dial.is_some(), !g.has_terrain());
            let mut seeds: Vec<f64> = (0..50).map(|_| rng.below(1000) as f64 / 7.0).collect();
            for (v, &d) in seeds.iter().enumerate() {
                q.seed(v as u32, d);
            }
            let mut popped = Vec::new();
            while let Some((v, d)) = q.pop() {
                popped.push(d);
                // Each of the first seeds queues two cells a move further.
                if v < 20 {
                    q.push(100 + v, d + 1.0);
                    q.push(200 + v, d + crate::grid::DIAGONAL);
                    seeds.extend([d + 1.0, d + crate::grid::DIAGONAL]);
                }
            }
            // Every entry once, in order of their unit-wide buckets (Dial)
            // or exactly (the heap, under terrain).
            assert_eq!(popped.len(), seeds.len());
            let key = |d: f64| if g.has_terrain() { d } else { d.floor() };
            assert!(
                popped.windows(2).all(|p| key(p[0]) <= key(p[1])),
                "{popped:?}"
            );
            spare = Some(q);
        }
    }

    #[test]
    fn the_edit_that_takes_the_last_cost_off_the_lattice_makes_the_table_exact() {
        // One swamp cell costing 1.1, off the 2^-23 lattice: the table
        // keeps a margin.
        let mut grid = rooms().grid().clone();
        grid.set(5, 6, Tile::Swamp);
        let costs: crate::grid::TileCosts = "S=1.1".parse().unwrap();
        let mut g = GridGraph::with_terrain(grid, Neighborhood::Octile, &costs);
        let lms = landmarks(&g);
        let rebuilt = |g: &GridGraph| LandmarkTable::build(g, &lms, Directedness::Symmetric);
        let mut t = IncrementalTable::build(&g, &lms);
        assert!(!t.table().is_exact());
        // An edit elsewhere, repaired: still with the margin.
        t.set_tile(&mut g, 19, 0, Tile::Tree);
        assert!(t.repair(&g).done());
        assert!(!t.table().is_exact() && t.table().margin() > 0.0);
        assert_eq!(*t.table(), rebuilt(&g));
        // The swamp becomes ground (cost 1): every cost is on the lattice,
        // and the repaired table is exact, as a rebuild is.
        t.set_tile(&mut g, 5, 6, Tile::Ground);
        assert!(t.repair(&g).done());
        assert!(t.table().is_exact());
        assert_eq!(*t.table(), rebuilt(&g));
    }

    #[test]
    fn stepped_repair_finishes_with_the_same_table_and_survives_edits() {
        let (mut g, lms, mut stepped) = rooms_table();
        stepped.set_tile(&mut g, 10, 1, Tile::Ground);
        stepped.set_tile(&mut g, 2, 5, Tile::Tree);
        // A few small steps, then an edit in the middle of a landmark.
        let first = stepped.repair_step(&g, 3);
        assert!(first.work >= 3 && !first.done(), "{first:?}");
        stepped.set_tile(&mut g, 10, 0, Tile::Ground);
        let mut steps = 0;
        loop {
            let p = stepped.repair_step(&g, 5);
            assert!(p.work <= 5 + 8, "{p:?}");
            steps += 1;
            if p.done() {
                break;
            }
            assert!(steps < 10_000);
        }
        assert!(steps > 1);
        assert_eq!(
            *stepped.table(),
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
    }

    #[test]
    fn a_background_rebuild_is_swapped_in_with_later_edits_kept() {
        let (mut g, lms, mut t) = rooms_table();
        t.set_tile(&mut g, 10, 0, Tile::Ground);
        t.start_rebuild(&g);
        assert!(t.rebuilding());
        // An edit after the copy: the new table must still learn of it.
        t.set_tile(&mut g, 2, 5, Tile::Tree);
        assert!(t.finish_rebuild(true));
        assert!(!t.rebuilding());
        assert!(!t.is_fresh());
        t.repair(&g);
        assert_eq!(
            *t.table(),
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
    }
}
