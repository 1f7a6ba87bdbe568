//! The JSON API through `tower::ServiceExt::oneshot`: valid searches match
//! the library, every invalid input gets a 4xx with a message.

use std::sync::Arc;
use std::time::Instant;

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use cairns::grid::{GenerateOptions, Grid, GridGraph, MapKind, Neighborhood, generate};
use cairns::heuristic::Octile;
use cairns::search::{AStar, SearchCache};
use cairns_web::{AppState, SearchResponse, router};
use serde_json::{Value, json};
use tower::ServiceExt;

fn grid(size: u32) -> Grid {
    generate(&GenerateOptions {
        kind: MapKind::Rooms { room_size: 15 },
        width: size,
        height: size,
        seed: 1,
    })
    .unwrap()
}

fn free(grid: &Grid, from_end: bool) -> [u32; 2] {
    let n = grid.len() as u32;
    let i = (0..n)
        .map(|k| if from_end { n - 1 - k } else { k })
        .find(|&i| grid.tiles()[i as usize].is_passable())
        .unwrap();
    [i % grid.width(), i / grid.width()]
}

async fn call(state: &Arc<AppState>, method: &str, uri: &str, body: Body) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body)
        .unwrap();
    let resp = router(Arc::clone(state)).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = to_bytes(resp.into_body(), usize::MAX).await.unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)));
    (status, value)
}

async fn post(state: &Arc<AppState>, uri: &str, body: &Value) -> (StatusCode, Value) {
    call(state, "POST", uri, Body::from(body.to_string())).await
}

#[tokio::test]
async fn search_equals_the_library() {
    let g = grid(128);
    let state = Arc::new(AppState::with_grid("rooms", g.clone()).unwrap());
    let (from, to) = (free(&g, false), free(&g, true));
    let (status, value) = post(
        &state,
        "/api/search",
        &json!({"map": "rooms", "from": from, "to": to, "heuristic": "octile", "compare": "zero"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let resp: SearchResponse = serde_json::from_value(value).unwrap();

    let graph = GridGraph::new(g, Neighborhood::Octile);
    let mut cache = SearchCache::new();
    let (s, t) = (
        graph.node(from[0], from[1]).unwrap(),
        graph.node(to[0], to[1]).unwrap(),
    );
    let path = AStar::new(&graph, Octile::new(&graph))
        .search(s, t, &mut cache)
        .unwrap();
    // JSON carries the cost to within the last bit of the f64.
    assert!((resp.a.cost.unwrap() - path.cost).abs() < 1e-9);
    assert_eq!(resp.a.expanded, cache.stats().expanded);
    assert_eq!(
        resp.a.path,
        path.nodes.iter().map(|n| n.0).collect::<Vec<_>>()
    );
    assert_eq!(resp.a.explored.count, cache.closed_nodes().count());
    let b = resp.b.unwrap();
    assert!((b.cost.unwrap() - path.cost).abs() < 1e-9);
    assert!(b.expanded > resp.a.expanded);

    // The map, the map list and the heat map answer too.
    let (status, maps) = call(&state, "GET", "/api/maps", Body::empty()).await;
    assert_eq!(
        (status, maps["maps"].clone()),
        (StatusCode::OK, json!(["rooms"]))
    );
    let (status, map) = call(&state, "GET", "/api/map?name=rooms", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(map["rows"].as_array().unwrap().len(), 128);
    let landmarks = map["landmarks"].clone();
    let (status, heat) = post(
        &state,
        "/api/heat",
        &json!({"map": "rooms", "to": to, "heuristic": "dh", "landmarks": landmarks}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{heat}");
    assert_eq!(heat["over"], json!(0), "a fresh table never overestimates");
}

#[tokio::test]
async fn every_invalid_input_gets_4xx_with_a_message() {
    let g = grid(64);
    let wall = {
        let i = g.tiles().iter().position(|t| !t.is_passable()).unwrap() as u32;
        [i % 64, i / 64]
    };
    let state = Arc::new(AppState::with_grid("rooms", g.clone()).unwrap());
    let ok = free(&g, false);
    let base = json!({"map": "rooms", "from": ok, "to": ok});
    let with = |key: &str, v: Value| {
        let mut b = base.clone();
        b[key] = v;
        b
    };
    let cases = [
        (with("from", json!([64, 0])), "outside"),
        (with("to", json!([0, 99999])), "outside"),
        (with("from", json!(wall)), "wall"),
        (with("map", json!("nope")), "unknown map"),
        (with("heuristic", json!("psychic")), "unknown heuristic"),
        (with("compare", json!("dh")), "landmarks"),
        (with("neighborhood", json!(6)), "4 or 8"),
        (with("open", json!("fibonacci")), "OPEN set"),
        (with("walls", json!([[100, 0, 1]])), "outside"),
        (with("walls", json!([[0, 0, 7]])), "0 or 1"),
        (with("from", json!([-1, 0])), "from"),
        (with("extra", json!(1)), "extra"),
        (
            json!({"map": "rooms", "from": ok, "to": ok, "heuristic": "dh", "landmarks": [wall]}),
            "landmark",
        ),
    ];
    for (body, needle) in cases {
        let (status, value) = post(&state, "/api/search", &body).await;
        assert!(status.is_client_error(), "{body}: {status}");
        let msg = value["error"].as_str().unwrap_or_default();
        assert!(msg.contains(needle), "{body}: {msg:?} lacks {needle:?}");
    }
    for (uri, body) in [
        ("/api/search", Body::from("{not json")),
        ("/api/search", Body::from("")),
        (
            "/api/search",
            Body::from(vec![b' '; cairns_web::MAX_BODY + 10]),
        ),
        ("/api/heat", Body::from("[]")),
    ] {
        let (status, value) = call(&state, "POST", uri, body).await;
        assert!(status.is_client_error(), "{uri}: {status}");
        assert!(
            value["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{value}"
        );
    }
    for uri in [
        "/api/map?name=nope",
        "/api/map",
        "/api/map?name=%zz",
        "/api/nothing",
    ] {
        let (status, value) = call(&state, "GET", uri, Body::empty()).await;
        assert!(status.is_client_error(), "{uri}: {status}");
        assert!(value["error"].as_str().is_some(), "{value}");
    }
}

/// Measures `POST /api/search` on a 512x512 map (what a drag sends); the
/// page needs an answer within 100 ms. Only printed in debug builds, where
/// the search is many times slower; asserted with `--release`.
#[tokio::test]
async fn search_latency_on_a_512_map() {
    let g = grid(512);
    let state = Arc::new(AppState::with_grid("rooms", g.clone()).unwrap());
    let (status, map) = call(&state, "GET", "/api/map?name=rooms", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    let body = json!({"map": "rooms", "from": free(&g, false), "to": free(&g, true),
        "heuristic": "octile", "compare": "dh", "landmarks": map["landmarks"]});
    // The first request builds the landmark table; drags reuse it.
    let (status, first) = post(&state, "/api/search", &body).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let mut times = Vec::new();
    for _ in 0..10 {
        let t0 = Instant::now();
        let (status, _) = post(&state, "/api/search", &body).await;
        assert_eq!(status, StatusCode::OK);
        times.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    eprintln!(
        "512x512 /api/search latency: median {:.1} ms, max {:.1} ms (table built in {} ms; A expanded {}, B {})",
        times[5], times[9], first["table_millis"], first["a"]["expanded"], first["b"]["expanded"]
    );
    if !cfg!(debug_assertions) {
        assert!(times[5] < 100.0, "median {} ms", times[5]);
    }
}
