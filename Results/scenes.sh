#!/usr/bin/env bash
# The pictures of the scenes in the README, made by rasterbench itself:
# a contact sheet of each scene (12 frames spread over its cycle or span, at
# iphone-6 size, thumbnails a quarter wide) and an animated WebP of each
# (every 4th frame of its cycle or span, 15 fps, at a third of iphone-6 size:
# 250x445, lossy q85 key frames).
#
#   Results/scenes.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product rasterbench
R=.build/release/rasterbench
out=Results/images/scenes
mkdir -p "$out"
# name, frames of its cycle or span, extra options
while read -r scene last opts; do
    $R render --scene "$scene" --sheet --threads 2 $opts -o "$out/$scene-sheet.png"
    $R render --scene "$scene" --frames "0..$last" --step 4 --size 250x445 --threads 2 $opts -o "$out/$scene.webp"
done <<'LIST'
telegram 479
aurora 719
liquid 359
mesh 599
morph 359
LIST
# The styles and themes beside the defaults, as one frame each.
$R render --scene telegram --style contest --frame 140 --threads 2 -o "$out/telegram-contest.png"
$R render --scene aurora --theme dark --frame 600 --threads 2 -o "$out/aurora-dark.png"
$R render --scene aurora --mode reduce-transparency --frame 600 --threads 2 -o "$out/aurora-reduce-transparency.png"
