// Conversions: every float<->int rounding mode, double<->long long,
// f32<->f16/bf16, fp8 (e4m3/e5m2) pairs, narrow integer sign/zero extension,
// bit-casts.
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

extern "C" __global__ void f2i_all(const float *a, int *oi, unsigned *ou,
                                   long long *oll, unsigned long long *oull, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    oi[4 * i + 0] = __float2int_rn(x);
    oi[4 * i + 1] = __float2int_rz(x);
    oi[4 * i + 2] = __float2int_ru(x);
    oi[4 * i + 3] = __float2int_rd(x);
    ou[4 * i + 0] = __float2uint_rn(x);
    ou[4 * i + 1] = __float2uint_rz(x);
    ou[4 * i + 2] = __float2uint_ru(x);
    ou[4 * i + 3] = __float2uint_rd(x);
    oll[4 * i + 0] = __float2ll_rn(x);
    oll[4 * i + 1] = __float2ll_rz(x);
    oll[4 * i + 2] = __float2ll_ru(x);
    oll[4 * i + 3] = __float2ll_rd(x);
    oull[4 * i + 0] = __float2ull_rn(x);
    oull[4 * i + 1] = __float2ull_rz(x);
    oull[4 * i + 2] = __float2ull_ru(x);
    oull[4 * i + 3] = __float2ull_rd(x);
}

extern "C" __global__ void d2i_all(const double *a, int *oi, unsigned *ou,
                                   long long *oll, unsigned long long *oull,
                                   float *of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i];
    oi[4 * i + 0] = __double2int_rn(x);
    oi[4 * i + 1] = __double2int_rz(x);
    oi[4 * i + 2] = __double2int_ru(x);
    oi[4 * i + 3] = __double2int_rd(x);
    ou[4 * i + 0] = __double2uint_rn(x);
    ou[4 * i + 1] = __double2uint_rz(x);
    ou[4 * i + 2] = __double2uint_ru(x);
    ou[4 * i + 3] = __double2uint_rd(x);
    oll[4 * i + 0] = __double2ll_rn(x);
    oll[4 * i + 1] = __double2ll_rz(x);
    oll[4 * i + 2] = __double2ll_ru(x);
    oll[4 * i + 3] = __double2ll_rd(x);
    oull[4 * i + 0] = __double2ull_rn(x);
    oull[4 * i + 1] = __double2ull_rz(x);
    oull[4 * i + 2] = __double2ull_ru(x);
    oull[4 * i + 3] = __double2ull_rd(x);
    of[4 * i + 0] = __double2float_rn(x);
    of[4 * i + 1] = __double2float_rz(x);
    of[4 * i + 2] = __double2float_ru(x);
    of[4 * i + 3] = __double2float_rd(x);
}

extern "C" __global__ void i2f_all(const int *a, const long long *b, float *of,
                                   double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i];
    long long y = b[i];
    of[8 * i + 0] = __int2float_rn(x);
    of[8 * i + 1] = __int2float_rz(x);
    of[8 * i + 2] = __uint2float_ru((unsigned)x);
    of[8 * i + 3] = __uint2float_rd((unsigned)x);
    of[8 * i + 4] = __ll2float_rn(y);
    of[8 * i + 5] = __ll2float_rz(y);
    of[8 * i + 6] = __ull2float_ru((unsigned long long)y);
    of[8 * i + 7] = __ull2float_rd((unsigned long long)y);
    od[4 * i + 0] = __ll2double_rn(y);
    od[4 * i + 1] = __ll2double_rz(y);
    od[4 * i + 2] = __ull2double_ru((unsigned long long)y);
    od[4 * i + 3] = __int2double_rn(x) + __uint2double_rn((unsigned)x);
}

extern "C" __global__ void narrow_ints(const int8_t *s8, const uint8_t *u8,
                                       const int16_t *s16, const uint16_t *u16,
                                       const int64_t *s64, int32_t *o32,
                                       int64_t *o64, int8_t *n8, uint16_t *n16,
                                       float *of, double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    o32[i] = (int32_t)s8[i] + (int32_t)u8[i] + (int32_t)s16[i] + (int32_t)u16[i];
    o64[i] = (int64_t)s8[i] * (int64_t)u16[i] + (int64_t)(uint32_t)o32[i];
    n8[i] = (int8_t)s64[i];
    n16[i] = (uint16_t)(s64[i] >> 17);
    of[i] = (float)s8[i] + (float)u16[i] + (float)s64[i];
    od[i] = (double)u8[i] + (double)s16[i] + (double)(uint64_t)s64[i];
    // saturating conversions via asm
    int16_t sat16;
    asm("cvt.sat.s16.s32 %0, %1;" : "=h"(sat16) : "r"(o32[i]));
    uint8_t sat8 = (uint8_t)(o32[i]);
    asm("{ .reg .u16 t; cvt.sat.u8.s32 t, %1; cvt.u8.u16 %0, t; }" : "=h"(*(uint16_t *)&sat16) : "r"(o32[i]));
    n16[i] ^= (uint16_t)sat16 + sat8;
}

extern "C" __global__ void half_convert(const float *a, const double *d, __half *oh,
                                        __nv_bfloat16 *ob, float *of, short *os, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    oh[8 * i + 0] = __float2half_rn(x);
    oh[8 * i + 1] = __float2half_rz(x);
    oh[8 * i + 2] = __float2half_ru(x);
    oh[8 * i + 3] = __float2half_rd(x);
    oh[8 * i + 4] = __double2half(d[i]);
    oh[8 * i + 5] = __int2half_rn((int)x);
    oh[8 * i + 6] = __ushort2half_rz((unsigned short)x);
    oh[8 * i + 7] = __ll2half_rd((long long)x);
    __half2 h2 = __floats2half2_rn(x, -x);
    __half2 h2b = __float22half2_rn(make_float2(x * 2.0f, x * 3.0f));
    os[4 * i + 0] = __half2short_rz(oh[8 * i]);
    os[4 * i + 1] = (short)__half2int_rn(__low2half(h2));
    os[4 * i + 2] = (short)__half2uint_ru(__high2half(h2b));
    os[4 * i + 3] = __half_as_short(__float2half(x));
    ob[4 * i + 0] = __float2bfloat16(x);
    ob[4 * i + 1] = __float2bfloat16_rz(x);
    ob[4 * i + 2] = __double2bfloat16(d[i]);
    ob[4 * i + 3] = __float2bfloat16_rd(x);
    __nv_bfloat162 b2 = __floats2bfloat162_rn(x, x * 0.5f);
    of[4 * i + 0] = __half2float(oh[8 * i + 1]);
    of[4 * i + 1] = __bfloat162float(ob[4 * i]);
    of[4 * i + 2] = __low2float(b2) + __high2float(b2);
    of[4 * i + 3] = __half2float(__float2half(__bfloat162float(ob[4 * i + 1])));
}

extern "C" __global__ void fp8_convert(const float2 *a, const __half2 *h,
                                       __nv_fp8x2_storage_t *o43,
                                       __nv_fp8x2_storage_t *o52, __half2 *oh,
                                       float *of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float2 x = a[i];
    o43[2 * i] = __nv_cvt_float2_to_fp8x2(x, __NV_SATFINITE, __NV_E4M3);
    o52[2 * i] = __nv_cvt_float2_to_fp8x2(x, __NV_NOSAT, __NV_E5M2);
    o43[2 * i + 1] = __nv_cvt_halfraw2_to_fp8x2(h[i], __NV_SATFINITE, __NV_E4M3);
    o52[2 * i + 1] = __nv_cvt_bfloat16raw2_to_fp8x2(
        (__nv_bfloat162_raw)__floats2bfloat162_rn(x.x, x.y), __NV_SATFINITE, __NV_E5M2);
    __half2_raw r = __nv_cvt_fp8x2_to_halfraw2(o43[2 * i], __NV_E4M3);
    oh[i] = __half2(r);
    __nv_fp8_e4m3 f8(x.x);
    __nv_fp8_e5m2 g8(x.y);
    of[i] = (float)f8 + (float)g8
          + __half2float(__half(__nv_cvt_fp8_to_halfraw(__nv_cvt_float_to_fp8(x.x, __NV_SATFINITE, __NV_E5M2), __NV_E5M2)));
}

extern "C" __global__ void bitcasts(const float *a, const double *d, int *oi,
                                    long long *oll, float *of, double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    oi[3 * i + 0] = __float_as_int(a[i]);
    oi[3 * i + 1] = __double2hiint(d[i]);
    oi[3 * i + 2] = __double2loint(d[i]);
    oll[i] = __double_as_longlong(d[i]);
    of[i] = __uint_as_float(__float_as_uint(a[i]) ^ 0x80000000u);
    od[i] = __hiloint2double(oi[3 * i + 2], oi[3 * i]);
}
