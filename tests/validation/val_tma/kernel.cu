// val_tma (validation set): bulk copies by the TMA (cp.async.bulk) in the
// shapes pipelined kernels use: a producer warp filling a ring of shared
// buffers for consumer warps (full and empty mbarriers), a load-transform-
// store stream through bulk groups, and bulk reductions into shared totals.
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
extern "C" __global__ void init(unsigned *a, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = hashu(i);
}

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(unsigned long long *b, unsigned n) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem(b)), "r"(n)); }
__device__ __forceinline__ void bar_wait(unsigned long long *b, unsigned parity)
{
    unsigned ok = 0;
    while (!ok)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(smem(b)), "r"(parity) : "memory");
}
__device__ __forceinline__ void bar_arrive(unsigned long long *b) { asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" :: "r"(smem(b)) : "memory"); }
__device__ __forceinline__ void load_async(void *dst, const void *src, unsigned bytes, unsigned long long *b)
{
    asm volatile("{ .reg .b64 st; mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1; }" :: "r"(smem(b)), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(b)) : "memory");
}

#define STAGES 4
#define CHUNK 4096                        // bytes a stage
// warp 0 (lane 0) produces, warps 1..3 consume: each chunk's words summed,
// the ring's slot released on its empty barrier
extern "C" __global__ void tma_pipe_sum(const unsigned *in, unsigned *out, int chunks)
{
    __shared__ __align__(128) unsigned buf[STAGES][CHUNK / 4];
    __shared__ __align__(8) unsigned long long full[STAGES], empty[STAGES];
    __shared__ unsigned part[128];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; s++) { bar_init(&full[s], 1); bar_init(&empty[s], 3); }
    __syncthreads();
    const unsigned *mine = in + (size_t)blockIdx.x * chunks * (CHUNK / 4);
    unsigned sum = 0;
    if (warp == 0) {
        if (lane == 0)
            for (int c = 0; c < chunks; c++) {
                int s = c % STAGES;
                if (c >= STAGES) bar_wait(&empty[s], ((c / STAGES) - 1) & 1);
                load_async(buf[s], mine + (size_t)c * (CHUNK / 4), CHUNK, &full[s]);
            }
    } else {
        for (int c = 0; c < chunks; c++) {
            int s = c % STAGES;
            bar_wait(&full[s], (c / STAGES) & 1);
            for (int i = threadIdx.x - 32; i < CHUNK / 4; i += 96) sum += buf[s][i] * (unsigned)(c + 1);
            __syncwarp();
            if (lane == 0) bar_arrive(&empty[s]);
        }
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned t = 0;
        for (int i = 0; i < 128; i++) t += part[i];
        out[blockIdx.x] = t;
    }
}

// each round: a chunk loaded by the TMA, every word transformed in shared
// memory, the chunk stored to global memory by the TMA (bulk group), two
// buffers alternating (wait_group.read 1 before a buffer is loaded again)
extern "C" __global__ void tma_transform(const unsigned *in, unsigned *outp, int chunks)
{
    __shared__ __align__(128) unsigned buf[2][CHUNK / 4];
    __shared__ __align__(8) unsigned long long full[2];
    if (threadIdx.x == 0) { bar_init(&full[0], 1); bar_init(&full[1], 1); }
    __syncthreads();
    size_t base = (size_t)blockIdx.x * chunks * (CHUNK / 4);
    if (threadIdx.x == 0) load_async(buf[0], in + base, CHUNK, &full[0]);
    for (int c = 0; c < chunks; c++) {
        int s = c & 1;
        if (threadIdx.x == 0 && c + 1 < chunks) {
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
            load_async(buf[s ^ 1], in + base + (size_t)(c + 1) * (CHUNK / 4), CHUNK, &full[s ^ 1]);
        }
        bar_wait(&full[s], (c >> 1) & 1);
        for (int i = threadIdx.x; i < CHUNK / 4; i += blockDim.x) buf[s][i] = hashu(buf[s][i] + c);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (threadIdx.x == 0) {
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                         :: "l"(outp + base + (size_t)c * (CHUNK / 4)), "r"(smem(buf[s])), "r"(CHUNK) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// every block adds its chunks into one of `groups` shared totals (bulk
// reductions of a chunk at a time, 16 bytes an L2 update)
extern "C" __global__ void tma_reduce(const unsigned *in, unsigned *tot, int chunks, int groups)
{
    __shared__ __align__(128) unsigned buf[CHUNK / 4];
    __shared__ __align__(8) unsigned long long full;
    if (threadIdx.x == 0) bar_init(&full, 1);
    __syncthreads();
    size_t base = (size_t)blockIdx.x * chunks * (CHUNK / 4);
    unsigned *dst = tot + (size_t)(blockIdx.x % groups) * (CHUNK / 4);
    for (int c = 0; c < chunks; c++) {
        if (threadIdx.x == 0) {
            if (c) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
            load_async(buf, in + base + (size_t)c * (CHUNK / 4), CHUNK, &full);
        }
        bar_wait(&full, c & 1);
        if (threadIdx.x == 0) {
            asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;" :: "l"(dst), "r"(smem(buf)), "r"(CHUNK) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
