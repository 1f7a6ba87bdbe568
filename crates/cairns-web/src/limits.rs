//! What one client, or many, may take from the server: connections, time,
//! body size, CPU work and landmark-table memory. [`Limits`] is the
//! configuration; the rest is the bookkeeping behind it, kept here so that
//! the handlers in `api.rs` only call a check or take a permit.
//!
//! Every limit answers with a JSON error, never by dying: a table larger
//! than a request may build is a 422 before anything is built; a full set of
//! table builds or a full table-memory budget is a 503; a request past its
//! deadline is a 408 (its body had not arrived) or a 503; a body too large
//! is a 413; a connection past the cap is a 503 and closed.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::Semaphore;

use crate::wire::ApiError;

/// The largest request body accepted by default, in bytes (see
/// [`Limits::max_body_bytes`]).
pub const MAX_BODY: usize = 1 << 20;

/// The limits of a server, set with
/// [`AppState::with_limits`](crate::AppState::with_limits).
///
/// The defaults hold the server under 1 GB of memory on the largest maps it
/// loads, with a few clients at once (see `docs/server.md` for what was
/// measured). Set fields with struct update syntax:
///
/// ```
/// use std::time::Duration;
/// use cairns_web::{AppState, Limits};
///
/// let limits = Limits {
///     max_connections: 64,
///     request_timeout: Duration::from_secs(10),
///     ..Limits::default()
/// };
/// let state = AppState::with_default_map().with_limits(limits);
/// assert_eq!(state.limits().max_connections, 64);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once. A connection past the cap is answered
    /// `503` with a JSON error and closed, without reading its request.
    /// Default 256, well below the usual limit of 1024 file descriptors, so
    /// the server does not run out of descriptors on connections alone.
    pub max_connections: usize,
    /// How long a client may take to send a request's headers, counted from
    /// the first byte, and how long an idle keep-alive connection stays
    /// open. Past it the connection is closed. Default 10 s.
    pub header_read_timeout: Duration,
    /// The deadline of one request, from its headers to its response. A
    /// request whose body has not arrived by then gets `408`; one whose
    /// work (waiting for a turn included) has not finished gets `503`.
    /// Default 30 s.
    pub request_timeout: Duration,
    /// How long a response may wait for the client to read any of it;
    /// past it the connection is closed. Default 30 s.
    pub write_timeout: Duration,
    /// The largest request body, in bytes; larger ones get `413`. Default
    /// [`MAX_BODY`], 1 MiB.
    pub max_body_bytes: usize,
    /// Requests doing CPU work (searches, heat maps, map loads, table
    /// builds) at once. Others wait their turn, in order, within
    /// `request_timeout`. Each holds a search cache of about 20 bytes per
    /// cell of its map. Default 4.
    pub max_concurrent_work: usize,
    /// Tables being built at once: the page's landmark tables, and the
    /// tables an engine builds for its search (a jump table, a subgoal
    /// graph). A request that needs another table built meanwhile gets
    /// `503`. Each build also needs a few columns of the map's size for
    /// its searches. Default 2.
    pub max_table_builds: usize,
    /// The largest landmark table one request may have built, in bytes:
    /// landmarks x cells x 8. A larger one gets `422` before anything is
    /// built. Default 256 MiB: 32 landmarks on 1024 x 1024, 8 on
    /// 2048 x 2048.
    pub max_table_bytes: usize,
    /// Bytes of tables alive at once: the page's landmark tables (charged
    /// before they are built) and the tables of the engines the server
    /// keeps (charged once built), cached or in use. A build that would
    /// exceed it first drops the least recently used engines and tables no
    /// request is using; if that is not enough, the request gets `503`.
    /// The engines' graphs and their searchers' memory are bounded by the
    /// count of engines kept, not here. Default 768 MiB, three of the
    /// largest landmark tables.
    pub table_memory: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 256,
            header_read_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
            max_body_bytes: MAX_BODY,
            max_concurrent_work: 4,
            max_table_builds: 2,
            max_table_bytes: 256 << 20,
            table_memory: 768 << 20,
        }
    }
}

/// The bytes of a symmetric landmark table: one `f64` per landmark and
/// node, as [`LandmarkTable::memory_bytes`](cairns::landmarks::LandmarkTable::memory_bytes)
/// reports once it is built.
pub(crate) fn table_bytes(landmarks: usize, nodes: usize) -> usize {
    landmarks
        .saturating_mul(nodes)
        .saturating_mul(std::mem::size_of::<f64>())
}

/// Refuses, before anything is built, a table larger than one request may
/// have built or than the whole table budget. A `directed` table keeps two
/// columns per landmark.
pub(crate) fn check_table_request(
    limits: &Limits, landmarks: usize, directed: bool, width: u32, height: u32,
) -> Result<(), ApiError> {
    let nodes = width as usize * height as usize;
    let per_landmark = if directed { 2 } else { 1 };
    let bytes = table_bytes(landmarks.saturating_mul(per_landmark), nodes);
    let limit = limits.max_table_bytes.min(limits.table_memory);
    if bytes <= limit {
        return Ok(());
    }
    let kind = if directed { "directed " } else { "" };
    let advice = match limit / table_bytes(per_landmark, nodes).max(1) {
        0 => format!("this map is too large for {kind}dh on this server"),
        fits => format!("use at most {fits} landmarks"),
    };
    Err(ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        format!(
            "{kind}dh with {landmarks} landmarks on this {width}x{height} map needs a {} table, \
             more than the {} a request may build; {advice}",
            mib(bytes),
            mib(limit)
        ),
    ))
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

/// The counters behind the limits, shared by every request of one state.
#[derive(Debug)]
pub(crate) struct Guards {
    limits: Limits,
    work: Arc<Semaphore>,
    builds: AtomicUsize,
    table_bytes: Arc<AtomicUsize>,
}

impl Guards {
    pub(crate) fn new(limits: Limits) -> Guards {
        Guards {
            work: Arc::new(Semaphore::new(limits.max_concurrent_work.max(1))),
            builds: AtomicUsize::new(0),
            table_bytes: Arc::new(AtomicUsize::new(0)),
            limits,
        }
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The turns for CPU work; hold one while working.
    pub(crate) fn work(&self) -> Arc<Semaphore> {
        Arc::clone(&self.work)
    }

    /// A turn to build a table, or the refusal when all are taken.
    pub(crate) fn build(&self) -> Result<BuildPermit<'_>, Refusal> {
        let max = self.limits.max_table_builds;
        self.builds
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .map(|_| BuildPermit(&self.builds))
            .map_err(|_| Refusal::BuildsBusy { max })
    }

    /// Charges `bytes` to the table budget, or `None` when they do not fit.
    pub(crate) fn charge(&self, bytes: usize) -> Option<Charge> {
        let total = self.limits.table_memory;
        self.table_bytes
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|&u| u <= total)
            })
            .ok()
            .map(|_| Charge {
                bytes,
                used: Arc::clone(&self.table_bytes),
            })
    }

    /// Bytes of tables alive now.
    pub(crate) fn table_bytes_used(&self) -> usize {
        self.table_bytes.load(Ordering::Acquire)
    }
}

/// One of [`Limits::max_table_builds`], given back when dropped.
#[derive(Debug)]
pub(crate) struct BuildPermit<'a>(&'a AtomicUsize);

impl Drop for BuildPermit<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Bytes taken from [`Limits::table_memory`], given back when dropped.
#[derive(Debug)]
pub(crate) struct Charge {
    bytes: usize,
    used: Arc<AtomicUsize>,
}

impl Drop for Charge {
    fn drop(&mut self) {
        self.used.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// A value whose memory stays charged to a budget for as long as it lives,
/// wherever it is held (the cache, a request, or both).
#[derive(Debug)]
pub(crate) struct Charged<T> {
    value: T,
    _charge: Charge,
}

impl<T> Charged<T> {
    pub(crate) fn new(value: T, charge: Charge) -> Charged<T> {
        Charged {
            value,
            _charge: charge,
        }
    }
}

impl<T> Charged<T> {
    /// The value, to change in place: its charge stays what it was, so the
    /// change must keep its size.
    pub(crate) fn get_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T> Deref for Charged<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

/// Why a request that was valid cannot be served now: a `503`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Every table-build turn is taken.
    BuildsBusy {
        /// [`Limits::max_table_builds`].
        max: usize,
    },
    /// The table budget is taken by tables that requests are using.
    TableMemoryFull {
        /// Bytes the build needs.
        needed: usize,
        /// Bytes in use.
        used: usize,
        /// [`Limits::table_memory`].
        total: usize,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::BuildsBusy { max } => write!(
                f,
                "the server is already building {max} landmark tables; try again shortly"
            ),
            Refusal::TableMemoryFull {
                needed,
                used,
                total,
            } => write!(
                f,
                "landmark tables in use take {} of the {} the server keeps, \
                 no room for another {}; try again shortly",
                mib(*used),
                mib(*total),
                mib(*needed)
            ),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, r.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_permits_are_counted_and_given_back() {
        let guards = Guards::new(Limits {
            max_table_builds: 2,
            ..Limits::default()
        });
        let a = guards.build().unwrap();
        let b = guards.build().unwrap();
        assert_eq!(guards.build().unwrap_err(), Refusal::BuildsBusy { max: 2 });
        drop(a);
        let _c = guards.build().unwrap();
        drop(b);
    }

    #[test]
    fn charges_stay_within_the_budget_until_dropped() {
        let guards = Guards::new(Limits {
            table_memory: 100,
            ..Limits::default()
        });
        let a = guards.charge(60).unwrap();
        assert!(guards.charge(41).is_none());
        let b = Charged::new("table", guards.charge(40).unwrap());
        assert_eq!(guards.table_bytes_used(), 100);
        drop(a);
        assert_eq!(guards.table_bytes_used(), 40);
        drop(b);
        assert_eq!(guards.table_bytes_used(), 0);
        assert!(guards.charge(usize::MAX).is_none(), "no overflow");
    }

    /// The estimate decides what is refused before a build, so it must be
    /// what a built table really holds.
    #[test]
    fn table_bytes_is_what_a_built_table_holds() {
        use cairns::graph::NodeId;
        use cairns::grid::{Grid, GridGraph, Neighborhood};
        use cairns::landmarks::{Directedness, LandmarkTable};
        let grid = Grid::from_ascii("....\n.@@.\n....").unwrap();
        let graph = GridGraph::new(grid, Neighborhood::Octile);
        let table = LandmarkTable::build(&graph, &[NodeId(0), NodeId(11)], Directedness::Symmetric);
        assert_eq!(table_bytes(2, 12), table.memory_bytes());
    }

    #[test]
    fn a_table_too_large_for_a_request_is_refused_with_what_fits() {
        let limits = Limits {
            max_table_bytes: 1 << 20,
            ..Limits::default()
        };
        // 128 x 128 cells x 8 landmarks x 8 bytes = 1 MiB: fits exactly.
        check_table_request(&limits, 8, false, 128, 128).unwrap();
        let err = check_table_request(&limits, 9, false, 128, 128).unwrap_err();
        assert_eq!(err.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(err.message().contains("at most 8 landmarks"), "{err:?}");
        // A directed table holds two columns per landmark: half as many fit.
        check_table_request(&limits, 4, true, 128, 128).unwrap();
        let err = check_table_request(&limits, 5, true, 128, 128).unwrap_err();
        assert!(err.message().contains("directed dh with 5"), "{err:?}");
        assert!(err.message().contains("at most 4 landmarks"), "{err:?}");
        // The whole budget bounds a request too.
        let small_budget = Limits {
            table_memory: 1 << 19,
            ..limits
        };
        assert!(check_table_request(&small_budget, 8, false, 128, 128).is_err());
    }
}
