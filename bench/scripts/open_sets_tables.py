#!/usr/bin/env python3
"""Markdown tables for docs/open-sets.md from the CSV that
`cargo bench -p cairns-bench --bench open_astar -- --csv docs/data/open-sets.csv`
writes: per family, one row per structure, one column per OPEN-size group,
each cell "median (ratio to the default heap on the same queries)"."""
import csv
import sys
from collections import OrderedDict

GROUPS = ["all", "<100", "100-800", "800-1500", "1500-10000", ">10000"]


def fmt(us):
    us = float(us)
    if us >= 100_000:
        return f"{us / 1e6:.2f} s"
    if us >= 1000:
        return f"{us / 1000:.2f} ms"
    return f"{us:.1f} µs"


def main(path):
    rows = list(csv.DictReader(open(path)))
    families = OrderedDict()
    for r in rows:
        families.setdefault(r["family"], []).append(r)
    for family, rs in families.items():
        groups = [g for g in GROUPS if any(r["group"] == g for r in rs)]
        counts = {r["group"]: r["queries"] for r in rs if r["struct"] == "indexed-binary-heap"}
        print(f"#### {family}\n")
        print("| structure | " + " | ".join(f"{g} ({counts.get(g, '?')})" for g in groups) + " |")
        print("|---|" + "---:|" * len(groups))
        structs = OrderedDict()
        for r in rs:
            structs.setdefault(r["struct"], {})[r["group"]] = r
        for name, by_group in structs.items():
            sampled = any(r["sampled"] == "true" for r in by_group.values())
            cells = []
            for g in groups:
                r = by_group.get(g)
                cells.append("–" if r is None else f"{fmt(r['median_us'])} ({float(r['ratio_to_default']):.2f})")
            mark = "\\*" if sampled else ""
            print(f"| {name}{mark} | " + " | ".join(cells) + " |")
        print()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/data/open-sets.csv")
