"""Optimal grid pathfinding on numpy arrays: the cairns engine from Python.

A grid comes from a numpy array (``True`` is a wall, or a float cost per
cell with ``inf`` for walls) or a Moving AI ``.map`` file. Points are
``(x, y)`` as in the Moving AI files and the ``cairns`` command; arrays are
indexed ``[y, x]``.

>>> import numpy as np
>>> import cairns_path as cp
>>> walls = np.zeros((3, 9), dtype=bool)
>>> walls[:2, 4] = True                      # a wall with a gap at the bottom
>>> engine = cp.Engine(cp.Grid(walls), "jps")
>>> path, cost = engine.path((0, 0), (8, 0))
>>> round(cost, 4)
9.6569
>>> path[0].tolist(), path[-1].tolist()
([0, 0], [8, 0])
"""

from ._native import (
    Engine,
    Graph,
    GraphEngine,
    Grid,
    __version__,
    parse_map,
    read_map,
    read_scen,
    run_scen,
)

__all__ = [
    "Engine",
    "Graph",
    "GraphEngine",
    "Grid",
    "__version__",
    "parse_map",
    "read_map",
    "read_scen",
    "run_scen",
]
