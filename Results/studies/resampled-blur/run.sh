#!/usr/bin/env bash
# K3's down2 and down4 on the two threaded backends: their parity in ONE run
# (rounds interleave the rows, so a busy minute slows both alike), then `ab`
# of this build's openmp rows against BASE_BIN, a rasterbench built from the
# commit before the change being judged.
# Usage: BASE_BIN=<rasterbench of the build before> Results/studies/resampled-blur/run.sh [ROUNDS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-7}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
swift build -c release --product rasterbench >/dev/null
sel=(--kernels blur --variants down2,down4 --threads 1,2 --quick)
.build/release/rasterbench run "${sel[@]}" --backends simd,openmp --rounds "$rounds" --no-dram \
    --out "$out/parity.csv" | tee "$out/parity.txt"
# openmp / simd per row, from the run's medians.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         $col["kernel"] == "blur" { key = $col["variant"] " t=" $col["threads"]; m[key, $col["backend"]] = $col["median_ms"]; keys[key] = 1 }
         END { for (k in keys) if (m[k, "simd"] > 0) printf "%s openmp/simd %.2f\n", k, m[k, "openmp"] / m[k, "simd"] }' \
    "$out/parity.csv" | sort | tee "$out/parity-ratios.txt"
if [ -n "${BASE_BIN:-}" ]; then
    .build/release/rasterbench ab "$BASE_BIN" "${sel[@]}" --backends openmp --rounds 8 --out "$out/ab" | tee "$out/ab.txt"
fi
