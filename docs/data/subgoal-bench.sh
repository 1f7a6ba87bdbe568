#!/usr/bin/env bash
# Subgoal graphs (`--search sub`) against `jps+` and the GPPC-2014 N-level
# subgoal graph entry, on every 10th query of six scenario files, in rounds
# that rotate the three (wall time on a shared machine is noisy).
#   docs/data/subgoal-bench.sh CAIRNS GPPC_SUBGOAL WORK_DIR [ROUNDS]
# CAIRNS: the cairns binary; GPPC_SUBGOAL: the `subgoal` entry that
# ../shared/peers/gppc-2014.sh builds; WORK_DIR: where the maps, the every-10th
# scenario files and the GPPC entry's data go (outside the repository).
# Prints one line per run: round map search pre_s bytes mean_us queries mismatches.
set -euo pipefail
cairns=$(realpath "$1"); gppc=$(realpath "$2"); work=$3; rounds=${4:-3}
data=$(cd "$(dirname "$0")/../../.." && pwd)/shared/data/movingai
mkdir -p "$work" && cd "$work"
maps="dao/den520d dao/orz900d street/Berlin_0_512 room/32room_000 maze/maze512-1-0 random/random512-10-0"
for m in $maps; do
  b=$(basename "$m")
  cp "$data/$m.map" "$b.map"
  # The header and scenarios 0, 10, 20, ...: what `cairns scen --every 10` keeps.
  awk 'NR==1 || (NR-2)%10==0' "$data/$m.map.scen" > "$b.every10.scen"
done
run_cairns() { # round map search
  "$cairns" scen "$data/$2.map.scen" --search "$3" --every 10 --json |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(sys.argv[1], sys.argv[2], sys.argv[3], "%.4f" % j["preprocess_s"], j["table_bytes"], "%.1f" % j["mean_us"], j["queries"], j["mismatches"])' "$1" "$(basename "$2")" "$3"
}
run_gppc() { # round map
  b=$(basename "$2")
  rm -f -- *"-$b.map"
  pre=$( { /usr/bin/time -f "%e" "$gppc" -pre "$b.map" "$b.every10.scen" > /dev/null; } 2>&1 | tail -1)
  bytes=$(stat -c %s -- *"-$b.map")
  # Columns: scen total-time T ... total-len L subopt R valid|invalid; a path
  # more than 1e-4 above the published length counts as a mismatch.
  "$gppc" -run "$b.map" "$b.every10.scen" |
    awk -v r="$1" -v m="$b" -v pre="$pre" -v bytes="$bytes" \
      '{t+=$3; n++; if ($NF!="valid" || $11>1.0001) bad++} END {printf "%s %s gppc-nlevel-subgoal %s %s %.1f %d %d\n", r, m, pre, bytes, t/n*1e6, n, bad}'
}
for round in $(seq 1 "$rounds"); do
  for m in $maps; do
    case $(( (round - 1) % 3 )) in
      0) order="gppc sub jps+" ;;
      1) order="sub jps+ gppc" ;;
      *) order="jps+ gppc sub" ;;
    esac
    for who in $order; do
      if [ "$who" = gppc ]; then run_gppc "$round" "$m"; else run_cairns "$round" "$m" "$who"; fi
    done
  done
done
