"""The Moving AI scenario files through Python: every published length
matched (0 mismatches), the .scen columns, and the runner's results."""

import math

import numpy as np
import pytest

import cairns_path as cp


# Every family of ../shared/data/movingai, with `jps`: every scenario,
# every 10th in maze and random (where jps takes a minute over all of
# them), and wc3maps512, whose published lengths are wrong (INVENTORY.md,
# "Known defects"), every 20th against Dijkstra, its scenarios with a
# blocked endpoint reported as data errors.
FAMILIES = {
    "bg512": (1, "published"),
    "da2": (1, "published"),
    "dao": (1, "published"),
    "maze": (10, "published"),
    "random": (10, "published"),
    "room": (1, "published"),
    "sc1": (1, "published"),
    "street": (1, "published"),
    "wc3maps512": (20, "dijkstra"),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_matches_its_lengths(movingai, family):
    every, reference = FAMILIES[family]
    scens = sorted((movingai / family).glob("*.map.scen"))
    assert scens, f"no scenario files in {movingai / family}"
    total = 0
    for scen in scens:
        result = cp.run_scen(scen, "jps", every=every, threads=2, reference=reference)
        assert result["mismatches"] == [], f"{scen.name}: {result['mismatches'][:3]}"
        if family != "wc3maps512":
            assert result["data_errors"] == [], f"{scen.name}: {result['data_errors'][:3]}"
        assert result["queries"] == len(result["cost"]) > 0
        total += result["queries"]
    assert total >= 100


@pytest.mark.parametrize("movement", ["4", "octile-cut"])
def test_another_movement_rule_is_checked_against_dijkstra(movingai, movement):
    scen = movingai / "dao" / "arena.map.scen"
    result = cp.run_scen(scen, "astar/dh:4", every=10, threads=2, movement=movement)
    assert result["movement"] == movement and result["reference"] == "dijkstra"
    assert result["mismatches"] == [] and result["queries"] > 0
    # The published lengths are octile ones: 4-connected paths are longer.
    if movement == "4":
        assert sum(result["cost"]) > sum(result["optimal"])
    with pytest.raises(ValueError, match="not 4-connected; there use jps"):
        cp.run_scen(scen, "jps+bb", every=10, movement="4")
    table = cp.run_scen(scen, "jps+", every=10, threads=2, movement=movement)
    assert table["mismatches"] == [] and np.allclose(table["cost"], result["cost"], rtol=1e-9)


def test_astar_matches_the_dao_lengths(movingai):
    # A* takes ~50 times as long as jps: every 8th scenario.
    total = 0
    for scen in sorted((movingai / "dao").glob("*.map.scen")):
        result = cp.run_scen(scen, "astar", every=8, threads=2)
        assert result["mismatches"] == [], f"{scen.name}: {result['mismatches'][:3]}"
        total += result["queries"]
    assert total > 2000


def test_scenario_columns_match_the_engine(movingai):
    scen = movingai / "dao" / "arena.map.scen"
    columns = cp.read_scen(scen)
    n = len(columns["line"])
    assert n > 100 and columns["version"] in ("1", "1.0")
    assert columns["start"].shape == columns["goal"].shape == (n, 2)
    grid = cp.read_map(movingai / "dao" / "arena.map")
    assert (grid.width, grid.height) == (columns["map_width"][0], columns["map_height"][0])
    engine = cp.Engine(grid, "jps+")
    costs = engine.costs(columns["start"], columns["goal"])
    # The published lengths are printed to 4-6 significant digits.
    assert np.allclose(costs, columns["optimal"], rtol=1e-5, atol=1e-3)
    result = cp.run_scen(scen, "jps+", threads=2)
    assert result["spec"].startswith("jps+")
    assert result["queries"] == n
    assert result["cost"].tolist() == costs.tolist()
    assert (result["line"] == columns["line"]).all()


def test_a_map_through_numpy_is_the_same_map(movingai):
    grid = cp.read_map(movingai / "dao" / "arena.map")
    again = cp.Grid(grid.walls())
    columns = cp.read_scen(movingai / "dao" / "arena.map.scen")
    a = cp.Engine(grid, "jps").costs(columns["start"], columns["goal"])
    b = cp.Engine(again, "jps").costs(columns["start"], columns["goal"])
    assert a.tolist() == b.tolist()
    assert cp.parse_map(grid.to_map_text()).walls().tolist() == grid.walls().tolist()


def test_a_wrong_published_length_is_a_mismatch(movingai, tmp_path):
    src = movingai / "dao" / "arena.map.scen"
    lines = src.read_text().splitlines()
    fields = lines[1].split("\t")
    fields[-1] = str(float(fields[-1]) + 1.0)
    lines[1] = "\t".join(fields)
    bad = tmp_path / "arena.map.scen"
    bad.write_text("\n".join(lines) + "\n")
    result = cp.run_scen(bad, "jps", map=movingai / "dao" / "arena.map")
    assert len(result["mismatches"]) == 1
    assert result["mismatches"][0].startswith("line 2: mismatch")
    # Against Dijkstra instead of the file's lengths, it passes.
    assert cp.run_scen(bad, "jps", map=movingai / "dao" / "arena.map", reference="dijkstra")["mismatches"] == []
    assert math.isfinite(result["total_s"])
