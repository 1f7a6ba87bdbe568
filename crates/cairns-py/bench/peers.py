"""cairns from Python against the Python pathfinding packages on the same
Moving AI queries, every peer's cost checked against cairns' where the two
movement rules agree. Not part of CI.

    pip install pathfinding pyastar2d tcod scikit-image networkx   # the peers
    target/py-venv/bin/python crates/cairns-py/bench/peers.py \
        [--data ../shared/data/movingai] [--map street/Berlin_0_512] [--queries 20] [--batch 2000]

Queries: --queries scenarios spread evenly over the file (all lengths).
Two movement rules, each against the cairns engine of that rule:

- octile without corner cutting (the Moving AI rule): cairns `jps`,
  python-pathfinding (`DiagonalMovement.only_when_no_obstacle`), networkx
  A* on the same graph: costs checked.
- 4-connected: cairns `astar`, `jps` (JPS4), `jps+` (JPS4 over a jump table) and
  `astar/dh:16` on a "4" grid, pyastar2d
  (`allow_diagonal=False`), tcod (`diagonal=0`), scikit-image
  `route_through_array(fully_connected=False)`: costs checked.
- their 8-connected modes squeeze between two walls that touch at a
  corner (each takes the diagonal of a 2x2 checkerboard of walls): that is
  cairns' `octile-squeeze` rule, whose `astar`, `jps`, `jps+` and `astar/dh:16` they are
  timed against. scikit-image (`fully_connected=True`, diagonals sqrt(2))
  and tcod (`diagonal=sqrt(2)`, its path priced by the rule) are checked;
  pyastar2d charges 1 per diagonal move, another cost, so it is timed but
  not checked.
- octile with corner cutting: cairns `astar`, `jps`, `jps+` and `astar/dh:16`, checked
  against networkx on the same graph (no peer has this rule).

Times are mean microseconds per query, one query per call, setup outside.
Then a batch: the same queries repeated to --batch, answered by one call
of cairns' `Engine.costs` (1 and 2 threads, the GIL released), its costs
checked against the one-call answers; the peers have no batch call, so a
batch of theirs is the loop timed above, and each is compared with it.
"""

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import cairns_path as cp

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1] / "tests"))
from conftest import oracle, path_cost  # noqa: E402

# The searches timed against cairns' `astar` under the rules other than
# octile: jump points scanned (`jps`) and read from a jump table (`jps+`),
# and A* over 16 landmarks.
TIERS = ("jps", "jps+", "astar/dh:16")


def warm(engine, pairs):
    """`engine` after one query: its searcher made (search memory, and the
    bit grid `jps` scans), setup outside the timing as for every peer."""
    engine.cost(*pairs[0])
    return engine


def timed(fn, pairs):
    out, times = [], []
    for s, g in pairs:
        t0 = time.perf_counter()
        out.append(fn(s, g))
        times.append(time.perf_counter() - t0)
    return out, statistics.mean(times)


ROWS = []  # (name, rule, mean seconds per query) of every report line


def report(name, rule, times, ours, theirs, base, reference="the reference"):
    ROWS.append((name, rule, times))
    if theirs is None:
        checked = reference
    else:
        bad = sum(not math.isclose(a, b, rel_tol=1e-6) for a, b in zip(ours, theirs))
        checked = f"{len(theirs) - bad}/{len(theirs)} costs equal"
    print(f"{name:<34} {rule:<8} {times * 1e6:12.1f} {times / base:10.1f}x  {checked}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parents[3].parent / "shared" / "data" / "movingai"))
    ap.add_argument("--map", default="street/Berlin_0_512")
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--batch", type=int, default=2000)
    args = ap.parse_args()
    base = Path(args.data) / args.map
    grid = cp.read_map(f"{base}.map")
    walls = grid.walls()
    costs = grid.costs()
    scen = cp.read_scen(f"{base}.map.scen")
    n = len(scen["line"])
    pick = np.linspace(0, n - 1, min(args.queries, n)).round().astype(int)
    pairs = [(tuple(s), tuple(g)) for s, g in zip(scen["start"][pick].tolist(), scen["goal"][pick].tolist())]
    print(f"{args.map} ({grid.width}x{grid.height}), {len(pairs)} queries spread over {n} scenarios")
    print(f"{'':<34} {'rule':<8} {'mean us':>12} {'vs cairns':>11}")

    # Octile without corner cutting.
    jps = cp.Engine(grid, "jps")
    jps.cost(*pairs[0])
    ours8, t8 = timed(jps.cost, pairs)
    assert np.allclose(ours8, scen["optimal"][pick], rtol=1e-5, atol=1e-3)
    report("cairns_path Engine(jps).cost", "octile", t8, ours8, None, t8, "the reference, = published lengths")

    from pathfinding.core.diagonal_movement import DiagonalMovement
    from pathfinding.core.grid import Grid as PfGrid
    from pathfinding.finder.a_star import AStarFinder

    pf_grid = PfGrid(matrix=(~walls).astype(int).tolist())
    finder = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle)

    def pf(s, g):
        pf_grid.cleanup()  # its per-query reset, part of every query
        path, _ = finder.find_path(pf_grid.node(*s), pf_grid.node(*g), pf_grid)
        return path_cost(np.array([(p.x, p.y) for p in path]), costs)

    theirs, t = timed(pf, pairs)
    report("python-pathfinding AStarFinder", "octile", t, ours8, theirs, t8)

    import networkx as nx

    graph = oracle(costs, "octile")

    def octile(a, b):
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        return max(dx, dy) + (math.sqrt(2) - 1) * min(dx, dy)

    theirs, t = timed(lambda s, g: nx.astar_path_length(graph, s, g, heuristic=octile), pairs)
    report("networkx astar_path_length", "octile", t, ours8, theirs, t8)

    # Their 8-connected modes squeeze between walls: cairns' octile-squeeze.
    import pyastar2d
    import tcod.path
    from skimage.graph import route_through_array

    weights = np.where(walls, np.inf, 1.0).astype(np.float32)
    squeeze = cp.Grid(walls, "octile-squeeze")
    sq = {spec: warm(cp.Engine(squeeze, spec), pairs) for spec in ("astar",) + TIERS}
    oursq, tsq = timed(sq["astar"].cost, pairs)
    report("cairns_path Engine(astar).cost", "squeeze", tsq, oursq, None, tsq, "the reference")
    for spec in TIERS:
        theirs, t = timed(sq[spec].cost, pairs)
        report(f"cairns_path Engine({spec}).cost", "squeeze", t, oursq, theirs, tsq)
    squeeze_graph = oracle(costs, "octile-squeeze")
    check = [nx.dijkstra_path_length(squeeze_graph, s, g) for s, g in pairs]
    assert np.allclose(oursq, check, rtol=1e-6), "cairns' squeeze costs differ from networkx"

    def sk8(s, g):
        _, cost = route_through_array(costs, (s[1], s[0]), (g[1], g[0]), fully_connected=True, geometric=True)
        return float(cost)

    theirs, t = timed(sk8, pairs)
    report("skimage route_through_array (8)", "squeeze", t, oursq, theirs, tsq)
    astar8 = tcod.path.AStar((~walls).astype(np.int8), diagonal=math.sqrt(2))

    def tc8(s, g):
        path = [s] + [(x, y) for y, x in astar8.get_path(s[1], s[0], g[1], g[0])]
        return path_cost(np.array(path), costs, "octile-squeeze")

    theirs, t = timed(tc8, pairs)
    report("tcod.path.AStar (diagonal=sqrt 2)", "squeeze", t, oursq, theirs, tsq)

    def pa8(s, g):
        pyastar2d.astar_path(weights, (s[1], s[0]), (g[1], g[0]), allow_diagonal=True)

    _, t = timed(pa8, pairs)
    report("pyastar2d astar_path (diagonal)", "squeeze", t, oursq, None, tsq, "not checked: 1 per diagonal")

    # Octile with corner cutting: no peer has it; networkx checks.
    cut = cp.Grid(walls, "octile-cut")
    cut_engines = {spec: warm(cp.Engine(cut, spec), pairs) for spec in ("astar",) + TIERS}
    ourscut, tcut = timed(cut_engines["astar"].cost, pairs)
    cut_graph = oracle(costs, "octile-cut")
    check = [nx.dijkstra_path_length(cut_graph, s, g) for s, g in pairs]
    report("cairns_path Engine(astar).cost", "cut", tcut, check, ourscut, tcut)
    for spec in TIERS:
        theirs, t = timed(cut_engines[spec].cost, pairs)
        report(f"cairns_path Engine({spec}).cost", "cut", t, check, theirs, tcut)

    # 4-connected.
    four = cp.Engine(cp.Grid(walls, "4"), "astar")
    four.cost(*pairs[0])
    ours4, t4 = timed(four.cost, pairs)
    report("cairns_path Engine(astar).cost", "4", t4, ours4, None, t4)
    for spec in TIERS:
        tier = warm(cp.Engine(cp.Grid(walls, "4"), spec), pairs)
        theirs, t = timed(tier.cost, pairs)
        report(f"cairns_path Engine({spec}).cost", "4", t, ours4, theirs, t4)

    def pa(s, g):
        path = pyastar2d.astar_path(weights, (s[1], s[0]), (g[1], g[0]), allow_diagonal=False)
        return math.inf if path is None else float(len(path) - 1)

    theirs, t = timed(pa, pairs)
    report("pyastar2d astar_path", "4", t, ours4, theirs, t4)

    astar = tcod.path.AStar((~walls).astype(np.int8), diagonal=0)

    def tc(s, g):
        return float(len(astar.get_path(s[1], s[0], g[1], g[0])))

    theirs, t = timed(tc, pairs)
    report("tcod.path.AStar", "4", t, ours4, theirs, t4)

    def sk(s, g):
        _, cost = route_through_array(costs, (s[1], s[0]), (g[1], g[0]), fully_connected=False, geometric=True)
        return float(cost)

    theirs, t = timed(sk, pairs)
    report("skimage route_through_array", "4", t, ours4, theirs, t4)

    # A batch of the same queries, one call.
    reps = max(1, args.batch // len(pairs))
    starts = np.array([s for s, _ in pairs] * reps)
    goals = np.array([g for _, g in pairs] * reps)
    print(f"\nbatch of {len(starts)} queries in one call; the peers' batch is their loop above")
    batch_times = {}
    for rule, name, engine, ours, single in (
        ("octile", "jps", jps, ours8, t8),
        ("4", "astar", four, ours4, t4),
    ):
        for threads in (1, 2):
            t0 = time.perf_counter()
            got = engine.costs(starts, goals, threads=threads)
            per = (time.perf_counter() - t0) / len(starts)
            assert np.allclose(got, np.tile(ours, reps), rtol=1e-12), "the batch's costs differ"
            batch_times[(rule, threads)] = per
            print(
                f"cairns_path Engine({name}).costs threads={threads}  {rule:<8} {per * 1e6:12.1f} "
                f"us a query, {single / per:5.2f}x its one-call time"
            )
    for name, rule, t in ROWS:
        if name.startswith("cairns_path"):
            continue
        if rule not in ("octile", "4"):
            continue
        against = rule
        ratios = " / ".join(f"{t / batch_times[(against, k)]:.1f}x" for k in (1, 2))
        print(f"{name:<34} {rule:<8} {t * 1e6:12.1f} us a query: {ratios} cairns' batch (1 / 2 threads)")


if __name__ == "__main__":
    main()
