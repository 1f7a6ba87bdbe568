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

`--tiers`: the searches that preprocess, side by side

    python3 bench/scripts/peerbench.py --tiers       # 6 maps, every 10th query, 2 rounds
    python3 bench/scripts/peerbench.py --tiers --maps dao/den520d --every 50 --rounds 1 \
        --build-timeout 60 --mkpath-bin DIR --gppc2014-bin DIR --gppc2023-dir DIR

runs cairns' preprocessed searches (`jps+`, `jps+bb` built within its
default budget and built whole with `--seconds 600`, `sub` built within
its default budget and with `--seconds 120`, the limit of issue 32 on
random512-10-0, within which it builds whole) beside the
peers that preprocess: mkpath's `jps_plus_bb`, `tops`, `topping_plus` and
`grid_cpd` examples (from a copy of their sources whose per-query printing
is moved after the search timer, built here unless --mkpath-bin names
binaries built so), the 2014 competition entries `subgoal`, `ch`, `src`
and `bljps2` (../shared/peers/gppc-2014.sh builds them) and the 2023 entry
2019-SGCH-JPD. Per map (--maps, `family/name`):

1. The same scenario sample (--every N-th query that fits the map) goes to
   every implementation, each in a directory of its own holding a copy of
   the map (the peers write their data beside it or in the directory).
2. Each implementation preprocesses once: wall-clock seconds of its build
   process and the bytes of what it writes (cairns `table build -o FILE`;
   mkpath `--generate MAP`; the competition harnesses' `-pre`). A build
   still running after --build-timeout seconds is killed and reported as
   not built; the implementation is skipped on that map, and counted so.
   `cairns choose MAP` is asked which search it would run.
3. --rounds rounds of the queries, the order of the implementations
   rotated from round to round (and map to map), each run in its own
   process under `/usr/bin/time -v` (peak memory). Mean us per query:
   cairns' `mean_us`; mkpath's `Search` timer over the queries; the
   harnesses' per-query times summed over the queries (these include
   handing out the path). Every cost is checked against the published
   length with the printing precision of its implementation (the 2014
   harness prices a diagonal at 1.4142 and prints 6 decimals, and marks
   paths `valid` or `invalid`: an invalid one is a mismatch too).
4. Reports per map a table (preprocessing, stored bytes, cairns' table
   bytes in memory, peak memory, mean us of each round and their median,
   mismatches), per family the best cairns tier against the best peer
   (ratio peer / cairns, above 1: cairns is faster) and the geometric
   mean over families, and the competition's totals per implementation
   over the maps it completed (query seconds, preprocessing seconds,
   stored bytes, largest peak memory) with the number it did not. Prints
   the block, or with --write-docs writes it between `<!-- tiers:begin -->`
   and `<!-- tiers:end -->` in docs/performance.md; --csv writes one row
   per run.
"""

import argparse
import csv
import datetime
import json
import math
import os
import re
import shlex
import shutil
import signal
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

# --tiers: the searches that preprocess. `arg`: cairns (search, --seconds of
# its table build, None for the search's own budget), mkpath the example,
# the 2014 competition entries the binary; the 2023 entry is one binary.
TIERS_BEGIN = "<!-- tiers:begin -->"
TIERS_END = "<!-- tiers:end -->"
TIER_MAPS = ["dao/den520d", "dao/orz900d", "room/32room_000", "street/Berlin_0_512",
             "maze/maze512-1-0", "random/random512-10-0"]
# The 2014 harness adds 1.4142 per diagonal step and prints 6 decimals.
GPPC2014_PRINTING = ("gppc2014", 6)
TIERS = [
    ("cairns jps+", "cairns", ("jps+", None), ("dec", 9)),
    ("cairns jps+bb", "cairns", ("jps+bb", None), ("dec", 9)),
    ("cairns jps+bb whole", "cairns", ("jps+bb", 600), ("dec", 9)),
    ("cairns sub", "cairns", ("sub", None), ("dec", 9)),
    ("cairns sub whole", "cairns", ("sub", 120), ("dec", 9)),
    ("mkpath jps+bb", "mkpath", "jps_plus_bb", ("dec", 2)),
    ("mkpath tops", "mkpath", "tops", ("dec", 2)),
    ("mkpath topping+", "mkpath", "topping_plus", ("dec", 2)),
    ("mkpath cpd", "mkpath", "grid_cpd", ("dec", 2)),
    ("gppc14 subgoal", "gppc2014", "subgoal", GPPC2014_PRINTING),
    ("gppc14 ch", "gppc2014", "ch", GPPC2014_PRINTING),
    ("gppc14 src", "gppc2014", "src", GPPC2014_PRINTING),
    ("gppc14 bljps2", "gppc2014", "bljps2", GPPC2014_PRINTING),
    ("gppc23 sgch-jpd", "gppc2023", "run", ("dec", 9)),
]
# The file each mkpath example's `--generate MAP` writes beside MAP (and
# reads back); examples that read the same file share one build.
MKPATH_TABLES = {"jps_plus_bb": ".bb+", "tops": ".top+", "topping_plus": ".top+",
                 "grid_cpd": ".mkp-cpd"}
CHOOSE = "cairns choose"


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


def build_cairns(pathfinding=True):
    """The `cairns` binary of the fastest build (the `release-lto` profile)
    and (unless not wanted: None) the `pathfinding_scen` bench binary."""
    run_checked(["cargo", "build", "--profile", "release-lto", "-q", "-p", "cairns-cli"], cwd=ROOT)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    cairns = target / "release-lto" / "cairns"
    if not pathfinding:
        return cairns, None
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


def quiet_mkpath_example(text, name):
    """mkpath's example `name` with its per-query printing taken out of its
    search timer: each cost is formatted into a vector inside the timer (the
    path kept alive with `black_box`) and printed after it. Fails when the
    source is not shaped as expected."""
    def one_line(pattern):
        found = re.findall(pattern, text, flags=re.M)
        if len(found) != 1:
            fail(f"mkpath example {name}: {len(found)} lines match {pattern!r}, expected 1")
        return found[0]

    indent = one_line(r"^( *)let t2 = std::time::Instant::now\(\);$")
    one_line(r"^ *let t3 = std::time::Instant::now\(\);$")
    one_line(r'^ *println!\("\{cost:\.2\} \{path:\?\}"\);$')
    text = text.replace("let t2 = std::time::Instant::now();",
                        f"let mut out: Vec<String> = Vec::new();\n{indent}"
                        "let t2 = std::time::Instant::now();")
    text = text.replace('println!("{cost:.2} {path:?}");',
                        'std::hint::black_box(&path); out.push(format!("{cost:.2}"));')
    text = text.replace('println!("failed to find path");',
                        'out.push("failed to find path".to_string());')
    text = text.replace("let t3 = std::time::Instant::now();",
                        "let t3 = std::time::Instant::now();\n"
                        f'{indent}for line in &out {{ println!("{{line}}"); }}')
    timed_part = text.split("let t2 = std::time::Instant::now();", 1)[1].split(
        "let t3 = std::time::Instant::now();", 1)[0]
    if "println!" in timed_part or "print!" in timed_part:
        fail(f"mkpath example {name}: printing left inside the search timer")
    return text


def build_quiet_mkpath(src, out):
    """mkpath's preprocessing examples, built (unless they are already) from a
    copy of its sources in `out` with the per-query printing moved after the
    search timer (`quiet_mkpath_example`): the directory of the binaries."""
    bins = out / "target" / "release" / "examples"
    if all((bins / e).is_file() for e in MKPATH_TABLES):
        return bins
    if not (src / "Cargo.toml").is_file():
        fail(f"mkpath's sources not found at {src} (--peers-src)")
    copy = out / "mkpath"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("target", ".git"))
    for example in MKPATH_TABLES:
        path = copy / "examples" / f"{example}.rs"
        path.write_text(quiet_mkpath_example(path.read_text(), example))
    run_checked(["cargo", "build", "--release", "--examples", "-q",
                 "--manifest-path", copy / "Cargo.toml"],
                env={**os.environ, "CARGO_TARGET_DIR": str(out / "target")})
    missing = [e for e in MKPATH_TABLES if not (bins / e).is_file()]
    if missing:
        fail(f"mkpath examples not built: {', '.join(missing)}")
    return bins


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


def timed(cmd, scratch, cwd=None, timeout=None):
    """Runs `cmd` under /usr/bin/time -v, in `cwd`: (status, stdout, stderr,
    wall s, max RSS in KiB). A run still going after `timeout` seconds is
    killed with every process it started; its status is None."""
    tfile = scratch / "time.txt"
    if tfile.exists():
        tfile.unlink()
    t0 = time.perf_counter()
    # A session of its own, so that a kill reaches the program under `time`.
    p = subprocess.Popen(["/usr/bin/time", "-v", "-o", str(tfile), *map(str, cmd)], cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except BaseException as e:  # the timeout, or an interrupt: leave nothing running
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.communicate()
        if not isinstance(e, subprocess.TimeoutExpired):
            raise
        return None, "", f"killed after {timeout} s", time.perf_counter() - t0, None
    wall = time.perf_counter() - t0
    rss = None
    if tfile.exists():
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", tfile.read_text())
        rss = int(m.group(1)) if m else None
    return p.returncode, out, err, wall, rss


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
            "error": None, "self_mismatches": None, "mean_us": None, "table_bytes": None,
            "invalid": []}


def run_cairns(ctx, job, search, scratch, table_file=None):
    """cairns' `scen` on the job's queries: `search`, or the search of the
    table saved in `table_file`."""
    r = new_result()
    table = scratch / "per-query.tsv"
    how = ["--table", table_file] if table_file else ["--search", search]
    cmd = [ctx.cairns, "scen", job["scen"], "--map", job["map"], *how,
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
    r["mean_us"], r["table_bytes"] = summary["mean_us"], summary["table_bytes"]
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
    """One run of an mkpath example: ((costs, Search s, Load s), error, wall
    s, max RSS KiB)."""
    status, out, err, wall, rss = timed([binary, scen], scratch)
    m = re.search(r"Load:\s*(\S+)\s+Search:\s*(\S+)", err)
    if status != 0 or not m:
        return None, f"exit {status}: {err.strip()[-300:]}", wall, rss
    costs = []
    for line in out.splitlines():
        if line.startswith("failed"):  # "failed to find path" (or "failed" in older copies)
            costs.append(None)
        elif line.strip():
            costs.append(parse_cost(line.split()[0]))
    return (costs, parse_duration(m.group(2)), parse_duration(m.group(1))), None, wall, rss


def run_mkpath(ctx, job, example, scratch):
    r = new_result()
    binary = ctx.peers["mkpath"] / example
    parsed, r["error"], r["wall_s"], r["rss_kb"] = mkpath_run(binary, job["scen"], scratch)
    if parsed is None:
        return r
    costs, search_s, _ = parsed
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
    if how == "gppc2014":
        # n decimals of a length that adds 1.4142 per diagonal step: short
        # of sqrt(2) by at most this fraction of the length.
        return 0.5 * 10.0 ** -n + abs(value) * (math.sqrt(2) - 1.4142) / 1.4142
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
    """One line per query whose cost is not its reference, or whose path the
    implementation's own harness marked invalid (`result["invalid"]`)."""
    mismatches = []
    invalid = set(result.get("invalid") or ())
    for q, cost in zip(job["queries"], result["costs"]):
        if not cost_matches(cost, q, impl[3]) or q["line"] in invalid:
            marked = " (path marked invalid)" if q["line"] in invalid else ""
            mismatches.append(f"{job['family']}/{job['name']} line {q['line']}: {impl[0]} "
                              f"found {cost}{marked}, reference {q['reference']}")
    return mismatches


def set_references(ctx, job, scratch):
    """Each query's reference cost: its published length, or, on the families
    whose published lengths are wrong, cairns' Dijkstra on the same query."""
    if job["family"] in DIJKSTRA_FAMILIES:
        ref = run_cairns(ctx, job, "dijkstra", scratch)
        if ref["error"]:
            fail(f"{job['family']}/{job['name']}: the Dijkstra reference failed: {ref['error']}")
        for q, c in zip(job["queries"], ref["costs"]):
            q["reference"], q["ref_decimals"] = c, None
    else:
        for q in job["queries"]:
            q["reference"], q["ref_decimals"] = q["optimal"], q["decimals"]


def rotated(items, k):
    """`items` rotated left by k: which runs first changes from one map (or
    round) to the next."""
    if not items:
        return items
    k %= len(items)
    return items[k:] + items[:k]


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


def write_block(doc, block, begin=BEGIN, end=END):
    """`block` (which starts with `begin` and ends with `end`) in place of the
    one between those markers in `doc`, or at its end."""
    text = doc.read_text() if doc.exists() else ""
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1]
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


# ---------------------------------------------------------------- --tiers


def tier_job(data, spec, every, scratch):
    """The job of one map (`family/name`): every `every`-th of its scenarios
    that fit the map, written to a scratch scenario file naming the map."""
    fam, _, name = spec.partition("/")
    map_path = (data / fam / f"{name}.map").resolve()
    scen = data / fam / f"{name}.map.scen"
    if not name or not map_path.is_file() or not scen.is_file():
        fail(f"--maps: {spec}: no {map_path} with its .scen (family/name under {data})")
    queries, errors = load_queries(scen, map_path)
    queries = queries[::every]
    if not queries:
        fail(f"{spec}: no scenario fits the map")
    job = {"family": fam, "name": name, "map": map_path, "queries": queries,
           "data_errors": errors, "scen": scratch / f"{fam}-{name}.map.scen"}
    write_scen(job["scen"], map_path, queries)
    return job


def tier_dir(work, job, impl):
    """The directory `impl` preprocesses and runs in: (directory, copy of the
    map, scenario file naming that copy). The peers write their data beside
    the map or in the directory they run in, so each gets its own (mkpath's
    examples one between them: each writes a file of its own extension)."""
    kind, arg = impl[1], impl[2]
    d = work / (kind if kind in ("cairns", "mkpath") else f"{kind}-{arg}")
    map_copy, scen = d / job["map"].name, d / f"{job['name']}.map.scen"
    if not d.exists():
        d.mkdir(parents=True)
        shutil.copyfile(job["map"], map_copy)
        write_scen(scen, map_copy, job["queries"])
    return d, map_copy, scen


def files_in(d):
    return {p for p in d.rglob("*") if p.is_file()}


def tier_build(ctx, job, impl, work, scratch, timeout):
    """Preprocesses `impl` on the job's map: the wall clock of its build
    process, the bytes of the files it wrote, a note, and an error (a build
    past `timeout` seconds is killed: not built)."""
    _, kind, arg, _ = impl
    d, map_copy, scen = tier_dir(work, job, impl)
    written = None  # the files the build writes, when known before it runs
    if kind == "cairns":
        search, seconds = arg
        file = d / f"{search}{f'-{seconds}s' if seconds else ''}.table"
        cmd = [ctx.cairns, "table", "build", job["map"], "--search", search, "-o", file]
        cmd += ["--seconds", seconds] if seconds else []
        written = [file]
    elif kind == "mkpath":
        cmd = [ctx.mkpath / arg, "--generate", map_copy]
        written = [Path(f"{map_copy}{MKPATH_TABLES[arg]}")]
    elif kind == "gppc2014":
        cmd = [ctx.gppc2014 / arg, "-pre", map_copy.name, scen.name]
    else:  # the 2023 harness writes into index_data/, which must exist
        (d / "index_data").mkdir(exist_ok=True)
        cmd = [ctx.gppc2023, "-pre", map_copy.name]
    before = files_in(d)
    status, out, err, wall, rss = timed(cmd, scratch, cwd=d, timeout=timeout)
    b = {"seconds": wall, "bytes": None, "rss_kb": rss, "note": "", "error": None, "file": None}
    if status is None:
        b["error"] = f"not built in {timeout:g} s"
        return b
    if status != 0:
        b["error"] = f"build exit {status}: {err.strip()[-300:]}"
        return b
    if written is None:
        new = files_in(d) - before
        written = sorted(p for p in new if kind != "gppc2023" or "index_data" in p.parts)
    if not written or not all(p.is_file() for p in written):
        b["error"] = "the build wrote no file"
        return b
    b["bytes"] = sum(p.stat().st_size for p in written)
    b["file"] = written[0]
    boxes = re.search(r"^boxes\s+(.+)$", out, flags=re.M)
    if boxes:
        b["note"] = f"boxes {boxes.group(1)}"
    return b


def harness_cost(length, q):
    """A competition harness's path length as a cost: an empty path between
    two cells is no path."""
    return None if length == 0 and q["start"] != q["goal"] else length


def tier_run(ctx, job, impl, build, work, scratch):
    """One run of the job's queries by `impl` over what its build wrote:
    costs, mean us per query, peak memory."""
    _, kind, arg, _ = impl
    n = len(job["queries"])
    if kind == "cairns":
        return run_cairns(ctx, job, arg[0], scratch, table_file=build["file"])
    d, map_copy, scen = tier_dir(work, job, impl)
    r = new_result()
    if kind == "mkpath":
        parsed, r["error"], r["wall_s"], r["rss_kb"] = mkpath_run(ctx.mkpath / arg, scen, scratch)
        if parsed is not None:
            costs, search_s, r["load_s"] = parsed
            if len(costs) != n:
                r["error"] = f"{len(costs)} of {n} costs printed"
            else:
                r["costs"], r["mean_us"] = costs, search_s / n * 1e6
        return r
    if kind == "gppc2014":
        # SCEN total-time S max-time-step S time-20-moves S total-len L subopt R valid|invalid
        status, out, err, r["wall_s"], r["rss_kb"] = timed(
            [ctx.gppc2014 / arg, "-run", map_copy.name, scen.name], scratch, cwd=d)
        rows = [l.split() for l in out.splitlines() if "\ttotal-time\t" in l]
        if status != 0 or len(rows) != n:
            r["error"] = f"exit {status}, {len(rows)} of {n} rows: {err.strip()[-300:]}"
            return r
        seconds = [float(f[f.index("total-time") + 1]) for f in rows]
        r["costs"] = [harness_cost(float(f[f.index("total-len") + 1]), q)
                      for f, q in zip(rows, job["queries"])]
        r["invalid"] = [q["line"] for f, q in zip(rows, job["queries"]) if f[-1] != "valid"]
    else:
        # result.csv: map,scen,experiment_id,path_size,path_length,ref_length,time_cost (ns),...
        status, _, _, r["wall_s"], r["rss_kb"] = timed(
            [ctx.gppc2023, "-run", map_copy.name, scen.name], scratch, cwd=d)
        result = d / "result.csv"
        rows = list(csv.DictReader(result.open())) if result.exists() else []
        if result.exists():
            result.unlink()
        if status != 0 or len(rows) != n:
            log = d / "run.stderr"
            tail = log.read_text(errors="replace").strip()[-300:] if log.exists() else ""
            r["error"] = f"exit {status}, {len(rows)} of {n} rows in result.csv: {tail}"
            return r
        seconds = [int(row["time_cost"]) * 1e-9 for row in rows]
        r["costs"] = [harness_cost(float(row["path_length"]), q)
                      for row, q in zip(rows, job["queries"])]
    r["search_s"] = sum(seconds)
    r["mean_us"] = r["search_s"] / n * 1e6
    return r


def tier_builds(ctx, job, work, scratch, unavailable, timeout):
    """Every implementation's build on the job's map (or why there is none).
    mkpath examples that read the same file share its one build."""
    builds, shared = {}, {}
    for impl in TIERS:
        name = impl[0]
        if name in unavailable:
            builds[name] = {"error": unavailable[name]}
            continue
        key = MKPATH_TABLES[impl[2]] if impl[1] == "mkpath" else name
        if key in shared:
            first, b = shared[key]
            builds[name] = {**b, "note": f"the {key} file of {first}"}
            continue
        print(f"  building {name}", file=sys.stderr)
        b = tier_build(ctx, job, impl, work, scratch, timeout)
        if b["error"]:
            print(f"  {name}: {b['error']}", file=sys.stderr)
        builds[name] = b
        shared[key] = (name, b)
    return builds


def tier_choose(ctx, job):
    """Which search `cairns choose` runs on the map, and the tier row that
    measured it (None when no row did)."""
    p = subprocess.run([ctx.cairns, "choose", job["map"], "--json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return f"failed: {p.stderr.strip()[-200:]}", None
    picked = json.loads(p.stdout)
    rows = [i[0] for i in TIERS if i[1] == "cairns" and i[2] == (picked["search"], None)]
    return picked["spec"], rows[0] if rows else None


def tiers_map(ctx, job, k, scratch, unavailable, args):
    """Builds, rounds and checks of every implementation on one map."""
    print(f"[{k + 1}] {job['family']}/{job['name']}: {len(job['queries'])} queries", file=sys.stderr)
    set_references(ctx, job, scratch)
    work = scratch / f"{job['family']}-{job['name']}"
    out = {"job": job, "builds": tier_builds(ctx, job, work, scratch, unavailable,
                                             args.build_timeout),
           "runs": {i[0]: [] for i in TIERS}, "mismatches": {i[0]: set() for i in TIERS}}
    out["choose"] = tier_choose(ctx, job)
    built = [i for i in TIERS if not out["builds"][i[0]]["error"]]
    for rnd in range(args.rounds):
        for position, impl in enumerate(rotated(built, k + rnd)):
            r = tier_run(ctx, job, impl, out["builds"][impl[0]], work, scratch)
            r["round"], r["position"] = rnd + 1, position + 1
            bad = check(r, job, impl) if r["costs"] is not None else []
            r["mismatch_count"] = len(bad)
            out["mismatches"][impl[0]].update(bad)
            out["runs"][impl[0]].append(r)
            if r["error"]:
                print(f"  {impl[0]}: FAILED: {r['error']}", file=sys.stderr)
    shutil.rmtree(work)
    return out


def tier_summary(m, name):
    """One implementation on one map, or None when it did not complete (not
    built, or a run failed)."""
    b, runs = m["builds"].get(name), m["runs"].get(name)
    if b is None or b["error"] or not runs or any(r["error"] or r["mean_us"] is None for r in runs):
        return None
    means = [r["mean_us"] for r in runs]
    return {"pre": b["seconds"], "bytes": b["bytes"], "means": means,
            "median": statistics.median(means), "rss": max(r["rss_kb"] or 0 for r in runs),
            "mismatches": len(m["mismatches"][name]), "queries": len(m["job"]["queries"]),
            "table_bytes": runs[0]["table_bytes"]}


def tier_why_not(m, name):
    b = m["builds"][name]
    if b["error"]:
        return b["error"]
    return next((r["error"] for r in m["runs"][name] if r["error"]), "no run")


def tiers_report(ctx, maps_out, mismatches, started, args):
    jobs = [m["job"] for m in maps_out]
    fams = list(dict.fromkeys(j["family"] for j in jobs))
    names = [i[0] for i in TIERS]
    lines = [TIERS_BEGIN, "", "## Preprocessed searches beside the peers that preprocess (generated)", "",
             f"Generated by `bench/scripts/peerbench.py --tiers` on {started:%Y-%m-%d %H:%M} "
             f"({ctx.machine}); do not edit by hand. Command:",
             "", "```sh", ctx.command, "```", "",
             f"{sum(len(j['queries']) for j in jobs):,} queries "
             f"({f'every {args.every}th scenario' if args.every > 1 else 'every scenario'} that "
             f"fits its map; {sum(j['data_errors'] for j in jobs)} do not) on {len(jobs)} map(s), "
             f"{args.rounds} round(s), the order of the implementations rotated from round to round "
             "and from map to map; "
             f"each build once per map, killed after {args.build_timeout:g} s. Preprocessing: wall "
             "clock of the build process. Stored bytes: what it wrote (cairns: the file of "
             "`table build -o`; its `table bytes` are the table in memory). Peak memory: the "
             "largest max RSS of the query runs. Mean us per query: cairns' `mean_us`, mkpath's "
             "`Search` timer over the queries (its `Load`, reading the file and building its jump "
             "table, is outside both), the competition harnesses' per-query times summed (they "
             "include handing out the path; the 2014 harness prints them in whole microseconds). "
             "Every cost is checked against the published length within the implementation's "
             "printing (mkpath 2 decimals; the 2014 harness 6 decimals of a length that adds "
             "1.4142 per diagonal, and a path it marks invalid counts as a mismatch).", ""]

    for m in maps_out:
        j = m["job"]
        lines += [f"### {j['family']}/{j['name']}: {len(j['queries']):,} queries", "",
                  "| implementation | preprocess s | stored bytes | table bytes in memory "
                  "| peak memory MiB | mean us per round | median us | mismatches | notes |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
        for name in names:
            s, b = tier_summary(m, name), m["builds"][name]
            if s is None:
                pre = secs(b.get("seconds")) if not b["error"] else "n/a"
                byt = fmt(b.get("bytes")) if not b["error"] else "n/a"
                lines.append(f"| {name} | {pre} | {byt} | n/a | n/a | n/a | n/a | n/a "
                             f"| {tier_why_not(m, name)} |")
                continue
            lines.append(
                f"| {name} | {secs(s['pre'])} | {fmt(s['bytes'])} | {fmt(s['table_bytes'])} "
                f"| {fmt(s['rss'] / 1024, 1)} | {' / '.join(fmt(x) for x in s['means'])} "
                f"| {fmt(s['median'])} | {s['mismatches']} | {b['note']} |")
        spec, row = m["choose"]
        lines += ["", f"`cairns choose` picks `{spec}`"
                  + (f" (the row {row})." if row else " (no row above ran it)."), ""]

    # Per family: the best (least median-of-rounds time over the family's
    # maps) among the implementations that completed every one of them.
    def fam_us(maps, name):
        ss = [tier_summary(m, name) for m in maps]
        if not ss or any(s is None for s in ss):
            return None
        return sum(s["median"] * s["queries"] for s in ss) / sum(s["queries"] for s in ss)

    def best(maps, among):
        timed_ = [(fam_us(maps, n), n) for n in among]
        us, name = min(((us, n) for us, n in timed_ if us is not None), default=(None, None))
        bad = sum(tier_summary(m, name)["mismatches"] for m in maps) if name else 0
        return us, f"{name} ({bad} mismatches)" if bad else name

    cairns_names = [i[0] for i in TIERS if i[1] == "cairns"]
    peer_names = [n for n in names if n not in cairns_names]
    lines += ["### Per family: the best cairns tier against the best peer", "",
              "Best: the least mean us per query over the family's maps (each map's median "
              "over the rounds), among the implementations that completed every map of the "
              "family, mismatches or not (they are named). Ratio peer / cairns: above 1, "
              "cairns is faster.", "",
              "| family | maps | queries | best cairns | us | best peer | us | peer / cairns |",
              "|---|---:|---:|---|---:|---|---:|---:|"]
    ratios = []
    for fam in fams:
        maps = [m for m in maps_out if m["job"]["family"] == fam]
        (c_us, c), (p_us, p) = best(maps, cairns_names), best(maps, peer_names)
        ratio = p_us / c_us if c_us and p_us else None
        ratios.append(ratio)
        lines.append(f"| {fam} | {len(maps)} | {sum(len(m['job']['queries']) for m in maps):,} "
                     f"| {c or 'none'} | {fmt(c_us)} | {p or 'none'} | {fmt(p_us)} | {fmt(ratio)} |")
    lines += [f"| geometric mean over families | | | | | | | **{fmt(geomean(ratios))}** |", ""]

    # The competition's totals, over the maps each implementation completed.
    lines += ["### Totals as the Grid-Based Path Planning Competition reports them", "",
              "Over the maps each implementation completed: query time = mean us per query "
              "(median over the rounds) x queries, summed; `cairns choose` is, per map, the row "
              "of the search it picks.", "",
              "| implementation | maps completed | not completed | query time s (sum) "
              "| preprocessing s (sum) | stored bytes (sum) | peak memory MiB (largest) "
              "| mismatches |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name in names + [CHOOSE]:
        ss = [tier_summary(m, m["choose"][1] if name == CHOOSE else name) for m in maps_out]
        done = [s for s in ss if s is not None]
        lines.append(
            f"| {name} | {len(done)} | {len(ss) - len(done)} "
            f"| {secs(sum(s['median'] * s['queries'] for s in done) * 1e-6) if done else 'n/a'} "
            f"| {secs(sum(s['pre'] for s in done)) if done else 'n/a'} "
            f"| {fmt(sum(s['bytes'] for s in done)) if done else 'n/a'} "
            f"| {fmt(max(s['rss'] for s in done) / 1024, 1) if done else 'n/a'} "
            f"| {sum(s['mismatches'] for s in done)} |")
    lines.append("")
    if mismatches:
        lines += ["First mismatches:", ""] + [f"- {x}" for x in mismatches[:10]] + [""]
    lines.append(TIERS_END)
    return "\n".join(lines)


def write_tiers_csv(path, maps_out):
    """One row per run, and one per implementation that did not run on a map."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["family", "map", "queries", "impl", "round", "position", "mean_us",
                    "mismatches", "max_rss_kb", "wall_s", "load_s", "preprocess_s",
                    "stored_bytes", "table_bytes", "build_note", "chosen", "error"])
        for m in maps_out:
            j = m["job"]
            for name in [i[0] for i in TIERS]:
                b = m["builds"][name]
                head = [j["family"], j["name"], len(j["queries"]), name]
                chosen = "yes" if m["choose"][1] == name else ""
                for r in m["runs"][name] or [None]:
                    if r is None:  # not built (or not available)
                        w.writerow(head + [""] * 7 + [b.get("seconds", ""), "", "", "", chosen,
                                                      b["error"]])
                        continue
                    w.writerow(head + [
                        r["round"], r["position"], "" if r["mean_us"] is None else r["mean_us"],
                        r["mismatch_count"], r["rss_kb"] or "",
                        f"{r['wall_s']:.3f}" if r["wall_s"] else "", r.get("load_s", ""),
                        b["seconds"], b["bytes"], r["table_bytes"] or "", b["note"],
                        chosen, r["error"] or ""])


def tiers_main(args, ctx):
    skip = set(filter(None, (args.skip or "").split(",")))
    unknown = skip - {i[0] for i in TIERS}
    if unknown:
        fail(f"--skip: no implementation named {', '.join(sorted(unknown))} "
             f"(they are: {', '.join(i[0] for i in TIERS)})")
    unavailable = {name: "skipped (--skip)" for name in skip}
    ctx.cairns, _ = build_cairns(pathfinding=False)

    def binary(name, path, how):
        if name not in unavailable and not Path(path).is_file():
            unavailable[name] = f"{path} not found ({how})"

    if any(i[1] == "mkpath" and i[0] not in skip for i in TIERS):
        ctx.mkpath = (args.mkpath_bin.resolve() if args.mkpath_bin
                      else build_quiet_mkpath(args.peers_src.resolve() / "mkpath",
                                              args.tiers_out.resolve()))
    ctx.gppc2014 = args.gppc2014_bin.resolve()
    ctx.gppc2023 = args.gppc2023_dir.resolve() / "run"
    for name, kind, arg, _ in TIERS:
        if kind == "mkpath":
            binary(name, ctx.mkpath / arg, "--mkpath-bin")
        elif kind == "gppc2014":
            binary(name, ctx.gppc2014 / arg,
                   "../shared/peers/gppc-2014.sh GIT_DIR OUT builds it; --gppc2014-bin OUT/bin")
        elif kind == "gppc2023":
            binary(name, ctx.gppc2023, "make it in the entry's directory; --gppc2023-dir")
    for name in [i[0] for i in TIERS if i[0] in unavailable]:
        print(f"peerbench: {name}: {unavailable[name]}", file=sys.stderr)

    started = datetime.datetime.now()
    scratch = Path(tempfile.mkdtemp(prefix="peerbench-tiers-"))
    try:
        jobs = [tier_job(args.data, spec, args.every, scratch) for spec in args.maps.split(",")]
        maps_out = [tiers_map(ctx, job, k, scratch, unavailable, args) for k, job in enumerate(jobs)]
    finally:
        shutil.rmtree(scratch)
    mismatches = sorted(x for m in maps_out for bad in m["mismatches"].values() for x in bad)
    block = tiers_report(ctx, maps_out, mismatches, started, args)
    if args.csv:
        write_tiers_csv(args.csv, maps_out)
    if args.write_docs:
        write_block(args.doc, block, TIERS_BEGIN, TIERS_END)
        print(f"wrote the block in {args.doc}", file=sys.stderr)
    else:
        print(block)
    failed = sum(1 for m in maps_out for rs in m["runs"].values() for r in rs if r["error"])
    not_built = sum(1 for m in maps_out for n, b in m["builds"].items()
                    if b["error"] and n not in unavailable)
    print(f"{len(mismatches)} mismatch(es), {failed} failed run(s), {not_built} build(s) "
          f"not done, {len(unavailable)} implementation(s) not available", file=sys.stderr)
    return 1 if mismatches or failed else 0


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
    # The 2014 harness: 1.4142 per diagonal, 6 decimals; 700 diagonals
    # lose 0.0095 (within lengths_match's 1e-5 relative, not within a
    # computed reference's same_cost).
    gppc = GPPC2014_PRINTING
    assert cost_matches(989.94, q(700 * math.sqrt(2), 8), gppc)
    assert cost_matches(989.94, q(700 * math.sqrt(2), None), gppc)
    assert not cost_matches(989.94, q(700 * math.sqrt(2), None), full)
    assert not cost_matches(989.93, q(700 * math.sqrt(2), None), gppc)
    assert harness_cost(0.0, {"start": (1, 2), "goal": (3, 4)}) is None
    assert harness_cost(0.0, {"start": (1, 2), "goal": (1, 2)}) == 0.0
    assert rotated([1, 2, 3], 4) == [2, 3, 1] and rotated([], 3) == []
    # mkpath's printing leaves its search timer.
    example = "\n".join([
        "        let t2 = std::time::Instant::now();",
        "        for problem in &scen.instances {",
        "            if let Some(path) = search(problem) {",
        '                println!("{cost:.2} {path:?}");',
        "            } else {",
        '                println!("failed to find path");',
        "            }",
        "        }",
        "        let t3 = std::time::Instant::now();",
        '        eprintln!("Load: {:<10.2?} Search: {:.2?}", t2 - t1, t3 - t2);'])
    quiet = quiet_mkpath_example(example, "test")
    timed_part = quiet.split("let t2")[1].split("let t3")[0]
    assert "println!" not in timed_part and 'out.push(format!("{cost:.2}"))' in timed_part
    assert "let mut out: Vec<String> = Vec::new();\n        let t2" in quiet
    assert quiet.endswith('for line in &out { println!("{line}"); }\n'
                          '        eprintln!("Load: {:<10.2?} Search: {:.2?}", t2 - t1, t3 - t2);')
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
    tiers = ap.add_argument_group("--tiers: the searches that preprocess, beside the peers that do")
    tiers.add_argument("--tiers", action="store_true",
                       help="run cairns' jps+, jps+bb and sub beside mkpath's and the competition "
                       "entries' preprocessed searches (this script's docstring says how)")
    tiers.add_argument("--maps", default=",".join(TIER_MAPS),
                       help="comma-separated family/name maps (default: %(default)s)")
    tiers.add_argument("--every", type=int, default=10, help="every Nth scenario (default: 10)")
    tiers.add_argument("--rounds", type=int, default=2, help="rounds of the queries (default: 2)")
    tiers.add_argument("--build-timeout", type=float, default=600,
                       help="seconds a build may take before it is killed (default: 600)")
    tiers.add_argument("--skip", help="comma-separated implementations not to run (reported so)")
    tiers.add_argument("--mkpath-bin", type=Path,
                       help="mkpath's examples already built with their per-query printing after "
                       "the search timer (default: build them in --tiers-out)")
    tiers.add_argument("--tiers-out", type=Path,
                       default=Path(tempfile.gettempdir()) / "cairns-peerbench-tiers",
                       help="where mkpath's patched copy is built, outside the repository "
                       "(default: %(default)s)")
    tiers.add_argument("--gppc2014-bin", type=Path, default=ROOT.parent / "peers-build/gppc2014/bin",
                       help="the 2014 entries built by ../shared/peers/gppc-2014.sh (default: %(default)s)")
    tiers.add_argument("--gppc2023-dir", type=Path,
                       default=ROOT.parent / "peers-build/gppc2023/2019-SGCH-JPD",
                       help="the built 2023 entry 2019-SGCH-JPD (default: %(default)s)")
    tiers.add_argument("--write-docs", action="store_true",
                       help="write the block in --doc (default: print it)")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return 0
    if args.every < 1 or args.rounds < 1:
        fail("--every and --rounds must be at least 1")

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
    if args.tiers:
        return tiers_main(args, ctx)
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
        set_references(ctx, job, scratch)
        out = {"job": job, "ratios": {}, "mismatches": {}}
        for title, impls in rotated(GROUPS, k):
            for impl in rotated(impls, k):
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
