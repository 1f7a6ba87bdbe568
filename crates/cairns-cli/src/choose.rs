//! Names of heuristics, OPEN sets and movement rules on the command line.

use std::fmt;
use std::str::FromStr;

use cairns::grid::Neighborhood;

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
}

impl HeuristicName {
    pub const HELP: &str = "zero, manhattan, octile or euclidean";

    /// Whether the heuristic is admissible under a movement rule.
    pub fn admissible_for(self, neighborhood: Neighborhood) -> bool {
        !(self == HeuristicName::Manhattan && neighborhood == Neighborhood::Octile)
    }
}

impl FromStr for HeuristicName {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "zero" | "dijkstra" => HeuristicName::Zero,
            "manhattan" => HeuristicName::Manhattan,
            "octile" => HeuristicName::Octile,
            "euclidean" => HeuristicName::Euclidean,
            _ => return Err(format!("unknown heuristic {s:?} (expected {})", Self::HELP)),
        })
    }
}

impl fmt::Display for HeuristicName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HeuristicName::Zero => "zero",
            HeuristicName::Manhattan => "manhattan",
            HeuristicName::Octile => "octile",
            HeuristicName::Euclidean => "euclidean",
        })
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
macro_rules! with_heuristic {
    ($name:expr, $graph:expr, |$h:ident| $body:expr) => {{
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
        }
    }};
}
pub(crate) use with_heuristic;
