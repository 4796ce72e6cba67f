// Integer arithmetic of every width: 8/16/32/64-bit add/sub/mul/div/rem,
// mul.hi / mul.wide, 128-bit carry chains (add.cc/addc/mad.cc), sad, popc,
// clz, brev, bfe/bfi, prmt (__byte_perm), shf (__funnelshift), lop3,
// dp4a/dp2a and the SIMD video intrinsics (__vadd4 ...).
#include <stdint.h>

extern "C" __global__ void int_widths(const int8_t *a8, const int16_t *a16,
                                      const int32_t *a32, const int64_t *a64,
                                      int8_t *o8, int16_t *o16, int32_t *o32,
                                      int64_t *o64, uint64_t *ou64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int8_t x8 = a8[i], y8 = a8[(i + 1) % n];
    int16_t x16 = a16[i], y16 = a16[(i + 3) % n];
    int32_t x32 = a32[i], y32 = a32[(i + 5) % n] | 1;
    int64_t x64 = a64[i], y64 = a64[(i + 7) % n] | 1;

    o8[i] = (int8_t)(x8 * y8 + (int8_t)(x8 >> 2) - (int8_t)(y8 / 3));
    o16[i] = (int16_t)(x16 * y16 - (int16_t)(x16 % 7) + (int16_t)((uint16_t)y16 >> 3));
    int32_t r32 = x32 / y32 + x32 % y32;
    r32 += (int32_t)((uint32_t)x32 / (uint32_t)y32) ^ (int32_t)((uint32_t)x32 % (uint32_t)y32);
    r32 += __mulhi(x32, y32) + (int32_t)__umulhi((uint32_t)x32, (uint32_t)y32);
    r32 += __mul24(x32, y32) + (int32_t)__umul24(x32, y32);
    r32 += abs(x32) + min(x32, y32) - max(x32, y32);
    r32 += (int32_t)umin((uint32_t)x32, (uint32_t)y32) + (int32_t)umax((uint32_t)x32, 7u);
    r32 += __hadd(x32, y32) + __rhadd(x32, y32) + (int32_t)__uhadd(x32, y32) + (int32_t)__urhadd(x32, y32);
    r32 += x32 << (y32 & 31);
    r32 += x32 >> (y32 & 31);
    r32 += (int32_t)((uint32_t)x32 >> (y32 & 31));
    o32[i] = r32;

    int64_t r64 = x64 / y64 + x64 % y64;
    r64 += (int64_t)((uint64_t)x64 / (uint64_t)y64);
    r64 += (int64_t)((uint64_t)x64 % (uint64_t)y64);
    r64 += __mul64hi(x64, y64);
    r64 += (int64_t)__umul64hi((uint64_t)x64, (uint64_t)y64);
    r64 += (int64_t)x32 * (int64_t)y32;              // mul.wide.s32
    r64 += (int64_t)((uint64_t)(uint32_t)x32 * (uint32_t)y32); // mul.wide.u32
    r64 += llabs(x64) + llmin(x64, y64) - llmax(x64, y64);
    r64 += x64 << (y32 & 63);
    r64 += x64 >> (y32 & 63);
    o64[i] = r64;
    ou64[i] = (uint64_t)x64 >> (y32 & 63);
}

// 128-bit multiply-accumulate: add.cc / addc.cc / mad.lo.cc / madc.hi
struct u128 { uint64_t lo, hi; };

__device__ __forceinline__ u128 mul64x64(uint64_t a, uint64_t b)
{
    u128 r;
    r.lo = a * b;
    r.hi = __umul64hi(a, b);
    return r;
}

__device__ __forceinline__ u128 add128(u128 a, u128 b)
{
    u128 r;
    asm("add.cc.u64 %0, %2, %4;\n\t"
        "addc.u64 %1, %3, %5;"
        : "=l"(r.lo), "=l"(r.hi)
        : "l"(a.lo), "l"(a.hi), "l"(b.lo), "l"(b.hi));
    return r;
}

extern "C" __global__ void bignum_mul(const uint32_t *a, const uint32_t *b,
                                      uint32_t *out, int limbs)
{
    // schoolbook multiplication with mad.lo.cc / madc.hi.cc chains
    int t = threadIdx.x;
    const uint32_t *pa = a + t * limbs;
    const uint32_t *pb = b + t * limbs;
    uint32_t *po = out + t * 2 * limbs;
    for (int k = 0; k < 2 * limbs; k++)
        po[k] = 0;
    for (int i = 0; i < limbs; i++) {
        uint32_t carry = 0;
        uint32_t ai = pa[i];
        for (int j = 0; j < limbs; j++) {
            uint32_t lo, hi;
            asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\t"
                "madc.hi.u32 %1, %2, %3, 0;\n\t"
                : "=r"(lo), "=r"(hi)
                : "r"(ai), "r"(pb[j]), "r"(po[i + j]));
            asm("add.cc.u32 %0, %0, %2;\n\t"
                "addc.u32 %1, %1, 0;"
                : "+r"(lo), "+r"(hi)
                : "r"(carry));
            po[i + j] = lo;
            carry = hi;
        }
        po[i + limbs] = carry;
    }
}

extern "C" __global__ void u128_accumulate(const uint64_t *a, const uint64_t *b,
                                           uint64_t *out, int n)
{
    u128 acc = {0, 0};
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc = add128(acc, mul64x64(a[i], b[i]));
    unsigned __int128 w = ((unsigned __int128)acc.hi << 64) | acc.lo;
    w = w * 0x9E3779B97F4A7C15ull + (unsigned __int128)a[0];
    w = w / 1000003u;   // 128-bit division -> helper call
    out[2 * threadIdx.x] = (uint64_t)w;
    out[2 * threadIdx.x + 1] = (uint64_t)(w >> 64);
}

extern "C" __global__ void bit_ops(const uint32_t *a, const uint64_t *b,
                                   uint32_t *o, uint64_t *o64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t x = a[i], y = a[(i + 1) % n], z = a[(i + 2) % n];
    uint64_t X = b[i], Y = b[(i + 1) % n];
    uint32_t r = 0;
    r += __popc(x) + __popcll(X);
    r += __clz(x) + __clzll(X);
    r += __ffs(x) + __ffsll(X);
    r += __brev(x) ^ (uint32_t)__brevll(X);
    r += __sad(x, y, z) + __usad(x, y, z);
    r += __byte_perm(x, y, 0x5140) ^ __byte_perm(x, y, z & 0x7777);
    r += __funnelshift_l(x, y, z) + __funnelshift_r(x, y, z);
    r += __funnelshift_lc(x, y, z) ^ __funnelshift_rc(x, y, z);
    r += (x & y) ^ (~z | x);      // lop3
    r += (x ^ y ^ z) | (x & ~y);  // lop3
    r += (x >> 5) & 0x3ff;        // bfe
    r += (x & ~(0xffu << 8)) | ((y & 0xff) << 8); // bfi
    uint32_t bf;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(bf) : "r"(x), "r"(y & 31), "r"(z & 31));
    r += bf;
    asm("bfe.s32 %0, %1, 4, 12;" : "=r"(bf) : "r"(x));
    r += bf;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(bf) : "r"(x), "r"(y), "r"(z & 31), "r"(9));
    r += bf;
    asm("bfind.u32 %0, %1;" : "=r"(bf) : "r"(x));
    r += bf;
    asm("bfind.shiftamt.s32 %0, %1;" : "=r"(bf) : "r"(x));
    r += bf;
    r += (x << 7) | (x >> 25);  // rotate -> shf.l.wrap
    o[i] = r;
    uint64_t r64 = (X << 13) | (X >> 51);
    r64 ^= __brevll(Y) + (uint64_t)__popcll(X & Y);
    o64[i] = r64;
}

extern "C" __global__ void dot_simd(const int *a, const int *b, const unsigned *ua,
                                    const unsigned *ub, int *o, unsigned *uo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = ua[i], uy = ub[i];
    int acc = __dp4a(x, y, i);
    acc += (int)__dp4a(ux, uy, (unsigned)acc);
    acc += __dp2a_lo(x, y, acc);
    acc += __dp2a_hi(x, y, acc);
    acc += (int)__dp2a_lo(ux, uy, 3u);
    o[i] = acc;

    unsigned v = 0;
    v += __vadd4(ux, uy) ^ __vadd2(ux, uy);
    v += __vsub4(ux, uy) ^ __vsub2(ux, uy);
    v += __vaddss4(ux, uy) + __vaddus4(ux, uy) + __vaddss2(ux, uy) + __vaddus2(ux, uy);
    v += __vsubss4(ux, uy) + __vsubus4(ux, uy);
    v += __vabsdiffu4(ux, uy) + __vabsdiffs4(ux, uy) + __vabsdiffu2(ux, uy);
    v += __vavgu4(ux, uy) + __vavgs2(ux, uy) + __vhaddu4(ux, uy);
    v += __vcmpeq4(ux, uy) + __vcmpgeu4(ux, uy) + __vcmpgts2(ux, uy) + __vcmpne2(ux, uy);
    v += __vmaxu4(ux, uy) + __vmins4(ux, uy) + __vmaxs2(ux, uy) + __vminu2(ux, uy);
    v += __vsads4(ux, uy) + __vsadu2(ux, uy) + __vseteq4(ux, uy) + __vsetltu2(ux, uy);
    v += __vabs4(ux) + __vabsss2(ux) + __vneg4(ux) + __vnegss2(uy);
    unsigned vv;
    asm("vadd.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(vv) : "r"(ux), "r"(uy), "r"(v));
    v += vv;
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(vv) : "r"(ux), "r"(uy), "r"(v));
    v += vv;
    asm("vset2.u32.u32.ne %0, %1, %2, %3;" : "=r"(vv) : "r"(ux), "r"(uy), "r"(v));
    v += vv;
    asm("vmax.s32.s32.s32.max %0, %1.b0, %2.b1, %3;" : "=r"(vv) : "r"(ux), "r"(uy), "r"(v));
    v += vv;
    asm("vshl.u32.u32.u32.clamp %0, %1, %2;" : "=r"(vv) : "r"(ux), "r"(uy));
    v += vv;
    uo[i] = v;
}

extern "C" __global__ void div_by_const(const int *a, const unsigned long long *b,
                                        int *o, unsigned long long *o64)
{
    int i = threadIdx.x;
    int x = a[i];
    unsigned long long y = b[i];
    o[i] = x / 7 + x % 13 + (int)((unsigned)x / 10u) + x / -3;
    o64[i] = y / 1000000007ull + y % 641ull;
}
