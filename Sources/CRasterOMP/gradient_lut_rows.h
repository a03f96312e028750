#ifndef RASTER_GRADIENT_LUT_ROWS_PRIVATE_H
#define RASTER_GRADIENT_LUT_ROWS_PRIVATE_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define RASTER_GRADIENT_LUT_LANES 1
#endif

#include "raster_omp.h"

/// The rows of K2's `lut` variant (raster_gradient_lut_item draws them for
/// both threaded backends). With AVX2 eight pixels take their entry indices
/// on vector lanes and their colours come from one load and permute of a
/// window of the table, or a gather (a scalar table read per pixel was the
/// whole cost of the variant, more than exact's affine runs); without AVX2
/// the same indices come one pixel at a time: both write the same bytes.
/// `geometry` as raster_omp_gradient's; `lut` and `size` as
/// raster_gradient_lut_build's; `extend` 0 pad, 1 repeat, 2 reflect.

#ifdef RASTER_GRADIENT_LUT_LANES
/// The table indices of eight whole entries by the extend mode, less one
/// (the callers read from lut + 1): the vector form of
/// raster_gradient_lut_index for entries within int32. Reflect's
/// `m < size ? m : 2 * size - 1 - m` is the smaller of the two, as the
/// other one is then at least size.
static inline __attribute__((always_inline)) __m256i lut_index8(__m256i e, int size, int extend) {
    if (extend == 0) return _mm256_min_epi32(_mm256_max_epi32(e, _mm256_set1_epi32(-1)), _mm256_set1_epi32(size));
    if (extend == 1) return _mm256_and_si256(e, _mm256_set1_epi32(size - 1));
    const __m256i m = _mm256_and_si256(e, _mm256_set1_epi32(2 * size - 1));
    return _mm256_min_epi32(m, _mm256_sub_epi32(_mm256_set1_epi32(2 * size - 1), m));
}

/// The words at lut[1 + i] for eight indices i in [-1, size]. Neighbouring
/// pixels mostly read entries at most 7 apart (a table entry is one level
/// of the steepest channel, wider than a pixel on most gradients), so the
/// eight words usually lie in one window of 8 that a load and a permute
/// read, where a gather is slower (the radial frame took about 1.4 times
/// as long with gathers only, on Zen 3).
/// Along a stretch where the indices only rise or only fall, the window
/// starts at the smaller of the two end lanes; eight spanning up to 16
/// entries read a window of 16; a wrap, a fold inside the eight or a ramp
/// steeper than two entries per pixel sends them to the gather.
static inline __attribute__((always_inline)) __m256i lut_read8(const uint32_t *lut, __m256i i, int size) {
    // The window starts at most at entry size - 7, so its last word is
    // lut[size + 1], the table's last of size + 2 (size >= 256).
    const __m256i ends = _mm256_min_epi32(i, _mm256_permutevar8x32_epi32(i, _mm256_setr_epi32(7, 0, 0, 0, 0, 0, 0, 0)));
    const __m256i base = _mm256_min_epi32(_mm256_broadcastd_epi32(_mm256_castsi256_si128(ends)), _mm256_set1_epi32(size - 7));
    const __m256i offset = _mm256_sub_epi32(i, base);
    if (__builtin_expect(_mm256_testz_si256(offset, _mm256_set1_epi32(~7)), 1)) {
        const __m256i window = _mm256_loadu_si256((const __m256i *)(lut + 1 + _mm256_cvtsi256_si32(base)));
        return _mm256_permutevar8x32_epi32(window, offset);
    }
    // Up to two entries per pixel: a window of 16 as two permutes and a
    // select by the offset's bit 3 (the permute reads only bits 0-2), still
    // cheaper than the gather; starting at most at size - 15 it ends at
    // lut[size + 1] too.
    const __m256i base16 = _mm256_min_epi32(base, _mm256_set1_epi32(size - 15));
    const __m256i offset16 = _mm256_sub_epi32(i, base16);
    if (_mm256_testz_si256(offset16, _mm256_set1_epi32(~15))) {
        const uint32_t *w = lut + 1 + _mm256_cvtsi256_si32(base16);
        const __m256i low = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)w), offset16);
        const __m256i high = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(w + 8)), offset16);
        return _mm256_blendv_epi8(low, high, _mm256_cmpgt_epi32(offset16, _mm256_set1_epi32(7)));
    }
    return _mm256_i32gather_epi32((const int *)(lut + 1), i, 4);
}

/// The words at lut[1 + i] for eight indices i in [-1, size] known to lie
/// within 7 of the one in lane `first` (broadcast in every lane of it): a
/// load and a permute, no check.
static inline __attribute__((always_inline)) __m256i lut_window8(const uint32_t *lut, __m256i i, int size,
                                                                 __m256i first) {
    const __m256i base = _mm256_min_epi32(_mm256_permutevar8x32_epi32(i, first), _mm256_set1_epi32(size - 7));
    const __m256i window = _mm256_loadu_si256((const __m256i *)(lut + 1 + _mm256_cvtsi256_si32(base)));
    return _mm256_permutevar8x32_epi32(window, _mm256_sub_epi32(i, base));
}

/// Eight pixels at a time of lut_steps; `sure`: pad with
/// less than one entry per pixel, where the eight indices rise (or fall)
/// by at most 7, so the smallest is at the row's near end and the window
/// needs no check.
static inline __attribute__((always_inline)) void lut_steps8(uint32_t *row, int *x, int width, int64_t *p, int64_t step,
                                                             const uint32_t *lut, int size, int extend, int sure) {
    const int64_t q = *p;
    // The high words of lanes {0,1,4,5} of `a` and {2,3,6,7} of `b` land
    // in pixel order under one shuffle (it works per 128 bits).
    __m256i a = _mm256_add_epi64(_mm256_set1_epi64x(q), _mm256_setr_epi64x(0, step, 4 * step, 5 * step));
    __m256i b = _mm256_add_epi64(_mm256_set1_epi64x(q), _mm256_setr_epi64x(2 * step, 3 * step, 6 * step, 7 * step));
    const __m256i step8 = _mm256_set1_epi64x(8 * step), first = _mm256_set1_epi32(step >= 0 ? 0 : 7);
    int i = *x;
    for (; i + 8 <= width; i += 8) {
        const __m256i e = _mm256_castps_si256(
            _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(3, 1, 3, 1)));
        const __m256i index = lut_index8(e, size, extend);
        _mm256_storeu_si256((__m256i *)(row + i), sure ? lut_window8(lut, index, size, first)
                                                       : lut_read8(lut, index, size));
        a = _mm256_add_epi64(a, step8);
        b = _mm256_add_epi64(b, step8);
    }
    *x = i;
    *p = _mm256_extract_epi64(a, 0);
}
#endif

/// Pixels [x, width) of a linear row whose entry position at pixel x is
/// p (32.32 fixed point) and grows by `step` per pixel: entry = p >> 32.
static inline __attribute__((always_inline)) void lut_steps(uint32_t *row, int x, int width, int64_t p, int64_t step,
                                                            const uint32_t *lut, int size, int extend) {
#ifdef RASTER_GRADIENT_LUT_LANES
    if (extend == 0 && step > -0x100000000LL && step < 0x100000000LL)
        lut_steps8(row, &x, width, &p, step, lut, size, extend, 1);
    else
        lut_steps8(row, &x, width, &p, step, lut, size, extend, 0);
#endif
    for (; x < width; x++) {
        row[x] = lut[raster_gradient_lut_index(p >> 32, size, extend)];
        p += step;
    }
}

static inline __attribute__((always_inline)) void lut_linear_row(uint32_t *row, int width, int y,
                                                                 const double geometry[3], const uint32_t *lut,
                                                                 int size, int extend) {
    const double v0 = (geometry[2] + (double)y * geometry[1]) * (double)size;
    const double dv = geometry[0] * (double)size;
    const double v1 = v0 + dv * (double)(width - 1);
    if (fabs(v0) < 0x1p30 && fabs(v1) < 0x1p30) {
        // Every entry on the row fits in int32 (the lanes' width).
        const int64_t p = llrint(v0 * 0x1p32), step = llrint(dv * 0x1p32);
        switch (extend) {
        case 0: lut_steps(row, 0, width, p, step, lut, size, 0); break;
        case 1: lut_steps(row, 0, width, p, step, lut, size, 1); break;
        default: lut_steps(row, 0, width, p, step, lut, size, 2);
        }
        return;
    }
    // Far outside the gradient's span (tiny vectors): the position per pixel.
    for (int x = 0; x < width; x++)
        row[x] = lut[raster_gradient_lut_index(raster_gradient_lut_entry(v0 + (double)x * dv), size, extend)];
}

/// The entry position of a radial pixel: its distance in entries, held at
/// the cap; v >= 0, so the conversion's truncation is the floor. The square
/// is fused with the add on both paths (lanes and scalar, whatever the
/// compiler's contraction setting), so both write the same bytes.
static inline float lut_radial_position(float dx, float dy2, float k) {
    const float v = sqrtf(fmaf(dx, dx, dy2)) * k;
    return v < RASTER_GRADIENT_LUT_RADIAL_CAP ? v : RASTER_GRADIENT_LUT_RADIAL_CAP;
}

/// Pixels [x0, x1) of a radial row, computed. With AVX2 in two passes over
/// batches of LUT_RADIAL_BATCH pixels: their table indices into a buffer
/// on the stack, then the table reads. As one loop, each iteration was a
/// single chain from the square root through the table read, some 60
/// cycles long, and the core overlaps only a few such iterations, so the
/// loop ran at the chain's pace rather than its instructions'; each pass's
/// iterations are short. For the same reason the pixels' x is stepped by 8
/// rather than converted from the counter on each iteration (x < 2^24 on
/// every row, so the stepped values are exact and equal the converted
/// ones). Together the two took an off-centre radial frame from 0.66 to
/// 0.44 ms on Zen 3 (min of 400 frames; re-check:
/// Results/studies/gradients/span_harness.sh 830dc06 8 1 radial-off-lut,
/// the one-loop build, against this tree).
#define LUT_RADIAL_BATCH 256
static inline __attribute__((always_inline)) void lut_radial_span(uint32_t *row, int x0, int x1, float cx, float dy2,
                                                                  float k, const uint32_t *lut, int size, int extend) {
    int x = x0;
#ifdef RASTER_GRADIENT_LUT_LANES
    const __m256 ramp = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 vdy2 = _mm256_set1_ps(dy2), vk = _mm256_set1_ps(k), cap = _mm256_set1_ps(RASTER_GRADIENT_LUT_RADIAL_CAP);
    const __m256 vcx = _mm256_set1_ps(cx), eight = _mm256_set1_ps(8.0f);
    __m256 xf = _mm256_add_ps(ramp, _mm256_set1_ps((float)x));
    int32_t entries[LUT_RADIAL_BATCH];
    while (x + 8 <= x1) {
        const int n = (x1 - x) / 8 < LUT_RADIAL_BATCH / 8 ? (x1 - x) / 8 : LUT_RADIAL_BATCH / 8;
        for (int j = 0; j < n; j++, xf = _mm256_add_ps(xf, eight)) {
            // lut_radial_position on eight pixels.
            const __m256 dx = _mm256_sub_ps(xf, vcx);
            const __m256 v = _mm256_mul_ps(_mm256_sqrt_ps(_mm256_fmadd_ps(dx, dx, vdy2)), vk);
            const __m256i e = _mm256_cvttps_epi32(_mm256_min_ps(v, cap));
            _mm256_storeu_si256((__m256i *)(entries + 8 * j), lut_index8(e, size, extend));
        }
        for (int j = 0; j < n; j++, x += 8)
            _mm256_storeu_si256((__m256i *)(row + x),
                                lut_read8(lut, _mm256_loadu_si256((const __m256i *)(entries + 8 * j)), size));
    }
#endif
    for (; x < x1; x++)
        row[x] = lut[raster_gradient_lut_index((int64_t)lut_radial_position((float)x - cx, dy2, k),
                                               size, extend)];
}

/// row[x] = row[m - x] for x in [x0, x1): the mirror image of pixels
/// (m - x1, m - x0].
static inline void lut_mirror(uint32_t *row, int x0, int x1, int m) {
    int x = x0;
#ifdef RASTER_GRADIENT_LUT_LANES
    const __m256i reverse = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    for (; x + 8 <= x1; x += 8) {
        const __m256i w = _mm256_loadu_si256((const __m256i *)(row + m - x - 7));
        _mm256_storeu_si256((__m256i *)(row + x), _mm256_permutevar8x32_epi32(w, reverse));
    }
#endif
    for (; x < x1; x++) row[x] = row[m - x];
}

static inline __attribute__((always_inline)) void lut_radial_row_mode(uint32_t *row, int width, int y,
                                                                      const double geometry[3], const uint32_t *lut,
                                                                      int size, int extend) {
    const float cx = (float)geometry[0], k = (float)(geometry[2] * (double)size);
    const float dy = (float)((double)y - geometry[1]), dy2 = dy * dy;
    // When 2 cx is a whole m, pixel m - x has x's |dx| exactly (the
    // rounding of x - cx is symmetric), hence its entry: the half of the
    // row left of the centre is a mirrored copy of the right half.
    const float m2 = 2.0f * cx;
    if (fabsf(cx) < 0x1p22f && m2 == floorf(m2) && m2 > 0.0f && m2 < 2.0f * (float)(width - 1)) {
        const int m = (int)m2, lo = (m + 1) / 2;           // lo: the first x with 2x >= m
        const int far = m - width + 1 > 0 ? m - width + 1 : 0; // x below it mirror past the row
        lut_radial_span(row, lo, width, cx, dy2, k, lut, size, extend);
        lut_radial_span(row, 0, far, cx, dy2, k, lut, size, extend);
        lut_mirror(row, far, lo, m);
        return;
    }
    lut_radial_span(row, 0, width, cx, dy2, k, lut, size, extend);
}

static inline void lut_radial_row(uint32_t *row, int width, int y, const double geometry[3], const uint32_t *lut,
                                  int size, int extend) {
    // One body per mode, the mode a constant, so the lane loops are branch-free.
    switch (extend) {
    case 0: lut_radial_row_mode(row, width, y, geometry, lut, size, 0); break;
    case 1: lut_radial_row_mode(row, width, y, geometry, lut, size, 1); break;
    default: lut_radial_row_mode(row, width, y, geometry, lut, size, 2);
    }
}

#endif
