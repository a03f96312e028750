#!/usr/bin/env bash
# Evidence for docs/measurement.md §3's verdicts (issue 12), measured on this host:
#   1. A/A: two separate `run --rounds 5` of one build, compared
#      (false positives = rows called faster or slower);
#   2. an A/A through `ab`, the executable against a copy of itself (a smaller
#      selection, --quick: each `ab` process also measures quality, ~2 min
#      for the whole suite on this host);
#   3. sensitivity: exact blur (simd, 1 thread) at sigma 110 against sigma
#      100 (10% more taps), 10 repetitions of `ab`, each should say `slower`
#      (SENS_ROUNDS=10 for 10 rounds each; default 5);
#   4. run-to-run agreement of the medians of the two A/A runs (agreement.py).
# "Before": OLD_EXE, a rasterbench built from the commit before rounds
# existed, runs today's `compare` (Mann-Whitney U) on the same data.
#
#   Results/studies/verdicts/measure.sh OUTDIR [OLD_EXE|""] [step...]   (steps: aa aa-compare sens ab before; default aa sens ab)
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:?usage: measure.sh OUTDIR [OLD_EXE] [step...]}; shift
old=${1:-}; [ $# -gt 0 ] && shift
steps=${*:-aa ab sens}
[[ " $steps " == *" before "* ]] && [ -z "$old" ] && { echo "before needs OLD_EXE" >&2; exit 2; }
exe=.build/release/rasterbench
mkdir -p "$out"
stamp() { echo "$(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg): $*" | tee -a "$out/timeline.txt"; }

# The A/A and ab selection: the default kernels at the profile's 2 threads.
sel=(--threads 2 --no-dram)

if [[ " $steps " == *" aa "* ]]; then
    for i in ${AA_RUNS:-1 2}; do
        stamp "aa-$i start"
        s=$(date +%s)
        $exe run "${sel[@]}" --rounds 5 --seed $((1000 + i)) --out "$out/aa-$i.csv" > "$out/aa-$i.txt" 2> "$out/aa-$i.err"
        stamp "aa-$i done in $(( $(date +%s) - s )) s"
    done
fi
if [[ " $steps " == *" aa "* || " $steps " == *" aa-compare "* ]]; then
    $exe compare "$out/aa-1.csv" "$out/aa-2.csv" > "$out/aa-compare.txt" || true
    python3 Results/studies/verdicts/agreement.py "$out/aa-1.csv" "$out/aa-2.csv" > "$out/aa-agreement.txt"
fi

if [[ " $steps " == *" sens "* ]]; then
    # B: the same executable, told sigma 110 where A is told 100; its rows are
    # relabelled sigma=100 so they pair with A's. 10% more taps: 2*ceil(4*110)+1 = 881 vs 801.
    wrap="$out/sigma110.sh"
    cat > "$wrap" <<WRAP
#!/usr/bin/env bash
args=(); o=""
while [ \$# -gt 0 ]; do
  case "\$1" in
    --sigmas) args+=(--sigmas 110); shift 2 ;;
    --filter) args+=(--filter sigma=110); shift 2 ;;
    --out) o=\$2; args+=(--out "\$2"); shift 2 ;;
    *) args+=("\$1"); shift ;;
  esac
done
"$PWD/$exe" "\${args[@]}" || exit \$?
sed -i 's/sigma=110/sigma=100/' "\$o"
WRAP
    chmod +x "$wrap"
    sr=${SENS_ROUNDS:-5}; sp=sens; [ "$sr" = 5 ] || sp="sens-r$sr"
    for i in $(seq 1 10); do
        stamp "$sp-$i start"
        s=$(date +%s)
        $exe ab "$exe" --new-executable "$wrap" --rounds "$sr" --quick --kernels blur --variants exact --backends simd \
            --threads 1 --sweep sigma --sigmas 100 --filter sigma=100 --out "$out/$sp-$i" > "$out/$sp-$i.txt" 2> "$out/$sp-$i.err" || true
        stamp "$sp-$i done in $(( $(date +%s) - s )) s: $(grep -E '^blur/exact/simd' "$out/$sp-$i.txt" | awk '{print $NF}')"
    done
fi
if [[ " $steps " == *" ab "* ]]; then
    cp "$exe" "$out/rasterbench-copy"
    stamp "ab-aa start"
    s=$(date +%s)
    $exe ab "$out/rasterbench-copy" --rounds 5 --quick --kernels freeform,blur,composite --threads 2 --out "$out/ab-aa" > "$out/ab-aa.txt" 2> "$out/ab-aa.err" || true
    stamp "ab-aa done in $(( $(date +%s) - s )) s"
    rm -f "$out/rasterbench-copy"
fi

if [[ " $steps " == *" before "* ]]; then
    # Today's compare (Mann-Whitney U on pooled samples) on the same data:
    # the two A/A runs; one A process against one B process of the ab A/A
    # (a single run each, as users compare reports today); the sensitivity pairs.
    "$old" compare "$out/aa-1.csv" "$out/aa-2.csv" > "$out/aa-compare-before.txt" || true
    for r in 1 2 3 4 5; do
        "$old" compare "$out/ab-aa/round$r-A.csv" "$out/ab-aa/round$r-B.csv" > "$out/ab-aa-before-round$r.txt" || true
    done
    "$old" compare "$out/ab-aa/base.csv" "$out/ab-aa/new.csv" > "$out/ab-aa-before-pooled.txt" || true
    for d in "$out"/sens-[0-9]* "$out"/sens-r*-[0-9]*; do
        [ -d "$d" ] && "$old" compare "$d/round1-A.csv" "$d/round1-B.csv" > "$d-before.txt" || true
    done
fi
stamp "all done"
