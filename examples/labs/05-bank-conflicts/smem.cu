// smem.cu -- shared-memory bank conflicts (textbook 5.2: checkSmemSquare.cu
// with a 32x32 int tile, checkSmemRectangle.cu with a 32x16 one).  One block
// writes its tile by rows or columns, synchronises, reads it back by rows or
// columns and stores what it read to out[].
//
//   nvcc -ptx -O3 -arch=sm_75 smem.cu -o smem.ptx

#define BDIM 32          // square tile: 32 x 32
#define RX 32            // rectangular tile: RY rows of RX
#define RY 16
#define IPAD 1

// ---- square tile, block (32, 32) ---------------------------------------------

extern "C" __global__ void setRowReadRow(int *out)
{
    __shared__ int tile[BDIM][BDIM];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.y][threadIdx.x];
}

extern "C" __global__ void setColReadCol(int *out)
{
    __shared__ int tile[BDIM][BDIM];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.x][threadIdx.y] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void setRowReadCol(int *out)
{
    __shared__ int tile[BDIM][BDIM];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void setRowReadColDyn(int *out)
{
    extern __shared__ int dtile[];
    unsigned int row_idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int col_idx = threadIdx.x * blockDim.y + threadIdx.y;
    dtile[row_idx] = row_idx;
    __syncthreads();
    out[row_idx] = dtile[col_idx];
}

extern "C" __global__ void setRowReadColPad(int *out)
{
    __shared__ int tile[BDIM][BDIM + IPAD];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void setRowReadColDynPad(int *out)
{
    extern __shared__ int dtile[];
    unsigned int row_idx = threadIdx.y * (blockDim.x + IPAD) + threadIdx.x;
    unsigned int col_idx = threadIdx.x * (blockDim.x + IPAD) + threadIdx.y;
    unsigned int g_idx = threadIdx.y * blockDim.x + threadIdx.x;
    dtile[row_idx] = g_idx;
    __syncthreads();
    out[g_idx] = dtile[col_idx];
}

// ---- rectangular tile, block (32, 16) ----------------------------------------

extern "C" __global__ void setRowReadRowRect(int *out)
{
    __shared__ int tile[RY][RX];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.y][threadIdx.x];
}

extern "C" __global__ void setColReadColRect(int *out)
{
    __shared__ int tile[RX][RY];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    tile[threadIdx.x][threadIdx.y] = idx;
    __syncthreads();
    out[idx] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void setRowReadColRect(int *out)
{
    __shared__ int tile[RY][RX];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;   // the transposed coordinates
    unsigned int icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[idx] = tile[icol][irow];
}

extern "C" __global__ void setRowReadColRectDyn(int *out)
{
    extern __shared__ int dtile[];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    unsigned int col_idx = icol * blockDim.x + irow;
    dtile[idx] = idx;
    __syncthreads();
    out[idx] = dtile[col_idx];
}

#define RECT_PAD(NAME, NPAD)                                                   \
extern "C" __global__ void NAME(int *out)                                      \
{                                                                              \
    __shared__ int tile[RY][RX + NPAD];                                        \
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;                 \
    unsigned int irow = idx / blockDim.y;                                      \
    unsigned int icol = idx % blockDim.y;                                      \
    tile[threadIdx.y][threadIdx.x] = idx;                                      \
    __syncthreads();                                                           \
    out[idx] = tile[icol][irow];                                               \
}
RECT_PAD(setRowReadColRectPad1, 1)
RECT_PAD(setRowReadColRectPad2, 2)

extern "C" __global__ void setRowReadColRectDynPad(int *out)
{
    extern __shared__ int dtile[];
    unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = idx / blockDim.y;
    unsigned int icol = idx % blockDim.y;
    unsigned int row_idx = threadIdx.y * (blockDim.x + 2) + threadIdx.x;
    unsigned int col_idx = icol * (blockDim.x + 2) + irow;
    dtile[row_idx] = idx;
    __syncthreads();
    out[idx] = dtile[col_idx];
}
