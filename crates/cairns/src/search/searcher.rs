//! A search bound to its cache, behind one object-safe trait, for tools that
//! choose the search at run time.

use std::fmt;

use super::{Budget, Observer, Progress, Reached, Search, SearchCache, SearchMemory, SearchStats};
use crate::graph::NodeId;
use crate::open::OpenSet;

/// A search with its own cache, answering queries one after another: the
/// runtime-dispatched face of [`Search`] that tools (the CLI, the web page,
/// the scenario runner) hold as `Box<dyn Searcher>`. Each query is one
/// virtual call; the search loop inside stays monomorphised.
///
/// Build one with [`Cached::new`], or from a name with
/// [`SearchSpec`](crate::spec::SearchSpec).
pub trait Searcher {
    /// The cost of a shortest path from `start` to `goal`, or `None` when
    /// there is none or either node is off the graph.
    fn search_cost(&mut self, start: NodeId, goal: NodeId) -> Option<f64>;

    /// Like [`search_cost`](Searcher::search_cost), reporting events to
    /// `observer`.
    fn search_observed(
        &mut self, start: NodeId, goal: NodeId, observer: &mut dyn Observer,
    ) -> Option<f64>;

    /// The nearest of `goals` from any of `sources`
    /// ([`Search::search_nearest`]); the path is then the last query's.
    fn search_nearest(&mut self, sources: &[NodeId], goals: &[NodeId]) -> Option<Reached>;

    /// [`Search::search_budgeted`] in this searcher's cache: one call under
    /// `budget`, `None` for a search that takes no budget. A call that
    /// paused is taken up by the next call with the same sources and goals
    /// (a game's next frame), unless another query ran in between.
    fn search_budgeted(
        &mut self, sources: &[NodeId], goals: &[NodeId], budget: Budget,
    ) -> Option<Progress> {
        let _ = (sources, goals, budget);
        None
    }

    /// Writes the last query's path to `node`, every node from the start,
    /// into `out`; `false` (and `out` empty) when it did not reach `node`.
    fn path_into(&self, node: NodeId, out: &mut Vec<NodeId>) -> bool;

    /// The statistics of the last query.
    fn stats(&self) -> SearchStats;

    /// Whether the last query expanded `node`.
    fn is_closed(&self, node: NodeId) -> bool;

    /// Whether the last query reached `node` (put it on OPEN).
    fn is_reached(&self, node: NodeId) -> bool;

    /// How far above the optimal cost the costs may go
    /// ([`Search::bound`]): 1 for an optimal search.
    fn bound(&self) -> f64;

    /// Sizes and first-touches the search memory for graphs of up to
    /// `node_bound` nodes ([`SearchCache::prepare`]), so that the first
    /// query does not pay for it. Does nothing by default.
    fn prepare(&mut self, node_bound: usize) {
        let _ = node_bound;
    }

    /// Whether the costs are any-angle path lengths ([`Search::any_angle`]).
    fn any_angle(&self) -> bool {
        false
    }

    /// Takes out the per-node memory of this searcher's cache
    /// ([`SearchCache::take_memory`]) for another searcher to reuse
    /// ([`give_memory`](Searcher::give_memory)); this one stays usable and
    /// grows again at its next query. Empty by default.
    fn take_memory(&mut self) -> SearchMemory {
        SearchMemory::default()
    }

    /// Reuses `memory`, taken from another searcher, for this one's cache
    /// ([`SearchCache::give_memory`]), before [`prepare`](Searcher::prepare)
    /// would allocate its own. Drops it by default.
    fn give_memory(&mut self, memory: SearchMemory) {
        drop(memory);
    }
}

/// A [`Search`] and the [`SearchCache`] it reuses, as a [`Searcher`].
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::Octile;
/// use cairns::open::PairingHeap;
/// use cairns::search::{AStar, Cached, SearchCache, Searcher};
///
/// let graph = GridGraph::new(Grid::from_ascii("...\n.@.\n...").unwrap(), Neighborhood::Octile);
/// let mut searcher: Box<dyn Searcher> = Box::new(Cached::new(
///     AStar::new(&graph, Octile::new(&graph)),
///     SearchCache::with_open(PairingHeap::new()),
/// ));
/// let (a, b) = (graph.node(0, 0).unwrap(), graph.node(2, 2).unwrap());
/// assert_eq!(searcher.search_cost(a, b), Some(4.0));
/// let mut path = Vec::new();
/// assert!(searcher.path_into(b, &mut path));
/// assert_eq!(path.len(), 5);
/// ```
pub struct Cached<S, Q> {
    search: S,
    cache: SearchCache<Q>,
}

impl<S, Q> Cached<S, Q> {
    /// `search` with `cache`.
    pub fn new(search: S, cache: SearchCache<Q>) -> Self {
        Cached { search, cache }
    }

    /// The search.
    pub fn search(&self) -> &S {
        &self.search
    }

    /// The cache, as the last query left it.
    pub fn cache(&self) -> &SearchCache<Q> {
        &self.cache
    }
}

impl<S, Q> fmt::Debug for Cached<S, Q> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cached")
            .field("search", &std::any::type_name::<S>())
            .field("open", &std::any::type_name::<Q>())
            .finish_non_exhaustive()
    }
}

impl<S: Search, Q: OpenSet> Searcher for Cached<S, Q> {
    #[inline]
    fn search_cost(&mut self, start: NodeId, goal: NodeId) -> Option<f64> {
        self.search.search_cost(start, goal, &mut self.cache)
    }

    fn search_observed(
        &mut self, start: NodeId, goal: NodeId, observer: &mut dyn Observer,
    ) -> Option<f64> {
        self.search
            .search_observed(start, goal, &mut self.cache, observer)
    }

    fn search_nearest(&mut self, sources: &[NodeId], goals: &[NodeId]) -> Option<Reached> {
        self.search.search_nearest(sources, goals, &mut self.cache)
    }

    fn search_budgeted(
        &mut self, sources: &[NodeId], goals: &[NodeId], budget: Budget,
    ) -> Option<Progress> {
        self.search
            .search_budgeted(sources, goals, &mut self.cache, budget)
    }

    fn path_into(&self, node: NodeId, out: &mut Vec<NodeId>) -> bool {
        self.search.path_into(&self.cache, node, out)
    }

    fn stats(&self) -> SearchStats {
        self.cache.stats()
    }

    fn is_closed(&self, node: NodeId) -> bool {
        self.cache.is_closed(node)
    }

    fn is_reached(&self, node: NodeId) -> bool {
        self.cache.is_reached(node)
    }

    fn bound(&self) -> f64 {
        self.search.bound()
    }

    fn prepare(&mut self, node_bound: usize) {
        self.cache.prepare(node_bound);
    }

    fn take_memory(&mut self) -> SearchMemory {
        self.cache.take_memory()
    }

    fn give_memory(&mut self, memory: SearchMemory) {
        self.cache.give_memory(memory);
    }

    fn any_angle(&self) -> bool {
        self.search.any_angle()
    }
}

/// A searcher that is another one behind a pointer (a boxed searcher, an
/// [`EngineSearcher`](crate::spec::EngineSearcher)): every [`Searcher`]
/// method is the inner one's, in one place.
pub(crate) trait Forward {
    /// The inner searcher.
    fn inner(&self) -> &dyn Searcher;

    /// Runs `f` on the inner searcher.
    fn with_inner<R>(&mut self, f: impl FnOnce(&mut dyn Searcher) -> R) -> R;
}

impl<T: Forward> Searcher for T {
    #[inline]
    fn search_cost(&mut self, start: NodeId, goal: NodeId) -> Option<f64> {
        self.with_inner(|s| s.search_cost(start, goal))
    }

    fn search_observed(
        &mut self, start: NodeId, goal: NodeId, observer: &mut dyn Observer,
    ) -> Option<f64> {
        self.with_inner(|s| s.search_observed(start, goal, observer))
    }

    fn search_nearest(&mut self, sources: &[NodeId], goals: &[NodeId]) -> Option<Reached> {
        self.with_inner(|s| s.search_nearest(sources, goals))
    }

    fn search_budgeted(
        &mut self, sources: &[NodeId], goals: &[NodeId], budget: Budget,
    ) -> Option<Progress> {
        self.with_inner(|s| s.search_budgeted(sources, goals, budget))
    }

    fn path_into(&self, node: NodeId, out: &mut Vec<NodeId>) -> bool {
        self.inner().path_into(node, out)
    }

    fn stats(&self) -> SearchStats {
        self.inner().stats()
    }

    fn is_closed(&self, node: NodeId) -> bool {
        self.inner().is_closed(node)
    }

    fn is_reached(&self, node: NodeId) -> bool {
        self.inner().is_reached(node)
    }

    fn bound(&self) -> f64 {
        self.inner().bound()
    }

    fn prepare(&mut self, node_bound: usize) {
        self.with_inner(|s| s.prepare(node_bound));
    }

    fn take_memory(&mut self) -> SearchMemory {
        self.with_inner(|s| s.take_memory())
    }

    fn give_memory(&mut self, memory: SearchMemory) {
        self.with_inner(|s| s.give_memory(memory));
    }

    fn any_angle(&self) -> bool {
        self.inner().any_angle()
    }
}

/// A boxed searcher (what [`SearchSpec`](crate::spec::SearchSpec) builds)
/// is a searcher, so generic code such as [`batch`](super::batch) takes it.
impl Forward for Box<dyn Searcher + '_> {
    fn inner(&self) -> &dyn Searcher {
        &**self
    }

    #[inline]
    fn with_inner<R>(&mut self, f: impl FnOnce(&mut dyn Searcher) -> R) -> R {
        f(&mut **self)
    }
}

/// The same for a boxed searcher that can be sent to another thread.
impl Forward for Box<dyn Searcher + Send + '_> {
    fn inner(&self) -> &dyn Searcher {
        &**self
    }

    #[inline]
    fn with_inner<R>(&mut self, f: impl FnOnce(&mut dyn Searcher) -> R) -> R {
        f(&mut **self)
    }
}
