#include <math.h>
#include <string.h>

#include "raster_omp.h"

raster_gradient_row_plan raster_gradient_plan_rows(int shape, int height, const double geometry[3]) {
    raster_gradient_row_plan plan = { height, 0, 0, -1 };
    // When 2 cy is a whole m, row m - y has row y's |dy| exactly (the
    // rounding of y - cy is symmetric), hence its words.
    const double m2 = 2.0 * geometry[1];
    if (shape == 0 || !(fabs(m2) < 0x1p30) || m2 != floor(m2) || !(m2 >= 1.0) || !(m2 <= 2.0 * height - 3.0)) return plan;
    const int m = (int)m2, a = m - height + 1 > 0 ? m - height + 1 : 0, c = (m + 1) / 2;
    if (c <= a) return plan;
    plan.items = height - (c - a);
    plan.a = a;
    plan.c = c;
    plan.m = m;
    return plan;
}

void raster_gradient_plan_copy(raster_gradient_row_plan plan, uint8_t *dst, ptrdiff_t stride, int width, int y) {
    if (y >= plan.a && y < plan.c)
        memcpy(dst + (ptrdiff_t)(plan.m - y) * stride, dst + (ptrdiff_t)y * stride, (size_t)width * 4);
}
