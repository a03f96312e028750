// sched_setaffinity and the CPU_SET macros are GNU extensions that Swift's
// Glibc module does not export.
#define _GNU_SOURCE
#include "raster_omp.h"

#ifdef __linux__
#include <sched.h>
#endif

int raster_pin_thread(int core) {
#ifdef __linux__
    if (core < 0 || core >= CPU_SETSIZE) return -1;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    return sched_setaffinity(0, sizeof set, &set);
#else
    (void)core;
    return -1;
#endif
}
