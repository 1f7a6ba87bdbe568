//! Agents larger than one cell against the map written for them by hand:
//! each tier on `GridGraph::with_size(k)` of a map, and the same tier at
//! size 1 on the map whose open cells are those whose k x k block is free
//! (found here cell by cell, without clearances), on the same queries in
//! the same run, in turn; every cost checked against Dijkstra on the sized
//! graph. Sizes should cost nothing over the map they stand for.
//!
//! ```text
//! cargo bench -p cairns-bench --bench sizes -- [FILE.map.scen...] [--every N] [--specs jps,jps+] [--sizes 2,3]
//! ```
//!
//! Defaults: `den520d` (dao), `Berlin_0_512` (street) and `32room_000` (room),
//! every 10th scenario (those open to the agent), sizes 2 and 3, specs
//! `astar`, `jps`, `jps+`, `jps+bb` and `sub` (tables with their default
//! budgets). Per map, size and spec it prints the median time per query of
//! each side and the median per-query ratio (size k / derived map); at the
//! end, per size and spec, the geometric mean of the ratios over the maps.

use cairns::grid::{Grid, GridGraph, Neighborhood, Tile};
use cairns::movingai::runner::{Checker, Instance, Reference};
use cairns::spec::Engine;
use cairns_bench::{BenchArgs, RatioTable, alternated_engines, load_file};

/// The map whose open cells are those of `map` whose `k` x `k` block is on
/// the map and free.
fn derived(map: &Grid, k: u32) -> Grid {
    let free = |x: u32, y: u32| {
        (y..y + k).all(|cy| (x..x + k).all(|cx| map.get(cx, cy).is_some_and(Tile::is_passable)))
    };
    let (w, h) = (map.width(), map.height());
    let walls = (0..h).flat_map(|y| (0..w).map(move |x| !free(x, y)));
    Grid::from_walls(w, h, walls).expect("the map's own size")
}

fn main() {
    let args = BenchArgs::from_env(&["--every", "--specs", "--sizes"]);
    let every = args.every.unwrap_or(10);
    // The positional arguments are files here, not sets.
    let files = args.sets_or(&[
        "dao/den520d.map.scen",
        "street/Berlin_0_512.map.scen",
        "room/32room_000.map.scen",
    ]);
    let sizes: Vec<u32> = args.get_list("--sizes").unwrap_or_else(|| vec![2, 3]);
    let (names, specs) = args.specs_or(&["astar", "jps", "jps+", "jps+bb", "sub"]);
    for &k in &sizes {
        let mut table = RatioTable::new(&names, ["derived map", "with_size"]);
        let header = table.start_set();
        println!(
            "\n== size {k}: every {every} scenario(s) open to the agent; median us per query ==\n{header}"
        );
        for file in &files {
            let sized = load_file(file, every).for_size(k).expect("a size in range");
            let by_hand = GridGraph::new(derived(sized.graph.map(), k), Neighborhood::Octile);
            assert!(
                (0..by_hand.grid().len()).all(|i| {
                    let v = cairns::graph::NodeId(i as u32);
                    by_hand.is_passable(v) == sized.graph.is_passable(v)
                }),
                "{file}: the map by hand and with_size({k}) differ"
            );
            let plain = Instance {
                name: sized.name.clone(),
                scen_path: sized.scen_path.clone(),
                map_path: sized.map_path.clone(),
                graph: by_hand,
                queries: sized.queries.clone(),
                data_errors: Vec::new(),
            };
            for (i, spec) in specs.iter().enumerate() {
                let a = Engine::new(plain.graph.clone(), spec).expect("the spec runs on the map");
                let b = Engine::new(sized.graph.clone(), spec).expect("the spec runs on the map");
                let mut checker = Checker::new(&sized.graph, Reference::Dijkstra);
                let paired = alternated_engines(
                    &sized,
                    &mut checker,
                    [("derived map", &a), ("with_size", &b)],
                );
                println!("{}", table.row(i, &sized, &paired));
            }
        }
        println!("{}", table.summary(&format!("size {k}")).join("\n"));
    }
}
