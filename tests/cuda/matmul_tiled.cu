// matmul_tiled: C = A * B with 16x16 shared-memory tiles, __syncthreads
// between loading and using a tile, a 2-D grid, and sizes that are not
// multiples of the tile (partial tiles are padded with zeros).
#include "common.h"

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
    int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
    __syncthreads();  // the whole tile is loaded
    for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();  // everyone is done with the tile before it is overwritten
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

int main() {
  const int M = 70, N = 50, K = 90;
  float *A = (float *)malloc(M * K * sizeof(float));
  float *B = (float *)malloc(K * N * sizeof(float));
  float *C = (float *)malloc(M * N * sizeof(float));
  // small integers: every product and partial sum is exact in float
  for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 11 - 5);
  for (int i = 0; i < K * N; i++) B[i] = (float)((i * 5) % 9 - 4);
  float *dA, *dB, *dC;
  CK(cudaMalloc(&dA, M * K * sizeof(float)));
  CK(cudaMalloc(&dB, K * N * sizeof(float)));
  CK(cudaMalloc(&dC, M * N * sizeof(float)));
  CK(cudaMemcpy(dA, A, M * K * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B, K * N * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul<<<grid, block>>>(dA, dB, dC, M, N, K);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(C, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      float want = 0.0f;
      for (int k = 0; k < K; k++) want += A[r * K + k] * B[k * N + c];
      if (C[r * N + c] != want) {
        if (bad < 5) printf("matmul_tiled: C[%d][%d] = %g, expected %g\n", r, c, C[r * N + c], want);
        bad++;
      }
    }
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  free(A); free(B); free(C);
  if (bad) {
    printf("matmul_tiled: %d of %d elements wrong\n", bad, M * N);
    return 1;
  }
  printf("matmul_tiled: %dx%d = %dx%d * %dx%d ok (grid %dx%d of %dx%d tiles)\n",
         M, N, M, K, K, N, grid.x, grid.y, TILE, TILE);
  return 0;
}
