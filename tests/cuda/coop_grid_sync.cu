// coop_grid_sync: a cooperative launch whose blocks synchronise with
// cooperative_groups::this_grid().sync() between phases.  The grid is sized
// from cudaDevAttrCooperativeLaunch, the SM count and the occupancy
// calculator, as the programming guide says; a grid larger than can be
// resident must be refused with cudaErrorCooperativeLaunchTooLarge.
#include <cooperative_groups.h>
#include "common.h"
namespace cg = cooperative_groups;

// Phase 1 writes a[], phase 2 reads neighbours' a[] written by other blocks,
// phase 3 sums b[] with one partial per block, phase 4 block 0 adds them.
__global__ void phases(int *a, int *b, int *partial, int *result, int n) {
  cg::grid_group g = cg::this_grid();
  __shared__ int s;
  int tid = g.thread_rank(), nthreads = g.size();
  for (int i = tid; i < n; i += nthreads) a[i] = i % 1000;
  g.sync();
  for (int i = tid; i < n; i += nthreads) b[i] = a[(i + 7) % n] * (i % 3) + 1;
  g.sync();
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  int sum = 0;
  for (int i = tid; i < n; i += nthreads) sum += b[i];
  atomicAdd(&s, sum);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
  g.sync();
  if (g.thread_rank() == 0) {
    int t = 0;
    for (unsigned k = 0; k < gridDim.x; k++) t += partial[k];
    *result = t;
  }
}

int main() {
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (!coop) {
    printf("coop_grid_sync: device does not support cooperative launch\n");
    return 1;
  }
  const int block = 128;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, block, 0));
  expect(per_sm >= 1, "at least one block per SM");
  // two blocks per SM at most keeps the emulated run short; still many SMs
  int grid = sms * (per_sm < 2 ? per_sm : 2);

  const int n = 100000;
  int *a, *b, *partial, *result, h_result = -1;
  CK(cudaMalloc(&a, n * sizeof(int)));
  CK(cudaMalloc(&b, n * sizeof(int)));
  CK(cudaMalloc(&partial, sms * per_sm * sizeof(int)));
  CK(cudaMalloc(&result, sizeof(int)));
  int nn = n;
  void *args[] = {&a, &b, &partial, &result, &nn};
  CK(cudaLaunchCooperativeKernel((void *)phases, dim3(grid), dim3(block), args, 0, 0));
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(&h_result, result, sizeof h_result, cudaMemcpyDeviceToHost));
  long long want = 0;
  for (int i = 0; i < n; i++) want += ((i + 7) % n) % 1000 * (i % 3) + 1;
  expect(h_result == want, "grid-wide sum after three grid syncs");
  printf("coop_grid_sync: %d elements, sum %d\n", n, h_result);

  // one block more than can be co-resident: the launch must be refused
  cudaError_t e = cudaLaunchCooperativeKernel((void *)phases, dim3(sms * per_sm + 1), dim3(block),
                                              args, 0, 0);
  expect(e == cudaErrorCooperativeLaunchTooLarge, "oversized cooperative launch refused");
  printf("coop_grid_sync: oversized grid: %s\n", cudaGetErrorName(e));
  cudaGetLastError();  // not sticky: clear it
  CK(cudaDeviceSynchronize());
  cudaFree(a); cudaFree(b); cudaFree(partial); cudaFree(result);
  if (failures) return 1;
  printf("coop_grid_sync: ok\n");
  return 0;
}
