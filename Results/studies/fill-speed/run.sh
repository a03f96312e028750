#!/usr/bin/env bash
# K4 (blob and stars, exact variant, 750x1334) against Blend2D in ONE
# interleaved run: each round runs this build's `run --kernels fill` (simd
# and openmp at 1 and 2 threads) and then peers.py (Blend2D's Python
# binding at 1 thread filling the same two paths), so a busy host slows
# both alike. Then `ab` of this build against BASE_BIN (a release
# rasterbench built from the base commit) on the same rows. Writes into OUT
# (default a temporary directory) and prints the medians of the rounds;
# summary.md holds the figures committed.
# VARIANTS=exact,tol0.05 times those fill variants too (default exact);
# accuracy.py says how far each is from the exact image, and Blend2D's.
# Needs: python3 with `pip install blend2d-python` (PY=...).
# Usage: BASE_BIN=path Results/studies/fill-speed/run.sh [ROUNDS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-5}
out=${2:-$(mktemp -d)}
py=${PY:-python3}
mkdir -p "$out"
swift build -c release --product rasterbench >/dev/null
sel=(--kernels fill --variants "${VARIANTS:-exact}" --backends simd,openmp --threads 1,2 --size 750x1334)
for r in $(seq 1 "$rounds"); do
    .build/release/rasterbench run "${sel[@]}" --quick --no-dram --out "$out/ours-$r.csv" >"$out/ours-$r.txt"
    "$py" Results/studies/fill-speed/peers.py 750 1334 200 >"$out/peers-$r.csv"
done
"$py" Results/studies/fill-speed/summary.py "$out"
if [ -n "${BASE_BIN:-}" ]; then
    .build/release/rasterbench ab "$BASE_BIN" "${sel[@]}" --rounds 6 --out "$out/ab" | tee "$out/ab.txt"
fi
