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
//! | `POST /api/landmarks` | landmarks placed by a strategy ([`PlaceRequest`] to [`PlaceResponse`]) |
//! | `POST /api/landmark-help` | where one landmark raises the estimate towards a goal ([`HelpRequest`] to [`HelpResponse`]) |
//!
//! Every bad input is answered with a 4xx status and `{"error": "..."}`,
//! and so is every other route or method (404, 405).
//!
//! The server is meant to stay up whatever its clients send: [`Limits`]
//! bounds its connections, the time each request and connection may take,
//! body sizes, the CPU work running at once, and the memory of landmark
//! tables, each answered with a JSON error (`408`, `413`, `422`, `503`).
#![deny(missing_docs)]

mod api;
mod catalogue;
mod gains;
mod landmarks;
mod limits;
mod regions;
mod server;
mod state;
mod wire;

pub use limits::{Limits, MAX_BODY};
pub use regions::{longest_scenario, reachable_from};
pub use state::{AppState, MAX_CELLS, MAX_DEPTH, StateError, StateErrorKind};
pub use wire::{
    Explored, HeatRequest, HeatResponse, HelpRequest, HelpResponse, PlaceRequest, PlaceResponse,
    Scene, SearchOutcome, SearchRequest, SearchResponse, Shade, Shortest, TableUse,
};

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::middleware;
use axum::response::IntoResponse;
use axum::routing::{get, post};

const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE_CSS: &str = include_str!("../static/style.css");

/// The application: the page, its script and style, and the API, each
/// request under the deadline and body limit of the state's [`Limits`].
pub fn router(state: Arc<AppState>) -> Router {
    let max_body = state.limits().max_body_bytes;
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
        .route("/api/landmarks", post(landmarks::place_landmarks))
        .route("/api/landmark-help", post(landmarks::help))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            server::deadline,
        ))
        .with_state(state)
}

fn page(body: &'static str, content_type: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}

/// Serves the application on `listener` until the future is dropped, which
/// closes every connection. Nothing a client does ends it: failures to
/// accept a connection (such as running out of file descriptors) are
/// reported on stderr and retried.
///
/// Needs a tokio runtime with I/O and timers enabled.
pub async fn serve_on(listener: tokio::net::TcpListener, state: Arc<AppState>) {
    let app = router(Arc::clone(&state));
    server::serve_on(listener, app, state.limits()).await;
}

/// Binds `addr` and serves the application until the future is dropped
/// (see [`serve_on`]).
///
/// # Errors
///
/// When `addr` cannot be bound.
pub async fn serve(
    addr: SocketAddr, state: Arc<AppState>, on_bound: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    on_bound(listener.local_addr()?);
    serve_on(listener, state).await;
    Ok(())
}

/// [`serve`] on a new multi-threaded tokio runtime (I/O and timers), for
/// callers without one.
///
/// # Errors
///
/// As [`serve`], or when the runtime cannot start.
pub fn serve_blocking(
    addr: SocketAddr, state: Arc<AppState>, on_bound: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve(addr, state, on_bound))
}
