#ifndef RASTER_QUANTIZE_H
#define RASTER_QUANTIZE_H

#include <stdint.h>

/// The byte of v truncated toward zero and clamped to [0, 255]: floor(v)
/// for v in [0, 256). The comparisons are written so that NaN clamps to 0
/// (each keeps v only when it holds): a NaN reaching the int conversion
/// would be undefined behaviour, and 0 is what AVX2's conversion and
/// saturating packs give it (raster_pack8_truncated). Written this way they
/// are still one maxss and one minss each.
/// The conversion is to a signed int: AVX2 has a vector float -> int32 but
/// no float -> uint32 (clang pads the unsigned one with a sign fix-up of
/// several instructions per vector; `objdump -d` of resample_band shows it).
static inline uint32_t raster_truncate_byte(float v) {
    v = v > 0.0f ? v : 0.0f;
    v = v < 255.0f ? v : 255.0f;
    return (uint32_t)(int32_t)v;
}

/// docs/contract.md §1: clamp to [0, 255], round to nearest, ties away from
/// zero: the truncated byte of v + 1/2. Clamping before adding the half or
/// after gives the same byte (below 0 and above 255 both end at the
/// bound, NaN at 0).
static inline uint32_t raster_quantize(float v) { return raster_truncate_byte(v + 0.5f); }

#endif
