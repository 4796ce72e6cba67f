// zero_copy: kernels reading and writing host memory directly - memory from
// cudaHostAlloc(cudaHostAllocMapped) through cudaHostGetDevicePointer, and a
// plain host buffer pinned with cudaHostRegister(cudaHostRegisterMapped).
#include <cstring>
#include "common.h"

__global__ void add_index(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += k * i;
}

int main() {
  CK(cudaSetDeviceFlags(cudaDeviceMapHost));  // before the context exists
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  expect(prop.canMapHostMemory == 1, "canMapHostMemory");

  // 1. mapped pinned allocation
  const int n = 5000;
  int *h, *d;
  CK(cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer(&d, h, 0));
  if (prop.unifiedAddressing) expect((void *)d == (void *)h, "mapped pointer equals host pointer under UVA");
  cudaPointerAttributes pa;
  CK(cudaPointerGetAttributes(&pa, h));
  expect(pa.type == cudaMemoryTypeHost, "cudaHostAlloc memory has type host");
  for (int i = 0; i < n; i++) h[i] = 1;
  add_index<<<(n + 255) / 256, 256>>>(d, n, 2);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != 1 + 2 * i;
  expect(bad == 0, "kernel writes to cudaHostAlloc memory");
  printf("zero_copy: cudaHostAlloc mapped, %d elements written by the kernel\n", n);

  // 2. registered malloc memory (page aligned, as cudaHostRegister prefers)
  const int m = 4096;
  int *r = (int *)aligned_alloc(4096, m * sizeof(int));
  for (int i = 0; i < m; i++) r[i] = 7;
  CK(cudaHostRegister(r, m * sizeof(int), cudaHostRegisterMapped));
  int *dr;
  CK(cudaHostGetDevicePointer(&dr, r, 0));
  add_index<<<m / 128, 128>>>(dr, m, 3);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  bad = 0;
  for (int i = 0; i < m; i++) bad += r[i] != 7 + 3 * i;
  expect(bad == 0, "kernel writes to registered memory");
  r[5] = 100;  // the host writes, a second kernel sees it
  add_index<<<m / 128, 128>>>(dr, m, 0);
  add_index<<<1, 32>>>(dr, 6, 1);
  CK(cudaDeviceSynchronize());
  expect(r[5] == 105 && r[4] == 7 + 12 + 4, "second kernel saw the host's write");
  CK(cudaHostUnregister(r));
  free(r);
  printf("zero_copy: cudaHostRegister mapped, %d elements written by the kernel\n", m);

  CK(cudaFreeHost(h));
  if (failures) return 1;
  printf("zero_copy: ok\n");
  return 0;
}
