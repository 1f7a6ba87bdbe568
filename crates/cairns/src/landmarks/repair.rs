//! Repair proportional to the change: a landmark table whose distances
//! follow wall edits by updating only the cells whose distance changes.
//!
//! Each landmark's distances are a single-source shortest-path tree. After
//! moves disappear (walls added) the cells whose every shortest path used
//! one of them get longer; after moves appear (walls removed) cells near
//! them get shorter. [`IncrementalTable`] repairs one landmark at a time,
//! as dynamic shortest-path algorithms do (Ramalingam and Reps, 1996):
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
use std::thread::JoinHandle;

use rayon::prelude::*;

use super::stale::{MapChanges, Move};
use super::table::LandmarkTable;
use super::{DifferentialHeuristic, SafeDifferential, distances_from};
use crate::graph::{Graph, NodeId, Reversed};
use crate::grid::{GridGraph, Tile};
use crate::heuristic::Heuristic;
use crate::search::SearchCache;

/// A min-heap of cells by distance: non-negative `f64` bits order as the
/// values do.
type Heap = BinaryHeap<Reverse<(u64, u32)>>;

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
    /// Per-cell stamps for the job: in the raise queue, affected.
    queued: Vec<u32>,
    affected: Vec<u32>,
    stamp: u32,
    background: Option<Background>,
    /// Whether the map's move costs are on the lattice
    /// ([`Graph::lattice_costs`], a scan of every move under terrain):
    /// found by the first repair step that finishes a landmark after an
    /// edit, and forgotten at each edit.
    lattice: Option<bool>,
}

/// A rebuild running on another thread, and the edits made since it
/// copied the map.
#[derive(Debug)]
struct Background {
    handle: JoinHandle<(Vec<f64>, LandmarkTable)>,
    since: MapChanges,
}

/// Where a landmark's repair stands.
#[derive(Debug)]
struct Job {
    l: usize,
    phase: Phase,
    appeared: Vec<Move>,
    raise: Heap,
    affected: Vec<u32>,
    reset: usize,
    lower: Heap,
    /// `(cell, value before)` for every change of the column, in order.
    undo: Vec<(u32, f64)>,
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
        IncrementalTable {
            table,
            exact,
            column_max,
            changes: vec![since.clone(); k],
            components_changes: since,
            job: None,
            cursor: 0,
            queued: vec![0; n],
            affected: vec![0; n],
            stamp: 0,
            background: None,
            lattice: None,
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

    /// Bytes of memory: the table and its landmark-major copy.
    pub fn memory_bytes(&self) -> usize {
        self.table.memory_bytes() + self.exact.len() * std::mem::size_of::<f64>()
    }

    /// Sets the tile at `(x, y)` with [`GridGraph::set_tile`] and records
    /// the change for every landmark (and for a rebuild running in the
    /// background). A repair in progress undoes the landmark it was working
    /// on; the next step starts it again. Returns `false` (changing
    /// nothing) when the cell is off the grid.
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn set_tile(&mut self, graph: &mut GridGraph, x: u32, y: u32, tile: Tile) -> bool {
        self.check(graph);
        if graph.node(x, y).is_none() {
            return false;
        }
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
        graph.set_tile(x, y, tile)
    }

    /// A differential heuristic over the table that is admissible on
    /// `graph` whatever has been repaired: the table's own heuristic when
    /// it is fresh, otherwise its [`SafeDifferential`] form over the moves
    /// that appeared since each landmark was exact.
    pub fn heuristic<B: Heuristic + Clone>(
        &self,
        graph: &GridGraph,
        base: B,
    ) -> SafeDifferential<'_, B> {
        SafeDifferential::after_all(
            DifferentialHeuristic::new(&self.table, base),
            self.changes.iter().chain([&self.components_changes]),
            graph,
        )
    }

    /// Repairs every landmark on `graph`: afterwards the table equals
    /// [`LandmarkTable::build`] on `graph` with the same landmarks.
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn repair(&mut self, graph: &GridGraph) -> RepairProgress {
        self.repair_step(graph, usize::MAX)
    }

    /// Repairs for about `budget` units of work (a cell taken from a queue
    /// or reset; the step may overrun by one cell's neighbours), for an
    /// editor that spreads the repair over frames. A landmark's distances
    /// reach the table when its repair is finished; until
    /// [`RepairProgress::done`], search with [`heuristic`](Self::heuristic).
    ///
    /// # Panics
    ///
    /// When `graph` has another size than the table.
    pub fn repair_step(&mut self, graph: &GridGraph, budget: usize) -> RepairProgress {
        self.check(graph);
        let mut progress = RepairProgress::default();
        let k = self.table.landmark_count();
        let mut fresh = 0;
        while progress.work < budget && fresh < k {
            if self.job.is_none() {
                let l = self.cursor;
                self.cursor = (self.cursor + 1) % k;
                if self.changes[l].is_empty() {
                    fresh += 1;
                    continue;
                }
                let (appeared, disappeared) = self.changes[l].moves(graph);
                self.job = Some(self.start(l, appeared, &disappeared));
            }
            let mut job = self.job.take().expect("a job was just set");
            if self.run(graph, &mut job, budget - progress.work, &mut progress.work) {
                progress.changed += self.finish(&job);
                progress.landmarks_done += 1;
                fresh = 0;
            } else {
                self.job = Some(job);
            }
        }
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
        progress
    }

    fn check(&self, graph: &GridGraph) {
        assert_eq!(
            graph.node_bound(),
            self.table.node_count(),
            "the graph has another size than the landmark table"
        );
    }

    /// A new job for landmark `l`: the far ends of the tight moves that
    /// disappeared go into the raise queue.
    fn start(&mut self, l: usize, appeared: Vec<Move>, disappeared: &[Move]) -> Job {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.queued.fill(0);
            self.affected.fill(0);
            self.stamp = 1;
        }
        let n = self.table.node_count();
        let column = &self.exact[l * n..(l + 1) * n];
        let mut raise = Heap::new();
        for m in disappeared {
            let (u, v) = (m.from.index(), m.to.index());
            let dv = column[v];
            if dv.is_finite() && column[u] + m.cost == dv && self.queued[v] != self.stamp {
                self.queued[v] = self.stamp;
                raise.push(Reverse((dv.to_bits(), m.to.0)));
            }
        }
        Job {
            l,
            phase: Phase::Raise,
            appeared,
            raise,
            affected: Vec::new(),
            reset: 0,
            lower: Heap::new(),
            undo: Vec::new(),
        }
    }

    /// Runs `job` for at most `budget` units, adding them to `work`;
    /// `true` when the landmark is repaired.
    fn run(&mut self, graph: &GridGraph, job: &mut Job, budget: usize, work: &mut usize) -> bool {
        let n = self.table.node_count();
        let source = self.table.landmarks()[job.l].0;
        let stamp = self.stamp;
        let column = &mut self.exact[job.l * n..(job.l + 1) * n];
        let (queued, affected) = (&mut self.queued, &mut self.affected);
        let mut spent = 0;
        if job.phase == Phase::Raise {
            while spent < budget {
                let Some(Reverse((_, v))) = job.raise.pop() else {
                    job.phase = Phase::Reset;
                    break;
                };
                spent += 1;
                if v == source {
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
                job.affected.push(v);
                for (x, c) in graph.successors(NodeId(v)) {
                    let dx = column[x.index()];
                    if queued[x.index()] != stamp && dv + c == dx {
                        queued[x.index()] = stamp;
                        job.raise.push(Reverse((dx.to_bits(), x.0)));
                    }
                }
            }
        }
        if job.phase == Phase::Reset {
            while spent < budget && job.reset < job.affected.len() {
                let v = job.affected[job.reset];
                job.reset += 1;
                spent += 1;
                let best = graph
                    .successors(NodeId(v))
                    .filter(|(u, _)| affected[u.index()] != stamp)
                    .fold(f64::INFINITY, |m, (u, c)| m.min(column[u.index()] + c));
                job.undo.push((v, column[v as usize]));
                column[v as usize] = best;
                if best.is_finite() {
                    job.lower.push(Reverse((best.to_bits(), v)));
                }
            }
            if job.reset == job.affected.len() {
                for m in &job.appeared {
                    let candidate = column[m.from.index()] + m.cost;
                    if candidate < column[m.to.index()] {
                        job.undo.push((m.to.0, column[m.to.index()]));
                        column[m.to.index()] = candidate;
                        job.lower.push(Reverse((candidate.to_bits(), m.to.0)));
                    }
                }
                job.phase = Phase::Lower;
            }
        }
        if job.phase == Phase::Lower {
            while spent < budget {
                let Some(Reverse((key, v))) = job.lower.pop() else {
                    *work += spent;
                    return true;
                };
                spent += 1;
                let dv = column[v as usize];
                if key != dv.to_bits() {
                    continue;
                }
                for (x, c) in graph.successors(NodeId(v)) {
                    let candidate = dv + c;
                    if candidate < column[x.index()] {
                        job.undo.push((x.0, column[x.index()]));
                        column[x.index()] = candidate;
                        job.lower.push(Reverse((candidate.to_bits(), x.0)));
                    }
                }
            }
        }
        *work += spent;
        false
    }

    /// Writes a finished landmark's changed distances into the table and
    /// forgets its changes; returns how many entries changed.
    fn finish(&mut self, job: &Job) -> usize {
        let (l, n) = (job.l, self.table.node_count());
        let column = &self.exact[l * n..(l + 1) * n];
        let old_max = self.column_max[l];
        let (mut max, mut rescan, mut changed) = (old_max, false, 0);
        for &(v, old) in &job.undo {
            let d = column[v as usize];
            if d.to_bits() != self.table.to_landmark(NodeId(v), l).to_bits() {
                self.table.set_distance(NodeId(v), l, d);
                changed += 1;
            }
            if d.is_finite() {
                max = max.max(d);
            }
            rescan |= old == old_max && d != old;
        }
        self.column_max[l] = if rescan { column_max(column) } else { max };
        self.changes[l] = MapChanges::new();
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
        assert_eq!(t.memory_bytes(), 2 * t.table().memory_bytes());
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
