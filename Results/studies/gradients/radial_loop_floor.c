// The floor of K2's exact off-centre radial frame on this host: the
// folded run loop of both threaded schedules (a square root, four
// multiply-adds, truncation and raster_pack8_truncated per eight pixels,
// then one store) over every pixel of jobs/radial-off.json's 750x1334
// frame as ONE run per row, so nothing is spent finding runs, classifying
// pixels or setting runs up. `nosqrt` times the same loop with the root
// left out (the distance squared stands in for it). `runs` splits each
// row where the job's runs split it (where u crosses 0.6, 1 and 1.4, and
// at the centre column; 5,413 runs, as the schedules find them), their
// ends worked out before the clock starts and each run's coefficients
// read from a table: the run loop's exits and set-ups without any search
// or fold. `z16` is `loop` sixteen pixels a step through the schedules'
// shared step (raster_radial_folded16, raster_radial_lanes.h; the same
// bytes); `est` is `loop` with K1's estimated square root
// (raster_k1_sqrt8: on AVX-512 a 14-bit estimate and a Newton step) in
// place of the root instruction. Prints the minimum of
// 400 frames in ms, like span_harness, whose `radial-off` and `linear`
// frames it is meant to be read beside (alternate the processes: this
// host drifts 10-40% between minutes).
// Build (from the repository's root):
//   $(dirname $(readlink -f $(command -v swift)))/clang -O3 -march=native \
//     -ffp-contract=fast -I Sources/CRasterOMP/include \
//     Results/studies/gradients/radial_loop_floor.c -lm -o /tmp/radial_loop_floor
// Usage: radial_loop_floor [loop | nosqrt | runs | z16 | est]
#define _GNU_SOURCE
#include "raster_pack8.h"
#include "raster_k1_lanes.h"
#include "raster_radial_lanes.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

enum { W = 750, H = 1334, FRAMES = 400 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// One row as one folded run: channel = d * k + c (the half inside c),
// truncated; the coefficients are those of a mid-ramp interval (any
// values whose colours stay in [0, 256) time alike).
__attribute__((noinline)) static void row(uint32_t *out, float cx, float dy2, int root) {
    // root: 1 the instruction, 0 none, 2 the estimate.
    const raster_f8 kr = 0.31f, kg = 0.17f, kb = 0.23f, ka = 0.0f;
    const raster_f8 cr = 11.5f, cg = 40.5f, cb = 70.5f, ca = 255.5f;
    raster_f8 xf = { 0, 1, 2, 3, 4, 5, 6, 7 };
    for (int x = 0; x + 8 <= W; x += 8) {
        const raster_f8 dx = xf - cx;
        const raster_f8 s = dx * dx + dy2;
        const raster_f8 d = root == 2 ? raster_k1_sqrt8(s) : root ? __builtin_elementwise_sqrt(s) : s * 0x1p-10f;
        const raster_u8 w = raster_pack8_truncated(d * kr + cr, d * kg + cg, d * kb + cb, d * ka + ca);
        memcpy(out + x, &w, sizeof w);
        xf += 8.0f;
    }
}

// `row` sixteen pixels a step (the schedules' step), then eight.
__attribute__((noinline)) static void row16(uint32_t *out, float cx, float dy2) {
    const raster_radial_f4 k = { 0.31f, 0.17f, 0.23f, 0.0f }, c = { 11.5f, 40.5f, 70.5f, 255.5f };
    raster_f16 xf = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    int x = 0;
    for (; x + 16 <= W; x += 16) {
        const raster_u16 w = raster_radial_folded16(xf, cx, dy2, k, c, 1);
        memcpy(out + x, &w, sizeof w);
        xf += 16.0f;
    }
    for (; x + 8 <= W; x += 8) {
        const raster_u8 w = raster_radial_folded8((float)x + (raster_f8){ 0, 1, 2, 3, 4, 5, 6, 7 }, cx, dy2, k, c, 1);
        memcpy(out + x, &w, sizeof w);
    }
}

// Four classes' coefficients (any whose colours stay in [0, 256)).
static const float K[4][4] = { { 0.31f, 0.17f, 0.23f, 0 }, { 0.21f, 0.27f, 0.13f, 0 },
                               { 0.11f, 0.37f, 0.03f, 0 }, { 0.41f, 0.07f, 0.33f, 0 } };
static const float C[4][4] = { { 11.5f, 40.5f, 70.5f, 255.5f }, { 21.5f, 30.5f, 60.5f, 255.5f },
                               { 31.5f, 20.5f, 50.5f, 255.5f }, { 41.5f, 10.5f, 40.5f, 255.5f } };

// One row as runs ending at ends[0..n), run i shaded with class i % 4's
// coefficients, the loop bounded as the C schedule's folded loop is.
__attribute__((noinline)) static void row_runs(uint32_t *out, float cx, float dy2, const int *ends, int n) {
    int x = 0;
    for (int i = 0; i < n; i++) {
        const float *k = K[i % 4], *c = C[i % 4];
        const raster_f8 kr = k[0], kg = k[1], kb = k[2], ka = k[3];
        const raster_f8 cr = c[0], cg = c[1], cb = c[2], ca = c[3];
        raster_f8 xf = (float)x + (raster_f8){ 0, 1, 2, 3, 4, 5, 6, 7 };
        const int x1 = ends[i], vector_end = x1 < W - 7 ? x1 : W - 7;
        for (; x < vector_end; x += 8) {
            const raster_f8 dx = xf - cx;
            const raster_f8 d = __builtin_elementwise_sqrt(dx * dx + dy2);
            const raster_u8 w = raster_pack8_truncated(d * kr + cr, d * kg + cg, d * kb + cb, d * ka + ca);
            memcpy(out + x, &w, sizeof w);
            xf += 8.0f;
        }
        x = x1;
    }
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "loop";
    const int root = strcmp(mode, "nosqrt") == 0 ? 0 : (strcmp(mode, "est") == 0 ? 2 : 1);
    const int z16 = strcmp(mode, "z16") == 0;
    const int runs = strcmp(mode, "runs") == 0;
    uint32_t *image = aligned_alloc(64, (size_t)W * H * 4);
    // jobs/radial-off.json: centre (375.3, 667.3), pixel centres at + 0.5.
    const float cx = 375.3f - 0.5f, cy = 667.3f - 0.5f;
    // `runs`: each row's run ends, at the real x where u = sqrt((x - cx)^2
    // + dy^2) / radius crosses the job's class edges (reflect: t = 0.6 at
    // u = 0.6 and 1.4, the mirror at u = 1), left side then right.
    static int ends[H][16], count[H];
    long total = 0;
    const double radius = 382.59443278751456, edges[] = { 0.6, 1.0, 1.4 };
    for (int y = 0; y < H; y++) {
        const double dy = (double)y - cy;
        int n = 0;
        for (int j = 2; j >= 0; j--) {
            const double s = edges[j] * edges[j] * radius * radius - dy * dy;
            const int e = s > 0 ? (int)ceil(cx - sqrt(s)) : 0;
            if (e > 0 && e < W) ends[y][n++] = e;
        }
        ends[y][n++] = (int)ceil(cx);
        for (int j = 0; j < 3; j++) {
            const double s = edges[j] * edges[j] * radius * radius - dy * dy;
            const int e = s > 0 ? (int)ceil(cx + sqrt(s)) : W;
            if (e > 0 && e < W) ends[y][n++] = e;
        }
        ends[y][n++] = W;
        count[y] = n;
        total += n;
    }
    if (runs) fprintf(stderr, "(%ld runs)\n", total);
    double best = 1e9;
    for (int f = 0; f < FRAMES; f++) {
        const double t = now();
        for (int y = 0; y < H; y++) {
            const float dy = (float)y - cy;
            if (runs) row_runs(image + (size_t)y * W, cx, dy * dy, ends[y], count[y]);
            else if (z16) row16(image + (size_t)y * W, cx, dy * dy);
            else row(image + (size_t)y * W, cx, dy * dy, root);
        }
        const double e = now() - t;
        if (e < best) best = e;
    }
    uint32_t h = 0;
    for (size_t i = 0; i < (size_t)W * H; i += 4099) h ^= image[i];
    printf("%.4f\n", best * 1e3);
    fprintf(stderr, "(check %08x)\n", h);
    free(image);
    return 0;
}
