"""A research run spread over processes with Dask's distributed scheduler
(an existing engine, not one of ours): one map per task, engines with
their tables pickled back to the client, the docs' example on a local
cluster of 2 worker processes."""

import numpy as np
import pytest

import cairns_path as cp

distributed = pytest.importorskip("dask.distributed")


def prepare(map_path, spec):
    """On a worker: read the map, build the engine's tables; the engine
    comes back pickled, tables included."""
    return cp.Engine(cp.read_map(map_path), spec)


def solve(scen_path, spec):
    """On a worker: a whole scenario file, every cost checked."""
    r = cp.run_scen(scen_path, spec)
    return r["name"], r["queries"], len(r["mismatches"]), r["cost"]


def test_scenario_files_on_a_local_cluster(movingai):
    scens = sorted((movingai / "dao").glob("*.map.scen"))[:6]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            results = client.gather(client.map(solve, scens, spec="jps+"))
            maps = [s.with_suffix("") for s in scens[:2]]
            engines = client.gather(client.map(prepare, maps, spec="jps+/dh:4"))
    assert [name for name, *_ in results] == [s.name.removesuffix(".map.scen") for s in scens]
    assert all(queries > 0 and mismatches == 0 for _, queries, mismatches, _ in results)
    for engine, scen in zip(engines, scens[:2]):
        assert all("loaded in" in line for line in engine.tables)  # shipped, not rebuilt
        columns = cp.read_scen(scen)
        local = cp.Engine(engine.grid, "jps+").costs(columns["start"], columns["goal"])
        assert np.array_equal(engine.costs(columns["start"], columns["goal"]), local)


def matrix_block(graph_path, table_path, sources, targets):
    """On a worker: the graph read and its saved hierarchy loaded (not
    built), one block of rows answered."""
    engine = cp.GraphEngine.load(cp.Graph.read(graph_path), table_path)
    assert engine.loaded
    return engine.matrix(sources, targets)


def test_a_distance_matrix_by_rows_on_a_local_cluster(roads, tmp_path):
    graph_path = roads / "fast_paths" / "bremen_dist.gr"
    bremen = cp.Graph.read(graph_path)
    table = tmp_path / "bremen.ch"
    cp.GraphEngine(bremen, "ch").save(table)
    rng = np.random.default_rng(4)
    sources, targets = rng.integers(0, bremen.node_count, (2, 300))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            parts = np.array_split(sources, 5)
            blocks = client.gather(client.map(matrix_block, [graph_path] * 5, [table] * 5, parts, targets=targets))
    matrix = np.vstack(blocks)
    assert matrix.shape == (300, 300)
    # Every entry as one machine's Dijkstra gives it, row by row.
    dijkstra = cp.GraphEngine(bremen, "dijkstra")
    for i in range(0, 300, 30):
        want = dijkstra.costs(np.full(300, sources[i]), targets)
        np.testing.assert_array_equal(matrix[i], want)
    np.testing.assert_array_equal(matrix, cp.GraphEngine.load(bremen, table).matrix(sources, targets))
