// K3, Gaussian blur: the same schedule as the Swift simd backend.
//
// Both passes filter *bundles* of 64 lines at once, one sample at a time:
// the horizontal pass takes bands of 16 rows (lane 4r + c = channel c of
// row r), the vertical pass strips of 16 columns (lane 4p + c = channel c
// of pixel p). A bundle is transposed into a per-thread buffer, filtered
// along the line by one of three 1-D filters (FIR, extended-box cascade,
// Deriche IIR; the maths is documented in RasterKit/Kernels/GaussianBlur.swift)
// and written out. Between the passes the image lives in a UInt16 8.8
// plane stored strip by strip (strip s = rows 0..height-1 of its 16
// columns, 128 bytes per row), so that the vertical pass reads one
// sequential stream per strip instead of one new page per row. Bands and
// strips are fixed by the image size, threads only share them out, so the
// result does not depend on the thread count.
#include "raster_omp.h"
#include "pixel.h"
#include "raster_pack8.h"
#include <string.h>

#define LANES 64
#define BAND_ROWS 16

// The lane loops below are 64 floats wide. Clang on AVX-512 hosts prefers
// 256-bit vectors by default, which doubles the instruction count and, in
// the IIR, spills its 16 state vectors to the stack; these two hints let
// it use 512-bit registers (and are harmless elsewhere).
#if defined(__clang__) && defined(__AVX512F__)
#define WIDE __attribute__((min_vector_width(512)))
#else
#define WIDE
#endif
#define LANE_LOOP _Pragma("omp simd simdlen(16)")
#define STRIP_PIXELS 16
#define FIR_BLOCK 4
#define FIXED_ONE 256.0f

typedef float bundle[LANES];

static int lead_of(const raster_omp_blur_filter *f) {
    switch (f->kind) {
    case RASTER_OMP_BLUR_FIR: return f->reach;
    case RASTER_OMP_BLUR_BOX: return 3 * (f->box_radius + 1);
    default: return 0;
    }
}

static int trail_of(const raster_omp_blur_filter *f) {
    switch (f->kind) {
    case RASTER_OMP_BLUR_FIR: return f->reach + FIR_BLOCK;
    case RASTER_OMP_BLUR_BOX: return 3 * (f->box_radius + 1);
    default: return 0;
    }
}

size_t raster_omp_blur_samples(const raster_omp_blur_filter *f) {
    return (size_t)lead_of(f) + (size_t)f->length + (size_t)trail_of(f);
}

static inline float clamp_round(float v, float limit) {
    v = v < 0.0f ? 0.0f : (v > limit ? limit : v);
    return floorf(v + 0.5f);
}

// MARK: - Teams

// Runs work(ctx, t, lo, hi) for contiguous ranges [lo, hi) of `items` work
// items (bands, strips, rows), up to RASTER_BANDS_PER_THREAD ranges per
// thread of a team of `team`, taken as threads come free (raster_omp.h says
// why); t is the running thread's index, for its own buffers. Items are
// computed the same way whichever thread gets them, so results do not
// depend on the team size. A one-thread team runs on the caller without
// entering libomp, which allocates even for a serialised region (a
// steady-state frame must not).
typedef void (*team_work)(const void *ctx, int t, int lo, int hi);

static void run_team(int team, int items, team_work work, const void *ctx) {
    if (team > items) team = items;
    const int ranges = items < team * RASTER_BANDS_PER_THREAD ? items : team * RASTER_BANDS_PER_THREAD;
    int next = 0;
    static _Thread_local raster_team_site site;
    raster_team_watch watch;
    if (team > 1) team = raster_team_fork(&watch, &site, team, &next, ranges);
    if (team <= 1) { work(ctx, 0, 0, items); return; }
    #pragma omp parallel num_threads(team)
    {
        raster_team_arrive(&watch);
        int t = 0;
#ifdef _OPENMP
        t = omp_get_thread_num();
#endif
        RASTER_CLAIM(next, ranges, r)
            work(ctx, t, (int)((long long)items * r / ranges), (int)((long long)items * (r + 1) / ranges));
        raster_team_leave(&watch);
    }
    raster_team_join(&watch);
}

// MARK: - 1-D filters on a bundle buffer

WIDE static void pad(bundle *a, int lead, int length, int trail, int clamp) {
    for (int i = 0; i < lead; i++) {
        LANE_LOOP
        for (int l = 0; l < LANES; l++) a[i][l] = clamp ? a[lead][l] : 0.0f;
    }
    for (int i = lead + length; i < lead + length + trail; i++) {
        LANE_LOOP
        for (int l = 0; l < LANES; l++) a[i][l] = clamp ? a[lead + length - 1][l] : 0.0f;
    }
}

// out[i] = sum_{|k| <= reach} w_k in[i + k] (+ tail * (first + last)), four
// outputs per block so that every loaded sample feeds four accumulators.
WIDE static void fir(bundle *in, bundle *out, int lead, int n, const float *taps, int reach, float tail) {
    const int center = reach + FIR_BLOCK - 1;
    for (int i = 0; i < n; i += FIR_BLOCK) {
        float acc0[LANES] = {0}, acc1[LANES] = {0}, acc2[LANES] = {0}, acc3[LANES] = {0};
        const int base = lead + i;
        for (int m = -reach; m <= reach + FIR_BLOCK - 1; m++) {
            const float *x = in[base + m];
            const float *t = taps + m + center;
            const float w0 = t[0], w1 = t[-1], w2 = t[-2], w3 = t[-3];
            LANE_LOOP
            for (int l = 0; l < LANES; l++) {
                acc0[l] += w0 * x[l];
                acc1[l] += w1 * x[l];
                acc2[l] += w2 * x[l];
                acc3[l] += w3 * x[l];
            }
        }
        if (tail != 0.0f) {
            LANE_LOOP
            for (int l = 0; l < LANES; l++) {
                float e = tail * (in[lead][l] + in[lead + n - 1][l]);
                acc0[l] += e; acc1[l] += e; acc2[l] += e; acc3[l] += e;
            }
        }
        memcpy(out[base], acc0, sizeof(bundle));
        memcpy(out[base + 1], acc1, sizeof(bundle));
        memcpy(out[base + 2], acc2, sizeof(bundle));
        memcpy(out[base + 3], acc3, sizeof(bundle));
    }
}

// Adding and subtracting 2^23 rounds a value in [0, 2^22) to an integer.
static inline float on_grid(float v) {
    const float magic = 8388608.0f;
    return (v + magic) - magic;
}

// Three extended-box passes; values stay on an integer grid so the running
// sums are exact (see ExtendedBox). Returns the buffer holding the result.
WIDE static bundle *box(bundle *a, bundle *b, int e, int n, const raster_omp_blur_filter *f) {
    const int r = f->box_radius;
    const float alpha = f->box_alpha, norm = f->box_norm, grid = f->box_grid;
    for (int i = e; i < e + n; i++) {
        LANE_LOOP
        for (int l = 0; l < LANES; l++) a[i][l] = on_grid(a[i][l] * grid);
    }
    pad(a, e, n, e, f->clamp);
    bundle *src = a, *dst = b;
    for (int pass = 1; pass <= 3; pass++) {
        const int margin = (3 - pass) * (r + 1);
        const int lo = e - margin, hi = e + n + margin;
        const int last = pass == 3;
        const float scale = last ? norm / grid : norm;
        const float edge = alpha * scale;
        float sum[LANES] = {0};
        for (int i = lo - r; i <= lo + r; i++) {
            LANE_LOOP
            for (int l = 0; l < LANES; l++) sum[l] += src[i][l];
        }
        for (int i = lo; i < hi; i++) {
            const float *before = src[i - r - 1], *after = src[i + r + 1], *leaving = src[i - r];
            float *o = dst[i];
            if (last) {
                LANE_LOOP
                for (int l = 0; l < LANES; l++) {
                    o[l] = sum[l] * scale + edge * (before[l] + after[l]);
                    sum[l] += after[l] - leaving[l];
                }
            } else {
                LANE_LOOP
                for (int l = 0; l < LANES; l++) {
                    o[l] = on_grid(sum[l] * scale + edge * (before[l] + after[l]));
                    sum[l] += after[l] - leaving[l];
                }
            }
        }
        bundle *t = src; src = dst; dst = t;
    }
    return src;
}

// Deriche's parallel form with two complex first-order sections per
// direction (see DericheIIR): causal sum into out, anti-causal added back.
WIDE static void iir(bundle *in, bundle *out, int n, const raster_omp_blur_filter *f) {
    const float *k = f->iir;
    // Per section s (10 floats): pole, causal, anticausal, causalRest, anticausalRest (re, im).
    const float p0r = k[0], p0i = k[1], p1r = k[10], p1i = k[11];
    float u0[LANES], v0[LANES], u1[LANES], v1[LANES];
    {
        const float c0r = k[2], c0i = k[3], c1r = k[12], c1i = k[13];
        LANE_LOOP
        for (int l = 0; l < LANES; l++) {
            float x0 = f->clamp ? in[0][l] : 0.0f;
            u0[l] = x0 * k[6]; v0[l] = x0 * k[7]; u1[l] = x0 * k[16]; v1[l] = x0 * k[17];
        }
        for (int i = 0; i < n; i++) {
            const float *x = in[i];
            float *o = out[i];
            LANE_LOOP
            for (int l = 0; l < LANES; l++) {
                float nu0 = fmaf(p0r, u0[l], fmaf(-p0i, v0[l], x[l] * c0r));
                float nv0 = fmaf(p0r, v0[l], fmaf(p0i, u0[l], x[l] * c0i));
                float nu1 = fmaf(p1r, u1[l], fmaf(-p1i, v1[l], x[l] * c1r));
                float nv1 = fmaf(p1r, v1[l], fmaf(p1i, u1[l], x[l] * c1i));
                u0[l] = nu0; v0[l] = nv0; u1[l] = nu1; v1[l] = nv1;
                o[l] = nu0 + nu1;
            }
        }
    }
    {
        const float c0r = k[4], c0i = k[5], c1r = k[14], c1i = k[15];
        LANE_LOOP
        for (int l = 0; l < LANES; l++) {
            float xn = f->clamp ? in[n - 1][l] : 0.0f;
            u0[l] = xn * k[8]; v0[l] = xn * k[9]; u1[l] = xn * k[18]; v1[l] = xn * k[19];
        }
        for (int i = n - 1; i >= 0; i--) {
            const float *x = in[i];
            float *o = out[i];
            LANE_LOOP
            for (int l = 0; l < LANES; l++) {
                o[l] += u0[l] + u1[l];
                float nu0 = fmaf(p0r, u0[l], fmaf(-p0i, v0[l], x[l] * c0r));
                float nv0 = fmaf(p0r, v0[l], fmaf(p0i, u0[l], x[l] * c0i));
                float nu1 = fmaf(p1r, u1[l], fmaf(-p1i, v1[l], x[l] * c1r));
                float nv1 = fmaf(p1r, v1[l], fmaf(p1i, u1[l], x[l] * c1i));
                u0[l] = nu0; v0[l] = nv0; u1[l] = nu1; v1[l] = nv1;
            }
        }
    }
}

// Filters the line at a[lead ..< lead + length]; returns the result buffer
// (the result sits at the same offset).
static bundle *run_filter(const raster_omp_blur_filter *f, bundle *a, bundle *b) {
    const int lead = lead_of(f), n = f->length;
    switch (f->kind) {
    case RASTER_OMP_BLUR_FIR:
        pad(a, lead, n, trail_of(f), f->clamp);
        fir(a, b, lead, n, f->taps, f->reach, f->clamp ? f->tail : 0.0f);
        return b;
    case RASTER_OMP_BLUR_BOX:
        return box(a, b, lead, n, f);
    default:
        iir(a, b, n, f);
        return b;
    }
}

// MARK: - Bands (horizontal pass)

static inline int band_row(int y0, int r, int height) {
    int y = y0 + r;
    return y < height ? y : height - 1;
}

// Rows y0 ..< y0 + 16 (past the bottom: the last row again; those lanes
// compute exactly the last row's values) of an RGBA8 image or a UInt16 8.8
// row-major plane into samples offset ... of the buffer: per sample, one
// 32- or 64-bit load per row, then lanes unpacked by shifts.
WIDE static void load_band(const uint8_t *image, ptrdiff_t stride, const uint16_t *plane, int width, int height, int y0,
                           bundle *buf, int offset) {
    if (image) {
        const uint8_t *rows[BAND_ROWS];
        for (int r = 0; r < BAND_ROWS; r++) rows[r] = image + (ptrdiff_t)band_row(y0, r, height) * stride;
        for (int x = 0; x < width; x++) {
            uint32_t px[BAND_ROWS];
            for (int r = 0; r < BAND_ROWS; r++) memcpy(&px[r], rows[r] + 4 * x, 4);
            float *o = buf[offset + x];
            LANE_LOOP
            for (int l = 0; l < LANES; l++) o[l] = (float)((px[l >> 2] >> (8 * (l & 3))) & 0xFFu);
        }
    } else {
        const uint16_t *rows[BAND_ROWS];
        for (int r = 0; r < BAND_ROWS; r++) rows[r] = plane + (ptrdiff_t)band_row(y0, r, height) * width * 4;
        for (int x = 0; x < width; x++) {
            uint32_t px[2 * BAND_ROWS];
            for (int r = 0; r < BAND_ROWS; r++) memcpy(&px[2 * r], rows[r] + 4 * x, 8);
            float *o = buf[offset + x];
            LANE_LOOP
            for (int l = 0; l < LANES; l++)
                o[l] = (float)((px[l >> 1] >> (16 * (l & 1))) & 0xFFFFu) * (1.0f / FIXED_ONE);
        }
    }
}

// Element offset of pixel (x, y) in the strip-major plane.
static inline size_t strip_offset(int x, int y, int height) {
    return ((size_t)(x / STRIP_PIXELS) * (size_t)height + (size_t)y) * 4 * STRIP_PIXELS + (size_t)(x % STRIP_PIXELS) * 4;
}

WIDE static void store_band(bundle *buf, int offset, uint16_t *plane, int width, int height, int y0) {
    for (int x = 0; x < width; x++) {
        const float *s = buf[offset + x];
        uint16_t q[LANES];
        LANE_LOOP
        for (int l = 0; l < LANES; l++) q[l] = (uint16_t)clamp_round(s[l] * FIXED_ONE, 65535.0f);
        for (int r = 0; r < BAND_ROWS; r++) {
            memcpy(plane + strip_offset(x, band_row(y0, r, height), height), q + 4 * r, 4 * sizeof(uint16_t));
        }
    }
}

typedef struct pass_ctx {
    const raster_omp_blur_filter *f;
    const uint8_t *image_in;    // horizontal source (RGBA8), or NULL
    const uint16_t *plane_in;   // horizontal source (row-major UInt16), or vertical source (strip-major)
    uint8_t *image_out;         // vertical target (RGBA8), or NULL
    uint16_t *plane_out;        // horizontal target (strip-major), or vertical target (row-major UInt16)
    ptrdiff_t stride;
    int width, height;
    float *buffers;
    size_t buffer_floats;
} pass_ctx;

WIDE static void band_work(const void *ctx, int t, int lo, int hi) {
    const pass_ctx *c = ctx;
    const int lead = lead_of(c->f);
    bundle *a = (bundle *)(c->buffers + (size_t)t * 2 * c->buffer_floats);
    bundle *b = (bundle *)(c->buffers + ((size_t)t * 2 + 1) * c->buffer_floats);
    for (int band = lo; band < hi; band++) {
        const int y0 = band * BAND_ROWS;
        load_band(c->image_in, c->stride, c->plane_in, c->width, c->height, y0, a, lead);
        bundle *result = run_filter(c->f, a, b);
        store_band(result, lead, c->plane_out, c->width, c->height, y0);
    }
}

static void horizontal(const raster_omp_blur_filter *f, const uint8_t *image, ptrdiff_t stride, const uint16_t *source,
                       uint16_t *plane, int width, int height, float *buffers, size_t buffer_floats, int threads) {
    const pass_ctx c = { f, image, source, NULL, plane, stride, width, height, buffers, buffer_floats };
    run_team(threads, (height + BAND_ROWS - 1) / BAND_ROWS, band_work, &c);
}

// MARK: - Strips (vertical pass)

WIDE static void strip_work(const void *ctx, int t, int lo, int hi) {
    const pass_ctx *c = ctx;
    const int lead = lead_of(c->f);
    bundle *a = (bundle *)(c->buffers + (size_t)t * 2 * c->buffer_floats);
    bundle *b = (bundle *)(c->buffers + ((size_t)t * 2 + 1) * c->buffer_floats);
    for (int strip = lo; strip < hi; strip++) {
        const int x0 = strip * STRIP_PIXELS;
        const int count = c->width - x0 < STRIP_PIXELS ? c->width - x0 : STRIP_PIXELS;
        const int values = 4 * count;
        // Columns past the right edge hold whatever is there; their
        // lanes are never stored.
        const uint16_t *src = c->plane_in + strip_offset(x0, 0, c->height);
        for (int y = 0; y < c->height; y++) {
            float *o = a[lead + y];
            LANE_LOOP
            for (int l = 0; l < LANES; l++) o[l] = (float)src[l] * (1.0f / FIXED_ONE);
            src += LANES;
        }
        bundle *result = run_filter(c->f, a, b);
        for (int y = 0; y < c->height; y++) {
            const float *s = result[lead + y];
            if (c->image_out) {
                // Colour clamped to alpha before rounding (rounding is
                // monotonic, so this equals clamping after it), 16 lanes
                // at a time as the up-sampler stores (blend_group).
                uint8_t out[LANES];
                for (int l = 0; l < LANES; l += 16) {
                    raster_f16 v;
                    memcpy(&v, s + l, sizeof v);
                    const raster_b16 q = raster_pack16_alpha_clamped(v);
                    memcpy(out + l, &q, sizeof q);
                }
                uint8_t *dst = c->image_out + (ptrdiff_t)y * c->stride + 4 * x0;
                if (count == STRIP_PIXELS) memcpy(dst, out, LANES); else memcpy(dst, out, (size_t)values);
            } else {
                uint16_t *dst = c->plane_out + (ptrdiff_t)y * c->width * 4 + 4 * x0;
                LANE_LOOP
                for (int l = 0; l < values; l++) dst[l] = (uint16_t)clamp_round(s[l] * FIXED_ONE, 65535.0f);
            }
        }
    }
}

static void vertical(const raster_omp_blur_filter *f, const uint16_t *plane, uint8_t *image, ptrdiff_t stride,
                     uint16_t *target, int width, int height, float *buffers, size_t buffer_floats, int threads) {
    const pass_ctx c = { f, NULL, plane, image, target, stride, width, height, buffers, buffer_floats };
    run_team(threads, (width + STRIP_PIXELS - 1) / STRIP_PIXELS, strip_work, &c);
}

void raster_omp_blur(const raster_omp_blur_filter *rows, const raster_omp_blur_filter *columns,
                     uint8_t *image, int width, int height, ptrdiff_t stride,
                     uint16_t *plane, float *buffers, size_t buffer_floats, int threads) {
    horizontal(rows, image, stride, NULL, plane, width, height, buffers, buffer_floats, threads);
    vertical(columns, plane, image, stride, NULL, width, height, buffers, buffer_floats, threads);
}

// MARK: - Down-sampled variants

// Four RGBA pixels as 16 floats: one group of a stretched row.
typedef raster_f16 group16;
typedef float pixel4 __attribute__((ext_vector_type(4)));

// One pixel's four channels repeated over a group's 16 lanes.
static inline group16 broadcast_pixel(const float *p) {
    pixel4 v;
    memcpy(&v, p, sizeof v);
    return __builtin_shufflevector(v, v, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
}

// Four target pixels per group g: sum_s W[s] * small[4g/f + s - 1], with the
// small row at decoded[4 (i + 1)] (see raster_omp_blur_resampled): four
// broadcast pixels times four weight vectors, spelled as vectors because
// clang vectorises the equivalent scalar loop across groups instead, with
// an integer division and a gather per lane (re-check: perf annotate
// upsample_work on a build of the scalar loop).
static inline void stretch_row(const float *decoded, float *out, int groups, int f, const group16 w[4]) {
    for (int g = 0; g < groups; g++) {
        const float *p = decoded + 4 * (4 * g / f);
        const group16 v = w[0] * broadcast_pixel(p) + w[1] * broadcast_pixel(p + 4) + w[2] * broadcast_pixel(p + 8) +
                          w[3] * broadcast_pixel(p + 12);
        memcpy(out + 16 * g, &v, sizeof v);
    }
}

typedef struct resample_ctx {
    int f, clamp;
    uint8_t *image;
    int width, height;
    ptrdiff_t stride;
    uint16_t *small;
    int sw, sh;
    float *row_buffers;
    size_t row_floats;
    group16 weights[4];
} resample_ctx;

// Small rows [lo, hi): the mean of each f x f block (zeros outside the
// image with transparent edges, only the inside pixels with clamp).
WIDE static void downsample_work(const void *ctx, int t, int lo, int hi) {
    const resample_ctx *c = ctx;
    const int f = c->f, width = c->width, sw = c->sw;
    float *acc = c->row_buffers + (size_t)t * c->row_floats;
    for (int j = lo; j < hi; j++) {
        const int y0 = j * f, y1 = y0 + f < c->height ? y0 + f : c->height;
        memset(acc, 0, sizeof(float) * (size_t)width * 4);
        for (int y = y0; y < y1; y++) {
            const uint8_t *row = c->image + (ptrdiff_t)y * c->stride;
            LANE_LOOP
            for (int i = 0; i < width * 4; i++) acc[i] += (float)row[i];
        }
        uint16_t *out = c->small + (size_t)j * sw * 4;
        for (int i = 0; i < sw; i++) {
            const int x0 = i * f, x1 = x0 + f < width ? x0 + f : width;
            const float scale = FIXED_ONE / (c->clamp ? (float)((x1 - x0) * (y1 - y0)) : (float)(f * f));
            float sum[4] = {0};
            for (int x = x0; x < x1; x++) {
                for (int ch = 0; ch < 4; ch++) sum[ch] += acc[4 * x + ch];
            }
            for (int ch = 0; ch < 4; ch++) out[4 * i + ch] = (uint16_t)clamp_round(sum[ch] * scale, 65535.0f);
        }
    }
}

// Four target pixels blended between two stretched rows, stored as
// raster_pack16_alpha_clamped stores them (the Swift schedule's store too).
// The shuffle there replaces the scalar lane loop's a[i | 3], which clang
// made four gathers per 16 lanes, about half of an openmp down2 frame
// (re-check: perf annotate upsample_work on a build of that loop).
static inline void blend_group(const float *a, const float *b, float fy, uint8_t *out) {
    group16 top, bottom;
    memcpy(&top, a, sizeof top);
    memcpy(&bottom, b, sizeof bottom);
    const raster_b16 q = raster_pack16_alpha_clamped(top + (bottom - top) * fy);
    memcpy(out, &q, sizeof q);
}

// Target rows [lo, hi), each a blend of two stretched small rows; each
// small row is stretched once per thread.
WIDE static void upsample_work(const void *ctx, int t, int lo, int hi) {
    const resample_ctx *c = ctx;
    const int f = c->f, width = c->width, sw = c->sw, sh = c->sh;
    const int groups = (width + 3) / 4;
    float *upper = c->row_buffers + (size_t)t * c->row_floats;
    float *lower = upper + (size_t)groups * 16;
    float *decoded = lower + (size_t)groups * 16;
    int upper_row = -1, lower_row = -1;
    for (int y = lo; y < hi; y++) {
        int j0; float fy;
        raster_tap(y, f, sh, &j0, &fy);
        const int j1 = j0 + 1 < sh ? j0 + 1 : sh - 1;
        for (int pass = 0; pass < 2; pass++) {
            const int want = pass == 0 ? j0 : j1;
            if (pass == 0 && upper_row != j0 && lower_row == j0) {
                float *tmp = upper; upper = lower; lower = tmp;
                int tr = upper_row; upper_row = lower_row; lower_row = tr;
            }
            int *held = pass == 0 ? &upper_row : &lower_row;
            if (*held == want) continue;
            float *out = pass == 0 ? upper : lower;
            // decoded[4 (i + 1) + ch] = small pixel i, edges repeated.
            const uint16_t *src = c->small + (size_t)want * sw * 4;
            LANE_LOOP
            for (int i = 0; i < sw * 4; i++) decoded[4 + i] = (float)src[i] * (1.0f / FIXED_ONE);
            for (int ch = 0; ch < 4; ch++) {
                decoded[ch] = decoded[4 + ch];
                decoded[4 * (sw + 1) + ch] = decoded[4 * sw + ch];
                decoded[4 * (sw + 2) + ch] = decoded[4 * sw + ch];
            }
            stretch_row(decoded, out, groups, f, c->weights);
            *held = want;
        }
        uint8_t *row = c->image + (ptrdiff_t)y * c->stride;
        const int whole = width / 4;
        for (int g = 0; g < whole; g++) blend_group(upper + 16 * g, lower + 16 * g, fy, row + 16 * g);
        if (whole < groups) {
            // The last, partial group goes through a spare (the stretched
            // rows hold whole groups; the image row does not).
            uint8_t spare[16];
            blend_group(upper + 16 * whole, lower + 16 * whole, fy, spare);
            memcpy(row + 16 * whole, spare, (size_t)(width - 4 * whole) * 4);
        }
    }
}

void raster_omp_blur_resampled(const raster_omp_blur_filter *rows, const raster_omp_blur_filter *columns,
                               int factor, int clamp, uint8_t *image, int width, int height, ptrdiff_t stride,
                               uint16_t *small, uint16_t *small_plane, float *buffers, size_t buffer_floats,
                               float *row_buffers, int threads) {
    resample_ctx c = { factor, clamp, image, width, height, stride, small, rows->length, columns->length, row_buffers,
                       // Per thread: two stretched rows (whole groups of four
                       // pixels; the down-sampler's accumulator uses the
                       // first) and one decoded small row with one padding
                       // pixel before and two after.
                       (size_t)2 * ((width + 3) / 4) * 16 + (size_t)(rows->length + 3) * 4, {{0}} };
    // Bilinear up-sampling weights. Target pixel f i + j blends small
    // pixels i - 1, i, i + 1 with weights that depend only on j, so four
    // target pixels are sum_s W[s] * small[4m/f + s] (s = -1 ... 2) for
    // 16-lane weight vectors W; clamping at the edges becomes padding of the
    // small row.
    for (int k = 0; k < 4; k++) {
        const float offset = ((float)(k % factor) + 0.5f) / (float)factor - 0.5f;
        const int i = k / factor;
        const int left = offset < 0.0f ? i - 1 : i;
        const float wl = offset < 0.0f ? -offset : 1.0f - offset;
        for (int ch = 0; ch < 4; ch++) {
            c.weights[left + 1][4 * k + ch] += wl;
            c.weights[left + 2][4 * k + ch] += 1.0f - wl;
        }
    }
    run_team(threads, c.sh, downsample_work, &c);
    horizontal(rows, NULL, 0, small, small_plane, c.sw, c.sh, buffers, buffer_floats, threads);
    vertical(columns, small_plane, NULL, 0, small, c.sw, c.sh, buffers, buffer_floats, threads);
    run_team(threads, height, upsample_work, &c);
}
