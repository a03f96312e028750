"""Summarises run.sh's CSVs: per workload the t=2 / t=1 median ratio under
one contending thread, before (base) and after (new), and the p95s."""
import csv, os, sys

here = sys.argv[1]

def table(path):
    out = {}
    for r in csv.DictReader(open(path)):
        if r["status"] != "ok" or r.get("sweep") not in ("", "suite"):
            continue
        key = (r["kernel"], r["variant"], r["backend"], r["param"])
        out.setdefault(key, {})[r["threads"]] = (float(r["median_ms"]), float(r["p95_ms"]))
    return out

def ratios(t):
    return {k: (v["2"][0] / v["1"][0], v) for k, v in t.items() if "1" in v and "2" in v}

print("# Frames under contention (one busy thread pinned to the last core, 2-core host)\n")
commits = {}
for name, path in [("before", "ab/base.csv"), ("after", "ab/new.csv"), ("after, run --contend 1", "after.csv")]:
    p = os.path.join(here, path)
    if os.path.exists(p):
        rows = list(csv.DictReader(open(p)))
        loads = sorted(float(r["load_avg"]) for r in rows if r.get("load_avg"))
        # A build records the commit of the folder it runs in, not the one
        # it was built from: the base build's rows name the new tree's.
        commit = sys.argv[2] if name == "before" and len(sys.argv) > 2 else rows[0]["git_commit"]
        if name != "before" and len(sys.argv) > 3:
            commit = sys.argv[3]
        commits[path] = commit[:7]
        print(f"- {name}: commit {commit}, {rows[0]['host_cpu']}, "
              f"median load {loads[len(loads) // 2]:.2f} (the contender counts 1), {rows[0]['date']}")
print()
print("t2/t1 = median at 2 threads / median at 1 thread, same build, same contention; <= 1.00 is the goal.\n")
sets = []
# Columns are named by commit: "before"/"after" alone says nothing a year on.
for label, path in [("ab base", "ab/base.csv"), ("ab new", "ab/new.csv"), ("run --contend 1", "after.csv")]:
    p = os.path.join(here, path)
    if os.path.exists(p):
        sets.append((f"{commits[path]} ({label})", ratios(table(p))))
keys = sorted(set().union(*[set(r) for _, r in sets])) if sets else []
print("| workload | " + " | ".join(n + " t2/t1" for n, _ in sets) + " | " + sets[-1][0].split()[0] + " p95 t1 / t2 (ms) |")
print("|---|" + "---|" * len(sets) + "---|")
for k in keys:
    cells = []
    for _, r in sets:
        cells.append(f"{r[k][0]:.2f}" if k in r else "")
    last = sets[-1][1].get(k)
    p95 = f"{last[1]['1'][1]:.3f} / {last[1]['2'][1]:.3f}" if last else ""
    print(f"| {'/'.join(x for x in k if x)} | " + " | ".join(cells) + f" | {p95} |")
for name, r in sets:
    slower = sum(1 for v in r.values() if v[0] > 1.0)
    print(f"\n{name}: {slower} of {len(r)} workloads slower at 2 threads than at 1")
