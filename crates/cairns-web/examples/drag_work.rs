//! The server's work for a drag, without a browser or sockets, for
//! instruction counts under callgrind:
//!
//! ```sh
//! cargo build --release -p cairns-web --example drag_work
//! valgrind --tool=callgrind target/release/examples/drag_work landmark 512 8
//! valgrind --tool=callgrind target/release/examples/drag_work landmark 512 0
//! ```
//!
//! `drag_work KIND SIZE MOVES [warm] [SHADE]` sends the map request and
//! then `MOVES` search requests of a drag of `KIND` (`start`, `landmark` or
//! `jps+`, a start drag searched with JPS+) across a generated `SIZE` x
//! `SIZE` rooms map, A octile against B `dh` over the map's 8 suggested
//! landmarks, each search run once as the page asks during a drag (`warm`:
//! warm-up and timed runs, as on release), with the shading `SHADE` of
//! landmark 1 (the one a landmark drag moves) if given (`help` or `goals`).
//! The difference between two move counts is the drag's own work. Every
//! answer is checked to be a 200 with a path.

use std::sync::Arc;

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use cairns::grid::MapKind;
use cairns_web::{AppState, router};
use serde_json::{Value, json};
use tower::ServiceExt;

async fn call(state: &Arc<AppState>, method: &str, uri: &str, body: &Value) -> Value {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(if method == "GET" {
            Body::empty()
        } else {
            Body::from(body.to_string())
        })
        .unwrap();
    let resp = router(Arc::clone(state)).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = to_bytes(resp.into_body(), usize::MAX).await.unwrap();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, StatusCode::OK, "{value}");
    value
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args.get(1).map_or("landmark", String::as_str).to_string();
    let size: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(512);
    let moves: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(8);
    // As the page asks while dragging (one cold run per search), unless
    // the fourth argument is `warm`.
    let warm = args.get(4).is_some_and(|a| a == "warm");
    let shade = args[4.min(args.len())..]
        .iter()
        .find(|a| *a != "warm")
        .map(|kind| json!({"kind": kind, "landmark": 0}));
    let grid = MapKind::Rooms { room_size: 15 }
        .generate(size, size, 1)
        .unwrap();
    let free_row = |y: u32| -> Vec<[u32; 2]> {
        (0..size)
            .map(|x| [x, y])
            .filter(|&[x, y]| grid.is_passable(x, y))
            .collect()
    };
    let state = Arc::new(AppState::with_grid("rooms", grid.clone()).unwrap());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let map = call(&state, "GET", "/api/map?name=rooms", &Value::Null).await;
            let landmarks: Vec<[u32; 2]> =
                serde_json::from_value(map["landmarks"].clone()).unwrap();
            let (from, to) = (map["from"].clone(), map["to"].clone());
            let search = if kind == "jps+" { "jps+" } else { "astar" };
            let body = |from: &Value, landmarks: &[[u32; 2]]| {
                json!({"map": "rooms", "from": from, "to": to, "search": search,
                    "heuristic": "octile", "compare": "dh", "landmarks": landmarks,
                    "warm": warm, "shade": shade})
            };
            // The first search builds the table: not part of a drag.
            call(&state, "POST", "/api/search", &body(&from, &landmarks)).await;
            let row = free_row(size / 2 + 1);
            for k in 0..moves {
                let cell = row[(k * 3) % row.len()];
                let req = if kind == "landmark" {
                    let mut ls = landmarks.clone();
                    ls[0] = cell;
                    body(&from, &ls)
                } else {
                    body(&json!(cell), &landmarks)
                };
                let answer = call(&state, "POST", "/api/search", &req).await;
                assert!(answer["a"]["cost"].is_number(), "{answer}");
            }
        });
}
