"""Shared pieces of the cairns-path tests: where the Moving AI data is,
random grids, and networkx as the independent oracle."""

import math
import os
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import strategies as st

# The repository's sibling `shared/data/movingai`, as for `cargo test`
# (CAIRNS_DATA overrides it, as it does there).
REPO = Path(__file__).resolve().parents[3]
MOVINGAI = Path(os.environ.get("CAIRNS_DATA", REPO.parent / "shared" / "data" / "movingai"))
# The road graphs beside them (CAIRNS_ROADS overrides it, as for cargo).
ROADS = Path(os.environ.get("CAIRNS_ROADS", REPO.parent / "shared" / "data" / "roads"))

# cairns charges a diagonal move sqrt(2) rounded to f32 (exact ties; see
# `cairns::grid::DIAGONAL`): 1.7e-8 relative below sqrt(2).
REL = 1e-6


@pytest.fixture(scope="session")
def movingai() -> Path:
    """The Moving AI data; a test that needs it fails (not skips) without it."""
    if not (MOVINGAI / "dao").is_dir():
        pytest.fail(f"{MOVINGAI} is missing: the Moving AI scenario tests need it (../shared/data/movingai, or CAIRNS_DATA)")
    return MOVINGAI


@pytest.fixture(scope="session")
def roads() -> Path:
    """The road graphs; a test that needs them fails (not skips) without them."""
    if not (ROADS / "fast_paths").is_dir():
        pytest.fail(f"{ROADS} is missing: the road graph tests need it (../shared/data/roads, or CAIRNS_ROADS)")
    return ROADS


@st.composite
def wall_grids(draw, max_side=12):
    """A random boolean grid (True = wall), walls at a random density."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.4]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    return rng.random((h, w)) < density


@st.composite
def cost_grids(draw, max_side=10):
    """A random float grid of cell costs in [1, 5), some cells inf (walls)."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    costs = 1.0 + 4.0 * rng.random((h, w))
    costs[rng.random((h, w)) < 0.2] = np.inf
    return costs


def oracle(costs: np.ndarray, movement: str) -> nx.Graph:
    """The grid as a networkx graph: cells (x, y), a move costing its length
    times the mean of its two cells' costs (1 everywhere for a wall grid),
    diagonals only past two passable cells (no corner cutting), or past
    one at least under "octile-cut"."""
    h, w = costs.shape
    free = np.isfinite(costs)
    g = nx.Graph()
    for y in range(h):
        for x in range(w):
            if free[y, x]:
                g.add_node((x, y))
    steps = [(1, 0), (0, 1)]
    if movement in ("octile", "octile-cut", "octile-squeeze"):
        steps += [(1, 1), (1, -1)]
    for y in range(h):
        for x in range(w):
            if not free[y, x]:
                continue
            for dx, dy in steps:
                nx_, ny = x + dx, y + dy
                if not (0 <= nx_ < w and 0 <= ny < h) or not free[ny, nx_]:
                    continue
                if dx and dy and not diagonal_allowed(free[y, nx_], free[ny, x], movement):
                    continue
                length = math.sqrt(2) if dx and dy else 1.0
                g.add_edge((x, y), (nx_, ny), weight=length * (costs[y, x] + costs[ny, nx_]) / 2)
    return g


def diagonal_allowed(side_a: bool, side_b: bool, movement: str) -> bool:
    """Whether a diagonal move passing cells whose passability is `side_a`
    and `side_b` is legal: both under "octile", one under "octile-cut",
    whatever they are under "octile-squeeze"."""
    if movement == "octile-squeeze":
        return True
    return (side_a or side_b) if movement == "octile-cut" else (side_a and side_b)


def free_cells(walls: np.ndarray):
    """The passable cells as (x, y) tuples."""
    ys, xs = np.nonzero(~walls)
    return list(zip(xs.tolist(), ys.tolist()))


def path_cost(path: np.ndarray, costs: np.ndarray, movement: str = "octile") -> float:
    """The cost of a path of (x, y) rows under the move rule, checking that
    every step is one legal move."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(path[:-1].tolist(), path[1:].tolist()):
        dx, dy = x1 - x0, y1 - y0
        assert max(abs(dx), abs(dy)) == 1, f"step {(x0, y0)} -> {(x1, y1)} is not one move"
        assert np.isfinite(costs[y1, x1]), f"step onto a wall at {(x1, y1)}"
        if dx and dy:
            sides = np.isfinite(costs[y0, x1]), np.isfinite(costs[y1, x0])
            assert diagonal_allowed(*sides, movement), f"corner cut at {(x0, y0)} -> {(x1, y1)}"
        length = math.sqrt(2) if dx and dy else 1.0
        total += length * (costs[y0, x0] + costs[y1, x1]) / 2
    return total


def engines(grid, specs):
    """An engine per spec; a landmark spec on a grid too small for its
    landmarks (the library refuses it with ValueError) is left out."""
    import cairns_path as cp

    out = []
    for spec in specs:
        try:
            out.append(cp.Engine(grid, spec))
        except ValueError as e:
            if "dh:" not in spec or "landmarks" not in str(e):
                raise
    return out
