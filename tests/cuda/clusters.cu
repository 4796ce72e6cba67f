// clusters: thread block clusters - one kernel launched with cudaLaunchKernelEx
// and cudaLaunchAttributeClusterDimension, one with a compile-time
// __cluster_dims__ launched with <<<>>>.  Blocks of a cluster read each
// other's shared memory through cluster.map_shared_rank (distributed shared
// memory), with cluster.sync() before the reads and before any block exits.
#include <cooperative_groups.h>
#include "common.h"
namespace cg = cooperative_groups;

#define THREADS 64

// Each block fills its shared array, then adds its right neighbour's array
// (rank + 1 mod size) to its own values and stores the result.
__global__ void ring(int *out, int *ranks) {
  __shared__ int buf[THREADS];
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank(), size = cl.num_blocks();
  buf[threadIdx.x] = blockIdx.x * 1000 + threadIdx.x;
  cl.sync();  // every block's buf is written
  int *peer = cl.map_shared_rank(buf, (rank + 1) % size);
  out[blockIdx.x * THREADS + threadIdx.x] = buf[threadIdx.x] + 2 * peer[threadIdx.x];
  if (threadIdx.x == 0) ranks[blockIdx.x] = rank * 100 + size;
  cl.sync();  // the peer's shared memory stays alive until everyone read it
}

__global__ void __cluster_dims__(2, 1, 1) pairs(int *out) {
  __shared__ int v;
  cg::cluster_group cl = cg::this_cluster();
  if (threadIdx.x == 0) v = blockIdx.x + 1;
  cl.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = *cl.map_shared_rank(&v, cl.block_rank() ^ 1);
  cl.sync();
}

int main() {
  int supported = 0;
  CK(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, 0));
  expect(supported == 1, "cudaDevAttrClusterLaunch");
  const int blocks = 16, csize = 4, n = blocks * THREADS;
  int *out, *ranks, h_out[n], h_ranks[blocks];
  CK(cudaMalloc(&out, sizeof h_out));
  CK(cudaMalloc(&ranks, sizeof h_ranks));

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(THREADS);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = csize;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int clusters = 0;
  CK(cudaOccupancyMaxActiveClusters(&clusters, (void *)ring, &cfg));
  expect(clusters >= 1, "cudaOccupancyMaxActiveClusters >= 1");
  CK(cudaLaunchKernelEx(&cfg, ring, out, ranks));
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h_ranks, ranks, sizeof h_ranks, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; b++) {
    int rank = b % csize, peer = b - rank + (rank + 1) % csize;
    if (h_ranks[b] != rank * 100 + csize) bad++;
    for (int t = 0; t < THREADS; t++)
      bad += h_out[b * THREADS + t] != b * 1000 + t + 2 * (peer * 1000 + t);
  }
  expect(bad == 0, "ring through distributed shared memory");
  printf("clusters: cudaLaunchKernelEx, %d blocks in clusters of %d: ok\n", blocks, csize);

  pairs<<<8, 32>>>(out);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h_out, out, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  bad = 0;
  for (int b = 0; b < 8; b++) bad += h_out[b] != (b ^ 1) + 1;
  expect(bad == 0, "__cluster_dims__ pairs swap values");
  printf("clusters: __cluster_dims__(2,1,1), 8 blocks: ok\n");

  // a grid that is not a multiple of the cluster size is refused
  cfg.gridDim = dim3(blocks + 1);
  cudaError_t e = cudaLaunchKernelEx(&cfg, ring, out, ranks);
  expect(e != cudaSuccess, "grid not a multiple of the cluster size refused");
  printf("clusters: grid %d with clusters of %d: %s\n", blocks + 1, csize, cudaGetErrorName(e));
  cudaGetLastError();
  CK(cudaFree(out));
  CK(cudaFree(ranks));
  if (failures) return 1;
  printf("clusters: ok\n");
  return 0;
}
