// The compute ceiling the harness holds kernels against: how many float
// multiply-adds one core of this build retires per second.
//
// Why vector extensions and not intrinsics: the probe must measure what the
// kernels' own build can reach. The 8-lane type is one AVX2 register, and
// `a * b + c` contracts to an FMA (the package builds C with
// -ffp-contract=fast, and -march=native where the host has FMA); a build
// without them measures SSE2's separate multiply and add, which is that
// build's ceiling too. Eight lanes, not sixteen: 256 bits is this host's
// widest vector (`grep -c avx512 /proc/cpuinfo` finds none), so 16-lane
// accumulators took two registers each and spilled to the stack. On an
// AVX-512 host the probe may understate the peak, which only lowers floors.
// Ten independent accumulators cover the FMA latency (4 cycles) on two
// pipes, plus two constants, within the 16 ymm registers. Re-check with
// `objdump -d --no-show-raw-insn .build/release/CRasterOMP.build/fma_probe.c.o`
// (a release build): the loop is 10 `vfmadd213ps` on ymm registers and no
// `vmovaps` to the stack.
#include "raster_omp.h"

typedef float raster_f8 __attribute__((vector_size(32)));

enum { LANES = 8, ACCUMULATORS = 10 };

float raster_fma_probe(long iterations, float seed) {
    raster_f8 acc[ACCUMULATORS];
    // Values that stay finite and normal however long the loop runs:
    // x -> x * 0.999 + 0.001 converges to 1.
    const raster_f8 m = (raster_f8){0} + 0.999f;
    const raster_f8 a = (raster_f8){0} + 0.001f;
    for (int k = 0; k < ACCUMULATORS; k++) acc[k] = (raster_f8){0} + (seed + (float)k);
    for (long i = 0; i < iterations; i++) {
        for (int k = 0; k < ACCUMULATORS; k++) acc[k] = acc[k] * m + a;
    }
    // A sum the caller keeps, so no accumulator is dead code.
    float sum = 0;
    for (int k = 0; k < ACCUMULATORS; k++)
        for (int j = 0; j < LANES; j++) sum += acc[k][j];
    return sum;
}

long raster_fma_probe_flops(long iterations) {
    // A multiply-add counts as two floating-point operations, as peak FLOP
    // figures are quoted.
    return iterations * ACCUMULATORS * LANES * 2;
}
