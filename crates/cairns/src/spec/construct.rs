//! Construction: the one place where a resolved spec's names become
//! types, monomorphised once per combination and boxed behind
//! [`Searcher`].

use std::borrow::Cow;

use super::error::{SpecError, SpecErrorKind};
use super::names::{
    ADAPT_PROBABILITY, Algorithm, HeuristicSpec, LandmarkMode, PLACEMENT_SEED, SearchSpec,
};
use super::tables::{Table, compressed_for};
use crate::graph::{Graph, NodeId};
use crate::grid::{Canonical, GridGraph};
use crate::heuristic::{Euclidean, Heuristic, Manhattan, Octile, Weighted, Zero};
use crate::landmarks::research::{AdaptiveLandmarks, CompressedHeuristic, CompressedTable};
use crate::landmarks::{
    DifferentialHeuristic, LandmarkTable, MapChanges, OwnedTable, OwnedTableAStar, SafeDifferential,
};
use crate::open::OpenKind;
use crate::search::{
    AStar, Bfs, Budgeted, Cached, Dijkstra, Focal, GoalBounds, JumpPointSearch,
    JumpPointSearchPlus, JumpTable, SearchCache, StringPulled, SubgoalGraph, SubgoalSearch,
    ThetaStar,
};
use crate::search::{SearchMemory, Searcher};
use crate::with_boxed_open;

/// A searcher that a [`Prepared`](super::Prepared) spec or an
/// [`Engine`](super::Engine) hands out: any search, with its own cache,
/// movable to another thread.
pub type BoxedSearcher<'a> = Box<dyn Searcher + Send + 'a>;

/// Binds `$h` to the heuristic of `$spec` and evaluates `$body`, once per
/// heuristic type; the `jump` form only for the heuristics jump points and
/// canonical ordering take (checked by `resolve`).
macro_rules! with_heuristic {
    ($spec:expr, $graph:expr, $table:expr, |$h:ident| $body:expr) => {
        match $spec {
            HeuristicSpec::Zero => {
                let $h = Zero;
                $body
            }
            HeuristicSpec::Manhattan => {
                let $h = Manhattan::new($graph);
                $body
            }
            HeuristicSpec::Euclidean => {
                let $h = Euclidean::new($graph);
                $body
            }
            other => with_heuristic!(jump other, $graph, $table, |$h| $body),
        }
    };
    (jump $spec:expr, $graph:expr, $table:expr, |$h:ident| $body:expr) => {
        match ($spec, $table) {
            (HeuristicSpec::Landmarks { mode, .. }, Some(table)) => {
                let dh = DifferentialHeuristic::new(table, Octile::new($graph));
                // `FromStr` keeps `best` within 1 to `MAX_BEST`; above the
                // table's landmark count, `with_best` uses them all. The
                // A*-only modes never get here (`build_searcher`).
                let $h = match mode {
                    LandmarkMode::Best(n) => dh.with_best(n),
                    _ => dh,
                };
                $body
            }
            // `searcher` checked that a landmark heuristic has its table.
            _ => {
                let $h = Octile::new($graph);
                $body
            }
        }
    };
}

/// The searcher of a search on the grid that takes the jump heuristics:
/// `$make`, with `$h` bound to the heuristic, gives it or `None`, which
/// only a combination that `resolve` refuses (no octile movement), or a
/// table of another size that `prepare_with` and `searcher` refuse, can
/// get; then plain A* answers.
macro_rules! grid_searcher {
    ($open:expr, $heuristic:expr, $graph:expr, $table:expr, |$h:ident| $make:expr) => {
        with_boxed_open!($open, |q| with_heuristic!(jump $heuristic, $graph, $table, |$h| {
            match $make {
                Some(search) => boxed(q, search),
                None => boxed(q, AStar::new($graph, Octile::new($graph))),
            }
        }))
    };
}

/// The table given, or one built now.
fn given_or_built<T: Clone>(given: Option<&T>, build: impl FnOnce() -> T) -> Cow<'_, T> {
    given.map_or_else(|| Cow::Owned(build()), Cow::Borrowed)
}

impl HeuristicSpec {
    /// The estimate from every node of `graph` to `goal`, indexed by node
    /// id (for pictures of a heuristic, such as the web page's heat map).
    /// A landmark heuristic reads `table`. With a `start`, the heuristic is
    /// prepared for the pair as a search from `start` prepares it
    /// ([`Heuristic::goal_for`]): `dh:K:bestN` then uses the landmarks it
    /// chooses for that query, not those nearest the goal.
    ///
    /// # Errors
    ///
    /// [`SpecErrorKind::Table`] for a landmark heuristic without a table;
    /// a goal off the graph gives an empty vector.
    pub fn estimates(
        self, graph: &GridGraph, table: Option<&LandmarkTable>, start: Option<NodeId>, goal: NodeId,
    ) -> Result<Vec<f64>, SpecError> {
        fn all<H: Heuristic>(
            graph: &GridGraph, h: &H, start: Option<NodeId>, goal: NodeId,
        ) -> Vec<f64> {
            let target = match start {
                Some(s) if s.index() < graph.node_bound() => h.goal_for(s, goal),
                _ => h.goal(goal),
            };
            (0..graph.node_bound() as u32)
                .map(|n| h.estimate(NodeId(n), &target))
                .collect()
        }
        if self.is_landmarks() && table.is_none() {
            return Err(SpecErrorKind::Table(format!("{self} needs its landmark table")).into());
        }
        if goal.index() >= graph.node_bound() {
            return Ok(Vec::new());
        }
        // What the search of `dh:K:keepM` reads: the compressed copy.
        if let Some(compressed) = compressed_for(self, table)? {
            let h = CompressedHeuristic::new(&compressed, Octile::new(graph));
            return Ok(all(graph, &h, start, goal));
        }
        Ok(with_heuristic!(self, graph, table, |h| all(
            graph, &h, start, goal
        )))
    }
}

/// `search` with a new cache over the OPEN set `open`, boxed.
fn boxed<'a, S: crate::search::Search + Send + 'a, Q: crate::open::OpenSet + Send + 'a>(
    open: Q, search: S,
) -> BoxedSearcher<'a> {
    Box::new(Cached::new(search, SearchCache::with_open(open)))
}

/// A* over a table the searcher owns, with OPEN set `open`.
fn owned_table_astar<'a, T: OwnedTable + Send + 'a>(
    open: OpenKind, graph: &'a GridGraph, table: T, weight: f64,
) -> BoxedSearcher<'a> {
    with_boxed_open!(open, |q| boxed(
        q,
        OwnedTableAStar::new(graph, table, weight)
    ))
}

/// The A* of [`build_searcher`]: over the compressed copy of the landmark
/// table that `dh:K:keepM` comes with ([`compressed_for`]), over adaptive
/// landmarks (`dh:K:adapt`, a copy of the table), or over the heuristic of
/// the spec.
fn astar_searcher<'a>(
    graph: &'a GridGraph, (heuristic, open, weight): (HeuristicSpec, OpenKind, f64),
    table: Option<&'a LandmarkTable>, compressed: Option<Cow<'a, CompressedTable>>,
) -> BoxedSearcher<'a> {
    match (compressed, heuristic, table) {
        (Some(compressed), _, _) => owned_table_astar(open, graph, compressed, weight),
        (
            None,
            HeuristicSpec::Landmarks {
                mode: LandmarkMode::Adapt,
                ..
            },
            Some(table),
        ) => {
            let adaptive = AdaptiveLandmarks::new(table.clone(), ADAPT_PROBABILITY, PLACEMENT_SEED);
            owned_table_astar(open, graph, adaptive, weight)
        }
        _ => with_boxed_open!(open, |q| with_heuristic!(heuristic, graph, table, |h| {
            boxed(q, AStar::new(graph, Weighted::checked(h, weight)))
        })),
    }
}

/// The searcher of an A* spec with a landmark heuristic (`astar/dh`,
/// `dh:K:bestN`) over a table that was exact before `changes`: its
/// [`SafeDifferential`] form, admissible on the changed map, so the costs
/// stay optimal while the table waits for its repair. `None` for any other
/// spec. Its cache takes `memory` ([`Searcher::give_memory`]), which is
/// left as it was when the spec is not served.
pub(super) fn safe_searcher<'a>(
    spec: SearchSpec, graph: &'a GridGraph, tables: &'a [Table], changes: &MapChanges,
    memory: &mut SearchMemory,
) -> Option<BoxedSearcher<'a>> {
    if !serves_safe_mode(spec, graph) {
        return None;
    }
    let table = tables.iter().find_map(Table::landmarks)?;
    let dh = DifferentialHeuristic::new(table, Octile::new(graph));
    let dh = match spec.heuristic_for(graph.neighborhood()) {
        HeuristicSpec::Landmarks {
            mode: LandmarkMode::Best(n),
            ..
        } => dh.with_best(n),
        _ => dh,
    };
    let safe = Weighted::checked(SafeDifferential::new(dh, changes, graph), spec.bound());
    let mut searcher = with_boxed_open!(spec.open_kind(), |q| boxed(q, AStar::new(graph, safe)));
    searcher.give_memory(std::mem::take(memory));
    searcher.prepare(graph.node_bound());
    Some(searcher)
}

/// Whether [`safe_searcher`] serves `spec` on `graph`: A* (not
/// string-pulled) with a landmark heuristic over the full table (`dh`,
/// `dh:K:bestN`; not a compressed or adaptive one).
pub(super) fn serves_safe_mode(spec: SearchSpec, graph: &GridGraph) -> bool {
    spec.algorithm == Algorithm::AStar
        && !spec.pull
        && matches!(
            spec.heuristic_for(graph.neighborhood()),
            HeuristicSpec::Landmarks {
                mode: LandmarkMode::All | LandmarkMode::Best(_),
                ..
            }
        )
}

/// The one place where a spec's names become types.
///
/// The heuristic of A*, canonical A* and jump points is always wrapped in
/// [`Weighted`] (weight 1 when the spec has none, which leaves every
/// estimate exactly as it is), so that weighted search costs no second
/// copy of each combination. The searcher is string-pulled when the spec
/// says so, and its memory sized and first-touched for the graph
/// ([`Searcher::prepare`]), so that its first query is timed like the
/// others: `memory` taken from another searcher when it has room enough
/// ([`Searcher::give_memory`]; an empty one otherwise).
pub(super) fn build_searcher<'a>(
    spec: SearchSpec, graph: &'a GridGraph, tables: &'a [Table], stand_ins: &'a [Table],
    compressed: Option<CompressedTable>, memory: SearchMemory,
) -> BoxedSearcher<'a> {
    let table = tables.iter().find_map(Table::landmarks);
    // A jump table of the spec's own, the one a stand-in search runs over,
    // or the one inside a goal-bounding table.
    let jumps = tables
        .iter()
        .chain(stand_ins)
        .find_map(Table::jumps)
        .or_else(|| tables.iter().find_map(Table::bounds).map(GoalBounds::jumps));
    let subgoals = tables.iter().find_map(Table::subgoals);
    let bounds = tables.iter().find_map(Table::bounds);
    let compressed = match tables.iter().find_map(Table::compressed) {
        Some(c) => Some(Cow::Borrowed(c)),
        None => compressed.map(Cow::Owned),
    };
    let heuristic = spec.heuristic_for(graph.neighborhood());
    let open = spec.open_kind();
    let weight = spec.bound();
    let mut searcher = match spec.algorithm {
        Algorithm::Bfs => boxed(crate::open::QuaternaryHeap::default(), Bfs::new(graph)),
        Algorithm::Dijkstra => with_boxed_open!(open, |q| boxed(q, Dijkstra::new(graph))),
        Algorithm::AStar => astar_searcher(graph, (heuristic, open, weight), table, compressed),
        // The weight bounds the focal list; the heuristic stays admissible.
        Algorithm::Focal => with_heuristic!(heuristic, graph, table, |h| {
            match Focal::new(graph, h, weight) {
                Some(focal) => boxed(crate::open::QuaternaryHeap::default(), focal),
                // `Weight` is finite and at least 1.
                None => boxed(crate::open::QuaternaryHeap::default(), Dijkstra::new(graph)),
            }
        }),
        Algorithm::Theta => with_boxed_open!(open, |q| match heuristic {
            HeuristicSpec::Zero => match ThetaStar::with_heuristic(graph, Zero) {
                Some(theta) => boxed(q, theta),
                // `resolve` refused Theta* without octile movement.
                None => boxed(q, Dijkstra::new(graph)),
            },
            // `resolve` allows only euclidean besides zero.
            _ => match ThetaStar::new(graph) {
                Some(theta) => boxed(q, theta),
                None => boxed(q, Dijkstra::new(graph)),
            },
        }),
        Algorithm::Canonical => with_boxed_open!(
            open,
            |q| with_heuristic!(jump heuristic, graph, table, |h| {
                boxed(q, AStar::new(Canonical(graph), Weighted::checked(h, weight)))
            })
        ),
        Algorithm::Jps => grid_searcher!(open, heuristic, graph, table, |h| {
            JumpPointSearch::with_heuristic(graph, Weighted::checked(h, weight))
        }),
        Algorithm::JpsPlus => grid_searcher!(open, heuristic, graph, table, |h| {
            let jumps = given_or_built(jumps, || JumpTable::build(graph));
            JumpPointSearchPlus::with_heuristic(graph, jumps, Weighted::checked(h, weight))
        }),
        // A table that defers to its stand-in ([`Table::stand_in`]) came
        // here as `jps+` (`Plan::searcher`).
        Algorithm::JpsBounds => grid_searcher!(open, heuristic, graph, table, |h| {
            let bounds = given_or_built(bounds, || GoalBounds::build_for_spec(graph));
            JumpPointSearchPlus::bounded_with_heuristic(graph, bounds, Weighted::checked(h, weight))
        }),
        Algorithm::Subgoals => grid_searcher!(open, heuristic, graph, table, |h| {
            let subgoals = given_or_built(subgoals, || SubgoalGraph::build_for_spec(graph));
            SubgoalSearch::with_heuristic(graph, subgoals, Weighted::checked(h, weight))
        }),
    };
    if spec.pull {
        searcher = Box::new(StringPulled::new(graph, searcher));
    }
    searcher.give_memory(memory);
    searcher.prepare(graph.node_bound());
    searcher
}
