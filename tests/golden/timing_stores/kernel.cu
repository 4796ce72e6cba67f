// timing_stores: where the cost of a transpose goes on the H100.  1024 x 1024 floats,
// blocks of 256 threads (8 warps), 4096 blocks; each thread makes one access.
// mode 0 row:        warp reads/writes 32 consecutive words of a row (coalesced)
// mode 1 col:        warp touches one column in 32 rows (4 KiB apart): 32 sectors, 4 bytes
//                    each; the 8 warps of a block take 8 neighbouring columns, so a block
//                    fills its 32 sectors (transposeNaiveRow's stores, block (32,8))
// mode 2 col_xsm:    the same sectors, but the 8 words of a sector come from 8 consecutive
//                    blocks (different SMs)
// mode 3 col_sparse: rows of 8192 words, every 8th column: each sector gets one 4-byte
//                    access and is never completed (32 MiB span)
__device__ __forceinline__ unsigned long long where(int mode, unsigned b, unsigned wb, unsigned lane)
{
    unsigned ix, iy;
    if (mode == 2) { ix = 32u * (wb + 8u * ((b / 8u) % 4u)) + lane; iy = 8u * (b / 32u) + (b % 8u); }
    else           { ix = 32u * (b % 32u) + lane;                  iy = 8u * (b / 32u) + wb; }
    if (mode == 0) return (unsigned long long)iy * 1024u + ix;
    if (mode == 3) return (unsigned long long)ix * 8192u + 8u * iy;
    return (unsigned long long)ix * 1024u + iy;
}

extern "C" __global__ void __launch_bounds__(256) pat_store(float *out, int mode)
{
    unsigned b = blockIdx.x, wb = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    out[where(mode, b, wb, lane)] = (float)(b * 256u + threadIdx.x);
}

extern "C" __global__ void __launch_bounds__(256) pat_load(const float *in, float *out, int mode)
{
    unsigned b = blockIdx.x, wb = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    unsigned g = b * 256u + threadIdx.x;
    out[g] = in[where(mode, b, wb, lane)] + (float)g;
}
