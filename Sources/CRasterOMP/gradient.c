#include "raster_omp.h"
#include "pixel.h"

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
    int width, shape, intervals, extend;
    const double *geometry;
    const float *starts, *slopes, *biases;
} gradient_call;

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
            const float dy = (float)((double)y - g->geometry[1]);
            #pragma omp simd
            for (int j = 0; j < CHUNK; j++) {
                float dx = (float)(x0 + j) - cx;
                t[j] = sqrtf(dx * dx + dy * dy) * inv_r;
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

void raster_omp_gradient(uint8_t *dst, int width, int height, ptrdiff_t stride, int shape,
                         const double geometry[3], const float *starts, const float *slopes,
                         const float *biases, int intervals, int extend, int threads) {
    const gradient_call g = { width, shape, intervals, extend, geometry, starts, slopes, biases };
    RASTER_PARALLEL_ROWS(height, threads, y, gradient_row(&g, (uint32_t *)(dst + (ptrdiff_t)y * stride), y));
}
