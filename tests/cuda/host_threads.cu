// host_threads: the runtime is thread-safe - four host threads, each with its
// own stream and buffers, allocate, copy, launch and synchronise at the same
// time, while sharing one context; then the main thread checks every result.
#include <thread>
#include <vector>
#include "common.h"

__global__ void poly(int *v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i] + k;
}

static const int n = 2000, iters = 5;
static int results[4][n];
static cudaError_t errs[4];

static void worker(int k) {  // repeats allocate / copy / launch / copy back
  cudaStream_t s;
  cudaError_t e = cudaStreamCreate(&s);
  std::vector<int> h(n);
  for (int it = 0; it < iters && e == cudaSuccess; it++) {
    for (int i = 0; i < n; i++) h[i] = i % 100 + k + it;
    int *d = nullptr;
    if ((e = cudaMalloc(&d, n * sizeof(int))) != cudaSuccess) break;
    cudaMemcpyAsync(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice, s);
    poly<<<(n + 127) / 128, 128, 0, s>>>(d, n, k);
    cudaMemcpyAsync(results[k], d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    e = cudaStreamSynchronize(s);
    cudaFree(d);
  }
  if (e == cudaSuccess) e = cudaStreamDestroy(s);
  errs[k] = e;
}

int main() {
  CK(cudaFree(0));  // create the context before the threads start
  std::vector<std::thread> ts;
  for (int k = 0; k < 4; k++) ts.emplace_back(worker, k);
  for (auto &t : ts) t.join();
  int bad = 0;
  for (int k = 0; k < 4; k++) {
    if (errs[k] != cudaSuccess) {
      printf("host_threads: thread %d: %s\n", k, cudaGetErrorName(errs[k]));
      bad++;
    }
    for (int i = 0; i < n; i++) {
      int x = i % 100 + k + iters - 1;  // the last iteration's input
      bad += results[k][i] != x * x + k;
    }
  }
  CK(cudaGetLastError());
  if (bad) {
    printf("host_threads: %d wrong\n", bad);
    return 1;
  }
  printf("host_threads: 4 threads x %d rounds of %d elements ok\n", iters, n);
  return 0;
}
