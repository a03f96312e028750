#include "raster_omp.h"
#include "pixel.h"

int raster_gradient_lut_size(const float *slopes, int intervals) {
    // The steepest channel sets the entry width: one entry may change a
    // channel by at most RASTER_GRADIENT_LUT_STEP, so a lookup is off by at
    // most half of that before rounding.
    float steepest = 0.0f;
    for (int k = 0; k < 4 * intervals; k++) {
        const float s = fabsf(slopes[k]);
        if (s > steepest) steepest = s;
    }
    int size = RASTER_GRADIENT_LUT_MIN;
    while (size < RASTER_GRADIENT_LUT_MAX && steepest > RASTER_GRADIENT_LUT_STEP * (float)size) size *= 2;
    return size;
}

void raster_gradient_lut_build(uint32_t *lut, int size, const float *starts, const float *slopes,
                               const float *biases, int intervals) {
    const float *first = biases, *last = biases + 4 * (intervals - 1);
    lut[0] = raster_pack(first[0], first[1], first[2], first[3]);
    lut[size + 1] = raster_pack(last[0], last[1], last[2], last[3]);
    int k = 0;
    for (int i = 0; i < size; i++) {
        const float t = ((float)i + 0.5f) / (float)size;
        // The stop rule: the last interval whose start is at or below t
        // (t rises with i, so the search only moves forward).
        while (k + 1 < intervals && t >= starts[k + 1]) k++;
        const float *sl = slopes + 4 * k, *bi = biases + 4 * k;
        lut[i + 1] = raster_pack(t * sl[0] + bi[0], t * sl[1] + bi[1], t * sl[2] + bi[2], t * sl[3] + bi[3]);
    }
}

typedef struct {
    int width, shape, size, extend;
    const double *geometry;
    const uint32_t *lut;
} lut_call;

/// Positions (entries, 32.32) of a row that fit are stepped by one add per
/// pixel; each loop has its extend rule fixed so it stays branch-free.
#define LUT_STEP_LOOP(EXTEND)                                                       \
    for (int x = 0; x < width; x++) {                                               \
        row[x] = lut[raster_gradient_lut_index(p >> 32, size, EXTEND)];             \
        p += step;                                                                  \
    }

static void lut_row_linear(const lut_call *g, uint32_t *row, int y) {
    const int width = g->width, size = g->size;
    const uint32_t *lut = g->lut;
    const double v0 = (g->geometry[2] + (double)y * g->geometry[1]) * (double)size;
    const double dv = g->geometry[0] * (double)size;
    const double v1 = v0 + dv * (double)(width - 1);
    if (fabs(v0) < 0x1p30 && fabs(v1) < 0x1p30) {
        int64_t p = llrint(v0 * 0x1p32);
        const int64_t step = llrint(dv * 0x1p32);
        switch (g->extend) {
        case 0: LUT_STEP_LOOP(0) break;
        case 1: LUT_STEP_LOOP(1) break;
        default: LUT_STEP_LOOP(2)
        }
        return;
    }
    // Far outside the gradient's span (tiny vectors): the position per pixel.
    for (int x = 0; x < width; x++)
        row[x] = lut[raster_gradient_lut_index(raster_gradient_lut_entry(v0 + (double)x * dv), size, g->extend)];
}

/// Radial entries are computed a chunk at a time on vector lanes, then read
/// from the table one by one: a loop doing both at once does not vectorise.
#define LUT_CHUNK 64
#define LUT_RADIAL_LOOP(EXTEND)                                                         \
    for (int x0 = 0; x0 < width; x0 += LUT_CHUNK) {                                     \
        const int n = width - x0 < LUT_CHUNK ? width - x0 : LUT_CHUNK;                  \
        int e[LUT_CHUNK];                                                               \
        _Pragma("omp simd")                                                             \
        for (int j = 0; j < LUT_CHUNK; j++) {                                           \
            const float dx = (float)(x0 + j) - cx;                                      \
            const float v = sqrtf(dx * dx + dy2) * k;                                   \
            e[j] = (int)(v < RASTER_GRADIENT_LUT_RADIAL_CAP ? v : RASTER_GRADIENT_LUT_RADIAL_CAP); \
        }                                                                               \
        for (int j = 0; j < n; j++) row[x0 + j] = lut[raster_gradient_lut_index(e[j], size, EXTEND)]; \
    }

static void lut_row_radial(const lut_call *g, uint32_t *row, int y) {
    const int width = g->width, size = g->size;
    const uint32_t *lut = g->lut;
    const float cx = (float)g->geometry[0], k = (float)(g->geometry[2] * (double)size);
    const float dy = (float)((double)y - g->geometry[1]), dy2 = dy * dy;
    // v >= 0, so the conversion's truncation is the floor.
    switch (g->extend) {
    case 0: LUT_RADIAL_LOOP(0) break;
    case 1: LUT_RADIAL_LOOP(1) break;
    default: LUT_RADIAL_LOOP(2)
    }
}

void raster_omp_gradient_lut(uint8_t *dst, int width, int height, ptrdiff_t stride, int shape,
                             const double geometry[3], const uint32_t *lut, int size, int extend, int threads) {
    const lut_call g = { width, shape, size, extend, geometry, lut };
    if (shape == 0)
        RASTER_PARALLEL_ROWS(height, threads, y, lut_row_linear(&g, (uint32_t *)(dst + (ptrdiff_t)y * stride), y));
    else
        RASTER_PARALLEL_ROWS(height, threads, y, lut_row_radial(&g, (uint32_t *)(dst + (ptrdiff_t)y * stride), y));
}
