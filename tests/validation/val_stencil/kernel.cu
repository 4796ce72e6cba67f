// val_stencil: 2D 5-point Jacobi sweeps (1024 x 1024) and a 3D 7-point stencil
// (128^3), plain and with a shared-memory tile.  Inputs made by an init kernel.
__device__ __forceinline__ float hashf(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return (i & 0xffff) * (1.0f / 65536.0f); }
extern "C" __global__ void init(float *a, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = hashf(i);
}
extern "C" __global__ void jacobi2d(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
    out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}
extern "C" __global__ void jacobi2d_smem(const float *in, float *out, int n)
{
    __shared__ float t[18][34];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 32 + tx, y = blockIdx.y * 16 + ty;
    t[ty + 1][tx + 1] = in[y * n + x];
    if (tx == 0) t[ty + 1][0] = x > 0 ? in[y * n + x - 1] : 0.f;
    if (tx == 31) t[ty + 1][33] = x < n - 1 ? in[y * n + x + 1] : 0.f;
    if (ty == 0) t[0][tx + 1] = y > 0 ? in[(y - 1) * n + x] : 0.f;
    if (ty == 15) t[17][tx + 1] = y < n - 1 ? in[(y + 1) * n + x] : 0.f;
    __syncthreads();
    if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
    out[y * n + x] = 0.2f * (t[ty + 1][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2] + t[ty][tx + 1] + t[ty + 2][tx + 1]);
}
// one thread per (x, y) column marching in z
extern "C" __global__ void stencil3d(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
    int s = n * n;
    for (int z = 1; z < n - 1; z++) {
        int i = z * s + y * n + x;
        out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n] + in[i - s] + in[i + s]);
    }
}
