// The compute ceiling the harness holds kernels against: how many float
// multiply-adds one core of this build retires per second.
//
// Why vector extensions and not intrinsics: the probe must measure what the
// kernels' own build can reach. `a * b + c` contracts to an FMA (the package
// builds C with -ffp-contract=fast, and -march=native where the host has
// FMA); a build without them measures SSE2's separate multiply and add,
// which is that build's ceiling too.
//
// The vector is the widest the build targets: 16 lanes (one zmm register)
// where it has AVX-512, else 8 (one ymm). The floors are flops over this
// peak, so a probe narrower than the widest vector the compiled kernels
// use sets floors too high: on a 2-core AVX-512 Xeon VM the 8-lane probe
// measured 77.9 GFLOP/s and put the sigma-30 blur's floor (2.22 ms) above
// its fastest sample (1.76 ms), which the work model's test rightly failed;
// the 16-lane probe measures 177 GFLOP/s there (`run` prints it).
// Ten independent accumulators cover the FMA latency (4 cycles) on two
// pipes, plus two constants, within the 16 ymm (32 zmm) registers; 16-lane
// accumulators in an AVX2 build would take two registers each and spill.
// Re-check with `objdump -d --no-show-raw-insn
// .build/release/CRasterOMP.build/fma_probe.c.o` (a release build): the
// loop is 10 `vfmadd213ps` on ymm (zmm with AVX-512) registers and no
// `vmovaps` to the stack.
#include "raster_omp.h"

#if defined(__AVX512F__)
enum { LANES = 16 };
// clang's AVX-512 targets prefer 256-bit vectors and split a 64-byte
// vector type into two ymm registers unless the function asks for zmm;
// the blur's C rows and the Swift kernels do use zmm there.
#define PROBE_WIDTH __attribute__((min_vector_width(512)))
#else
enum { LANES = 8 };
#define PROBE_WIDTH
#endif
enum { ACCUMULATORS = 10 };
typedef float probe_vector __attribute__((vector_size(4 * LANES)));

int raster_fma_probe_lanes(void) { return LANES; }

PROBE_WIDTH float raster_fma_probe(long iterations, float seed) {
    probe_vector acc[ACCUMULATORS];
    // Values that stay finite and normal however long the loop runs:
    // x -> x * 0.999 + 0.001 converges to 1.
    const probe_vector m = (probe_vector){0} + 0.999f;
    const probe_vector a = (probe_vector){0} + 0.001f;
    for (int k = 0; k < ACCUMULATORS; k++) acc[k] = (probe_vector){0} + (seed + (float)k);
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
