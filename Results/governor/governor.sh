#!/bin/sh
# Regenerates Results/governor/ on this host: records aurora's per-frame times
# at every level of its front (skipped if the CSV exists: delete it to record
# again), prints the governor-vs-reference and buffering tables, and runs the
# governor on real rendering without and with an artificial load.
set -e
cd "$(dirname "$0")/../.."
swift build -c release
B=.build/release/rasterbench
OUT=Results/governor
[ -f $OUT/aurora-trace.csv ] || $B governor --record $OUT/aurora-trace.csv --scene aurora --frames 120
$B governor --trace $OUT/aurora-trace.csv | tee $OUT/governor.txt
$B run --scene aurora --adaptive --frames 240 | tee $OUT/adaptive.txt
$B run --scene aurora --adaptive --frames 240 --stress 1.6 | tee $OUT/adaptive-stress.txt
