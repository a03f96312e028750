// Whether storing a large interior runs at one speed on this host: writes
// the 600x600 interior of a 750x1334 RGBA8 frame (360,000 pixels, 1.4 MB;
// rows.py's slab) 500 times a round for ROUNDS rounds (default 8) in one
// process and prints each round's median, in µs. On the Zen 4 VM the
// rounds came out at 20.2 or 29-30 µs, switching every few rounds, in one
// process: the host, not the code, decides which.
//
//   clang -O3 -march=native Results/studies/probes/store_rounds.c -o /tmp/store_rounds && /tmp/store_rounds
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

static int ascending(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    enum { W = 750, H = 1334, REPS = 500 };
    const int rounds = argc > 1 ? atoi(argv[1]) : 8;
    uint32_t *img = aligned_alloc(64, (size_t)W * H * 4);
    memset(img, 0, (size_t)W * H * 4);
    for (int round = 0; round < rounds; round++) {
        double t[REPS];
        for (int rep = 0; rep < REPS; rep++) {
            const double start = now();
            for (int y = 100; y < 700; y++) {
                uint32_t *p = img + (size_t)y * W;
                for (int x = 100; x < 700; x++) p[x] = 0xFF54CB32u;
            }
            t[rep] = now() - start;
            __asm__ volatile("" ::"r"(img) : "memory");
        }
        qsort(t, REPS, sizeof t[0], ascending);
        printf("%.1f ", t[REPS / 2] * 1e6);
        fflush(stdout);
    }
    printf("\n");
    free(img);
    return 0;
}
