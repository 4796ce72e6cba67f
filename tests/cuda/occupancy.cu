// occupancy: cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// cudaOccupancyMaxPotentialBlockSize and cudaGetDeviceProperties must agree
// with each other and with the kernels' source (static shared memory,
// __launch_bounds__); no hardware figure is hard-coded.
#include "common.h"

#define SMEM_WORDS 1024  // 4 KiB of static shared memory

__global__ void uses_smem(float *out) {
  __shared__ float s[SMEM_WORDS];
  for (int i = threadIdx.x; i < SMEM_WORDS; i += blockDim.x) s[i] = i * 0.5f;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 7) % SMEM_WORDS];
}
__global__ void __launch_bounds__(128) bounded(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
__global__ void dyn_smem(int *out) {
  extern __shared__ int d[];
  d[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = d[blockDim.x - 1 - threadIdx.x];
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, uses_smem));
  expect(fa.sharedSizeBytes == SMEM_WORDS * sizeof(float), "sharedSizeBytes is the static array");
  expect(fa.numRegs > 0 && fa.numRegs <= 255, "numRegs in 1..255");
  expect(fa.maxThreadsPerBlock > 0 && fa.maxThreadsPerBlock <= p.maxThreadsPerBlock,
         "function maxThreadsPerBlock within the device's");
  expect(fa.ptxVersion == 10 * p.major + p.minor, "ptxVersion is the device's architecture");
  printf("occupancy: uses_smem: %zu bytes static shared memory\n", fa.sharedSizeBytes);

  // blocks per SM for every block size: within every per-SM limit
  int best_warps = 0;
  for (int bs = 32; bs <= fa.maxThreadsPerBlock; bs += 32) {
    int n = -1;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, uses_smem, bs, 0));
    expect(n >= 1, "at least one block fits");
    expect(n * bs <= p.maxThreadsPerMultiProcessor, "threads per SM limit");
    expect(n <= p.maxBlocksPerMultiProcessor, "blocks per SM limit");
    expect((size_t)n * fa.sharedSizeBytes <= p.sharedMemPerMultiprocessor, "shared memory per SM limit");
    expect(n * bs * fa.numRegs <= p.regsPerMultiprocessor, "registers per SM limit");
    if (n * bs / 32 > best_warps) best_warps = n * bs / 32;
  }
  // the suggested block size reaches the best occupancy; its grid fills the GPU
  int min_grid = 0, block = 0, at_block = 0;
  CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, uses_smem, 0, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&at_block, uses_smem, block, 0));
  expect(block % 32 == 0 && block <= fa.maxThreadsPerBlock, "suggested block size");
  expect(at_block * block / 32 == best_warps, "suggested block size reaches the best occupancy");
  expect(min_grid == at_block * p.multiProcessorCount, "minGridSize = blocks per SM * SMs");
  printf("occupancy: suggested block size reaches the best occupancy\n");

  // __launch_bounds__(128) caps the function's block size
  CK(cudaFuncGetAttributes(&fa, bounded));
  expect(fa.maxThreadsPerBlock == 128, "__launch_bounds__(128) gives maxThreadsPerBlock 128");
  int *out;
  CK(cudaMalloc(&out, 4096 * sizeof(int)));
  bounded<<<1, 256>>>(out);
  cudaError_t e = cudaGetLastError();
  expect(e != cudaSuccess, "launch above __launch_bounds__ refused");
  printf("occupancy: bounded: maxThreadsPerBlock %d, launch of 256 threads: %s\n",
         fa.maxThreadsPerBlock, cudaGetErrorName(e));

  // dynamic shared memory: more per block never means more blocks per SM,
  // and above 48 KiB needs cudaFuncAttributeMaxDynamicSharedMemorySize
  int prev = 1 << 30, bad = 0;
  for (size_t dyn = 0; dyn <= 48 * 1024; dyn += 8 * 1024) {
    int n = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, dyn_smem, 64, dyn));
    bad += n > prev || (size_t)n * dyn > p.sharedMemPerMultiprocessor;
    prev = n;
  }
  expect(bad == 0, "blocks per SM fall as dynamic shared memory grows");
  size_t big = p.sharedMemPerBlockOptin;  // the opt-in maximum
  dyn_smem<<<1, 64, big>>>(out);
  e = cudaGetLastError();
  expect(e != cudaSuccess, "launch with more than 48 KiB dynamic shared memory before opting in");
  printf("occupancy: %s before opting in to the maximum dynamic shared memory\n", cudaGetErrorName(e));
  CK(cudaFuncSetAttribute(dyn_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)big));
  int n_big = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n_big, dyn_smem, 64, big));
  expect(n_big == 1, "one block per SM at the opt-in maximum");
  dyn_smem<<<1, 64, big>>>(out);
  CK(cudaGetLastError());
  int h[64];
  CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) bad += h[i] != 63 - i;
  expect(bad == 0, "kernel with the opt-in maximum of dynamic shared memory");
  printf("occupancy: opt-in dynamic shared memory: one block per SM, launch ok\n");
  CK(cudaFree(out));
  if (failures) return 1;
  printf("occupancy: ok\n");
  return 0;
}
