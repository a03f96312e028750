"""What a row costs, against Blend2D in the same rounds: three rectangles
on the suite's 750x1334 background, each filled over itself as the
suite's fills are --
  tall:  10 x 1000 px, two vertical edges ten pixels apart: 1000 rows of
         little but the rasteriser's per-row work;
  slab:  600 x 600 px, the same two edges a row around 600 interior
         pixels: the per-row work plus the stores;
  tiny:  10 x 10 px: a fill's fixed cost.
Ours is `rasterbench bench JOB --no-quality` of a job holding the one fill
(its `ops` median: the fill's time, the frame not cleared between fills;
the frame's background is the job's clear colour, not the suite's);
Blend2D's is peers.py's `timed` (its binding, one synchronous context).
Each round runs every build given and Blend2D once per shape; prints each
one's median and minimum over the rounds and every round's figure, in µs.
Usage: python rows.py ROUNDS BACKEND BUILD... (release rasterbench binaries)"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

import peers

RECTS = {"tall": (100, 100, 110, 1100), "slab": (100, 100, 700, 700), "tiny": (100, 100, 110, 110)}


def job(rect, directory, name):
    x0, y0, x1, y1 = rect
    path = os.path.join(directory, name + ".json")
    with open(path, "w") as f:
        json.dump({"width": 750, "height": 1334, "ops": [
            {"op": "fill", "path": "M %d %d L %d %d L %d %d L %d %d Z" % (x0, y0, x1, y0, x1, y1, x0, y1),
             "rule": "nonzero", "color": "#32CB54"}]}, f)
    return path


def ours(build, path, backend):
    """`bench`'s `ops` median (the job's one fill), in µs."""
    out = subprocess.run([build, "bench", path, "--backend", backend, "--threads", "1", "--runs", "100",
                          "--no-quality"], capture_output=True, text=True, check=True).stdout
    row = [l.split() for l in out.splitlines() if l.startswith("ops ")][0]
    value, unit = row[1], row[2]
    return float(value) * {"us": 1, "ms": 1000, "ns": 0.001}[unit]


def main():
    rounds, backend, builds = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    import blend2d as b
    img, ctx = peers.canvas(b, 750, 1334)
    times = {}
    with tempfile.TemporaryDirectory() as directory:
        jobs = {name: job(rect, directory, name) for name, rect in RECTS.items()}
        for _ in range(rounds):
            for name, (x0, y0, x1, y1) in RECTS.items():
                for build in builds:
                    times.setdefault((name, os.path.basename(build)), []).append(ours(build, jobs[name], backend))
                path = peers.polygon(b, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
                med, _ = peers.timed(b, ctx, path, b.BLFillRule.NON_ZERO, peers.GREEN, 1000)
                times.setdefault((name, "blend2d"), []).append(med)
    for (name, who), xs in times.items():
        print("%-5s %-16s median %8.2f  min %8.2f  rounds %s" % (name, who, statistics.median(xs), min(xs),
                                                                " ".join("%.1f" % x for x in xs)))


if __name__ == "__main__":
    main()
