#!/usr/bin/env bash
# Alternating processes: ROUNDS rounds, each running every given build's
# `run --kernels fill` (blob and stars, exact, 750x1334) once, in the order
# given, so that a host that drifts between two speeds slows every build
# alike within a round. Prints, per row, each build's median and minimum
# over the rounds and its median over the first build's. Used where `ab`
# cannot resolve a change of a few percent on a noisy host: compare minima,
# and medians only when every round ran at one speed.
# THREADS (default 1,2), BACKENDS (simd,openmp) and VARIANTS (exact) narrow
# the rows. Usage: alternate.sh ROUNDS OUT.txt BUILD... (release rasterbench
# binaries; OUT.txt gets one line per build, round and row)
set -euo pipefail
rounds=$1 out=$2
shift 2
: >"$out"
for r in $(seq 1 "$rounds"); do
    for bin in "$@"; do
        "$bin" run --kernels fill --variants "${VARIANTS:-exact}" --backends "${BACKENDS:-simd,openmp}" \
            --threads "${THREADS:-1,2}" --size 750x1334 --rounds 3 --quick --no-dram 2>/dev/null \
            | awk -v b="$(basename "$bin")" '/^fill/ { print b, $2, $3, $4, $6, $7, $8 }' >>"$out"
    done
done
python3 - "$out" "$@" <<'PY'
import collections, os, statistics, sys
times = collections.defaultdict(list)
builds = [os.path.basename(b) for b in sys.argv[2:]]
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) != 7 or not f[4].startswith("shape"):
        continue
    build, variant, backend, threads, shape, value, unit = f
    times[(shape, variant, backend, threads, build)].append(float(value) * (1000 if unit == "ms" else 1))
for row in sorted({k[:4] for k in times}):
    base = statistics.median(times[row + (builds[0],)])
    print(" ".join(row), " | ".join(
        "%s median %.1f (%.3f) min %.1f" % (b, statistics.median(times[row + (b,)]),
                                            statistics.median(times[row + (b,)]) / base, min(times[row + (b,)]))
        for b in builds))
PY
