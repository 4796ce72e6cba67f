// f16, f16x2, bf16 and bf16x2 arithmetic, comparisons and math.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void half_ops(const __half *a, const __half *b, const __half *c,
                                    __half *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = a[i], y = b[i], z = c[i];
    __half r = __hadd(x, y);
    r = __hadd(r, __hsub(x, z));
    r = __hadd(r, __hmul(x, y));
    r = __hfma(r, z, x);
    r = __hadd(r, __hadd_sat(x, y));
    r = __hadd(r, __hmul_sat(y, z));
    r = __hadd(r, __hfma_sat(x, y, z));
    r = __hadd(r, __hneg(z));
    r = __hadd(r, __habs(x));
    r = __hadd(r, __hdiv(x, y));
    r = __hadd(r, __hmax(x, y));
    r = __hadd(r, __hmin(y, z));
    r = __hadd(r, __hmax_nan(x, z));
    r = __hadd(r, __hfma_relu(x, y, z));
    r = __hadd(r, __hadd_rn(x, y));
    r = __hadd(r, hsqrt(x));
    r = __hadd(r, hrsqrt(y));
    r = __hadd(r, hrcp(z));
    r = __hadd(r, hexp(x));
    r = __hadd(r, hexp2(y));
    r = __hadd(r, hlog(z));
    r = __hadd(r, hlog2(x));
    r = __hadd(r, hsin(y));
    r = __hadd(r, hcos(z));
    r = __hadd(r, htanh_approx(x));
    r = __hadd(r, hfloor(x));
    r = __hadd(r, hceil(y));
    r = __hadd(r, htrunc(z));
    r = __hadd(r, hrint(x));
    if (__hlt(x, y) || __hgeu(y, z) || __hisnan(x) || __hisinf(z) || __hequ(x, z))
        r = __hadd(r, __float2half(1.0f));
    if (__hbeq2(__halves2half2(x, y), __halves2half2(z, x)))
        r = __hneg(r);
    o[i] = r;
}

extern "C" __global__ void half2_ops(const __half2 *a, const __half2 *b, const __half2 *c,
                                     __half2 *o, float *of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 x = a[i], y = b[i], z = c[i];
    __half2 r = __hadd2(x, y);
    r = __hadd2(r, __hsub2(x, z));
    r = __hfma2(r, y, z);
    r = __hadd2(r, __hmul2(x, y));
    r = __hadd2(r, __hmul2_sat(x, y));
    r = __hadd2(r, __hfma2_relu(x, y, z));
    r = __hadd2(r, __h2div(x, y));
    r = __hadd2(r, __habs2(z));
    r = __hadd2(r, __hneg2(x));
    r = __hadd2(r, __hmax2(x, y));
    r = __hadd2(r, __hmin2_nan(y, z));
    r = __hadd2(r, h2sqrt(x));
    r = __hadd2(r, h2exp(y));
    r = __hadd2(r, h2log(z));
    r = __hadd2(r, h2sin(x));
    r = __hadd2(r, h2rcp(y));
    r = __hadd2(r, __hgt2(x, y));
    r = __hadd2(r, __hleu2(y, z));
    r = __hadd2(r, __lowhigh2highlow(x));
    r = __hadd2(r, __low2half2(y));
    r = __hadd2(r, __highs2half2(x, z));
    r = __hadd2(r, __hcmadd(x, y, z));
    unsigned m = __hlt2_mask(x, y);
    o[i] = r;
    float2 f = __half22float2(r);
    of[i] = f.x + f.y + (float)m + __low2float(x) + __high2float(z);
}

extern "C" __global__ void bf16_ops(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                    const __nv_bfloat16 *c, __nv_bfloat16 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 x = a[i], y = b[i], z = c[i];
    __nv_bfloat16 r = __hadd(x, y);
    r = __hadd(r, __hsub(x, z));
    r = __hadd(r, __hmul(y, z));
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    r = __hfma(r, x, y);
    r = __hadd(r, __hfma_relu(x, y, z));
#else
    r = __hadd(r, __hmul(x, y));
#endif
    r = __hadd(r, __hdiv(x, y));
    r = __hadd(r, __hmax(x, z));
    r = __hadd(r, __hmin_nan(x, y));
    r = __hadd(r, __habs(z));
    r = __hadd(r, __hneg(y));
    r = __hadd(r, hsqrt(x));
    r = __hadd(r, hexp(y));
    r = __hadd(r, hlog2(z));
    r = __hadd(r, hcos(x));
    r = __hadd(r, hfloor(y));
    r = __hadd(r, hrint(z));
    if (__hlt(x, y) || __hge(y, z) || __hisnan(z))
        r = __hadd(r, __float2bfloat16(1.0f));
    o[i] = r;
}

extern "C" __global__ void bf162_ops(const __nv_bfloat162 *a, const __nv_bfloat162 *b,
                                     const __nv_bfloat162 *c, __nv_bfloat162 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat162 x = a[i], y = b[i], z = c[i];
    __nv_bfloat162 r = __hadd2(x, y);
    r = __hadd2(r, __hsub2(y, z));
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    r = __hfma2(r, x, z);
    r = __hadd2(r, __hfma2_relu(x, y, z));
#endif
    r = __hadd2(r, __hmul2(x, y));
    r = __hadd2(r, __hmax2(x, y));
    r = __hadd2(r, __hmin2(y, z));
    r = __hadd2(r, __habs2(x));
    r = __hadd2(r, __hneg2(y));
    r = __hadd2(r, __h2div(x, z));
    r = __hadd2(r, h2sqrt(x));
    r = __hadd2(r, h2exp2(y));
    r = __hadd2(r, __hle2(x, z));
    r = __hadd2(r, __lowhigh2highlow(z));
    o[i] = r;
}
