#!/usr/bin/env bash
# The up-samplers' horizontal stretch by loads and lane permutes instead of
# gathers (K1's grid variants, and the resampler behind render scales and
# layers), against a build from before: two `ab` runs, side by side.
# Usage: run.sh BASE_BIN [NEW_BIN] [ROUNDS]; writes each ab's report to
# data/ab-k1-grid.txt and data/ab-scaled-scenes.txt.
set -euo pipefail
cd "$(dirname "$0")/../../.."
base=$1
new=${2:-.build/release/rasterbench}
rounds=${3:-10}
out=Results/studies/upsample/data
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$new" ab "$base" --rounds "$rounds" --kernels freeform --variants down2,down4,down10,fit80 \
    --backends simd,openmp --threads 1,2 --quick --out "$tmp/k1" > "$out/ab-k1-grid.txt"
"$new" ab "$base" --rounds "$rounds" --scenes liquid,morph,aurora --kernels none --variants exact \
    --backends simd,openmp --threads 1,2 --filter scale= --quick --out "$tmp/scenes" > "$out/ab-scaled-scenes.txt"
