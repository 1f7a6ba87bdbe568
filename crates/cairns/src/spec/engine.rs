//! An engine that owns its map: the graph and the tables behind an
//! [`Arc`], handing out searchers with caches of their own to any thread,
//! and edited into new engines whose tables follow the map.
//!
//! The engine names no table kind: each kind says what an edit does to it
//! and what answers while it is partial or behind its map
//! ([`Table`]'s life cycle in `tables.rs`), and what follows a line of
//! edits (a landmark table's repair state, the searchers' memory) is kept
//! in `upkeep.rs`.

use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::construct::{BoxedSearcher, safe_searcher, serves_safe_mode};
use super::error::SpecError;
use super::names::SearchSpec;
use super::prepare::{Plan, Prepared};
use super::tables::{Given, Table, TableReport};
use super::upkeep::{Lineage, Pending, follows, kept, lock, next_id};
use crate::grid::{GridGraph, Tile};
use crate::landmarks::RepairProgress;
use crate::search::{Forward, SearchMemory, Searcher};

/// A prepared search that owns its graph and tables: `Send`, `Sync` and
/// cheap to clone (one [`Arc`]). [`searcher`](Engine::searcher) hands out
/// an [`EngineSearcher`] with a cache of its own, which owns a share of
/// the engine too, so it can go to another thread, into a Python object or
/// behind a C handle; a searcher dropped hands its cache's memory back to
/// the engine for the next one. The borrowing API
/// ([`SearchSpec::prepare`], [`Prepared`]) stays for callers who keep the
/// graph themselves; both run the same searches. [`Live`](super::Live)
/// is the engine of a map that changes under its searchers.
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::search::Searcher;
/// use cairns::spec::{Engine, SearchSpec};
///
/// let graph = GridGraph::new(Grid::from_ascii("
///     ....@....
///     .@@.@.@@.
///     .........
/// ").unwrap(), Neighborhood::Octile);
/// let spec: SearchSpec = "jps+/dh:2".parse().unwrap();
/// let engine = Engine::new(graph, &spec).unwrap();   // takes the graph, builds both tables
/// let (start, goal) = (engine.graph().node(0, 0).unwrap(), engine.graph().node(8, 0).unwrap());
/// let costs: Vec<Option<f64>> = std::thread::scope(|s| {
///     let threads: Vec<_> = (0..2)
///         .map(|_| {
///             let mut searcher = engine.searcher(); // a cache of its own
///             s.spawn(move || searcher.search_cost(start, goal))
///         })
///         .collect();
///     threads.into_iter().map(|t| t.join().unwrap()).collect()
/// });
/// assert_eq!(costs, [Some(12.0), Some(12.0)]);
/// ```
#[derive(Clone)]
pub struct Engine {
    inner: Arc<EngineData>,
    /// Searchers that [`with_searcher`](Engine::with_searcher) handed
    /// back, the last one on top (beside the data, not in it: a searcher
    /// owns a share of the data).
    idle: Arc<Mutex<Vec<EngineSearcher>>>,
}

/// How many searchers an engine keeps for [`Engine::with_searcher`].
const IDLE: usize = 8;

/// What an engine owns.
struct EngineData {
    /// The engine's number in its line ([`Lineage`]).
    id: u64,
    graph: GridGraph,
    plan: Plan,
    /// The work its tables have left: a landmark table's changes, the
    /// cells a waiting table is behind by.
    pending: Pending,
    /// The plan with every waiting table brought to this map, made when
    /// first asked for ([`Engine::tables`]).
    caught_up: OnceLock<Plan>,
    /// What the engines of its line of edits share.
    lineage: Arc<Lineage>,
}

impl Engine {
    /// Takes `graph` and prepares `spec` on it, building every table the
    /// spec needs ([`SearchSpec::prepare`]).
    ///
    /// # Errors
    ///
    /// Those of [`SearchSpec::prepare`].
    pub fn new(graph: GridGraph, spec: &SearchSpec) -> Result<Engine, SpecError> {
        Engine::with_tables(graph, spec, Vec::<Given>::new())
    }

    /// Like [`new`](Engine::new) with tables built or loaded beforehand
    /// ([`SearchSpec::prepare_with`]; [`Given::read`] reads a saved one).
    ///
    /// # Errors
    ///
    /// Those of [`SearchSpec::prepare_with`].
    pub fn with_tables(
        graph: GridGraph, spec: &SearchSpec, given: impl IntoIterator<Item = Given>,
    ) -> Result<Engine, SpecError> {
        let made = Engine::made(
            graph,
            spec,
            given,
            (Pending::default(), Vec::new()),
            Arc::default(),
        )?;
        Ok(made)
    }

    /// The engine of `spec` on `graph` with the tables `given`, the work
    /// `pending` and the stand-ins kept (built when there are none), in
    /// the line `lineage`.
    fn made(
        graph: GridGraph, spec: &SearchSpec, given: impl IntoIterator<Item = Given>,
        (pending, stand_ins): (Pending, Vec<Table>), lineage: Arc<Lineage>,
    ) -> Result<Engine, SpecError> {
        // An engine may be edited: every table that waits at edits has
        // its stand-in, kept exact at each edit.
        let plan = spec.prepare_keeping(&graph, given, stand_ins, true)?.plan;
        Ok(Engine {
            inner: Arc::new(EngineData {
                id: next_id(),
                graph,
                plan,
                pending,
                caught_up: OnceLock::new(),
                lineage,
            }),
            idle: Arc::default(),
        })
    }

    /// The engine that follows this one in its line: `spec` on `graph`
    /// with `given`, the work `pending` and the stand-ins.
    fn next(
        &self, graph: GridGraph, given: Vec<Given>, pending: (Pending, Vec<Table>),
    ) -> Result<Engine, SpecError> {
        let lineage = Arc::clone(&self.inner.lineage);
        let next = Engine::made(graph, &self.spec(), given, pending, lineage)?;
        follows(&self.inner.lineage, self.inner.id, next.inner.id);
        Ok(next)
    }

    /// The plan with every waiting table of this map: brought to it when
    /// some table is behind (once, when first asked for).
    fn plan(&self) -> &Plan {
        let data = &*self.inner;
        if !data.pending.is_behind() {
            return &data.plan;
        }
        data.caught_up.get_or_init(|| {
            let mut plan = data.plan.clone();
            for table in &mut plan.tables {
                if table.waits_at_edits() {
                    *table = table.caught_up(&data.graph, &data.pending.behind);
                }
            }
            plan
        })
    }

    /// Whether some table is of an older map: an edit
    /// ([`edited`](Engine::edited)) left a table that waits at edits (a
    /// subgoal graph) as it was, and its stand-in (`jps+` over the jump
    /// table the engine keeps) answers, as fast as `jps+`, until
    /// [`filled_within`](Engine::filled_within) brings the table to this
    /// map and fills it ([`tables`](Engine::tables) brings it, without
    /// filling, when first asked for).
    pub fn is_behind(&self) -> bool {
        self.inner.pending.is_behind()
    }

    /// Whether every table is of this map and whole: nothing is stale
    /// ([`is_stale`](Engine::is_stale)) or behind
    /// ([`is_behind`](Engine::is_behind)), and no table lacks what a
    /// whole build gives it ([`Table::is_filled`]); until then the
    /// engine answers optimally, more slowly.
    pub fn is_exact(&self) -> bool {
        !self.is_stale() && self.is_filled()
    }

    /// Whether no table is behind this map or lacks what a whole build
    /// gives it: what [`filled_within`](Engine::filled_within) has left to
    /// do is nothing (a stale landmark table is
    /// [`repair_step`](Engine::repair_step)'s).
    pub fn is_filled(&self) -> bool {
        !self.is_behind() && self.inner.plan.tables.iter().all(Table::is_filled)
    }

    /// The graph.
    pub fn graph(&self) -> &GridGraph {
        &self.inner.graph
    }

    /// The resolved spec.
    pub fn spec(&self) -> SearchSpec {
        self.inner.plan.spec
    }

    /// The tables, each of this engine's map: a table that an edit left
    /// behind ([`is_behind`](Engine::is_behind)) is brought to it when
    /// first asked for, not filled until
    /// [`filled_within`](Engine::filled_within).
    pub fn tables(&self) -> &[Table] {
        &self.plan().tables
    }

    /// What preparation built or took, per table.
    pub fn report(&self) -> &[TableReport] {
        &self.plan().report
    }

    /// The bytes of the tables kept beside [`tables`](Engine::tables) for
    /// their stand-in to search over (a subgoal graph's jump table, for
    /// when the graph is partial or behind its map), which
    /// [`report`](Engine::report) does not list: what the engine holds is
    /// the report's bytes and these.
    pub fn stand_in_bytes(&self) -> usize {
        self.inner
            .plan
            .stand_ins
            .iter()
            .map(Table::memory_bytes)
            .sum()
    }

    /// The engine as a borrowing [`Prepared`] (sharing the tables, not
    /// copying them), for what that type reports: the heuristic's label,
    /// the landmark nodes, the preprocessing time and bytes.
    pub fn prepared(&self) -> Prepared<'_> {
        Prepared {
            graph: &self.inner.graph,
            plan: self.plan().clone(),
        }
    }

    /// An engine with this one's spec on its map with `cells` changed
    /// (each `(x, y, tile)`; a cell off the map is left out), every table
    /// kept exact as its kind keeps itself: a landmark table repaired, not
    /// rebuilt (the repair state follows the engine's line of edits; an
    /// edit of an older engine of the line builds its own), a jump table
    /// repaired near the edits, a goal-bounding table's boxes dropped (its
    /// jump table answering as `jps+` until
    /// [`filled_within`](Engine::filled_within) boxes it again), a subgoal
    /// graph left of the older map while the jump table the engine keeps
    /// beside it is repaired and answers as `jps+`
    /// ([`is_behind`](Engine::is_behind)), so that the edit costs what
    /// `jps+`'s does. This engine is unchanged; searchers take up the
    /// edit by being handed out by the new engine
    /// ([`EngineSearcher::switch_to`]), or through [`Live`](super::Live).
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::search::Searcher;
    /// use cairns::spec::{Engine, SearchSpec};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("....\n....").unwrap(), Neighborhood::Octile);
    /// let engine = Engine::new(graph, &"astar/dh:2".parse::<SearchSpec>().unwrap()).unwrap();
    /// let walled = engine.edited(&[(1, 0, Tile::OutOfBounds), (1, 1, Tile::OutOfBounds)]).unwrap();
    /// let (a, b) = (walled.graph().node(0, 0).unwrap(), walled.graph().node(3, 0).unwrap());
    /// assert_eq!(walled.searcher().search_cost(a, b), None);
    /// assert!(engine.searcher().search_cost(a, b).is_some()); // the old map
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Engine::with_tables`].
    pub fn edited(&self, cells: &[(u32, u32, Tile)]) -> Result<Engine, SpecError> {
        self.edit(cells, false)
    }

    /// [`edited`](Engine::edited), or with `later` (for the specs the
    /// safe estimate serves) [`edited_later`](Engine::edited_later).
    fn edit(&self, cells: &[(u32, u32, Tile)], later: bool) -> Result<Engine, SpecError> {
        let data = &*self.inner;
        let mut graph = data.graph.clone();
        let later = later && serves_safe_mode(data.plan.spec, &graph);
        let edit = data.pending.edit(
            (data.id, &data.lineage, &data.plan),
            &mut graph,
            cells,
            later,
        );
        self.next(graph, edit.given, (edit.pending, edit.stand_ins))
    }

    /// A new searcher with a cache of its own, owning a share of the
    /// engine: one per thread. Its cache takes the memory a dropped
    /// searcher of this engine's line handed back, when there is one. A
    /// searcher of an engine this one was edited from takes up the edit
    /// with [`EngineSearcher::switch_to`], keeping its cache.
    pub fn searcher(&self) -> EngineSearcher {
        self.searcher_with(self.inner.lineage.memory())
    }

    /// Runs `f` with a searcher of this engine and keeps the searcher for
    /// the next call: the one the last call handed back (so a budgeted
    /// search that one call paused, [`Searcher::search_budgeted`], the
    /// next call resumes, unless another query ran on it between them),
    /// or a new one when every kept searcher is in use. For callers that
    /// answer one query at a time from many places (a binding's methods);
    /// a thread of queries keeps its own [`searcher`](Engine::searcher).
    pub fn with_searcher<R>(&self, f: impl FnOnce(&mut EngineSearcher) -> R) -> R {
        let mut searcher = lock(&self.idle).pop().unwrap_or_else(|| self.searcher());
        let result = f(&mut searcher);
        let mut idle = lock(&self.idle);
        if idle.len() < IDLE {
            idle.push(searcher);
        }
        result
    }

    /// [`searcher`](Engine::searcher), its cache in `memory` when that has
    /// room enough.
    fn searcher_with(&self, mut memory: SearchMemory) -> EngineSearcher {
        EngineSearcher(SearcherCell::new(Arc::clone(&self.inner), |data| {
            let (graph, plan) = (&data.graph, &data.plan);
            data.pending
                .stale
                .as_ref()
                .and_then(|changes| {
                    safe_searcher(plan.spec, graph, &plan.tables, changes, &mut memory)
                })
                .unwrap_or_else(|| plan.searcher(graph, data.pending.is_behind(), memory))
        }))
    }

    /// Like [`edited`](Engine::edited), but the landmark table is not
    /// repaired before the engine is returned: an A* spec with a landmark
    /// heuristic (`astar/dh:16`, `dh:K:bestN`) searches the changed map at
    /// once with the [`SafeDifferential`](crate::landmarks::SafeDifferential)
    /// form of the table it had, admissible there, so every cost stays
    /// optimal (the searches may expand more until the repair). The repair
    /// goes on in steps of bounded work with
    /// [`repair_step`](Engine::repair_step), one per frame in a game, the
    /// next edits coming between them. Any other spec is edited as
    /// [`edited`](Engine::edited) edits it.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::search::Searcher;
    /// use cairns::spec::{Engine, SearchSpec};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("....\n.@..\n....").unwrap(), Neighborhood::Octile);
    /// let engine = Engine::new(graph, &"astar/dh:2".parse::<SearchSpec>().unwrap()).unwrap();
    /// let mut now = engine.edited_later(&[(1, 1, Tile::Ground)]).unwrap();
    /// assert!(now.is_stale());
    /// let (a, b) = (now.graph().node(0, 1).unwrap(), now.graph().node(3, 1).unwrap());
    /// assert_eq!(now.searcher().search_cost(a, b), Some(3.0)); // through the opened cell
    /// while now.is_stale() {
    ///     let (progress, repaired) = now.repair_step(100).unwrap();
    ///     if let Some(repaired) = repaired {
    ///         now = repaired;
    ///     }
    ///     assert_eq!(progress.done(), !now.is_stale());
    /// }
    /// assert_eq!(now.searcher().search_cost(a, b), Some(3.0));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Engine::with_tables`].
    pub fn edited_later(&self, cells: &[(u32, u32, Tile)]) -> Result<Engine, SpecError> {
        self.edit(cells, true)
    }

    /// Whether the landmark table waits for its repair
    /// ([`edited_later`](Engine::edited_later)).
    pub fn is_stale(&self) -> bool {
        self.inner.pending.stale.is_some()
    }

    /// One step of the repair that [`edited_later`](Engine::edited_later)
    /// left, of about `budget` units of work (a cell searched again by the
    /// landmark table's repair):
    /// what it did, and the engine with the repaired table once the repair
    /// is done (`None` before; this engine stays as it is either way). An
    /// engine that is not stale is done at once. The repair state is the
    /// one that followed this engine's edits; if another engine of its
    /// line took it over since (an edit of this engine, or a panic lost
    /// it), the table is built again on this map, in this one step.
    ///
    /// # Errors
    ///
    /// As [`Engine::with_tables`].
    pub fn repair_step(
        &self, budget: usize,
    ) -> Result<(RepairProgress, Option<Engine>), SpecError> {
        let data = &*self.inner;
        let (progress, given) =
            data.pending
                .repair_step((data.id, &data.lineage, &data.plan), &data.graph, budget);
        let Some(given) = given else {
            return Ok((progress, None));
        };
        let pending = Pending {
            stale: None,
            ..data.pending.clone()
        };
        let engine = self.next(
            data.graph.clone(),
            given,
            (pending, data.plan.stand_ins.clone()),
        )?;
        Ok((progress, Some(engine)))
    }

    /// This engine with more of what its tables lack built, each as its
    /// kind fills itself ([`Table::is_filled`]): a goal-bounding table's
    /// jump points without boxes, after [`edited`](Engine::edited)
    /// dropped them or a spec's build ran out of its budget, get theirs
    /// until `budget` has passed, on every core; a subgoal graph that an
    /// edit left of the older map is brought to it and ranked again, cut
    /// at `budget` as a spec's build is at its own. `None` when every
    /// table is filled. This engine is unchanged and serves meanwhile
    /// (through the stand-ins: its answers stay optimal, as fast as the
    /// tier the tables stand on); call this from a thread of its own, or
    /// in slices between frames, and move searchers to each engine it
    /// returns ([`EngineSearcher::switch_to`]; [`Live::fill_within`](super::Live::fill_within)
    /// does both). An engine edited again meanwhile fills from its own
    /// map: fill the newest.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::spec::{Engine, SearchSpec};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("......\n.@....\n......").unwrap(), Neighborhood::Octile);
    /// let engine = Engine::new(graph, &"jps+bb".parse::<SearchSpec>().unwrap()).unwrap();
    /// assert!(engine.is_exact());
    /// assert!(engine.filled_within(Duration::from_secs(1)).unwrap().is_none());
    ///
    /// let edited = engine.edited(&[(3, 1, Tile::OutOfBounds)]).unwrap();
    /// assert!(!edited.is_exact()); // boxes of the older map dropped
    /// let filled = std::thread::spawn(move || edited.filled_within(Duration::from_secs(60)))
    ///     .join()
    ///     .unwrap()
    ///     .unwrap()
    ///     .unwrap();
    /// assert!(filled.is_exact());
    /// // As a table built on the edited map.
    /// let fresh = Engine::new(filled.graph().clone(), &filled.spec()).unwrap();
    /// assert_eq!(filled.tables(), fresh.tables());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Engine::with_tables`].
    pub fn filled_within(&self, budget: Duration) -> Result<Option<Engine>, SpecError> {
        if self.is_filled() {
            return Ok(None);
        }
        let tables = self.tables();
        let mut given = kept(tables, Table::is_filled);
        for table in tables {
            let t0 = Instant::now();
            if let Some(table) = table.filled_within(self.graph(), budget) {
                given.push(Given {
                    table,
                    seconds: t0.elapsed().as_secs_f64(),
                });
            }
        }
        // The tables are this map's: behind no more.
        let pending = Pending {
            behind: Vec::new(),
            ..self.inner.pending.clone()
        };
        let stand_ins = self.inner.plan.stand_ins.clone();
        self.next(self.graph().clone(), given, (pending, stand_ins))
            .map(Some)
    }

    /// The stand-in tables the engine keeps.
    #[cfg(test)]
    fn stand_ins(&self) -> &[Table] {
        &self.inner.plan.stand_ins
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = &self.inner.graph;
        f.debug_struct("Engine")
            .field("spec", &self.inner.plan.spec.to_string())
            .field("width", &g.width())
            .field("height", &g.height())
            .field("tables", &self.inner.plan.report)
            .finish_non_exhaustive()
    }
}

self_cell::self_cell!(
    /// A searcher and the engine data it borrows, in one value.
    struct SearcherCell {
        owner: Arc<EngineData>,
        #[covariant]
        dependent: BoxedSearcher,
    }
);

/// A searcher of an [`Engine`]: its own cache and a share of the engine's
/// graph and tables, so it is `Send` and `'static`. It is a [`Searcher`];
/// each call is the boxed search's own, through one more pointer. Dropped,
/// it hands its cache's memory back to the engine's line for the next
/// searcher.
pub struct EngineSearcher(SearcherCell);

impl Drop for EngineSearcher {
    fn drop(&mut self) {
        self.0.with_dependent_mut(|data, searcher| {
            data.lineage.give(searcher.take_memory());
        });
    }
}

impl EngineSearcher {
    /// The engine's graph.
    pub fn graph(&self) -> &GridGraph {
        &self.0.borrow_owner().graph
    }

    /// Whether this is a searcher of `engine`.
    pub fn is_of(&self, engine: &Engine) -> bool {
        Arc::ptr_eq(self.0.borrow_owner(), &engine.inner)
    }

    /// Makes this searcher one of `engine`, as [`Engine::searcher`] would,
    /// but keeping its cache's memory ([`Searcher::take_memory`]) instead of
    /// allocating and first-touching another: how a searcher takes up an
    /// edit ([`Engine::edited`]) before its next query. On a 512x512 map a
    /// new cache costs about as much as the edit. What the last query left
    /// (its path, its statistics, a paused budgeted search) is forgotten.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::search::Searcher;
    /// use cairns::spec::{Engine, SearchSpec};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii(".....\n.....").unwrap(), Neighborhood::Octile);
    /// let engine = Engine::new(graph, &"jps+".parse::<SearchSpec>().unwrap()).unwrap();
    /// let mut searcher = engine.searcher();
    /// let (a, b) = (engine.graph().node(0, 0).unwrap(), engine.graph().node(4, 0).unwrap());
    /// assert_eq!(searcher.search_cost(a, b), Some(4.0));
    /// let walled = engine.edited(&[(2, 0, Tile::OutOfBounds)]).unwrap();
    /// searcher.switch_to(&walled);
    /// let around = searcher.search_cost(a, b).unwrap(); // two diagonals round the wall
    /// assert!((around - 4.83).abs() < 0.01);
    /// ```
    pub fn switch_to(&mut self, engine: &Engine) {
        let memory = self.with_inner(|s| s.take_memory());
        *self = engine.searcher_with(memory);
    }
}

impl fmt::Debug for EngineSearcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineSearcher")
            .field("spec", &self.0.borrow_owner().plan.spec.to_string())
            .finish_non_exhaustive()
    }
}

/// Each call is the boxed search's own ([`Forward`]).
impl Forward for EngineSearcher {
    fn inner(&self) -> &dyn Searcher {
        &**self.0.borrow_dependent()
    }

    #[inline]
    fn with_inner<R>(&mut self, f: impl FnOnce(&mut dyn Searcher) -> R) -> R {
        self.0.with_dependent_mut(|_, s| f(&mut **s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::NodeId;
    use crate::grid::{GenerateOptions, MapKind, Neighborhood, generate};
    use crate::rng::SplitMix64;

    fn assert_send_sync<T: Send + Sync>() {}
    fn assert_send<T: Send + 'static>() {}

    #[test]
    fn the_engine_is_send_and_sync_and_its_searchers_send() {
        assert_send_sync::<Engine>();
        assert_send::<EngineSearcher>();
    }

    /// The owning engine, used from two threads with one searcher each,
    /// answers as the borrowing API does serially, query by query, with the
    /// same statistics.
    #[test]
    fn two_threads_answer_as_the_borrowing_api_does_serially() {
        let options = GenerateOptions {
            kind: MapKind::Rooms { room_size: 9 },
            width: 64,
            height: 64,
            seed: 3,
        };
        let graph = GridGraph::new(generate(&options).unwrap(), Neighborhood::Octile);
        let free: Vec<NodeId> = (0..graph.grid().len() as u32)
            .map(NodeId)
            .filter(|&n| graph.is_passable(n))
            .collect();
        let mut rng = SplitMix64::new(7);
        let queries: Vec<(NodeId, NodeId)> = (0..200)
            .map(|_| {
                let pick = |rng: &mut SplitMix64| free[rng.below(free.len() as u64) as usize];
                (pick(&mut rng), pick(&mut rng))
            })
            .collect();
        for name in ["astar", "jps+/dh:4", "astar/dh:4:keep2", "theta"] {
            let spec: SearchSpec = name.parse().unwrap();
            let prepared = spec.prepare(&graph).unwrap();
            let mut serial = prepared.searcher();
            let expected: Vec<_> = queries
                .iter()
                .map(|&(s, g)| (serial.search_cost(s, g), serial.stats()))
                .collect();
            let engine = Engine::new(graph.clone(), &spec).unwrap();
            assert_eq!(engine.spec(), prepared.spec());
            assert_eq!(engine.tables().len(), prepared.tables().len());
            let halves = queries.split_at(queries.len() / 2);
            let answers: Vec<_> = std::thread::scope(|scope| {
                let threads: Vec<_> = [halves.0, halves.1]
                    .into_iter()
                    .map(|half| {
                        let mut searcher = engine.searcher();
                        scope.spawn(move || {
                            half.iter()
                                .map(|&(s, g)| (searcher.search_cost(s, g), searcher.stats()))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                threads
                    .into_iter()
                    .flat_map(|t| t.join().unwrap())
                    .collect()
            });
            assert_eq!(answers, expected, "{name}");
        }
    }

    #[test]
    fn a_searcher_outlives_the_engine_it_came_from() {
        let graph = crate::grid::testing::open_map(8, 5, Neighborhood::Octile);
        let engine = Engine::new(graph, &"jps+".parse().unwrap()).unwrap();
        let (a, b) = (
            engine.graph().node(0, 0).unwrap(),
            engine.graph().node(7, 4).unwrap(),
        );
        let mut searcher = engine.searcher();
        drop(engine);
        assert!(searcher.search_cost(a, b).is_some());
        let mut path = Vec::new();
        assert!(searcher.path_into(b, &mut path));
        assert_eq!(path.first(), Some(&a));
        assert_eq!(searcher.graph().width(), 8);
    }
}

#[cfg(test)]
mod later {
    use proptest::prelude::*;

    use super::*;
    use crate::graph::{Graph, NodeId};
    use crate::grid::Neighborhood;
    use crate::landmarks::{Directedness, LandmarkTable};
    use crate::search::testing::scattered;
    use crate::search::{Budgeted, Dijkstra, JumpTable, Search, SearchCache, SubgoalGraph};

    /// Every cost of `engine` is Dijkstra's on its map, from `start` to
    /// each cell.
    fn answers_as_dijkstra(engine: &Engine, start: NodeId) -> Result<(), TestCaseError> {
        let graph = engine.graph();
        let (mut searcher, mut cache) = (engine.searcher(), SearchCache::new());
        for goal in (0..graph.node_bound() as u32).map(NodeId) {
            let want = Dijkstra::new(graph).search_cost(start, goal, &mut cache);
            let got = searcher.search_cost(start, goal);
            if let (Some(g), Some(w)) = (got, want) {
                prop_assert!((g - w).abs() < 1e-9, "{g} for {w} to {goal:?}");
            } else {
                prop_assert_eq!(got, want, "to {:?}", goal);
            }
        }
        Ok(())
    }

    proptest! {
        /// Walls closed and opened with `edited_later`, between repair
        /// steps of a few cells each: every answer is optimal on the map of
        /// the moment, and once the repair is done the table is the one a
        /// build on that map gives.
        #[test]
        fn edits_answered_at_once_stay_optimal_and_the_repair_ends_exact(
            (graph, start) in scattered(14, 350),
            edits in prop::collection::vec((any::<u32>(), any::<u32>(), any::<bool>()), 1..6),
            budget in 1usize..60,
        ) {
            let spec: SearchSpec = "astar/dh:3".parse().unwrap();
            let engine = Engine::new(graph, &spec);
            // A map too small for three landmarks is refused when built.
            prop_assume!(engine.is_ok());
            let mut engine = engine.unwrap();
            let (w, h) = (engine.graph().width(), engine.graph().height());
            for (x, y, wall) in edits {
                let cell = (x % w, y % h, Tile::wall_if(wall));
                engine = engine.edited_later(&[cell]).unwrap();
                answers_as_dijkstra(&engine, start)?;
                let (_, repaired) = engine.repair_step(budget).unwrap();
                if let Some(repaired) = repaired {
                    engine = repaired;
                    answers_as_dijkstra(&engine, start)?;
                }
            }
            while engine.is_stale() {
                let (progress, repaired) =
                    engine.repair_step(budget).unwrap();
                prop_assert_eq!(progress.done(), repaired.is_some());
                if let Some(repaired) = repaired {
                    engine = repaired;
                }
            }
            let table = engine.tables().iter().find_map(Table::landmarks).unwrap();
            let built = LandmarkTable::build(engine.graph(), table.landmarks(), Directedness::Symmetric);
            prop_assert!(*table == built, "the repaired table differs from a build");
            answers_as_dijkstra(&engine, start)?;
        }
    }

    proptest! {
        /// Walls closed and opened on a `sub` engine, filled in between
        /// some of the edits: every answer is optimal on the map of the
        /// moment, the jump table kept is a build's, and once filled the
        /// subgoals and edges are a build's.
        #[test]
        fn subgoal_engines_behind_their_map_answer_optimally(
            (graph, start) in scattered(14, 350),
            edits in prop::collection::vec(
                (any::<u32>(), any::<u32>(), any::<bool>(), any::<bool>()),
                1..8,
            ),
        ) {
            let spec: SearchSpec = "sub".parse().unwrap();
            let mut engine = Engine::new(graph, &spec).unwrap();
            let (w, h) = (engine.graph().width(), engine.graph().height());
            for (x, y, wall, fill) in edits {
                engine = engine.edited(&[(x % w, y % h, Tile::wall_if(wall))]).unwrap();
                prop_assert!(engine.is_behind());
                prop_assert!(kept_jumps(&engine) == JumpTable::build(engine.graph()));
                answers_as_dijkstra(&engine, start)?;
                if fill {
                    engine = engine.filled_within(Duration::from_secs(60)).unwrap().unwrap();
                    prop_assert!(!engine.is_behind());
                    answers_as_dijkstra(&engine, start)?;
                }
            }
            if let Some(filled) = engine.filled_within(Duration::from_secs(60)).unwrap() {
                engine = filled;
            }
            prop_assert!(!engine.is_behind() && engine.tables().iter().all(Table::is_filled));
            let built = SubgoalGraph::build(engine.graph());
            let ours = engine.tables()[0].subgoals().unwrap();
            prop_assert_eq!(ours.subgoals(), built.subgoals());
            for &s in built.subgoals() {
                prop_assert_eq!(ours.edges(s), built.edges(s));
            }
            answers_as_dijkstra(&engine, start)?;
        }
    }

    proptest! {
        /// A searcher that follows an engine's edits with `switch_to`,
        /// keeping its cache (left after a budgeted search paused, at
        /// times), answers every query as a new searcher of the edited
        /// engine does, with the same statistics: no record of a search on
        /// the old map reads as one of the new.
        #[test]
        fn a_switched_searcher_answers_as_a_new_one(
            (graph, start) in scattered(12, 350),
            edits in prop::collection::vec((any::<u32>(), any::<u32>(), any::<bool>()), 1..6),
            pause in any::<bool>(),
        ) {
            for name in ["jps+", "astar", "astar/dh:2", "jps+bb", "theta"] {
                let spec: SearchSpec = name.parse().unwrap();
                let Ok(mut engine) = Engine::new(graph.clone(), &spec) else {
                    continue; // a map too small for the landmarks
                };
                let mut switched = engine.searcher();
                let (w, h) = (engine.graph().width(), engine.graph().height());
                let bound = engine.graph().node_bound() as u32;
                for &(x, y, wall) in &edits {
                    let goal = NodeId((x ^ y) % bound);
                    if pause {
                        switched.search_budgeted(&[start], &[goal], crate::search::Budget::expansions(1));
                    } else {
                        switched.search_cost(start, goal);
                    }
                    let cell = (x % w, y % h, Tile::wall_if(wall));
                    engine = if wall && x % 2 == 0 {
                        engine.edited_later(&[cell]).unwrap()
                    } else {
                        engine.edited(&[cell]).unwrap()
                    };
                    switched.switch_to(&engine);
                    let mut fresh = engine.searcher();
                    for goal in (0..bound).map(NodeId) {
                        let want = (fresh.search_cost(start, goal), fresh.stats());
                        let got = (switched.search_cost(start, goal), switched.stats());
                        prop_assert_eq!(got, want, "{} to {:?}", name, goal);
                    }
                }
            }
        }
    }

    /// A spec the safe heuristic does not serve is edited exactly at once:
    /// a jump table repaired, a goal-bounding table's boxes dropped.
    /// The jump table a `sub` engine keeps.
    fn kept_jumps(engine: &Engine) -> JumpTable {
        JumpTable::clone(engine.stand_ins()[0].jumps().unwrap())
    }

    #[test]
    fn subgoal_engines_fill_in_after_edits_to_built_ones() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let graph = crate::search::testing::walled(30, 20, |_, _| rng.below(100) < 15);
        let spec: SearchSpec = "sub".parse().unwrap();
        let mut engine = Engine::new(graph, &spec).unwrap();
        assert!(engine.tables().iter().all(Table::is_filled));
        assert!(
            engine
                .filled_within(Duration::from_secs(60))
                .unwrap()
                .is_none()
        );
        for (x, y, wall) in [(5, 5, true), (17, 9, false), (17, 10, true), (0, 19, true)] {
            engine = engine.edited(&[(x, y, Tile::wall_if(wall))]).unwrap();
            // Behind the map: `jps+` answers over the jump table kept.
            assert!(engine.is_behind(), "behind after ({x}, {y})");
            let jps_plus = Engine::new(engine.graph().clone(), &"jps+".parse().unwrap()).unwrap();
            let (mut ours, mut theirs) = (engine.searcher(), jps_plus.searcher());
            let start = engine.graph().node(29, 19).unwrap();
            for goal in (0..engine.graph().node_bound() as u32).map(NodeId) {
                let got = (ours.search_cost(start, goal), ours.stats());
                assert_eq!(got, (theirs.search_cost(start, goal), theirs.stats()));
            }
            assert!(kept_jumps(&engine) == JumpTable::build(engine.graph()));
            answers_as_dijkstra(&engine, NodeId(0)).unwrap();
            // Asked for, the tables are the map's: the graph repaired, flat.
            assert!(!engine.tables()[0].is_filled(), "flat after ({x}, {y})");
            engine = engine
                .filled_within(Duration::from_secs(60))
                .unwrap()
                .unwrap();
            // Ranked in the older order: the subgoals and edges of a
            // build, its own hierarchy.
            let fresh = Engine::new(engine.graph().clone(), &spec).unwrap();
            let (ranked, built) = (
                engine.tables()[0].subgoals().unwrap(),
                fresh.tables()[0].subgoals().unwrap(),
            );
            assert!(engine.tables()[0].is_filled() && ranked.is_contracted());
            assert_eq!(ranked.subgoals(), built.subgoals());
            for &s in built.subgoals() {
                assert_eq!(ranked.edges(s), built.edges(s));
            }
            answers_as_dijkstra(&engine, engine.graph().node(29, 19).unwrap()).unwrap();
        }
    }

    /// Edits of a `sub` engine, with `edited` or `edited_later`, leave
    /// its subgoal graph alone until its tables are asked for.
    #[test]
    fn edits_to_a_sub_engine_do_not_repair_its_graph() {
        let graph = crate::grid::testing::open_map(9, 6, Neighborhood::Octile);
        let engine = Engine::new(graph, &"sub".parse().unwrap()).unwrap();
        let repaired = |e: &Engine| e.inner.caught_up.get().is_some();
        let once = engine.edited(&[(4, 2, Tile::OutOfBounds)]).unwrap();
        let twice = once.edited_later(&[(5, 3, Tile::OutOfBounds)]).unwrap();
        let edited = twice.edited(&[(4, 2, Tile::Ground)]).unwrap();
        for e in [&once, &twice, &edited] {
            assert!(e.is_behind() && !repaired(e));
            // The stand-in's jump table is counted beside the report.
            let jumps = JumpTable::build(e.graph()).memory_bytes();
            assert_eq!(e.stand_in_bytes(), jumps);
        }
        answers_as_dijkstra(&edited, NodeId(0)).unwrap();
        assert!(!repaired(&edited));
        assert!(!edited.tables()[0].is_filled());
        assert!(repaired(&edited), "repaired when asked for");
    }

    /// A subgoal graph whose contraction its budget cut answers as `jps+`
    /// does, query by query with the same statistics, from the borrowing
    /// API and from an engine: the partial table is never slower than the
    /// tier under it. Built whole, it answers as itself.
    #[test]
    fn a_cut_subgoal_graph_answers_as_jps_plus() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let graph = crate::search::testing::walled(40, 30, |_, _| rng.below(100) < 20);
        let cut = Table::from(SubgoalGraph::build_within(&graph, Some(Duration::ZERO)));
        assert!(cut.defers_to_stand_in());
        let spec: SearchSpec = "sub".parse().unwrap();
        let prepared = spec
            .prepare_with(&graph, [Given::from(cut.clone())])
            .unwrap();
        let engine = Engine::with_tables(graph.clone(), &spec, [Given::from(cut)]).unwrap();
        assert!(!engine.is_exact());
        let jps_plus = "jps+"
            .parse::<SearchSpec>()
            .unwrap()
            .prepare(&graph)
            .unwrap();
        let whole = spec.prepare(&graph).unwrap();
        assert!(!whole.tables()[0].defers_to_stand_in());
        let (mut a, mut b, mut c) = (prepared.searcher(), engine.searcher(), jps_plus.searcher());
        let (mut w, mut cache) = (whole.searcher(), SearchCache::new());
        let mut differs = 0;
        for goal in (0..graph.node_bound() as u32).map(NodeId).step_by(7) {
            let start = NodeId(0);
            let want = (c.search_cost(start, goal), c.stats());
            assert_eq!((a.search_cost(start, goal), a.stats()), want, "to {goal:?}");
            assert_eq!((b.search_cost(start, goal), b.stats()), want, "to {goal:?}");
            let cost = w.search_cost(start, goal);
            assert_eq!(cost.is_some(), want.0.is_some());
            if let (Some(x), Some(y)) = (
                cost,
                Dijkstra::new(&graph).search_cost(start, goal, &mut cache),
            ) {
                assert!((x - y).abs() < 1e-9);
            }
            differs += usize::from(w.stats() != want.1);
        }
        assert!(differs > 0, "the whole table searches as itself");
    }

    /// Edits of two engines of one line (an engine edited twice): each
    /// edit's landmark table is a build's on its own map, whichever engine
    /// the line's repair state followed last.
    #[test]
    fn edits_of_an_older_engine_of_the_line_keep_its_table_exact() {
        let graph = crate::grid::testing::open_map(12, 8, Neighborhood::Octile);
        let engine = Engine::new(graph, &"astar/dh:3".parse().unwrap()).unwrap();
        let first = engine.edited(&[(5, 3, Tile::OutOfBounds)]).unwrap();
        let second = engine.edited(&[(6, 4, Tile::OutOfBounds)]).unwrap();
        let third = first.edited(&[(7, 2, Tile::OutOfBounds)]).unwrap();
        for e in [&first, &second, &third] {
            let table = e.tables().iter().find_map(Table::landmarks).unwrap();
            let built = LandmarkTable::build(e.graph(), table.landmarks(), Directedness::Symmetric);
            assert!(*table == built);
            answers_as_dijkstra(e, NodeId(0)).unwrap();
        }
    }

    /// A searcher dropped hands its memory back; the next searcher of the
    /// line (an edited engine's too) takes it instead of a new one.
    #[test]
    fn dropped_searchers_hand_their_memory_to_the_next() {
        let graph = crate::grid::testing::open_map(9, 6, Neighborhood::Octile);
        let engine = Engine::new(graph, &"jps+".parse().unwrap()).unwrap();
        let pooled = |e: &Engine| e.inner.lineage.pooled();
        let mut searcher = engine.searcher();
        assert!(searcher.search_cost(NodeId(0), NodeId(50)).is_some());
        assert_eq!(pooled(&engine), 0);
        drop(searcher);
        assert_eq!(pooled(&engine), 1);
        let edited = engine.edited(&[(4, 2, Tile::OutOfBounds)]).unwrap();
        let again = edited.searcher();
        assert_eq!(pooled(&engine), 0, "taken by the edited engine's searcher");
        drop(again);
        assert_eq!(pooled(&edited), 1);
    }

    #[test]
    fn other_specs_are_repaired_at_once() {
        let graph = crate::grid::testing::open_map(9, 6, Neighborhood::Octile);
        for name in ["jps+/dh:2", "jps+", "jps+bb", "sub", "astar"] {
            let engine = Engine::new(graph.clone(), &name.parse().unwrap()).unwrap();
            let edited = engine.edited_later(&[(4, 2, Tile::OutOfBounds)]).unwrap();
            assert!(!edited.is_stale(), "{name}");
            assert!(
                !edited
                    .graph()
                    .is_passable(edited.graph().node(4, 2).unwrap())
            );
            answers_as_dijkstra(&edited, NodeId(0)).unwrap();
            answers_as_dijkstra(&edited, edited.graph().node(8, 3).unwrap()).unwrap();
        }
    }
}
