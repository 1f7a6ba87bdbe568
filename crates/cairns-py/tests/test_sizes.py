"""Agents larger than one cell: `Engine(grid, spec, size=K)` against
networkx on the cells whose K x K block is free, by brute force; edits,
pickling, refusals and `run_scen(..., size=K)`."""

import math
import pickle

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cairns_path as cp
from conftest import REL, oracle, wall_grids

SPECS = {
    "octile": ["astar", "jps", "jps+", "jps+bb", "sub", "dijkstra", "astar/dh:2"],
    "4": ["astar", "dijkstra", "astar/dh:2"],
    "octile-cut": ["astar", "dijkstra"],
    "octile-squeeze": ["astar", "dijkstra", "astar/dh:2"],
}


def open_to(walls: np.ndarray, k: int) -> np.ndarray:
    """Whether the k x k block with top-left cell (x, y) is on the map and
    free, cell by cell."""
    h, w = walls.shape
    out = np.zeros_like(walls, dtype=bool)
    for y in range(h - k + 1):
        for x in range(w - k + 1):
            out[y, x] = not walls[y : y + k, x : x + k].any()
    return out


@settings(max_examples=40, deadline=None)
@given(walls=wall_grids(), k=st.integers(1, 3), movement=st.sampled_from(sorted(SPECS)), data=st.data())
def test_sized_costs_match_networkx_on_the_open_blocks(walls, k, movement, data):
    fits = open_to(walls, k)
    cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(fits))]
    grid = cp.Grid(walls, movement)
    graph = oracle(np.where(fits, 1.0, math.inf), movement)
    for spec in SPECS[movement]:
        try:
            engine = cp.Engine(grid, spec, size=k)
        except ValueError as e:
            # Too few cells with a move for the landmarks on a small map.
            assert "cannot place" in str(e) and "dh" in spec, e
            continue
        assert engine.size == k
        for _ in range(4 if cells else 0):
            s, g = data.draw(st.sampled_from(cells)), data.draw(st.sampled_from(cells))
            try:
                want = nx.dijkstra_path_length(graph, s, g)
            except nx.NetworkXNoPath:
                want = math.inf
            cost = engine.cost(s, g)
            assert cost == pytest.approx(want, rel=REL), (spec, k, s, g)


GAPS = """type octile
height 6
width 7
map
...@...
.......
...@...
...@...
.......
.......
"""


def test_a_size_keeps_through_edits_and_pickling_and_is_refused_where_it_cannot_go():
    grid = cp.parse_map(GAPS)
    d = math.sqrt(2)
    one, two = cp.Engine(grid, "jps+"), cp.Engine(grid, "jps+", size=2)
    assert one.cost((0, 0), (4, 0)) == pytest.approx(4 + d, rel=REL)
    # Round by the lower gap: down 4, across 3, up 4.
    assert two.cost((0, 0), (4, 0)) == pytest.approx(10 + d, rel=REL)
    again = pickle.loads(pickle.dumps(two))
    assert again.size == 2 and again.cost((0, 0), (4, 0)) == two.cost((0, 0), (4, 0))
    # Wall up the lower gap: no way through for the 2x2 agent; the grid
    # stays the map itself.
    closed = two.with_walls([(3, 4)], [True])
    assert closed.size == 2 and math.isinf(closed.cost((0, 0), (4, 0)))
    assert closed.grid.walls().sum() == grid.walls().sum() + 1
    with pytest.raises(ValueError, match=r"not open to an agent of size 2.*2x2 block"):
        two.cost((2, 0), (0, 0))
    with pytest.raises(ValueError, match="terrain costs"):
        cp.Engine(cp.Grid(np.array([[1.0, 2.0], [1.0, 1.0]])), "astar", size=2)
    with pytest.raises(ValueError, match="from 1 to 255"):
        cp.Engine(grid, "astar", size=0)


def test_a_field_for_a_size_is_the_engines_costs():
    grid = cp.parse_map(GAPS)
    distance, _ = grid.field([(4, 0)], size=2)
    two = cp.Engine(grid, "dijkstra", size=2)
    for y in range(6):
        for x in range(7):
            try:
                want = two.cost((x, y), (4, 0))
            except ValueError:  # too tight for the block
                want = math.inf
            assert distance[y, x] == pytest.approx(want, rel=REL), (x, y)
    with pytest.raises(ValueError, match="not open to an agent of size 2"):
        grid.field([(2, 0)], size=2)


def test_run_scen_at_size_two_checks_against_dijkstra(movingai):
    r = cp.run_scen(movingai / "dao" / "den520d.map.scen", "jps+", every=40, size=2)
    assert r["size"] == 2 and r["reference"] == "dijkstra"
    assert r["mismatches"] == [] and 0 < r["queries"]
    whole = cp.run_scen(movingai / "dao" / "den520d.map.scen", "jps+", every=40)
    assert r["queries"] < whole["queries"]
