// val_nbody: all-pairs gravitational accelerations of 2048 bodies, bodies
// tiled through shared memory (256 a tile), and a naive version reading them
// from global memory.
__device__ __forceinline__ float hashf(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return (i & 0xffff) * (1.0f / 65536.0f); }
extern "C" __global__ void init(float4 *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = make_float4(hashf(4 * i), hashf(4 * i + 1), hashf(4 * i + 2), 0.5f + hashf(4 * i + 3));
}
__device__ __forceinline__ float3 interact(float4 a, float4 b, float3 acc)
{
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float d2 = dx * dx + dy * dy + dz * dz + 1e-4f;
    float inv = rsqrtf(d2), s = b.w * inv * inv * inv;
    acc.x += dx * s; acc.y += dy * s; acc.z += dz * s;
    return acc;
}
extern "C" __global__ void nbody_tiled(const float4 *p, float4 *acc_out, int n)
{
    __shared__ float4 t[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = p[i];
    float3 acc = make_float3(0, 0, 0);
    for (int b = 0; b < n; b += 256) {
        t[threadIdx.x] = p[b + threadIdx.x];
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < 256; k++) acc = interact(me, t[k], acc);
        __syncthreads();
    }
    acc_out[i] = make_float4(acc.x, acc.y, acc.z, 0);
}
extern "C" __global__ void nbody_naive(const float4 *p, float4 *acc_out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = p[i];
    float3 acc = make_float3(0, 0, 0);
    for (int k = 0; k < n; k++) acc = interact(me, p[k], acc);
    acc_out[i] = make_float4(acc.x, acc.y, acc.z, 0);
}
