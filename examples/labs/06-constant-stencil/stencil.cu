// stencil.cu -- a 9-point 1-D stencil with its coefficients in constant
// memory, through the read-only cache, or as plain global loads (textbook
// 5.5: constantStencil.cu and constantReadOnly.cu).  Every thread of a warp
// reads the same coefficient at the same time: the constant cache's
// broadcast case.  The launch file passes in + RADIUS floats as 'in', so
// the halo at both ends is readable.
//
//   nvcc -ptx -O3 -arch=sm_75 stencil.cu -o stencil.ptx

#define RADIUS 4
#define BDIM 32

// the coefficients of an 8th-order first derivative (a0 is unused)
__constant__ float coef[RADIUS + 1];

extern "C" __global__ void stencil_1d(float *in, float *out, int N)
{
    __shared__ float smem[BDIM + 2 * RADIUS];
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    while (idx < N) {
        int sidx = threadIdx.x + RADIUS;
        smem[sidx] = in[idx];
        if (threadIdx.x < RADIUS) {
            smem[sidx - RADIUS] = in[idx - RADIUS];
            smem[sidx + BDIM] = in[idx + BDIM];
        }
        __syncthreads();
        float tmp = 0.0f;
#pragma unroll
        for (int i = 1; i <= RADIUS; i++) tmp += coef[i] * (smem[sidx + i] - smem[sidx - i]);
        out[idx] = tmp;
        __syncthreads();
        idx += gridDim.x * blockDim.x;
    }
}

// the same, coefficients through the read-only data cache (ld.global.nc)
extern "C" __global__ void stencil_1d_read_only(float *in, float *out, const float *__restrict__ dcoef, int N)
{
    __shared__ float smem[BDIM + 2 * RADIUS];
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    while (idx < N) {
        int sidx = threadIdx.x + RADIUS;
        smem[sidx] = in[idx];
        if (threadIdx.x < RADIUS) {
            smem[sidx - RADIUS] = in[idx - RADIUS];
            smem[sidx + BDIM] = in[idx + BDIM];
        }
        __syncthreads();
        float tmp = 0.0f;
#pragma unroll
        for (int i = 1; i <= RADIUS; i++) tmp += __ldg(&dcoef[i]) * (smem[sidx + i] - smem[sidx - i]);
        out[idx] = tmp;
        __syncthreads();
        idx += gridDim.x * blockDim.x;
    }
}

// the same, coefficients as ordinary global loads (through L1)
extern "C" __global__ void stencil_1d_global(float *in, float *out, volatile float *gcoef, int N)
{
    __shared__ float smem[BDIM + 2 * RADIUS];
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    while (idx < N) {
        int sidx = threadIdx.x + RADIUS;
        smem[sidx] = in[idx];
        if (threadIdx.x < RADIUS) {
            smem[sidx - RADIUS] = in[idx - RADIUS];
            smem[sidx + BDIM] = in[idx + BDIM];
        }
        __syncthreads();
        float tmp = 0.0f;
#pragma unroll
        for (int i = 1; i <= RADIUS; i++) tmp += gcoef[i] * (smem[sidx + i] - smem[sidx - i]);
        out[idx] = tmp;
        __syncthreads();
        idx += gridDim.x * blockDim.x;
    }
}
