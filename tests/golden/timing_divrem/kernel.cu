// timing_divrem: integer remainder and IEEE float division, which no GPU has a unit
// for (ptxas expands each into a SASS sequence).  d is a kernel argument, so nvcc
// cannot turn the division into a multiplication.
//   *_lat:  one warp, one dependent chain of n operations (latency of the sequence)
//   *_tput: 264 blocks x 256 threads, 8 independent chains of n operations each
//           (issue cost of the sequence)
#define CHAINS 8
extern "C" __global__ void rem32_lat(unsigned *out, int n, unsigned d)
{
    unsigned x = threadIdx.x * 2654435761u + 12345u;
    for (int i = 0; i < n; i++) x = (x % d) * 40503u + 1000003u;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void rem32_tput(unsigned *out, int n, unsigned d)
{
    unsigned x[CHAINS];
#pragma unroll
    for (int k = 0; k < CHAINS; k++) x[k] = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u + 7919u * k;
    for (int i = 0; i < n; i++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++) x[k] = (x[k] % d) * 40503u + 1000003u;
    unsigned s = 0;
#pragma unroll
    for (int k = 0; k < CHAINS; k++) s ^= x[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void rem64_lat(unsigned long long *out, int n, unsigned long long d)
{
    unsigned long long x = threadIdx.x * 0x9E3779B97F4A7C15ull + 12345u;
    for (int i = 0; i < n; i++) x = (x % d) * 0x5851F42D4C957F2Dull + 1442695040888963407ull;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void rem64_tput(unsigned long long *out, int n, unsigned long long d)
{
    unsigned long long x[CHAINS];
#pragma unroll
    for (int k = 0; k < CHAINS; k++) x[k] = (blockIdx.x * blockDim.x + threadIdx.x) * 0x9E3779B97F4A7C15ull + 7919u * k;
    for (int i = 0; i < n; i++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++) x[k] = (x[k] % d) * 0x5851F42D4C957F2Dull + 1442695040888963407ull;
    unsigned long long s = 0;
#pragma unroll
    for (int k = 0; k < CHAINS; k++) s ^= x[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void fdiv_lat(float *out, int n, float d)
{
    float x = 1.0f + threadIdx.x;
    for (int i = 0; i < n; i++) x = x / d + 1.5f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void fdiv_tput(float *out, int n, float d)
{
    float x[CHAINS];
#pragma unroll
    for (int k = 0; k < CHAINS; k++) x[k] = 1.0f + threadIdx.x + k;
    for (int i = 0; i < n; i++)
#pragma unroll
        for (int k = 0; k < CHAINS; k++) x[k] = x[k] / d + 1.5f;
    float s = 0;
#pragma unroll
    for (int k = 0; k < CHAINS; k++) s += x[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
