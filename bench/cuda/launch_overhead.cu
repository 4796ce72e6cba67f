// The CUDA libraries' own cost: N launches of an empty kernel and N small
// cudaMemcpy calls, timed by the host clock; prints microseconds per call.
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void empty() {}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  int *d, h[4] = {1, 2, 3, 4};
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) return 1;
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; i++) empty<<<1, 32>>>();
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; i++) cudaMemcpy(d, h, sizeof h, i & 1 ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice);
  auto t2 = std::chrono::steady_clock::now();
  double l = std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
  double m = std::chrono::duration<double, std::micro>(t2 - t1).count() / n;
  printf("launch_us %.2f memcpy_us %.2f\n", l, m);
  return cudaGetLastError() != cudaSuccess;
}
