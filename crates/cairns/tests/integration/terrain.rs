//! Terrain costs on grids: the move-cost rule checked edge by edge from the
//! cell costs, every search the spec allows on a weighted grid checked
//! against Dijkstra on the same costs (random grids and Moving AI maps with
//! terrain), and the searches that cannot be optimal there refused.

use cairns::grid::DIAGONAL;

use cairns::graph::{Graph, NodeId};
use cairns::grid::{Grid, GridGraph, Neighborhood, Tile, TileCosts};
use cairns::heuristic::{Heuristic, Octile};
use cairns::movingai::runner::{self, Instance, Reference};
use cairns::search::{Dijkstra, SearchCache};
use cairns::spec::{Algorithm, SearchSpec, SpecErrorKind};
use proptest::prelude::*;

use super::{scen_files, short};

/// The searches a weighted grid allows, each checked against Dijkstra.
const ALLOWED: [&str; 7] = [
    "astar",
    "astar/octile/pairing-heap",
    "astar/euclidean",
    "astar/zero",
    "astar/dh:2",
    "astar/dh:3:sampled",
    "dijkstra",
];

/// The cost of every move of `g`, recomputed from the cell costs by the
/// documented rule (not by the graph's own tables): `(a + b) / 2` times
/// the move's length.
fn check_moves(g: &GridGraph, cells: &[f64]) -> Result<(), TestCaseError> {
    let w = i64::from(g.width());
    for u in 0..g.node_bound() as u32 {
        for (v, cost) in g.successors(NodeId(u)) {
            let (du, dv) = (i64::from(u), i64::from(v.0));
            let diagonal = (du % w - dv % w).abs() == 1 && (du / w - dv / w).abs() == 1;
            let length = if diagonal { DIAGONAL } else { 1.0 };
            let want = length * (cells[u as usize] + cells[v.index()]) / 2.0;
            prop_assert!(
                (cost - want).abs() < 1e-12,
                "{u} -> {}: {cost} vs {want}",
                v.0
            );
            prop_assert!(cells[v.index()].is_finite() && cells[u as usize].is_finite());
        }
    }
    Ok(())
}

/// Every allowed spec on `g` from `start` to every node, against Dijkstra.
fn check_searches(g: &GridGraph, start: NodeId) -> Result<(), TestCaseError> {
    let mut cache = SearchCache::new();
    Dijkstra::new(g).all(start, &mut cache);
    let reference: Vec<Option<f64>> = (0..g.node_bound() as u32)
        .map(|n| cache.g(NodeId(n)))
        .collect();
    let mut specs: Vec<&str> = ALLOWED.to_vec();
    if g.neighborhood() == Neighborhood::Four {
        specs.push("astar/manhattan");
    }
    for spec in specs {
        let spec: SearchSpec = spec.parse().unwrap();
        // Landmark placement needs as many cells with a move as landmarks.
        let Ok(prepared) = spec.prepare(g) else {
            continue;
        };
        let mut searcher = prepared.searcher();
        for (goal, &want) in reference.iter().enumerate() {
            let got = searcher.search_cost(start, NodeId(goal as u32));
            let same = match (want, got) {
                (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.max(1.0),
                (None, None) => true,
                _ => false,
            };
            prop_assert!(same, "{spec} to {goal}: {got:?}, dijkstra {want:?}");
        }
    }
    Ok(())
}

/// Jump points, canonical ordering and breadth-first search are refused on
/// a grid with terrain, with a reason; allowed without.
fn check_refusals(g: &GridGraph) -> Result<(), TestCaseError> {
    for algorithm in [
        Algorithm::Jps,
        Algorithm::JpsPlus,
        Algorithm::Subgoals,
        Algorithm::JpsBounds,
        Algorithm::Canonical,
        Algorithm::Bfs,
    ] {
        let spec = SearchSpec::new(algorithm);
        match spec.check_terrain(g) {
            Ok(()) => prop_assert!(!g.has_terrain()),
            Err(e) => {
                prop_assert!(g.has_terrain());
                prop_assert!(
                    matches!(e.kind(), SpecErrorKind::Unsupported { .. }),
                    "{}",
                    e
                );
                prop_assert!(e.to_string().contains("terrain costs"), "{e}");
                prop_assert!(spec.prepare(g).is_err());
            }
        }
    }
    Ok(())
}

fn cost_strategy() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(1.0),
        Just(0.25),
        Just(2.5),
        Just(7.0),
        Just(f64::INFINITY),
        (1u32..40).prop_map(|c| f64::from(c) / 8.0),
    ]
}

/// A grid of 1 to `side - 1` cells a side, a value of the strategy `cell`
/// makes for each of its cells, and a cell index below its size.
fn sized_grid<S: Strategy>(
    side: u32, cell: impl Fn() -> S,
) -> impl Strategy<Value = (u32, u32, Vec<S::Value>, u32)> {
    (1..side, 1..side).prop_flat_map(move |(w, h)| {
        let cells = proptest::collection::vec(cell(), (w * h) as usize);
        (Just(w), Just(h), cells, 0..w * h)
    })
}

/// [`sized_grid`] of cell costs.
fn cost_grid(side: u32) -> impl Strategy<Value = (u32, u32, Vec<f64>, u32)> {
    sized_grid(side, cost_strategy)
}

/// The checks of a map with terrain costs `cells`: its moves, its searches
/// from `start` against Dijkstra, and the searches that refuse it.
fn check_all(g: &GridGraph, cells: &[f64], start: NodeId) -> Result<(), TestCaseError> {
    check_moves(g, cells)?;
    check_searches(g, start)?;
    check_refusals(g)
}

fn neighborhood() -> impl Strategy<Value = Neighborhood> {
    prop_oneof![Just(Neighborhood::Octile), Just(Neighborhood::Four)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// A per-cell cost array, costs below 1 included (so an unscaled
    /// octile heuristic would overestimate).
    #[test]
    fn weighted_cells_match_dijkstra((w, h, cells, start) in cost_grid(12), nb in neighborhood()) {
        let grid = Grid::filled(w, h, Tile::Ground).unwrap();
        let g = GridGraph::with_cell_costs(grid, nb, cells.clone()).unwrap();
        for (node, cost) in cells.iter().enumerate() {
            prop_assert_eq!(g.is_passable(NodeId(node as u32)), cost.is_finite());
        }
        let finite = cells.iter().copied().filter(|c| c.is_finite());
        let min = finite.fold(f64::INFINITY, f64::min);
        if min.is_finite() {
            prop_assert_eq!(g.min_cost(), min);
        }
        check_all(&g, &cells, NodeId(start))?;
    }

    /// Moving AI letters with a cost table, walls included.
    #[test]
    fn tile_costs_match_dijkstra(
        (w, h, tiles, start) in sized_grid(12, || proptest::sample::select(vec!['.', 'S', 'W', 'T', '@'])),
        s in cost_strategy(),
        water in cost_strategy(),
        trees in cost_strategy(),
        nb in neighborhood(),
    ) {
        let tiles: Vec<Tile> = tiles.iter().map(|&c| Tile::from_char(c).unwrap()).collect();
        let grid = Grid::from_tiles(w, h, tiles.clone()).unwrap();
        let costs = TileCosts::default()
            .with(Tile::Swamp, s).unwrap()
            .with(Tile::Water, water).unwrap()
            .with(Tile::Tree, trees).unwrap();
        let g = GridGraph::with_terrain(grid, nb, &costs);
        let cells: Vec<f64> = tiles.iter().map(|&t| costs.cost(t)).collect();
        check_all(&g, &cells, NodeId(start))?;
    }

    /// The octile heuristic built from a weighted graph is admissible and
    /// consistent: `h(u) <= d(u, goal)` and `h(u) <= cost(u, v) + h(v)`.
    #[test]
    fn scaled_octile_is_admissible_and_consistent((w, h, costs, goal) in cost_grid(10)) {
        let n = w * h;
        let grid = Grid::filled(w, h, Tile::Ground).unwrap();
        let g = GridGraph::with_cell_costs(grid, Neighborhood::Octile, costs).unwrap();
        let goal = NodeId(goal);
        let octile = Octile::new(&g);
        let target = octile.goal(goal);
        let mut cache = SearchCache::new();
        // Moves are symmetric, so distances from the goal are distances to it.
        Dijkstra::new(&g).all(goal, &mut cache);
        for u in 0..n {
            let hu = octile.estimate(NodeId(u), &target);
            if let Some(d) = cache.g(NodeId(u)) {
                prop_assert!(hu <= d + 1e-9, "h({u}) = {hu} > d = {d}");
            }
            for (v, c) in g.successors(NodeId(u)) {
                prop_assert!(hu <= c + octile.estimate(v, &target) + 1e-9);
            }
        }
    }
}

#[test]
fn moving_ai_rule_as_terrain_is_the_plain_grid() {
    let grid = Grid::from_ascii(
        "
        ..S..
        .@T@.
        ..W..
        ",
    )
    .unwrap();
    let plain = GridGraph::new(grid.clone(), Neighborhood::Octile);
    let same = GridGraph::with_terrain(grid.clone(), Neighborhood::Octile, &TileCosts::default());
    assert!(!same.has_terrain());
    assert_eq!(same.min_cost(), 1.0);
    for u in 0..plain.node_bound() as u32 {
        let a: Vec<_> = plain.successors(NodeId(u)).collect();
        let b: Vec<_> = same.successors(NodeId(u)).collect();
        assert_eq!(a, b);
    }
    // Trees at cost 1 are passable: the costs are uniform, but the
    // passability is not the Moving AI rule's, so the terrain is kept.
    let trees: TileCosts = "T=1".parse().unwrap();
    let g = GridGraph::with_terrain(grid, Neighborhood::Octile, &trees);
    assert!(g.has_terrain());
    assert!(g.is_passable(g.node(2, 1).unwrap()));
}

#[test]
fn cell_cost_arrays_are_checked() {
    let grid = Grid::filled(3, 2, Tile::Ground).unwrap();
    let err =
        GridGraph::with_cell_costs(grid.clone(), Neighborhood::Octile, vec![1.0; 5]).unwrap_err();
    assert_eq!(err.to_string(), "the grid has 6 cells, got 5 costs");
    for bad in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
        let mut costs = vec![1.0; 6];
        costs[4] = bad;
        let err =
            GridGraph::with_cell_costs(grid.clone(), Neighborhood::Octile, costs).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cell (1, 1): the cost must be a positive number or inf"),
            "{err}"
        );
    }
}

#[test]
fn set_tile_takes_the_cost_of_the_new_tile() {
    let grid = Grid::filled(4, 1, Tile::Ground).unwrap();
    let costs: TileCosts = "S=3,T=0.5".parse().unwrap();
    let mut g = GridGraph::with_terrain(grid, Neighborhood::Octile, &costs);
    let (a, b) = (g.node(0, 0).unwrap(), g.node(3, 0).unwrap());
    // All ground: uniform, so no terrain yet, but the costs are kept.
    assert!(!g.has_terrain());
    assert_eq!(g.tile_costs(), costs);
    // A tile the costs price as the Moving AI rule does leaves it so.
    assert!(g.set_tile(2, 0, Tile::Ground));
    assert!(!g.has_terrain());
    // The first swamp costs 3, not the Moving AI rule's 1: the terrain
    // comes on, and every move is priced.
    assert!(g.set_tile(1, 0, Tile::Swamp));
    assert!(g.has_terrain());
    assert_eq!(g.cell_cost(g.node(1, 0).unwrap()), 3.0);
    {
        let mut cache = SearchCache::new();
        Dijkstra::new(&g).all(a, &mut cache);
        // 2 + 2 + 1 across the swamp.
        assert_eq!(cache.g(b), Some(5.0));
    }
    let mut g = GridGraph::with_terrain(
        Grid::from_ascii("S...").unwrap(),
        Neighborhood::Octile,
        &costs,
    );
    assert!(g.has_terrain());
    let dijkstra = |g: &GridGraph| {
        let mut cache = SearchCache::new();
        Dijkstra::new(g).all(a, &mut cache);
        cache.g(b)
    };
    // 2 + 1 + 1 = 4 across, from the swamp.
    assert_eq!(dijkstra(&g), Some(4.0));
    assert!(g.set_tile(2, 0, Tile::Tree));
    assert_eq!(g.cell_cost(g.node(2, 0).unwrap()), 0.5);
    assert_eq!(g.min_cost(), 0.5);
    // 2 + 0.75 + 0.75 = 3.5.
    assert_eq!(dijkstra(&g), Some(3.5));
    assert!(g.set_tile(2, 0, Tile::OutOfBounds));
    assert_eq!(dijkstra(&g), None);
    assert!(!g.may_reach(a, b), "components follow the terrain");
}

/// Moving AI maps with terrain: trees made passable at cost 3, and the
/// same maps with a seeded random cost on every passable cell (some below
/// 1), every allowed search against Dijkstra on a sample of the scenarios.
#[test]
fn moving_ai_maps_with_terrain_match_dijkstra() {
    let trees: TileCosts = "T=3,W=2".parse().unwrap();
    let mut checked = 0;
    for file in scen_files("dao").into_iter().step_by(40) {
        let mut plain = Instance::load(&file, None, 1).unwrap_or_else(|e| panic!("{e}"));
        plain.keep_at_most(12);
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        let cells: Vec<f64> = (0..plain.graph.node_bound() as u32)
            .map(|n| {
                rng = rng
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let c = [0.5, 1.0, 2.0, 4.0][(rng >> 62) as usize];
                if plain.graph.is_passable(NodeId(n)) {
                    c
                } else {
                    f64::INFINITY
                }
            })
            .collect();
        let grid = plain.graph.grid().clone();
        let mut random = Instance::load(&file, None, 1).unwrap();
        random.keep_at_most(12);
        random.graph = GridGraph::with_cell_costs(grid, Neighborhood::Octile, cells).unwrap();
        let with_trees = plain.with_terrain(&trees);
        for inst in [&with_trees, &random] {
            assert!(inst.graph.has_terrain(), "{}", short(&file));
            for spec in ["astar", "astar/dh:4"] {
                let spec: SearchSpec = spec.parse().unwrap();
                let prepared = spec.prepare(&inst.graph).unwrap();
                let mut searcher = prepared.searcher();
                let summary = runner::run(inst, &mut *searcher, Reference::Dijkstra, &mut |_| {});
                assert!(
                    summary.mismatches.is_empty(),
                    "{}: {spec}: {:?}",
                    short(&file),
                    summary.mismatches
                );
                checked += summary.queries;
            }
        }
    }
    assert!(checked > 0, "no scenarios checked");
}
