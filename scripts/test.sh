#!/usr/bin/env bash
# The test command of the README and of CI: installs what a fresh Debian
# machine lacks, runs every test in a debug build (assertions on), then the
# per-frame allocation test in a release build (allocation counts of -Onone
# code are not the product's, so that test skips itself in debug).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift test
swift test -c release --filter AllocationTests
