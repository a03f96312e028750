#include "raster_omp.h"
#include "pixel.h"

/// Anchors per block: the block's temporaries (3 x 2 KB) and its slice of
/// input and output stay in L1 between the two passes.
#define K5_BLOCK 512

static inline int64_t k5_wrap(int64_t i, int64_t n) { return i < 0 ? i + n : (i >= n ? i - n : i); }

/// One block [b0, b1) of anchors. Pass 1: each tangent t_j (j in b0..b1)
/// and each D_j / 3 once; pass 2: the control points from t_i, t_{i+1} and
/// D_i / 3. Blocks never touching the loop's ends need no index wrapping,
/// so their loops vectorise.
static void k5_block(const float *restrict a, float *restrict o, int64_t n, int64_t b0, int64_t b1) {
    float tx[K5_BLOCK + 1], ty[K5_BLOCK + 1], third[K5_BLOCK + 1];
    const int64_t m = b1 - b0;
    if (b0 >= 1 && b1 + 2 <= n) {
        #pragma omp simd
        for (int64_t k = 0; k <= m; k++) {
            const int64_t j = b0 + k;
            float dx = a[2 * (j + 1)] - a[2 * (j - 1)], dy = a[2 * (j + 1) + 1] - a[2 * (j - 1) + 1];
            float len = sqrtf(dx * dx + dy * dy);
            float inv = len == 0.0f ? 0.0f : 1.0f / len;
            tx[k] = dx * inv;
            ty[k] = dy * inv;
            float ex = a[2 * (j + 1)] - a[2 * j], ey = a[2 * (j + 1) + 1] - a[2 * j + 1];
            third[k] = sqrtf(ex * ex + ey * ey) * (1.0f / 3.0f);
        }
        /* t_{i+1} through offset pointers: indexing tx[k + 1] next to tx[k]
           makes LLVM see a recurrence it then refuses to vectorise. */
        const float *tx1 = tx + 1, *ty1 = ty + 1;
        const float *a0 = a + 2 * b0, *a1 = a + 2 * (b0 + 1);
        float *out = o + 4 * b0;
        #pragma omp simd
        for (int64_t k = 0; k < m; k++) {
            const float d = third[k];
            out[4 * k + 0] = a0[2 * k] + tx[k] * d;
            out[4 * k + 1] = a0[2 * k + 1] + ty[k] * d;
            out[4 * k + 2] = a1[2 * k] - tx1[k] * d;
            out[4 * k + 3] = a1[2 * k + 1] - ty1[k] * d;
        }
        return;
    }
    for (int64_t k = 0; k <= m; k++) {
        const int64_t j = b0 + k, prev = k5_wrap(j - 1, n), cur = k5_wrap(j, n), next = k5_wrap(j + 1, n);
        float dx = a[2 * next] - a[2 * prev], dy = a[2 * next + 1] - a[2 * prev + 1];
        float len = sqrtf(dx * dx + dy * dy);
        float inv = len == 0.0f ? 0.0f : 1.0f / len;
        tx[k] = dx * inv;
        ty[k] = dy * inv;
        float ex = a[2 * next] - a[2 * cur], ey = a[2 * next + 1] - a[2 * cur + 1];
        third[k] = sqrtf(ex * ex + ey * ey) * (1.0f / 3.0f);
    }
    for (int64_t k = 0; k < m; k++) {
        const int64_t i = b0 + k, next = k5_wrap(i + 1, n);
        const float d = third[k];
        o[4 * i + 0] = a[2 * i] + tx[k] * d;
        o[4 * i + 1] = a[2 * i + 1] + ty[k] * d;
        o[4 * i + 2] = a[2 * next] - tx[k + 1] * d;
        o[4 * i + 3] = a[2 * next + 1] - ty[k + 1] * d;
    }
}

void raster_omp_control_points(const float *anchors, float *out, int64_t n, int threads) {
    const int64_t blocks = (n + K5_BLOCK - 1) / K5_BLOCK;
    int team = threads;
    if (team > blocks) team = (int)blocks;
    if (team < 1) team = 1;
    // Blocks taken as threads come free (raster_omp.h says why), a few at a
    // time (a block is a few microseconds).
    const int64_t per = 4, claims = (blocks + per - 1) / per;
    int next = 0;
    static _Thread_local raster_team_site site;
    raster_team_watch watch;
    if (team > 1) team = raster_team_fork(&watch, &site, team, &next, (int)claims);
    if (team == 1) { // on the caller: libomp allocates even for a one-thread region
        for (int64_t b = 0; b < blocks; b++) {
            const int64_t b0 = b * K5_BLOCK, b1 = b0 + K5_BLOCK < n ? b0 + K5_BLOCK : n;
            k5_block(anchors, out, n, b0, b1);
        }
        return;
    }
    #pragma omp parallel num_threads(team)
    {
        raster_team_arrive(&watch);
        RASTER_CLAIM(next, claims, c) {
            for (int64_t b = c * per; b < (c + 1) * per && b < blocks; b++) {
                const int64_t b0 = b * K5_BLOCK, b1 = b0 + K5_BLOCK < n ? b0 + K5_BLOCK : n;
                k5_block(anchors, out, n, b0, b1);
            }
        }
        raster_team_leave(&watch);
    }
    raster_team_join(&watch);
}
