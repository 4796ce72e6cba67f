// val_nw: Needleman-Wunsch alignment score matrix (N = 2048, 2049 x 2049 ints) in
// 16x16 tiles, one launch per anti-diagonal of tiles (block = 16 threads, 17x17
// shared tile, 31 inner anti-diagonals separated by barriers); upper-left and
// lower-right kernels, a selection of tile diagonals of each.
#define TILE 16
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
// reference scores in -10..10 everywhere; first row and column of the score matrix = -penalty * index
extern "C" __global__ void init(int *ref, int *score, int cols, int penalty)
{
    unsigned n = (unsigned)cols * cols;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        ref[i] = (int)(hashu(i) % 21u) - 10;
        unsigned r = i / cols, c = i - r * cols;
        if (r == 0 || c == 0) score[i] = -penalty * (int)(r + c);
    }
}
__device__ __forceinline__ int max3(int a, int b, int c) { return max(a, max(b, c)); }
// one 16x16 tile whose top-left inner cell is (row0+1, col0+1)
__device__ __forceinline__ void nw_tile(const int *ref, int *score, int cols, int penalty, int trow, int tcol)
{
    __shared__ int s[TILE + 1][TILE + 1];
    __shared__ int r[TILE][TILE];
    int tx = threadIdx.x;
    size_t corner = (size_t)(trow * TILE) * cols + tcol * TILE;   // cell above-left of the tile
    size_t first = corner + cols + 1;                             // top-left inner cell
    if (tx == 0) s[0][0] = score[corner];
    for (int y = 0; y < TILE; y++) r[y][tx] = ref[first + (size_t)y * cols + tx];
    __syncthreads();
    s[tx + 1][0] = score[corner + (size_t)(tx + 1) * cols];       // column left of the tile
    s[0][tx + 1] = score[corner + tx + 1];                        // row above the tile
    __syncthreads();
    // upper-left half of the inner anti-diagonals: diagonal m has m+1 cells
    for (int m = 0; m < TILE; m++) {
        if (tx <= m) {
            int y = tx + 1, x = m - tx + 1;
            s[y][x] = max3(s[y - 1][x - 1] + r[y - 1][x - 1], s[y][x - 1] - penalty, s[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    // lower-right half: diagonal m has m+1 cells
    for (int m = TILE - 2; m >= 0; m--) {
        if (tx <= m) {
            int y = TILE - m + tx, x = TILE - tx;
            s[y][x] = max3(s[y - 1][x - 1] + r[y - 1][x - 1], s[y][x - 1] - penalty, s[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int y = 0; y < TILE; y++) score[first + (size_t)y * cols + tx] = s[y + 1][tx + 1];
}
// tile diagonal d (1-based, d tiles) of the upper-left triangle: block b takes tile (d-1-b, b)
extern "C" __global__ void nw_upper(const int *ref, int *score, int cols, int penalty, int d)
{
    int b = blockIdx.x;
    nw_tile(ref, score, cols, penalty, d - 1 - b, b);
}
// lower-right triangle: diagonal with d tiles (d < ntiles), block b takes tile (ntiles-1-b, ntiles-d+b)
extern "C" __global__ void nw_lower(const int *ref, int *score, int cols, int penalty, int d, int ntiles)
{
    int b = blockIdx.x;
    nw_tile(ref, score, cols, penalty, ntiles - 1 - b, ntiles - d + b);
}
