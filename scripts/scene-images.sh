#!/usr/bin/env bash
# The pictures of the scenes in the README, made by rasterbench itself:
# a contact sheet of each scene (12 frames spread over its cycle or span, at
# iphone-6 size, thumbnails a quarter wide) and an animated WebP of each
# (every 4th frame of its cycle or span, 15 fps, at a third of iphone-6 size:
# 250x445, lossy q85; aurora at q100, because at q85 libwebp merges frames
# that moved by 3 levels or less and its slow drift then updates about once a
# second: 12 frames of 180 survived, 801 KiB at q100 with all 180).
#
#   scripts/scene-images.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product rasterbench
R=.build/release/rasterbench
out=Results/images/scenes
mkdir -p "$out"
# name, frames of its cycle or span, WebP quality
while read -r scene last quality; do
    $R render --scene "$scene" --sheet --threads 2 -o "$out/$scene-sheet.png"
    $R render --scene "$scene" --frames "0..$last" --step 4 --size 250x445 --threads 2 --webp-quality "$quality" -o "$out/$scene.webp"
done <<'LIST'
telegram 479 85
aurora 719 100
liquid 359 85
mesh 599 85
morph 359 85
LIST
# The styles and themes beside the defaults, as one frame each.
$R render --scene telegram --style contest --frame 140 --threads 2 -o "$out/telegram-contest.png"
$R render --scene aurora --theme dark --frame 600 --threads 2 -o "$out/aurora-dark.png"
$R render --scene aurora --mode reduce-transparency --frame 600 --threads 2 -o "$out/aurora-reduce-transparency.png"
