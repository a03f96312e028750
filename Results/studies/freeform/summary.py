"""Medians over the rounds of run.sh's output directory: ours (median_ms of
each row of each round's CSV) and numba; ns per pixel, the ratio to numba
and simd/openmp parity."""
import csv
import glob
import statistics
import sys

out = sys.argv[1]
PX = 750 * 1334
ours, peers, share = {}, {}, {}
for path in glob.glob(out + "/ours-*.csv"):
    for row in csv.DictReader(open(path)):
        key = "%s/%s t=%s" % (row["variant"], row["backend"], row["threads"])
        ours.setdefault(key, []).append(float(row["median_ms"]))
        if row.get("limit_share"):
            share.setdefault(key, []).append(float(row["limit_share"]))
for path in glob.glob(out + "/peers-*.csv"):
    for line in open(path):
        name, med, _ = line.strip().split(",")
        peers.setdefault(name, []).append(float(med))
med = {k: statistics.median(v) for k, v in list(ours.items()) + list(peers.items())}
print("%-28s %9s %8s %12s %7s" % ("row", "ms", "ns/px", "limit_share", "rounds"))
for k in sorted(med):
    n = len(ours.get(k, peers.get(k, [])))
    ls = "%.3f" % statistics.median(share[k]) if k in share else ""
    print("%-28s %9.3f %8.3f %12s %7d" % (k, med[k], med[k] * 1e6 / PX, ls, n))
print()
numba = [k for k in med if k.startswith("numba")]
for b in ("simd", "openmp"):
    k = "full/%s t=2" % b
    if k in med and numba:
        print("%-16s / %-24s = %.4f (goal <= %.4f)" % (k, numba[0], med[k] / med[numba[0]], 1 / 12))
for v in ("full", "lut"):
    for t in (1, 2):
        a, b = med.get("%s/simd t=%d" % (v, t)), med.get("%s/openmp t=%d" % (v, t))
        if a and b:
            print("parity %-5s t=%d simd/openmp = %.3f" % (v, t, a / b))
for b in ("simd", "openmp"):
    for t in (1, 2):
        a, c = med.get("lut/%s t=%d" % (b, t)), med.get("full/%s t=%d" % (b, t))
        if a and c:
            print("lut/full %-6s t=%d = %.3f" % (b, t, a / c))
