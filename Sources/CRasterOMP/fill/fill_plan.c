// K4, anti-aliased path fill: the C schedule's plan -- the call, its bands
// (each OpenMP thread takes a contiguous run of 32-row strips), and per band
// its edges, bucketed by strip (asked of the caller: RasterKit's
// FillStrips, run on the band's own thread), and its memory. The band's
// work is fill_band.c.
#include "fill_band.h"

/// The call's settings, shared by every band.
typedef struct {
    const raster_omp_fill_plan *plan;
    const raster_omp_fill_source *source;
    uint8_t *dst;
    ptrdiff_t stride;
    int width, height;
    fill_painter painter;
    int evenodd;
} fill_call;

/// Strips [s0, s1) as band b: takes their edges, bucketed by strip, from
/// the caller and rasterises them, in memory the caller keeps for band b.
static void fill_strips(const fill_call *shared, int b, int s0, int s1) {
    const raster_omp_fill_plan *plan = shared->plan;
    if (s0 >= s1) return;
    raster_omp_fill_buckets buckets;
    if (!shared->source->edges(shared->source->context, b, plan->first_strip + s0, plan->first_strip + s1, &buckets))
        return;
    const int samples = plan->samples;

    /* The band's memory, in one block from the caller: cells and bitmap
       first, where a block kept for the same layout is still all zero
       (every sweep clears what it swept), so only new memory is cleared. */
    const size_t cell_bytes = align64(((size_t)STRIP_ROWS * plan->cell_stride + CELL_GUARD) * 4);
    const size_t bit_bytes = align64((size_t)STRIP_ROWS * plan->words * 8);
    const size_t crossing_bytes = align64((size_t)(buckets.crossings > 0 ? buckets.crossings : 1) * 8);
    const size_t carry_bytes = align64(2 * (size_t)buckets.edges * 4 * sizeof(float));
    const size_t start_bytes = align64((size_t)(STRIP_ROWS * samples + 1) * 4);
    const uint64_t layout = (uint64_t)plan->cell_stride << 32 | (uint64_t)plan->words;
    int same = 0;
    uint8_t *m = (uint8_t *)shared->source->memory(shared->source->context, b,
        cell_bytes + bit_bytes + crossing_bytes + start_bytes + carry_bytes + align64(STAGE_VECTORS_BYTES), layout,
        &same);
    const fill_cells cells = { .cells = (uint32_t *)m, .bits = (uint64_t *)(m + cell_bytes),
                               .origin = plan->origin, .cell_stride = plan->cell_stride, .words = plan->words };
    if (!same) memset(m, 0, cell_bytes + bit_bytes);
    m += cell_bytes + bit_bytes;
    float *crossing_lists = (float *)m;
    m += crossing_bytes;
    int32_t *starts = (int32_t *)m;
    m += start_bytes;
    float *carry = (float *)m;
    m += carry_bytes;
    float *lanes = (float *)m;

    const fill_band band = {
        .work = { .blocks = buckets.blocks, .heads = buckets.heads, .band_strip = s0, .first_strip = plan->first_strip,
                  .carry = carry, .capacity = buckets.edges },
        .accumulator = { .cells = cells, .lanes = lanes },
        .sampler = { .cells = cells, .crossings = crossing_lists, .starts = starts, .samples = samples,
                     .evenodd = shared->evenodd },
        /* Supersampled spans never overlap on a sub-scanline: their cells
           hold plain sample counts (the rule was applied per span), so the
           sweep clamps them like nonzero. */
        .sweeper = { .cells = cells, .painter = shared->painter, .dst = shared->dst,
                     .stride = shared->stride, .width = shared->width, .evenodd = samples == 0 && shared->evenodd },
        .height = shared->height,
    };
    fill_run_band(&band, s0, s1);
}

/// Band b of the plan's bands.
static void fill_band_at(const fill_call *shared, int b) {
    const raster_omp_fill_plan *plan = shared->plan;
    fill_strips(shared, b, (int)((int64_t)plan->strip_count * b / plan->bands),
                (int)((int64_t)plan->strip_count * (b + 1) / plan->bands));
}

void raster_omp_fill(const raster_omp_fill_plan *plan, const raster_omp_fill_source *source, uint8_t *dst,
                     int width, int height, ptrdiff_t stride, const float color[4], int evenodd) {
    if (plan->strip_count <= 0 || plan->strip_count > RASTER_OMP_FILL_MAX_STRIPS || plan->bands < 1) return;
    fill_call c = {
        .plan = plan, .source = source, .dst = dst, .stride = stride, .width = width, .height = height,
        .evenodd = evenodd,
        .painter = {
            .color = { color[0], color[1], color[2], color[3] }, .alpha = color[3] / 255.0f,
            .opaque = color[3] >= 255.0f, .solid = raster_pack(color[0], color[1], color[2], color[3]),
            .integral = color[0] == rintf(color[0]) && color[1] == rintf(color[1]) && color[2] == rintf(color[2])
                     && color[3] == rintf(color[3]),
            .color_rb = (uint32_t)color[0] | (uint32_t)color[2] << 16,
            .color_ga = (uint32_t)color[1] | (uint32_t)color[3] << 16,
        },
    };
    // Bands taken as threads come free (raster_omp.h says why).
    int next = 0;
    static _Thread_local raster_team_site site;
    raster_team_watch watch;
    const int team = plan->bands > 1 ? raster_team_fork(&watch, &site, plan->bands, &next, plan->bands) : 1;
    // A team of one runs on the caller: libomp allocates even for a
    // one-thread region, and a steady-state frame must not (see
    // RASTER_PARALLEL_ROWS). It runs every strip as one band, exactly the
    // 1-thread work.
    if (team == 1) {
        fill_strips(&c, 0, 0, plan->strip_count);
        return;
    }
    #pragma omp parallel num_threads(team)
    {
        raster_team_arrive(&watch);
        RASTER_CLAIM(next, plan->bands, b) fill_band_at(&c, b);
        raster_team_leave(&watch);
    }
    raster_team_join(&watch);
}

/* ---- the accumulation stage alone (for differential tests) ------------ */

size_t raster_omp_fill_windings_bytes(int width) {
    const int stride = (width + 2 + LANES - 1) & ~(LANES - 1);
    const int words = (stride / LANES + 63) / 64;
    return align64(((size_t)STRIP_ROWS * stride + CELL_GUARD) * 4) + align64((size_t)STRIP_ROWS * words * 8)
         + align64(STAGE_VECTORS_BYTES);
}

void raster_omp_fill_windings(const float *edges, int count, int width, int height, void *memory, int32_t *out) {
    const int stride = (width + 2 + LANES - 1) & ~(LANES - 1);
    uint8_t *m = (uint8_t *)memory;
    const size_t cell_bytes = align64(((size_t)STRIP_ROWS * stride + CELL_GUARD) * 4);
    const int words = (stride / LANES + 63) / 64;
    const fill_accumulator band = {
        .cells = { .cells = (uint32_t *)m, .bits = (uint64_t *)(m + cell_bytes), .origin = 0, .cell_stride = stride,
                   .words = words },
        .lanes = (float *)(m + cell_bytes + align64((size_t)STRIP_ROWS * words * 8)),
    };
    for (int top = 0; top < height; top += STRIP_ROWS) {
        const int bottom = top + STRIP_ROWS < height ? top + STRIP_ROWS : height;
        memset(band.cells.cells, 0, ((size_t)STRIP_ROWS * stride + CELL_GUARD) * 4);
        int staged = 0;
        for (int i = 0; i < count; i++) {
            const float *e = edges + 4 * i;
            if (MAXF(e[1], e[3]) <= (float)top || MINF(e[1], e[3]) >= (float)bottom) continue;
            fill_stage_edge(&band, e, top, bottom, &staged);
        }
        if (staged > 0) fill_flush_steps(&band, staged, top);
        for (int y = top; y < bottom; y++) {
            uint32_t sum = 0;
            for (int x = 0; x < width + 2; x++) {
                sum += band.cells.cells[(size_t)(y - top) * stride + x];
                out[(size_t)y * (width + 2) + x] = (int32_t)sum;
            }
        }
    }
}

