// divergence.cu -- warp divergence (textbook 3.2.2, simpleDivergence.cu).
//
// mathKernel1 branches on tid % 2 (even and odd threads of every warp take
// different paths), mathKernel2 on the warp index (tid / warpSize) % 2 (all
// threads of a warp agree), mathKernel3 is mathKernel1 written as two
// separate ifs.  With -O3 these short branches become predicated (selp) code,
// as the textbook notes; the *Long kernels put a loop on each side so that
// the branch survives optimisation and the paths really serialise.
//
//   nvcc -ptx -O3 -arch=sm_75 divergence.cu -o divergence.ptx

extern "C" __global__ void mathKernel1(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;
    if (tid % 2 == 0) ia = 100.0f;
    else ib = 200.0f;
    c[tid] = ia + ib;
}

extern "C" __global__ void mathKernel2(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;
    if ((tid / warpSize) % 2 == 0) ia = 100.0f;
    else ib = 200.0f;
    c[tid] = ia + ib;
}

extern "C" __global__ void mathKernel3(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia, ib;
    ia = ib = 0.0f;
    bool ipred = (tid % 2 == 0);
    if (ipred) ia = 100.0f;
    if (!ipred) ib = 200.0f;
    c[tid] = ia + ib;
}

// Each side iterates n times on different arithmetic, so the compiler keeps
// a real branch around each loop.
extern "C" __global__ void mathKernelLong1(float *c, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)tid;
    if (tid % 2 == 0) {
        for (int i = 0; i < n; i++) x = x * 0.999f + 1.0f;
    } else {
        for (int i = 0; i < n; i++) x = x * 1.001f - 2.0f;
    }
    c[tid] = x;
}

extern "C" __global__ void mathKernelLong2(float *c, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)tid;
    if ((tid / warpSize) % 2 == 0) {
        for (int i = 0; i < n; i++) x = x * 0.999f + 1.0f;
    } else {
        for (int i = 0; i < n; i++) x = x * 1.001f - 2.0f;
    }
    c[tid] = x;
}
