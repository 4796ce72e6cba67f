// latency.cu -- latency hiding (textbook 3.3.3 and 4.4, Little's law):
// a pointer chase exposes the latency of each level of the memory
// hierarchy (every load depends on the one before), streaming shows how
// many independent loads in flight it takes to hide it.
//
//   nvcc -ptx -O3 -arch=sm_75 latency.cu -o latency.ptx

// One thread follows j = a[j] & mask, hops times.  With a[i] = S + i (a
// ramp) every hop jumps S elements ahead in a ring of mask + 1 elements.
extern "C" __global__ void chase(const unsigned int *a, unsigned int *out, int hops, unsigned int mask)
{
    unsigned int j = 0;
    for (int h = 0; h < hops; h++) j = a[j] & mask;
    out[blockIdx.x * blockDim.x + threadIdx.x] = j;
}

// y = x, grid-stride: the grid's threads decide how many loads are in flight
extern "C" __global__ void stream(const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = x[i];
}

// the same with 8 independent loads per thread before its stores (ILP):
// each thread copies 8 elements blockDim.x apart, n a multiple of 8 * threads
extern "C" __global__ void streamUnroll8(const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x * 8 + threadIdx.x; i < n; i += gridDim.x * blockDim.x * 8) {
        float v[8];
#pragma unroll
        for (int k = 0; k < 8; k++) v[k] = x[i + k * blockDim.x];
#pragma unroll
        for (int k = 0; k < 8; k++) y[i + k * blockDim.x] = v[k];
    }
}
