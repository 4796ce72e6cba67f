// val_attention: single-head attention, 256 queries and keys of 64 floats:
// one 128-thread block per query (scores in shared memory, block softmax,
// weighted sum of values), and a tiled version sharing K/V tiles among the
// 32 queries of a block (one warp per query).
__device__ __forceinline__ float hashf(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return (i & 0xffff) * (1.0f / 65536.0f) - 0.5f; }
extern "C" __global__ void init(float *a, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = hashf(i);
}
extern "C" __global__ void attn_row(const float *Q, const float *K, const float *V, float *O, int L)
{
    __shared__ float q[64], sc[1024], red[128];
    int t = threadIdx.x, qi = blockIdx.x;
    if (t < 64) q[t] = Q[qi * 64 + t] * 0.125f;
    __syncthreads();
    float m = -1e30f;
    for (int j = t; j < L; j += 128) {
        float s = 0;
        for (int d = 0; d < 64; d++) s += q[d] * K[j * 64 + d];
        sc[j] = s; m = fmaxf(m, s);
    }
    red[t] = m; __syncthreads();
    for (int s = 64; s > 0; s >>= 1) { if (t < s) red[t] = fmaxf(red[t], red[t + s]); __syncthreads(); }
    m = red[0]; __syncthreads();
    float sum = 0;
    for (int j = t; j < L; j += 128) { float e = __expf(sc[j] - m); sc[j] = e; sum += e; }
    red[t] = sum; __syncthreads();
    for (int s = 64; s > 0; s >>= 1) { if (t < s) red[t] += red[t + s]; __syncthreads(); }
    float inv = 1.0f / red[0];
    if (t < 64) {
        float o = 0;
        for (int j = 0; j < L; j++) o += sc[j] * V[j * 64 + t];
        O[qi * 64 + t] = o * inv;
    }
}
// online softmax: warp w of the block owns query blockIdx.x * 8 + w; lane owns dims lane, lane + 32
extern "C" __global__ void attn_tiled(const float *Q, const float *K, const float *V, float *O, int L)
{
    __shared__ float Ks[32][65], Vs[32][64];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5, qi = blockIdx.x * 8 + w;
    float q0 = Q[qi * 64 + lane] * 0.125f, q1 = Q[qi * 64 + lane + 32] * 0.125f;
    float m = -1e30f, l = 0, o0 = 0, o1 = 0;
    for (int j0 = 0; j0 < L; j0 += 32) {
        __syncthreads();
        for (int e = threadIdx.x; e < 32 * 64; e += 256) { Ks[e >> 6][e & 63] = K[j0 * 64 + e]; Vs[e >> 6][e & 63] = V[j0 * 64 + e]; }
        __syncthreads();
        for (int j = 0; j < 32; j++) {
            float s = q0 * Ks[j][lane] + q1 * Ks[j][lane + 32];
            for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
            float mn = fmaxf(m, s), c = __expf(m - mn), p = __expf(s - mn);
            l = l * c + p; o0 = o0 * c + p * Vs[j][lane]; o1 = o1 * c + p * Vs[j][lane + 32]; m = mn;
        }
    }
    O[qi * 64 + lane] = o0 / l; O[qi * 64 + lane + 32] = o1 / l;
}
