// val_sort: bitonic sort of 256 Ki keys: 2048-key blocks sorted in shared
// memory, then the global merge steps (one launch per step j >= 2048) and
// the shared-memory finish of each merge stage.
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
extern "C" __global__ void init(unsigned *a, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = hashu(i);
}
// stages k = 2 .. 2048 inside blocks of 2048 keys (1024 threads)
extern "C" __global__ void sort_block(unsigned *a)
{
    __shared__ unsigned s[2048];
    unsigned base = blockIdx.x * 2048, t = threadIdx.x;
    s[t] = a[base + t]; s[t + 1024] = a[base + t + 1024];
    for (unsigned k = 2; k <= 2048; k <<= 1)
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            unsigned i = 2 * t - (t & (j - 1)), l = i + j;
            bool up = ((base + i) & k) == 0;
            unsigned x = s[i], y = s[l];
            if ((x > y) == up) { s[i] = y; s[l] = x; }
        }
    __syncthreads();
    a[base + t] = s[t]; a[base + t + 1024] = s[t + 1024];
}
// one compare-exchange step (k, j) over the whole array
extern "C" __global__ void merge_global(unsigned *a, unsigned k, unsigned j)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = 2 * t - (t & (j - 1)), l = i + j;
    bool up = (i & k) == 0;
    unsigned x = a[i], y = a[l];
    if ((x > y) == up) { a[i] = y; a[l] = x; }
}
// the steps j = 1024 .. 1 of stage k, in shared memory
extern "C" __global__ void merge_block(unsigned *a, unsigned k)
{
    __shared__ unsigned s[2048];
    unsigned base = blockIdx.x * 2048, t = threadIdx.x;
    s[t] = a[base + t]; s[t + 1024] = a[base + t + 1024];
    for (unsigned j = 1024; j > 0; j >>= 1) {
        __syncthreads();
        unsigned i = 2 * t - (t & (j - 1)), l = i + j;
        bool up = ((base + i) & k) == 0;
        unsigned x = s[i], y = s[l];
        if ((x > y) == up) { s[i] = y; s[l] = x; }
    }
    __syncthreads();
    a[base + t] = s[t]; a[base + t + 1024] = s[t + 1024];
}
