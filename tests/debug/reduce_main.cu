// reduce.cu's kernel in a CUDA program, for "ptxemu debug -- PROGRAM"
// (tests/check_debug.sh builds it with nvcc -cudart shared -lineinfo).
#include <cstdio>
#include "reduce.cu"

int main() {
  int h[128], *in, *out, sums[2];
  for (int i = 0; i < 128; i++) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof sums);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  reduce<<<2, 64>>>(in, out, 128);
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  printf("sums %d %d\n", sums[0], sums[1]);
  return 0;
}
