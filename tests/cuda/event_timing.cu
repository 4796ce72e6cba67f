// Events around a kernel: under ptxemu exec --timing the elapsed time is the
// modelled time of the launch (its cycles at the GPU's clock).
#include <cstdio>

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
  return 0;
}
