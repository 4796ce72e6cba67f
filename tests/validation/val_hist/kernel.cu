// val_hist: 256-bin histograms of 4 Mi bytes: global atomics per byte,
// per-block shared-memory histograms merged with global atomics, and a
// skewed input (a third of the bytes equal) that contends on one bin.
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
extern "C" __global__ void init(unsigned *w, unsigned n, unsigned skew)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned h = hashu(i);
        w[i] = skew && (h % 3 == 0) ? 0x07070707u : h;
    }
}
extern "C" __global__ void hist_global(const unsigned *w, unsigned n, unsigned *bins)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned v = w[i];
        atomicAdd(&bins[v & 255], 1u); atomicAdd(&bins[(v >> 8) & 255], 1u);
        atomicAdd(&bins[(v >> 16) & 255], 1u); atomicAdd(&bins[v >> 24], 1u);
    }
}
extern "C" __global__ void hist_shared(const unsigned *w, unsigned n, unsigned *bins)
{
    __shared__ unsigned h[256];
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) h[i] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned v = w[i];
        atomicAdd(&h[v & 255], 1u); atomicAdd(&h[(v >> 8) & 255], 1u);
        atomicAdd(&h[(v >> 16) & 255], 1u); atomicAdd(&h[v >> 24], 1u);
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) if (h[i]) atomicAdd(&bins[i], h[i]);
}
