// Small helpers shared by the C kernels (not part of the public header).
#ifndef RASTER_OMP_PIXEL_H
#define RASTER_OMP_PIXEL_H
#include <math.h>
#include <stdint.h>

#include "raster_omp.h"
#include "raster_quantize.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/// Inside a parallel region: every thread of the team runs the statement
/// that follows for the items `i` it claims from the shared counter `next`
/// (an int, 0 before the region) until `count` are claimed. This is
/// schedule(dynamic, 1) by hand: clang 21 lowers that clause to
/// __kmpc_dispatch_deinit, which the libomp of Debian 12 (LLVM 14) lacks,
/// so the program would not link.
#define RASTER_CLAIM(next, count, i) \
    for (int i; (i = __atomic_fetch_add(&(next), 1, __ATOMIC_RELAXED)) < (count);)

/// The calling thread's index in its OpenMP team (0 outside a region or
/// without OpenMP).
static inline int raster_thread_index(void) {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/// Rows per band when `rows` are shared by `team` threads: about
/// RASTER_BANDS_PER_THREAD bands each, none under RASTER_MIN_ROWS_PER_THREAD.
static inline int raster_band_rows(int rows, int team) {
    const int n = rows / (team * RASTER_BANDS_PER_THREAD);
    return n > RASTER_MIN_ROWS_PER_THREAD ? n : RASTER_MIN_ROWS_PER_THREAD;
}

static inline int raster_team(int threads, int rows) {
    int t = rows / RASTER_MIN_ROWS_PER_THREAD;
    if (t < 1) t = 1;
    return threads < t ? threads : t;
}

/// Runs `body` (a statement using `t`, `lo` and `hi`, typically one call of
/// a per-band function: a macro argument cannot hold a bare comma) once for
/// every band [lo, hi) of the rows [0, height): on a team of
/// raster_team(threads, height) OpenMP threads, which take the bands as
/// they come free, `t` being the thread's index in the team (below
/// `threads`, for per-thread scratch); or directly on the caller (t = 0,
/// one band) when that team would be one thread. The direct path matters:
/// libomp allocates (3 mallocs, measured) even for a serialised one-thread
/// region, and a steady-state frame must not.
#define RASTER_PARALLEL_BANDS(height, threads, t, lo, hi, body)                          \
    do {                                                                                 \
        const int raster_rows_ = (height);                                               \
        int raster_team_ = raster_team((threads), raster_rows_);                        \
        const int raster_chunk_ = raster_band_rows(raster_rows_, raster_team_);          \
        const int raster_bands_ = (raster_rows_ + raster_chunk_ - 1) / raster_chunk_;    \
        int raster_next_ = 0;                                                            \
        static _Thread_local raster_team_site raster_site_;                              \
        raster_team_watch raster_watch_;                                                 \
        if (raster_team_ > 1)                                                            \
            raster_team_ = raster_team_fork(&raster_watch_, &raster_site_, raster_team_, \
                                            &raster_next_, raster_bands_);               \
        if (raster_team_ == 1) {                                                         \
            const int t = 0, lo = 0, hi = raster_rows_;                                  \
            body;                                                                        \
        } else {                                                                         \
            _Pragma("omp parallel num_threads(raster_team_)")                            \
            {                                                                            \
                raster_team_arrive(&raster_watch_);                                      \
                const int t = raster_thread_index();                                     \
                RASTER_CLAIM(raster_next_, raster_bands_, raster_b_) {                   \
                    const int lo = raster_b_ * raster_chunk_;                            \
                    const int hi = lo + raster_chunk_ < raster_rows_ ? lo + raster_chunk_ : raster_rows_; \
                    body;                                                                \
                }                                                                        \
                raster_team_leave(&raster_watch_);                                       \
            }                                                                            \
            raster_team_join(&raster_watch_);                                            \
        }                                                                                \
    } while (0)

/// Runs `body` (a statement using the row variable `y`) for every row in
/// [0, height), in the bands of RASTER_PARALLEL_BANDS.
#define RASTER_PARALLEL_ROWS(height, threads, y, body) \
    RASTER_PARALLEL_BANDS(height, threads, raster_t_, raster_lo_, raster_hi_, \
                          for (int y = raster_lo_; y < raster_hi_; y++) { (void)raster_t_; body; })

/// The two stretched source rows a band of a bilinear up-sampler reads:
/// output row y blends source rows y0 and y0 + 1, and consecutive output
/// rows move through the source rows in order, so each source row is
/// stretched once per band into one of two slots of the thread's scratch
/// and stays in cache while the rows that read it are blended. (A frame-
/// sized buffer of stretched rows, written in one pass and read in a
/// second, made the up-sampler bound by memory traffic.)
typedef struct {
    float *slot[2];
    int held[2];
} raster_row_pair;

static inline raster_row_pair raster_row_pair_make(float *memory, ptrdiff_t floats) {
    raster_row_pair p = { { memory, memory + floats }, { -1, -1 } };
    return p;
}

/// Source row `r`, stretched by `stretch(ctx, r, slot)` into the slot that
/// does not hold row `keep` when neither slot holds it.
static inline const float *raster_row_pair_get(raster_row_pair *p, int r, int keep,
                                               void (*stretch)(const void *, int, float *), const void *ctx) {
    if (p->held[0] == r) return p->slot[0];
    if (p->held[1] == r) return p->slot[1];
    const int k = p->held[0] == keep ? 1 : 0;
    stretch(ctx, r, p->slot[k]);
    p->held[k] = r;
    return p->slot[k];
}

static inline uint32_t raster_pack(float r, float g, float b, float a) {
    return raster_quantize(r) | raster_quantize(g) << 8 | raster_quantize(b) << 16 | raster_quantize(a) << 24;
}

/// Lower source index and upper weight of bilinear tap i (see raster_omp_upsample).
static inline void raster_tap(int i, int scale, int limit, int *i0, float *w) {
    float pos = ((float)i + 0.5f) / (float)scale - 0.5f;
    if (pos < 0.0f) pos = 0.0f;
    int k = (int)pos;
    if (k > limit - 1) k = limit - 1;
    float f = pos - (float)k;
    if (f > 1.0f) f = 1.0f;
    *i0 = k;
    *w = k + 1 < limit ? f : 0.0f;
}
#endif
