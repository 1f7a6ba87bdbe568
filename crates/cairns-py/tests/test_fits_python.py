"""Pickling, threads, and errors: bad input raises a Python exception with
the CLI's message (file, line, what is wrong), never a panic."""

import pickle
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cairns_path as cp
from conftest import free_cells

MAP = "type octile\nheight 3\nwidth 9\nmap\n....@....\n.@@.@.@@.\n.........\n"


def test_grids_and_engines_pickle():
    walls = np.random.default_rng(1).random((20, 30)) < 0.25
    costs = np.where(walls, np.inf, 1 + np.arange(600).reshape(20, 30) % 7)
    for grid in [cp.Grid(walls), cp.Grid(costs, "4"), cp.parse_map(MAP)]:
        again = pickle.loads(pickle.dumps(grid))
        assert again.walls().tolist() == grid.walls().tolist()
        assert again.costs().tolist() == grid.costs().tolist()
        assert (again.movement, again.name) == (grid.movement, grid.name)
    grid = cp.Grid(walls)
    cells = free_cells(walls)
    starts, goals = np.array(cells[:50]), np.array(cells[-50:])
    for spec in ["jps+/dh:4", "astar", "dijkstra"]:
        engine = cp.Engine(grid, spec)
        again = pickle.loads(pickle.dumps(engine))
        assert again.spec == engine.spec
        assert again.costs(starts, goals).tolist() == engine.costs(starts, goals).tolist()


def test_threads_answer_as_a_serial_run(movingai):
    grid = cp.read_map(movingai / "dao" / "den520d.map")
    columns = cp.read_scen(movingai / "dao" / "den520d.map.scen")
    engine = cp.Engine(grid, "jps")
    serial = engine.costs(columns["start"], columns["goal"], threads=1)
    for threads in (2, 3, 0):
        assert engine.costs(columns["start"], columns["goal"], threads=threads).tolist() == serial.tolist()
    one_by_one = [engine.cost(tuple(s), tuple(g)) for s, g in zip(columns["start"], columns["goal"])]
    assert one_by_one == serial.tolist()


def test_python_threads_share_an_engine(movingai):
    grid = cp.read_map(movingai / "dao" / "arena.map")
    columns = cp.read_scen(movingai / "dao" / "arena.map.scen")
    engine = cp.Engine(grid, "astar")
    want = engine.costs(columns["start"], columns["goal"]).tolist()
    pairs = list(zip(map(tuple, columns["start"].tolist()), map(tuple, columns["goal"].tolist())))
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: engine.path(*p)[1], pairs))
    assert got == want
    assert threading.active_count() >= 1


def test_costs_with_stats_and_empty_batches():
    engine = cp.Engine(cp.parse_map(MAP), "astar")
    costs, expanded = engine.costs([(0, 0)], [(8, 0)], stats=True)
    assert costs.tolist() == [engine.cost((0, 0), (8, 0))] and expanded[0] > 0
    assert engine.costs([], []).shape == (0,)
    path, cost, stats = engine.path((0, 0), (8, 0), stats=True)
    assert stats["expanded"] == expanded[0] and set(stats) >= {"generated", "max_open"}


def test_a_malformed_map_names_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.map"
    bad.write_text(MAP.replace(".@@.@.@@.", ".@@.Q.@@."))
    with pytest.raises(ValueError, match=r"bad\.map: line 6: unknown tile 'Q' at \(4, 1\)"):
        cp.read_map(bad)
    short = tmp_path / "short.map"
    short.write_text(MAP.replace(".@@.@.@@.", ".@@"))
    with pytest.raises(ValueError, match=r"short\.map: line 6: "):
        cp.read_map(short)
    with pytest.raises(FileNotFoundError, match=r"missing\.map: cannot read the file"):
        cp.read_map(tmp_path / "missing.map")


def test_a_malformed_scenario_names_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.map.scen"
    bad.write_text("version 1\n0\tbad.map\t9\t3\t0\t0\t8\t0\t10.8284\n0\tbad.map\t9\t3\tx\t0\t8\t0\t1\n")
    with pytest.raises(ValueError, match=r"bad\.map\.scen: line 3: "):
        cp.read_scen(bad)
    with pytest.raises(ValueError, match=r"bad\.map\.scen: line 3: "):
        cp.run_scen(bad)
    good = tmp_path / "good.map.scen"
    good.write_text("version 1\n0\tgood.map\t9\t3\t0\t0\t8\t0\t10.8284\n")
    with pytest.raises(FileNotFoundError, match=r"good\.map: cannot read the file"):
        cp.run_scen(good)


def test_bad_queries_and_specs_are_value_errors():
    grid = cp.parse_map(MAP)
    engine = cp.Engine(grid, "astar")
    with pytest.raises(ValueError, match=r"goal \(4, 0\) is on a blocked tile '@' in the map"):
        engine.path((0, 0), (4, 0))
    with pytest.raises(ValueError, match=r"start \(9, 0\) is outside the map \(9x3\)"):
        engine.path((9, 0), (0, 0))
    with pytest.raises(ValueError, match=r"start \(-1, 0\) is outside"):
        engine.cost((-1, 0), (0, 0))
    with pytest.raises(ValueError, match=r"goals\[1\] \(4, 1\) is on a blocked tile"):
        engine.costs([(0, 0), (0, 0)], [(8, 0), (4, 1)])
    with pytest.raises(ValueError, match="2 starts but 1 goals"):
        engine.costs([(0, 0), (0, 0)], [(8, 0)])
    with pytest.raises(ValueError, match=r"shape \(N, 2\)"):
        engine.costs(np.zeros((2, 3), int), np.zeros((2, 3), int))
    with pytest.raises(TypeError, match="integer"):
        engine.costs(np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="unknown"):
        cp.Engine(grid, "astra")
    with pytest.raises(ValueError, match=r"jps\+bb needs octile movement"):
        cp.Engine(cp.parse_map(MAP, "4"), "jps+bb")
    with pytest.raises(ValueError, match=r"cell \(1, 0\): the cost must be a positive number"):
        cp.Grid(np.array([[1.0, 0.0]]))
    with pytest.raises(ValueError, match="2-D"):
        cp.Grid(np.zeros((2, 2, 2), bool))
    with pytest.raises(ValueError, match="unknown movement"):
        cp.Grid(np.zeros((2, 2), bool), "hex")
    with pytest.raises(TypeError):
        cp.Grid(np.array([["a"]]))


# Every entry point, fuzzed: whatever comes in, the only errors are the
# ordinary Python ones (a pyo3 PanicException derives from BaseException,
# so it would escape `except Exception` and fail the test).
ALLOWED = (ValueError, TypeError, OSError, NotImplementedError, OverflowError)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=300), st.binary(max_size=300).map(lambda b: b.decode("latin-1"))))
def test_fuzz_map_and_scenario_parsers(text, tmp_path_factory):
    for mutate in (text, MAP[: len(text) % len(MAP)] + text):
        try:
            cp.parse_map(mutate)
        except ALLOWED:
            pass
    path = tmp_path_factory.mktemp("fuzz") / "x.map.scen"
    path.write_text("version 1\n" + text, encoding="utf-8", errors="replace")
    try:
        cp.read_scen(path)
    except ALLOWED:
        pass


@settings(max_examples=300, deadline=None)
@given(
    cells=st.one_of(
        st.lists(st.lists(st.floats(allow_nan=True), min_size=0, max_size=5), min_size=0, max_size=5),
        st.lists(st.lists(st.booleans(), min_size=1, max_size=5), min_size=1, max_size=5),
        st.lists(st.integers(-(2**70), 2**70), max_size=5),
    ),
    spec=st.one_of(st.sampled_from(["astar", "jps", "jps+", "bfs", "dh:3", "astar/dh:9", "focal@1.5", "theta", "canonical", ""]), st.text(max_size=20)),
    movement=st.sampled_from(["octile", "4", 4, 8, 3, "x"]),
    points=st.lists(st.tuples(st.integers(-3, 6), st.integers(-3, 6)), min_size=1, max_size=4),
)
def test_fuzz_grids_specs_and_queries(cells, spec, movement, points):
    try:
        grid = cp.Grid(np.array(cells, dtype=object if not cells else None), movement)
        engine = cp.Engine(grid, spec)
        engine.path(points[0], points[-1])
        engine.costs(points, points[::-1], threads=2)
        engine.nearest(points, points)
        engine.budgeted(points, points[::-1], max_expansions=len(points), max_cost=3.5)
        grid.field(points)
        pickle.loads(pickle.dumps(engine)).cost(points[0], points[-1])
    except ALLOWED:
        pass


def test_a_grid_too_large_is_refused_before_it_is_copied():
    # A broadcast view: 2**34 cells that numpy does not store.
    huge = np.broadcast_to(np.array(False), (2**17, 2**17))
    with pytest.raises(ValueError, match="too large|cells"):
        cp.Grid(huge)
