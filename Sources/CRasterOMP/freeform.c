#include "raster_omp.h"
#include "pixel.h"
#include <string.h>

/// Pixels per chunk: the accumulators of one chunk stay in registers/L1 while
/// the loop over points streams through them.
#define CHUNK 64

static inline float weight(const raster_omp_freeform *g, float d2) {
    if (g->table) {
        float t = d2 * g->inv_influence * g->inv_influence;
        if (t >= 1.0f) return 0.0f;
        float pos = t * (float)g->table_intervals;
        int k = (int)pos;
        return g->table[k] + (pos - (float)k) * (g->table[k + 1] - g->table[k]);
    }
    float m = 1.0f - sqrtf(d2) * g->inv_influence;
    m = m > 0.0f ? m : 0.0f;
    switch (g->whole_exponent) {
    case 1: return m;
    case 2: return m * m;
    case 3: return m * m * m;
    case 4: { float m2 = m * m; return m2 * m2; }
    case 0: return powf(m, g->exponent);
    default: {
        float f = m;
        for (int k = 1; k < g->whole_exponent; k++) f *= m;
        return f;
    }
    }
}

/// Evaluates `n` (<= CHUNK) pixels of row y starting at x0 into out[4][CHUNK].
static void chunk(const raster_omp_freeform *g, int x0, int y, int n, float out[4][CHUNK]) {
    float sum[CHUNK], acc[4][CHUNK];
    memset(sum, 0, sizeof sum);
    memset(acc, 0, sizeof acc);
    const float qy = (float)y + 0.5f;
    for (int i = 0; i < g->count; i++) {
        const float px = g->px[i], dy = qy - g->py[i];
        const float *c = g->colors + 4 * i;
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            float dx = (float)(x0 + j) + 0.5f - px;
            float f = weight(g, dx * dx + dy * dy);
            sum[j] += f;
            acc[0][j] += f * c[0];
            acc[1][j] += f * c[1];
            acc[2][j] += f * c[2];
            acc[3][j] += f * c[3];
        }
    }
    for (int j = 0; j < n; j++) {
        if (sum[j] > 0.0f) {
            float inv = 1.0f / sum[j];
            for (int ch = 0; ch < 4; ch++) out[ch][j] = acc[ch][j] * inv;
        } else {
            // No point within L: the nearest point's colour, lowest index on ties.
            float qx = (float)(x0 + j) + 0.5f, best = INFINITY;
            int nearest = 0;
            for (int i = 0; i < g->count; i++) {
                float dx = qx - g->px[i], dy = qy - g->py[i], d2 = dx * dx + dy * dy;
                if (d2 < best) { best = d2; nearest = i; }
            }
            for (int ch = 0; ch < 4; ch++) out[ch][j] = g->colors[4 * nearest + ch];
        }
    }
}

void raster_omp_freeform_rgba8(const raster_omp_freeform *g, uint8_t *dst, int width, int height,
                               ptrdiff_t stride, int threads) {
    #pragma omp parallel for schedule(static) num_threads(raster_team(threads, height))
    for (int y = 0; y < height; y++) {
        uint32_t *row = (uint32_t *)(dst + (ptrdiff_t)y * stride);
        float out[4][CHUNK];
        for (int x0 = 0; x0 < width; x0 += CHUNK) {
            int n = width - x0 < CHUNK ? width - x0 : CHUNK;
            chunk(g, x0, y, n, out);
            #pragma omp simd
            for (int j = 0; j < n; j++) row[x0 + j] = raster_pack(out[0][j], out[1][j], out[2][j], out[3][j]);
        }
    }
}

void raster_omp_freeform_planes(const raster_omp_freeform *g, float *planes, int width, int height,
                                int threads) {
    const ptrdiff_t plane = (ptrdiff_t)width * height;
    #pragma omp parallel for schedule(static) num_threads(raster_team(threads, height))
    for (int y = 0; y < height; y++) {
        float out[4][CHUNK];
        for (int x0 = 0; x0 < width; x0 += CHUNK) {
            int n = width - x0 < CHUNK ? width - x0 : CHUNK;
            chunk(g, x0, y, n, out);
            for (int ch = 0; ch < 4; ch++)
                memcpy(planes + ch * plane + (ptrdiff_t)y * width + x0, out[ch], sizeof(float) * n);
        }
    }
}

void raster_omp_upsample(const float *planes, int sw, int sh, float *stretched, int scale,
                         uint8_t *dst, int width, int height, ptrdiff_t stride, int threads) {
    // Horizontal stretch once per source row, then each output row is a
    // contiguous vertical blend of two stretched rows.
    #pragma omp parallel num_threads(raster_team(threads, height))
    {
        #pragma omp for schedule(static)
        for (int y = 0; y < sh; y++) {
            for (int ch = 0; ch < 4; ch++) {
                const float *src = planes + ((ptrdiff_t)ch * sh + y) * sw;
                float *out = stretched + ((ptrdiff_t)ch * sh + y) * width;
                for (int x = 0; x < width; x++) {
                    int x0; float fx;
                    raster_tap(x, scale, sw, &x0, &fx);
                    int x1 = x0 + 1 < sw ? x0 + 1 : sw - 1;
                    out[x] = src[x0] + (src[x1] - src[x0]) * fx;
                }
            }
        }
        #pragma omp for schedule(static)
        for (int y = 0; y < height; y++) {
            int y0; float fy;
            raster_tap(y, scale, sh, &y0, &fy);
            int y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
            const ptrdiff_t plane = (ptrdiff_t)sh * width;
            const float *t = stretched + (ptrdiff_t)y0 * width, *b = stretched + (ptrdiff_t)y1 * width;
            uint32_t *row = (uint32_t *)(dst + (ptrdiff_t)y * stride);
            #pragma omp simd
            for (int x = 0; x < width; x++) {
                float c[4];
                for (int ch = 0; ch < 4; ch++) {
                    float top = t[ch * plane + x], bottom = b[ch * plane + x];
                    c[ch] = top + (bottom - top) * fy;
                }
                row[x] = raster_pack(c[0], c[1], c[2], c[3]);
            }
        }
    }
}
