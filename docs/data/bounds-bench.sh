#!/usr/bin/env bash
# Goal bounding on JPS+ (`--search jps+bb`) against `jps+` (or the searches
# in $SEARCHES, e.g. SEARCHES="jps jps+ jps+bb sub"), on every 10th query of
# the scenario files of the maps named, in rounds that rotate which search
# runs first (wall time on a shared machine is noisy).
#   docs/data/bounds-bench.sh CAIRNS [ROUNDS] [MAP...]
# CAIRNS: the cairns binary; MAP: set/name under ../shared/data/movingai
# (den520d, 32room_000 and Berlin_0_512 by default).
# Prints one line per run: round map search pre_s bytes mean_us queries mismatches.
set -euo pipefail
cairns=$(realpath "$1"); rounds=${2:-3}; shift $(( $# < 2 ? $# : 2 ))
data=$(cd "$(dirname "$0")/../../.." && pwd)/shared/data/movingai
maps=${*:-dao/den520d room/32room_000 street/Berlin_0_512}
for round in $(seq 1 "$rounds"); do
  read -r -a all <<< "${SEARCHES:-jps+ jps+bb}"
  k=$(( (round - 1) % ${#all[@]} ))
  order="${all[*]:k} ${all[*]:0:k}"
  for m in $maps; do
    for search in $order; do
      "$cairns" scen "$data/$m.map.scen" --search "$search" --every 10 --json |
        python3 -c 'import json,sys; j=json.load(sys.stdin); print(*sys.argv[1:], "%.4f" % j["preprocess_s"], j["table_bytes"], "%.2f" % j["mean_us"], j["queries"], j["mismatches"])' "$round" "$(basename "$m")" "$search"
    done
  done
done
