//! Agents larger than one cell ([`GridGraph::with_size`]): every search and
//! table the rule accepts, at sizes 1 to 4, against a Dijkstra that moves
//! the agent's block over the map itself (no clearance, no derived grid),
//! before and after wall edits through the engine.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use cairns::grid::{DIAGONAL, Grid, GridGraph, Neighborhood, Tile};
use cairns::search::Searcher;
use cairns::spec::{Engine, SearchSpec};
use proptest::prelude::*;

/// Whether the `k` x `k` block with top-left cell `(x, y)` is on `map` and
/// free.
fn block_free(map: &Grid, x: i64, y: i64, k: i64) -> bool {
    (y..y + k).all(|cy| {
        (x..x + k).all(|cx| {
            cx >= 0 && cy >= 0 && map.get(cx as u32, cy as u32).is_some_and(Tile::is_passable)
        })
    })
}

/// The cost of moving a `k` x `k` block from `start` to every top-left
/// cell of `map` under `rule`, by the block rules: a move needs the block
/// it enters free; a diagonal, without corner cutting, both blocks beside
/// it, with it one of them; squeezing, neither.
fn block_costs(map: &Grid, rule: Neighborhood, k: u32, start: (u32, u32)) -> Vec<f64> {
    let (w, h, k) = (
        i64::from(map.width()),
        i64::from(map.height()),
        i64::from(k),
    );
    let mut dist = vec![f64::INFINITY; (w * h) as usize];
    let at = |x: i64, y: i64| (y * w + x) as usize;
    let mut heap = BinaryHeap::new();
    let (sx, sy) = (i64::from(start.0), i64::from(start.1));
    dist[at(sx, sy)] = 0.0;
    heap.push(Reverse((0f64.to_bits(), sx, sy)));
    while let Some(Reverse((bits, x, y))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[at(x, y)] {
            continue;
        }
        let moves = (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)));
        for (dx, dy) in moves.filter(|&m| m != (0, 0)) {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= w || ny >= h || !block_free(map, nx, ny, k) {
                continue;
            }
            let cost = if dx != 0 && dy != 0 {
                let sides = (block_free(map, x + dx, y, k), block_free(map, x, y + dy, k));
                let legal = match rule {
                    Neighborhood::Four => false,
                    Neighborhood::Octile => sides.0 && sides.1,
                    Neighborhood::OctileCornerCutting => sides.0 || sides.1,
                    Neighborhood::OctileSqueeze => true,
                };
                if !legal {
                    continue;
                }
                DIAGONAL
            } else {
                1.0
            };
            if d + cost < dist[at(nx, ny)] {
                dist[at(nx, ny)] = d + cost;
                heap.push(Reverse(((d + cost).to_bits(), nx, ny)));
            }
        }
    }
    dist
}

/// The specs that serve `rule`: every tier on octile movement; jump
/// points (scanned and over a jump table), the heuristic searches and
/// landmarks on the others.
fn specs(rule: Neighborhood) -> &'static [&'static str] {
    match rule {
        Neighborhood::Octile => &[
            "astar",
            "dijkstra",
            "canonical",
            "jps",
            "jps+",
            "jps+bb",
            "sub",
            "astar/dh:3",
            "jps+/dh:3",
        ],
        _ => &[
            "astar",
            "dijkstra",
            "jps",
            "jps/dh:3",
            "jps+",
            "jps+/dh:3",
            "astar/dh:3",
        ],
    }
}

/// Checks that the engine of `spec` on `graph` (a graph for a size-`k`
/// agent) answers the block costs from `start` to every top-left cell.
fn check(engine: &Engine, k: u32, start: (u32, u32)) -> Result<(), TestCaseError> {
    let graph = engine.graph();
    let expected = block_costs(graph.map(), graph.neighborhood(), k, start);
    let mut searcher = engine.searcher();
    let s = graph.node(start.0, start.1).unwrap();
    for (i, &want) in expected.iter().enumerate() {
        let goal = cairns::graph::NodeId(i as u32);
        let open = block_free(
            graph.map(),
            i64::from(graph.coords(goal).0),
            i64::from(graph.coords(goal).1),
            i64::from(k),
        );
        prop_assert_eq!(
            graph.is_passable(goal),
            open,
            "cell {:?}",
            graph.coords(goal)
        );
        let found = searcher.search_cost(s, goal).unwrap_or(f64::INFINITY);
        prop_assert!(
            found == want || (found - want).abs() < 1e-9,
            "{} size {} from {:?} to {:?}: {} against the block rule's {}",
            engine.spec(),
            k,
            start,
            graph.coords(goal),
            found,
            want
        );
    }
    Ok(())
}

/// A map, its rule, the agent's size, a start and the cells to flip.
type Case = (Grid, Neighborhood, u32, (u32, u32), Vec<(u32, u32)>);

/// A random map of up to 11x11 cells, a rule, a size, a start and some
/// cells to flip.
fn case() -> impl Strategy<Value = Case> {
    (
        3u32..=11,
        3u32..=11,
        0.0f64..0.35,
        0..Neighborhood::ALL.len(),
        1u32..=4,
    )
        .prop_flat_map(|(w, h, density, rule, k)| {
            (
                prop::collection::vec(prop::bool::weighted(density), (w * h) as usize),
                Just((w, h, rule, k)),
                (0..w, 0..h),
                prop::collection::vec((0..w, 0..h), 1..6),
            )
        })
        .prop_map(|(walls, (w, h, rule, k), start, flips)| {
            let map = Grid::from_walls(w, h, walls).unwrap();
            (map, Neighborhood::ALL[rule], k, start, flips)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every spec the rule accepts, on the graph for a size, gives the
    /// block rule's costs, and again after cells of the map are flipped
    /// through the engine (its tables repaired or rebuilt), from a start
    /// open to the agent.
    #[test]
    fn every_search_at_every_size_moves_the_block_by_its_rule(
        (map, rule, k, start, flips) in case(),
    ) {
        let graph = GridGraph::new(map, rule).with_size(k).unwrap();
        // The first cell open to the agent from `start` on, in id order.
        let n = graph.width() * graph.height();
        let from = start.1 * graph.width() + start.0;
        let Some(open) = (0..n)
            .map(|i| cairns::graph::NodeId((from + i) % n))
            .find(|&v| graph.is_passable(v))
        else {
            for v in (0..n).map(cairns::graph::NodeId) {
                let (x, y) = graph.coords(v);
                prop_assert!(!block_free(graph.map(), i64::from(x), i64::from(y), i64::from(k)));
            }
            return Ok(());
        };
        let start = graph.coords(open);
        let edits: Vec<(u32, u32, Tile)> = flips
            .iter()
            .filter(|&&c| c != start)
            .map(|&(x, y)| (x, y, Tile::wall_if(graph.map().is_passable(x, y))))
            .collect();
        for name in specs(rule) {
            let spec: SearchSpec = name.parse().unwrap();
            let engine = match Engine::new(graph.clone(), &spec) {
                Ok(engine) => engine,
                // Too few cells with a move for the landmarks: the one
                // refusal a small map may earn.
                Err(e) if name.contains("dh:") && e.to_string().contains("cannot place") => continue,
                Err(e) => return Err(TestCaseError::fail(format!("{name}: {e}"))),
            };
            check(&engine, k, start)?;
            let edited = engine.edited(&edits).unwrap();
            prop_assert_eq!(edited.graph().size(), k);
            let s = edited.graph().node(start.0, start.1).unwrap();
            if edited.graph().is_passable(s) {
                check(&edited, k, start)?;
                if let Some(filled) = edited.filled_within(std::time::Duration::from_secs(5)).unwrap() {
                    check(&filled, k, start)?;
                }
            }
        }
    }
}

/// Size 1 is the graph itself; 0, 256 and a size with terrain are refused
/// with the reason.
#[test]
fn sizes_out_of_range_and_terrain_are_refused() {
    let graph = GridGraph::from_ascii("....\n..@.\n....", Neighborhood::Octile).unwrap();
    assert_eq!(graph.clone().with_size(1).unwrap().size(), 1);
    // Sizes set from the map, not from the grid another size sees.
    let two = graph.clone().with_size(2).unwrap();
    let back = two.clone().with_size(1).unwrap();
    assert_eq!((back.size(), back.grid()), (1, graph.grid()));
    let three = two.with_size(3).unwrap();
    assert_eq!(three.map(), graph.grid());
    assert_eq!(three.grid().passable_count(), 0);
    for bad in [0, 256] {
        let err = graph.clone().with_size(bad).unwrap_err();
        assert!(err.to_string().contains("from 1 to 255"), "{err}");
    }
    let costs = "S=3".parse().unwrap();
    let swamp = GridGraph::with_terrain(
        Grid::from_ascii("..S.\n....").unwrap(),
        Neighborhood::Octile,
        &costs,
    );
    let err = swamp.with_size(2).unwrap_err();
    assert!(err.to_string().contains("terrain"), "{err}");
}
