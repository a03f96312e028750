"""The low end of every sample of `ab`'s two CSVs (base.csv, new.csv in each
directory given): per row, the minimum and the 10th percentile of all
samples of all rounds, base -> new. On a busy host the medians carry the
other processes' noise; the fast end of thousands of samples is what the
code costs when it held a core, and moves far less between runs (the
stars, whose code a change left alone, show its noise). A supplement to
`ab`'s verdicts, not a replacement.
Usage: python3 low_quantiles.py AB_OUT_DIR..."""
import csv
import sys


def load(path):
    out = {}
    for r in csv.DictReader(open(path)):
        key = "%s/%s t=%s %s" % (r["kernel"], r["backend"], r["threads"], r["param"])
        # The per-sample column: the one field of many space-separated times.
        samples = next((v for v in r.values()
                        if isinstance(v, str) and v.count(" ") > 5 and all(c in "0123456789. e-" for c in v)), None)
        out.setdefault(key, []).extend(float(x) for x in samples.split()) if samples else None
    return out


for d in sys.argv[1:]:
    b, n = load(d + "/base.csv"), load(d + "/new.csv")
    print(d)
    for k in sorted(b):
        if k not in n:
            continue
        bs, ns = sorted(b[k]), sorted(n[k])
        p10 = lambda s: s[int(0.1 * (len(s) - 1))]
        print("  %-30s min %7.1f -> %7.1f us (%+.1f%%)   p10 %7.1f -> %7.1f us (%+.1f%%)   samples %d/%d" % (
            k, bs[0] * 1000, ns[0] * 1000, 100 * (ns[0] / bs[0] - 1),
            p10(bs) * 1000, p10(ns) * 1000, 100 * (p10(ns) / p10(bs) - 1), len(bs), len(ns)))
