#include "raster_omp.h"
#include "pixel.h"

/// Stretches source row y to the target width: interleaved RGBA floats.
static void stretch_rgba_row(const uint8_t *src, int sw, ptrdiff_t src_stride, float *stretched,
                             const int32_t *tap_index, const float *tap_weight, int width, int y) {
    const uint8_t *row = src + (ptrdiff_t)y * src_stride;
    float *out = stretched + (ptrdiff_t)y * width * 4;
    #pragma omp simd
    for (int x = 0; x < width; x++) {
        const int i = tap_index[x];
        const int j = i + 1 < sw ? i + 1 : i; // the last column's right tap has weight 0
        const float w = tap_weight[x];
        for (int ch = 0; ch < 4; ch++) {
            const float a = (float)row[4 * i + ch], b = (float)row[4 * j + ch];
            out[4 * x + ch] = a + (b - a) * w;
        }
    }
}

/// Output row y: a vertical blend of two stretched rows, rounded.
static void blend_rgba_row(const float *stretched, int sh, const int32_t *row_index, const float *row_weight,
                           uint8_t *dst, int width, ptrdiff_t stride, int y) {
    const int y0 = row_index[y], y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
    const float fy = row_weight[y];
    const float *t = stretched + (ptrdiff_t)y0 * width * 4, *b = stretched + (ptrdiff_t)y1 * width * 4;
    uint8_t *row = dst + (ptrdiff_t)y * stride;
    #pragma omp simd
    for (int k = 0; k < 4 * width; k++) row[k] = (uint8_t)raster_quantize(t[k] + (b[k] - t[k]) * fy);
}

void raster_omp_resample(const uint8_t *src, int sw, int sh, ptrdiff_t src_stride, float *stretched,
                         const uint8_t *row_used, const int32_t *tap_index, const float *tap_weight,
                         const int32_t *row_index, const float *row_weight,
                         uint8_t *dst, int width, int height, ptrdiff_t stride, int threads) {
    // Up-sampling (the common case: a frame rendered at a reduced scale)
    // stretches each source row once, not once per output row that reads it.
    RASTER_PARALLEL_ROWS(sh, threads, y,
                         if (row_used[y]) stretch_rgba_row(src, sw, src_stride, stretched, tap_index, tap_weight, width, y));
    RASTER_PARALLEL_ROWS(height, threads, y, blend_rgba_row(stretched, sh, row_index, row_weight, dst, width, stride, y));
}
