"""The fill-speed study's peer: Blend2D (its Python binding, one synchronous
context = 1 thread) filling the SAME two paths as the suite's K4 workloads
(`Fixtures.fillShapes` in Sources/RasterHarness/SuiteFill.swift, rebuilt
here: the same SplitMix64 stream with seed 4, K5's control points, the same
colours and rules) onto the fixture's background, every timed fill drawing
over the previous one as the suite's do; and the blob once more as its
chords at the exact variant's lone tolerance ("blob-lone", `chords`): the
same work at the same accuracy. Prints one CSV line per shape:
name,median_us,min_us. With --svg it prints the two paths as SVG path data
instead (to check them against `rasterbench` with a job file).
With --lines it times Blend2D on the blob's chords at four tolerances
instead (`lines`; lines.sh sets them beside this build's variants).
Usage: python peers.py WIDTH HEIGHT SAMPLES [--svg | --lines]"""
import math
import statistics
import sys
import time

MASK = (1 << 64) - 1


class SeededGenerator:
    """RasterKit's SeededGenerator (SplitMix64) and its unit()."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):
        return (self.next() >> 11) * 2.0 ** -53


def control_points(anchors):
    """K5 (Reference.controlPoints): two cubic controls per segment."""
    n = len(anchors)

    def tangent(i):
        a, b = anchors[(i + 1) % n], anchors[(i + n - 1) % n]
        dx, dy = a[0] - b[0], a[1] - b[1]
        length = math.hypot(dx, dy)
        return (0.0, 0.0) if length == 0 else (dx * (1 / length), dy * (1 / length))

    out = []
    for i in range(n):
        p, q = anchors[i], anchors[(i + 1) % n]
        third = math.hypot(q[0] - p[0], q[1] - p[1]) / 3
        t0, t1 = tangent(i), tangent(i + 1)
        out.append((p[0] + t0[0] * third, p[1] + t0[1] * third))
        out.append((q[0] - t1[0] * third, q[1] - t1[1] * third))
    return out


def shapes(w, h):
    """(blob segments, stars polygons) as the fixture builds them."""
    scale = w / 750
    rng = SeededGenerator(4)
    anchors = []
    for i in range(8):
        angle = (i + rng.unit()) / 8 * 2 * math.pi
        radius = 300 * scale * (0.9 + 0.1 * rng.unit())
        anchors.append((w / 2 + radius * math.cos(angle), h / 2 + radius * math.sin(angle)))
    controls = control_points(anchors)
    blob = [(controls[2 * i], controls[2 * i + 1], anchors[(i + 1) % 8]) for i in range(8)]
    stars = []
    for _ in range(200):
        cx, cy = w * rng.unit(), h * rng.unit()
        turn, radius = 2 * math.pi * rng.unit(), 40 * scale
        stars.append([(cx + radius * math.cos(turn + (k * 2 % 5) * 2 * math.pi / 5),
                       cy + radius * math.sin(turn + (k * 2 % 5) * 2 * math.pi / 5)) for k in range(5)])
    return anchors[0], blob, stars


# The exact variant's tolerance for a curve no other curve comes near
# (FillVariant.loneTolerance): every curve of the blob is such a curve.
LONE_TOLERANCE = 1 / 280


def chords(start, blob, tolerance):
    """The blob flattened as RasterKit's Flattener does without its
    crowding pass: Wang's chord count n = ceil(sqrt(3 M / (4 tol))) per
    cubic, halved (de Casteljau) while n > 16, uniform steps in t. The
    "blob-lone" row gives Blend2D these chords, so that it draws the blob
    to the exact variant's accuracy (its own flattening is 0.2 px)."""
    points = [start]

    def cubic(p0, p1, p2, p3, depth):
        d1 = (p0[0] - 2 * p1[0] + p2[0], p0[1] - 2 * p1[1] + p2[1])
        d2 = (p1[0] - 2 * p2[0] + p3[0], p1[1] - 2 * p2[1] + p3[1])
        m = math.sqrt(max(d1[0] ** 2 + d1[1] ** 2, d2[0] ** 2 + d2[1] ** 2))
        n = max(1, math.ceil(math.sqrt(0.75 * m / tolerance)))
        if n > 16 and depth < 24:
            mid = lambda a, b: ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            a, b, c = mid(p0, p1), mid(p1, p2), mid(p2, p3)
            ab, bc = mid(a, b), mid(b, c)
            m_ = mid(ab, bc)
            cubic(p0, a, ab, m_, depth + 1)
            cubic(m_, bc, c, p3, depth + 1)
            return
        for k in range(1, n + 1):
            t = k / n
            u = 1 - t
            points.append(tuple(u ** 3 * p0[i] + 3 * u * u * t * p1[i] + 3 * u * t * t * p2[i] + t ** 3 * p3[i]
                                for i in (0, 1)))

    p0 = start
    for (c1, c2, q) in blob:
        cubic(p0, c1, c2, q, 0)
        p0 = q
    return points


def svg(start, blob, stars):
    f = repr
    d = ["M %s %s" % (f(start[0]), f(start[1]))]
    d += ["C %s %s %s %s %s %s Z" % (f(a[0]), f(a[1]), f(b[0]), f(b[1]), f(c[0]), f(c[1]))
          if i == 7 else "C %s %s %s %s %s %s" % (f(a[0]), f(a[1]), f(b[0]), f(b[1]), f(c[0]), f(c[1]))
          for i, (a, b, c) in enumerate(blob)]
    s = []
    for star in stars:
        s.append("M %s %s" % (f(star[0][0]), f(star[0][1])))
        s += ["L %s %s" % (f(x), f(y)) for x, y in star[1:]]
        s.append("Z")
    return " ".join(d), " ".join(s)


# Colours as floats in [0, 1]: this binding reads a tuple of ints as
# something else (the image came out as noise).
BACKGROUND = (11 / 255, 16 / 255, 32 / 255, 1.0)
GREEN = (0x32 / 255, 0xCB / 255, 0x54 / 255, 1.0)
GOLD = (1.0, 0xD7 / 255, 0.0, 1.0)


def polygon(b, points):
    """One closed sub-path through `points`."""
    path = b.BLPath()
    path.move_to(*points[0])
    for p in points[1:]:
        path.line_to(*p)
    path.close()
    return path


def timed(b, ctx, path, rule, colour, samples):
    """(median, min) in µs of `samples` fills of `path`, each drawing over
    the last, after one untimed fill."""
    def draw():
        ctx.fill_rule = rule
        ctx.set_fill_style(colour)
        ctx.fill_path(path)
        ctx.flush()
    draw()
    xs = []
    for _ in range(samples):
        t = time.perf_counter_ns()
        draw()
        xs.append((time.perf_counter_ns() - t) / 1e3)
    return statistics.median(xs), min(xs)


def canvas(b, w, h):
    img = b.BLImage(w, h)
    ctx = b.BLContext(img)
    ctx.set_fill_style(BACKGROUND)
    ctx.fill_all()
    ctx.flush()
    return img, ctx


def lines(b, w, h, samples, start, blob):
    """Blend2D's cost per line: the blob as its chords at the variants'
    tolerances (exact's lone 1/280 px, tol0.05, tol0.25, tol1), one CSV line
    each: tolerance,chords,median_us,min_us."""
    img, ctx = canvas(b, w, h)
    for tolerance in (LONE_TOLERANCE, 0.05, 0.25, 1):
        points = chords(start, blob, tolerance)
        med, low = timed(b, ctx, polygon(b, points), b.BLFillRule.NON_ZERO, GREEN, samples)
        print("%g,%d,%.2f,%.2f" % (tolerance, len(points) - 1, med, low))


def main():
    w, h, samples = (int(a) for a in sys.argv[1:4])
    start, blob, stars = shapes(w, h)
    if "--svg" in sys.argv:
        for d in svg(start, blob, stars):
            print(d)
        return
    import blend2d as b
    if "--lines" in sys.argv:
        lines(b, w, h, samples, start, blob)
        return
    img, ctx = canvas(b, w, h)
    blob_path = b.BLPath()
    blob_path.move_to(*start)
    for (c1, c2, q) in blob:
        blob_path.cubic_to(c1[0], c1[1], c2[0], c2[1], q[0], q[1])
    blob_path.close()
    stars_path = b.BLPath()
    for star in stars:
        stars_path.move_to(*star[0])
        for x, y in star[1:]:
            stars_path.line_to(x, y)
        stars_path.close()
    rows = [("blob", blob_path, b.BLFillRule.NON_ZERO, GREEN),
            ("blob-lone", polygon(b, chords(start, blob, LONE_TOLERANCE)), b.BLFillRule.NON_ZERO, GREEN),
            ("stars", stars_path, b.BLFillRule.EVEN_ODD, GOLD)]
    for name, path, rule, colour in rows:
        med, low = timed(b, ctx, path, rule, colour, samples)
        print("blend2d/%s,%.2f,%.2f" % (name, med, low))


if __name__ == "__main__":
    main()
