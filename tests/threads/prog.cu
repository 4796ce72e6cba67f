// tests/threads/prog.cu - a CUDA program for ptxemu exec --threads N:
// independent blocks, and blocks whose answer depends on the order of
// their atomics; its output must not depend on N.
#include <cstdio>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 1.5f + (float)i;
}

__global__ void tickets(unsigned *counter, unsigned *order) {
  if (threadIdx.x == 0) order[atomicAdd(counter, 1u)] = blockIdx.x;
}

int main() {
  const int n = 64 * 1024, nb = 600;
  float *x;
  unsigned *c, *o;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&c, sizeof(unsigned));
  cudaMallocManaged(&o, nb * sizeof(unsigned));
  for (int i = 0; i < n; i++) x[i] = (float)(i % 97) * 0.25f;
  *c = 0;
  scale<<<n / 128, 128>>>(x, n);
  tickets<<<nb, 32>>>(c, o);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * (double)(i % 13);
  unsigned long long h = 0;
  for (int i = 0; i < nb; i++) h = h * 1000003u + o[i];
  printf("%.6f %u %llu\n", s, *c, h);
  return 0;
}
