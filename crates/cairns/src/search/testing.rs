//! What the tests of the preprocessed grid searches (JPS+, goal bounding,
//! subgoal graphs) share: a grid drawn by a closure, the proptest
//! strategies of random maps, the check of one search against Dijkstra
//! from a start to every cell, and the refusal of a table on a grid it was
//! not built for.

use proptest::prelude::*;

use super::{Dijkstra, Search, SearchCache};
use crate::graph::{Graph, NodeId};
use crate::grid::{Grid, GridGraph, Neighborhood, Tile};

/// An octile grid of `w x h` cells, blocked where `walls` says.
pub(crate) fn walled(w: u32, h: u32, mut walls: impl FnMut(u32, u32) -> bool) -> GridGraph {
    let tiles = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| {
            if walls(x, y) {
                Tile::Tree
            } else {
                Tile::Ground
            }
        })
        .collect();
    GridGraph::new(
        Grid::from_tiles(w, h, tiles).expect("a valid size"),
        Neighborhood::Octile,
    )
}

/// A 300x80 octile map with walls here and there: its saved tables take
/// more than one 64 KiB write block.
/// Turns each cell of `batch` (coordinates taken modulo the grid's size)
/// from passable to wall or back, in order: the cells edited, for a
/// table's `edited`/`repair`.
pub(crate) fn flip_cells(graph: &mut GridGraph, batch: &[(u32, u32)]) -> Vec<NodeId> {
    let mut edited = Vec::with_capacity(batch.len());
    for &(x, y) in batch {
        let (x, y) = (x % graph.width(), y % graph.height());
        let Some(n) = graph.node(x, y) else { continue };
        let tile = if graph.is_passable(n) {
            Tile::OutOfBounds
        } else {
            Tile::Ground
        };
        graph.set_tile(x, y, tile);
        edited.push(n);
    }
    edited
}

pub(crate) fn large_map() -> GridGraph {
    walled(300, 80, |x, y| (x * 7 + y * 3) % 11 == 0)
}

/// A start cell index below `cells` from any `start`.
fn start_in(start: usize, cells: u32) -> NodeId {
    NodeId((start % cells as usize) as u32)
}

/// Random obstacles, from none to `max_density` in a thousand, on grids of
/// 1 to `side - 1` cells a side, with a start cell: the proptest strategy
/// of the preprocessed searches' tests.
pub(crate) fn scattered(side: u32, max_density: u64) -> impl Strategy<Value = (GridGraph, NodeId)> {
    (
        1..side,
        1..side,
        0..max_density,
        any::<u64>(),
        any::<usize>(),
    )
        .prop_map(|(w, h, density, seed, start)| {
            let mut rng = crate::rng::SplitMix64::new(seed);
            let graph = walled(w, h, |_, _| rng.below(1000) < density);
            (graph, start_in(start, w * h))
        })
}

/// Rooms of side 2 to `max_room - 1` joined by doors and corridors one
/// cell wide (the runs jump points are made of, and many forced turns and
/// ties round the walls), on grids of 3 to `side - 1` cells a side, with a
/// start cell.
pub(crate) fn rooms(max_room: u32, side: u32) -> impl Strategy<Value = (GridGraph, NodeId)> {
    let doors = prop::collection::vec(any::<bool>(), 64);
    (2..max_room, 3..side, 3..side, doors, any::<usize>()).prop_map(|(room, w, h, doors, start)| {
        let graph = walled(w, h, |x, y| {
            let door = doors[((x / room + 7 * (y / room)) % 64) as usize];
            match (x % room == 0, y % room == 0) {
                (true, true) => true,
                (true, false) => !(door && y % room == room / 2),
                (false, true) => door || x % room != room / 2,
                (false, false) => false,
            }
        });
        (graph, start_in(start, w * h))
    })
}

/// Checks `search` against Dijkstra from `start` to every cell of `graph`:
/// the same costs, and paths that are real grid paths of that cost.
pub(crate) fn matches_dijkstra_from(
    graph: &GridGraph, search: &impl Search, start: NodeId,
) -> Result<(), String> {
    let mut reference = SearchCache::new();
    let mut cache = SearchCache::new();
    Dijkstra::new(graph).all(start, &mut reference);
    for n in 0..graph.node_bound() as u32 {
        let want = reference.g(NodeId(n));
        let got = search.search(start, NodeId(n), &mut cache);
        match (want, &got) {
            (Some(x), Some(p)) => {
                if (x - p.cost).abs() > 1e-9 {
                    return Err(format!("to {n}: {x} vs {}", p.cost));
                }
                if p.nodes.first() != Some(&start) || p.nodes.last() != Some(&NodeId(n)) {
                    return Err(format!("to {n}: endpoints of {:?}", p.nodes));
                }
                let mut cost = 0.0;
                for e in p.nodes.windows(2) {
                    let Some((_, c)) = graph.successors(e[0]).find(|m| m.0 == e[1]) else {
                        return Err(format!("to {n}: {:?} -> {:?} is not a move", e[0], e[1]));
                    };
                    cost += c;
                }
                if (cost - x).abs() > 1e-9 {
                    return Err(format!("to {n}: path costs {cost}, not {x}"));
                }
            }
            (None, None) => {}
            _ => return Err(format!("to {n}: {want:?} vs {:?}", got.map(|p| p.cost))),
        }
    }
    Ok(())
}

/// Runs `check` ([`matches_dijkstra_from`] of one search) from every cell
/// of open grids of each of `sizes`: single cells, one row, one column.
pub(crate) fn open_grids_match_dijkstra(
    check: impl Fn(&GridGraph, NodeId) -> Result<(), String>, sizes: &[(u32, u32)],
) {
    for &(w, h) in sizes {
        let graph = walled(w, h, |_, _| false);
        for s in 0..w * h {
            assert_eq!(check(&graph, NodeId(s)), Ok(()), "{w}x{h} from {s}");
        }
    }
}

/// Checks that a search over a table that `build` makes for one grid
/// refuses a grid of another size and a 4-connected grid, and takes the
/// grid it was built for (the table given by value: owned, where the
/// searches' other tests borrow it). `accepts(graph, table)` says whether
/// the search's constructor returns `Some`.
pub(crate) fn refuses_other_grids<T: Clone>(
    build: impl Fn(&GridGraph) -> T, accepts: impl Fn(&GridGraph, T) -> bool,
) {
    let a = walled(4, 3, |_, _| false);
    let table = build(&a);
    assert!(
        !accepts(&walled(3, 4, |_, _| false), table.clone()),
        "another size"
    );
    let four = crate::grid::testing::open_map(4, 3, Neighborhood::Four);
    assert!(!accepts(&four, table.clone()), "4-connected");
    assert!(accepts(&a, table), "its own grid");
}

/// The two property tests every preprocessed grid search has, for
/// `check(&graph, start)`, a check of the search against Dijkstra from
/// `start` ([`matches_dijkstra_from`]): on [`scattered`] obstacles and on
/// [`rooms`], with their sizes, `cases` of each.
macro_rules! proptest_against_dijkstra {
    ($check:path, cases = $cases:expr, scattered $scattered:tt, rooms $rooms:tt) => {
        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases($cases))]
            /// Random obstacles, dense or sparse, on grids small enough
            /// that every run meets the border.
            #[test]
            fn random_obstacles_match_dijkstra(
                (graph, start) in $crate::search::testing::scattered $scattered
            ) {
                proptest::prop_assert_eq!($check(&graph, start), Ok(()));
            }

            /// Rooms joined by doors and corridors one cell wide: many
            /// forced turns, and ties between the ways round a wall.
            #[test]
            fn rooms_and_corridors_match_dijkstra(
                (graph, start) in $crate::search::testing::rooms $rooms
            ) {
                proptest::prop_assert_eq!($check(&graph, start), Ok(()));
            }
        }
    };
}
pub(crate) use proptest_against_dijkstra;
