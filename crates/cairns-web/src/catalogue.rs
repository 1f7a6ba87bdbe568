//! The engines the server keeps between requests, and the landmark tables
//! the page placed, in one catalogue under one memory bound.
//!
//! Every search runs through a [`cairns::spec::Engine`]: its graph (a map
//! with the request's wall edits) and the tables its spec needs, which the
//! engine builds, repairs at wall edits and reports itself. The page's own
//! landmarks give a landmark table the server builds (placing landmarks is
//! the page's, by nature), handed to the engines of the searches that read
//! it and to the shadings. Both kinds of entry share one least recently
//! used order ([`lru::LruCache`]), a count of [`KEPT`] entries and the bytes
//! of [`Limits::table_memory`](crate::Limits::table_memory): an entry that
//! no request holds is dropped, oldest first, to make room; when every
//! entry in the way is in use, the build is refused.
//!
//! A drag sends one request per cell it crosses, each with the whole state
//! of the page, so consecutive requests differ in one thing: the start (a
//! lookup here), one landmark (the landmark table updated in place, see
//! [`Catalogue::landmark_table`]) or one more wall edit (the engine of the
//! edits before it, edited: [`Catalogue::engine`]).

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Neighborhood, Tile};
use cairns::landmarks::{Directedness, LandmarkTable};
use cairns::saved::TableKind;
use cairns::spec::{Engine, Given, SearchSpec, Table, TableReport};
use lru::LruCache;

use crate::limits::{Charge, Charged, Guards, Refusal, table_bytes};
use crate::state::{StateError, StateErrorKind};
use crate::wire::{ApiError, bad};

/// How many entries (engines and landmark tables) the catalogue keeps
/// before the least recently used is dropped: a request uses up to four
/// (its graph's, searches A and B, a landmark table), a stale landmark
/// table one more.
pub(crate) const KEPT: usize = 16;

/// The identity of a graph: the map, its wall edits, the movement rule
/// (as the request numbers it: 4, 8, 9) and the agent's size.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GraphKey {
    pub map: String,
    pub edits: Vec<[u32; 3]>,
    pub rule: u8,
    pub size: u32,
}

/// The identity of a landmark table the page placed: the graph it was
/// built on, its landmarks, and whether it keeps distances both to and
/// from each landmark ([`Directedness::Directed`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LandmarkKey {
    pub graph: GraphKey,
    pub landmarks: Vec<NodeId>,
    pub directed: bool,
}

impl LandmarkKey {
    fn directedness(&self) -> Directedness {
        if self.directed {
            Directedness::Directed
        } else {
            Directedness::Symmetric
        }
    }

    /// The distance columns the table keeps: one per landmark, two when
    /// directed.
    pub fn columns(&self) -> usize {
        self.landmarks.len() * if self.directed { 2 } else { 1 }
    }
}

/// The identity of an engine: its graph, its resolved spec (as the spec
/// displays itself) and the landmark table given to it, if any.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct EngineKey {
    pub graph: GraphKey,
    pub spec: String,
    pub landmarks: Option<LandmarkKey>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Engine(EngineKey),
    Landmarks(LandmarkKey),
}

/// A landmark table the page placed, its bytes charged to
/// [`Limits::table_memory`](crate::Limits::table_memory) while anything
/// holds it (the catalogue, a request, an engine it was given to).
pub(crate) type Landmarks = Charged<Table>;

/// An engine the server keeps, with the charge of the tables it built,
/// the landmark table the page gave it and the engines whose tables it
/// shares (whose own charges live as long).
#[derive(Debug)]
pub(crate) struct Served {
    pub(crate) engine: Engine,
    landmarks: Option<Arc<Landmarks>>,
    /// The kinds of table it was given by another engine of its graph, and
    /// that engine.
    shared: Vec<(TableKind, Arc<Served>)>,
    _charge: Charge,
}

impl Served {
    /// Whether its table of `kind` was given to it, by the page (its
    /// landmark table) or by another engine of its graph, rather than
    /// built or repaired by the engine itself.
    pub(crate) fn was_given(&self, kind: TableKind) -> bool {
        given(
            kind,
            self.landmarks.is_some(),
            self.shared.iter().map(|(k, _)| *k),
        )
    }
}

/// Whether an engine's table of `kind` is given: the page's landmark
/// table, when `page_landmarks`, or one of the kinds `shared` by another
/// engine.
fn given(
    kind: TableKind, page_landmarks: bool, mut shared: impl Iterator<Item = TableKind>,
) -> bool {
    (kind == TableKind::Landmarks && page_landmarks) || shared.any(|k| k == kind)
}

#[derive(Debug)]
enum Kept {
    Engine(Arc<Served>),
    Landmarks(Arc<Landmarks>),
}

impl Kept {
    /// Held by the catalogue alone: dropping it frees its bytes now.
    fn is_idle(&self) -> bool {
        match self {
            Kept::Engine(e) => Arc::strong_count(e) == 1,
            Kept::Landmarks(t) => Arc::strong_count(t) == 1,
        }
    }
}

/// The engines and landmark tables kept, least recently used last.
pub(crate) struct Catalogue {
    kept: Mutex<LruCache<Key, Kept>>,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalogue")
            .field("kept", &self.lock().len())
            .finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The wall edits `[x, y, blocked]` as cells of a `width` x `height` map.
///
/// # Errors
///
/// A value other than 0 or 1, or a cell outside the map.
pub(crate) fn cells(
    edits: &[[u32; 3]], (width, height): (u32, u32),
) -> Result<Vec<(u32, u32, Tile)>, StateError> {
    edits
        .iter()
        .map(|&[x, y, blocked]| {
            let tile = match blocked {
                0 => Tile::Ground,
                1 => Tile::OutOfBounds,
                value => return Err(StateErrorKind::EditValue { x, y, value }.into()),
            };
            if x >= width || y >= height {
                return Err(StateErrorKind::EditOutside {
                    x,
                    y,
                    width,
                    height,
                }
                .into());
            }
            Ok((x, y, tile))
        })
        .collect()
}

impl Catalogue {
    pub(crate) fn new() -> Catalogue {
        Catalogue {
            kept: Mutex::new(LruCache::new(
                NonZeroUsize::new(KEPT).expect("KEPT is not 0"),
            )),
        }
    }

    fn lock(&self) -> MutexGuard<'_, LruCache<Key, Kept>> {
        lock(&self.kept)
    }

    /// Keeps `value` under `key` as the most recently used, dropping the
    /// least recently used entry when [`KEPT`] are kept (outside the lock).
    fn keep(&self, key: Key, value: Kept) {
        let dropped = self.lock().push(key, value);
        drop(dropped);
    }

    /// The engine of `key`: `spec` (resolved) on the graph of `key.graph`
    /// (movement rule `nb`), given `landmarks` (the table of
    /// `key.landmarks`). Kept, or made now: from a kept engine of the same
    /// search on the same map whose edits start this one's (a stroke of
    /// painted walls adds one edit per request), edited
    /// ([`Engine::edited`]: its tables repaired, its searchers' memory
    /// shared) when that leaves its tables exact, else built on `graph()`
    /// with the tables that exact engines of the same graph already have
    /// (search A's jump table for search B's `jps+/dh`; engines given the
    /// page's landmarks give none, so that nothing holds them but their
    /// table). Returns the engine and whether it was made for this call.
    ///
    /// An engine whose spec builds a table takes one of
    /// [`Limits::max_table_builds`](crate::Limits::max_table_builds) while
    /// it is made, and the bytes of the tables it built (its report's, not
    /// those given) are charged once it is made, dropping idle entries to
    /// make room.
    ///
    /// # Errors
    ///
    /// A bad wall edit or a spec the graph cannot serve (400); every build
    /// turn taken, or the entries in use leaving no room (503).
    pub(crate) fn engine(
        &self, guards: &Guards, (key, spec, nb): (EngineKey, SearchSpec, Neighborhood),
        landmarks: Option<&Arc<Landmarks>>, graph: impl FnOnce() -> Result<GridGraph, ApiError>,
    ) -> Result<(Arc<Served>, bool), ApiError> {
        let wanted = Key::Engine(key);
        let Key::Engine(key) = &wanted else {
            unreachable!("made above")
        };
        let own = |kind: &TableKind| {
            !matches!(kind, TableKind::Landmarks | TableKind::CompressedLandmarks)
        };
        let kinds = spec.table_kinds(nb);
        let (prefix, siblings) = {
            let mut kept = self.lock();
            if let Some(Kept::Engine(hit)) = kept.get(&wanted) {
                return Ok((Arc::clone(hit), false));
            }
            let siblings: Vec<(Table, Arc<Served>)> = kinds
                .iter()
                .filter(|k| own(k))
                .filter_map(|&kind| {
                    kept.iter().find_map(|(k, v)| match (k, v) {
                        (Key::Engine(k), Kept::Engine(e))
                            if k.graph == key.graph
                                && e.landmarks.is_none()
                                && e.engine.is_exact() =>
                        {
                            let t = e.engine.tables().iter().find(|t| t.kind() == kind)?;
                            Some((t.clone(), Arc::clone(e)))
                        }
                        _ => None,
                    })
                })
                .collect();
            // Only an engine without a given table follows edits: a given
            // landmark table is the page's, of its own edits.
            let prefix = kept
                .iter()
                .filter_map(|(k, v)| match (k, v) {
                    (Key::Engine(k), Kept::Engine(e))
                        if key.landmarks.is_none()
                            && k.landmarks.is_none()
                            && k.spec == key.spec
                            && k.graph.map == key.graph.map
                            && (k.graph.rule, k.graph.size) == (key.graph.rule, key.graph.size)
                            && key.graph.edits.starts_with(&k.graph.edits) =>
                    {
                        Some((k.graph.edits.len(), e))
                    }
                    _ => None,
                })
                .max_by_key(|(done, _)| *done)
                .map(|(done, e)| (done, Arc::clone(e)));
            (prefix, siblings)
        };
        let sibling_kinds = || siblings.iter().map(|(t, _)| t.kind());
        let builds = kinds
            .iter()
            .any(|&kind| !given(kind, landmarks.is_some(), sibling_kinds()));
        let _turn = builds.then(|| guards.build()).transpose()?;
        let spec_error = |e: cairns::spec::SpecError| bad(e.to_string());
        let tables_given = || {
            let page = landmarks.map(|t| Table::clone(t));
            let shared = siblings.iter().map(|(t, _)| t.clone());
            page.into_iter().chain(shared).map(Given::from)
        };
        let edited = match prefix {
            Some((done, from)) => {
                let size = (from.engine.graph().width(), from.engine.graph().height());
                let rest = cells(&key.graph.edits[done..], size)?;
                Some(from.engine.edited(&rest).map_err(spec_error)?)
            }
            None => None,
        };
        let (engine, shared) = match edited {
            Some(e) if e.is_exact() => (e, Vec::new()),
            // Edited, a table is left answering through a stand-in (a
            // subgoal graph behind its map, goal bounding without boxes):
            // the page shows each search as a build on this map searches.
            Some(e) => {
                let graph = e.graph().clone();
                let built =
                    Engine::with_tables(graph, &spec, tables_given()).map_err(spec_error)?;
                (built, siblings)
            }
            None => {
                let built =
                    Engine::with_tables(graph()?, &spec, tables_given()).map_err(spec_error)?;
                (built, siblings)
            }
        };
        let shared: Vec<(TableKind, Arc<Served>)> = shared
            .into_iter()
            .map(|(t, from)| (t.kind(), from))
            .collect();
        let kept =
            |r: &&TableReport| !given(r.kind, landmarks.is_some(), shared.iter().map(|(k, _)| *k));
        let built: usize = engine.report().iter().filter(kept).map(|r| r.bytes).sum();
        let bytes = built + engine.stand_in_bytes();
        let served = Arc::new(Served {
            engine,
            landmarks: landmarks.map(Arc::clone),
            shared,
            _charge: self.charge(guards, bytes)?,
        });
        self.keep(wanted, Kept::Engine(Arc::clone(&served)));
        Ok((served, true))
    }

    /// The landmark table of `key`, built on `graph` (the graph of
    /// `key.graph`) unless kept. A kept table of the same graph and
    /// landmark count with only some landmarks elsewhere (a landmark being
    /// dragged) is updated: in place when nothing but the catalogue and its
    /// idle engines hold it (those engines, of the landmarks' old places,
    /// are dropped: a drag leaves them behind), else as a copy; only the
    /// moved landmarks' distances are computed. Returns the table and
    /// whether it was built or updated now.
    ///
    /// A build takes one of
    /// [`Limits::max_table_builds`](crate::Limits::max_table_builds) and
    /// charges the table's bytes first, dropping idle entries to make room.
    /// The caller has checked the table's size with
    /// [`check_table_request`](crate::limits::check_table_request).
    ///
    /// # Errors
    ///
    /// When every build turn is taken, or the entries in use leave no room.
    pub(crate) fn landmark_table(
        &self, guards: &Guards, key: LandmarkKey, graph: &GridGraph,
    ) -> Result<(Arc<Landmarks>, bool), Refusal> {
        let wanted = Key::Landmarks(key);
        let Key::Landmarks(key) = &wanted else {
            unreachable!("made above")
        };
        let (_build, nearest, left_behind) = {
            let mut kept = self.lock();
            if let Some(Kept::Landmarks(hit)) = kept.get(&wanted) {
                return Ok((Arc::clone(hit), false));
            }
            // The turn first: a table taken out below is not lost to a
            // refusal.
            let build = guards.build()?;
            let near = kept
                .iter()
                .filter_map(|(k, _)| match k {
                    Key::Landmarks(k)
                        if k.graph == key.graph
                            && k.directed == key.directed
                            && k.landmarks.len() == key.landmarks.len() =>
                    {
                        let moved: Vec<usize> = (0..k.landmarks.len())
                            .filter(|&l| k.landmarks[l] != key.landmarks[l])
                            .collect();
                        Some((k.clone(), moved))
                    }
                    _ => None,
                })
                .filter(|(_, moved)| moved.len() < key.landmarks.len())
                .min_by_key(|(_, moved)| moved.len());
            let mut left_behind = Vec::new();
            let near = near.and_then(|(near_key, moved)| {
                let near_key = Key::Landmarks(near_key);
                let Some(Kept::Landmarks(table)) = kept.peek(&near_key) else {
                    return None;
                };
                let (table, holds) = (Arc::as_ptr(table), Arc::strong_count(table));
                // The idle engines it was given to.
                let holders: Vec<Key> = kept
                    .iter()
                    .filter(|(_, v)| match v {
                        Kept::Engine(e) => {
                            Arc::strong_count(e) == 1
                                && e.landmarks
                                    .as_ref()
                                    .is_some_and(|l| Arc::as_ptr(l) == table)
                        }
                        Kept::Landmarks(_) => false,
                    })
                    .map(|(k, _)| k.clone())
                    .collect();
                if holds == 1 + holders.len() {
                    // Idle: taken out with its engines and updated in
                    // place, without a copy or a second charge.
                    left_behind.extend(holders.iter().filter_map(|k| kept.pop(k)));
                    match kept.pop(&near_key) {
                        Some(Kept::Landmarks(table)) => Some((moved, table, true)),
                        _ => None,
                    }
                } else {
                    // Not held unless copied: a table held here cannot be
                    // dropped to make room.
                    match kept.peek(&near_key) {
                        Some(Kept::Landmarks(table)) => Some((moved, Arc::clone(table), false)),
                        _ => None,
                    }
                }
            });
            (build, near, left_behind)
        };
        // Their shares of the table go with them.
        drop(left_behind);
        let table = match nearest {
            Some((moved, t, true)) => match Arc::try_unwrap(t) {
                Ok(mut owned) => match landmarks_mut(owned.get_mut()) {
                    Some(table) => {
                        for &l in &moved {
                            table.move_landmark(graph, l, key.landmarks[l]);
                        }
                        Arc::new(owned)
                    }
                    None => Arc::new(self.copy_moved(guards, &owned, &moved, key, graph)?),
                },
                Err(t) => Arc::new(self.copy_moved(guards, &t, &moved, key, graph)?),
            },
            Some((moved, t, false)) => Arc::new(self.copy_moved(guards, &t, &moved, key, graph)?),
            None => {
                let charge = self.charge(guards, table_bytes(key.columns(), graph.grid().len()))?;
                let table = LandmarkTable::build(graph, &key.landmarks, key.directedness());
                Arc::new(Charged::new(table.into(), charge))
            }
        };
        self.keep(wanted, Kept::Landmarks(Arc::clone(&table)));
        Ok((table, true))
    }

    /// A copy of `table` with the landmarks `moved` recomputed at their
    /// places in `key`, charged anew.
    fn copy_moved(
        &self, guards: &Guards, table: &Landmarks, moved: &[usize], key: &LandmarkKey,
        graph: &GridGraph,
    ) -> Result<Landmarks, Refusal> {
        let charge = self.charge(guards, table_bytes(key.columns(), graph.grid().len()))?;
        let mut copy = match table.landmarks() {
            Some(t) => t.clone(),
            None => LandmarkTable::build(graph, &key.landmarks, key.directedness()),
        };
        for &l in moved {
            copy.move_landmark(graph, l, key.landmarks[l]);
        }
        Ok(Charged::new(copy.into(), charge))
    }

    /// Charges `bytes` to the table budget, dropping idle entries (least
    /// recently used first) until they fit.
    fn charge(&self, guards: &Guards, bytes: usize) -> Result<Charge, Refusal> {
        loop {
            if let Some(charge) = guards.charge(bytes) {
                return Ok(charge);
            }
            let evicted = {
                let mut kept = self.lock();
                let idle = kept
                    .iter()
                    .rev()
                    .find(|(_, v)| v.is_idle())
                    .map(|(k, _)| k.clone());
                idle.and_then(|k| kept.pop(&k))
            };
            // Dropped outside the lock: its bytes are freed now.
            if evicted.is_none() {
                return Err(Refusal::TableMemoryFull {
                    needed: bytes,
                    used: guards.table_bytes_used(),
                    total: guards.limits().table_memory,
                });
            }
        }
    }

    /// How many tables of `kind` are kept now: landmark tables the page
    /// placed, and the tables of kept engines (not those given them).
    #[cfg(test)]
    pub(crate) fn tables_kept(&self, kind: TableKind) -> usize {
        self.lock()
            .iter()
            .map(|(_, v)| match v {
                Kept::Landmarks(t) => usize::from(t.kind() == kind),
                Kept::Engine(e) => e
                    .engine
                    .report()
                    .iter()
                    .filter(|r| r.kind == kind && !e.was_given(r.kind))
                    .count(),
            })
            .sum()
    }

    /// How many engines are kept now.
    #[cfg(test)]
    pub(crate) fn engines_kept(&self) -> usize {
        self.lock()
            .iter()
            .filter(|(_, v)| matches!(v, Kept::Engine(_)))
            .count()
    }
}

/// The landmark table in `table`, to change in place, when it is one and
/// nothing else holds it.
fn landmarks_mut(table: &mut Table) -> Option<&mut LandmarkTable> {
    match table {
        Table::Landmarks(t) => Arc::get_mut(t),
        _ => None,
    }
}
