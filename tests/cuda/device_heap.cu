// The device malloc heap: cudaDeviceSetLimit(cudaLimitMallocHeapSize) before
// the first launch gives kernels that much room (here 64 MiB: 1024 threads
// take 32 KiB each, four times the default 8 MiB heap), malloc returns NULL
// past it, new/delete and free work, and the limit cannot change once a
// kernel has run.
#include "common.h"

__global__ void take(int n, unsigned *got, unsigned long long *sum) {
  char *p = (char *)malloc(n);
  if (!p) return;
  atomicAdd(got, 1u);
  for (int i = 0; i < n; i += 4096) p[i] = (char)(threadIdx.x + i / 4096);
  unsigned long long s = 0;
  for (int i = 0; i < n; i += 4096) s += (unsigned char)p[i];
  atomicAdd(sum, s);
  free(p);
}

struct node { int v; node *next; };
__global__ void list(int *out) {
  node *head = nullptr;
  for (int i = 0; i < 8; i++) head = new node{i * (int)threadIdx.x, head};
  int s = 0;
  while (head) { node *n = head->next; s += head->v; delete head; head = n; }
  out[threadIdx.x] = s;
}

int main() {
  size_t v = 0;
  CK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
  printf("default heap: %zu MiB\n", v >> 20);
  CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20));
  CK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
  printf("heap: %zu MiB\n", v >> 20);
  unsigned *got;
  unsigned long long *sum;
  int *out;
  CK(cudaMallocManaged(&got, sizeof *got));
  CK(cudaMallocManaged(&sum, sizeof *sum));
  CK(cudaMallocManaged(&out, 64 * sizeof *out));
  *got = 0; *sum = 0;
  take<<<4, 256>>>(32 << 10, got, sum);
  CK(cudaDeviceSynchronize());
  printf("32 KiB each: %u of 1024 threads got memory, checksum %llu\n", *got, *sum);
  *got = 0; *sum = 0;
  take<<<1, 32>>>(128 << 20, got, sum);   // more than the heap: NULL
  CK(cudaDeviceSynchronize());
  printf("128 MiB each: %u of 32 threads got memory\n", *got);
  list<<<1, 64>>>(out);
  CK(cudaDeviceSynchronize());
  long long s = 0;
  for (int i = 0; i < 64; i++) s += out[i];
  printf("new/delete lists: sum %lld\n", s);
  cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128u << 20);
  printf("raising the heap after kernels ran: %s\n", cudaGetErrorName(e));
  CK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
  printf("heap: %zu MiB\n", v >> 20);
  return 0;
}
