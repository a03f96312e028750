#!/usr/bin/env bash
# K1/K2 against their peers, in ONE interleaved run: each round runs this
# build's `run` (K2 linear+radial exact, K1 freeform full; simd and openmp
# at 1 and 2 threads; 750x1334) and then the peers (peers.py: Blend2D at 1
# thread, numba parallel float32 at 2) and the native Blend2D peer
# (blend2d_peer, built by build-blend2d.sh; skipped when B2D_PEER is not an
# executable), so a busy host slows all alike. Each round also times the
# job files in jobs/ with `bench` (simd and openmp, 1 and 2 threads): the
# suite's linear and radial frames and an off-centre radial, whose rows have
# no mirror symmetry.
# Then `ab` of this build against BASE (default 15d662f, before the runs)
# on the same rows. Writes into OUT (default a temporary directory) and
# prints the medians of the rounds; summary.md holds the figures committed.
# Needs: python3 with `pip install blend2d-python numba numpy` (PY=...).
# BASE_BIN=path: a rasterbench already built from BASE, used instead of
# building one in a temporary worktree. B2D_PEER=path: the native peer
# (default .build/peers/build/blend2d_peer, where build-blend2d.sh puts it). AB=0: skip the closing `ab`.
# Usage: Results/studies/gradients/run.sh [BASE] [ROUNDS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/../../.."
base=${1:-15d662f}
rounds=${2:-5}
out=${3:-$(mktemp -d)}
py=${PY:-python3}
b2d=${B2D_PEER:-.build/peers/build/blend2d_peer}
mkdir -p "$out"
swift build -c release --product rasterbench >/dev/null
if [ "${AB:-1}" = 0 ]; then
    basebin=
elif [ -n "${BASE_BIN:-}" ]; then
    # A rasterbench already built from BASE (saves a release build on a busy host).
    basebin=$BASE_BIN
else
    basedir=$(mktemp -d)/rb-base
    git worktree add --detach "$basedir" "$base" >/dev/null
    trap 'git worktree remove --force "$basedir" 2>/dev/null || true; git worktree prune' EXIT
    (cd "$basedir" && swift build -c release --product rasterbench >/dev/null)
    basebin=$basedir/.build/release/rasterbench
fi
sel=(--kernels linear,radial,freeform --variants exact,full --backends simd,openmp --threads 1,2 --size 750x1334)
for r in $(seq 1 "$rounds"); do
    .build/release/rasterbench run "${sel[@]}" --quick --no-dram --out "$out/ours-$r.csv" >"$out/ours-$r.txt"
    "$py" Results/studies/gradients/peers.py 750 1334 2 15 >"$out/peers-$r.csv"
    if [ -x "$b2d" ]; then "$b2d" 750 1334 15 >>"$out/peers-$r.csv"; fi
    for job in linear radial-centre radial-off; do
        for b in simd openmp; do
            for t in 1 2; do
                .build/release/rasterbench bench "Results/studies/gradients/jobs/$job.json" --backend "$b" \
                    --threads "$t" --quick --no-quality --csv >"$out/job-$r-$job-$b-$t.csv"
            done
        done
    done
done
"$py" Results/studies/gradients/summary.py "$out"
[ "${AB:-1}" = 0 ] && exit 0
.build/release/rasterbench ab "$basebin" "${sel[@]}" --rounds 4 --quick --out "$out/ab" | tee "$out/ab.txt"
