// assert: a device assert that fails in one thread.  The kernel stops, the
// runtime reports cudaErrorAssert at the next synchronisation (the message
// naming the assertion goes to stderr), and the error is sticky.
#include <cassert>
#include "common.h"

__global__ void check_values(const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(v[i] >= 0);
}

int main() {
  const int n = 512;
  int h[n], *d;
  for (int i = 0; i < n; i++) h[i] = i;
  CK(cudaMalloc(&d, sizeof h));
  CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  check_values<<<n / 128, 128>>>(d, n);  // all values pass
  CK(cudaDeviceSynchronize());
  printf("assert: passing asserts: cudaSuccess\n");

  h[300] = -1;  // one value fails
  CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  check_values<<<n / 128, 128>>>(d, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("assert: failing assert: %s\n", cudaGetErrorName(e));
  cudaError_t later = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("assert: later cudaMemcpy: %s\n", cudaGetErrorName(later));
  if (e != cudaErrorAssert || later != cudaErrorAssert) return 1;
  printf("assert: ok\n");
  return 0;
}
