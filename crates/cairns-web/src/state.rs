//! What the server keeps between requests: the maps, the catalogue of
//! engines and landmark tables ([`crate::catalogue`]), recent answers of
//! cold searches, and per map its suggested landmarks and default
//! endpoints.
//!
//! What the catalogue holds is bounded by count and by the bytes of
//! [`Limits::table_memory`]; the searchers' memory is each engine's own
//! ([`cairns::spec::Engine::searcher`]).

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use cairns::graph::NodeId;
use cairns::grid::{Grid, GridGraph, MapKind, Neighborhood};
use cairns::movingai::{ParseError, read_map};
use cairns::spec::{Algorithm, HeuristicSpec, SearchSpec};
use lru::LruCache;

use crate::catalogue::{Catalogue, EngineKey, GraphKey, LandmarkKey, Landmarks, Served, cells};
use crate::limits::{Guards, Limits, Refusal};
use crate::wire::{ApiError, SearchOutcome};

/// The largest map the server loads, in cells (2048 x 2048).
pub const MAX_CELLS: usize = 1 << 22;

/// Why the server state could not be set up, or could not give a map or
/// a graph that was asked for.
#[derive(Debug)]
pub struct StateError {
    kind: StateErrorKind,
}

/// What went wrong, with its data.
#[derive(Debug)]
#[non_exhaustive]
pub enum StateErrorKind {
    /// A map file could not be read or parsed. The library's error names
    /// the file and, for a malformed map, the line and what is wrong there;
    /// an I/O error is its [`source`](std::error::Error::source).
    Load(ParseError),
    /// A map with more than [`MAX_CELLS`] cells.
    TooLarge {
        /// The map's name.
        map: String,
        /// Its cells.
        cells: usize,
    },
    /// A folder of maps could not be listed.
    ListDir {
        /// The folder.
        dir: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// No map has that name.
    UnknownMap {
        /// The name asked for.
        name: String,
    },
    /// A wall edit outside the map.
    EditOutside {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// A wall edit setting something other than 0 (ground) or 1 (wall).
    EditValue {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
        /// The value given.
        value: u32,
    },
}

impl StateError {
    /// What went wrong.
    pub fn kind(&self) -> &StateErrorKind {
        &self.kind
    }
}

impl From<StateErrorKind> for StateError {
    fn from(kind: StateErrorKind) -> StateError {
        StateError { kind }
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            // Transparent: the library's message already names the file.
            StateErrorKind::Load(e) => e.fmt(f),
            StateErrorKind::TooLarge { map, cells } => write!(
                f,
                "map {map:?} has {cells} cells, more than the {MAX_CELLS} the server accepts"
            ),
            StateErrorKind::ListDir { dir, .. } => write!(f, "cannot list {}", dir.display()),
            StateErrorKind::UnknownMap { name } => write!(f, "unknown map {name:?}"),
            StateErrorKind::EditOutside {
                x,
                y,
                width,
                height,
            } => write!(
                f,
                "wall edit ({x}, {y}) is outside the map ({width}x{height})"
            ),
            StateErrorKind::EditValue { x, y, value } => {
                write!(f, "wall edit ({x}, {y}) must set 0 or 1, not {value}")
            }
        }
    }
}

impl std::error::Error for StateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            StateErrorKind::Load(e) => e.source(),
            StateErrorKind::ListDir { error, .. } => Some(error),
            _ => None,
        }
    }
}

#[derive(Debug)]
enum Source {
    Loaded(Arc<Grid>),
    File(PathBuf),
}

/// The state shared by every request.
pub struct AppState {
    maps: Vec<(String, Source)>,
    loaded: Mutex<HashMap<String, Arc<Grid>>>,
    suggested: Mutex<HashMap<String, Arc<Vec<NodeId>>>>,
    /// The scenario file beside a map file (`NAME.map.scen`), by map name.
    scens: HashMap<String, PathBuf>,
    /// The set of each map from a `--maps` folder (the subfolder holding
    /// it, or the folder's own name), by map name.
    sets: HashMap<String, String>,
    /// The default start and goal of each map, once computed.
    endpoints: Mutex<HashMap<String, Arc<Endpoints>>>,
    /// The engines and landmark tables kept.
    catalogue: Catalogue,
    /// Recent answers of cold searches that no landmark table shaped:
    /// search A of a landmark drag, whose start, goal and map stay put
    /// while the landmarks move.
    outcomes: Mutex<LruCache<OutcomeKey, SearchOutcome>>,
    guards: Guards,
}

/// How many search answers [`AppState`] keeps for repeated cold searches.
const OUTCOMES_KEPT: usize = 4;

/// What decides a search's answer when no landmark table is involved: the
/// graph, the search (its spec and label) and the two ends.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct OutcomeKey {
    pub graph: GraphKey,
    pub search: String,
    pub start: NodeId,
    pub goal: NodeId,
}

/// The start and goal a map is first shown with, and where they come from.
#[derive(Clone, Debug)]
pub(crate) struct Endpoints {
    pub from: [u32; 2],
    pub to: [u32; 2],
    /// `scenario line N` or `far apart`.
    pub source: String,
}

impl fmt::Debug for AppState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AppState")
            .field("maps", &self.maps)
            .field("limits", self.limits())
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
            scens: HashMap::new(),
            sets: HashMap::new(),
            endpoints: Mutex::new(HashMap::new()),
            catalogue: Catalogue::new(),
            outcomes: Mutex::new(LruCache::new(
                NonZeroUsize::new(OUTCOMES_KEPT).expect("OUTCOMES_KEPT is not 0"),
            )),
            guards: Guards::new(Limits::default()),
        }
    }

    /// This state with `limits` instead of [`Limits::default`].
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> AppState {
        self.guards = Guards::new(limits);
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        self.guards.limits()
    }

    pub(crate) fn guards(&self) -> &Guards {
        &self.guards
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

    /// Adds a map under `name` after the maps already there (replacing
    /// none: a name already served keeps its map).
    ///
    /// # Errors
    ///
    /// When the map has more than [`MAX_CELLS`] cells.
    pub fn add_grid(mut self, name: &str, grid: Grid) -> Result<AppState, StateError> {
        check_size(name, &grid)?;
        if !self.maps.iter().any(|(n, _)| n == name) {
            self.maps
                .push((name.to_string(), Source::Loaded(Arc::new(grid))));
        }
        Ok(self)
    }

    /// A state serving the demo's map (generated rooms, 256 x 256, seed 1,
    /// rooms of 15 cells) as `default`.
    ///
    /// # Panics
    ///
    /// Never in practice: the generator accepts this size.
    pub fn with_default_map() -> AppState {
        let grid = MapKind::Rooms { room_size: 15 }
            .generate(256, 256, 1)
            .expect("256x256 is a valid size");
        AppState::with_grid("default", grid).expect("256x256 is below the limit")
    }

    /// A state serving the `.map` file at `path`, named by its file name.
    ///
    /// # Errors
    ///
    /// When the file cannot be read or parsed, or is too large.
    pub fn with_map_file(path: &Path) -> Result<AppState, StateError> {
        let grid = read_map(path).map_err(StateErrorKind::Load)?;
        let name = file_name(path);
        let mut state = AppState::with_grid(&name, grid)?;
        state.note_scen(&name, path);
        Ok(state)
    }

    /// Remembers `MAP.scen` beside the map file `path`, if there is one.
    fn note_scen(&mut self, name: &str, path: &Path) {
        let mut scen = path.as_os_str().to_owned();
        scen.push(".scen");
        let scen = PathBuf::from(scen);
        if scen.is_file() {
            self.scens.insert(name.to_string(), scen);
        }
    }

    /// The scenario file beside the map `name` (`NAME.map.scen`), if any.
    pub fn scen_path(&self, name: &str) -> Option<&Path> {
        self.scens.get(name).map(PathBuf::as_path)
    }

    /// Adds every `.map` file of `dir` and of its subfolders, down to
    /// [`MAX_DEPTH`] levels (read when first asked for), in name order,
    /// after the maps already there. A map in a subfolder is named by its
    /// path in `dir` (`dao/den520d.map`), one directly in `dir` by its file
    /// name; a name already taken is skipped. Each map's set (see
    /// [`map_sets`](Self::map_sets)) is its subfolder, or `dir`'s own name.
    ///
    /// # Errors
    ///
    /// When a folder cannot be listed.
    pub fn add_maps_dir(mut self, dir: &Path) -> Result<AppState, StateError> {
        let mut files = Vec::new();
        collect_maps(dir, dir, 0, &mut files)?;
        files.sort();
        let own = file_name(dir);
        for (name, path) in files {
            if !self.maps.iter().any(|(n, _)| *n == name) {
                self.note_scen(&name, &path);
                let set = name
                    .rsplit_once('/')
                    .map_or(own.as_str(), |(folder, _)| folder);
                self.sets.insert(name.clone(), set.to_string());
                self.maps.push((name, Source::File(path)));
            }
        }
        Ok(self)
    }

    /// The names of the maps, in the order the page lists them.
    pub fn map_names(&self) -> Vec<String> {
        self.maps.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The set of each map of [`map_names`](Self::map_names), in the same
    /// order: empty for a map not from a `--maps` folder.
    pub fn map_sets(&self) -> Vec<String> {
        self.maps
            .iter()
            .map(|(n, _)| self.sets.get(n).cloned().unwrap_or_default())
            .collect()
    }

    /// The map called `name`, read from its file on first use.
    ///
    /// # Errors
    ///
    /// For an unknown name, an unreadable or malformed file, or a map that
    /// is too large.
    pub fn grid(&self, name: &str) -> Result<Arc<Grid>, StateError> {
        let Some((_, source)) = self.maps.iter().find(|(n, _)| n == name) else {
            return Err(StateErrorKind::UnknownMap {
                name: name.to_string(),
            }
            .into());
        };
        match source {
            Source::Loaded(grid) => Ok(Arc::clone(grid)),
            Source::File(path) => {
                if let Some(g) = lock(&self.loaded).get(name) {
                    return Ok(Arc::clone(g));
                }
                let grid = read_map(path).map_err(StateErrorKind::Load)?;
                check_size(name, &grid)?;
                let grid = Arc::new(grid);
                lock(&self.loaded).insert(name.to_string(), Arc::clone(&grid));
                Ok(grid)
            }
        }
    }

    pub(crate) fn suggested(
        &self, name: &str, compute: impl FnOnce() -> Vec<NodeId>,
    ) -> Arc<Vec<NodeId>> {
        if let Some(s) = lock(&self.suggested).get(name) {
            return Arc::clone(s);
        }
        let s = Arc::new(compute());
        lock(&self.suggested).insert(name.to_string(), Arc::clone(&s));
        s
    }

    /// The default endpoints of map `name`, computed on first use.
    pub(crate) fn endpoints(
        &self, name: &str, compute: impl FnOnce() -> Endpoints,
    ) -> Arc<Endpoints> {
        if let Some(e) = lock(&self.endpoints).get(name) {
            return Arc::clone(e);
        }
        let e = Arc::new(compute());
        lock(&self.endpoints).insert(name.to_string(), Arc::clone(&e));
        e
    }

    /// The engine of map `key.map` under `neighborhood` after the wall
    /// edits `key.edits` (`[x, y, blocked]`, checked here) for
    /// [`graph_spec`]: it holds the request's graph, and searches the
    /// shortest path a stale request is shown. Made from a kept one whose
    /// edits are a prefix of these (a stroke of painted walls adds one edit
    /// per request, [`Catalogue::engine`]), or from the map.
    ///
    /// # Errors
    ///
    /// For an unknown or unreadable map, or a bad edit.
    pub(crate) fn graph(
        &self, key: &GraphKey, neighborhood: Neighborhood,
    ) -> Result<Arc<Served>, ApiError> {
        let spec = graph_spec(neighborhood);
        let engine = EngineKey {
            graph: key.clone(),
            spec: spec.to_string(),
            landmarks: None,
        };
        let graph = || {
            let grid = self.grid(&key.map)?;
            let mut graph = GridGraph::new((*grid).clone(), neighborhood);
            for (x, y, tile) in cells(&key.edits, (graph.width(), graph.height()))? {
                graph.set_tile(x, y, tile);
            }
            graph
                .with_size(key.size)
                .map_err(|e| crate::wire::bad(e.to_string()))
        };
        let (served, _) =
            self.catalogue
                .engine(&self.guards, (engine, spec, neighborhood), None, graph)?;
        Ok(served)
    }

    /// The engine of `spec` (resolved) on the graph `base` (the engine
    /// [`graph`](Self::graph) gave for `key`), given the page's landmark
    /// table `landmarks` (of its key), from the catalogue or made now
    /// ([`Catalogue::engine`]); and whether it was made now.
    ///
    /// # Errors
    ///
    /// A spec the graph cannot serve, every build turn taken, or the
    /// entries in use leaving no room.
    pub(crate) fn engine(
        &self, base: &Served, (key, nb): (&GraphKey, Neighborhood), spec: SearchSpec,
        landmarks: Option<(&LandmarkKey, &Arc<Landmarks>)>,
    ) -> Result<(Arc<Served>, bool), ApiError> {
        let engine = EngineKey {
            graph: key.clone(),
            spec: spec.to_string(),
            landmarks: landmarks.map(|(k, _)| k.clone()),
        };
        self.catalogue.engine(
            &self.guards,
            (engine, spec, nb),
            landmarks.map(|(_, t)| t),
            || Ok(base.engine.graph().clone()),
        )
    }

    /// The landmark table of `key`, built on `graph` unless kept
    /// ([`Catalogue::landmark_table`]), and whether it was built or
    /// updated now.
    ///
    /// # Errors
    ///
    /// When every build turn is taken, or the entries in use leave no room.
    pub(crate) fn landmark_table(
        &self, key: LandmarkKey, graph: &GridGraph,
    ) -> Result<(Arc<Landmarks>, bool), Refusal> {
        self.catalogue.landmark_table(&self.guards, key, graph)
    }

    /// The answer kept for `key`, if a recent cold search had it.
    pub(crate) fn outcome(&self, key: &OutcomeKey) -> Option<SearchOutcome> {
        lock(&self.outcomes).get(key).cloned()
    }

    /// Keeps `outcome` for `key`, in place of the least recently used of
    /// [`OUTCOMES_KEPT`].
    pub(crate) fn keep_outcome(&self, key: OutcomeKey, outcome: SearchOutcome) {
        lock(&self.outcomes).put(key, outcome);
    }

    /// How many tables of `kind` are kept now.
    #[cfg(test)]
    pub(crate) fn tables_kept(&self, kind: cairns::saved::TableKind) -> usize {
        self.catalogue.tables_kept(kind)
    }

    /// How many engines are kept now.
    #[cfg(test)]
    pub(crate) fn engines_kept(&self) -> usize {
        self.catalogue.engines_kept()
    }
}

/// The search whose engine holds a request's graph: A* with the movement
/// rule's distance, no table (the shortest paths of a stale request).
pub(crate) fn graph_spec(neighborhood: Neighborhood) -> SearchSpec {
    let spec =
        SearchSpec::new(Algorithm::AStar).with_heuristic(HeuristicSpec::default_for(neighborhood));
    spec.resolve_inadmissible(neighborhood).unwrap_or(spec)
}

/// How deep [`AppState::add_maps_dir`] looks into subfolders (a bound
/// that also ends a loop of symbolic links).
pub const MAX_DEPTH: usize = 4;

/// The `.map` files under `dir` (`depth` levels below `root`), as their
/// path relative to `root` with `/` between folders, and their path.
fn collect_maps(
    root: &Path, dir: &Path, depth: usize, out: &mut Vec<(String, PathBuf)>,
) -> Result<(), StateError> {
    let entries = std::fs::read_dir(dir).map_err(|error| StateErrorKind::ListDir {
        dir: dir.to_path_buf(),
        error,
    })?;
    for path in entries.filter_map(Result::ok).map(|e| e.path()) {
        if path.is_dir() && depth < MAX_DEPTH {
            collect_maps(root, &path, depth + 1, out)?;
        } else if path.is_file() && path.extension().is_some_and(|e| e == "map") {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let name = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push((name, path));
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
        return Err(StateErrorKind::TooLarge {
            map: name.to_string(),
            cells: grid.len(),
        }
        .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole message, causes included, as `cairns serve` prints it.
    fn chain(e: &StateError) -> String {
        let mut msg = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            msg = format!("{msg}: {s}");
            source = s.source();
        }
        msg
    }

    /// Regression test: `serve` with a bad map said only "cannot read the
    /// file", the error flattened to a string without its cause. The
    /// library's error must come through, naming the file, and the line
    /// and problem of a malformed map, or the I/O error of an unreadable
    /// one.
    #[test]
    fn bad_map_files_are_named_with_the_line_and_the_cause() {
        let dir = std::env::temp_dir().join(format!("cairns-web-bad-maps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let malformed = dir.join("malformed.map");
        std::fs::write(&malformed, "type octile\nheight 2\nwidth 2\nmap\n.Q\n..\n").unwrap();
        let latin1 = dir.join("latin1.map");
        std::fs::write(&latin1, b"type octile\nheight 2\nwidth 2\nmap\n.\xff\n..\n").unwrap();

        let e = AppState::with_map_file(&malformed).unwrap_err();
        assert!(matches!(e.kind(), StateErrorKind::Load(_)), "{e:?}");
        let msg = chain(&e);
        assert!(
            msg.contains("malformed.map: line 5: unknown tile 'Q' at (1, 0)"),
            "{msg}"
        );

        let msg = chain(&AppState::with_map_file(&latin1).unwrap_err());
        // The parsers name the line of an invalid byte.
        assert!(msg.contains("latin1.map: line 5: invalid UTF-8"), "{msg}");

        let msg = chain(&AppState::with_map_file(&dir.join("missing.map")).unwrap_err());
        assert!(msg.contains("missing.map: cannot read the file: "), "{msg}");

        // A folder's maps are read when first asked for, with the same error.
        let state = AppState::with_default_map().add_maps_dir(&dir).unwrap();
        let e = state.grid("malformed.map").unwrap_err();
        assert!(chain(&e).contains("line 5: unknown tile"), "{e}");
        assert!(matches!(
            state.grid("nope.map").unwrap_err().kind(),
            StateErrorKind::UnknownMap { .. }
        ));
        let e = AppState::with_default_map()
            .add_maps_dir(&dir.join("missing"))
            .unwrap_err();
        assert!(chain(&e).starts_with("cannot list "), "{e}");
        assert!(chain(&e).contains("missing: "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 34: `--maps` looks into subfolders and can be given more than
    /// once; a map in a subfolder is named by its path and grouped by its
    /// folder, one directly in the folder by its file name (as before) and
    /// grouped by the folder's name.
    #[test]
    fn maps_folders_are_read_recursively_and_add_up() {
        let dir = std::env::temp_dir().join(format!("cairns-maps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let map = "type octile\nheight 1\nwidth 2\nmap\n..\n";
        for file in [
            "sets/top.map",
            "sets/dao/a.map",
            "sets/dao/deep/b.map",
            "other/c.map",
        ] {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, map).unwrap();
        }
        std::fs::write(dir.join("sets/dao/notes.txt"), "not a map").unwrap();
        let state = AppState::with_default_map()
            .add_maps_dir(&dir.join("sets"))
            .unwrap()
            .add_maps_dir(&dir.join("other"))
            .unwrap();
        let names = state.map_names();
        assert_eq!(
            names[1..],
            ["dao/a.map", "dao/deep/b.map", "top.map", "c.map"]
        );
        assert_eq!(state.map_sets()[1..], ["dao", "dao/deep", "sets", "other"]);
        assert_eq!(state.map_sets()[0], "");
        assert_eq!(state.grid("dao/deep/b.map").unwrap().width(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    use cairns::landmarks::{Directedness, LandmarkTable};
    use cairns::saved::TableKind;

    use crate::limits::table_bytes;

    /// The 8-way graph key of map `m`, unedited.
    fn unedited() -> GraphKey {
        GraphKey {
            map: "m".into(),
            edits: Vec::new(),
            rule: 8,
            size: 1,
        }
    }

    /// The key of a symmetric table of `landmarks` on [`unedited`].
    fn table_key(landmarks: Vec<NodeId>) -> LandmarkKey {
        LandmarkKey {
            graph: unedited(),
            landmarks,
            directed: false,
        }
    }

    /// The passable cells of `grid`.
    fn free_cells(grid: &Grid) -> Vec<NodeId> {
        (0..grid.len() as u32)
            .map(NodeId)
            .filter(|&n| grid.tiles()[n.index()].is_passable())
            .collect()
    }

    /// The engine of `astar/dh` on [`unedited`] given `table` (of `key`).
    fn dh_engine(
        state: &AppState, base: &Served, (key, table): (&LandmarkKey, &Arc<Landmarks>),
    ) -> Arc<Served> {
        let spec: SearchSpec = "astar/dh".parse().unwrap();
        let spec = spec.resolve_inadmissible(Neighborhood::Octile).unwrap();
        let at = (&unedited(), Neighborhood::Octile);
        state.engine(base, at, spec, Some((key, table))).unwrap().0
    }

    /// A drag of one landmark: an idle kept table is updated in place (no
    /// copy, the same bytes charged), also when an idle engine was given
    /// it (that engine, of the landmark's old place, is dropped); a table
    /// a request holds is copied; each equals a table built afresh.
    #[test]
    fn a_moved_landmark_updates_an_idle_table_in_place() {
        let grid = MapKind::Rooms { room_size: 9 }.generate(40, 40, 3).unwrap();
        let free = free_cells(&grid);
        let state = AppState::with_grid("m", grid).unwrap();
        let base = state.graph(&unedited(), Neighborhood::Octile).unwrap();
        let graph = base.engine.graph();
        let key = |second: NodeId| table_key(vec![free[0], second]);
        let one = table_bytes(2, graph.grid().len());
        drop(state.landmark_table(key(free[10]), graph).unwrap());
        assert_eq!(state.guards().table_bytes_used(), one);
        // Idle: moved in place.
        let (moved, built) = state.landmark_table(key(free[20]), graph).unwrap();
        assert!(built);
        assert_eq!(state.guards().table_bytes_used(), one, "no copy");
        let fresh = LandmarkTable::build(graph, &[free[0], free[20]], Directedness::Symmetric);
        assert!(moved.landmarks() == Some(&fresh));
        // Given to an engine that the catalogue alone holds: still idle.
        let engines = state.engines_kept();
        drop(dh_engine(&state, &base, (&key(free[20]), &moved)));
        assert_eq!(state.engines_kept(), engines + 1);
        drop(moved);
        let (moved, _) = state.landmark_table(key(free[25]), graph).unwrap();
        assert_eq!(state.guards().table_bytes_used(), one, "no copy");
        assert_eq!(state.engines_kept(), engines, "the old place's engine left");
        let fresh = LandmarkTable::build(graph, &[free[0], free[25]], Directedness::Symmetric);
        assert!(moved.landmarks() == Some(&fresh));
        // Held (by `moved`): copied, both charged.
        let (copied, _) = state.landmark_table(key(free[30]), graph).unwrap();
        assert_eq!(state.guards().table_bytes_used(), 2 * one);
        let fresh = LandmarkTable::build(graph, &[free[0], free[30]], Directedness::Symmetric);
        assert!(copied.landmarks() == Some(&fresh));
        assert!(
            state
                .landmark_table(key(free[25]), graph)
                .is_ok_and(|(_, built)| !built)
        );
        assert_eq!(state.tables_kept(TableKind::Landmarks), 2);
    }

    /// A wall stroke: the engine of one more edit is the kept engine of
    /// the edits before it, edited, when the edit leaves it exact (a jump
    /// table repaired, given by the edit), and a build on the new graph
    /// when not (a subgoal graph, which an edit leaves behind its map).
    #[test]
    fn a_wall_stroke_edits_the_kept_engine_when_that_leaves_it_exact() {
        let grid = MapKind::Rooms { room_size: 9 }.generate(40, 40, 3).unwrap();
        let free = free_cells(&grid);
        let walls: Vec<[u32; 3]> = free[100..103]
            .iter()
            .map(|&n| {
                let (x, y) = grid.coords(n);
                [x, y, 1]
            })
            .collect();
        let state = AppState::with_grid("m", grid).unwrap();
        let nb = Neighborhood::Octile;
        for (name, edited) in [("jps+", true), ("sub", false)] {
            let spec: SearchSpec = name.parse().unwrap();
            let spec = spec.resolve_inadmissible(nb).unwrap();
            for n in 1..=walls.len() {
                let key = GraphKey {
                    edits: walls[..n].to_vec(),
                    ..unedited()
                };
                let base = state.graph(&key, nb).unwrap();
                let (served, made) = state.engine(&base, (&key, nb), spec, None).unwrap();
                assert!(made);
                let given = served.engine.report()[0].given;
                assert_eq!(given, edited && n > 1, "{name} with {n} edits");
                assert!(served.engine.is_exact(), "{name}");
                assert_eq!(served.engine.graph().grid(), base.engine.graph().grid());
            }
        }
    }

    /// The table budget counts every table alive: idle kept tables are
    /// dropped, least recently used first, to make room; tables that
    /// requests hold are not, and then a build is refused. An engine given
    /// a table holds it until the engine itself is dropped.
    #[test]
    fn table_memory_drops_idle_tables_and_refuses_when_all_are_in_use() {
        let grid = MapKind::Rooms { room_size: 15 }
            .generate(64, 64, 1)
            .unwrap();
        let free = free_cells(&grid);
        let one = table_bytes(2, grid.len());
        let state = AppState::with_grid("m", grid).unwrap().with_limits(Limits {
            table_memory: 2 * one,
            ..Limits::default()
        });
        let base = state.graph(&unedited(), Neighborhood::Octile).unwrap();
        let graph = base.engine.graph();
        let key = |i: usize| table_key(vec![free[2 * i], free[2 * i + 1]]);
        let used = || state.guards().table_bytes_used();

        let (t0, built) = state.landmark_table(key(0), graph).unwrap();
        assert!(built);
        let (t1, _) = state.landmark_table(key(1), graph).unwrap();
        assert_eq!(used(), 2 * one);
        let full = state.landmark_table(key(2), graph).unwrap_err();
        assert!(matches!(full, Refusal::TableMemoryFull { .. }), "{full}");

        // Table 0 given to an engine a request holds: still in use.
        let e0 = dh_engine(&state, &base, (&key(0), &t0));
        drop(t0);
        assert!(state.landmark_table(key(2), graph).is_err(), "in use");
        drop(e0);
        let (t2, built) = state.landmark_table(key(2), graph).unwrap();
        assert!(built, "table 0, idle with its engine, made room");
        assert_eq!(used(), 2 * one);
        assert!(
            state.landmark_table(key(0), graph).is_err(),
            "0 was dropped"
        );
        let (_, built) = state.landmark_table(key(1), graph).unwrap();
        assert!(!built, "a kept table needs no room");

        drop((t1, t2));
        assert_eq!(used(), 2 * one, "the catalogue keeps them");
        // 1 was used after 2: 2 goes first.
        state.landmark_table(key(0), graph).unwrap();
        assert!(
            state
                .landmark_table(key(1), graph)
                .is_ok_and(|(_, built)| !built)
        );
    }
}
