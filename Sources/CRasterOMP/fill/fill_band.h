// K4's C schedule, internal: what the plan (fill_plan.c: the call, its
// bands, their buckets and memory) hands the band (fill_band.c: per strip,
// accumulate or sample, then sweep and paint). Not part of the public header.
#ifndef RASTER_FILL_BAND_H
#define RASTER_FILL_BAND_H

#include "raster_fill.h"
#include "../pixel.h"
#include <string.h>

/* Short names for raster_fill.h's constants (defined there only). */
#define STRIP_ROWS RASTER_OMP_FILL_STRIP_ROWS
#define LANES RASTER_OMP_FILL_LANES
#define CELL_GUARD RASTER_OMP_FILL_CELL_GUARD
#define FIX_ONE RASTER_OMP_FILL_ONE

/* Ternary min/max compile to one vminps/vmaxps (fminf/fmaxf add NaN fix-ups). */
#define MINF(a, b) ((a) < (b) ? (a) : (b))
#define MAXF(a, b) ((a) > (b) ? (a) : (b))

static inline size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/// Sub-scanline k samples y = (k + 0.5) / S, so an edge from y0 to y1
/// (y0 < y1) crosses the sub-scanlines first_sub(y0) ..< first_sub(y1).
static inline int first_sub(float y, int samples) { return (int)ceilf(y * (float)samples - 0.5f); }

/// The staged row steps (one edge crossing one row): their rows, their
/// edges as the buckets hold them (staged as rows of four floats, turned
/// into the four lane vectors x0, y0, x1, y1 by raster_fill_edges_to_lanes),
/// then the batch's results: those a step of any span needs, and four
/// vectors of its first four cells' values turned into rows of four
/// (raster_fill_lanes_to_rows), all a step of span 3 or less needs.
enum { STAGE_ROW, STAGE_X0, STAGE_Y0, STAGE_X1, STAGE_Y1,
       OUT_FIRST, OUT_SECOND, OUT_MIDDLE, OUT_PENULT, OUT_LAST, OUT_INDEX, OUT_SPAN, OUT_ROW, OUT_BASE, OUT_FOUR,
       STAGE_VECTORS = OUT_FOUR + 4 };
_Static_assert(STAGE_VECTORS == RASTER_OMP_FILL_STAGE_VECTORS, "the staging area's vectors, as raster_fill.h counts them");

/// Bytes of a band's staging lanes (see fill_flush_steps).
#define STAGE_VECTORS_BYTES (STAGE_VECTORS * LANES * 4)

/* The band's state, one struct per stage: no struct holds another stage's
   fields (the cell store is shared by value, a few pointers). */

/// Strip work: the band's edges bucketed by strip (raster_fill.h's
/// RASTER_OMP_FILL_BLOCK_SLOTS gives the blocks' layout), strip s's chain
/// starting at block heads[s - band_strip] (-1: empty), and room for the
/// edges carried from strip to strip.
typedef struct {
    const float *blocks;
    const int32_t *heads; /* the band's strips', from its first */
    int band_strip;       /* the band's first strip, from the plan's first */
    int first_strip;      /* the plan's first strip */
    float *carry;         /* two lists of `capacity` edges (4 floats each) */
    int64_t capacity;     /* the edges in the buckets */
} fill_strip_work;

/// One strip of a band's walk down its strips (RasterKit's FillStripWalk):
/// its edges are the `count` carried from the strip above, then its
/// bucket's; those reaching below `limit` (its last row + 1) are kept for
/// the next strip.
typedef struct {
    const float *carried;
    int count;
    float *kept;
    int kept_count;
    float limit;
} fill_walk;

/// Keeps `e` for the next strip if it reaches below this one: stored
/// always, counted when kept (no branch to mispredict).
static inline void fill_walk_keep(fill_walk *k, const float *e) {
    memcpy(k->kept + 4 * (size_t)k->kept_count, e, 4 * sizeof(float));
    k->kept_count += (e[1] > e[3] ? e[1] : e[3]) > k->limit;
}

/* A block of a bucket chain (as floats), its header's two ints. */
#define BLOCK_FLOATS (RASTER_OMP_FILL_BLOCK_SLOTS * 4)
static inline const float *fill_block(const fill_strip_work *w, int32_t b) { return w->blocks + (size_t)b * BLOCK_FLOATS; }
static inline int32_t fill_block_next(const float *block) { int32_t v; memcpy(&v, block, 4); return v; }
static inline int32_t fill_block_count(const float *block) { int32_t v; memcpy(&v, block + 1, 4); return v; }

/// Every edge `e` (const float *, 4 floats) of strip s's bucket, in path order.
#define FOR_EACH_STRIP_EDGE(w, s, e)                                                                      \
    for (const float *block_ = (w)->heads[(s) - (w)->band_strip] < 0                                      \
                                   ? NULL : fill_block((w), (w)->heads[(s) - (w)->band_strip]);           \
         block_;                                                                                          \
         block_ = fill_block_next(block_) < 0 ? NULL : fill_block((w), fill_block_next(block_)))          \
        for (const float *e = block_ + 4, *end_ = block_ + 4 + 4 * fill_block_count(block_); e < end_; e += 4)

/// Runs the statements after `e` for every edge `e` (const float *) of
/// strip s in the walk: the carried ones, then its bucket's.
#define FOR_EACH_WALK_EDGE(w, walk, s, e, ...)                                                  \
    do {                                                                                       \
        for (int k_ = 0; k_ < (walk)->count; k_++) {                                           \
            const float *e = (walk)->carried + 4 * (size_t)k_;                                 \
            __VA_ARGS__                                                                        \
        }                                                                                      \
        FOR_EACH_STRIP_EDGE(w, s, e) { __VA_ARGS__ }                                           \
    } while (0)

/// The cell store: one strip's fixed-point cells, indexed from the layout's
/// origin, and one bitmap bit per touched chunk of LANES cells.
typedef struct {
    uint32_t *cells; /* STRIP_ROWS x cell_stride (+ CELL_GUARD) */
    uint64_t *bits;  /* STRIP_ROWS x words */
    int origin, cell_stride, words;
} fill_cells;

/// Accumulation: row steps staged, computed LANES at a time, added to the cells.
typedef struct {
    fill_cells cells;
    float *lanes; /* STAGE_VECTORS x LANES staged row steps and results */
} fill_accumulator;

/// Supersampling: per sub-scanline crossing lists, inside spans into the cells.
typedef struct {
    fill_cells cells;
    float *crossings; /* 2 floats (x, direction) per crossing */
    int32_t *starts;  /* STRIP_ROWS * samples + 1 */
    int samples;      /* per axis; 0: exact area coverage (the sampler unused) */
    int evenodd;      /* the rule the spans are found by */
} fill_sampler;

/// The painter: the colour and what its blends need.
typedef struct {
    float color[4];
    float alpha;
    int opaque;
    uint32_t solid;
    int integral;                /* every premultiplied channel a whole number: 8-bit blend */
    uint32_t color_rb, color_ga; /* the colour's channels r | b << 16, g | a << 16 */
} fill_painter;

/// The row sweeper: prefix sums, the rule and the painter, onto the image.
typedef struct {
    fill_cells cells;
    fill_painter painter;
    uint8_t *dst;
    ptrdiff_t stride;
    int width;
    int evenodd; /* the rule the sweep applies: even-odd only for area coverage */
} fill_sweeper;

/// One band: its stages, composed.
typedef struct {
    fill_strip_work work;
    fill_accumulator accumulator;
    fill_sampler sampler;
    fill_sweeper sweeper;
    int height;
} fill_band;

/// Rasterises strips [s0, s1) of the plan (relative to its first strip):
/// per strip, the edges' steps accumulated (or the spans sampled) into the
/// band's cells, then every row swept, painted and its cells cleared.
void fill_run_band(const fill_band *band, int s0, int s1);

/// The accumulation stage on its own (for raster_omp_fill_windings): stages
/// edge `e`'s row steps within rows [top, bottom), flushing every full
/// batch; `*staged` is the batch's fill level. fill_flush_steps adds the
/// `count` steps still staged.
void fill_stage_edge(const fill_accumulator *a, const float *e, int top, int bottom, int *staged);
void fill_flush_steps(const fill_accumulator *a, int count, int top);

#endif
