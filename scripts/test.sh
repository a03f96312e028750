#!/usr/bin/env bash
# The test command of the README and of CI: installs what a fresh Debian
# machine lacks, runs every test in a debug build (assertions on), then the
# per-frame allocation test in a release build (allocation counts of -Onone
# code are not the product's, so that test skips itself in debug), and ends
# with one line totalling both runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# The tests are XCTest; --disable-swift-testing keeps Swift Testing's empty
# "0 tests" summary from closing the output.
swift test --disable-swift-testing 2>&1 | tee -a "$log" || status=$?
if [ "$status" -eq 0 ]; then
    swift test -c release --disable-swift-testing --filter AllocationTests 2>&1 | tee -a "$log" || status=$?
fi

# XCTest prints "Executed N tests, with [K test(s) skipped and] F failures" per
# suite; the whole run's line follows "Test Suite 'All tests' passed|failed"
# (or 'Selected tests' under --filter).
read -r passed failed skipped < <(awk '
    /^Test Suite .(All tests|Selected tests). (passed|failed)/ { whole = 1; next }
    whole && /Executed [0-9]+ tests?/ {
        match($0, /Executed [0-9]+/); n = substr($0, RSTART + 9, RLENGTH - 9)
        s = 0; if (match($0, /[0-9]+ tests? skipped/)) { s = substr($0, RSTART, RLENGTH) + 0 }
        match($0, /[0-9]+ failures?/); f = substr($0, RSTART, RLENGTH) + 0
        p += n - f - s; F += f; S += s; whole = 0
    }
    END { print p + 0, F + 0, S + 0 }' "$log")
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
