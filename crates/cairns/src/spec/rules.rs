//! Rules: which combinations of algorithm, heuristic, OPEN set and graph
//! can run, and the defaults a spec takes when a part is left out.

use super::error::{SpecError, SpecErrorKind};
use super::names::{Algorithm, HeuristicSpec, LandmarkMode, SearchSpec};
use crate::grid::{GridGraph, Neighborhood};
use crate::open::OpenKind;
use crate::saved::TableKind;

/// Why the searches of octile movement without corner cutting (goal
/// bounding, canonical ordering, subgoal graphs, Theta*) refuse
/// `neighborhood`, and which serve it: jump points (`jps`, and `jps+` over
/// a jump table) on every rule, A* over a landmark table, plain A* and
/// Dijkstra.
fn needs_octile(neighborhood: Neighborhood) -> String {
    format!(
        "needs octile movement without corner cutting, not {}; there use jps+ (jump points read from a jump table of the rule, built in milliseconds), jps (jump points on every movement rule, no table) or astar with the dh heuristic (astar/dh:16: A* over 16 landmarks)",
        neighborhood.name()
    )
}

impl SearchSpec {
    /// The heuristic the search runs with: the chosen one, or the default
    /// of the algorithm and movement rule ([`Zero`](crate::heuristic::Zero) for Dijkstra and
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
    /// heap under a landmark heuristic (faster there: its exact tables tie
    /// many entries, `docs/differential-heuristics.md`) and the default,
    /// the 4-ary [`QuaternaryHeap`](crate::open::QuaternaryHeap),
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
    /// combination (goal bounding (`jps+bb`), subgoal graphs (`sub`) and
    /// canonical ordering need octile movement and take octile or `dh`;
    /// jump points (`jps`, `jps+`) take every rule, and a grid or `dh`
    /// heuristic off it; breadth-first search needs unit costs;
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
                movement: neighborhood.name(),
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
        &self, neighborhood: Neighborhood,
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
                    return Err(unsupported(needs_octile(neighborhood)));
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
            Algorithm::Jps | Algorithm::JpsPlus if neighborhood != Neighborhood::Octile => {
                // JPS4, or the rules of corner cutting, scanned or read
                // from a jump table of the rule: any grid heuristic
                // admissible there (`resolve` checks that).
                if !matches!(
                    heuristic,
                    HeuristicSpec::Manhattan
                        | HeuristicSpec::Octile
                        | HeuristicSpec::Euclidean
                        | HeuristicSpec::Zero
                        | HeuristicSpec::Landmarks { .. }
                ) {
                    return Err(unsupported(format!(
                        "takes a grid or dh heuristic, not {heuristic}"
                    )));
                }
            }
            Algorithm::Canonical
            | Algorithm::Jps
            | Algorithm::JpsPlus
            | Algorithm::JpsBounds
            | Algorithm::Subgoals => {
                if neighborhood != Neighborhood::Octile {
                    return Err(unsupported(needs_octile(neighborhood)));
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
    pub(super) fn check_landmark_mode(&self, heuristic: HeuristicSpec) -> Result<(), SpecError> {
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
            Algorithm::Jps | Algorithm::JpsPlus | Algorithm::JpsBounds | Algorithm::Subgoals => {
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

    /// The kinds of table the spec searches with on `neighborhood`, in the
    /// order they are built: its algorithm's ([`Algorithm::tables`]) and
    /// its heuristic's (a landmark table for `dh`, and its compressed copy
    /// for `dh:K:keepM`).
    pub fn table_kinds(&self, neighborhood: Neighborhood) -> Vec<TableKind> {
        let mut kinds = Vec::new();
        if let HeuristicSpec::Landmarks { mode, .. } = self.heuristic_for(neighborhood) {
            kinds.push(TableKind::Landmarks);
            if matches!(mode, LandmarkMode::Keep(_)) {
                kinds.push(TableKind::CompressedLandmarks);
            }
        }
        kinds.extend_from_slice(self.algorithm.tables());
        kinds
    }
}
