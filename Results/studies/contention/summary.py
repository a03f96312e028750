"""Summarises run.sh's CSVs: per workload, under one contending thread, the
ratio t2/t1 of the median at 2 threads to the median at 1 thread (each the
median of its round medians, as the harness reports them), a 95% interval
for it, and a verdict, for each build measured.

The interval is the harness's (RasterHarness/Bootstrap.swift): a two-level
bootstrap that resamples rounds, then the samples within each round;
paired, since a round measures t=1 and t=2 of a workload one after the
other. The verdict is the harness's rule: `slower` when the whole interval
lies above 1.02, `faster` when below 1/1.02, `~` when inside both, `?`
otherwise (measure more). The goal is that no workload is `slower`.
Usage: python3 summary.py DIR [BASE_COMMIT [NEW_COMMIT]]"""
import csv
import os
import random
import statistics as st
import sys

here = sys.argv[1]
THRESHOLD = 0.02


def table(path):
    """(kernel, variant, backend, param) -> {threads: [[samples of a round], ...]}"""
    out = {}
    for r in csv.DictReader(open(path)):
        if r["status"] != "ok" or r.get("sweep") not in ("", "suite"):
            continue
        xs = [float(x) for x in r["samples_ms"].split()]
        ids = [int(x) for x in r["sample_rounds"].split()] if r.get("sample_rounds") else [1] * len(xs)
        rounds = {}
        for i, x in zip(ids, xs):
            rounds.setdefault(i, []).append(x)
        key = (r["kernel"], r["variant"], r["backend"], r["param"])
        out.setdefault(key, {})[r["threads"]] = ([rounds[k] for k in sorted(rounds)], float(r["p95_ms"]))
    return out


def statistic(rounds):
    return st.median([st.median(r) for r in rounds])


def interval(base, new, resamples=1000, seed=0x5EEDB007):
    rng = random.Random(seed)
    paired = len(base) == len(new)
    ratios = []
    for _ in range(resamples):
        pa = [rng.randrange(len(base)) for _ in base]
        pb = pa if paired else [rng.randrange(len(new)) for _ in new]
        a = st.median([st.median([base[j][rng.randrange(len(base[j]))] for _ in base[j]]) for j in pa])
        b = st.median([st.median([new[j][rng.randrange(len(new[j]))] for _ in new[j]]) for j in pb])
        ratios.append(b / a)
    ratios.sort()
    return statistic(new) / statistic(base), ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1]


def verdict(lo, hi, rounds):
    if rounds < 3:
        return "?"
    if lo > 1 + THRESHOLD:
        return "slower"
    if hi < 1 / (1 + THRESHOLD):
        return "faster"
    if lo >= 1 / (1 + THRESHOLD) and hi <= 1 + THRESHOLD:
        return "~"
    return "?"


def ratios(t):
    out = {}
    for k, v in t.items():
        if "1" in v and "2" in v:
            r, lo, hi = interval(v["1"][0], v["2"][0])
            out[k] = (r, lo, hi, verdict(lo, hi, min(len(v["1"][0]), len(v["2"][0]))), v["1"][1], v["2"][1])
    return out


sources = [("ab base", "ab/base.csv"), ("ab new", "ab/new.csv"), ("run --contend 1", "after.csv")]
print("# Frames under contention (one busy thread on the last core, 2-core host)\n")
sets = []
for label, path in sources:
    p = os.path.join(here, path)
    if not os.path.exists(p):
        continue
    rows = list(csv.DictReader(open(p)))
    loads = sorted(float(r["load_avg"]) for r in rows if r.get("load_avg"))
    # A build records the commit of the folder it runs in, not the one it
    # was built from: the base build's rows name the new tree's.
    commit = rows[0]["git_commit"]
    if label == "ab base" and len(sys.argv) > 2:
        commit = sys.argv[2]
    elif label != "ab base" and len(sys.argv) > 3:
        commit = sys.argv[3]
    rounds = max(len(v[0]) for t in table(p).values() for v in t.values())
    # A commit is shortened; a name given for an uncommitted build is not.
    name = commit[:7] if all(c in "0123456789abcdef" for c in commit[:7]) else commit
    print(f"- {name} ({label}): {rows[0]['host_cpu']}, {rounds} rounds, median load "
          f"{loads[len(loads) // 2]:.2f} (the contender counts 1), {rows[0]['date']}")
    sets.append((f"{name} ({label})", ratios(table(p))))
print()
print("t2/t1 = median at 2 threads / median at 1 thread, same build, same contention, with its 95% "
      "interval and verdict (`slower`: the whole interval above 1.02; `?`: measure more). "
      "The goal: no `slower`.\n")
keys = sorted(set().union(*[set(r) for _, r in sets])) if sets else []
last = sets[-1][0].split()[0] if sets else ""
print("| workload | " + " | ".join(n + " t2/t1" for n, _ in sets) + f" | {last} p95 t1 / t2 (ms) |")
print("|---|" + "---|" * len(sets) + "---|")
for k in keys:
    cells = []
    for _, r in sets:
        cells.append(f"{r[k][0]:.2f} [{r[k][1]:.2f}, {r[k][2]:.2f}] {r[k][3]}" if k in r else "")
    l = sets[-1][1].get(k)
    p95 = f"{l[4]:.3f} / {l[5]:.3f}" if l else ""
    print(f"| {'/'.join(x for x in k if x)} | " + " | ".join(cells) + f" | {p95} |")
print()
for name, r in sets:
    counts = {v: sum(1 for x in r.values() if x[3] == v) for v in ("slower", "?", "~", "faster")}
    print(f"- {name}: {len(r)} workloads: {counts['slower']} slower at 2 threads than at 1, "
          f"{counts['?']} inconclusive, {counts['~']} the same, {counts['faster']} faster")
