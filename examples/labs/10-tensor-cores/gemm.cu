// gemm.cu -- C = A B with tensor cores (wmma, 16x16x16 half -> float) and
// with FMA instructions on shared-memory tiles (the textbook predates tensor
// cores; this lab shows what changes on h100/a100).  Row-major A (M x K),
// B (K x N), C (M x N); M, N, K multiples of 16.
//
//   nvcc -ptx -O3 -arch=sm_75 gemm.cu -o gemm.ptx

#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

#define TILE 16

// one thread per element of C, 16x16 tiles of A and B staged in shared memory
extern "C" __global__ void fmaGemmTiled(const half *a, const half *b, float *c, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = __half2float(a[row * K + t + tx]);
        Bs[ty][tx] = __half2float(b[(t + ty) * N + col]);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    c[row * N + col] = sum;
}

// one warp per 16x16 tile of C: K/16 tensor-core multiply-adds of 16x16x16
extern "C" __global__ void wmmaGemm(const half *a, const half *b, float *c, int M, int N, int K)
{
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;   // tile row
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;                // tile column
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a_frag, a + warpM * 16 * K + k, K);
        wmma::load_matrix_sync(b_frag, b + k * N + warpN * 16, N);
        wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
    wmma::store_matrix_sync(c + warpM * 16 * N + warpN * 16, acc, N, wmma::mem_row_major);
}
