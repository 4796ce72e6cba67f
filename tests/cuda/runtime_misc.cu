// Calls that set hints or ask for the driver: profiler markers, the Driver
// API reached through cudaGetDriverEntryPoint (cuMemAlloc called by address),
// cudaGetFuncBySymbol, a stream attribute; then a kernel writes the memory
// the driver call allocated.
#include <cstdio>
#include <cuda.h>
#include <cuda_profiler_api.h>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
  if (cudaProfilerStart() != cudaSuccess) return 1;
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, &q);
  CUdeviceptr d = 0;
  CUresult r = ((CUresult (*)(CUdeviceptr *, size_t))fn)(&d, 128);
  cudaFunction_t f;
  cudaError_t e = cudaGetFuncBySymbol(&f, (const void *)k);
  cudaStreamAttrValue v = {};
  cudaError_t e2 = cudaStreamSetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &v);
  k<<<1, 32>>>((int *)d);
  int h[32];
  cudaMemcpy(h, (void *)d, sizeof h, cudaMemcpyDeviceToHost);
  printf("misc: entry %d alloc %d func %d attr %d h[31] %d profiler %d\n", q, r, e, e2, h[31], cudaProfilerStop());
  return 0;
}
