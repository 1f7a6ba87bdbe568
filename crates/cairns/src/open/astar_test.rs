//! A small end-to-end check that every OPEN set runs: A* with the set under
//! test must find the same costs as A* with the default heap.

use super::OpenSet;
use crate::graph::NodeId;
use crate::grid::{Grid, GridGraph, Neighborhood};
use crate::heuristic::Octile;
use crate::search::Search;
use crate::search::{AStar, SearchCache};

/// A 10x8 map with walls, a dead end and two walled-in pockets: the cell
/// (9, 7) and the cells (7, 6) and (7, 7).
const MAP: &str = "
    ....@.....
    .@@.@.@@@.
    .@..@...@.
    .@.@@@@.@.
    ...@......
    @@.@.@@@@.
    ...@..@.@@
    .@....@.@.
";

/// Runs A* between every pair of a few cells (including walled-in ones)
/// with `open` and with the default heap, reusing each cache across
/// queries, and panics on the first cost that differs.
pub(crate) fn check<Q: OpenSet>(open: Q) {
    let graph = GridGraph::new(Grid::from_ascii(MAP).unwrap(), Neighborhood::Octile);
    let astar = AStar::new(&graph, Octile::new(&graph));
    let cells = [
        (0, 0),
        (9, 0),
        (2, 2),
        (5, 2),
        (0, 7),
        (9, 7),
        (4, 6),
        (7, 6),
        (9, 5),
    ];
    let nodes: Vec<NodeId> = cells
        .iter()
        .map(|&(x, y)| graph.node(x, y).unwrap())
        .collect();
    let mut expected = SearchCache::new();
    let mut cache = SearchCache::with_open(open);
    let mut reached = 0;
    for &start in &nodes {
        for &goal in &nodes {
            let want = astar.search_cost(start, goal, &mut expected);
            let got = astar.search_cost(start, goal, &mut cache);
            assert_eq!(got, want, "cost from {start} to {goal}");
            assert!(
                cache.open_set().len() <= graph.width() as usize * graph.height() as usize,
                "OPEN holds more entries than there are cells"
            );
            reached += usize::from(want.is_some());
        }
    }
    // Some pairs are connected and some are not.
    assert!(reached > 0 && reached < nodes.len() * nodes.len());
}
