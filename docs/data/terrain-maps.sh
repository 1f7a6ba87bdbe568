#!/bin/sh
# The example terrain maps of docs/terrain.md, made by the program itself:
#   sh docs/data/terrain-maps.sh [path/to/cairns]
set -e
cairns=${1:-./target/release/cairns}
$cairns generate --kind rooms:15 --width 128 --height 128 --seed 1 --patches 24 -o docs/data/terrain-rooms.map
$cairns generate --kind open --width 64 --height 48 --seed 3 --patches 10 -o docs/data/terrain-open.map
