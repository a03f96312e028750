#ifndef RASTER_K1_LANES_H
#define RASTER_K1_LANES_H

#include "raster_pack8.h"

/// Eight-lane steps of K1's blend that both threaded backends call
/// (raster_pack8.h says why they are shared).
typedef raster_f8 raster_k1_f8;
typedef raster_u8 raster_k1_u8;

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
    return raster_pack8_truncated(r + 0.5f, g + 0.5f, b + 0.5f, a + 0.5f);
}

#endif
