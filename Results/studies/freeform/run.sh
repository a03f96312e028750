#!/usr/bin/env bash
# K1 freeform against numba, in ONE interleaved run: each round runs this
# build's `run` (K1 full and lut; simd and openmp at 1 and 2 threads;
# 750x1334) and then numba (numba_peer.py, parallel float32, 2 threads), so
# a busy host slows both alike. Then `ab` of this build against BASE
# (default 026b7e3, before the change) on the same rows plus the telegram
# scene's exact frame at 1 thread. Writes into OUT (default a temporary
# directory) and prints the medians of the rounds; summary.md holds the
# figures committed.
# Needs: python3 with `pip install numba numpy` (PY=...). BASE_EXE=path
# uses an already built base rasterbench instead of building BASE.
# Usage: Results/studies/freeform/run.sh [BASE] [ROUNDS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/../../.."
base=${1:-026b7e3}
rounds=${2:-5}
out=${3:-$(mktemp -d)}
py=${PY:-python3}
mkdir -p "$out"
swift build -c release --product rasterbench >/dev/null
if [ -n "${BASE_EXE:-}" ]; then
    base_exe=$BASE_EXE
else
    basedir=$(mktemp -d)/rb-base
    git worktree add --detach "$basedir" "$base" >/dev/null
    trap 'git worktree remove --force "$basedir" 2>/dev/null || true; git worktree prune' EXIT
    (cd "$basedir" && swift build -c release --product rasterbench >/dev/null)
    base_exe=$basedir/.build/release/rasterbench
fi
sel=(--kernels freeform --variants full,lut --backends simd,openmp --threads 1,2 --size 750x1334)
uptime >"$out/load.txt"
for r in $(seq 1 "$rounds"); do
    .build/release/rasterbench run "${sel[@]}" --quick --no-dram --out "$out/ours-$r.csv" >"$out/ours-$r.txt"
    uptime >>"$out/load.txt"
    "$py" Results/studies/freeform/numba_peer.py 750 1334 2 15 >"$out/peers-$r.csv"
done
"$py" Results/studies/freeform/summary.py "$out"
.build/release/rasterbench ab "$base_exe" "${sel[@]}" --rounds 4 --quick \
    --out "$out/ab" | tee "$out/ab.txt"
.build/release/rasterbench ab "$base_exe" --scenes telegram --variants exact \
    --backends simd,openmp --threads 1 --rounds 4 --quick --out "$out/ab-scene" | tee "$out/ab-scene.txt"
