// val_rownorm: row softmax and layer norm over 512 rows of 1024 floats:
// one 256-thread block per row (shared-memory tree), and one warp per row
// (shuffles, row kept in registers).
__device__ __forceinline__ float hashf(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return (i & 0xffff) * (1.0f / 16384.0f) - 2.0f; }
extern "C" __global__ void init(float *a, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = hashf(i);
}
__device__ float block_reduce(float v, float *sh, bool max)
{
    sh[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] = max ? fmaxf(sh[threadIdx.x], sh[threadIdx.x + s]) : sh[threadIdx.x] + sh[threadIdx.x + s];
        __syncthreads();
    }
    float r = sh[0];
    __syncthreads();
    return r;
}
extern "C" __global__ void softmax_block(const float *in, float *out, int cols)
{
    __shared__ float sh[256];
    const float *r = in + (size_t)blockIdx.x * cols;
    float m = -1e30f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, r[c]);
    m = block_reduce(m, sh, true);
    float s = 0;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(r[c] - m);
    s = block_reduce(s, sh, false);
    float inv = 1.0f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) out[(size_t)blockIdx.x * cols + c] = __expf(r[c] - m) * inv;
}
extern "C" __global__ void layernorm_warp(const float *in, float *out, int rows)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float4 *r = (const float4 *)(in + (size_t)row * 1024);
    float4 v[8];
    float s = 0;
    for (int k = 0; k < 8; k++) { v[k] = r[lane + 32 * k]; s += v[k].x + v[k].y + v[k].z + v[k].w; }
    for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
    float mean = s * (1.0f / 1024), q = 0;
    for (int k = 0; k < 8; k++) {
        float a = v[k].x - mean, b = v[k].y - mean, c = v[k].z - mean, e = v[k].w - mean;
        q += a * a + b * b + c * c + e * e;
    }
    for (int d = 16; d > 0; d >>= 1) q += __shfl_xor_sync(0xffffffffu, q, d);
    float rs = rsqrtf(q * (1.0f / 1024) + 1e-5f);
    float4 *o = (float4 *)(out + (size_t)row * 1024);
    for (int k = 0; k < 8; k++)
        o[lane + 32 * k] = make_float4((v[k].x - mean) * rs, (v[k].y - mean) * rs, (v[k].z - mean) * rs, (v[k].w - mean) * rs);
}
extern "C" __global__ void layernorm_block(const float *in, float *out, int cols)
{
    __shared__ float sh[256];
    const float *r = in + (size_t)blockIdx.x * cols;
    float s = 0;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += r[c];
    float mean = block_reduce(s, sh, false) / cols, q = 0;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) { float d = r[c] - mean; q += d * d; }
    float rs = rsqrtf(block_reduce(q, sh, false) / cols + 1e-5f);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) out[(size_t)blockIdx.x * cols + c] = (r[c] - mean) * rs;
}
