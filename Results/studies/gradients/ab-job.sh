#!/usr/bin/env bash
# A job file (default the off-centre radial, which `ab` cannot select: it is
# not a suite fixture) timed by two builds side by side with `bench`, ABBA
# order, simd and openmp at 1 and 2 threads; prints round,side,backend,
# threads,median_ms. Usage: [VARIANT=lut] ab-job.sh BASE_BIN [NEW_BIN] [JOB] [ROUNDS]
# (VARIANT: bench's --variant, default exact)
set -euo pipefail
cd "$(dirname "$0")/../../.."
base=$1
new=${2:-.build/release/rasterbench}
job=${3:-Results/studies/gradients/jobs/radial-off.json}
rounds=${4:-6}
variant=${VARIANT:-exact}
echo "round,side,backend,threads,median_ms"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
    for side in $order; do
        bin=$base; [ "$side" = new ] && bin=$new
        for b in simd openmp; do
            for t in 1 2; do
                m=$("$bin" bench "$job" --backend "$b" --threads "$t" --variant "$variant" --quick --no-quality --csv |
                    python3 -c "import csv, sys; print(list(csv.DictReader(sys.stdin))[-1]['median_ms'])")
                echo "$r,$side,$b,$t,$m"
            done
        done
    done
done
