#ifndef RASTER_PACK8_H
#define RASTER_PACK8_H

#include <stdint.h>
#include <string.h>

#include "raster_omp.h"
#include "raster_quantize.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

/// Eight pixels' lanes (pixel i in lane i) for the 8-pixel steps that both
/// threaded backends share: Swift sees SIMD8<Float>, SIMD8<Int32> and
/// SIMD8<UInt32>, inlines these helpers, and so runs the same instructions
/// as the C kernels. Written once here because Swift's own conversions of
/// SIMD8<Float> to integers and its shifts and masks compiled to about a
/// third more instructions per 8 pixels than these (`objdump -d` of the
/// radial run loops before and after).
typedef float raster_f8 __attribute__((ext_vector_type(8)));
typedef int32_t raster_i8 __attribute__((ext_vector_type(8)));
typedef uint32_t raster_u8 __attribute__((ext_vector_type(8)));

/// Eight pixels' channels as integers, each saturated to [0, 255], as RGBA8
/// words. With AVX2 the saturating packs leave r0-3 g0-3 b0-3 a0-3 in each
/// 128-bit half and one byte shuffle interleaves them per pixel.
static inline raster_u8 raster_pack8_ints(raster_i8 r, raster_i8 g, raster_i8 b, raster_i8 a) {
#if defined(__AVX2__)
    const __m256i order = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                           0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m256i p = _mm256_packus_epi16(_mm256_packs_epi32((__m256i)r, (__m256i)g),
                                          _mm256_packs_epi32((__m256i)b, (__m256i)a));
    return (raster_u8)_mm256_shuffle_epi8(p, order);
#else
    raster_u8 out;
    for (int i = 0; i < 8; i++) {
        const int32_t c[4] = { r[i], g[i], b[i], a[i] };
        uint32_t word = 0;
        for (int ch = 0; ch < 4; ch++) word |= (uint32_t)(c[ch] < 0 ? 0 : (c[ch] > 255 ? 255 : c[ch])) << (8 * ch);
        out[i] = word;
    }
    return out;
#endif
}

/// Eight pixels' channels in 8-bit units, each truncated toward zero and
/// clamped to [0, 255] (raster_truncate_byte: floor(v) for v in [0, 256),
/// NaN 0), as RGBA8 words, for every v below 2^31 (AVX2's conversion turns
/// larger ones into INT32_MIN, which saturates to 0). A caller that adds
/// the half of round-half-up to its colours gets raster_quantize's bytes.
static inline raster_u8 raster_pack8_truncated(raster_f8 r, raster_f8 g, raster_f8 b, raster_f8 a) {
#if defined(__AVX2__)
    return raster_pack8_ints((raster_i8)_mm256_cvttps_epi32((__m256)r), (raster_i8)_mm256_cvttps_epi32((__m256)g),
                             (raster_i8)_mm256_cvttps_epi32((__m256)b), (raster_i8)_mm256_cvttps_epi32((__m256)a));
#else
    raster_u8 out;
    for (int i = 0; i < 8; i++)
        out[i] = raster_truncate_byte(r[i]) | raster_truncate_byte(g[i]) << 8 | raster_truncate_byte(b[i]) << 16 |
                 raster_truncate_byte(a[i]) << 24;
    return out;
#endif
}

/// Eight pixels of a linear run from fixed-point colours
/// (raster_gradient_run_steps: RASTER_GRADIENT_STEP_BITS fraction bits)
/// held in pixel order: vector k has pixel k's r, g, b, a in its low
/// 128-bit half and pixel k + 4's in its high half. Each channel is
/// shifted down to its level and saturated to [0, 255]: with AVX2 four
/// shifts and three packs, the packs' per-half order being the pixels'.
static inline raster_u8 raster_pack8_steps(raster_i8 p0, raster_i8 p1, raster_i8 p2, raster_i8 p3) {
#if defined(__AVX2__)
    const __m256i lo = _mm256_packs_epi32(_mm256_srai_epi32((__m256i)p0, RASTER_GRADIENT_STEP_BITS),
                                          _mm256_srai_epi32((__m256i)p1, RASTER_GRADIENT_STEP_BITS));
    const __m256i hi = _mm256_packs_epi32(_mm256_srai_epi32((__m256i)p2, RASTER_GRADIENT_STEP_BITS),
                                          _mm256_srai_epi32((__m256i)p3, RASTER_GRADIENT_STEP_BITS));
    return (raster_u8)_mm256_packus_epi16(lo, hi);
#else
    const raster_i8 p[4] = { p0, p1, p2, p3 };
    raster_u8 out;
    for (int i = 0; i < 8; i++) {
        const raster_i8 v = p[i % 4] >> RASTER_GRADIENT_STEP_BITS;
        uint32_t word = 0;
        for (int ch = 0; ch < 4; ch++) {
            const int32_t c = v[4 * (i / 4) + ch];
            word |= (uint32_t)(c < 0 ? 0 : (c > 255 ? 255 : c)) << (8 * ch);
        }
        out[i] = word;
    }
    return out;
#endif
}

typedef int32_t raster_i16 __attribute__((ext_vector_type(16)));
typedef uint32_t raster_u16 __attribute__((ext_vector_type(16)));

/// Sixteen pixels of a linear run, as raster_pack8_steps takes eight:
/// vector k has pixel k + 4q's r, g, b, a in its 128-bit quarter q, so
/// each 256-bit half is raster_pack8_steps's layout for pixels 0-7 and
/// 8-15. With AVX-512 (BW) the same four shifts and three packs do all
/// sixteen, the packs working within each quarter: per pixel half the
/// instructions of the 8-pixel step, whose loop was bound by issuing
/// them, not by its stores. Measured on an AVX-512 Xeon, the suite's
/// 750x1334 linear frame at one thread: 0.280 -> 0.241 ms, medians of 8
/// alternating processes' minima (re-check: `span_harness.sh REV` in
/// Results/studies/gradients, REV the build before). Otherwise it is the
/// 8-pixel step on each half.
static inline raster_u16 raster_pack16_steps(raster_i16 p0, raster_i16 p1, raster_i16 p2, raster_i16 p3) {
#if defined(__AVX512BW__)
    const __m512i lo = _mm512_packs_epi32(_mm512_srai_epi32((__m512i)p0, RASTER_GRADIENT_STEP_BITS),
                                          _mm512_srai_epi32((__m512i)p1, RASTER_GRADIENT_STEP_BITS));
    const __m512i hi = _mm512_packs_epi32(_mm512_srai_epi32((__m512i)p2, RASTER_GRADIENT_STEP_BITS),
                                          _mm512_srai_epi32((__m512i)p3, RASTER_GRADIENT_STEP_BITS));
    return (raster_u16)_mm512_packus_epi16(lo, hi);
#else
    const raster_u8 a = raster_pack8_steps(p0.lo, p1.lo, p2.lo, p3.lo), b = raster_pack8_steps(p0.hi, p1.hi, p2.hi, p3.hi);
    return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#endif
}

typedef float raster_f16 __attribute__((ext_vector_type(16)));
typedef uint8_t raster_b16 __attribute__((ext_vector_type(16)));

/// Four RGBA pixels, 16 channel floats (pixel p in lanes 4p ... 4p + 3), as
/// bytes for K3's stores: colour clamped to its pixel's alpha (premultiplied
/// colour never exceeds alpha), each channel clamped to [0, 255] and
/// rounded half up, floor(v + 0.5) of the clamped value (docs/contract.md
/// §1). Clamping before or after the alpha minimum gives the same bytes
/// (both are monotone). Alpha reaches its pixel's lanes by one shuffle; in
/// Swift, whose SIMD minimum and maximum compile to per-lane code, the
/// same store took integer tricks for the clamps and about twice the
/// instructions per 16 channels (re-check: objdump -d of
/// SIMDBlurResampler's upsample and of blur.c's upsample_work).
static inline raster_b16 raster_pack16_alpha_clamped(raster_f16 v) {
    const raster_f16 alpha = __builtin_shufflevector(v, v, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
    v = __builtin_elementwise_min(v, alpha);
    v = __builtin_elementwise_min(__builtin_elementwise_max(v, (raster_f16)0.0f), (raster_f16)255.0f);
    return __builtin_convertvector(__builtin_convertvector(v + 0.5f, raster_i16), raster_b16);
}

/// Eight bilinear taps along a row: base[index[k]] + (base[index[k] + 1] -
/// base[index[k]]) * weight[k], for the up-samplers' horizontal stretch,
/// for any eight indices (`raster_taps8_near` is the usual case). With
/// AVX2 two gathers: Swift has none, and its own lane loop compiles to
/// scalar loads.
static inline raster_f8 raster_taps8(const float *base, raster_i8 index, raster_f8 weight) {
    // Unfused, as Swift's scalar tail computes it.
#pragma clang fp contract(off)
#if defined(__AVX2__)
    const raster_f8 a = (raster_f8)_mm256_i32gather_ps(base, (__m256i)index, 4);
    const raster_f8 b = (raster_f8)_mm256_i32gather_ps(base + 1, (__m256i)index, 4);
#else
    raster_f8 a, b;
    for (int k = 0; k < 8; k++) { a[k] = base[index[k]]; b[k] = base[index[k] + 1]; }
#endif
    return a + (b - a) * weight;
}

/// base[index[k]] for eight indices in first ... first + 7, as in an
/// up-sampler's block of eight outputs (a source no wider than its target
/// steps at most one source column per output column): one unaligned load
/// of eight floats from base + first, permuted into the lanes, where
/// `raster_taps8` gathers. Reads base[first] ... base[first + 7]. On Zen 3
/// the gathers held the K1 down2 frame's stretch at about 2 ns a value
/// (`perf annotate` of PlanarUpsampler's run closure: the samples sit on
/// the gathers' results); a `vpermps` is one micro-op.
static inline raster_f8 raster_floats8_near(const float *base, int first, raster_i8 index) {
    raster_f8 v;
    memcpy(&v, base + first, sizeof v);
#if defined(__AVX2__)
    return (raster_f8)_mm256_permutevar8x32_ps((__m256)v, (__m256i)(index - first));
#else
    raster_f8 out;
    for (int k = 0; k < 8; k++) out[k] = v[(index[k] - first) & 7];
    return out;
#endif
}

/// `raster_taps8` for indices in first ... first + 7 (raster_floats8_near's
/// case), to the bit: the same values reach the same unfused arithmetic.
/// Reads base[first] ... base[first + 8].
static inline raster_f8 raster_taps8_near(const float *base, int first, raster_i8 index, raster_f8 weight) {
#pragma clang fp contract(off)
    const raster_f8 a = raster_floats8_near(base, first, index), b = raster_floats8_near(base + 1, first, index);
    return a + (b - a) * weight;
}

/// The eight RGBA8 words row[index[k]] for indices in first ... first + 7
/// (the resampler's left taps; first + 1 for its right ones): one load
/// of eight words from row + first and a lane permute, the words
/// `raster_taps8_near` reads as floats. Reads row[first] ... row[first + 7].
static inline raster_u8 raster_words8_near(const uint32_t *row, int first, raster_i8 index) {
    // The same lane moves as raster_floats8_near's: moves and permutes
    // carry any 32-bit pattern unchanged.
    return (raster_u8)raster_floats8_near((const float *)(const void *)row, first, index);
}

/// Whether every block of eight taps of `index` (`count` entries, blocks
/// from 0) lies within eight consecutive source columns, so that
/// `raster_taps8_near` may take them.
static inline int raster_taps8_all_near(const int32_t *index, int count) {
    for (int x = 0; x + 8 <= count; x += 8) {
        for (int k = 1; k < 8; k++) {
            const int32_t d = index[x + k] - index[x];
            if (d < 0 || d > 7) return 0;
        }
    }
    return 1;
}

#endif
