#!/usr/bin/env python3
"""lut/exact per round from an `ab --out` directory: each round's new (B)
process ran both variants side by side, so their ratio is paired by round.
Usage: lut_exact.py <ab-out-dir> [A|B]  (default B, the new build)."""
import csv, glob, re, statistics, sys

side = sys.argv[2] if len(sys.argv) > 2 else "B"
ratios, times = {}, {}
for path in sorted(glob.glob(f"{sys.argv[1]}/round*-{side}.csv")):
    rows = {(r["kernel"], r["variant"], r["backend"], r["threads"]): float(r["median_ms"])
            for r in csv.DictReader(open(path)) if r["status"] == "ok" and not r["sweep"]}
    for (k, v, b, t), ms in rows.items():
        times.setdefault((k, v, b, t), []).append(ms)
        if v == "lut" and (k, "exact", b, t) in rows:
            ratios.setdefault((k, b, t), []).append(ms / rows[(k, "exact", b, t)])
print("row                  exact ms  lut ms   lut/exact median (range over rounds)")
for (k, b, t), rs in sorted(ratios.items()):
    e, l = statistics.median(times[(k, "exact", b, t)]), statistics.median(times[(k, "lut", b, t)])
    print(f"{k:7} {b:6} t={t}    {e:7.3f}  {l:7.3f}  {statistics.median(rs):.2f} ({min(rs):.2f}-{max(rs):.2f})")
