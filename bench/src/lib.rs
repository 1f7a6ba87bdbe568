//! Shared pieces of the cairns benchmarks: finding the Moving AI data and
//! loading a benchmark set as graphs and checked queries.

pub mod plot;

use std::path::{Path, PathBuf};

use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Neighborhood};
use cairns::movingai::{lengths_match, map_path_for, read_map, read_scen};

/// The Moving AI data directory: `$CAIRNS_DATA` or `../shared/data/movingai`
/// beside the repository.
///
/// # Panics
///
/// When the directory does not exist: benchmarks never run on nothing.
pub fn data_dir() -> PathBuf {
    let dir = std::env::var_os("CAIRNS_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/movingai"),
        PathBuf::from,
    );
    assert!(
        dir.is_dir(),
        "Moving AI data not found at {} (set CAIRNS_DATA)",
        dir.display()
    );
    dir
}

/// One query of a scenario file, with its published optimal length.
#[derive(Clone, Copy, Debug)]
pub struct Query {
    /// Start cell.
    pub start: NodeId,
    /// Goal cell.
    pub goal: NodeId,
    /// Published optimal length.
    pub optimal: f64,
    /// Decimals printed in the length.
    pub decimals: u32,
}

impl Query {
    /// Whether a computed cost matches the published length.
    pub fn matches(&self, cost: Option<f64>) -> bool {
        cost.is_some_and(|c| lengths_match(c, self.optimal, self.decimals))
    }
}

/// A map of a benchmark set with (a sample of) its scenarios.
#[derive(Debug)]
pub struct Instance {
    /// The map's file name without `.map`.
    pub name: String,
    /// The map under octile movement.
    pub graph: GridGraph,
    /// The queries, every `every`-th line of the scenario file.
    pub queries: Vec<Query>,
}

/// Loads every map of a set (`dao`, `maze`, ...) with every `every`-th
/// scenario, sorted by name. Scenarios with blocked endpoints are skipped.
///
/// # Panics
///
/// When the set is missing or a file does not parse: benchmark data is
/// expected to be valid.
pub fn load_set(set: &str, every: usize) -> Vec<Instance> {
    let dir = data_dir().join(set);
    let mut scens: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".map.scen"))
        .collect();
    scens.sort();
    scens
        .iter()
        .map(|scen| load_instance(scen, every))
        .collect()
}

/// Loads one scenario file and its map.
///
/// # Panics
///
/// When a file does not parse.
pub fn load_instance(scen: &Path, every: usize) -> Instance {
    let file = read_scen(scen).unwrap_or_else(|e| panic!("{e}"));
    let map = map_path_for(scen);
    let grid = read_map(&map).unwrap_or_else(|e| panic!("{e}"));
    let queries = file
        .scenarios
        .iter()
        .step_by(every.max(1))
        .filter_map(|s| {
            let (start, goal) = s.endpoints(&grid).ok()?;
            Some(Query {
                start,
                goal,
                optimal: s.optimal,
                decimals: s.decimals,
            })
        })
        .collect();
    let name = map
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Instance {
        name,
        graph: GridGraph::new(grid, Neighborhood::Octile),
        queries,
    }
}

/// The median of some samples (sorted in place); 0 for none.
pub fn median(samples: &mut [f64]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.sort_by(f64::total_cmp);
    let mid = samples.len() / 2;
    if samples.len() % 2 == 1 {
        samples[mid]
    } else {
        f64::midpoint(samples[mid - 1], samples[mid])
    }
}

/// The geometric mean of positive values; 0 for none.
pub fn geometric_mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}
