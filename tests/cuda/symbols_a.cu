// symbols_a.cu - first translation unit of "symbols" (built without -rdc):
// its own static __constant__ and __device__ variables, named exactly as the
// ones in symbols_b.cu but of other sizes, each reached through the runtime's
// symbol calls from code in this file.
#include "common.h"

static __constant__ int coef[4];      // symbols_b.cu has short coef[10]
static __device__ int counter;        // symbols_b.cu has a long long counter
__device__ int only_in_a[3];          // a non-static one as well

__global__ void use_a(int *out) {
  int t = threadIdx.x;
  out[t] = coef[t % 4] * (t + 1) + only_in_a[t % 3];
  atomicAdd(&counter, 1);
}

// Sets this file's symbols, runs its kernel, checks; returns 0 if all is well.
int run_a(void **counter_addr) {
  const int h_coef[4] = {2, 3, 5, 7}, h_only[3] = {100, 200, 300};
  int zero = 0, cnt = -1;
  CK(cudaMemcpyToSymbol(coef, h_coef, sizeof h_coef));
  CK(cudaMemcpyToSymbol(only_in_a, h_only, sizeof h_only));
  CK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
  size_t sz = 0, coef_sz = 0;
  CK(cudaGetSymbolSize(&coef_sz, coef));
  expect(coef_sz == sizeof h_coef, "a: cudaGetSymbolSize(coef)");
  CK(cudaGetSymbolSize(&sz, counter));
  expect(sz == sizeof(int), "a: cudaGetSymbolSize(counter)");
  CK(cudaGetSymbolAddress(counter_addr, counter));

  int *out, h_out[64];
  CK(cudaMalloc(&out, sizeof h_out));
  use_a<<<1, 64>>>(out);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
  CK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
  int bad = 0;
  for (int t = 0; t < 64; t++) bad += h_out[t] != h_coef[t % 4] * (t + 1) + h_only[t % 3];
  expect(bad == 0, "a: kernel used this file's coef and only_in_a");
  expect(cnt == 64, "a: counter read back with cudaMemcpyFromSymbol");
  // the address from cudaGetSymbolAddress is the variable itself
  int via_addr = -1;
  CK(cudaMemcpy(&via_addr, *counter_addr, sizeof via_addr, cudaMemcpyDeviceToHost));
  expect(via_addr == 64, "a: counter read through cudaGetSymbolAddress");
  // offset form of cudaMemcpyFromSymbol: the third coefficient
  int third = 0;
  CK(cudaMemcpyFromSymbol(&third, coef, sizeof third, 2 * sizeof(int)));
  expect(third == 5, "a: cudaMemcpyFromSymbol with an offset");
  CK(cudaFree(out));
  printf("symbols: a: coef[4] size %zu, counter %d\n", coef_sz, cnt);
  return failures;
}
