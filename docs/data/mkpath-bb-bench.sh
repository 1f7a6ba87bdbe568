#!/usr/bin/env bash
# cairns' goal bounding (`jps+bb`) beside mkpath's JPS+BB+ on every 10th
# query of each map's scenario file, in rounds that rotate which runs
# first.
#   docs/data/mkpath-bb-bench.sh CAIRNS MKPATH [ROUNDS] [MAP...]
# CAIRNS: the cairns binary; MKPATH: mkpath's `jps_plus_bb` example
# (../shared/peers/mkpath, built from a copy whose per-query printing is
# moved after its search timer); MAP: set/name under ../shared/data/movingai.
# Each map's tables are built once: mkpath's with `--generate` (every jump
# point, on every core), cairns' twice, within the budget of the `jps+bb`
# search (`cairns table build`) and whole (`--seconds 600`).
# Prints one line per build (build map who seconds bytes boxed) and one
# per run (round map who mean_us queries mismatches); mkpath's mean_us is
# its `Search` timer over the queries, its mismatches the costs that differ
# from the published ones.
set -euo pipefail
cairns=$(realpath "$1"); mkpath=$(realpath "$2"); rounds=${3:-2}; shift $(( $# < 3 ? $# : 3 ))
data=$(cd "$(dirname "$0")/../../.." && pwd)/shared/data/movingai
maps=${*:-dao/den520d dao/orz900d room/32room_000 street/Berlin_0_512}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for m in $maps; do
  name=$(basename "$m")
  cp "$data/$m.map" "$work/$name.map"
  # The map named where mkpath runs.
  awk -v map="$name.map" 'NR==1{print;next} (NR-2)%10==0 {$2=map; print}' OFS='\t' \
    "$data/$m.map.scen" > "$work/$name.scen"
  t0=$(date +%s.%N)
  (cd "$work" && "$mkpath" --generate "$name.map" > /dev/null)
  t1=$(date +%s.%N)
  echo "build $name mkpath $(echo "$t1 - $t0" | bc) $(stat -c %s "$work/$name.map.bb+") -"
  for kind in budget whole; do
    extra=(); [ $kind = whole ] && extra=(--seconds 600)
    out=$("$cairns" table build "$data/$m.map" --search jps+bb "${extra[@]}" -o "$work/$name.$kind.gb")
    echo "build $name cairns-$kind $(awk '/^build s/{print $3}' <<< "$out") \
$(awk '/^table bytes/{print $3}' <<< "$out") $(awk '/^boxes/{print $2 "/" $4}' <<< "$out")"
  done
done
mk_run() { # round map
  local name; name=$(basename "$2")
  (cd "$work" && "$mkpath" "$name.scen" > "$name.out" 2> "$name.err")
  python3 - "$1" "$name" "$work/$name.scen" "$work/$name.out" "$work/$name.err" <<'PY'
import re, sys
r, name, scen, out, err = sys.argv[1:]
want = [float(l.split()[8]) for l in open(scen).read().splitlines()[1:] if l.strip()]
got = [l.strip() for l in open(out) if l.strip()]
m = re.search(r"Search:\s*([\d.]+)(\S+)", open(err).read())
s = float(m.group(1)) * {"s": 1, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}[m.group(2)]
bad = sum(1 for a, b in zip(got, want) if a.startswith("failed") or abs(float(a) - b) > 0.006 + 1e-5 * b)
print(r, name, "mkpath", "%.2f" % (s / len(want) * 1e6), len(want), bad + abs(len(got) - len(want)))
PY
}
cairns_run() { # round map kind
  local name; name=$(basename "$2")
  "$cairns" scen "$data/$2.map.scen" --table "$work/$name.$3.gb" --every 10 --json \
    | python3 -c 'import json, sys; j = json.load(sys.stdin); print(*sys.argv[1:], "%.2f" % j["mean_us"], j["queries"], j["mismatches"])' \
      "$1" "$name" "cairns-$3"
}
for round in $(seq "$rounds"); do
  for m in $maps; do
    if [ $((round % 2)) = 1 ]; then
      mk_run "$round" "$m"; cairns_run "$round" "$m" budget; cairns_run "$round" "$m" whole
    else
      cairns_run "$round" "$m" whole; cairns_run "$round" "$m" budget; mk_run "$round" "$m"
    fi
  done
done
