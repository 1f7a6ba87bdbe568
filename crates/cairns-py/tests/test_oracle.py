"""Costs and paths against networkx on random grids: octile without corner
cutting (diagonals sqrt(2)) and 4-connected, walls and terrain costs."""

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cairns_path as cp
from conftest import REL, cost_grids, engines, free_cells, oracle, path_cost, wall_grids

OCTILE_SPECS = ["astar", "dijkstra", "canonical", "jps", "jps+", "jps+bb", "sub", "astar/dh:2", "jps/dh:2/pairing-heap"]
FOUR_SPECS = ["astar", "dijkstra", "bfs", "astar/manhattan", "astar/dh:2", "jps", "jps/dh:2", "jps+", "jps+/dh:2"]
TERRAIN_SPECS = ["astar", "dijkstra", "astar/dh:2"]
CUT_SPECS = ["astar", "dijkstra", "astar/euclidean", "astar/dh:2", "focal@1", "jps", "jps/dh:2", "jps+", "jps+/dh:2"]


def check_against_networkx(costs, movement, specs, pairs):
    graph = oracle(costs, movement)
    grid = cp.Grid(costs, movement)
    for engine in engines(grid, specs):
        spec = engine.spec
        for s, g in pairs:
            try:
                want = nx.dijkstra_path_length(graph, s, g)
            except nx.NetworkXNoPath:
                want = math.inf
            path, cost = engine.path(s, g)
            if math.isinf(want):
                assert math.isinf(cost) and path.shape == (0, 2), (spec, s, g)
                continue
            assert cost == pytest.approx(want, rel=REL), (spec, s, g)
            assert path[0].tolist() == list(s) and path[-1].tolist() == list(g)
            assert path_cost(path, costs, movement) == pytest.approx(want, rel=REL), (spec, s, g)
        starts = np.array([s for s, _ in pairs])
        goals = np.array([g for _, g in pairs])
        batch = engine.costs(starts, goals)
        single = [engine.cost(s, g) for s, g in pairs]
        assert batch.tolist() == single


def sample_pairs(cells, data, n=6):
    if not cells:
        return []
    pick = st.sampled_from(cells)
    return [(data.draw(pick), data.draw(pick)) for _ in range(n)]


def some_cells(walls, data):
    """One to three free cells of `walls` (the example is dropped when none is free)."""
    cells = free_cells(walls)
    assume(cells)
    return data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3))


# jps, jps+, jps+bb, sub and canonical need a grid without terrain: a wall grid given
# as costs of 1 and inf is one.
@pytest.mark.parametrize(
    ("movement", "specs"),
    [("octile", OCTILE_SPECS), ("4", FOUR_SPECS), ("octile-cut", CUT_SPECS), ("octile-squeeze", CUT_SPECS)],
)
@settings(max_examples=60, deadline=None)
@given(walls=wall_grids(), data=st.data())
def test_wall_grid_costs_match_networkx(movement, specs, walls, data):
    pairs = sample_pairs(free_cells(walls), data)
    check_against_networkx(np.where(walls, np.inf, 1.0), movement, specs, pairs)


@settings(max_examples=40, deadline=None)
@given(costs=cost_grids(), movement=st.sampled_from(["octile", "4"]), data=st.data())
def test_terrain_costs_match_networkx(costs, movement, data):
    pairs = sample_pairs(free_cells(~np.isfinite(costs)), data)
    check_against_networkx(costs, movement, TERRAIN_SPECS, pairs)


@settings(max_examples=30, deadline=None)
@given(walls=wall_grids(), data=st.data())
def test_distance_field_matches_networkx(walls, data):
    goals = some_cells(walls, data)
    grid = cp.Grid(walls)
    distance, step = grid.field(goals)
    graph = oracle(np.where(walls, np.inf, 1.0), "octile")
    want = nx.multi_source_dijkstra_path_length(graph, set(goals))
    h, w = walls.shape
    for y in range(h):
        for x in range(w):
            if (x, y) in want:
                assert distance[y, x] == pytest.approx(want[(x, y)], rel=REL, abs=1e-9)
                if (x, y) in goals:
                    assert step[y, x].tolist() == [-1, -1]
                else:
                    nxt = tuple(step[y, x].tolist())
                    assert max(abs(nxt[0] - x), abs(nxt[1] - y)) == 1
            else:
                assert math.isinf(distance[y, x]) and step[y, x].tolist() == [-1, -1]


@settings(max_examples=30, deadline=None)
@given(walls=wall_grids(), data=st.data())
def test_nearest_matches_networkx(walls, data):
    sources = some_cells(walls, data)
    goals = some_cells(walls, data)
    graph = oracle(np.where(walls, np.inf, 1.0), "octile")
    lengths = nx.multi_source_dijkstra_path_length(graph, set(sources))
    want = min((lengths[g] for g in goals if g in lengths), default=math.inf)
    path, cost = cp.Engine(cp.Grid(walls), "astar").nearest(sources, goals)
    if math.isinf(want):
        assert math.isinf(cost) and len(path) == 0
    else:
        assert cost == pytest.approx(want, rel=REL, abs=1e-12)
        assert tuple(path[0].tolist()) in sources and tuple(path[-1].tolist()) in goals


def test_grid_round_trips_through_numpy():
    walls = np.array([[False, True, False], [False, False, True]])
    grid = cp.Grid(walls)
    assert grid.shape == (2, 3) and (grid.width, grid.height) == (3, 2)
    assert grid.walls().tolist() == walls.tolist()
    assert grid.costs().tolist() == [[1.0, math.inf, 1.0], [1.0, 1.0, math.inf]]
    costs = np.array([[1.0, 2.5], [np.inf, 3.0]])
    terrain = cp.Grid(costs)
    assert terrain.has_terrain and terrain.costs().tolist() == costs.tolist()
    assert terrain.walls().tolist() == [[False, False], [True, False]]
    # Costs of 1 and inf are the plain grid, which jps accepts.
    plain = cp.Grid(np.where(walls, np.inf, 1))
    assert not plain.has_terrain
    cp.Engine(plain, "jps")
    with pytest.raises(ValueError, match="uniform costs"):
        cp.Engine(terrain, "jps")


def test_squeezing_passes_between_two_walls_and_only_it_does():
    walls = np.array([[False, True], [True, False]])
    for movement, want in [("octile", math.inf), ("octile-cut", math.inf), ("4", math.inf), ("octile-squeeze", math.sqrt(2))]:
        grid = cp.Grid(walls, movement)
        assert cp.Engine(grid, "astar").cost((0, 0), (1, 1)) == pytest.approx(want, rel=REL), movement
    # Jump points take the diagonal between the two walls too, scanned or
    # read from a jump table; goal bounding refuses the rule.
    for spec in ["jps", "jps+"]:
        assert cp.Engine(cp.Grid(walls, "always"), spec).cost((0, 0), (1, 1)) == pytest.approx(math.sqrt(2), rel=REL)
    with pytest.raises(ValueError, match="without corner cutting"):
        cp.Engine(cp.Grid(walls, "always"), "jps+bb")


def test_corner_cutting_passes_one_wall_and_goal_bounding_refuses_it():
    walls = np.array([[False, True], [False, False]])
    grid = cp.Grid(walls, "octile-cut")
    assert grid.movement == "octile-cut"
    path, cost = cp.Engine(grid, "astar").path((0, 0), (1, 1))
    assert path.tolist() == [[0, 0], [1, 1]] and cost == pytest.approx(math.sqrt(2), rel=REL)
    # Without corner cutting the same move goes round the wall's corner.
    assert cp.Engine(cp.Grid(walls), "astar").cost((0, 0), (1, 1)) == 2.0
    for spec in ["jps", "jps+"]:
        assert cp.Engine(grid, spec).cost((0, 0), (1, 1)) == pytest.approx(math.sqrt(2), rel=REL)
    with pytest.raises(ValueError, match="without corner cutting"):
        cp.Engine(grid, "jps+bb")
