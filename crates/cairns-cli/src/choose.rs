//! Names of heuristics, OPEN sets and movement rules on the command line.

use std::fmt;
use std::str::FromStr;

use cairns::grid::Neighborhood;
use cairns::open::CATALOGUE;

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

#[cfg(test)]
mod tests {
    use super::parse_open_name;
    use cairns::open::CATALOGUE;

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
