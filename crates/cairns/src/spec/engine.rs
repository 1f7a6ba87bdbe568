//! An engine that owns its map: the graph and the tables behind an
//! [`Arc`], handing out searchers with caches of their own to any thread.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use super::construct::{BoxedSearcher, build_searcher};
use super::error::SpecError;
use super::names::SearchSpec;
use super::prepare::{Plan, Prepared};
use super::tables::{Given, Table, TableReport};
use crate::grid::{GridGraph, Tile};
use crate::landmarks::IncrementalTable;
use crate::search::{Forward, Searcher};

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
        let plan = spec.prepare_with(&graph, given)?.plan;
        Ok(Engine {
            inner: Arc::new(EngineData { graph, plan }),
        })
    }

    /// The graph.
    pub fn graph(&self) -> &GridGraph {
        &self.inner.graph
    }

    /// The resolved spec.
    pub fn spec(&self) -> SearchSpec {
        self.inner.plan.spec
    }

    /// The tables.
    pub fn tables(&self) -> &[Table] {
        &self.inner.plan.tables
    }

    /// What preparation built or took, per table.
    pub fn report(&self) -> &[TableReport] {
        &self.inner.plan.report
    }

    /// The engine as a borrowing [`Prepared`] (sharing the tables, not
    /// copying them), for what that type reports: the heuristic's label,
    /// the landmark nodes, the preprocessing time and bytes.
    pub fn prepared(&self) -> Prepared<'_> {
        Prepared {
            graph: &self.inner.graph,
            plan: self.inner.plan.clone(),
        }
    }

    /// An engine with this one's spec on its map with `cells` changed
    /// (each `(x, y, tile)`; a cell off the map is left out), the tables
    /// kept exact: a landmark table repaired, not rebuilt, through
    /// `repair` (the [`IncrementalTable`] that follows this engine's
    /// edits: `None` makes one from its table, and the next edit of the
    /// engine returned takes the same one), a jump table repaired near the
    /// edits ([`JumpTable::repair`](crate::search::JumpTable::repair)), the
    /// other tables built again.
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
        let landmarks = self.tables().iter().find_map(Table::landmarks);
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
        if let Some(jumps) = self.tables().iter().find_map(Table::jumps) {
            let t0 = Instant::now();
            let mut jumps = jumps.clone();
            jumps.repair(&graph, &edited);
            given.push(Given {
                table: Table::from(jumps),
                seconds: t0.elapsed().as_secs_f64(),
            });
        }
        Engine::with_tables(graph, &self.spec(), given)
    }

    /// A new searcher with a cache of its own, owning a share of the
    /// engine: one per thread.
    pub fn searcher(&self) -> EngineSearcher {
        EngineSearcher(SearcherCell::new(Arc::clone(&self.inner), |data| {
            let graph = &data.graph;
            build_searcher(data.plan.spec, graph, &data.plan.tables, None)
        }))
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
