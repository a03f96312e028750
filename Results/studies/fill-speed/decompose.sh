#!/usr/bin/env bash
# Where the blob's time goes, by taking the paint away: builds the simd
# schedule three times in a scratch worktree of COMMIT (default HEAD) --
# as it is; with the solid runs' stores removed (stubs/no-runs.patch);
# and with those and the whole chunks' blend removed too
# (stubs/no-paint.patch) -- and times the three with alternate.sh (blob
# and stars, simd, 1 thread; OUT/alternate.txt). Every other stage
# (flattening, clipping, bucketing, the batches, the prefix sums, the
# sweep's walk over the bitmap) runs as it is, so the no-paint build's
# time is the rasterisation's and the difference to the full build the
# painting's. With PY (a python with blend2d-python) it then runs rows.py
# with the full and no-paint builds: the cost of a row beside Blend2D's
# (OUT/rows.txt). The patches are made against facc72f's
# SIMDFillPaint.swift; a later commit may need them remade.
# Usage: [PY=python] decompose.sh ROUNDS OUT [COMMIT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
rounds=$1 out=$2 commit=${3:-HEAD}
mkdir -p "$out"
scratch=$(mktemp -d)
tree=$scratch/tree
git -C "$repo" worktree add -q --detach "$tree" "$commit"
trap 'git -C "$repo" worktree remove --force "$tree"; rm -rf "$scratch"' EXIT
build() {
    (cd "$tree" && swift build -c release --product rasterbench >/dev/null && cp .build/release/rasterbench "$scratch/$1")
}
build full
git -C "$tree" apply "$here/stubs/no-runs.patch"
build no-runs
git -C "$tree" checkout -q -- .
git -C "$tree" apply "$here/stubs/no-paint.patch"
build no-paint
BACKENDS=simd THREADS=1 "$here/alternate.sh" "$rounds" "$out/alternate.txt" \
    "$scratch/full" "$scratch/no-runs" "$scratch/no-paint"
if [ -n "${PY:-}" ]; then
    (cd "$here" && "$PY" rows.py "$rounds" simd "$scratch/full" "$scratch/no-paint") | tee "$out/rows.txt"
fi
