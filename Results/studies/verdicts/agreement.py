#!/usr/bin/env python3
"""Run-to-run agreement: for each row present in both reports, the ratio of
medians (median of round medians), and whether it is within 3%; rows of 1 ms
or more are the ones the issue asks to agree. Also prints each row's round
spread and load average so a disagreement can be read against them."""
import csv, sys

def load(path):
    with open(path, newline="") as f:
        rows = {}
        for r in csv.DictReader(f):
            if r["status"] != "ok" or not r["median_ms"]:
                continue
            key = (r["kernel"], r["variant"], r["backend"], r["threads"], r["width"], r["height"], r["sweep"], r["param"])
            rows[key] = r
        return rows

a, b = load(sys.argv[1]), load(sys.argv[2])
keys = sorted(set(a) & set(b))
big = within = 0
print(f"{'row':58} {'run 1':>10} {'run 2':>10} {'2/1':>8} {'spread1':>8} {'spread2':>8} {'load1':>6} {'load2':>6}")
for k in keys:
    ma, mb = float(a[k]["median_ms"]), float(b[k]["median_ms"])
    d = mb / ma - 1
    tag = ""
    if min(ma, mb) >= 1.0:
        big += 1
        ok = abs(d) <= 0.03
        within += ok
        tag = "  ok" if ok else "  >3%"
    name = "/".join(k[:3]) + f" t={k[3]} {k[7]}"
    sp = lambda r: f"{100 * float(r.get('round_spread') or 'nan'):.1f}%"
    print(f"{name:58} {ma:10.4f} {mb:10.4f} {100 * d:+7.1f}% {sp(a[k]):>8} {sp(b[k]):>8} {a[k]['load_avg']:>6} {b[k]['load_avg']:>6}{tag}")
print(f"\nrows of >= 1 ms: {within} of {big} within 3% of each other")
allw = sum(1 for k in keys if abs(float(b[k]['median_ms']) / float(a[k]['median_ms']) - 1) <= 0.03)
print(f"all rows: {allw} of {len(keys)} within 3%")
