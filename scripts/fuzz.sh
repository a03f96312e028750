#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer) of the input parsers and the fill
# rasteriser: builds the fuzz package (Fuzz/, its own SwiftPM package so the
# product never carries the instrumentation) with
#   swift build -c release --sanitize=fuzzer --sanitize=address
# and runs every target for FUZZ_SECONDS (default 60) on the committed
# corpus (Fuzz/corpus/<target>/: seeds plus what earlier runs found,
# minimised). New inputs go to a scratch directory, not into the corpus, so
# CI leaves the tree clean; `scripts/fuzz.sh --merge` folds them into the
# corpus (libFuzzer -merge=1 keeps only inputs that add coverage).
# A crash, a 10 s hang or a 2 GB allocation fails the stage and leaves the
# input in Fuzz/artifacts/; make it a regression test in the normal suite.
#
# Measured here (2 cores shared with other builds): the build ~6 min from
# clean; then 5 targets x FUZZ_SECONDS, FUZZ_JOBS (default: the cores) at a time.
# Usage: scripts/fuzz.sh [--merge] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
merge=0
[ "${1:-}" = "--merge" ] && { merge=1; shift; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzPathParser FuzzJobDecoder FuzzPNGReader FuzzReportCSV FuzzFillDifferential)
seconds=${FUZZ_SECONDS:-60}

swift build -c release --sanitize=fuzzer --sanitize=address 2>&1 | grep -vE "warning:|^ *[0-9]+ \||^ *\||^\s*$|\^" || true
bin=$(swift build -c release --sanitize=fuzzer --sanitize=address --show-bin-path)

mkdir -p artifacts
# Leaks: the Swift runtime's caches look like leaks to LSan; the soak
# (scripts/soak.sh) is where growth is measured.
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1
# The Swift runtime's crash backtracer reads memory ASan calls unknown;
# libFuzzer prints its own stack.
export SWIFT_BACKTRACE=enable=no
# fuzz_one TARGET: runs one target for FUZZ_SECONDS and prints its one
# result line (and, on a failure, why) when it ends; non-zero on a failure.
fuzz_one() {
    local t=$1 corpus=corpus/$1 new log start
    mkdir -p "$corpus"
    new=$(mktemp -d)
    log=$(mktemp)
    start=$(date +%s)
    if "$bin/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
        -max_len=4096 -print_final_stats=1 -artifact_prefix=artifacts/"$t"- "$new" "$corpus" >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
        echo "fuzz: $t: $runs inputs in $(( $(date +%s) - start )) s, coverage $cov edges, no crash"
        if [ "$merge" -eq 1 ]; then
            "$bin/$t" -merge=1 -max_len=4096 "$corpus" "$new" >/dev/null 2>&1
        fi
        rm -rf "$new" "$log"
    else
        echo "fuzz: $t: FAILED after $(( $(date +%s) - start )) s; input in Fuzz/artifacts/, log:"
        grep -E "ERROR|Fatal error|SUMMARY|Test unit written|==[0-9]+==" "$log" | head -20
        rm -rf "$new" "$log"
        return 1
    fi
}

# Targets run FUZZ_JOBS at a time (default: one per core): each still gets
# FUZZ_SECONDS of its own, and the stage takes a fraction of the time.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
status=0
running=()
for t in "${targets[@]}"; do
    if [ "${#running[@]}" -ge "$jobs" ]; then
        wait "${running[0]}" || status=1
        running=("${running[@]:1}")
    fi
    fuzz_one "$t" &
    running+=($!)
done
for pid in "${running[@]}"; do wait "$pid" || status=1; done
exit "$status"
