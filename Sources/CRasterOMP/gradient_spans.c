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

/// The rung of class c in `ladder`, or -1 when it has none.
static int ladder_rung(const raster_gradient_ladder *ladder, int extend, span_class c) {
    const int i = ladder->step[c.interval], n = ladder->per_period;
    if (i < 0 || !(c.period >= 0.0f && c.period < (float)RASTER_GRADIENT_LADDER_RUNGS)) return -1;
    const int j = extend == 0 ? i
                : extend == 1 ? (int)c.period * n + i
                              : (int)(c.period * 0.5f) * n + (c.sign > 0.0f ? i : n - 1 - i);
    if (j >= ladder->rungs) return -1;
    const raster_gradient_span *s = &ladder->span[j];
    return s->interval == c.interval && s->period == c.period && s->sign == c.sign ? j : -1;
}

static void remember(raster_gradient_row *r, int x, span_class c) {
    r->known_x = x;
    r->known.interval = c.interval; r->known.period = c.period;
    r->known.sign = c.sign; r->known.offset = c.offset;
    r->rung = r->ladder && x >= 0 ? ladder_rung(r->ladder, r->extend, c) : -1;
}

/// The rung of pixel x of a radial row when its u is certainly in it (by
/// ladder_run's argument: its real u, here in double, is more than
/// 2^-20 (u + 2) from both ends of the rung), else -1.
static int ladder_find(const raster_gradient_row *r, int x) {
    const raster_gradient_ladder *ladder = r->ladder;
    const double dx = (double)x - (double)r->cx, d2 = dx * dx + (double)r->dy2;
    // The first rung whose top is beyond d.
    int lo = 0, hi = ladder->rungs - 1;
    while (lo < hi) {
        const int m = (lo + hi) >> 1;
        if (ladder->top[m] * ladder->top[m] > d2) hi = m; else lo = m + 1;
    }
    const double d = sqrt(d2), inv_r = (double)r->inv_r, slack = 0x1p-20 * (d * inv_r + 2.0);
    // NaN fails every comparison.
    if (!((ladder->top[lo] - d) * inv_r > slack)) return -1;
    if (lo > 0 && !((d - ladder->top[lo - 1]) * inv_r > slack)) return -1;
    return lo;
}

/// The run from pixel x of a radial row whose classes run at least as far
/// along the ladder as rung j (x's own class, or one past it: the run
/// before ended with a pixel certainly past rung j - 1), by the ladder:
/// returns its end, or -1 when a pixel centre is too close to the crossing
/// to be sure (then the caller classifies).
///
/// The run ends where the row crosses the rung's far boundary b (its top
/// going out, its bottom going in), at xb = cx +- sqrt(d_b^2 - dy^2).
/// Pixel end - 1 is certainly inside it, pixel end certainly past it:
/// classify() puts pixel end - 1 no further than rung j and pixel end no
/// nearer than the next rung. Float's classes are monotone along each side
/// of the centre (u is: each rounding is monotone), so every pixel from x
/// to end - 1 is of rung j, and the next run starts as this one did.
///
/// Why "certainly": raster_gradient_u's four roundings (x - cx, the squared
/// distance, the root, the product with inv_r) keep u within 4.01 * 2^-24 u
/// of the real-number u of the same Float inputs, and classify()'s t adds
/// at most 2^-24 * 4 (the period's subtraction and reflect's 2 - m), so
/// classify() never puts a pixel on the wrong side of a boundary u_b when
/// its real u is more than 2^-20 (u + 2) from it -- four times that. Both
/// pixels are within one pixel of xb (|du/dx| <= inv_r) or inside it, so u
/// + 2 <= u_b + inv_r + 2. Between them and xb, on one side of the centre,
/// |du/dx| = |x - cx| / d inv_r is at least reach / d_b inv_r, reach the
/// smallest |x - cx| among end - 1, end and xb: going in, d <= d_b there,
/// and going out |x - cx| / d grows with |x - cx|. So a pixel gap or more
/// from xb has |u - u_b| >= gap reach inv_r / d_b, and gap reach inv_r >
/// margin_b = 2^-20 (u_b + inv_r + 2) d_b is the test. xb itself is exact
/// to about 1e-16 relative (double), far inside the factor four.
static inline int ladder_run(const raster_gradient_row *r, int j, int x, int limit, int left) {
    const raster_gradient_ladder *ladder = r->ladder;
    const int b = left ? j - 1 : j;
    // Rung 0 going in, and pad's last rung (no top) going out: no class
    // lies beyond them, so the run holds to the limit.
    if (b < 0 || (r->extend == 0 && b + 1 == ladder->rungs)) return limit;
    if (b + 1 >= ladder->rungs) return -1;
    const double cx = (double)r->cx, inv_r = (double)r->inv_r, margin = ladder->margin[b];
    const double s = ladder->top[b] * ladder->top[b] - (double)r->dy2;
    if (!(s > 0.0)) {
        // Going in, the row never comes as near the centre as d_b: the
        // run holds to the centre column, whose d is at least |dy|. (Pixel
        // mid - 1 has u up to u_b + inv_r + (|dy| - d_b) inv_r; the factor
        // four covers the last term.)
        if (!left) return -1;
        const double d_b = ladder->top[b];
        return (sqrt((double)r->dy2) - d_b) * inv_r * d_b > margin ? limit : -1;
    }
    const double root = sqrt(s), xb = left ? cx - root : cx + root, xe = ceil(xb);
    if (xe < (double)limit) {
        // Pixels xe - 1 and xe, both on the crossing's side of the centre.
        const double p = xe - 1.0;
        const double gap = fmin(xb - p, xe - xb), reach = left ? cx - xe : p - cx;
        // NaN fails the comparisons.
        return xe > (double)x && reach > 0.0 && gap * reach * inv_r > margin ? (int)xe : -1;
    }
    // The crossing is at or past the limit: pixel limit - 1 inside it.
    const double p = (double)(limit - 1), reach = fmin(fabs(p - cx), root);
    return (xb - p) * reach * inv_r > margin ? limit : -1;
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

/// Run [x, end) is rung j's (ladder_run): the span, and the rung the next
/// run starts from (pixel end is certainly past rung j).
static inline int ladder_take(raster_gradient_row *r, int j, int end, int limit, int left, raster_gradient_span *span) {
    *span = r->ladder->span[j];
    const int next = left ? j - 1 : j + 1, more = end < limit && next >= 0 && next < r->ladder->rungs;
    // `known` is not kept: the next pixel's class is not known, only that
    // it lies on the next rung or further.
    r->known_x = more ? end : -1;
    r->rung = more ? next : -1;
    return end;
}

/// raster_gradient_next_span's general case, out of line so that the
/// ladder's runs keep few registers: the class of pixel x from `known` or
/// classify(), then the run by the ladder or by estimate and bisection.
__attribute__((noinline)) static int next_span_general(raster_gradient_row *r, int x, raster_gradient_span *span) {
    // u is monotone along the whole row (linear) or on each side of the
    // centre (radial): a class, once left, does not come back within the
    // piece, so its end is one boundary found by estimate and bisection.
    int limit = r->width, rising = 1, left = 0;
    if (r->shape == 0) rising = r->ux >= 0.0f;
    else if (x < r->mid) { limit = r->mid; rising = 0; left = 1; }
    int j = -1;
    span_class c;
    if (x == r->known_x) {
        // (remember() looked for its rung; the caller took it if it had one.)
        c.interval = r->known.interval; c.period = r->known.period; c.sign = r->known.sign; c.offset = r->known.offset;
    } else {
        c = classify(r, raster_gradient_u(r, x));
        if (r->ladder) j = ladder_rung(r->ladder, r->extend, c);
    }
    if (j >= 0) {
        const int end = ladder_run(r, j, x, limit, left);
        if (end > x) return ladder_take(r, j, end, limit, left, span);
    }
    span->interval = c.interval;
    span->period = c.period;
    span->sign = c.sign;
    span->offset = c.offset;
    span->fold = 0;
    const double xe = ceil(exit_x(r, exit_u(r, c, rising), left));
    // NaN and out-of-range estimates fall to the ends (no int conversion of them).
    const int end = !(xe < (double)limit) ? limit : (!(xe > (double)(x + 1)) ? x + 1 : (int)xe);
    // Nearly always the estimate is the end: pixel end - 1 has the class
    // and pixel end (or the limit) does not.
    if (same_class(classify(r, raster_gradient_u(r, end - 1)), c)) {
        if (end == limit) {
            r->known_x = -1;
            r->rung = -1;
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

int raster_gradient_next_span(raster_gradient_row *r, int x, raster_gradient_span *span) {
    // With the frame's ladder, a radial run follows the one before: it is
    // on the next rung (pixel x is certainly past the rung before), and
    // ends where ladder_run is sure of the pixels around the crossing.
    // A side's first run starts from the rung its first pixel is certainly
    // on (ladder_find).
    if (r->ladder && (r->rung >= 0 || x != r->known_x)) {
        const int left = x < r->mid, limit = left ? r->mid : r->width;
        const int j = x == r->known_x ? r->rung : ladder_find(r, x);
        const int end = j >= 0 ? ladder_run(r, j, x, limit, left) : -1;
        if (end > x) return ladder_take(r, j, end, limit, left, span);
        // Pixel x is past the rung before j, but its own class is not known.
        r->rung = -1;
        r->known_x = -1;
    }
    return next_span_general(r, x, span);
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

static void ladder_init(raster_gradient_ladder *ladder, int extend, const float *starts, int intervals, double u_max,
                        float inv_r);

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
    ladder_init(&table->ladder, extend, starts, intervals, u_max, r.inv_r);
    for (int j = 0; j < table->ladder.rungs; j++) table->ladder.span[j].fold = raster_gradient_fold_slot(table, &table->ladder.span[j]) + 1;
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

void raster_gradient_with_fold_table(int extend, const float *starts, const float *slopes, const float *biases,
                                     int intervals, int width, int height, const double geometry[3],
                                     void (*body)(const raster_gradient_fold_table *table, void *context), void *context) {
    raster_gradient_fold_table table;
    raster_gradient_fold_table_init(&table, extend, starts, slopes, biases, intervals, width, height, geometry);
    body(&table, context);
}

/// The rungs of a radial frame whose u reaches at most u_max (see
/// raster_gradient_ladder).
static void ladder_init(raster_gradient_ladder *ladder, int extend, const float *starts, int intervals, double u_max,
                        float inv_r) {
    // One period's rungs in rising t: the intervals that hold some t >= 0
    // (pad) or some t in [0, 1) (repeat, reflect), with their t ranges.
    double lo[RASTER_GRADIENT_MAX_INTERVALS], hi[RASTER_GRADIENT_MAX_INTERVALS];
    int order[RASTER_GRADIENT_MAX_INTERVALS], n = 0;
    for (int k = 0; k < intervals; k++) {
        double a = k == 0 ? 0.0 : (double)starts[k], z = k + 1 < intervals ? (double)starts[k + 1] : INFINITY;
        if (a < 0.0) a = 0.0;
        if (extend != 0 && z > 1.0) z = 1.0;
        ladder->step[k] = a < z ? n : -1;
        if (a < z) { lo[n] = a; hi[n] = z; order[n] = k; n++; }
    }
    const int periods = extend == 0 ? 1 : (int)fmin(floor(extend == 2 ? u_max * 0.5 : u_max) + 2.0, 1e6);
    const int per_period = extend == 2 ? 2 * n : n;
    ladder->per_period = per_period;
    ladder->rungs = n > 0 && (double)periods * per_period <= RASTER_GRADIENT_LADDER_RUNGS ? periods * per_period : 0;
    const double radius = 1.0 / (double)inv_r;
    for (int j = 0; j < ladder->rungs; j++) {
        const int p = j / per_period, i = j % per_period;
        raster_gradient_span *s = &ladder->span[j];
        double top;
        if (i < n) {
            const float period = (float)(extend == 2 ? 2 * p : p);
            *s = (raster_gradient_span){ order[i], period, 1.0f, 0.0f };
            top = (double)period + hi[i];
        } else {
            // Reflect's falling half: t = 2 - (u - period), intervals in reverse.
            const int m = n - 1 - (i - n);
            *s = (raster_gradient_span){ order[m], (float)(2 * p), -1.0f, 2.0f };
            top = (double)(2 * p) + 2.0 - lo[m];
        }
        const double d = top * radius;
        ladder->top[j] = d;
        ladder->margin[j] = 0x1p-20 * (top + (double)inv_r + 2.0) * d;
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
    r->ladder = NULL;
    r->rung = -1;
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
