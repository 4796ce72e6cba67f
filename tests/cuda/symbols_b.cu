// symbols_b.cu - second translation unit of "symbols": variables with the same
// names as symbols_a.cu's but other types, and main(), which checks that the
// two files' variables are distinct.
#include "common.h"

static __constant__ short coef[10];   // symbols_a.cu has int coef[4]
static __device__ long long counter;  // symbols_a.cu has an int counter

__global__ void use_b(long long *out) {
  int t = threadIdx.x;
  out[t] = coef[t % 10] * (1LL << 33);
  atomicAdd((unsigned long long *)&counter, (unsigned long long)t);
}

int run_a(void **counter_addr);

int main() {
  void *a_counter = nullptr, *b_counter = nullptr;
  int fa = run_a(&a_counter);

  const short h_coef[10] = {-5, -4, -3, -2, -1, 1, 2, 3, 4, 5};
  long long zero = 0, cnt = -1;
  CK(cudaMemcpyToSymbol(coef, h_coef, sizeof h_coef));
  CK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
  size_t sz = 0, coef_sz = 0;
  CK(cudaGetSymbolSize(&coef_sz, coef));
  expect(coef_sz == sizeof h_coef, "b: cudaGetSymbolSize(coef)");
  CK(cudaGetSymbolSize(&sz, counter));
  expect(sz == sizeof(long long), "b: cudaGetSymbolSize(counter)");
  CK(cudaGetSymbolAddress(&b_counter, counter));
  expect(a_counter != b_counter, "the two files' counters are distinct variables");

  long long *out, h_out[40];
  CK(cudaMalloc(&out, sizeof h_out));
  use_b<<<1, 40>>>(out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
  CK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
  int bad = 0;
  for (int t = 0; t < 40; t++) bad += h_out[t] != h_coef[t % 10] * (1LL << 33);
  expect(bad == 0, "b: kernel used this file's coef");
  expect(cnt == 40 * 39 / 2, "b: counter read back");
  // a's counter is untouched by b's kernel
  int a_val = -1;
  CK(cudaMemcpy(&a_val, a_counter, sizeof a_val, cudaMemcpyDeviceToHost));
  expect(a_val == 64, "a's counter unchanged by b's kernel");
  CK(cudaFree(out));
  printf("symbols: b: coef[10] size %zu, counter %lld\n", coef_sz, cnt);
  if (fa || failures) return 1;
  printf("symbols: ok\n");
  return 0;
}
