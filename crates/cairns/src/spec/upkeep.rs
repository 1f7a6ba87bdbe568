//! What an [`Engine`](super::Engine) keeps between wall edits, beside its
//! tables: the state that lets each table follow the map without a
//! rebuild, and the memory of the searchers it handed out.
//!
//! An engine's edits form a line (each engine is edited from the one
//! before); what follows the line is a [`Lineage`], shared by its
//! engines: the landmark table's repair state, which follows one map at a
//! time, and the pool of search memory that searchers hand back. What one
//! engine of the line holds of its own is its [`Pending`] work: the
//! changes its landmark table has not taken up, and the cells its waiting
//! tables ([`Table::waits_at_edits`]) are behind by.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use super::prepare::Plan;
use super::tables::{Given, Table};
use crate::graph::NodeId;
use crate::grid::{GridGraph, Tile};
use crate::landmarks::{IncrementalTable, MapChanges, RepairProgress};
use crate::search::SearchMemory;

/// How many idle search memories a line of engines keeps: a searcher per
/// thread of a busy caller comes back, more would only hold memory.
const POOL: usize = 8;

/// A new engine's number: what tells the repair state which map it
/// follows.
pub(super) fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What the engines of one line of edits share.
#[derive(Default)]
pub(super) struct Lineage {
    /// The landmark table that follows the edits, made at the first edit
    /// of an engine with one, and the engine whose map it is of.
    follower: Mutex<Option<Follower>>,
    /// Search memory handed back by searchers, for the next ones.
    pool: Mutex<Vec<SearchMemory>>,
}

/// A landmark table kept up with the edits of one engine's map.
struct Follower {
    /// The engine whose map it follows.
    engine: u64,
    table: IncrementalTable,
}

/// A lock that a panic elsewhere did not make unusable: what it guards
/// is checked by whoever takes it (the repair state names its map; a
/// pool holds only whole entries; a change starts from the current
/// engine).
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Lineage {
    /// Memory for a new searcher: one handed back, or a new one.
    pub(super) fn memory(&self) -> SearchMemory {
        lock(&self.pool).pop().unwrap_or_default()
    }

    /// How many memories wait in the pool.
    #[cfg(test)]
    pub(super) fn pooled(&self) -> usize {
        lock(&self.pool).len()
    }

    /// Keeps `memory` (a searcher's, handed back) for a later searcher,
    /// unless it is empty or the pool is full.
    pub(super) fn give(&self, memory: SearchMemory) {
        if memory.is_empty() {
            return;
        }
        let mut pool = lock(&self.pool);
        if pool.len() < POOL {
            pool.push(memory);
        }
    }

    /// The landmark table that follows engine `engine` on `graph` (its
    /// map), with the table's `landmarks`: the one of the line when it
    /// follows that engine, else one built on `graph` (a first edit, an
    /// edit of an older engine of the line, a repair lost to a panic).
    fn follow<'l>(
        follower: &'l mut Option<Follower>, engine: u64, graph: &GridGraph, landmarks: &[NodeId],
    ) -> &'l mut IncrementalTable {
        if follower.as_ref().is_none_or(|f| f.engine != engine) {
            *follower = Some(Follower {
                engine,
                table: IncrementalTable::build(graph, landmarks),
            });
        }
        &mut follower.as_mut().expect("set above").table
    }
}

/// The work an engine has left: changes its landmark table has not taken
/// up, and the cells its waiting tables are behind by.
#[derive(Clone, Debug, Default)]
pub(super) struct Pending {
    /// The changes of the map since its landmark table was exact, while
    /// the table waits for its repair (an edit made later).
    pub(super) stale: Option<MapChanges>,
    /// The cells changed since the waiting tables' map, sorted; empty
    /// when every table is of this map.
    pub(super) behind: Vec<NodeId>,
}

/// What an edit made: the tables to prepare the edited engine with, the
/// work it leaves, and the stand-ins brought to the edited map.
pub(super) struct Edit {
    pub(super) given: Vec<Given>,
    pub(super) pending: Pending,
    pub(super) stand_ins: Vec<Table>,
}

impl Pending {
    /// Applies `cells` (each `(x, y, tile)`, a cell off the map left out)
    /// to `graph`, a copy of the map of engine `engine` whose plan is
    /// `plan`, and brings every table along: the landmark table repaired
    /// through the line's follower, or with `later` left as it was and the
    /// changes noted; a waiting table left behind and its stand-in
    /// repaired; every other table repaired where the cells changed
    /// ([`Table::repaired`]) or, for the kinds that are not, built again
    /// by the engine's preparation.
    pub(super) fn edit(
        &self, (engine, lineage, plan): (u64, &Lineage, &Plan), graph: &mut GridGraph,
        cells: &[(u32, u32, Tile)], later: bool,
    ) -> Edit {
        let t0 = Instant::now();
        let mut given = Vec::new();
        let landmarks = plan.tables.iter().find_map(Table::landmarks);
        // Made later, the landmark table stays as it was and the changes
        // since it was exact are noted for the safe estimate.
        let mut stale = landmarks
            .filter(|_| later)
            .map(|_| self.stale.clone().unwrap_or_default());
        let mut follower = lock(&lineage.follower);
        let mut follow =
            landmarks.map(|table| Lineage::follow(&mut follower, engine, graph, table.landmarks()));
        let mut edited = Vec::with_capacity(cells.len());
        // Each cell of the map, as the cells of the grid the agent sees
        // (the same cell for an agent of one cell), each set before the
        // next map cell is looked at.
        for &(x, y, tile) in cells {
            for (x, y, tile) in graph.map_edit(x, y, tile) {
                if let Some(changes) = stale.as_mut() {
                    changes.note(graph, x, y, tile);
                }
                match follow.as_deref_mut() {
                    Some(table) => table.set_cell(graph, x, y, tile),
                    None => graph.set_cell(x, y, tile),
                };
                edited.extend(graph.node(x, y));
            }
        }
        if let Some(table) = follow {
            if stale.is_some() {
                given.extend(kept(&plan.tables, |t| t.landmarks().is_some()));
            } else {
                table.repair(graph);
                given.push(Given {
                    table: Table::from(table.table().clone()),
                    seconds: t0.elapsed().as_secs_f64(),
                });
            }
        }
        // The line's follower now follows the edited map; the engine made
        // from this edit takes it over (`follows`).
        drop(follower);
        let mut behind = Vec::new();
        let waits = plan.tables.iter().any(Table::waits_at_edits);
        if waits {
            behind.extend_from_slice(&self.behind);
            behind.extend_from_slice(&edited);
            behind.sort_unstable();
            behind.dedup();
            given.extend(kept(&plan.tables, Table::waits_at_edits));
        }
        for table in plan.tables.iter().filter(|t| !t.waits_at_edits()) {
            let t0 = Instant::now();
            if let Some(table) = table.repaired(graph, &edited) {
                given.push(Given {
                    table,
                    seconds: t0.elapsed().as_secs_f64(),
                });
            }
        }
        let stand_ins = plan
            .stand_ins
            .iter()
            .map(|t| t.repaired(graph, &edited).unwrap_or_else(|| t.clone()))
            .collect();
        Edit {
            given,
            pending: Pending { stale, behind },
            stand_ins,
        }
    }

    /// One step of the landmark repair that an edit made later left,
    /// about `budget` units of work on the line's follower of engine
    /// `engine` (on `graph`, its map): what it did, and the tables to
    /// make the repaired engine with once the repair is done (`None`
    /// before). A follower that follows another engine (lost to a panic,
    /// or taken by an edit of this engine's line) is built again on
    /// `graph`: the repair is then done in one step.
    pub(super) fn repair_step(
        &self, (engine, lineage, plan): (u64, &Lineage, &Plan), graph: &GridGraph, budget: usize,
    ) -> (RepairProgress, Option<Vec<Given>>) {
        let Some(landmarks) = plan.tables.iter().find_map(Table::landmarks) else {
            return (RepairProgress::default(), None);
        };
        if self.stale.is_none() {
            return (RepairProgress::default(), None);
        }
        let t0 = Instant::now();
        let mut follower = lock(&lineage.follower);
        let table = Lineage::follow(&mut follower, engine, graph, landmarks.landmarks());
        let progress = table.repair_step(graph, budget);
        if !progress.done() {
            return (progress, None);
        }
        let mut given = kept(&plan.tables, |t| t.landmarks().is_none());
        given.push(Given {
            table: Table::from(table.table().clone()),
            seconds: t0.elapsed().as_secs_f64(),
        });
        (progress, Some(given))
    }

    /// Whether some table waits behind its map.
    pub(super) fn is_behind(&self) -> bool {
        !self.behind.is_empty()
    }
}

/// Hands the line's follower from engine `from` to engine `to` (made from
/// `from`'s edit or repair): the follower's map is `to`'s now.
pub(super) fn follows(lineage: &Lineage, from: u64, to: u64) {
    if let Some(f) = lock(&lineage.follower)
        .as_mut()
        .filter(|f| f.engine == from)
    {
        f.engine = to;
    }
}

/// The `tables` that `keep` accepts, given again as they are (no seconds
/// spent on them).
pub(super) fn kept(tables: &[Table], keep: impl Fn(&Table) -> bool) -> Vec<Given> {
    tables
        .iter()
        .filter(|t| keep(t))
        .cloned()
        .map(Given::from)
        .collect()
}
