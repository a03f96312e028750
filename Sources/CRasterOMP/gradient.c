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
    int width, shape, intervals, extend, spans;
    const double *geometry;
    const float *starts, *slopes, *biases;
    /// Per interval: whether its colour is constant, and that colour packed.
    const int *flat;
    const uint32_t *packed;
} gradient_call;

/// One run: t = sign * (u - period) + offset, colour = t * slope + bias,
/// u computed exactly as raster_gradient_u computes it.
static void emit_run(const gradient_call *g, const raster_gradient_row *r, const raster_gradient_span *s,
                     uint32_t *row, int x0, int x1) {
    if (g->flat[s->interval]) {
        const uint32_t c = g->packed[s->interval];
        #pragma omp simd
        for (int x = x0; x < x1; x++) row[x] = c;
        return;
    }
    const float *sl = g->slopes + 4 * s->interval, *bi = g->biases + 4 * s->interval;
    const float sr = sl[0], sg = sl[1], sb = sl[2], sa = sl[3];
    const float br = bi[0], bg = bi[1], bb = bi[2], ba = bi[3];
    const float sign = s->sign, period = s->period, offset = s->offset;
    if (r->shape == 0) {
        const float ux = r->ux, u0 = r->u0;
        #pragma omp simd
        for (int x = x0; x < x1; x++) {
            const float t = sign * (((float)x * ux + u0) - period) + offset;
            row[x] = raster_pack(t * sr + br, t * sg + bg, t * sb + bb, t * sa + ba);
        }
    } else {
        const float cx = r->cx, dy2 = r->dy2, inv_r = r->inv_r;
        #pragma omp simd
        for (int x = x0; x < x1; x++) {
            const float dx = (float)x - cx;
            const float t = sign * (sqrtf(dx * dx + dy2) * inv_r - period) + offset;
            row[x] = raster_pack(t * sr + br, t * sg + bg, t * sb + bb, t * sa + ba);
        }
    }
}

static void gradient_row_spans(const gradient_call *g, uint32_t *row, int y) {
    const raster_gradient_row r = raster_gradient_row_at(g->shape, g->extend, g->starts, g->intervals, g->width, g->geometry, y);
    raster_gradient_span s;
    for (int x = 0; x < g->width;) {
        const int end = raster_gradient_next_span(&r, x, &s);
        emit_run(g, &r, &s, row, x, end);
        x = end;
    }
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
    const gradient_call g = { width, shape, intervals, extend, spans, geometry, starts, slopes, biases, flat, packed };
    if (g.spans)
        RASTER_PARALLEL_ROWS(height, threads, y, gradient_row_spans(&g, (uint32_t *)(dst + (ptrdiff_t)y * stride), y));
    else
        RASTER_PARALLEL_ROWS(height, threads, y, gradient_row(&g, (uint32_t *)(dst + (ptrdiff_t)y * stride), y));
}
