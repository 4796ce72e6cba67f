// Warp-level intrinsics: shfl.sync in all four modes and several types,
// vote (ballot/all/any/uni), match.any/all, redux.sync (sm_80), activemask,
// bar.warp.sync, cooperative_groups tiled partitions and coalesced groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

extern "C" __global__ void shuffles(const int *a, const float *f, const double *d,
                                    const long long *ll, const __half2 *h,
                                    int *oi, float *of, double *od, long long *oll,
                                    __half2 *oh)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int x = a[t];
    float y = f[t];
    double z = d[t];
    long long w = ll[t];
    __half2 hv = h[t];
    unsigned full = 0xffffffffu;
    int ri = __shfl_sync(full, x, 3) + __shfl_up_sync(full, x, 1) +
             __shfl_down_sync(full, x, 2) + __shfl_xor_sync(full, x, 16);
    ri += __shfl_sync(full, x, lane ^ 5, 16) + __shfl_up_sync(0x0000ffffu, x, 3, 8);
    ri += __shfl_down_sync(full, x, lane & 7, 8) + __shfl_xor_sync(full, x, 1, 4);
    float rf = __shfl_sync(full, y, 0) + __shfl_xor_sync(full, y, 8);
    for (int o = 16; o > 0; o >>= 1)
        rf += __shfl_down_sync(full, rf, o);
    double rd = __shfl_sync(full, z, 31) + __shfl_up_sync(full, z, 4);
    long long rl = __shfl_xor_sync(full, w, 2) + __shfl_down_sync(full, w, 1);
    __half2 rh = __shfl_xor_sync(full, hv, 1);
    oi[t] = ri;
    of[t] = rf;
    od[t] = rd;
    oll[t] = rl;
    oh[t] = rh;
}

extern "C" __global__ void votes(const int *a, unsigned *out, int *cnt)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int x = a[t];
    unsigned full = 0xffffffffu;
    unsigned b = __ballot_sync(full, x > 0);
    int all = __all_sync(full, x != 0);
    int any = __any_sync(full, x < 0);
    int uni = __uni_sync(full, x == 5);
    unsigned act = __activemask();
    unsigned lt, le, gt, ge, eq;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    int rank = __popc(b & lt);
    if (x & 1) {
        // divergent region: vote only among active threads
        unsigned m = __activemask();
        unsigned bb = __ballot_sync(m, x > 10);
        b ^= bb;
        __syncwarp(m);
    }
    __syncwarp();
    out[t] = b + all + any * 2 + uni * 4 + act + rank + (le ^ gt ^ ge ^ eq);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(cnt, __popc(b));
}

extern "C" __global__ void matches(const int *a, const long long *b, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned full = 0xffffffffu;
    unsigned m1 = __match_any_sync(full, a[t]);
    unsigned m2 = __match_any_sync(full, b[t]);
    int pred1 = 0, pred2 = 0;
    unsigned m3 = __match_all_sync(full, a[t] & 0xf0, &pred1);
    unsigned m4 = __match_all_sync(full, b[t] >> 4, &pred2);
    out[t] = m1 ^ m2 ^ m3 ^ m4 ^ (unsigned)(pred1 + 2 * pred2);
}

extern "C" __global__ void warp_reduce(const int *a, const unsigned *b, int *o, unsigned *ou)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned full = 0xffffffffu;
#if __CUDA_ARCH__ >= 800
    int s = __reduce_add_sync(full, a[t]) + __reduce_min_sync(full, a[t]) +
            __reduce_max_sync(full, a[t]);
    unsigned u = __reduce_add_sync(full, b[t]) ^ __reduce_min_sync(full, b[t]) ^
                 __reduce_max_sync(full, b[t]) ^ __reduce_and_sync(full, b[t]) ^
                 __reduce_or_sync(full, b[t]) ^ __reduce_xor_sync(full, b[t]);
#else
    int s = a[t];
    for (int k = 16; k; k >>= 1)
        s += __shfl_xor_sync(full, s, k);
    unsigned u = b[t];
    for (int k = 16; k; k >>= 1)
        u ^= __shfl_xor_sync(full, u, k);
#endif
    o[t] = s;
    ou[t] = u;
}

extern "C" __global__ void cg_tiles(const float *in, float *out, int *counts, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    cg::thread_group tile4 = cg::tiled_partition(block, 4);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float ws = cg::reduce(warp, v, cg::plus<float>());
    float t8 = cg::reduce(tile8, v, cg::greater<float>());
    int r8 = tile8.shfl(tile8.thread_rank(), 0) + tile8.shfl_down((int)v, 1) +
             tile8.shfl_xor(i, 2) + tile8.shfl_up(i, 1);
    bool anyneg = warp.any(v < 0.0f);
    bool allpos = warp.all(v > 0.0f);
    unsigned bal = warp.ballot(v > 1.0f);
    tile4.sync();
    warp.sync();
    int incl = cg::inclusive_scan(warp, 1);
    if (v > 0.5f) {
        cg::coalesced_group active = cg::coalesced_threads();
        int rank = active.thread_rank();
        int sz = active.size();
        int first = active.shfl(i, 0);
        if (rank == 0)
            atomicAdd(&counts[0], sz);
        out[n + i] = (float)(first + rank);
    }
    block.sync();
    if (i < n)
        out[i] = ws + t8 + (float)(r8 + anyneg + allpos + __popc(bal) + incl + (int)tile4.thread_rank());
}
