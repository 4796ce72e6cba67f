// vecadd: the basic path - cudaMalloc, cudaMemcpy both ways, a <<<>>> launch
// with a grid that does not divide the size, cudaGetLastError, cudaFree.
#include "common.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 4099;  // not a multiple of the block size: the guard matters
  const size_t bytes = n * sizeof(float);
  float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes);
  float *hc = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    ha[i] = (float)(i % 97) * 0.5f;
    hb[i] = (float)(i % 31) - 7.0f;
    hc[i] = -1.0f;
  }
  float *da, *db, *dc;
  CK(cudaMalloc(&da, bytes));
  CK(cudaMalloc(&db, bytes));
  CK(cudaMalloc(&dc, bytes));
  CK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(dc, 0, bytes));

  const int block = 256, grid = (n + block - 1) / block;
  vecadd<<<grid, block>>>(da, db, dc, n);
  CK(cudaGetLastError());
  // a pageable cudaMemcpy waits for the kernel (same legacy stream)
  CK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; i++)
    if (hc[i] != ha[i] + hb[i]) {
      if (bad < 5) printf("vecadd: c[%d] = %g, expected %g\n", i, hc[i], ha[i] + hb[i]);
      bad++;
    }
  CK(cudaFree(da));
  CK(cudaFree(db));
  CK(cudaFree(dc));
  free(ha); free(hb); free(hc);
  if (bad) {
    printf("vecadd: %d of %d elements wrong\n", bad, n);
    return 1;
  }
  printf("vecadd: %d elements ok (grid %d x block %d)\n", n, grid, block);
  return 0;
}
