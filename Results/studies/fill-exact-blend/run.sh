#!/usr/bin/env bash
# What the exact blend of partly covered pixels costs the K4 fill: `ab` of
# BASE (default 166995d, the 8-bit blend of every chunk) against this build,
# the suite's blob and stars at 1 thread, 8 rounds. Prints ab's table; the
# figures committed are in summary.md. Needs a quiet host: ~2 min.
# Usage: Results/studies/fill-exact-blend/run.sh [BASE]
set -euo pipefail
cd "$(dirname "$0")/../../.."
base=${1:-166995d}
swift build -c release --product rasterbench >/dev/null
basedir=$(mktemp -d)/rb-base
git worktree add --detach "$basedir" "$base" >/dev/null
trap 'git worktree remove --force "$basedir" 2>/dev/null || true; git worktree prune' EXIT
(cd "$basedir" && swift build -c release --product rasterbench >/dev/null)
out=$(mktemp -d)
.build/release/rasterbench ab "$basedir/.build/release/rasterbench" --kernels fill --variants exact \
    --backends simd,openmp --threads 1 --rounds 8 --out "$out"
