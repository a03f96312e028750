#!/usr/bin/env bash
# `compare` on large reports: two synthetic reports of N rows
# (make-report.py: 50 real rows of a committed run repeated with a unique
# param each and 5 jittered samples, one round), compared, with wall time
# and peak resident memory from /usr/bin/time. BASE_EXE, if given, is timed
# on the same files first (e.g. a build of an older commit in a worktree).
#
#   Results/studies/compare-scale/measure.sh [N...]        (default: 100000 1000000)
#   BASE_EXE=/tmp/base/.build/release/rasterbench Results/studies/compare-scale/measure.sh 100000
set -euo pipefail
cd "$(dirname "$0")/../../.."
# The rows come from the current run (the one report at the top of Results/).
src=$(ls Results/*.csv | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exe=.build/release/rasterbench
for n in ${*:-100000 1000000}; do
    python3 Results/studies/compare-scale/make-report.py "$src" "$n" "$work/a.csv" 1
    python3 Results/studies/compare-scale/make-report.py "$src" "$n" "$work/b.csv" 2
    echo "$n rows a side, $(( $(stat -c %s "$work/a.csv") / 1048576 )) MiB a file"
    i=0
    for e in ${BASE_EXE:-} "$exe"; do
        i=$((i + 1))
        /usr/bin/time -f "  $e: %e s wall, %U s user, %M KiB peak RSS" "$e" compare "$work/a.csv" "$work/b.csv" > "$work/out$i.txt"
    done
    if [ "$i" -eq 2 ]; then cmp -s "$work/out1.txt" "$work/out2.txt" && echo "  same output" || echo "  OUTPUTS DIFFER"; fi
done
