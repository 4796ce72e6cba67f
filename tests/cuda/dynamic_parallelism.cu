// Dynamic parallelism (CDP2): kernels launch kernels, two levels deep; the
// host sees every grid's work once it synchronises.  Built with -rdc=true.
#include <cstdio>
#include "common.h"

__global__ void leaf(int *out, int base, int n) {
  int i = threadIdx.x;
  if (i < n) out[base + i] = 3 * (base + i) + 1;
}

__global__ void middle(int *out, int base) {
  // each middle block fills 64 elements through two leaf grids
  if (threadIdx.x == 0) {
    leaf<<<1, 32>>>(out, base + blockIdx.x * 64, 32);
    leaf<<<1, 32>>>(out, base + blockIdx.x * 64 + 32, 32);
  }
}

__global__ void top(int *out, int *launched) {
  if (threadIdx.x == 0) {
    middle<<<2, 32>>>(out, blockIdx.x * 128);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) atomicAdd(launched, 1);
  }
}

int main() {
  const int blocks = 4, n = blocks * 128;
  int *out, *launched, h[n], hl = 0;
  CK(cudaMalloc(&out, n * sizeof(int)));
  CK(cudaMalloc(&launched, sizeof(int)));
  CK(cudaMemset(out, 0xff, n * sizeof(int)));
  CK(cudaMemset(launched, 0, sizeof(int)));
  top<<<blocks, 32>>>(out, launched);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hl, launched, sizeof hl, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != 3 * i + 1;
  printf("dynamic_parallelism: %d top blocks launched children, %d of %d elements wrong\n", hl, bad, n);
  return bad != 0 || hl != blocks;
}
