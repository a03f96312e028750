// K1's full frame as the suite draws it (Fixtures.telegram at 750x1334: four
// points, L = 750 px, e = 4, opaque), through the C schedule's entry point
// alone, to try a change to the quartic blend without a Swift build. Prints
// the minimum of 200 frames in ms (and how many regions ran as a team or
// alone); with a second argument, an FNV-1a hash of the frame's bytes
// instead, to check that a change keeps them. Build against a copy of the
// sources (SRC: the CRasterOMP folder of this tree or of a changed copy):
//   SRC=Sources/CRasterOMP; omp=$(dirname "$(find /usr/lib/llvm-* -name omp.h | head -1)")
//   lib=$(dirname "$(find /usr/lib/llvm-* -name libomp.so | head -1)")
//   $(dirname "$(readlink -f "$(command -v swift)")")/clang -O3 -std=c11 -ffp-contract=fast \
//     -fno-math-errno -march=native -fopenmp -I$omp -I$SRC/include -I$SRC \
//     Results/studies/gradients/k1_harness.c $SRC/freeform.c $SRC/runtime.c $SRC/affinity.c \
//     -L$lib -Wl,-rpath,$lib -lomp -lm -o /tmp/k1_harness
//   /tmp/k1_harness 1        # ms at 1 thread;  /tmp/k1_harness 1 hash
// On a host with two speeds, run two builds alternately several times and
// compare their sorted minima.
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "raster_omp.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    const int W = 750, H = 1334, threads = argc > 1 ? atoi(argv[1]) : 1, hash = argc > 2;
    float px[4] = { 600, 262.5f, 150, 487.5f }, py[4] = { 133.4f, 333.5f, 1200.6f, 1000.5f };
    float colors[16] = { 0x7F, 0xA3, 0x81, 255, 0xFF, 0xF5, 0xC5, 255, 0x33, 0x6F, 0x55, 255, 0xFB, 0xE3, 0x7D, 255 };
    const int pitch = (W + 63) / 64 * 64;
    float *columns = aligned_alloc(64, sizeof(float) * 4 * pitch);
    uint8_t *img = aligned_alloc(64, (size_t)W * H * 4);
    const raster_omp_freeform g = {
        .count = 4, .px = px, .py = py, .colors = colors, .inv_influence = 1.0f / 750, .exponent = 4,
        .whole_exponent = 4, .table = NULL, .table_intervals = 0, .sample_x = 1, .sample_y = 1, .swirl = 0,
        .columns = columns, .pitch = pitch, .uniform_alpha = 1,
    };
    if (hash) {
        raster_omp_freeform_rgba8(&g, img, W, H, W * 4, threads);
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < (size_t)W * H * 4; i++) h = (h ^ img[i]) * 1099511628211ull;
        printf("%016llx\n", (unsigned long long)h);
        return 0;
    }
    double best = 1;
    for (int rep = 0; rep < 200; rep++) {
        const double t0 = now();
        raster_omp_freeform_rgba8(&g, img, W, H, W * 4, threads);
        const double t = now() - t0;
        if (t < best) best = t;
    }
    uint64_t team, solo;
    raster_team_tally(&team, &solo);
    printf("%.4f ms (regions: %llu as a team, %llu alone)\n", best * 1e3, (unsigned long long)team, (unsigned long long)solo);
    return 0;
}
