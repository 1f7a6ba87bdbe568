//! `cairns_searcher`: one thread's searcher of an engine, with its own
//! search memory, answering queries into the caller's buffers.

use cairns::graph::NodeId;
use cairns::search::{Budget, Progress, SearchStats, Searcher as _};
use cairns::spec::{EngineSearcher, LiveSearcher};

use crate::engine::cairns_engine;
use crate::error::{Failure, Result, cairns_status, guard};
use crate::handle::{self, Handle, Kind};
use crate::map;

/// A searcher of an engine: its own search memory (reused by every query,
/// so queries allocate nothing grid-sized) and a share of the engine. Make
/// one per thread; a searcher must not be used by two threads at once. It
/// stays usable after its engine is freed.
#[expect(non_camel_case_types, reason = "the C names are the API")]
pub type cairns_searcher = Handle<Searcher>;

/// What a searcher handle holds.
#[derive(Debug)]
pub struct Searcher {
    /// The searcher, following its engine's edits.
    live: LiveSearcher,
    /// What messages call the map.
    name: String,
    /// Where the last query ended (its goal, or its best node when
    /// paused), for `cairns_searcher_last_path`.
    end: Option<NodeId>,
    /// The last path, as `x, y` pairs.
    path: Vec<i32>,
}

impl Kind for Searcher {
    const TAG: u64 = u64::from_le_bytes(*b"cairnsSR");
    const NAME: &'static str = "cairns_searcher";
}

/// Search statistics of a searcher's last query.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct cairns_stats {
    /// Nodes expanded (taken off OPEN).
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Decrease-key updates on OPEN.
    pub updated: u64,
    /// Closed nodes reopened.
    pub reopened: u64,
    /// The largest size of OPEN.
    pub max_open: u64,
}

/// Where a budgeted search ended.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct cairns_progress {
    /// The goal reached (`CAIRNS_OK`) or the best node so far
    /// (`CAIRNS_PAUSED`); -1 when there is no path.
    pub x: i32,
    /// See `x`.
    pub y: i32,
    /// The cost of the path to (`x`, `y`): the path's when found, `g` of
    /// the best node when paused, `INFINITY` when there is no path.
    pub cost: f64,
    /// When paused, the heuristic's estimate from the best node to the
    /// nearest goal (0 when found, `INFINITY` when there is no path).
    pub h: f64,
}

/// A new searcher of `engine` in `*out`.
///
/// # Safety
///
/// `engine` is NULL or a live handle; `out` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_searcher_new(
    engine: *const cairns_engine, out: *mut *mut cairns_searcher,
) -> cairns_status {
    let made = || {
        // SAFETY: the caller's contract.
        let engine = unsafe { handle::get(engine, "engine")? };
        let searcher = Searcher {
            live: engine.live.searcher(),
            name: engine.name.clone(),
            end: None,
            path: Vec::new(),
        };
        Ok(searcher)
    };
    // SAFETY: `out` is NULL or valid for a write (the caller's contract).
    unsafe { handle::make(out, made) }
}

/// Frees a searcher (NULL does nothing).
///
/// # Safety
///
/// `searcher` is NULL or a live searcher handle, not used after this call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_searcher_free(searcher: *mut cairns_searcher) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe { handle::free(searcher, "searcher") }
}

/// The searcher behind `searcher`, brought up to date with its engine's
/// last edit.
///
/// # Safety
///
/// `searcher` is NULL or a live handle used by no other thread meanwhile.
unsafe fn current<'a>(searcher: *mut cairns_searcher) -> Result<&'a mut Searcher> {
    // SAFETY: the caller's contract.
    let s = unsafe { handle::get_mut(searcher, "searcher")? };
    s.refresh();
    Ok(s)
}

/// A query answered with a path: `cost` and `len` checked, `query` run on
/// the [`current`] searcher, and where it ended written as
/// [`Searcher::answer`] writes it.
///
/// # Safety
///
/// As [`current`], and `out` and `cost` as [`Searcher::answer`] needs them.
unsafe fn path_query(
    searcher: *mut cairns_searcher, out: (*mut i32, usize, *mut usize), cost: *mut f64,
    query: impl FnOnce(&mut Searcher) -> Result<Option<(NodeId, f64)>>,
) -> cairns_status {
    guard(|| {
        handle::need(cost, "cost")?;
        handle::need(out.2, "len")?;
        // SAFETY: the caller's contract.
        let s = unsafe { current(searcher)? };
        let reached = query(s)?;
        // SAFETY: the caller's contract.
        unsafe { s.answer(reached, out, cost) }
    })
}

impl Searcher {
    /// Takes up the engine's last edit, if one came since the last query.
    #[inline]
    fn refresh(&mut self) {
        // The cache's memory goes with the searcher to the new map.
        self.live.refreshed();
    }

    /// The searcher, of the engine of the last query.
    fn inner(&self) -> &EngineSearcher {
        self.live.get()
    }

    /// The searcher, of the engine of the last query, for a query or to
    /// read what that left.
    fn inner_mut(&mut self) -> &mut EngineSearcher {
        self.live.get_mut()
    }

    /// The node of `(x, y)`, checked.
    fn node(&self, what: &str, x: i32, y: i32) -> Result<NodeId> {
        map::endpoint(self.inner().graph(), &self.name, what, x, y)
    }

    /// The nodes of `count` points at `xy`, checked.
    ///
    /// # Safety
    ///
    /// `xy` is valid for reads of `2 * count` values.
    unsafe fn nodes(&self, what: &str, xy: *const i32, count: usize) -> Result<Vec<NodeId>> {
        // SAFETY: the caller's contract.
        unsafe { map::endpoints(self.inner().graph(), &self.name, what, xy, count) }
    }

    /// The sources and goals of a query of many (`x, y` pairs), checked.
    ///
    /// # Safety
    ///
    /// `sources` is valid for reads of `2 * source_count` values, `goals`
    /// of `2 * goal_count`.
    unsafe fn ends(
        &self, (sources, source_count): (*const i32, usize),
        (goals, goal_count): (*const i32, usize),
    ) -> Result<(Vec<NodeId>, Vec<NodeId>)> {
        // SAFETY: the caller's contract.
        unsafe {
            Ok((
                self.nodes("sources", sources, source_count)?,
                self.nodes("goals", goals, goal_count)?,
            ))
        }
    }

    /// Answers a query that found `reached` (its goal and cost): keeps its
    /// path, writes the cost and the path into the caller's buffers.
    ///
    /// # Safety
    ///
    /// As [`write_path`](Self::write_path); `cost` valid for a write.
    unsafe fn answer(
        &mut self, reached: Option<(NodeId, f64)>,
        (xy, capacity, len): (*mut i32, usize, *mut usize), cost: *mut f64,
    ) -> Result<cairns_status> {
        self.ended(reached.map(|(goal, _)| goal));
        // SAFETY: the caller's contract.
        unsafe {
            handle::put(cost, reached.map_or(f64::INFINITY, |(_, c)| c), "cost")?;
            self.write_path(xy, capacity, len)?;
        }
        Ok(found(reached.is_some()))
    }

    /// Notes where the last query ended and keeps its path.
    fn ended(&mut self, end: Option<NodeId>) {
        self.end = end;
        self.path.clear();
        let mut nodes = Vec::new();
        if let Some(end) = end
            && self.inner_mut().path_into(end, &mut nodes)
        {
            let graph = self.live.get().graph();
            for n in nodes {
                let (x, y) = graph.coords(n);
                self.path.extend([x as i32, y as i32]);
            }
        }
    }

    /// Writes the kept path into the caller's buffer of `capacity` points
    /// and its length in points to `len`.
    ///
    /// # Safety
    ///
    /// `xy` NULL or valid for writes of `2 * capacity` values; `len` NULL
    /// or valid for a write.
    unsafe fn write_path(&self, xy: *mut i32, capacity: usize, len: *mut usize) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { handle::put(len, self.path.len() / 2, "len")? };
        let values = capacity.checked_mul(2).ok_or_else(|| {
            Failure::new(cairns_status::CAIRNS_ERR_ARGUMENT, "capacity is too large")
        })?;
        // SAFETY: the caller's contract.
        let out = unsafe { handle::buffer(xy, values, "xy")? };
        handle::fill(out, &self.path, "the path", ("points", 2))
    }
}

/// The status of a finished search: found or not.
fn found(found: bool) -> cairns_status {
    if found {
        cairns_status::CAIRNS_OK
    } else {
        cairns_status::CAIRNS_NO_PATH
    }
}

/// The cost of a shortest path from `(sx, sy)` to `(gx, gy)` in `*cost`:
/// `CAIRNS_OK`, or
/// `CAIRNS_NO_PATH` with `INFINITY` (at
/// once, without a search, when the two cells lie in different connected
/// components). An endpoint off the map or on a wall is
/// `CAIRNS_ERR_ENDPOINT`.
///
/// # Safety
///
/// `searcher` is NULL or a live handle used by no other thread meanwhile;
/// `cost` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_search_cost(
    searcher: *mut cairns_searcher, sx: i32, sy: i32, gx: i32, gy: i32, cost: *mut f64,
) -> cairns_status {
    guard(|| {
        handle::need(cost, "cost")?;
        // SAFETY: the caller's contract.
        let s = unsafe { current(searcher)? };
        let (start, goal) = (s.node("start", sx, sy)?, s.node("goal", gx, gy)?);
        let found_cost = s.inner_mut().search_cost(start, goal);
        s.end = found_cost.map(|_| goal);
        s.path.clear();
        // SAFETY: checked non-NULL above; the caller's contract.
        unsafe { handle::put(cost, found_cost.unwrap_or(f64::INFINITY), "cost")? };
        Ok(found(found_cost.is_some()))
    })
}

/// A shortest path from `(sx, sy)` to `(gx, gy)`: its cost in `*cost`, its
/// length in points (start and goal included) in `*len`, and the points as
/// `x, y` pairs in `xy`, which has room for `capacity` points (`2 *
/// capacity` values). When the path is longer than `capacity`,
/// `CAIRNS_ERR_BUFFER_TOO_SMALL`
/// with `*len` and `*cost` written: fetch it with
/// `cairns_searcher_last_path` and a larger buffer, without searching
/// again. No path: `CAIRNS_NO_PATH`, `*len`
/// 0 and `*cost` `INFINITY`.
///
/// # Safety
///
/// As `cairns_search_cost`; `xy` NULL or valid for writes of `2 *
/// capacity` values; `len` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_search_path(
    searcher: *mut cairns_searcher, sx: i32, sy: i32, gx: i32, gy: i32, xy: *mut i32,
    capacity: usize, len: *mut usize, cost: *mut f64,
) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe {
        path_query(searcher, (xy, capacity, len), cost, |s| {
            let (start, goal) = (s.node("start", sx, sy)?, s.node("goal", gx, gy)?);
            Ok(s.inner_mut().search_cost(start, goal).map(|c| (goal, c)))
        })
    }
}

/// The path of the searcher's last query (to its goal, or to its best node
/// when a budgeted search paused) into `xy` of `capacity` points, its
/// length in `*len`: for a buffer that was too small. After
/// `cairns_search_cost`, which keeps no path, the path is searched for
/// again from the kept search memory.
///
/// # Safety
///
/// `searcher` is NULL or a live handle used by no other thread meanwhile;
/// `xy` NULL or valid for writes of `2 * capacity` values; `len` valid for
/// a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_searcher_last_path(
    searcher: *mut cairns_searcher, xy: *mut i32, capacity: usize, len: *mut usize,
) -> cairns_status {
    guard(|| {
        handle::need(len, "len")?;
        // SAFETY: the caller's contract.
        let s = unsafe { handle::get_mut(searcher, "searcher")? };
        if s.path.is_empty() {
            s.ended(s.end);
        }
        // SAFETY: the caller's contract.
        unsafe { s.write_path(xy, capacity, len)? };
        Ok(found(s.end.is_some()))
    })
}

/// The nearest of `goal_count` goals from any of `source_count` sources
/// (`x, y` pairs), in one search: the path from the nearest source to the
/// nearest goal, written as `cairns_search_path` writes it.
///
/// # Safety
///
/// As `cairns_search_path`; `sources` valid for reads of `2 *
/// source_count` values and `goals` of `2 * goal_count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_search_nearest(
    searcher: *mut cairns_searcher, sources: *const i32, source_count: usize, goals: *const i32,
    goal_count: usize, xy: *mut i32, capacity: usize, len: *mut usize, cost: *mut f64,
) -> cairns_status {
    // SAFETY: the caller's contract.
    unsafe {
        path_query(searcher, (xy, capacity, len), cost, |s| {
            let (sources, goals) = s.ends((sources, source_count), (goals, goal_count))?;
            let reached = s.inner_mut().search_nearest(&sources, &goals);
            Ok(reached.map(|r| (r.goal, r.cost)))
        })
    }
}

/// One search from the sources to the nearest goal (`x, y` pairs) under a
/// budget: at most `max_expansions` expansions (0: no limit) and no node
/// expanded whose `f` is above `max_cost` (`INFINITY`: no limit), as
/// `cairns path --max-expansions N --max-cost C`.
/// `CAIRNS_OK` when a goal was reached,
/// `CAIRNS_NO_PATH`, or
/// `CAIRNS_PAUSED` with the best node so far
/// in `*progress` (head for it meanwhile; `cairns_searcher_last_path` gives
/// the path there). The next call on this searcher with the same sources
/// and goals goes on from where a paused one stopped (a game's next
/// frame); a query of another kind in between, or an edit of the map,
/// starts it over, with the same answer. Only `astar` and `dijkstra` take a budget;
/// other specs are `CAIRNS_ERR_UNSUPPORTED`.
///
/// # Safety
///
/// As `cairns_search_nearest`; `progress` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_search_budgeted(
    searcher: *mut cairns_searcher, sources: *const i32, source_count: usize, goals: *const i32,
    goal_count: usize, max_expansions: u64, max_cost: f64, progress: *mut cairns_progress,
) -> cairns_status {
    guard(|| {
        handle::need(progress, "progress")?;
        if max_cost.is_nan() {
            return Err(Failure::new(
                cairns_status::CAIRNS_ERR_ARGUMENT,
                "max_cost must be a number, not NaN",
            ));
        }
        // SAFETY: the caller's contract.
        let s = unsafe { current(searcher)? };
        // SAFETY: the caller's contract.
        let (sources, goals) = unsafe { s.ends((sources, source_count), (goals, goal_count))? };
        let budget = Budget {
            expansions: if max_expansions == 0 {
                u64::MAX
            } else {
                max_expansions
            },
            max_f: max_cost,
        };
        let outcome = s
            .inner_mut()
            .search_budgeted(&sources, &goals, budget)
            .ok_or_else(|| {
                Failure::new(
                    cairns_status::CAIRNS_ERR_UNSUPPORTED,
                    format!(
                        "a budget needs the astar or dijkstra search; {} takes no budget",
                        s.live.live().current().spec().algorithm
                    ),
                )
            })?;
        let graph = s.inner().graph();
        let at = |n: NodeId| {
            let (x, y) = graph.coords(n);
            (x as i32, y as i32)
        };
        let (status, end, report) = match outcome {
            Progress::Found(reached) => {
                let (x, y) = at(reached.goal);
                let p = cairns_progress {
                    x,
                    y,
                    cost: reached.cost,
                    h: 0.0,
                };
                (cairns_status::CAIRNS_OK, Some(reached.goal), p)
            }
            Progress::NoPath => {
                let p = cairns_progress {
                    x: -1,
                    y: -1,
                    cost: f64::INFINITY,
                    h: f64::INFINITY,
                };
                (cairns_status::CAIRNS_NO_PATH, None, p)
            }
            Progress::Paused { closest, g, h } => {
                let (x, y) = at(closest);
                let p = cairns_progress { x, y, cost: g, h };
                (cairns_status::CAIRNS_PAUSED, Some(closest), p)
            }
        };
        s.ended(end);
        // SAFETY: checked non-NULL above; the caller's contract.
        unsafe { handle::put(progress, report, "progress")? };
        Ok(status)
    })
}

/// The statistics of the searcher's last query in `*stats`.
///
/// # Safety
///
/// `searcher` is NULL or a live handle; `stats` valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cairns_searcher_stats(
    searcher: *const cairns_searcher, stats: *mut cairns_stats,
) -> cairns_status {
    guard(|| {
        // SAFETY: the caller's contract.
        let s = unsafe { handle::get(searcher, "searcher")? };
        let SearchStats {
            expanded,
            generated,
            updated,
            reopened,
            max_open,
        } = s.inner().stats();
        let out = cairns_stats {
            expanded,
            generated,
            updated,
            reopened,
            max_open,
        };
        // SAFETY: the caller's contract.
        unsafe { handle::put(stats, out, "stats")? };
        Ok(cairns_status::CAIRNS_OK)
    })
}
