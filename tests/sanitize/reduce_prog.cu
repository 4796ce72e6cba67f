// A CUDA program for tests/check_sanitize.sh (ptxemu exec --sanitize):
// a block sum that forgets one __syncthreads() unless run with "fixed".
#include <cstdio>
#include <cstring>

__global__ void block_sum(const float *in, float *out, bool fixed) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  if (fixed) __syncthreads();
  for (unsigned k = 64; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
  bool fixed = argc > 1 && strcmp(argv[1], "fixed") == 0;
  float h[256], r[2];
  for (int i = 0; i < 256; i++) h[i] = 1.0f;
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  block_sum<<<2, 128>>>(in, out, fixed);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g %g\n", r[0], r[1]);
  return 0;
}
