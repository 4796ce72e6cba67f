// vmm: the Driver API's virtual memory management - cuMemAddressReserve and
// cuMemAddressFree, cuMemCreate/cuMemRelease of physical allocations,
// cuMemMap/cuMemUnmap (two allocations back to back in one range, one
// allocation at two addresses that alias the same bytes), cuMemSetAccess and
// cuMemGetAccess, cuMemRetainAllocationHandle,
// cuMemGetAllocationPropertiesFromHandle, cuMemGetAddressRange and pointer
// attributes of mapped memory, copies, fills and kernels across the
// allocations' boundaries, a buffer that grows in place, the release order
// (memory lives until its last mapping and handle are gone), export to and
// import from a POSIX file descriptor, the errors of misuse, and last a kernel
// reading mapped memory it was given no access to (linked with -lcuda).
#include <cstring>
#include <unistd.h>
#include <cuda.h>
#include "common.h"

#define CU(call)                                                             \
  do {                                                                       \
    CUresult r_ = (call);                                                    \
    if (r_ != CUDA_SUCCESS) {                                                \
      printf("vmm:%d: %s failed: %s\n", __LINE__, #call, name(r_));          \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

static const char *name(CUresult r) {
  const char *s = "?";
  cuGetErrorName(r, &s);
  return s;
}
// the error a call gave, printed
#define ERR(what, call) printf("%s: %s\n", what, name(call))

__global__ void fill(int *p, long n, int base) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) p[i] = base + (int)i;
}
__global__ void sum(const int *p, long n, unsigned long long *out) {
  unsigned long long s = 0;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) s += (unsigned)p[i];
  atomicAdd(out, s);
}
__global__ void copy(const int *src, int *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] * 2;
}

static unsigned long long *total;
static unsigned long long device_sum(CUdeviceptr p, long n) {
  *total = 0;
  sum<<<64, 256>>>((const int *)p, n, total);
  CK(cudaDeviceSynchronize());
  return *total;
}
static unsigned long long expected_sum(long n, int base) {
  unsigned long long s = 0;
  for (long i = 0; i < n; i++) s += (unsigned)(base + (int)i);
  return s;
}

int main() {
  CU(cuInit(0));
  CK(cudaSetDevice(0));
  CK(cudaFree(0));                        // the primary context, current
  CUdevice dev;
  CU(cuCtxGetDevice(&dev));
  CK(cudaMallocManaged(&total, sizeof *total));

  int vmm = -1, posix = -1, comp = -1, rdma = -1;
  CU(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
  CU(cuDeviceGetAttribute(&posix, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev));
  CU(cuDeviceGetAttribute(&comp, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, dev));
  CU(cuDeviceGetAttribute(&rdma, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED, dev));
  printf("attributes: virtual memory management %d, POSIX fd handles %d, generic compression %d, RDMA with VMM %d\n", vmm,
         posix, comp, rdma);

  CUmemAllocationProp prop;
  memset(&prop, 0, sizeof prop);
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  size_t g = 0, rec = 0;
  CU(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CU(cuMemGetAllocationGranularity(&rec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  printf("granularity: minimum %zu KiB, recommended %zu KiB\n", g >> 10, rec >> 10);
  size_t unused;
  ERR("cuMemGetAllocationGranularity of option 2", cuMemGetAllocationGranularity(&unused, &prop, (CUmemAllocationGranularity_flags)2));

  // reservations: sizes in granules, alignments powers of two
  CUdeviceptr big;
  ERR("cuMemAddressReserve of 4 KiB", cuMemAddressReserve(&big, 4096, 0, 0, 0));
  ERR("cuMemAddressReserve of granularity + 4 KiB", cuMemAddressReserve(&big, g + 4096, 0, 0, 0));
  ERR("cuMemAddressReserve aligned to 3 bytes", cuMemAddressReserve(&big, g, 3, 0, 0));
  ERR("cuMemAddressReserve with flags 1", cuMemAddressReserve(&big, g, 0, 0, 1));
  CU(cuMemAddressReserve(&big, 16 * g, 1ull << 30, 0, 0));
  printf("a reservation aligned to 1 GiB: %s\n", big % (1ull << 30) == 0 ? "yes" : "no");
  CU(cuMemAddressFree(big, 16 * g));

  // a 64 MiB range of addresses, nothing behind it yet
  const size_t range = 32 * g;
  CUdeviceptr va;
  CU(cuMemAddressReserve(&va, range, 0, 0, 0));
  printf("reserved %zu MiB, aligned to the granularity: %s\n", range >> 20, va % g == 0 ? "yes" : "no");

  // physical allocations: a (2 granules) and b (1 granule)
  CUmemGenericAllocationHandle a, b, h;
  CU(cuMemCreate(&a, 2 * g, &prop, 0));
  CU(cuMemCreate(&b, g, &prop, 0));
  ERR("cuMemCreate of granularity + 4 KiB", cuMemCreate(&h, g + 4096, &prop, 0));
  ERR("cuMemCreate of 0 bytes", cuMemCreate(&h, 0, &prop, 0));
  ERR("cuMemCreate with flags 1", cuMemCreate(&h, g, &prop, 1));
  CUmemAllocationProp other = prop;
  other.location.id = 1;
  ERR("cuMemCreate on device 1", cuMemCreate(&h, g, &other, 0));
  other = prop;
  other.type = CU_MEM_ALLOCATION_TYPE_INVALID;
  ERR("cuMemCreate of type INVALID", cuMemCreate(&h, g, &other, 0));
  other = prop;
  other.requestedHandleTypes = CU_MEM_HANDLE_TYPE_WIN32;
  ERR("cuMemCreate exportable to Win32", cuMemCreate(&h, g, &other, 0));
  other = prop;
  other.requestedHandleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
  ERR("cuMemCreate exportable as a fabric handle", cuMemCreate(&h, g, &other, 0));
  other = prop;
  other.type = CU_MEM_ALLOCATION_TYPE_MANAGED;
  ERR("cuMemCreate of type MANAGED", cuMemCreate(&h, g, &other, 0));
  ERR("cuMemGetAllocationPropertiesFromHandle into NULL", cuMemGetAllocationPropertiesFromHandle(NULL, a));
  size_t free0, free1, total_mem;
  CU(cuMemGetInfo(&free0, &total_mem));
  CU(cuMemCreate(&h, 8 * g, &prop, 0));
  CU(cuMemGetInfo(&free1, &total_mem));
  printf("cuMemGetInfo: a %zu MiB allocation takes %lld MiB\n", (8 * g) >> 20, (long long)(free0 - free1) >> 20);
  CU(cuMemRelease(h));

  // maps: a at va, b right after it; the misuse first
  ERR("cuMemMap at an unaligned address", cuMemMap(va + 4096, 2 * g, 0, a, 0));
  ERR("cuMemMap of an unaligned size", cuMemMap(va, g + 4096, 0, a, 0));
  ERR("cuMemMap at an offset", cuMemMap(va, g, g, a, 0));
  ERR("cuMemMap of more than the allocation", cuMemMap(va, 4 * g, 0, a, 0));
  int *plain;
  CK(cudaMalloc(&plain, g));
  ERR("cuMemMap at a cudaMalloc address", cuMemMap((CUdeviceptr)plain & ~(CUdeviceptr)(g - 1), 2 * g, 0, a, 0));
  ERR("cuMemMap at an address never reserved", cuMemMap((CUdeviceptr)0x7000000000ull, 2 * g, 0, a, 0));
  CK(cudaFree(plain));
  ERR("cuMemMap with flags 1", cuMemMap(va, 2 * g, 0, a, 1));
  ERR("cuMemMap of handle 0", cuMemMap(va, 2 * g, 0, 0, 0));
  CU(cuMemMap(va, 2 * g, 0, a, 0));
  CU(cuMemMap(va + 2 * g, g, 0, b, 0));
  ERR("cuMemMap over a mapping", cuMemMap(va, 2 * g, 0, a, 0));
  ERR("cuMemMap overlapping a mapping", cuMemMap(va + 2 * g, 2 * g, 0, a, 0));
  ERR("cuMemUnmap of an unmapped range", cuMemUnmap(va + 8 * g, g));
  ERR("cuMemUnmap of part of a mapping", cuMemUnmap(va, g));

  CUmemLocation here = {CU_MEM_LOCATION_TYPE_DEVICE, dev};
  unsigned long long flags = 99;
  CU(cuMemGetAccess(&flags, &here, va));
  printf("access before cuMemSetAccess: %llu\n", flags);
  CUmemLocation device1 = {CU_MEM_LOCATION_TYPE_DEVICE, 1};
  ERR("cuMemGetAccess for device 1", cuMemGetAccess(&flags, &device1, va));
  ERR("cuMemGetAccess of a reserved, unmapped address", cuMemGetAccess(&flags, &here, va + 8 * g));
  CUdeviceptr base;
  size_t size;
  ERR("cuMemGetAddressRange before cuMemSetAccess", cuMemGetAddressRange(&base, &size, va + 123));
  printf("cudaMemset before cuMemSetAccess: %s\n", cudaGetErrorName(cudaMemset((void *)va, 0, 4096)));
  CUmemAccessDesc access;
  access.location = here;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  ERR("cuMemSetAccess over unmapped addresses", cuMemSetAccess(va, 4 * g, &access, 1));
  CUmemAccessDesc bad = access;
  bad.location.id = 1;
  ERR("cuMemSetAccess for device 1", cuMemSetAccess(va, 3 * g, &bad, 1));
  ERR("cuMemSetAccess of part of a mapping", cuMemSetAccess(va, g, &access, 1));
  CUmemAccessDesc host_access = access;
  host_access.location.type = CU_MEM_LOCATION_TYPE_HOST;
  ERR("cuMemSetAccess for the host", cuMemSetAccess(va, 3 * g, &host_access, 1));
  CU(cuMemSetAccess(va, 3 * g, &access, 1));      // both allocations in one call
  CU(cuMemGetAccess(&flags, &here, va + 2 * g + 100));
  printf("access after cuMemSetAccess: %llu\n", flags);

  // copies, fills and kernels across the two allocations
  const long n = (long)(3 * g / sizeof(int));
  CK(cudaMemset((void *)va, 0xff, 3 * g));
  fill<<<128, 256>>>((int *)va, n, 7);
  CK(cudaDeviceSynchronize());
  printf("a kernel over both allocations: sum %s\n", device_sum(va, n) == expected_sum(n, 7) ? "right" : "WRONG");
  int *host = (int *)malloc(3 * g);
  CK(cudaMemcpy(host, (void *)va, 3 * g, cudaMemcpyDeviceToHost));
  long bad_words = 0;
  for (long i = 0; i < n; i++) bad_words += host[i] != 7 + (int)i;
  printf("cudaMemcpy of both allocations: %ld wrong words\n", bad_words);
  CK(cudaMemset((void *)(va + 2 * g - 8), 0, 16));   // 8 bytes each side of the boundary
  CK(cudaMemcpy(host, (void *)(va + 2 * g - 8), 16, cudaMemcpyDeviceToHost));
  printf("cudaMemset across the boundary: %d %d %d %d\n", host[0], host[1], host[2], host[3]);

  // what the range says about itself
  CU(cuMemGetAddressRange(&base, &size, va + 2 * g + 123));
  printf("cuMemGetAddressRange inside b: base at +%llu KiB, %zu KiB\n", (unsigned long long)(base - va) >> 10, size >> 10);
  CU(cuMemGetAddressRange(&base, &size, va + 123));
  printf("cuMemGetAddressRange inside a: base at +%llu KiB, %zu KiB\n", (unsigned long long)(base - va) >> 10, size >> 10);
  ERR("cuMemGetAddressRange of a reserved, unmapped address", cuMemGetAddressRange(&base, &size, va + 8 * g));
  unsigned mt = 0, managed = 9, mapped = 9;
  CUdeviceptr start = 0;
  size_t rsize = 0;
  CU(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va + g));
  CU(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, va + g));
  CU(cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, va + g));
  CU(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, va + g));
  CU(cuPointerGetAttribute(&rsize, CU_POINTER_ATTRIBUTE_RANGE_SIZE, va + g));
  printf("pointer attributes: memory type %u, managed %u, mapped %u, range at +%llu KiB, %zu KiB\n", mt, managed, mapped,
         (unsigned long long)(start - va) >> 10, rsize >> 10);
  unsigned handle_types = 9;
  size_t mapping_size = 0;
  CUdeviceptr mapping_base = 0;
  CUcontext owner = (CUcontext)&start;
  void *host_ptr;
  CU(cuPointerGetAttribute(&handle_types, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, va + 2 * g + 8));
  CU(cuPointerGetAttribute(&mapping_size, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, va + 2 * g + 8));
  CU(cuPointerGetAttribute(&mapping_base, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, va + 2 * g + 8));
  CU(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, va + 2 * g + 8));
  printf("inside b: handle types %u, mapping at +%llu KiB, %zu KiB, context %s\n", handle_types,
         (unsigned long long)(mapping_base - va) >> 10, mapping_size >> 10, owner ? "set" : "none");
  ERR("CU_POINTER_ATTRIBUTE_HOST_POINTER", cuPointerGetAttribute(&host_ptr, CU_POINTER_ATTRIBUTE_HOST_POINTER, va));
  ERR("CU_POINTER_ATTRIBUTE_MAPPED of a reserved, unmapped address", cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, va + 8 * g));
  printf("cudaFree of mapped memory: %s\n", cudaGetErrorName(cudaFree((void *)va)));
  cudaPointerAttributes pa;
  CK(cudaPointerGetAttributes(&pa, (void *)(va + 2 * g)));
  printf("cudaPointerGetAttributes: type %d, device %d\n", (int)pa.type, pa.device);

  // the handle behind an address, and its properties
  CU(cuMemRetainAllocationHandle(&h, (void *)(va + 2 * g + 4096)));
  printf("cuMemRetainAllocationHandle inside b: %s\n", h == b ? "b" : h == a ? "a" : "another handle");
  CUmemAllocationProp got;
  memset(&got, 0x55, sizeof got);
  CU(cuMemGetAllocationPropertiesFromHandle(&got, h));
  printf("properties of b: type %d, handle types %d, location %d/%d, compression %d\n", (int)got.type,
         (int)got.requestedHandleTypes, (int)got.location.type, got.location.id, (int)got.allocFlags.compressionType);
  CU(cuMemRelease(h));                            // the retained reference
  ERR("cuMemRetainAllocationHandle of an unmapped address", cuMemRetainAllocationHandle(&h, (void *)(va + 8 * g)));

  // a second address for a: both alias the same bytes
  const CUdeviceptr alias = va + 16 * g;
  CU(cuMemMap(alias, 2 * g, 0, a, 0));
  CU(cuMemGetAccess(&flags, &here, alias));
  printf("access of the alias before cuMemSetAccess: %llu\n", flags);
  CU(cuMemSetAccess(alias, 2 * g, &access, 1));
  int v = 424242, r = 0;
  CK(cudaMemcpy((void *)(va + 4096), &v, sizeof v, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(&r, (void *)(alias + 4096), sizeof r, cudaMemcpyDeviceToHost));
  printf("written at a's first address, read at its second: %d\n", r);
  fill<<<4, 256>>>((int *)alias, 1024, 1000);
  CK(cudaDeviceSynchronize());
  copy<<<4, 256>>>((const int *)va, (int *)(va + 2 * g), 1024);   // reads a at va, writes b
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(host, (void *)(va + 2 * g), 4 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("a kernel wrote the alias, another read the first address: %d %d %d %d\n", host[0], host[1], host[2], host[3]);
  CU(cuMemRetainAllocationHandle(&h, (void *)(alias + 123)));
  printf("cuMemRetainAllocationHandle inside the alias: %s\n", h == a ? "a" : "another handle");
  CU(cuMemRelease(h));
  unsigned long long block1 = 0, block2 = 1, buf1 = 0, buf2 = 0;
  CU(cuPointerGetAttribute(&block1, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va));
  CU(cuPointerGetAttribute(&block2, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, alias));
  CU(cuPointerGetAttribute(&buf1, CU_POINTER_ATTRIBUTE_BUFFER_ID, va));
  CU(cuPointerGetAttribute(&buf2, CU_POINTER_ATTRIBUTE_BUFFER_ID, alias));
  printf("the two addresses of a: the same memory block %s, the same buffer %s\n", block1 == block2 ? "yes" : "no",
         buf1 == buf2 ? "yes" : "no");
  ERR("cuMemAddressFree of a range still mapped", cuMemAddressFree(va, range));

  // release order: a's handle goes first, its mappings keep the memory
  CU(cuMemRelease(a));
  ERR("cuMemRelease of a again", cuMemRelease(a));
  CK(cudaMemcpy(&r, (void *)(alias + 4096), sizeof r, cudaMemcpyDeviceToHost));
  printf("after cuMemRelease(a), the alias reads %d\n", r);
  ERR("cuMemUnmap of a and half of b", cuMemUnmap(va + g, 2 * g));
  CU(cuMemUnmap(va, 3 * g));                      // a and b together: b is now unmapped, and still held
  CK(cudaMemcpy(&r, (void *)(alias + 4096), sizeof r, cudaMemcpyDeviceToHost));
  printf("after unmapping a's first address, the alias reads %d\n", r);
  printf("cudaMemcpy from the unmapped address: %s\n", cudaGetErrorName(cudaMemcpy(&r, (void *)(va + 4096), sizeof r, cudaMemcpyDeviceToHost)));
  CU(cuMemRetainAllocationHandle(&h, (void *)alias));
  CU(cuMemMap(va, 2 * g, 0, h, 0));               // a again, at its first address, through the retained handle
  CU(cuMemRelease(h));
  CU(cuMemGetAccess(&flags, &here, va));
  printf("access of a remapped: %llu\n", flags);
  CU(cuMemSetAccess(va, 2 * g, &access, 1));
  CK(cudaMemcpy(&r, (void *)(va + 4096), sizeof r, cudaMemcpyDeviceToHost));
  printf("a remapped reads %d\n", r);
  CU(cuMemUnmap(alias, 2 * g));
  CU(cuMemUnmap(va, 2 * g));                      // a's last mapping: a is gone
  CU(cuMemRelease(b));                            // b's handle: b is gone

  // read-only access
  CU(cuMemCreate(&h, g, &prop, 0));
  CU(cuMemMap(va, g, 0, h, 0));
  CU(cuMemRelease(h));
  CU(cuMemSetAccess(va, g, &access, 1));
  fill<<<16, 256>>>((int *)va, (long)(g / sizeof(int)), 3);
  CK(cudaDeviceSynchronize());
  CUmemAccessDesc ro = access;
  ro.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
  CU(cuMemSetAccess(va, g, &ro, 1));
  CU(cuMemGetAccess(&flags, &here, va));
  printf("read-only access: %llu; a kernel reads it: sum %s\n", flags,
         device_sum(va, (long)(g / sizeof(int))) == expected_sum((long)(g / sizeof(int)), 3) ? "right" : "WRONG");
  printf("cudaMemcpy into it: %s; ", cudaGetErrorName(cudaMemcpy((void *)va, &v, sizeof v, cudaMemcpyHostToDevice)));
  CK(cudaMemcpy(&r, (void *)(va + 8), sizeof r, cudaMemcpyDeviceToHost));
  printf("read back: %d\n", r);
  CU(cuMemUnmap(va, g));

  // a buffer that grows in place, a granule at a time, under one pointer
  size_t mapped_bytes = 0;
  for (int step = 0; step < 8; step++) {
    CU(cuMemCreate(&h, g, &prop, 0));
    CU(cuMemMap(va + mapped_bytes, g, 0, h, 0));
    CU(cuMemRelease(h));
    CU(cuMemSetAccess(va + mapped_bytes, g, &access, 1));
    mapped_bytes += g;
    fill<<<64, 256>>>((int *)va, (long)(mapped_bytes / sizeof(int)), step);
    CK(cudaDeviceSynchronize());
  }
  printf("grown to %zu MiB in 8 steps: sum %s\n", mapped_bytes >> 20,
         device_sum(va, (long)(mapped_bytes / sizeof(int))) == expected_sum((long)(mapped_bytes / sizeof(int)), 7) ? "right" : "WRONG");
  CU(cuMemGetAddressRange(&base, &size, va + 5 * g));
  printf("cuMemGetAddressRange in the grown buffer: base at +%llu KiB, %zu KiB\n", (unsigned long long)(base - va) >> 10, size >> 10);
  CU(cuMemUnmap(va, mapped_bytes));               // eight mappings in one call

  // compressible memory: asked for, and what the allocation says it got
  other = prop;
  other.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
  size_t cg = 0;
  CU(cuMemGetAllocationGranularity(&cg, &other, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CU(cuMemCreate(&h, cg, &other, 0));
  memset(&got, 0x55, sizeof got);
  CU(cuMemGetAllocationPropertiesFromHandle(&got, h));
  printf("compressible: granularity %zu KiB, compression type %d\n", cg >> 10, (int)got.allocFlags.compressionType);
  CU(cuMemMap(va, cg, 0, h, 0));
  CU(cuMemSetAccess(va, cg, &access, 1));
  fill<<<16, 256>>>((int *)va, (long)(cg / sizeof(int)), 11);
  CK(cudaDeviceSynchronize());
  printf("compressible memory: sum %s\n", device_sum(va, (long)(cg / sizeof(int))) == expected_sum((long)(cg / sizeof(int)), 11) ? "right" : "WRONG");
  CU(cuMemUnmap(va, cg));
  CU(cuMemRelease(h));

  // sharing through a POSIX file descriptor (within this process)
  other = prop;
  other.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemGenericAllocationHandle ex, im;
  CU(cuMemCreate(&ex, g, &other, 0));
  int fd = -1;
  CU(cuMemCreate(&h, g, &prop, 0));
  ERR("cuMemExportToShareableHandle of an allocation not made exportable", cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CU(cuMemRelease(h));
  CU(cuMemExportToShareableHandle(&fd, ex, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CU(cuMemImportFromShareableHandle(&im, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  memset(&got, 0x55, sizeof got);
  CU(cuMemGetAllocationPropertiesFromHandle(&got, im));
  printf("imported: type %d, handle types %d, location %d/%d\n", (int)got.type, (int)got.requestedHandleTypes,
         (int)got.location.type, got.location.id);
  CU(cuMemMap(va, g, 0, ex, 0));
  CU(cuMemMap(va + g, g, 0, im, 0));
  CU(cuMemSetAccess(va, 2 * g, &access, 1));
  v = 777;
  CK(cudaMemcpy((void *)(va + 64), &v, sizeof v, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(&r, (void *)(va + g + 64), sizeof r, cudaMemcpyDeviceToHost));
  printf("written through the exported handle, read through the imported one: %d\n", r);
  CU(cuMemUnmap(va, 2 * g));
  CU(cuMemRelease(im));
  CU(cuMemRelease(ex));
  close(fd);

  ERR("cuMemAddressFree of the wrong size", cuMemAddressFree(va, range / 2));
  CU(cuMemAddressFree(va, range));
  ERR("cuMemAddressFree again", cuMemAddressFree(va, range));

  // last: a kernel reading mapped memory it has no access to
  CU(cuMemAddressReserve(&va, g, 0, 0, 0));
  CU(cuMemCreate(&h, g, &prop, 0));
  CU(cuMemMap(va, g, 0, h, 0));
  *total = 0;
  (void)cudaGetLastError();               // the refused copy above set it
  sum<<<1, 32>>>((const int *)va, 32, total);
  printf("a kernel reading memory without access: launch %s, ", cudaGetErrorName(cudaGetLastError()));
  printf("synchronize %s, ", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("and again %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  free(host);
  return 0;
}
