//! `cairns render` end to end: the binary draws a generated map, and the PNG
//! is decoded back to check its size and colours.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::Output;

use cairns::grid::{Grid, MapKind};
use cairns::movingai::write_map;

use crate::{cairns, run};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cairns-render-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn map_file(dir: &Path) -> (PathBuf, Grid) {
    let grid = MapKind::Rooms { room_size: 7 }.generate(64, 48, 3).unwrap();
    let path = dir.join("rooms.map");
    std::fs::write(&path, write_map(&grid)).unwrap();
    (path, grid)
}

fn free_cell(grid: &Grid, from_end: bool) -> (u32, u32) {
    let cells: Vec<(u32, u32)> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_passable(x, y))
        .collect();
    if from_end {
        *cells.last().unwrap()
    } else {
        cells[0]
    }
}

/// Runs `cairns render MAP --from A --to B -o OUT EXTRA...`, from the first
/// free cell of `grid` to its last.
fn render_first_to_last(map: &Path, grid: &Grid, out: &Path, extra: &[&str]) -> Output {
    let (start, goal) = (free_cell(grid, false), free_cell(grid, true));
    render_between(map, start, goal, out, extra)
}

/// The rooms map of [`map_file`] in a fresh directory, removed when
/// dropped, and the path of the picture there.
struct Rooms {
    dir: PathBuf,
    map: PathBuf,
    grid: Grid,
    out: PathBuf,
}

impl Rooms {
    fn new(name: &str) -> Rooms {
        let dir = temp_dir(name);
        let (map, grid) = map_file(&dir);
        let out = dir.join("out.png");
        Rooms {
            dir,
            map,
            grid,
            out,
        }
    }

    /// [`render_first_to_last`] on this map, to `out`.
    fn render(&self, extra: &[&str]) -> Output {
        render_first_to_last(&self.map, &self.grid, &self.out, extra)
    }

    /// [`Rooms::render`], which must succeed.
    #[track_caller]
    fn render_ok(&self, extra: &[&str]) -> Output {
        let output = self.render(extra);
        assert!(output.status.success(), "{output:?}");
        output
    }
}

impl Drop for Rooms {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

/// Runs `cairns render MAP --from START --to GOAL -o OUT EXTRA...`.
fn render_between(
    map: &Path, start: (u32, u32), goal: (u32, u32), out: &Path, extra: &[&str],
) -> Output {
    let (from, to) = (
        format!("{},{}", start.0, start.1),
        format!("{},{}", goal.0, goal.1),
    );
    let mut args = vec![
        "render",
        map.to_str().unwrap(),
        "--from",
        &from,
        "--to",
        &to,
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    cairns(&args)
}

fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(BufReader::new(File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

// The colours of the picture (crates/cairns-cli/src/render.rs).
const START: [u8; 3] = [0, 158, 115];
const GOAL: [u8; 3] = [213, 94, 0];
const ONLY_A: [u8; 3] = [245, 176, 65];
const ONLY_B: [u8; 3] = [93, 173, 226];
const BOTH: [u8; 3] = [125, 91, 166];
const PATH: [u8; 3] = [255, 212, 0];
const LANDMARK: [u8; 3] = [240, 228, 66];

/// The pixels of each colour in a decoded picture.
fn colour_counts(px: &[u8]) -> std::collections::HashMap<[u8; 3], usize> {
    let mut counts = std::collections::HashMap::new();
    for c in px.chunks(3) {
        *counts.entry([c[0], c[1], c[2]]).or_insert(0) += 1;
    }
    counts
}

/// Issue 14: B was painted over A, so cells only A expanded vanished when B
/// was the worse heuristic. Each of the three regions has its own colour.
#[test]
fn render_shows_a_only_b_only_and_both_in_three_colours() {
    let rooms = Rooms::new("regions");
    // Euclidean and Manhattan guide A* differently: each expands cells the
    // other does not.
    let output = rooms.render_ok(&["--heuristic", "euclidean", "--compare", "manhattan"]);
    let (_, _, px) = decode(&rooms.out);
    let counts = colour_counts(&px);
    for (name, c) in [("A only", ONLY_A), ("B only", ONLY_B), ("both", BOTH)] {
        assert!(counts.get(&c).is_some_and(|&n| n > 0), "no {name} pixels");
    }
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("expanded"), "{text}");
}

/// `--search jps` draws the jump points as dots, and the legend says so.
#[test]
fn render_search_jps_draws_jump_points() {
    let rooms = Rooms::new("jps");
    rooms.render_ok(&["--search", "jps"]);
    let (_, _, px) = decode(&rooms.out);
    let counts = colour_counts(&px);
    assert!(counts.get(&ONLY_A).is_some_and(|&n| n > 0), "jump points");
    assert!(counts.get(&PATH).is_some_and(|&n| n > 0), "the path");
    // A bad combination is refused with the library's reason.
    let output = rooms.render(&["--search", "jps", "--heuristic", "zero"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
}

#[test]
fn render_draws_start_goal_and_both_explored_areas() {
    let rooms = Rooms::new("ok");
    let (start, goal) = (free_cell(&rooms.grid, false), free_cell(&rooms.grid, true));
    let output = rooms.render_ok(&["--heuristic", "zero", "--compare", "dh:4"]);
    // The default placement is left out of the legend's name.
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("b dh:4 "), "{text}");
    let (width, height, px) = decode(&rooms.out);
    // 64x48 cells at 8 px per cell (the longest side scaled up to 512),
    // plus the legend below (which may be wider than the map).
    assert!(width >= 512 && height > 384, "{width}x{height}");
    let at = |x: u32, y: u32| {
        let i = (y * width + x) as usize * 3;
        [px[i], px[i + 1], px[i + 2]]
    };
    // 8 px per cell after a margin of 8 px.
    let centre = |(x, y): (u32, u32)| (x * 8 + 4 + 8, y * 8 + 4 + 8);
    let (sx, sy) = centre(start);
    let (gx, gy) = centre(goal);
    assert_eq!(at(sx, sy), START, "the start is a green disc");
    // The goal's centre is on its white cross; beside it, the square.
    assert_eq!(at(gx, gy), [255, 255, 255], "the goal's cross");
    assert_eq!(at(gx + 3, gy), GOAL, "the goal's square");
    let count = |c: [u8; 3]| {
        (0..400)
            .flat_map(|y| (0..528).map(move |x| (x, y)))
            .filter(|&(x, y)| at(x, y) == c)
            .count()
    };
    assert!(count(ONLY_A) > 0, "cells explored by A only");
    assert!(count(BOTH) > 0, "cells explored by both");
    assert!(count(LANDMARK) > 0, "landmarks");
    assert!(count(PATH) > 0, "the path");
}

#[test]
fn render_rejects_bad_endpoints_and_maps_with_exit_2() {
    let dir = temp_dir("err");
    let (map, grid) = map_file(&dir);
    let wall = (0..grid.width())
        .find(|&x| !grid.is_passable(x, 0))
        .map(|x| format!("{x},0"))
        .unwrap();
    let out = dir.join("out.png");
    let bad_map = dir.join("bad.map");
    std::fs::write(&bad_map, "type octile\nheight 2\nwidth 2\nmap\n..\n.\n").unwrap();
    for (map, from, needle) in [
        (&map, wall.as_str(), "blocked"),
        (&map, "64,0", "outside"),
        (&bad_map, "0,0", "bad.map"),
    ] {
        let output = run(
            "render {} --from {} --to 1,1 -o {}",
            &[map.to_str().unwrap(), from, out.to_str().unwrap()],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Regression: `-o x.jpg` used to write PNG bytes into a file named `.jpg`.
/// Render now refuses any output name not ending in `.png` (in any case),
/// with exit 2 and a message naming the path, before reading the map or
/// searching, and writes nothing.
#[test]
fn render_refuses_output_paths_not_ending_in_png() {
    let dir = temp_dir("ext");
    let (map, grid) = map_file(&dir);
    let render = |map: &Path, out: &Path| render_first_to_last(map, &grid, out, &[]);
    let missing_map = dir.join("missing.map");
    for (map, name) in [
        (&map, "out.jpg"),
        (&map, "out.PNG.jpeg"),
        (&map, "out"),
        (&map, "png"),
        // The output is checked before the map is read.
        (&missing_map, "out.gif"),
    ] {
        let out = dir.join(name);
        let output = render(map, &out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(out.to_str().unwrap()), "{name}: {stderr}");
        assert!(stderr.contains("only PNG is written"), "{name}: {stderr}");
        assert!(!stderr.contains("missing.map"), "{name}: {stderr}");
        assert!(output.stdout.is_empty(), "{name}: searched anyway");
        assert!(!out.exists(), "{name} was written");
    }
    // The extension's case does not matter.
    let out = dir.join("OUT.PNG");
    let output = render(&map, &out);
    assert!(output.status.success(), "{output:?}");
    assert!(decode(&out).0 >= 512);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn render_uses_a_saved_landmark_table_like_scen() {
    let dir = temp_dir("lm");
    let (map, grid) = map_file(&dir);
    let (other_map, _) = {
        let other = dir.join("other.map");
        let g = MapKind::Maze { corridor_width: 2 }
            .generate(64, 48, 9)
            .unwrap();
        std::fs::write(&other, write_map(&g)).unwrap();
        (other, g)
    };
    let table = dir.join("rooms.lm");
    let other_table = dir.join("other.lm");
    for (m, t) in [(&map, &table), (&other_map, &other_table)] {
        let o = run(
            "landmarks build {} -k 3 -o {}",
            &[m.to_str().unwrap(), t.to_str().unwrap()],
        );
        assert!(o.status.success(), "{o:?}");
    }
    let out = dir.join("out.png");
    let render = |extra: &[&str]| render_first_to_last(&map, &grid, &out, extra);
    // The table serves the dh of either heuristic; a bare dh takes its K.
    let table_arg = table.to_str().unwrap();
    let o = render(&["--compare", "dh", "--landmarks", table_arg]);
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("dh:3"), "{text}");
    let (_, _, px) = decode(&out);
    assert!(px.chunks(3).any(|c| c == LANDMARK), "landmarks drawn");
    let o = render(&[
        "--heuristic",
        "dh:3",
        "--compare",
        "octile",
        "--landmarks",
        table_arg,
    ]);
    assert!(o.status.success(), "{o:?}");
    // Errors, exit 2: no dh to use the file, a K that is not the file's,
    // a table built for another map, a bare dh without a file.
    for (extra, message) in [
        (
            vec!["--heuristic", "octile", "--landmarks", table_arg],
            "needs a differential heuristic",
        ),
        (
            vec!["--heuristic", "dh:5", "--landmarks", table_arg],
            "dh:5",
        ),
        (
            vec![
                "--heuristic",
                "dh",
                "--landmarks",
                other_table.to_str().unwrap(),
            ],
            "other.lm",
        ),
        (vec!["--heuristic", "dh"], "bare dh"),
    ] {
        let o = render(&extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{extra:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 34: with a good landmark heuristic B expands little more than
/// the path, and a path drawn over two or three cells hid every one of
/// them. On den520d's longest scenario (the page's default query), A octile
/// and B `dh:16`: the pixels of B's colours (B only, both) are at least as
/// many as half of B's cells would cover at the picture's scale.
#[test]
fn render_keeps_b_visible_beside_the_path_on_den520d() {
    use cairns::grid::{GridGraph, Neighborhood};
    let map = cairns_testdata::file("dao/den520d.map");
    let grid = cairns::movingai::read_map(&map).unwrap();
    let graph = GridGraph::new(grid, Neighborhood::Octile);
    let scen = cairns_testdata::file("dao/den520d.map.scen");
    let (s, t, _) = cairns_web::longest_scenario(&graph, &scen).unwrap();
    let dir = temp_dir("den520d");
    let out = dir.join("den520d.png");
    let output = render_between(
        &map,
        graph.coords(s),
        graph.coords(t),
        &out,
        &["--compare", "dh:16"],
    );
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    let b_expanded: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("b dh:16"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of B in {text}"));
    // 256 x 257 cells, scaled up to at least 512 pixels: 2 px per cell.
    assert!(text.contains("2 px per cell"), "{text}");
    let (_, _, px) = decode(&out);
    let counts = colour_counts(&px);
    let b_pixels = counts.get(&ONLY_B).unwrap_or(&0) + counts.get(&BOTH).unwrap_or(&0);
    eprintln!(
        "den520d: B expanded {b_expanded} cells; B's colours cover {b_pixels} px (half of B's cells: {})",
        b_expanded * 4 / 2
    );
    assert!(
        b_pixels >= b_expanded * 4 / 2,
        "{b_pixels} px for {b_expanded} cells"
    );
    assert!(counts.get(&PATH).is_some_and(|&n| n > 0), "the path");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--scale`, `--crop` and `--title`: the picture is the crop's cells at
/// the scale, with a title line above the map.
#[test]
fn render_scale_crop_and_title_frame_the_picture() {
    let rooms = Rooms::new("frame");
    rooms.render_ok(&[
        "--scale",
        "5",
        "--crop",
        "0,0,31,23",
        "--title",
        "rooms, corner",
    ]);
    let (width, height, px) = decode(&rooms.out);
    // 32 x 24 cells at 5 px, a margin of 8 on each side; the legend may be
    // wider. The title adds a line above.
    assert!(width >= 32 * 5 + 16, "{width}");
    // The map's top-left cell starts below the title line (2x font, 14 px
    // + 8 + 4), 8 px in: it is not the paper colour.
    let at = |x: u32, y: u32| {
        let i = (y * width + x) as usize * 3;
        [px[i], px[i + 1], px[i + 2]]
    };
    assert_ne!(
        at(8 + 2, 8 + 26 + 2),
        [245, 245, 240],
        "a map cell under the title"
    );
    assert!(height > 24 * 5 + 16 + 26, "{height}");
    // Reversed corners: refused, with the reason.
    let output = rooms.render(&["--crop", "31,23,0,0"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("31,23,0,0") && err.contains("X0 <= X1"),
        "{err}"
    );
    // Outside the map: refused.
    let output = rooms.render(&["--crop", "0,0,64,10"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    for bad in ["1,2,3", "a,b,c,d"] {
        let output = rooms.render(&["--crop", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}: {output:?}");
    }
}

/// Regression test: `render --search theta` failed ("theta takes the
/// euclidean or zero heuristic") where `path` picks the heuristic itself;
/// render now leaves it to the library as path does.
#[test]
fn render_picks_the_heuristic_of_the_search_as_path_does() {
    let rooms = Rooms::new("theta");
    let o = rooms.render_ok(&["--search", "theta"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("euclidean"), "{text}");
    rooms.render_ok(&["--search", "dijkstra"]);
}

/// Regression test: `render --help` listed 5 of the searches by hand; it
/// lists the library's registry.
#[test]
fn render_help_lists_every_search() {
    let help = String::from_utf8(cairns(&["render", "--help"]).stdout).unwrap();
    for a in cairns::spec::Algorithm::ALL {
        assert!(help.contains(&format!("{}:", a.name())), "{a}: {help}");
    }
}

/// `render --table` takes any saved table, as the other commands do
/// (`--landmarks` stays an alias).
#[test]
fn render_takes_a_table_of_any_kind() {
    let rooms = Rooms::new("table");
    for (build, file, says) in [
        ("table build {} --search jps+ -o {}", "rooms.jt", "table"),
        ("landmarks build {} -k 2 -o {}", "rooms.lm", "dh:2"),
    ] {
        let table = rooms.dir.join(file);
        let o = run(
            build,
            &[rooms.map.to_str().unwrap(), table.to_str().unwrap()],
        );
        assert!(o.status.success(), "{o:?}");
        let o = rooms.render_ok(&["--table", table.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains(says), "{build}: {text}");
    }
}

/// `cairns graph render` draws an extract over its places: the nodes
/// Dijkstra settled and A* did not in A's colour, those both settled in
/// both's, none in B's alone (A* over a consistent heuristic settles no
/// node Dijkstra leaves), the path and both ends; the JSON counts what
/// each search settled. A graph whose file does not place its nodes is
/// refused with the way out.
#[test]
fn graph_render_draws_the_nodes_each_search_settled() {
    let dir = temp_dir("graph");
    let andorra = cairns_testdata::road_file("osm/andorra.osm.pbf");
    let andorra = andorra.to_str().unwrap();
    let out = dir.join("andorra.png");
    let o = cairns(&[
        "graph",
        "render",
        andorra,
        "0",
        "9000",
        "--search",
        "dijkstra",
        "--compare",
        "astar",
        "--title",
        "Andorra",
        "--json",
        "-o",
        out.to_str().unwrap(),
    ]);
    crate::assert_exit(&o, 0);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (a, b) = (&j["searches"][0], &j["searches"][1]);
    assert_eq!(
        (a["search"].as_str(), b["search"].as_str()),
        (Some("dijkstra"), Some("astar"))
    );
    assert_eq!(a["cost"], b["cost"], "{j}");
    let settled = |r: &serde_json::Value| r["settled"].as_u64().unwrap();
    assert!(settled(b) * 2 < settled(a), "{j}");
    // The goal is drawn among the nodes settled: taken off OPEN, not expanded.
    assert_eq!(a["drawn"].as_u64(), Some(settled(a) + 1), "{j}");
    let (width, height, px) = decode(&out);
    assert_eq!(
        (Some(u64::from(width)), Some(u64::from(height))),
        (j["width_px"].as_u64(), j["height_px"].as_u64())
    );
    let counts = colour_counts(&px);
    for (name, colour) in [
        ("A only", ONLY_A),
        ("both", BOTH),
        ("path", PATH),
        ("start", START),
        ("goal", GOAL),
    ] {
        assert!(
            counts.get(&colour).copied().unwrap_or(0) > 20,
            "no {name} pixels"
        );
    }
    // The legend's swatch is B's only pixels.
    assert!(
        counts.get(&ONLY_B).copied().unwrap_or(0) < 800,
        "{:?}",
        counts.get(&ONLY_B)
    );

    let rome = cairns_testdata::road_file("dimacs/rome99.gr");
    let o = cairns(&[
        "graph",
        "render",
        rome.to_str().unwrap(),
        "1",
        "2",
        "-o",
        dir.join("r.png").to_str().unwrap(),
    ]);
    crate::assert_exit(&o, 2);
    let refused = crate::stderr(&o);
    assert!(
        refused.contains("rome99.gr: the file does not say where its nodes lie")
            && refused.contains("--coordinates"),
        "{refused}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
