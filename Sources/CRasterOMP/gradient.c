#include "raster_omp.h"
#include "pixel.h"

static inline float extend_u(float u, int extend) {
    switch (extend) {
    case 0: return u < 0.0f ? 0.0f : (u > 1.0f ? 1.0f : u);
    case 1: return u - floorf(u);
    default: {
        float m = u - 2.0f * floorf(u * 0.5f);
        return m > 1.0f ? 2.0f - m : m;
    }
    }
}

void raster_omp_gradient(uint8_t *dst, int width, int height, ptrdiff_t stride, int shape,
                         const double geometry[3], const float *starts, const float *slopes,
                         const float *biases, int intervals, int extend, int threads) {
    #pragma omp parallel for schedule(static) num_threads(raster_team(threads, height))
    for (int y = 0; y < height; y++) {
        uint32_t *row = (uint32_t *)(dst + (ptrdiff_t)y * stride);
        const float ux = (float)geometry[0];
        const float u0 = (float)(geometry[2] + (double)y * geometry[1]);
        const float dy = (float)((double)y - geometry[1]);
        const float cx = (float)geometry[0], inv_r = (float)geometry[2];
        #pragma omp simd
        for (int x = 0; x < width; x++) {
            float u;
            if (shape == 0) {
                u = (float)x * ux + u0;
            } else {
                float dx = (float)x - cx;
                u = sqrtf(dx * dx + dy * dy) * inv_r;
            }
            float t = extend_u(u, extend);
            float c[4] = { biases[0], biases[1], biases[2], biases[3] };
            for (int k = 1; k < intervals; k++) {
                if (t >= starts[k]) {
                    for (int ch = 0; ch < 4; ch++) c[ch] = t * slopes[4 * k + ch] + biases[4 * k + ch];
                }
            }
            row[x] = raster_pack(c[0], c[1], c[2], c[3]);
        }
    }
}
