// shared_window: a block's shared addresses as an sm_90 lays them out (an
// H200 printed this program's output): the system's kilobyte first, the
// variables from 0x400, dynamic memory 16-byte aligned after the static
// variables; accesses good to the end of the last 128-byte unit (the
// reserved bytes included), a fault beyond it.
#include "common.h"

__global__ void layout(unsigned *o) {
  __shared__ int a[5];
  __shared__ char b[3];
  extern __shared__ int dyn[];
  a[threadIdx.x % 5] = 1;
  b[threadIdx.x % 3] = 2;
  dyn[0] = 3;
  o[0] = (unsigned)__cvta_generic_to_shared(a);
  o[1] = (unsigned)__cvta_generic_to_shared(b);
  o[2] = (unsigned)__cvta_generic_to_shared(dyn);
}

// a read `off` bytes from a 16-byte array (volatile: the compiler keeps it)
__global__ void reach(int off, int *o) {
  __shared__ int s[4];
  s[threadIdx.x & 3] = 7;
  __syncthreads();
  o[0] = *(volatile int *)((char *)s + off);
}

int main() {
  unsigned *d, h[3];
  int *o;
  CK(cudaMalloc(&d, sizeof h));
  CK(cudaMalloc(&o, 16));
  layout<<<1, 32, 40>>>(d);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("shared_window: a at 0x%x, b at 0x%x, dynamic at 0x%x\n", h[0], h[1], h[2]);
  // the reserved kilobyte and the rest of s's 128-byte unit: no fault
  const int good[] = { -1024, -4, 16, 124 };
  for (int off : good) {
    reach<<<1, 32>>>(off, o);
    printf("shared_window: a read %d bytes from s: %s\n", off, cudaGetErrorName(cudaDeviceSynchronize()));
  }
  // past the unit: an illegal address (sticky: the last launch)
  reach<<<1, 32>>>(128, o);
  printf("shared_window: a read 128 bytes from s: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
