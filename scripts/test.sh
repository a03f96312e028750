#!/usr/bin/env bash
# The test command of the README and of CI: installs what a fresh Debian
# machine lacks, then runs these stages, each in its own build directory
# (none of them .build, which `swift build`/`swift run` use), and ends with
# one summary line per stage:
#   debug     in a debug build (assertions on), the test classes the asan
#             stage leaves out (scripts/asan-skipped-tests) and the
#             bad-input matrix; every other class runs in the asan stage,
#             also a debug build, so no test runs twice at -Onone
#   release   the per-frame allocation test and the work model's floors
#             against measured times in a release build (allocation counts
#             and times of -Onone code are not the product's, so those
#             tests skip themselves in debug)
#   asan      every other test under AddressSanitizer + UBSan
#             (scripts/sanitize.sh)
#   tsan      the threaded tests under ThreadSanitizer (scripts/sanitize.sh)
#   fuzz      each libFuzzer target for FUZZ_SECONDS (scripts/fuzz.sh)
#   soak      300 frames of every scene on every backend (scripts/soak.sh)
# RASTERBENCH_STAGES="debug release" runs a subset. Every stage runs even if
# an earlier one failed (one CI run shows every failure); the exit status is
# non-zero if any failed.
#
# Time: CI's limit is about 30 minutes on a fresh 2-core machine. Measure
# a whole run from a fresh clone: `git clone . /tmp/fresh && cd
# /tmp/fresh && time .ci/run`. The last such run on this 2-core VM (an
# AVX-512 Xeon, 2026-11-26): 26 min, stage by stage with its build: debug
# 273 s, release 251 s, asan 502 s, tsan 315 s, fuzz 238 s (5 targets x
# FUZZ_SECONDS = 30, one per core at a time), soak 5 s. The bad-input
# matrix runs its cases in parallel workers and, under a sanitizer, leaves
# out the cases refused while the command line is read (the debug stage
# runs them); the asan stage leaves out the suite-timing and end-to-end
# harness classes, which the debug stage runs (scripts/asan-skipped-tests;
# scripts/sanitize.sh says why). FUZZ_SECONDS and RASTERBENCH_STAGES trade
# coverage for time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

stages=${RASTERBENCH_STAGES:-debug release asan tsan fuzz soak}
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
status=0
summary=()

# XCTest prints "Executed N tests, with [K test(s) skipped and] F failures" per
# suite; the whole run's line follows "Test Suite 'All tests' passed|failed"
# (or 'Selected tests' under --filter).
count_tests() {
    awk '
    /^Test Suite .(All tests|Selected tests). (passed|failed)/ { whole = 1; next }
    whole && /Executed [0-9]+ tests?/ {
        match($0, /Executed [0-9]+/); n = substr($0, RSTART + 9, RLENGTH - 9)
        s = 0; if (match($0, /[0-9]+ tests? skipped/)) { s = substr($0, RSTART, RLENGTH) + 0 }
        match($0, /[0-9]+ failures?/); f = substr($0, RSTART, RLENGTH) + 0
        p += n - f - s; F += f; S += s; whole = 0
    }
    END { printf "%d passed, %d failed, %d skipped", p, F, S }' "$1"
}

# failures NAME LOG: the lines that say why a stage failed (XCTest's failed
# assertions and cases, sanitizer reports, Swift traps, fuzz crashes), kept
# for after the summary: CI shows only the end of a run's output.
failed_lines=()
failures() {
    local line
    while IFS= read -r line; do failed_lines+=("$1: ${line:0:300}"); done < <(
        grep -E ": error: |^Test Case '.*' failed|ERROR: (Address|Thread|LeakSanitizer)|runtime error:|SUMMARY: |Fatal error|^==[0-9]+== ?ERROR|deadly signal|error: fatalError" "$2" \
            | grep -v "^Test Suite" | head -20)
}

# stage NAME KIND COMMAND...: runs it with its output shown and logged;
# KIND "tests" adds the XCTest counts to the summary, "fuzz"/"soak" the
# stage's own result lines.
stage() {
    local name=$1 kind=$2; shift 2
    case " $stages " in *" $name "*) ;; *) return 0 ;; esac
    local log="$logdir/$name.log" start rc=0 detail=""
    start=$(date +%s)
    echo "=== stage $name: $*"
    "$@" 2>&1 | tee "$log" || rc=$?
    local took=$(( $(date +%s) - start ))
    case "$kind" in
    tests) detail="tests: $(count_tests "$log")" ;;
    fuzz) detail=$(grep -c '^fuzz: .*no crash' "$log" || true)" targets clean"
          detail="$detail; $(grep -o '[0-9]* inputs in' "$log" | awk '{n += $1} END {print n + 0}') inputs run" ;;
    soak) detail=$(grep -o 'soak: [0-9]* scenes x.*' "$log" | tail -1 | sed 's/^soak: //') ;;
    esac
    [ "$rc" -eq 0 ] || { status=1; failures "$name" "$log"; }
    summary+=("$(printf '%-8s %-6s %5d s  %s' "$name" "$([ "$rc" -eq 0 ] && echo ok || echo FAILED)" "$took" "$detail")")
}

# The tests build in .build-test, never in .build: `swift run` and the
# README's .build/release/rasterbench neither wait on the tests' build lock
# nor find their release product rebuilt (with testing enabled) by them.
scratch=.build-test
debug_filters=(--filter 'CLITests\.BadInputMatrixTests\b')
while IFS= read -r pattern; do debug_filters+=(--filter "$pattern"); done < <(grep -v '^#' scripts/asan-skipped-tests)
stage debug tests swift test --disable-swift-testing --scratch-path "$scratch" "${debug_filters[@]}"
stage release tests swift test -c release --disable-swift-testing --scratch-path "$scratch" \
    --filter 'AllocationTests|KernelWorkTests/testNoFloorIsAboveItsMeasuredTime'
stage asan tests scripts/sanitize.sh asan
stage tsan tests scripts/sanitize.sh tsan
stage fuzz fuzz env FUZZ_SECONDS="${FUZZ_SECONDS:-30}" scripts/fuzz.sh
stage soak soak scripts/soak.sh

echo "=== summary"
for line in "${summary[@]}"; do echo "$line"; done
if [ "${#failed_lines[@]}" -gt 0 ]; then
    echo "=== why (first lines of each failed stage)"
    for line in "${failed_lines[@]}"; do echo "$line"; done
fi
exit "$status"
