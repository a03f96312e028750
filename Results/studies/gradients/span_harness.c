// K2's linear frame drawn by the C schedule alone (raster_omp_gradient),
// without the harness around it, to time changes to the span code and the
// run loops in one process: the suite's 750x1334 corner-to-corner frame
// (Telegram's four colours at 0, 1/3, 2/3, 1, pad), min of 400 frames.
// `check` instead draws eleven linear gradients (pad, repeat, reflect, both
// directions, a vertical one, coincident stops, stops outside [0, 1],
// colours beyond [0, 255]) and five radial ones (centred on a pixel, off
// it, off the canvas, coincident stops, steep) at 1 and 2 threads and
// prints a hash of each: two builds that print the same hashes draw the
// same bytes. Every ramp is built as the suite builds it (GradientRamp:
// constant colours before the first stop and from the last), which is what
// the C kernels expect.
// A frame name ending in `-lut` (linear-lut, radial-lut, radial-off-lut)
// draws the frame with the `lut` variant (raster_omp_gradient_lut), and
// `check` hashes the lut frames of its radial cases too, when the build has
// the variant (HARNESS_LUT, set by span_harness.sh).
// Built and run by span_harness.sh. Usage: span_harness THREADS [check | linear | radial | radial-off][-lut]
#define _GNU_SOURCE
#include "raster_omp.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t fnv(const uint8_t *p, size_t n, uint64_t h) {
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ull; }
    return h;
}

/// The ramp as the suite builds it (GradientRamp): the first colour from
/// -inf, an interval per pair of stops that are apart (a hard stop has
/// none), the last colour from the last stop on. Fills `starts`, `slopes`
/// and `biases` and returns the interval count.
static int ramp(int stops, const float *offsets, float colors[][4], float *starts, float *slopes, float *biases) {
    int n = 0;
    starts[n] = -INFINITY;
    for (int ch = 0; ch < 4; ch++) { slopes[4 * n + ch] = 0; biases[4 * n + ch] = colors[0][ch]; }
    n++;
    for (int k = 0; k < stops - 1; k++) {
        const float w = offsets[k + 1] - offsets[k];
        if (!(w > 0)) continue;
        starts[n] = offsets[k];
        for (int ch = 0; ch < 4; ch++) {
            const float s = (colors[k + 1][ch] - colors[k][ch]) / w;
            slopes[4 * n + ch] = s;
            biases[4 * n + ch] = colors[k][ch] - s * offsets[k];
        }
        n++;
    }
    starts[n] = offsets[stops - 1];
    for (int ch = 0; ch < 4; ch++) { slopes[4 * n + ch] = 0; biases[4 * n + ch] = colors[stops - 1][ch]; }
    return n + 1;
}

int main(int argc, char **argv) {
    enum { W = 750, H = 1334 };
    const int threads = argc > 1 ? atoi(argv[1]) : 1;
    uint8_t *img = aligned_alloc(64, (size_t)W * H * 4);
    // u = ((x + 0.5) * a + (y + 0.5) * b): (0, 0) -> (W, H).
    const double l2 = (double)W * W + (double)H * H, a = W / l2, b = H / l2;
    float colors[4][4] = { { 0x7F, 0xA3, 0x81, 255 }, { 0xFF, 0xF5, 0xC5, 255 },
                           { 0x33, 0x6F, 0x55, 255 }, { 0xFB, 0xE3, 0x7D, 255 } };
    float slopes[24], biases[24];
    if (argc > 2 && strcmp(argv[2], "check") == 0) {
        const double r0 = 1.0 / (0.25 * sqrt(l2));
        const struct { int shape; double g[3]; int extend; float starts[4]; float contrast; } cases[] = {
            { 0, { a, b, 0.5 * a + 0.5 * b }, 0, { 0, 1.f / 3, 2.f / 3, 1 }, 1 },
            { 0, { -a, b, 1 - 0.5 * a }, 0, { 0, 1.f / 3, 2.f / 3, 1 }, 1 },
            { 0, { a * 7, b * 3, 0.1 }, 1, { 0, 1.f / 3, 2.f / 3, 1 }, 1 },
            { 0, { -a * 9, b * 5, 0.3 }, 2, { 0, 1.f / 3, 2.f / 3, 1 }, 1 },
            { 0, { a, b, -0.2 }, 0, { 0, 0.5f, 0.5f, 1 }, 1 },
            { 0, { 1e-6, b, 0.0 }, 0, { 0, 1.f / 3, 2.f / 3, 1 }, 1 },
            { 0, { 0, b, 0.0 }, 0, { 0, 1.f / 3, 2.f / 3, 1 }, 1 },
            { 0, { a * 0.5, b * 0.1, -0.5 }, 0, { 0.2f, 0.3f, 0.31f, 0.9f }, 3 },
            { 0, { a * 50, b, 0.0 }, 1, { 0, 0.25f, 0.5f, 1 }, 1 },
            { 0, { -a * 3, -b, 1.2 }, 0, { -0.5f, 0.2f, 0.2f, 1.5f }, 1 },
            { 0, { 0.01, 0.002, -3 }, 2, { 0, 0.1f, 0.9f, 1 }, 1 },
            // Radial: {cx - 0.5, cy - 0.5, 1 / r}.
            { 1, { W / 2.0 - 0.5, H / 2.0 - 0.5, r0 }, 2, { 0, 0.3f, 0.6f, 1 }, 1 },
            { 1, { W / 2.0 - 0.2, H / 2.0 - 0.2, r0 }, 0, { 0, 0.3f, 0.6f, 1 }, 1 },
            { 1, { 100.3, 900.7, r0 * 4 }, 1, { 0, 0.5f, 0.5f, 1 }, 1 },
            { 1, { -300, 200, r0 * 0.5 }, 2, { 0.1f, 0.2f, 0.8f, 0.9f }, 3 },
            { 1, { W / 2.0, H / 3.0, r0 * 40 }, 2, { 0, 0.3f, 0.6f, 1 }, 1 },
        };
        for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            float c[4][4];
            for (int k = 0; k < 4; k++)
                for (int ch = 0; ch < 4; ch++) c[k][ch] = (colors[k][ch] - 128) * cases[i].contrast + 128;
            float starts[6];
            const int intervals = ramp(4, cases[i].starts, c, starts, slopes, biases);
            for (int t = 1; t <= 2; t++) {
                memset(img, 0, (size_t)W * H * 4);
                raster_omp_gradient(img, W, H, W * 4, cases[i].shape, cases[i].g, starts, slopes, biases, intervals,
                                    cases[i].extend, t);
                printf("case %u threads %d %016llx\n", i, t,
                       (unsigned long long)fnv(img, (size_t)W * H * 4, 1469598103934665603ull));
#ifdef HARNESS_LUT
                if (cases[i].shape == 0) continue;
                uint32_t lut[RASTER_GRADIENT_LUT_MAX + 2];
                const int size = raster_gradient_lut_size(slopes, intervals);
                raster_gradient_lut_build(lut, size, starts, slopes, biases, intervals);
                memset(img, 0, (size_t)W * H * 4);
                raster_omp_gradient_lut(img, W, H, W * 4, 1, cases[i].g, lut, size, cases[i].extend, t);
                printf("case %u lut threads %d %016llx\n", i, t,
                       (unsigned long long)fnv(img, (size_t)W * H * 4, 1469598103934665603ull));
#endif
            }
        }
        return 0;
    }
    // `radial`: the suite's radial frame instead (centre (W/2, H/2), radius
    // a quarter of the diagonal, three stops, reflect), or with `radial-off`
    // its centre moved by (0.3, 0.3) px, so that rows have no mirror.
    const int radial = argc > 2 && strncmp(argv[2], "radial", 6) == 0;
    const double off = argc > 2 && strncmp(argv[2], "radial-off", 10) == 0 ? 0.3 : 0.0;
    const size_t name = argc > 2 ? strlen(argv[2]) : 0;
    const int with_lut = name >= 4 && strcmp(argv[2] + name - 4, "-lut") == 0;
#ifndef HARNESS_LUT
    if (with_lut) { fprintf(stderr, "this build has no lut variant\n"); return 1; }
#endif
    const double linear_geometry[3] = { a, b, 0.5 * a + 0.5 * b };
    const double radial_geometry[3] = { W / 2.0 + off - 0.5, H / 2.0 + off - 0.5, 1.0 / (0.25 * sqrt(l2)) };
    const float linear_offsets[4] = { 0, 1.f / 3, 2.f / 3, 1 }, radial_offsets[3] = { 0, 0.6f, 1 };
    float radial_colors[3][4] = { { 0xFF, 0xF5, 0xC5, 255 }, { 0x7F, 0xA3, 0x81, 255 }, { 0x33, 0x6F, 0x55, 255 } };
    float starts[6];
    const int intervals = radial ? ramp(3, radial_offsets, radial_colors, starts, slopes, biases)
                                 : ramp(4, linear_offsets, colors, starts, slopes, biases);
#ifdef HARNESS_LUT
    uint32_t lut[RASTER_GRADIENT_LUT_MAX + 2];
    const int size = raster_gradient_lut_size(slopes, intervals);
    raster_gradient_lut_build(lut, size, starts, slopes, biases, intervals);
#endif
    double best = 1;
    for (int rep = 0; rep < 400; rep++) {
        const double t0 = now();
#ifdef HARNESS_LUT
        if (with_lut)
            raster_omp_gradient_lut(img, W, H, W * 4, radial, radial ? radial_geometry : linear_geometry, lut, size,
                                    radial ? 2 : 0, threads);
        else
#endif
        if (radial)
            raster_omp_gradient(img, W, H, W * 4, 1, radial_geometry, starts, slopes, biases, intervals, 2, threads);
        else
            raster_omp_gradient(img, W, H, W * 4, 0, linear_geometry, starts, slopes, biases, intervals, 0, threads);
        const double t = now() - t0;
        if (t < best) best = t;
    }
    printf("%.4f\n", best * 1e3);
    return 0;
}
