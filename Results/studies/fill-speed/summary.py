"""Medians over the rounds of run.sh's output directory: ours (median_ms of
each fill row of each round's CSV, in microseconds) and Blend2D's, and the
ratios the fill-speed summary quotes (the blob's against both of its
Blend2D rows: the binding's own 0.2 px flattening, and chords at the
exact variant's 1/280 px)."""
import csv
import glob
import statistics
import sys

out = sys.argv[1]
ours, peers, load = {}, {}, []
for path in glob.glob(out + "/ours-*.csv"):
    for row in csv.DictReader(open(path)):
        shape = row["param"].replace("shape=", "")
        variant = "" if row["variant"] == "exact" else " " + row["variant"]
        key = "%s/%s t=%s%s" % (shape, row["backend"], row["threads"], variant)
        ours.setdefault(key, []).append(float(row["median_ms"]) * 1000)
        if row.get("load_avg"):
            load.append(float(row["load_avg"]))
for path in glob.glob(out + "/peers-*.csv"):
    for line in open(path):
        name, med, _ = line.strip().split(",")
        peers.setdefault(name.replace("blend2d/", "") + "/blend2d", []).append(float(med))
med = {k: statistics.median(v) for k, v in list(ours.items()) + list(peers.items())}
print("%-30s %10s %7s" % ("row", "us", "rounds"))
for k in sorted(med):
    print("%-30s %10.1f %7d" % (k, med[k], len(ours.get(k, peers.get(k, [])))))
if load:
    print("load average during our rows: median %.2f, range %.2f..%.2f" % (statistics.median(load), min(load), max(load)))
print()
for shape in ("blob", "stars"):
    peer = med.get(shape + "/blend2d")
    # The blob's second peer: Blend2D given the blob as chords at the exact
    # variant's lone tolerance (peers.py's "blob-lone"), the same accuracy.
    lone = med.get(shape + "-lone/blend2d")
    for k in sorted(ours):
        if k.startswith(shape + "/") and peer:
            print("%-26s / blend2d t=1 = %.3f" % (k, med[k] / peer)
                  + ("   / blend2d at 1/280 px t=1 = %.3f" % (med[k] / lone) if lone else ""))
    for t in (1, 2):
        a, b = med.get("%s/simd t=%d" % (shape, t)), med.get("%s/openmp t=%d" % (shape, t))
        if a and b:
            print("%-6s t=%d openmp/simd = %.3f" % (shape, t, b / a))
