#include <string.h>

#include "raster_omp.h"
#include "pixel.h"
#include "raster_pack8.h"

typedef struct {
    const uint8_t *src;
    int sw;
    ptrdiff_t src_stride;
    const int32_t *tap_index;
    const float *tap_weight;
    int width;
    /// raster_taps8_all_near of the taps (any up-sampling axis).
    int near;
} rgba_stretch;

/// Pixels x0 ... x0 + 7 of the stretched row, their 32 channels in order:
/// the words by raster_words8_near (the block's right taps all inside the
/// row, so none is clamped), each word's bytes to floats in place, and each
/// pixel's weight spread over its four channels.
static inline void stretch_rgba_block(const uint8_t *row, const int32_t *tap_index, const float *tap_weight, int x0,
                                      float *out) {
    typedef uint8_t bytes8 __attribute__((ext_vector_type(8)));
    raster_i8 index;
    raster_f8 weight;
    memcpy(&index, tap_index + x0, sizeof index);
    memcpy(&weight, tap_weight + x0, sizeof weight);
    const int first = tap_index[x0];
    const raster_u8 left = raster_words8_near((const uint32_t *)row, first, index);
    const raster_u8 right = raster_words8_near((const uint32_t *)row + 1, first, index);
    bytes8 l[4], r[4];
    memcpy(l, &left, sizeof l);
    memcpy(r, &right, sizeof r);
    const raster_f8 w[4] = {
        __builtin_shufflevector(weight, weight, 0, 0, 0, 0, 1, 1, 1, 1),
        __builtin_shufflevector(weight, weight, 2, 2, 2, 2, 3, 3, 3, 3),
        __builtin_shufflevector(weight, weight, 4, 4, 4, 4, 5, 5, 5, 5),
        __builtin_shufflevector(weight, weight, 6, 6, 6, 6, 7, 7, 7, 7),
    };
    for (int q = 0; q < 4; q++) {
        const raster_f8 a = __builtin_convertvector(l[q], raster_f8), b = __builtin_convertvector(r[q], raster_f8);
        const raster_f8 v = a + (b - a) * w[q];
        memcpy(out + 4 * x0 + 8 * q, &v, sizeof v);
    }
}

/// Stretches source row y to the target width: interleaved RGBA floats.
static void stretch_rgba_row(const void *ctx, int y, float *out) {
    const rgba_stretch *s = ctx;
    const uint8_t *row = s->src + (ptrdiff_t)y * s->src_stride;
    const int32_t *tap_index = s->tap_index;
    const float *tap_weight = s->tap_weight;
    const int sw = s->sw;
    int x0 = 0;
    if (s->near)
        for (; x0 + 8 <= s->width && tap_index[x0] + 8 < sw; x0 += 8) stretch_rgba_block(row, tap_index, tap_weight, x0, out);
    // Each source pixel is read as one word (a byte at a time, the vector
    // loop gathered bytes: four times the loads).
    #pragma omp simd
    for (int x = x0; x < s->width; x++) {
        const int i = tap_index[x];
        const int j = i + 1 < sw ? i + 1 : i; // the last column's right tap has weight 0
        const float w = tap_weight[x];
        uint32_t left, right;
        memcpy(&left, row + 4 * i, 4);
        memcpy(&right, row + 4 * j, 4);
        for (int ch = 0; ch < 4; ch++) {
            const float a = (float)(left >> 8 * ch & 255u), b = (float)(right >> 8 * ch & 255u);
            out[4 * x + ch] = a + (b - a) * w;
        }
    }
}

typedef struct {
    rgba_stretch stretch;
    int sh;
    float *rows;
    const int32_t *row_index;
    const float *row_weight;
    uint8_t *dst;
    ptrdiff_t stride;
} resample_ctx;

/// Output rows [lo, hi): each a vertical blend of two stretched rows, rounded.
static void resample_band(const resample_ctx *c, int t, int lo, int hi) {
    const int width = c->stretch.width;
    raster_row_pair pair = raster_row_pair_make(c->rows + (ptrdiff_t)8 * width * t, (ptrdiff_t)4 * width);
    for (int y = lo; y < hi; y++) {
        const int y0 = c->row_index[y], y1 = y0 + 1 < c->sh ? y0 + 1 : c->sh - 1;
        const float *top = raster_row_pair_get(&pair, y0, y1, stretch_rgba_row, &c->stretch);
        const float *bottom = raster_row_pair_get(&pair, y1, y0, stretch_rgba_row, &c->stretch);
        const float fy = c->row_weight[y];
        uint8_t *row = c->dst + (ptrdiff_t)y * c->stride;
        #pragma omp simd
        for (int k = 0; k < 4 * width; k++) row[k] = (uint8_t)raster_quantize(top[k] + (bottom[k] - top[k]) * fy);
    }
}

void raster_omp_resample(const uint8_t *src, int sw, int sh, ptrdiff_t src_stride, float *rows,
                         const int32_t *tap_index, const float *tap_weight,
                         const int32_t *row_index, const float *row_weight,
                         uint8_t *dst, int width, int height, ptrdiff_t stride, int threads) {
    const resample_ctx c = { { src, sw, src_stride, tap_index, tap_weight, width, raster_taps8_all_near(tap_index, width) },
                             sh, rows, row_index, row_weight, dst, stride };
    RASTER_PARALLEL_BANDS(height, threads, t, lo, hi, resample_band(&c, t, lo, hi));
}
