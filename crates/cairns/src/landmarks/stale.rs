//! Keeping a landmark table honest while its grid changes.
//!
//! A [`LandmarkTable`] holds the distances of the map it was built on.
//! After [`GridGraph::set_tile`] the two kinds of change have different
//! effects on a table that is not updated (a *stale* table):
//!
//! * A move that **disappears** (a wall added) can only make distances
//!   longer. The stale bounds bound the old, shorter distances, so they
//!   stay admissible: A* still returns shortest paths, only more slowly.
//! * A move that **appears** (a wall removed) can make distances shorter.
//!   The stale bounds may then overestimate, and A* may return a path that
//!   is not shortest (or none at all, since a cell that was a wall is
//!   "unreachable" in the table).
//!
//! [`MapChanges`] records what changed since the table was built (make the
//! changes through [`MapChanges::set_tile`]), [`MapChanges::repair`]
//! recomputes only the landmarks whose distances can have changed, and
//! [`SafeDifferential`] is a heuristic that stays admissible on the changed
//! map until the repair.
//!
//! `MapChanges::repair` recomputes every affected landmark whole; an
//! [`IncrementalTable`](super::IncrementalTable) repairs only the cells
//! whose distance changes.

use std::collections::BTreeMap;

use super::{DifferentialGoal, DifferentialHeuristic, LandmarkTable};
use crate::graph::{Graph, NodeId};
use crate::grid::{DIRECTIONS, GridGraph, Tile};
use crate::heuristic::Heuristic;

/// One move of a grid: `from` to `to` at `cost`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    /// The cell the move leaves.
    pub from: NodeId,
    /// The cell the move enters.
    pub to: NodeId,
    /// Its cost: 1 or `sqrt(2)`.
    pub cost: f64,
}

/// How a stale table relates to the changed map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Staleness {
    /// No move changed: the table is exact.
    Fresh,
    /// Moves only disappeared: the table's bounds stay admissible, searches
    /// may expand more than with a repaired table.
    Slower,
    /// Some move appeared: the table's bounds may overestimate.
    Unsafe,
}

/// The cells changed on a [`GridGraph`] since a [`LandmarkTable`] was built,
/// with the moves each had then, so that the net change of moves can be
/// worked out at any time.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
/// use cairns::heuristic::Octile;
/// use cairns::landmarks::{Directedness, LandmarkTable, MapChanges, Staleness};
///
/// let grid = Grid::from_ascii("
///     .......
///     @@@@@@.
///     .......
/// ").unwrap();
/// let mut graph = GridGraph::new(grid, Neighborhood::Octile);
/// let corner = graph.node(0, 0).unwrap();
/// let mut table = LandmarkTable::build(&graph, &[corner], Directedness::Symmetric);
/// let mut changes = MapChanges::new();
/// changes.set_tile(&mut graph, 0, 1, Tile::Ground); // a shortcut
/// assert_eq!(changes.staleness(&graph), Staleness::Unsafe);
/// assert_eq!(changes.repair(&graph, &mut table), [0]);
/// assert_eq!(table.to_landmark(graph.node(0, 2).unwrap(), 0), 2.0);
/// assert_eq!(changes.staleness(&graph), Staleness::Fresh);
/// ```
#[derive(Clone, Debug, Default)]
pub struct MapChanges {
    /// The moves bit set and the move costs of every cell whose moves may
    /// have changed (the 3x3 block around each changed tile), as they were
    /// before its first change.
    before: BTreeMap<NodeId, (u8, [f64; 8])>,
    walls_added: usize,
    walls_removed: usize,
}

impl MapChanges {
    /// No changes yet: call this when the table is built.
    pub fn new() -> MapChanges {
        MapChanges::default()
    }

    /// Sets the tile at `(x, y)` with [`GridGraph::set_tile`] and records
    /// the change. Returns `false` (changing nothing) when the cell is off
    /// the grid.
    pub fn set_tile(&mut self, graph: &mut GridGraph, x: u32, y: u32, tile: Tile) -> bool {
        if !self.note(graph, x, y, tile) {
            return false;
        }
        graph.set_tile(x, y, tile);
        true
    }

    /// Records that the tile at `(x, y)` of `graph` is about to become
    /// `tile` (call it before [`GridGraph::set_tile`]), so that several
    /// records can follow one change. Returns `false` when the cell is off
    /// the grid.
    pub(crate) fn note(&mut self, graph: &GridGraph, x: u32, y: u32, tile: Tile) -> bool {
        let Some(node) = graph.node(x, y) else {
            return false;
        };
        for ny in y.saturating_sub(1)..=(y + 1).min(graph.height() - 1) {
            for nx in x.saturating_sub(1)..=(x + 1).min(graph.width() - 1) {
                let v = graph.grid().node(nx, ny);
                self.before.entry(v).or_insert_with(|| {
                    (
                        graph.moves(v),
                        std::array::from_fn(|d| graph.move_cost(v, d)),
                    )
                });
            }
        }
        // Under terrain the costs decide what is passable.
        let opens = graph.tile_costs().cost(tile).is_finite();
        match (graph.is_passable(node), opens) {
            (true, false) => self.walls_added += 1,
            (false, true) => self.walls_removed += 1,
            _ => {}
        }
        true
    }

    /// Whether no change was recorded.
    pub fn is_empty(&self) -> bool {
        self.before.is_empty()
    }

    /// Tile changes from passable to blocked so far.
    pub fn walls_added(&self) -> usize {
        self.walls_added
    }

    /// Tile changes from blocked to passable so far.
    pub fn walls_removed(&self) -> usize {
        self.walls_removed
    }

    /// The cells whose moves may have changed, in id order.
    pub fn touched(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.before.keys().copied()
    }

    /// The net change of moves between the map the table was built on and
    /// `graph` now: `(appeared, disappeared)`, each with its cost on its
    /// map. A move whose cost changed (terrain) disappeared at the old cost
    /// and appeared at the new one. A wall put up and taken down again
    /// changes nothing.
    pub fn moves(&self, graph: &GridGraph) -> (Vec<Move>, Vec<Move>) {
        let (mut appeared, mut disappeared) = (Vec::new(), Vec::new());
        for (&v, &(old, old_costs)) in &self.before {
            let new = graph.moves(v);
            let (x, y) = graph.coords(v);
            for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                let (dx, dy) = (i64::from(dx), i64::from(dy));
                let (was, is) = (old >> d & 1 == 1, new >> d & 1 == 1);
                let cost = graph.move_cost(v, d);
                if was == is && (!is || cost == old_costs[d]) {
                    continue;
                }
                // The move exists on one of the two maps, so it is on the grid.
                let to = graph
                    .grid()
                    .node((i64::from(x) + dx) as u32, (i64::from(y) + dy) as u32);
                if was {
                    disappeared.push(Move {
                        from: v,
                        to,
                        cost: old_costs[d],
                    });
                }
                if is {
                    appeared.push(Move { from: v, to, cost });
                }
            }
        }
        (appeared, disappeared)
    }

    /// Whether a table built before the changes is exact, only slower, or
    /// unsafe on `graph`.
    pub fn staleness(&self, graph: &GridGraph) -> Staleness {
        let (appeared, disappeared) = self.moves(graph);
        if !appeared.is_empty() {
            Staleness::Unsafe
        } else if !disappeared.is_empty() {
            Staleness::Slower
        } else {
            Staleness::Fresh
        }
    }

    /// The landmarks of `table` whose distances on `graph` differ from the
    /// stored ones anywhere but at cells that became walls, in index order.
    ///
    /// Landmark `L` is affected when a move that appeared is a shortcut for
    /// it (`d(L, u) + cost < d(L, v)` for the new move `u -> v`), or when a
    /// move that disappeared was on one of its shortest paths into a cell
    /// that is still passable (`d(L, v) = d(L, u) + cost`, up to the table's
    /// rounding, counted as tight when in doubt). Otherwise the old
    /// distances are still a feasible potential and every old shortest
    /// path still exists, so nothing else changed. Also affected: a
    /// landmark whose own cell became a wall.
    ///
    /// Grid moves are symmetric, so a table's `d(v, L)` is used for both
    /// directions.
    ///
    /// # Panics
    ///
    /// When the table was built for another graph size.
    pub fn affected(&self, graph: &GridGraph, table: &LandmarkTable) -> Vec<usize> {
        assert_eq!(
            table.node_count(),
            graph.node_bound(),
            "table of another map"
        );
        let (appeared, disappeared) = self.moves(graph);
        let tol = 4.0 * table.margin() + 1e-9;
        (0..table.landmark_count())
            .filter(|&l| {
                let d = |v: NodeId| table.to_landmark(v, l);
                !graph.is_passable(table.landmarks()[l])
                    || appeared.iter().any(|m| d(m.from) + m.cost < d(m.to) - tol)
                    || disappeared.iter().any(|m| {
                        graph.is_passable(m.to) && (d(m.from) + m.cost - d(m.to)).abs() <= tol
                    })
            })
            .collect()
    }

    /// Brings `table` up to date with `graph`: recomputes the
    /// [`affected`](Self::affected) landmarks, marks the cells that became
    /// walls unreachable in the others, forgets the changes and returns the
    /// indices of the landmarks it recomputed.
    pub fn repair(&mut self, graph: &GridGraph, table: &mut LandmarkTable) -> Vec<usize> {
        let affected = self.affected(graph, table);
        table.rebuild(graph, &affected);
        let walls: Vec<NodeId> = self.touched().filter(|&v| !graph.is_passable(v)).collect();
        for l in 0..table.landmark_count() {
            if affected.binary_search(&l).is_err() {
                for &v in &walls {
                    table.set_unreachable(v, l);
                }
            }
        }
        table.refresh_margin();
        *self = MapChanges::new();
        affected
    }
}

/// A [`DifferentialHeuristic`] over a possibly stale table that stays
/// admissible on the changed map.
///
/// A shortest path on the new map either uses no move that appeared, and
/// then exists on the old map, so costs at least the old distance and so
/// at least the stale landmark bound; or it passes through an end `p` of
/// such a move, and then costs at least `base(a, p) + base(p, z)` for an
/// admissible `base` heuristic (such as [`Octile`](crate::heuristic::Octile),
/// which needs no table). The estimate is therefore
///
/// ```text
/// max(base(a, z), min(stale(a, z), min over p of base(a, p) + base(p, z)))
/// ```
///
/// It costs two base estimates per end `p` on top of the stale estimate:
/// fine for a few changes, and a reason to [repair](MapChanges::repair)
/// soon. With no move appeared it is the stale heuristic itself, which is
/// then admissible (see [`Staleness::Slower`]).
///
/// The minimum and maximum of consistent heuristics are consistent, so it
/// is consistent where the parts are (up to the table's rounding margin).
#[derive(Clone, Debug)]
pub struct SafeDifferential<'t, B: Heuristic> {
    inner: DifferentialHeuristic<'t, B>,
    /// Ends of the moves that appeared, with the base heuristic's goal value
    /// for each.
    ends: Vec<(NodeId, B::Goal)>,
}

impl<'t, B: Heuristic + Clone> SafeDifferential<'t, B> {
    /// The safe form of `inner` for the map `graph` after `changes`.
    pub fn new(
        inner: DifferentialHeuristic<'t, B>, changes: &MapChanges, graph: &GridGraph,
    ) -> Self {
        Self::after_all(inner, [changes], graph)
    }

    /// The safe form of `inner` when each landmark's distances are exact on
    /// the map before one of `changes` (landmark by landmark, as in an
    /// [`IncrementalTable`](super::IncrementalTable) under repair, and the
    /// table's components on the map before another): the estimate takes
    /// its minimum over the ends of every move that appeared in any of
    /// them. Admissible by the argument above, made for each landmark on
    /// its own map: a shortest path through no such end exists on every one
    /// of those maps, so no landmark's bound exceeds it.
    pub(super) fn after_all<'c>(
        inner: DifferentialHeuristic<'t, B>, changes: impl IntoIterator<Item = &'c MapChanges>,
        graph: &GridGraph,
    ) -> Self {
        let mut ends: Vec<NodeId> = changes
            .into_iter()
            .flat_map(|c| c.moves(graph).0)
            .flat_map(|m| [m.from, m.to])
            .collect();
        ends.sort_unstable();
        ends.dedup();
        let base = inner.base().clone();
        SafeDifferential {
            ends: ends.into_iter().map(|p| (p, base.goal(p))).collect(),
            inner,
        }
    }

    /// The number of move ends the estimate takes a minimum over; 0 when
    /// the wrapped table is admissible as it is.
    pub fn ends(&self) -> usize {
        self.ends.len()
    }
}

impl<B: Heuristic> Heuristic for SafeDifferential<'_, B> {
    type Goal = DifferentialGoal<B::Goal>;

    fn goal(&self, goal: NodeId) -> Self::Goal {
        self.inner.goal(goal)
    }

    #[inline]
    fn estimate(&self, node: NodeId, goal: &Self::Goal) -> f64 {
        let stale = self.inner.estimate(node, goal);
        if self.ends.is_empty() {
            return stale;
        }
        let base = self.inner.base();
        let b = goal.base();
        let via = self.ends.iter().fold(f64::INFINITY, |m, (p, pg)| {
            m.min(base.estimate(node, pg) + base.estimate(*p, b))
        });
        base.estimate(node, b).max(stale.min(via))
    }

    /// The table's upper bound: a stale table's may be wrong, which only
    /// moves a tie.
    #[inline]
    fn upper_bound(&self, node: NodeId, goal: &Self::Goal) -> f64 {
        self.inner.upper_bound(node, goal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Neighborhood};
    use crate::heuristic::Octile;
    use crate::landmarks::Directedness;
    use crate::search::Search;
    use crate::search::{AStar, Dijkstra, SearchCache};

    /// A corridor that comes back on itself: from the top-left to the
    /// bottom-left is 16 the long way round, 2 through the wall.
    fn hairpin() -> GridGraph {
        let grid = Grid::from_ascii(
            "
            ........
            @@@@@@@.
            ........
            ",
        )
        .unwrap();
        GridGraph::new(grid, Neighborhood::Octile)
    }

    #[test]
    fn removed_wall_makes_a_stale_table_return_a_longer_path() {
        let mut g = hairpin();
        let (a, z) = (g.node(0, 0).unwrap(), g.node(0, 2).unwrap());
        let table = LandmarkTable::build(&g, &[a], Directedness::Symmetric);
        let mut changes = MapChanges::new();
        changes.set_tile(&mut g, 0, 1, Tile::Ground);
        assert_eq!(changes.walls_removed(), 1);
        assert_eq!(changes.staleness(&g), Staleness::Unsafe);
        let mut cache = SearchCache::new();
        let truth = Dijkstra::new(&g).search_cost(a, z, &mut cache);
        assert_eq!(truth, Some(2.0));
        // The stale table says the opened cell cannot reach the goal and the
        // start is 16 away: A* walks the long way round.
        let stale = DifferentialHeuristic::new(&table, Octile::new(&g));
        let found = AStar::new(&g, stale).search_cost(a, z, &mut cache);
        assert_eq!(found, Some(16.0));
        // The safe form finds the shortcut.
        let safe = SafeDifferential::new(stale, &changes, &g);
        assert!(safe.ends() > 0);
        assert_eq!(AStar::new(&g, &safe).search_cost(a, z, &mut cache), truth);
    }

    #[test]
    fn added_wall_keeps_a_stale_table_optimal() {
        // Two ways from left to right; the wall goes up on the short one.
        let grid = Grid::from_ascii(
            "
            ..........
            .@@@@@@@@.
            ..........
            ",
        )
        .unwrap();
        let mut g = GridGraph::new(grid, Neighborhood::Octile);
        let lms = [g.node(0, 0).unwrap(), g.node(9, 2).unwrap()];
        let table = LandmarkTable::build(&g, &lms, Directedness::Symmetric);
        let mut changes = MapChanges::new();
        changes.set_tile(&mut g, 5, 2, Tile::Tree);
        assert_eq!(changes.walls_added(), 1);
        assert_eq!(changes.staleness(&g), Staleness::Slower);
        let stale = DifferentialHeuristic::new(&table, Octile::new(&g));
        let mut cache = SearchCache::new();
        let n = g.node_bound() as u32;
        for a in (0..n).map(NodeId).filter(|&v| g.is_passable(v)) {
            for z in (0..n).map(NodeId).filter(|&v| g.is_passable(v)) {
                let truth = Dijkstra::new(&g).search_cost(a, z, &mut cache);
                let found = AStar::new(&g, stale).search_cost(a, z, &mut cache);
                assert_eq!(
                    found.map(|c| (c * 1e9).round()),
                    truth.map(|c| (c * 1e9).round()),
                    "{a} -> {z}"
                );
                // Still admissible, so the safe form changes nothing.
                assert!(stale.estimate(a, &stale.goal(z)) <= truth.unwrap_or(f64::INFINITY));
            }
        }
        assert_eq!(SafeDifferential::new(stale, &changes, &g).ends(), 0);
    }

    #[test]
    fn repair_rebuilds_only_what_changed_and_matches_a_full_build() {
        let grid = Grid::from_ascii(
            "
            @@.@@@@@@@@@@@@
            .........@.....
            .@@@@@@..@.@@@.
            .@.......@...@.
            .@.@@@@@.@@@.@.
            ...............
            ",
        )
        .unwrap();
        let mut g = GridGraph::new(grid, Neighborhood::Octile);
        let lms = [
            g.node(0, 1).unwrap(),
            g.node(14, 5).unwrap(),
            g.node(10, 3).unwrap(),
        ];
        let mut table = LandmarkTable::build(&g, &lms, Directedness::Symmetric);
        let mut changes = MapChanges::new();
        // A wall in the pocket at the top: on no landmark's shortest path
        // to any other cell.
        changes.set_tile(&mut g, 2, 0, Tile::OutOfBounds);
        let fixed = changes.repair(&g, &mut table);
        assert!(fixed.is_empty(), "{fixed:?}");
        assert_eq!(
            table,
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
        // A wall on the bottom row cuts shortest paths.
        changes.set_tile(&mut g, 7, 5, Tile::Tree);
        let fixed = changes.repair(&g, &mut table);
        assert!(!fixed.is_empty());
        assert_eq!(
            table,
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
        // Opening walls: repaired equals built from scratch.
        changes.set_tile(&mut g, 9, 1, Tile::Ground);
        changes.set_tile(&mut g, 7, 5, Tile::Ground);
        changes.repair(&g, &mut table);
        assert_eq!(
            table,
            LandmarkTable::build(&g, &lms, Directedness::Symmetric)
        );
        // A wall put up and taken down again is no change.
        changes.set_tile(&mut g, 4, 5, Tile::Tree);
        changes.set_tile(&mut g, 4, 5, Tile::Ground);
        assert_eq!(changes.staleness(&g), Staleness::Fresh);
        assert!(changes.affected(&g, &table).is_empty());
    }
}
