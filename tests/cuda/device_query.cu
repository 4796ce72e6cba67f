// device_query: cudaGetDeviceCount, cudaGetDeviceProperties against
// cudaDeviceGetAttribute, the runtime and driver versions, cudaMemGetInfo,
// and cudaPointerGetAttributes for each kind of memory.  Prints only what
// sm_90 fixes (compute capability, per-block and per-SM limits); other values
// are checked for consistency with each other.
#include "common.h"

#define SAME(field, attr)                                            \
  do {                                                               \
    int v_ = -1;                                                     \
    CK(cudaDeviceGetAttribute(&v_, attr, dev));                      \
    expect(v_ == (int)(field), #field " == " #attr);                 \
  } while (0)

int main() {
  int count = 0, dev = -1;
  CK(cudaGetDeviceCount(&count));
  CK(cudaGetDevice(&dev));
  expect(count >= 1 && dev == 0, "a device, and device 0 current");
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, dev));
  printf("device_query: compute capability %d.%d\n", p.major, p.minor);
  printf("device_query: warp size %d, max threads per block %d, per SM %d\n", p.warpSize,
         p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor);
  printf("device_query: max block %d x %d x %d, max grid %d x %d x %d\n", p.maxThreadsDim[0],
         p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  printf("device_query: shared memory per block %zu, opt-in %zu, per SM %zu\n", p.sharedMemPerBlock,
         p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor);
  printf("device_query: registers per block %d, per SM %d, max blocks per SM %d\n", p.regsPerBlock,
         p.regsPerMultiprocessor, p.maxBlocksPerMultiProcessor);
  printf("device_query: constant memory %zu, unified addressing %d, managed memory %d\n",
         p.totalConstMem, p.unifiedAddressing, p.managedMemory);
  expect(p.name[0] != 0, "a device name");
  SAME(p.major, cudaDevAttrComputeCapabilityMajor);
  SAME(p.minor, cudaDevAttrComputeCapabilityMinor);
  SAME(p.multiProcessorCount, cudaDevAttrMultiProcessorCount);
  SAME(p.warpSize, cudaDevAttrWarpSize);
  SAME(p.maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock);
  SAME(p.maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor);
  SAME(p.sharedMemPerBlock, cudaDevAttrMaxSharedMemoryPerBlock);
  SAME(p.sharedMemPerBlockOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
  SAME(p.sharedMemPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  SAME(p.regsPerBlock, cudaDevAttrMaxRegistersPerBlock);
  SAME(p.l2CacheSize, cudaDevAttrL2CacheSize);
  SAME(p.maxGridSize[0], cudaDevAttrMaxGridDimX);
  SAME(p.concurrentKernels, cudaDevAttrConcurrentKernels);
  expect(p.multiProcessorCount > 0 && p.l2CacheSize > 0, "SMs and L2 present");
  expect(p.sharedMemPerBlock <= p.sharedMemPerBlockOptin &&
         p.sharedMemPerBlockOptin <= p.sharedMemPerMultiprocessor, "shared memory limits ordered");
  expect(p.maxThreadsPerBlock % p.warpSize == 0, "block limit a multiple of the warp size");

  int rt = 0, drv = 0;
  CK(cudaRuntimeGetVersion(&rt));
  CK(cudaDriverGetVersion(&drv));
  expect(drv >= rt, "driver version >= runtime version");
  printf("device_query: runtime major version %d, driver supports it: %s\n", rt / 1000,
         drv >= rt ? "yes" : "no");

  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  expect(free_b > 0 && free_b <= total_b, "0 < free <= total");
  expect(total_b == p.totalGlobalMem, "cudaMemGetInfo total == totalGlobalMem");
  void *d;
  size_t big = 64 << 20;
  CK(cudaMalloc(&d, big));
  size_t free2 = 0;
  CK(cudaMemGetInfo(&free2, &total_b));
  expect(free2 + big <= free_b + (2 << 20), "free memory shrinks by the allocation");

  // what kind of memory each pointer is
  void *h, *m;
  CK(cudaMallocHost(&h, 4096));
  CK(cudaMallocManaged(&m, 4096));
  int stack_var = 0;
  cudaPointerAttributes a;
  CK(cudaPointerGetAttributes(&a, d));
  expect(a.type == cudaMemoryTypeDevice && a.device == 0 && a.devicePointer == d, "device pointer");
  CK(cudaPointerGetAttributes(&a, (char *)d + 1000));
  expect(a.type == cudaMemoryTypeDevice, "pointer inside a device allocation");
  CK(cudaPointerGetAttributes(&a, h));
  expect(a.type == cudaMemoryTypeHost && a.hostPointer == h, "pinned host pointer");
  CK(cudaPointerGetAttributes(&a, m));
  expect(a.type == cudaMemoryTypeManaged, "managed pointer");
  CK(cudaPointerGetAttributes(&a, &stack_var));
  expect(a.type == cudaMemoryTypeUnregistered, "ordinary host pointer");
  printf("device_query: pointer types device %d host %d managed %d unregistered %d\n",
         cudaMemoryTypeDevice, cudaMemoryTypeHost, cudaMemoryTypeManaged, cudaMemoryTypeUnregistered);
  CK(cudaFree(d));
  CK(cudaFreeHost(h));
  CK(cudaFree(m));
  if (failures) return 1;
  printf("device_query: ok\n");
  return 0;
}
