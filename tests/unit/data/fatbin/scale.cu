#include <cstdio>
__global__ void add(float *a, const float *b, int n);
__global__ void scale(float *a, float s, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}
int main()
{
  float *a, *b;
  cudaMalloc(&a, 64);
  cudaMalloc(&b, 64);
  scale<<<1, 16>>>(a, 2.f, 16);
  add<<<1, 16>>>(a, b, 16);
  printf("%d\n", (int)cudaDeviceSynchronize());
  return 0;
}
