// Memory pools and graph memory nodes: stream-ordered allocation from the
// default pool and from a pool of the program's own (its attributes and
// usage counters), a captured graph that allocates, copies and frees, and an
// explicit graph with a 3-D copy node, launched twice.
#include <cstdio>
#include <cstring>
#include "common.h"

__global__ void fill(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

int main() {
  const int n = 4096;
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  // 1. the default pool and a pool of our own
  cudaMemPool_t def, mine;
  CK(cudaDeviceGetDefaultMemPool(&def, 0));
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  CK(cudaMemPoolCreate(&mine, &props));
  unsigned long long threshold = 1 << 20, got = 0, used = 0;
  CK(cudaMemPoolSetAttribute(mine, cudaMemPoolAttrReleaseThreshold, &threshold));
  CK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReleaseThreshold, &got));
  int *a, *b;
  CK(cudaMallocAsync((void **)&a, n * sizeof(int), s));
  CK(cudaMallocFromPoolAsync((void **)&b, n * sizeof(int), mine, s));
  CK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
  fill<<<n / 256, 256, 0, s>>>(a, n, 0);
  CK(cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
  static int h[n];
  CK(cudaMemcpyAsync(h, b, sizeof h, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != i;
  printf("mempool_graph: pools: threshold %llu, used >= %d bytes: %s, copy %s\n", got, n * 4,
         used >= (unsigned long long)n * 4 ? "yes" : "no", bad ? "wrong" : "ok");
  CK(cudaFreeAsync(a, s));
  CK(cudaFreeAsync(b, s));
  CK(cudaStreamSynchronize(s));

  // 2. a captured graph that allocates, fills, copies out and frees
  cudaGraph_t g;
  cudaGraphExec_t x;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  int *t;
  CK(cudaMallocAsync((void **)&t, n * sizeof(int), s));
  fill<<<n / 256, 256, 0, s>>>(t, n, 100);
  CK(cudaMemcpyAsync(h, t, sizeof h, cudaMemcpyDeviceToHost, s));
  CK(cudaFreeAsync(t, s));
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&x, g, 0));
  for (int rep = 0; rep < 2; rep++) {
    for (int i = 0; i < n; i++) h[i] = -1;
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != 100 + i;
    printf("mempool_graph: captured alloc/fill/copy/free, launch %d: %s\n", rep + 1, bad ? "wrong" : "ok");
  }
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));

  // 3. an explicit graph: an allocation node, a kernel, a 3-D copy node and
  // a free node (a graph that frees what it allocates can run again)
  const int W = 16, H = 8, D = 4;
  static int h3[D][H][W];
  CK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.bytesize = W * H * D * sizeof(int);
  cudaGraphNode_t an, kn, cn, fn;
  CK(cudaGraphAddMemAllocNode(&an, g, nullptr, 0, &ap));
  int *dev3 = (int *)ap.dptr;
  int count = W * H * D, base = 7;
  void *args[] = { &dev3, &count, &base };
  cudaKernelNodeParams kp = {};
  kp.func = (void *)fill;
  kp.gridDim = dim3(count / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  CK(cudaGraphAddKernelNode(&kn, g, &an, 1, &kp));
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(dev3, W * sizeof(int), W, H);
  cp.dstPtr = make_cudaPitchedPtr(h3, W * sizeof(int), W, H);
  cp.extent = make_cudaExtent(W * sizeof(int), H, D);
  cp.kind = cudaMemcpyDeviceToHost;
  CK(cudaGraphAddMemcpyNode(&cn, g, &kn, 1, &cp));
  CK(cudaGraphAddMemFreeNode(&fn, g, &cn, 1, dev3));
  CK(cudaGraphInstantiate(&x, g, 0));
  for (int rep = 0; rep < 2; rep++) {
    memset(h3, 0xff, sizeof h3);
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    bad = 0;
    for (int i = 0; i < count; i++) bad += (&h3[0][0][0])[i] != base + i;
    printf("mempool_graph: explicit alloc/kernel/3-D copy, launch %d: %s\n", rep + 1, bad ? "wrong" : "ok");
  }
  CK(cudaGraphExecDestroy(x));
  CK(cudaGraphDestroy(g));
  CK(cudaMemPoolDestroy(mine));
  CK(cudaStreamDestroy(s));
  return 0;
}
