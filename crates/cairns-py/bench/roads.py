"""cairns' graph searches from Python against networkx, scipy's csgraph and
igraph on the same road graph and the same random queries, every cost
checked against cairns' Dijkstra. Not part of CI.

    pip install networkx scipy igraph   # the peers
    target/py-venv/bin/python crates/cairns-py/bench/roads.py \
        [--graph ../shared/data/roads/fast_paths/bremen_dist.gr] [--queries 1000] \
        [--slow-queries 100] [--seed 2016]

Queries: --queries random (source, target) pairs of the graph's nodes from
--seed; the peers that search one-to-all or in Python (networkx, scipy,
igraph) answer the first --slow-queries of them. Each peer answers one
query per call with its own point-to-point (or one-to-all) function,
setup outside the timing:

- networkx: `dijkstra_path_length` and `bidirectional_dijkstra` on a
  `DiGraph` (parallel arcs: the cheapest kept);
- scipy: `csgraph.dijkstra(matrix, indices=source)`, one-to-all (it has
  no point-to-point search), on a CSR matrix (parallel arcs: the
  cheapest kept);
- igraph: `Graph.distances(source, target, weights=...)` on a directed
  graph with every arc;
- cairns: `GraphEngine.cost` for `bidijkstra`, `ch` and `hl` (their
  build before the first query timed apart), and `GraphEngine.costs`
  for all queries in one call on 1 and 2 threads.

Times are mean microseconds per query; "x networkx" is networkx
`dijkstra_path_length`'s time over the row's.
"""

import argparse
import math
import random
import time
from pathlib import Path

import numpy as np

import cairns_path as cp
from peers import timed  # each pair's answer and the mean seconds of a call

HERE = Path(__file__).resolve()
DEFAULT_GRAPH = HERE.parents[3].parent / "shared" / "data" / "roads" / "fast_paths" / "bremen_dist.gr"


def same(a, b):
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def check(name, got, want):
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if not same(g, w)]
    if bad:
        raise SystemExit(f"{name}: {len(bad)} costs differ from Dijkstra's, first {bad[0]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph", default=str(DEFAULT_GRAPH))
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--slow-queries", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2016)
    args = ap.parse_args()

    import igraph
    import networkx as nx
    from scipy import sparse
    from scipy.sparse import csgraph

    graph = cp.Graph.read(args.graph)
    n = graph.node_count
    src, dst, w = graph.edges()
    rng = random.Random(args.seed)
    pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(args.queries)]
    slow = pairs[: args.slow_queries]
    print(f"{args.graph}: {n} nodes, {graph.edge_count} arcs; {len(pairs)} queries "
          f"({len(slow)} for the one-to-all and pure-Python peers), seed {args.seed}")

    reference = cp.GraphEngine(graph, "dijkstra")
    want = [reference.cost(s, t) for s, t in pairs]
    print(f"{sum(math.isinf(c) for c in want)} of them have no path")

    rows = []  # (name, mean seconds a query, build seconds or None)

    # networkx: the cheapest of parallel arcs.
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u, v, c in zip(src.tolist(), dst.tolist(), w.tolist()):
        if not g.has_edge(u, v) or g[u][v]["weight"] > c:
            g.add_edge(u, v, weight=c)

    def nx_cost(s, t):
        try:
            return float(nx.dijkstra_path_length(g, s, t, weight="weight"))
        except nx.NetworkXNoPath:
            return math.inf

    def nx_bi(s, t):
        try:
            return float(nx.bidirectional_dijkstra(g, s, t, weight="weight")[0])
        except nx.NetworkXNoPath:
            return math.inf

    got, secs = timed(nx_cost, slow)
    check("networkx dijkstra_path_length", got, want)
    rows.append(("networkx dijkstra_path_length", secs, None))
    got, secs = timed(nx_bi, slow)
    check("networkx bidirectional_dijkstra", got, want)
    rows.append(("networkx bidirectional_dijkstra", secs, None))

    # scipy: a CSR matrix keeps the sum of duplicate entries, so the
    # cheapest arc of each pair is chosen first.
    cheapest = {}
    for u, v, c in zip(src.tolist(), dst.tolist(), w.tolist()):
        if cheapest.get((u, v), math.inf) > c:
            cheapest[(u, v)] = c
    keys = list(cheapest)
    # csgraph takes an explicit 0 entry as no arc: zero-cost arcs get the
    # smallest positive weight, which moves no cost above the tolerance.
    vals = [cheapest[k] or np.finfo(float).tiny for k in keys]
    matrix = sparse.csr_matrix(
        (vals, ([k[0] for k in keys], [k[1] for k in keys])), shape=(n, n)
    )
    got, secs = timed(lambda s, t: float(csgraph.dijkstra(matrix, indices=s)[t]), slow)
    check("scipy csgraph.dijkstra", got, want)
    rows.append(("scipy csgraph.dijkstra (one-to-all)", secs, None))

    # igraph: every arc, the searches pick the cheapest.
    ig = igraph.Graph(n=n, edges=list(zip(src.tolist(), dst.tolist())), directed=True)
    ig.es["weight"] = w.tolist()

    def ig_cost(s, t):
        return float(ig.distances(source=s, target=t, weights="weight", mode="out")[0][0])

    got, secs = timed(ig_cost, slow)
    check("igraph distances", got, want)
    rows.append(("igraph distances", secs, None))

    for search in ["bidijkstra", "ch", "hl"]:
        t0 = time.perf_counter()
        engine = cp.GraphEngine(graph, search)
        build = time.perf_counter() - t0
        got, secs = timed(engine.cost, pairs)
        check(f"cairns {search}", got, want)
        rows.append((f"cairns GraphEngine({search!r}).cost", secs, build))
        if search == "ch":
            starts = np.array([s for s, _ in pairs], dtype=np.uint32)
            goals = np.array([t for _, t in pairs], dtype=np.uint32)
            for threads in [1, 2]:
                t0 = time.perf_counter()
                batch = engine.costs(starts, goals, threads=threads)
                secs = (time.perf_counter() - t0) / len(pairs)
                check(f"cairns ch costs, {threads} threads", batch.tolist(), want)
                rows.append((f"cairns GraphEngine('ch').costs, {threads} thread(s)", secs, None))

    base = rows[0][1]
    print()
    print("| search | us/query | x networkx | built before the first query, s |")
    print("|---|---:|---:|---:|")
    for name, secs, build in rows:
        built = "" if build is None else f"{build:.2f}"
        print(f"| {name} | {secs * 1e6:.1f} | {base / secs:.1f} | {built} |")


if __name__ == "__main__":
    main()
