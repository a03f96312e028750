// The store floor of a whole K2 frame: 750x1334 RGBA8 words (4.0 MB)
// written 500 times in each of four ways, with the minimum and median time
// of one frame. A gradient frame cannot be drawn faster than the fastest
// of these on the same host (summary.md beside this file gives figures).
// Build and run: clang -O3 -march=native Results/studies/probes/frame_store.c -o /tmp/frame_store && /tmp/frame_store
// Needs AVX2.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 750
#define H 1334
#define RUNS 500

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void) {
    const size_t n = (size_t)W * H;
    uint32_t *p = aligned_alloc(64, n * 4 + 64);
    static const char *names[] = { "memset", "aligned 256-bit stores", "non-temporal 256-bit stores",
                                   "row by row, unaligned 256-bit stores" };
    double t[RUNS];
    for (int mode = 0; mode < 4; mode++) {
        for (int r = 0; r < RUNS; r++) {
            const __m256i v = _mm256_set1_epi32(r);
            const double t0 = now_ms();
            if (mode == 0) {
                memset(p, r, n * 4);
            } else if (mode == 1) {
                for (size_t i = 0; i < n; i += 8) _mm256_store_si256((__m256i *)(p + i), v);
            } else if (mode == 2) {
                for (size_t i = 0; i < n; i += 8) _mm256_stream_si256((__m256i *)(p + i), v);
                _mm_sfence();
            } else {
                for (int y = 0; y < H; y++) {
                    uint32_t *row = p + (size_t)y * W;
                    int x = 0;
                    for (; x + 8 <= W; x += 8) _mm256_storeu_si256((__m256i *)(row + x), v);
                    for (; x < W; x++) row[x] = (uint32_t)r;
                }
            }
            // The frame is never read: keep the stores.
            __asm__ volatile("" ::"r"(p) : "memory");
            t[r] = now_ms() - t0;
        }
        qsort(t, RUNS, sizeof t[0], by_value);
        printf("%-38s min %.3f ms, median %.3f ms\n", names[mode], t[0], t[RUNS / 2]);
    }
    free(p);
    return 0;
}
