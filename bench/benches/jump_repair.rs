//! One-cell wall edits on a JPS+ jump table: `JumpTable::repair` against
//! `JumpTable::build`, every repaired table checked equal to the built one,
//! and the whole edit through `Engine::edited` (the map copied and edited,
//! the table shared with the old engine and repaired, the engine made
//! again), then two searchers that take up the edit: one replaced by a
//! searcher of the edited engine (its cache made for the map, the old
//! searcher dropped) and one switched to it keeping its cache
//! (`EngineSearcher::switch_to`), whose first queries' costs are checked
//! against a fresh engine's.
//!
//! ```text
//! cargo bench -p cairns-bench --bench jump_repair -- [MAP...] [--edits N] [--seed S]
//! ```
//!
//! MAP is a map of the data directory; the default is three 512x512 maps.
//! `--edits` times (40) a random passable cell is closed and then opened
//! again; each of the `2 N` edits is timed three ways. Reported per map:
//! the median repair, build and engine-edit times, the ratio of the
//! build to the repair, and the median times to hand out a searcher of
//! the edited engine (`Engine::searcher`) and to switch one to it
//! (`EngineSearcher::switch_to`): what a searcher pays before its next
//! query.

use std::time::Instant;

use cairns::graph::{Graph, NodeId};
use cairns::grid::Tile;
use cairns::movingai::runner::median;
use cairns::rng::SplitMix64;
use cairns::search::{JumpTable, Searcher};
use cairns_bench::{edit_args, jps_plus_engine, octile_map, print_table_head};

fn main() {
    let (maps, edits, seed) = edit_args(&[
        "street/Berlin_0_512.map",
        "maze/maze512-1-0.map",
        "room/16room_000.map",
    ]);
    println!("one-cell edits, {edits} cells closed and opened again per map, seed {seed}");
    println!(
        "every repaired table checked equal to a new build; every edited engine's first answer to a fresh engine's"
    );
    println!();
    print_table_head(&[
        "map",
        "repair median ms",
        "build median ms",
        "build / repair",
        "Engine::edited median ms",
        "Engine::searcher median ms",
        "switch_to median ms",
        "old engine dropped median ms",
    ]);
    for map in maps {
        let mut graph = octile_map(&map);
        let mut table = JumpTable::build(&graph);
        let mut engine = jps_plus_engine(&graph);
        let mut rng = SplitMix64::new(seed);
        let (mut repair, mut build, mut edited) = (Vec::new(), Vec::new(), Vec::new());
        let (mut searchers, mut switches, mut drops) = (Vec::new(), Vec::new(), Vec::new());
        let free: Vec<NodeId> = (0..graph.node_bound() as u32)
            .map(NodeId)
            .filter(|&n| graph.is_passable(n))
            .collect();
        // Two searchers that take up each edit: one replaced by a new
        // searcher, one switched keeping its cache.
        let (mut replaced, mut follower) = (engine.searcher(), engine.searcher());
        let (first, last) = (free[0], free[free.len() - 1]);
        assert_eq!(
            replaced.search_cost(first, last),
            follower.search_cost(first, last)
        );
        for _ in 0..edits {
            let cell = free[rng.index(free.len())];
            let (x, y) = graph.coords(cell);
            for tile in [Tile::Tree, Tile::Ground] {
                graph.set_tile(x, y, tile);
                let t0 = Instant::now();
                table.repair(&graph, &[cell]);
                repair.push(t0.elapsed().as_secs_f64() * 1e3);
                let t0 = Instant::now();
                let built = JumpTable::build(&graph);
                build.push(t0.elapsed().as_secs_f64() * 1e3);
                assert!(
                    table == built,
                    "{map}: the repair at ({x}, {y}) differs from a build"
                );
                let t0 = Instant::now();
                let edited_engine = engine.edited(&[(x, y, tile)]).expect("an edit");
                edited.push(t0.elapsed().as_secs_f64() * 1e3);
                let (a, b) = (free[rng.index(free.len())], free[rng.index(free.len())]);
                let t0 = Instant::now();
                // The old engine is dropped after the searchers' timings,
                // so that neither has it, and timed on its own: a game pays
                // it when its last searcher moves to the edited engine.
                let previous = std::mem::replace(&mut engine, edited_engine);
                replaced = engine.searcher();
                searchers.push(t0.elapsed().as_secs_f64() * 1e3);
                let t0 = Instant::now();
                follower.switch_to(&engine);
                switches.push(t0.elapsed().as_secs_f64() * 1e3);
                let t0 = Instant::now();
                drop(previous);
                drops.push(t0.elapsed().as_secs_f64() * 1e3);
                let fresh = jps_plus_engine(&graph);
                let want = fresh.searcher().search_cost(a, b);
                assert_eq!(
                    replaced.search_cost(a, b),
                    want,
                    "{map}: a query after the edit at ({x}, {y})"
                );
                assert_eq!(
                    follower.search_cost(a, b),
                    want,
                    "{map}: a switched searcher's query after the edit at ({x}, {y})"
                );
            }
        }
        let (r, b) = (median(&repair), median(&build));
        println!(
            "| {map} | {r:.4} | {b:.2} | {:.0}x | {:.2} | {:.2} | {:.3} | {:.3} |",
            b / r,
            median(&edited),
            median(&searchers),
            median(&switches),
            median(&drops)
        );
    }
}
