//! What the server keeps between requests: the maps, a pool of search
//! caches, recently built graphs (a map plus wall edits) and recently built
//! landmark tables.
//!
//! A drag sends one request per cell it crosses, each with the whole state
//! of the page, so consecutive requests differ in one thing: the start, one
//! landmark, or one more wall edit. The caches turn those into a lookup, one
//! landmark's search, or a few tile updates instead of rebuilding the graph
//! and the table each time.

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use cairns::graph::NodeId;
use cairns::grid::{GenerateOptions, Grid, GridGraph, MapKind, Neighborhood, Tile, generate};
use cairns::landmarks::{Directedness, LandmarkTable};
use cairns::movingai::read_map;
use cairns::open::OpenSet;
use cairns::search::SearchCache;

/// The largest map the server loads, in cells (2048 x 2048).
pub const MAX_CELLS: usize = 1 << 22;

/// How many landmark tables are kept before the oldest are dropped.
const TABLES_KEPT: usize = 8;

/// How many graphs are kept before the oldest are dropped.
const GRAPHS_KEPT: usize = 8;

/// How many idle search caches of each OPEN-set type are kept.
const CACHES_KEPT: usize = 8;

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

/// The identity of a graph: the map, its wall edits and the movement rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GraphKey {
    pub map: String,
    pub edits: Vec<[u32; 3]>,
    pub directions: u32,
}

/// The state shared by every request.
pub struct AppState {
    maps: Vec<(String, Source)>,
    loaded: Mutex<HashMap<String, Arc<Grid>>>,
    suggested: Mutex<HashMap<String, Arc<Vec<NodeId>>>>,
    /// Idle `SearchCache<Q>`s for any OPEN set `Q`.
    caches: Mutex<Vec<Box<dyn Any + Send>>>,
    graphs: Mutex<Vec<(GraphKey, Arc<GridGraph>)>>,
    tables: Mutex<Vec<(TableKey, Arc<LandmarkTable>)>>,
}

impl fmt::Debug for AppState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AppState")
            .field("maps", &self.maps)
            .finish_non_exhaustive()
    }
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
            graphs: Mutex::new(Vec::new()),
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

    /// A search cache with OPEN set `Q` from the pool (or a new one); give
    /// it back with [`put_cache`](Self::put_cache).
    pub(crate) fn take_cache<Q: OpenSet + Default + Send + 'static>(&self) -> SearchCache<Q> {
        let mut caches = lock(&self.caches);
        let found = caches.iter().position(|c| c.is::<SearchCache<Q>>());
        found
            .and_then(|i| caches.swap_remove(i).downcast().ok())
            .map_or_else(|| SearchCache::with_open(Q::default()), |c| *c)
    }

    pub(crate) fn put_cache<Q: OpenSet + Send + 'static>(&self, cache: SearchCache<Q>) {
        let mut caches = lock(&self.caches);
        let same = caches.iter().filter(|c| c.is::<SearchCache<Q>>()).count();
        if same < CACHES_KEPT {
            caches.push(Box::new(cache));
        }
    }

    /// The graph of map `key.map` under `neighborhood` after the wall edits
    /// `key.edits` (`[x, y, blocked]`, checked here). Reuses a recent graph
    /// with the same edits, or one whose edits are a prefix of these and
    /// applies only the rest (a stroke of painted walls adds one edit per
    /// request), or else starts from the map.
    ///
    /// # Errors
    ///
    /// A message for an unknown map or a bad edit.
    pub(crate) fn graph(
        &self,
        key: &GraphKey,
        neighborhood: Neighborhood,
    ) -> Result<Arc<GridGraph>, String> {
        let base = {
            let graphs = lock(&self.graphs);
            if let Some((_, g)) = graphs.iter().find(|(k, _)| k == key) {
                return Ok(Arc::clone(g));
            }
            graphs
                .iter()
                .filter(|(k, _)| {
                    k.map == key.map
                        && k.directions == key.directions
                        && key.edits.starts_with(&k.edits)
                })
                .max_by_key(|(k, _)| k.edits.len())
                .map(|(k, g)| (k.edits.len(), Arc::clone(g)))
        };
        let (done, mut graph) = if let Some((done, g)) = base {
            (done, (*g).clone())
        } else {
            let grid = self.grid(&key.map)?;
            (0, GridGraph::new((*grid).clone(), neighborhood))
        };
        apply_edits(&mut graph, &key.edits[done..])?;
        let graph = Arc::new(graph);
        let mut graphs = lock(&self.graphs);
        if graphs.len() >= GRAPHS_KEPT {
            graphs.remove(0);
        }
        graphs.push((key.clone(), Arc::clone(&graph)));
        Ok(graph)
    }

    /// The table for `key`, built on `graph` unless recently built. A recent
    /// table of the same map, edits and landmark count with only some
    /// landmarks elsewhere (a landmark being dragged) is copied and only
    /// the moved landmarks' distances are recomputed. Returns the table and
    /// whether it was built or updated now.
    pub(crate) fn table(&self, key: TableKey, graph: &GridGraph) -> (Arc<LandmarkTable>, bool) {
        let nearest = {
            let tables = lock(&self.tables);
            if let Some((_, t)) = tables.iter().find(|(k, _)| *k == key) {
                return (Arc::clone(t), false);
            }
            tables
                .iter()
                .filter(|(k, _)| {
                    k.map == key.map
                        && k.edits == key.edits
                        && k.directions == key.directions
                        && k.landmarks.len() == key.landmarks.len()
                })
                .map(|(k, t)| {
                    let moved: Vec<usize> = (0..k.landmarks.len())
                        .filter(|&l| k.landmarks[l] != key.landmarks[l])
                        .collect();
                    (moved, Arc::clone(t))
                })
                .min_by_key(|(moved, _)| moved.len())
        };
        let table = match nearest {
            Some((moved, t)) if moved.len() < key.landmarks.len() => {
                let mut table = (*t).clone();
                for l in moved {
                    table.move_landmark(graph, l, key.landmarks[l]);
                }
                table
            }
            _ => LandmarkTable::build(graph, &key.landmarks, Directedness::Symmetric),
        };
        let table = Arc::new(table);
        let mut tables = lock(&self.tables);
        if tables.len() >= TABLES_KEPT {
            tables.remove(0);
        }
        tables.push((key, Arc::clone(&table)));
        (table, true)
    }
}

/// Applies wall edits `[x, y, blocked]` in order.
fn apply_edits(graph: &mut GridGraph, edits: &[[u32; 3]]) -> Result<(), String> {
    for &[x, y, blocked] in edits {
        let tile = match blocked {
            0 => Tile::Ground,
            1 => Tile::OutOfBounds,
            _ => {
                return Err(format!(
                    "wall edit ({x}, {y}) must set 0 or 1, not {blocked}"
                ));
            }
        };
        if !graph.set_tile(x, y, tile) {
            return Err(format!(
                "wall edit ({x}, {y}) is outside the map ({}x{})",
                graph.width(),
                graph.height()
            ));
        }
    }
    Ok(())
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
