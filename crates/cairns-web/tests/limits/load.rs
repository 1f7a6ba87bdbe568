//! The load test: `cairns serve --maps <street>` (a release build) under
//! `ulimit -n 1024`, attacked from 127.0.0.1 in phases while a probe sends
//! one small search on a new connection every 250 ms. Prints, per phase,
//! what the attackers got, the probe's latencies and the server's peak RSS.
//! Ignored: it takes about two minutes and wants a release build.
//!
//! ```text
//! cargo build --release -p cairns-cli
//! cargo test -p cairns-web --test limits -- --ignored --nocapture load
//! ```
//!
//! `CAIRNS_BIN` overrides the binary (default `target/release/cairns`),
//! `CAIRNS_STREET` the maps folder (default `../shared/data/movingai/street`).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::task::JoinSet;

use crate::client::{Conn, call, request};

/// The street map of reproducer 2 (1024 x 1024).
const STREET: &str = "Berlin_0_1024.map";

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `cairns serve` in its own process, killed when dropped.
struct Served {
    child: Child,
    addr: SocketAddr,
    /// Lines the server wrote to stderr after its address.
    log: Arc<Mutex<Vec<String>>>,
}

impl Served {
    fn start(extra: &[&str]) -> Served {
        let bin = std::env::var_os("CAIRNS_BIN")
            .map_or_else(|| workspace().join("target/release/cairns"), PathBuf::from);
        assert!(
            bin.exists(),
            "{} is missing: cargo build --release -p cairns-cli",
            bin.display()
        );
        let maps = std::env::var_os("CAIRNS_STREET").map_or_else(
            || workspace().join("../shared/data/movingai/street"),
            PathBuf::from,
        );
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"ulimit -n 1024 && exec "$@""#)
            .arg("sh")
            .arg(&bin)
            .args(["serve", "--port", "0", "--maps"])
            .arg(&maps)
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting cairns serve");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let first = lines.next().unwrap().unwrap();
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|s| s.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        Served { child, addr, log }
    }

    fn rss_kib(&self) -> u64 {
        status_kib(self.child.id(), "VmRSS:")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn status_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// `rounds` rounds of 12 concurrent `dh` searches with 32 landmarks on the
/// street map, each search with its own landmarks (drawn from `seed`, the
/// round and the client), `pause` after each round: every answer's status
/// and the slowest answer in seconds.
async fn street_tables(
    addr: SocketAddr, street: &[[u32; 2]], rounds: u64, seed: u64, pause: Duration,
) -> (Vec<u16>, f64) {
    let mut statuses = Vec::new();
    let mut slowest = 0f64;
    for round in 0..rounds {
        let mut tasks = JoinSet::new();
        for c in 0..12 {
            let street = street.to_vec();
            tasks.spawn(async move {
                let mut rng = Lcg(seed + round * 12 + c);
                let landmarks: Vec<[u32; 2]> =
                    (0..32).map(|_| street[rng.below(street.len())]).collect();
                let body = json!({"map": STREET, "from": street[0], "to": street[street.len() - 1],
                    "heuristic": "dh", "landmarks": landmarks});
                let t = Instant::now();
                let answer = call(addr, "POST", "/api/search", &body.to_string()).await;
                (answer.status, t.elapsed().as_secs_f64())
            });
        }
        while let Some(r) = tasks.join_next().await {
            let (status, secs) = r.unwrap();
            statuses.push(status);
            slowest = slowest.max(secs);
        }
        tokio::time::sleep(pause).await;
    }
    (statuses, slowest)
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count)
}

/// The largest number of descriptors `pid` holds open, sampled every
/// 200 ms for `samples` samples by the task returned (abort it to stop).
fn watch_fds(pid: u32, samples: u32) -> (Arc<AtomicUsize>, tokio::task::JoinHandle<()>) {
    let fds = Arc::new(AtomicUsize::new(0));
    let watch = tokio::spawn({
        let fds = Arc::clone(&fds);
        async move {
            for _ in 0..samples {
                fds.fetch_max(open_fds(pid), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    });
    (fds, watch)
}

/// Free cells of `map` as the server sends it.
async fn free_cells(addr: SocketAddr, map: &str) -> Vec<[u32; 2]> {
    let answer = call(addr, "GET", &format!("/api/map?name={map}"), "").await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let rows: Vec<String> = serde_json::from_value(answer.json()["rows"].clone()).unwrap();
    let mut cells = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if ch == '.' {
                cells.push([x as u32, y as u32]);
            }
        }
    }
    cells
}

/// A cheap pseudo-random sequence (no dependency for it).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// What the probe saw and the server's peak RSS during one phase.
struct Watch {
    stop: Arc<AtomicBool>,
    peak_rss: Arc<AtomicU64>,
    probe: tokio::task::JoinHandle<Vec<(f64, u16)>>,
    rss: tokio::task::JoinHandle<()>,
}

impl Watch {
    fn start(served: &Served, probe_body: String) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let peak_rss = Arc::new(AtomicU64::new(served.rss_kib()));
        let (addr, pid) = (served.addr, served.child.id());
        let probe = tokio::spawn({
            let stop = Arc::clone(&stop);
            async move {
                let mut seen = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    let t0 = Instant::now();
                    let status = match tokio::time::timeout(Duration::from_secs(30), async {
                        let mut conn = Conn::open(addr).await;
                        conn.write(&request("POST", "/api/search", &probe_body))
                            .await
                            .ok()?;
                        conn.answer().await.ok().map(|a| a.status)
                    })
                    .await
                    {
                        Ok(Some(status)) => status,
                        Ok(None) => 0,
                        Err(_) => 1,
                    };
                    seen.push((t0.elapsed().as_secs_f64() * 1e3, status));
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                seen
            }
        });
        let rss = tokio::spawn({
            let (stop, peak) = (Arc::clone(&stop), Arc::clone(&peak_rss));
            async move {
                while !stop.load(Ordering::Relaxed) {
                    peak.fetch_max(status_kib(pid, "VmRSS:"), Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        });
        Watch {
            stop,
            peak_rss,
            probe,
            rss,
        }
    }

    async fn finish(self, phase: &str) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        let mut seen = self.probe.await.unwrap();
        self.rss.await.unwrap();
        let peak = self.peak_rss.load(Ordering::Relaxed);
        let ok = seen.iter().filter(|s| s.1 == 200).count();
        let mut statuses: Vec<u16> = seen.iter().map(|s| s.1).filter(|&s| s != 200).collect();
        statuses.sort_unstable();
        statuses.dedup();
        seen.sort_by(|a, b| a.0.total_cmp(&b.0));
        let pct = |p: f64| seen[((seen.len() - 1) as f64 * p) as usize].0;
        println!(
            "{phase}: probe {ok}/{} answered 200 (others: {statuses:?} [0 = connection failed, \
             1 = no answer in 30 s]), latency median {:.1} ms, p90 {:.1} ms, max {:.1} ms; \
             server peak RSS {} MiB",
            seen.len(),
            pct(0.5),
            pct(0.9),
            pct(1.0),
            peak / 1024
        );
        peak
    }
}

fn count(statuses: &[u16]) -> String {
    let mut counts: Vec<(u16, usize)> = Vec::new();
    for &s in statuses {
        match counts.iter_mut().find(|(t, _)| *t == s) {
            Some((_, n)) => *n += 1,
            None => counts.push((s, 1)),
        }
    }
    counts.sort_unstable();
    counts
        .iter()
        .map(|(s, n)| {
            format!(
                "{n} x {}",
                if *s == 0 {
                    "failed".into()
                } else {
                    s.to_string()
                }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Opens `n` connections that each send half a request, holds them until
/// the server closes them or `hold` passes; returns (how many the server
/// answered 503 at once, how many it closed within `hold`, how many failed
/// to connect).
async fn half_sent(addr: SocketAddr, n: usize, hold: Duration) -> (usize, usize, usize) {
    let refused = Arc::new(AtomicUsize::new(0));
    let closed = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicUsize::new(0));
    let mut tasks = JoinSet::new();
    for _ in 0..n {
        let (refused, closed, failed) = (
            Arc::clone(&refused),
            Arc::clone(&closed),
            Arc::clone(&failed),
        );
        tasks.spawn(async move {
            let Ok(Ok(stream)) =
                tokio::time::timeout(hold, tokio::net::TcpStream::connect(addr)).await
            else {
                failed.fetch_add(1, Ordering::Relaxed);
                return;
            };
            let mut conn = Conn::from_stream(stream);
            if conn
                .write(b"POST /api/search HTTP/1.1\r\nhost: load\r\ncontent-le")
                .await
                .is_err()
            {
                closed.fetch_add(1, Ordering::Relaxed);
                return;
            }
            if let Ok(Ok(answer)) = tokio::time::timeout(hold, conn.answer()).await {
                if answer.status == 503 {
                    refused.fetch_add(1, Ordering::Relaxed);
                }
                return;
            }
            if conn.closed_within(Duration::ZERO).await {
                closed.fetch_add(1, Ordering::Relaxed);
            }
        });
        // A steady ramp rather than a burst past the listen backlog.
        tokio::time::sleep(Duration::from_micros(500)).await;
    }
    while tasks.join_next().await.is_some() {}
    (
        refused.load(Ordering::Relaxed),
        closed.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a few minutes' load test of a release build: see docs/server.md"]
#[expect(
    clippy::too_many_lines,
    reason = "the phases in order, each printing what it measured as it ends"
)]
async fn load() {
    let served = Served::start(&[]);
    let addr = served.addr;
    let pid = served.child.id();
    println!(
        "cairns serve (pid {pid}) on {addr} under ulimit -n 1024, default limits; RSS at start {} MiB",
        served.rss_kib() / 1024
    );
    let small = free_cells(addr, "default").await;
    let probe_body =
        json!({"map": "default", "from": small[0], "to": small[small.len() - 1]}).to_string();
    let street = free_cells(addr, STREET).await;
    println!(
        "after loading {STREET}: RSS {} MiB",
        served.rss_kib() / 1024
    );
    let mut peaks = Vec::new();

    // 1. Concurrent searches: 32 clients, 25 octile searches each on the
    // street map, each on its own keep-alive connection.
    let watch = Watch::start(&served, probe_body.clone());
    let t0 = Instant::now();
    let mut tasks = JoinSet::new();
    for c in 0..32 {
        let street = street.clone();
        tasks.spawn(async move {
            let mut rng = Lcg(c);
            let mut conn = Conn::open(addr).await;
            let mut seen = Vec::new();
            for _ in 0..25 {
                let body = json!({"map": STREET, "from": street[rng.below(street.len())],
                    "to": street[rng.below(street.len())]});
                let t = Instant::now();
                let status = conn
                    .send("POST", "/api/search", &body.to_string())
                    .await
                    .status;
                seen.push((t.elapsed().as_secs_f64() * 1e3, status));
            }
            seen
        });
    }
    let mut seen: Vec<(f64, u16)> = Vec::new();
    while let Some(r) = tasks.join_next().await {
        seen.extend(r.unwrap());
    }
    let secs = t0.elapsed().as_secs_f64();
    seen.sort_by(|a, b| a.0.total_cmp(&b.0));
    println!(
        "1. concurrent searches: 800 octile searches on {STREET} from 32 clients in {secs:.1} s \
         ({:.0}/s): {}; latency median {:.0} ms, max {:.0} ms",
        800.0 / secs,
        count(&seen.iter().map(|s| s.1).collect::<Vec<_>>()),
        seen[seen.len() / 2].0,
        seen[seen.len() - 1].0
    );
    peaks.push(watch.finish("   during it").await);

    // 2. Slow clients, as in reproducer 1: 1015 connections that send half
    // a request and hold it, past the 10 s header timeout.
    let watch = Watch::start(&served, probe_body.clone());
    let (fds, fd_watch) = watch_fds(pid, 60);
    let (refused, closed, failed) = half_sent(addr, 1015, Duration::from_secs(14)).await;
    fd_watch.abort();
    println!(
        "2. slow clients: 1015 half-sent requests: {refused} answered 503 at once, \
         {closed} held then closed by the server within 14 s, {failed} failed to connect; \
         server descriptors peaked at {}",
        fds.load(Ordering::Relaxed)
    );
    peaks.push(watch.finish("   during it").await);

    // 3. Oversized bodies: 200 requests announcing 2 MiB, and 20 sending
    // 2 MiB chunked.
    let watch = Watch::start(&served, probe_body.clone());
    let mut tasks = JoinSet::new();
    for i in 0..220 {
        tasks.spawn(async move {
            let mut conn = Conn::open(addr).await;
            let big = 2 << 20;
            let head = if i < 200 {
                format!("POST /api/search HTTP/1.1\r\nhost: load\r\ncontent-length: {big}\r\n\r\n")
            } else {
                format!(
                    "POST /api/search HTTP/1.1\r\nhost: load\r\ntransfer-encoding: chunked\r\n\r\n{big:x}\r\n"
                )
            };
            if conn.write(head.as_bytes()).await.is_err() {
                return 0;
            }
            if i >= 200 {
                // The server may answer and close before it is all sent.
                let _ = conn.write(&vec![b'x'; big]).await;
            }
            conn.answer().await.map_or(0, |a| a.status)
        });
    }
    let mut statuses = Vec::new();
    while let Some(s) = tasks.join_next().await {
        statuses.push(s.unwrap());
    }
    println!(
        "3. oversized bodies: 220 requests of 2 MiB: {}",
        count(&statuses)
    );
    peaks.push(watch.finish("   during it").await);

    // 4. Reproducer 2: 24 requests for dh with 32 landmarks on the street
    // map, 12 at a time, each with other landmarks.
    let watch = Watch::start(&served, probe_body.clone());
    let t0 = Instant::now();
    let (statuses, slowest) = street_tables(addr, &street, 2, 100, Duration::ZERO).await;
    println!(
        "4. reproducer 2: 24 dh:32 searches on {STREET}, 12 at a time: {} in {:.1} s \
         (slowest answer {slowest:.1} s)",
        count(&statuses),
        t0.elapsed().as_secs_f64()
    );
    peaks.push(watch.finish("   during it").await);
    // And the same asked again and again: 4 rounds of 12, a second apart.
    let watch = Watch::start(&served, probe_body.clone());
    let (statuses, _) = street_tables(addr, &street, 4, 1000, Duration::from_secs(1)).await;
    println!(
        "   48 more, 12 at a time a second apart: {}",
        count(&statuses)
    );
    peaks.push(watch.finish("   during it").await);

    let hwm = status_kib(pid, "VmHWM:");
    println!(
        "server peak RSS (VmHWM) over phases 1-4: {} MiB",
        hwm / 1024
    );
    assert!(
        hwm < 1 << 20,
        "the server's RSS peaked at {} MiB",
        hwm / 1024
    );
    let maps = call(addr, "GET", "/api/maps", "").await;
    assert_eq!(maps.status, 200, "the server must still answer");
    drop(served);

    // 5. Descriptor exhaustion: a cap above the descriptor limit, so that
    // accept fails with EMFILE; the server must log, retry and recover.
    let served = Served::start(&["--max-connections", "5000"]);
    let (addr, pid) = (served.addr, served.child.id());
    let watch = Watch::start(&served, probe_body.clone());
    let (fds, fd_watch) = watch_fds(pid, 80);
    let (refused, closed, failed) = half_sent(addr, 1200, Duration::from_secs(14)).await;
    fd_watch.abort();
    println!(
        "5. descriptor exhaustion (--max-connections 5000, ulimit -n 1024): 1200 half-sent \
         requests: {refused} answered 503, {closed} closed by the server within 14 s, \
         {failed} failed to connect; server descriptors peaked at {}",
        fds.load(Ordering::Relaxed)
    );
    watch.finish("   during it").await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let t0 = Instant::now();
    let after: Value = call(addr, "POST", "/api/search", &probe_body).await.json();
    println!(
        "   afterwards a search is answered in {:.1} ms (cost {}); the server logged: {:?}",
        t0.elapsed().as_secs_f64() * 1e3,
        after["a"]["cost"],
        served.log.lock().unwrap()
    );
    assert!(after["a"]["cost"].is_number());
}
