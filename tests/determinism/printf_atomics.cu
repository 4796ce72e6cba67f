// Device printf from many warps and blocks, atomics whose order decides
// the values written, and a data-dependent loop: the output of a run
// depends on scheduling, so two runs must schedule identically.
#include <cstdio>
extern "C" __global__ void printf_atomics(unsigned *counter, unsigned *order, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned ticket = atomicAdd(counter, 1u);
  if (i < n) order[i] = ticket;
  unsigned x = ticket;
  for (unsigned k = 0; k < (ticket & 7); k++) x = x * 1664525u + 1013904223u;
  if ((threadIdx.x & 31) == 0) printf("block %d warp %d ticket %u x %08x\n", blockIdx.x, threadIdx.x / 32, ticket, x);
}
