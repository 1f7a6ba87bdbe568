//! One name for a whole search: algorithm, heuristic and OPEN set.
//!
//! A [`SearchSpec`] is where a name becomes a type. The CLI, the web API,
//! the tests and the benchmarks all parse their `--search`, `--heuristic`
//! and `--open` words here, check the combination once against the graph
//! ([`SearchSpec::resolve`]), and build a ready [`Searcher`] from it; generic
//! code that knows its types at compile time uses [`crate::search`]
//! directly.
//!
//! # Names
//!
//! | part | names |
//! |---|---|
//! | [`Algorithm`] | `astar`, `canonical` (A* with canonical ordering), `jps`, `jps+` (jump point search over a precomputed [`JumpTable`]), `dijkstra`, `bfs`, `theta` (Theta*, any-angle), `focal` (focal search, bounded by its `@W`) |
//! | [`HeuristicSpec`] | `zero`, `manhattan`, `octile`, `euclidean`, `dh:K[:PLACEMENT][:MODE]` (PLACEMENT `sampled`, the default, `farthest`, `avoid` or `random`; MODE `bestN`, `keepM` or `adapt`, see [`LandmarkMode`]) |
//! | [`OpenKind`] | the 16 names of [`crate::open`] (`quaternary-heap`, `pairing-heap`, ...) |
//!
//! A whole spec is written `ALGORITHM[/HEURISTIC[/OPEN]][@WEIGHT][+pull]`;
//! the parts left out take their defaults when the spec is resolved for a
//! graph: octile on octile grids and Manhattan on 4-connected ones
//! (Euclidean for `theta`, none for `dijkstra` and `bfs`), and the indexed
//! binary heap, or the pairing heap under a landmark heuristic, where it is
//! faster (`docs/differential-heuristics.md`). `@W` bounds the cost by `W`
//! times the optimal one (weighted A*, or the focal list of `focal`);
//! `+pull` straightens each path found by string pulling
//! ([`StringPulled`]). On a grid with terrain costs
//! ([`crate::grid::terrain`]), `prepare` and `searcher` also refuse the
//! algorithms that need uniform costs ([`SearchSpec::check_terrain`]).
//!
//! ```
//! use cairns::grid::{Grid, GridGraph, Neighborhood};
//! use cairns::spec::SearchSpec;
//!
//! let graph = GridGraph::new(Grid::from_ascii("
//!     ....@....
//!     .@@.@.@@.
//!     .........
//! ").unwrap(), Neighborhood::Octile);
//! let spec: SearchSpec = "jps/dh:2".parse().unwrap();
//! let spec = spec.resolve(graph.neighborhood()).unwrap();
//! assert_eq!(spec.to_string(), "jps/dh:2:sampled/pairing-heap");
//! let prepared = spec.prepare(&graph).unwrap(); // places 2 landmarks, builds the table
//! let mut searcher = prepared.searcher();
//! let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 0).unwrap());
//! assert_eq!(searcher.search_cost(start, goal), Some(12.0));
//!
//! // Resolving is idempotent.
//! assert_eq!(spec.resolve(graph.neighborhood()), Ok(spec));
//!
//! // Combinations that cannot work say why.
//! let err = "bfs".parse::<SearchSpec>().unwrap().resolve(Neighborhood::Octile).unwrap_err();
//! assert!(err.to_string().contains("unit costs"), "{err}");
//! ```

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use crate::graph::{Graph, NodeId};
use crate::grid::{Canonical, GridGraph, Neighborhood};
use crate::heuristic::{Euclidean, Heuristic, Manhattan, Octile, Weighted, Zero};
use crate::landmarks::research::{
    AdaptiveLandmarks, CompressedHeuristic, CompressedTable, Compression, MAX_BEST,
};
use crate::landmarks::{
    DifferentialHeuristic, Directedness, LandmarkTable, OwnedTable, OwnedTableAStar, Placement,
    place,
};
use crate::open::OpenKind;
use crate::search::{
    AStar, Bfs, Cached, Dijkstra, Focal, JumpPointSearch, JumpPointSearchPlus, JumpTable,
    SearchCache, Searcher, StringPulled, ThetaStar,
};
use crate::with_open_set;

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

/// The most landmarks a spec may ask for (`dh:K`): 64 landmarks already
/// take 256 bytes per cell.
pub const MAX_LANDMARKS: usize = 64;

/// The seed of landmark placement in a spec.
pub const PLACEMENT_SEED: u64 = 1;

/// The number after `prefix` in the last part of a `dh` name (`best4`,
/// `keep2`): 1 to `max`; `what` and `expected` word the error.
fn parse_suffix(
    prefix: &str,
    n: &str,
    max: usize,
    what: &'static str,
    expected: String,
) -> Result<usize, SpecError> {
    n.parse()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| unknown(what, &format!("{prefix}{n}"), expected))
}

/// Refuses keeping more landmarks per cell than the table has.
fn check_keep(keep: usize, count: usize) -> Result<(), SpecError> {
    if keep > count {
        return Err(SpecErrorKind::Table(format!(
            "keep{keep} keeps more landmarks per cell than the {count} of the table"
        ))
        .into());
    }
    Ok(())
}

/// The compressed copy of `table` that `heuristic` searches when it is
/// `dh:K:keepM` (the `M` nearest landmarks of each cell), `None` for every
/// other heuristic or without a table.
///
/// # Errors
///
/// [`SpecErrorKind::Table`] where [`CompressedTable::new`] cannot
/// compress: more kept than the table has, a directed table, or too many
/// landmarks.
fn compressed_for(
    heuristic: HeuristicSpec,
    table: Option<&LandmarkTable>,
) -> Result<Option<CompressedTable>, SpecError> {
    let (
        HeuristicSpec::Landmarks {
            mode: LandmarkMode::Keep(keep),
            ..
        },
        Some(table),
    ) = (heuristic, table)
    else {
        return Ok(None);
    };
    check_keep(keep, table.landmark_count())?;
    if table.directedness() != Directedness::Symmetric {
        return Err(SpecErrorKind::Table(
            "a directed landmark table cannot be compressed (keepM needs a symmetric one)"
                .to_string(),
        )
        .into());
    }
    if table.landmark_count() > CompressedTable::MAX_LANDMARKS {
        return Err(SpecErrorKind::Table(format!(
            "a table of {} landmarks cannot be compressed (at most {})",
            table.landmark_count(),
            CompressedTable::MAX_LANDMARKS
        ))
        .into());
    }
    Ok(Some(CompressedTable::new(
        table,
        keep,
        Compression::Nearest,
    )))
}

/// The weight of a bounded-suboptimal search (weighted A*, `@W` in a spec,
/// `--weight W`): finite and at least 1; the search returns costs at most
/// `W` times the optimal ones (see [`Weighted`]).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Weight(f64);

impl Weight {
    /// The weight, or `None` unless `w` is finite and at least 1.
    pub fn new(w: f64) -> Option<Weight> {
        (w.is_finite() && w >= 1.0).then_some(Weight(w))
    }

    /// The value.
    pub fn get(self) -> f64 {
        self.0
    }
}

// Never NaN (checked by `new`), so equality is an equivalence.
impl Eq for Weight {}

impl std::hash::Hash for Weight {
    fn hash<S: std::hash::Hasher>(&self, state: &mut S) {
        self.0.to_bits().hash(state);
    }
}

impl FromStr for Weight {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        s.parse::<f64>()
            .ok()
            .and_then(Weight::new)
            .ok_or_else(|| SpecErrorKind::Weight { found: clip(s) }.into())
    }
}

impl fmt::Display for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The search algorithm of a [`SearchSpec`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// `astar`: [`AStar`] over the graph's edges.
    #[default]
    AStar,
    /// `canonical`: A* with canonical ordering ([`Canonical`]), octile only.
    Canonical,
    /// `jps`: [`JumpPointSearch`], octile only.
    Jps,
    /// `jps+`: [`JumpPointSearchPlus`] over a [`JumpTable`] built (or
    /// given) before the first query, octile only.
    JpsPlus,
    /// `dijkstra`: [`Dijkstra`], no heuristic.
    Dijkstra,
    /// `bfs`: breadth-first search ([`Bfs`]), unit costs (4-connected) only.
    Bfs,
    /// `theta`: [`ThetaStar`], any-angle paths on octile grids; its costs
    /// are Euclidean lengths, at most the octile optimum.
    Theta,
    /// `focal`: focal search ([`Focal`]), costs at most the spec's weight
    /// times the optimal ones; its own lists, no OPEN set.
    Focal,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::AStar,
        Algorithm::Canonical,
        Algorithm::Jps,
        Algorithm::JpsPlus,
        Algorithm::Dijkstra,
        Algorithm::Bfs,
        Algorithm::Theta,
        Algorithm::Focal,
    ];

    /// The name (`astar`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::Canonical => "canonical",
            Algorithm::Jps => "jps",
            Algorithm::JpsPlus => "jps+",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::Bfs => "bfs",
            Algorithm::Theta => "theta",
            Algorithm::Focal => "focal",
        }
    }

    /// Whether the algorithm takes a heuristic.
    pub fn uses_heuristic(self) -> bool {
        !matches!(self, Algorithm::Dijkstra | Algorithm::Bfs)
    }

    /// Whether the algorithm takes an OPEN set.
    pub fn uses_open_set(self) -> bool {
        !matches!(self, Algorithm::Bfs | Algorithm::Focal)
    }
}

/// A landmark placement strategy by name; the seed is [`PLACEMENT_SEED`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlacementKind {
    /// `random`: [`Placement::Random`].
    Random,
    /// `farthest`: [`Placement::Farthest`].
    Farthest,
    /// `avoid`: [`Placement::Avoid`].
    Avoid,
    /// `sampled`: [`Placement::Sampled`], the default: with 16 landmarks
    /// it expands the fewest nodes on each of the eight Moving AI families
    /// measured (`docs/differential-heuristics.md`, re-run of 2026-11-26).
    #[default]
    Sampled,
}

impl PlacementKind {
    /// Every placement.
    pub const ALL: [PlacementKind; 4] = [
        PlacementKind::Random,
        PlacementKind::Farthest,
        PlacementKind::Avoid,
        PlacementKind::Sampled,
    ];

    /// The name (`farthest`).
    pub fn name(self) -> &'static str {
        match self {
            PlacementKind::Random => "random",
            PlacementKind::Farthest => "farthest",
            PlacementKind::Avoid => "avoid",
            PlacementKind::Sampled => "sampled",
        }
    }

    /// The library's placement with `seed`.
    pub fn with_seed(self, seed: u64) -> Placement {
        match self {
            PlacementKind::Random => Placement::Random { seed },
            PlacementKind::Farthest => Placement::Farthest { seed },
            PlacementKind::Avoid => Placement::Avoid { seed },
            PlacementKind::Sampled => Placement::Sampled { seed },
        }
    }
}

/// How a `dh` heuristic reads its landmark table: the last part of its
/// name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LandmarkMode {
    /// No suffix: every landmark for every estimate.
    #[default]
    All,
    /// `:bestN`: each query consults only the `N` (1 to [`MAX_BEST`])
    /// landmarks that bound its start-goal distance best
    /// ([`DifferentialHeuristic::with_best`]): fewer reads per estimate,
    /// never fewer expansions.
    Best(usize),
    /// `:keepM`: a [compressed table](crate::landmarks::research::CompressedTable)
    /// keeping for each cell its `M` nearest landmarks (5 bytes each instead
    /// of 4 bytes for each of the `K`), the others bounded through the
    /// landmark-to-landmark distances. Admissible but not consistent, so
    /// A* only (reopening nodes), and not weighted.
    Keep(usize),
    /// `:adapt`: [adaptive landmarks](crate::landmarks::research::AdaptiveLandmarks)
    /// that follow the queries: after a query, with probability
    /// [`ADAPT_PROBABILITY`] (seeded with [`PLACEMENT_SEED`]), the landmark
    /// that bounded the fewest queries best moves to its goal and its
    /// column is rebuilt, inside that query's time. Each searcher adapts a
    /// copy of its own. A* only.
    Adapt,
}

/// How often `dh:K:adapt` moves a landmark: the probability per query.
pub const ADAPT_PROBABILITY: f64 = 0.1;

impl LandmarkMode {
    /// Whether only A* can search with it (`keepM`, `adapt`).
    fn astar_only(self) -> bool {
        matches!(self, LandmarkMode::Keep(_) | LandmarkMode::Adapt)
    }
}

/// The heuristic of a [`SearchSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicSpec {
    /// `zero`: [`Zero`].
    Zero,
    /// `manhattan`: [`Manhattan`], admissible on 4-connected grids only.
    Manhattan,
    /// `octile`: [`Octile`].
    Octile,
    /// `euclidean`: [`Euclidean`].
    Euclidean,
    /// `dh`, `dh:K` or `dh:K:PLACEMENT`, each optionally ending in
    /// `:bestN`, `:keepM` or `:adapt` ([`LandmarkMode`]): the
    /// [`DifferentialHeuristic`] of a landmark table over the octile
    /// distance. `count` is `None` for a bare `dh`, whose table must come
    /// from elsewhere (a saved file).
    Landmarks {
        /// The number of landmarks, 1 to [`MAX_LANDMARKS`].
        count: Option<usize>,
        /// How they are placed.
        placement: PlacementKind,
        /// How the table is read: all of it, the best few per query, a
        /// compressed copy, or landmarks that move.
        mode: LandmarkMode,
    },
}

impl HeuristicSpec {
    /// The heuristics that need no table: the distances and zero.
    pub const DISTANCES: [HeuristicSpec; 4] = [
        HeuristicSpec::Zero,
        HeuristicSpec::Manhattan,
        HeuristicSpec::Octile,
        HeuristicSpec::Euclidean,
    ];

    /// The default heuristic of a movement rule: the tightest distance.
    pub fn default_for(neighborhood: Neighborhood) -> HeuristicSpec {
        match neighborhood {
            Neighborhood::Octile => HeuristicSpec::Octile,
            Neighborhood::Four => HeuristicSpec::Manhattan,
        }
    }

    /// Whether this is a landmark heuristic.
    pub fn is_landmarks(self) -> bool {
        matches!(self, HeuristicSpec::Landmarks { .. })
    }

    /// Whether the heuristic never overestimates under `neighborhood`.
    /// Every heuristic here is also consistent wherever it is admissible.
    pub fn admissible_for(self, neighborhood: Neighborhood) -> bool {
        !(self == HeuristicSpec::Manhattan && neighborhood == Neighborhood::Octile)
    }

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
        self,
        graph: &GridGraph,
        table: Option<&LandmarkTable>,
        start: Option<NodeId>,
        goal: NodeId,
    ) -> Result<Vec<f64>, SpecError> {
        fn all<H: Heuristic>(
            graph: &GridGraph,
            h: &H,
            start: Option<NodeId>,
            goal: NodeId,
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

    /// The names, for messages.
    pub const NAMES: &'static str = "zero, manhattan, octile, euclidean or dh:K[:PLACEMENT][:bestN|:keepM|:adapt] (PLACEMENT random, farthest, avoid or sampled; N landmarks per query, 1 to 8; M landmarks kept per cell, 1 to K)";
}

/// A whole search by name: algorithm, heuristic and OPEN set. Parts left
/// `None` take their defaults in [`resolve`](SearchSpec::resolve).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchSpec {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The heuristic, if chosen.
    pub heuristic: Option<HeuristicSpec>,
    /// The OPEN set, if chosen.
    pub open: Option<OpenKind>,
    /// The weight of bounded-suboptimal search, if any (`None`: optimal).
    pub weight: Option<Weight>,
    /// Whether each path found is straightened by string pulling (`+pull`,
    /// [`StringPulled`]): the costs become any-angle lengths.
    pub pull: bool,
}

/// What is wrong with a name or a combination.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct SpecError {
    kind: SpecErrorKind,
}

impl SpecError {
    /// What went wrong.
    pub fn kind(&self) -> &SpecErrorKind {
        &self.kind
    }
}

impl From<SpecErrorKind> for SpecError {
    fn from(kind: SpecErrorKind) -> Self {
        SpecError { kind }
    }
}

/// The kinds of [`SpecError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// A name that is not in the vocabulary; `expected` lists the valid ones.
    #[error("unknown {what} {name:?} (expected {expected})")]
    UnknownName {
        /// What the name was for: "search", "heuristic", "OPEN set", ...
        what: &'static str,
        /// The name given (at most 60 characters of it).
        name: String,
        /// The valid names.
        expected: String,
    },
    /// A landmark count out of range or not a number.
    #[error("the landmark count must be a number from 1 to {MAX_LANDMARKS}, got {found:?}")]
    LandmarkCount {
        /// What was given.
        found: String,
    },
    /// A weight that is not a finite number of at least 1.
    #[error("the weight must be a number of at least 1, got {found:?}")]
    Weight {
        /// What was given.
        found: String,
    },
    /// A combination the algorithm cannot run.
    #[error("{algorithm} {reason}")]
    Unsupported {
        /// The algorithm's name.
        algorithm: &'static str,
        /// Why, in a few words.
        reason: String,
    },
    /// A heuristic that overestimates under the graph's movement rule: the
    /// search would not be optimal.
    #[error(
        "{heuristic} is not admissible with {movement} movement (it overestimates; use {instead})"
    )]
    Inadmissible {
        /// The heuristic's name.
        heuristic: String,
        /// `octile` or `4-connected`.
        movement: &'static str,
        /// The admissible default.
        instead: String,
    },
    /// A landmark heuristic without its table (a bare `dh` needs a saved
    /// table), or a table with another number of landmarks.
    #[error("{0}")]
    Table(String),
}

/// The first 60 characters of a name, for messages.
fn clip(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

fn unknown(what: &'static str, name: &str, expected: String) -> SpecError {
    SpecErrorKind::UnknownName {
        what,
        name: clip(name),
        expected,
    }
    .into()
}

fn one_of<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    format!(
        "one of: {}",
        names.into_iter().collect::<Vec<_>>().join(", ")
    )
}

/// `FromStr` and `Display` of a kind with `ALL` and `name()` (for
/// [`OpenKind`] too: its names are parsed and shown here): the names are
/// the vocabulary, and an unknown one is refused with the list of them.
macro_rules! named_kinds {
    ($($kind:ident => $what:literal),* $(,)?) => {$(
        impl FromStr for $kind {
            type Err = SpecError;

            fn from_str(s: &str) -> Result<Self, SpecError> {
                $kind::ALL
                    .into_iter()
                    .find(|k| k.name() == s)
                    .ok_or_else(|| unknown($what, s, one_of($kind::ALL.map($kind::name))))
            }
        }

        impl fmt::Display for $kind {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    )*};
}

named_kinds!(Algorithm => "search", PlacementKind => "placement", OpenKind => "OPEN set");

/// Parses a landmark count, 1 to [`MAX_LANDMARKS`].
///
/// # Errors
///
/// [`SpecErrorKind::LandmarkCount`] for anything else.
pub fn parse_landmark_count(s: &str) -> Result<usize, SpecError> {
    match s.parse::<usize>() {
        Ok(k) if (1..=MAX_LANDMARKS).contains(&k) => Ok(k),
        _ => Err(SpecErrorKind::LandmarkCount { found: clip(s) }.into()),
    }
}

impl FromStr for HeuristicSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        if s == "dh" || s.starts_with("dh:") {
            let mut parts: Vec<&str> = s.split(':').skip(1).collect();
            let mode = match parts.last().copied() {
                Some("adapt") => LandmarkMode::Adapt,
                Some(p) if p.starts_with("best") => LandmarkMode::Best(parse_suffix(
                    "best",
                    &p[4..],
                    MAX_BEST,
                    "landmarks per query",
                    format!("best1 to best{MAX_BEST}"),
                )?),
                // At most the landmark count too (`check_keep`).
                Some(p) if p.starts_with("keep") => LandmarkMode::Keep(parse_suffix(
                    "keep",
                    &p[4..],
                    MAX_LANDMARKS,
                    "landmarks kept per cell",
                    "keep1 to keepK for K landmarks".to_string(),
                )?),
                _ => LandmarkMode::All,
            };
            if mode != LandmarkMode::All {
                parts.pop();
            }
            let mut parts = parts.into_iter();
            let count = parts.next().map(parse_landmark_count).transpose()?;
            let placement = parts
                .next()
                .map(str::parse)
                .transpose()?
                .unwrap_or_default();
            if parts.next().is_some() {
                return Err(unknown("heuristic", s, HeuristicSpec::NAMES.to_string()));
            }
            if let (LandmarkMode::Keep(m), Some(k)) = (mode, count) {
                check_keep(m, k)?;
            }
            return Ok(HeuristicSpec::Landmarks {
                count,
                placement,
                mode,
            });
        }
        Ok(match s {
            "zero" => HeuristicSpec::Zero,
            "manhattan" => HeuristicSpec::Manhattan,
            "octile" => HeuristicSpec::Octile,
            "euclidean" => HeuristicSpec::Euclidean,
            _ => return Err(unknown("heuristic", s, HeuristicSpec::NAMES.to_string())),
        })
    }
}

impl fmt::Display for HeuristicSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeuristicSpec::Zero => f.write_str("zero"),
            HeuristicSpec::Manhattan => f.write_str("manhattan"),
            HeuristicSpec::Octile => f.write_str("octile"),
            HeuristicSpec::Euclidean => f.write_str("euclidean"),
            HeuristicSpec::Landmarks {
                count,
                placement,
                mode,
            } => {
                f.write_str("dh")?;
                if let Some(k) = count {
                    write!(f, ":{k}:{placement}")?;
                }
                write!(f, "{mode}")
            }
        }
    }
}

impl fmt::Display for LandmarkMode {
    /// The mode's suffix in a heuristic name: empty for every landmark,
    /// else `:bestN`, `:keepM` or `:adapt`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LandmarkMode::All => Ok(()),
            LandmarkMode::Best(n) => write!(f, ":best{n}"),
            LandmarkMode::Keep(m) => write!(f, ":keep{m}"),
            LandmarkMode::Adapt => f.write_str(":adapt"),
        }
    }
}

impl FromStr for SearchSpec {
    type Err = SpecError;

    /// `ALGORITHM[/HEURISTIC[/OPEN]][@WEIGHT][+pull]`; an empty part takes
    /// its default (`astar//pairing-heap`, `astar/octile@1.5`, `jps+pull`).
    fn from_str(s: &str) -> Result<Self, SpecError> {
        let (s, pull) = match s.strip_suffix(PULL) {
            Some(s) => (s, true),
            None => (s, false),
        };
        let (s, weight) = match s.split_once('@') {
            Some((s, w)) => (s, Some(w.parse()?)),
            None => (s, None),
        };
        let mut parts = s.splitn(3, '/');
        let algorithm = parts.next().unwrap_or_default().parse()?;
        let heuristic = match parts.next() {
            None | Some("") => None,
            Some(h) => Some(h.parse()?),
        };
        let open = match parts.next() {
            None | Some("") => None,
            Some(o) => Some(o.parse()?),
        };
        Ok(SearchSpec {
            algorithm,
            heuristic,
            open,
            weight,
            pull,
        })
    }
}

/// The suffix of a spec whose paths are string-pulled.
const PULL: &str = "+pull";

impl fmt::Display for SearchSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.algorithm)?;
        match (self.heuristic, self.open) {
            (None, None) => {}
            (Some(h), None) => write!(f, "/{h}")?,
            (None, Some(o)) => write!(f, "//{o}")?,
            (Some(h), Some(o)) => write!(f, "/{h}/{o}")?,
        }
        if let Some(w) = self.weight {
            write!(f, "@{w}")?;
        }
        if self.pull {
            f.write_str(PULL)?;
        }
        Ok(())
    }
}

impl SearchSpec {
    /// A spec of `algorithm` with the default heuristic and OPEN set.
    pub fn new(algorithm: Algorithm) -> Self {
        SearchSpec {
            algorithm,
            heuristic: None,
            open: None,
            weight: None,
            pull: false,
        }
    }

    /// The spec with `weight` (bounded-suboptimal search).
    #[must_use]
    pub fn with_weight(mut self, weight: Weight) -> Self {
        self.weight = Some(weight);
        self
    }

    /// The spec with string pulling (`+pull`).
    #[must_use]
    pub fn with_pull(mut self) -> Self {
        self.pull = true;
        self
    }

    /// Whether the costs are any-angle lengths (Theta*, or string pulling),
    /// checked against the straight-line distance and the octile optimum.
    pub fn any_angle(&self) -> bool {
        self.pull || self.algorithm == Algorithm::Theta
    }

    /// How far above optimal the spec's costs may go: its weight, or 1.
    pub fn bound(&self) -> f64 {
        self.weight.map_or(1.0, Weight::get)
    }

    /// The spec with `heuristic`.
    #[must_use]
    pub fn with_heuristic(mut self, heuristic: HeuristicSpec) -> Self {
        self.heuristic = Some(heuristic);
        self
    }

    /// The spec with `open`.
    #[must_use]
    pub fn with_open(mut self, open: OpenKind) -> Self {
        self.open = Some(open);
        self
    }

    /// The heuristic the search runs with: the chosen one, or the default
    /// of the algorithm and movement rule ([`Zero`] for Dijkstra and
    /// breadth-first search).
    pub fn heuristic_for(&self, neighborhood: Neighborhood) -> HeuristicSpec {
        match self.heuristic {
            Some(h) => h,
            None if self.algorithm == Algorithm::Theta => HeuristicSpec::Euclidean,
            None if self.algorithm.uses_heuristic() => HeuristicSpec::default_for(neighborhood),
            None => HeuristicSpec::Zero,
        }
    }

    /// The OPEN set the search runs with: the chosen one, or the pairing
    /// heap under a landmark heuristic (1.17x to 1.20x faster there,
    /// `docs/differential-heuristics.md`) and the indexed binary heap
    /// otherwise.
    pub fn open_kind(&self) -> OpenKind {
        match self.open {
            Some(o) => o,
            None if self.heuristic.is_some_and(HeuristicSpec::is_landmarks) => {
                OpenKind::PairingHeap
            }
            None => OpenKind::default(),
        }
    }

    /// Checks the spec against a movement rule and fills in the defaults.
    ///
    /// # Errors
    ///
    /// [`SpecErrorKind::Unsupported`] when the algorithm cannot run the
    /// combination (jump points (`jps`, `jps+`) and canonical ordering need octile movement
    /// and take octile or `dh`; breadth-first search needs unit costs;
    /// Dijkstra and breadth-first search take no heuristic; breadth-first
    /// search takes no OPEN set), and [`SpecErrorKind::Inadmissible`] for a
    /// heuristic that overestimates under `neighborhood` (see
    /// [`resolve_inadmissible`](Self::resolve_inadmissible) to run it anyway).
    pub fn resolve(&self, neighborhood: Neighborhood) -> Result<SearchSpec, SpecError> {
        let resolved = self.resolve_inadmissible(neighborhood)?;
        let heuristic = resolved.heuristic_for(neighborhood);
        if !heuristic.admissible_for(neighborhood) {
            return Err(SpecErrorKind::Inadmissible {
                heuristic: heuristic.to_string(),
                movement: movement_name(neighborhood),
                instead: HeuristicSpec::default_for(neighborhood).to_string(),
            }
            .into());
        }
        Ok(resolved)
    }

    /// Like [`resolve`](Self::resolve), but lets an inadmissible heuristic
    /// through: the search then finds paths that may not be shortest, which
    /// tools report with a warning.
    ///
    /// # Errors
    ///
    /// [`SpecErrorKind::Unsupported`] as in [`resolve`](Self::resolve).
    pub fn resolve_inadmissible(
        &self,
        neighborhood: Neighborhood,
    ) -> Result<SearchSpec, SpecError> {
        let algorithm = self.algorithm;
        let unsupported = |reason: String| -> SpecError {
            SpecErrorKind::Unsupported {
                algorithm: algorithm.name(),
                reason,
            }
            .into()
        };
        let heuristic = self.heuristic_for(neighborhood);
        self.check_landmark_mode(heuristic)?;
        match algorithm {
            Algorithm::AStar => {}
            Algorithm::Focal => {
                if self.open.is_some() {
                    return Err(unsupported(
                        "keeps its own focal lists, not an OPEN set".to_string(),
                    ));
                }
            }
            Algorithm::Theta => {
                if neighborhood != Neighborhood::Octile {
                    return Err(unsupported(
                        "needs octile movement (8 directions)".to_string(),
                    ));
                }
                if !matches!(heuristic, HeuristicSpec::Euclidean | HeuristicSpec::Zero) {
                    return Err(unsupported(format!(
                        "takes the euclidean or zero heuristic (never above the straight line), not {heuristic}"
                    )));
                }
                if let Some(w) = self.weight {
                    return Err(unsupported(format!(
                        "is not weighted (got @{w}; use astar or focal)"
                    )));
                }
            }
            Algorithm::Canonical | Algorithm::Jps | Algorithm::JpsPlus => {
                if neighborhood != Neighborhood::Octile {
                    return Err(unsupported(
                        "needs octile movement (8 directions)".to_string(),
                    ));
                }
                if !matches!(
                    heuristic,
                    HeuristicSpec::Octile | HeuristicSpec::Landmarks { .. }
                ) {
                    return Err(unsupported(format!(
                        "takes the octile or dh heuristic, not {heuristic}"
                    )));
                }
            }
            Algorithm::Dijkstra | Algorithm::Bfs => {
                if let Some(w) = self.weight {
                    return Err(unsupported(format!(
                        "is not weighted (got @{w}; use astar or jps)"
                    )));
                }
                if heuristic != HeuristicSpec::Zero {
                    return Err(unsupported(format!(
                        "takes no heuristic (got {heuristic}; use astar)"
                    )));
                }
                if algorithm == Algorithm::Bfs && neighborhood != Neighborhood::Four {
                    return Err(unsupported(
                        "finds shortest paths only with unit costs (4-connected movement; use dijkstra)"
                            .to_string(),
                    ));
                }
                if algorithm == Algorithm::Bfs && self.open.is_some() {
                    return Err(unsupported(
                        "uses a first-in first-out queue, not an OPEN set".to_string(),
                    ));
                }
            }
        }
        Ok(SearchSpec {
            algorithm,
            weight: self.weight,
            pull: self.pull,
            heuristic: Some(heuristic),
            // Breadth-first search has no OPEN set to name, so that a
            // resolved spec resolves again to itself.
            open: algorithm
                .uses_open_set()
                .then(|| self.open_kind_with(heuristic)),
        })
    }

    /// Refuses the landmark modes where they cannot run: compressed and
    /// adaptive tables outside A*, and a compressed table (whose estimates
    /// are not consistent) weighted or over a monotone-key OPEN set.
    fn check_landmark_mode(&self, heuristic: HeuristicSpec) -> Result<(), SpecError> {
        let HeuristicSpec::Landmarks { mode, .. } = heuristic else {
            return Ok(());
        };
        let unsupported = |reason: String| -> SpecError {
            SpecErrorKind::Unsupported {
                algorithm: self.algorithm.name(),
                reason,
            }
            .into()
        };
        if mode.astar_only() && self.algorithm != Algorithm::AStar {
            return Err(unsupported(format!(
                "cannot search with {heuristic}: compressed and adaptive tables are searched by astar only"
            )));
        }
        if matches!(mode, LandmarkMode::Keep(_)) {
            if self.weight.is_some() {
                return Err(unsupported(format!(
                    "with {heuristic} is not weighted: its estimates are not consistent, and weighted A* does not reopen nodes"
                )));
            }
            if let Some(open) = self.open.filter(|o| o.needs_monotone_keys()) {
                return Err(unsupported(format!(
                    "with {heuristic} cannot use {open}: its estimates are not consistent, so f can fall below the last popped f"
                )));
            }
        }
        Ok(())
    }

    /// Refuses the algorithms that cannot be optimal on `graph` when it has
    /// terrain costs ([`GridGraph::has_terrain`]): jump points (`jps`,
    /// `jps+`) and canonical ordering prune moves that are redundant only
    /// when every straight move costs 1 and every diagonal `sqrt(2)`, and
    /// breadth-first search counts moves, not costs. A*, with any heuristic
    /// here (the grid distances are scaled by the cheapest cell cost and
    /// landmark tables are built over the terrain costs), and Dijkstra stay
    /// optimal.
    ///
    /// # Errors
    ///
    /// [`SpecErrorKind::Unsupported`] saying why, for those algorithms on a
    /// graph with terrain.
    pub fn check_terrain(&self, graph: &GridGraph) -> Result<(), SpecError> {
        if !graph.has_terrain() {
            return Ok(());
        }
        let reason = match self.algorithm {
            Algorithm::AStar | Algorithm::Dijkstra | Algorithm::Focal => return Ok(()),
            Algorithm::Theta => {
                "measures straight segments by their length, not by the terrain they cross (use astar)"
            }
            Algorithm::Jps | Algorithm::JpsPlus => {
                "assumes uniform costs (1 straight, sqrt(2) diagonal) and cannot be optimal on a map with terrain costs (use astar or dijkstra)"
            }
            Algorithm::Canonical => {
                "prunes moves that are redundant only under uniform costs and cannot be optimal on a map with terrain costs (use astar)"
            }
            Algorithm::Bfs => {
                "counts moves, not costs, and cannot be optimal on a map with terrain costs (use dijkstra)"
            }
        };
        Err(SpecErrorKind::Unsupported {
            algorithm: self.algorithm.name(),
            reason: reason.to_string(),
        }
        .into())
    }

    fn open_kind_with(&self, heuristic: HeuristicSpec) -> OpenKind {
        SearchSpec {
            heuristic: Some(heuristic),
            ..*self
        }
        .open_kind()
    }

    /// Builds what the spec needs before its first query on `graph`: the
    /// landmark table of `dh:K` (placed with [`PLACEMENT_SEED`] and built in
    /// parallel) and the jump table of `jps+`, timed. The spec is resolved
    /// first; an inadmissible heuristic is let through and reported by
    /// [`Prepared::inadmissible`], for tools to warn about.
    ///
    /// # Errors
    ///
    /// Those of [`resolve_inadmissible`](Self::resolve_inadmissible) and
    /// [`check_terrain`](Self::check_terrain); a bare `dh` (its table must be
    /// given, [`prepare_with_table`](Self::prepare_with_table)); a map with
    /// fewer cells with a legal move than landmarks asked for.
    pub fn prepare<'g>(&self, graph: &'g GridGraph) -> Result<Prepared<'g>, SpecError> {
        self.prepare_given(graph, GivenTables::default())
    }

    /// Like [`prepare`](Self::prepare) with a landmark table built or loaded
    /// beforehand (a saved file): the spec's heuristic must be `dh` (the
    /// default heuristic becomes `dh`), and `dh:K` must match the table's
    /// landmark count.
    ///
    /// # Errors
    ///
    /// Those of [`resolve`](Self::resolve), a heuristic other than `dh`, or
    /// another landmark count.
    pub fn prepare_with_table<'g>(
        &self,
        graph: &'g GridGraph,
        table: LandmarkTable,
        preprocess_s: f64,
    ) -> Result<Prepared<'g>, SpecError> {
        self.prepare_given(
            graph,
            GivenTables {
                landmarks: Some(table),
                compressed: None,
                jumps: None,
                seconds: preprocess_s,
            },
        )
    }

    /// Like [`prepare`](Self::prepare) with the tables in `given` (saved
    /// files) instead of building them: a landmark table as for
    /// [`prepare_with_table`](Self::prepare_with_table), and a jump table
    /// for `jps+`. What is not given is built as `prepare` builds it; the
    /// preprocessing time is `given.seconds` plus that.
    ///
    /// # Errors
    ///
    /// Those of [`prepare_with_table`](Self::prepare_with_table) for a
    /// landmark table; for a jump table, a search other than `jps+` or a
    /// table of another size than the map.
    pub fn prepare_given<'g>(
        &self,
        graph: &'g GridGraph,
        given: GivenTables,
    ) -> Result<Prepared<'g>, SpecError> {
        let GivenTables {
            landmarks,
            compressed: given_compressed,
            jumps,
            seconds,
        } = given;
        let table_given = landmarks.is_some() || given_compressed.is_some();
        let spec = match (&landmarks, &given_compressed) {
            (Some(_), Some(_)) => {
                return Err(SpecErrorKind::Table(
                    "give one landmark table, full or compressed, not both".to_string(),
                )
                .into());
            }
            (Some(table), None) => self.with_heuristic(self.heuristic_of_table(table)?),
            (None, Some(c)) => self.with_heuristic(self.heuristic_of_compressed(c)?),
            (None, None) => *self,
        }
        .resolve_inadmissible(graph.neighborhood())?;
        if let Some(c) = &given_compressed
            && c.node_count() != graph.node_bound()
        {
            return Err(SpecErrorKind::Table(format!(
                "the compressed landmark table covers {} nodes, the map has {}",
                c.node_count(),
                graph.node_bound()
            ))
            .into());
        }
        spec.check_terrain(graph)?;
        if let Some(jumps) = &jumps {
            if spec.algorithm != Algorithm::JpsPlus {
                return Err(SpecErrorKind::Table(format!(
                    "a jump table is for the jps+ search, not {}",
                    spec.algorithm
                ))
                .into());
            }
            if !jumps.fits(graph) {
                return Err(SpecErrorKind::Table(format!(
                    "the jump table is for a {}x{} grid, the map is {}x{}",
                    jumps.width(),
                    jumps.height(),
                    graph.width(),
                    graph.height()
                ))
                .into());
            }
        }
        let t0 = Instant::now();
        let table = match (landmarks, spec.heuristic) {
            (Some(table), _) => Some(table),
            (None, _) if given_compressed.is_some() => None,
            (
                None,
                Some(HeuristicSpec::Landmarks {
                    count: Some(k),
                    placement,
                    ..
                }),
            ) => Some(build_table(graph, k, placement.with_seed(PLACEMENT_SEED))?),
            (None, Some(HeuristicSpec::Landmarks { count: None, .. })) => {
                return Err(SpecErrorKind::Table(
                    "a bare dh needs a saved landmark table; give the landmark count as dh:K to build one"
                        .to_string(),
                )
                .into());
            }
            (None, _) => None,
        };
        let jumps = match jumps {
            Some(jumps) => Some(jumps),
            None if spec.algorithm == Algorithm::JpsPlus => Some(JumpTable::build(graph)),
            None => None,
        };
        let compressed = match given_compressed {
            Some(c) => Some(c),
            None => compressed_for(spec.heuristic_for(graph.neighborhood()), table.as_ref())?,
        };
        let built_s = t0.elapsed().as_secs_f64();
        let preprocess_s = if table.is_some() || compressed.is_some() || jumps.is_some() {
            seconds + built_s
        } else {
            0.0
        };
        Ok(Prepared {
            graph,
            spec,
            table,
            compressed,
            jumps,
            table_given,
            preprocess_s,
        })
    }

    /// The heuristic of this spec with a given landmark `table`: `dh` with
    /// the table's landmark count.
    fn heuristic_of_table(&self, table: &LandmarkTable) -> Result<HeuristicSpec, SpecError> {
        self.heuristic_of_table_count(table.landmark_count())
    }

    /// [`heuristic_of_table`](Self::heuristic_of_table) for a table of
    /// `found` landmarks.
    fn heuristic_of_table_count(&self, found: usize) -> Result<HeuristicSpec, SpecError> {
        match self.heuristic {
            None => Ok(HeuristicSpec::Landmarks {
                count: Some(found),
                placement: PlacementKind::default(),
                mode: LandmarkMode::All,
            }),
            Some(HeuristicSpec::Landmarks {
                count,
                placement,
                mode,
            }) => {
                if let Some(k) = count.filter(|&k| k != found) {
                    return Err(SpecErrorKind::Table(format!(
                        "dh:{k} asks for {k} landmarks, but the table has {found}"
                    ))
                    .into());
                }
                Ok(HeuristicSpec::Landmarks {
                    count: Some(found),
                    placement,
                    mode,
                })
            }
            Some(other) => Err(SpecErrorKind::Table(format!(
                "a landmark table gives a differential heuristic, but the heuristic is {other} (use dh)"
            ))
            .into()),
        }
    }

    /// The heuristic of this spec with a given compressed table:
    /// `dh:K:keepM` with the table's `K` and `M`; a bare `dh` (or none)
    /// becomes it.
    fn heuristic_of_compressed(&self, table: &CompressedTable) -> Result<HeuristicSpec, SpecError> {
        let (k, m) = (table.landmark_count(), table.kept());
        // The count and a heuristic other than dh are checked as for a
        // full table.
        let spec = self.heuristic_of_table_count(k)?;
        let HeuristicSpec::Landmarks {
            count,
            placement,
            mode,
        } = spec
        else {
            return Ok(spec);
        };
        let refuse = |what: String| Err(SpecErrorKind::Table(what).into());
        let mode = match mode {
            LandmarkMode::All => LandmarkMode::Keep(m),
            LandmarkMode::Keep(asked) if asked == m => mode,
            LandmarkMode::Keep(asked) => {
                return refuse(format!(
                    "keep{asked} asks to keep {asked} landmarks per cell, but the compressed table keeps {m}"
                ));
            }
            LandmarkMode::Best(_) | LandmarkMode::Adapt => {
                return refuse(format!(
                    "a compressed landmark table gives dh:{k}:keep{m}, not dh:{k}{mode}"
                ));
            }
        };
        Ok(HeuristicSpec::Landmarks {
            count,
            placement,
            mode,
        })
    }

    /// A ready searcher for `graph`, borrowing `table` for a landmark
    /// heuristic: for tools that keep tables of their own (the web page's
    /// cache). The spec is resolved first. For `jps+`, the searcher builds
    /// and keeps its own jump table (see [`prepare`](Self::prepare) to
    /// build it once for many searchers).
    ///
    /// # Errors
    ///
    /// Those of [`resolve`](Self::resolve) and
    /// [`check_terrain`](Self::check_terrain); a landmark heuristic without a
    /// table or with a table of another landmark count.
    pub fn searcher<'a>(
        &self,
        graph: &'a GridGraph,
        table: Option<&'a LandmarkTable>,
    ) -> Result<Box<dyn Searcher + 'a>, SpecError> {
        self.searcher_with_jumps(graph, table, None)
    }

    /// Like [`searcher`](Self::searcher), borrowing a jump table built
    /// beforehand for `jps+` (a tool that keeps one per map, such as the
    /// web page's cache, then builds it once instead of per searcher);
    /// `None` builds one as `searcher` does. Other searches ignore it.
    ///
    /// # Errors
    ///
    /// Those of [`searcher`](Self::searcher), and a jump table for another
    /// size of grid.
    pub fn searcher_with_jumps<'a>(
        &self,
        graph: &'a GridGraph,
        table: Option<&'a LandmarkTable>,
        jumps: Option<&'a JumpTable>,
    ) -> Result<Box<dyn Searcher + 'a>, SpecError> {
        if let Some(j) = jumps.filter(|j| !j.fits(graph)) {
            return Err(SpecErrorKind::Table(format!(
                "the jump table is for a {}x{} grid, the map is {}x{}",
                j.width(),
                j.height(),
                graph.width(),
                graph.height()
            ))
            .into());
        }
        let spec = self.resolve_inadmissible(graph.neighborhood())?;
        spec.check_terrain(graph)?;
        let heuristic = spec.heuristic_for(graph.neighborhood());
        if let HeuristicSpec::Landmarks { count, .. } = heuristic {
            match table {
                None => {
                    return Err(SpecErrorKind::Table(format!(
                        "{heuristic} needs its landmark table"
                    ))
                    .into());
                }
                Some(t) if count.is_some_and(|k| k != t.landmark_count()) => {
                    return Err(SpecErrorKind::Table(format!(
                        "{heuristic} does not match a table of {} landmarks",
                        t.landmark_count()
                    ))
                    .into());
                }
                Some(_) => {}
            }
        }
        let compressed = compressed_for(heuristic, table)?.map(Cow::Owned);
        Ok(build_searcher(spec, graph, table, jumps, compressed))
    }
}

fn movement_name(neighborhood: Neighborhood) -> &'static str {
    match neighborhood {
        Neighborhood::Octile => "octile",
        Neighborhood::Four => "4-connected",
    }
}

/// Places `k` landmarks on `graph` and builds their symmetric table (in
/// parallel).
///
/// # Errors
///
/// [`SpecErrorKind::Table`] when the map has fewer than `k` cells with a
/// legal move.
pub fn build_table(
    graph: &GridGraph,
    k: usize,
    placement: Placement,
) -> Result<LandmarkTable, SpecError> {
    let landmarks = place(graph, k, placement);
    if landmarks.len() < k {
        return Err(SpecErrorKind::Table(format!(
            "cannot place {k} landmarks: the map has only {} cells with a legal move",
            landmarks.len()
        ))
        .into());
    }
    Ok(LandmarkTable::build(
        graph,
        &landmarks,
        Directedness::Symmetric,
    ))
}

/// Tables built or loaded beforehand (saved files), for
/// [`SearchSpec::prepare_given`].
#[derive(Clone, Debug, Default)]
pub struct GivenTables {
    /// A landmark table, for a `dh` heuristic.
    pub landmarks: Option<LandmarkTable>,
    /// A compressed landmark table (saved by `landmarks build --keep M`),
    /// for `dh:K:keepM`; not with `landmarks`.
    pub compressed: Option<CompressedTable>,
    /// A jump table, for `jps+`.
    pub jumps: Option<JumpTable>,
    /// Seconds spent loading them, counted in
    /// [`Prepared::preprocess_s`].
    pub seconds: f64,
}

/// A resolved spec with what it needs on one graph (its landmark table, its
/// jump table), ready to hand out searchers.
#[derive(Debug)]
pub struct Prepared<'g> {
    graph: &'g GridGraph,
    spec: SearchSpec,
    table: Option<LandmarkTable>,
    /// The compressed copy of `table` that `dh:K:keepM` searches.
    compressed: Option<CompressedTable>,
    jumps: Option<JumpTable>,
    /// Whether the table was given (a saved file) rather than built.
    table_given: bool,
    preprocess_s: f64,
}

impl<'g> Prepared<'g> {
    /// The resolved spec (every part filled in).
    pub fn spec(&self) -> SearchSpec {
        self.spec
    }

    /// The graph.
    pub fn graph(&self) -> &'g GridGraph {
        self.graph
    }

    /// The heuristic as reports name it: its spec name, or `dh:K` (with
    /// the mode, as in `dh:K:keepM`) for a table given by the caller, whose
    /// placement is not known.
    pub fn heuristic_label(&self) -> String {
        match self.spec.heuristic_for(self.graph.neighborhood()) {
            HeuristicSpec::Landmarks {
                count: Some(k),
                mode,
                ..
            } if self.table_given => {
                format!("dh:{k}{mode}")
            }
            h => h.to_string(),
        }
    }

    /// Why the heuristic is not admissible on this graph (the search may
    /// then return paths that are not shortest), or `None` when it is.
    pub fn inadmissible(&self) -> Option<SpecError> {
        self.spec.resolve(self.graph.neighborhood()).err()
    }

    /// The landmark table, for a landmark heuristic.
    pub fn table(&self) -> Option<&LandmarkTable> {
        self.table.as_ref()
    }

    /// The landmark nodes of the landmark table or, for a compressed
    /// table given alone, of that one.
    pub fn landmark_nodes(&self) -> Option<&[NodeId]> {
        match (&self.table, &self.compressed) {
            (Some(t), _) => Some(t.landmarks()),
            (None, Some(c)) => Some(c.landmarks()),
            (None, None) => None,
        }
    }

    /// The jump table, for `jps+`.
    pub fn jump_table(&self) -> Option<&JumpTable> {
        self.jumps.as_ref()
    }

    /// Seconds spent placing and building (or loading) the landmark table
    /// and the jump table; 0 without tables.
    pub fn preprocess_s(&self) -> f64 {
        self.preprocess_s
    }

    /// Bytes of the landmark table's distances (of its compressed copy
    /// for `dh:K:keepM`, which is what the search reads) and of the jump
    /// table's entries; 0 without tables.
    pub fn table_bytes(&self) -> usize {
        let landmarks = match &self.compressed {
            Some(c) => c.memory_bytes(),
            None => self.table.as_ref().map_or(0, LandmarkTable::memory_bytes),
        };
        landmarks + self.jumps.as_ref().map_or(0, JumpTable::memory_bytes)
    }

    /// A new searcher with a cache of its own (one per thread).
    pub fn searcher(&self) -> Box<dyn Searcher + '_> {
        build_searcher(
            self.spec,
            self.graph,
            self.table.as_ref(),
            self.jumps.as_ref(),
            self.compressed.as_ref().map(Cow::Borrowed),
        )
    }
}

/// `search` with a new cache over OPEN set `Q`, boxed.
fn boxed<'a, S: crate::search::Search + 'a, Q: crate::open::OpenSet + Default + 'a>(
    search: S,
) -> Box<dyn Searcher + 'a> {
    Box::new(Cached::new(search, SearchCache::with_open(Q::default())))
}

/// A* over a table the searcher owns, with OPEN set `open`.
fn owned_table_astar<'a, T: OwnedTable + 'a>(
    open: OpenKind,
    graph: &'a GridGraph,
    table: T,
    weight: f64,
) -> Box<dyn Searcher + 'a> {
    with_open_set!(open, |Q| boxed::<_, Q>(OwnedTableAStar::new(
        graph, table, weight
    )))
}

/// The A* of [`build_searcher`]: over the compressed copy of the landmark
/// table that `dh:K:keepM` comes with ([`compressed_for`]), over adaptive
/// landmarks (`dh:K:adapt`, a copy of the table), or over the heuristic of
/// the spec.
fn astar_searcher<'a>(
    graph: &'a GridGraph,
    (heuristic, open, weight): (HeuristicSpec, OpenKind, f64),
    table: Option<&'a LandmarkTable>,
    compressed: Option<Cow<'a, CompressedTable>>,
) -> Box<dyn Searcher + 'a> {
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
        _ => with_open_set!(open, |Q| with_heuristic!(heuristic, graph, table, |h| {
            boxed::<_, Q>(AStar::new(graph, Weighted::checked(h, weight)))
        })),
    }
}

/// The one place where a spec's names become types.
///
/// The heuristic of A*, canonical A* and jump points is always wrapped in
/// [`Weighted`] (weight 1 when the spec has none, which leaves every
/// estimate exactly as it is), so that weighted search costs no second
/// copy of each combination. The searcher is string-pulled when the spec
/// says so, and its memory sized and first-touched for the graph
/// ([`Searcher::prepare`]), so that its first query is timed like the
/// others.
fn build_searcher<'a>(
    spec: SearchSpec,
    graph: &'a GridGraph,
    table: Option<&'a LandmarkTable>,
    jumps: Option<&'a JumpTable>,
    compressed: Option<Cow<'a, CompressedTable>>,
) -> Box<dyn Searcher + 'a> {
    let heuristic = spec.heuristic_for(graph.neighborhood());
    let open = spec.open_kind();
    let weight = spec.bound();
    let mut searcher = match spec.algorithm {
        Algorithm::Bfs => boxed::<_, crate::open::QuaternaryHeap>(Bfs::new(graph)),
        Algorithm::Dijkstra => with_open_set!(open, |Q| boxed::<_, Q>(Dijkstra::new(graph))),
        Algorithm::AStar => astar_searcher(graph, (heuristic, open, weight), table, compressed),
        // The weight bounds the focal list; the heuristic stays admissible.
        Algorithm::Focal => with_heuristic!(heuristic, graph, table, |h| {
            match Focal::new(graph, h, weight) {
                Some(focal) => boxed::<_, crate::open::QuaternaryHeap>(focal),
                // `Weight` is finite and at least 1.
                None => boxed::<_, crate::open::QuaternaryHeap>(Dijkstra::new(graph)),
            }
        }),
        Algorithm::Theta => with_open_set!(open, |Q| match heuristic {
            HeuristicSpec::Zero => match ThetaStar::with_heuristic(graph, Zero) {
                Some(theta) => boxed::<_, Q>(theta),
                // `resolve` refused Theta* without octile movement.
                None => boxed::<_, Q>(Dijkstra::new(graph)),
            },
            // `resolve` allows only euclidean besides zero.
            _ => match ThetaStar::new(graph) {
                Some(theta) => boxed::<_, Q>(theta),
                None => boxed::<_, Q>(Dijkstra::new(graph)),
            },
        }),
        Algorithm::Canonical => with_open_set!(
            open,
            |Q| with_heuristic!(jump heuristic, graph, table, |h| {
                boxed::<_, Q>(AStar::new(Canonical(graph), Weighted::checked(h, weight)))
            })
        ),
        Algorithm::Jps => with_open_set!(
            open,
            |Q| with_heuristic!(jump heuristic, graph, table, |h| {
                let jps = JumpPointSearch::with_heuristic(graph, Weighted::checked(h, weight));
                match jps {
                    Some(jps) => boxed::<_, Q>(jps),
                    // `resolve` refused jump points without octile movement.
                    None => boxed::<_, Q>(AStar::new(graph, Octile::new(graph))),
                }
            })
        ),
        Algorithm::JpsPlus => with_open_set!(
            open,
            |Q| with_heuristic!(jump heuristic, graph, table, |h| {
                let jumps: Cow<'a, JumpTable> = match jumps {
                    Some(t) => Cow::Borrowed(t),
                    None => Cow::Owned(JumpTable::build(graph)),
                };
                match JumpPointSearchPlus::with_heuristic(graph, jumps, Weighted::checked(h, weight)) {
                    Some(jps) => boxed::<_, Q>(jps),
                    // `resolve` refused jump points without octile movement,
                    // `prepare_given` a table of another size.
                    None => boxed::<_, Q>(AStar::new(graph, Octile::new(graph))),
                }
            })
        ),
    };
    if spec.pull {
        searcher = Box::new(StringPulled::new(graph, searcher));
    }
    searcher.prepare(graph.node_bound());
    searcher
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heuristics() -> Vec<HeuristicSpec> {
        let mut all = HeuristicSpec::DISTANCES.to_vec();
        all.extend(
            PlacementKind::ALL.map(|placement| HeuristicSpec::Landmarks {
                count: Some(3),
                placement,
                mode: LandmarkMode::All,
            }),
        );
        // A bare `dh` names no placement: its table comes from a file.
        for (count, placement) in [
            (None, PlacementKind::default()),
            (Some(3), PlacementKind::Sampled),
        ] {
            all.push(HeuristicSpec::Landmarks {
                count,
                placement,
                mode: LandmarkMode::Best(2),
            });
        }
        all
    }

    #[test]
    fn best_of_names_parse_print_and_refuse_out_of_range() {
        for name in ["dh:16:sampled:best4", "dh:best2", "dh:8:farthest:best8"] {
            let h: HeuristicSpec = name.parse().unwrap();
            assert_eq!(h.to_string(), name);
        }
        assert_eq!(
            "dh:16:best4".parse::<HeuristicSpec>().unwrap().to_string(),
            "dh:16:sampled:best4"
        );
        for bad in [
            "dh:16:best0",
            "dh:16:best9",
            "dh:16:bestx",
            "dh:16:best4:sampled",
        ] {
            let err = bad.parse::<HeuristicSpec>().unwrap_err().to_string();
            assert!(
                err.contains("best1 to best8") || err.contains("placement"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn compressed_and_adaptive_names_parse_print_and_are_refused_where_they_cannot_run() {
        for name in [
            "dh:16:sampled:keep4",
            "dh:keep2",
            "dh:8:farthest:adapt",
            "dh:adapt",
        ] {
            let h: HeuristicSpec = name.parse().unwrap();
            assert_eq!(h.to_string(), name);
        }
        for (bad, says) in [
            ("dh:16:keep0", "keep1 to keepK"),
            ("dh:16:keep65", "keep1 to keepK"),
            ("dh:16:keepx", "keep1 to keepK"),
            (
                "dh:4:keep5",
                "keep5 keeps more landmarks per cell than the 4",
            ),
            ("dh:4:adapt:farthest", "placement"),
        ] {
            let err = bad.parse::<HeuristicSpec>().unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
        for (bad, says) in [
            ("jps/dh:16:keep4", "searched by astar only"),
            ("canonical/dh:16:adapt", "searched by astar only"),
            ("focal/dh:16:adapt@1.5", "searched by astar only"),
            ("astar/dh:16:keep4@1.5", "not weighted"),
            ("astar/dh:16:keep4/radix-heap", "cannot use radix-heap"),
        ] {
            let spec: SearchSpec = bad.parse().unwrap();
            let err = spec.resolve(Neighborhood::Octile).unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
        // Weighted adaptive A* is fine: every state of its table is consistent.
        let spec: SearchSpec = "astar/dh:16:adapt@1.5".parse().unwrap();
        assert!(spec.resolve(Neighborhood::Octile).is_ok());
    }

    /// A small octile map of rooms.
    fn rooms() -> GridGraph {
        let grid = crate::grid::MapKind::Rooms { room_size: 5 }
            .generate(30, 20, 2)
            .unwrap();
        GridGraph::new(grid, Neighborhood::Octile)
    }

    #[test]
    fn every_landmark_mode_answers_no_path_for_a_node_off_the_graph() {
        let graph = rooms();
        let (on, off) = (
            crate::grid::random_queries(&graph, 1, 3)[0].0,
            NodeId(1 << 30),
        );
        for name in [
            "astar/dh:4",
            "astar/dh:4:best2",
            "astar/dh:4:keep2",
            "astar/dh:4:adapt",
        ] {
            let prepared = name.parse::<SearchSpec>().unwrap().prepare(&graph).unwrap();
            let mut searcher = prepared.searcher();
            for (start, goal) in [(off, on), (on, off), (off, off)] {
                assert_eq!(
                    searcher.search_cost(start, goal),
                    None,
                    "{name}: {start} -> {goal}"
                );
            }
        }
    }

    #[test]
    fn estimates_with_a_start_are_those_the_search_of_the_pair_reads() {
        use crate::landmarks::DifferentialHeuristic;
        let graph = rooms();
        let table = build_table(&graph, 6, Placement::Farthest { seed: 1 }).unwrap();
        let spec: HeuristicSpec = "dh:6:best2".parse().unwrap();
        let search_h = DifferentialHeuristic::new(&table, Octile::new(&graph)).with_best(2);
        let mut differ = 0;
        for (start, goal) in crate::grid::random_queries(&graph, 12, 5) {
            let paired = spec
                .estimates(&graph, Some(&table), Some(start), goal)
                .unwrap();
            let target = search_h.goal_for(start, goal);
            for (n, &e) in paired.iter().enumerate() {
                assert_eq!(e, search_h.estimate(NodeId(n as u32), &target), "node {n}");
            }
            let by_goal = spec.estimates(&graph, Some(&table), None, goal).unwrap();
            differ += usize::from(paired != by_goal);
        }
        assert!(
            differ > 0,
            "some pair chooses other landmarks than its goal alone"
        );
    }

    #[test]
    fn the_estimates_of_a_compressed_table_lie_between_octile_and_the_full_table() {
        let graph = rooms();
        let table = build_table(&graph, 6, Placement::Farthest { seed: 1 }).unwrap();
        let goal = crate::grid::random_queries(&graph, 1, 3)[0].1;
        let of = |name: &str| {
            let h: HeuristicSpec = name.parse().unwrap();
            h.estimates(&graph, Some(&table), None, goal).unwrap()
        };
        let (octile, keep, full) = (of("octile"), of("dh:6:keep1"), of("dh:6"));
        let mut weaker = 0;
        for n in 0..octile.len() {
            if !graph.is_passable(NodeId(n as u32)) {
                continue;
            }
            assert!(octile[n] <= keep[n] + 1e-9, "node {n}");
            assert!(keep[n] <= full[n] + 1e-9, "node {n}");
            weaker += usize::from(keep[n] < full[n] - 1e-6);
        }
        assert!(weaker > 0, "one kept landmark of six bounds less somewhere");
        let err = "dh:keep7".parse::<HeuristicSpec>().unwrap().estimates(
            &graph,
            Some(&table),
            None,
            goal,
        );
        assert!(err.unwrap_err().to_string().contains("keep7"));
    }

    #[test]
    fn every_name_prints_back_and_resolving_is_idempotent() {
        for algorithm in Algorithm::ALL {
            for heuristic in heuristics().into_iter().map(Some).chain([None]) {
                for (open, weight) in OpenKind::ALL
                    .into_iter()
                    .map(Some)
                    .chain([None])
                    .zip([None, Weight::new(1.5)].into_iter().cycle())
                {
                    let spec = SearchSpec {
                        algorithm,
                        heuristic,
                        open,
                        weight,
                        pull: weight.is_none() && open.is_none(),
                    };
                    assert_eq!(spec.to_string().parse::<SearchSpec>(), Ok(spec));
                    for nb in [Neighborhood::Octile, Neighborhood::Four] {
                        if let Ok(resolved) = spec.resolve_inadmissible(nb) {
                            assert_eq!(resolved.resolve_inadmissible(nb), Ok(resolved), "{spec}");
                            assert!(resolved.heuristic.is_some(), "{resolved}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn unknown_names_list_the_valid_ones_and_are_clipped() {
        let err = "astar/octile/fibonacci-heap"
            .parse::<SearchSpec>()
            .unwrap_err();
        for kind in OpenKind::ALL {
            assert!(err.to_string().contains(kind.name()), "{err}");
        }
        let err = "dfs".parse::<SearchSpec>().unwrap_err();
        assert!(
            err.to_string()
                .contains("astar, canonical, jps, jps+, dijkstra, bfs"),
            "{err}"
        );
        let long = "x".repeat(10_000);
        let err = long.parse::<HeuristicSpec>().unwrap_err().to_string();
        assert!(err.len() < 300, "{} bytes", err.len());
        for bad in ["dh:0", "dh:65", "dh:x", "dh:4:nowhere", "dh:4:farthest:1"] {
            assert!(bad.parse::<HeuristicSpec>().is_err(), "{bad}");
        }
    }

    /// A 9x3 octile map with two walls; the shortest path between its top
    /// corners costs 12.
    fn two_walls() -> GridGraph {
        GridGraph::new(
            crate::grid::Grid::from_ascii(
                "
                ....@....
                .@@.@.@@.
                .........
                ",
            )
            .unwrap(),
            Neighborhood::Octile,
        )
    }

    #[test]
    fn a_given_compressed_table_searches_as_dh_keep_m() {
        let graph = two_walls();
        let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 0).unwrap());
        let full = build_table(&graph, 4, Placement::Farthest { seed: 1 }).unwrap();
        let compressed = CompressedTable::new(&full, 2, Compression::Nearest);
        let given = |c: &CompressedTable| GivenTables {
            compressed: Some(c.clone()),
            seconds: 0.25,
            ..GivenTables::default()
        };
        for name in [
            "astar",
            "astar/dh",
            "astar/dh:4",
            "astar/dh:keep2",
            "astar/dh:4:keep2",
        ] {
            let spec: SearchSpec = name.parse().unwrap();
            let prepared = spec.prepare_given(&graph, given(&compressed)).unwrap();
            assert_eq!(prepared.heuristic_label(), "dh:4:keep2", "{name}");
            assert!(prepared.table().is_none());
            assert_eq!(prepared.landmark_nodes(), Some(full.landmarks()));
            assert_eq!(prepared.table_bytes(), compressed.memory_bytes());
            assert!(prepared.preprocess_s() >= 0.25);
            assert_eq!(prepared.searcher().search_cost(start, goal), Some(12.0));
        }
        // The same search as compressing the full table here.
        let here: SearchSpec = "astar/dh:4:farthest:keep2".parse().unwrap();
        let from_full = here.prepare_with_table(&graph, full.clone(), 0.0).unwrap();
        let from_file = "astar/dh:keep2"
            .parse::<SearchSpec>()
            .unwrap()
            .prepare_given(&graph, given(&compressed))
            .unwrap();
        let (mut a, mut b) = (from_full.searcher(), from_file.searcher());
        for (s, z) in [
            (start, goal),
            (goal, start),
            (graph.node(2, 1).unwrap(), goal),
        ] {
            assert_eq!(a.search_cost(s, z), b.search_cost(s, z));
            assert_eq!(a.stats(), b.stats());
        }
        // Refused: another count, another kept count, another mode, another
        // heuristic or search, both kinds of table, another map.
        for (name, says) in [
            ("astar/dh:5", "table has 4"),
            ("astar/dh:keep3", "keep3 asks to keep 3"),
            ("astar/dh:best2", "gives dh:4:keep2, not dh:4:best2"),
            ("astar/dh:adapt", "not dh:4:adapt"),
            ("astar/octile", "heuristic is octile"),
            ("jps/dh", "keep"),
        ] {
            let spec: SearchSpec = name.parse().unwrap();
            let err = spec
                .prepare_given(&graph, given(&compressed))
                .unwrap_err()
                .to_string();
            assert!(err.contains(says), "{name}: {err}");
        }
        let both = GivenTables {
            landmarks: Some(full),
            ..given(&compressed)
        };
        let err = SearchSpec::default()
            .prepare_given(&graph, both)
            .unwrap_err();
        assert!(err.to_string().contains("not both"), "{err}");
        let other = crate::grid::testing::open_map(4, 9, Neighborhood::Octile);
        let err = SearchSpec::default()
            .prepare_given(&other, given(&compressed))
            .unwrap_err();
        assert!(
            err.to_string().contains("covers 27 nodes, the map has 36"),
            "{err}"
        );
    }

    #[test]
    fn jps_plus_builds_its_jump_table_or_takes_a_given_one() {
        let graph = two_walls();
        let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(8, 0).unwrap());
        let spec: SearchSpec = "jps+".parse().unwrap();
        let prepared = spec.prepare(&graph).unwrap();
        assert_eq!(prepared.spec().to_string(), "jps+/octile/quaternary-heap");
        assert_eq!(prepared.table_bytes(), 27 * 16);
        assert!(prepared.jump_table().is_some());
        assert_eq!(prepared.searcher().search_cost(start, goal), Some(12.0));

        let given = GivenTables {
            jumps: Some(JumpTable::build(&graph)),
            seconds: 0.5,
            ..GivenTables::default()
        };
        let prepared = spec.prepare_given(&graph, given.clone()).unwrap();
        assert!(prepared.preprocess_s() >= 0.5);
        assert_eq!(prepared.searcher().search_cost(start, goal), Some(12.0));
        // With landmarks too.
        let dh: SearchSpec = "jps+/dh:2".parse().unwrap();
        let prepared = dh.prepare_given(&graph, given.clone()).unwrap();
        assert_eq!(prepared.searcher().search_cost(start, goal), Some(12.0));
        assert_eq!(
            prepared.table_bytes(),
            27 * 16 + prepared.table().unwrap().memory_bytes()
        );

        let err = SearchSpec::new(Algorithm::Jps)
            .prepare_given(&graph, given)
            .unwrap_err();
        assert!(
            err.to_string().contains("for the jps+ search, not jps"),
            "{err}"
        );
        let other = crate::grid::testing::open_map(3, 9, Neighborhood::Octile);
        let given = GivenTables {
            jumps: Some(JumpTable::build(&other)),
            ..GivenTables::default()
        };
        let err = spec.prepare_given(&graph, given).unwrap_err();
        assert!(
            err.to_string().contains("3x9 grid, the map is 9x3"),
            "{err}"
        );
        // Without a prepared table, the searcher builds its own.
        let mut searcher = spec.searcher(&graph, None).unwrap();
        assert_eq!(searcher.search_cost(start, goal), Some(12.0));
        // A table kept by the caller gives the same search; one of another
        // size is refused.
        let kept = JumpTable::build(&graph);
        let mut borrowing = spec.searcher_with_jumps(&graph, None, Some(&kept)).unwrap();
        assert_eq!(borrowing.search_cost(start, goal), Some(12.0));
        assert_eq!(borrowing.stats(), searcher.stats());
        let wrong = JumpTable::build(&other);
        let err = spec
            .searcher_with_jumps(&graph, None, Some(&wrong))
            .err()
            .unwrap();
        assert!(
            err.to_string().contains("3x9 grid, the map is 9x3"),
            "{err}"
        );
        let err = spec.resolve(Neighborhood::Four).unwrap_err();
        assert!(err.to_string().contains("octile movement"), "{err}");
    }

    #[test]
    fn defaults_follow_the_movement_and_the_heuristic() {
        let spec = SearchSpec::new(Algorithm::AStar);
        let octile = spec.resolve(Neighborhood::Octile).unwrap();
        assert_eq!(octile.to_string(), "astar/octile/quaternary-heap");
        let four = spec.resolve(Neighborhood::Four).unwrap();
        assert_eq!(four.to_string(), "astar/manhattan/quaternary-heap");
        let dh: SearchSpec = "astar/dh:4".parse().unwrap();
        assert_eq!(dh.open_kind(), OpenKind::PairingHeap);
        let err = "astar/manhattan"
            .parse::<SearchSpec>()
            .unwrap()
            .resolve(Neighborhood::Octile)
            .unwrap_err();
        assert!(
            matches!(err.kind(), SpecErrorKind::Inadmissible { .. }),
            "{err}"
        );
        let err = "jps"
            .parse::<SearchSpec>()
            .unwrap()
            .resolve(Neighborhood::Four)
            .unwrap_err();
        assert!(err.to_string().contains("octile movement"), "{err}");
    }
}
