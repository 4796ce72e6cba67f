// oob: a kernel stores far past the end of a cudaMalloc allocation.  The
// launch itself succeeds; the fault surfaces as cudaErrorIllegalAddress at
// the next synchronising call and stays (sticky).  The program reports the
// error by name and exits with status 2, its own choice for "fault seen".
#include "common.h"

__global__ void overrun(int *p, long long n, long long beyond) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) p[i] = (int)i;
  if (i == n - 1) p[n + beyond] = 1;  // 1 GiB past the end: unmapped on real GPUs too
}

int main() {
  const long long n = 4096;
  int *p;
  CK(cudaMalloc(&p, n * sizeof(int)));
  overrun<<<n / 256, 256>>>(p, n, 1LL << 28);
  cudaError_t launch = cudaGetLastError();
  printf("oob: launch: %s\n", cudaGetErrorName(launch));
  cudaError_t sync = cudaDeviceSynchronize();
  printf("oob: cudaDeviceSynchronize: %s\n", cudaGetErrorName(sync));
  // sticky: later calls keep reporting it
  int h = 0;
  cudaError_t copy = cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost);
  printf("oob: later cudaMemcpy: %s\n", cudaGetErrorName(copy));
  if (launch != cudaSuccess || sync != cudaErrorIllegalAddress || copy != cudaErrorIllegalAddress) {
    printf("oob: unexpected errors\n");
    return 1;
  }
  printf("oob: %s\n", cudaGetErrorString(sync));
  return 2;
}
