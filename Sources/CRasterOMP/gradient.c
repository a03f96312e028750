#include "raster_omp.h"
#include "pixel.h"
#include "raster_pack8.h"
#include "raster_radial_lanes.h"
#include <string.h>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

/// Pixels per chunk: long enough for whole vectors, short enough for the
/// parameter and colour arrays to stay in L1.
#define CHUNK 64

/// Maps u into [0, 1] by the extend mode; one loop per mode so each is
/// branch-free and vectorises.
static void extend_u(float *t, int n, int extend) {
    switch (extend) {
    case 0:
        #pragma omp simd
        // The stop rule pads by itself (u beyond the last offset takes the
        // last stop's colour, even when stops coincide at 1); the clamp only
        // keeps the lanes' arithmetic finite.
        for (int j = 0; j < n; j++)
            t[j] = t[j] < RASTER_GRADIENT_PAD_LOW ? RASTER_GRADIENT_PAD_LOW
                 : (t[j] > RASTER_GRADIENT_PAD_HIGH ? RASTER_GRADIENT_PAD_HIGH : t[j]);
        break;
    case 1:
        #pragma omp simd
        for (int j = 0; j < n; j++) t[j] = t[j] - floorf(t[j]);
        break;
    default:
        #pragma omp simd
        for (int j = 0; j < n; j++) {
            float m = t[j] - 2.0f * floorf(t[j] * 0.5f);
            t[j] = m > 1.0f ? 2.0f - m : m;
        }
    }
}

/// The parameters of one gradient call, shared by its rows.
typedef struct {
    int width, shape, intervals, extend, spans;
    const double *geometry;
    const float *starts, *slopes, *biases;
    /// Per interval: whether its colour is constant, and that colour packed.
    const int *flat;
    const uint32_t *packed;
    /// Radial calls drawn as runs: the frame's folds.
    const raster_gradient_fold_table *folds;
} gradient_call;

#if defined(__AVX2__)
/// raster_pack8_ints on intrinsics' vectors.
static inline __m256i pack_planar(__m256i r, __m256i g, __m256i b, __m256i a) {
    return (__m256i)raster_pack8_ints((raster_i8)r, (raster_i8)g, (raster_i8)b, (raster_i8)a);
}
#endif

/// Pixels x0..<x1 of a linear run from its fixed-point colours
/// (raster_gradient_run_steps): four vector adds and raster_pack16_steps
/// per 16 pixels, then raster_pack8_steps per 8 near the row's end. While
/// a whole vector fits in the row it is stored whole; pixels past x1
/// belong to later runs of the row, which are drawn after this one and
/// overwrite them. The adds are unsigned: past x1 a steep run's values may
/// leave int32, and they wrap (those pixels are overwritten).
static void step_run(uint32_t *row, int x, int x1, int width, const int32_t v0[4], const int32_t dv[4]) {
    const int xs = x;
    const raster_u16 d = { (uint32_t)dv[0], (uint32_t)dv[1], (uint32_t)dv[2], (uint32_t)dv[3],
                           (uint32_t)dv[0], (uint32_t)dv[1], (uint32_t)dv[2], (uint32_t)dv[3],
                           (uint32_t)dv[0], (uint32_t)dv[1], (uint32_t)dv[2], (uint32_t)dv[3],
                           (uint32_t)dv[0], (uint32_t)dv[1], (uint32_t)dv[2], (uint32_t)dv[3] };
    const raster_u16 start = { (uint32_t)v0[0], (uint32_t)v0[1], (uint32_t)v0[2], (uint32_t)v0[3],
                               (uint32_t)v0[0], (uint32_t)v0[1], (uint32_t)v0[2], (uint32_t)v0[3],
                               (uint32_t)v0[0], (uint32_t)v0[1], (uint32_t)v0[2], (uint32_t)v0[3],
                               (uint32_t)v0[0], (uint32_t)v0[1], (uint32_t)v0[2], (uint32_t)v0[3] };
    // Vector k holds pixel x + k + 4q in its quarter q (raster_pack16_steps).
    const raster_u16 quarter = { 0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12 };
    raster_u16 p0 = start + quarter * d, p1 = p0 + d, p2 = p1 + d, p3 = p2 + d;
    const raster_u16 d16 = d << 4;
    for (; x < x1 && x + 16 <= width; x += 16) {
        const raster_u16 words = raster_pack16_steps((raster_i16)p0, (raster_i16)p1, (raster_i16)p2, (raster_i16)p3);
        memcpy(row + x, &words, sizeof words);
        p0 += d16; p1 += d16; p2 += d16; p3 += d16;
    }
    // At most one 8-pixel vector is left before the row's end: the low
    // halves hold pixels x..x+7.
    if (x < x1 && x + 8 <= width) {
        const raster_u8 words = raster_pack8_steps((raster_i8)p0.lo, (raster_i8)p1.lo, (raster_i8)p2.lo, (raster_i8)p3.lo);
        memcpy(row + x, &words, sizeof words);
        x += 8;
    }
    for (; x < x1; x++) {
        uint32_t px = 0;
        for (int ch = 0; ch < 4; ch++) {
            // Unsigned: the wrap-around of the vector adds, without overflow.
            const int32_t v = (int32_t)((uint32_t)v0[ch] + (uint32_t)(x - xs) * (uint32_t)dv[ch]) >> RASTER_GRADIENT_STEP_BITS;
            px |= (uint32_t)(v < 0 ? 0 : (v > 255 ? 255 : v)) << (8 * ch);
        }
        row[x] = px;
    }
}

/// Pixels x0..<x1 of a radial run: t = sqrt((x - cx)^2 + dy2) * inv_r
/// mapped by the run's period (one multiply-add), then the affine colour.
/// t is clamped to the run's interval [lo, hi] (the classification put it
/// there; the clamp only absorbs Float's rounding), so each colour lies
/// between the interval's two stop colours and converts without overflow;
/// the half of round-half-up is folded into the bias and truncation is the
/// floor of the non-negative result.
static void radial_run_clamped(const raster_gradient_row *r, const raster_gradient_span *s, const float *sl,
                               const float *bi, uint32_t *row, int x, int x1, int width) {
    const float sign = s->sign, period = s->period, offset = s->offset;
    const float cx = r->cx, dy2 = r->dy2, inv_r = r->inv_r;
#if defined(__AVX2__) && defined(__FMA__)
    const float a = sign * inv_r, b = offset - sign * period;
    const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b), vdy2 = _mm256_set1_ps(dy2);
    const __m256 lo = _mm256_set1_ps(r->starts[s->interval]), hi = _mm256_set1_ps(r->starts[s->interval + 1]);
    const __m256 vcx = _mm256_set1_ps(cx), eight = _mm256_set1_ps(8.0f);
    const __m256 sr = _mm256_set1_ps(sl[0]), sg = _mm256_set1_ps(sl[1]), sb = _mm256_set1_ps(sl[2]), sa = _mm256_set1_ps(sl[3]);
    const __m256 br = _mm256_set1_ps(bi[0] + 0.5f), bg = _mm256_set1_ps(bi[1] + 0.5f);
    const __m256 bb = _mm256_set1_ps(bi[2] + 0.5f), ba = _mm256_set1_ps(bi[3] + 0.5f);
    __m256 xf = _mm256_add_ps(_mm256_set1_ps((float)x), _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7));
    for (; x < x1 && x + 8 <= width; x += 8) {
        const __m256 dx = _mm256_sub_ps(xf, vcx);
        __m256 t = _mm256_fmadd_ps(_mm256_sqrt_ps(_mm256_fmadd_ps(dx, dx, vdy2)), va, vb);
        t = _mm256_min_ps(_mm256_max_ps(t, lo), hi);
        const __m256i ir = _mm256_cvttps_epi32(_mm256_fmadd_ps(t, sr, br));
        const __m256i ig = _mm256_cvttps_epi32(_mm256_fmadd_ps(t, sg, bg));
        const __m256i ib = _mm256_cvttps_epi32(_mm256_fmadd_ps(t, sb, bb));
        const __m256i ia = _mm256_cvttps_epi32(_mm256_fmadd_ps(t, sa, ba));
        _mm256_storeu_si256((__m256i *)(row + x), pack_planar(ir, ig, ib, ia));
        xf = _mm256_add_ps(xf, eight);
    }
#endif
    for (; x < x1; x++) {
        const float dx = (float)x - cx;
        const float t = sign * (sqrtf(dx * dx + dy2) * inv_r - period) + offset;
        row[x] = raster_pack(t * sl[0] + bi[0], t * sl[1] + bi[1], t * sl[2] + bi[2], t * sl[3] + bi[3]);
    }
}

/// The folded run's pixels x0..<x1 (raster_radial_lanes.h), sixteen at a
/// time while they fit in the row, then at most one vector of eight, then
/// the row's last pixels (fewer than eight) from one more vector: one
/// bound per loop, min(run end, row end - vector + 1), not two (a compare
/// and branch fewer per vector). Vectors stored past x1 belong to later
/// runs, which overwrite them.
static inline __attribute__((always_inline)) void radial_folded_loop(const raster_gradient_row *r, const float k[4],
                                                                    const float c[4], uint32_t *row, int x, int x1,
                                                                    int width, int flat_alpha) {
    const float cx = r->cx, dy2 = r->dy2;
    const raster_radial_f4 kv = { k[0], k[1], k[2], k[3] }, cv = { c[0], c[1], c[2], c[3] };
    raster_f16 xf = (float)x + (raster_f16){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    const int end16 = x1 < width - 15 ? x1 : width - 15;
    for (; x < end16; x += 16) {
        const raster_u16 w = raster_radial_folded16(xf, cx, dy2, kv, cv, flat_alpha);
        memcpy(row + x, &w, sizeof w);
        xf += 16.0f;
    }
    raster_f8 xf8 = __builtin_shufflevector(xf, xf, 0, 1, 2, 3, 4, 5, 6, 7);
    if (x < x1 && x < width - 7) {
        const raster_u8 w = raster_radial_folded8(xf8, cx, dy2, kv, cv, flat_alpha);
        memcpy(row + x, &w, sizeof w);
        xf8 += 8.0f;
        x += 8;
    }
    if (x < x1) {
        const raster_u8 w = raster_radial_folded8(xf8, cx, dy2, kv, cv, flat_alpha);
        memcpy(row + x, &w, sizeof(uint32_t) * (size_t)(x1 - x));
    }
}

/// A radial run whose colours need no clamp (raster_gradient_radial_fold):
/// one multiply-add per channel from d = sqrt((x - cx)^2 + dy2), truncated
/// (the half is in c). Whole vectors stored past the run's end (later runs
/// overwrite them) may hold any value: the saturating packs keep every
/// conversion defined. The square root is the instruction, not a
/// reciprocal-root estimate and a Newton step: this loop is bound by its
/// instruction count, not by the root's throughput: the estimate's extra
/// instructions made it slower on an AVX2 Zen 3 host, and on a Zen 4 one
/// (`radial_loop_floor est` in Results/studies/gradients).
static void radial_run_folded(const raster_gradient_row *r, const float k[4], const float c[4],
                              uint32_t *row, int x, int x1, int width) {
    // The alpha channel's instructions are a ninth of the loop's.
    if (k[3] == 0.0f) radial_folded_loop(r, k, c, row, x, x1, width, 1);
    else radial_folded_loop(r, k, c, row, x, x1, width, 0);
}

static void radial_run(const raster_gradient_fold_table *folds, const raster_gradient_row *r,
                       const raster_gradient_span *s, const float *sl, const float *bi, uint32_t *row, int x, int x1,
                       int width) {
    const float *k, *c;
    int folded = raster_gradient_fold_lookup(folds, s, &k, &c);
    float own_k[4], own_c[4];
    if (folded < 0) {
        folded = raster_gradient_radial_fold(r, s, sl, bi, own_k, own_c);
        k = own_k;
        c = own_c;
    }
    if (folded) radial_run_folded(r, k, c, row, x, x1, width);
    else radial_run_clamped(r, s, sl, bi, row, x, x1, width);
}

/// One run: a fill when its interval is constant, else the affine colour of
/// t = sign * (u - period) + offset, u as raster_gradient_u computes it.
static void emit_run(const gradient_call *g, const raster_gradient_row *r, const raster_gradient_span *s,
                     uint32_t *row, int x0, int x1) {
    if (g->flat[s->interval]) {
        const uint32_t c = g->packed[s->interval];
        #pragma omp simd
        for (int x = x0; x < x1; x++) row[x] = c;
        return;
    }
    const float *sl = g->slopes + 4 * s->interval, *bi = g->biases + 4 * s->interval;
    if (r->shape != 0) {
        radial_run(g->folds, r, s, sl, bi, row, x0, x1, g->width);
        return;
    }
    int32_t v0[4], dv[4];
    for (int x = x0, end; x < x1; x = end) {
        end = raster_gradient_run_steps(r, s, sl, bi, x, x1, v0, dv);
        if (end > x) {
            step_run(row, x, end, g->width, v0, dv);
            continue;
        }
        // Colours far outside [0, 255]: per pixel, clamped.
        const float sign = s->sign, period = s->period, offset = s->offset, ux = r->ux, u0 = r->u0;
        for (end = x1; x < end; x++) {
            const float t = sign * (((float)x * ux + u0) - period) + offset;
            row[x] = raster_pack(t * sl[0] + bi[0], t * sl[1] + bi[1], t * sl[2] + bi[2], t * sl[3] + bi[3]);
        }
    }
}

/// Pixels [x, x1) as runs; runs may store whole vectors past x1 (see step_run).
static void emit_runs(const gradient_call *g, raster_gradient_row *r, uint32_t *row, int x, int x1) {
    raster_gradient_span s;
    while (x < x1) {
        int end = raster_gradient_next_span(r, x, &s);
        if (end > x1) end = x1;
        emit_run(g, r, &s, row, x, end);
        x = end;
    }
}

static void gradient_row_spans(const gradient_call *g, uint32_t *row, int y) {
    raster_gradient_row r;
    raster_gradient_row_init(&r, g->shape, g->extend, g->starts, g->intervals, g->width, g->geometry, y);
    raster_gradient_row_use_ladder(&r, g->folds);
    const int m = raster_gradient_mirror_axis(&r);
    if (m < 0) {
        emit_runs(g, &r, row, 0, g->width);
        return;
    }
    // Left of the centre, the pixels whose mirror is in the row are copies
    // (drawn last, over any whole vector stored past a run's end).
    const int lo = m - g->width + 1 > 0 ? m - g->width + 1 : 0;
    emit_runs(g, &r, row, 0, lo);
    emit_runs(g, &r, row, r.mid, g->width);
    int x = lo;
#if defined(__AVX2__)
    const __m256i reverse = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    for (; x + 8 <= r.mid; x += 8)
        _mm256_storeu_si256((__m256i *)(row + x),
                            _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(row + m - x - 7)), reverse));
#endif
    for (; x < r.mid; x++) row[x] = row[m - x];
}

static void gradient_row(const gradient_call *g, uint32_t *row, int y) {
    float t[CHUNK], c[4][CHUNK];
    for (int x0 = 0; x0 < g->width; x0 += CHUNK) {
        const int n = g->width - x0 < CHUNK ? g->width - x0 : CHUNK;
        if (g->shape == 0) {
            const float ux = (float)g->geometry[0];
            const float u0 = (float)(g->geometry[2] + (double)y * g->geometry[1]);
            #pragma omp simd
            for (int j = 0; j < CHUNK; j++) t[j] = (float)(x0 + j) * ux + u0;
        } else {
            const float cx = (float)g->geometry[0], inv_r = (float)g->geometry[2];
            const float dy = (float)((double)y - g->geometry[1]), dy2 = dy * dy;
            #pragma omp simd
            for (int j = 0; j < CHUNK; j++) {
                float dx = (float)(x0 + j) - cx;
                t[j] = sqrtf(dx * dx + dy2) * inv_r;
            }
        }
        extend_u(t, CHUNK, g->extend);
        for (int ch = 0; ch < 4; ch++) {
            #pragma omp simd
            for (int j = 0; j < CHUNK; j++) c[ch][j] = g->biases[ch];
        }
        // Later intervals override earlier ones where t has reached them.
        for (int k = 1; k < g->intervals; k++) {
            const float start = g->starts[k];
            for (int ch = 0; ch < 4; ch++) {
                const float slope = g->slopes[4 * k + ch], bias = g->biases[4 * k + ch];
                #pragma omp simd
                for (int j = 0; j < CHUNK; j++) c[ch][j] = t[j] >= start ? t[j] * slope + bias : c[ch][j];
            }
        }
        #pragma omp simd
        for (int j = 0; j < n; j++) row[x0 + j] = raster_pack(c[0][j], c[1][j], c[2][j], c[3][j]);
    }
}

/// Item i of the frame's row plan: its row, then the row's mirror copy.
static void gradient_item(const gradient_call *g, raster_gradient_row_plan plan, uint8_t *dst, ptrdiff_t stride, int i) {
    const int y = raster_gradient_plan_row(plan, i);
    uint32_t *row = (uint32_t *)(dst + (ptrdiff_t)y * stride);
    if (g->spans) gradient_row_spans(g, row, y);
    else gradient_row(g, row, y);
    raster_gradient_plan_copy(plan, dst, stride, g->width, y);
}

void raster_omp_gradient(uint8_t *dst, int width, int height, ptrdiff_t stride, int shape,
                         const double geometry[3], const float *starts, const float *slopes,
                         const float *biases, int intervals, int extend, int threads) {
    int flat[RASTER_GRADIENT_MAX_INTERVALS];
    uint32_t packed[RASTER_GRADIENT_MAX_INTERVALS];
    for (int k = 0; k < intervals; k++) {
        const float *sl = slopes + 4 * k, *bi = biases + 4 * k;
        flat[k] = sl[0] == 0.0f && sl[1] == 0.0f && sl[2] == 0.0f && sl[3] == 0.0f;
        packed[k] = raster_pack(bi[0], bi[1], bi[2], bi[3]);
    }
    const double u_per_pixel = shape == 0 ? fabs(geometry[0]) : geometry[2];
    const int spans = raster_gradient_prefers_spans(width, u_per_pixel, intervals, extend, shape);
    raster_gradient_fold_table folds;
    if (shape != 0 && spans)
        raster_gradient_fold_table_init(&folds, extend, starts, slopes, biases, intervals, width, height, geometry);
    const gradient_call g = { width, shape, intervals, extend, spans, geometry, starts, slopes, biases, flat, packed,
                              shape != 0 && spans ? &folds : NULL };
    const raster_gradient_row_plan plan = raster_gradient_plan_rows(shape, height, geometry);
    RASTER_PARALLEL_ROWS(plan.items, threads, i, gradient_item(&g, plan, dst, stride, i));
}
