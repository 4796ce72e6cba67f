// A whole CUDA program for ptxemu exec: vector addition with its host code.
//   nvcc -cudart shared -arch=sm_90 -o vecadd examples/cuda/vecadd.cu
//   ptxemu exec ./vecadd
#include <cstdio>

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 16;
  static float a[n], b[n], c[n];
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2.0f * i; }
  float *da, *db, *dc;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  cudaError_t err = cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) { printf("vecadd: %s\n", cudaGetErrorString(err)); return 1; }
  int bad = 0;
  for (int i = 0; i < n; i++) bad += c[i] != 3.0f * i;
  printf("vecadd: %d elements, %d wrong\n", n, bad);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return bad != 0;
}
