/*
 * fp.c - PTX floating-point and conversion semantics (see fp.h).
 *
 * Technique: every result is "exact value, then one rounding".
 *  - f32/f16/bf16 operations are computed in host double.  Products of two
 *    such values are exact in double; sums are represented exactly as an
 *    unevaluated pair hi+lo (TwoSum); quotients and square roots get the sign
 *    of their remainder from an exact fma residual.  round_dd() then rounds
 *    hi+lo to the target format in any rounding mode.
 *  - f64 directed-rounding add/sub/mul/fma/div use integer arithmetic on
 *    128 bits (soft_sum, round128, long division) followed by round_pack();
 *    directed sqrt corrects the host's RN sqrt by the sign of its exact
 *    residual.
 *  - round_pack() is the single rounding primitive for every format:
 *    (-1)^s * (sig + t) * 2^exp, t in [0,1) summarised by a sticky bit.
 * The host rounding mode is never changed, so nothing here depends on fenv.
 */
#include "fp.h"

#include <math.h>

__extension__ typedef unsigned __int128 u128;

/* .ftz tininess rule: 0 (what the H100 does, measured with mul/fma/cvt
 * probes) = the result rounded to the destination precision with unbounded
 * exponent is below 2^emin; 1 = the exact result is below 2^emin.  Either
 * way a tiny result is flushed even when IEEE rounding on the subnormal
 * grid would carry it up to the minimum normal. */
#ifndef FP_FTZ_TINY_BEFORE_ROUNDING
#define FP_FTZ_TINY_BEFORE_ROUNDING 0
#endif

/* ------------------------------------------------------------------------ */
/* Format descriptions.                                                      */

enum { NAN_NONE, NAN_IEEE, NAN_E4M3, NAN_UE8M0 };

struct fmtinfo {
    int ebits, mbits, bias, emax; /* emax: unbiased exponent of MAX_NORM     */
    uint64_t maxfrac;             /* fraction field of MAX_NORM              */
    int has_sign, has_inf, nan_kind;
    uint64_t nan;                 /* canonical NaN, compact encoding         */
};

/* TF32 is kept in a compact 19-bit encoding internally (1+8+10) and moved
 * to/from its f32 container (<< 13) at the interface. */
static const struct fmtinfo fmts[FP_FMT_COUNT] = {
    [FP_F16] = {5, 10, 15, 15, 0x3FF, 1, 1, NAN_IEEE, 0x7FFF},
    [FP_BF16] = {8, 7, 127, 127, 0x7F, 1, 1, NAN_IEEE, 0x7FFF},
    [FP_TF32] = {8, 10, 127, 127, 0x3FF, 1, 1, NAN_IEEE, 0x3FFFF},
    [FP_F32] = {8, 23, 127, 127, 0x7FFFFF, 1, 1, NAN_IEEE, 0x7FFFFFFF},
    [FP_F64] = {11, 52, 1023, 1023, 0xFFFFFFFFFFFFFull, 1, 1, NAN_IEEE, FP64_CANON_NAN},
    [FP_E4M3] = {4, 3, 7, 8, 6, 1, 0, NAN_E4M3, 0x7F},
    [FP_E5M2] = {5, 2, 15, 15, 3, 1, 1, NAN_IEEE, 0x7F},
    [FP_E2M3] = {2, 3, 1, 2, 7, 1, 0, NAN_NONE, 0},
    [FP_E3M2] = {3, 2, 3, 4, 3, 1, 0, NAN_NONE, 0},
    [FP_E2M1] = {2, 1, 1, 2, 1, 1, 0, NAN_NONE, 0},
    [FP_UE8M0] = {8, 0, 127, 127, 0, 0, 0, NAN_UE8M0, 0xFF},
};

static inline uint64_t sign_bit(const struct fmtinfo *F)
{
    return F->has_sign ? 1ull << (F->ebits + F->mbits) : 0;
}
static inline uint64_t max_mag(const struct fmtinfo *F)
{
    return ((uint64_t)(F->emax + F->bias) << F->mbits) | F->maxfrac;
}
static inline uint64_t inf_mag(const struct fmtinfo *F)
{
    return ((1ull << F->ebits) - 1) << F->mbits;
}
static inline uint64_t one_mag(const struct fmtinfo *F)
{
    return (uint64_t)F->bias << F->mbits;
}

static inline int clz64(uint64_t x) { return __builtin_clzll(x); }
static inline int clz128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? clz64(hi) : 64 + clz64((uint64_t)x);
}

/* ------------------------------------------------------------------------ */
/* Rounding.                                                                 */

/* Overflowed result of magnitude > MAX_NORM: IEEE rules for formats with an
 * infinity (RN/RNA -> inf, RZ -> MAX, RM/RP -> inf on their side, MAX on the
 * other); formats without infinity saturate to MAX_NORM. */
static uint64_t overflow_result(const struct fmtinfo *F, int sign, int rnd)
{
    uint64_t s = sign ? sign_bit(F) : 0;
    if (!F->has_inf)
        return s | max_mag(F);
    int to_inf = rnd == FP_RN || rnd == FP_RNA || (rnd == FP_RP && !sign) || (rnd == FP_RM && sign);
    return s | (to_inf ? inf_mag(F) : max_mag(F));
}

/* Does the rounding increment the truncated magnitude q?  rbit is the first
 * discarded bit, lower says whether anything below it is non-zero. */
static inline int round_inc(int rnd, int sign, uint64_t q, int rbit, int lower)
{
    switch (rnd) {
    case FP_RN: return rbit && (lower || (q & 1));
    case FP_RNA: return rbit;
    case FP_RZ: return 0;
    case FP_RM: return sign && (rbit || lower);
    case FP_RP: return !sign && (rbit || lower);
    default: return rbit && (lower || (q & 1));
    }
}

/* Round (sig + t) / 2^shift to an integer magnitude (t in [0,1), t>0 iff
 * sticky), for any shift >= 1. */
static uint64_t round_shift(uint64_t sig, int shift, int sticky, int sign, int rnd)
{
    uint64_t q;
    int rbit, lower;
    if (shift < 64) {
        q = sig >> shift;
        rbit = (int)((sig >> (shift - 1)) & 1);
        lower = (sig & ((1ull << (shift - 1)) - 1)) != 0 || sticky;
    } else if (shift == 64) {
        q = 0;
        rbit = (int)(sig >> 63);
        lower = (sig << 1) != 0 || sticky;
    } else {
        q = 0;
        rbit = 0;
        lower = sig != 0 || sticky;
    }
    return q + (uint64_t)round_inc(rnd, sign, q, rbit, lower);
}

/* Round (-1)^sign * (sig + t) * 2^exp to format F (compact encoding).
 * sig != 0.  *ovf is set when the magnitude exceeded MAX_NORM.  ftz: a tiny
 * result (see FP_FTZ_TINY_BEFORE_ROUNDING) is flushed to a signed zero. */
static uint64_t round_pack(const struct fmtinfo *F, int sign, uint64_t sig, int exp, int sticky, int rnd, int *ovf, int ftz)
{
    int lz = clz64(sig);
    sig <<= lz;
    exp -= lz;
    int E = exp + 63; /* value in [2^E, 2^(E+1)) */
    int emin = 1 - F->bias;
    if (E > F->emax) {
        *ovf = 1;
        return overflow_result(F, sign, rnd);
    }
    int shift = 63 - F->mbits;
    if (ftz && E < emin) {
        /* .ftz: a tiny result becomes a zero of the same sign. */
#if FP_FTZ_TINY_BEFORE_ROUNDING
        return sign ? sign_bit(F) : 0;
#else
        /* tiny = below 2^emin after rounding with unbounded exponent */
        uint64_t qn = round_shift(sig, shift, sticky, sign, rnd);
        if (E + 1 < emin || qn < (2ull << F->mbits))
            return sign ? sign_bit(F) : 0;
#endif
    }
    if (E < emin) {
        /* Subnormal: fewer bits survive.  Clamp huge shifts (all gone). */
        int extra = emin - E;
        shift = extra > 100 ? 100 : shift + extra;
    }
    uint64_t q = round_shift(sig, shift, sticky, sign, rnd);
    int Ec = E < emin ? emin : E;
    /* q includes the hidden bit; a carry out of q moves into the exponent
     * field, a subnormal that rounds up to 2^emin becomes the min normal. */
    uint64_t mag = ((uint64_t)(Ec - emin) << F->mbits) + q;
    if (mag > max_mag(F)) {
        *ovf = 1;
        return overflow_result(F, sign, rnd);
    }
    return (sign ? sign_bit(F) : 0) | mag;
}

enum { C_ZERO, C_FIN, C_INF, C_NAN };

/* Decode a compact encoding: value = (-1)^sign * sig * 2^exp. */
static int unpack(const struct fmtinfo *F, uint64_t bits, int *sign, uint64_t *sig, int *exp)
{
    uint64_t mmask = (1ull << F->mbits) - 1;
    uint64_t emask = (1ull << F->ebits) - 1;
    uint64_t e = (bits >> F->mbits) & emask, m = bits & mmask;
    *sign = F->has_sign ? (int)((bits >> (F->ebits + F->mbits)) & 1) : 0;
    switch (F->nan_kind) {
    case NAN_IEEE:
        if (e == emask) return m ? C_NAN : C_INF;
        break;
    case NAN_E4M3:
        if (e == emask && m == mmask) return C_NAN;
        break;
    case NAN_UE8M0:
        if (e == emask) return C_NAN;
        *sig = 1;
        *exp = (int)e - F->bias;
        return C_FIN;
    default:
        break;
    }
    if (e == 0) {
        if (m == 0) return C_ZERO;
        *sig = m;
        *exp = 1 - F->bias - F->mbits;
    } else {
        *sig = m | (1ull << F->mbits);
        *exp = (int)e - F->bias - F->mbits;
    }
    return C_FIN;
}

/* Round the exact value hi + lo to F, where hi is a finite non-zero double
 * and |lo| <= ulp(hi)/2 (only the sign of lo matters). */
static uint64_t round_dd(double hi, double lo, const struct fmtinfo *F, int rnd, int *ovf, int ftz)
{
    uint64_t hb = fp_f64_bits(hi);
    int sign = (int)(hb >> 63);
    uint64_t e = (hb >> 52) & 0x7FF, sig = hb & 0xFFFFFFFFFFFFFull;
    int exp;
    if (e == 0) {
        exp = -1074;
    } else {
        sig |= 1ull << 52;
        exp = (int)e - 1075;
    }
    int sticky = 0;
    if (lo != 0) {
        sticky = 1;
        if ((lo < 0) != sign) {
            /* exact = |hi| - tiny: represent as (2*sig - 1 + t) * 2^(exp-1). */
            sig = 2 * sig - 1;
            exp -= 1;
        }
    }
    return round_pack(F, sign, sig, exp, sticky, rnd, ovf, ftz);
}

/* Exact rounding error of s = RN(a + b) (TwoSum; exact barring overflow). */
static inline double two_sum_err(double a, double b, double s)
{
    double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

/* IEEE 754 sign of an exact zero sum x + y: same-signed zero addends keep
 * their sign, anything else is +0 except under round-toward-minus. */
static inline int zero_sum_sign(double x, double y, int rnd)
{
    if (x == 0 && y == 0 && signbit(x) == signbit(y))
        return signbit(x) != 0;
    return rnd == FP_RM;
}

float fp_host_fmaf(float a, float b, float c) { return fmaf(a, b, c); }
double fp_host_fma(double a, double b, double c) { return fma(a, b, c); }

/* ------------------------------------------------------------------------ */
/* f32 arithmetic in any rounding mode (via exact double intermediates).     */

static inline double f32d(uint32_t a) { return (double)fp_f32_val(a); }

/* hi + lo rounded to f32; hi may be zero/inf/NaN (zero needs its sign set
 * by the caller). */
static uint32_t f32_round(double hi, double lo, int rnd, int ftz)
{
    int ovf = 0;
    if (hi != hi) return FP32_CANON_NAN;
    if (isinf(hi)) return hi > 0 ? 0x7F800000u : 0xFF800000u;
    if (hi == 0) return signbit(hi) ? 0x80000000u : 0u;
    return (uint32_t)round_dd(hi, lo, &fmts[FP_F32], rnd, &ovf, ftz);
}

uint32_t fp32_add_dir(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); }
    double x = f32d(a), y = f32d(b), s = x + y;
    uint32_t r;
    if (s == 0 && x == x && y == y)
        r = zero_sum_sign(x, y, rnd) ? 0x80000000u : 0u;
    else
        r = f32_round(s, isfinite(s) ? two_sum_err(x, y, s) : 0, rnd, ftz);
    return f32_finish(r, ftz, sat);
}

uint32_t fp32_mul_dir(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); }
    /* 24x24-bit product: exact in double. */
    return f32_finish(f32_round(f32d(a) * f32d(b), 0, rnd, ftz), ftz, sat);
}

uint32_t fp32_fma_dir(uint32_t a, uint32_t b, uint32_t c, int rnd, int ftz, int sat)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); c = f32_flush(c); }
    double p = f32d(a) * f32d(b), z = f32d(c), s = p + z;
    uint32_t r;
    if (s == 0 && p == p && z == z)
        r = zero_sum_sign(p, z, rnd) ? 0x80000000u : 0u;
    else
        r = f32_round(s, isfinite(s) ? two_sum_err(p, z, s) : 0, rnd, ftz);
    return f32_finish(r, ftz, sat);
}

uint32_t fp32_div_dir(uint32_t a, uint32_t b, int rnd, int ftz)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); }
    double x = f32d(a), y = f32d(b), q = x / y, lo = 0;
    if (isfinite(q) && q != 0) {
        /* x - q*y is exact; sign(x/y - q) = sign(r) * sign(y). */
        double r = fma(-q, y, x);
        if (r != 0) lo = ((r < 0) != (y < 0)) ? -1.0 : 1.0;
    }
    return f32_finish(f32_round(q, lo, rnd, ftz), ftz, 0);
}

uint32_t fp32_sqrt_dir(uint32_t a, int rnd, int ftz)
{
    if (ftz) a = f32_flush(a);
    double x = f32d(a);
    if (rnd == FP_RN)
        /* The host's sqrtss is correctly rounded; sqrt never produces a
         * subnormal or tiny result from a non-subnormal input. */
        return f32_finish(fp_f32_bits(sqrtf(fp_f32_val(a))), ftz, 0);
    double s = sqrt(x), lo = 0;
    if (isfinite(s) && s != 0) {
        double r = fma(-s, s, x); /* exact: x - s^2 */
        if (r != 0) lo = r;
    }
    return f32_finish(f32_round(s, lo, rnd, ftz), ftz, 0);
}

/* abs/neg.f32 of a NaN give the canonical NaN on sm_90 (measured). */
uint32_t f32_abs(uint32_t a, int ftz)
{
    if (f32_isnan(a)) return FP32_CANON_NAN;
    if (ftz) a = f32_flush(a);
    return a & 0x7FFFFFFFu;
}

uint32_t f32_neg(uint32_t a, int ftz)
{
    if (f32_isnan(a)) return FP32_CANON_NAN;
    if (ftz) a = f32_flush(a);
    return a ^ 0x80000000u;
}

/* ------------------------------------------------------------------------ */
/* min / max.                                                                */

/* Total order key on non-NaN sign-magnitude encodings: -0 < +0. */
static inline int64_t order_key(uint64_t v, uint64_t sbit)
{
    uint64_t mag = v & (sbit - 1);
    return (v & sbit) ? -(int64_t)mag - 1 : (int64_t)mag;
}

/* Two-input min/max of width-w encodings per the PTX semantics.  infmag is
 * the infinity encoding (anything above it is NaN). */
static uint64_t minmax(uint64_t a, uint64_t b, int w, uint64_t infmag, uint64_t canon, int is_max, int nanmode, int xabs)
{
    uint64_t sbit = 1ull << (w - 1), mmask = sbit - 1;
    uint64_t xs = (a ^ b) & sbit; /* xorsign looks at signs before .abs */
    if (xabs) { a &= mmask; b &= mmask; }
    int an = (a & mmask) > infmag, bn = (b & mmask) > infmag;
    if (an && bn) return canon;
    if (nanmode && (an || bn)) return canon;
    uint64_t d;
    if (an) {
        d = b;
    } else if (bn) {
        d = a;
    } else {
        int64_t ka = order_key(a, sbit), kb = order_key(b, sbit);
        d = is_max ? (ka > kb ? a : b) : (ka < kb ? a : b);
    }
    if (xabs) d = (d & mmask) | xs;
    return d;
}

uint32_t f32_min(uint32_t a, uint32_t b, int ftz, int nan, int xorsign_abs)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); }
    return (uint32_t)minmax(a, b, 32, 0x7F800000u, FP32_CANON_NAN, 0, nan, xorsign_abs);
}
uint32_t f32_max(uint32_t a, uint32_t b, int ftz, int nan, int xorsign_abs)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); }
    return (uint32_t)minmax(a, b, 32, 0x7F800000u, FP32_CANON_NAN, 1, nan, xorsign_abs);
}
static uint32_t f32_minmax3(uint32_t a, uint32_t b, uint32_t c, int ftz, int nan, int abs, int is_max)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); c = f32_flush(c); }
    if (abs) { a &= 0x7FFFFFFFu; b &= 0x7FFFFFFFu; c &= 0x7FFFFFFFu; }
    uint64_t d = minmax(a, b, 32, 0x7F800000u, FP32_CANON_NAN, is_max, nan, 0);
    return (uint32_t)minmax(d, c, 32, 0x7F800000u, FP32_CANON_NAN, is_max, nan, 0);
}
uint32_t f32_min3(uint32_t a, uint32_t b, uint32_t c, int ftz, int nan, int abs)
{
    return f32_minmax3(a, b, c, ftz, nan, abs, 0);
}
uint32_t f32_max3(uint32_t a, uint32_t b, uint32_t c, int ftz, int nan, int abs)
{
    return f32_minmax3(a, b, c, ftz, nan, abs, 1);
}

/* min/max.f64: with two NaN inputs the GPU returns b quieted (measured). */
uint64_t f64_min(uint64_t a, uint64_t b, int nan)
{
    if (f64_isnan(a) && f64_isnan(b)) return b | FP64_QUIET_BIT;
    return minmax(a, b, 64, 0x7FF0000000000000ull, FP64_CANON_NAN, 0, nan, 0);
}
uint64_t f64_max(uint64_t a, uint64_t b, int nan)
{
    if (f64_isnan(a) && f64_isnan(b)) return b | FP64_QUIET_BIT;
    return minmax(a, b, 64, 0x7FF0000000000000ull, FP64_CANON_NAN, 1, nan, 0);
}

uint16_t f16_min(uint16_t a, uint16_t b, int ftz, int nan, int xorsign_abs)
{
    if (ftz) { a = f16_flush(a); b = f16_flush(b); }
    return (uint16_t)minmax(a, b, 16, 0x7C00u, FP16_CANON_NAN, 0, nan, xorsign_abs);
}
uint16_t f16_max(uint16_t a, uint16_t b, int ftz, int nan, int xorsign_abs)
{
    if (ftz) { a = f16_flush(a); b = f16_flush(b); }
    return (uint16_t)minmax(a, b, 16, 0x7C00u, FP16_CANON_NAN, 1, nan, xorsign_abs);
}
uint16_t bf16_min(uint16_t a, uint16_t b, int nan, int xorsign_abs)
{
    return (uint16_t)minmax(a, b, 16, 0x7F80u, BF16_CANON_NAN, 0, nan, xorsign_abs);
}
uint16_t bf16_max(uint16_t a, uint16_t b, int nan, int xorsign_abs)
{
    return (uint16_t)minmax(a, b, 16, 0x7F80u, BF16_CANON_NAN, 1, nan, xorsign_abs);
}

/* ------------------------------------------------------------------------ */
/* f64 arithmetic.                                                           */

/* NaN result of an f64 operation (measured on sm_90): a NaN operand is
 * returned quieted with its sign and payload; with several NaN operands
 * add/sub/mul/min/max return b, fma returns b, then c, then a, and div
 * (a software sequence on the GPU) returns a.  An invalid operation on
 * non-NaN operands gives FP64_CANON_NAN (0xFFF8000000000000). */
uint64_t fp64_nan2(uint64_t a, uint64_t b)
{
    if (f64_isnan(b)) return b | FP64_QUIET_BIT;
    if (f64_isnan(a)) return a | FP64_QUIET_BIT;
    return FP64_CANON_NAN;
}
uint64_t fp64_nan_div(uint64_t a, uint64_t b)
{
    if (f64_isnan(a)) return a | FP64_QUIET_BIT;
    if (f64_isnan(b)) return b | FP64_QUIET_BIT;
    return FP64_CANON_NAN;
}
uint64_t fp64_nan3(uint64_t a, uint64_t b, uint64_t c)
{
    if (f64_isnan(b)) return b | FP64_QUIET_BIT;
    if (f64_isnan(c)) return c | FP64_QUIET_BIT;
    if (f64_isnan(a)) return a | FP64_QUIET_BIT;
    return FP64_CANON_NAN;
}

/* Decode a finite non-zero f64 into sig (<= 53 bits) * 2^exp. */
static inline void f64_decode(uint64_t a, uint64_t *sig, int *exp)
{
    uint64_t e = (a >> 52) & 0x7FF;
    *sig = a & 0xFFFFFFFFFFFFFull;
    if (e == 0) {
        *exp = -1074;
    } else {
        *sig |= 1ull << 52;
        *exp = (int)e - 1075;
    }
}

static inline int f64_iszero(uint64_t a) { return (a & 0x7FFFFFFFFFFFFFFFull) == 0; }

/* Round a 128-bit magnitude (with sticky) to f64. */
static uint64_t round128(int sign, u128 m, int exp, int sticky, int rnd)
{
    int ovf = 0;
    int n = 128 - clz128(m);
    if (n > 64) {
        int k = n - 64;
        sticky |= (m & (((u128)1 << k) - 1)) != 0;
        m >>= k;
        exp += k;
    }
    return round_pack(&fmts[FP_F64], sign, (uint64_t)m, exp, sticky, rnd, &ovf, 0);
}

/* (-1)^sx X 2^ex + (-1)^sy Y 2^ey, X and Y non-zero and < 2^126, rounded to
 * f64.  Exact cancellation gives the IEEE zero (+0, or -0 under RM). */
static uint64_t soft_sum(int sx, u128 X, int ex, int sy, u128 Y, int ey, int rnd)
{
    int sh = clz128(X) - 2;
    X <<= sh;
    ex -= sh;
    sh = clz128(Y) - 2;
    Y <<= sh;
    ey -= sh;
    if (ex < ey || (ex == ey && Y > X)) {
        u128 t = X; X = Y; Y = t;
        int ti = ex; ex = ey; ey = ti;
        ti = sx; sx = sy; sy = ti;
    }
    int d = ex - ey, sticky = 0;
    if (d >= 128) {
        sticky = 1;
        Y = 0;
    } else if (d > 0) {
        sticky = (Y & (((u128)1 << d) - 1)) != 0;
        Y >>= d;
    }
    /* Both MSBs at bit 125; for d >= 2 at least 123 significant bits remain
     * after a subtraction, so jamming the sticky into the LSB is exact for
     * rounding to 53 bits; for d <= 1 no non-zero bit was shifted out. */
    u128 S = sx == sy ? X + Y : X - Y - (u128)sticky;
    if (S == 0 && !sticky)
        return rnd == FP_RM ? 0x8000000000000000ull : 0;
    return round128(sx, S, ex, sticky, rnd);
}

uint64_t fp64_sub_dir(uint64_t a, uint64_t b, int rnd)
{
    /* a NaN b is returned with its own sign, not negated */
    if (f64_isnan(a) || f64_isnan(b)) return fp64_nan2(a, b);
    return fp64_add_dir(a, b ^ 0x8000000000000000ull, rnd);
}

uint64_t fp64_add_dir(uint64_t a, uint64_t b, int rnd)
{
    if (f64_isnan(a) || f64_isnan(b)) return fp64_nan2(a, b);
    if (f64_isinf(a) || f64_isinf(b)) {
        if (f64_isinf(a) && f64_isinf(b) && ((a ^ b) >> 63)) return fp64_nan2(a, b);
        return f64_isinf(a) ? a : b;
    }
    if (f64_iszero(a) && f64_iszero(b))
        return ((a & b) >> 63) || (((a ^ b) >> 63) && rnd == FP_RM) ? 0x8000000000000000ull : 0;
    if (f64_iszero(a)) return b;
    if (f64_iszero(b)) return a;
    uint64_t ma, mb;
    int ea, eb;
    f64_decode(a, &ma, &ea);
    f64_decode(b, &mb, &eb);
    return soft_sum((int)(a >> 63), ma, ea, (int)(b >> 63), mb, eb, rnd);
}

uint64_t fp64_mul_dir(uint64_t a, uint64_t b, int rnd)
{
    if (f64_isnan(a) || f64_isnan(b)) return fp64_nan2(a, b);
    uint64_t s = (a ^ b) & 0x8000000000000000ull;
    if (f64_isinf(a) || f64_isinf(b)) {
        if (f64_iszero(a) || f64_iszero(b)) return fp64_nan2(a, b);
        return s | 0x7FF0000000000000ull;
    }
    if (f64_iszero(a) || f64_iszero(b)) return s;
    uint64_t ma, mb;
    int ea, eb;
    f64_decode(a, &ma, &ea);
    f64_decode(b, &mb, &eb);
    return round128((int)(s >> 63), (u128)ma * mb, ea + eb, 0, rnd);
}

uint64_t fp64_fma_dir(uint64_t a, uint64_t b, uint64_t c, int rnd)
{
    if (f64_isnan(a) || f64_isnan(b) || f64_isnan(c)) return fp64_nan3(a, b, c);
    uint64_t sp = (a ^ b) & 0x8000000000000000ull;
    if (f64_isinf(a) || f64_isinf(b)) {
        if (f64_iszero(a) || f64_iszero(b)) return FP64_CANON_NAN; /* 0 * inf */
        if (f64_isinf(c) && ((c & 0x8000000000000000ull) != sp)) return FP64_CANON_NAN;
        return sp | 0x7FF0000000000000ull;
    }
    if (f64_isinf(c)) return c;
    int pzero = f64_iszero(a) || f64_iszero(b);
    if (pzero) {
        if (!f64_iszero(c)) return c;
        if (sp == (c & 0x8000000000000000ull)) return sp;
        return rnd == FP_RM ? 0x8000000000000000ull : 0;
    }
    uint64_t ma, mb, mc;
    int ea, eb, ec;
    f64_decode(a, &ma, &ea);
    f64_decode(b, &mb, &eb);
    if (f64_iszero(c)) return round128((int)(sp >> 63), (u128)ma * mb, ea + eb, 0, rnd);
    f64_decode(c, &mc, &ec);
    return soft_sum((int)(sp >> 63), (u128)ma * mb, ea + eb, (int)(c >> 63), mc, ec, rnd);
}

uint64_t fp64_div_dir(uint64_t a, uint64_t b, int rnd)
{
    if (f64_isnan(a) || f64_isnan(b)) return fp64_nan_div(a, b);
    uint64_t s = (a ^ b) & 0x8000000000000000ull;
    if (f64_isinf(a)) return f64_isinf(b) ? FP64_CANON_NAN : (s | 0x7FF0000000000000ull);
    if (f64_isinf(b)) return s;
    if (f64_iszero(b)) return f64_iszero(a) ? FP64_CANON_NAN : (s | 0x7FF0000000000000ull);
    if (f64_iszero(a)) return s;
    uint64_t ma, mb;
    int ea, eb;
    f64_decode(a, &ma, &ea);
    f64_decode(b, &mb, &eb);
    int la = clz64(ma) - 11, lb = clz64(mb) - 11; /* MSB to bit 52 */
    ma <<= la;
    ea -= la;
    mb <<= lb;
    eb -= lb;
    u128 n = (u128)ma << 64;
    u128 q = n / mb;
    int sticky = (n % mb) != 0;
    return round128((int)(s >> 63), q, ea - eb - 64, sticky, rnd);
}

uint64_t fp64_sqrt_dir(uint64_t a, int rnd)
{
    if (f64_isnan(a)) return a | FP64_QUIET_BIT;
    if (f64_iszero(a)) return a;
    if (a >> 63) return FP64_CANON_NAN;
    if (f64_isinf(a)) return a;
    double x = fp_f64_val(a), s;
    int scaled = x < 0x1p-900;
    if (scaled) x *= 0x1p200; /* exact; the root scales by exactly 2^100 */
    s = sqrt(x);              /* host sqrt is correctly rounded (RN) */
    if (rnd != FP_RN) {
        /* x - s*s is a non-zero multiple of 2^(2*exp(s)-104) >> 2^-1074
         * unless s is exact, so fma gives its sign; the true root lies on
         * that side of s and the directed result is s or its neighbour.
         * The root is positive: RZ == RM. */
        double r = fma(-s, s, x);
        uint64_t sb = fp_f64_bits(s);
        if (r > 0 && rnd == FP_RP) sb++;
        if (r < 0 && rnd != FP_RP) sb--;
        s = fp_f64_val(sb);
    }
    if (scaled) s *= 0x1p-100; /* exact: the root is >= 2^-537, normal */
    return fp_f64_bits(s);
}

/* abs/neg.f64 pass a NaN through quieted, sign unchanged (measured). */
uint64_t f64_abs(uint64_t a) { return f64_isnan(a) ? a | FP64_QUIET_BIT : a & 0x7FFFFFFFFFFFFFFFull; }
uint64_t f64_neg(uint64_t a) { return f64_isnan(a) ? a | FP64_QUIET_BIT : a ^ 0x8000000000000000ull; }

/* ------------------------------------------------------------------------ */
/* Half precision (f16, bf16) arithmetic via exact double intermediates.    */

static inline double f16_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v;
    if (e == 0x1F)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, -24);
    else
        v = fp_f32_val((uint32_t)(e + 112) << 23 | (uint32_t)m << 13);
    return (h & 0x8000u) ? -v : v;
}
static inline double bf16_to_double(uint16_t h) { return f32d((uint32_t)h << 16); }

static inline double half_to_double(int fmt, uint16_t h)
{
    return fmt == FP_F16 ? f16_to_double(h) : bf16_to_double(h);
}

/* Final steps for a half result: NaN -> canonical (+0 under sat), ftz of a
 * subnormal result, relu (negative -> +0), sat (clamp to [+0, 1]). */
static uint16_t half_finish(int fmt, uint16_t r, int ftz, int sat, int relu)
{
    const struct fmtinfo *F = &fmts[fmt];
    uint16_t mag = r & 0x7FFF;
    if (mag > inf_mag(F))
        return sat ? 0 : (uint16_t)F->nan;
    if (ftz && mag != 0 && mag < (1u << F->mbits))
        r &= 0x8000u;
    if ((relu || sat) && (r & 0x8000u))
        return 0;
    if (sat && r > one_mag(F))
        return (uint16_t)one_mag(F);
    return r;
}

static uint16_t half_round(int fmt, double hi, double lo, int rnd, int ftz)
{
    const struct fmtinfo *F = &fmts[fmt];
    int ovf = 0;
    if (hi != hi) return (uint16_t)F->nan;
    if (isinf(hi)) return (uint16_t)((hi < 0 ? 0x8000u : 0) | inf_mag(F));
    if (hi == 0) return signbit(hi) ? 0x8000u : 0;
    return (uint16_t)round_dd(hi, lo, F, rnd, &ovf, ftz);
}

static uint16_t half_fma_gen(int fmt, uint16_t a, uint16_t b, uint16_t c, int has_c, int rnd, int ftz, int sat, int relu)
{
    int (*isnan16)(uint16_t) = fmt == FP_F16 ? f16_isnan : bf16_isnan;
    if (ftz) {
        const struct fmtinfo *F = &fmts[fmt];
        uint16_t lim = (uint16_t)(1u << F->mbits);
        if ((a & 0x7FFF) < lim) a &= 0x8000u;
        if ((b & 0x7FFF) < lim) b &= 0x8000u;
        if ((c & 0x7FFF) < lim) c &= 0x8000u;
    }
    uint16_t r;
    if (isnan16(a) || isnan16(b) || (has_c && isnan16(c))) {
        r = (uint16_t)fmts[fmt].nan;
    } else {
        double p = half_to_double(fmt, a) * half_to_double(fmt, b); /* exact */
        if (!has_c) {
            r = half_round(fmt, p, 0, rnd, ftz);
        } else {
            double z = half_to_double(fmt, c), s = p + z;
            if (s == 0 && p == p)
                r = zero_sum_sign(p, z, rnd) ? 0x8000u : 0;
            else
                r = half_round(fmt, s, isfinite(s) ? two_sum_err(p, z, s) : 0, rnd, ftz);
        }
    }
    return half_finish(fmt, r, ftz, sat, relu);
}

static uint16_t half_add_gen(int fmt, uint16_t a, uint16_t b, int rnd, int ftz, int sat)
{
    /* a + b == fma(a, 1.0, b): 1.0 is exact in both formats. */
    return half_fma_gen(fmt, a, (uint16_t)one_mag(&fmts[fmt]), b, 1, rnd, ftz, sat, 0);
}

/* Round-to-nearest fast paths for half add/sub/mul (no ftz): compute in
 * f32, then round to the half format.  Products of two halves are exact
 * in f32 (f16: always; bf16: unless the f32 product is subnormal, which
 * takes the exact path).  Sums are rounded twice, first to 24 then to 11
 * (or 8) bits, which is innocuous because 24 >= 2p + 2 (Figueroa); f16
 * sums below 2^-14 are exact in f32 anyway. */
static inline uint16_t half_sat_rn(int fmt, uint16_t r, int sat)
{
    return sat ? half_finish(fmt, r, 0, 1, 0) : r;
}
static inline float half_to_float(int fmt, uint16_t h)
{
    return fp_f32_val(fmt == FP_F16 ? cvt_f16_to_f32(h) : cvt_bf16_to_f32(h));
}
static inline uint16_t float_to_half_rn(int fmt, float f)
{
    return fmt == FP_F16 ? cvt_f32_to_f16_rn(fp_f32_bits(f)) : cvt_f32_to_bf16_rn(fp_f32_bits(f));
}
static uint16_t half_add_rn(int fmt, uint16_t a, uint16_t b, int sat)
{
    return half_sat_rn(fmt, float_to_half_rn(fmt, half_to_float(fmt, a) + half_to_float(fmt, b)), sat);
}
static uint16_t half_mul_rn(int fmt, uint16_t a, uint16_t b, int sat)
{
    float p = half_to_float(fmt, a) * half_to_float(fmt, b);
    if (FP_UNLIKELY(fmt == FP_BF16 && f32_issub(fp_f32_bits(p))))
        return half_fma_gen(fmt, a, b, 0, 0, FP_RN, 0, sat, 0);
    return half_sat_rn(fmt, float_to_half_rn(fmt, p), sat);
}

uint16_t f16_add(uint16_t a, uint16_t b, int rnd, int ftz, int sat)
{
    return rnd == FP_RN && !ftz ? half_add_rn(FP_F16, a, b, sat) : half_add_gen(FP_F16, a, b, rnd, ftz, sat);
}
uint16_t f16_sub(uint16_t a, uint16_t b, int rnd, int ftz, int sat) { return f16_add(a, b ^ 0x8000u, rnd, ftz, sat); }
uint16_t f16_mul(uint16_t a, uint16_t b, int rnd, int ftz, int sat)
{
    return rnd == FP_RN && !ftz ? half_mul_rn(FP_F16, a, b, sat) : half_fma_gen(FP_F16, a, b, 0, 0, rnd, ftz, sat, 0);
}
uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c, int rnd, int ftz, int sat, int relu)
{
    return half_fma_gen(FP_F16, a, b, c, 1, rnd, ftz, sat, relu);
}
uint16_t bf16_add(uint16_t a, uint16_t b, int rnd, int ftz, int sat)
{
    return rnd == FP_RN && !ftz ? half_add_rn(FP_BF16, a, b, sat) : half_add_gen(FP_BF16, a, b, rnd, ftz, sat);
}
uint16_t bf16_sub(uint16_t a, uint16_t b, int rnd, int ftz, int sat) { return bf16_add(a, b ^ 0x8000u, rnd, ftz, sat); }
uint16_t bf16_mul(uint16_t a, uint16_t b, int rnd, int ftz, int sat)
{
    return rnd == FP_RN && !ftz ? half_mul_rn(FP_BF16, a, b, sat) : half_fma_gen(FP_BF16, a, b, 0, 0, rnd, ftz, sat, 0);
}
uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, int rnd, int ftz, int sat, int relu)
{
    return half_fma_gen(FP_BF16, a, b, c, 1, rnd, ftz, sat, relu);
}

/* abs/neg of a NaN give the canonical NaN 0x7fff (measured). */
uint16_t f16_abs(uint16_t a, int ftz)
{
    if (f16_isnan(a)) return FP16_CANON_NAN;
    return (uint16_t)((ftz ? f16_flush(a) : a) & 0x7FFFu);
}
uint16_t f16_neg(uint16_t a, int ftz)
{
    if (f16_isnan(a)) return FP16_CANON_NAN;
    return (uint16_t)((ftz ? f16_flush(a) : a) ^ 0x8000u);
}
uint16_t bf16_abs(uint16_t a) { return bf16_isnan(a) ? BF16_CANON_NAN : (uint16_t)(a & 0x7FFFu); }
uint16_t bf16_neg(uint16_t a) { return bf16_isnan(a) ? BF16_CANON_NAN : (uint16_t)(a ^ 0x8000u); }

/* ------------------------------------------------------------------------ */
/* Conversions.                                                              */

static inline uint64_t to_container(int fmt, uint64_t compact)
{
    return fmt == FP_TF32 ? compact << 13 : compact;
}

/* Anything -> ue8m0 (cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32,bf16x2}).  The
 * format has no sign and no zero: the magnitude is used, and values below
 * 2^-127 (zero included) give the smallest encoding 0. */
static uint64_t cvt_to_ue8m0(int cl, uint64_t sig, int exp, int rnd, unsigned flags)
{
    int satf = (flags & FP_CVT_SATFINITE) != 0;
    if (cl == C_NAN) return 0xFF;
    if (cl == C_INF) return satf ? 0xFE : 0xFF;
    if (cl == C_ZERO) return 0;
    int msb = 63 - clz64(sig);
    int E = exp + msb; /* floor(log2 |x|) */
    int exact = (sig & (sig - 1)) == 0;
    if (!exact && (rnd == FP_RP || rnd == FP_RNA)) E++;
    if (!exact && rnd == FP_RN) {
        /* nearest power of two in the linear sense: above 1.5 * 2^E */
        uint64_t t = sig << (63 - msb);
        if (t >= 0xC000000000000000ull) E++; /* ties up (unverified) */
    }
    int b = E + 127;
    if (b < 0) return 0;
    if (b > 254) return satf ? 0xFE : 0xFF;
    return (uint64_t)b;
}

/* NaN input of a float -> float conversion (measured on sm_90):
 *  - conversions to or from f64 are IEEE conversions: quieted, sign kept,
 *    fraction bits kept from the top (f64 -> f32 of 7ff8000012345678 gives
 *    7fc00000, f32 -> f64 of 7f800001 gives 7ff8000020000000);
 *  - bf16 -> f32 is a plain 16-bit shift (payload kept, not even quieted);
 *  - every other pair, and .relu, gives the destination's canonical NaN;
 *  - with .ftz an f32 NaN source is canonicalised first;
 *  - fp6/fp4 have no NaN: +MAX_NORM (.satfinite rule); ue8m0: 0xff. */
static uint64_t cvt_nan(uint64_t bits, int src, int dst, unsigned flags)
{
    const struct fmtinfo *S = &fmts[src], *D = &fmts[dst];
    if (flags & FP_CVT_SAT) return 0;
    if (flags & FP_CVT_FTZ) {
        /* the .ftz forms canonicalise like f32 arithmetic: cvt.ftz.f64.f32
         * of any NaN gives 7fffffffe0000000, cvt.ftz.f32.bf16 7fffffff;
         * cvt.ftz.f32.f64 stays an IEEE conversion */
        if (dst == FP_F32 && src != FP_F64) return FP32_CANON_NAN;
        if (src == FP_F32) bits = FP32_CANON_NAN;
    }
    if (D->nan_kind == NAN_NONE) return max_mag(D);
    if (D->nan_kind != NAN_IEEE || (flags & FP_CVT_RELU)) return D->nan;
    if (src == FP_F64 || dst == FP_F64) {
        uint64_t frac = bits & ((1ull << S->mbits) - 1);
        frac = D->mbits >= S->mbits ? frac << (D->mbits - S->mbits) : frac >> (S->mbits - D->mbits);
        uint64_t sb = ((bits >> (S->ebits + S->mbits)) & 1) ? sign_bit(D) : 0;
        return sb | inf_mag(D) | frac | (1ull << (D->mbits - 1));
    }
    if (src == FP_BF16 && dst == FP_F32) return bits << 16;
    return D->nan;
}

uint64_t fp_cvt(uint64_t bits, int src, int dst, int rnd, unsigned flags)
{
    if (src == FP_TF32) src = FP_F32;
    const struct fmtinfo *S = &fmts[src], *D = &fmts[dst];
    int ftz = (flags & FP_CVT_FTZ) != 0, sat = (flags & FP_CVT_SAT) != 0;
    int relu = (flags & FP_CVT_RELU) != 0, satf = (flags & FP_CVT_SATFINITE) != 0;
    /* .ftz flushes an f32 source only when the destination is f32/f64: on
     * sm_90 cvt.rm.ftz.f16.f32 of -2^-149 gives -2^-24 (measured). */
    if (ftz && src == FP_F32 && (dst == FP_F32 || dst == FP_F64) && f32_issub((uint32_t)bits))
        bits &= 0x80000000u;
    int sign = 0, exp = 0, ovf = 0;
    uint64_t sig = 0, r;
    int cl = unpack(S, bits, &sign, &sig, &exp);
    if (dst == FP_UE8M0) return cvt_to_ue8m0(cl, sig, exp, rnd, flags);
    uint64_t sb = sign ? sign_bit(D) : 0;
    switch (cl) {
    case C_NAN:
        if (dst == FP_TF32 && rnd == FP_RNA && !sat && !relu) {
            /* cvt.rna.tf32.f32 just truncates a NaN to 19 bits (7f800001 ->
             * 7f800000!) and .satfinite then steps an all-ones exponent
             * down by one tf32 ulp (7fc00000 -> 7fbfe000).  Measured. */
            uint64_t t = bits & 0xFFFFE000u;
            if (satf) t -= 0x2000;
            return t;
        }
        return dst == FP_TF32 && !sat ? TF32_CANON_NAN : cvt_nan(bits, src, dst, flags);
    case C_INF:
        r = (satf || !D->has_inf) ? (sb | max_mag(D)) : (sb | inf_mag(D));
        break;
    case C_ZERO:
        r = sb;
        break;
    default:
        r = round_pack(D, sign, sig, exp, 0, rnd, &ovf, ftz && dst == FP_F32);
        if (ovf && satf) r = sb | max_mag(D);
        break;
    }
    if ((relu || sat) && (r & sign_bit(D))) r = 0;
    if (sat && r > one_mag(D)) r = one_mag(D);
    return to_container(dst, r);
}

uint64_t fp_round_int(uint64_t bits, int fmt, int rnd, int ftz, int sat)
{
    const struct fmtinfo *F = &fmts[fmt];
    if (ftz && fmt == FP_F32 && f32_issub((uint32_t)bits)) bits &= 0x80000000u;
    int sign = 0, exp = 0, ovf = 0;
    uint64_t sig = 0, r = bits;
    int cl = unpack(F, bits, &sign, &sig, &exp);
    if (cl == C_NAN) {
        if (sat) return 0;
        return fmt == FP_F64 ? (bits | FP64_QUIET_BIT) : F->nan;
    }
    if (cl == C_FIN && exp < 0) {
        uint64_t q = round_shift(sig, -exp, 0, sign, rnd);
        r = q ? round_pack(F, sign, q, 0, 0, FP_RZ, &ovf, 0) : (sign ? sign_bit(F) : 0);
    }
    if (sat) {
        if (r & sign_bit(F)) return 0;
        if (r > one_mag(F)) return one_mag(F);
    }
    return r;
}

uint64_t cvt_float_to_int(uint64_t bits, int src, int dst_bits, int dst_signed, int rnd, int ftz)
{
    if (src == FP_TF32) src = FP_F32;
    const struct fmtinfo *S = &fmts[src];
    if (ftz && src == FP_F32 && f32_issub((uint32_t)bits)) bits &= 0x80000000u;
    uint64_t umax = dst_bits == 64 ? ~0ull : (1ull << dst_bits) - 1;
    uint64_t smax = umax >> 1;        /* 2^(n-1) - 1 */
    uint64_t smin_mag = smax + 1;     /* 2^(n-1) */
    uint64_t vmax = dst_signed ? smax : umax;
    int sign = 0, exp = 0;
    uint64_t sig = 0, q;
    int cl = unpack(S, bits, &sign, &sig, &exp);
    switch (cl) {
    case C_NAN:
        if (src != FP_F64 && dst_bits != 64) return 0;
        return dst_signed ? (uint64_t)(-(int64_t)(smin_mag - 1) - 1) : smin_mag;
    case C_ZERO:
        return 0;
    case C_INF:
        q = ~0ull;
        break;
    default:
        if (exp >= 0)
            q = (exp + (63 - clz64(sig)) >= 64) ? ~0ull : sig << exp;
        else
            q = round_shift(sig, -exp, 0, sign, rnd);
        break;
    }
    if (!sign) return q > vmax ? vmax : q;
    if (q == 0) return 0;
    if (!dst_signed) return 0;
    if (q >= smin_mag) return (uint64_t)(-(int64_t)(smin_mag - 1) - 1);
    return (uint64_t)(-(int64_t)q);
}

uint64_t cvt_int_to_float(uint64_t v, int src_signed, int dst, int rnd, int sat)
{
    const struct fmtinfo *D = &fmts[dst];
    int sign = src_signed && (int64_t)v < 0;
    uint64_t mag = sign ? (uint64_t)0 - v : v;
    int ovf = 0;
    if (dst == FP_UE8M0) return cvt_to_ue8m0(mag ? C_FIN : C_ZERO, mag, 0, rnd, 0);
    if (mag == 0) return 0;
    uint64_t r = round_pack(D, sign, mag, 0, 0, rnd, &ovf, 0);
    if (sat) {
        if (sign) return 0;
        if (r > one_mag(D)) r = one_mag(D);
    }
    return to_container(dst, r);
}

uint64_t cvt_int_sat(uint64_t v, int src_bits, int src_signed, int dst_bits, int dst_signed, int sat)
{
    uint64_t smask = src_bits == 64 ? ~0ull : (1ull << src_bits) - 1;
    uint64_t dmask = dst_bits == 64 ? ~0ull : (1ull << dst_bits) - 1;
    v &= smask;
    int neg = 0;
    if (src_signed && src_bits < 64 && (v >> (src_bits - 1)) & 1) v |= ~smask; /* sign-extend */
    if (src_signed) neg = (int64_t)v < 0;
    uint64_t r = v;
    if (sat) {
        if (dst_signed) {
            int64_t hi = (int64_t)(dmask >> 1), lo = -hi - 1;
            if (neg) {
                if ((int64_t)v < lo) r = (uint64_t)lo;
            } else if (v > (uint64_t)hi) {
                r = (uint64_t)hi;
            }
        } else {
            if (neg) r = 0;
            else if (v > dmask) r = dmask;
        }
    }
    r &= dmask;
    if (dst_signed && dst_bits < 64 && (r >> (dst_bits - 1)) & 1) r |= ~dmask;
    return r;
}

/* ------------------------------------------------------------------------ */

int fp_testp(uint64_t bits, int fmt, int op)
{
    int nan, inf, sub;
    if (fmt == FP_F64) {
        nan = f64_isnan(bits);
        inf = f64_isinf(bits);
        sub = f64_issub(bits);
    } else {
        uint32_t u = (uint32_t)bits;
        nan = f32_isnan(u);
        inf = f32_isinf(u);
        sub = f32_issub(u);
    }
    switch (op) {
    case FP_TESTP_FINITE: return !nan && !inf;
    case FP_TESTP_INFINITE: return inf;
    case FP_TESTP_NUMBER: return !nan;
    case FP_TESTP_NOTANUMBER: return nan;
    case FP_TESTP_NORMAL: return !nan && !inf && !sub; /* zero is normal */
    case FP_TESTP_SUBNORMAL: return sub;
    default: return 0;
    }
}
