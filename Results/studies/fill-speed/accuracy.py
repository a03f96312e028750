"""How far each renderer's blob and stars are from this suite's exact fill,
in 8-bit units (max, mean and PSNR over all channels, as `run` reports
quality): Blend2D (its Python binding, default flattening, and the blob
given as peers.py's chords at the exact variant's lone tolerance) and this build's
naive backend at each fill variant. The exact naive image stands in for the
double-precision reference: `run` measures it within max 2 / mean 0.05 of
that reference (docs/contract.md §3), so a figure here is within 2 of the
same figure against the reference. The paths are peers.py's, the same as
the suite's K4 workloads.
Usage: python accuracy.py RASTERBENCH [WIDTH HEIGHT]"""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from peers import LONE_TOLERANCE, chords, shapes, svg  # noqa: E402

binary = sys.argv[1]
w, h = (int(a) for a in sys.argv[2:4]) if len(sys.argv) >= 4 else (750, 1334)
start, blob, stars = shapes(w, h)
paths = dict(zip(("blob", "stars"), svg(start, blob, stars)))
rules = {"blob": "nonzero", "stars": "evenodd"}
colours = {"blob": "#32CB54", "stars": "#FFD700"}
background = "#0B1020FF"


def ours(name, variant, tmp):
    job = os.path.join(tmp, name + ".json")
    with open(job, "w") as f:
        json.dump({"width": w, "height": h, "background": background,
                   "ops": [{"op": "fill", "rule": rules[name], "color": colours[name], "path": paths[name]}]}, f)
    out = os.path.join(tmp, "%s-%s.rgba" % (name, variant))
    subprocess.run([binary, "render", job, "--backend", "naive", "--variant", "fill=" + variant, "-o", out],
                   check=True, stdout=subprocess.DEVNULL)
    return np.fromfile(out, dtype=np.uint8).reshape(h, w, 4).astype(np.int64)


def blend2d(name, lone=False):
    import blend2d as b
    img = b.BLImage(w, h)
    ctx = b.BLContext(img)
    ctx.set_fill_style((11 / 255, 16 / 255, 32 / 255, 1.0))
    ctx.fill_all()
    p = b.BLPath()
    if name == "blob" and lone:
        points = chords(start, blob, LONE_TOLERANCE)
        p.move_to(*points[0])
        for q in points[1:]:
            p.line_to(*q)
        p.close()
        ctx.fill_rule = b.BLFillRule.NON_ZERO
        ctx.set_fill_style((0x32 / 255, 0xCB / 255, 0x54 / 255, 1.0))
    elif name == "blob":
        p.move_to(*start)
        for (c1, c2, q) in blob:
            p.cubic_to(c1[0], c1[1], c2[0], c2[1], q[0], q[1])
        p.close()
        ctx.fill_rule = b.BLFillRule.NON_ZERO
        ctx.set_fill_style((0x32 / 255, 0xCB / 255, 0x54 / 255, 1.0))
    else:
        for star in stars:
            p.move_to(*star[0])
            for x, y in star[1:]:
                p.line_to(x, y)
            p.close()
        ctx.fill_rule = b.BLFillRule.EVEN_ODD
        ctx.set_fill_style((1.0, 0xD7 / 255, 0.0, 1.0))
    ctx.fill_path(p)
    ctx.flush()
    # Opaque pixels: premultiplied BGRA32 words, read back as RGBA bytes.
    return np.array(img.getDataAsNumPy()).reshape(h, w, 4).astype(np.int64)


def diff(a, ref):
    d = np.abs(a - ref)
    mse = float((d * d).mean())
    psnr = math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)
    return d.max(), d.mean(), psnr, int((d.max(axis=2) > 2).sum())


print("%-6s %-16s %5s %9s %9s %12s" % ("shape", "renderer", "max", "mean", "psnr_db", "px_over_2"))
with tempfile.TemporaryDirectory() as tmp:
    for name in ("blob", "stars"):
        ref = ours(name, "exact", tmp)
        rows = [("blend2d", blend2d(name))] + ([("blend2d 1/280 px", blend2d(name, lone=True))] if name == "blob" else [])
        rows += [("naive " + v, ours(name, v, tmp)) for v in ("tol0.05", "tol0.25", "tol1")]
        for label, img in rows:
            m, mean, psnr, over = diff(img, ref)
            print("%-6s %-16s %5d %9.5f %9.2f %12d" % (name, label, m, mean, psnr, over))
