// val_pathfinder: dynamic-programming min path down a 101 x 256 Ki grid of ints
// (each cell = its weight + min of the three cells above), "pyramid" form:
// 256-thread blocks keep the current row in shared memory and advance 20 rows
// per launch (barrier per row), owning 256 - 2*20 columns each; launches
// ping-pong two result rows.
#define BLOCK 256
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
// wall weights 0..9 (four per thread and step, n and cols multiples of 4); the first result row is the first wall row
extern "C" __global__ void init(int *wall, int *res0, unsigned n, unsigned cols)
{
    for (unsigned i = 4 * (blockIdx.x * blockDim.x + threadIdx.x); i < n; i += 4 * gridDim.x * blockDim.x) {
        int4 w = make_int4(hashu(i) % 10u, hashu(i + 1) % 10u, hashu(i + 2) % 10u, hashu(i + 3) % 10u);
        *(int4 *)(wall + i) = w;
        if (i < cols) *(int4 *)(res0 + i) = w;
    }
}
// advances `iters` rows starting after row `start` (src holds row `start`'s path costs)
extern "C" __global__ void pathfinder(int iters, const int *wall, const int *src, int *dst, int cols, int start, int halo)
{
    __shared__ int cur[BLOCK];
    __shared__ int nxt[BLOCK];
    int tx = threadIdx.x;
    int owned = BLOCK - 2 * halo;
    int x0 = owned * blockIdx.x - halo;           // global column of thread 0
    int x = x0 + tx;
    // the part of the block that lies inside the grid
    int lo = x0 < 0 ? -x0 : 0;
    int hi = x0 + BLOCK - 1 > cols - 1 ? cols - 1 - x0 : BLOCK - 1;
    int w = tx - 1 < lo ? lo : tx - 1;
    int e = tx + 1 > hi ? hi : tx + 1;
    bool inside = tx >= lo && tx <= hi;
    if (x >= 0 && x <= cols - 1) cur[tx] = src[x];
    __syncthreads();
    bool done = false;
    for (int i = 0; i < iters; i++) {
        done = false;
        // the trustworthy cells shrink by one on each side per row
        if (tx >= i + 1 && tx <= BLOCK - 2 - i && inside) {
            done = true;
            int m = min(cur[w], min(cur[tx], cur[e]));
            nxt[tx] = m + wall[(size_t)(start + i + 1) * cols + x];
        }
        __syncthreads();
        if (i == iters - 1) break;
        if (done) cur[tx] = nxt[tx];
        __syncthreads();
    }
    if (done) dst[x] = nxt[tx];
}
