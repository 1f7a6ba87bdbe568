#!/bin/sh
# Median query time (us) of cairns jps, cairns jps+ and warthog jps+ on four maps.
D=/work/shared/data/movingai
C=${CAIRNS:-target/release-lto/cairns}
W=${WARTHOG_JPS:-/work/peers-bin/warthog/warthog-jps}
for m in dao/den520d street/Berlin_0_512 room/32room_000 maze/maze512-1-0; do
  S=$D/$m.map.scen; M=$D/$m.map
  for s in jps jps+; do
    $C scen $S --search $s --json | python3 -c "import json,sys; j=json.load(sys.stdin); print('$m', j['spec'], j['queries'], j['mismatches'], 'median_us', round(j['median_us'],2), 'mean_us', round(j['mean_us'],2), 'expanded', round(j['mean_expanded'],1), 'pre_s', round(j['preprocess_s'],4), 'bytes', j['table_bytes'])"
  done
  $W --alg jps+ --scen $S --map $M --checkopt 2>/dev/null | awk -F'\t' -v m=$m 'NR>1 && $1 ~ /^[0-9]+$/ {print $8/1000, $3}' | sort -n | awk -v m=$m '{t[NR]=$1; s+=$1; e+=$2} END {print m, "warthog-jps+", NR, "median_us", t[int((NR+1)/2)], "mean_us", s/NR, "expanded", e/NR}'
done
