// K1's up-sampler alone (raster_omp_upsample, one thread): a grid of
// ceil(750/f) x ceil(1334/f) Float planes stretched and blended to 750x1334
// RGBA8 with the downN variants' taps, minimum of 200 calls, for f given.
// Build from the repository root (the toolchain's clang, Debian's libomp):
//   clang -O3 -std=c11 -ffp-contract=fast -fno-math-errno -march=native -fopenmp \
//     -I<dir of omp.h> -ISources/CRasterOMP/include -ISources/CRasterOMP \
//     Results/studies/freeform/upsample_harness.c Sources/CRasterOMP/freeform.c \
//     Sources/CRasterOMP/runtime.c Sources/CRasterOMP/affinity.c -lomp -lm -o /tmp/upsample
//   for f in 2 4 8 10; do /tmp/upsample $f; done
#define _GNU_SOURCE
#include "raster_omp.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <math.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  int f=atoi(argv[1]); int W=750,H=1334; int sw=(W+f-1)/f, sh=(H+f-1)/f;
  float*planes=aligned_alloc(64,sizeof(float)*4*sw*sh); for(int i=0;i<4*sw*sh;i++) planes[i]=(i%255);
  float*rows=aligned_alloc(64,sizeof(float)*8*W*2);
  int32_t*ti=malloc(4*W); float*tw=malloc(4*W); int32_t*ri=malloc(4*H); float*rw=malloc(4*H);
  for(int x=0;x<W;x++){float pos=fmaxf(0,(x+0.5f)/f-0.5f); int i0=(int)pos; if(i0>sw-1)i0=sw-1; ti[x]=i0; tw[x]=i0+1<sw? fminf(pos-i0,1):0;}
  for(int y=0;y<H;y++){float pos=fmaxf(0,(y+0.5f)/f-0.5f); int i0=(int)pos; if(i0>sh-1)i0=sh-1; ri[y]=i0; rw[y]=i0+1<sh? fminf(pos-i0,1):0;}
  uint8_t*dst=aligned_alloc(64,W*H*4);
  double best=1; for(int r=0;r<200;r++){double t0=now(); raster_omp_upsample(planes,sw,sh,rows,ti,tw,ri,rw,dst,W,H,W*4,1); double t=now()-t0; if(t<best)best=t;}
  printf("f=%d sw=%d sh=%d upsample %.3f ms\n",f,sw,sh,best*1e3);
}
