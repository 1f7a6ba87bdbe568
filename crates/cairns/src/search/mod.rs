//! Searches: A*, Dijkstra, jump point search (online and JPS+) and
//! breadth-first search over
//! [`Graph`]s with a reusable [`SearchCache`], and a
//! closure-based A* for ad-hoc graphs.
//!
//! # One loop, one trait
//!
//! A*, Dijkstra and jump point search run through one best-first loop,
//! [`best_first`]; what differs between them (how successors are produced,
//! the heuristic, the OPEN set, when to stop) is a type parameter, so each
//! combination is compiled to its own plain loop. Every search implements
//! [`Search`] (`search`, `search_cost`, `search_observed`, `path_into`), so
//! tools handle them alike; a [`Searcher`] is a search bound to its cache,
//! as a trait object for tools that pick a search at run time (see
//! [`crate::spec`]).
//!
//! # Reusing memory
//!
//! A [`SearchCache`] holds everything a search writes: each node's `g`,
//! heuristic value, parent and state, and the OPEN set. It is sized on first
//! use; later searches on graphs of the same size allocate nothing. Instead of
//! clearing the per-node arrays, each search takes a new *generation* number,
//! and a node's record counts only if it is stamped with the current one.

/// `From` the table, owned or borrowed, for `Cow` of a preprocessed
/// search's table, so that its constructors take either.
macro_rules! cow_from {
    ($($table:ty),*) => {$(
        impl From<$table> for std::borrow::Cow<'_, $table> {
            fn from(table: $table) -> Self {
                std::borrow::Cow::Owned(table)
            }
        }

        impl<'a> From<&'a $table> for std::borrow::Cow<'a, $table> {
            fn from(table: &'a $table) -> Self {
                std::borrow::Cow::Borrowed(table)
            }
        }
    )*};
}

cow_from!(JumpTable, SubgoalGraph, GoalBounds);

/// The part of a [`TowardGoal`] impl that every search on a grid writes
/// alike: the graph searched is the struct's `graph: &GridGraph`, the
/// heuristic its `heuristic`, and the expander the type given.
macro_rules! on_grid {
    ($expander:ty) => {
        type Graph = crate::grid::GridGraph;
        type Heuristic = H;
        type Expander<'a>
            = $expander
        where
            Self: 'a;

        fn searched(&self) -> &crate::grid::GridGraph {
            self.graph
        }

        fn guide(&self) -> &H {
            &self.heuristic
        }
    };
}

/// The [`TowardGoal`] impl of a search along its `graph`'s edges, A* and
/// Dijkstra, guided by a `$heuristic` that `$guide` gives: one best-first
/// search from all sources answers its nearest-goal and budgeted queries
/// ([`TowardGoal::one_query`]).
macro_rules! along_edges {
    ($heuristic:ty, |$s:ident| $guide:expr) => {
        type Graph = G;
        type Heuristic = $heuristic;
        type Expander<'a>
            = Edges<&'a G>
        where
            Self: 'a;

        fn searched(&self) -> &G {
            &self.graph
        }

        fn guide(&$s) -> &$heuristic {
            $guide
        }

        fn one_query(&self) -> bool {
            true
        }

        #[inline]
        fn expander(&self, _goal: NodeId) -> Edges<&G> {
            Edges(&self.graph)
        }
    };
}

mod astar;
mod batch;
mod bfs;
pub(crate) mod bidirectional;
mod boxes;
mod budgeted;
mod closure;
mod contraction;
mod core;
mod dijkstra;
mod field;
mod focal;
mod goal_bounds;
mod jps;
mod jps_plus;
mod lazy_heap;
mod pulled;
mod query;
mod searcher;
mod subgoals;
#[cfg(test)]
pub(crate) mod testing;
mod theta;

pub use self::core::{Edges, Exhaust, Expand, Guide, Reopen, Stop, best_first};
pub use astar::AStar;
pub use batch::{BatchResult, batch};
pub use bfs::Bfs;
pub use bidirectional::{BiCache, BidirectionalAlt, BidirectionalDijkstra};
pub use budgeted::Budgeted;
pub use closure::astar_fn;
pub use contraction::{
    ChCache, ContractionHierarchy, ContractionParams, DistanceMatrix, HubLabels,
};
pub use dijkstra::Dijkstra;
pub use field::DistanceField;
pub use focal::Focal;
pub use goal_bounds::GoalBounds;
pub use jps::JumpPointSearch;
pub use jps_plus::{JumpPointSearchPlus, JumpTable};
pub use pulled::StringPulled;
pub use query::{Budget, MIN_OVER_GOALS, Progress, Query, Reached};
pub(crate) use searcher::Forward;
pub use searcher::{Cached, Searcher};
pub use subgoals::{SubgoalGraph, SubgoalSearch};
pub use theta::ThetaStar;

use crate::graph::{Graph, NodeId};
use crate::heuristic::Heuristic;
use crate::open::{OpenSet, QuaternaryHeap};

/// Optimal searches reopen closed nodes that get a cheaper path (so an
/// admissible but inconsistent heuristic stays optimal); bounded-suboptimal
/// ones (a heuristic with a [`bound`](crate::heuristic::Heuristic::bound)
/// above 1) never do, which is what makes them fast.
fn reopen_for(bound: f64) -> Reopen {
    if bound > 1.0 { Reopen::No } else { Reopen::Yes }
}

/// A search that is one [`best_first`] loop toward one goal: an
/// [`Expand`]er guided by a [`Heuristic`]. A*, Dijkstra, jump point search
/// and JPS+ implement it and get [`Search`] from it, so what a one-goal
/// query does around the loop is written once: the reachability check,
/// the goal prepared for the heuristic, reopening only for optimal
/// searches, the bound, and the path filled in from the cache's links.
pub(crate) trait TowardGoal {
    /// The graph whose [`may_reach`](Graph::may_reach) answers "no path".
    type Graph: Graph;
    /// The heuristic that guides the loop.
    type Heuristic: Heuristic;
    /// The successors of one query toward `goal`.
    type Expander<'a>: Expand
    where
        Self: 'a;

    /// The graph searched.
    fn searched(&self) -> &Self::Graph;

    /// The heuristic.
    fn guide(&self) -> &Self::Heuristic;

    /// The expander for a query toward `goal`.
    fn expander(&self, goal: NodeId) -> Self::Expander<'_>;

    /// Turns the nodes the cache links (start first) into the path's
    /// nodes; jump point searches fill in the runs between jump points.
    fn fill_path(&self, path: &mut Vec<NodeId>) {
        let _ = path;
    }

    /// Whether the loop reopens closed nodes: for optimal searches (a
    /// heuristic bound of 1), not for bounded-suboptimal ones.
    fn reopen(&self) -> Reopen {
        reopen_for(self.guide().bound())
    }

    /// [`Search::any_angle`]: `false` but for Theta*.
    fn any_angle(&self) -> bool {
        false
    }

    /// The cost a search that reached `goal` at `g` reports: `g`, but for
    /// Theta*, the length of the path the cache links.
    fn reached_cost<Q: OpenSet>(&self, cache: &SearchCache<Q>, goal: NodeId, g: f64) -> f64 {
        let _ = (cache, goal);
        g
    }

    /// Whether one best-first search from all sources answers
    /// [`Search::search_nearest`] and [`Search::search_budgeted`] (an
    /// [`AStar::query`] on the same graph and heuristic): A* and Dijkstra.
    /// Otherwise a nearest-goal query is one search per (source, goal)
    /// pair and a budgeted one is not supported.
    fn one_query(&self) -> bool {
        false
    }
}

impl<T: TowardGoal> Search for T {
    fn bound(&self) -> f64 {
        self.guide().bound()
    }

    #[inline]
    fn search_observed<Q: OpenSet, O: Observer + ?Sized>(
        &self, start: NodeId, goal: NodeId, cache: &mut SearchCache<Q>, observer: &mut O,
    ) -> Option<f64> {
        if cache.no_path_known(self.searched(), start, goal) {
            return None;
        }
        let heuristic = self.guide();
        let target = heuristic.goal_for(start, goal);
        let g = best_first(
            &self.expander(goal),
            &Guide {
                h: |n| heuristic.estimate(n, &target),
                upper: |n| heuristic.upper_bound(n, &target),
            },
            start,
            &goal,
            cache,
            observer,
            self.reopen(),
        )?;
        Some(self.reached_cost(cache, goal, g))
    }

    fn any_angle(&self) -> bool {
        TowardGoal::any_angle(self)
    }

    fn path_into<Q: OpenSet>(
        &self, cache: &SearchCache<Q>, node: NodeId, out: &mut Vec<NodeId>,
    ) -> bool {
        if !cache.path_into(node, out) {
            return false;
        }
        self.fill_path(out);
        true
    }

    fn search_nearest<Q: OpenSet>(
        &self, sources: &[NodeId], goals: &[NodeId], cache: &mut SearchCache<Q>,
    ) -> Option<Reached> {
        if self.one_query() {
            AStar::new(self.searched(), self.guide()).nearest(sources, goals, cache)
        } else {
            nearest_by_pairs(self, sources, goals, cache)
        }
    }

    fn search_budgeted<Q: OpenSet>(
        &self, sources: &[NodeId], goals: &[NodeId], cache: &mut SearchCache<Q>, budget: Budget,
    ) -> Option<Progress> {
        self.one_query().then(|| {
            let astar = AStar::new(self.searched(), self.guide());
            let mut query = astar.query(sources, goals).resume_in(cache);
            let progress = query.run(cache, budget);
            query.keep_in(cache);
            progress
        })
    }
}

/// What every search does: find the cost of a shortest path from a start to
/// a goal in a reusable [`SearchCache`], report its events to an
/// [`Observer`], and write the path it found.
///
/// Implement [`search_observed`](Search::search_observed) (and
/// [`path_into`](Search::path_into) when the cache's parent links are not
/// the path's cells, as in jump point search); the rest follows.
pub trait Search {
    /// Finds the cost of a shortest path from `start` to `goal`, reporting
    /// each expansion and each improvement to `observer`. Returns `None`
    /// when the goal cannot be reached or either node is not on the graph.
    /// Statistics are in [`SearchCache::stats`] afterwards.
    fn search_observed<Q: OpenSet, O: Observer + ?Sized>(
        &self, start: NodeId, goal: NodeId, cache: &mut SearchCache<Q>, observer: &mut O,
    ) -> Option<f64>;

    /// Like [`search_observed`](Search::search_observed) without an
    /// observer: the cost only; the path stays in the cache
    /// ([`path_into`](Search::path_into)). After the first call on a graph
    /// of the same size, this allocates nothing.
    #[inline]
    fn search_cost<Q: OpenSet>(
        &self, start: NodeId, goal: NodeId, cache: &mut SearchCache<Q>,
    ) -> Option<f64> {
        self.search_observed(start, goal, cache, &mut ())
    }

    /// Writes every node of the last search's path to `node` into `out`
    /// (cleared first, start first) and returns `true`, or returns `false`
    /// and leaves `out` empty when that search did not reach `node`.
    /// Reuses `out`'s memory.
    fn path_into<Q: OpenSet>(
        &self, cache: &SearchCache<Q>, node: NodeId, out: &mut Vec<NodeId>,
    ) -> bool {
        cache.path_into(node, out)
    }

    /// How far above the optimal cost the costs this search returns may go:
    /// 1 for an optimal search (the default), `w` for weighted A*.
    fn bound(&self) -> f64 {
        1.0
    }

    /// The nearest of `goals` from any of `sources` (nodes off the graph
    /// ignored), with the path left in the cache
    /// ([`path_into`](Search::path_into) of the goal reached): `None` when
    /// no goal can be reached. [`AStar`] and [`Dijkstra`] answer in one
    /// search ([`AStar::nearest`]); the default runs one search per
    /// (source, goal) pair, keeps the cheapest and runs it again for its
    /// path, so the statistics are those of that last search.
    fn search_nearest<Q: OpenSet>(
        &self, sources: &[NodeId], goals: &[NodeId], cache: &mut SearchCache<Q>,
    ) -> Option<Reached> {
        nearest_by_pairs(self, sources, goals, cache)
    }

    /// One call of a search from `sources` to the nearest of `goals` under
    /// `budget` ([`Query::run`]): where it ended, or `Paused` with the best
    /// node so far when the budget ran out. The next call with the same
    /// sources and goals and the same cache goes on from there, as the
    /// next [`Query::run`] does, unless the cache ran another search in
    /// between (then it starts over: the same answer, the work before
    /// lost). `None` for a search that takes
    /// no budget: A* and Dijkstra do (through [`AStar::query`]), jump point
    /// searches, Theta* and focal search do not.
    fn search_budgeted<Q: OpenSet>(
        &self, sources: &[NodeId], goals: &[NodeId], cache: &mut SearchCache<Q>, budget: Budget,
    ) -> Option<Progress> {
        let _ = (sources, goals, cache, budget);
        None
    }

    /// Whether the costs are lengths of any-angle paths (straight segments
    /// between cell centres, [`ThetaStar`]) rather than of paths along the
    /// graph's edges: such a cost is checked against the straight-line
    /// distance and the graph's optimum, not equal to the latter.
    fn any_angle(&self) -> bool {
        false
    }

    /// A shortest path from `start` to `goal` as a new [`Path`], or `None`
    /// when there is none or either node is off the graph.
    fn search<Q: OpenSet>(
        &self, start: NodeId, goal: NodeId, cache: &mut SearchCache<Q>,
    ) -> Option<Path> {
        let cost = self.search_cost(start, goal, cache)?;
        let mut nodes = Vec::new();
        self.path_into(cache, goal, &mut nodes);
        Some(Path { nodes, cost })
    }
}

/// The nearest of `goals` from any of `sources` by one search per (source,
/// goal) pair: the cheapest is searched again so its path is in the cache.
fn nearest_by_pairs<S: Search + ?Sized, Q: OpenSet>(
    search: &S, sources: &[NodeId], goals: &[NodeId], cache: &mut SearchCache<Q>,
) -> Option<Reached> {
    let mut best: Option<(NodeId, NodeId, f64)> = None;
    for &s in sources {
        for &t in goals {
            if let Some(cost) = search.search_cost(s, t, cache)
                && best.is_none_or(|(_, _, c)| cost < c)
            {
                best = Some((s, t, cost));
            }
        }
    }
    let (s, goal, _) = best?;
    let cost = search.search_cost(s, goal, cache)?;
    Some(Reached { goal, cost })
}

/// A path found by a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Path<N = NodeId, C = f64> {
    /// The nodes from the start to the goal, both included.
    pub nodes: Vec<N>,
    /// The sum of the edge costs along the path.
    pub cost: C,
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes removed from OPEN and expanded (their successors generated).
    pub expanded: u64,
    /// Edges looked at while expanding (successors generated).
    pub generated: u64,
    /// Times a node already on OPEN got a better `g` (decrease-key).
    pub updated: u64,
    /// Times a closed node got a better `g` and went back on OPEN. Zero with
    /// a consistent heuristic.
    pub reopened: u64,
    /// The largest number of entries OPEN held at once.
    pub max_open: u64,
}

/// Events of a search, for visualisers and instrumentation. Every method
/// does nothing by default, and `()` implements the trait, so a search
/// without an observer compiles to the plain loop.
pub trait Observer {
    /// `node` was removed from OPEN and is being expanded, with its `g` and
    /// heuristic value.
    #[inline]
    fn expand(&mut self, node: NodeId, g: f64, h: f64) {
        let _ = (node, g, h);
    }

    /// `node` was reached from `parent` with cost `g` and put on OPEN (or
    /// had its key improved).
    #[inline]
    fn open(&mut self, node: NodeId, parent: NodeId, g: f64) {
        let _ = (node, parent, g);
    }
}

impl Observer for () {}

impl<O: Observer + ?Sized> Observer for &mut O {
    #[inline]
    fn expand(&mut self, node: NodeId, g: f64, h: f64) {
        (**self).expand(node, g, h);
    }

    #[inline]
    fn open(&mut self, node: NodeId, parent: NodeId, g: f64) {
        (**self).open(node, parent, g);
    }
}

/// What a search knows about one node: 24 bytes. Records of 16 bytes
/// (the heuristic value recomputed on a decrease-key) were no faster under
/// the octile heuristic and slower under landmarks (docs/performance.md).
#[derive(Clone, Copy, Debug)]
struct NodeRecord {
    /// Best known cost from the start; [`DEAD_END`] for a node the heuristic
    /// proved cannot reach the goal.
    g: f64,
    /// The heuristic value, kept so that a decrease-key need not
    /// recompute it (landmark estimates are not cheap).
    h: f64,
    parent: NodeId,
    /// `2 * generation` while open, `2 * generation + 1` once closed; any
    /// smaller value means "not reached in this search".
    stamp: u32,
}

impl NodeRecord {
    /// The record of a node the heuristic proved cannot reach the goal
    /// (`h` infinite), generated from `parent`: closed at once with
    /// `closed_stamp`, never expanded.
    #[inline]
    fn dead_end(parent: NodeId, closed_stamp: u32) -> NodeRecord {
        NodeRecord {
            g: DEAD_END,
            h: f64::INFINITY,
            parent,
            stamp: closed_stamp,
        }
    }
}

/// Whether subgoal graph search runs on `graph` with a table that `fits`
/// it (has its size): octile movement without terrain costs, as
/// `spec/rules.rs` states for `sub`. (JPS+ takes every rule, its table
/// checking its own; goal bounding's table checks for octile movement in
/// [`GoalBounds::fits`].)
pub(crate) fn grid_table_runs_on(graph: &crate::grid::GridGraph, fits: bool) -> bool {
    graph.neighborhood() == crate::grid::Neighborhood::Octile && !graph.has_terrain() && fits
}

/// Takes the next generation of a cache whose per-node stamps are written
/// under `generation`, after `forget` zeroed every stamp when `generation`
/// reached `last` (once in billions of searches): the stamps of earlier
/// searches never read as this one's.
#[inline]
pub(crate) fn next_generation(generation: &mut u32, last: u32, forget: impl FnOnce()) {
    if *generation >= last {
        forget();
        *generation = 0;
    }
    *generation += 1;
}

/// Whether a path of cost `g` to a closed node whose best is `old` is too
/// small a gain to reopen it for: a difference of summing the same costs
/// in another order (relative 1e-9), not a shorter path.
#[inline]
fn negligible_gain(g: f64, old: f64) -> bool {
    g >= old - 1e-9 * (1.0 + old)
}

const UNSEEN: NodeRecord = NodeRecord {
    g: f64::INFINITY,
    h: 0.0,
    parent: NodeId::NONE,
    stamp: 0,
};

/// The `g` of a node that the heuristic proved to be a dead end: closed,
/// never expanded, and never improved (nothing is below it).
const DEAD_END: f64 = f64::NEG_INFINITY;

/// The per-node memory of a [`SearchCache`] (its records and its queue's
/// room), taken out of one cache ([`SearchCache::take_memory`]) to be
/// given to another ([`SearchCache::give_memory`]), so that a cache for a
/// new graph of the same size (an edited map) need not allocate and
/// first-touch memory of its own: on a 512x512 map that is 7 MiB, about
/// as long as a one-cell edit of the engine itself.
#[derive(Default)]
pub struct SearchMemory {
    records: Vec<NodeRecord>,
    queue: Vec<NodeId>,
    /// The generation the records' stamps were written under.
    generation: u32,
}

impl SearchMemory {
    /// Whether it holds no memory to reuse (a new one, or one taken from
    /// a cache that had none).
    pub fn is_empty(&self) -> bool {
        self.records.is_empty() && self.queue.capacity() == 0
    }
}

impl std::fmt::Debug for SearchMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchMemory")
            .field("nodes", &self.records.len())
            .finish_non_exhaustive()
    }
}

/// The memory of a search, reused across queries: per-node records stamped
/// with a generation number, the OPEN set `Q`, a queue for breadth-first
/// search and the statistics of the last search.
///
/// After a search the cache answers questions about it: the distance to a
/// node ([`g`](SearchCache::g)), whether it was expanded
/// ([`is_closed`](SearchCache::is_closed)) and the path to it
/// ([`path_into`](SearchCache::path_into)).
#[derive(Clone, Debug)]
pub struct SearchCache<Q = QuaternaryHeap> {
    records: Vec<NodeRecord>,
    generation: u32,
    open: Q,
    queue: Vec<NodeId>,
    /// The lists of [`Focal`] search, empty for the others.
    focal: focal::FocalLists,
    stats: SearchStats,
    /// The query [`Search::search_budgeted`] left paused in this cache.
    paused: Option<query::Paused>,
}

impl SearchCache<QuaternaryHeap> {
    /// An empty cache with the default OPEN set. It grows on first use.
    pub fn new() -> Self {
        Self::with_open(QuaternaryHeap::new())
    }
}

impl Default for SearchCache<QuaternaryHeap> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Q: OpenSet> SearchCache<Q> {
    /// An empty cache with the given OPEN set.
    pub fn with_open(open: Q) -> Self {
        SearchCache {
            records: Vec::new(),
            generation: 0,
            open,
            queue: Vec::new(),
            focal: focal::FocalLists::default(),
            stats: SearchStats::default(),
            paused: None,
        }
    }

    /// Sizes the cache for graphs of up to `node_bound` nodes and writes
    /// every per-node record and the OPEN set's per-node array once, so
    /// that the first search does not pay for allocating and first
    /// touching them (0.7 to 11 ms on the dao maps, 23.5 MB of records on
    /// orz900d). Searches call it themselves when the cache is too small;
    /// call it beforehand to keep that work out of a timed query.
    /// [`SearchSpec`](crate::spec::SearchSpec)'s searchers come prepared.
    ///
    /// ```
    /// use cairns::search::SearchCache;
    ///
    /// let mut cache = SearchCache::new();
    /// cache.prepare(1 << 16);   // before the first, timed, query
    /// ```
    pub fn prepare(&mut self, node_bound: usize) {
        if self.records.len() < node_bound {
            // `resize` writes every new record: the pages are touched here.
            self.records.resize(node_bound, UNSEEN);
        }
        self.open.prepare(node_bound);
        // Breadth-first search queues each node at most once.
        if self.queue.capacity() < node_bound {
            self.queue.reserve(node_bound);
        }
    }

    /// Takes out the per-node memory (records and queue) for another cache
    /// to reuse ([`give_memory`](Self::give_memory)). This cache is left
    /// as if new, but for its OPEN set's room: it grows again at its next
    /// search.
    pub fn take_memory(&mut self) -> SearchMemory {
        self.open.clear();
        self.stats = SearchStats::default();
        self.paused = None;
        SearchMemory {
            records: std::mem::take(&mut self.records),
            queue: std::mem::take(&mut self.queue),
            generation: std::mem::take(&mut self.generation),
        }
    }

    /// Takes `memory` from another cache ([`take_memory`](Self::take_memory))
    /// if it has room for more nodes than this one's, dropping this one's:
    /// the searches (and [`prepare`](Self::prepare)) then allocate nothing
    /// up to that many nodes. Whatever the last search left in this cache
    /// is forgotten; no node of the records given reads as reached (the
    /// cache goes on from a generation after theirs).
    pub fn give_memory(&mut self, memory: SearchMemory) {
        if memory.records.len() > self.records.len() {
            self.records = memory.records;
            // Every stamp is at most `2 * generation + 1`, so none reads
            // as reached or closed one generation later.
            self.generation = memory.generation + 1;
            self.open.clear();
            self.stats = SearchStats::default();
            self.paused = None;
        }
        if memory.queue.capacity() > self.queue.capacity() {
            self.queue = memory.queue;
            self.queue.clear();
        }
    }

    /// Starts a search on a graph of `node_bound` nodes: grows the arrays if
    /// needed ([`prepare`](Self::prepare)), empties OPEN and takes a new
    /// generation.
    fn begin(&mut self, node_bound: usize) {
        self.prepare(node_bound);
        self.open.clear();
        self.queue.clear();
        self.stats = SearchStats::default();
        let records = &mut self.records;
        next_generation(&mut self.generation, u32::MAX / 2 - 1, || {
            for r in records.iter_mut() {
                r.stamp = 0;
            }
        });
    }

    /// For the searches' entry points: whether `node` is off a graph of
    /// `node_bound` nodes, in which case the cache is left as after a search
    /// that found nothing.
    #[inline]
    fn off_graph(&mut self, node: NodeId, node_bound: usize) -> bool {
        let off = node.index() >= node_bound;
        if off {
            self.begin(node_bound);
        }
        off
    }

    /// For the searches' entry points: whether a query from `start` to
    /// `goal` is answered "no path" without a search, because the goal is
    /// off the graph or the graph knows it unreachable
    /// ([`Graph::may_reach`]), in which case the cache is left as after a
    /// search that expanded nothing.
    #[inline]
    fn no_path_known<G: Graph + ?Sized>(&mut self, graph: &G, start: NodeId, goal: NodeId) -> bool {
        let bound = graph.node_bound();
        let known = goal.index() >= bound || !graph.may_reach(start, goal);
        if known {
            self.begin(bound);
        }
        known
    }

    /// The generation of the current search: a paused [`Query`] goes on
    /// only in the search it began.
    #[inline]
    fn generation(&self) -> u32 {
        self.generation
    }

    #[inline]
    fn open_stamp(&self) -> u32 {
        2 * self.generation
    }

    #[inline]
    fn closed_stamp(&self) -> u32 {
        2 * self.generation + 1
    }

    #[inline]
    fn record(&self, node: NodeId) -> Option<&NodeRecord> {
        self.records
            .get(node.index())
            .filter(|r| r.stamp >= 2 * self.generation && self.generation > 0 && r.g != DEAD_END)
    }

    /// The statistics of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The best cost the last search found from its start to `node`, or
    /// `None` if it did not reach the node. For expanded (closed) nodes this
    /// is the exact distance when the heuristic was consistent.
    pub fn g(&self, node: NodeId) -> Option<f64> {
        self.record(node).map(|r| r.g)
    }

    /// Whether the last search reached `node` (put it on OPEN at some point).
    /// Nodes that the heuristic proved to be dead ends are not counted.
    pub fn is_reached(&self, node: NodeId) -> bool {
        self.record(node).is_some()
    }

    /// Whether the last search expanded `node` (or reached it as the goal).
    /// Nodes that the heuristic proved to be dead ends are not counted.
    pub fn is_closed(&self, node: NodeId) -> bool {
        self.record(node)
            .is_some_and(|r| r.stamp == self.closed_stamp())
    }

    /// The node from which the last search reached `node`.
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        self.record(node)
            .map(|r| r.parent)
            .filter(|&p| p != NodeId::NONE)
    }

    /// Every node the last search expanded, in id order. Scans the whole
    /// record array: meant for renderers, not for hot loops.
    pub fn closed_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        let closed = self.closed_stamp();
        (0..self.records.len())
            .filter(move |&i| {
                let r = &self.records[i];
                self.generation > 0 && r.stamp == closed && r.g != DEAD_END
            })
            .map(|i| NodeId(i as u32))
    }

    /// Writes the path of the last search from its start to `node` into
    /// `out` (cleared first) and returns `true`, or returns `false` and
    /// leaves `out` empty if the search did not reach `node`. Reuses `out`'s
    /// memory, so a batch of queries allocates nothing.
    pub fn path_into(&self, node: NodeId, out: &mut Vec<NodeId>) -> bool {
        out.clear();
        out.extend(self.links(node));
        out.reverse();
        !out.is_empty()
    }

    /// The nodes the parent links of the last search give from `node`
    /// back towards its start, `node` first; nothing if the search did not
    /// reach `node`. At most one more than there are records, so that
    /// links that loop cannot run forever.
    fn links(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let first = self.record(node).map(|_| node);
        std::iter::successors(first, |&n| self.parent(n)).take(self.records.len() + 1)
    }

    /// The path of the last search to `node` as a new [`Path`].
    pub fn path_to(&self, node: NodeId) -> Option<Path> {
        let mut nodes = Vec::new();
        let cost = self.g(node)?;
        self.path_into(node, &mut nodes);
        Some(Path { nodes, cost })
    }

    /// The OPEN set, as the last search left it.
    pub fn open_set(&self) -> &Q {
        &self.open
    }
}
