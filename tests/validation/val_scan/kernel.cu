// val_scan: inclusive prefix sums of 1 Mi ints: a work-efficient (Blelloch)
// scan of 1024 elements per block in shared memory, a warp-shuffle scan of
// 256 elements per block, and the add of block totals.
extern "C" __global__ void init(int *a, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = (int)((i * 2654435761u) >> 28);
}
extern "C" __global__ void scan_blelloch(const int *in, int *out, int *sums)
{
    __shared__ int t[1024];
    unsigned tid = threadIdx.x, base = blockIdx.x * 1024;
    t[2 * tid] = in[base + 2 * tid];
    t[2 * tid + 1] = in[base + 2 * tid + 1];
    int off = 1;
    for (int d = 512; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) { int ai = off * (2 * tid + 1) - 1, bi = off * (2 * tid + 2) - 1; t[bi] += t[ai]; }
        off *= 2;
    }
    if (tid == 0) { sums[blockIdx.x] = t[1023]; t[1023] = 0; }
    for (int d = 1; d < 1024; d *= 2) {
        off >>= 1;
        __syncthreads();
        if (tid < d) { int ai = off * (2 * tid + 1) - 1, bi = off * (2 * tid + 2) - 1; int x = t[ai]; t[ai] = t[bi]; t[bi] += x; }
    }
    __syncthreads();
    out[base + 2 * tid] = t[2 * tid] + in[base + 2 * tid];
    out[base + 2 * tid + 1] = t[2 * tid + 1] + in[base + 2 * tid + 1];
}
extern "C" __global__ void scan_shfl(const int *in, int *out, int *sums)
{
    __shared__ int ws[8];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int v = in[i];
    for (int d = 1; d < 32; d *= 2) { int x = __shfl_up_sync(0xffffffffu, v, d); if (lane >= d) v += x; }
    if (lane == 31) ws[w] = v;
    __syncthreads();
    if (w == 0) {
        int s = lane < 8 ? ws[lane] : 0;
        for (int d = 1; d < 8; d *= 2) { int x = __shfl_up_sync(0xffffffffu, s, d); if (lane >= d) s += x; }
        if (lane < 8) ws[lane] = s;
    }
    __syncthreads();
    if (w > 0) v += ws[w - 1];
    out[i] = v;
    if (threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = v;
}
// adds the exclusive prefix of the block sums (scanned serially per block: few blocks)
extern "C" __global__ void add_sums(int *out, const int *sums, int per_block)
{
    __shared__ int pre;
    if (threadIdx.x == 0) { int s = 0; for (unsigned b = 0; b < blockIdx.x; b++) s += sums[b]; pre = s; }
    __syncthreads();
    for (int i = threadIdx.x; i < per_block; i += blockDim.x) out[blockIdx.x * per_block + i] += pre;
}
