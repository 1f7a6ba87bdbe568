"""Graphs and graph searches against networkx and scipy: random directed
graphs with zero weights, parallel edges, self-loops and unreachable pairs,
and the Bremen road graph."""

import math
import pickle

import networkx as nx
import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph
from hypothesis import given, settings
from hypothesis import strategies as st

import cairns_path as cp

SEARCHES = ["dijkstra", "astar", "bidijkstra", "alt:3", "ch", "hl", "astar/fastmap:3"]


@st.composite
def directed_graphs(draw, max_nodes=12):
    """A random directed graph: integer weights 0 to 9, a quarter of them 0,
    self-loops and parallel edges allowed."""
    n = draw(st.integers(1, max_nodes))
    m = draw(st.integers(0, 3 * max_nodes))
    node = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(node, node, st.sampled_from([0, 0, 1, 2, 3, 5, 9])), min_size=m, max_size=m))
    return n, edges


def oracle(n, edges):
    """networkx's graph of the edges, parallel edges kept as their cheapest."""
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u, v, w in edges:
        if not g.has_edge(u, v) or g[u][v]["weight"] > w:
            g.add_edge(u, v, weight=w)
    return g


@settings(max_examples=60, deadline=None)
@given(directed_graphs())
def test_every_search_answers_as_networkx(graph):
    n, edges = graph
    cols = list(zip(*edges)) if edges else ([], [], [])
    g = cp.Graph(n, np.array(cols[0], dtype=np.int64), np.array(cols[1], dtype=np.int64), np.array(cols[2], dtype=float))
    want = dict(nx.all_pairs_dijkstra_path_length(oracle(n, edges)))
    pairs = [(s, t) for s in range(n) for t in range(n)]
    for search in SEARCHES:
        engine = cp.GraphEngine(g, search)
        for s, t in pairs:
            expected = want[s].get(t, math.inf)
            assert engine.cost(s, t) == expected, (search, s, t)
            path, cost = engine.path(s, t)
            assert cost == expected
            if math.isinf(expected):
                assert path.size == 0
            else:
                assert path[0] == s and path[-1] == t
                assert sum(min(w for a, b, w in edges if (a, b) == (x, y)) for x, y in zip(path[:-1], path[1:])) == expected
        starts, goals = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
        assert engine.costs(starts, goals, threads=2).tolist() == [want[s].get(t, math.inf) for s, t in pairs]


def test_bremen_matches_scipy(roads):
    g = cp.Graph.read(roads / "fast_paths" / "bremen_time.gr")
    assert (g.node_count, g.edge_count, g.first_id) == (40461, 86475, 0)
    sources, targets, weights = g.edges()
    rng = np.random.default_rng(5)
    starts = rng.integers(0, g.node_count, 20)
    goals = rng.integers(0, g.node_count, 20)
    # scipy sums parallel edges when it builds a matrix: give it the
    # cheapest of each.
    best = {}
    for u, v, w in zip(sources.tolist(), targets.tolist(), weights.tolist()):
        best[(u, v)] = min(w, best.get((u, v), math.inf))
    keys = list(best)
    rows = np.array([k[0] for k in keys])
    cols = np.array([k[1] for k in keys])
    vals = np.array([best[k] for k in keys])
    matrix = scipy.sparse.csr_matrix((vals, (rows, cols)), shape=(g.node_count,) * 2)
    want = scipy.sparse.csgraph.dijkstra(matrix, directed=True, indices=starts)[np.arange(20), goals]
    for search in SEARCHES:
        engine = cp.GraphEngine(g, search)
        got = engine.costs(starts, goals, threads=2)
        np.testing.assert_allclose(got, want, rtol=1e-9)
    assert cp.GraphEngine(g, "ch").table_bytes > 0


def test_sparse_matrices_pickles_and_reprs():
    m = scipy.sparse.csr_matrix(np.array([[0, 4, 1, 0], [0, 0, 0, 1], [0, 2, 0, 0], [0, 0, 0, 0]], dtype=float))
    g = cp.Graph.from_sparse(m)
    assert repr(g) == "Graph(4 nodes, 4 edges)"
    engine = cp.GraphEngine(g, "ch")
    assert engine.path(0, 3)[0].tolist() == [0, 2, 1, 3]
    again = pickle.loads(pickle.dumps(engine))
    assert again.search == "ch" and again.cost(0, 3) == 4.0 and again.cost(3, 0) == math.inf
    assert pickle.loads(pickle.dumps(g)).edge_count == 4


def test_bad_input_says_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match=r"targets\[1\] is node 7, outside the graph's nodes 0 to 2"):
        cp.Graph(3, [0, 1], [1, 7], [1.0, 1.0])
    with pytest.raises(ValueError, match="negative"):
        cp.Graph(3, [0], [1], [-1.0])
    with pytest.raises(ValueError, match="2 sources but 1 targets"):
        cp.Graph(3, [0, 1], [1], [1.0, 1.0])
    with pytest.raises(ValueError, match="must be square"):
        cp.Graph.from_sparse(scipy.sparse.csr_matrix(np.ones((2, 3))))
    bad = tmp_path / "bad.gr"
    bad.write_text("p sp 2 1\na 1 3 1\n")
    with pytest.raises(ValueError, match=r"bad\.gr: line 2"):
        cp.Graph.read(bad)
    with pytest.raises(FileNotFoundError):
        cp.Graph.read(tmp_path / "missing.gr")
    engine = cp.GraphEngine(cp.Graph(2, [0], [1], [1.0]), "bidijkstra")
    with pytest.raises(ValueError, match="goal 2 is outside the graph's nodes 0 to 1"):
        engine.cost(0, 2)
    with pytest.raises(ValueError, match="unknown graph search"):
        cp.GraphEngine(engine.graph, "chh")


def test_tables_save_load_pickle_and_answer_matrices(roads, tmp_path):
    g = cp.Graph.read(roads / "dimacs" / "rome99.gr")
    assert g.first_id == 1 and g.coordinates is None
    rng = np.random.default_rng(11)
    sources = rng.integers(0, g.node_count, 30)
    targets = rng.integers(0, g.node_count, 40)
    want = cp.GraphEngine(g, "dijkstra").matrix(sources, targets)
    assert want.shape == (30, 40) and np.isfinite(want).sum() > 0
    for search in ["ch", "hl", "alt:4"]:
        built = cp.GraphEngine(g, search)
        assert not built.loaded
        path = tmp_path / f"rome.{search.replace(':', '')}"
        built.save(path)
        for engine in [cp.GraphEngine.load(g, path), cp.GraphEngine.load(g, built.to_bytes()), pickle.loads(pickle.dumps(built))]:
            assert engine.loaded and engine.search == built.search, search
            assert engine.table_bytes == built.table_bytes
            np.testing.assert_array_equal(engine.matrix(sources, targets), want, err_msg=search)
        assert path.read_bytes() == built.to_bytes()
    # A search without a table pickles as its name, and builds again.
    again = pickle.loads(pickle.dumps(cp.GraphEngine(g, "bidijkstra")))
    assert not again.loaded and again.cost(0, 5) == want_cost(g, 0, 5)
    assert cp.GraphEngine(g, "ch").matrix([], targets).shape == (0, 40)


def want_cost(g, s, t):
    return cp.GraphEngine(g, "dijkstra").cost(s, t)


def test_table_files_refuse_what_is_wrong(roads, tmp_path):
    g = cp.Graph(3, [0, 1], [1, 2], [1.0, 2.0])
    with pytest.raises(ValueError, match="dijkstra builds no table to save"):
        cp.GraphEngine(g, "dijkstra").save(tmp_path / "x")
    with pytest.raises(ValueError, match="FastMap embedding is not saved"):
        cp.GraphEngine(g, "astar/fastmap:2").to_bytes()
    table = cp.GraphEngine(g, "ch").to_bytes()
    other = cp.Graph(3, [0, 1], [1, 2], [1.0, 3.0])
    with pytest.raises(ValueError, match="table: cannot load the table: .*graph"):
        cp.GraphEngine.load(other, table)
    with pytest.raises(ValueError, match="cannot load the table"):
        cp.GraphEngine.load(g, table[:-3])
    with pytest.raises(FileNotFoundError, match="missing.ch: cannot open the table file"):
        cp.GraphEngine.load(g, tmp_path / "missing.ch")
    with pytest.raises(OSError, match="cannot write the table"):
        cp.GraphEngine(g, "ch").save(tmp_path / "no" / "such" / "dir.ch")
    with pytest.raises(ValueError, match="sources\\[0\\] is node 3"):
        cp.GraphEngine(g, "ch").matrix([3], [0])


def test_coordinates_give_astar_its_heuristic(roads):
    g = cp.Graph.read(roads / "osm" / "andorra.osm.pbf")
    assert g.lon_lat and g.coordinates.shape == (g.node_count, 2)
    lon, lat = g.coordinates.T
    assert 1.4 < lon.min() and lon.max() < 1.8 and 42.4 < lat.min() and lat.max() < 42.7
    rng = np.random.default_rng(3)
    starts, goals = rng.integers(0, g.node_count, (2, 100))
    want = cp.GraphEngine(g, "dijkstra").costs(starts, goals)
    astar = cp.GraphEngine(g, "astar")
    assert astar.table_bytes == 16 * g.node_count  # the projected points
    np.testing.assert_array_equal(astar.costs(starts, goals, threads=2), want)
    # The same graph without its places: astar searches as Dijkstra does.
    bare = cp.Graph(g.node_count, *g.edges())
    assert bare.coordinates is None and cp.GraphEngine(bare, "astar").table_bytes == 0
    # Places survive a pickle, with the ids' start.
    again = pickle.loads(pickle.dumps(cp.Graph(2, [0], [1], [1.0], coordinates=[[0, 0], [3, 4]], first_id=1)))
    assert again.first_id == 1 and not again.lon_lat and again.coordinates.tolist() == [[0.0, 0.0], [3.0, 4.0]]
    assert pickle.loads(pickle.dumps(g)).lon_lat


def test_planar_coordinates_from_arrays_and_files(tmp_path):
    gr, co = tmp_path / "square.gr", tmp_path / "square.co"
    gr.write_text("p sp 4 5\na 1 2 10\na 2 4 10\na 1 3 10\na 3 4 11\na 1 4 30\n")
    co.write_text("p aux sp co 4\nv 1 0 0\nv 2 10 0\nv 3 0 10\nv 4 10 10\n")
    g = cp.Graph.read(gr, coordinates=co)
    assert not g.lon_lat and g.coordinates.tolist() == [[0, 0], [10, 0], [0, 10], [10, 10]]
    engine = cp.GraphEngine(g, "astar")
    assert engine.cost(0, 3) == 20.0 and engine.path(0, 3)[0].tolist() == [0, 1, 3]
    with pytest.raises(ValueError, match=r"shape \(4, 2\)"):
        cp.Graph(4, [0], [1], [1.0], coordinates=[[0, 0]])
    with pytest.raises(ValueError, match=r"coordinates\[1\] is \[NaN, 0.0\], not a finite point"):
        cp.Graph(2, [0], [1], [1.0], coordinates=[[0, 0], [math.nan, 0]])
    with pytest.raises(ValueError, match=r"coordinates\[0\] is \[200.0, 0.0\], not a longitude and latitude"):
        cp.Graph(2, [0], [1], [1.0], coordinates=[[200, 0], [0, 0]], lon_lat=True)
    with pytest.raises(ValueError, match=r"square\.gr\.co: line"):
        bad = tmp_path / "square.gr.co"
        bad.write_text("p aux sp co 4\nv 1 0\n")
        cp.Graph.read(gr, coordinates=bad)
