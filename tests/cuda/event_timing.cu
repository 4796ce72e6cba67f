// Events around a kernel: under ptxemu exec --timing the elapsed time is the
// modelled time of the launch (its cycles at the GPU's clock); around
// copies and a fill, their modelled time (the configuration's host link or
// DRAM bandwidth after a fixed cost).
#include <cstdio>
#include <cstdlib>

__global__ void busy(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i;
  for (int k = 0; k < 64; k++) v = v * 1.0001f + 0.5f;
  if (i < n) x[i] = v;
}

int main() {
  const int n = 1 << 14;
  float *d;
  cudaEvent_t a, b;
  if (cudaMalloc(&d, n * sizeof(float)) || cudaEventCreate(&a) || cudaEventCreate(&b)) return 1;
  cudaEventRecord(a);
  busy<<<n / 256, 256>>>(d, n);
  cudaEventRecord(b);
  if (cudaEventSynchronize(b)) return 1;
  float ms = -1;
  if (cudaEventElapsedTime(&ms, a, b)) return 1;
  printf("elapsed_ms %.6f\n", ms);
  /* 32 MiB: pinned to the device, pageable to the device, device to
   * device, a fill */
  const size_t big = 32u << 20;
  char *pin, *page = (char *)malloc(big), *d1, *d2;
  if (!page || cudaMallocHost(&pin, big) || cudaMalloc(&d1, big) || cudaMalloc(&d2, big)) return 1;
  const char *what[] = {"pinned", "pageable", "device", "memset"};
  for (int k = 0; k < 4; k++) {
    cudaEventRecord(a);
    if (k == 0) cudaMemcpy(d1, pin, big, cudaMemcpyHostToDevice);
    if (k == 1) cudaMemcpy(d1, page, big, cudaMemcpyHostToDevice);
    if (k == 2) cudaMemcpy(d2, d1, big, cudaMemcpyDeviceToDevice);
    if (k == 3) cudaMemset(d2, 7, big);
    cudaEventRecord(b);
    if (cudaEventSynchronize(b) || cudaEventElapsedTime(&ms, a, b)) return 1;
    printf("copy_ms %s %zu %.6f\n", what[k], big, ms);
  }
  return 0;
}
