// managed: cudaMallocManaged memory and a __managed__ variable - the host
// writes, kernels read and write the same addresses, cudaDeviceSynchronize,
// then the host reads; twice, to see host writes after kernel writes.
#include "common.h"

__managed__ int total;  // registered through __cudaRegisterManagedVar

__global__ void step(int *v, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = v[i] * mul + 1;
    atomicAdd(&total, v[i]);
  }
}

int main() {
  const int n = 3000;
  int *v;
  CK(cudaMallocManaged(&v, n * sizeof(int)));
  cudaPointerAttributes pa;
  CK(cudaPointerGetAttributes(&pa, v));
  expect(pa.type == cudaMemoryTypeManaged, "cudaPointerGetAttributes type is managed");

  for (int i = 0; i < n; i++) v[i] = i;  // host writes straight into it
  total = 0;
  step<<<(n + 127) / 128, 128>>>(v, n, 2);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  long long want = 0;
  int bad = 0;
  for (int i = 0; i < n; i++) {
    bad += v[i] != 2 * i + 1;
    want += 2 * i + 1;
  }
  expect(bad == 0, "first kernel's writes seen by the host");
  expect(total == (int)want, "__managed__ total after the first kernel");
  printf("managed: first pass %d elements, total %d\n", n, total);

  for (int i = 0; i < n; i += 2) v[i] = -v[i];  // host changes every other one
  total = 0;
  step<<<(n + 127) / 128, 128>>>(v, n, 3);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  want = 0;
  bad = 0;
  for (int i = 0; i < n; i++) {
    int w = (i % 2 ? 1 : -1) * (2 * i + 1) * 3 + 1;
    bad += v[i] != w;
    want += w;
  }
  expect(bad == 0, "second kernel saw the host's writes");
  expect(total == (int)want, "__managed__ total after the second kernel");
  printf("managed: second pass %d elements, total %d\n", n, total);

  CK(cudaFree(v));
  if (failures) return 1;
  printf("managed: ok\n");
  return 0;
}
