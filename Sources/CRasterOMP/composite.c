#include "raster_omp.h"
#include "pixel.h"

static void composite_row(const uint32_t *s, uint32_t *d, int width, float opacity) {
    #pragma omp simd
    for (int x = 0; x < width; x++) {
        uint32_t sp = s[x], dp = d[x];
        float a = (float)(sp >> 24) * opacity;
        float inv = 1.0f - a * (1.0f / 255.0f);
        float r = (float)(sp & 0xFF) * opacity + (float)(dp & 0xFF) * inv;
        float g = (float)(sp >> 8 & 0xFF) * opacity + (float)(dp >> 8 & 0xFF) * inv;
        float b = (float)(sp >> 16 & 0xFF) * opacity + (float)(dp >> 16 & 0xFF) * inv;
        float al = a + (float)(dp >> 24) * inv;
        d[x] = raster_pack(r, g, b, al);
    }
}

void raster_omp_composite(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst, ptrdiff_t dst_stride,
                          int width, int height, float opacity, int threads) {
    RASTER_PARALLEL_ROWS(height, threads, y,
        composite_row((const uint32_t *)(src + (ptrdiff_t)y * src_stride),
                      (uint32_t *)(dst + (ptrdiff_t)y * dst_stride), width, opacity));
}
