// timing_icache: instruction fetch.  Straight-line code of N FP32 FMAs per
// thread (8 independent chains, so one warp could issue one FMA per cycle),
// SASS 16 bytes per instruction: N = 256, 1024, 4096, 16384 is 4, 16, 64, 256 KiB
// of code.  Nsight Compute flushes the caches before each launch, so the code
// comes from DRAM the first time; loop_N runs the same N-FMA body `reps` times
// (warm instruction caches while the body fits them).
#define STEP8 a0 = fmaf(a0, m, c); a1 = fmaf(a1, m, c); a2 = fmaf(a2, m, c); a3 = fmaf(a3, m, c); \
              a4 = fmaf(a4, m, c); a5 = fmaf(a5, m, c); a6 = fmaf(a6, m, c); a7 = fmaf(a7, m, c);

template <int N>
__device__ __forceinline__ void body(float &a0, float &a1, float &a2, float &a3, float &a4, float &a5,
                                     float &a6, float &a7, float m, float c)
{
#pragma unroll
    for (int i = 0; i < N / 8; i++) { STEP8 }
}

template <int N>
__device__ __forceinline__ void straight(float *out, float m, float c, int reps)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float a0 = t, a1 = t + 1, a2 = t + 2, a3 = t + 3, a4 = t + 4, a5 = t + 5, a6 = t + 6, a7 = t + 7;
#pragma unroll 1
    for (int r = 0; r < reps; r++) body<N>(a0, a1, a2, a3, a4, a5, a6, a7, m, c);
    out[t] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

extern "C" __global__ void fetch_256(float *out, float m, float c, int reps) { straight<256>(out, m, c, reps); }
extern "C" __global__ void fetch_1k(float *out, float m, float c, int reps) { straight<1024>(out, m, c, reps); }
extern "C" __global__ void fetch_4k(float *out, float m, float c, int reps) { straight<4096>(out, m, c, reps); }
extern "C" __global__ void fetch_16k(float *out, float m, float c, int reps) { straight<16384>(out, m, c, reps); }
