"""Peers for the gradients study, timed in this process: Blend2D (its Python
binding, one synchronous context = 1 thread) drawing the suite's K2 linear
and radial frames, and numba (parallel, float32) computing the suite's K1
freeform frame. Prints one CSV line per workload: name,median_ms,min_ms.
Usage: python peers.py WIDTH HEIGHT THREADS_FOR_NUMBA SAMPLES"""
import statistics
import sys
import time

import numpy as np

W, H, THREADS, SAMPLES = (int(a) for a in sys.argv[1:5])
TELEGRAM = ["#7FA381", "#FFF5C5", "#336F55", "#FBE37D"]


def rgb(h):
    # Floats in [0, 1]: this binding reads a tuple of ints as something else
    # (a stop of (255, 0, 0, 255) drew translucent noise).
    return tuple(int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)) + (1.0,)


def timed(f):
    f()
    xs = []
    for _ in range(SAMPLES):
        t = time.perf_counter_ns()
        f()
        xs.append((time.perf_counter_ns() - t) / 1e6)
    return statistics.median(xs), min(xs)


def blend2d_rows():
    import blend2d as b
    img = b.BLImage(W, H)
    ctx = b.BLContext(img)
    lin = b.create_linear_gradient(0, 0, W, H)
    for i, c in enumerate(TELEGRAM):
        lin.add_stop(i / 3, rgb(c))
    rad = b.create_radial_gradient(W / 2, H / 2, W / 2, H / 2, 0.25 * (W * W + H * H) ** 0.5)
    for o, c in [(0, "#FFF5C5"), (0.6, "#7FA381"), (1, "#336F55")]:
        rad.add_stop(o, rgb(c))
    try:
        rad.extend_mode = b.BLExtendMode.REFLECT
    except Exception:
        pass
    out = []
    for name, g in [("linear", lin), ("radial", rad)]:
        def draw(g=g):
            ctx.set_fill_style(g)
            ctx.fill_all()
            ctx.flush()
        out.append(("blend2d/" + name, *timed(draw)))
    return out


def numba_rows():
    # The same numba kernel as the freeform study's, imported from it.
    import os
    import numba
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "freeform"))
    from numba_peer import frame, freeform
    numba.set_num_threads(THREADS)
    args = frame(W, H)
    return [("numba-f32-t%d/freeform" % THREADS, *timed(lambda: freeform(*args)))]


rows = blend2d_rows()
try:
    rows += numba_rows()
except ImportError:
    pass
for name, med, mn in rows:
    print("%s,%.4f,%.4f" % (name, med, mn))
