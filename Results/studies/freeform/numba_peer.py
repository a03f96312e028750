"""numba's K1: the suite's freeform frame (Telegram's four colours and
positions, L = W, e = 4, pixel space, 750x1334 by default) in parallel
float32, written the obvious way a numba user would (fastmath, prange over
rows). Prints one CSV line: name,median_ms,min_ms.
Usage: python numba_peer.py WIDTH HEIGHT THREADS SAMPLES"""
import statistics
import sys
import time

import numba
import numpy as np
from numba import njit, prange

TELEGRAM = ["#7FA381", "#FFF5C5", "#336F55", "#FBE37D"]
POSITIONS = [(0.80, 0.10), (0.35, 0.25), (0.20, 0.90), (0.65, 0.75)]  # Fixtures.telegramPositions[0, 2, 4, 6]


def rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) + (255,)


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


def frame(w, h):
    """The kernel's arguments for a w x h frame: (out, px, py, cols, L)."""
    px = np.array([p[0] * w for p in POSITIONS], np.float32)
    py = np.array([p[1] * h for p in POSITIONS], np.float32)
    cols = np.array([rgb(c) for c in TELEGRAM], np.float32)
    return np.zeros((h, w, 4), np.uint8), px, py, cols, np.float32(w)


def main():
    w, h, threads, samples = (int(a) for a in sys.argv[1:5])
    numba.set_num_threads(threads)
    args = frame(w, h)
    freeform(*args)  # compile
    xs = []
    for _ in range(samples):
        t = time.perf_counter_ns()
        freeform(*args)
        xs.append((time.perf_counter_ns() - t) / 1e6)
    print("numba-f32-t%d/freeform,%.4f,%.4f" % (threads, statistics.median(xs), min(xs)))


if __name__ == "__main__":
    main()
