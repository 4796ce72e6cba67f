/*
 * fp.h - floating-point and conversion semantics of PTX, bit-exact to the
 * NVIDIA H100 (sm_90).
 *
 * Every value crosses this interface as a raw bit pattern (uint16_t for
 * f16/bf16, uint32_t for f32/tf32, uint64_t for f64, uint8_t for the fp8 /
 * fp6 / fp4 / ue8m0 formats), because PTX registers are untyped bits and the
 * emulator must be able to carry NaN payloads, -0 and subnormals unchanged.
 * Packed forms (.f16x2, .bf16x2, .e4m3x2, ...) are done lane-wise by the
 * caller.
 *
 * All functions are pure: no global state, no use of the host rounding mode.
 * Directed rounding is done in software (exact error terms / integer
 * arithmetic), so results do not depend on compiler flags such as
 * -frounding-math, and the host's MXCSR must simply be left at its default
 * (round-to-nearest, no FTZ/DAZ).  The round-to-nearest paths that a warp
 * executes 32 times per instruction are static inline here and use host SSE
 * arithmetic, which is IEEE 754 correctly rounded.
 *
 * Conventions shared by all functions:
 *   rnd   one of enum fp_rnd.  For float->int and float->integral-float
 *         conversions the same values mean .rni/.rzi/.rmi/.rpi.
 *   ftz   non-zero = the .ftz modifier: subnormal inputs become zero of the
 *         same sign, and so does a tiny result.  "Tiny" is decided AFTER
 *         rounding to the destination precision with unbounded exponent
 *         (measured: mul.rn.ftz.f32 of 2^-126*(1-2^-46) gives 2^-126, while
 *         a result that IEEE rounding carries from the subnormal range up to
 *         2^-126, e.g. 2^-126*(1-2^-24) exactly, is flushed).  PTX defines
 *         it for .f32 (and .f16 in half-precision instructions); f64 never
 *         flushes.
 *   sat   non-zero = .sat: result clamped to [+0.0, 1.0]; NaN and -0 -> +0.
 *   NaN   see the FP*_CANON_NAN block below.
 *
 * Every behaviour that the PTX manual leaves open (NaN encodings, f64 NaN
 * precedence, ftz tininess, tf32 NaNs, -0 under .sat/.relu, ...) was
 * measured on an H100 (sm_90, driver 580) by running each instruction
 * variant on 1M edge/random inputs against this code; all matched.  Not
 * measurable on sm_90 and so unverified: e2m1/e2m3/e3m2/ue8m0 conversions,
 * three-input min/max, and .rs (stochastic rounding), which is not
 * implemented.
 */
#ifndef PTXEMU_FP_H
#define PTXEMU_FP_H

#include <float.h>
#include <stdint.h>
#include <string.h>

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD > 0
#error "fp.h needs float/double arithmetic without excess precision (SSE)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define FP_LIKELY(x) __builtin_expect(!!(x), 1)
#define FP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define FP_LIKELY(x) (x)
#define FP_UNLIKELY(x) (x)
#endif

/* Rounding modes.  FP_RNA (nearest, ties away from zero) exists only for
 * cvt.rna{.satfinite}.tf32.f32 in PTX, but every function accepts it. */
enum fp_rnd { FP_RN = 0, FP_RZ = 1, FP_RM = 2, FP_RP = 3, FP_RNA = 4 };

/* Data formats known to the generic converters. */
enum fp_fmt {
    FP_F16,   /* IEEE binary16                                           */
    FP_BF16,  /* bfloat16: 8-bit exponent, 7-bit fraction                */
    FP_TF32,  /* tf32 in an f32 container, low 13 fraction bits zero     */
    FP_F32,   /* IEEE binary32                                           */
    FP_F64,   /* IEEE binary64                                           */
    FP_E4M3,  /* fp8, bias 7, no inf, NaN = 0x7f/0xff, max 448           */
    FP_E5M2,  /* fp8, bias 15, IEEE-like (inf, NaN), max 57344           */
    FP_E2M3,  /* fp6, bias 1, no inf/NaN, max 7.5 (in low 6 bits)        */
    FP_E3M2,  /* fp6, bias 3, no inf/NaN, max 28  (in low 6 bits)        */
    FP_E2M1,  /* fp4, bias 1, no inf/NaN, max 6   (in low 4 bits)        */
    FP_UE8M0, /* unsigned power of two 2^(e-127), 0xff = NaN, no zero    */
    FP_FMT_COUNT
};

/* Canonical NaNs (measured on H100): what the GPU writes for any NaN result
 * of f32/f16/bf16 arithmetic, abs/neg, min/max with two NaN inputs or .NaN,
 * and most conversions.  f64 is different: NaN operands propagate quieted
 * (FP64_QUIET_BIT set, sign and payload kept) and only an invalid operation
 * on non-NaN operands (inf-inf, 0*inf, 0/0, sqrt(-1)) creates a NaN, which
 * is FP64_CANON_NAN, the "default NaN" 0xFFF8000000000000 (sign set). */
#define FP32_CANON_NAN 0x7FFFFFFFu
#define FP64_CANON_NAN 0xFFF8000000000000ull
#define FP64_QUIET_BIT 0x0008000000000000ull
#define FP16_CANON_NAN 0x7FFFu
#define BF16_CANON_NAN 0x7FFFu
#define TF32_CANON_NAN 0x7FFFE000u
#define E4M3_NAN 0x7Fu
#define E5M2_NAN 0x7Fu
#define UE8M0_NAN 0xFFu

/* ------------------------------------------------------------------------ */
/* Bit casts and classification (inline, used everywhere).                  */

static inline float fp_f32_val(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t fp_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double fp_f64_val(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t fp_f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static inline int f32_isnan(uint32_t a) { return (a & 0x7FFFFFFFu) > 0x7F800000u; }
static inline int f32_isinf(uint32_t a) { return (a & 0x7FFFFFFFu) == 0x7F800000u; }
static inline int f32_issub(uint32_t a) { return (a & 0x7F800000u) == 0 && (a & 0x007FFFFFu) != 0; }
static inline int f64_isnan(uint64_t a) { return (a & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull; }
static inline int f64_isinf(uint64_t a) { return (a & 0x7FFFFFFFFFFFFFFFull) == 0x7FF0000000000000ull; }
static inline int f64_issub(uint64_t a) { return (a & 0x7FF0000000000000ull) == 0 && (a & 0x000FFFFFFFFFFFFFull) != 0; }
static inline int f16_isnan(uint16_t a) { return (a & 0x7FFFu) > 0x7C00u; }
static inline int f16_issub(uint16_t a) { return (a & 0x7C00u) == 0 && (a & 0x03FFu) != 0; }
static inline int bf16_isnan(uint16_t a) { return (a & 0x7FFFu) > 0x7F80u; }
static inline int bf16_issub(uint16_t a) { return (a & 0x7F80u) == 0 && (a & 0x007Fu) != 0; }

/* .ftz on one operand: subnormal -> zero of the same sign. */
static inline uint32_t f32_flush(uint32_t a) { return f32_issub(a) ? (a & 0x80000000u) : a; }
static inline uint16_t f16_flush(uint16_t a) { return f16_issub(a) ? (uint16_t)(a & 0x8000u) : a; }

/* NaN canonicalisation helpers: any NaN -> the canonical pattern. */
static inline uint32_t f32_canon(uint32_t a) { return f32_isnan(a) ? FP32_CANON_NAN : a; }
static inline uint64_t f64_canon(uint64_t a) { return f64_isnan(a) ? FP64_CANON_NAN : a; }
/* IEEE quieting as done by f64 arithmetic on a NaN operand. */
static inline uint64_t f64_quiet(uint64_t a) { return f64_isnan(a) ? a | FP64_QUIET_BIT : a; }
static inline uint16_t f16_canon(uint16_t a) { return f16_isnan(a) ? (uint16_t)FP16_CANON_NAN : a; }
static inline uint16_t bf16_canon(uint16_t a) { return bf16_isnan(a) ? (uint16_t)BF16_CANON_NAN : a; }

/* Post-processing of an f32 arithmetic result: NaN -> canonical (or +0 under
 * .sat), .ftz flushes a subnormal result, .sat clamps to [+0, 1] (-0 -> +0). */
static inline uint32_t f32_finish(uint32_t r, int ftz, int sat)
{
    if (FP_UNLIKELY(f32_isnan(r)))
        return sat ? 0u : FP32_CANON_NAN;
    if (ftz && f32_issub(r))
        r &= 0x80000000u;
    if (sat) {
        if (r & 0x80000000u) return 0u;
        if (r > 0x3F800000u) return 0x3F800000u;
    }
    return r;
}

/* ------------------------------------------------------------------------ */
/* f32 arithmetic: add/sub/mul/fma{.rnd}{.ftz}{.sat}.f32, div/sqrt/rcp.rnd   */
/* {.ftz}.f32 (the IEEE forms).  Out-of-line versions handle any rnd.       */

uint32_t fp32_add_dir(uint32_t a, uint32_t b, int rnd, int ftz, int sat);
uint32_t fp32_mul_dir(uint32_t a, uint32_t b, int rnd, int ftz, int sat);
uint32_t fp32_fma_dir(uint32_t a, uint32_t b, uint32_t c, int rnd, int ftz, int sat);
uint32_t fp32_div_dir(uint32_t a, uint32_t b, int rnd, int ftz);
uint32_t fp32_sqrt_dir(uint32_t a, int rnd, int ftz);
float fp_host_fmaf(float a, float b, float c); /* correctly rounded RN fma */

/* Round-to-nearest fast paths (host SSE is correctly rounded).  Under .ftz
 * a host result of exactly +-2^-126 may have been rounded up from a tiny
 * value, which the GPU flushes; those rare cases take the exact path. */
#define FP32_FTZ_EDGE(r) ((r & 0x7FFFFFFFu) == 0x00800000u)
static inline uint32_t f32_add_rn(uint32_t a, uint32_t b, int ftz, int sat)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); }
    /* sums of normals never round into 2^-126, no edge check needed */
    return f32_finish(fp_f32_bits(fp_f32_val(a) + fp_f32_val(b)), ftz, sat);
}
static inline uint32_t f32_mul_rn(uint32_t a, uint32_t b, int ftz, int sat)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); }
    uint32_t r = fp_f32_bits(fp_f32_val(a) * fp_f32_val(b));
    if (FP_UNLIKELY(ftz && FP32_FTZ_EDGE(r))) return fp32_mul_dir(a, b, FP_RN, ftz, sat);
    return f32_finish(r, ftz, sat);
}
static inline uint32_t f32_fma_rn(uint32_t a, uint32_t b, uint32_t c, int ftz, int sat)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); c = f32_flush(c); }
    uint32_t r = fp_f32_bits(fp_host_fmaf(fp_f32_val(a), fp_f32_val(b), fp_f32_val(c)));
    if (FP_UNLIKELY(ftz && FP32_FTZ_EDGE(r))) return fp32_fma_dir(a, b, c, FP_RN, ftz, sat);
    return f32_finish(r, ftz, sat);
}
static inline uint32_t f32_div_rn(uint32_t a, uint32_t b, int ftz)
{
    if (ftz) { a = f32_flush(a); b = f32_flush(b); }
    uint32_t r = fp_f32_bits(fp_f32_val(a) / fp_f32_val(b));
    if (FP_UNLIKELY(ftz && FP32_FTZ_EDGE(r))) return fp32_div_dir(a, b, FP_RN, ftz);
    return f32_finish(r, ftz, 0);
}

static inline uint32_t f32_add(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    return rnd == FP_RN ? f32_add_rn(a, b, ftz, sat) : fp32_add_dir(a, b, rnd, ftz, sat);
}
static inline uint32_t f32_sub(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    /* a - b == a + (-b) exactly, including signed zeros and NaN results. */
    return f32_add(a, b ^ 0x80000000u, rnd, ftz, sat);
}
static inline uint32_t f32_mul(uint32_t a, uint32_t b, int rnd, int ftz, int sat)
{
    return rnd == FP_RN ? f32_mul_rn(a, b, ftz, sat) : fp32_mul_dir(a, b, rnd, ftz, sat);
}
/* fma.rnd{.ftz}{.sat}.f32 and mad.rnd.f32: a*b+c with a single rounding. */
static inline uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, int rnd, int ftz, int sat)
{
    return rnd == FP_RN ? f32_fma_rn(a, b, c, ftz, sat) : fp32_fma_dir(a, b, c, rnd, ftz, sat);
}
static inline uint32_t f32_div(uint32_t a, uint32_t b, int rnd, int ftz)
{
    return rnd == FP_RN ? f32_div_rn(a, b, ftz) : fp32_div_dir(a, b, rnd, ftz);
}
static inline uint32_t f32_sqrt(uint32_t a, int rnd, int ftz) { return fp32_sqrt_dir(a, rnd, ftz); }
static inline uint32_t f32_rcp(uint32_t a, int rnd, int ftz) { return f32_div(0x3F800000u, a, rnd, ftz); }

/* abs/neg{.ftz}.f32: sign-bit operations; a NaN input gives the canonical
 * NaN (measured; the manual says "unspecified NaN"). */
uint32_t f32_abs(uint32_t a, int ftz);
uint32_t f32_neg(uint32_t a, int ftz);

/* min/max{.ftz}{.NaN}{.xorsign.abs}.f32.  Non-NaN inputs are returned
 * unchanged (after ftz); one NaN input -> the other input; two NaN inputs or
 * .NaN with any NaN -> canonical NaN; -0 < +0. */
uint32_t f32_min(uint32_t a, uint32_t b, int ftz, int nan, int xorsign_abs);
uint32_t f32_max(uint32_t a, uint32_t b, int ftz, int nan, int xorsign_abs);
/* Three-input min/max{.ftz}{.NaN}{.abs}.f32 (sm_100+): min(min(a,b),c). */
uint32_t f32_min3(uint32_t a, uint32_t b, uint32_t c, int ftz, int nan, int abs);
uint32_t f32_max3(uint32_t a, uint32_t b, uint32_t c, int ftz, int nan, int abs);

/* ------------------------------------------------------------------------ */
/* f64 arithmetic ({add,sub,mul,fma,div,rcp,sqrt}.rnd.f64).  No ftz/sat.     */
/* NaN results follow fp64_nan2/fp64_nan_div/fp64_nan3 below.               */

uint64_t fp64_add_dir(uint64_t a, uint64_t b, int rnd);
uint64_t fp64_sub_dir(uint64_t a, uint64_t b, int rnd);
uint64_t fp64_mul_dir(uint64_t a, uint64_t b, int rnd);
uint64_t fp64_fma_dir(uint64_t a, uint64_t b, uint64_t c, int rnd);
uint64_t fp64_div_dir(uint64_t a, uint64_t b, int rnd);
uint64_t fp64_sqrt_dir(uint64_t a, int rnd);
/* NaN result of an f64 op whose result is NaN (measured precedence): a NaN
 * operand is returned quieted; add/sub/mul prefer b over a, div prefers a,
 * fma prefers b, then c, then a; no NaN operand -> FP64_CANON_NAN. */
uint64_t fp64_nan2(uint64_t a, uint64_t b);
uint64_t fp64_nan_div(uint64_t a, uint64_t b);
uint64_t fp64_nan3(uint64_t a, uint64_t b, uint64_t c);
double fp_host_fma(double a, double b, double c);

static inline uint64_t f64_add_rn(uint64_t a, uint64_t b)
{
    uint64_t r = fp_f64_bits(fp_f64_val(a) + fp_f64_val(b));
    return FP_UNLIKELY(f64_isnan(r)) ? fp64_nan2(a, b) : r;
}
static inline uint64_t f64_mul_rn(uint64_t a, uint64_t b)
{
    uint64_t r = fp_f64_bits(fp_f64_val(a) * fp_f64_val(b));
    return FP_UNLIKELY(f64_isnan(r)) ? fp64_nan2(a, b) : r;
}
static inline uint64_t f64_fma_rn(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t r = fp_f64_bits(fp_host_fma(fp_f64_val(a), fp_f64_val(b), fp_f64_val(c)));
    return FP_UNLIKELY(f64_isnan(r)) ? fp64_nan3(a, b, c) : r;
}
static inline uint64_t f64_div_rn(uint64_t a, uint64_t b)
{
    uint64_t r = fp_f64_bits(fp_f64_val(a) / fp_f64_val(b));
    return FP_UNLIKELY(f64_isnan(r)) ? fp64_nan_div(a, b) : r;
}
static inline uint64_t f64_add(uint64_t a, uint64_t b, int rnd)
{
    return rnd == FP_RN ? f64_add_rn(a, b) : fp64_add_dir(a, b, rnd);
}
static inline uint64_t f64_sub_rn(uint64_t a, uint64_t b)
{
    uint64_t r = fp_f64_bits(fp_f64_val(a) - fp_f64_val(b));
    /* a NaN b comes back with its own sign (not negated) */
    return FP_UNLIKELY(f64_isnan(r)) ? fp64_nan2(a, b) : r;
}
static inline uint64_t f64_sub(uint64_t a, uint64_t b, int rnd)
{
    return rnd == FP_RN ? f64_sub_rn(a, b) : fp64_sub_dir(a, b, rnd);
}
static inline uint64_t f64_mul(uint64_t a, uint64_t b, int rnd)
{
    return rnd == FP_RN ? f64_mul_rn(a, b) : fp64_mul_dir(a, b, rnd);
}
static inline uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, int rnd)
{
    return rnd == FP_RN ? f64_fma_rn(a, b, c) : fp64_fma_dir(a, b, c, rnd);
}
static inline uint64_t f64_div(uint64_t a, uint64_t b, int rnd)
{
    return rnd == FP_RN ? f64_div_rn(a, b) : fp64_div_dir(a, b, rnd);
}
static inline uint64_t f64_sqrt(uint64_t a, int rnd) { return fp64_sqrt_dir(a, rnd); }
static inline uint64_t f64_rcp(uint64_t a, int rnd) { return f64_div(0x3FF0000000000000ull, a, rnd); }

/* abs/neg.f64: a NaN comes back quieted with its sign unchanged (measured). */
uint64_t f64_abs(uint64_t a);
uint64_t f64_neg(uint64_t a);
/* min/max.f64: as f32, except two NaN inputs give b quieted (measured).
 * nan selects the .NaN semantics (not a PTX form for f64; -> FP64_CANON_NAN). */
uint64_t f64_min(uint64_t a, uint64_t b, int nan);
uint64_t f64_max(uint64_t a, uint64_t b, int nan);

/* ------------------------------------------------------------------------ */
/* Half precision arithmetic.  PTX only has .rn here, but every rnd works.  */
/* ftz/sat are PTX-legal only for f16 (pass 0 for bf16).  relu (fma only):   */
/* negative (and -0) -> +0, NaN -> canonical NaN.  abs/neg of NaN ->        */
/* canonical NaN (measured).  min/max: as for f32.  Mixed-precision forms   */
/* (add/fma.rnd.f32.{f16,bf16}, sm_100) are f32 ops on exactly widened      */
/* operands: use cvt_f16_to_f32 / cvt_bf16_to_f32 and the f32 functions.    */

uint16_t f16_add(uint16_t a, uint16_t b, int rnd, int ftz, int sat);
uint16_t f16_sub(uint16_t a, uint16_t b, int rnd, int ftz, int sat);
uint16_t f16_mul(uint16_t a, uint16_t b, int rnd, int ftz, int sat);
uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c, int rnd, int ftz, int sat, int relu);
uint16_t bf16_add(uint16_t a, uint16_t b, int rnd, int ftz, int sat);
uint16_t bf16_sub(uint16_t a, uint16_t b, int rnd, int ftz, int sat);
uint16_t bf16_mul(uint16_t a, uint16_t b, int rnd, int ftz, int sat);
uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, int rnd, int ftz, int sat, int relu);

uint16_t f16_abs(uint16_t a, int ftz);
uint16_t f16_neg(uint16_t a, int ftz);
uint16_t bf16_abs(uint16_t a);
uint16_t bf16_neg(uint16_t a);
uint16_t f16_min(uint16_t a, uint16_t b, int ftz, int nan, int xorsign_abs);
uint16_t f16_max(uint16_t a, uint16_t b, int ftz, int nan, int xorsign_abs);
uint16_t bf16_min(uint16_t a, uint16_t b, int nan, int xorsign_abs);
uint16_t bf16_max(uint16_t a, uint16_t b, int nan, int xorsign_abs);

/* ------------------------------------------------------------------------ */
/* Conversions.                                                              */

/* Flags for fp_cvt. */
#define FP_CVT_FTZ 1u       /* .ftz: flush an f32 subnormal source when the
                               destination is f32/f64 (ignored for f16/bf16
                               destinations: measured), flush tiny f32
                               results; an f32 NaN source is canonicalised */
#define FP_CVT_SAT 2u       /* .sat: clamp to [0,1], NaN/-0 -> +0           */
#define FP_CVT_RELU 4u      /* .relu: negative/-0 -> +0, NaN -> canonical    */
#define FP_CVT_SATFINITE 8u /* .satfinite: |x| > MAX_NORM (inf too) ->
                               +-MAX_NORM; NaN -> NaN (formats without NaN:
                               +MAX_NORM).  Implied for fp8/fp6/fp4.       */

/* Generic float -> float conversion between any two enum fp_fmt formats
 * (cvt.frnd{.ftz}{.sat}{.relu}{.satfinite}.dst.src).  Exact (widening)
 * conversions ignore rnd.  Returns the destination bit pattern in the low
 * bits (TF32 in its f32 container, low 13 bits zero).  Rounding is direct
 * (no double rounding, also for f32 -> e4m3: measured).  NaN inputs
 * (measured): conversions to/from f64 are IEEE (quieted, sign and top
 * payload bits kept); bf16 -> f32 is a plain shift; cvt.rna.tf32.f32
 * truncates a NaN to 19 bits; every other case gives the destination's
 * canonical NaN; fp6/fp4 (no NaN) give +MAX_NORM. */
uint64_t fp_cvt(uint64_t bits, int src_fmt, int dst_fmt, int rnd, unsigned flags);

/* cvt.{rni,rzi,rmi,rpi}{.ftz}{.sat}.fX.fX: round to an integral value in the
 * same format (FP_F16, FP_BF16, FP_F32, FP_F64). */
uint64_t fp_round_int(uint64_t bits, int fmt, int rnd, int ftz, int sat);

/* cvt.{rni,..}.{s,u}{8,16,32,64}.{f16,bf16,f32,f64}.  Always saturating;
 * NaN -> 0, except 1<<(dst_bits-1) when the source is f64 or the destination
 * is 64-bit (PTX ISA "Integer Notes").  Result: signed types sign-extended to
 * 64 bits, unsigned zero-extended. */
uint64_t cvt_float_to_int(uint64_t bits, int src_fmt, int dst_bits, int dst_signed, int rnd, int ftz);

/* cvt.{rn,rz,rm,rp}{.sat}.{f16,bf16,tf32,f32,f64,...}.{s,u}N.  v holds the
 * integer value (sign-extended when src_signed). */
uint64_t cvt_int_to_float(uint64_t v, int src_signed, int dst_fmt, int rnd, int sat);

/* cvt{.sat}.{s,u}N.{s,u}M.  Without sat: truncate to dst_bits.  With sat:
 * clamp the source value to the destination range.  Result extended to 64
 * bits per dst signedness. */
uint64_t cvt_int_sat(uint64_t v, int src_bits, int src_signed, int dst_bits, int dst_signed, int sat);

/* Common conversions with a short name. */
/* cvt.rn.f16.f32 (no modifiers): round to nearest even by bit arithmetic;
 * NaN -> 7fff.  Same result as fp_cvt(f, FP_F32, FP_F16, FP_RN, 0). */
static inline uint16_t cvt_f32_to_f16_rn(uint32_t f)
{
    uint32_t s = (f >> 16) & 0x8000u, a = f & 0x7FFFFFFFu;
    if (FP_UNLIKELY(a >= 0x477FF000u)) /* >= 65520 (ties up to 2^16), inf, NaN */
        return (uint16_t)(a > 0x7F800000u ? FP16_CANON_NAN : s | 0x7C00u);
    if (FP_LIKELY(a >= 0x38800000u)) { /* >= 2^-14: normal f16 */
        uint32_t m = a - 0x38000000u;  /* rebias the exponent by 127-15 */
        return (uint16_t)(s | ((m + 0x0FFFu + ((m >> 13) & 1u)) >> 13));
    }
    if (a <= 0x33000000u) /* <= 2^-25: rounds to zero (2^-25 is a tie to 0) */
        return (uint16_t)s;
    /* subnormal f16: round mant * 2^(e-150) to a multiple of 2^-24 */
    uint32_t e = a >> 23, mant = (a & 0x7FFFFFu) | 0x800000u, sh = 126 - e;
    uint32_t q = mant >> sh, rem = mant & ((1u << sh) - 1), half = 1u << (sh - 1);
    q += rem > half || (rem == half && (q & 1u));
    return (uint16_t)(s | q);
}
/* cvt.rn.bf16.f32 (no modifiers): NaN -> 7fff. */
static inline uint16_t cvt_f32_to_bf16_rn(uint32_t f)
{
    if (FP_UNLIKELY(f32_isnan(f))) return BF16_CANON_NAN;
    return (uint16_t)((f + 0x7FFFu + ((f >> 16) & 1u)) >> 16);
}
/* cvt.f32.f16: exact; NaN -> canonical (measured). */
static inline uint32_t cvt_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F) return m ? FP32_CANON_NAN : (s | 0x7F800000u);
    if (e == 0) return m ? s | fp_f32_bits((float)m * 0x1p-24f) : s;
    return s | ((e + 112) << 23) | (m << 13);
}
/* cvt.f32.bf16: exact, a NaN keeps its payload (plain shift, measured). */
static inline uint32_t cvt_bf16_to_f32(uint16_t h) { return (uint32_t)h << 16; }
static inline uint64_t cvt_f32_to_f64(uint32_t f, int ftz) { return fp_cvt(f, FP_F32, FP_F64, FP_RN, ftz ? FP_CVT_FTZ : 0); }
static inline uint16_t cvt_f32_to_f16(uint32_t f, int rnd, unsigned flags)
{
    return rnd == FP_RN && !(flags & ~FP_CVT_FTZ) ? cvt_f32_to_f16_rn(f) : (uint16_t)fp_cvt(f, FP_F32, FP_F16, rnd, flags);
}
static inline uint16_t cvt_f32_to_bf16(uint32_t f, int rnd, unsigned flags)
{
    return rnd == FP_RN && !(flags & ~FP_CVT_FTZ) ? cvt_f32_to_bf16_rn(f) : (uint16_t)fp_cvt(f, FP_F32, FP_BF16, rnd, flags);
}
static inline uint32_t cvt_f32_to_tf32(uint32_t f, int rnd, unsigned flags) { return (uint32_t)fp_cvt(f, FP_F32, FP_TF32, rnd, flags); }
static inline uint32_t cvt_f64_to_f32(uint64_t d, int rnd, unsigned flags) { return (uint32_t)fp_cvt(d, FP_F64, FP_F32, rnd, flags); }
/* cvt.rn.satfinite{.relu}.{e4m3,e5m2}x2.{f32,f16x2,bf16x2}: per element. */
static inline uint8_t cvt_f32_to_e4m3(uint32_t f, int relu) { return (uint8_t)fp_cvt(f, FP_F32, FP_E4M3, FP_RN, FP_CVT_SATFINITE | (relu ? FP_CVT_RELU : 0)); }
static inline uint8_t cvt_f32_to_e5m2(uint32_t f, int relu) { return (uint8_t)fp_cvt(f, FP_F32, FP_E5M2, FP_RN, FP_CVT_SATFINITE | (relu ? FP_CVT_RELU : 0)); }
/* cvt.rn{.relu}.f16x2.{e4m3,e5m2,e2m3,e3m2,e2m1}x2: per element, exact. */
static inline uint16_t cvt_f8_to_f16(uint8_t v, int fmt, int relu) { return (uint16_t)fp_cvt(v, fmt, FP_F16, FP_RN, relu ? FP_CVT_RELU : 0); }

/* ------------------------------------------------------------------------ */
/* testp and copysign.                                                       */

enum fp_testp { FP_TESTP_FINITE, FP_TESTP_INFINITE, FP_TESTP_NUMBER, FP_TESTP_NOTANUMBER, FP_TESTP_NORMAL, FP_TESTP_SUBNORMAL };
/* testp.op.{f32,f64}: bits/fmt (FP_F32 or FP_F64).  Zero counts as normal. */
int fp_testp(uint64_t bits, int fmt, int op);
/* copysign.f32 d, a, b: b with the sign bit of a. */
static inline uint32_t f32_copysign(uint32_t a, uint32_t b) { return (b & 0x7FFFFFFFu) | (a & 0x80000000u); }
static inline uint64_t f64_copysign(uint64_t a, uint64_t b) { return (b & 0x7FFFFFFFFFFFFFFFull) | (a & 0x8000000000000000ull); }

/* ---- approximate functions (emu/fp_approx.c) --------------------------------
 * The .approx instructions as the H100's MUFU unit and the SASS sequences
 * that ptxas wraps around it compute them.  ftz = the .ftz modifier. */
enum fp_approx_fn { FPA_RCP, FPA_SQRT, FPA_RSQRT, FPA_LG2, FPA_EX2, FPA_SIN, FPA_COS, FPA_TANH };
uint32_t fp_approx_f32(int fn, uint32_t a, int ftz);
uint16_t fp_approx_h(int fn, int bf, uint16_t a);       /* FPA_EX2, FPA_TANH; bf = bfloat16 */
uint32_t fp_div_approx_f32(uint32_t a, uint32_t b, int ftz);
uint32_t fp_div_full_f32(uint32_t a, uint32_t b, int ftz);
uint64_t fp_rcp_approx_f64(uint64_t a);                 /* rcp.approx.ftz.f64 */
uint64_t fp_rsqrt_approx_f64(uint64_t a, int ftz);

#ifdef __cplusplus
}
#endif

#endif /* PTXEMU_FP_H */
