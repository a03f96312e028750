#!/usr/bin/env bash
# The exact fill's flattening tolerance, 1/256 -> 1/1024 px, and the simd
# painter's all-lanes test, measured with `ab` (Results/studies/fill-precision/summary.md):
#   ab-tolerance.txt  this build against BASE (c84073e: 1/256 px, the
#                     standard library's all(mask))
#   ab-all-equal.txt  this build against BASE with only the tolerance
#                     changed (so the difference is FillLanes.allEqual), simd
# Builds both bases in worktrees under /tmp. About 10 minutes here.
set -euo pipefail
cd "$(dirname "$0")/../../.."
base=c84073e
swift build -c release
for name in tol256 tol1024; do
    dir=/tmp/rasterbench-$name
    [ -d "$dir" ] || git worktree add --detach "$dir" "$base"
    if [ "$name" = tol1024 ]; then
        sed -i 's|exactTolerance = 1.0 / 256|exactTolerance = 1.0 / 1024|' "$dir/Sources/RasterKit/Kernels/PathFill.swift"
    fi
    (cd "$dir" && swift build -c release)
done
exe=.build/release/rasterbench
sel=(--rounds 6 --kernels fill --scenes liquid,morph --variants exact --threads 1,2 --quick)
$exe ab /tmp/rasterbench-tol256/.build/release/rasterbench "${sel[@]}" | tee Results/studies/fill-precision/ab-tolerance.txt
$exe ab /tmp/rasterbench-tol1024/.build/release/rasterbench "${sel[@]}" --backends simd | tee Results/studies/fill-precision/ab-all-equal.txt
