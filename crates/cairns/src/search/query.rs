//! Queries with several sources and several goals, run in steps under a
//! budget: [`Query`], [`Budget`], [`Progress`].

use super::core::{Ended, Guide, Limit, run, seed};
use super::{AStar, Edges, Observer, SearchCache, Stop, reopen_for};
use crate::graph::{Graph, NodeId};
use crate::heuristic::Heuristic;
use crate::open::OpenSet;

/// Up to this many goals, A* takes the minimum of the heuristic over the
/// goals; above it, the heuristic is zero (Dijkstra), so that no generated
/// node costs more than this many estimates. A cap, not a tuned value:
/// where the minimum stops paying for itself was not measured.
pub const MIN_OVER_GOALS: usize = 16;

/// Up to this many goals, membership is a scan of the list; above it, a
/// bit per node.
const SCAN_GOALS: usize = 16;

/// Above this many (source, goal) pairs, [`Graph::may_reach`] is not asked
/// for each pair before a search.
const PAIR_CHECKS: usize = 1 << 16;

/// Where a search ended: the goal it reached and the cost of a shortest
/// path to it from the nearest source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reached {
    /// The goal reached (the nearest one; among equally near goals, the
    /// first the search removed from OPEN).
    pub goal: NodeId,
    /// The cost of the path from the nearest source to `goal`.
    pub cost: f64,
}

/// How much one call of [`Query::run`] may do before it pauses.
///
/// A budget caps the expansions of the call (so that a long search can be
/// spread over frames, a few hundred expansions at a time) and the `f` of
/// the nodes it expands: with an admissible heuristic `f = g + h` is at most
/// the cost of the best path through a node, so a search that pauses on its
/// `f` cap has proved that no path costs `max_f` or less.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// At most this many expansions in the call.
    pub expansions: u64,
    /// Expand no node whose `f` is above this.
    pub max_f: f64,
}

impl Budget {
    /// No limit: run to the end.
    pub const UNLIMITED: Budget = Budget {
        expansions: u64::MAX,
        max_f: f64::INFINITY,
    };

    /// At most `n` expansions, any `f`.
    pub fn expansions(n: u64) -> Budget {
        Budget {
            expansions: n,
            ..Budget::UNLIMITED
        }
    }

    /// Any number of expansions, none of a node whose `f` is above
    /// `max_f`.
    pub fn max_f(max_f: f64) -> Budget {
        Budget {
            max_f,
            ..Budget::UNLIMITED
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::UNLIMITED
    }
}

/// What a call of [`Query::run`] ended with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    /// A goal was reached: a shortest path to the nearest goal (with an
    /// admissible heuristic).
    Found(Reached),
    /// Every node reachable from the sources was searched (or none of the
    /// goals can be reached): there is no path.
    NoPath,
    /// The budget ran out first. Run the query again with the same cache to
    /// go on from where it stopped.
    Paused {
        /// The best node so far: among the sources and the expanded nodes,
        /// the one with the lowest heuristic value (the closest to a goal
        /// by the estimate; the first one found among equals). Its path is
        /// in the cache ([`SearchCache::path_into`]); a unit that must move
        /// before the search ends can head for it.
        closest: NodeId,
        /// The cost of the path to `closest`.
        g: f64,
        /// The heuristic value of `closest`.
        h: f64,
    },
}

/// The nodes of `nodes` that are on a graph of `bound` nodes, sorted, each
/// once.
fn on_graph(nodes: &[NodeId], bound: usize) -> Vec<NodeId> {
    let mut list: Vec<NodeId> = nodes
        .iter()
        .copied()
        .filter(|n| n.index() < bound)
        .collect();
    list.sort_unstable();
    list.dedup();
    list
}

/// A set of goal nodes as a [`Stop`] rule: a scan of a short list, or a
/// bit per node for a long one.
#[derive(Clone, Debug)]
pub(crate) struct GoalSet {
    list: Vec<NodeId>,
    bits: Vec<u64>,
}

impl GoalSet {
    /// The goals among `goals` that are on a graph of `bound` nodes.
    pub(crate) fn new(goals: &[NodeId], bound: usize) -> GoalSet {
        let list = on_graph(goals, bound);
        let mut bits = Vec::new();
        if list.len() > SCAN_GOALS {
            bits = vec![0u64; bound.div_ceil(64)];
            for g in &list {
                bits[g.index() / 64] |= 1 << (g.index() % 64);
            }
        }
        GoalSet { list, bits }
    }

    pub(crate) fn nodes(&self) -> &[NodeId] {
        &self.list
    }
}

impl Stop for GoalSet {
    #[inline]
    fn is_goal(&self, node: NodeId) -> bool {
        if self.bits.is_empty() {
            self.list.contains(&node)
        } else {
            self.bits
                .get(node.index() / 64)
                .is_some_and(|w| w >> (node.index() % 64) & 1 == 1)
        }
    }
}

/// The state of a query between runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    /// Not run yet.
    New,
    /// Paused in the cache's search of this generation, on a graph of this
    /// many nodes.
    Running { generation: u32, bound: usize },
    /// Ended.
    Done(Progress),
}

/// A query that [`Search::search_budgeted`](super::Search::search_budgeted)
/// left paused, kept in its cache so that the next call with the same
/// sources and goals goes on from there ([`Query::resume_in`]).
#[derive(Clone, Debug)]
pub(crate) struct Paused {
    sources: Vec<NodeId>,
    goals: Vec<NodeId>,
    generation: u32,
    bound: usize,
    closest: (NodeId, f64, f64),
}

/// The best node so far and the expansion cap of one run, as the loop's
/// [`Limit`].
struct Budgeted {
    left: u64,
    max_f: f64,
    closest: (NodeId, f64, f64),
}

impl Limit for Budgeted {
    #[inline]
    fn spent(&self, expanded: u64) -> bool {
        expanded >= self.left
    }

    #[inline]
    fn over(&self, f: f64) -> bool {
        f > self.max_f
    }

    #[inline]
    fn note(&mut self, node: NodeId, g: f64, h: f64) {
        if h < self.closest.2 {
            self.closest = (node, g, h);
        }
    }
}

/// An A* search from several sources to the nearest of several goals, that
/// can run in steps: each [`run`](Query::run) spends at most a
/// [`Budget`] and returns [`Progress::Paused`] when it runs out; the next
/// run with the same [`SearchCache`] goes on with the same OPEN set and
/// `g`-values, so a search cut into runs of `k` expansions finds the same
/// cost with the same total number of expansions as one run.
///
/// # What it computes
///
/// Every source starts at `g = 0`, so the search finds the cost
/// `min over sources s and goals t of d(s, t)` and a path that realises it
/// (its first node is the source it starts from). The heuristic is the
/// minimum of the engine's estimates to each goal when there are at most
/// [`MIN_OVER_GOALS`] goals: the minimum of admissible estimates is at most
/// the distance to the nearest goal, so it is admissible, and the minimum
/// of consistent estimates is consistent (each is at most `cost(u, v)`
/// plus its own value at `v`). With more goals the heuristic is zero and
/// the search is Dijkstra's. Either way the first goal removed from OPEN is
/// a nearest one.
///
/// Nodes off the graph among the sources and goals are ignored; when none
/// of the goals may be reached from a source ([`Graph::may_reach`]) the
/// query ends with [`Progress::NoPath`] at once.
///
/// # Resuming
///
/// A paused query keeps nothing but what is in the cache. If the cache ran
/// another search in between, the next run starts the query over (the
/// result is the same, the work done before is lost).
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::Octile;
/// use cairns::search::{AStar, Budget, Progress, SearchCache};
///
/// let graph = GridGraph::new(Grid::from_ascii("
///     ....@....
///     .@@.@.@@.
///     .........
/// ").unwrap(), Neighborhood::Octile);
/// let astar = AStar::new(&graph, Octile::new(&graph));
/// let mut cache = SearchCache::new();
/// let node = |x, y| graph.node(x, y).unwrap();
/// let mut query = astar.query(&[node(0, 0)], &[node(8, 0), node(5, 0)]);
/// let mut frames = 0;
/// let reached = loop {
///     frames += 1;
///     match query.run(&mut cache, Budget::expansions(3)) {
///         Progress::Found(reached) => break reached,
///         Progress::NoPath => panic!("the goals are reachable"),
///         Progress::Paused { .. } => {} // move towards `closest`, draw a frame
///     }
/// };
/// assert_eq!(reached.goal, node(5, 0)); // the nearer goal
/// assert_eq!(reached.cost, 9.0);
/// assert!(frames > 1);
/// ```
#[derive(Clone, Debug)]
pub struct Query<'a, G, H: Heuristic> {
    astar: &'a AStar<G, H>,
    sources: Vec<NodeId>,
    goals: GoalSet,
    targets: Vec<H::Goal>,
    state: State,
    closest: (NodeId, f64, f64),
}

impl<G: Graph, H: Heuristic> AStar<G, H> {
    /// A query from every node of `sources` to the nearest node of
    /// `goals`, to [`run`](Query::run) in steps. Allocates its lists of
    /// sources and goals.
    pub fn query(&self, sources: &[NodeId], goals: &[NodeId]) -> Query<'_, G, H> {
        let graph = self.graph();
        let bound = graph.node_bound();
        let mut sources = on_graph(sources, bound);
        let mut goals = GoalSet::new(goals, bound);
        if sources.len().saturating_mul(goals.nodes().len()) <= PAIR_CHECKS {
            // Goals that no source may reach are left out of the set and the
            // heuristic; sources that reach no goal start nothing.
            let keep: Vec<NodeId> = goals
                .nodes()
                .iter()
                .copied()
                .filter(|&t| sources.iter().any(|&s| graph.may_reach(s, t)))
                .collect();
            sources.retain(|&s| keep.iter().any(|&t| graph.may_reach(s, t)));
            if keep.len() < goals.nodes().len() {
                goals = GoalSet::new(&keep, bound);
            }
        }
        let targets = if goals.nodes().len() <= MIN_OVER_GOALS {
            goals
                .nodes()
                .iter()
                .map(|&t| self.heuristic().goal(t))
                .collect()
        } else {
            Vec::new()
        };
        Query {
            astar: self,
            sources,
            goals,
            targets,
            state: State::New,
            closest: (NodeId::NONE, f64::INFINITY, f64::INFINITY),
        }
    }

    /// The nearest of `goals` from any of `sources`, in one search (see
    /// [`Query`] for the heuristic and why the result is a shortest path):
    /// `None` when no goal can be reached. The path is in the cache
    /// afterwards ([`SearchCache::path_into`] of the goal), starting at the
    /// source it comes from.
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood};
    /// use cairns::heuristic::Octile;
    /// use cairns::search::{AStar, SearchCache};
    ///
    /// let graph = GridGraph::new(Grid::from_ascii("
    ///     ....@....
    ///     .@@.@.@@.
    ///     .........
    /// ").unwrap(), Neighborhood::Octile);
    /// let astar = AStar::new(&graph, Octile::new(&graph));
    /// let mut cache = SearchCache::new();
    /// let node = |x, y| graph.node(x, y).unwrap();
    /// // Two units, one exit: the nearer unit's path.
    /// let reached = astar.nearest(&[node(0, 0), node(8, 2)], &[node(8, 0)], &mut cache).unwrap();
    /// assert_eq!(reached.cost, 2.0);
    /// let mut path = Vec::new();
    /// cache.path_into(reached.goal, &mut path);
    /// assert_eq!(path.first(), Some(&node(8, 2)));
    /// ```
    pub fn nearest<Q: OpenSet>(
        &self, sources: &[NodeId], goals: &[NodeId], cache: &mut SearchCache<Q>,
    ) -> Option<Reached> {
        match self.query(sources, goals).run(cache, Budget::UNLIMITED) {
            Progress::Found(reached) => Some(reached),
            Progress::NoPath | Progress::Paused { .. } => None,
        }
    }
}

impl<G: Graph, H: Heuristic> Query<'_, G, H> {
    /// This query, going on from where `cache` holds it paused
    /// ([`keep_in`](Self::keep_in)) when the sources and goals are the
    /// same; [`run`](Self::run) still starts over when the cache has run
    /// another search since.
    pub(crate) fn resume_in<Q>(mut self, cache: &SearchCache<Q>) -> Self {
        if let Some(p) = &cache.paused
            && p.sources == self.sources
            && p.goals == self.goals.nodes()
        {
            self.state = State::Running {
                generation: p.generation,
                bound: p.bound,
            };
            self.closest = p.closest;
        }
        self
    }

    /// Keeps this query in `cache` if it is paused, for the next
    /// [`resume_in`](Self::resume_in); forgets any other.
    pub(crate) fn keep_in<Q>(&self, cache: &mut SearchCache<Q>) {
        cache.paused = match self.state {
            State::Running { generation, bound } => Some(Paused {
                sources: self.sources.clone(),
                goals: self.goals.nodes().to_vec(),
                generation,
                bound,
                closest: self.closest,
            }),
            State::New | State::Done(_) => None,
        };
    }

    /// Runs the search until it reaches a goal, runs out of nodes, or spends
    /// `budget`; the next call goes on from there (with the same cache). A
    /// call after the end returns the same result again.
    pub fn run<Q: OpenSet>(&mut self, cache: &mut SearchCache<Q>, budget: Budget) -> Progress {
        self.run_observed(cache, budget, &mut ())
    }

    /// Like [`run`](Query::run), reporting events to `observer`.
    pub fn run_observed<Q: OpenSet, O: Observer + ?Sized>(
        &mut self, cache: &mut SearchCache<Q>, budget: Budget, observer: &mut O,
    ) -> Progress {
        let graph = self.astar.graph();
        let bound = graph.node_bound();
        let heuristic = self.astar.heuristic();
        let targets = &self.targets;
        let h = |n: NodeId| {
            targets
                .iter()
                .map(|t| heuristic.estimate(n, t))
                .fold(f64::INFINITY, f64::min)
        };
        let h = |n: NodeId| if targets.is_empty() { 0.0 } else { h(n) };
        // The tie-break of the first goal: one goal's in the common case;
        // with several, any tie-break keeps the search optimal.
        let h = Guide {
            h,
            upper: |n: NodeId| {
                targets
                    .first()
                    .map_or(f64::INFINITY, |t| heuristic.upper_bound(n, t))
            },
        };
        let resuming = match self.state {
            State::Done(progress) => return progress,
            State::Running {
                generation,
                bound: b,
            } => cache.generation() == generation && b == bound,
            State::New => false,
        };
        if !resuming {
            cache.begin(bound);
            self.closest = (NodeId::NONE, f64::INFINITY, f64::INFINITY);
            if self.goals.nodes().is_empty() {
                self.state = State::Done(Progress::NoPath);
                return Progress::NoPath;
            }
            for &s in &self.sources {
                if let Some(hs) = seed(cache, bound, s, &h, observer)
                    && hs < self.closest.2
                {
                    self.closest = (s, 0.0, hs);
                }
            }
        }
        let mut limit = Budgeted {
            left: budget.expansions,
            max_f: budget.max_f,
            closest: self.closest,
        };
        let ended = run(
            &Edges(graph),
            &h,
            &self.goals,
            cache,
            observer,
            reopen_for(heuristic.bound()),
            &mut limit,
        );
        self.closest = limit.closest;
        let progress = match ended {
            Ended::Goal(goal, cost) => Progress::Found(Reached { goal, cost }),
            Ended::Empty => Progress::NoPath,
            Ended::Paused => {
                let (closest, g, h) = self.closest;
                self.state = State::Running {
                    generation: cache.generation(),
                    bound,
                };
                return Progress::Paused { closest, g, h };
            }
        };
        self.state = State::Done(progress);
        progress
    }
}
