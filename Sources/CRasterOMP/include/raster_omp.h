// RasterBench's C backend: C99 kernels parallelised with OpenMP pragmas.
//
// Every function works on premultiplied RGBA8 rows (`stride` bytes apart)
// and takes the thread count explicitly. The maths of each kernel is the one
// documented in RasterKit/Kernels; this file knows nothing of Swift.
// Built without -fopenmp the pragmas are ignored and everything runs on the
// calling thread; raster_omp_available() tells which build this is.
#ifndef RASTER_OMP_H
#define RASTER_OMP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when compiled with OpenMP, 0 when the pragmas were ignored.
int raster_omp_available(void);

/// The OpenMP runtime's default team size (1 without OpenMP).
int raster_omp_max_threads(void);

/// K1 over one image or plane. `px`, `py` hold `count` point positions in
/// the target's pixels, `colors` 4 floats (r, g, b, a, premultiplied, 8-bit
/// units) per point. `whole_exponent` > 0 evaluates m^e by multiplication;
/// 0 uses powf(m, exponent). `table` (NULL for none) is the `lut` variant's
/// influence curve over t = d^2/L^2 with `table_intervals` + 2 entries.
typedef struct raster_omp_freeform {
    int count;
    const float *px;
    const float *py;
    const float *colors;
    float inv_influence;
    float exponent;
    int whole_exponent;
    const float *table;
    int table_intervals;
} raster_omp_freeform;

/// K1 written as RGBA8 into every pixel of `dst`.
void raster_omp_freeform_rgba8(const raster_omp_freeform *g, uint8_t *dst, int width, int height,
                               ptrdiff_t stride, int threads);

/// K1 written as four Float planes (r, g, b, a; `width * height` each,
/// consecutive) for the down-scaled variants.
void raster_omp_freeform_planes(const raster_omp_freeform *g, float *planes, int width, int height,
                                int threads);

/// Bilinear up-sampling by the integer `scale` of four planes of
/// `sw` x `sh` floats into RGBA8 `dst` (width x height). Scratch:
/// `stretched` holds 4 * width * sh floats, `tap_index` and `tap_weight`
/// `width` entries each. Sampling matches the Swift backends: target centre
/// x + 0.5 reads source index (x + 0.5) / scale - 0.5, clamped.
void raster_omp_upsample(const float *planes, int sw, int sh, float *stretched, int32_t *tap_index,
                         float *tap_weight, int scale, uint8_t *dst, int width, int height,
                         ptrdiff_t stride, int threads);

/// K2. `shape` 0: linear, geometry = {ux, uy, u_origin}, u = x*ux + y*uy +
/// u_origin at pixel centres' integer coordinates (the half-pixel offset is
/// folded into u_origin). 1: radial, geometry = {cx - 0.5, cy - 0.5, 1/r}.
/// The ramp has `intervals` entries: start offset, slope and bias (4 floats
/// each) of the affine colour u * slope + bias. `extend` 0 pad, 1 repeat,
/// 2 reflect.
void raster_omp_gradient(uint8_t *dst, int width, int height, ptrdiff_t stride, int shape,
                         const double geometry[3], const float *starts, const float *slopes,
                         const float *biases, int intervals, int extend, int threads);

/// K6: `dst = src * opacity + dst * (1 - src.a * opacity / 255)`.
void raster_omp_composite(const uint8_t *src, ptrdiff_t src_stride, uint8_t *dst, ptrdiff_t dst_stride,
                          int width, int height, float opacity, int threads);

#ifdef __cplusplus
}
#endif
#endif
