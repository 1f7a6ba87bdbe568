//! `cairns render` end to end: the binary draws a generated map, and the PNG
//! is decoded back to check its size and colours.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::Output;

use cairns::grid::{GenerateOptions, Grid, MapKind, generate};
use cairns::movingai::write_map;

use crate::cairns;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cairns-render-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn map_file(dir: &Path) -> (PathBuf, Grid) {
    let grid = generate(&GenerateOptions {
        kind: MapKind::Rooms { room_size: 7 },
        width: 64,
        height: 48,
        seed: 3,
    })
    .unwrap();
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

#[test]
fn render_draws_start_goal_and_both_explored_areas() {
    let dir = temp_dir("ok");
    let (map, grid) = map_file(&dir);
    let (start, goal) = (free_cell(&grid, false), free_cell(&grid, true));
    let out = dir.join("out.png");
    let output = render_first_to_last(
        &map,
        &grid,
        &out,
        &["--heuristic", "zero", "--compare", "dh:4"],
    );
    assert!(output.status.success(), "{output:?}");
    let (width, height, px) = decode(&out);
    // 64x48 cells at 8 px per cell (the longest side scaled up to 512),
    // plus the legend below (which may be wider than the map).
    assert!(width >= 512 && height > 384, "{width}x{height}");
    let at = |x: u32, y: u32| {
        let i = (y * width + x) as usize * 3;
        [px[i], px[i + 1], px[i + 2]]
    };
    let centre = |(x, y): (u32, u32)| (x * 8 + 4, y * 8 + 4);
    let (sx, sy) = centre(start);
    let (gx, gy) = centre(goal);
    assert_eq!(at(sx, sy), [230, 0, 0], "start pixel is red");
    assert_eq!(at(gx, gy), [150, 0, 200], "goal pixel is purple");
    let count = |c: [u8; 3]| {
        (0..384)
            .flat_map(|y| (0..512).map(move |x| (x, y)))
            .filter(|&(x, y)| at(x, y) == c)
            .count()
    };
    assert!(count([170, 210, 255]) > 0, "cells explored by A only");
    assert!(count([60, 110, 200]) > 0, "cells explored by B");
    assert!(count([0, 170, 0]) > 0, "landmarks");
    std::fs::remove_dir_all(&dir).ok();
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
        let output = cairns(&[
            "render",
            map.to_str().unwrap(),
            "--from",
            from,
            "--to",
            "1,1",
            "-o",
            out.to_str().unwrap(),
        ]);
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
        let g = generate(&GenerateOptions {
            kind: MapKind::Maze { corridor_width: 2 },
            width: 64,
            height: 48,
            seed: 9,
        })
        .unwrap();
        std::fs::write(&other, write_map(&g)).unwrap();
        (other, g)
    };
    let table = dir.join("rooms.lm");
    let other_table = dir.join("other.lm");
    for (m, t) in [(&map, &table), (&other_map, &other_table)] {
        let o = cairns(&[
            "landmarks",
            "build",
            m.to_str().unwrap(),
            "-k",
            "3",
            "-o",
            t.to_str().unwrap(),
        ]);
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
    assert!(px.chunks(3).any(|c| c == [0, 170, 0]), "landmarks drawn");
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
            vec!["--landmarks", table_arg],
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
