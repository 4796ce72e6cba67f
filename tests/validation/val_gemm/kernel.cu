// val_gemm: C = A * B for 256 x 256 floats with three tilings: 16 x 16 shared
// tiles (one output a thread), 32 x 32 tiles (one output a thread), and 64 x 64
// tiles with 4 x 4 outputs a thread held in registers.
__device__ __forceinline__ float hashf(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return (i & 0xffff) * (1.0f / 65536.0f) - 0.5f; }
extern "C" __global__ void init(float *a, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = hashf(i);
}
template <int T> __device__ void tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[T][T], Bs[T][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float s = 0;
    for (int k0 = 0; k0 < n; k0 += T) {
        As[ty][tx] = A[row * n + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++) s += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = s;
}
extern "C" __global__ void gemm_t16(const float *A, const float *B, float *C, int n) { tiled<16>(A, B, C, n); }
extern "C" __global__ void gemm_t32(const float *A, const float *B, float *C, int n) { tiled<32>(A, B, C, n); }
// 256 threads a 64 x 64 tile: thread (tx, ty) of 16 x 16 computes rows ty + 16 i, columns tx + 16 j
extern "C" __global__ void gemm_reg4x4(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[16][64], Bs[16][64];
    int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    int r0 = blockIdx.y * 64, c0 = blockIdx.x * 64;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < n; k0 += 16) {
        for (int e = threadIdx.x; e < 1024; e += 256) {
            int kk = e & 15, rr = e >> 4;
            As[kk][rr] = A[(r0 + rr) * n + k0 + kk];
            Bs[e >> 6][e & 63] = B[(k0 + (e >> 6)) * n + c0 + (e & 63)];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; k++) {
            float a[4], b[4];
            for (int i = 0; i < 4; i++) { a[i] = As[k][ty + 16 * i]; b[i] = Bs[k][tx + 16 * i]; }
            for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) C[(r0 + ty + 16 * i) * n + c0 + tx + 16 * j] = acc[i][j];
}
