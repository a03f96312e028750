#!/usr/bin/env bash
# Frames under contention: every kernel's and scene's exact variant on simd
# and openmp at 1 and 2 threads while one busy thread holds a core (on a
# phone, the app's own threads), before and after the threaded backends
# adapted to it (raster_omp.h: RASTER_LATE_START_US and what follows).
# Writes into this folder:
#   after.csv   this build, `run --contend 1` (the harness's own contender),
#               ROUNDS rounds: t=2 against t=1 under the same contention;
#   ab/         `ab` of the base build (BASE, default 15d662f: idle workers
#               always spin for 1 ms; f421bca gave each thread one equal band)
#               against this build, ROUNDS rounds, both under one external
#               contender pinned to the last core (the base has no --contend);
#   summary.md  made by summary.py from the two: per workload t2/t1 with its
#               interval and verdict.
# BASE_BIN=path: a rasterbench already built from BASE, used instead of
# building one in a temporary worktree.
# Needs a quiet host otherwise (nothing else running): ~20 min on 2 cores.
# Usage: Results/studies/contention/run.sh [BASE] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
base=${1:-15d662f}
rounds=${2:-6}
bin=.build/release/rasterbench
swift build -c release --product rasterbench >/dev/null
spinner=
basedir=
cleanup() {
    [ -n "$spinner" ] && kill "$spinner" 2>/dev/null || true
    if [ -n "$basedir" ]; then git worktree remove --force "$basedir" 2>/dev/null || true; git worktree prune; fi
}
trap cleanup EXIT
if [ -n "${BASE_BIN:-}" ]; then
    basebin=$BASE_BIN
else
    basedir=$(mktemp -d)/rb-base
    git worktree add --detach "$basedir" "$base" >/dev/null
    (cd "$basedir" && swift build -c release --product rasterbench >/dev/null)
    basebin=$basedir/.build/release/rasterbench
fi

select=(--variants exact,full --backends simd,openmp --threads 1,2 --quick --no-dram)
after=$(git rev-parse --short HEAD)
"$bin" run "${select[@]}" --contend 1 --rounds "$rounds" --out "$here/after.csv" >/dev/null 2>&1

taskset -c $(( $(nproc) - 1 )) sh -c 'while :; do :; done' &
spinner=$!
rm -rf "$here/ab"
"$bin" ab "$basebin" --rounds "$rounds" --variants exact,full --backends simd,openmp \
    --threads 1,2 --quick --out "$here/ab" >"$here/ab.txt" 2>&1 || true
kill "$spinner"; spinner=
# The per-round reports and logs are ab's intermediates; base.csv and
# new.csv hold every sample with its round.
rm -f "$here"/ab/round*
python3 "$here/summary.py" "$here" "$base" "$after" >"$here/summary.md"
cat "$here/summary.md"
