// The store floor of a large fill: how long this CPU takes just to write the
// interior of a radius-300 disc (282,112 pixels, 1.1 MB) on a 750x1334 RGBA8
// frame, again and again (as the benchmark's fill workload does, so the frame
// stays in cache), with the stores a rasteriser could use. Best of 2000 runs.
// A path fill of such a shape cannot beat the best line; K4's `blob` row
// (a 300 px blob, ~255k interior pixels) is measured against it in the
// closing note of issue 4.
//
//   clang -O3 -march=native Results/studies/probes/store_floor.c -o /tmp/store_floor -lm && /tmp/store_floor
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    enum { W = 750, H = 1334 };
    uint32_t *img = aligned_alloc(64, (size_t)W * H * 4);
    memset(img, 0, (size_t)W * H * 4);
    static int x0[H], x1[H];
    long px = 0;
    for (int y = 0; y < H; y++) {
        const double dy = y + 0.5 - H / 2.0, r = 300;
        x0[y] = x1[y] = 0;
        if (fabs(dy) < r) {
            const double h = sqrt(r * r - dy * dy);
            x0[y] = (int)ceil(W / 2.0 - h);
            x1[y] = (int)floor(W / 2.0 + h);
        }
        px += x1[y] - x0[y];
    }
    const char *names[] = {"scalar loop (auto-vectorised)", "512-bit stores, unaligned", "512-bit stores, 64-byte aligned",
                           "512-bit non-temporal stores"};
    const uint32_t v = 0xFF54CB32u;
    for (int mode = 0; mode < 4; mode++) {
        double best = 1e9;
        for (int rep = 0; rep < 2000; rep++) {
            const double t = now();
            for (int y = 0; y < H; y++) {
                uint32_t *p = img + (size_t)y * W;
                int x = x0[y];
                const int b = x1[y];
                const __m512i w = _mm512_set1_epi32((int)v);
                if (mode == 0) {
                    for (; x < b; x++) p[x] = v;
                } else if (mode == 1) {
                    for (; x + 16 <= b; x += 16) _mm512_storeu_si512(p + x, w);
                    for (; x < b; x++) p[x] = v;
                } else {
                    while (x < b && ((uintptr_t)(p + x) & 63)) p[x++] = v;
                    if (mode == 2) for (; x + 16 <= b; x += 16) _mm512_store_si512(p + x, w);
                    else for (; x + 16 <= b; x += 16) _mm512_stream_si512((void *)(p + x), w);
                    for (; x < b; x++) p[x] = v;
                }
            }
            const double e = now() - t;
            if (e < best) best = e;
            __asm__ volatile("" ::"r"(img) : "memory");
        }
        printf("%-34s %ld px: %6.1f us\n", names[mode], px, best * 1e6);
    }
    free(img);
    return 0;
}
