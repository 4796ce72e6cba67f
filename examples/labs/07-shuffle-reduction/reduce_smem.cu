// reduce_smem.cu -- block reduction in global memory, in shared memory,
// shared memory with 4-way unrolling, and with warp shuffles (textbook 5.3
// reduceInteger.cu and 5.6 reduceIntegerShfl.cu), blocks of DIM = 128.
//
//   nvcc -ptx -O3 -arch=sm_75 reduce_smem.cu -o reduce_smem.ptx

#define DIM 128
#define SMEMDIM (DIM / 32)

// in place, in global memory (completely unrolled, last warp warp-synchronous)
extern "C" __global__ void reduceGmem(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    if (blockDim.x >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    __syncthreads();
    if (tid < 32) {
        volatile int *vsmem = idata;
        vsmem[tid] += vsmem[tid + 32];
        vsmem[tid] += vsmem[tid + 16];
        vsmem[tid] += vsmem[tid + 8];
        vsmem[tid] += vsmem[tid + 4];
        vsmem[tid] += vsmem[tid + 2];
        vsmem[tid] += vsmem[tid + 1];
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// the same tree on a shared-memory copy of the block's data
extern "C" __global__ void reduceSmem(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int smem[DIM];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    smem[tid] = idata[tid];
    __syncthreads();
    if (blockDim.x >= 1024 && tid < 512) smem[tid] += smem[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256) smem[tid] += smem[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) smem[tid] += smem[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) smem[tid] += smem[tid + 64];
    __syncthreads();
    if (tid < 32) {
        volatile int *vsmem = smem;
        vsmem[tid] += vsmem[tid + 32];
        vsmem[tid] += vsmem[tid + 16];
        vsmem[tid] += vsmem[tid + 8];
        vsmem[tid] += vsmem[tid + 4];
        vsmem[tid] += vsmem[tid + 2];
        vsmem[tid] += vsmem[tid + 1];
    }
    if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

// each thread first adds 4 elements one block apart (grid / 4)
extern "C" __global__ void reduceSmemUnroll(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int smem[DIM];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int tmpSum = 0;
    if (idx + 3 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        tmpSum = a1 + a2 + a3 + a4;
    }
    smem[tid] = tmpSum;
    __syncthreads();
    if (blockDim.x >= 1024 && tid < 512) smem[tid] += smem[tid + 512];
    __syncthreads();
    if (blockDim.x >= 512 && tid < 256) smem[tid] += smem[tid + 256];
    __syncthreads();
    if (blockDim.x >= 256 && tid < 128) smem[tid] += smem[tid + 128];
    __syncthreads();
    if (blockDim.x >= 128 && tid < 64) smem[tid] += smem[tid + 64];
    __syncthreads();
    if (tid < 32) {
        volatile int *vsmem = smem;
        vsmem[tid] += vsmem[tid + 32];
        vsmem[tid] += vsmem[tid + 16];
        vsmem[tid] += vsmem[tid + 8];
        vsmem[tid] += vsmem[tid + 4];
        vsmem[tid] += vsmem[tid + 2];
        vsmem[tid] += vsmem[tid + 1];
    }
    if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

__inline__ __device__ int warpReduce(int mySum)
{
    mySum += __shfl_xor_sync(0xffffffff, mySum, 16);
    mySum += __shfl_xor_sync(0xffffffff, mySum, 8);
    mySum += __shfl_xor_sync(0xffffffff, mySum, 4);
    mySum += __shfl_xor_sync(0xffffffff, mySum, 2);
    mySum += __shfl_xor_sync(0xffffffff, mySum, 1);
    return mySum;
}

// warp shuffles: each warp reduces its 32 values in registers, then warp 0
// reduces the per-warp sums
extern "C" __global__ void reduceShfl(int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int smem[SMEMDIM];
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    int mySum = g_idata[idx];
    int laneIdx = threadIdx.x % warpSize;
    int warpIdx = threadIdx.x / warpSize;
    mySum = warpReduce(mySum);
    if (laneIdx == 0) smem[warpIdx] = mySum;
    __syncthreads();
    mySum = (threadIdx.x < SMEMDIM) ? smem[laneIdx] : 0;
    if (warpIdx == 0) mySum = warpReduce(mySum);
    if (threadIdx.x == 0) g_odata[blockIdx.x] = mySum;
}
