//! An engine that owns its map: the graph and the tables behind an
//! [`Arc`], handing out searchers with caches of their own to any thread.

use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::construct::{BoxedSearcher, build_searcher, safe_searcher, serves_safe_mode};
use super::error::SpecError;
use super::names::{Algorithm, SearchSpec};
use super::prepare::{Plan, Prepared};
use super::tables::{Given, Table, TableReport};
use crate::graph::NodeId;
use crate::grid::{GridGraph, Tile};
use crate::landmarks::{IncrementalTable, MapChanges, RepairProgress};
use crate::saved::TableKind;
use crate::search::{Forward, JumpTable, SearchMemory, Searcher};

/// A prepared search that owns its graph and tables: `Send`, `Sync` and
/// cheap to clone (one [`Arc`]). [`searcher`](Engine::searcher) hands out
/// an [`EngineSearcher`] with a cache of its own, which owns a share of
/// the engine too, so it can go to another thread, into a Python object or
/// behind a C handle. The borrowing API ([`SearchSpec::prepare`],
/// [`Prepared`]) stays for callers who keep the graph themselves; both run
/// the same searches.
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
}

/// What an engine owns.
struct EngineData {
    graph: GridGraph,
    plan: Plan,
    /// The changes of the map since its landmark table was exact, while
    /// the table waits for its repair ([`Engine::edited_later`]).
    stale: Option<MapChanges>,
    /// For a subgoal graph (`sub`): what lets an edit skip its repair.
    subgoal_edits: Option<SubgoalEdits>,
}

/// What a `sub` engine keeps so that a wall edit costs only a jump
/// table's repair: the map's jump table, kept exact at every edit, over
/// which queries run as `jps+` while the subgoal graph is of an older
/// map; the cells changed since that map; and the tables with the graph
/// repaired, made when first asked for ([`Engine::tables`]) or by
/// [`Engine::filled_within`].
struct SubgoalEdits {
    /// The jump table, as the one table of a `jps+` searcher.
    jumps: [Table; 1],
    /// The cells changed since the subgoal graph's map, sorted; empty
    /// when the graph is this map's.
    behind: Vec<NodeId>,
    /// The plan with the subgoal graph repaired to this map
    /// ([`SubgoalGraph::edited`](crate::search::SubgoalGraph::edited)).
    repaired: OnceLock<Plan>,
}

impl SubgoalEdits {
    /// The jump table.
    fn jump_table(&self) -> &JumpTable {
        match &self.jumps[0] {
            Table::Jumps(jumps) => jumps,
            _ => unreachable!("a sub engine keeps a jump table"),
        }
    }

    /// For a `sub` spec's engine on `graph` (octile without terrain, as
    /// the spec requires), with the jump table `jumps` when one is kept
    /// (built otherwise) and the graph `behind` by those cells.
    fn keep(
        spec: SearchSpec,
        graph: &GridGraph,
        jumps: Option<Table>,
        behind: Vec<NodeId>,
    ) -> Option<SubgoalEdits> {
        // With a landmark heuristic, `jps+` would need that table too:
        // such specs repair the graph at each edit instead.
        if spec.table_kinds(graph.neighborhood()) != [TableKind::Subgoals] {
            return None;
        }
        let jumps = jumps.unwrap_or_else(|| Table::from(JumpTable::build(graph)));
        Some(SubgoalEdits {
            jumps: [jumps],
            behind,
            repaired: OnceLock::new(),
        })
    }
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
    /// ([`SearchSpec::prepare_with`]).
    ///
    /// # Errors
    ///
    /// Those of [`SearchSpec::prepare_with`].
    pub fn with_tables(
        graph: GridGraph,
        spec: &SearchSpec,
        given: impl IntoIterator<Item = Given>,
    ) -> Result<Engine, SpecError> {
        Engine::made(graph, spec, given, None, None, Vec::new())
    }

    /// [`with_tables`](Engine::with_tables), with the changes since the
    /// landmark table was exact when it is stale, and for `sub` the jump
    /// table kept (`None`: built) and the cells its subgoal graph is
    /// behind by.
    fn made(
        graph: GridGraph,
        spec: &SearchSpec,
        given: impl IntoIterator<Item = Given>,
        stale: Option<MapChanges>,
        jumps: Option<Table>,
        behind: Vec<NodeId>,
    ) -> Result<Engine, SpecError> {
        let plan = spec.prepare_with(&graph, given)?.plan;
        let subgoal_edits = SubgoalEdits::keep(plan.spec, &graph, jumps, behind);
        Ok(Engine {
            inner: Arc::new(EngineData {
                graph,
                plan,
                stale,
                subgoal_edits,
            }),
        })
    }

    /// The plan: for a `sub` engine whose subgoal graph is of an older
    /// map, with the graph repaired (once, when first asked for).
    fn plan(&self) -> &Plan {
        let data = &*self.inner;
        match &data.subgoal_edits {
            Some(edits) if !edits.behind.is_empty() => edits.repaired.get_or_init(|| {
                let mut plan = data.plan.clone();
                for table in &mut plan.tables {
                    if let Some(subgoals) = table.subgoals() {
                        *table = Table::from(subgoals.edited(&data.graph, &edits.behind));
                    }
                }
                plan
            }),
            _ => &data.plan,
        }
    }

    /// The jump table a `sub` engine keeps.
    fn kept_jumps(&self) -> Option<Table> {
        let edits = self.inner.subgoal_edits.as_ref()?;
        Some(edits.jumps[0].clone())
    }

    /// Whether this is a `sub` engine whose subgoal graph is of an older
    /// map: [`edited`](Engine::edited) skipped its repair, and queries
    /// run as `jps+` over the jump table the engine keeps, as fast as
    /// `jps+`, until [`filled_within`](Engine::filled_within) repairs and
    /// ranks it ([`tables`](Engine::tables) repairs it, without ranking,
    /// when first asked for).
    pub fn is_behind(&self) -> bool {
        self.inner
            .subgoal_edits
            .as_ref()
            .is_some_and(|e| !e.behind.is_empty())
    }

    /// The graph.
    pub fn graph(&self) -> &GridGraph {
        &self.inner.graph
    }

    /// The resolved spec.
    pub fn spec(&self) -> SearchSpec {
        self.inner.plan.spec
    }

    /// The tables, each of this engine's map: a subgoal graph that an
    /// edit left behind ([`is_behind`](Engine::is_behind)) is repaired
    /// when first asked for, flat until
    /// [`filled_within`](Engine::filled_within) ranks it.
    pub fn tables(&self) -> &[Table] {
        &self.plan().tables
    }

    /// What preparation built or took, per table.
    pub fn report(&self) -> &[TableReport] {
        &self.plan().report
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
    /// (each `(x, y, tile)`; a cell off the map is left out), the tables
    /// kept exact: a landmark table repaired, not rebuilt, through
    /// `repair` (the [`IncrementalTable`] that follows this engine's
    /// edits: `None` makes one from its table, and the next edit of the
    /// engine returned takes the same one), a jump table repaired near the
    /// edits ([`JumpTable::repair`](crate::search::JumpTable::repair)),
    /// a goal-bounding table's boxes dropped
    /// ([`GoalBounds::edited`](crate::search::GoalBounds::edited)); a
    /// `sub` engine (octile heuristic) repairs the jump table it keeps
    /// beside its subgoal graph and answers as `jps+` over it, the graph
    /// left of the older map ([`is_behind`](Engine::is_behind)), so that
    /// the edit costs what `jps+`'s does. Both fill in again with
    /// [`filled_within`](Engine::filled_within): the boxes built again,
    /// the subgoal graph repaired near the edits
    /// ([`SubgoalGraph::edited`](crate::search::SubgoalGraph::edited)) and
    /// ranked again.
    /// This engine is unchanged; searchers take up the edit by being
    /// handed out by the new engine. The C API and the Python package edit
    /// through it.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::search::Searcher;
    /// use cairns::spec::{Engine, SearchSpec};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("....\n....").unwrap(), Neighborhood::Octile);
    /// let engine = Engine::new(graph, &"astar/dh:2".parse::<SearchSpec>().unwrap()).unwrap();
    /// let mut repair = None;
    /// let walled = engine.edited(&[(1, 0, Tile::OutOfBounds), (1, 1, Tile::OutOfBounds)], &mut repair).unwrap();
    /// let (a, b) = (walled.graph().node(0, 0).unwrap(), walled.graph().node(3, 0).unwrap());
    /// assert_eq!(walled.searcher().search_cost(a, b), None);
    /// assert!(engine.searcher().search_cost(a, b).is_some()); // the old map
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Engine::with_tables`].
    pub fn edited(
        &self,
        cells: &[(u32, u32, Tile)],
        repair: &mut Option<IncrementalTable>,
    ) -> Result<Engine, SpecError> {
        let mut graph = self.graph().clone();
        let mut given = Vec::new();
        let landmarks = self.inner.plan.tables.iter().find_map(Table::landmarks);
        let t0 = Instant::now();
        let mut incremental = landmarks.map(|table| {
            repair.get_or_insert_with(|| IncrementalTable::build(&graph, table.landmarks()))
        });
        let mut edited = Vec::with_capacity(cells.len());
        for &(x, y, tile) in cells {
            match incremental.as_deref_mut() {
                Some(incremental) => incremental.set_tile(&mut graph, x, y, tile),
                None => graph.set_tile(x, y, tile),
            };
            edited.extend(graph.node(x, y));
        }
        if let Some(incremental) = incremental {
            incremental.repair(&graph);
            given.push(Given {
                table: Table::from(incremental.table().clone()),
                seconds: t0.elapsed().as_secs_f64(),
            });
        }
        let Some(edits) = &self.inner.subgoal_edits else {
            given.extend(self.tables_repaired(&graph, &edited));
            return Engine::with_tables(graph, &self.spec(), given);
        };
        // `sub`: the jump table repaired, the subgoal graph kept as it
        // was and the cells noted for its repair.
        let mut jumps = JumpTable::clone(edits.jump_table());
        jumps.repair(&graph, &edited);
        let mut behind = edits.behind.clone();
        behind.extend(edited);
        behind.sort_unstable();
        behind.dedup();
        given.extend(kept(&self.inner.plan.tables, |t| t.landmarks().is_none()));
        let jumps = Some(Table::from(jumps));
        Engine::made(graph, &self.spec(), given, None, jumps, behind)
    }

    /// A new searcher with a cache of its own, owning a share of the
    /// engine: one per thread. A searcher of an engine this one was edited
    /// from takes up the edit with
    /// [`EngineSearcher::switch_to`], keeping its cache.
    pub fn searcher(&self) -> EngineSearcher {
        self.searcher_with(SearchMemory::default())
    }

    /// [`searcher`](Engine::searcher), its cache in `memory` when that has
    /// room enough.
    fn searcher_with(&self, mut memory: SearchMemory) -> EngineSearcher {
        EngineSearcher(SearcherCell::new(Arc::clone(&self.inner), |data| {
            let (graph, tables, spec) = (&data.graph, &data.plan.tables, data.plan.spec);
            if let Some(edits) = data.subgoal_edits.as_ref().filter(|e| !e.behind.is_empty()) {
                // The subgoal graph is of an older map: `jps+` answers.
                let jps_plus = SearchSpec {
                    algorithm: Algorithm::JpsPlus,
                    ..spec
                };
                return build_searcher(jps_plus, graph, &edits.jumps, None, memory);
            }
            data.stale
                .as_ref()
                .and_then(|changes| safe_searcher(spec, graph, tables, changes, &mut memory))
                .unwrap_or_else(|| build_searcher(spec, graph, tables, None, memory))
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
    /// let mut repair = None;
    /// let mut now = engine.edited_later(&[(1, 1, Tile::Ground)], &mut repair).unwrap();
    /// assert!(now.is_stale());
    /// let (a, b) = (now.graph().node(0, 1).unwrap(), now.graph().node(3, 1).unwrap());
    /// assert_eq!(now.searcher().search_cost(a, b), Some(3.0)); // through the opened cell
    /// while now.is_stale() {
    ///     let (progress, repaired) = now.repair_step(repair.as_mut().unwrap(), 100).unwrap();
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
    pub fn edited_later(
        &self,
        cells: &[(u32, u32, Tile)],
        repair: &mut Option<IncrementalTable>,
    ) -> Result<Engine, SpecError> {
        // The tables as they are: a `sub` engine's graph is not repaired
        // to be looked at.
        let tables = &self.inner.plan.tables;
        let Some(landmarks) = tables.iter().find_map(Table::landmarks) else {
            return self.edited(cells, repair);
        };
        let spec = self.spec();
        if !serves_safe_mode(spec, self.graph()) {
            return self.edited(cells, repair);
        }
        let mut graph = self.graph().clone();
        let incremental =
            repair.get_or_insert_with(|| IncrementalTable::build(&graph, landmarks.landmarks()));
        let mut stale = self.inner.stale.clone().unwrap_or_default();
        let mut edited = Vec::with_capacity(cells.len());
        for &(x, y, tile) in cells {
            stale.note(&graph, x, y, tile);
            incremental.set_tile(&mut graph, x, y, tile);
            edited.extend(graph.node(x, y));
        }
        // The landmark table as it was; the others kept exact.
        let mut given = kept(tables, |t| t.landmarks().is_some());
        given.extend(self.tables_repaired(&graph, &edited));
        Engine::made(graph, &spec, given, Some(stale), None, Vec::new())
    }

    /// Whether the landmark table waits for its repair
    /// ([`edited_later`](Engine::edited_later)).
    pub fn is_stale(&self) -> bool {
        self.inner.stale.is_some()
    }

    /// One step of the repair that [`edited_later`](Engine::edited_later)
    /// left, of about `budget` units of work
    /// ([`IncrementalTable::repair_step`]) on `repair`, the table that
    /// followed the edits: what it did, and the engine with the repaired
    /// table once the repair is done (`None` before; this engine stays as
    /// it is either way). An engine that is not stale is done at once.
    ///
    /// # Errors
    ///
    /// As [`Engine::with_tables`].
    pub fn repair_step(
        &self,
        repair: &mut IncrementalTable,
        budget: usize,
    ) -> Result<(RepairProgress, Option<Engine>), SpecError> {
        if !self.is_stale() {
            return Ok((RepairProgress::default(), None));
        }
        let t0 = Instant::now();
        let progress = repair.repair_step(self.graph(), budget);
        if !progress.done() {
            return Ok((progress, None));
        }
        let mut given = kept(self.tables(), |t| t.landmarks().is_none());
        given.push(Given {
            table: Table::from(repair.table().clone()),
            seconds: t0.elapsed().as_secs_f64(),
        });
        let engine = Engine::with_tables(self.graph().clone(), &self.spec(), given)?;
        Ok((progress, Some(engine)))
    }

    /// This engine with more of what its tables lack built
    /// ([`Table::is_filled`]): a goal-bounding table's jump points without
    /// boxes, after [`edited`](Engine::edited) dropped them or a spec's
    /// build ran out of its budget, get theirs until `budget` has passed,
    /// on every core ([`GoalBounds::fill_within`](crate::search::GoalBounds::fill_within));
    /// a subgoal graph that an edit left of the older map is repaired
    /// near the edits and ranked again in one go,
    /// cut at `budget` as a spec's build is at its own
    /// ([`SubgoalGraph::contract_within`](crate::search::SubgoalGraph::contract_within);
    /// [`SubgoalGraph::spec_budget`](crate::search::SubgoalGraph::spec_budget)
    /// is the spec's). `None` when every table is filled. This engine is
    /// unchanged and serves meanwhile (a jump point without boxes prunes
    /// nothing, and a `sub` engine behind its map searches as `jps+`, so
    /// its answers stay optimal); call this from a thread of its own, or in
    /// slices between frames, and move searchers to each engine it returns
    /// ([`EngineSearcher::switch_to`]). An engine edited again meanwhile
    /// fills from its own map: fill the newest.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
    /// use cairns::spec::{Engine, SearchSpec};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("......\n.@....\n......").unwrap(), Neighborhood::Octile);
    /// let engine = Engine::new(graph, &"jps+bb".parse::<SearchSpec>().unwrap()).unwrap();
    /// let bounds = |e: &Engine| e.tables()[0].bounds().map(|b| (b.boxed(), b.jump_points())).unwrap();
    /// let (boxed, points) = bounds(&engine);
    /// assert_eq!(boxed, points);
    /// assert!(engine.filled_within(Duration::from_secs(1)).unwrap().is_none());
    ///
    /// let edited = engine.edited(&[(3, 1, Tile::OutOfBounds)], &mut None).unwrap();
    /// assert_eq!(bounds(&edited).0, 0); // boxes of the older map dropped
    /// let filled = std::thread::spawn(move || edited.filled_within(Duration::from_secs(60)))
    ///     .join()
    ///     .unwrap()
    ///     .unwrap()
    ///     .unwrap();
    /// let (boxed, points) = bounds(&filled);
    /// assert_eq!(boxed, points);
    /// // As a table built on the edited map.
    /// let fresh = Engine::new(filled.graph().clone(), &filled.spec()).unwrap();
    /// assert_eq!(filled.tables(), fresh.tables());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Engine::with_tables`].
    pub fn filled_within(&self, budget: Duration) -> Result<Option<Engine>, SpecError> {
        let tables = self.tables();
        if !self.is_behind() && tables.iter().all(Table::is_filled) {
            return Ok(None);
        }
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
        let stale = self.inner.stale.clone();
        // The tables are this map's: the subgoal graph behind no more.
        let jumps = self.kept_jumps();
        Engine::made(
            self.graph().clone(),
            &self.spec(),
            given,
            stale,
            jumps,
            Vec::new(),
        )
        .map(Some)
    }

    /// This engine's tables of the kinds repaired where cells change
    /// ([`Table::repaired`]: jump and goal-bounding tables), brought to
    /// `graph` after the cells `edited` changed.
    fn tables_repaired(&self, graph: &GridGraph, edited: &[NodeId]) -> Vec<Given> {
        self.tables()
            .iter()
            .filter_map(|table| {
                let t0 = Instant::now();
                let table = table.repaired(graph, edited)?;
                Some(Given {
                    table,
                    seconds: t0.elapsed().as_secs_f64(),
                })
            })
            .collect()
    }
}

/// The `tables` that `keep` accepts, given again as they are (no seconds
/// spent on them).
fn kept(tables: &[Table], keep: impl Fn(&Table) -> bool) -> Vec<Given> {
    tables
        .iter()
        .filter(|t| keep(t))
        .cloned()
        .map(Given::from)
        .collect()
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = &self.inner.graph;
        f.debug_struct("Engine")
            .field("spec", &self.inner.plan.spec.to_string())
            .field("width", &g.width())
            .field("height", &g.height())
            .field("tables", &self.inner.plan.report)
            .finish()
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
/// each call is the boxed search's own, through one more pointer.
pub struct EngineSearcher(SearcherCell);

impl EngineSearcher {
    /// The engine's graph.
    pub fn graph(&self) -> &GridGraph {
        &self.0.borrow_owner().graph
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
    /// let walled = engine.edited(&[(2, 0, Tile::OutOfBounds)], &mut None).unwrap();
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
    use crate::graph::Graph;
    use crate::grid::Neighborhood;
    use crate::landmarks::{Directedness, LandmarkTable};
    use crate::search::testing::scattered;
    use crate::search::{Dijkstra, Search, SearchCache, SubgoalGraph};

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
            let mut repair = None;
            let (w, h) = (engine.graph().width(), engine.graph().height());
            for (x, y, wall) in edits {
                let cell = (x % w, y % h, Tile::wall_if(wall));
                engine = engine.edited_later(&[cell], &mut repair).unwrap();
                answers_as_dijkstra(&engine, start)?;
                let (_, repaired) = engine.repair_step(repair.as_mut().unwrap(), budget).unwrap();
                if let Some(repaired) = repaired {
                    engine = repaired;
                    answers_as_dijkstra(&engine, start)?;
                }
            }
            while engine.is_stale() {
                let (progress, repaired) =
                    engine.repair_step(repair.as_mut().unwrap(), budget).unwrap();
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
                engine = engine.edited(&[(x % w, y % h, Tile::wall_if(wall))], &mut None).unwrap();
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
                let mut repair = None;
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
                        engine.edited_later(&[cell], &mut repair).unwrap()
                    } else {
                        engine.edited(&[cell], &mut repair).unwrap()
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
        JumpTable::clone(engine.inner.subgoal_edits.as_ref().unwrap().jump_table())
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
            engine = engine
                .edited(&[(x, y, Tile::wall_if(wall))], &mut None)
                .unwrap();
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
        let repaired = |e: &Engine| {
            e.inner
                .subgoal_edits
                .as_ref()
                .unwrap()
                .repaired
                .get()
                .is_some()
        };
        let once = engine
            .edited(&[(4, 2, Tile::OutOfBounds)], &mut None)
            .unwrap();
        let twice = once
            .edited_later(&[(5, 3, Tile::OutOfBounds)], &mut None)
            .unwrap();
        let edited = twice.edited(&[(4, 2, Tile::Ground)], &mut None).unwrap();
        for e in [&once, &twice, &edited] {
            assert!(e.is_behind() && !repaired(e));
        }
        answers_as_dijkstra(&edited, NodeId(0)).unwrap();
        assert!(!repaired(&edited));
        assert!(!edited.tables()[0].is_filled());
        assert!(repaired(&edited), "repaired when asked for");
    }

    #[test]
    fn other_specs_are_repaired_at_once() {
        let graph = crate::grid::testing::open_map(9, 6, Neighborhood::Octile);
        for name in ["jps+/dh:2", "jps+", "jps+bb", "sub", "astar"] {
            let engine = Engine::new(graph.clone(), &name.parse().unwrap()).unwrap();
            let edited = engine
                .edited_later(&[(4, 2, Tile::OutOfBounds)], &mut None)
                .unwrap();
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
