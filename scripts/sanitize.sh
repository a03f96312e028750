#!/usr/bin/env bash
# The test suite again under sanitizers, each build in its own scratch path:
#   scripts/sanitize.sh asan   every test but the classes listed in
#                              scripts/asan-skipped-tests under
#                              AddressSanitizer (Swift and C) +
#                              UndefinedBehaviorSanitizer (the C target)
#   scripts/sanitize.sh tsan   the threaded tests under ThreadSanitizer:
#                              CrossBackendTests (every backend at 1, 2 and 7
#                              threads), WorkerPoolTests and RowBandsTests
#
# Choices:
# - ASan in a debug build (-Onone): assertions and Swift's overflow/bounds
#   traps stay on beside the sanitizer and reports have exact lines. TSan in
#   a release build (-O, as usual with sanitizers): TSan slows -Onone Swift
#   SIMD code past CI's limit, and races are in the schedule, which -O keeps.
#   The C target keeps its own -O3 either way (Package.swift's cSettings), so
#   the OpenMP code is checked as it ships.
# - -march=native stays: CI builds and runs on one machine, and the SIMD
#   paths tested are the ones the product runs (RASTERBENCH_PORTABLE=1 would
#   test the SSE2 fallbacks instead).
# - UBSan is C only: swiftc on Linux refuses -sanitize=undefined; Swift's own
#   checks (overflow, bounds, Float->Int range) trap in debug anyway. The C
#   side gets -fsanitize=undefined -fno-sanitize-recover=undefined through
#   -Xcc; its runtime is part of ASan's.
# - LeakSanitizer is off (detect_leaks=0): the Swift runtime's and
#   Foundation's caches are reported as leaks; growth is the soak's job
#   (scripts/soak.sh).
# - OpenMP under TSan: Debian's libomp is not built with TSan, so TSan cannot
#   see its barriers and reports every parallel region as a race. LLVM's
#   Archer tool (libarcher.so, shipped in libomp-14-dev) tells TSan about
#   them through OMPT (OMP_TOOL_LIBRARIES). The remaining reports inside
#   libomp's own code are suppressed in scripts/tsan.supp (only frames in
#   libomp.so, never ours).
#
# Measured here (2 cores shared with six other builds), see scripts/test.sh
# for the figures of a whole CI run.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${1:?usage: scripts/sanitize.sh asan|tsan}
case "$stage" in
asan)
    export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:detect_stack_use_after_return=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export RASTERBENCH_SANITIZER=address
    # Skipped (scripts/asan-skipped-tests, which the release stage of
    # scripts/test.sh runs instead): the classes that time the suite or drive the harness's
    # commands end to end (suite runs, choose/compare/report agreement,
    # console order). Their own code is safe Swift, whose bounds and
    # overflow checks stay on in that release build; the kernels and C code they call
    # run under ASan in CrossBackendTests, VerifySuiteTests, the fill tests
    # and the bad-input matrix. Under ASan at -Onone they took 4 of the
    # stage's 11 minutes (the per-class "Executed ... in N seconds" lines of
    # a CI log show it).
    skips=()
    while IFS= read -r pattern; do skips+=(--skip "$pattern"); done < <(grep -v '^#' scripts/asan-skipped-tests)
    exec swift test --disable-swift-testing --scratch-path .build-asan "${skips[@]}" \
        --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
    ;;
tsan)
    archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | sort -V | tail -1 || true)
    [ -n "$archer" ] && export OMP_TOOL_LIBRARIES="$archer"
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan.supp"
    export ARCHER_OPTIONS="verbose=0"
    export RASTERBENCH_SANITIZER=thread
    exec swift test -c release --disable-swift-testing --scratch-path .build-tsan --sanitize=thread \
        --filter 'CrossBackendTests|WorkerPoolTests|RowBandsTests'
    ;;
*) echo "error: unknown stage '$stage' (accepted: asan, tsan)" >&2; exit 2 ;;
esac
