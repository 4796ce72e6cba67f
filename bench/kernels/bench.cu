// Kernels for "make bench": two compute-bound (matmul, reduction) and two
// memory-heavy (transpose, histogram).  Regenerate bench.ptx with
//   nvcc -ptx -O3 -arch=sm_90 -o bench.ptx bench.cu
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

extern "C" __global__ void reduce(const float *in, float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  float v = 0.f;
  for (int i = blockIdx.x * 256 + t; i < n; i += gridDim.x * 256) v += in[i];
  s[t] = v;
  __syncthreads();
  for (int st = 128; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&h[in[i] & 255], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
