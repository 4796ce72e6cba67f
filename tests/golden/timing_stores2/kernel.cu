// timing_stores2: column stores (transposeNaiveRow's: 32 sectors per request, 4 bytes each,
// the 8 warps of a block complete them) of a 1024 x 1024 float matrix, taken apart further.
//   col_paced:  each thread first runs `spin` dependent integer steps, spreading the stores
//               out in time (spin 0 is timing_stores' launch 1)
//   col_loop:   `blocks` blocks of 256 threads walk all 4096 tiles (grid-stride): the store
//               rate of a few SMs
//   col_1warp:  one warp per tile writes the 8 words of each of its 32 sectors one after
//               another (8 stores per thread, blocks of 32 threads)
__device__ __forceinline__ unsigned long long col_at(unsigned tile, unsigned wb, unsigned lane)
{
    unsigned ix = 32u * (tile % 32u) + lane, iy = 8u * (tile / 32u) + wb;
    return (unsigned long long)ix * 1024u + iy;
}

extern "C" __global__ void __launch_bounds__(256) col_paced(float *out, int spin)
{
    unsigned wb = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    unsigned x = threadIdx.x;
    for (int i = 0; i < spin; i++) x = x * 1664525u + 1013904223u;
    out[col_at(blockIdx.x, wb, lane)] = (float)(blockIdx.x * 256u + threadIdx.x + (x & 1u));
}

extern "C" __global__ void __launch_bounds__(256) col_loop(float *out)
{
    unsigned wb = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    for (unsigned t = blockIdx.x; t < 4096u; t += gridDim.x)
        out[col_at(t, wb, lane)] = (float)(t * 256u + threadIdx.x);
}

extern "C" __global__ void __launch_bounds__(32) col_1warp(float *out)
{
    unsigned lane = threadIdx.x;
    for (unsigned wb = 0; wb < 8u; wb++)
        out[col_at(blockIdx.x, wb, lane)] = (float)(blockIdx.x * 256u + wb * 32u + lane);
}
