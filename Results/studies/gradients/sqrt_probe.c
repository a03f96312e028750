// The cost of one 8-lane square root (vsqrtps ymm) on this host, against
// one 8-lane multiply-add: each in 8 or 12 independent chains, so that the
// unit's throughput, not an instruction's latency, sets the time. K1 takes
// about 2.8 square roots per pixel (its points' distances), K2's radial
// one. Build and run:
//   clang -O2 -march=native Results/studies/gradients/sqrt_probe.c -o /tmp/sqrt_probe && /tmp/sqrt_probe
// (needs AVX2 and FMA). Prints ns per instruction, the minimum of 3 runs.
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    const long n = 20000000;
    double best_sqrt = 1e9, best_fma = 1e9;
    float keep = 0;
    for (int rep = 0; rep < 3; rep++) {
        __m256 v[8], acc[8];
        for (int i = 0; i < 8; i++) { v[i] = _mm256_set1_ps(1.5f + (float)i); acc[i] = _mm256_setzero_ps(); }
        double t0 = now();
        for (long k = 0; k < n; k++) {
            for (int i = 0; i < 8; i++) acc[i] = _mm256_add_ps(acc[i], _mm256_sqrt_ps(v[i]));
            // The inputs are opaque to the compiler, so the roots stay in the loop.
            __asm__ volatile("" : "+x"(v[0]), "+x"(v[1]), "+x"(v[2]), "+x"(v[3]), "+x"(v[4]), "+x"(v[5]), "+x"(v[6]), "+x"(v[7]));
        }
        double t = (now() - t0) / (n * 8.0);
        if (t < best_sqrt) best_sqrt = t;
        for (int i = 0; i < 8; i++) keep += acc[i][0];

        __m256 f[12], m = _mm256_set1_ps(1.0001f);
        for (int i = 0; i < 12; i++) f[i] = _mm256_set1_ps((float)i);
        t0 = now();
        for (long k = 0; k < n; k++) {
            for (int i = 0; i < 12; i++) f[i] = _mm256_fmadd_ps(f[i], m, m);
            __asm__ volatile("" : "+x"(m));
        }
        t = (now() - t0) / (n * 12.0);
        if (t < best_fma) best_fma = t;
        for (int i = 0; i < 12; i++) keep += f[i][0];
    }
    volatile float sink = keep; // the results are used, so no loop is dead code
    (void)sink;
    printf("vsqrtps ymm %.3f ns, vfmadd ymm %.3f ns (each, in independent chains)\n", best_sqrt * 1e9, best_fma * 1e9);
    return 0;
}
