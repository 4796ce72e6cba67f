// transpose.cu -- matrix transpose (textbook 4.4.2, transpose.cu, with 16x16
// blocks; and 5.4, transposeRectangle.cu, shared-memory tiles of 32x16).
// in is ny rows of nx floats; out = transpose(in) (nx rows of ny floats);
// the copy kernels give the upper and lower bounds of the bandwidth.
//
//   nvcc -ptx -O3 -arch=sm_75 transpose.cu -o transpose.ptx

#define BDIMX 32   // the shared-memory kernels' tile: 32 x 16
#define BDIMY 16
#define IPAD 2     // padding: 2 columns (Kepler, 8-byte banks); 1 is enough for fermi

// copy rows: load and store along rows (upper bound)
extern "C" __global__ void copyRow(float *out, float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[iy * nx + ix] = in[iy * nx + ix];
}

// copy columns: load and store along columns (lower bound)
extern "C" __global__ void copyCol(float *out, float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[ix * ny + iy] = in[ix * ny + iy];
}

// load rows, store columns
extern "C" __global__ void transposeNaiveRow(float *out, float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[ix * ny + iy] = in[iy * nx + ix];
}

// load columns, store rows
extern "C" __global__ void transposeNaiveCol(float *out, float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[iy * nx + ix] = in[ix * ny + iy];
}

// load rows, store columns, four elements per thread
extern "C" __global__ void transposeUnroll4Row(float *out, float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x * 4 + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    unsigned int ti = iy * nx + ix;   // access in rows
    unsigned int to = ix * ny + iy;   // access in columns
    if (ix + 3 * blockDim.x < nx && iy < ny) {
        out[to] = in[ti];
        out[to + ny * blockDim.x] = in[ti + blockDim.x];
        out[to + ny * 2 * blockDim.x] = in[ti + 2 * blockDim.x];
        out[to + ny * 3 * blockDim.x] = in[ti + 3 * blockDim.x];
    }
}

// load columns, store rows, four elements per thread
extern "C" __global__ void transposeUnroll4Col(float *out, float *in, const int nx, const int ny)
{
    unsigned int ix = blockDim.x * blockIdx.x * 4 + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    unsigned int ti = iy * nx + ix;   // access in rows
    unsigned int to = ix * ny + iy;   // access in columns
    if (ix + 3 * blockDim.x < nx && iy < ny) {
        out[ti] = in[to];
        out[ti + blockDim.x] = in[to + blockDim.x * ny];
        out[ti + 2 * blockDim.x] = in[to + 2 * blockDim.x * ny];
        out[ti + 3 * blockDim.x] = in[to + 3 * blockDim.x * ny];
    }
}

// load rows, store columns, blocks numbered along diagonals (against
// DRAM partition camping)
extern "C" __global__ void transposeDiagonalRow(float *out, float *in, const int nx, const int ny)
{
    unsigned int blk_y = blockIdx.x;
    unsigned int blk_x = (blockIdx.x + blockIdx.y) % gridDim.x;
    unsigned int ix = blockDim.x * blk_x + threadIdx.x;
    unsigned int iy = blockDim.y * blk_y + threadIdx.y;
    if (ix < nx && iy < ny) out[ix * ny + iy] = in[iy * nx + ix];
}

// shared-memory tile: load a row-major tile, store it transposed
extern "C" __global__ void transposeSmem(float *out, float *in, int nx, int ny)
{
    __shared__ float tile[BDIMY][BDIMX];
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    unsigned int ti = iy * nx + ix;
    unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = bidx / blockDim.y;
    unsigned int icol = bidx % blockDim.y;
    ix = blockIdx.y * blockDim.y + icol;
    iy = blockIdx.x * blockDim.x + irow;
    unsigned int to = iy * ny + ix;
    if (ix < nx && iy < ny) {
        tile[threadIdx.y][threadIdx.x] = in[ti];
        __syncthreads();
        out[to] = tile[icol][irow];   // a column of the tile: bank conflicts
    }
}

// the same with IPAD padding columns
extern "C" __global__ void transposeSmemPad(float *out, float *in, int nx, int ny)
{
    __shared__ float tile[BDIMY][BDIMX + IPAD];
    unsigned int ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned int iy = blockDim.y * blockIdx.y + threadIdx.y;
    unsigned int ti = iy * nx + ix;
    unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = bidx / blockDim.y;
    unsigned int icol = bidx % blockDim.y;
    ix = blockIdx.y * blockDim.y + icol;
    iy = blockIdx.x * blockDim.x + irow;
    unsigned int to = iy * ny + ix;
    if (ix < nx && iy < ny) {
        tile[threadIdx.y][threadIdx.x] = in[ti];
        __syncthreads();
        out[to] = tile[icol][irow];
    }
}

// padded tile, two elements per thread (grid halved in x)
extern "C" __global__ void transposeSmemUnrollPad(float *out, float *in, const int nx, const int ny)
{
    __shared__ float tile[BDIMY * (BDIMX * 2 + IPAD)];
    unsigned int ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int ti = iy * nx + ix;
    unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = bidx / blockDim.y;
    unsigned int icol = bidx % blockDim.y;
    unsigned int ix2 = blockIdx.y * blockDim.y + icol;
    unsigned int iy2 = 2 * blockIdx.x * blockDim.x + irow;
    unsigned int to = iy2 * ny + ix2;
    if (ix + blockDim.x < nx && iy < ny) {
        unsigned int row_idx = threadIdx.y * (blockDim.x * 2 + IPAD) + threadIdx.x;
        tile[row_idx] = in[ti];
        tile[row_idx + BDIMX] = in[ti + BDIMX];
        __syncthreads();
        unsigned int col_idx = icol * (blockDim.x * 2 + IPAD) + irow;
        out[to] = tile[col_idx];
        out[to + ny * BDIMX] = tile[col_idx + BDIMX];
    }
}
