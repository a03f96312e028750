#include <math.h>
#include <string.h>

#include "raster_omp.h"

/// The class of a pixel: which ramp interval its t falls in and which
/// extend period (and, for reflect, which half of it) produced t. Pixels of
/// one class share one affine t(u), hence one affine colour.
typedef struct { int interval; float period, sign, offset; } span_class;

static span_class classify(const raster_gradient_row *r, float u) {
    span_class c = { 0, 0.0f, 1.0f, 0.0f };
    float t;
    switch (r->extend) {
    case 0:
        t = u < RASTER_GRADIENT_PAD_LOW ? RASTER_GRADIENT_PAD_LOW
          : (u > RASTER_GRADIENT_PAD_HIGH ? RASTER_GRADIENT_PAD_HIGH : u);
        break;
    case 1:
        c.period = floorf(u);
        t = u - c.period;
        break;
    default: {
        c.period = 2.0f * floorf(u * 0.5f);
        const float m = u - c.period;
        if (m > 1.0f) { c.sign = -1.0f; c.offset = 2.0f; t = 2.0f - m; } else t = m;
    }
    }
    // The stop rule: the last interval whose start is at or below t.
    for (int k = 1; k < r->intervals; k++) if (t >= r->starts[k]) c.interval = k;
    return c;
}

static int same_class(span_class a, span_class b) {
    return a.interval == b.interval && a.period == b.period && a.sign == b.sign;
}

float raster_gradient_u(const raster_gradient_row *r, int x) {
    if (r->shape == 0) return (float)x * r->ux + r->u0;
    const float dx = (float)x - r->cx;
    return sqrtf(dx * dx + r->dy2) * r->inv_r;
}

/// The u at which a pixel moving in direction `rising` (u increasing along
/// x) leaves class c: an estimate only, checked against classify().
static double exit_u(const raster_gradient_row *r, span_class c, int rising) {
    const int k = c.interval;
    const double lo = k == 0 ? -INFINITY : r->starts[k];
    const double hi = k + 1 < r->intervals ? r->starts[k + 1] : INFINITY;
    if (r->extend == 0) return rising ? hi : lo;
    // t runs over [0, 1] within a period; t rises with u unless mirrored.
    const double tlo = lo > 0.0 ? lo : 0.0, thi = hi < 1.0 ? hi : 1.0;
    const int t_rising = (c.sign > 0.0f) == (rising != 0);
    const double t_exit = t_rising ? thi : tlo;
    return (double)c.period + (c.sign > 0.0f ? t_exit : 2.0 - t_exit);
}

/// The x (real) where u reaches `u_exit` on the side of the row holding x.
static double exit_x(const raster_gradient_row *r, double u_exit, int left) {
    if (r->shape == 0) return (u_exit - (double)r->u0) / (double)r->ux;
    // Times the row's 1 / inv_r: a divide here sat on the chain every run
    // waits for (`perf annotate` of raster_gradient_next_span while
    // `bench` draws the gradients study's jobs/radial-off.json put about
    // 8% of the function's samples right behind it).
    const double d = u_exit * r->radius;
    const double s = d * d - (double)r->dy2;
    const double dx = s > 0.0 ? sqrt(s) : 0.0;
    return left ? (double)r->cx - dx : (double)r->cx + dx;
}

static void remember(raster_gradient_row *r, int x, span_class c) {
    r->known_x = x;
    r->known.interval = c.interval; r->known.period = c.period;
    r->known.sign = c.sign; r->known.offset = c.offset;
}

/// The end of the run from pixel x of class c when the estimate `end` was
/// wrong: gallop past an estimate that fell short, then bisect. Out of
/// line, so that the common case keeps few registers.
__attribute__((noinline)) static int search_end(raster_gradient_row *r, int x, span_class c, int end, int limit) {
    int in = x, out = limit; // pixel `in` is in the class; `out` is past it or the limit
    span_class out_c = c, p = classify(r, raster_gradient_u(r, end - 1));
    if (!same_class(p, c)) { out = end - 1; out_c = p; }
    else {
        in = end - 1;
        for (int step = 1; in + 1 < limit;) {
            const int probe = limit - in > step ? in + step : limit - 1;
            p = classify(r, raster_gradient_u(r, probe));
            if (!same_class(p, c)) { out = probe; out_c = p; break; }
            in = probe;
            step *= 2;
        }
    }
    while (out - in > 1) {
        const int mid = in + (out - in) / 2;
        p = classify(r, raster_gradient_u(r, mid));
        if (same_class(p, c)) in = mid; else { out = mid; out_c = p; }
    }
    // The class of `out` is known unless `out` is the limit (never probed).
    remember(r, out < limit ? out : -1, out_c);
    return in + 1;
}

int raster_gradient_next_span(raster_gradient_row *r, int x, raster_gradient_span *span) {
    // u is monotone along the whole row (linear) or on each side of the
    // centre (radial): a class, once left, does not come back within the
    // piece, so its end is one boundary found by estimate and bisection.
    int limit = r->width, rising = 1, left = 0;
    if (r->shape == 0) rising = r->ux >= 0.0f;
    else if (x < r->mid) { limit = r->mid; rising = 0; left = 1; }
    span_class c;
    if (x == r->known_x) {
        c.interval = r->known.interval; c.period = r->known.period; c.sign = r->known.sign; c.offset = r->known.offset;
    } else c = classify(r, raster_gradient_u(r, x));
    span->interval = c.interval;
    span->period = c.period;
    span->sign = c.sign;
    span->offset = c.offset;
    const double xe = ceil(exit_x(r, exit_u(r, c, rising), left));
    // NaN and out-of-range estimates fall to the ends (no int conversion of them).
    const int end = !(xe < (double)limit) ? limit : (!(xe > (double)(x + 1)) ? x + 1 : (int)xe);
    // Nearly always the estimate is the end: pixel end - 1 has the class
    // and pixel end (or the limit) does not.
    if (same_class(classify(r, raster_gradient_u(r, end - 1)), c)) {
        if (end == limit) {
            r->known_x = -1;
            return end;
        }
        const span_class next = classify(r, raster_gradient_u(r, end));
        if (!same_class(next, c)) {
            remember(r, end, next);
            return end;
        }
    }
    return search_end(r, x, c, end, limit);
}

int raster_gradient_mirror_axis(const raster_gradient_row *r) {
    if (r->shape == 0 || r->mid <= 0 || r->mid >= r->width) return -1;
    const float m = 2.0f * r->cx;
    if (!(fabsf(r->cx) < 0x1p22f) || m != floorf(m)) return -1;
    return (int)m;
}

/// Four channels in one vector: the same double arithmetic as one channel
/// at a time, in a quarter of the instructions (this runs once per run).
typedef double span_d4 __attribute__((ext_vector_type(4)));
typedef float span_f4 __attribute__((ext_vector_type(4)));
typedef int32_t span_i4 __attribute__((ext_vector_type(4)));

int raster_gradient_run_steps(const raster_gradient_row *r, const raster_gradient_span *s, const float *slope,
                              const float *bias, int x0, int x1, int32_t start[4], int32_t step[4]) {
    if (x1 - x0 > RASTER_GRADIENT_STEP_PIXELS) x1 = x0 + RASTER_GRADIENT_STEP_PIXELS;
    const double scale = (double)(1 << RASTER_GRADIENT_STEP_BITS);
    const double dt = (double)s->sign * (double)r->ux;
    const double t0 = (double)s->sign * ((double)x0 * (double)r->ux + (double)r->u0 - (double)s->period) + (double)s->offset;
    const double t1 = t0 + dt * (double)(x1 - 1 - x0);
    const double lo = RASTER_GRADIENT_STEP_MARGIN, hi = 256.0 - RASTER_GRADIENT_STEP_MARGIN;
    span_f4 slope4, bias4;
    memcpy(&slope4, slope, sizeof slope4);
    memcpy(&bias4, bias, sizeof bias4);
    const span_d4 sl = __builtin_convertvector(slope4, span_d4), bi = __builtin_convertvector(bias4, span_d4);
    const span_d4 c0 = t0 * sl + bi + 0.5, c1 = t1 * sl + bi + 0.5;
    // Every comparison true, so that NaN fails too.
    if (!__builtin_reduce_and((c0 >= lo) & (c0 <= hi) & (c1 >= lo) & (c1 <= hi))) return x0;
    const span_i4 v0 = __builtin_convertvector(__builtin_elementwise_floor(c0 * scale + 0.5), span_i4);
    memcpy(start, &v0, sizeof v0);
    // One pixel needs no step (and its slope may be steep beyond int32).
    span_i4 dv = 0;
    if (x1 - x0 > 1) dv = __builtin_convertvector(__builtin_elementwise_floor(dt * sl * scale + 0.5), span_i4);
    memcpy(step, &dv, sizeof dv);
    return x1;
}

int raster_gradient_radial_fold(const raster_gradient_row *r, const raster_gradient_span *s, const float *slope,
                                const float *bias, float k[4], float c[4]) {
    const double a = (double)s->sign * (double)r->inv_r;
    const double b = (double)s->offset - (double)s->sign * (double)s->period;
    const double lo = r->starts[s->interval], hi = r->starts[s->interval + 1];
    // u = d * inv_r is below |period| + 2 on the run's pixels (reflect's
    // period is the widest).
    const double u_max = fabs((double)s->period) + 2.0;
    span_f4 slope4, bias4;
    memcpy(&slope4, slope, sizeof slope4);
    memcpy(&bias4, bias, sizeof bias4);
    const span_d4 sl = __builtin_convertvector(slope4, span_d4), bi = __builtin_convertvector(bias4, span_d4);
    const span_d4 kd = a * sl, cd = b * sl + bi + 0.5;
    const span_d4 e0 = lo * sl + bi + 0.5, e1 = hi * sl + bi + 0.5;
    const double margin = RASTER_GRADIENT_FOLD_MARGIN, top = 256.0 - RASTER_GRADIENT_FOLD_MARGIN;
    // Every comparison true, so that NaN fails too.
    if (!__builtin_reduce_and((e0 >= margin) & (e0 <= top) & (e1 >= margin) & (e1 <= top) &
                              (__builtin_elementwise_abs(sl) * u_max < RASTER_GRADIENT_FOLD_LIMIT) &
                              (__builtin_elementwise_abs(cd) < RASTER_GRADIENT_FOLD_LIMIT))) return 0;
    const span_f4 k4 = __builtin_convertvector(kd, span_f4), c4 = __builtin_convertvector(cd, span_f4);
    memcpy(k, &k4, sizeof k4);
    memcpy(c, &c4, sizeof c4);
    return 1;
}

void raster_gradient_fold_table_init(raster_gradient_fold_table *table, int extend, const float *starts,
                                     const float *slopes, const float *biases, int intervals, int width, int height,
                                     const double geometry[3]) {
    table->intervals = intervals;
    table->extend = extend;
    // The largest u on the canvas is at a corner (rounding past it only
    // sends a class to the per-run fold).
    double u_max = 0.0;
    for (int corner = 0; corner < 4; corner++) {
        const double dx = (corner & 1 ? (double)(width - 1) : 0.0) - geometry[0];
        const double dy = (corner & 2 ? (double)(height - 1) : 0.0) - geometry[1];
        const double u = sqrt(dx * dx + dy * dy) * geometry[2];
        if (u > u_max) u_max = u;
    }
    const double wanted = extend == 0 ? 1.0 : floor(extend == 2 ? u_max * 0.5 : u_max) + 2.0;
    const int fit = RASTER_GRADIENT_FOLD_SLOTS / (2 * intervals);
    table->periods = !(wanted < (double)fit) ? fit : (int)wanted;
    raster_gradient_row r;
    raster_gradient_row_init(&r, 1, extend, starts, intervals, width, geometry, 0);
    memset(table->folds, 0, sizeof table->folds);
    for (int j = 0; j < table->periods; j++)
        for (int mirrored = 0; mirrored < 2; mirrored++)
            // Not the last interval (raster_gradient_fold_slot).
            for (int k = 0; k + 1 < intervals; k++) {
                const raster_gradient_span s = { k, (float)(extend == 2 ? 2 * j : j), mirrored ? -1.0f : 1.0f,
                                                 mirrored ? 2.0f : 0.0f };
                const int slot = raster_gradient_fold_slot(table, &s);
                table->folds[slot] = (uint8_t)raster_gradient_radial_fold(&r, &s, slopes + 4 * k, biases + 4 * k,
                                                                          table->k[slot], table->c[slot]);
            }
}

int raster_gradient_prefers_spans(int width, double u_per_pixel, int intervals, int extend, int shape) {
    // Pieces per row: intervals once (pad) or per period crossed, on each
    // side of a radial centre. Short spans cost more to find than to blend.
    double pieces = extend == 0 ? intervals : (u_per_pixel * width + 2.0) * intervals;
    if (shape != 0) pieces *= 2.0;
    return (double)width >= RASTER_GRADIENT_SPAN_MIN_PIXELS * pieces;
}

void raster_gradient_row_init(raster_gradient_row *r, int shape, int extend, const float *starts, int intervals,
                              int width, const double geometry[3], int y) {
    *r = (raster_gradient_row){ shape, extend, intervals, width, 0, starts, 0, 0, 0, 0, 0, -1, { 0, 0, 0, 0 } };
    if (shape == 0) {
        r->ux = (float)geometry[0];
        r->u0 = (float)(geometry[2] + (double)y * geometry[1]);
        return;
    }
    r->cx = (float)geometry[0];
    r->inv_r = (float)geometry[2];
    r->radius = 1.0 / (double)r->inv_r;
    const float dy = (float)((double)y - geometry[1]);
    r->dy2 = dy * dy;
    // The first x with x - cx >= 0 in Float, within [0, width].
    const double m = ceil((double)r->cx);
    int mid = !(m > 0.0) ? 0 : (m > (double)width ? width : (int)m);
    while (mid > 0 && (float)(mid - 1) - r->cx >= 0.0f) mid--;
    while (mid < width && (float)mid - r->cx < 0.0f) mid++;
    r->mid = mid;
}
