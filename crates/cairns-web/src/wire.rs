//! The JSON the API reads and writes: the body and answer of each route,
//! and [`ApiError`], the `{"error": "..."}` answer of every failure.
//!
//! The bottom of the crate: the handlers (`api.rs`, `landmarks.rs`), the
//! state (`state.rs`) and the limits (`limits.rs`) import from here, and it
//! imports from none of them.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

/// An error answer: a status and `{"error": message}`.
#[derive(Debug)]
pub(crate) struct ApiError(StatusCode, String);

pub(crate) fn bad(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.into())
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, msg: impl Into<String>) -> ApiError {
        ApiError(status, msg.into())
    }

    #[cfg(test)]
    pub(crate) fn status(&self) -> StatusCode {
        self.0
    }

    #[cfg(test)]
    pub(crate) fn message(&self) -> &str {
        &self.1
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
        }
        (self.0, Json(Body { error: self.1 })).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        ApiError(r.status(), r.body_text())
    }
}

/// The answer of `GET /api/maps`.
#[derive(Serialize)]
#[expect(
    clippy::struct_field_names,
    reason = "the field names are the JSON keys of GET /api/maps"
)]
pub(crate) struct Maps {
    pub(crate) maps: Vec<String>,
    /// The set of each map (the folder it came from), `""` for none.
    pub(crate) sets: Vec<String>,
    pub(crate) open_sets: Vec<&'static str>,
    pub(crate) searches: Vec<&'static str>,
}

/// The answer of `GET /api/map`.
#[derive(Serialize)]
pub(crate) struct MapInfo {
    pub(crate) name: String,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) rows: Vec<String>,
    pub(crate) landmarks: Vec<[u32; 2]>,
    /// The default start: the longest query of the map's scenario file, or
    /// one end of two far-apart cells.
    pub(crate) from: [u32; 2],
    /// The default goal.
    pub(crate) to: [u32; 2],
    /// Where the defaults come from: `scenario line N` or `far apart`.
    pub(crate) endpoints: String,
}

fn default_heuristic() -> String {
    "octile".into()
}

fn yes() -> bool {
    true
}

fn one() -> u32 {
    1
}

fn default_neighborhood() -> u8 {
    8
}

/// Deserializers for the fields of [`Scene`] that put the field's name in
/// front of its error: serde buffers a flattened struct's fields, and the
/// JSON reader's errors then lose the name it gives elsewhere
/// (`directed: invalid type ...`).
macro_rules! named_fields {
    ($($field:ident: $ty:ty),* $(,)?) => {
        mod named {
            use serde::{Deserialize, Deserializer, de::Error};
            $(pub(super) fn $field<'de, D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                <$ty>::deserialize(d)
                    .map_err(|e| D::Error::custom(format!(concat!(stringify!($field), ": {}"), e)))
            })*
        }
    };
}

named_fields! {
    landmarks: Vec<[u32; 2]>,
    neighborhood: u8,
    size: u32,
    walls: Vec<[u32; 3]>,
    table_walls: Option<Vec<[u32; 3]>>,
    directed: bool,
}

/// What every request about one picture of a map says besides its
/// endpoints: the map, its landmarks, the movement rule and the wall edits.
/// The bodies of `POST /api/search`, `/api/heat` and `/api/landmark-help`
/// carry these fields at their top level (`#[serde(flatten)]`).
#[derive(Clone, Debug, Deserialize)]
pub struct Scene {
    /// A name from `GET /api/maps`.
    pub map: String,
    /// Landmark cells `[x, y]` for `dh` (octile base).
    #[serde(default, deserialize_with = "named::landmarks")]
    pub landmarks: Vec<[u32; 2]>,
    /// 4, 8 or 9 (octile with corner cutting).
    #[serde(
        default = "default_neighborhood",
        deserialize_with = "named::neighborhood"
    )]
    pub neighborhood: u8,
    /// The agent's side in cells, placed by its top-left cell (1 to 255).
    #[serde(default = "one", deserialize_with = "named::size")]
    pub size: u32,
    /// Wall edits `[x, y, blocked]` applied to the map, in order.
    #[serde(default, deserialize_with = "named::walls")]
    pub walls: Vec<[u32; 3]>,
    /// The edits the landmark table was built with (default: `walls`, a
    /// fresh table). Different from `walls` means a stale table.
    #[serde(default, deserialize_with = "named::table_walls")]
    pub table_walls: Option<Vec<[u32; 3]>>,
    /// Whether the landmark table keeps distances both to and from each
    /// landmark (a directed table: twice the memory; on a grid, whose
    /// moves cost the same both ways, the same bounds).
    #[serde(default, deserialize_with = "named::directed")]
    pub directed: bool,
}

/// A shading computed with the searches of a `POST /api/search`, so that
/// a change (a drag) costs one request, not two in a row.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Shade {
    /// `h / d` of search A's heuristic, or B's with `"b": true` (as
    /// `POST /api/heat`).
    Heat {
        /// Shade B's heuristic instead of A's.
        #[serde(default)]
        b: bool,
    },
    /// Where a landmark helps: for the goal, each cell's gain (as `POST
    /// /api/landmark-help`).
    Help {
        /// The index of the landmark in `landmarks`.
        landmark: usize,
    },
    /// Which goals a landmark helps: for the start, each cell's gain as a
    /// goal (the landmark's bound on `d(start, cell)` above octile).
    Goals {
        /// The index of the landmark in `landmarks`.
        landmark: usize,
    },
}

/// The body of `POST /api/search`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// The map, landmarks, movement and edits.
    #[serde(flatten)]
    pub scene: Scene,
    /// Start cell `[x, y]`.
    pub from: [u32; 2],
    /// Goal cell `[x, y]`.
    pub to: [u32; 2],
    /// Search A's algorithm, a name of [`cairns::spec::Algorithm`]
    /// (`astar`, the default, `canonical`, `jps`, `dijkstra`, `bfs`, ...).
    #[serde(default)]
    pub search: Option<String>,
    /// Search B's algorithm (default: `search`), so that A* can be set
    /// beside JPS.
    #[serde(default)]
    pub compare_search: Option<String>,
    /// Heuristic A, a name of [`cairns::spec::HeuristicSpec`]: `octile`,
    /// `zero`, `euclidean`, `manhattan`, or `dh` (`dh:K` with K the number
    /// of landmarks given) for the landmarks.
    #[serde(default = "default_heuristic")]
    pub heuristic: String,
    /// Heuristic B, if any: without it there is no search B.
    #[serde(default)]
    pub compare: Option<String>,
    /// The OPEN set: a name from `open_sets` of `GET /api/maps`, that is
    /// of [`cairns::open::OpenKind`] (by default the library's choice for
    /// the heuristic).
    #[serde(default)]
    pub open: Option<String>,
    /// Whether to return each search's events in order
    /// ([`SearchOutcome::trace`]), for playback.
    #[serde(default)]
    pub trace: bool,
    /// Whether to time warm runs (the default): one untimed warm-up run,
    /// then up to 5 timed runs within 5 ms, the time shown being their
    /// median. `false` runs each search once, timed cold: the page asks so
    /// while a marker is being dragged, where an answer that comes sooner
    /// matters more than a steady time, and asks again warm on release.
    #[serde(default = "yes")]
    pub warm: bool,
    /// A shading to compute with the searches ([`SearchResponse::heat`],
    /// [`SearchResponse::help`]).
    #[serde(default)]
    pub shade: Option<Shade>,
    /// Whether to say, for every cell, which landmark gives the largest
    /// bound towards the goal ([`SearchResponse::owners`]).
    #[serde(default)]
    pub owners: bool,
}

/// The cells a search expanded.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Explored {
    /// How many.
    pub count: usize,
    /// Base64 of a bitmap, bit `i % 8` of byte `i / 8` for cell `i`
    /// (`y * width + x`).
    pub bitmap: String,
}

/// One search's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SearchOutcome {
    /// The heuristic's name.
    pub heuristic: String,
    /// The path's cost, `None` when there is no path.
    pub cost: Option<f64>,
    /// The path's cells (`y * width + x`), start first.
    pub path: Vec<u32>,
    /// Nodes expanded (`SearchStats::expanded`).
    pub expanded: u64,
    /// Edges generated.
    pub generated: u64,
    /// The expanded cells.
    pub explored: Explored,
    /// The search's time in milliseconds: the median of `runs` runs after
    /// one untimed warm-up run.
    pub millis: f64,
    /// How many timed runs `millis` is the median of (up to 5, fewer when
    /// they take more than 5 ms in all).
    pub runs: usize,
    /// Whether the runs were warm (see [`SearchRequest::warm`]).
    pub warm: bool,
    /// When asked for: base64 of the search's events in order, each a
    /// little-endian `u32`: the id of an expanded cell, or with bit 31 set
    /// the id of a cell put on OPEN (or given a better cost there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
    /// Whether the trace was cut short (it keeps at most 2^21 events).
    #[serde(default)]
    pub trace_truncated: bool,
    /// The tables the search ran with, one per kind (`landmarks`,
    /// `jumps`): the library's table report, as the CLI prints it.
    #[serde(default)]
    pub tables: Vec<TableUse>,
}

/// One table a search ran with.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableUse {
    /// Its kind's name (`cairns::saved::TableKind::name`).
    pub kind: String,
    /// Bytes of its data.
    pub bytes: usize,
    /// Milliseconds spent building it for this request, `None` when it
    /// came from the server's cache.
    pub built_millis: Option<f64>,
}

/// The answer of `POST /api/search`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SearchResponse {
    /// Map width.
    pub width: u32,
    /// Map height.
    pub height: u32,
    /// Heuristic A's search.
    pub a: SearchOutcome,
    /// Heuristic B's search, when asked for.
    pub b: Option<SearchOutcome>,
    /// The free cells the start cannot reach (after the wall edits), in
    /// the bitmap format of [`Explored`].
    pub unreachable: Explored,
    /// Whether the landmark table was built for other walls.
    pub stale: bool,
    /// With a stale table: the shortest path on the edited map (A* with
    /// the octile or Manhattan distance), to set beside the paths the stale
    /// table led to, which may be longer.
    pub shortest: Option<Shortest>,
    /// Time spent building a landmark table for this request, if one was built.
    pub table_millis: Option<f64>,
    /// Time of the whole request on the server.
    pub total_millis: f64,
    /// The `h / d` shading, when [`SearchRequest::shade`] asked for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heat: Option<HeatResponse>,
    /// The landmark gain shading, when [`SearchRequest::shade`] asked for
    /// it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<HelpResponse>,
    /// When [`SearchRequest::owners`] asked and there are landmarks: base64
    /// of one byte per cell, the index of the landmark whose bound towards
    /// the goal is the largest, 254 where no landmark beats the octile
    /// distance, 255 where there is none (walls, cells that cannot reach
    /// the goal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owners: Option<String>,
}

/// The shortest path, found without the landmark table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Shortest {
    /// Its length, `None` when the goal cannot be reached.
    pub cost: Option<f64>,
    /// Its cells as node ids (`y * width + x`), start first.
    pub path: Vec<u32>,
}

/// The body of `POST /api/heat`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeatRequest {
    /// The map, landmarks, movement and edits, as in [`SearchRequest`].
    #[serde(flatten)]
    pub scene: Scene,
    /// The start `[x, y]`, if any: a heuristic that prepares itself for the
    /// pair (`dh:K:bestN` chooses its landmarks for it) is shown as the
    /// search from there reads it.
    #[serde(default)]
    pub from: Option<[u32; 2]>,
    /// The goal `[x, y]`.
    pub to: [u32; 2],
    /// The heuristic to compare with the true distance.
    #[serde(default = "default_heuristic")]
    pub heuristic: String,
}

/// The answer of `POST /api/heat`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HeatResponse {
    /// Map width.
    pub width: u32,
    /// Map height.
    pub height: u32,
    /// Base64 of one byte per cell: `round(200 * h / d)` for `h <= d`, 254
    /// where `h > d` (inadmissible), 255 where there is no ratio (walls,
    /// unreachable cells, the goal).
    pub ratio: String,
    /// The mean of `h / d` over the reachable cells.
    pub mean: f64,
    /// Cells where the heuristic overestimates.
    pub over: usize,
    /// Time on the server.
    pub millis: f64,
}

/// The body of `POST /api/landmarks`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceRequest {
    /// A name from `GET /api/maps`.
    pub map: String,
    /// How many landmarks, 1 to 32.
    pub count: usize,
    /// A name of [`PlacementKind`](cairns::spec::PlacementKind): `random`,
    /// `farthest`, `avoid` or `sampled` (seed 1).
    pub placement: String,
    /// 4, 8 or 9, as in [`Scene`].
    #[serde(default = "default_neighborhood")]
    pub neighborhood: u8,
    /// The agent's size, as in [`Scene`].
    #[serde(default = "one")]
    pub size: u32,
    /// Wall edits, as in [`SearchRequest`].
    #[serde(default)]
    pub walls: Vec<[u32; 3]>,
}

/// The answer of `POST /api/landmarks`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlaceResponse {
    /// The landmark cells `[x, y]`, as many as asked for.
    pub landmarks: Vec<[u32; 2]>,
    /// Time on the server.
    pub millis: f64,
}

/// The body of `POST /api/landmark-help`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelpRequest {
    /// The map, landmarks, movement and edits, as in [`SearchRequest`].
    #[serde(flatten)]
    pub scene: Scene,
    /// The goal `[x, y]`.
    pub to: [u32; 2],
    /// The index in `landmarks` of the landmark to show.
    pub landmark: usize,
}

/// The answer of `POST /api/landmark-help`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HelpResponse {
    /// Map width.
    pub width: u32,
    /// Map height.
    pub height: u32,
    /// Base64 of one byte per cell: the landmark's gain `round(254 * gain
    /// / max)`, 255 where it has none to give (walls, cells that cannot
    /// reach the goal or the landmark).
    pub gain: String,
    /// The largest gain, in cost units (the scale's top).
    pub max: f64,
    /// Cells where the landmark raises the estimate (gain above 0).
    pub helped: usize,
    /// Cells with a gain value (not 255).
    pub cells: usize,
    /// Time on the server.
    pub millis: f64,
}

/// Standard base64 with padding: how the wire carries bitmaps.
pub(crate) fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
