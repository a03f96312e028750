#!/usr/bin/env bash
# Where a scene frame's time goes: each scene's frame 140 at iphone-6 as a
# job file (`render --emit-job`), timed op by op (`bench --per-op`) with the
# variant and scale that fit the budget in the scene run of commit 77e277f (git show c9a8dbf:Results/vm-2026-11-22-scenes.csv)
# and with the exact variant, on openmp and simd at 2 threads.
#
#   Results/studies/scenes-per-op/run.sh  (prints the figures in summary.md)
set -euo pipefail
cd "$(dirname "$0")/../../.."
swift build -c release --product rasterbench >&2
R=.build/release/rasterbench
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# scene, the fitting variant, its scale
while read -r scene variant scale; do
    $R render --scene "$scene" --frame 140 --emit-job > "$dir/$scene.json"
    for backend in openmp simd; do
        for v in exact "$variant@$scale"; do
            name=${v%@*}; s=${v#*@}; [ "$s" = "$v" ] && s=1
            echo "== $scene $name scale=$s $backend t=2"
            $R bench "$dir/$scene.json" --backend "$backend" --threads 2 --variant "$name" --scale "$s" --quick --per-op --no-quality
        done
    done
done <<'LIST'
telegram freeform=fit80 1
aurora layer=quarter,blur=iir 1
liquid exact 1
mesh exact 0.25
morph exact 1
LIST
