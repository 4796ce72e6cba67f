// val_spmv: sparse matrix-vector products, 16384 rows of 4..35 non-zeros
// (hashed columns) in a slotted CSR (row r's entries start at r * 36): one
// thread per row (scalar) and one warp per row (vector).
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
extern "C" __global__ void init(int *len, int *col, float *val, float *x, int rows)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        int n = 4 + hashu(r) % 32;
        len[r] = n;
        for (int k = 0; k < n; k++) {
            unsigned h = hashu(r * 36 + k + 7777);
            col[r * 36 + k] = (h & 1) ? (r + (int)(h >> 20) - 2048 + rows) % rows : (int)(h % rows);
            val[r * 36 + k] = (h >> 8 & 255) * (1.0f / 256);
        }
        x[r] = (hashu(r + 99) & 1023) * (1.0f / 1024);
    }
}
extern "C" __global__ void spmv_scalar(const int *len, const int *col, const float *val, const float *x, float *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0;
    for (int k = 0; k < len[r]; k++) s += val[r * 36 + k] * x[col[r * 36 + k]];
    y[r] = s;
}
extern "C" __global__ void spmv_vector(const int *len, const int *col, const float *val, const float *x, float *y, int rows)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (r >= rows) return;
    float s = 0;
    for (int k = lane; k < len[r]; k += 32) s += val[r * 36 + k] * x[col[r * 36 + k]];
    for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
    if (lane == 0) y[r] = s;
}
