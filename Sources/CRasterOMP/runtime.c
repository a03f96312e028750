#include "raster_omp.h"
#include "pixel.h"

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
