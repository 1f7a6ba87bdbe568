//! One-cell wall edits on a landmark table: the incremental repair of
//! `IncrementalTable` against rebuilding the table, with every repaired
//! table checked equal (bit for bit) to the rebuilt one.
//!
//! ```text
//! cargo bench -p cairns-bench --bench landmark_repair -- [MAP...] [--edits N] [--seed S]
//! ```
//!
//! MAP is a map of the data directory (`maze/maze512-32-0.map`); the
//! default is three 512x512 maps. On each map 16 landmarks are placed
//! farthest-first (seed 1, the CLI's `dh:16`). Then, `--edits` times (40),
//! at a random position (seeded SplitMix64):
//!
//! - **close**: a random passable cell becomes a wall, the table is
//!   repaired, and the edited map's table is rebuilt;
//! - **reopen**: the same cell is opened again, repaired and rebuilt
//!   (an edit that undoes the last one: the repair writes back the values
//!   the last repair replaced, `RepairProgress::restored`);
//! - **open**: a random wall cell next to a passable one is opened,
//!   repaired and rebuilt;
//! - **reclose**: it is closed again, repaired and rebuilt (a restore
//!   too, when the opening's repair kept its values).
//!
//! Each repair is timed alone, then compared with the rebuild
//! (`LandmarkTable::build` with the same landmarks, timed alone); the
//! edit itself (`IncrementalTable::set_tile`: the map's moves and
//! components, and the change noted for each landmark) is timed apart.
//! Reported per kind: median and mean repair time, median rebuild time,
//! the ratio of the medians, the median number of table entries the
//! repair changed, the median time of the edit and how many of the
//! repairs were restores.

use std::time::Instant;

use cairns::graph::{Graph, NodeId};
use cairns::grid::{GridGraph, Tile};
use cairns::landmarks::{Directedness, IncrementalTable, LandmarkTable, Placement, place};
use cairns::movingai::runner::median;
use cairns::rng::SplitMix64;
use cairns_bench::{edit_args, octile_map};

const K: usize = 16;
const KINDS: [&str; 4] = ["close", "reopen", "open", "reclose"];

/// Times `repair` and a rebuild on `g`, asserts the two tables are equal;
/// returns (repair seconds, rebuild seconds, entries changed, whether the
/// repair was a restore).
fn measure(
    t: &mut IncrementalTable, g: &GridGraph, lms: &[NodeId], what: &str,
) -> (f64, f64, usize, bool) {
    let t0 = Instant::now();
    let p = t.repair(g);
    let repair = t0.elapsed().as_secs_f64();
    assert!(p.done(), "{what}: repair left {p:?}");
    let t0 = Instant::now();
    let rebuilt = LandmarkTable::build(g, lms, Directedness::Symmetric);
    let rebuild = t0.elapsed().as_secs_f64();
    assert!(
        *t.table() == rebuilt,
        "{what}: the repaired table differs from the rebuilt one"
    );
    (repair, rebuild, p.changed, p.restored)
}

fn main() {
    let (maps, edits, seed) = edit_args(&[
        "maze/maze512-32-0.map",
        "maze/maze512-1-0.map",
        "room/16room_000.map",
    ]);
    println!(
        "one-cell edits, {K} landmarks (farthest-first, seed 1), {edits} positions per map, seed {seed}"
    );
    println!("every repaired table checked equal to the rebuilt one");
    for map in maps {
        let mut graph = octile_map(&map);
        let lms = place(&graph, K, Placement::Farthest { seed: 1 });
        let mut table = IncrementalTable::build(&graph, &lms);
        let mut rng = SplitMix64::new(seed);
        let cells = graph.node_bound();
        let mut times: Vec<Vec<(f64, f64, usize, bool)>> = vec![Vec::new(); KINDS.len()];
        let mut edit_times: Vec<Vec<f64>> = vec![Vec::new(); KINDS.len()];
        // Sets a tile through the table, timed, as edit kind `kind`.
        let mut edit = |table: &mut IncrementalTable,
                        graph: &mut GridGraph,
                        (x, y): (u32, u32),
                        tile: Tile,
                        kind: usize| {
            let t0 = Instant::now();
            table.set_tile(graph, x, y, tile);
            edit_times[kind].push(t0.elapsed().as_secs_f64());
        };
        for _ in 0..edits {
            // Close an open cell (not a landmark), then reopen it.
            let cell = loop {
                let candidate = NodeId(rng.index(cells) as u32);
                if graph.is_passable(candidate) && !lms.contains(&candidate) {
                    break candidate;
                }
            };
            let at = graph.coords(cell);
            edit(&mut table, &mut graph, at, Tile::Tree, 0);
            times[0].push(measure(&mut table, &graph, &lms, "close"));
            edit(&mut table, &mut graph, at, Tile::Ground, 1);
            times[1].push(measure(&mut table, &graph, &lms, "reopen"));
            // Open a wall cell beside an open one, then close it again.
            let wall = loop {
                let candidate = NodeId(rng.index(cells) as u32);
                let (x, y) = graph.coords(candidate);
                let beside = [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)]
                    .iter()
                    .any(|&(dx, dy)| {
                        let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
                        nx >= 0
                            && ny >= 0
                            && graph
                                .node(nx as u32, ny as u32)
                                .is_some_and(|u| graph.is_passable(u))
                    });
                if !graph.is_passable(candidate) && beside {
                    break candidate;
                }
            };
            let at = graph.coords(wall);
            let was = graph.grid().get(at.0, at.1).expect("on the grid");
            edit(&mut table, &mut graph, at, Tile::Ground, 2);
            times[2].push(measure(&mut table, &graph, &lms, "open"));
            edit(&mut table, &mut graph, at, was, 3);
            times[3].push(measure(&mut table, &graph, &lms, "reclose"));
        }
        println!();
        println!(
            "{map} ({}x{}, {cells} cells)",
            graph.width(),
            graph.height()
        );
        println!(
            "| edit | repair median ms | repair mean ms | rebuild median ms | rebuild / repair (medians) | entries changed (median) | edit median ms | restores |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|");
        for ((kind, rows), edits) in KINDS.iter().zip(&times).zip(&edit_times) {
            let repair: Vec<f64> = rows.iter().map(|r| r.0 * 1e3).collect();
            let rebuild: Vec<f64> = rows.iter().map(|r| r.1 * 1e3).collect();
            let changed: Vec<f64> = rows.iter().map(|r| r.2 as f64).collect();
            let mean = repair.iter().sum::<f64>() / repair.len() as f64;
            let (rm, bm) = (median(&repair), median(&rebuild));
            let edit: Vec<f64> = edits.iter().map(|t| t * 1e3).collect();
            let restores = rows.iter().filter(|r| r.3).count();
            println!(
                "| {kind} | {rm:.3} | {mean:.3} | {bm:.1} | {:.0}x | {:.0} | {:.3} | {restores} of {} |",
                bm / rm,
                median(&changed),
                median(&edit),
                rows.len()
            );
        }
    }
}
