#ifndef RASTER_RADIAL_LANES_H
#define RASTER_RADIAL_LANES_H

#include "raster_pack8.h"
#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

/// The pixels of K2's folded radial runs (raster_gradient_radial_fold: a
/// run whose colours need no clamp), for both threaded backends, so that
/// they run the same instructions and draw the same bytes:
///
///     d = sqrt((x - cx)^2 + dy2),  channel = trunc(d k + c)
///
/// (the half of round-half-up is inside c; each product-sum is one fused
/// multiply-add). Lanes past the run's end hold other pixels' values, possibly
/// outside [0, 256): the saturating packs keep every conversion defined,
/// and the caller's later runs overwrite those pixels. With `flat_alpha`
/// (k.w == 0, every opaque ramp) alpha is c.w converted, which is what
/// d * 0 + c.w gives for the run's finite d.
typedef float raster_radial_f4 __attribute__((ext_vector_type(4)));

static inline __attribute__((always_inline)) raster_u8 raster_radial_folded8(raster_f8 xf, float cx, float dy2,
                                                                             raster_radial_f4 k, raster_radial_f4 c,
                                                                             int flat_alpha) {
    const raster_f8 dx = xf - cx;
    const raster_f8 d = __builtin_elementwise_sqrt(__builtin_elementwise_fma(dx, dx, (raster_f8)dy2));
    const raster_f8 a = flat_alpha ? (raster_f8)c.w : __builtin_elementwise_fma(d, (raster_f8)k.w, (raster_f8)c.w);
    return raster_pack8_truncated(__builtin_elementwise_fma(d, (raster_f8)k.x, (raster_f8)c.x),
                                  __builtin_elementwise_fma(d, (raster_f8)k.y, (raster_f8)c.y),
                                  __builtin_elementwise_fma(d, (raster_f8)k.z, (raster_f8)c.z), a);
}

/// Sixteen pixels (pixel i in lane i), the same lanes as two calls of the
/// 8-pixel step. With AVX-512 (BW) one 512-bit register a channel and the
/// packs working within each 128-bit quarter, which holds four pixels in
/// order: half the instructions of two 8-pixel steps. The run loop is
/// bound by issuing its instructions, not by the square root: on a 2-core
/// Zen 4 VM the folded loop over a whole 750x1334 frame, one run a row,
/// took 0.190 ms in 16 lanes against 0.270 in 8 (minima of 400 frames,
/// six alternating processes each, the same bytes; re-check with
/// `radial_loop_floor z16` and `loop` in Results/studies/gradients).
/// Otherwise the 8-pixel step on each half.
static inline __attribute__((always_inline, min_vector_width(512))) raster_u16
raster_radial_folded16(raster_f16 xf, float cx, float dy2, raster_radial_f4 k, raster_radial_f4 c, int flat_alpha) {
#if defined(__AVX512BW__)
    const raster_f16 dx = xf - cx;
    const raster_f16 d = __builtin_elementwise_sqrt(__builtin_elementwise_fma(dx, dx, (raster_f16)dy2));
    const __m512i r = _mm512_cvttps_epi32((__m512)__builtin_elementwise_fma(d, (raster_f16)k.x, (raster_f16)c.x));
    const __m512i g = _mm512_cvttps_epi32((__m512)__builtin_elementwise_fma(d, (raster_f16)k.y, (raster_f16)c.y));
    const __m512i b = _mm512_cvttps_epi32((__m512)__builtin_elementwise_fma(d, (raster_f16)k.z, (raster_f16)c.z));
    const __m512i a = _mm512_cvttps_epi32(
        (__m512)(flat_alpha ? (raster_f16)c.w : __builtin_elementwise_fma(d, (raster_f16)k.w, (raster_f16)c.w)));
    // Per quarter: r0-3 g0-3 b0-3 a0-3 as bytes, then each pixel's four.
    const __m512i order = _mm512_set4_epi32(0x0f0b0703, 0x0e0a0602, 0x0d090501, 0x0c080400);
    const __m512i p = _mm512_packus_epi16(_mm512_packs_epi32(r, g), _mm512_packs_epi32(b, a));
    return (raster_u16)_mm512_shuffle_epi8(p, order);
#else
    const raster_f8 lo = __builtin_shufflevector(xf, xf, 0, 1, 2, 3, 4, 5, 6, 7);
    const raster_f8 hi = __builtin_shufflevector(xf, xf, 8, 9, 10, 11, 12, 13, 14, 15);
    const raster_u8 a = raster_radial_folded8(lo, cx, dy2, k, c, flat_alpha);
    const raster_u8 b = raster_radial_folded8(hi, cx, dy2, k, c, flat_alpha);
    return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#endif
}

#endif
