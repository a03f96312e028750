#!/usr/bin/env bash
# Times the C schedule's linear frame (span_harness.c; FRAME radial or
# radial-off for the radial ones, any of the three with -lut for the lut
# variant's) built from BASE's CRasterOMP and from
# this tree's, in alternating processes: first checks that both draw the
# same bytes on sixteen gradients, linear and radial, at 1 and 2 threads,
# then runs each PAIRS times (default 8), alternating, and prints
# each build's minima sorted (ms; each the min of 400 frames). Alternating
# processes and reading the sorted minima side by side is what tells a
# change from this host's drift of 10-40% between minutes.
# Needs the toolchain's clang and libomp-dev (as the package does).
# BASE needs the span code (gradient_spans.c).
# Usage: Results/studies/gradients/span_harness.sh BASE [PAIRS] [THREADS] [FRAME]
set -euo pipefail
cd "$(dirname "$0")/../../.."
base=${1:?base revision}
pairs=${2:-8}
threads=${3:-1}
frame=${4:-linear}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$base" Sources/CRasterOMP | tar -x -C "$work"
clang=$(dirname "$(readlink -f "$(command -v swift)")")/clang
omp_h=$(find /usr/lib/llvm-* -name omp.h | head -1)
omp_lib=$(dirname "$(find /usr/lib/llvm-* -name 'libomp.so' | head -1)")
build() { # SOURCE_DIR OUTPUT
    # The row plan and the lut variant came later than the span code: a
    # build from before them draws without them.
    # The lut frames only when both builds have the variant, so that
    # `check` compares the same cases.
    local extra=() f
    for f in gradient_plan.c gradient_lut.c; do [ -f "$1/$f" ] && extra+=("$1/$f"); done
    if [ -f "$work/Sources/CRasterOMP/gradient_lut.c" ] && [ -f Sources/CRasterOMP/gradient_lut.c ]; then
        extra+=(-DHARNESS_LUT=1)
    fi
    "$clang" -O3 -std=c11 -ffp-contract=fast -fno-math-errno -march=native -fopenmp -I"$(dirname "$omp_h")" \
        -I"$1/include" -I"$1" Results/studies/gradients/span_harness.c "$1/gradient.c" "$1/gradient_spans.c" \
        "$1/runtime.c" "$1/affinity.c" "${extra[@]}" -L"$omp_lib" -Wl,-rpath,"$omp_lib" -lomp -lm -o "$2"
}
build "$work/Sources/CRasterOMP" "$work/base"
build Sources/CRasterOMP "$work/new"
if ! cmp -s <("$work/base" 1 check) <("$work/new" 1 check); then
    echo "the two builds draw different bytes:"; diff <("$work/base" 1 check) <("$work/new" 1 check) || true; exit 1
fi
echo "same bytes on $("$work/new" 1 check | wc -l) gradient x thread cases"
for _ in $(seq 1 "$pairs"); do
    echo "base $("$work/base" "$threads" "$frame")"
    echo "new $("$work/new" "$threads" "$frame")"
done | sort -k1,1 -k2,2n | awk '{m[$1] = m[$1] " " $2} END {print "base (" "'"$base"'" "):" m["base"]; print "new (this tree):" m["new"]}'
