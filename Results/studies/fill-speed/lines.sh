#!/usr/bin/env bash
# What a line of the flattened blob costs, ours against Blend2D's, in one
# interleaved run: each round times this build's blob fill at 1 thread at
# the variants exact, tol0.05, tol0.25 and tol1 (603, about 174, 88 and 47
# chords), then Blend2D filling the blob given as its chords at the same
# tolerances (peers.py --lines). The slope between two variants is the
# cost of a line; the intercept the cost of everything else.
# Needs: python3 with `pip install blend2d-python` (PY=...).
# Usage: PY=python Results/studies/fill-speed/lines.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-3}
py=${PY:-python3}
swift build -c release --product rasterbench >/dev/null
for r in $(seq 1 "$rounds"); do
    .build/release/rasterbench run --kernels fill --variants exact,tol0.05,tol0.25,tol1 --backends simd,openmp \
        --threads 1 --size 750x1334 --filter shape=blob --rounds 3 --quick --no-dram 2>/dev/null \
        | awk -v r="$r" '$1 == "fill" && $6 == "shape=blob" { print "round " r ": ours " $2 " " $3 " " $7 " " $8 }'
    "$py" Results/studies/fill-speed/peers.py 750 1334 300 --lines | sed "s/^/round $r: blend2d tolerance,chords,median_us,min_us /"
done
