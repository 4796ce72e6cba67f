/* cudart/rt_misc.c - Runtime API calls that ask or set something with no
 * effect on an emulated device (profiler markers, persisting-L2 and stream
 * attribute hints, capture-mode exchange), and the driver's entry points
 * for programs that call the Driver API through the runtime. */
#include <string.h>
#include "cudart/rt.h"

CUresult cuGetProcAddress_v2(const char *, void **, int, uint64_t, int *);
CUresult cuStreamGetCaptureInfo_v3(CUstream, int *, uint64_t *, CUgraph *, const CUgraphNode **, const void **, size_t *);

/* The profiler markers frame what Nsight would record: nothing to do here. */
RT_EXPORT cudaError_t cudaProfilerStart(void) { return 0; }
RT_EXPORT cudaError_t cudaProfilerStop(void) { return 0; }

/* Hints: an access policy window, a priority, a synchronisation policy. */
RT_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t s, int attr, const void *value) {
  (void)s; (void)attr;
  return value ? 0 : rt_error(CUDA_ERROR_INVALID_VALUE);
}
RT_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t s, int attr, void *value) {
  (void)s; (void)attr;
  if (!value) return rt_error(CUDA_ERROR_INVALID_VALUE);
  memset(value, 0, 64);          /* cudaStreamAttrValue: every hint off */
  return 0;
}
RT_EXPORT cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) { (void)dst; (void)src; return 0; }
RT_EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void) { return 0; }
RT_EXPORT cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(int target, int scope) { (void)target; (void)scope; return 0; }

/* One thread's capture mode; capture runs in this process only. */
static __thread int capture_mode;
RT_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode) {
  if (!mode) return rt_error(CUDA_ERROR_INVALID_VALUE);
  int old = capture_mode;
  capture_mode = *mode;
  *mode = old;
  return 0;
}

RT_EXPORT RT_ABI13 cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id, CUgraph *graph,
                                               const CUgraphNode **deps, const void **edges, size_t *ndeps) {
  return rt_from(cuStreamGetCaptureInfo_v3(s, status, (uint64_t *)id, graph, deps, edges, ndeps));
}

/* cudaDriverEntryPointQueryResult */
enum { cudaDriverEntryPointSuccess = 0, cudaDriverEntryPointSymbolNotFound = 1 };

RT_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned version,
                                                       unsigned long long flags, int *status) {
  if (!symbol || !fn) return rt_error(CUDA_ERROR_INVALID_VALUE);
  int st = 0;
  CUresult r = cuGetProcAddress_v2(symbol, fn, (int)version, flags, &st);
  if (status) *status = r ? cudaDriverEntryPointSymbolNotFound : cudaDriverEntryPointSuccess;
  return r && !status ? rt_error(r) : 0;
}
RT_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags, int *status) {
  return cudaGetDriverEntryPointByVersion(symbol, fn, 13000, flags, status);
}

/* A kernel's driver handle and the runtime's handle of a host stub. */
RT_EXPORT cudaError_t cudaGetFuncBySymbol(CUfunction *f, const void *symbol) {
  cudaError_t e = 0;
  rt_func *rf = rt_func_find(symbol, &e);
  if (!rf) return rt_error(e);
  if (!f) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *f = rf->f;
  return 0;
}
RT_EXPORT cudaError_t cudaGetKernel(void **kernel, const void *entry) {
  cudaError_t e = 0;
  rt_func *rf = rt_func_find(entry, &e);
  if (!rf) return rt_error(e);
  if (!kernel) return rt_error(CUDA_ERROR_INVALID_VALUE);
  *kernel = rf;
  return 0;
}
