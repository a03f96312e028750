// K4, anti-aliased path fill: the C schedule's band, one thread's run of
// 32-row strips (the plan, fill_plan.c, gives it its edges bucketed by
// strip and its memory). The maths is RasterKit's PathFill; the constants
// are raster_fill.h's.
//
// Per strip it accumulates the edges' area differences into a strip-sized
// cell buffer (16 rows of an edge at a time in SIMD lanes), marks the
// 16-cell chunks it touched in a bitmap, then sweeps each row: marked
// chunks get a 16-lane prefix sum, the fill rule and a 16-pixel composite;
// the runs between them share one coverage and are painted as a run (a
// plain store when solid). Supersampled variants turn each sub-scanline's
// sorted crossings into sample-exact steps in the same cells. A strip's
// work is identical whichever thread does it, so the image does not depend
// on the thread count.
//
// Cells hold winding in fixed point (RASTER_OMP_FILL_ONE units a pixel),
// summed in wrapping uint32_t: each row step's values are computed in float
// and rounded once, the first cell takes the step's exact winding minus the
// rest, and every sum after that is exact and order-free.
#include "fill_band.h"


/// round(v) for |v| < 2^22 as two's complement: the rounding trick, the
/// only place this file writes it.
static inline __attribute__((always_inline)) uint32_t round_units(float v) {
    const float t = v + RASTER_OMP_FILL_ROUND_BIAS;
    uint32_t u;
    memcpy(&u, &t, sizeof u);
    return u - RASTER_OMP_FILL_ROUND_BITS;
}

/// round(v * FIX_ONE) as two's complement, for |v * FIX_ONE| < 2^22, by the
/// rounding trick (raster_fill.h's RASTER_OMP_FILL_ROUND_BIAS).
static inline __attribute__((always_inline)) uint32_t quantise(float v) {
    return round_units(v * (float)FIX_ONE); /* v * FIX_ONE is exact: a contraction changes nothing */
}

/// round(b + k m) in units (|b + k m| < 2^22), never contracted into an FMA
/// (the file is built with -ffp-contract=fast): step_lane and
/// scatter_steps must round the same values bit for bit.
static inline __attribute__((always_inline)) uint32_t round_affine(float b, float k, float m) {
    #pragma clang fp contract(off)
    const float p = b + k * m;
    return round_units(p);
}


/* ---- accumulation ---------------------------------------------------- */

static inline void mark(const fill_cells *c, uint64_t *bits, int from, int to) {
    const int origin = c->origin;
    const int c0 = (from - origin) >> 4, c1 = (to - origin) >> 4;
    const int w0 = c0 >> 6, w1 = c1 >> 6;
    if (w0 == w1) {
        bits[w0] |= (~(uint64_t)0 << (c0 & 63)) & (~(uint64_t)0 >> (63 - (c1 & 63)));
        return;
    }
    bits[w0] |= ~(uint64_t)0 << (c0 & 63);
    for (int w = w0 + 1; w < w1; w++) bits[w] = ~(uint64_t)0;
    bits[w1] |= ~(uint64_t)0 >> (63 - (c1 & 63));
}


/// One row step (font-rs' draw_line): the cells it touches and the values
/// it adds to its first, second, middle, second-last and last cell, into
/// lane l of the result vectors. x at a row boundary comes from the step's
/// edge end points, never from the previous row, so a strip's cells do not
/// depend on its band.
/* Always inlined: a call in the batch loop stops it vectorising. */
static inline __attribute__((always_inline)) void step_lane(uint32_t *restrict cv, int32_t *restrict iv, int l, float row, float xt, float yt, float yb,
                             float dxdy, float dir, float xmin, float xmax) {
    const float ya = MAXF(row, yt), yz = MINF(row + 1.0f, yb);
    const float xa0 = (ya - yt) * dxdy + xt, xz0 = (yz - yt) * dxdy + xt;
    const float xa = MINF(MAXF(xa0, xmin), xmax), xz = MINF(MAXF(xz0, xmin), xmax);
    const float d = (yz - ya) * dir;
    const float lo = MINF(xa, xz), hi = MAXF(xa, xz);
    const float lof = floorf(lo), hic = ceilf(hi);
    const float sp = MAXF(hic - lof, 1.0f);
    const float right = d * ((xa + xz) * 0.5f - lof);
    const float s = 1.0f / MAXF(hi - lo, 1e-30f);
    const float f0 = lo - lof, f1 = hi - hic + 1.0f;
    const float a0 = 0.5f * s * (1.0f - f0) * (1.0f - f0);
    const float am = 0.5f * s * f1 * f1;
    const float a1 = s * (1.5f - f0);
    const float a2 = a1 + (sp - 3.0f) * s;
    /* Unused values are zero, so scatter_steps adds all five without a
       branch on the span (which alternates between two lengths along a
       slanted edge, so a branch on it mispredicts every other row).
       Fixed point: each cell gets round(U_j) - round(U_j+1), U_j the
       step's winding in cells j and after (in units), summed from the
       right -- last, + penultimate (base), + the middle cells
       (scatter_steps walks them), + second -- and the first cell the
       step's exact winding less the rounded rest (RasterKit's FillFixed):
       every pixel is within half a unit, whatever the span. */
    const float one = (float)FIX_ONE;
    const float second = (sp <= 1.0f ? right : (sp == 2.0f ? d * (1.0f - a0 - am) : d * (a1 - a0))) * one;
    const float last = sp <= 1.0f ? 0.0f : d * am * one;
    const float base = last + (sp <= 2.0f ? 0.0f : d * (1.0f - a2 - am) * one);
    const float middle = sp <= 3.0f ? 0.0f : d * s * one;
    const uint32_t middles = round_affine(base, sp - 3.0f, middle);
    const uint32_t suffix = round_affine(base + (sp - 3.0f) * middle, 1.0f, second);
    const uint32_t rounded_last = round_affine(last, 0.0f, 0.0f);
    /* The step's exact winding (rounded heights within the row telescope
       along a closed path). */
    const uint32_t up = quantise(yz - row) - quantise(ya - row);
    const uint32_t total = dir < 0.0f ? 0u - up : up;
    cv[OUT_FIRST * LANES + l] = total - suffix;
    cv[OUT_SECOND * LANES + l] = suffix - middles;
    uint32_t bits;
    memcpy(&bits, &middle, sizeof bits);
    cv[OUT_MIDDLE * LANES + l] = bits;
    memcpy(&bits, &base, sizeof bits);
    cv[OUT_BASE * LANES + l] = bits;
    const uint32_t penult = round_affine(base, 0.0f, 0.0f) - rounded_last;
    cv[OUT_PENULT * LANES + l] = penult;
    cv[OUT_LAST * LANES + l] = rounded_last;
    /* The first four cells' values (zeros past the last) for a step of span
       3 or less: the penultimate is 0 unless span 3, the last lands on
       the third cell for span 2 and the fourth for span 3, and span 1's
       penultimate and last are 0. */
    cv[OUT_FOUR * LANES + l] = total - suffix;
    cv[(OUT_FOUR + 1) * LANES + l] = suffix - middles;
    cv[(OUT_FOUR + 2) * LANES + l] = penult + (sp <= 2.0f ? rounded_last : 0u);
    cv[(OUT_FOUR + 3) * LANES + l] = sp <= 2.0f ? 0u : rounded_last;
    iv[OUT_INDEX * LANES + l] = (int32_t)lof;
    iv[OUT_SPAN * LANES + l] = (int32_t)sp;
    iv[OUT_ROW * LANES + l] = (int32_t)row;
}

/// Adds `count` computed steps to the cells, in lane (path) order.
static void scatter_steps(const fill_accumulator *c, int count, int top) {
    const fill_cells *p = &c->cells;
    const uint32_t *v = (const uint32_t *)c->lanes;
    const int32_t *iv = (const int32_t *)c->lanes;
    for (int l = 0; l < count; l++) {
        const int row = iv[OUT_ROW * LANES + l];
        uint32_t *cell = p->cells + (ptrdiff_t)(row - top) * p->cell_stride - p->origin;
        const int x = iv[OUT_INDEX * LANES + l], k = iv[OUT_SPAN * LANES + l];
        if (k <= 3) {
            /* All but about 1% of a smooth outline's steps: one 16-byte add. */
            raster_fill_u32x4 four, add;
            memcpy(&four, cell + x, sizeof four);
            memcpy(&add, v + OUT_FOUR * LANES + 4 * l, sizeof add);
            four += add;
            memcpy(cell + x, &four, sizeof four);
            mark(p, p->bits + (ptrdiff_t)(row - top) * p->words, x, x + k);
            continue;
        }
        float m, b;
        memcpy(&m, &v[OUT_MIDDLE * LANES + l], sizeof m);
        memcpy(&b, &v[OUT_BASE * LANES + l], sizeof b);
        cell[x] += v[OUT_FIRST * LANES + l];
        cell[x + 1] += v[OUT_SECOND * LANES + l];
        /* Middle cell x + 2 + i gets round(U) - round(U'), U = base + (k - 3 - i)
           middle, as step_lane rounded them. */
        float kf = (float)(k - 3);
        uint32_t previous = round_affine(b, kf, m);
        kf -= 1.0f;
        uint32_t next = round_affine(b, kf, m);
        cell[x + 2] += previous - next;
        for (int i = x + 3; i < x + k - 1; i++) {
            previous = next;
            kf -= 1.0f;
            next = round_affine(b, kf, m);
            cell[i] += previous - next;
        }
        cell[x + k - 1] += v[OUT_PENULT * LANES + l];
        cell[x + k] += v[OUT_LAST * LANES + l];
        mark(p, p->bits + (ptrdiff_t)(row - top) * p->words, x, x + k);
    }
}

/// Computes `count` staged steps as one 16-lane batch and adds them.
void fill_flush_steps(const fill_accumulator *c, int count, int top) {
    if (count <= 0) return;
    float *restrict v = c->lanes;
    int32_t *restrict iv = (int32_t *)c->lanes;
    uint32_t *restrict cv = (uint32_t *)c->lanes;
    /* A partial batch's unused lanes repeat lane 0: all 16 are computed, and
       whatever they held before (uninitialised memory can be a NaN) would
       reach a float-to-int conversion, undefined in C (UBSan says so). */
    for (int l = count; l < LANES; l++) {
        v[STAGE_ROW * LANES + l] = v[STAGE_ROW * LANES];
        memcpy(v + STAGE_X0 * LANES + 4 * l, v + STAGE_X0 * LANES, 4 * sizeof(float));
    }
    raster_fill_edges_to_lanes(v + STAGE_X0 * LANES);
    /* Each lane's edge top to bottom, its slope and x range: stage_edge's
       values for a long edge, operation for operation. */
    #pragma omp simd
    for (int l = 0; l < LANES; l++) {
        const float x0 = v[STAGE_X0 * LANES + l], y0 = v[STAGE_Y0 * LANES + l];
        const float x1 = v[STAGE_X1 * LANES + l], y1 = v[STAGE_Y1 * LANES + l];
        const int down = y1 > y0;
        const float xt = down ? x0 : x1, yt = down ? y0 : y1, xb = down ? x1 : x0, yb = down ? y1 : y0;
        step_lane(cv, iv, l, v[STAGE_ROW * LANES + l], xt, yt, yb, (xb - xt) / (yb - yt), down ? 1.0f : -1.0f,
                  MINF(xt, xb), MAXF(xt, xb));
    }
    raster_fill_lanes_to_rows(cv + OUT_FOUR * LANES);
    scatter_steps(c, count, top);
}

/// An edge of RASTER_OMP_FILL_DIRECT_ROWS rows or more in a strip, LANES
/// of its rows at a time from its own values (raster_fill.h says why).

static void direct_steps(const fill_accumulator *c, float xt, float yt, float yb, float dxdy, float dir,
                         float xmin, float xmax, int first, int end, int top) {
    int32_t *restrict iv = (int32_t *)c->lanes;
    uint32_t *restrict cv = (uint32_t *)c->lanes;
    for (int row = first; row < end; row += LANES) {
        #pragma omp simd
        for (int l = 0; l < LANES; l++)
            step_lane(cv, iv, l, (float)(row + l), xt, yt, yb, dxdy, dir, xmin, xmax);
        raster_fill_lanes_to_rows(cv + OUT_FOUR * LANES);
        scatter_steps(c, end - row < LANES ? end - row : LANES, top);
    }
}

/// Stages the steps of one edge within the strip's rows [top, bottom), in
/// path order, flushing every full batch of 16 (or computes a long edge
/// directly, after flushing the batch so far).
/* Inlined into the band's strip loop: out of line, a call per edge (the
   blob's fill 1.6% slower in alternating processes). fill_stage_edge is
   the same for the windings helper. */
static inline __attribute__((always_inline)) void stage_edge(const fill_accumulator *c, const float *e, int top,
                                                             int bottom, int *staged) {
    const int down = e[3] > e[1];
    int first = (int)floorf(down ? e[1] : e[3]), end = (int)ceilf(down ? e[3] : e[1]);
    if (first < top) first = top;
    if (end > bottom) end = bottom;
    if (end - first >= RASTER_OMP_FILL_DIRECT_ROWS) {
        if (*staged > 0) { fill_flush_steps(c, *staged, top); *staged = 0; }
        const float xt = down ? e[0] : e[2], yt = down ? e[1] : e[3];
        const float xb = down ? e[2] : e[0], yb = down ? e[3] : e[1];
        /* interpolated x is clamped to [xmin, xmax] */
        direct_steps(c, xt, yt, yb, (xb - xt) / (yb - yt), down ? 1.0f : -1.0f, MINF(xt, xb), MAXF(xt, xb),
                     first, end, top);
        return;
    }
    /* A step is its row and its edge as the bucket holds it: the batch
       works out the rest (fill_flush_steps). */
    float *v = c->lanes;
    int k = *staged;
    for (int row = first; row < end; row++) {
        v[STAGE_ROW * LANES + k] = (float)row;
        memcpy(v + STAGE_X0 * LANES + 4 * k, e, 4 * sizeof(float));
        if (++k == LANES) { fill_flush_steps(c, LANES, top); k = 0; }
    }
    *staged = k;
}

void fill_stage_edge(const fill_accumulator *c, const float *e, int top, int bottom, int *staged) {
    stage_edge(c, e, top, bottom, staged);
}

/// A vertical step of S `unit`s (1/S of a pixel row, signed by wrapping) at
/// x = sample / S (a supersampled span's end): exact, S^2 divides FIX_ONE.
static inline void add_step(const fill_sampler *c, uint32_t *cell, uint64_t *bits, int sample, uint32_t unit) {
    const int s = c->samples;
    const int x = sample / s;
    const uint32_t r = (uint32_t)(sample - x * s);
    cell[x] += unit * ((uint32_t)s - r);
    cell[x + 1] += unit * r;
    mark(&c->cells, bits, x, x + 1);
}

/// Crossing lists are short (a few per shape per sub-scanline), and qsort's
/// callback per comparison costs more than insertion sort saves at these sizes.
static void sort_by_x(float *a, int n) {
    for (int i = 1; i < n; i++) {
        const float x = a[2 * i], d = a[2 * i + 1];
        int j = i;
        while (j > 0 && a[2 * (j - 1)] > x) { a[2 * j] = a[2 * (j - 1)]; a[2 * j + 1] = a[2 * (j - 1) + 1]; j--; }
        a[2 * j] = x; a[2 * j + 1] = d;
    }
}

/// Supersampled cells of strip s, the walk's: per sub-scanline the
/// crossings of its edges (sorted by x) walked with a winding count; each
/// inside span, quantised to the sample centres it holds, becomes two
/// vertical steps of height 1/S.
static void sample_strip(const fill_sampler *c, const fill_strip_work *w, fill_walk *walk, int s, int top, int bottom) {
    const fill_cells *p = &c->cells;
    const int n = c->samples;
    const int sub_top = top * n, lines = (bottom - top) * n;
    const float inverse = 1.0f / (float)n;
    int32_t *starts = c->starts;
    memset(starts, 0, (size_t)(lines + 1) * sizeof *starts);
    FOR_EACH_WALK_EDGE(w, walk, s, e, {
        int k0 = first_sub(MINF(e[1], e[3]), n), k1 = first_sub(MAXF(e[1], e[3]), n);
        if (k0 < sub_top) k0 = sub_top;
        if (k1 > sub_top + lines) k1 = sub_top + lines;
        for (int k = k0; k < k1; k++) starts[k - sub_top + 1]++;
    });
    for (int k = 0; k < lines; k++) starts[k + 1] += starts[k];
    FOR_EACH_WALK_EDGE(w, walk, s, e, {
        fill_walk_keep(walk, e);
        const float dir = e[3] > e[1] ? 1.0f : -1.0f;
        const float dxdy = (e[2] - e[0]) / (e[3] - e[1]);
        int k0 = first_sub(MINF(e[1], e[3]), n), k1 = first_sub(MAXF(e[1], e[3]), n);
        if (k0 < sub_top) k0 = sub_top;
        if (k1 > sub_top + lines) k1 = sub_top + lines;
        for (int k = k0; k < k1; k++) {
            const float y = ((float)k + 0.5f) * inverse; /* exact: S is a power of two */
            const int slot = starts[k - sub_top]++;
            c->crossings[2 * slot] = e[0] + (y - e[1]) * dxdy;
            c->crossings[2 * slot + 1] = dir;
        }
    });
    /* starts[k] is now the end of list k */
    const uint32_t unit = (uint32_t)FIX_ONE / (uint32_t)(n * n);
    for (int k = 0; k < lines; k++) {
        const int begin = k == 0 ? 0 : starts[k - 1], end = starts[k];
        if (end - begin < 2) continue;
        float *list = c->crossings + 2 * begin;
        sort_by_x(list, end - begin);
        const int row = top + k / n;
        uint32_t *cell = p->cells + (ptrdiff_t)(row - top) * p->cell_stride - p->origin;
        uint64_t *bits = p->bits + (ptrdiff_t)(row - top) * p->words;
        int winding = 0;
        for (int i = 0; i + 1 < end - begin; i++) {
            winding += (int)list[2 * i + 1];
            const int inside = raster_fill_inside(winding, c->evenodd);
            if (!inside) continue;
            const int from = (int)ceilf(list[2 * i] * (float)n - 0.5f);
            const int to = (int)ceilf(list[2 * (i + 1)] * (float)n - 0.5f);
            if (from >= to) continue;
            add_step(c, cell, bits, from, unit);
            add_step(c, cell, bits, to, 0u - unit);
        }
    }
}

/* ---- compositing ----------------------------------------------------- */

/// d = c m + d (1 - m c.a / 255), rounded half up. No clamping is needed for
/// a premultiplied colour (c <= c.a) and m in [0, 1]: the result is <= 255.
/// Converted through int32 (the same value here): AVX2 has no vector
/// float -> uint32 (pixel.h's raster_quantize says more).
/// Runs, tails, partly covered chunks and colours with a fractional channel
/// use it; whole chunks of whole-channel colours whose every coverage
/// rounds to 0 or 255 take `blend_chunk8`.
static inline uint32_t blend_pixel(const fill_painter *c, uint32_t d, float m) {
    const float inv = 1.0f - m * c->alpha;
    const uint32_t r = (uint32_t)(int32_t)(c->color[0] * m + (float)(d & 0xFF) * inv + 0.5f);
    const uint32_t g = (uint32_t)(int32_t)(c->color[1] * m + (float)(d >> 8 & 0xFF) * inv + 0.5f);
    const uint32_t b = (uint32_t)(int32_t)(c->color[2] * m + (float)(d >> 16 & 0xFF) * inv + 0.5f);
    const uint32_t a = (uint32_t)(int32_t)(c->color[3] * m + (float)(d >> 24) * inv + 0.5f);
    return r | g << 8 | b << 16 | a << 24;
}

/// `count` (0...16) pixels under an opaque whole-channel colour with
/// coverages `m`: raster_fill_blend16_opaque on a copy (it works on 16).
static void blend_opaque_tail(const fill_painter *c, uint32_t *px, const float *m, int count) {
    uint32_t d[LANES] = { 0 };
    float cov[LANES] = { 0 };
    memcpy(d, px, sizeof d[0] * (size_t)count);
    memcpy(cov, m, sizeof cov[0] * (size_t)count);
    raster_fill_blend16_opaque(d, cov, c->solid);
    memcpy(px, d, sizeof d[0] * (size_t)count);
}

static void paint_run(const fill_painter *c, uint32_t *px, int count, float m) {
    if (count <= 0 || m < RASTER_OMP_FILL_RUN_EPSILON) return;
    if (m > 1.0f - RASTER_OMP_FILL_RUN_EPSILON) {
        if (c->opaque) { raster_fill_store_run(px, count, c->solid); return; }
        m = 1.0f;
    }
    if (c->opaque && c->integral) {
        float cov[LANES];
        for (int l = 0; l < LANES; l++) cov[l] = m;
        int i = 0;
        for (; i + LANES <= count; i += LANES) raster_fill_blend16_opaque(px + i, cov, c->solid);
        if (i < count) blend_opaque_tail(c, px + i, cov, count - i);
        return;
    }
    #pragma omp simd
    for (int i = 0; i < count; i++) px[i] = blend_pixel(c, px[i], m);
}

/// The 16 pixels of a chunk blended with 8-bit coverage m8 (0...255), for a
/// colour with whole premultiplied channels: the simd backend's scheme (see
/// FillPainter), each channel (d w8 + c8 m8) / 255 rounded, w8 = 255 - m c.a,
/// two channels per 32-bit lane (the 0x00FF00FF split) so that the products
/// are 16-bit lanes: written on uint16_t arrays, clang multiplies them with
/// vpmullw (on uint32_t lanes it picked vpmulld, which measured no faster
/// than the Float blend).
static inline void blend_chunk8(const fill_painter *c, uint32_t *restrict px, const uint32_t *restrict m8) {
    uint32_t rb[LANES], ga[LANES], mm[LANES], ww[LANES], crb[LANES], cga[LANES];
    #pragma omp simd
    for (int l = 0; l < LANES; l++) {
        const uint32_t w8 = c->opaque ? 255 - m8[l] : (uint32_t)(int32_t)(255.5f - (float)m8[l] * c->alpha);
        mm[l] = m8[l] | m8[l] << 16;
        ww[l] = w8 | w8 << 16;
        rb[l] = px[l] & 0x00FF00FF;
        ga[l] = px[l] >> 8 & 0x00FF00FF;
        crb[l] = c->color_rb;
        cga[l] = c->color_ga;
    }
    /* memcpy, not pointer casts: the 16-bit views must not break aliasing. */
    uint16_t rb16[2 * LANES], ga16[2 * LANES], mm16[2 * LANES], ww16[2 * LANES], crb16[2 * LANES], cga16[2 * LANES];
    memcpy(rb16, rb, sizeof rb); memcpy(ga16, ga, sizeof ga); memcpy(mm16, mm, sizeof mm);
    memcpy(ww16, ww, sizeof ww); memcpy(crb16, crb, sizeof crb); memcpy(cga16, cga, sizeof cga);
    uint16_t x[2 * LANES], y[2 * LANES];
    #pragma omp simd
    for (int k = 0; k < 2 * LANES; k++) {
        /* t / 255 rounded = (t + (t >> 8)) >> 8 with t = d w8 + c8 m8 + 128
           <= 65280 (the exact blend is <= 255 and w8's rounding adds at
           most 127.5), so t + (t >> 8) < 65536: truncating to 16 bits
           loses nothing and lets clang keep 16-bit lanes. */
        const uint16_t t = (uint16_t)(rb16[k] * ww16[k] + crb16[k] * mm16[k] + 128);
        const uint16_t u = (uint16_t)(ga16[k] * ww16[k] + cga16[k] * mm16[k] + 128);
        const uint16_t ts = (uint16_t)(t + (t >> 8)), us = (uint16_t)(u + (u >> 8));
        x[k] = (uint16_t)(ts >> 8);
        y[k] = (uint16_t)(us >> 8);
    }
    uint32_t x32[LANES], y32[LANES];
    memcpy(x32, x, sizeof x); memcpy(y32, y, sizeof y);
    #pragma omp simd
    for (int l = 0; l < LANES; l++) px[l] = x32[l] | y32[l] << 8;
}

enum { CHUNK_EMPTY, CHUNK_WHOLE, CHUNK_PARTIAL };

/// What a chunk's 8-bit coverages m8 (0...255) ask of the painter: nothing
/// (all 0), the 8-bit blend (each 0 or 255: m8 + 1 is then 1 or 256, the
/// only values in 1...256 with bits 1-7 clear) or a finer one. With
/// AVX-512 two mask tests; the portable loop's reductions compile to a
/// horizontal shuffle tree each (about 12 instructions: `objdump -d` of
/// fill_run_band).
static inline __attribute__((always_inline)) int chunk_kind(const uint32_t *m8) {
#if defined(__AVX512F__)
    const __m512i v = _mm512_loadu_si512(m8);
    if (!_mm512_test_epi32_mask(v, v)) return CHUNK_EMPTY;
    if (!_mm512_test_epi32_mask(_mm512_add_epi32(v, _mm512_set1_epi32(1)), _mm512_set1_epi32(0xFE)))
        return CHUNK_WHOLE;
    return CHUNK_PARTIAL;
#else
    uint32_t any = 0, partial = 0;
    for (int l = 0; l < LANES; l++) {
        any |= m8[l];
        partial |= (m8[l] + 1) & 0xFE;
    }
    return any == 0 ? CHUNK_EMPTY : partial == 0 ? CHUNK_WHOLE : CHUNK_PARTIAL;
#endif
}

/// One marked chunk: the rule and blend of its 16 pixels, `a` its
/// windings (the prefix sum; `count` < 16 at the right edge of the canvas).
/// An opaque whole-channel colour takes the 15-bit blend (raster_fill.h's
/// raster_fill_blend16_opaque, shared with the simd schedule) whatever the
/// coverages. Another whole-channel colour takes the 8-bit blend where every
/// coverage rounds to 0 or 255 (chunks all 0 left alone), and the float one
/// where any is partial, because the rounding of m to 8 bits breaks the
/// mean bound on canvases that are mostly edge (FillPainter in the simd
/// backend says more).
static inline void paint_chunk(const fill_sweeper *c, const uint32_t *restrict a, uint32_t *restrict px, int count) {
    if (count == LANES && c->painter.integral && c->painter.opaque) {
        /* Every class at once: the 15-bit blend leaves d where every
           coverage rounds to 0 in 8 bits and gives c where it rounds to
           255, exactly as the 8-bit paths (raster_fill.h says why), and a
           chunk's class is a branch the predictor misses along an edge.
           From the windings in integers (raster_fill_chunk16_opaque). */
        raster_fill_chunk16_opaque(px, a, c->evenodd, c->painter.solid);
        return;
    }
    if (count == LANES && c->painter.integral) {
        uint32_t m8[LANES];
        float cov[LANES];
        #pragma omp simd
        for (int l = 0; l < LANES; l++) {
            cov[l] = raster_fill_coverage(a[l], c->evenodd);
            m8[l] = (uint32_t)(int32_t)(cov[l] * 255.0f + 0.5f);
        }
        const int kind = chunk_kind(m8);
        if (kind == CHUNK_EMPTY) return;
        if (kind == CHUNK_WHOLE) {
            blend_chunk8(&c->painter, px, m8);
        } else {
            #pragma omp simd
            for (int l = 0; l < LANES; l++) px[l] = blend_pixel(&c->painter, px[l], cov[l]);
        }
        return;
    }
    if (count == LANES) {
        if (c->evenodd) {
            #pragma omp simd
            for (int l = 0; l < LANES; l++) px[l] = blend_pixel(&c->painter, px[l], raster_fill_coverage(a[l], 1));
        } else {
            #pragma omp simd
            for (int l = 0; l < LANES; l++) px[l] = blend_pixel(&c->painter, px[l], raster_fill_coverage(a[l], 0));
        }
        return;
    }
    if (c->painter.opaque && c->painter.integral) {
        float cov[LANES];
        for (int l = 0; l < count; l++) cov[l] = raster_fill_coverage(a[l], c->evenodd);
        blend_opaque_tail(&c->painter, px, cov, count);
        return;
    }
    for (int l = 0; l < count; l++) px[l] = blend_pixel(&c->painter, px[l], raster_fill_coverage(a[l], c->evenodd));
}

/// Sweeps row y; `below` says whether row y + 1 is in the image (its
/// chunks under this row's marked ones are prefetched).
static void sweep_row(const fill_sweeper *c, int y, int top, int below) {
    const fill_cells *p = &c->cells;
    uint64_t *bits = p->bits + (ptrdiff_t)(y - top) * p->words;
    uint32_t *cell = p->cells + (ptrdiff_t)(y - top) * p->cell_stride - p->origin;
    uint32_t *px = (uint32_t *)(c->dst + (ptrdiff_t)y * c->stride);
    const int width = c->width;
    /* carry != 0: a run under a zero winding paints nothing whatever the
       rule, so it is skipped in one integer test, not through the rule's
       float coverage (SIMDFillSweeper.sweep says more). */
    uint32_t carry = 0;
    int done = p->origin;
    for (int w = 0; w < p->words; w++) {
        uint64_t word = bits[w];
        if (!word) continue;
        bits[w] = 0;
        while (word) {
            const int x0 = p->origin + ((w << 6) + __builtin_ctzll(word)) * LANES;
            word &= word - 1;
            if (x0 > done && done < width && carry != 0)
                paint_run(&c->painter, px + done, (x0 < width ? x0 : width) - done, raster_fill_coverage(carry, c->evenodd));
            if (below && x0 + LANES <= width) raster_fill_prefetch_chunk(c->dst + (ptrdiff_t)(y + 1) * c->stride + 4 * (ptrdiff_t)x0);
            uint32_t *q = cell + x0;
            uint32_t a[LANES];
            carry = raster_fill_prefix16(q, carry, a);
            memset(q, 0, LANES * sizeof(uint32_t));
            if (x0 < width) paint_chunk(c, a, px + x0, width - x0 < LANES ? width - x0 : LANES);
            done = x0 + LANES;
        }
    }
    if (done < width && carry != 0) paint_run(&c->painter, px + done, width - done, raster_fill_coverage(carry, c->evenodd));
}


void fill_run_band(const fill_band *b, int s0, int s1) {
    /* The cells and bits arrive all zero (the plan clears new memory) and
       leave all zero: each row's sweep clears the chunks and words it read. */
    const fill_strip_work *w = &b->work;
    int current = 0, carried = 0;
    for (int s = s0; s < s1; s++) {
        const int top = (w->first_strip + s) * STRIP_ROWS;
        const int bottom = top + STRIP_ROWS < b->height ? top + STRIP_ROWS : b->height;
        fill_walk walk = { .carried = w->carry + (size_t)current * 4 * (size_t)w->capacity, .count = carried,
                           .kept = w->carry + (size_t)(1 - current) * 4 * (size_t)w->capacity, .kept_count = 0,
                           .limit = (float)bottom };
        if (b->sampler.samples == 0) {
            int staged = 0;
            FOR_EACH_WALK_EDGE(w, &walk, s, e, {
                stage_edge(&b->accumulator, e, top, bottom, &staged);
                fill_walk_keep(&walk, e);
            });
            if (staged > 0) fill_flush_steps(&b->accumulator, staged, top);
        } else {
            sample_strip(&b->sampler, w, &walk, s, top, bottom);
        }
        current = 1 - current;
        carried = walk.kept_count;
        for (int y = top; y < bottom; y++) sweep_row(&b->sweeper, y, top, y + 1 < b->height);
    }
}
