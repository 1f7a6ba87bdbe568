//! The server's limits over real connections on 127.0.0.1: each limit is
//! hit and answered with its status and a JSON error while another client
//! keeps being answered, and the server task keeps running. Every test
//! starts its own server, sends a bounded number of requests, and stops.
//!
//! `load` holds the load test, ignored: it runs `cairns serve` under
//! `ulimit -n 1024` for a few minutes (see `docs/server.md`).

mod client;
mod load;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cairns::grid::{Grid, MapKind};
use cairns_web::{AppState, Limits};
use client::{Conn, call, search};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A server on a free port of 127.0.0.1, stopped when dropped.
struct Server {
    addr: SocketAddr,
    task: JoinHandle<()>,
}

impl Server {
    async fn start(state: AppState) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(cairns_web::serve_on(listener, Arc::new(state)));
        Server { addr, task }
    }

    /// Asserts that the server task is still running and answers.
    async fn assert_alive(&self) {
        assert!(!self.task.is_finished(), "the server task ended");
        let answer = call(self.addr, "GET", "/api/maps", "").await;
        assert_eq!(answer.status, 200, "{answer:?}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn rooms(size: u32) -> Grid {
    MapKind::Rooms { room_size: 15 }
        .generate(size, size, 1)
        .unwrap()
}

/// `k` free cells spread over the map, the `shift`-th free cell at or
/// after each of `k` evenly spaced cells.
fn spread(grid: &Grid, k: usize, shift: usize) -> Vec<[u32; 2]> {
    let n = grid.len();
    (0..k)
        .map(|i| {
            let i = (0..n)
                .map(|j| (i * n / k + j) % n)
                .filter(|&j| grid.tiles()[j].is_passable())
                .nth(shift)
                .unwrap();
            [i as u32 % grid.width(), i as u32 / grid.width()]
        })
        .collect()
}

/// The side of the map `big`. Its landmark tables are built by code
/// generic over the graph, so compiled in this crate's profile: in a debug
/// build 32 landmarks on 256 x 256 take about as long (a second or two) as
/// on 1024 x 1024 in a release build.
const BIG: u32 = if cfg!(debug_assertions) { 256 } else { 1024 };

/// A server under `limits` with a 64 x 64 map `small` (for the other
/// client) and a [`BIG`] x [`BIG`] map `big` (for the heavy requests).
async fn serve(limits: Limits) -> (Server, Grid, Grid) {
    let (small, big) = (rooms(64), rooms(BIG));
    let state = AppState::with_grid("small", small.clone())
        .unwrap()
        .add_grid("big", big.clone())
        .unwrap()
        .with_limits(limits);
    (Server::start(state).await, small, big)
}

/// A search on `small` with octile, no table: the other client's request.
fn small_search(small: &Grid) -> String {
    let ends = spread(small, 2, 0);
    json!({"map": "small", "from": ends[0], "to": ends[1]}).to_string()
}

/// A `dh` search on `map` with `k` landmarks, picked by `shift`.
fn dh_search(map: &str, grid: &Grid, k: usize, shift: usize) -> String {
    let ends = spread(grid, 2, 0);
    json!({"map": map, "from": ends[0], "to": ends[1], "heuristic": "dh",
        "landmarks": spread(grid, k, shift)})
    .to_string()
}

/// Another client: a keep-alive connection that must keep being answered.
async fn assert_answered(conn: &mut Conn, small: &Grid) {
    let t0 = Instant::now();
    let answer = conn.send("POST", "/api/search", &small_search(small)).await;
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_cap_get_503_and_half_sent_headers_are_cut_off() {
    let header_timeout = Duration::from_millis(800);
    let (server, small, _) = serve(Limits {
        max_connections: 3,
        header_read_timeout: header_timeout,
        ..Limits::default()
    })
    .await;
    let mut other = Conn::open(server.addr).await;
    assert_answered(&mut other, &small).await;

    // Two slow clients take the other two connections.
    let t0 = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..2 {
        let mut conn = Conn::open(server.addr).await;
        conn.write(b"POST /api/search HTTP/1.1\r\nhost: test\r\ncont")
            .await
            .unwrap();
        slow.push(conn);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut past_cap = Conn::open(server.addr).await;
    let answer = past_cap.answer().await.unwrap();
    answer.assert_refused(503, "3 connections");
    assert_answered(&mut other, &small).await;

    // The half-sent requests are closed at the header timeout.
    for conn in &mut slow {
        assert!(conn.closed_within(Duration::from_secs(5)).await);
    }
    let waited = t0.elapsed();
    assert!(
        waited >= header_timeout && waited < header_timeout * 4,
        "{waited:?}"
    );
    // `other`, idle as long, was closed too: keep-alive waits no longer.
    assert!(other.closed_within(Duration::from_secs(2)).await);
    let mut fresh = Conn::open(server.addr).await;
    assert_answered(&mut fresh, &small).await;
    server.assert_alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_and_slow_bodies_get_413_and_408_and_every_route_answers_json() {
    let (server, small, _) = serve(Limits {
        max_body_bytes: 1000,
        request_timeout: Duration::from_millis(500),
        ..Limits::default()
    })
    .await;
    let mut other = Conn::open(server.addr).await;

    // Announced too large: refused before the body is read.
    let mut conn = Conn::open(server.addr).await;
    conn.write(b"POST /api/search HTTP/1.1\r\nhost: test\r\ncontent-length: 5000\r\n\r\n")
        .await
        .unwrap();
    let answer = conn.answer().await.unwrap();
    answer.assert_refused(413, "1000 bytes");
    // Chunked, so found too large while reading.
    let mut conn = Conn::open(server.addr).await;
    let chunk = "x".repeat(1500);
    conn.write(
        format!(
            "POST /api/search HTTP/1.1\r\nhost: test\r\ntransfer-encoding: chunked\r\n\r\n\
             {:x}\r\n{chunk}\r\n0\r\n\r\n",
            chunk.len()
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let answer = conn.answer().await.unwrap();
    assert_eq!(answer.status, 413, "{answer:?}");
    assert_answered(&mut other, &small).await;

    // A body that stops half-way: 408 at the request deadline.
    let t0 = Instant::now();
    let mut conn = Conn::open(server.addr).await;
    conn.write(b"POST /api/search HTTP/1.1\r\nhost: test\r\ncontent-length: 100\r\n\r\n{\"map\":")
        .await
        .unwrap();
    let answer = conn.answer().await.unwrap();
    answer.assert_refused(408, "did not arrive");
    assert!(
        t0.elapsed() >= Duration::from_millis(500),
        "{:?}",
        t0.elapsed()
    );
    assert_answered(&mut other, &small).await;

    // A route with another method, and no route.
    let answer = call(server.addr, "GET", "/api/search", "").await;
    assert_eq!(answer.status, 405);
    assert_eq!(answer.header("allow"), Some("POST"));
    assert!(answer.error().contains("GET"), "{}", answer.error());
    let answer = call(server.addr, "DELETE", "/api/maps", "").await;
    assert_eq!(answer.status, 405);
    assert!(answer.header("allow").is_some_and(|a| a.contains("GET")));
    answer.error();
    let answer = call(server.addr, "GET", "/api/nothing", "").await;
    assert_eq!(answer.status, 404);
    answer.error();
    server.assert_alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_past_the_deadline_gets_503_while_small_requests_are_answered() {
    let (server, small, big) = serve(Limits {
        // Far shorter than the 32 searches of the table's build.
        request_timeout: Duration::from_millis(100),
        ..Limits::default()
    })
    .await;
    let mut other = Conn::open(server.addr).await;
    let answer = search(server.addr, &dh_search("big", &big, 32, 0)).await;
    answer.assert_refused(503, "did not finish");
    // The build goes on, holding one turn of work and one of building;
    // the other client is answered meanwhile.
    assert_answered(&mut other, &small).await;
    server.assert_alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_over_the_request_limit_gets_422_before_it_is_built() {
    let (server, small, big) = serve(Limits {
        max_table_bytes: 256 << 10,
        ..Limits::default()
    })
    .await;
    // 64 x 64 cells x 8 landmarks x 8 bytes = 256 KiB: fits.
    let answer = search(server.addr, &dh_search("small", &small, 8, 0)).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let answer = search(server.addr, &dh_search("small", &small, 9, 0)).await;
    answer.assert_refused(422, "at most 8 landmarks");
    // On a large map it is refused as fast: nothing is built.
    let t0 = Instant::now();
    let answer = search(server.addr, &dh_search("big", &big, 32, 0)).await;
    answer.assert_refused(422, "too large for dh");
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    server.assert_alive().await;
}

/// Starts a heavy request (a `dh` search with 32 landmarks on `big`, a new
/// table), then sends `dh` searches on `small` with new landmarks (so each
/// needs a new table) until one is refused with 503; asserts that its
/// error contains `refusal`, that a search without a table is still
/// answered, and that the heavy request ends with 200. Panics if the heavy
/// request ends before any refusal.
async fn refused_while_a_big_table_builds(
    server: &Server, small: &Grid, big: &Grid, refusal: &str,
) {
    let body = dh_search("big", big, 32, 0);
    let addr = server.addr;
    let heavy: JoinHandle<client::Answer> = tokio::spawn(async move { search(addr, &body).await });
    // Let the heavy request start its build first.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut other = Conn::open(server.addr).await;
    let mut shift = 1;
    loop {
        assert!(
            !heavy.is_finished(),
            "the heavy request ended before any refusal"
        );
        let answer = other
            .send("POST", "/api/search", &dh_search("small", small, 2, shift))
            .await;
        if answer.status == 503 {
            answer.assert_refused(503, refusal);
            assert_answered(&mut other, small).await;
            break;
        }
        assert_eq!(answer.status, 200, "{answer:?}");
        shift += 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let heavy = heavy.await.unwrap();
    assert_eq!(heavy.status, 200, "{heavy:?}");
    eprintln!("table built in {} ms", heavy.json()["table_millis"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_builds_past_the_limit_get_503() {
    let (server, small, big) = serve(Limits {
        max_table_builds: 1,
        ..Limits::default()
    })
    .await;
    refused_while_a_big_table_builds(&server, &small, &big, "already building 1 landmark table")
        .await;
    server.assert_alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_memory_in_use_gets_503_and_idle_tables_make_room() {
    // Room for the big table and less than one small one beside it.
    let big_table = (BIG * BIG) as usize * 32 * 8;
    let (server, small, big) = serve(Limits {
        table_memory: big_table + (16 << 10),
        max_table_bytes: big_table,
        ..Limits::default()
    })
    .await;
    refused_while_a_big_table_builds(&server, &small, &big, "landmark tables in use").await;
    // Now idle in the cache, the big table is dropped for a small one.
    let answer = search(server.addr, &dh_search("small", &small, 2, 0)).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(answer.json()["table_millis"].is_number());
    server.assert_alive().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reads_no_response_is_cut_off() {
    let (server, small, _) = serve(Limits {
        max_connections: 2,
        write_timeout: Duration::from_millis(300),
        ..Limits::default()
    })
    .await;
    let mut other = Conn::open(server.addr).await;
    // Pipelined requests for the big map's rows, 12 MB in all, none read:
    // more than the socket buffers hold.
    let mut greedy = Conn::open_small(server.addr, 4096).await;
    let requests: Vec<u8> = (0..(12 << 20) / (BIG * BIG))
        .flat_map(|_| client::request("GET", "/api/map?name=big", ""))
        .collect();
    greedy.write(&requests).await.unwrap();
    // Both connections are taken while it stalls...
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = Conn::open(server.addr).await.answer().await.unwrap();
    assert_eq!(answer.status, 503);
    assert_answered(&mut other, &small).await;
    // ...until the server gives up on it.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(greedy.closed_within(Duration::from_secs(2)).await);
    let mut fresh = Conn::open(server.addr).await;
    assert_answered(&mut fresh, &small).await;
    assert!(!server.task.is_finished());
}
