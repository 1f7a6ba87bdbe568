"""Terrain costs against scikit-image's MCP_Geometric, whose move cost
(length x mean of the two cells' costs) is cairns' terrain rule.

MCP_Geometric's 8-connected moves cut corners, cairns' do not: the two
agree exactly where no corner can be cut, so octile grids here have no
walls (every cost finite); 4-connected grids have walls (inf)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cairns_path as cp
from conftest import REL, engines

skimage_graph = pytest.importorskip("skimage.graph")


@st.composite
def terrain(draw, walls):
    h = draw(st.integers(1, 16))
    w = draw(st.integers(1, 16))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    costs = 1.0 + 9.0 * rng.random((h, w))
    if walls:
        costs[rng.random((h, w)) < 0.25] = np.inf
    return costs


def mcp_cost(costs, start, goal, fully_connected):
    mcp = skimage_graph.MCP_Geometric(costs, fully_connected=fully_connected)
    cumulative, _ = mcp.find_costs(starts=[start[::-1]], ends=[goal[::-1]])
    return float(cumulative[goal[1], goal[0]])


def check(costs, movement, fully_connected, data):
    free = [(int(x), int(y)) for y, x in zip(*np.nonzero(np.isfinite(costs)))]
    if not free:
        return
    grid = cp.Grid(costs, movement)
    built = engines(grid, ("astar", "dijkstra", "astar/dh:2"))
    for _ in range(5):
        start, goal = data.draw(st.sampled_from(free)), data.draw(st.sampled_from(free))
        want = mcp_cost(costs, start, goal, fully_connected)
        for engine in built:
            got = engine.cost(start, goal)
            if math.isinf(want):
                assert math.isinf(got)
            else:
                assert got == pytest.approx(want, rel=REL, abs=1e-12), (engine.spec, start, goal)


@settings(max_examples=50, deadline=None)
@given(costs=terrain(walls=False), data=st.data())
def test_octile_terrain_matches_mcp_geometric(costs, data):
    check(costs, "octile", True, data)


@settings(max_examples=50, deadline=None)
@given(costs=terrain(walls=True), data=st.data())
def test_four_connected_terrain_with_walls_matches_mcp_geometric(costs, data):
    check(costs, "4", False, data)
