// The floor of K2's exact off-centre radial frame on this host: the
// folded run loop of both threaded schedules (a square root, four
// multiply-adds, truncation and raster_pack8_truncated per eight pixels,
// then one store) over every pixel of jobs/radial-off.json's 750x1334
// frame as ONE run per row, so nothing is spent finding runs, classifying
// pixels or setting runs up. `nosqrt` times the same loop with the root
// left out (the distance squared stands in for it). Prints the minimum of
// 400 frames in ms, like span_harness, whose `radial-off` and `linear`
// frames it is meant to be read beside (alternate the processes: this
// host drifts 10-40% between minutes).
// Build (from the repository's root):
//   $(dirname $(readlink -f $(command -v swift)))/clang -O3 -march=native \
//     -ffp-contract=fast -I Sources/CRasterOMP/include \
//     Results/studies/gradients/radial_loop_floor.c -lm -o /tmp/radial_loop_floor
// Usage: radial_loop_floor [loop | nosqrt]
#define _GNU_SOURCE
#include "raster_pack8.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    const raster_f8 kr = 0.31f, kg = 0.17f, kb = 0.23f, ka = 0.0f;
    const raster_f8 cr = 11.5f, cg = 40.5f, cb = 70.5f, ca = 255.5f;
    raster_f8 xf = { 0, 1, 2, 3, 4, 5, 6, 7 };
    for (int x = 0; x + 8 <= W; x += 8) {
        const raster_f8 dx = xf - cx;
        const raster_f8 s = dx * dx + dy2;
        const raster_f8 d = root ? __builtin_elementwise_sqrt(s) : s * 0x1p-10f;
        const raster_u8 w = raster_pack8_truncated(d * kr + cr, d * kg + cg, d * kb + cb, d * ka + ca);
        memcpy(out + x, &w, sizeof w);
        xf += 8.0f;
    }
}

int main(int argc, char **argv) {
    const int root = !(argc > 1 && strcmp(argv[1], "nosqrt") == 0);
    uint32_t *image = aligned_alloc(64, (size_t)W * H * 4);
    // jobs/radial-off.json: centre (375.3, 667.3), pixel centres at + 0.5.
    const float cx = 375.3f - 0.5f, cy = 667.3f - 0.5f;
    double best = 1e9;
    for (int f = 0; f < FRAMES; f++) {
        const double t = now();
        for (int y = 0; y < H; y++) {
            const float dy = (float)y - cy;
            row(image + (size_t)y * W, cx, dy * dy, root);
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
