//! The page in headless Chromium: URL parameters set the start and the goal,
//! the page runs its search through the same code a drag triggers, and the
//! counts it writes into the DOM must equal the library's answer. Needs
//! `/usr/bin/chromium` (CI installs it); fails with a clear message without.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::mpsc;

use cairns::grid::{GenerateOptions, GridGraph, MapKind, Neighborhood, generate};
use cairns::heuristic::{Octile, Zero};
use cairns::search::{AStar, SearchCache};
use cairns_web::AppState;

const CHROMIUM: &str = "/usr/bin/chromium";

fn start_server(state: AppState) -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let bind: SocketAddr = "127.0.0.1:0".parse().unwrap();
        cairns_web::serve_blocking(bind, Arc::new(state), |addr| tx.send(addr).unwrap()).unwrap();
    });
    rx.recv().unwrap()
}

fn chromium(url: &str, extra: &[&str], profile: &Path) -> std::process::Output {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: install it (apt-get install -y chromium chromium-driver) to run the browser test"
    );
    Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
            "--window-size=1200,900",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("running chromium")
}

/// The text of the element with `id` in a dumped DOM.
fn text_of<'a>(dom: &'a str, id: &str) -> &'a str {
    let open = format!("id=\"{id}\">");
    let start = dom
        .find(&open)
        .unwrap_or_else(|| panic!("no element #{id} in the DOM"))
        + open.len();
    let end = dom[start..].find('<').unwrap() + start;
    &dom[start..end]
}

fn temp_profile(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cairns-chromium-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn page_counts_equal_the_library() {
    let grid = generate(&GenerateOptions {
        kind: MapKind::Rooms { room_size: 15 },
        width: 256,
        height: 256,
        seed: 1,
    })
    .unwrap();
    let (from, to) = ((10, 10), (200, 180));
    assert!(grid.is_passable(from.0, from.1) && grid.is_passable(to.0, to.1));
    let addr = start_server(AppState::with_default_map());
    let url = format!(
        "http://{addr}/?from={},{}&to={},{}&heuristic=octile&compare=zero",
        from.0, from.1, to.0, to.1
    );

    let profile = temp_profile("dom");
    let out = chromium(&url, &["--dump-dom"], &profile);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text_of(&dom, "error"), "", "the page reported an error");

    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let (s, t) = (
        graph.node(from.0, from.1).unwrap(),
        graph.node(to.0, to.1).unwrap(),
    );
    let mut cache = SearchCache::new();
    let cost = AStar::new(&graph, Octile::new(&graph))
        .search_cost(s, t, &mut cache)
        .unwrap();
    let expanded_a = cache.stats().expanded;
    AStar::new(&graph, Zero)
        .search_cost(s, t, &mut cache)
        .unwrap();
    let expanded_b = cache.stats().expanded;

    let count = |id| text_of(&dom, id).replace(',', "").parse::<u64>().unwrap();
    assert_eq!(count("count-a"), expanded_a);
    assert_eq!(count("count-b"), expanded_b);
    assert_eq!(text_of(&dom, "path-length"), format!("{cost:.4}"));

    let shot = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/browser-test.png");
    let profile2 = temp_profile("shot");
    let out = chromium(
        &url,
        &[&format!("--screenshot={}", shot.display())],
        &profile2,
    );
    assert!(
        out.status.success() && shot.exists(),
        "no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&profile);
    let _ = std::fs::remove_dir_all(&profile2);
}
