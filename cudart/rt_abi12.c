/* cudart/rt_abi12.c - the Runtime API calls whose signature or structure
 * CUDA 13 changed, with CUDA 12's: linked into libcudart.so.12 only, over
 * the CUDA 13 definitions (RT_ABI13) the other files give; and the names
 * CUDA 12's headers call that CUDA 13 dropped (NAME_v2 where a call took
 * a new signature, the deprecated cudaThread* calls).  CUDA 12.3-12.9
 * programs that want edge data call NAME_v2, which both libraries define. */
#include <string.h>
#include "cudart/rt.h"

cudaError_t cudaGraphAddDependencies_v2(CUgraph, const CUgraphNode *, const CUgraphNode *, const void *, size_t);
cudaError_t cudaGraphGetEdges_v2(CUgraph, CUgraphNode *, CUgraphNode *, void *, size_t *);
cudaError_t cudaGraphRemoveDependencies_v2(CUgraph, const CUgraphNode *, const CUgraphNode *, const void *, size_t);
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode, CUgraphNode *, void *, size_t *);
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode, CUgraphNode *, void *, size_t *);

RT_EXPORT cudaError_t cudaGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n) {
  return cudaGraphAddDependencies_v2(g, from, to, NULL, n);
}
RT_EXPORT cudaError_t cudaGraphRemoveDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n) {
  return cudaGraphRemoveDependencies_v2(g, from, to, NULL, n);
}
RT_EXPORT cudaError_t cudaGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *n) {
  return cudaGraphGetEdges_v2(g, from, to, NULL, n);
}
RT_EXPORT cudaError_t cudaGraphNodeGetDependencies(CUgraphNode node, CUgraphNode *deps, size_t *n) {
  return rt_from(cuGraphNodeGetDependencies_v2(node, deps, NULL, n));
}
RT_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode *out, size_t *n) {
  return rt_from(cuGraphNodeGetDependentNodes_v2(node, out, NULL, n));
}
/* CUDA 12.2's cudaGraphAddNode, without edge data (cudaGraphNodeParams is
 * the same in both) */
cudaError_t cudaGraphAddNode_v2(CUgraphNode *, CUgraph, const CUgraphNode *, const void *, size_t, void *);
RT_EXPORT cudaError_t cudaGraphAddNode(CUgraphNode *n, CUgraph g, const CUgraphNode *deps, size_t nd, void *p) {
  return cudaGraphAddNode_v2(n, g, deps, NULL, nd, p);
}

/* ---- device properties: CUDA 12's structure ------------------------------- */

cudaError_t cudaDeviceGetAttribute(int *, int, int);

static int attr12(int a) {
  int v = 0;
  cudaDeviceGetAttribute(&v, a, 0);
  return v;
}

/* CUDA 12's header calls cudaGetDeviceProperties_v2; the fields both
 * layouts have come from CUDA 13's, the ones CUDA 13 dropped from the
 * device's attributes. */
RT_EXPORT cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp12 *p, int d) {
  cudaDeviceProp q;
  if (!p) return rt_error(CUDA_ERROR_INVALID_VALUE);
  cudaError_t e = rt_device_props(&q, d);
  if (e) return e;
  memset(p, 0, sizeof *p);
#define SAME(f) memcpy(&p->f, &q.f, sizeof p->f)
  SAME(name); SAME(uuid); SAME(luid); SAME(luidDeviceNodeMask); SAME(totalGlobalMem); SAME(sharedMemPerBlock);
  SAME(regsPerBlock); SAME(warpSize); SAME(memPitch); SAME(maxThreadsPerBlock); SAME(maxThreadsDim); SAME(maxGridSize);
  SAME(totalConstMem); SAME(major); SAME(minor); SAME(textureAlignment); SAME(texturePitchAlignment);
  SAME(multiProcessorCount); SAME(integrated); SAME(canMapHostMemory); SAME(maxTexture1D); SAME(maxTexture1DMipmap);
  SAME(maxTexture2D); SAME(maxTexture2DMipmap); SAME(maxTexture2DLinear); SAME(maxTexture2DGather); SAME(maxTexture3D);
  SAME(maxTexture3DAlt); SAME(maxTextureCubemap); SAME(maxTexture1DLayered); SAME(maxTexture2DLayered);
  SAME(maxTextureCubemapLayered); SAME(maxSurface1D); SAME(maxSurface2D); SAME(maxSurface3D); SAME(maxSurface1DLayered);
  SAME(maxSurface2DLayered); SAME(maxSurfaceCubemap); SAME(maxSurfaceCubemapLayered); SAME(surfaceAlignment);
  SAME(concurrentKernels); SAME(ECCEnabled); SAME(pciBusID); SAME(pciDeviceID); SAME(pciDomainID); SAME(tccDriver);
  SAME(asyncEngineCount); SAME(unifiedAddressing); SAME(memoryBusWidth); SAME(l2CacheSize); SAME(persistingL2CacheMaxSize);
  SAME(maxThreadsPerMultiProcessor); SAME(streamPrioritiesSupported); SAME(globalL1CacheSupported);
  SAME(localL1CacheSupported); SAME(sharedMemPerMultiprocessor); SAME(regsPerMultiprocessor); SAME(managedMemory);
  SAME(isMultiGpuBoard); SAME(multiGpuBoardGroupID); SAME(hostNativeAtomicSupported); SAME(pageableMemoryAccess);
  SAME(concurrentManagedAccess); SAME(computePreemptionSupported); SAME(canUseHostPointerForRegisteredMem);
  SAME(cooperativeLaunch); SAME(sharedMemPerBlockOptin); SAME(pageableMemoryAccessUsesHostPageTables);
  SAME(directManagedMemAccessFromHost); SAME(maxBlocksPerMultiProcessor); SAME(accessPolicyMaxWindowSize);
  SAME(reservedSharedMemPerBlock); SAME(hostRegisterSupported); SAME(sparseCudaArraySupported);
  SAME(hostRegisterReadOnlySupported); SAME(timelineSemaphoreInteropSupported); SAME(memoryPoolsSupported);
  SAME(gpuDirectRDMASupported); SAME(gpuDirectRDMAFlushWritesOptions); SAME(gpuDirectRDMAWritesOrdering);
  SAME(memoryPoolSupportedHandleTypes); SAME(deferredMappingCudaArraySupported); SAME(ipcEventSupported);
  SAME(clusterLaunch); SAME(unifiedFunctionPointers);
#undef SAME
  p->clockRate = attr12(ATTR_CLOCK_RATE);
  p->deviceOverlap = attr12(ATTR_GPU_OVERLAP);
  p->kernelExecTimeoutEnabled = attr12(ATTR_KERNEL_EXEC_TIMEOUT);
  p->computeMode = attr12(ATTR_COMPUTE_MODE);
  p->maxTexture1DLinear = attr12(ATTR_TEXTURE1D_LINEAR_WIDTH);
  p->memoryClockRate = attr12(ATTR_MEMORY_CLOCK_RATE);
  p->singleToDoublePrecisionPerfRatio = attr12(ATTR_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO);
  p->cooperativeMultiDeviceLaunch = attr12(ATTR_COOPERATIVE_MULTI_DEVICE_LAUNCH);
  return 0;
}
/* (the unsuffixed name in libcudart.so.12: CUDA 12's layout too) */
RT_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp12 *p, int d) { return cudaGetDeviceProperties_v2(p, d); }

/* ---- stream capture: CUDA 12 without edge data, _v3 with it ---------------- */

CUresult cuStreamGetCaptureInfo_v3(CUstream, int *, uint64_t *, CUgraph *, const CUgraphNode **, const void **, size_t *);
cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t, int *, unsigned long long *, CUgraph *, const CUgraphNode **,
                                        const void **, size_t *);
RT_EXPORT cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t s, int *status, unsigned long long *id, CUgraph *graph,
                                                  const CUgraphNode **deps, const void **edges, size_t *ndeps) {
  if (edges) *edges = NULL;      /* (every edge is a plain dependency) */
  return rt_from(cuStreamGetCaptureInfo_v3(s, status, (uint64_t *)id, graph, deps, NULL, ndeps));
}
RT_EXPORT cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t s, int *status, unsigned long long *id, CUgraph *graph,
                                                  const CUgraphNode **deps, size_t *ndeps) {
  return cudaStreamGetCaptureInfo_v3(s, status, id, graph, deps, NULL, ndeps);
}
RT_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id, CUgraph *graph,
                                               const CUgraphNode **deps, size_t *ndeps) {
  return cudaStreamGetCaptureInfo_v3(s, status, id, graph, deps, NULL, ndeps);
}
/* (per-thread default stream: ptxemu's streams are ordered the same way) */
RT_EXPORT cudaError_t cudaStreamGetCaptureInfo_v2_ptsz(cudaStream_t s, int *status, unsigned long long *id, CUgraph *graph,
                                                       const CUgraphNode **deps, size_t *ndeps) {
  return cudaStreamGetCaptureInfo_v3(s, status, id, graph, deps, NULL, ndeps);
}
RT_EXPORT cudaError_t cudaStreamGetCaptureInfo_v3_ptsz(cudaStream_t s, int *status, unsigned long long *id, CUgraph *graph,
                                                       const CUgraphNode **deps, const void **edges, size_t *ndeps) {
  return cudaStreamGetCaptureInfo_v3(s, status, id, graph, deps, edges, ndeps);
}

/* ---- managed memory hints: a device where CUDA 13 takes a location -------- */

RT_EXPORT cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device) {
  (void)p; (void)n; (void)advice; (void)device;
  return 0;
}
RT_EXPORT cudaError_t cudaMemAdvise_v2(const void *p, size_t n, int advice, cudaMemLocation where) {
  (void)p; (void)n; (void)advice; (void)where;
  return 0;
}
RT_EXPORT cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s) {
  (void)p; (void)n; (void)device; (void)s;
  return 0;
}
RT_EXPORT cudaError_t cudaMemPrefetchAsync_v2(const void *p, size_t n, cudaMemLocation where, unsigned flags, cudaStream_t s) {
  (void)p; (void)n; (void)where; (void)flags; (void)s;
  return 0;
}

/* ---- the cudaThread* names CUDA 12 still has (cudaDevice* since CUDA 4) ---- */

cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetLimit(int, size_t);
cudaError_t cudaDeviceGetLimit(size_t *, int);
cudaError_t cudaDeviceSetCacheConfig(int);
cudaError_t cudaDeviceGetCacheConfig(int *);
RT_EXPORT cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
RT_EXPORT cudaError_t cudaThreadSetLimit(int limit, size_t v) { return cudaDeviceSetLimit(limit, v); }
RT_EXPORT cudaError_t cudaThreadGetLimit(size_t *v, int limit) { return cudaDeviceGetLimit(v, limit); }
RT_EXPORT cudaError_t cudaThreadSetCacheConfig(int c) { return cudaDeviceSetCacheConfig(c); }
RT_EXPORT cudaError_t cudaThreadGetCacheConfig(int *c) { return cudaDeviceGetCacheConfig(c); }

/* ---- capture dependencies: CUDA 12 without edge data, _v2 with it -------- */

CUresult cuStreamUpdateCaptureDependencies_v2(CUstream, CUgraphNode *, const void *, size_t, unsigned);
RT_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, CUgraphNode *nodes, size_t n, unsigned flags) {
  return rt_from(cuStreamUpdateCaptureDependencies_v2(s, nodes, NULL, n, flags));
}
RT_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t s, CUgraphNode *nodes, const void *edges, size_t n,
                                                             unsigned flags) {
  return rt_from(cuStreamUpdateCaptureDependencies_v2(s, nodes, edges, n, flags));
}
