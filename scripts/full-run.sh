#!/usr/bin/env bash
# Makes a full run for Results/: a release build, the whole suite (kernels
# and scenes) at 1 thread and at the default thread count (so the thread
# speed-up is measured), the size and sigma sweeps, in three rounds (each in
# its own random order: a row's median is the median of its round medians,
# and `compare` can tell run-to-run noise from a change), and the CSV, the
# JSON with every raw sample, and the printed tables, all named after this
# host and the UTC date. Later options win: `--rounds 5` for more.
#
#   scripts/full-run.sh            # full run
#   scripts/full-run.sh --quick    # shorter samples, same rows
#
# Run it on an otherwise idle machine: each row records the load average.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release
host=$(hostname -s | tr -cd 'A-Za-z0-9-')
name="Results/${host:-host}-$(date -u +%Y-%m-%d-%H%M%S)"
# The default profile (iphone-6) has 2 cores: time it at 1 and 2 threads.
cores=$(getconf _NPROCESSORS_ONLN)
threads="1,$(( cores < 2 ? 1 : 2 ))"
.build/release/rasterbench run --threads "$threads" --sweep all --rounds 3 --out "$name.csv" --json "$name.json" "$@" \
    | tee "$name.txt"
