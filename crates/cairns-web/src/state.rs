//! What the server keeps between requests: the maps, a pool of search
//! caches and recently built landmark tables.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use cairns::graph::NodeId;
use cairns::grid::{GenerateOptions, Grid, MapKind, generate};
use cairns::landmarks::LandmarkTable;
use cairns::movingai::read_map;
use cairns::search::SearchCache;

/// The largest map the server loads, in cells (2048 x 2048).
pub const MAX_CELLS: usize = 1 << 22;

/// How many landmark tables are kept before the oldest are dropped.
const TABLES_KEPT: usize = 8;

/// Why the server state could not be set up.
#[derive(Debug)]
pub struct StateError(String);

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StateError {}

#[derive(Debug)]
enum Source {
    Loaded(Arc<Grid>),
    File(PathBuf),
}

/// The identity of a landmark table: the map, its wall edits, the movement
/// rule and the landmarks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TableKey {
    pub map: String,
    pub edits: Vec<[u32; 3]>,
    pub directions: u32,
    pub landmarks: Vec<NodeId>,
}

/// The state shared by every request.
#[derive(Debug)]
pub struct AppState {
    maps: Vec<(String, Source)>,
    loaded: Mutex<HashMap<String, Arc<Grid>>>,
    suggested: Mutex<HashMap<String, Arc<Vec<NodeId>>>>,
    caches: Mutex<Vec<SearchCache>>,
    tables: Mutex<Vec<(TableKey, Arc<LandmarkTable>)>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl AppState {
    fn empty() -> AppState {
        AppState {
            maps: Vec::new(),
            loaded: Mutex::new(HashMap::new()),
            suggested: Mutex::new(HashMap::new()),
            caches: Mutex::new(Vec::new()),
            tables: Mutex::new(Vec::new()),
        }
    }

    /// A state serving one map under `name`.
    ///
    /// # Errors
    ///
    /// When the map has more than [`MAX_CELLS`] cells.
    pub fn with_grid(name: &str, grid: Grid) -> Result<AppState, StateError> {
        check_size(name, &grid)?;
        let mut state = AppState::empty();
        state
            .maps
            .push((name.to_string(), Source::Loaded(Arc::new(grid))));
        Ok(state)
    }

    /// A state serving the demo's map (generated rooms, 256 x 256, seed 1,
    /// rooms of 15 cells) as `default`.
    ///
    /// # Panics
    ///
    /// Never in practice: the generator accepts this size.
    pub fn with_default_map() -> AppState {
        let grid = generate(&GenerateOptions {
            kind: MapKind::Rooms { room_size: 15 },
            width: 256,
            height: 256,
            seed: 1,
        })
        .expect("256x256 is a valid size");
        AppState::with_grid("default", grid).expect("256x256 is below the limit")
    }

    /// A state serving the `.map` file at `path`, named by its file name.
    ///
    /// # Errors
    ///
    /// When the file cannot be read or parsed, or is too large.
    pub fn with_map_file(path: &Path) -> Result<AppState, StateError> {
        let grid = read_map(path).map_err(|e| StateError(e.to_string()))?;
        AppState::with_grid(&file_name(path), grid)
    }

    /// Adds every `.map` file of `dir` (read when first asked for), in name
    /// order, after the maps already there.
    ///
    /// # Errors
    ///
    /// When the folder cannot be listed.
    pub fn add_maps_dir(mut self, dir: &Path) -> Result<AppState, StateError> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| StateError(format!("listing {}: {e}", dir.display())))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "map"))
            .collect();
        files.sort();
        for path in files {
            let name = file_name(&path);
            if !self.maps.iter().any(|(n, _)| *n == name) {
                self.maps.push((name, Source::File(path)));
            }
        }
        Ok(self)
    }

    /// The names of the maps, in the order the page lists them.
    pub fn map_names(&self) -> Vec<String> {
        self.maps.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The map called `name`, read from its file on first use.
    ///
    /// # Errors
    ///
    /// A message for an unknown name, an unreadable file or a map that is
    /// too large.
    pub fn grid(&self, name: &str) -> Result<Arc<Grid>, String> {
        let Some((_, source)) = self.maps.iter().find(|(n, _)| n == name) else {
            return Err(format!("unknown map {name:?}"));
        };
        match source {
            Source::Loaded(grid) => Ok(Arc::clone(grid)),
            Source::File(path) => {
                if let Some(g) = lock(&self.loaded).get(name) {
                    return Ok(Arc::clone(g));
                }
                let grid = read_map(path).map_err(|e| e.to_string())?;
                check_size(name, &grid).map_err(|e| e.0)?;
                let grid = Arc::new(grid);
                lock(&self.loaded).insert(name.to_string(), Arc::clone(&grid));
                Ok(grid)
            }
        }
    }

    pub(crate) fn suggested(
        &self,
        name: &str,
        compute: impl FnOnce() -> Vec<NodeId>,
    ) -> Arc<Vec<NodeId>> {
        if let Some(s) = lock(&self.suggested).get(name) {
            return Arc::clone(s);
        }
        let s = Arc::new(compute());
        lock(&self.suggested).insert(name.to_string(), Arc::clone(&s));
        s
    }

    /// A search cache from the pool (or a new one); give it back with
    /// [`put_cache`](Self::put_cache).
    pub(crate) fn take_cache(&self) -> SearchCache {
        lock(&self.caches).pop().unwrap_or_default()
    }

    pub(crate) fn put_cache(&self, cache: SearchCache) {
        let mut caches = lock(&self.caches);
        if caches.len() < 8 {
            caches.push(cache);
        }
    }

    /// The table for `key`, built with `build` unless recently built.
    /// Returns the table and whether it was built now.
    pub(crate) fn table(
        &self,
        key: TableKey,
        build: impl FnOnce() -> LandmarkTable,
    ) -> (Arc<LandmarkTable>, bool) {
        if let Some((_, t)) = lock(&self.tables).iter().find(|(k, _)| *k == key) {
            return (Arc::clone(t), false);
        }
        let table = Arc::new(build());
        let mut tables = lock(&self.tables);
        if tables.len() >= TABLES_KEPT {
            tables.remove(0);
        }
        tables.push((key, Arc::clone(&table)));
        (table, true)
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn check_size(name: &str, grid: &Grid) -> Result<(), StateError> {
    if grid.len() > MAX_CELLS {
        return Err(StateError(format!(
            "map {name:?} has {} cells, more than the {MAX_CELLS} the server accepts",
            grid.len()
        )));
    }
    Ok(())
}
