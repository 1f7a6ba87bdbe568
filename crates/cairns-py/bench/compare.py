"""cairns from Python against networkx (and against cairns' own runner)
on the queries of Moving AI scenario files, every networkx cost checked
against cairns'. Not part of CI.

    target/py-venv/bin/python crates/cairns-py/bench/compare.py \
        [--data ../shared/data/movingai] [--maps street/Berlin_0_512 dao/brc202d] \
        [--spec jps] [--nx-queries 200] [--batch 10000]

Prints, per map: the runner's own time per query inside Rust (the timing
`cairns scen` reports), the time per query of `Engine.cost` and
`Engine.path` called from Python one by one, the throughput of
`Engine.costs` on 1 and 2 threads over a batch (the scenario queries
repeated up to --batch), and networkx's A* (octile heuristic, the same
no-corner-cutting graph) on the first --nx-queries queries.
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
from conftest import oracle  # noqa: E402  (the tests' networkx graph)


def per_call(fn, pairs):
    times = []
    for s, g in pairs:
        t0 = time.perf_counter()
        fn(s, g)
        times.append(time.perf_counter() - t0)
    return times


def us(seconds):
    return f"{seconds * 1e6:9.1f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE.parents[3].parent / "shared" / "data" / "movingai"))
    ap.add_argument("--maps", nargs="+", default=["street/Berlin_0_512", "dao/brc202d"])
    ap.add_argument("--spec", default="jps")
    ap.add_argument("--nx-queries", type=int, default=200)
    ap.add_argument("--batch", type=int, default=10000)
    args = ap.parse_args()
    import networkx as nx

    for name in args.maps:
        map_path = Path(args.data) / f"{name}.map"
        scen_path = Path(args.data) / f"{name}.map.scen"
        grid = cp.read_map(map_path)
        engine = cp.Engine(grid, args.spec)
        columns = cp.read_scen(scen_path)
        pairs = [(tuple(s), tuple(g)) for s, g in zip(columns["start"].tolist(), columns["goal"].tolist())]
        n = len(pairs)
        print(f"\n{name} ({grid.width}x{grid.height}), {n} scenarios, spec {engine.spec}")

        run = cp.run_scen(scen_path, args.spec)
        assert run["mismatches"] == [], run["mismatches"][:3]
        ours = run["cost"]
        engine.cost(*pairs[0])  # the first query sizes the search memory
        cost_t = per_call(engine.cost, pairs)
        path_t = per_call(engine.path, pairs)
        print("                                   mean us  median us")
        print(f"runner inside Rust (cairns scen) {us(statistics.mean(run['seconds']))} {us(statistics.median(run['seconds']))}")
        print(f"Engine.cost from Python          {us(statistics.mean(cost_t))} {us(statistics.median(cost_t))}")
        print(f"Engine.path from Python          {us(statistics.mean(path_t))} {us(statistics.median(path_t))}")

        reps = math.ceil(args.batch / n)
        starts = np.tile(columns["start"], (reps, 1))[: args.batch]
        goals = np.tile(columns["goal"], (reps, 1))[: args.batch]
        walls = {}
        for threads in (1, 2):
            best = math.inf
            for _ in range(3):
                t0 = time.perf_counter()
                costs = engine.costs(starts, goals, threads=threads)
                best = min(best, time.perf_counter() - t0)
            assert np.array_equal(costs[:n], ours[: len(costs[:n])])
            walls[threads] = best
            print(f"Engine.costs, {len(starts)} queries, threads={threads}: {best:.3f} s, {len(starts) / best:,.0f} queries/s")
        print(f"threads=2 / threads=1 throughput: {walls[1] / walls[2]:.2f}x")

        t0 = time.perf_counter()
        graph = oracle(grid.costs(), grid.movement)
        build = time.perf_counter() - t0
        sub = pairs[: args.nx_queries]

        def octile(a, b):
            dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
            return max(dx, dy) + (math.sqrt(2) - 1) * min(dx, dy)

        nx_costs = []

        def nx_query(s, g):
            nx_costs.append(nx.astar_path_length(graph, s, g, heuristic=octile))

        nx_t = per_call(nx_query, sub)
        mismatches = sum(not math.isclose(a, b, rel_tol=1e-6) for a, b in zip(nx_costs, ours))
        print(
            f"networkx astar_path_length ({len(sub)} queries, graph built in {build:.1f} s): "
            f"mean {us(statistics.mean(nx_t))} us, median {us(statistics.median(nx_t))} us, "
            f"{mismatches} cost mismatches"
        )
        ratio = statistics.mean(nx_t) / statistics.mean(cost_t[: len(sub)])
        print(f"networkx / Engine.cost on those queries (mean): {ratio:,.0f}x")


if __name__ == "__main__":
    main()
