#!/usr/bin/env bash
# The test command of the README and of CI: installs what a fresh Debian
# machine lacks, then runs these stages, each in its own build directory
# (none of them .build, which `swift build`/`swift run` use), and ends with
# one summary line per stage:
#   release   in a release build: the per-frame allocation tests and the
#             work model's floors against measured times (allocation counts
#             and times of -Onone code are not the product's, so those
#             tests skip themselves in debug), the test classes the asan
#             stage leaves out (scripts/asan-skipped-tests) and the
#             bad-input matrix
#   asan      every other test under AddressSanitizer + UBSan in a debug
#             build, assertions on (scripts/sanitize.sh)
#   tsan      the threaded tests under ThreadSanitizer (scripts/sanitize.sh)
#   fuzz      each libFuzzer target for FUZZ_SECONDS (scripts/fuzz.sh)
#   soak      300 frames of every scene on every backend (scripts/soak.sh)
# RASTERBENCH_STAGES="release asan" runs a subset. Every stage runs even if
# an earlier one failed (one CI run shows every failure); the exit status is
# non-zero if any failed.
#
# Time: CI's limit is about 30 minutes on a fresh 2-core machine. Measure a
# whole run from a fresh clone: `git clone . /tmp/fresh && cd /tmp/fresh &&
# time .ci/run`. One such run on the 2-core AMD VM (2026-11-28,
# 7dc848b): 30 min 40 s, stage by stage with its build: release 383 s, asan
# 706 s, tsan 445 s, fuzz 299 s (5 targets x FUZZ_SECONDS = 30, one per core
# at a time), soak 7 s. The classes the asan stage leaves out run in the
# release stage's build, which exists for the allocation tests anyway: a
# plain debug build of the test bundle for them alone cost about 4 minutes
# of a 34.5-minute run (2-core AMD VM), against about 50 s of tests added
# here. They are safe Swift (bounds and overflow checks stay on at -O), and
# the library code they call runs at -Onone with assertions in the asan
# stage's tests. The bad-input matrix runs its cases in parallel workers
# and, under a sanitizer, leaves out the cases refused while the command
# line is read (the release stage runs them). FUZZ_SECONDS and
# RASTERBENCH_STAGES trade coverage for time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

stages=${RASTERBENCH_STAGES:-release asan tsan fuzz soak}
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
release_filters=(--filter 'AllocationTests|KernelWorkTests/testNoFloorIsAboveItsMeasuredTime'
    --filter 'CLITests\.BadInputMatrixTests\b')
while IFS= read -r pattern; do release_filters+=(--filter "$pattern"); done < <(grep -v '^#' scripts/asan-skipped-tests)
stage release tests swift test -c release --disable-swift-testing --scratch-path "$scratch" "${release_filters[@]}"
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
