"""Tables out and in (the CLI's saved format), pickled engines that keep
their tables, and budgeted queries."""

import math
import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cairns_path as cp


@pytest.fixture(scope="module")
def den(movingai):
    return cp.read_map(movingai / "dao" / "den520d.map"), cp.read_scen(movingai / "dao" / "den520d.map.scen")


def test_tables_saved_and_given_back_answer_the_same(den, tmp_path):
    grid, scen = den
    engine = cp.Engine(grid, "jps+/dh:4")
    saved = engine.table_bytes()
    assert len(saved) == 2 and all(isinstance(b, bytes) for b in saved)
    assert len(engine.tables) == 2 and all("built in" in line for line in engine.tables)
    files = []
    for i, b in enumerate(saved):
        files.append(tmp_path / f"t{i}.table")
        files[-1].write_bytes(b)
    from_bytes = cp.Engine(grid, "jps+/dh:4", tables=saved)
    from_files = cp.Engine(grid, "jps+/dh:4", tables=files)
    assert all("loaded in" in line for line in from_files.tables)
    want = engine.costs(scen["start"], scen["goal"])
    assert from_bytes.costs(scen["start"], scen["goal"]).tolist() == want.tolist()
    assert from_files.costs(scen["start"], scen["goal"]).tolist() == want.tolist()
    # A pickled engine carries its tables and loads them.
    again = pickle.loads(pickle.dumps(engine))
    assert all("loaded in" in line for line in again.tables)
    assert again.costs(scen["start"], scen["goal"]).tolist() == want.tolist()


def test_a_bad_table_is_refused_naming_it(den, tmp_path):
    grid, _ = den
    saved = cp.Engine(grid, "jps+").table_bytes()[0]
    with pytest.raises(ValueError, match=r"tables\[0\]: cannot load the table: "):
        cp.Engine(grid, "jps+", tables=[saved[:100]])
    with pytest.raises(ValueError, match=r"tables\[0\]: cannot load the table: "):
        cp.Engine(grid, "jps+", tables=[b"not a table at all"])
    other = cp.Grid(np.zeros((5, 5), bool))
    with pytest.raises(ValueError, match="cannot load the table"):
        cp.Engine(other, "jps+", tables=[saved])
    bad = tmp_path / "bad.table"
    bad.write_bytes(saved[:-10])
    with pytest.raises(ValueError, match=r"bad\.table: cannot load the table"):
        cp.Engine(grid, "jps+", tables=[bad])
    with pytest.raises(FileNotFoundError, match=r"missing\.table: cannot open the table file"):
        cp.Engine(grid, "jps+", tables=[tmp_path / "missing.table"])
    # A table the spec does not use.
    with pytest.raises(ValueError):
        cp.Engine(grid, "astar", tables=[saved])


def test_budgeted_queries_pause_and_find(den):
    grid, scen = den
    start, goal = tuple(scen["start"][-1]), tuple(scen["goal"][-1])
    engine = cp.Engine(grid, "astar")
    full = engine.budgeted([start], [goal])
    assert full["status"] == "found"
    assert full["cost"] == pytest.approx(engine.cost(start, goal))
    paused = engine.budgeted([start], [goal], max_expansions=50)
    assert paused["status"] == "paused" and paused["stats"]["expanded"] == 50
    assert paused["path"][0].tolist() == list(start)
    assert paused["path"][-1].tolist() == list(paused["closest"])
    assert paused["g"] == pytest.approx(paused["cost"])
    capped = engine.budgeted([start], [goal], max_cost=full["cost"] / 2)
    assert capped["status"] == "paused"
    with pytest.raises(ValueError, match="jps takes no budget"):
        cp.Engine(grid, "jps").budgeted([start], [goal], max_expansions=5)
    walls = np.zeros((3, 3), bool)
    walls[:, 1] = True
    assert cp.Engine(cp.Grid(walls), "astar").budgeted([(0, 0)], [(2, 2)])["status"] == "no-path"
    assert math.isinf(cp.Engine(cp.Grid(walls), "astar").budgeted([(0, 0)], [(2, 2)])["cost"])


def test_budgeted_queries_resume_frame_by_frame(den):
    grid, scen = den
    start, goal = tuple(scen["start"][-1]), tuple(scen["goal"][-1])
    engine = cp.Engine(grid, "astar")
    full = engine.budgeted([start], [goal])
    total = full["stats"]["expanded"]
    assert total > 400
    frames = 0
    while True:
        frames += 1
        assert frames <= total // 200 + 2, "a paused query was not taken up"
        step = engine.budgeted([start], [goal], max_expansions=200)
        if step["status"] != "paused":
            break
        # The statistics are the query's so far: 200 more each frame.
        assert step["stats"]["expanded"] == 200 * frames
    assert step["status"] == "found" and step["cost"] == full["cost"]
    assert step["stats"]["expanded"] == total
    # Another query in between: the next call starts over, same answer.
    engine.budgeted([start], [goal], max_expansions=200)
    engine.cost(goal, start)
    again = engine.budgeted([start], [goal], max_expansions=200)
    assert again["status"] == "paused" and again["stats"]["expanded"] == 200


def open_queries(scen, walled, step):
    """Every `step`-th query of `scen` whose ends are not among the `walled` points."""
    blocked = {tuple(p) for p in walled.tolist()}
    keep = [
        i
        for i in range(0, len(scen["start"]), step)
        if tuple(scen["start"][i].tolist()) not in blocked and tuple(scen["goal"][i].tolist()) not in blocked
    ]
    return scen["start"][keep], scen["goal"][keep]


def assert_costs(got, want):
    """The same costs, `inf` where `want` has no path."""
    assert np.array_equal(np.isinf(got), np.isinf(want))
    assert np.allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-9)


def test_with_walls_keeps_the_landmark_table_exact(den):
    grid, scen = den
    engine = cp.Engine(grid, "astar/dh:8")
    longest = tuple(scen["start"][-1]), tuple(scen["goal"][-1])
    path, cost = engine.path(*longest)
    # Wall in the middle third of the longest query's path.
    middle = path[len(path) // 3 : 2 * len(path) // 3]
    walled = engine.with_walls(middle, [True] * len(middle))
    assert walled.grid.walls()[middle[:, 1], middle[:, 0]].all()
    assert not engine.grid.walls()[middle[:, 1], middle[:, 0]].any(), "the old grid changed"
    starts, goals = open_queries(scen, middle, 7)
    # The repaired table against Dijkstra on the edited grid.
    want = cp.Engine(walled.grid, "dijkstra").costs(starts, goals)
    assert_costs(walled.costs(starts, goals), want)
    assert walled.cost(*longest) > cost
    # The idle searchers moved to the edited engine; this one still answers
    # on its own grid with new ones.
    assert engine.cost(*longest) == pytest.approx(cost, rel=1e-12)
    # Opening the cells again gives back the first costs.
    reopened = walled.with_walls(middle, [False] * len(middle))
    assert np.allclose(reopened.costs(starts, goals), engine.costs(starts, goals), rtol=1e-9)
    with pytest.raises(ValueError, match=r"points\[0\] \(10000, 0\) is outside"):
        engine.with_walls([(10_000, 0)], [True])
    with pytest.raises(ValueError, match="1 points but 2 walls"):
        engine.with_walls([(1, 1)], [True, False])


@pytest.mark.parametrize("spec", ["jps+bb", "sub"])
def test_tables_fill_in_after_walls_while_serving(den, spec):
    """Goal bounding's boxes dropped, or a subgoal graph left of the older map, by
    `with_walls`: the edited engine answers at once, and `filled` builds
    what it lacks on another thread meanwhile."""
    grid, scen = den
    engine = cp.Engine(grid, spec)
    longest = tuple(scen["start"][-1]), tuple(scen["goal"][-1])
    path, cost = engine.path(*longest)
    middle = path[len(path) // 3 : len(path) // 3 + 5]
    walled = engine.with_walls(middle, [True] * len(middle))
    # A sub engine answers as jps+ until its graph is repaired.
    assert (engine.behind, walled.behind) == (False, spec == "sub")
    starts, goals = open_queries(scen, middle, 5)
    want = cp.Engine(walled.grid, "dijkstra").costs(starts, goals)
    # Filled on another thread while the edited engine answers.
    with ThreadPoolExecutor(1) as pool:
        filling = pool.submit(walled.filled, 60.0)
        during = walled.costs(starts, goals)
        filled = filling.result()
    assert filled is not None and filled.grid is walled.grid
    assert not filled.behind
    for got in (during, filled.costs(starts, goals)):
        assert_costs(got, want)
    assert filled.filled(1.0) is None, "nothing left to fill"
    assert cp.Engine(grid, "jps+").filled(1.0) is None, "no table to fill"
    with pytest.raises(ValueError, match="seconds must be a finite number"):
        walled.filled(-1.0)


SMALL = cp.Grid(np.random.default_rng(3).random((12, 16)) < 0.2)
SAVED = {spec: cp.Engine(SMALL, spec).table_bytes() for spec in ("jps+", "astar/dh:3")}


@settings(max_examples=300, deadline=None)
@given(
    spec=st.sampled_from(sorted(SAVED)),
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4),
    cut=st.integers(0, 10**6),
)
def test_fuzz_saved_tables(spec, flips, cut):
    """Corrupted or cut tables are refused with ValueError, never a crash
    (a corruption the checksum cannot see must still answer)."""
    data = bytearray(SAVED[spec][0])
    for at, value in flips:
        data[at % len(data)] = value
    data = bytes(data[: max(1, cut % (len(data) + 1))])
    try:
        engine = cp.Engine(SMALL, spec, tables=[data])
    except ValueError:
        return
    free = [(x, y) for x, y in [(0, 0), (15, 11), (7, 5)] if SMALL.is_passable(x, y)]
    engine.costs(free, free[::-1])
