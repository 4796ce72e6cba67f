// occupancy.cu -- occupancy: block-size sweep of sumMatrixOnGPU2D (textbook
// 3.3.1/3.3.2, sumMatrix.cu), a kernel limited by registers and one limited
// by (dynamic) shared memory.
//
//   nvcc -ptx -O3 -arch=sm_75 occupancy.cu -o occupancy.ptx

extern "C" __global__ void sumMatrixOnGPU2D(float *A, float *B, float *C, int NX, int NY)
{
    unsigned int ix = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int idx = iy * NX + ix;
    if (ix < NX && iy < NY) C[idx] = A[idx] + B[idx];
}

// NV loads that all stay live until the products that combine them: about
// 56 registers (ptxas -arch=sm_75 -v: 58, ptxemu asm -v: 56), so registers
// limit the blocks per SM.  x holds NV rows of n floats.
#define NV 24
extern "C" __global__ void manyRegs(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a[NV];
#pragma unroll
    for (int k = 0; k < NV; k++) a[k] = x[i + k * n];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < NV; k++) s += a[k] * a[NV - 1 - k] + a[(k * 7 + 3) % NV];
    y[i] = s;
}

// y = 2x staged through dynamic shared memory; the launch decides how much
// shared memory each block reserves (and so how many blocks fit on an SM)
extern "C" __global__ void scaleShared(const float *x, float *y, int n)
{
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    buf[threadIdx.x] = 2.0f * x[i];
    y[i] = buf[threadIdx.x];
}
