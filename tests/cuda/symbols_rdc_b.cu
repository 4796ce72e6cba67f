// symbols_rdc_b.cu - the kernel and main() of "symbols_rdc": the variables and
// the device function come from symbols_rdc_a.cu.
#include "common.h"

extern __constant__ int lut[16];
extern __device__ int hits;
__device__ int lookup(int i);
void setup_a();

__global__ void gather(const int *idx, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = lookup(idx[i]) + lut[(i + 1) & 15];
}

int main() {
  setup_a();
  const int n = 200;
  int h_idx[n], h_out[n];
  for (int i = 0; i < n; i++) h_idx[i] = (i * 7) % 23;
  int *idx, *out;
  CK(cudaMalloc(&idx, sizeof h_idx));
  CK(cudaMalloc(&out, sizeof h_out));
  CK(cudaMemcpy(idx, h_idx, sizeof h_idx, cudaMemcpyHostToDevice));
  gather<<<(n + 63) / 64, 64>>>(idx, out, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
  int h_hits = -1, h_lut[16];
  CK(cudaMemcpyFromSymbol(&h_hits, hits, sizeof h_hits));
  CK(cudaMemcpyFromSymbol(h_lut, lut, sizeof h_lut));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int a = h_idx[i] & 15, b = (i + 1) & 15;
    bad += h_out[i] != (a * a - 10) + (b * b - 10);
  }
  expect(bad == 0, "gather through the other file's lut and lookup()");
  expect(h_hits == n, "hits counted by the other file's device function");
  expect(h_lut[15] == 215, "lut read back from this file");
  size_t sz = 0;
  CK(cudaGetSymbolSize(&sz, lut));
  expect(sz == sizeof h_lut, "cudaGetSymbolSize of an extern __constant__");
  CK(cudaFree(idx));
  CK(cudaFree(out));
  if (failures) return 1;
  printf("symbols_rdc: %d lookups across files ok, hits %d\n", n, h_hits);
  return 0;
}
