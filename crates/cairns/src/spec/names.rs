//! Names: the vocabulary of a [`SearchSpec`](super::SearchSpec), each
//! part parsed (`FromStr`) and printed (`Display`) here and nowhere else.

use std::fmt;
use std::str::FromStr;

use super::error::{SpecError, SpecErrorKind, clip, one_of, unknown};
use crate::grid::Neighborhood;
use crate::landmarks::Placement;
use crate::landmarks::research::MAX_BEST;
use crate::open::OpenKind;

/// The most landmarks a spec may ask for (`dh:K`): 64 landmarks already
/// take 256 bytes per cell.
pub const MAX_LANDMARKS: usize = 64;

/// The seed of landmark placement in a spec.
pub const PLACEMENT_SEED: u64 = 1;

/// The number after `prefix` in the last part of a `dh` name (`best4`,
/// `keep2`): 1 to `max`; `what` and `expected` word the error.
fn parse_suffix(
    prefix: &str, n: &str, max: usize, what: &'static str, expected: String,
) -> Result<usize, SpecError> {
    n.parse()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| unknown(what, &format!("{prefix}{n}"), expected))
}

/// Refuses keeping more landmarks per cell than the table has.
pub(super) fn check_keep(keep: usize, count: usize) -> Result<(), SpecError> {
    if keep > count {
        return Err(SpecErrorKind::Table(format!(
            "keep{keep} keeps more landmarks per cell than the {count} of the table"
        ))
        .into());
    }
    Ok(())
}

/// The weight of a bounded-suboptimal search (weighted A*, `@W` in a spec,
/// `--weight W`): finite and at least 1; the search returns costs at most
/// `W` times the optimal ones (see [`Weighted`](crate::heuristic::Weighted)).
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
    /// `astar`: [`AStar`](crate::search::AStar) over the graph's edges.
    #[default]
    AStar,
    /// `canonical`: A* with canonical ordering ([`Canonical`](crate::grid::Canonical)), octile only.
    Canonical,
    /// `jps`: [`JumpPointSearch`](crate::search::JumpPointSearch), every
    /// movement rule.
    Jps,
    /// `jps+`: [`JumpPointSearchPlus`](crate::search::JumpPointSearchPlus)
    /// over a table built (or given) before the first query
    /// ([`Algorithm::tables`]), every movement rule.
    JpsPlus,
    /// `jps+bb`: [`JumpPointSearchPlus`](crate::search::JumpPointSearchPlus)
    /// with goal bounding over [`GoalBounds`](crate::search::GoalBounds)
    /// built (or given) before the first query ([`Algorithm::tables`]),
    /// octile only.
    JpsBounds,
    /// `sub`: [`SubgoalSearch`](crate::search::SubgoalSearch) over a
    /// subgoal graph built (or given) before the first query
    /// ([`Algorithm::tables`]), octile only.
    Subgoals,
    /// `dijkstra`: [`Dijkstra`](crate::search::Dijkstra), no heuristic.
    Dijkstra,
    /// `bfs`: breadth-first search ([`Bfs`](crate::search::Bfs)), unit costs (4-connected) only.
    Bfs,
    /// `theta`: [`ThetaStar`](crate::search::ThetaStar), any-angle paths on octile grids; its costs
    /// are Euclidean lengths, at most the octile optimum.
    Theta,
    /// `focal`: focal search ([`Focal`](crate::search::Focal)), costs at most the spec's weight
    /// times the optimal ones; its own lists, no OPEN set.
    Focal,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 10] = [
        Algorithm::AStar,
        Algorithm::Canonical,
        Algorithm::Jps,
        Algorithm::JpsPlus,
        Algorithm::JpsBounds,
        Algorithm::Subgoals,
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
            Algorithm::JpsBounds => "jps+bb",
            Algorithm::Subgoals => "sub",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::Bfs => "bfs",
            Algorithm::Theta => "theta",
            Algorithm::Focal => "focal",
        }
    }

    /// What it is, in one line (`cairns path --help` lists these).
    pub fn about(self) -> &'static str {
        match self {
            Algorithm::AStar => "A* over the graph's edges (the default)",
            Algorithm::Canonical => "A* with canonical ordering (octile)",
            Algorithm::Jps => "jump point search (every movement rule; JPS4 on 4-connected grids)",
            Algorithm::JpsPlus => {
                "jump point search over jump distances built before the first query (octile)"
            }
            Algorithm::JpsBounds => {
                "jps+ with goal bounding: boxes of where each move leads, built before the first query (octile)"
            }
            Algorithm::Dijkstra => "Dijkstra's algorithm: no heuristic",
            Algorithm::Bfs => "breadth-first search: unit costs (4-connected)",
            Algorithm::Theta => "Theta*: any-angle paths, Euclidean lengths (octile)",
            Algorithm::Focal => "focal search: costs at most --weight W times the optimal ones",
            Algorithm::Subgoals => {
                "subgoal graphs: a graph of the obstacles' corners built before the first query (octile)"
            }
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
    /// measured (`docs/differential-heuristics.md`).
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
    /// ([`DifferentialHeuristic::with_best`](crate::landmarks::DifferentialHeuristic::with_best)): fewer reads per estimate,
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
    pub(super) fn astar_only(self) -> bool {
        matches!(self, LandmarkMode::Keep(_) | LandmarkMode::Adapt)
    }
}

/// The heuristic of a [`SearchSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicSpec {
    /// `zero`: [`Zero`](crate::heuristic::Zero).
    Zero,
    /// `manhattan`: [`Manhattan`](crate::heuristic::Manhattan), admissible on 4-connected grids only.
    Manhattan,
    /// `octile`: [`Octile`](crate::heuristic::Octile).
    Octile,
    /// `euclidean`: [`Euclidean`](crate::heuristic::Euclidean).
    Euclidean,
    /// `dh`, `dh:K` or `dh:K:PLACEMENT`, each optionally ending in
    /// `:bestN`, `:keepM` or `:adapt` ([`LandmarkMode`]): the
    /// [`DifferentialHeuristic`](crate::landmarks::DifferentialHeuristic) of a landmark table over the octile
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
            Neighborhood::Octile
            | Neighborhood::OctileCornerCutting
            | Neighborhood::OctileSqueeze => HeuristicSpec::Octile,
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
        !(self == HeuristicSpec::Manhattan && neighborhood.diagonal())
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
    /// [`StringPulled`](crate::search::StringPulled)): the costs become any-angle lengths.
    pub pull: bool,
}

/// `FromStr` and `Display` of a kind with `ALL` and `name()` (for
/// [`OpenKind`](crate::open::OpenKind) too: its names are parsed and shown here): the names are
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
        _ => Err(SpecErrorKind::LandmarkCount {
            found: clip(s),
            max: MAX_LANDMARKS,
        }
        .into()),
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
}
