//! Names of heuristics, landmark placements, OPEN sets and movement rules
//! on the command line, and the landmark tables the differential heuristic
//! needs.

use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::str::FromStr;
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::grid::GridGraph;
use cairns::grid::Neighborhood;
use cairns::landmarks::{Directedness, LandmarkTable, Placement, grid_hash, place};
use cairns::open::CATALOGUE;

/// The largest landmark count the command builds a table for (`dh:K`,
/// `landmarks build -k K`): 64 landmarks already take 256 bytes per cell.
pub const MAX_LANDMARKS: usize = 64;

/// The seed of landmark placement when none is given.
pub const DEFAULT_SEED: u64 = 1;

/// A heuristic chosen by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicName {
    /// `zero`: Dijkstra.
    Zero,
    /// `manhattan`.
    Manhattan,
    /// `octile`.
    Octile,
    /// `euclidean`.
    Euclidean,
    /// `dh`, `dh:K` or `dh:K:PLACEMENT`: the differential heuristic of a
    /// landmark table over the octile distance. `k` is `None` for a bare
    /// `dh`, whose table comes from elsewhere (a file, or a count option).
    Differential {
        /// The number of landmarks.
        k: Option<usize>,
        /// How they are placed (seed [`DEFAULT_SEED`]).
        placement: PlacementName,
    },
}

impl HeuristicName {
    pub const HELP: &str = "zero, manhattan, octile, euclidean or dh:K[:PLACEMENT] (PLACEMENT random, farthest, avoid or sampled)";

    /// Whether the heuristic is admissible under a movement rule.
    pub fn admissible_for(self, neighborhood: Neighborhood) -> bool {
        !(self == HeuristicName::Manhattan && neighborhood == Neighborhood::Octile)
    }

    /// Whether this is the differential heuristic.
    pub fn is_differential(self) -> bool {
        matches!(self, HeuristicName::Differential { .. })
    }
}

impl FromStr for HeuristicName {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s == "dh" || s.starts_with("dh:") {
            return parse_differential(s);
        }
        Ok(match s {
            "zero" | "dijkstra" => HeuristicName::Zero,
            "manhattan" => HeuristicName::Manhattan,
            "octile" => HeuristicName::Octile,
            "euclidean" => HeuristicName::Euclidean,
            _ => return Err(format!("unknown heuristic {s:?} (expected {})", Self::HELP)),
        })
    }
}

/// Parses `dh`, `dh:K` and `dh:K:PLACEMENT`.
fn parse_differential(s: &str) -> Result<HeuristicName, String> {
    let mut parts = s.split(':').skip(1);
    let k = match parts.next() {
        None => None,
        Some(k) => Some(parse_landmark_count(k).map_err(|e| format!("dh:K: {e}"))?),
    };
    let placement = match parts.next() {
        None => PlacementName::Farthest,
        Some(p) => p.parse().map_err(|e| format!("dh:K:PLACEMENT: {e}"))?,
    };
    if parts.next().is_some() {
        return Err(format!("expected dh:K[:PLACEMENT], got {s:?}"));
    }
    Ok(HeuristicName::Differential { k, placement })
}

/// Parses a landmark count, 1 to [`MAX_LANDMARKS`].
pub fn parse_landmark_count(s: &str) -> Result<usize, String> {
    let k: usize = s
        .parse()
        .map_err(|_| format!("the landmark count must be a number, got {s:?}"))?;
    if (1..=MAX_LANDMARKS).contains(&k) {
        Ok(k)
    } else {
        Err(format!(
            "the landmark count must be 1 to {MAX_LANDMARKS}, got {k}"
        ))
    }
}

impl fmt::Display for HeuristicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeuristicName::Zero => f.write_str("zero"),
            HeuristicName::Manhattan => f.write_str("manhattan"),
            HeuristicName::Octile => f.write_str("octile"),
            HeuristicName::Euclidean => f.write_str("euclidean"),
            HeuristicName::Differential { k: None, .. } => f.write_str("dh"),
            HeuristicName::Differential {
                k: Some(k),
                placement,
            } => write!(f, "dh:{k}:{placement}"),
        }
    }
}

/// A landmark placement strategy chosen by name; the seed is separate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlacementName {
    /// Uniformly at random.
    Random,
    /// Farthest-first.
    Farthest,
    /// Goldberg and Werneck's "avoid".
    Avoid,
    /// Chosen from a farthest-first pool of 4k by their gain on sampled
    /// pairs.
    Sampled,
}

impl PlacementName {
    /// The library's placement with `seed`.
    pub fn with_seed(self, seed: u64) -> Placement {
        match self {
            PlacementName::Random => Placement::Random { seed },
            PlacementName::Farthest => Placement::Farthest { seed },
            PlacementName::Avoid => Placement::Avoid { seed },
            PlacementName::Sampled => Placement::Sampled { seed },
        }
    }
}

impl FromStr for PlacementName {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(PlacementName::Random),
            "farthest" => Ok(PlacementName::Farthest),
            "avoid" => Ok(PlacementName::Avoid),
            "sampled" => Ok(PlacementName::Sampled),
            _ => Err(format!(
                "unknown placement {s:?} (expected random, farthest, avoid or sampled)"
            )),
        }
    }
}

impl fmt::Display for PlacementName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlacementName::Random => "random",
            PlacementName::Farthest => "farthest",
            PlacementName::Avoid => "avoid",
            PlacementName::Sampled => "sampled",
        })
    }
}

/// Places `k` landmarks on `graph` and builds their table (in parallel).
///
/// # Errors
///
/// When the map has fewer than `k` cells with a legal move.
pub fn build_table(
    graph: &GridGraph,
    k: usize,
    placement: Placement,
) -> anyhow::Result<LandmarkTable> {
    let landmarks = place(graph, k, placement);
    if landmarks.len() < k {
        bail!(
            "cannot place {k} landmarks: the map has only {} cells with a legal move",
            landmarks.len()
        );
    }
    Ok(LandmarkTable::build(
        graph,
        &landmarks,
        Directedness::Symmetric,
    ))
}

/// Loads the landmark table in `path` for `graph`, checking that it was
/// built for this map and movement rule. Every error names the file.
pub fn load_table(path: &Path, graph: &GridGraph) -> anyhow::Result<LandmarkTable> {
    let file = File::open(path)
        .with_context(|| format!("{}: cannot open the landmark file", path.display()))?;
    let hash = grid_hash(graph.grid(), graph.neighborhood());
    LandmarkTable::load_for(BufReader::new(file), graph, hash)
        .with_context(|| format!("{}: cannot load the landmark table", path.display()))
}

/// The heuristic of a command, with its landmark table when it has one.
#[derive(Debug)]
pub struct Prepared {
    /// The heuristic, with `k` filled in for a differential one.
    pub name: HeuristicName,
    /// How the heuristic is reported: its name, or `dh:K` for a table
    /// loaded from a file, whose placement is not recorded there.
    pub label: String,
    /// The table of a differential heuristic.
    pub table: Option<LandmarkTable>,
    /// Seconds spent placing and building, or loading, the table.
    pub preprocess_s: f64,
}

impl Prepared {
    /// Bytes of the table's distances; 0 without a table.
    pub fn table_bytes(&self) -> usize {
        self.table.as_ref().map_or(0, LandmarkTable::memory_bytes)
    }
}

/// Resolves `--heuristic` (`None` when not given: octile) and
/// `--landmarks FILE` into a heuristic ready to run: builds the table of
/// `dh:K`, or loads the one in the file.
///
/// # Errors
///
/// A `--landmarks` file that cannot be loaded for this map, `--landmarks`
/// with a heuristic other than `dh`, `dh:K` against a file with another
/// landmark count, a bare `dh` without a file, or too few cells for `K`
/// landmarks.
pub fn prepare(
    heuristic: Option<HeuristicName>,
    landmarks: Option<&Path>,
    graph: &GridGraph,
) -> anyhow::Result<Prepared> {
    let t0 = Instant::now();
    let (name, table) = match (heuristic, landmarks) {
        (Some(h), Some(file)) if !h.is_differential() => bail!(
            "--landmarks {} gives a differential heuristic, but --heuristic is {h} (use dh, or leave --heuristic out)",
            file.display()
        ),
        (h, Some(file)) => {
            let table = load_table(file, graph)?;
            let found = table.landmark_count();
            let placement = match h {
                Some(HeuristicName::Differential { k: Some(k), .. }) if k != found => bail!(
                    "--heuristic dh:{k} asks for {k} landmarks, but {} has {found}",
                    file.display()
                ),
                Some(HeuristicName::Differential { placement, .. }) => placement,
                _ => PlacementName::Farthest,
            };
            let name = HeuristicName::Differential {
                k: Some(found),
                placement,
            };
            (name, Some(table))
        }
        (Some(HeuristicName::Differential { k: None, .. }), None) => {
            bail!(
                "a bare dh needs --landmarks FILE; give the landmark count as dh:K to build a table"
            )
        }
        (
            Some(
                name @ HeuristicName::Differential {
                    k: Some(k),
                    placement,
                },
            ),
            None,
        ) => {
            let table = build_table(graph, k, placement.with_seed(DEFAULT_SEED))?;
            (name, Some(table))
        }
        (h, None) => (h.unwrap_or(HeuristicName::Octile), None),
    };
    let label = match (name, landmarks) {
        (HeuristicName::Differential { k: Some(k), .. }, Some(_)) => format!("dh:{k}"),
        _ => name.to_string(),
    };
    Ok(Prepared {
        name,
        label,
        preprocess_s: if table.is_some() {
            t0.elapsed().as_secs_f64()
        } else {
            0.0
        },
        table,
    })
}

/// Parses the name of an OPEN set from [`CATALOGUE`]; the error lists the
/// valid names.
pub fn parse_open_name(s: &str) -> Result<String, String> {
    if CATALOGUE.iter().any(|info| info.name == s) {
        Ok(s.to_string())
    } else {
        let names: Vec<&str> = CATALOGUE.iter().map(|info| info.name).collect();
        Err(format!(
            "unknown OPEN set {s:?} (expected one of: {})",
            names.join(", ")
        ))
    }
}

/// Parses `4` or `8`.
pub fn parse_neighborhood(s: &str) -> Result<Neighborhood, String> {
    match s {
        "4" => Ok(Neighborhood::Four),
        "8" => Ok(Neighborhood::Octile),
        _ => Err(format!("neighborhood must be 4 or 8, got {s:?}")),
    }
}

/// Runs `$body` with `$h` bound to the heuristic `$name` for `$graph`.
///
/// The differential heuristic borrows its table from `$table` (an
/// `Option<&LandmarkTable>`, built or loaded beforehand, for instance by
/// [`prepare`]), over the octile distance; the three-argument form is for
/// callers that have no table, and panics on a differential heuristic.
macro_rules! with_heuristic {
    ($name:expr, $graph:expr, |$h:ident| $body:expr) => {
        $crate::choose::with_heuristic!(
            $name,
            $graph,
            ::std::option::Option::<&cairns::landmarks::LandmarkTable>::None,
            |$h| $body
        )
    };
    ($name:expr, $graph:expr, $table:expr, |$h:ident| $body:expr) => {{
        use $crate::choose::HeuristicName;
        match $name {
            HeuristicName::Zero => {
                let $h = cairns::heuristic::Zero;
                $body
            }
            HeuristicName::Manhattan => {
                let $h = cairns::heuristic::Manhattan::new($graph);
                $body
            }
            HeuristicName::Octile => {
                let $h = cairns::heuristic::Octile::new($graph);
                $body
            }
            HeuristicName::Euclidean => {
                let $h = cairns::heuristic::Euclidean::new($graph);
                $body
            }
            HeuristicName::Differential { .. } => {
                let table: &cairns::landmarks::LandmarkTable =
                    $table.expect("the differential heuristic needs its table");
                let $h = cairns::landmarks::DifferentialHeuristic::new(
                    table,
                    cairns::heuristic::Octile::new($graph),
                );
                $body
            }
        }
    }};
}
pub(crate) use with_heuristic;

#[cfg(test)]
mod tests {
    use super::{HeuristicName, PlacementName, parse_open_name};
    use cairns::open::CATALOGUE;

    #[test]
    fn heuristic_names_parse_and_print_back() {
        for s in [
            "zero",
            "manhattan",
            "octile",
            "euclidean",
            "dh",
            "dh:8:farthest",
            "dh:1:random",
            "dh:64:avoid",
        ] {
            let h: HeuristicName = s.parse().unwrap();
            assert_eq!(h.to_string(), s);
        }
        assert_eq!(
            "dh:4".parse(),
            Ok(HeuristicName::Differential {
                k: Some(4),
                placement: PlacementName::Farthest
            })
        );
        assert_eq!("dijkstra".parse(), Ok(HeuristicName::Zero));
    }

    #[test]
    fn bad_differential_names_are_rejected() {
        for s in [
            "dh:0",
            "dh:x",
            "dh:65",
            "dh:",
            "dh:4:nowhere",
            "dh:4:avoid:1",
            "dhx",
            "nope",
        ] {
            let err = s.parse::<HeuristicName>().unwrap_err();
            assert!(!err.is_empty(), "{s}");
        }
        let err = "dh:0".parse::<HeuristicName>().unwrap_err();
        assert!(err.contains("1 to 64"), "{err}");
    }

    #[test]
    fn every_catalogue_name_parses() {
        for info in CATALOGUE {
            assert_eq!(parse_open_name(info.name).as_deref(), Ok(info.name));
        }
    }

    #[test]
    fn unknown_open_set_error_lists_the_valid_names() {
        let err = parse_open_name("fibonacci-heap").unwrap_err();
        assert!(
            err.starts_with("unknown OPEN set \"fibonacci-heap\""),
            "{err}"
        );
        for info in CATALOGUE {
            assert!(err.contains(info.name), "{err} does not list {}", info.name);
        }
    }
}
