//! The landmark routes: `POST /api/landmarks` places landmarks with one of
//! the library's strategies, `POST /api/landmark-help` shows where one
//! landmark raises the heuristic towards one goal.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use cairns::landmarks::place;
use cairns::spec::{PLACEMENT_SEED, PlacementKind};

use crate::api::{MAX_LANDMARKS, at_work, cell, graph, neighborhood, parse, prepare, xy};
use crate::gains::{check_landmark, help_of};
use crate::state::AppState;
use crate::wire::{ApiError, HelpRequest, HelpResponse, PlaceRequest, PlaceResponse, bad};

/// Answers `POST /api/landmarks`.
pub(crate) async fn place_landmarks(
    State(state): State<Arc<AppState>>, body: Result<Json<PlaceRequest>, JsonRejection>,
) -> Result<Json<PlaceResponse>, ApiError> {
    let Json(req) = body?;
    if req.count == 0 || req.count > MAX_LANDMARKS {
        return Err(bad(format!(
            "count must be 1 to {MAX_LANDMARKS}, not {}",
            req.count
        )));
    }
    let kind: PlacementKind = parse(&req.placement)?;
    let nb = neighborhood(req.neighborhood)?;
    at_work(state, move |state| {
        let t0 = Instant::now();
        let base = graph(state, &req.map, (nb, req.size), &req.walls)?;
        let graph = base.engine.graph();
        // Placing runs searches over the whole map, in parallel, like a
        // table build: it takes one of the build turns.
        let _turn = state.guards().build()?;
        let nodes = place(graph, req.count, kind.with_seed(PLACEMENT_SEED));
        if nodes.len() < req.count {
            return Err(bad(format!(
                "cannot place {} landmarks: the map has only {} cells with a legal move",
                req.count,
                nodes.len()
            )));
        }
        Ok(PlaceResponse {
            landmarks: nodes.iter().map(|&n| xy(graph.grid(), n)).collect(),
            millis: t0.elapsed().as_secs_f64() * 1e3,
        })
    })
    .await
}

/// Answers `POST /api/landmark-help`: for the goal and one landmark `L`,
/// each cell's gain over the octile distance (see [`gain`]), read from the
/// same table the searches use.
pub(crate) async fn help(
    State(state): State<Arc<AppState>>, body: Result<Json<HelpRequest>, JsonRejection>,
) -> Result<Json<HelpResponse>, ApiError> {
    let Json(req) = body?;
    let count = req.scene.landmarks.len();
    check_landmark(req.landmark, count)?;
    at_work(state, move |state| {
        let prep = prepare(state, &req.scene, true)?;
        let goal = cell(prep.graph(), "goal", req.to)?;
        help_of(
            prep.graph(),
            prep.landmark_table()?,
            count,
            req.landmark,
            goal,
            false,
        )
    })
    .await
}
