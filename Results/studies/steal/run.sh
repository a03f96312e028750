#!/usr/bin/env bash
# The openmp fill rows at 1 and 2 threads, ROUNDS times, each run with the
# per-CPU steal time the hypervisor took meanwhile (/proc/stat) and the
# lines `run` prints after its table (steal over the rows, openmp regions
# run on the caller alone). Prints one block per run.
# Usage: Results/studies/steal/run.sh [ROUNDS] [RASTERBENCH]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
bin=${2:-.build/release/rasterbench}
for r in $(seq 1 "$rounds"); do
    before=$(grep '^cpu' /proc/stat)
    out=$("$bin" run --kernels fill --variants exact --backends openmp --threads 1,2 --rounds 3 --quick --no-dram 2>&1)
    after=$(grep '^cpu' /proc/stat)
    echo "== run $r"
    # Per CPU: user+system ticks and steal ticks over the run.
    paste <(echo "$before") <(echo "$after") | awk '{ n = NF / 2
        printf "  %-4s busy %4d ticks, steal %4d ticks\n", $1, ($(n+2) + $(n+4)) - ($2 + $4), $(n+9) - $9 }'
    echo "$out" | grep -E '^fill/exact/openmp|^hypervisor steal|^openmp:' | sed 's/^/  /'
done
