// coalescing.cu -- aligned and coalesced global memory access (textbook 4.3):
// readSegment.cu / writeSegment.cu (misaligned reads and writes at an offset)
// and simpleMathAoS.cu / simpleMathSoA.cu (array of structs vs struct of arrays).
//
// readOffset loads through L1 (ld.global: cached on fermi, "-dlcm=ca");
// readOffsetCg loads with ld.global.cg (L2 only, 32-byte segments), which is
// what "-Xptxas -dlcm=cg" did to the same kernel.
//
//   nvcc -ptx -O3 -arch=sm_75 coalescing.cu -o coalescing.ptx

extern "C" __global__ void readOffset(float *A, float *B, float *C, const int n, int offset)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int k = i + offset;
    if (k < n) C[i] = A[k] + B[k];
}

extern "C" __global__ void readOffsetCg(float *A, float *B, float *C, const int n, int offset)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int k = i + offset;
    if (k < n) C[i] = __ldcg(&A[k]) + __ldcg(&B[k]);
}

extern "C" __global__ void writeOffset(float *A, float *B, float *C, const int n, int offset)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int k = i + offset;
    if (k < n) C[k] = A[i] + B[i];
}

struct innerStruct {
    float x;
    float y;
};

#define LEN (1 << 18)   // elements, as in the launch file

struct innerArray {
    float x[LEN];
    float y[LEN];
};

extern "C" __global__ void testInnerStruct(innerStruct *data, innerStruct *result, const int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        innerStruct tmp = data[i];
        tmp.x += 10.f;
        tmp.y += 20.f;
        result[i] = tmp;
    }
}

extern "C" __global__ void testInnerArray(innerArray *data, innerArray *result, const int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float tmpx = data->x[i];
        float tmpy = data->y[i];
        tmpx += 10.f;
        tmpy += 20.f;
        result->x[i] = tmpx;
        result->y[i] = tmpy;
    }
}
