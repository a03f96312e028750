#ifndef RASTER_K1_LANES_H
#define RASTER_K1_LANES_H

#include <stdint.h>

#include "raster_quantize.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

/// Eight-lane steps of K1's blend that both threaded backends call (Swift
/// sees SIMD8<Float> and SIMD8<UInt32>), so the two backends run the same
/// instructions for them.
typedef float raster_k1_f8 __attribute__((ext_vector_type(8)));
typedef uint32_t raster_k1_u8 __attribute__((ext_vector_type(8)));

/// 1 / v in one 256-bit divide. Swift's `1 / v` on SIMD8<Float> is a loop
/// over the lanes that LLVM re-vectorised as two 128-bit divides with the
/// halves of every later product moved in and out of ymm registers (11%
/// of the simd backend's K1 row loop under `perf record`).
static inline raster_k1_f8 raster_k1_reciprocal8(raster_k1_f8 v) { return 1.0f / v; }

/// Eight pixels' channels (pixel i in lane i, 8-bit units) as RGBA8 words:
/// floor(v + 0.5) clamped to [0, 255], the bytes of `raster_quantize` (and
/// of RasterKit's `Lanes.quantize`) for every v below 2^31 - 1. With AVX2
/// it is a truncating conversion of v + 0.5 and saturating packs, which do
/// the clamp: 12 instructions for the four channels, where the per-channel
/// clamp, round and shift-or took about 20 (a blend's channels are in
/// [0, 255] up to rounding, so the clamp is rarely used but must stay).
static inline raster_k1_u8 raster_k1_pack8(raster_k1_f8 r, raster_k1_f8 g, raster_k1_f8 b, raster_k1_f8 a) {
#if defined(__AVX2__)
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256i ri = _mm256_cvttps_epi32(_mm256_add_ps((__m256)r, half));
    const __m256i gi = _mm256_cvttps_epi32(_mm256_add_ps((__m256)g, half));
    const __m256i bi = _mm256_cvttps_epi32(_mm256_add_ps((__m256)b, half));
    const __m256i ai = _mm256_cvttps_epi32(_mm256_add_ps((__m256)a, half));
    // Each 128-bit half holds r0-3 g0-3 b0-3 a0-3 after the packs; the
    // shuffle interleaves them per pixel.
    const __m256i order = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                           0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m256i p = _mm256_packus_epi16(_mm256_packs_epi32(ri, gi), _mm256_packs_epi32(bi, ai));
    return (raster_k1_u8)_mm256_shuffle_epi8(p, order);
#else
    raster_k1_u8 out;
    for (int i = 0; i < 8; i++) {
        out[i] = raster_quantize(r[i]) | raster_quantize(g[i]) << 8 | raster_quantize(b[i]) << 16 |
                 raster_quantize(a[i]) << 24;
    }
    return out;
#endif
}

#endif
