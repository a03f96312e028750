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

/// K4's sizes for one fill, computed by raster_omp_fill_prepare from the
/// edges before any pixel work: the strips (32 rows each) the edges touch,
/// the cell layout (cells from `origin`, `cell_stride` floats a row, one
/// bitmap bit per 16 cells in `words` words a row), the bucket and crossing
/// counts, the thread team, and the scratch memory the caller must supply.
typedef struct raster_omp_fill_plan {
    int first_strip;
    int strip_count;
    int origin;
    int cell_stride;
    int words;
    int samples;
    int bands;
    int64_t entries;
    int64_t max_crossings;
    size_t band_bytes;
    size_t scratch_bytes;
} raster_omp_fill_plan;

/// K4, step 1: plans a fill of `count` edges (4 floats each: x0, y0, x1, y1,
/// in path order, already clipped to the `width` x `height` canvas, y0 != y1)
/// with `samples` samples per axis (0 for exact area coverage) on up to
/// `threads` threads. Returns the scratch bytes raster_omp_fill needs (0
/// when there is nothing to draw). At most 32768 rows.
size_t raster_omp_fill_prepare(const float *edges, int count, int width, int height, int samples, int threads,
                            raster_omp_fill_plan *plan);

/// K4, step 2: composites the edges' coverage source-over onto `dst` with
/// the premultiplied colour `color` (r, g, b, a in 8-bit units, r, g, b <= a):
/// d = c m + d (1 - m c.a / 255). `evenodd` selects the even-odd rule (else
/// nonzero). `scratch` holds plan->scratch_bytes, 64-byte aligned. The image
/// does not depend on the thread count.
void raster_omp_fill(const raster_omp_fill_plan *plan, const float *edges, int count, uint8_t *dst, int width,
                     int height, ptrdiff_t stride, const float color[4], int evenodd, void *scratch, int threads);

/// K5, the Liquid article's tangent control points: `n` >= 3 anchors (x, y
/// interleaved) forming a closed loop give 2n control points in `out`
/// (4n floats: c1_i then c2_i for each arc i -> i + 1), with
/// t_i = normalise(p_{i+1} - p_{i-1}) (zero if that is zero),
/// c1_i = p_i + t_i |p_{i+1} - p_i| / 3, c2_i = p_{i+1} - t_{i+1} |p_{i+1} - p_i| / 3.
void raster_omp_control_points(const float *anchors, float *out, int64_t n, int threads);

#ifdef __cplusplus
}
#endif
#endif
