#!/usr/bin/env bash
# The soak: every scene, every backend, frame after frame in one
# process, with resident memory (VmRSS) read after the warm-up and at the
# end, and the draw's mallocs counted over the last 20 frames
# (Tests/HarnessTests/SoakTests.swift). Release build (allocation counts of
# -Onone code are not the product's), in .build-test, the scratch path the
# release allocation test of scripts/test.sh already built (not .build, so
# the product `swift run` uses is not rebuilt with testing enabled).
#
#   scripts/soak.sh            CI's form: 300 frames per scene and backend
#   scripts/soak.sh 10000      the full soak (Results/studies/soak/summary.md)
# Environment: RASTERBENCH_SOAK_SIZE (WxH, default 48x80),
# RASTERBENCH_SOAK_THREADS (default 2, the default profile's cores).
set -euo pipefail
cd "$(dirname "$0")/.."
export RASTERBENCH_SOAK_FRAMES=${1:-300}
swift test -c release --disable-swift-testing --scratch-path .build-test --filter SoakTests
