#!/usr/bin/env python3
"""Cross-peer benchmark: cairns against warthog, mkpath and the `pathfinding`
crate on the same Moving AI queries, measured the way the field measures.

Not part of CI. Python 3 standard library only.

    python3 bench/scripts/peerbench.py --quick      # 2 maps per family, 40 queries each
    python3 bench/scripts/peerbench.py              # every map, every scenario (long)

What it does, per map of every family of the data directory:

1. Reads the scenario file and its map, drops the scenarios whose endpoints
   are off the map or on a wall (counted as data errors) and, with --quick or
   --max-queries, keeps an even sample. The kept scenarios are written to a
   scratch scenario file (`version 1`, tab-separated, the map column an
   absolute path, each length as published) which every implementation reads:
   all of them run exactly the same queries.
2. Runs three groups back to back, each implementation in its own process
   under `/usr/bin/time -v` (peak memory = maximum resident set size):
   A* (cairns `astar`, warthog `astar`, `pathfinding::astar`), JPS (cairns
   `jps`, warthog `jps2`, mkpath `jps`) and JPS+ (cairns `jps+`, warthog
   `jps2+`, mkpath `jps_plus`). The order of the groups and of the
   implementations inside each group is rotated from one map to the next.
3. Checks every cost of every implementation against the published length
   (cairns' `lengths_match` rule: |C - V| <= max(0.5 * 10^-d, 1e-5 * V), d the
   decimals printed), widened by the rounding of the peer's own printing
   (warthog prints 6 significant digits, mkpath 2 decimals). For the families
   whose published lengths are wrong (wc3maps512) the reference is cairns'
   Dijkstra on the same queries, compared with cairns' `same_cost` tolerance
   (relative 1e-9) plus the peer's printing. Mismatches are counted and listed,
   never dropped.
4. Computes per map the ratio cairns / peer of the mean time per query, and
   (for peers that time each query: warthog, pathfinding) the median over the
   queries of the per-query ratio; the geometric mean over the maps of a
   family, and over the families.
5. Writes a generated block between `<!-- peers:begin -->` and
   `<!-- peers:end -->` in docs/performance.md (date, machine, command,
   tables), and optionally a per-map CSV.

Where a peer does not print something, it is estimated and labelled so:
mkpath prints one total `Search` time per file (no per-query times, no
expansions), and its `jps_plus` builds its jump database inside that timer,
so its preprocessing is the `Search` time of a one-query run of the same map
(minimum of 3), subtracted from the full run. warthog times each query but not
its JPS+ preprocessing: it is estimated as the wall-time difference between
one-query runs of `jps2+` and `jps2` (minimum of 3 each). Neither prints the
size of its jump table (warthog's `total memory` leaves it out): the bytes are
the difference in peak memory (max RSS) between one-query runs with and
without the table.
"""

import argparse
import csv
import datetime
import json
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BEGIN = "<!-- peers:begin -->"
END = "<!-- peers:end -->"
# Families whose published lengths are not ground truth (INVENTORY.md).
DIJKSTRA_FAMILIES = {"wc3maps512"}
PASSABLE = set(".GS")

# The implementations, by group. `kind` says how to run and read each one;
# `printing` how precisely it prints costs: ("sig", n) significant digits or
# ("dec", n) decimals.
GROUPS = [
    ("A*", [
        ("cairns astar", "cairns", "astar", ("dec", 9)),
        ("warthog astar", "warthog", "astar", ("sig", 6)),
        ("pathfinding", "pathfinding", None, ("dec", 9)),
    ]),
    ("JPS", [
        ("cairns jps", "cairns", "jps", ("dec", 9)),
        ("warthog jps2", "warthog-jps", "jps2", ("sig", 6)),
        ("mkpath jps", "mkpath", "jps", ("dec", 2)),
    ]),
    ("JPS+", [
        ("cairns jps+", "cairns", "jps+", ("dec", 9)),
        ("warthog jps2+", "warthog-jps", "jps2+", ("sig", 6)),
        ("mkpath jps+", "mkpath", "jps_plus", ("dec", 2)),
    ]),
]
IMPLS = [impl for _, impls in GROUPS for impl in impls]


def fail(message):
    print(f"peerbench: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- building


def run_checked(cmd, **kwargs):
    print("+ " + " ".join(shlex.quote(str(c)) for c in cmd), file=sys.stderr)
    result = subprocess.run(cmd, **kwargs)
    if result.returncode != 0:
        fail(f"command failed with status {result.returncode}: {' '.join(map(str, cmd))}")
    return result


def build_cairns():
    """The release `cairns` binary and the `pathfinding_scen` bench binary."""
    run_checked(["cargo", "build", "--release", "-q", "-p", "cairns-cli"], cwd=ROOT)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    cairns = target / "release" / "cairns"
    out = run_checked(
        ["cargo", "bench", "-q", "-p", "cairns-bench", "--bench", "pathfinding_scen",
         "--no-run", "--message-format=json"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    ).stdout
    pf = None
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if msg.get("executable") and msg.get("target", {}).get("name") == "pathfinding_scen":
            pf = Path(msg["executable"])
    if pf is None:
        fail("cargo did not report the pathfinding_scen executable")
    return cairns, pf


def peer_paths(out):
    return {
        "warthog": out / "warthog" / "warthog",
        "warthog-jps": out / "warthog" / "warthog-jps",
        "mkpath": out / "mkpath" / "release" / "examples",
    }


def build_peers(src, out):
    """The peers' binaries in `out`, built with the peers' own build.sh when
    any is missing."""
    paths = peer_paths(out)
    wanted = [paths["warthog"], paths["warthog-jps"],
              paths["mkpath"] / "jps", paths["mkpath"] / "jps_plus"]
    if not all(p.is_file() for p in wanted):
        if not (src / "build.sh").is_file():
            fail(f"{src}/build.sh not found (give the peers' sources with --peers-src)")
        run_checked(["bash", str(src / "build.sh"), str(out)])
    missing = [str(p) for p in wanted if not p.is_file()]
    if missing:
        fail(f"peers not built: {', '.join(missing)}")
    return paths


# ---------------------------------------------------------------- data


def read_map(path):
    """(width, height, rows) of a Moving AI map; rows as strings."""
    lines = path.read_text().splitlines()
    header = {}
    i = 0
    while i < len(lines) and lines[i].strip() != "map":
        parts = lines[i].split()
        if len(parts) == 2:
            header[parts[0]] = parts[1]
        i += 1
    try:
        width, height = int(header["width"]), int(header["height"])
    except (KeyError, ValueError):
        fail(f"{path}: no width/height header")
    rows = lines[i + 1:i + 1 + height]
    return width, height, rows


def decimals(text):
    return len(text.split(".", 1)[1]) if "." in text else 0


def load_queries(scen, map_path):
    """The scenarios of `scen` that fit the map, and the number that do not."""
    width, height, rows = read_map(map_path)

    def free(x, y):
        return 0 <= x < width and 0 <= y < height and x < len(rows[y]) and rows[y][x] in PASSABLE

    queries, data_errors = [], 0
    for number, line in enumerate(scen.read_text().splitlines()[1:], start=2):
        f = line.split()
        if not f:
            continue
        if len(f) < 9:
            fail(f"{scen}: line {number}: {len(f)} fields, expected 9")
        try:
            sx, sy, gx, gy = (int(v) for v in f[4:8])
            optimal = float(f[8])
        except ValueError:
            fail(f"{scen}: line {number}: not a number in {line!r}")
        if int(f[2]) != width or int(f[3]) != height or not free(sx, sy) or not free(gx, gy):
            data_errors += 1
            continue
        queries.append({
            "line": number, "bucket": f[0], "start": (sx, sy), "goal": (gx, gy),
            "text": f[8], "optimal": optimal, "decimals": decimals(f[8]),
            "width": width, "height": height,
        })
    return queries, data_errors


def keep_at_most(queries, most):
    """Every ceil(n / most)-th query, starting with the first (the library's
    `Instance::keep_at_most`)."""
    if not most or len(queries) <= most:
        return queries
    step = -(-len(queries) // most)
    return queries[::step]


def write_scen(path, map_path, queries):
    with open(path, "w") as f:
        f.write("version 1\n")
        for q in queries:
            f.write("\t".join(map(str, [
                q["bucket"], map_path, q["width"], q["height"], *q["start"], *q["goal"], q["text"],
            ])) + "\n")


# ---------------------------------------------------------------- running


def timed(cmd, scratch):
    """Runs `cmd` under /usr/bin/time -v: (status, stdout, stderr, wall s,
    max RSS in KiB)."""
    tfile = scratch / "time.txt"
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v", "-o", str(tfile), *map(str, cmd)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    rss = None
    if tfile.exists():
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", tfile.read_text())
        rss = int(m.group(1)) if m else None
    return p.returncode, p.stdout, p.stderr, wall, rss


def parse_duration(text):
    """A Rust `Duration` printed with `{:?}` (`42ns`, `3.11ms`, `1.2s`) in s."""
    m = re.fullmatch(r"([0-9.]+)(ns|µs|us|ms|s)", text.strip())
    if not m:
        raise ValueError(f"not a duration: {text!r}")
    scale = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}[m.group(2)]
    return float(m.group(1)) * scale


def parse_cost(text):
    if text in ("none", "failed to find path"):
        return None
    c = float(text)
    # warthog prints DBL_MAX (1.79769e+308) when it finds no path.
    return c if math.isfinite(c) and 0 <= c < 1e300 else None


def new_result():
    return {"costs": None, "nanos": None, "expanded": None, "search_s": None,
            "preprocess_s": None, "bytes": None, "rss_kb": None, "wall_s": None,
            "error": None, "self_mismatches": None}


def run_cairns(ctx, job, search, scratch):
    r = new_result()
    table = scratch / "per-query.tsv"
    cmd = [ctx.cairns, "scen", job["scen"], "--map", job["map"], "--search", search,
           "--json", "--per-query", table, "--skip-data-errors"]
    if job["family"] in DIJKSTRA_FAMILIES:
        cmd += ["--against", "dijkstra"]
    status, out, err, r["wall_s"], r["rss_kb"] = timed(cmd, scratch)
    if status not in (0, 1) or not table.exists():
        r["error"] = f"exit {status}: {err.strip()[-300:]}"
        return r
    summary = json.loads(out.splitlines()[0])
    rows = [l.split("\t") for l in table.read_text().splitlines()[1:]]
    table.unlink()
    r["costs"] = [parse_cost(f[2]) for f in rows]
    r["expanded"] = [int(f[3]) for f in rows]
    r["nanos"] = [int(f[4]) for f in rows]
    r["search_s"] = sum(r["nanos"]) * 1e-9
    r["self_mismatches"] = summary["mismatches"]
    if search == "jps+":
        r["preprocess_s"] = summary["preprocess_s"]
        r["bytes"] = summary["table_bytes"]
    return r


def warthog_rows(out, job):
    rows = [l.split("\t") for l in out.splitlines()]
    rows = [f for f in rows if len(f) >= 11 and f[0].isdigit()]
    costs = []
    for f, q in zip(rows, job["queries"]):
        cost = parse_cost(f[9])
        # An empty path (plen 0) between two cells is "no path".
        if f[8] == "0" and q["start"] != q["goal"]:
            cost = None
        costs.append(cost)
    return rows, costs


def run_warthog(ctx, job, binary, alg, scratch):
    r = new_result()
    cmd = [binary, "--alg", alg, "--scen", job["scen"], "--map", job["map"]]
    status, out, err, r["wall_s"], r["rss_kb"] = timed(cmd, scratch)
    rows, costs = warthog_rows(out, job)
    if status != 0 or len(rows) != len(job["queries"]):
        r["error"] = f"exit {status}, {len(rows)} of {len(job['queries'])} rows: {err.strip()[-300:]}"
        return r
    r["costs"] = costs
    r["expanded"] = [int(f[2]) for f in rows]
    r["nanos"] = [int(f[7]) for f in rows]
    r["search_s"] = sum(r["nanos"]) * 1e-9
    if alg == "jps2+":
        # Neither is printed: estimated from one-query runs of jps2+ and jps2.
        r["preprocess_s"], r["bytes"] = one_query_difference(
            [binary, "--alg", "jps2+", "--scen", job["one"], "--map", job["map"]],
            [binary, "--alg", "jps2", "--scen", job["one"], "--map", job["map"]], scratch)
    return r


def one_query_difference(with_table, without, scratch):
    """Preprocessing seconds and bytes of a peer that prints neither: the
    differences in wall time and in peak memory (max RSS) between one-query
    runs with and without its table, the minimum of 3 runs of each."""
    best = {}
    for key, cmd in (("with", with_table), ("without", without)):
        walls, rss = [], []
        for _ in range(3):
            _, _, _, wall, kb = timed(cmd, scratch)
            walls.append(wall)
            rss.append(kb or 0)
        best[key] = (min(walls), min(rss))
    seconds = max(best["with"][0] - best["without"][0], 0.0)
    stored = max(best["with"][1] - best["without"][1], 0) * 1024
    return seconds, stored


def mkpath_run(binary, scen, scratch):
    status, out, err, wall, rss = timed([binary, scen], scratch)
    m = re.search(r"Load:\s*(\S+)\s+Search:\s*(\S+)", err)
    if status != 0 or not m:
        return None, f"exit {status}: {err.strip()[-300:]}", wall, rss
    costs = []
    for line in out.splitlines():
        if line.startswith("failed to find path"):
            costs.append(None)
        elif line.strip():
            costs.append(parse_cost(line.split()[0]))
    return (costs, parse_duration(m.group(2))), None, wall, rss


def run_mkpath(ctx, job, example, scratch):
    r = new_result()
    binary = ctx.peers["mkpath"] / example
    parsed, r["error"], r["wall_s"], r["rss_kb"] = mkpath_run(binary, job["scen"], scratch)
    if parsed is None:
        return r
    costs, search_s = parsed
    if len(costs) != len(job["queries"]):
        r["error"] = f"{len(costs)} of {len(job['queries'])} costs printed"
        return r
    r["costs"] = costs
    if example == "jps_plus":
        # The jump database is built inside mkpath's Search timer.
        prep = []
        for _ in range(3):
            one, error, _, _ = mkpath_run(binary, job["one"], scratch)
            if one is None:
                r["error"] = f"one-query run: {error}"
                return r
            prep.append(one[1])
        r["preprocess_s"] = min(prep)
        search_s = max(search_s - r["preprocess_s"], 0.0)
        # mkpath prints no table size: the peak-memory difference from its
        # online jps on the same one-query file.
        _, r["bytes"] = one_query_difference(
            [binary, job["one"]], [ctx.peers["mkpath"] / "jps", job["one"]], scratch)
    r["search_s"] = search_s
    return r


def run_pathfinding(ctx, job, scratch):
    r = new_result()
    cmd = [ctx.pf, job["scen"], "--map", job["map"]]
    status, out, err, r["wall_s"], r["rss_kb"] = timed(cmd, scratch)
    rows = [l.split("\t") for l in out.splitlines()[1:]]
    if status != 0 or len(rows) != len(job["queries"]):
        r["error"] = f"exit {status}, {len(rows)} rows: {err.strip()[-300:]}"
        return r
    r["costs"] = [parse_cost(f[2]) for f in rows]
    r["nanos"] = [int(f[3]) for f in rows]
    r["search_s"] = sum(r["nanos"]) * 1e-9
    return r


def run_impl(ctx, job, impl, scratch):
    _, kind, arg, _ = impl
    if kind == "cairns":
        return run_cairns(ctx, job, arg, scratch)
    if kind in ("warthog", "warthog-jps"):
        return run_warthog(ctx, job, ctx.peers[kind], arg, scratch)
    if kind == "mkpath":
        return run_mkpath(ctx, job, arg, scratch)
    return run_pathfinding(ctx, job, scratch)


# ---------------------------------------------------------------- checking


def printing_error(value, printing):
    """The largest rounding error of a cost printed as `printing`."""
    how, n = printing
    if how == "dec":
        return 0.5 * 10.0 ** -n
    if value == 0:
        return 0.0
    return 0.5 * 10.0 ** (math.floor(math.log10(abs(value))) - (n - 1))


def cost_matches(found, q, printing):
    """Whether a printed cost is the query's reference cost."""
    ref = q["reference"]
    if found is None or ref is None:
        return found is None and ref is None
    slack = printing_error(found, printing)
    if q["ref_decimals"] is None:  # a computed cost: same_cost
        # cairns' Dijkstra prices a diagonal at grid::DIAGONAL, sqrt(2)
        # rounded to f32 (1.7e-8 below, relatively); the peers use sqrt(2).
        tol = 2e-8 * (1.0 + max(abs(found), abs(ref)))
    else:  # a published length: lengths_match
        tol = max(0.5 * 10.0 ** -q["ref_decimals"], 1e-5 * abs(ref))
    return abs(found - ref) <= tol + slack


def check(result, job, impl):
    mismatches = []
    for q, cost in zip(job["queries"], result["costs"]):
        if not cost_matches(cost, q, impl[3]):
            mismatches.append(f"{job['family']}/{job['name']} line {q['line']}: {impl[0]} "
                              f"found {cost}, reference {q['reference']}")
    return mismatches


# ---------------------------------------------------------------- summaries


def geomean(values):
    values = [v for v in values if v and v > 0 and math.isfinite(v)]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def mean(values):
    return sum(values) / len(values) if values else None


def fmt(value, digits=2):
    if value is None:
        return "n/a"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def secs(value):
    """Seconds with 4 significant digits."""
    return "n/a" if value is None else f"{value:.4g}"


def per_map_ratios(results, group_impls):
    """cairns / peer for one map: ratio of the mean times, and the median of
    the per-query ratios where both time each query."""
    base = results[group_impls[0][0]]
    out = {}
    for impl in group_impls[1:]:
        peer = results[impl[0]]
        if base["search_s"] is None or peer["search_s"] is None or not peer["search_s"]:
            out[impl[0]] = (None, None)
            continue
        mean_ratio = base["search_s"] / peer["search_s"]
        median_ratio = None
        if base["nanos"] and peer["nanos"]:
            median_ratio = statistics.median(
                max(b, 1) / max(p, 1) for b, p in zip(base["nanos"], peer["nanos"]))
        out[impl[0]] = (mean_ratio, median_ratio)
    return out


def machine():
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"nproc {os.cpu_count()}, {model}, load average {load:.2f} at the start"


def report(ctx, jobs, maps_out, mismatches, data_errors, started):
    fams = sorted({j["family"] for j in jobs})
    lines = [BEGIN, "", "## Against warthog, mkpath and `pathfinding` (generated)", ""]
    lines += [
        f"Generated by `bench/scripts/peerbench.py` on {started:%Y-%m-%d %H:%M} "
        f"({ctx.machine}); do not edit by hand. Command:",
        "", "```sh", ctx.command, "```", "",
        f"{'Quick mode: ' if ctx.quick else ''}{sum(len(j['queries']) for j in jobs):,} queries "
        f"on {len(jobs)} maps of {len(fams)} families"
        + (f", at most {ctx.max_maps} map(s) per family" if ctx.max_maps else "")
        + (f", at most {ctx.max_queries} queries per map" if ctx.max_queries else ", every scenario")
        + f"; {data_errors} scenario(s) skipped because an endpoint is off the map or on a wall. "
        "Times are the search alone (warthog's `nanos`, cairns' `--per-query`, the pathfinding "
        "harness's own timer; mkpath prints only a total). Ratios are cairns / peer "
        "(below 1: cairns is faster), taken per map in one run with the order rotated, "
        "then the geometric mean over the maps of a family and over the families.",
        "",
    ]
    # Cost checks.
    lines += ["### Cost checks", "",
              "| implementation | queries checked | mismatches | failed runs |", "|---|---:|---:|---:|"]
    for impl in IMPLS:
        name = impl[0]
        checked = sum(len(m[name]["costs"] or []) for m in maps_out)
        failed = sum(1 for m in maps_out if m[name]["error"])
        bad = sum(1 for x in mismatches if f": {name} found" in x)
        lines.append(f"| {name} | {checked:,} | {bad} | {failed} |")
    lines.append("")
    if mismatches:
        lines += ["First mismatches:", ""] + [f"- {m}" for m in mismatches[:10]] + [""]
    errors = [(m["job"], i[0], m[i[0]]["error"]) for m in maps_out for i in IMPLS if m[i[0]]["error"]]
    if errors:
        lines += ["Failed runs:", ""]
        lines += [f"- {j['family']}/{j['name']}: {n}: {e}" for j, n, e in errors[:10]] + [""]

    # Per family.
    def family_maps(fam):
        return [m for m in maps_out if m["job"]["family"] == fam]

    def fam_stat(fam, name):
        ms = [m[name] for m in family_maps(fam) if not m[name]["error"]]
        n = sum(len(r["costs"]) for r in ms)
        total = sum(r["search_s"] for r in ms)
        nanos = [t for r in ms if r["nanos"] for t in r["nanos"]]
        exp = [e for r in ms if r["expanded"] for e in r["expanded"]]
        pre = [r["preprocess_s"] for r in ms if r["preprocess_s"] is not None]
        byt = [r["bytes"] for r in ms if r["bytes"] is not None]
        return {
            "mean_us": total / n * 1e6 if n else None,
            "median_us": statistics.median(nanos) / 1e3 if nanos else None,
            "expanded": mean(exp),
            "pre": sum(pre) if pre else None,
            "bytes": sum(byt) if byt else None,
            "rss": max((r["rss_kb"] or 0 for r in ms), default=None),
        }

    stats = {(f, i[0]): fam_stat(f, i[0]) for f in fams for i in IMPLS}
    for title, impls in GROUPS:
        lines += [f"### {title}: mean / median us per query, mean expansions", ""]
        lines.append("| family | maps | queries | " + " | ".join(i[0] for i in impls)
                     + " | " + " | ".join(f"expanded {i[0]}" for i in impls) + " |")
        lines.append("|---|---:|---:|" + "---:|" * (2 * len(impls)))
        for f in fams:
            n = sum(len(m["job"]["queries"]) for m in family_maps(f))
            cells = [f"{fmt(stats[f, i[0]]['mean_us'], 1)} / {fmt(stats[f, i[0]]['median_us'], 1)}" for i in impls]
            cells += [fmt(stats[f, i[0]]["expanded"], 1) for i in impls]
            lines.append(f"| {f} | {len(family_maps(f))} | {n:,} | " + " | ".join(cells) + " |")
        lines.append("")

    # Ratios.
    lines += ["### Ratios cairns / peer", "",
              "Per family, the geometric mean over its maps of the per-map ratio of mean times "
              "and, after the slash, of the median per-query ratio (n/a where the peer prints "
              "no per-query time).", ""]
    pairs = [(g, impls[0], p) for g, impls in GROUPS for p in impls[1:]]
    lines.append("| family | " + " | ".join(f"{c[0]} / {p[0]}" for _, c, p in pairs) + " |")
    lines.append("|---|" + "---:|" * len(pairs))
    fam_ratio = {}
    for f in fams:
        cells = []
        for g, c, p in pairs:
            rs = [m["ratios"][g][p[0]] for m in family_maps(f)]
            mr = geomean([r[0] for r in rs if r[0]])
            qr = geomean([r[1] for r in rs if r[1]])
            fam_ratio[f, p[0]] = (mr, qr)
            cells.append(f"{fmt(mr)} / {fmt(qr)}")
        lines.append(f"| {f} | " + " | ".join(cells) + " |")
    cells = []
    for _, _, p in pairs:
        mr = geomean([fam_ratio[f, p[0]][0] for f in fams])
        qr = geomean([fam_ratio[f, p[0]][1] for f in fams])
        cells.append(f"**{fmt(mr)}** / **{fmt(qr)}**")
    lines.append("| geometric mean over families | " + " | ".join(cells) + " |")
    lines.append("")

    # Preprocessing.
    jp = GROUPS[2][1]
    lines += ["### JPS+ preprocessing: seconds and stored bytes per family (sum over its maps)", "",
              "| family | " + " | ".join(f"{i[0]} s | {i[0]} bytes" for i in jp) + " |",
              "|---|" + "---:|" * (2 * len(jp))]
    for f in fams:
        lines.append(f"| {f} | " + " | ".join(
            f"{secs(stats[f, i[0]]['pre'])} | {fmt(stats[f, i[0]]['bytes'])}" for i in jp) + " |")
    lines += ["", "cairns prints both. The peers print neither: warthog's seconds are the "
              "wall-time difference between one-query runs of `jps2+` and `jps2`, mkpath's the "
              "`Search` time of a one-query `jps_plus` run (it builds its table inside that timer); "
              "both peers' bytes are the peak-memory (max RSS) difference between one-query runs "
              "with and without the table, so they are estimates, at page granularity.", ""]

    # GPPC totals.
    lines += ["### Totals as the Grid-Based Path Planning Competition reports them", "",
              "| implementation | query time s (sum) | preprocessing s (sum) | stored bytes (sum) "
              "| peak memory MiB (largest max RSS of a run) |", "|---|---:|---:|---:|---:|"]
    for impl in IMPLS:
        rs = [m[impl[0]] for m in maps_out if not m[impl[0]]["error"]]
        pre = [r["preprocess_s"] for r in rs if r["preprocess_s"] is not None]
        byt = [r["bytes"] for r in rs if r["bytes"] is not None]
        rss = max((r["rss_kb"] or 0 for r in rs), default=0)
        lines.append(f"| {impl[0]} | {secs(sum(r['search_s'] for r in rs))} | "
                     f"{secs(sum(pre)) if pre else 'none'} | {fmt(sum(byt)) if byt else 'none'} | "
                     f"{fmt(rss / 1024, 1)} |")
    lines += ["", END]
    return "\n".join(lines)


def write_block(doc, block):
    text = doc.read_text() if doc.exists() else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    doc.write_text(text)


def write_csv(path, maps_out):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["family", "map", "queries", "impl", "mean_us", "median_us", "mean_expanded",
                    "preprocess_s", "bytes", "max_rss_kb", "wall_s", "mismatches", "error"])
        for m in maps_out:
            j = m["job"]
            for impl in IMPLS:
                r = m[impl[0]]
                n = len(j["queries"])
                w.writerow([
                    j["family"], j["name"], n, impl[0],
                    r["search_s"] / n * 1e6 if r["search_s"] is not None and n else "",
                    statistics.median(r["nanos"]) / 1e3 if r["nanos"] else "",
                    mean(r["expanded"]) if r["expanded"] else "",
                    r["preprocess_s"] if r["preprocess_s"] is not None else "",
                    r["bytes"] if r["bytes"] is not None else "",
                    r["rss_kb"] or "", f"{r['wall_s']:.3f}" if r["wall_s"] else "",
                    m["mismatches"].get(impl[0], 0), r["error"] or "",
                ])


def self_test():
    """Checks the parts that decide what counts as a match (`--self-test`)."""
    def q(ref, dec):
        return {"reference": ref, "ref_decimals": dec}
    full, warthog, mkpath = ("dec", 9), ("sig", 6), ("dec", 2)
    # lengths_match's own examples (INVENTORY.md): printed rounding allowed...
    assert cost_matches(22.556354, q(22.55634918, 8), full)
    assert cost_matches(23.556354, q(23.5563, 4), full)
    assert cost_matches(244.954, q(244.95, 2), full)
    # ... and no more.
    assert not cost_matches(24.0, q(23.5563, 4), full)
    assert not cost_matches(244.97, q(244.95, 2), full)
    # A peer's own rounding: warthog's 6 significant digits, mkpath's 2 decimals.
    assert cost_matches(2835.11, q(2835.1068, 4), warthog)
    assert cost_matches(1.41, q(1.41421, 5), mkpath)
    assert not cost_matches(1.41, q(1.41421, 5), full)
    assert not cost_matches(1.5, q(1.41421, 5), mkpath)
    # A computed reference (wc3maps512): same_cost plus the printing.
    assert cost_matches(120.982756057, q(120.982756057, None), full)
    assert not cost_matches(120.9828, q(120.982756057, None), full)
    assert cost_matches(120.983, q(120.982756057, None), warthog)
    # No path: only against no path.
    assert cost_matches(None, q(None, None), full)
    assert not cost_matches(None, q(3.0, 0), full)
    assert parse_cost("1.79769e+308") is None and parse_cost("failed to find path") is None
    assert abs(parse_duration("3.11ms") - 3.11e-3) < 1e-12
    assert abs(parse_duration("319.55µs") - 319.55e-6) < 1e-12
    assert parse_duration("2.5s") == 2.5
    assert [x for x in keep_at_most(list(range(10)), 4)] == [0, 3, 6, 9]
    print("self-test passed")


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="2 maps per family (the first by name), at most 40 queries each")
    ap.add_argument("--families", help="comma-separated families (default: every one in the data)")
    ap.add_argument("--max-maps", type=int, help="at most N maps per family")
    ap.add_argument("--max-queries", type=int, help="at most N queries per map, evenly spread")
    ap.add_argument("--data", type=Path,
                    default=Path(os.environ.get("CAIRNS_DATA", ROOT.parent / "shared/data/movingai")))
    ap.add_argument("--peers-src", type=Path, default=ROOT.parent / "shared/peers")
    ap.add_argument("--peers-out", type=Path, default=ROOT / "target/peers",
                    help="where the peers are (built with their build.sh when missing)")
    ap.add_argument("--doc", type=Path, default=ROOT / "docs/performance.md")
    ap.add_argument("--no-write", action="store_true", help="print the block instead of writing the doc")
    ap.add_argument("--csv", type=Path, help="also write one row per map and implementation")
    ap.add_argument("--self-test", action="store_true", help="check the cost-matching rules and exit")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return 0

    if args.quick:
        args.max_maps = args.max_maps or 2
        args.max_queries = args.max_queries or 40
    if not (args.data / "dao").is_dir():
        fail(f"Moving AI data not found at {args.data} (--data or CAIRNS_DATA)")
    if not Path("/usr/bin/time").is_file():
        fail("/usr/bin/time is needed for the peak memory (apt-get install time)")

    class Ctx:
        pass

    ctx = Ctx()
    ctx.quick, ctx.max_maps, ctx.max_queries = args.quick, args.max_maps, args.max_queries
    ctx.command = "python3 bench/scripts/peerbench.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    started = datetime.datetime.now()
    ctx.machine = machine()
    ctx.cairns, ctx.pf = build_cairns()
    ctx.peers = build_peers(args.peers_src.resolve(), args.peers_out.resolve())

    families = (args.families.split(",") if args.families
                else sorted(p.name for p in args.data.iterdir() if p.is_dir()))
    scratch = Path(tempfile.mkdtemp(prefix="peerbench-"))
    jobs, data_errors = [], 0
    for fam in families:
        scens = sorted((args.data / fam).glob("*.map.scen"))
        if not scens:
            fail(f"no scenario files in {args.data / fam}")
        for scen in scens[:args.max_maps] if args.max_maps else scens:
            map_path = (scen.parent / scen.name[:-len(".scen")]).resolve()
            queries, errors = load_queries(scen, map_path)
            data_errors += errors
            queries = keep_at_most(queries, args.max_queries)
            if not queries:
                continue
            name = scen.name[:-len(".map.scen")]
            job = {"family": fam, "name": name, "map": map_path, "queries": queries,
                   "scen": scratch / f"{fam}-{name}.map.scen", "one": scratch / f"{fam}-{name}-one.map.scen"}
            write_scen(job["scen"], map_path, queries)
            write_scen(job["one"], map_path, queries[:1])
            jobs.append(job)

    maps_out, all_mismatches = [], []
    for k, job in enumerate(jobs):
        print(f"[{k + 1}/{len(jobs)}] {job['family']}/{job['name']}: {len(job['queries'])} queries",
              file=sys.stderr)
        if job["family"] in DIJKSTRA_FAMILIES:
            ref = run_cairns(ctx, job, "dijkstra", scratch)
            if ref["error"]:
                fail(f"{job['family']}/{job['name']}: the Dijkstra reference failed: {ref['error']}")
            for q, c in zip(job["queries"], ref["costs"]):
                q["reference"], q["ref_decimals"] = c, None
        else:
            for q in job["queries"]:
                q["reference"], q["ref_decimals"] = q["optimal"], q["decimals"]
        out = {"job": job, "ratios": {}, "mismatches": {}}
        groups = GROUPS[k % len(GROUPS):] + GROUPS[:k % len(GROUPS)]
        for title, impls in groups:
            order = impls[k % len(impls):] + impls[:k % len(impls)]
            for impl in order:
                r = run_impl(ctx, job, impl, scratch)
                out[impl[0]] = r
                if r["costs"] is not None:
                    bad = check(r, job, impl)
                    out["mismatches"][impl[0]] = len(bad)
                    all_mismatches += bad
                if r["error"]:
                    print(f"  {impl[0]}: FAILED: {r['error']}", file=sys.stderr)
            out["ratios"][title] = per_map_ratios(out, impls)
        maps_out.append(out)

    block = report(ctx, jobs, maps_out, all_mismatches, data_errors, started)
    if args.csv:
        write_csv(args.csv, maps_out)
    if args.no_write:
        print(block)
    else:
        write_block(args.doc, block)
        print(f"wrote the block in {args.doc}", file=sys.stderr)
    for f in scratch.iterdir():
        f.unlink()
    scratch.rmdir()
    failed = sum(1 for m in maps_out for i in IMPLS if m[i[0]]["error"])
    print(f"{len(all_mismatches)} mismatch(es), {failed} failed run(s)", file=sys.stderr)
    return 1 if all_mismatches or failed else 0


if __name__ == "__main__":
    sys.exit(main())
