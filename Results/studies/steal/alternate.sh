#!/usr/bin/env bash
# Alternating processes of two builds on one 2-thread openmp row (the suite's
# K1 frame as a job, `bench --quick`): per process its ops median and
# minimum and the line saying how many parallel regions ran on the caller
# alone. For a change to the contention rules: on an idle guest a rule that
# over-reacts shows as solo regions and a median near the 1-thread time.
# Usage: Results/studies/steal/alternate.sh BASE_BIN NEW_BIN [N] [JOB]
set -euo pipefail
cd "$(dirname "$0")/../../.."
base=$1 new=$2 n=${3:-8} job=${4:-Results/studies/freeform/jobs/k1-suite.json}
for i in $(seq 1 "$n"); do
    for side in base new; do
        bin=$base; [ "$side" = new ] && bin=$new
        out=$("$bin" bench "$job" --backend openmp --threads 2 --quick --no-quality 2>&1)
        ops=$(echo "$out" | awk '$1 == "ops" { print "median " $2 " " $3 ", min " $8 " " $9 }')
        solo=$(echo "$out" | grep -o '^openmp: [0-9]* of [0-9]* parallel regions ([0-9.]*%)' || echo "openmp: no region alone")
        echo "$i $side: $ops; $solo"
    done
done
