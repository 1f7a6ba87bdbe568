//! A browser visualizer for cairns: an axum server with a JSON API and an
//! embedded canvas page (plain JavaScript, no build step).
//!
//! The page lets one drag the start, the goal and the landmarks, paint
//! walls, and compare the cells two heuristics expand; every drag sends one
//! `POST /api/search`. The API:
//!
//! | route | does |
//! |---|---|
//! | `GET /api/maps` | the map names, the first being the default |
//! | `GET /api/map?name=..` | `width`, `height`, `rows` (`.map` characters) and suggested `landmarks` |
//! | `POST /api/search` | one or two A* searches ([`SearchRequest`] to [`SearchResponse`]) |
//! | `POST /api/heat` | `h / d` for every cell towards a goal ([`HeatRequest`] to [`HeatResponse`]) |
//!
//! Every bad input is answered with a 4xx status and `{"error": "..."}`.
#![deny(missing_docs)]

mod api;
mod state;

pub use api::{Explored, HeatRequest, HeatResponse, SearchOutcome, SearchRequest, SearchResponse};
pub use state::{AppState, MAX_CELLS, StateError, StateErrorKind};

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 1 << 20;

const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE_CSS: &str = include_str!("../static/style.css");

/// The application: the page, its script and style, and the API.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE_CSS, "text/css; charset=utf-8") }),
        )
        .route("/api/maps", get(api::maps))
        .route("/api/map", get(api::map))
        .route("/api/search", post(api::search))
        .route("/api/heat", post(api::heat))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

fn page(body: &'static str, content_type: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}

/// Serves the application on `listener` until the task is cancelled.
///
/// # Errors
///
/// The I/O error of the listener.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
) -> std::io::Result<()> {
    axum::serve(listener, router(state)).await
}

/// Binds `addr` and serves the application until the process ends.
///
/// # Errors
///
/// When `addr` cannot be bound, or the I/O error of the listener.
pub async fn serve(
    addr: SocketAddr,
    state: Arc<AppState>,
    on_bound: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    on_bound(listener.local_addr()?);
    serve_on(listener, state).await
}

/// [`serve`] on a new multi-threaded tokio runtime, for callers without one.
///
/// # Errors
///
/// As [`serve`], or when the runtime cannot start.
pub fn serve_blocking(
    addr: SocketAddr,
    state: Arc<AppState>,
    on_bound: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .build()?
        .block_on(serve(addr, state, on_bound))
}
