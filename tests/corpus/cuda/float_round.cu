// f32 / f64 arithmetic with explicit IEEE rounding intrinsics, plus the
// libdevice math functions that expand to long inline sequences.
#include <math.h>

extern "C" __global__ void f32_rounding(const float *a, const float *b,
                                        const float *c, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    float r = 0.0f;
    r += __fadd_rn(x, y) + __fadd_rz(x, y) + __fadd_ru(x, y) + __fadd_rd(x, y);
    r += __fsub_rn(x, y) + __fsub_rz(x, y) + __fsub_ru(x, y) + __fsub_rd(x, y);
    r += __fmul_rn(x, y) + __fmul_rz(x, y) + __fmul_ru(x, y) + __fmul_rd(x, y);
    r += __fmaf_rn(x, y, z) + __fmaf_rz(x, y, z) + __fmaf_ru(x, y, z) + __fmaf_rd(x, y, z);
    r += __fdiv_rn(x, y) + __fdiv_rz(x, y) + __fdiv_ru(x, y) + __fdiv_rd(x, y);
    r += __frcp_rn(x) + __frcp_rz(x) + __frcp_ru(x) + __frcp_rd(x);
    r += __fsqrt_rn(x) + __fsqrt_rz(x) + __fsqrt_ru(x) + __fsqrt_rd(x);
    r += __fdividef(x, y) + __frsqrt_rn(y);
    r += fminf(x, y) + fmaxf(y, z) + fabsf(z) + copysignf(x, y);
    r += floorf(x) + ceilf(y) + truncf(z) + rintf(x) + roundf(y) + nearbyintf(z);
    r += __saturatef(x) + fmaf(x, y, z) + x / y + sqrtf(z);
    r += fdimf(x, y) + fmodf(x, y) + remainderf(x, y);
    int e;
    float fr = frexpf(x, &e);
    r += fr + (float)e + ldexpf(y, e & 7) + scalbnf(z, 3);
    r += (isnan(x) ? 1.0f : 0.0f) + (isinf(y) ? 2.0f : 0.0f) + (isfinite(z) ? 4.0f : 0.0f);
    r += signbit(x) ? -1.0f : 1.0f;
    r += sinf(x) + cosf(y) + expf(z) + logf(fabsf(x) + 1.0f) + powf(fabsf(y), 1.5f);
    r += tanf(x) + atan2f(x, y) + erff(z) + cbrtf(x) + hypotf(x, y);
    r += exp2f(x) + log2f(fabsf(y) + 2.0f) + exp10f(z) + log10f(fabsf(z) + 3.0f);
    r += rsqrtf(fabsf(x) + 1.0f) + sinhf(y) + acosf(fminf(fabsf(z), 1.0f));
    float s, co;
    sincosf(x, &s, &co);
    r += s * co;
    o[i] = r;
}

extern "C" __global__ void f64_rounding(const double *a, const double *b,
                                        const double *c, double *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    double r = 0.0;
    r += __dadd_rn(x, y) + __dadd_rz(x, y) + __dadd_ru(x, y) + __dadd_rd(x, y);
    r += __dsub_rn(x, y) + __dsub_rz(x, y) + __dsub_ru(x, y) + __dsub_rd(x, y);
    r += __dmul_rn(x, y) + __dmul_rz(x, y) + __dmul_ru(x, y) + __dmul_rd(x, y);
    r += __fma_rn(x, y, z) + __fma_rz(x, y, z) + __fma_ru(x, y, z) + __fma_rd(x, y, z);
    r += __ddiv_rn(x, y) + __ddiv_rz(x, y) + __ddiv_ru(x, y) + __ddiv_rd(x, y);
    r += __drcp_rn(x) + __drcp_rz(x) + __drcp_ru(x) + __drcp_rd(x);
    r += __dsqrt_rn(x) + __dsqrt_rz(x) + __dsqrt_ru(x) + __dsqrt_rd(x);
    r += fmin(x, y) + fmax(y, z) + fabs(z) + copysign(x, y);
    r += floor(x) + ceil(y) + trunc(z) + rint(x) + round(y);
    r += x / y + sqrt(fabs(z)) + rsqrt(fabs(x) + 1.0) + fma(x, y, z);
    r += sin(x) + cos(y) + exp(z) + log(fabs(x) + 1.0) + pow(fabs(y), 2.5);
    r += atan(x) + erfc(y) + tgamma(fabs(z) + 0.5) + fmod(x, y);
    int e;
    double fr = frexp(x, &e);
    r += fr + (double)e + ldexp(y, e & 15);
    o[i] = r;
}

extern "C" __global__ void f32_special(float *o)
{
    // special constants -> 0f7F800000, 0fFF800000, 0f7FFFFFFF, denormals
    int t = threadIdx.x;
    float v = (float)t;
    float inf = __int_as_float(0x7f800000);
    float r = 0.0f;
    if (t & 1)
        r = v * inf;
    else if (t & 2)
        r = -inf + v;
    else if (t & 4)
        r = __int_as_float(0x7fffffff) + v;
    else if (t & 8)
        r = 1.0e-40f * v;   // denormal immediate
    else
        r = -0.0f * v;
    o[t] = r;
}

extern "C" __global__ void f64_special(double *o, float *of)
{
    int t = threadIdx.x;
    double v = (double)t;
    o[t] = v * 4.9406564584124654e-324 + 1.7976931348623157e308 * (double)(t & 1)
         + __longlong_as_double(0x7ff0000000000000ll) * (double)(t & 2);
    of[t] = __fmul_rn(0.1f, (float)t) + __dmul_rn(0.1, v);
}

extern "C" __global__ void f32_ftz_cmp(const float *a, const float *b, int *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    int r = 0;
    r |= (x < y) << 0;
    r |= (x <= y) << 1;
    r |= (x > y) << 2;
    r |= (x >= y) << 3;
    r |= (x == y) << 4;
    r |= (x != y) << 5;
    r |= !(x < y) << 6;      // unordered comparisons (setp.geu)
    r |= !(x >= y) << 7;
    r |= (isnan(x) || isnan(y)) << 8;
    r |= (x == x && y == y) << 9;
    double dx = x, dy = y;
    r |= (dx < dy) << 10;
    r |= !(dx > dy) << 11;
    o[i] = r;
}
