#!/usr/bin/env bash
# Instructions per query (callgrind), which the load of a shared machine does not
# change: cairns `sub` and `jps+` and the GPPC-2014 N-level subgoal graph entry on
# every 10th query of a scenario file, minus a run of its first query alone (which
# takes out loading, preprocessing and the process), divided by the other queries.
#   docs/data/subgoal-callgrind.sh CAIRNS GPPC_SUBGOAL WORK_DIR MAP...
# WORK_DIR as for subgoal-bench.sh (run that first: it holds the maps, the
# every-10th scenario files and the GPPC entry's data). MAP: a basename there.
set -euo pipefail
cairns=$(realpath "$1"); gppc=$(realpath "$2"); work=$3; shift 3
data=$(cd "$(dirname "$0")/../../.." && pwd)/shared/data/movingai
cd "$work"
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ {print $4}'; }
for b in "$@"; do
  scen=$(ls "$data"/*/"$b.map.scen")
  head -2 "$b.every10.scen" > "$b.first.scen"
  n=$(( $(wc -l < "$b.every10.scen") - 1 ))
  for s in sub jps+; do
    all=$(RAYON_NUM_THREADS=1 ir "$cairns" scen "$scen" --search "$s" --every 10 --json)
    one=$(RAYON_NUM_THREADS=1 ir "$cairns" scen "$scen" --search "$s" --every 100000000 --json)
    echo "$b $s $(( (all - one) / (n - 1) ))"
  done
  all=$(ir "$gppc" -run "$b.map" "$b.every10.scen")
  one=$(ir "$gppc" -run "$b.map" "$b.first.scen")
  echo "$b gppc-nlevel-subgoal $(( (all - one) / (n - 1) ))"
done
