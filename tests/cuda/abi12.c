/* What a program built with CUDA 12 sees of libcudart.so.12: the names
 * CUDA 12's headers call (cudaGetDeviceProperties_v2,
 * cudaStreamGetCaptureInfo_v2, the deprecated cudaThread* calls, the
 * device-number forms of cudaMemAdvise and cudaMemPrefetchAsync) with CUDA
 * 12's signatures and CUDA 12's cudaDeviceProp.  The structure is read at
 * the byte offsets of CUDA 12's driver_types.h (1032 bytes), not through
 * ptxemu's own declaration of it.  Built by tests/cuda/abi12.sh with the C
 * compiler alone: no CUDA toolkit. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int cudaError_t;
typedef void *cudaStream_t;
cudaError_t cudaGetDeviceProperties_v2(void *prop, int device);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, void **graph);
cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t s, int *status, unsigned long long *id, void **graph,
                                        const void **deps, size_t *ndeps);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags);
cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device);
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s);
cudaError_t cudaThreadSetLimit(int limit, size_t v);
cudaError_t cudaThreadGetLimit(size_t *v, int limit);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaDeviceGetAttribute(int *v, int attr, int device);

static int failures;
static void check(int ok, const char *what) {
  printf("%s %s\n", ok ? "ok  " : "FAIL", what);
  failures += !ok;
}
static int i32(const unsigned char *b, size_t off) { int v; memcpy(&v, b + off, sizeof v); return v; }
static size_t sz(const unsigned char *b, size_t off) { size_t v; memcpy(&v, b + off, sizeof v); return v; }
static int attr(int a) { int v = -1; cudaDeviceGetAttribute(&v, a, 0); return v; }

int main(void) {
  /* CUDA 12's cudaDeviceProp and 64 guard bytes after it */
  unsigned char b[1032 + 64];
  memset(b, 0xa5, sizeof b);
  check(cudaGetDeviceProperties_v2(b, 0) == 0, "cudaGetDeviceProperties_v2 succeeds");
  check(b[0] != 0 && memchr(b, 0, 256) != NULL, "name: a string within its 256 bytes");
  check(i32(b, 308) == 32, "warpSize at 308");
  check(i32(b, 348) == attr(13) && i32(b, 348) > 0, "clockRate at 348: cudaDevAttrClockRate");
  check(i32(b, 360) == attr(75) && i32(b, 364) == attr(76), "major, minor at 360, 364");
  check(i32(b, 388) == attr(16) && i32(b, 388) > 0, "multiProcessorCount at 388");
  check(i32(b, 608) == attr(36) && i32(b, 608) > 0, "memoryClockRate at 608: cudaDevAttrMemoryClockRate");
  check(i32(b, 616) == attr(38), "l2CacheSize at 616");
  check(i32(b, 624) == attr(39), "maxThreadsPerMultiProcessor at 624");
  check(sz(b, 696) == (size_t)attr(97), "sharedMemPerBlockOptin at 696");
  check(i32(b, 712) == attr(106), "maxBlocksPerMultiProcessor at 712");
  check(i32(b, 772) == attr(120), "clusterLaunch at 772");
  int tail = 1;
  for (size_t i = 792; i < 1032; i++) tail &= b[i] == 0;
  check(tail, "reserved words zero");
  int guard = 1;
  for (size_t i = 1032; i < sizeof b; i++) guard &= b[i] == 0xa5;
  check(guard, "nothing written past 1032 bytes");

  /* stream capture: CUDA 12's six arguments */
  cudaStream_t s;
  void *d = NULL, *g = NULL;
  const void *deps = (const void *)1;
  unsigned long long id = 0;
  int status = -1;
  size_t nd = 99;
  check(cudaStreamCreate(&s) == 0 && cudaMalloc(&d, 256) == 0, "a stream and a buffer");
  check(cudaStreamGetCaptureInfo_v2(s, &status, &id, &g, &deps, &nd) == 0 && status == 0 && nd == 0,
        "cudaStreamGetCaptureInfo_v2 outside a capture: none");
  check(cudaStreamBeginCapture(s, 0) == 0 && cudaMemsetAsync(d, 1, 256, s) == 0, "a memset captured");
  check(cudaStreamGetCaptureInfo_v2(s, &status, &id, &g, &deps, &nd) == 0 && status == 1 && g != NULL && nd == 1 && deps,
        "cudaStreamGetCaptureInfo_v2 while capturing: the graph and its last node");
  void *graph = NULL;
  check(cudaStreamEndCapture(s, &graph) == 0 && graph == g, "the capture ends with that graph");

  /* managed memory hints by device number; the cudaThread* calls */
  void *m = NULL;
  check(cudaMallocManaged(&m, 4096, 1) == 0, "cudaMallocManaged");
  check(cudaMemAdvise(m, 4096, 1, 0) == 0, "cudaMemAdvise(ptr, n, advice, device)");
  check(cudaMemPrefetchAsync(m, 4096, 0, s) == 0, "cudaMemPrefetchAsync(ptr, n, device, stream)");
  size_t v = 0;
  check(cudaThreadSetLimit(2, 1 << 20) == 0 && cudaThreadGetLimit(&v, 2) == 0 && v == 1 << 20,
        "cudaThreadSetLimit / cudaThreadGetLimit (the malloc heap)");
  check(cudaThreadSynchronize() == 0 && cudaThreadExit() == 0, "cudaThreadSynchronize, cudaThreadExit");
  return failures != 0;
}
