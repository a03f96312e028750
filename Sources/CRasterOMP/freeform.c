#include "raster_omp.h"
#include "raster_k1_lanes.h"
// A portable build (no AVX) notes that 8-float vectors change the call
// ABI; raster_k1_lanes.h's functions are inline and never cross a call.
#pragma clang diagnostic ignored "-Wpsabi"
#include "pixel.h"
#include <string.h>

/// Pixels per chunk: the accumulators of one chunk stay in L1 while the loop
/// over points streams through them, and each inner loop is long enough to
/// vectorise with no remainder except at the row's end.
#define CHUNK RASTER_OMP_FREEFORM_CHUNK

/// Distances are in units of L: t = d^2 / L^2 comes from the column table
/// (the x part, the same on every row) plus the row's dy^2 / L^2, and the
/// fall-off 1 - d / L is a subtraction. f receives m^e for the chunk's t,
/// one loop per way of computing it so that each loop is branch-free and
/// vectorises.
static void weights(const raster_omp_freeform *g, const float *col, float dy2, float *f) {
    if (g->table) {
        const float last = (float)g->table_intervals;
        const float *table = g->table;
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            float pos = (col[j] + dy2) * last;
            pos = pos < last ? pos : last; // table[intervals] == 0, table[intervals + 1] == 0
            int k = (int)pos;
            f[j] = table[k] + (pos - (float)k) * (table[k + 1] - table[k]);
        }
        return;
    }
    const int e = g->whole_exponent;
    if (e == 4) {
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            float m = 1.0f - sqrtf(col[j] + dy2);
            m = m > 0.0f ? m : 0.0f;
            const float m2 = m * m;
            f[j] = m2 * m2;
        }
        return;
    }
    float m[CHUNK];
    #pragma omp simd
    for (int j = 0; j < CHUNK; j++) {
        float v = 1.0f - sqrtf(col[j] + dy2);
        f[j] = m[j] = v > 0.0f ? v : 0.0f;
    }
    if (e > 0) {
        for (int k = 1; k < e; k++) {
            #pragma omp simd
            for (int j = 0; j < CHUNK; j++) f[j] *= m[j];
        }
    } else {
        const float ex = g->exponent;
        for (int j = 0; j < CHUNK; j++) f[j] = powf(f[j], ex);
    }
}

/// A point whose influence disc reaches the current row: its index, its
/// vertical offset squared (over L^2, plus RASTER_K1_ROOT_FLOOR, the least
/// argument of raster_k1_quartic16), its colour's difference from the
/// row's base colour and the x range (sample coordinates) of the row it can
/// reach. Chunks outside that range skip the point; its weight there would
/// be exactly 0 (the disc is widened by a relative 1e-4, far beyond float
/// rounding of d / L), so the image is unchanged. With a swirl the samples
/// leave their row, so no plan is made (chunk_swirled).
typedef struct { int index; float dy2, x_min, x_max; float delta[4]; } reach;

/// One row's view of the gradient: the points that reach it, and the base
/// colour the blend starts from (the first reaching point's, else the
/// first point's). sum(f_i c_i) / S = base + sum(f_i (c_i - base)) / S, so
/// the base point adds only its weight.
typedef struct {
    const raster_omp_freeform *g;
    float qy;
    int reaching;
    float base[4];
    reach active[RASTER_OMP_FREEFORM_MAX_POINTS];
} row_plan;

static void plan_row(row_plan *r, const raster_omp_freeform *g, int y) {
    const float inv = g->inv_influence, l = (1.0f + 1e-4f) / inv, qy = ((float)y + 0.5f) * g->sample_y;
    r->g = g;
    r->qy = qy;
    r->reaching = 0;
    memcpy(r->base, g->colors, sizeof r->base);
    if (g->swirl > 0.0f) return; // chunk_swirled meets every point
    for (int i = 0; i < g->count; i++) {
        float dy = qy - g->py[i], h2 = l * l - dy * dy;
        if (h2 <= 0.0f) continue;
        float h = sqrtf(h2) + 1e-3f, dyl = dy * inv;
        if (r->reaching == 0) memcpy(r->base, g->colors + 4 * i, sizeof r->base);
        reach *p = &r->active[r->reaching++];
        *p = (reach){ i, raster_k1_row_dy2(dyl), g->px[i] - h, g->px[i] + h, { 0 } };
        for (int ch = 0; ch < 4; ch++) p->delta[ch] = g->colors[4 * i + ch] - r->base[ch];
    }
}

/// The column table: for point i and column x, ((x + 0.5) sample_x - px_i)^2 / L^2.
static void fill_columns(const raster_omp_freeform *g) {
    for (int i = 0; i < g->count; i++) {
        float *col = g->columns + (ptrdiff_t)i * g->pitch;
        const float px = g->px[i], sx = g->sample_x, inv = g->inv_influence;
        #pragma omp simd
        for (int x = 0; x < g->pitch; x++) {
            const float dx = (((float)x + 0.5f) * sx - px) * inv;
            col[x] = dx * dx;
        }
    }
}

void raster_omp_swirl_sincos(const float *theta, float *sin_theta, float *cos_theta, int n) {
    for (int i = 0; i < n; i += 16) {
        const size_t bytes = (size_t)(n - i < 16 ? n - i : 16) * sizeof(float);
        raster_k1_f16 t = 0, s, c;
        memcpy(&t, theta + i, bytes);
        raster_k1_sincos16(t, &s, &c);
        memcpy(sin_theta + i, &s, bytes);
        memcpy(cos_theta + i, &c, bytes);
    }
}

/// base + the accumulated differences over the weights; reports whether
/// some pixel had no weight at all (the nearest-point case). With a uniform
/// alpha nothing was accumulated for it: the blend's alpha is the base's.
static int normalise(const raster_omp_freeform *g, const float base[4], const float sum[CHUNK],
                     float acc[4][CHUNK], float out[4][CHUNK]) {
    int empty = 0;
    const int uniform = g->uniform_alpha;
    #pragma omp simd reduction(|:empty)
    for (int j = 0; j < CHUNK; j++) {
        float inv = 1.0f / (sum[j] > 0.0f ? sum[j] : 1.0f);
        empty |= sum[j] <= 0.0f;
        for (int ch = 0; ch < 3; ch++) out[ch][j] = base[ch] + acc[ch][j] * inv;
        out[3][j] = uniform ? base[3] : base[3] + acc[3][j] * inv;
    }
    return empty;
}

/// Pixels with no point within L take the nearest point's colour (lowest
/// index on ties); (qx[j], qy[j]) is pixel j's sample.
static void nearest_fill(const raster_omp_freeform *g, int n, const float sum[CHUNK], const float *qx,
                         const float *qy, float out[4][CHUNK]) {
    for (int j = 0; j < n; j++) {
        if (sum[j] > 0.0f) continue;
        float best = INFINITY;
        int nearest = 0;
        for (int i = 0; i < g->count; i++) {
            float dx = qx[j] - g->px[i], dy = qy[j] - g->py[i], dd = dx * dx + dy * dy;
            if (dd < best) { best = dd; nearest = i; }
        }
        for (int ch = 0; ch < 4; ch++) out[ch][j] = g->colors[4 * nearest + ch];
    }
}

/// Adds weights f to sum and f times the colour difference c to the
/// accumulators (alpha only when the alphas differ).
static inline void accumulate(const raster_omp_freeform *g, const float *f, const float c[4], float sum[CHUNK],
                              float acc[4][CHUNK]) {
    if (g->uniform_alpha) {
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            sum[j] += f[j];
            acc[0][j] += f[j] * c[0];
            acc[1][j] += f[j] * c[1];
            acc[2][j] += f[j] * c[2];
        }
        return;
    }
    #pragma omp simd
    for (int j = 0; j < CHUNK; j++) {
        sum[j] += f[j];
        acc[0][j] += f[j] * c[0];
        acc[1][j] += f[j] * c[1];
        acc[2][j] += f[j] * c[2];
        acc[3][j] += f[j] * c[3];
    }
}

/// Evaluates `n` (<= CHUNK) pixels of the planned row from x0 into
/// out[4][CHUNK], with no swirl: the samples share the row's y.
static void chunk(const row_plan *r, int x0, int n, float out[4][CHUNK]) {
    const raster_omp_freeform *g = r->g;
    const reach *active = r->active;
    const int reaching = r->reaching;
    float sum[CHUNK], acc[4][CHUNK], f[CHUNK];
    memset(sum, 0, sizeof sum);
    memset(acc, 0, sizeof acc);
    const float sx = g->sample_x;
    const float left = ((float)x0 + 0.5f) * sx, right = ((float)x0 + (float)CHUNK - 0.5f) * sx;
    for (int k = 0; k < reaching; k++) {
        const reach p = active[k];
        if (p.x_max < left || p.x_min > right) continue;
        weights(g, g->columns + (ptrdiff_t)p.index * g->pitch + x0, p.dy2, f);
        if (k == 0) { // the base point: its difference is zero
            #pragma omp simd
            for (int j = 0; j < CHUNK; j++) sum[j] += f[j];
            continue;
        }
        accumulate(g, f, p.delta, sum, acc);
    }
    if (!normalise(g, r->base, sum, acc, out)) return;
    float qx[CHUNK], qy[CHUNK];
    for (int j = 0; j < n; j++) { qx[j] = ((float)(x0 + j) + 0.5f) * sx; qy[j] = r->qy; }
    nearest_fill(g, n, sum, qx, qy, out);
}

/// `chunk` for the quartic fall-off (whole exponent 4, no table: the
/// suite's curve), with the points' loop inside each step of
/// QUARTIC_STEPS vectors, so sums and accumulators stay in registers
/// instead of passing through the chunk's arrays once per point, and the
/// steps' chains (square root to divide) are independent, so one waits on
/// latency while the other computes. `perf annotate` of `chunk` showed its
/// time spread over those stores and reloads, and of a one-vector step its
/// time stalled at the divide (busy-host timings of the suite's frame at 1
/// thread, 12 alternating runs, 25th percentile: `chunk` 1.75 ms, one
/// 8-lane vector 1.58, two 1.46; four were no faster than two).
///
/// The vectors are 16 lanes (zmm with AVX-512: `min_vector_width`, as
/// clang otherwise splits them in two) and the fall-off is
/// raster_k1_quartic16's, with an estimated square root. The square
/// roots, 4 per pixel with four points, were the floor: the square-root
/// unit takes a 16-lane root per 12 cycles on Golden Cove, as an 8-lane
/// one per 6, so 16 lanes alone gained
/// nothing, and an estimated root on 8 lanes lost (its multiply-adds
/// then outweighed the unit); together they halve the arithmetic's
/// instructions and leave the unit idle (freeform study). The operations
/// are otherwise those of weights + accumulate + normalise, in the same
/// order (contraction is off here and the fused multiply-adds are written
/// out where those have them); the simd backend's quartic curve takes the
/// same square root, so both backends draw the same bytes.
#define QUARTIC_STEPS 2
#define QUARTIC_LANES 16
__attribute__((min_vector_width(512)))
static void chunk_quartic(const row_plan *r, int x0, int n, float out[4][CHUNK]) {
#pragma clang fp contract(off)
    const raster_omp_freeform *g = r->g;
    const float sx = g->sample_x;
    const float left = ((float)x0 + 0.5f) * sx, right = ((float)x0 + (float)CHUNK - 0.5f) * sx;
    const reach *near[RASTER_OMP_FREEFORM_MAX_POINTS];
    int count = 0;
    for (int k = 0; k < r->reaching; k++) {
        const reach *p = &r->active[k];
        if (!(p->x_max < left || p->x_min > right)) near[count++] = p;
    }
    const int uniform = g->uniform_alpha;
    const raster_k1_f16 zero = 0.0f, one = 1.0f;
    float sum[CHUNK];
    int empty = 0;
    for (int j = 0; j < CHUNK; j += QUARTIC_LANES * QUARTIC_STEPS) {
        raster_k1_f16 s[QUARTIC_STEPS], a[QUARTIC_STEPS][4];
        for (int h = 0; h < QUARTIC_STEPS; h++) { s[h] = zero; for (int ch = 0; ch < 4; ch++) a[h][ch] = zero; }
        for (int q = 0; q < count; q++) {
            const reach *p = near[q];
            const float *col = g->columns + (ptrdiff_t)p->index * g->pitch + x0 + j;
            const int base = p == r->active; // the base point: its difference is zero
            for (int h = 0; h < QUARTIC_STEPS; h++) {
                raster_k1_f16 t;
                memcpy(&t, col + QUARTIC_LANES * h, sizeof t);
                const raster_k1_f16 f = raster_k1_quartic16(t + p->dy2);
                s[h] = s[h] + f;
                if (base) continue;
                for (int ch = 0; ch < 3; ch++) a[h][ch] = __builtin_elementwise_fma(f, (raster_k1_f16)p->delta[ch], a[h][ch]);
                if (!uniform) a[h][3] = __builtin_elementwise_fma(f, (raster_k1_f16)p->delta[3], a[h][3]);
            }
        }
        for (int h = 0; h < QUARTIC_STEPS; h++) {
            const int x = j + QUARTIC_LANES * h;
            const raster_k1_f16 inv = raster_k1_reciprocal16(s[h] > zero ? s[h] : one);
            for (int ch = 0; ch < 4; ch++) {
                const raster_k1_f16 o = ch == 3 && uniform ? (raster_k1_f16)r->base[3]
                                                           : __builtin_elementwise_fma(a[h][ch], inv, (raster_k1_f16)r->base[ch]);
                memcpy(out[ch] + x, &o, sizeof o);
            }
            memcpy(sum + x, &s[h], sizeof s[h]);
            empty |= __builtin_reduce_or((raster_i16)(s[h] <= zero));
        }
    }
    if (!empty) return;
    float qx[CHUNK], qy[CHUNK];
    for (int j = 0; j < n; j++) { qx[j] = ((float)(x0 + j) + 0.5f) * sx; qy[j] = r->qy; }
    nearest_fill(g, n, sum, qx, qy, out);
}

/// The same with Telegram's swirl: each sample is rotated about (0.5, 0.5)
/// by swirl |q - m|^2 and clamped to [0, 1]^2, then meets every point (the
/// first one the base colour).
_Static_assert(CHUNK % 16 == 0, "chunk_swirled warps whole 16-lane vectors");
static void chunk_swirled(const row_plan *r, int x0, int n, float out[4][CHUNK]) {
    const raster_omp_freeform *g = r->g;
    float sum[CHUNK], acc[4][CHUNK], t[CHUNK], f[CHUNK], qx[CHUNK], qy[CHUNK];
    memset(sum, 0, sizeof sum);
    memset(acc, 0, sizeof acc);
    const float sx = g->sample_x, s = g->swirl, dy = r->qy - 0.5f, inv = g->inv_influence;
    const raster_k1_f16 ramp = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    for (int j = 0; j < CHUNK; j += 16) {
        // Unfused, as the simd backend's samples are: the same floats.
#pragma clang fp contract(off)
        raster_k1_f16 x, y;
        raster_k1_warp16(((float)(x0 + j) + ramp + 0.5f) * sx - 0.5f, dy, s, &x, &y);
        memcpy(qx + j, &x, sizeof x);
        memcpy(qy + j, &y, sizeof y);
    }
    for (int i = 0; i < g->count; i++) {
        const float px = g->px[i] * inv, py = g->py[i] * inv;
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            float ex = qx[j] * inv - px, ey = qy[j] * inv - py;
            t[j] = ex * ex + ey * ey;
        }
        weights(g, t, 0.0f, f);
        if (i == 0) {
            #pragma omp simd
            for (int j = 0; j < CHUNK; j++) sum[j] += f[j];
            continue;
        }
        float c[4];
        for (int ch = 0; ch < 4; ch++) c[ch] = g->colors[4 * i + ch] - r->base[ch];
        accumulate(g, f, c, sum, acc);
    }
    if (normalise(g, r->base, sum, acc, out)) nearest_fill(g, n, sum, qx, qy, out);
}

/// One row of either output: RGBA8 (`rgba` != NULL) or four float planes.
static void freeform_row(const raster_omp_freeform *g, uint8_t *rgba, ptrdiff_t stride, float *planes,
                         int width, int height, int y) {
    const ptrdiff_t plane = (ptrdiff_t)width * height;
    float out[4][CHUNK];
    row_plan plan;
    plan_row(&plan, g, y);
    for (int x0 = 0; x0 < width; x0 += CHUNK) {
        int n = width - x0 < CHUNK ? width - x0 : CHUNK;
        if (g->swirl > 0.0f) chunk_swirled(&plan, x0, n, out);
        else if (!g->table && g->whole_exponent == 4) chunk_quartic(&plan, x0, n, out);
        else chunk(&plan, x0, n, out);
        if (rgba) {
            // Whole vectors of the chunk (its lanes past n hold finite values
            // of the padded column table); the row gets n words. With a
            // uniform alpha out[3] holds that alpha (normalise).
            uint32_t *row = (uint32_t *)(rgba + (ptrdiff_t)y * stride) + x0;
            for (int j = 0; j < n; j += 8) {
                raster_k1_f8 c[4];
                for (int ch = 0; ch < 4; ch++) memcpy(&c[ch], out[ch] + j, sizeof c[ch]);
                const raster_k1_u8 words = raster_k1_pack8(c[0], c[1], c[2], c[3]);
                if (n - j >= 8) memcpy(row + j, &words, sizeof words);
                else memcpy(row + j, &words, sizeof(uint32_t) * (size_t)(n - j));
            }
        } else {
            for (int ch = 0; ch < 4; ch++)
                memcpy(planes + ch * plane + (ptrdiff_t)y * width + x0, out[ch], sizeof(float) * n);
        }
    }
}

static void freeform_rows(const raster_omp_freeform *g, uint8_t *rgba, ptrdiff_t stride, float *planes,
                          int width, int height, int threads) {
    if (g->swirl <= 0.0f) fill_columns(g);
    RASTER_PARALLEL_ROWS(height, threads, y, freeform_row(g, rgba, stride, planes, width, height, y));
}

void raster_omp_freeform_rgba8(const raster_omp_freeform *g, uint8_t *dst, int width, int height,
                               ptrdiff_t stride, int threads) {
    freeform_rows(g, dst, stride, NULL, width, height, threads);
}

void raster_omp_freeform_planes(const raster_omp_freeform *g, float *planes, int width, int height,
                                int threads) {
    freeform_rows(g, NULL, 0, planes, width, height, threads);
}

typedef struct {
    const float *planes;
    int sw, sh, width;
    const int32_t *tap_index;
    const float *tap_weight;
    /// raster_taps8_all_near of the taps: blocks of eight by loads and
    /// permutes (the simd backend's PlanarUpsampler does the same).
    int near;
} planes_stretch;

/// Stretches source row y of every channel to the full width: four
/// channel planes of `width` floats.
static void stretch_row(const void *ctx, int y, float *out) {
    const planes_stretch *s = ctx;
    const int sw = s->sw, width = s->width;
    for (int ch = 0; ch < 4; ch++) {
        const float *src = s->planes + ((ptrdiff_t)ch * s->sh + y) * sw;
        float *plane = out + (ptrdiff_t)ch * width;
        int x0 = 0;
        if (s->near) {
            // The last column's right tap reads the next row's first value
            // (or the zeroed pad) with weight 0: the same value as below,
            // in the same (contracted) arithmetic.
            for (; x0 + 8 <= width; x0 += 8) {
                raster_i8 index;
                raster_f8 weight;
                memcpy(&index, s->tap_index + x0, sizeof index);
                memcpy(&weight, s->tap_weight + x0, sizeof weight);
                const int first = s->tap_index[x0];
                const raster_f8 a = raster_floats8_near(src, first, index), b = raster_floats8_near(src + 1, first, index);
                const raster_f8 v = a + (b - a) * weight;
                memcpy(plane + x0, &v, sizeof v);
            }
        }
        #pragma omp simd
        for (int x = x0; x < width; x++) {
            const int i = s->tap_index[x];
            const int j = i + 1 < sw ? i + 1 : i; // the last column's right tap has weight 0
            plane[x] = src[i] + (src[j] - src[i]) * s->tap_weight[x];
        }
    }
}

typedef struct {
    planes_stretch stretch;
    float *rows;
    const int32_t *row_index;
    const float *row_weight;
    uint8_t *dst;
    ptrdiff_t stride;
} upsample_ctx;

/// Output rows [lo, hi): each a vertical blend of two stretched rows, packed.
static void upsample_band(const upsample_ctx *c, int t, int lo, int hi) {
    const int width = c->stretch.width, sh = c->stretch.sh;
    raster_row_pair pair = raster_row_pair_make(c->rows + (ptrdiff_t)8 * width * t, (ptrdiff_t)4 * width);
    for (int y = lo; y < hi; y++) {
        const int y0 = c->row_index[y], y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
        const float *top = raster_row_pair_get(&pair, y0, y1, stretch_row, &c->stretch);
        const float *bottom = raster_row_pair_get(&pair, y1, y0, stretch_row, &c->stretch);
        const float fy = c->row_weight[y];
        uint32_t *row = (uint32_t *)(c->dst + (ptrdiff_t)y * c->stride);
        #pragma omp simd
        for (int x = 0; x < width; x++) {
            float v[4];
            for (int ch = 0; ch < 4; ch++) {
                const float a = top[ch * width + x], b = bottom[ch * width + x];
                v[ch] = a + (b - a) * fy;
            }
            row[x] = raster_pack(v[0], v[1], v[2], v[3]);
        }
    }
}

void raster_omp_upsample(const float *planes, int sw, int sh, float *rows, const int32_t *tap_index,
                         const float *tap_weight, const int32_t *row_index, const float *row_weight,
                         uint8_t *dst, int width, int height, ptrdiff_t stride, int threads) {
    const upsample_ctx c = { { planes, sw, sh, width, tap_index, tap_weight, raster_taps8_all_near(tap_index, width) },
                             rows, row_index, row_weight, dst, stride };
    RASTER_PARALLEL_BANDS(height, threads, t, lo, hi, upsample_band(&c, t, lo, hi));
}
