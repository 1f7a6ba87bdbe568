//! The page in headless Chromium. URL parameters set the start and the goal,
//! or the page's self-test mode drives it through pointer events on the
//! canvas (a drag of the start, then a wall stroke) handled by the same
//! listeners a user's pointer reaches; either way the counts and the path
//! length the page writes into the DOM must equal the library's answer.
//! Needs `/usr/bin/chromium` (CI installs it); fails with a clear message
//! without.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::mpsc;

use cairns::grid::{Grid, GridGraph, MapKind, Neighborhood, Tile};
use cairns::heuristic::{Octile, Zero};
use cairns::search::{AStar, JumpPointSearch, Search, SearchCache};
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
    chromium_for(url, 5000, extra, profile, DEFAULT_WINDOW)
}

/// The window of the tests that do not ask for another.
const DEFAULT_WINDOW: (u32, u32) = (1200, 900);

fn chromium_for(
    url: &str, virtual_millis: u32, extra: &[&str], profile: &Path, (width, height): (u32, u32),
) -> std::process::Output {
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
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--virtual-time-budget={virtual_millis}"))
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
    let grid = MapKind::Rooms { room_size: 15 }
        .generate(256, 256, 1)
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

    let _ = std::fs::remove_dir_all(&profile);
}

fn demo_grid() -> Grid {
    MapKind::Rooms { room_size: 15 }
        .generate(256, 256, 1)
        .unwrap()
}

/// The library's answer on `grid`: (cost, expanded with octile, expanded
/// with zero), as the page shows them.
fn library(grid: &Grid, from: (u32, u32), to: (u32, u32)) -> (Option<f64>, u64, u64) {
    let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
    let (s, t) = (
        graph.node(from.0, from.1).unwrap(),
        graph.node(to.0, to.1).unwrap(),
    );
    let mut cache = SearchCache::new();
    let cost = AStar::new(&graph, Octile::new(&graph)).search_cost(s, t, &mut cache);
    let a = cache.stats().expanded;
    AStar::new(&graph, Zero).search_cost(s, t, &mut cache);
    (cost, a, cache.stats().expanded)
}

fn shown_length(cost: Option<f64>) -> String {
    cost.map_or_else(|| "none".to_string(), |c| format!("{c:.4}"))
}

fn shown_count(n: u64) -> String {
    // The page writes counts with en-US digit grouping.
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[test]
fn pointer_drag_and_wall_stroke_equal_the_library() {
    let grid = demo_grid();
    let (from, to) = ((10, 10), (200, 180));
    // The start is dragged to the first free cell at or after (60, 100).
    let drag_to = (60..256)
        .map(|x| (x, 100))
        .find(|&(x, y)| grid.is_passable(x, y))
        .unwrap();
    let (dragged_cost, dragged_a, dragged_b) = library(&grid, drag_to, to);

    // A stroke of nine cells across the dragged path, at the first of its
    // cells (from the middle on) where such a stroke changes the length.
    let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
    let mut cache = SearchCache::new();
    let path = AStar::new(&graph, Octile::new(&graph))
        .search(
            graph.node(drag_to.0, drag_to.1).unwrap(),
            graph.node(to.0, to.1).unwrap(),
            &mut cache,
        )
        .unwrap();
    let stroke = path.nodes[path.nodes.len() / 2..]
        .iter()
        .flat_map(|&n| {
            let (x, y) = graph.coords(n);
            [
                (x, y.saturating_sub(4), x, y + 4),
                (x.saturating_sub(4), y, x + 4, y),
            ]
        })
        .find(|&(x0, y0, x1, y1)| {
            let mut edited = grid.clone();
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if (x, y) != drag_to && (x, y) != to {
                        edited.set(x, y, Tile::OutOfBounds);
                    }
                }
            }
            library(&edited, drag_to, to).0 != dragged_cost
        })
        .expect("some stroke across the path changes its length");

    let query = format!(
        "from={},{}&to={},{}&heuristic=octile&compare=zero\
         &selftest=drag&drag_to={},{}&paint={},{},{},{}",
        from.0, from.1, to.0, to.1, drag_to.0, drag_to.1, stroke.0, stroke.1, stroke.2, stroke.3
    );
    // The run is photographed at its end: the dragged start and the
    // painted stroke.
    let report = selftest(AppState::with_default_map(), &query, "drag");

    let drag = &report["drag"];
    assert_eq!(drag["error"], "", "{report}");
    assert_eq!(drag["from"], serde_json::json!([drag_to.0, drag_to.1]));
    assert_eq!(drag["a"], shown_count(dragged_a));
    assert_eq!(drag["b"], shown_count(dragged_b));
    assert_eq!(drag["length"], shown_length(dragged_cost));

    // The page reports the edits its stroke made; they are the stroke's
    // cells that were free, and the map with them gives the library's answer.
    let paint = &report["paint"];
    assert_eq!(paint["error"], "", "{report}");
    let edits: Vec<[u32; 3]> = serde_json::from_value(paint["edits"].clone()).unwrap();
    let mut expected = Vec::new();
    for y in stroke.1..=stroke.3 {
        for x in stroke.0..=stroke.2 {
            if grid.is_passable(x, y) && (x, y) != drag_to && (x, y) != to {
                expected.push([x, y, 1]);
            }
        }
    }
    let mut sorted = edits.clone();
    sorted.sort_by_key(|&[x, y, _]| (y, x));
    assert_eq!(sorted, expected, "the stroke's edits");
    let mut edited = grid.clone();
    for &[x, y, _] in &edits {
        edited.set(x, y, Tile::OutOfBounds);
    }
    let (painted_cost, painted_a, painted_b) = library(&edited, drag_to, to);
    assert_ne!(painted_cost, dragged_cost);
    assert_eq!(paint["length"], shown_length(painted_cost));
    assert_eq!(paint["a"], shown_count(painted_a));
    assert_eq!(paint["b"], shown_count(painted_b));
}

/// Where the tests save their screenshots.
fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/browser-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Where [`selftest_in`] saves the screenshot of test `name`, any
/// earlier one removed.
fn screenshot_path(name: &str) -> PathBuf {
    let shot = screenshot_dir().join(format!("{name}.png"));
    let _ = std::fs::remove_file(&shot);
    shot
}

/// [`selftest`]'s report `part`, asserting that it holds no error.
fn selftest_part(state: AppState, query: &str, name: &str, part: &str) -> serde_json::Value {
    let report = selftest(state, query, name);
    assert_eq!(report[part]["error"], "", "{report}");
    report[part].clone()
}

/// Runs the page's self-test `query` (after `?`) on `state`, returns its
/// report and saves a screenshot of its end as `NAME.png`.
fn selftest(state: AppState, query: &str, name: &str) -> serde_json::Value {
    selftest_in(state, query, name, DEFAULT_WINDOW)
}

/// [`selftest`] in a window of `width` x `height`.
fn selftest_in(state: AppState, query: &str, name: &str, window: (u32, u32)) -> serde_json::Value {
    let addr = start_server(state);
    let url = format!("http://{addr}/?{query}");
    let profile = temp_profile(&format!("self-{name}"));
    // One run of the browser dumps the page and saves what it shows, both
    // at the end of the same virtual time.
    let shot = screenshot_path(name);
    let shot_arg = format!("--screenshot={}", shot.display());
    let out = chromium_for(&url, 30_000, &["--dump-dom", &shot_arg], &profile, window);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && shot.exists(),
        "chromium failed or saved no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(text_of(&dom, "selftest"))
        .unwrap_or_else(|e| panic!("no self-test report ({e}) in {dom}"));
    eprintln!("{name}: {report}");
    let _ = std::fs::remove_dir_all(&profile);
    report
}

#[test]
fn wheel_and_keys_zoom_about_the_pointer() {
    let r = selftest(
        AppState::with_default_map(),
        "from=10,10&to=200,180&heuristic=octile&compare=dh&selftest=zoom",
        "zoom",
    );
    let z = |k: &str| r[k]["zoom"].as_f64().unwrap();
    assert!(z("wheel") > z("before") * 1.5, "{r}");
    assert!(z("after") > z("wheel") * 1.2, "{r}");
    // The cell under the pointer (the goal) stays under it.
    assert_eq!(r["under"], serde_json::json!([200, 180]), "{r}");
}

#[test]
fn shift_drag_and_shift_arrows_pan() {
    let r = selftest(
        AppState::with_default_map(),
        "from=10,10&to=200,180&heuristic=octile&compare=dh&selftest=pan",
        "pan",
    );
    let f = |k: &str, c: &str| r[k][c].as_f64().unwrap();
    assert!(
        (f("dragged", "ox") - f("before", "ox") - 100.0).abs() < 1e-6,
        "{r}"
    );
    assert!(
        (f("dragged", "oy") - f("before", "oy") - 50.0).abs() < 1e-6,
        "{r}"
    );
    assert!(
        (f("after", "ox") - f("dragged", "ox") - 40.0).abs() < 1e-6,
        "{r}"
    );
    assert_eq!(
        r["from"],
        serde_json::json!([10, 10]),
        "panning moved no marker"
    );
}

#[test]
fn playback_replays_every_expansion() {
    let grid = demo_grid();
    let (from, to) = ((10, 10), (200, 180));
    let (_, a, b) = library(&grid, from, to);
    let r = selftest(
        AppState::with_default_map(),
        "from=10,10&to=200,180&heuristic=octile&compare=zero&selftest=play",
        "play",
    );
    let play = &r["play"];
    assert_eq!(play["done"], true, "{r}");
    assert_eq!(play["expanded"], serde_json::json!([a, b]), "{r}");
    assert_eq!(play["total"], serde_json::json!(a.max(b)), "{r}");
    // Progress per search, each against its own total.
    let info = play["info"].as_str().unwrap();
    let (sa, sb) = (shown_count(a), shown_count(b));
    assert!(
        info.contains(&format!("A: {sa} of {sa} expanded")),
        "{info}"
    );
    assert!(
        info.contains(&format!("B: {sb} of {sb} expanded")),
        "{info}"
    );
    // One step back: the search with the most expansions loses its last
    // one; the scrub slider to 0 replays nothing.
    let back = a.max(b) - 1;
    assert_eq!(
        r["back"]["expanded"],
        serde_json::json!([a.min(back), b.min(back)]),
        "{r}"
    );
    assert_eq!(r["scrubbed"]["expanded"], serde_json::json!([0, 0]), "{r}");
}

#[test]
fn choosing_jps_in_the_menu_searches_with_jump_points() {
    let grid = demo_grid();
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let (s, t) = (graph.node(10, 10).unwrap(), graph.node(200, 180).unwrap());
    let mut cache = SearchCache::new();
    let cost = JumpPointSearch::new(&graph)
        .unwrap()
        .search_cost(s, t, &mut cache)
        .unwrap();
    let expanded = cache.stats().expanded;
    let search = &selftest_part(
        AppState::with_default_map(),
        "from=10,10&to=200,180&heuristic=octile&compare=dh&selftest=search&to_search=jps",
        "search-jps",
        "search",
    );
    assert_eq!(search["a"], shown_count(expanded), "{search}");
    assert_eq!(search["length"], format!("{cost:.4}"), "{search}");
    // The choice is written back into the address.
    assert!(
        search["url"].as_str().unwrap().contains("search=jps"),
        "{search}"
    );
}

/// The agent size menu: a 2x2 agent between cells its block fits
/// searches the graph for that size (the length the library gives it), and
/// the size goes into the address.
#[test]
fn choosing_a_larger_agent_in_the_menu_searches_its_blocks() {
    let graph = GridGraph::new(demo_grid(), Neighborhood::Octile)
        .with_size(2)
        .unwrap();
    // The first and last cells of the largest region the block moves in.
    let parts = graph.components();
    let largest = (0..parts.label_bound() as u32)
        .max_by_key(|&l| parts.size(l))
        .unwrap();
    let mut region = (0..graph.grid().len() as u32)
        .map(cairns::graph::NodeId)
        .filter(|&v| parts.label(v) == Some(largest));
    let s = region.next().unwrap();
    let t = region.next_back().unwrap();
    let cost = AStar::new(&graph, Octile::new(&graph))
        .search_cost(s, t, &mut SearchCache::new())
        .unwrap();
    let ((sx, sy), (tx, ty)) = (graph.coords(s), graph.coords(t));
    let size = &selftest_part(
        AppState::with_default_map(),
        &format!("from={sx},{sy}&to={tx},{ty}&heuristic=octile&selftest=size&to_size=2"),
        "size-2",
        "size",
    );
    assert_eq!(size["length"], format!("{cost:.4}"), "{size}");
    assert_eq!(size["fits"], serde_json::json!([true, true]), "{size}");
    // The default landmarks, placed again where the agent fits.
    assert_eq!(size["landmarks_fit"], true, "{size}");
    assert!(size["url"].as_str().unwrap().contains("size=2"), "{size}");
}

#[test]
fn arrow_keys_move_the_selected_marker_and_the_url_follows() {
    let grid = demo_grid();
    let r = selftest(
        AppState::with_default_map(),
        "from=10,10&to=200,180&heuristic=octile&compare=dh&selftest=keys",
        "keys",
    );
    let keys = &r["keys"];
    assert_eq!(keys["before"], serde_json::json!([10, 10]), "{r}");
    // Two steps right, unless a wall stops the marker.
    let expected = (11..=12)
        .take_while(|&x| grid.is_passable(x, 10))
        .last()
        .unwrap_or(10);
    assert_eq!(keys["after"], serde_json::json!([expected, 10]), "{r}");
    let url = keys["url"].as_str().unwrap();
    assert!(url.contains(&format!("from={expected},10")), "{url}");
    assert!(url.contains("landmarks="), "{url}");
}

/// A `WebDriver` session on a `chromedriver` this test started: the page
/// runs in real time (no virtual time budget), so `performance.now()` in
/// the page measures what a user waits.
struct Driver {
    child: std::process::Child,
    port: u16,
    session: String,
}

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

impl Driver {
    fn start(profile: &Path) -> Driver {
        assert!(
            Path::new(CHROMEDRIVER).exists(),
            "{CHROMEDRIVER} is missing: install it (apt-get install -y chromium-driver) to run the real-time drag test"
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("running chromedriver");
        let mut driver = Driver {
            child,
            port,
            session: String::new(),
        };
        let t0 = std::time::Instant::now();
        while driver.http("GET", "/status", None).is_none() {
            assert!(t0.elapsed().as_secs() < 20, "chromedriver did not start");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let caps = serde_json::json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,900",
                format!("--user-data-dir={}", profile.display())],
        }}}});
        let session = driver.call("POST", "/session", Some(&caps));
        driver.session = session["sessionId"].as_str().unwrap().to_string();
        driver
    }

    /// One HTTP/1.1 exchange, its body read by its `Content-Length`
    /// (chromedriver keeps the connection open): the JSON answer, or `None`
    /// when nothing listens yet.
    fn http(
        &self, method: &str, path: &str, body: Option<&serde_json::Value>,
    ) -> Option<serde_json::Value> {
        use std::io::{BufRead, BufReader, Read, Write};
        let mut conn = std::net::TcpStream::connect(("127.0.0.1", self.port)).ok()?;
        let body = body.map(ToString::to_string).unwrap_or_default();
        write!(
            conn,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .ok()?;
        let mut reader = BufReader::new(conn);
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).ok()?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().ok()?;
            }
        }
        let mut json = vec![0; length];
        reader.read_exact(&mut json).ok()?;
        serde_json::from_slice(&json).ok()
    }

    /// The `value` of a `WebDriver` command; panics on an error.
    fn call(
        &self, method: &str, path: &str, body: Option<&serde_json::Value>,
    ) -> serde_json::Value {
        let answer = self
            .http(method, path, body)
            .unwrap_or_else(|| panic!("no answer from chromedriver to {method} {path}"));
        let value = answer["value"].clone();
        assert!(value.get("error").is_none(), "{method} {path}: {value}");
        value
    }

    /// [`call`](Self::call) of `POST` (with `body`) or `GET` (without) on
    /// `path` of this session.
    fn in_session(&self, path: &str, body: Option<&serde_json::Value>) -> serde_json::Value {
        let method = if body.is_some() { "POST" } else { "GET" };
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    /// Opens `url`, waits (up to 5 minutes) for the self-test's report
    /// and saves a screenshot as `NAME.png`.
    fn selftest(&self, url: &str, name: &str) -> serde_json::Value {
        self.in_session("/url", Some(&serde_json::json!({"url": url})));
        let script = serde_json::json!({
            "script": "return document.getElementById('selftest').textContent", "args": []});
        let t0 = std::time::Instant::now();
        let report = loop {
            let text = self.in_session("/execute/sync", Some(&script));
            if let Some(t) = text.as_str().filter(|t| !t.is_empty()) {
                break t.to_string();
            }
            assert!(
                t0.elapsed().as_secs() < 300,
                "no self-test report from {url}"
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        let png = self.in_session("/screenshot", None);
        let shot = screenshot_dir().join(format!("{name}.png"));
        std::fs::write(&shot, STANDARD.decode(png.as_str().unwrap()).unwrap()).unwrap();
        serde_json::from_str(&report).unwrap()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.http("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The time from a pointer move to the page showing its answer, in real
/// time through chromedriver, on generated rooms maps of 512 x 512 and
/// 1024 x 1024 (A octile, B `dh` over the map's 8 suggested landmarks):
/// a drag of the start and a drag of a landmark, about twelve moves each,
/// and on 512 x 512 the same with a landmark shading on. The medians are
/// printed for docs/page.md; only the shaded drags' are asserted (under
/// issue 34's 60 ms, in a release build), with one request a move in any
/// build; every move must be answered without an error.
#[test]
fn drag_answer_times_in_real_time() {
    use cairns::landmarks::place;
    use cairns::spec::{PLACEMENT_SEED, PlacementKind};
    let profile = temp_profile("webdriver");
    let driver = Driver::start(&profile);
    let mut slow = Vec::new();
    for size in [512u32, 1024] {
        let grid = MapKind::Rooms { room_size: 15 }
            .generate(size, size, 1)
            .unwrap();
        let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
        // The page's suggested landmarks (GET /api/map places them so,
        // with the spec's default placement).
        let suggested = place(
            &graph,
            8,
            PlacementKind::default().with_seed(PLACEMENT_SEED),
        );
        let from = free_at(&grid, 10, 10);
        let to = free_at(&grid, size - 40, size - 30);
        // The landmark farthest from the start and the goal, so that the
        // pointer takes it and not them at a zoom below one pixel a cell.
        let apart = |(x, y): (u32, u32), p: [u32; 2]| x.abs_diff(p[0]).max(y.abs_diff(p[1]));
        let dragged = (0..suggested.len())
            .max_by_key(|&l| {
                let c = graph.coords(suggested[l]);
                apart(c, from).min(apart(c, to))
            })
            .unwrap();
        let (lx, ly) = graph.coords(suggested[dragged]);
        let start_to = free_at(&grid, size / 2, size / 2);
        let landmark_to = free_at(&grid, size / 3, size / 2 + 7);
        let addr = start_server(AppState::with_grid("rooms", grid).unwrap());
        let base = format!(
            "http://{addr}/?from={},{}&to={},{}&heuristic=octile&compare=dh&selftest=drag",
            from[0], from[1], to[0], to[1]
        );
        let start_drag = format!("&drag_to={},{}", start_to[0], start_to[1]);
        let landmark_drag = format!(
            "&drag_from={lx},{ly}&drag_to={},{}",
            landmark_to[0], landmark_to[1]
        );
        // With a shading on (512 x 512 only): the shading comes with the
        // searches, one request per move.
        let shaded = [
            ("start-help", format!("{start_drag}&shade=help")),
            ("landmark-help", format!("{landmark_drag}&shade=help")),
            ("landmark-goals", format!("{landmark_drag}&shade=goals")),
        ];
        let plain = [("start", start_drag), ("landmark", landmark_drag)];
        let runs = plain
            .iter()
            .chain(if size == 512 { &shaded[..] } else { &[] });
        for (kind, drag) in runs {
            let kind = *kind;
            let r = driver.selftest(&format!("{base}{drag}"), &format!("drag-{kind}-{size}"));
            assert_eq!(r["drag"]["error"], "", "{r}");
            // The marker dragged is where the drag ended.
            let (moved, want) = if kind.starts_with("start") {
                (r["drag"]["from"].clone(), start_to)
            } else {
                (r["drag"]["landmarks"][dragged].clone(), landmark_to)
            };
            assert_eq!(moved, serde_json::json!(want), "{r}");
            let latency = &r["latency"];
            assert!(latency["n"].as_u64().unwrap() >= 5, "{r}");
            let median = latency["median"].as_f64().unwrap();
            eprintln!("LAT {kind} {size} {}", latency["prof"]);
            eprintln!(
                "{size}x{size} {kind} drag: median {median:.1} ms, max {:.1} ms over {} moves, {} requests a move; medians of the server's time {:.1} ms, the request to its parsed answer {:.1} ms, the page's drawing {:.1} ms (real time)",
                latency["max"].as_f64().unwrap(),
                latency["n"],
                r["requests"],
                latency["server"].as_f64().unwrap(),
                latency["fetch"].as_f64().unwrap(),
                latency["drawing"].as_f64().unwrap()
            );
            assert!(r["requests"].as_f64().unwrap() <= 1.0, "{r}");
            // Issue 34's bound for a drag with a shading on, asserted in an
            // optimised build (`cargo test --release`, as docs/page.md runs
            // it): the debug build's server and JSON are several times slower.
            if !cfg!(debug_assertions) && (kind.ends_with("help") || kind.ends_with("goals")) {
                slow.extend((median >= 60.0).then(|| format!("{kind}: median {median:.1} ms")));
            }
        }
    }
    drop(driver);
    let _ = std::fs::remove_dir_all(&profile);
    assert!(slow.is_empty(), "shaded drags over 60 ms: {slow:?}");
}

/// The landmark cells of `grid` as `[x, y]`, in the URL's `x,y;x,y` form.
fn landmark_param(points: &[[u32; 2]]) -> String {
    points
        .iter()
        .map(|[x, y]| format!("{x},{y}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// The first free cell at or right of `(x, y)` in the demo grid.
fn free_at(grid: &Grid, x: u32, y: u32) -> [u32; 2] {
    (x..grid.width())
        .find(|&x| grid.is_passable(x, y))
        .map(|x| [x, y])
        .unwrap()
}

/// What the page shows for B = `dh` over `landmarks` (a table of
/// `directedness`), as the library's spec computes it: the count of
/// expanded cells in the page's digit grouping.
fn dh_expanded(
    grid: &Grid, from: [u32; 2], to: [u32; 2], landmarks: &[[u32; 2]],
    directedness: cairns::landmarks::Directedness,
) -> String {
    use cairns::landmarks::LandmarkTable;
    use cairns::spec::SearchSpec;
    let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
    let nodes: Vec<_> = landmarks
        .iter()
        .map(|&[x, y]| graph.node(x, y).unwrap())
        .collect();
    let table = LandmarkTable::build(&graph, &nodes, directedness);
    let spec: SearchSpec = "astar/dh".parse().unwrap();
    let tables = [cairns::spec::Table::from(table.clone())];
    let mut searcher = spec.searcher(&graph, &tables).unwrap();
    let (s, t) = (
        graph.node(from[0], from[1]).unwrap(),
        graph.node(to[0], to[1]).unwrap(),
    );
    searcher.search_cost(s, t).unwrap();
    shown_count(searcher.stats().expanded)
}

fn points(v: &serde_json::Value) -> Vec<[u32; 2]> {
    serde_json::from_value(v.clone()).unwrap()
}

#[test]
fn adding_a_landmark_with_the_tool_searches_with_it() {
    use cairns::landmarks::Directedness;
    let grid = demo_grid();
    let before = [free_at(&grid, 30, 30), free_at(&grid, 220, 40)];
    let at = free_at(&grid, 120, 200);
    let l = &selftest_part(
        AppState::with_default_map(),
        &format!(
            "from=10,10&to=200,180&heuristic=octile&compare=dh&landmarks={}\
             &selftest=landmark-add&at={},{}",
            landmark_param(&before),
            at[0],
            at[1]
        ),
        "landmark-add",
        "landmarks",
    );
    assert_eq!(points(&l["before"]), before, "{l}");
    let after = [before[0], before[1], at];
    assert_eq!(points(&l["after"]), after, "{l}");
    assert_eq!(l["count"], "3", "the count box follows: {l}");
    let want = dh_expanded(&grid, [10, 10], [200, 180], &after, Directedness::Symmetric);
    assert_eq!(l["b"], want, "{l}");
    assert!(
        l["url"]
            .as_str()
            .unwrap()
            .contains(&format!("{},{}", at[0], at[1]))
    );
}

#[test]
fn removing_a_landmark_with_the_tool_searches_without_it() {
    use cairns::landmarks::Directedness;
    let grid = demo_grid();
    let before = [
        free_at(&grid, 30, 30),
        free_at(&grid, 120, 120),
        free_at(&grid, 220, 40),
    ];
    let l = &selftest_part(
        AppState::with_default_map(),
        &format!(
            "from=10,10&to=200,180&heuristic=octile&compare=dh&landmarks={}\
             &selftest=landmark-remove&index=1",
            landmark_param(&before)
        ),
        "landmark-remove",
        "landmarks",
    );
    let after = [before[0], before[2]];
    assert_eq!(points(&l["after"]), after, "{l}");
    assert_eq!(l["count"], "2", "{l}");
    let want = dh_expanded(&grid, [10, 10], [200, 180], &after, Directedness::Symmetric);
    assert_eq!(l["b"], want, "{l}");
}

#[test]
fn placing_landmarks_by_count_and_strategy_equals_the_library() {
    use cairns::landmarks::{Directedness, Placement, place};
    let grid = demo_grid();
    let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
    let want: Vec<[u32; 2]> = place(&graph, 5, Placement::Sampled { seed: 1 })
        .iter()
        .map(|&n| {
            let (x, y) = graph.coords(n);
            [x, y]
        })
        .collect();
    let p = &selftest_part(
        AppState::with_default_map(),
        "from=10,10&to=200,180&heuristic=octile&compare=dh&selftest=place&count=5&placement=sampled",
        "landmark-place",
        "place",
    );
    assert_eq!(points(&p["landmarks"]), want, "{p}");
    let expanded = dh_expanded(&grid, [10, 10], [200, 180], &want, Directedness::Symmetric);
    assert_eq!(p["b"], expanded, "{p}");
}

#[test]
fn the_directed_toggle_builds_a_directed_table_with_the_same_answer() {
    use cairns::landmarks::Directedness;
    let grid = demo_grid();
    let landmarks = [free_at(&grid, 30, 30), free_at(&grid, 220, 40)];
    let d = &selftest_part(
        AppState::with_default_map(),
        &format!(
            "from=10,10&to=200,180&heuristic=octile&compare=dh&landmarks={}&selftest=directed",
            landmark_param(&landmarks)
        ),
        "landmark-directed",
        "directed",
    );
    assert!(d["url"].as_str().unwrap().contains("directed=1"), "{d}");
    // A new table was built for the toggle, and the page says which.
    let table = d["table"].as_str().unwrap();
    assert!(
        table.starts_with("landmarks ") && table.contains("built in"),
        "{d}"
    );
    let want = dh_expanded(
        &grid,
        [10, 10],
        [200, 180],
        &landmarks,
        Directedness::Directed,
    );
    assert_eq!(d["b"], want, "{d}");
}

/// The heat ramp's two ends, as the colour bar draws them (RGBA).
const RAMP_ENDS: [[u8; 4]; 2] = [[68, 1, 84, 255], [253, 231, 37, 255]];

/// The gain ramp's two ends: no gain is pale cream, far from the walls'
/// dark grey (48, 48, 56), which viridis' dark end was close to.
const GAIN_ENDS: [[u8; 4]; 2] = [[255, 250, 225, 255], [127, 0, 0, 255]];

#[test]
fn landmark_help_shading_has_a_colour_bar_up_to_the_largest_gain() {
    use cairns::graph::NodeId;
    use cairns::heuristic::Heuristic;
    use cairns::landmarks::{DifferentialHeuristic, Directedness, LandmarkTable};
    let grid = demo_grid();
    let landmarks = [free_at(&grid, 30, 30), free_at(&grid, 220, 40)];
    let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
    // Landmark 1 (the first) is shaded: its largest gain over octile.
    let l = graph.node(landmarks[0][0], landmarks[0][1]).unwrap();
    let table = LandmarkTable::build(&graph, &[l], Directedness::Symmetric);
    let dh = DifferentialHeuristic::new(&table, Octile::new(&graph));
    let octile = Octile::new(&graph);
    let goal = graph.node(200, 180).unwrap();
    let (tg, og) = (dh.goal(goal), octile.goal(goal));
    let max = (0..graph.grid().len() as u32)
        .map(NodeId)
        .filter(|&n| graph.is_passable(n))
        .map(|n| dh.estimate(n, &tg) - octile.estimate(n, &og))
        .fold(0.0, f64::max);
    let s = &selftest_part(
        AppState::with_default_map(),
        &format!(
            "from=10,10&to=200,180&heuristic=octile&compare=dh&landmarks={}\
             &selftest=shade&to_shade=help",
            landmark_param(&landmarks)
        ),
        "shade-help",
        "shade",
    );
    assert_eq!(s["shown"], true, "{s}");
    assert!(s["title"].as_str().unwrap().contains("landmark 1"), "{s}");
    assert_eq!(s["lo"], "0", "{s}");
    let hi: f64 = s["hi"].as_str().unwrap().parse().unwrap();
    assert!((hi - max).abs() < 0.006, "{hi} vs {max}: {s}");
    assert_eq!(s["ends"], serde_json::json!(GAIN_ENDS), "{s}");
}

#[test]
fn heat_map_is_stretched_between_the_smallest_and_largest_ratio() {
    use cairns::graph::{NodeId, Reversed};
    use cairns::heuristic::Heuristic;
    use cairns::search::Dijkstra;
    let grid = demo_grid();
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let goal = graph.node(200, 180).unwrap();
    let mut cache: SearchCache = SearchCache::new();
    Dijkstra::new(Reversed(&graph)).all(goal, &mut cache);
    let octile = Octile::new(&graph);
    let og = octile.goal(goal);
    // The page's bytes: round(200 h / d) over the cells with a distance.
    let bytes: Vec<u32> = (0..graph.grid().len() as u32)
        .map(NodeId)
        .filter_map(|n| {
            let d = cache.g(n).filter(|&d| d > 0.0 && graph.is_passable(n))?;
            Some((octile.estimate(n, &og) / d * 200.0).round() as u32)
        })
        .collect();
    let lo = f64::from(*bytes.iter().min().unwrap()) / 200.0;
    let hi = f64::from(*bytes.iter().max().unwrap()) / 200.0;
    assert!(lo < hi);
    let s = &selftest_part(
        AppState::with_default_map(),
        "from=10,10&to=200,180&heuristic=octile&compare=dh&selftest=shade&to_shade=heat",
        "shade-heat",
        "shade",
    );
    assert_eq!(s["shown"], true, "{s}");
    let read = |k: &str| s[k].as_str().unwrap().parse::<f64>().unwrap();
    assert!((read("lo") - lo).abs() < 0.006, "{lo}: {s}");
    assert!((read("hi") - hi).abs() < 0.006, "{hi}: {s}");
    assert_eq!(s["ends"], serde_json::json!(RAMP_ENDS), "{s}");
    assert!(
        s["info"].as_str().unwrap().starts_with("heat: mean h/d"),
        "{s}"
    );
}

/// Erasing a wall after the table was built: dh goes round by the old gap,
/// the page draws both paths and says by how much dh's is longer.
#[test]
fn a_stale_table_shows_both_paths_and_the_difference() {
    use cairns::landmarks::{Directedness, LandmarkTable};
    use cairns::spec::SearchSpec;
    let rows = [
        "..............................",
        "..............................",
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@.@",
        "..............................",
        "..............................",
    ];
    let grid = Grid::from_ascii(&rows.join("\n")).unwrap();
    let landmarks = [[0, 0], [0, 4], [29, 0]];
    let old = GridGraph::new(grid.clone(), Neighborhood::Octile);
    let nodes: Vec<_> = landmarks
        .iter()
        .map(|&[x, y]| old.node(x, y).unwrap())
        .collect();
    let table = LandmarkTable::build(&old, &nodes, Directedness::Symmetric);
    let mut edited = grid.clone();
    edited.set(1, 2, Tile::Ground);
    let graph = GridGraph::new(edited, Neighborhood::Octile);
    let (s, t) = (graph.node(1, 0).unwrap(), graph.node(1, 4).unwrap());
    let spec: SearchSpec = "astar/dh".parse().unwrap();
    let tables = [cairns::spec::Table::from(table.clone())];
    let stale_cost = spec
        .searcher(&graph, &tables)
        .unwrap()
        .search_cost(s, t)
        .unwrap();
    let shortest = AStar::new(&graph, Octile::new(&graph))
        .search_cost(s, t, &mut SearchCache::new())
        .unwrap();
    assert!(stale_cost > shortest + 1.0);

    let st = &selftest_part(
        AppState::with_grid("gap", grid).unwrap(),
        &format!(
            "from=1,0&to=1,4&heuristic=octile&compare=dh&landmarks={}&selftest=stale&erase=1,2,1,2",
            landmark_param(&landmarks)
        ),
        "stale",
        "stale",
    );
    assert_eq!(st["edits"], serde_json::json!([[1, 2, 0]]), "{st}");
    assert!(st["stale"].as_str().unwrap().starts_with("STALE"), "{st}");
    assert!(
        (st["shortest"].as_f64().unwrap() - shortest).abs() < 1e-9,
        "{st}"
    );
    assert!(
        (st["costs"][1].as_f64().unwrap() - stale_cost).abs() < 1e-9,
        "{st}"
    );
    assert_eq!(st["dashed"], 1, "{st}");
    let note = st["note"].as_str().unwrap();
    let extra: f64 = note
        .strip_prefix("B (dh, stale table): not shortest: +")
        .unwrap_or_else(|| panic!("{note}"))
        .parse()
        .unwrap();
    assert!((extra - (stale_cost - shortest)).abs() < 0.006, "{note}");
}

/// den520d served from its file (its scenario file gives the page's
/// default query, the longest), with 16 landmarks placed as `dh:16` places
/// them (sampled, seed 1), in the URL's form.
fn den520d() -> (AppState, String) {
    use cairns::landmarks::place;
    use cairns::spec::{PLACEMENT_SEED, PlacementKind};
    let map = cairns_testdata::file("dao/den520d.map");
    let grid = cairns::movingai::read_map(&map).unwrap();
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let nodes = place(
        &graph,
        16,
        PlacementKind::default().with_seed(PLACEMENT_SEED),
    );
    let points: Vec<[u32; 2]> = nodes
        .iter()
        .map(|&n| {
            let (x, y) = graph.coords(n);
            [x, y]
        })
        .collect();
    (
        AppState::with_map_file(&map).unwrap(),
        landmark_param(&points),
    )
}

/// Whether the rectangle `[left, top, right, bottom]` lies inside a
/// viewport of `inner` = `[width, height]`.
fn inside(rect: &serde_json::Value, inner: &serde_json::Value) -> bool {
    let r: [f64; 4] = serde_json::from_value(rect.clone()).unwrap();
    let [w, h]: [f64; 2] = serde_json::from_value(inner.clone()).unwrap();
    r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= w && r[3] <= h && r[2] > r[0] && r[3] > r[1]
}

/// Issue 34: with a good landmark heuristic B expands little more than the
/// path, and the path drawn 2-3 cells wide hid every one of B's cells. On
/// den520d's default query, A octile and B dh over 16 landmarks, at 1400 x
/// 1000 and 800 x 600 and the fit zoom, B's colours (B only and both)
/// cover at least as many screen pixels as half of B's cells would; the
/// ratio and the legend are inside the viewport.
#[test]
fn b_stays_visible_and_the_strip_on_screen_on_den520d() {
    let profile = temp_profile("webdriver-den520d");
    let driver = Driver::start(&profile);
    for (w, h) in [(1400, 1000), (800, 600)] {
        let (state, landmarks) = den520d();
        let addr = start_server(state);
        // The viewport itself (a window's size includes its frame).
        driver.in_session(
            "/goog/cdp/execute",
            Some(
                &serde_json::json!({"cmd": "Emulation.setDeviceMetricsOverride",
                "params": {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": false}}),
            ),
        );
        let r = driver.selftest(
            &format!(
                "http://{addr}/?heuristic=octile&compare=dh&landmarks={landmarks}&selftest=pixels"
            ),
            &format!("den520d-{w}x{h}"),
        );
        let p = &r["pixels"];
        assert_eq!(p["error"], "", "{p}");
        assert_eq!(p["inner"], serde_json::json!([w, h]), "{p}");
        let zoom = p["zoom"].as_f64().unwrap();
        assert!((zoom - p["fit"].as_f64().unwrap()).abs() < 1e-9, "{p}");
        let b_cells = p["expanded"][1].as_f64().unwrap();
        let counts = &p["counts"];
        let b_pixels = counts["b"].as_f64().unwrap() + counts["both"].as_f64().unwrap();
        let half = 0.5 * b_cells * zoom * zoom;
        eprintln!(
            "{w}x{h}: zoom {zoom:.2}, B expanded {b_cells}, B's colours {b_pixels} px, half of B's cells {half:.0} px"
        );
        assert!(b_cells > 0.0 && b_pixels >= half, "{w}x{h}: {p}");
        assert!(inside(&p["ratio"], &p["inner"]), "ratio: {p}");
        assert!(inside(&p["legend"], &p["inner"]), "legend: {p}");
        assert!(
            p["ratio_text"]
                .as_str()
                .unwrap()
                .starts_with("B (dh) expands"),
            "{p}"
        );
    }
    drop(driver);
    let _ = std::fs::remove_dir_all(&profile);
}

/// A refused combination (theta with dh for B; BFS on 8-connected moves
/// for A) clears the picture, and the reason is written beside the menu
/// that caused it, on screen.
#[test]
fn a_refused_combination_clears_the_picture_and_says_why_beside_it() {
    for (side, search) in [("b", "theta"), ("a", "bfs")] {
        let r = &selftest_part_err(
            AppState::with_default_map(),
            &format!(
                "from=10,10&to=200,180&heuristic=octile&compare=dh\
                 &selftest=refuse&side={side}&to_search={search}"
            ),
            &format!("refuse-{search}"),
            "refuse",
        );
        let colour = |k: &str, c: &str| r[k][c].as_u64().unwrap();
        assert!(colour("before", "a") + colour("before", "both") > 0, "{r}");
        for c in ["a", "b", "both", "path"] {
            assert_eq!(colour("after", c), 0, "{c} still drawn: {r}");
        }
        assert_eq!(r["shown_result"], false, "{r}");
        assert!(!r["error"].as_str().unwrap().is_empty(), "{r}");
        assert_eq!(r["beside"], true, "{r}");
        assert!(r["refusal"].as_str().unwrap().contains("refused"), "{r}");
        assert!(inside(&r["refusal_rect"], &r["inner"]), "{r}");
        assert!(
            r["ratio"].as_str().unwrap().starts_with("No picture"),
            "{r}"
        );
    }
}

/// [`selftest`]'s report `part`, whatever its error.
fn selftest_part_err(state: AppState, query: &str, name: &str, part: &str) -> serde_json::Value {
    selftest(state, query, name)[part].clone()
}

/// Hovering a cell names the landmark whose bound towards the goal is the
/// largest there (as the library's table computes it) and rings it.
#[test]
fn hovering_a_cell_names_the_landmark_that_gives_its_estimate() {
    use cairns::landmarks::{Directedness, LandmarkTable};
    let grid = demo_grid();
    let landmarks = [(30, 30), (220, 40), (120, 200)].map(|(x, y)| free_at(&grid, x, y));
    let at = free_at(&grid, 100, 100);
    let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
    let nodes = landmarks.map(|[x, y]| graph.node(x, y).unwrap());
    let table = LandmarkTable::build(&graph, &nodes, Directedness::Symmetric);
    let (n, goal) = (
        graph.node(at[0], at[1]).unwrap(),
        graph.node(200, 180).unwrap(),
    );
    let bound = |l: usize| (table.to_landmark(n, l) - table.to_landmark(goal, l)).abs();
    let best = (0..3)
        .fold(None, |best: Option<usize>, l| match best {
            Some(b) if bound(b) >= bound(l) => Some(b),
            _ => Some(l),
        })
        .unwrap();
    let h = &selftest_part(
        AppState::with_default_map(),
        &format!(
            "from=10,10&to=200,180&heuristic=octile&compare=dh&landmarks={}\
             &selftest=hover&at={},{}",
            landmark_param(&landmarks),
            at[0],
            at[1]
        ),
        "hover",
        "hover",
    );
    let text = h["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("landmark {} gives the largest estimate", best + 1)),
        "{best}: {h}"
    );
    assert_eq!(h["owner"], best, "{h}");
    assert!(
        h["note"]
            .as_str()
            .unwrap()
            .starts_with("B's estimates on the cells it expanded come from landmark"),
        "{h}"
    );
}

/// A 3 x 3 brush paints a band three cells wide; undo removes the stroke's
/// edits and the answer is the map's again; "clear edits" removes them all.
#[test]
fn brush_undo_and_clear_edits() {
    let (x0, y) = (60, 100);
    let grid = demo_grid();
    let (cost, a, _) = library(&grid, (10, 10), (200, 180));
    let u = &selftest_part_err(
        AppState::with_default_map(),
        &format!(
            "from=10,10&to=200,180&heuristic=octile&compare=zero\
             &selftest=undo&brush=3&paint={x0},{y},{},{y}",
            x0 + 10
        ),
        "undo",
        "undo",
    );
    // The free cells of the 13 x 3 band the stroke covers.
    let band = (y - 1..=y + 1)
        .flat_map(|y| (x0 - 1..=x0 + 11).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_passable(x, y))
        .count();
    assert_eq!(u["first"]["edits"], band, "{u}");
    assert_eq!(u["undone"]["edits"], 0, "{u}");
    assert_eq!(u["undone"]["a"], shown_count(a), "{u}");
    assert_eq!(u["undone"]["length"], shown_length(cost), "{u}");
    assert_eq!(u["again"]["edits"], band, "{u}");
    assert_eq!(u["cleared"]["edits"], 0, "{u}");
    assert_eq!(u["cleared"]["a"], shown_count(a), "{u}");
}
