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
POSITIONS = [(0.80, 0.10), (0.35, 0.25), (0.20, 0.90), (0.65, 0.75)]  # telegramPositions[0, 2, 4, 6]


def rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) + (255,)


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
    import numba
    from numba import njit, prange
    numba.set_num_threads(THREADS)
    px = np.array([p[0] * W for p in POSITIONS], np.float32)
    py = np.array([p[1] * H for p in POSITIONS], np.float32)
    cols = np.array([rgb(c) for c in TELEGRAM], np.float32)
    L = np.float32(W)

    @njit(parallel=True, fastmath=True)
    def freeform(out, px, py, cols, L):
        for y in prange(out.shape[0]):
            qy = np.float32(y) + np.float32(0.5)
            for x in range(out.shape[1]):
                qx = np.float32(x) + np.float32(0.5)
                s = np.float32(0)
                r = g = b = a = np.float32(0)
                for i in range(px.shape[0]):
                    dx = qx - px[i]
                    dy = qy - py[i]
                    m = max(np.float32(0), np.float32(1) - np.sqrt(dx * dx + dy * dy) / L)
                    f = m * m * m * m
                    s += f
                    r += f * cols[i, 0]
                    g += f * cols[i, 1]
                    b += f * cols[i, 2]
                    a += f * cols[i, 3]
                k = np.float32(1) / s if s > 0 else np.float32(0)
                out[y, x, 0] = np.uint8(r * k + np.float32(0.5))
                out[y, x, 1] = np.uint8(g * k + np.float32(0.5))
                out[y, x, 2] = np.uint8(b * k + np.float32(0.5))
                out[y, x, 3] = np.uint8(a * k + np.float32(0.5))

    out = np.zeros((H, W, 4), np.uint8)
    return [("numba-f32-t%d/freeform" % THREADS, *timed(lambda: freeform(out, px, py, cols, L)))]


rows = blend2d_rows()
try:
    rows += numba_rows()
except ImportError:
    pass
for name, med, mn in rows:
    print("%s,%.4f,%.4f" % (name, med, mn))
