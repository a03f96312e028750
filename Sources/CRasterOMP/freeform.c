#include "raster_omp.h"
#include "pixel.h"
#include <string.h>

/// Pixels per chunk: the accumulators of one chunk stay in L1 while the loop
/// over points streams through them, and each inner loop is long enough to
/// vectorise with no remainder except at the row's end.
#define CHUNK 64

/// m^e for the chunk's squared distances, one loop per way of computing it
/// so that each loop is branch-free and vectorises.
static void weights(const raster_omp_freeform *g, const float *d2, float *f) {
    const float inv = g->inv_influence;
    if (g->table) {
        const float scale = inv * inv * (float)g->table_intervals, last = (float)g->table_intervals;
        const float *table = g->table;
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            float pos = d2[j] * scale;
            pos = pos < last ? pos : last; // table[intervals] == 0, table[intervals + 1] == 0
            int k = (int)pos;
            f[j] = table[k] + (pos - (float)k) * (table[k + 1] - table[k]);
        }
        return;
    }
    #pragma omp simd
    for (int j = 0; j < CHUNK; j++) {
        float m = 1.0f - sqrtf(d2[j]) * inv;
        f[j] = m > 0.0f ? m : 0.0f;
    }
    const int e = g->whole_exponent;
    if (e == 4) {
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) { float m2 = f[j] * f[j]; f[j] = m2 * m2; }
    } else if (e > 0) {
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            float m = f[j], p = m;
            for (int k = 1; k < e; k++) p *= m;
            f[j] = p;
        }
    } else {
        const float ex = g->exponent;
        for (int j = 0; j < CHUNK; j++) f[j] = powf(f[j], ex);
    }
}

/// Evaluates `n` (<= CHUNK) pixels of row y starting at x0 into out[4][CHUNK].
static void chunk(const raster_omp_freeform *g, int x0, int y, int n, float out[4][CHUNK]) {
    float sum[CHUNK], acc[4][CHUNK], d2[CHUNK], f[CHUNK];
    memset(sum, 0, sizeof sum);
    memset(acc, 0, sizeof acc);
    const float qy = (float)y + 0.5f;
    for (int i = 0; i < g->count; i++) {
        const float px = g->px[i], dy = qy - g->py[i];
        const float *c = g->colors + 4 * i;
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            float dx = (float)(x0 + j) + 0.5f - px;
            d2[j] = dx * dx + dy * dy;
        }
        weights(g, d2, f);
        #pragma omp simd
        for (int j = 0; j < CHUNK; j++) {
            sum[j] += f[j];
            acc[0][j] += f[j] * c[0];
            acc[1][j] += f[j] * c[1];
            acc[2][j] += f[j] * c[2];
            acc[3][j] += f[j] * c[3];
        }
    }
    int empty = 0;
    #pragma omp simd reduction(|:empty)
    for (int j = 0; j < CHUNK; j++) {
        float inv = 1.0f / (sum[j] > 0.0f ? sum[j] : 1.0f);
        empty |= sum[j] <= 0.0f;
        for (int ch = 0; ch < 4; ch++) out[ch][j] = acc[ch][j] * inv;
    }
    if (!empty) return;
    for (int j = 0; j < n; j++) {
        if (sum[j] > 0.0f) continue;
        // No point within L: the nearest point's colour, lowest index on ties.
        float qx = (float)(x0 + j) + 0.5f, best = INFINITY;
        int nearest = 0;
        for (int i = 0; i < g->count; i++) {
            float dx = qx - g->px[i], dy = qy - g->py[i], dd = dx * dx + dy * dy;
            if (dd < best) { best = dd; nearest = i; }
        }
        for (int ch = 0; ch < 4; ch++) out[ch][j] = g->colors[4 * nearest + ch];
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
