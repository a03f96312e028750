#include "raster_omp.h"
#include "gradient_lut_rows.h"
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

void raster_gradient_lut_item(uint8_t *dst, ptrdiff_t stride, int width, raster_gradient_row_plan plan, int i, int shape,
                              const double geometry[3], const uint32_t *lut, int size, int extend) {
    const int y = raster_gradient_plan_row(plan, i);
    uint32_t *row = (uint32_t *)(dst + (ptrdiff_t)y * stride);
    if (shape == 0) {
        lut_linear_row(row, width, y, geometry, lut, size, extend);
        return;
    }
    lut_radial_row(row, width, y, geometry, lut, size, extend);
    raster_gradient_plan_copy(plan, dst, stride, width, y);
}

void raster_gradient_lut_steps(uint32_t *row, int x, int width, int64_t p, int64_t step, const uint32_t *lut, int size,
                               int extend) {
    switch (extend) {
    case 0: lut_steps(row, x, width, p, step, lut, size, 0); break;
    case 1: lut_steps(row, x, width, p, step, lut, size, 1); break;
    default: lut_steps(row, x, width, p, step, lut, size, 2);
    }
}

void raster_gradient_lut_radial_row(uint32_t *row, int width, int y, const double geometry[3], const uint32_t *lut,
                                    int size, int extend) {
    lut_radial_row(row, width, y, geometry, lut, size, extend);
}

void raster_omp_gradient_lut(uint8_t *dst, int width, int height, ptrdiff_t stride, int shape,
                             const double geometry[3], const uint32_t *lut, int size, int extend, int threads) {
    const raster_gradient_row_plan plan = raster_gradient_plan_rows(shape, height, geometry);
    RASTER_PARALLEL_ROWS(plan.items, threads, i,
                         raster_gradient_lut_item(dst, stride, width, plan, i, shape, geometry, lut, size, extend));
}
