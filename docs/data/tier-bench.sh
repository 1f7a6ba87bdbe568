#!/usr/bin/env bash
# Every preprocessing tier of cairns (`jps`, `jps+`, `jps+bb`, `sub`, or
# those in $SEARCHES) and, when $GPPC_SUBGOAL names its binary, the N-level
# subgoal graph entry of GPPC 2014 (built by ../shared/peers/gppc-2014.sh),
# on every 10th query of each map's scenario file, in rounds that rotate
# which runs first.
#   GPPC_SUBGOAL=/path/to/subgoal docs/data/tier-bench.sh CAIRNS [ROUNDS] [MAP...]
# CAIRNS: the cairns binary; MAP: set/name under ../shared/data/movingai.
# Prints one line per run: round map search pre_s bytes mean_us queries mismatches.
# The GPPC entry's pre_s is the wall time of `-pre` (which writes its
# table, whose file size is its bytes); its mean_us is the mean of its
# per-query times, which include writing out the path; its mismatches are
# the queries it does not mark `valid`.
set -euo pipefail
cairns=$(realpath "$1"); rounds=${2:-2}; shift $(( $# < 2 ? $# : 2 ))
data=$(cd "$(dirname "$0")/../../.." && pwd)/shared/data/movingai
maps=${*:-dao/den520d dao/orz900d room/32room_000 street/Berlin_0_512 maze/maze512-1-0 random/random512-10-0}
read -r -a all <<< "${SEARCHES:-jps jps+ jps+bb sub}"
if [ -n "${GPPC_SUBGOAL:-}" ]; then
  all+=(gppc-nlevel-subgoal)
  gppc=$(realpath "$GPPC_SUBGOAL")
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
gppc_run() { # round map: one run of the GPPC entry in $work
  local round=$1 m=$2 name pre bytes
  name=$(basename "$m")
  cp "$data/$m.map" "$work/$name.map"
  awk 'NR==1{print;next} (NR-2)%10==0' "$data/$m.map.scen" > "$work/$name.scen"
  rm -f "$work"/NLevelSubgoalGraph-*
  pre=$( { cd "$work" && /usr/bin/time -f "%e" "$gppc" -pre "$name.map" "$name.scen" >/dev/null; } 2>&1 | tail -1)
  bytes=$(stat -c %s "$work/NLevelSubgoalGraph-$name.map")
  (cd "$work" && "$gppc" -run "$name.map" "$name.scen") |
    awk -v r="$round" -v m="$name" -v pre="$pre" -v bytes="$bytes" \
      '{t+=$3; n++; if ($NF=="valid") v++} END {printf "%s %s gppc-nlevel-subgoal %s %s %.2f %d %d\n", r, m, pre, bytes, t/n*1e6, n, n-v}'
}
for round in $(seq 1 "$rounds"); do
  k=$(( (round - 1) % ${#all[@]} ))
  order="${all[*]:k} ${all[*]:0:k}"
  for m in $maps; do
    for search in $order; do
      if [ "$search" = gppc-nlevel-subgoal ]; then
        gppc_run "$round" "$m"
        continue
      fi
      "$cairns" scen "$data/$m.map.scen" --search "$search" --every 10 --json |
        python3 -c 'import json,sys; j=json.load(sys.stdin); print(*sys.argv[1:], "%.4f" % j["preprocess_s"], j["table_bytes"], "%.2f" % j["mean_us"], j["queries"], j["mismatches"])' "$round" "$(basename "$m")" "$search"
    done
  done
done
