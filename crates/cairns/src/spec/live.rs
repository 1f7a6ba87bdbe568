//! The engine of a map that changes while it is searched: one current
//! [`Engine`], replaced by each edit, repair step or fill, and searchers
//! that take up the newest at their next query.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use std::time::Duration;

use super::engine::{Engine, EngineSearcher};
use super::error::SpecError;
use super::upkeep::lock;
use crate::grid::Tile;

/// An [`Engine`] whose map changes under its searchers, for a game, a
/// server or a binding that holds one engine and edits it in place: an
/// edit ([`set`](Live::set)), a step of a repair
/// ([`repair_step`](Live::repair_step)) or a fill
/// ([`fill_within`](Live::fill_within)) makes the next engine of the line
/// the current one, and every [`LiveSearcher`] takes it up at its next
/// query, keeping its cache. Clones share the one engine; `Send` and
/// `Sync`. Edits are made one at a time; queries never wait for them
/// (they read the current engine, one atomic load per query).
///
/// ```
/// use std::time::Duration;
/// use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
/// use cairns::search::Searcher;
/// use cairns::spec::{Engine, Live, SearchSpec};
///
/// let graph = GridGraph::new(Grid::from_ascii(".....\n.....\n.....").unwrap(), Neighborhood::Octile);
/// let live = Live::new(Engine::new(graph, &"sub".parse::<SearchSpec>().unwrap()).unwrap());
/// let mut searcher = live.searcher();
/// let (a, b) = (live.current().graph().node(0, 1).unwrap(), live.current().graph().node(4, 1).unwrap());
/// assert_eq!(searcher.refreshed().search_cost(a, b), Some(4.0));
/// live.set(&[(2, 0, Tile::OutOfBounds), (2, 1, Tile::OutOfBounds)], false).unwrap();
/// let around = searcher.refreshed().search_cost(a, b).unwrap(); // the new map, at once
/// assert!((around - (2.0 + 2.0 * 2f64.sqrt())).abs() < 1e-6); // the lattice's exact costs
/// assert!(!live.current().is_exact()); // the subgoal graph waits; `jps+` answers
/// while !live.fill_within(Duration::from_secs(10)).unwrap() {}
/// assert!(live.current().is_exact());
/// assert_eq!(searcher.refreshed().search_cost(a, b), Some(around));
/// ```
#[derive(Clone, Debug)]
pub struct Live {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    current: RwLock<Engine>,
    /// How many engines have been current before this one: what a
    /// searcher compares with its own before each query.
    version: AtomicU64,
    /// Held by each change, so that changes are made one at a time, each
    /// from the engine the one before made.
    changing: Mutex<()>,
}

impl Live {
    /// `engine` as the first current engine.
    pub fn new(engine: Engine) -> Live {
        Live {
            shared: Arc::new(Shared {
                current: RwLock::new(engine),
                version: AtomicU64::new(0),
                changing: Mutex::new(()),
            }),
        }
    }

    /// The current engine (a clone: one `Arc`).
    pub fn current(&self) -> Engine {
        self.shared
            .current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The current engine's version: 0 for the first, one more at each
    /// change.
    pub fn version(&self) -> u64 {
        self.shared.version.load(Ordering::Acquire)
    }

    /// The change lock: a panic in an earlier change left the current
    /// engine as it was, which the next change starts from.
    fn changing(&self) -> MutexGuard<'_, ()> {
        lock(&self.shared.changing)
    }

    /// Makes `engine` the current one (under the change lock).
    fn replace(&self, engine: Engine) {
        *self
            .shared
            .current
            .write()
            .unwrap_or_else(PoisonError::into_inner) = engine;
        self.shared.version.fetch_add(1, Ordering::AcqRel);
    }

    /// Sets `cells` (each `(x, y, tile)`; a cell off the map is left
    /// out): [`Engine::edited`], or with `later`
    /// [`Engine::edited_later`]. Every searcher answers on the new map
    /// from its next query.
    ///
    /// # Errors
    ///
    /// As [`Engine::edited`]; the current engine is then unchanged.
    pub fn set(&self, cells: &[(u32, u32, Tile)], later: bool) -> Result<(), SpecError> {
        let _changing = self.changing();
        let current = self.current();
        let next = if later {
            current.edited_later(cells)?
        } else {
            current.edited(cells)?
        };
        self.replace(next);
        Ok(())
    }

    /// One step of the repair an edit made later left
    /// ([`Engine::repair_step`]): whether the landmark table is exact
    /// again (at once when nothing waits for a repair).
    ///
    /// # Errors
    ///
    /// As [`Engine::repair_step`].
    pub fn repair_step(&self, budget: usize) -> Result<bool, SpecError> {
        let _changing = self.changing();
        let (progress, repaired) = self.current().repair_step(budget)?;
        if let Some(repaired) = repaired {
            self.replace(repaired);
        }
        Ok(progress.done())
    }

    /// Fills what the current engine's tables lack for up to `budget`
    /// ([`Engine::filled_within`]), without holding up edits or queries:
    /// an edit made meanwhile wins, and what was filled for the older map
    /// is dropped. Whether the current engine's tables then lack nothing
    /// and none is behind its map (a stale landmark table is
    /// [`repair_step`](Live::repair_step)'s).
    ///
    /// # Errors
    ///
    /// As [`Engine::filled_within`].
    pub fn fill_within(&self, budget: Duration) -> Result<bool, SpecError> {
        let (version, current) = {
            let _changing = self.changing();
            (self.version(), self.current())
        };
        if let Some(filled) = current.filled_within(budget)? {
            let _changing = self.changing();
            if self.version() == version {
                self.replace(filled);
            }
        }
        Ok(self.current().is_filled())
    }

    /// A searcher that follows the current engine: its own cache, taken
    /// from the engine's line when a dropped searcher handed one back.
    pub fn searcher(&self) -> LiveSearcher {
        let version = self.version();
        LiveSearcher {
            searcher: self.current().searcher(),
            version,
            live: self.clone(),
        }
    }
}

/// A searcher of a [`Live`] engine: [`refreshed`](LiveSearcher::refreshed)
/// before a query takes up the current engine when it changed, keeping
/// the cache; [`get`](LiveSearcher::get) reads what the last
/// query left (its path, its statistics) without changing engines.
#[derive(Debug)]
pub struct LiveSearcher {
    live: Live,
    version: u64,
    searcher: EngineSearcher,
}

impl LiveSearcher {
    /// The searcher, moved to the current engine if that changed since its
    /// last query (the cache kept; what the last query left is forgotten):
    /// call this to start each query.
    #[inline]
    pub fn refreshed(&mut self) -> &mut EngineSearcher {
        let version = self.live.version();
        if version != self.version {
            // The engine is replaced before the version moves on: the
            // one read now is at least that version's.
            let current = self.live.current();
            self.searcher.switch_to(&current);
            self.version = version;
        }
        &mut self.searcher
    }

    /// The searcher as it is, of the engine of its last query.
    pub fn get(&self) -> &EngineSearcher {
        &self.searcher
    }

    /// The searcher as it is, of the engine of its last query, to read
    /// what that query left (a path into a buffer of the caller's).
    pub fn get_mut(&mut self) -> &mut EngineSearcher {
        &mut self.searcher
    }

    /// The live engine it follows.
    pub fn live(&self) -> &Live {
        &self.live
    }
}
