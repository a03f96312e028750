// setenv is POSIX, hidden by -std=c11 without this.
#define _POSIX_C_SOURCE 200809L
#include "raster_omp.h"
#include "pixel.h"

#ifdef _OPENMP
#include <stdio.h>
#include <stdlib.h>

// Runs when the library is loaded, before any OpenMP call can start libomp
// (which reads KMP_BLOCKTIME once, when it initialises). A user's own
// KMP_BLOCKTIME wins. kmp_set_blocktime() would only reach teams forked by
// the thread that calls it.
__attribute__((constructor)) static void raster_omp_set_blocktime(void) {
    char ms[16];
    snprintf(ms, sizeof ms, "%d", RASTER_IDLE_SPIN_MS);
    setenv("KMP_BLOCKTIME", ms, 0);
}
#endif

int raster_omp_available(void) {
#ifdef _OPENMP
    return 1;
#else
    return 0;
#endif
}

int raster_omp_max_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

int raster_omp_blocktime_ms(void) {
#ifdef _OPENMP
    return kmp_get_blocktime();
#else
    return -1;
#endif
}
