"""Medians over the rounds of run.sh's output directory: ours (median_ms of
each row of each round's CSV) and the peers; ns per pixel and ratios."""
import csv
import glob
import statistics
import sys

out = sys.argv[1]
PX = 750 * 1334
ours, peers, share, load = {}, {}, {}, []
for path in glob.glob(out + "/ours-*.csv"):
    for row in csv.DictReader(open(path)):
        key = "%s/%s t=%s" % (row["kernel"], row["backend"], row["threads"])
        ours.setdefault(key, []).append(float(row["median_ms"]))
        if row.get("limit_share"):
            share.setdefault(key, []).append(float(row["limit_share"]))
        if row.get("load_avg"):
            load.append(float(row["load_avg"]))
for path in glob.glob(out + "/peers-*.csv"):
    for line in open(path):
        name, med, _ = line.strip().split(",")
        peers.setdefault(name, []).append(float(med))
# bench of the job files: job-ROUND-NAME-BACKEND-THREADS.csv, one row each.
jobs = {}
for path in glob.glob(out + "/job-*.csv"):
    base = path.rsplit("/", 1)[1][len("job-"):-len(".csv")]
    name, backend, threads = base.split("-", 1)[1].rsplit("-", 2)
    for row in csv.DictReader(open(path)):
        jobs.setdefault("job %s/%s t=%s" % (name, backend, threads), []).append(float(row["median_ms"]))
med = {k: statistics.median(v) for k, v in list(ours.items()) + list(peers.items()) + list(jobs.items())}
print("%-28s %9s %8s %7s %11s" % ("row", "ms", "ns/px", "rounds", "limit_share"))
for k in sorted(med):
    n = len(ours.get(k, peers.get(k, jobs.get(k, []))))
    sh = "%.3f" % statistics.median(share[k]) if k in share else ""
    print("%-28s %9.3f %8.3f %7d %11s" % (k, med[k], med[k] * 1e6 / PX, n, sh))
if load:
    print("load average during our rows: median %.2f, range %.2f..%.2f" % (statistics.median(load), min(load), max(load)))
print()
for kernel, peer in [("linear", "blend2d/linear"), ("radial", "blend2d/radial"),
                     ("linear", "blend2d-native/linear"), ("radial", "blend2d-native/radial")]:
    for t in (1, 2):
        for b in ("simd", "openmp"):
            k = "%s/%s t=%d" % (kernel, b, t)
            if k in med and peer in med:
                print("%-22s / %-16s = %.3f" % (k, peer, med[k] / med[peer]))
numba = [k for k in med if k.startswith("numba")]
for b in ("simd", "openmp"):
    k = "freeform/%s t=2" % b
    if k in med and numba:
        print("%-22s / %-16s = %.4f" % (k, numba[0], med[k] / med[numba[0]]))
for kernel in ("linear", "radial", "freeform"):
    for t in (1, 2):
        a, b = med.get("%s/simd t=%d" % (kernel, t)), med.get("%s/openmp t=%d" % (kernel, t))
        if a and b:
            print("parity %-8s t=%d simd/openmp = %.3f" % (kernel, t, a / b))
for t in (1, 2):
    a, b = med.get("radial/openmp t=%d" % t), med.get("linear/openmp t=%d" % t)
    c, d = med.get("radial/simd t=%d" % t), med.get("linear/simd t=%d" % t)
    if a and b and c and d:
        print("radial/linear t=%d: openmp %.3f, simd %.3f" % (t, a / b, c / d))
for t in (1, 2):
    for b in ("simd", "openmp"):
        lin, off, cen = (med.get("job %s/%s t=%d" % (j, b, t)) for j in ("linear", "radial-off", "radial-centre"))
        if lin and off and cen:
            print("jobs t=%d %-6s: radial-off/linear %.3f, radial-centre/linear %.3f" % (t, b, off / lin, cen / lin))
    a, b = med.get("job radial-off/simd t=%d" % t), med.get("job radial-off/openmp t=%d" % t)
    if a and b:
        print("parity radial-off t=%d simd/openmp = %.3f" % (t, a / b))
off = med.get("blend2d-native/radial-off")
for b in ("simd", "openmp"):
    k = "job radial-off/%s t=1" % b
    if off and k in med:
        print("%-22s / blend2d-native/radial-off = %.3f" % (k, med[k] / off))
