// tests/metrics/bank_mode.cu - cudaDeviceSetSharedMemConfig selects the
// modelled GPU's bank mode for the launches after it (tests/metrics/metrics.sh,
// run on kepler with 8-byte banks): a 32 x 33 int tile read by columns is
// conflict-free in 4-byte mode and half 2-way in 8-byte mode.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void padcol(int *out) {
  __shared__ int tile[32][33];
  unsigned idx = threadIdx.y * 32 + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  int *d;
  cudaSharedMemConfig c;
  if (cudaMalloc(&d, 4096) != cudaSuccess) return 1;
  cudaDeviceGetSharedMemConfig(&c);
  printf("start %d\n", (int)c);
  padcol<<<1, dim3(32, 32)>>>(d);
  cudaDeviceSynchronize();
  printf("set %d\n", (int)cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  cudaDeviceGetSharedMemConfig(&c);
  printf("eight %d\n", (int)c);
  padcol<<<1, dim3(32, 32)>>>(d);
  cudaDeviceSynchronize();
  cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault);
  cudaDeviceGetSharedMemConfig(&c);
  printf("default %d\n", (int)c);
  return 0;
}
