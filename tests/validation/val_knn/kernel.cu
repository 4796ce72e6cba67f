// val_knn: brute-force nearest neighbours.  row_norms: squared norms of the
// rows of a row-major matrix of 64 columns, a thread per row (each warp request
// touches 32 lines); knn_brute: 32768 reference points of 16 dims, a thread
// per point, against 128 queries a block keeps in shared memory (every lane
// reads the same query word).
__device__ __forceinline__ float hashf(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return (i & 0xffff) * (1.0f / 65536.0f) - 0.5f; }
extern "C" __global__ void init(float *a, unsigned n, unsigned seed)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = hashf(i ^ seed);
}
extern "C" __global__ void row_norms(const float *x, float *norm, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *row = x + (size_t)r * cols;
    float s = 0;
    for (int c = 0; c < cols; c++) s += row[c] * row[c];
    norm[r] = s;
}
extern "C" __global__ void knn_brute(const float *pts, const float *qry, int *best, float *bestd, int npts, int nq)
{
    __shared__ float q[128 * 16];
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    float v[16];
    for (int d = 0; d < 16; d++) v[d] = p < npts ? pts[(size_t)p * 16 + d] : 0.0f;
    int bi = -1;
    float bd = 3.0e38f;
    for (int q0 = 0; q0 < nq; q0 += 128) {
        __syncthreads();
        for (int e = threadIdx.x; e < 128 * 16; e += blockDim.x) q[e] = q0 * 16 + e < nq * 16 ? qry[q0 * 16 + e] : 1.0e18f;
        __syncthreads();
        for (int j = 0; j < 128; j++) {
            float dist = 0;
            for (int d = 0; d < 16; d++) { float t = v[d] - q[j * 16 + d]; dist += t * t; }
            if (dist < bd) { bd = dist; bi = q0 + j; }
        }
    }
    if (p < npts) { best[p] = bi; bestd[p] = bd; }
}
