#ifndef RASTER_K1_LANES_H
#define RASTER_K1_LANES_H

#include "raster_pack8.h"
#include <string.h>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

/// Eight-lane steps of K1's blend that both threaded backends call
/// (raster_pack8.h says why they are shared).
typedef raster_f8 raster_k1_f8;
typedef raster_u8 raster_k1_u8;

/// 1 / v in one 256-bit divide. Swift's `1 / v` on SIMD8<Float> is a loop
/// over the lanes that LLVM re-vectorised as two 128-bit divides with the
/// halves of every later product moved in and out of ymm registers (11%
/// of the simd backend's K1 row loop under `perf record`).
static inline raster_k1_f8 raster_k1_reciprocal8(raster_k1_f8 v) { return 1.0f / v; }

/// Sixteen pixels' lanes, for the openmp quartic blend's steps.
typedef raster_f16 raster_k1_f16;

/// The least argument K1's quartic step accepts (FLT_MIN): the threaded
/// backends' row plans add it to every row's dy^2 / L^2
/// (raster_k1_row_dy2), so t = dx^2 / L^2 + dy^2 / L^2 is never 0 or
/// subnormal, whose estimate would be infinite, and the step needs no
/// clamp of its own (one instruction per point and 16 pixels). No weight
/// moves by more than float's rounding: a pixel centre on its point gets d
/// of about 1.1e-19, and 1 - d rounds to 1, the weight of t = 0.
#define RASTER_K1_ROOT_FLOOR 0x1p-126f

/// A row plan's dy^2 / L^2 for the quartic step, from dy / L. A function,
/// not the macro, for Swift: its importer re-reads FLT_MIN from a decimal
/// string of nine digits, which lies just under FLT_MIN and draws an
/// underflow warning.
static inline float raster_k1_row_dy2(float dy_over_l) {
#pragma clang fp contract(off)
    return dy_over_l * dy_over_l + RASTER_K1_ROOT_FLOOR; // both schedules: the same rounding
}

/// The quartic fall-off max(0, 1 - sqrt(t))^4 (K1 with e = 4) of sixteen
/// values t = d^2 / L^2 >= RASTER_K1_ROOT_FLOOR, for both threaded
/// backends.
///
/// With AVX-512 the square root is the hardware's 14-bit reciprocal
/// square-root estimate r and one Newton step, fused with the 1 - sqrt:
/// with d = t r and y = d r (about 1),
///
///     sqrt(t) = d (3/2 - y/2),   1 - sqrt(t) = 1 - d (3/2 - y/2),
///
/// five operations on the 512-bit pipes where the square-root unit takes
/// one 16-lane root per 12 cycles on Golden Cove (uops.info): K1 takes a
/// root per point per pixel, and that unit was the floor of the quartic
/// blend (freeform study). Accuracy: the step leaves a relative error of
/// about 1.5 (2^-14)^2 < 2^-27 plus the roundings of its operations, a few
/// units in the last place: the order of the rounding already in t (a sum
/// of two rounded squares). The freeform tests and `rasterbench verify`
/// hold every backend to the one level of docs/contract.md. Without
/// AVX-512, the square root.
///
/// The clamp at 0 is one `vmaxps` per vector: Swift's compare-and-select
/// of a SIMD16 against zero compiled to a compare and an AND (`objdump -d`
/// of the simd backend's full-frame closure), hence this C helper.
static inline raster_k1_f16 raster_k1_quartic16(raster_k1_f16 t) {
#pragma clang fp contract(off)
#if defined(__AVX512F__)
    const raster_k1_f16 r = (raster_k1_f16)_mm512_rsqrt14_ps((__m512)t);
    const raster_k1_f16 d = t * r;
    const raster_k1_f16 k = __builtin_elementwise_fma(d * r, (raster_k1_f16)-0.5f, (raster_k1_f16)1.5f);
    const raster_k1_f16 m = __builtin_elementwise_max(__builtin_elementwise_fma(-d, k, (raster_k1_f16)1.0f), (raster_k1_f16)0.0f);
#else
    const raster_k1_f16 m = __builtin_elementwise_max((raster_k1_f16)1.0f - __builtin_elementwise_sqrt(t), (raster_k1_f16)0.0f);
#endif
    const raster_k1_f16 m2 = m * m;
    return m2 * m2;
}

/// raster_k1_quartic16 of eight lanes (the simd backend's single vectors):
/// the same lanes, so the same values.
static inline raster_k1_f8 raster_k1_quartic8(raster_k1_f8 t) {
    const raster_k1_f16 twice = __builtin_shufflevector(t, t, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);
    const raster_k1_f16 f = raster_k1_quartic16(twice);
    return __builtin_shufflevector(f, f, 0, 1, 2, 3, 4, 5, 6, 7);
}

/// a * b + c in one 256-bit multiply-add. Swift's `addingProduct` on
/// SIMD8<Float> with a broadcast addend compiled, in the swirled row loop,
/// to two 128-bit multiply-adds with the halves extracted and re-inserted
/// (`objdump -d` of the simd backend's `renderSwirled`).
static inline raster_k1_f8 raster_k1_fma8(raster_k1_f8 a, raster_k1_f8 b, raster_k1_f8 c) {
    return __builtin_elementwise_fma(a, b, c);
}

/// sin and cos of K1's swirl angle theta = s |q - m|^2 on sixteen lanes,
/// for both threaded backends: the one spelling of raster_omp.h's
/// polynomial (Swift SIMD has no vector sin/cos, and a libm call per lane
/// cost more than the whole per-pixel gradient: sinf/cosf measured 5.96 ms
/// for a 750x1334 frame at one thread on openmp, the polynomial 3.11 ms).
///
/// theta lies in [0, 32]: 0 <= s <= FreeformGradient.maxSwirl (64) and
/// |q - m|^2 <= 1/2 in unit space. Accuracy. Range reduction:
/// k = round(theta 2/pi) <= 21 and r = theta - k pi/2 with pi/2 split into
/// PIO2_HI (pi/2 rounded to float) and PIO2_LO (the next 24 bits), each
/// product k * PIO2_x fused into its subtraction: k PIO2_HI is exact inside
/// the fma, theta - k PIO2_HI is within an ulp of r (< 6e-8 for
/// |r| <= pi/4), and the split's own error (|pi/2 - HI - LO| < 2e-15) times
/// k adds nothing visible. Polynomials: Taylor series to r^9 for sin and
/// r^10 for cos; on |r| <= pi/4 their Lagrange remainders are
/// (pi/4)^11 / 11! < 1.8e-9 and (pi/4)^12 / 12! < 1.2e-10, far below
/// float's half-ulp at 1 (3e-8), so what is left is Horner's rounding, a
/// few ulps. FreeformTests measures it against double sin/cos over the
/// whole of [0, 32]: the absolute error stays below 2.5e-7, which moves a
/// swirled sample by under 2e-7 of the frame, nothing an 8-bit colour can
/// show. Quadrant k mod 4 by bit operations: (sin, cos) = (s, c), (c, -s),
/// (-s, -c), (-c, s).
static inline void raster_k1_sincos16(raster_k1_f16 theta, raster_k1_f16 *sin_t, raster_k1_f16 *cos_t) {
#pragma clang fp contract(off)
    const raster_k1_f16 k = __builtin_elementwise_floor(theta * RASTER_OMP_SWIRL_2_OVER_PI + 0.5f);
    raster_k1_f16 r = __builtin_elementwise_fma(-k, (raster_k1_f16)RASTER_OMP_SWIRL_PIO2_HI, theta);
    r = __builtin_elementwise_fma(-k, (raster_k1_f16)RASTER_OMP_SWIRL_PIO2_LO, r);
    const raster_k1_f16 r2 = r * r;
    raster_k1_f16 ps = __builtin_elementwise_fma(r2, (raster_k1_f16)RASTER_OMP_SWIRL_SIN9, (raster_k1_f16)RASTER_OMP_SWIRL_SIN7);
    ps = __builtin_elementwise_fma(r2, ps, (raster_k1_f16)RASTER_OMP_SWIRL_SIN5);
    ps = __builtin_elementwise_fma(r2, ps, (raster_k1_f16)RASTER_OMP_SWIRL_SIN3);
    const raster_k1_f16 sn = __builtin_elementwise_fma(r * r2, ps, r);
    raster_k1_f16 pc = __builtin_elementwise_fma(r2, (raster_k1_f16)RASTER_OMP_SWIRL_COS10, (raster_k1_f16)RASTER_OMP_SWIRL_COS8);
    pc = __builtin_elementwise_fma(r2, pc, (raster_k1_f16)RASTER_OMP_SWIRL_COS6);
    pc = __builtin_elementwise_fma(r2, pc, (raster_k1_f16)RASTER_OMP_SWIRL_COS4);
    pc = __builtin_elementwise_fma(r2, pc, (raster_k1_f16)-0.5f);
    const raster_k1_f16 cs = __builtin_elementwise_fma(r2, pc, (raster_k1_f16)1.0f);
    const raster_u16 q = __builtin_convertvector(k, raster_u16);
    const raster_u16 swap = (raster_u16)0 - (q & 1), sb = (raster_u16)sn, cb = (raster_u16)cs, flip = (sb ^ cb) & swap;
    *sin_t = (raster_k1_f16)(sb ^ flip ^ ((q & 2) << 30));
    *cos_t = (raster_k1_f16)(cb ^ flip ^ (((q + 1) & 2) << 30));
}

/// Telegram's swirl of sixteen samples (K1's warp, FreeformGradient's
/// note): dx = q_x - 1/2 per lane and dy = q_y - 1/2 of the row, rotated by
/// theta = s (dx^2 + dy^2) about (1/2, 1/2) (raster_k1_sincos16) and
/// clamped to [0, 1]^2. Both threaded backends warp through here, so their
/// swirled samples are the same floats.
static inline void raster_k1_warp16(raster_k1_f16 dx, float dy, float s, raster_k1_f16 *x, raster_k1_f16 *y) {
#pragma clang fp contract(off)
    raster_k1_f16 sin_t, cos_t;
    raster_k1_sincos16(s * __builtin_elementwise_fma(dx, dx, (raster_k1_f16)(dy * dy)), &sin_t, &cos_t);
    const raster_k1_f16 zero = 0.0f, one = 1.0f;
    *x = __builtin_elementwise_min(__builtin_elementwise_max((0.5f + dx * cos_t) - dy * sin_t, zero), one);
    *y = __builtin_elementwise_min(__builtin_elementwise_max((0.5f + dx * sin_t) + dy * cos_t, zero), one);
}

/// raster_k1_warp16 for the simd backend's pairs of 8-lane vectors: `out`
/// gets x and y of lanes 0-7, then of lanes 8-15 (32 floats), the order
/// its 8-lane blend reads them.
static inline void raster_k1_swirl16(raster_k1_f16 dx, float dy, float s, float *out) {
    raster_k1_f16 x, y;
    raster_k1_warp16(dx, dy, s, &x, &y);
    memcpy(out, &x, 8 * sizeof(float));
    memcpy(out + 8, &y, 8 * sizeof(float));
    memcpy(out + 16, (const float *)&x + 8, 8 * sizeof(float));
    memcpy(out + 24, (const float *)&y + 8, 8 * sizeof(float));
}

/// 1 / v on sixteen lanes (raster_k1_reciprocal8's reason, twice as wide).
static inline raster_k1_f16 raster_k1_reciprocal16(raster_k1_f16 v) { return 1.0f / v; }

/// Eight pixels' channels (pixel i in lane i, 8-bit units) as RGBA8 words:
/// floor(v + 0.5) clamped to [0, 255], the bytes of `raster_quantize` (and
/// of RasterKit's `Lanes.quantize`) for every v below 2^31 - 1. With AVX2
/// it is a truncating conversion of v + 0.5 and saturating packs, which do
/// the clamp: 12 instructions for the four channels, where the per-channel
/// clamp, round and shift-or took about 20 (a blend's channels are in
/// [0, 255] up to rounding, so the clamp is rarely used but must stay).
static inline raster_k1_u8 raster_k1_pack8(raster_k1_f8 r, raster_k1_f8 g, raster_k1_f8 b, raster_k1_f8 a) {
    return raster_pack8_truncated(r + 0.5f, g + 0.5f, b + 0.5f, a + 0.5f);
}

/// raster_k1_pack8 of sixteen pixels, as two halves (the packs work within
/// 128-bit lanes, so pixel order is kept per half).
static inline raster_u16 raster_k1_pack16(raster_k1_f16 r, raster_k1_f16 g, raster_k1_f16 b, raster_k1_f16 a) {
#define RASTER_K1_LOW 0, 1, 2, 3, 4, 5, 6, 7
#define RASTER_K1_HIGH 8, 9, 10, 11, 12, 13, 14, 15
    const raster_k1_u8 lo = raster_k1_pack8(__builtin_shufflevector(r, r, RASTER_K1_LOW), __builtin_shufflevector(g, g, RASTER_K1_LOW),
                                            __builtin_shufflevector(b, b, RASTER_K1_LOW), __builtin_shufflevector(a, a, RASTER_K1_LOW));
    const raster_k1_u8 hi = raster_k1_pack8(__builtin_shufflevector(r, r, RASTER_K1_HIGH), __builtin_shufflevector(g, g, RASTER_K1_HIGH),
                                            __builtin_shufflevector(b, b, RASTER_K1_HIGH), __builtin_shufflevector(a, a, RASTER_K1_HIGH));
#undef RASTER_K1_LOW
#undef RASTER_K1_HIGH
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

#endif
