// symbols_rdc_a.cu - "symbols_rdc", built with -rdc=true: this file defines a
// __constant__ table and a __device__ variable and a device function; the
// kernel in symbols_rdc_b.cu uses all three through extern declarations, so
// the device link must resolve them across the two files.
#include "common.h"

__constant__ int lut[16];
__device__ int hits;

__device__ int lookup(int i) {  // called from the other file
  atomicAdd(&hits, 1);
  return lut[i & 15];
}

// Host side of this file: fills the variables it defines.
void setup_a() {
  int h_lut[16], zero = 0;
  for (int i = 0; i < 16; i++) h_lut[i] = i * i - 10;
  CK(cudaMemcpyToSymbol(lut, h_lut, sizeof h_lut));
  CK(cudaMemcpyToSymbol(hits, &zero, sizeof zero));
}
