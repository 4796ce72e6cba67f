// errors: names and strings of error codes, the last-error mechanism
// (cudaGetLastError clears, cudaPeekAtLastError does not), and the errors
// that invalid launch configurations and calls give; none of them is sticky,
// so a correct launch works afterwards.  An invalid <<<>>> configuration was
// cudaErrorInvalidConfiguration in older runtimes; CUDA 13 on an H100 reports
// cudaErrorInvalidValue (errors.out is what the real GPU printed).
#include "common.h"

static bool bad_config(cudaError_t e) {
  return e == cudaErrorInvalidValue || e == cudaErrorInvalidConfiguration;
}

__global__ void store(int *p) { p[threadIdx.x] = threadIdx.x; }

static void show(const char *what, cudaError_t e) {
  printf("errors: %s: %d %s \"%s\"\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
}

int main() {
  const cudaError_t codes[] = {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation,
                               cudaErrorInvalidConfiguration, cudaErrorInvalidDevice,
                               cudaErrorNotReady, cudaErrorIllegalAddress, cudaErrorAssert,
                               cudaErrorLaunchOutOfResources, cudaErrorInvalidResourceHandle,
                               cudaErrorNotSupported, cudaErrorCooperativeLaunchTooLarge};
  for (cudaError_t c : codes) show("code", c);
  printf("errors: unknown code 12345: %s \"%s\"\n", cudaGetErrorName((cudaError_t)12345),
         cudaGetErrorString((cudaError_t)12345));

  int *d;
  CK(cudaMalloc(&d, 2048 * sizeof(int)));
  CK(cudaGetLastError());  // nothing pending

  store<<<1, 2048>>>(d);  // more threads than a block may have
  cudaError_t peek1 = cudaPeekAtLastError(), peek2 = cudaPeekAtLastError();
  cudaError_t get1 = cudaGetLastError(), get2 = cudaGetLastError();
  show("2048-thread block, peek", peek1);
  expect(bad_config(peek1), "2048 threads: an invalid configuration");
  expect(peek2 == peek1 && get1 == peek1, "cudaPeekAtLastError does not clear");
  expect(get2 == cudaSuccess, "cudaGetLastError clears");
  printf("errors: peek, peek, get, get: %s %s %s %s\n", cudaGetErrorName(peek1),
         cudaGetErrorName(peek2), cudaGetErrorName(get1), cudaGetErrorName(get2));

  store<<<dim3(1, 70000), 32>>>(d);  // grid y above 65535
  cudaError_t e = cudaGetLastError();
  show("grid y 70000", e);
  expect(bad_config(e), "grid y 70000: an invalid configuration");
  store<<<0, 32>>>(d);  // empty grid
  e = cudaGetLastError();
  show("grid of 0 blocks", e);
  expect(bad_config(e), "empty grid: an invalid configuration");

  void *huge = nullptr;
  e = cudaMalloc(&huge, (size_t)1 << 50);  // a petabyte
  show("cudaMalloc of 2^50 bytes", e);
  expect(e == cudaErrorMemoryAllocation, "huge cudaMalloc: cudaErrorMemoryAllocation");
  expect(cudaGetLastError() == cudaErrorMemoryAllocation, "failed API call is the last error");
  e = cudaSetDevice(99);
  show("cudaSetDevice(99)", e);
  expect(e == cudaErrorInvalidDevice, "cudaSetDevice(99): cudaErrorInvalidDevice");
  cudaGetLastError();
  int src[4] = {1, 2, 3, 4};
  e = cudaMemcpy(d, src, sizeof src, (cudaMemcpyKind)7);  // no such direction
  show("cudaMemcpy with kind 7", e);
  expect(e == cudaErrorInvalidMemcpyDirection, "bad kind: cudaErrorInvalidMemcpyDirection");
  cudaGetLastError();

  // none of these errors is sticky: a correct launch still works
  store<<<1, 32>>>(d);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int h[32];
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 32; i++) bad += h[i] != i;
  expect(bad == 0, "a correct launch after the errors");
  CK(cudaFree(d));
  if (failures) return 1;
  printf("errors: ok\n");
  return 0;
}
