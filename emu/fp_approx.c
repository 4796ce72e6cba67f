/* emu/fp_approx.c - the approximate functions of PTX (.approx: rcp sqrt
 * rsqrt sin cos lg2 ex2 tanh, div.approx/div.full, f64 rcp/rsqrt.approx)
 * as the H100 computes them, on raw bit patterns (see fp.h).
 *
 * Approximate instructions are emulated as the SASS that ptxas (CUDA 13.0,
 * sm_90) emits for them, read with cuobjdump:
 *   rcp.approx.ftz.f32    MUFU.RCP
 *   rcp.approx.f32        s = |a| < 2^-126 ? 2^24 : |a| > 2^126 ? 0.25 : 1;
 *                         d = s * MUFU.RCP(a * s)
 *   div.approx.ftz.f32    d = FMUL.FTZ(a, MUFU.RCP(b))
 *   div.approx.f32        if |b| < 2^-126: a *= 2^24, b *= 2^24;  d = MUFU.RCP(b) * a
 *   div.full.ftz.f32      if |b| > 2^126: a *= 0.25, b *= 0.25 (FTZ);  d = FMUL.FTZ(MUFU.RCP(b), a)
 *   div.full.f32          if |b| > 2^126: a, b *= 0.25;  if |b| < 2^-126: a, b *= 2^24;
 *                         d = MUFU.RCP(b) * a
 *   sqrt.approx{.ftz}.f32 MUFU.SQRT (non-ftz: |a| < 2^-126 -> MUFU.SQRT(a * 2^24) * 2^-12)
 *   rsqrt.approx{.ftz}.f32 MUFU.RSQ (non-ftz: |a| < 2^-126 -> MUFU.RSQ(a * 2^24) * 2^12)
 *   lg2.approx{.ftz}.f32  MUFU.LG2 (non-ftz: |a| < 2^-126 -> MUFU.LG2(a * 2^24) - 24)
 *   ex2.approx.ftz.f32    MUFU.EX2 (non-ftz: !(a >= -126) -> r = MUFU.EX2(a * 0.5), d = r * r)
 *   sin/cos.approx{.ftz}.f32  MUFU.SIN/COS(FMUL.RZ(a, 0x3e22f983 = 1/2pi)), .ftz or not
 *   tanh.approx.f32       MUFU.TANH;  ex2/tanh on f16/bf16: MUFU.EX2/TANH.F16/.BF16
 *   rcp.approx.ftz.f64    hi = MUFU.RCP64H(hi word of a), lo = 0 (the low word of a is not read)
 *   rsqrt.approx.ftz.f64  hi = MUFU.RSQ64H(hi word of a), lo = 0
 *   rsqrt.approx.f64      one Newton step on that: r2 = r*r; e = fma(a, -r2, 1);
 *                         d = fma(fma(e, 0.375, 0.5), r*e, r); special cases and
 *                         subnormals (a * 2^54, result * 2^27) on a slow path.
 * The MUFU units themselves (mufu_* below) follow what was measured on an
 * H100 over all 2^32 inputs (tools/approx-sweep, doc/approx-sweep.md): the
 * argument in fixed point (ex2: 23 fraction bits, negative x in ones'
 * complement; sin/cos: 25 fraction bits of a turn, quadrant symmetry by ones'
 * complement), a table of quadratics (the hardware's own coefficients and
 * truncated squarer for every function), and the hardware's rounding (rcp, rsqrt, sqrt, ex2 round; lg2, sin,
 * cos, tanh truncate a fixed-point value).  Subnormal inputs and results are flushed
 * (MUFU.TANH keeps subnormals); special values (zeros, infinities, NaN ->
 * 7fffffff) match the hardware.  The hardware's datapath truncates its
 * products: every function follows its datapath (dp_* below), and every
 * result equals the H100's (all 2^32 inputs checked).  The 16-bit forms are
 * modelled separately, see mufu_ex2_h.
 */
#include <math.h>
#include "fp.h"

/* ---- f32 building blocks of the SASS sequences ------------------------------ */

#define F32_2P126 0x7E800000u    /* 2^126  */
#define F32_2PM126 0x00800000u   /* 2^-126 */
#define F32_2P24 0x4B800000u
#define F32_QUARTER 0x3E800000u
static inline uint32_t fmul(uint32_t a, uint32_t b) { return f32_mul_rn(a, b, 0, 0); }      /* FMUL     */
static inline uint32_t fmul_ftz(uint32_t a, uint32_t b) { return f32_mul_rn(a, b, 1, 0); }  /* FMUL.FTZ */
static inline uint32_t fabs_bits(uint32_t a) { return a & 0x7FFFFFFFu; }
/* FSETP.GEU |a|, 2^-126: false only for zeros and subnormals (NaN is unordered: true) */
static inline int tiny32(uint32_t a) { return fabs_bits(a) < F32_2PM126; }
/* FSETP.GT |a|, 2^126: NaN false */
static inline int huge32(uint32_t a) { return fabs_bits(a) > F32_2P126 && !f32_isnan(a); }
static inline uint32_t f32_of(float f) { return fp_f32_bits(f); }
static inline uint32_t f32_from_double(double d) { return fp_f32_bits((float)d); }

/* ---- the MUFU model ------------------------------------------------------------
 * Input: an f32 bit pattern; subnormal inputs count as zero of the same sign,
 * subnormal results are flushed to zero of the same sign, a NaN result is the
 * canonical NaN.  Finite results: see each function below. */
static inline uint32_t mufu_out(uint32_t r) { return f32_isnan(r) ? FP32_CANON_NAN : f32_flush(r); }

__extension__ typedef __int128 i128;

/* The interpolator of rcp, rsqrt, sqrt and ex2, as the H100 computes it
 * (found from every one of its results, tools/approx-sweep/fit_datapath.c):
 * the n low bits xl of the argument (rcp: 16, 128 segments; the others: 17,
 * 64 segments for each table) and integer coefficients give
 *   Y = floor((C0 + C1 * xl * 2^n + C2 * sq(xl) + 2^(2n+g-1)) / 2^(2n+g)),
 * (g = 1 for sqrt, whose coefficients have one more bit, else 0), where
 * sq(xl) is the square of xl computed without the partial products
 * b_i * b_j * 2^(i+j+1) (i < j) and b_i * 2^(2i) of the columns below K
 * (a truncated squarer; K = 17 for rcp, 19 for the others). */
static inline int dp_column(int n) { return n == 16 ? 17 : 19; }
static inline uint64_t dp_square(uint32_t xl, int K) {
  uint64_t sq = (uint64_t)xl * xl;
  /* K is a constant at every use: unrolled, each mask below is one too */
#pragma GCC unroll 16
  for (int i = 0; 2 * i < K; i++) {                /* the dropped partial products of bit i */
    int top = K - 1 - i;                             /* j < top: column i + j + 1 < K */
    uint32_t js = top > i + 1 ? ((1u << top) - 1) & ~((2u << i) - 1) : 0;
    uint64_t set = 0 - (uint64_t)((xl >> i) & 1);    /* branch-free: all ones if bit i is set */
    sq -= set & (((uint64_t)1 << (2 * i)) + ((uint64_t)(xl & js) << (i + 1)));
  }
  return sq;
}
#include "fp_approx_dp.h"
static inline uint32_t dp_interp(const int64_t (*c)[3], int n, int g, uint32_t u) {
  const int64_t *k = c[u >> n];
  int64_t xl = (int64_t)(u & ((1u << n) - 1));
  int64_t p = k[0] + k[1] * xl * ((int64_t)1 << n) + k[2] * (int64_t)dp_square((uint32_t)xl, dp_column(n));
  return (uint32_t)((p + ((int64_t)1 << (2 * n + g - 1))) >> (2 * n + g));
}
/* sign | Y * 2^k as an f32; results below 2^-126 flush to zero, 2^128 and up are inf. */
static inline uint32_t scaled(uint32_t sign, uint32_t y, int k) {
  double v = ldexp((double)y, k);
  if (v < 0x1p-126) return sign;
  if (v >= 0x1p128) return sign | 0x7F800000u;
  return sign | fp_f32_bits((float)v);
}
/* v * 2^-frac truncated toward zero to an f32 (v > 0, a normal result). */
static inline uint32_t rz_fix(i128 v, int frac) {
  uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
  int top = hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);     /* the leading bit */
  uint32_t mant = (uint32_t)(v >> (top - 23));
  return (uint32_t)(top - frac + 127) << 23 | (mant & 0x7FFFFFu);
}
static inline uint32_t mufu_rcp(uint32_t a) {          /* +-0 -> +-inf, +-inf -> +-0 */
  a = f32_flush(a);
  uint32_t s = a & 0x80000000u, e = (a >> 23) & 0xFFu, m = a & 0x7FFFFFu;
  if (f32_isnan(a)) return FP32_CANON_NAN;
  if (e == 0) return s | 0x7F800000u;
  if (e == 0xFF) return s;
  return scaled(s, m ? dp_interp(dp_rcp, 16, 0, m) : 1u << 24, -24 - ((int)e - 127));
}
/* x = 1.m * 2^E: the tables are for 1.m (E even) and 2 * 1.m (E odd). */
static inline uint32_t mufu_sqrt(uint32_t a) {         /* -0 -> -0, negative -> NaN */
  a = f32_flush(a);
  uint32_t e = (a >> 23) & 0xFFu, m = a & 0x7FFFFFu;
  if (f32_isnan(a) || (a > 0x80000000u)) return FP32_CANON_NAN;
  if (e == 0 || e == 0xFF) return a;
  int E = (int)e - 127, odd = E & 1;
  return scaled(0, (m || odd) ? dp_interp(dp_sqrt[odd], 17, 1, m) : 1u << 23, -23 + (E - odd) / 2);
}
static inline uint32_t mufu_rsq(uint32_t a) {          /* +-0 -> +-inf, +inf -> +0, negative -> NaN */
  a = f32_flush(a);
  uint32_t e = (a >> 23) & 0xFFu, m = a & 0x7FFFFFu;
  if ((a & 0x7FFFFFFFu) == 0) return a | 0x7F800000u;
  if (f32_isnan(a) || (a >> 31)) return FP32_CANON_NAN;
  if (e == 0xFF) return 0;
  int E = (int)e - 127, odd = E & 1;
  return scaled(0, (m || odd) ? dp_interp(dp_rsq[odd], 17, 0, m) : 1u << 24, -24 - (E - odd) / 2);
}
/* MUFU.LG2: E + log2(1.m) for x = 1.m * 2^E in fixed point with 36
 * fraction bits, truncated toward zero to 24 bits; a negative sum is taken
 * as its ones' complement (|r| = 2^36 - T - 1 for E = -1).  log2(1.m) is
 * the interpolator above with its own coefficients (fp_approx_lg2.h: 64
 * segments, 17 low bits, the squarer of column 19, floor to 2^-36), found
 * from every output of x in [0.5, 2) (tools/approx-sweep/fit_lg2.c); its
 * value at 1.0 is not 0 (lg2(0.5) = -1 + 2^-23), x = 1 itself gives 0. */
#include "fp_approx_lg2.h"
static inline int64_t lg2_table(uint32_t m) {     /* log2(1.m) in units of 2^-36 */
  const int64_t *c = dp_lg2[m >> 17];
  uint32_t xl = m & 0x1FFFFu;
  i128 p = (i128)c[1] + (i128)c[2] * xl * (1 << 17) + (i128)c[3] * (i128)dp_square(xl, 19);
  return c[0] + (int64_t)(p >> 34);
}
static inline uint32_t mufu_lg2(uint32_t a) {          /* +-0 -> -inf, negative -> NaN, +inf -> +inf */
  a = f32_flush(a);
  if ((a & 0x7FFFFFFFu) == 0) return 0xFF800000u;
  if (f32_isnan(a) || (a >> 31)) return FP32_CANON_NAN;
  if (a == 0x7F800000u) return a;
  if (a == 0x3F800000u) return 0;
  int64_t v = ((int64_t)(a >> 23) - 127) * ((int64_t)1 << 36) + lg2_table(a & 0x7FFFFFu);
  uint32_t s = 0;
  if (v < 0) { s = 0x80000000u; v = -v - 1; }       /* ones' complement */
  return v ? s | rz_fix((i128)v << 40, 76) : s;   /* (rz_fix needs 24 bits) */
}
/* MUFU.EX2 takes x in fixed point with 23 fraction bits, |x| truncated; a
 * negative x is its ones' complement (measured: -G - 1 for G = trunc(|x| * 2^23),
 * except that a G with no fraction bits gives 2^(-G / 2^23) exactly), whose
 * integer part scales and whose fraction goes through the table. */
static inline uint32_t mufu_ex2(uint32_t a) {          /* -inf -> +0, +inf -> +inf, +-0 -> 1 */
  a = f32_flush(a);
  if (f32_isnan(a)) return FP32_CANON_NAN;
  if ((a & 0x7FFFFFFFu) == 0) return 0x3F800000u;
  double ax = fabs((double)fp_f32_val(a));
  if (ax >= 256.0) return (a >> 31) ? 0 : 0x7F800000u;
  int64_t g = (int64_t)(ax * 0x1p23), fx = (a >> 31) ? -g - 1 : g;
  if ((a >> 31) && (g & 0x7FFFFF) == 0) return scaled(0, 1, (int)-(g >> 23));   /* 2^-n exactly */
  uint32_t f = (uint32_t)(fx & 0x7FFFFF);
  int i = (int)((fx - (int64_t)f) / 0x800000);              /* floor(fx / 2^23) */
  return scaled(0, f ? dp_interp(dp_ex2, 17, 0, f) : 1u << 23, i - 23);
}
/* MUFU.SIN/COS: a is in revolutions (the PTX sequence multiplies by 1/2pi
 * first).  |a| goes to fixed point with 25 fraction bits (truncated, whole
 * turns dropped); the top two are the quadrant, and the low 23 (or their
 * ones' complement, in the quadrants where sin falls or cos rises; a whole
 * quadrant gives +-1 exactly) index the table of sin(pi/2 * u).  The table
 * is the interpolator of rcp, rsqrt, sqrt and ex2 (64 segments of 17 bits,
 * the squarer without the columns below 19; coefficients found from the
 * H100's output for every u, tools/approx-sweep/fit_trig.c), its value in
 * units of 2^-56 truncated to the 2^-38 grid and then to an f32. */
#include "fp_approx_trig.h"
static inline uint32_t dp_sin_table(uint32_t u) {                  /* 0 < u < 2^23 */
  const int64_t *k = dp_sin[u >> 17];
  int64_t xl = (int64_t)(u & 0x1FFFFu);
  int64_t v = k[0] + k[1] * xl * ((int64_t)1 << 17) + k[2] * (int64_t)dp_square((uint32_t)xl, 19);
  uint64_t y = (uint64_t)(v >> 18);                                  /* units of 2^-38 */
  if (y < (1u << 24)) return fp_f32_bits((float)y * 0x1p-38f);       /* exact */
  int top = 63 - __builtin_clzll(y);                                 /* truncated to 24 bits */
  return (uint32_t)(top - 38 + 127) << 23 | ((uint32_t)(y >> (top - 23)) & 0x7FFFFFu);
}
static inline uint32_t mufu_sincos(uint32_t a, int cos) {
  a = f32_flush(a);
  if (f32_isnan(a) || f32_isinf(a)) return FP32_CANON_NAN;
  double y = fabs((double)fp_f32_val(a));
  uint32_t t = (uint32_t)(int64_t)floor((y - trunc(y)) * 0x1p25);
  uint32_t q = (t >> 23) + (uint32_t)cos, u = t & 0x7FFFFFu;
  uint32_t s = ((q & 2) << 30) ^ (cos ? 0 : a & 0x80000000u);
  if (q & 1) {
    if (u == 0) return s | 0x3F800000u;            /* a whole quadrant: +-1 exactly */
    u = 0x7FFFFFu - u;
  }
  if (u == 0) return s;
  return s | dp_sin_table(u);
}
static inline uint32_t mufu_sin(uint32_t a) { return mufu_sincos(a, 0); }    /* +-inf -> NaN, +-0 -> +-0 */
static inline uint32_t mufu_cos(uint32_t a) { return mufu_sincos(a, 1); }
/* MUFU.TANH (measured on every |x| in [2^-8, 16)): tanh(x) = x below 2^-8
 * (subnormals kept), 1 from 8 up; in between the mantissa keeps its top
 * 17 + S bits, the top S of which pick one of the binade's 2^S segments
 * (S = 0 from 2^-8, 1 from 2^-5, 2 from 2^-3, 3 in [1, 2), 4 in [2, 4),
 * 3 in [4, 8)), and the interpolator above (fp_approx_tanh.h, fitted to
 * every output by tools/approx-sweep/fit_tanh.c) gives V in units of
 * 2^(E - 23) for |x| = 1.m * 2^E < 1 and of 2^-24 from 1 up; the result is
 * V truncated to 24 bits, odd in x. */
#include "fp_approx_tanh.h"
static inline uint32_t mufu_tanh(uint32_t a) {         /* +-inf -> +-1 */
  static const unsigned char seg_bits[11] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 4, 3}, first[11] = {0, 1, 2, 3, 5, 7, 11, 15, 19, 27, 43};
  if (f32_isnan(a)) return FP32_CANON_NAN;
  uint32_t s = a & 0x80000000u;
  int e = (int)((a >> 23) & 0xFFu) - 127;
  if (e < -8) return a;
  if (e > 2) return s | 0x3F800000u;
  uint32_t q = (a & 0x7FFFFFu) >> (6 - seg_bits[e + 8]), xl = q & 0x1FFFFu;
  const int64_t *c = dp_tanh[first[e + 8] + (q >> 17)];
  int64_t p = c[0] + c[1] * xl * (1 << 17) + c[2] * (int64_t)dp_square(xl, 19) + ((int64_t)1 << 33);
  return s | rz_fix(p, 34 - (e < 0 ? e - 23 : -24));
}
/* 16-bit forms (MUFU.EX2/TANH.F16/.BF16): an f32 result truncated toward
 * zero to the 16-bit format, with overflow to inf.  ex2: the exact value
 * rounded to nearest f32; ex2 of a tiny negative x (-2^-23 < x <= 0) is
 * exactly 1.  tanh: MUFU.TANH's f32 result.  Measured on every one of the
 * 65536 inputs of each form: ex2.approx.f16, ex2.approx.ftz.bf16,
 * tanh.approx.f16 and tanh.approx.bf16 match the H100 everywhere.  f16
 * keeps subnormals; bf16 ex2 (.ftz) flushes them. */
static inline double h_val(int bf, uint16_t h) {
  return bf ? (double)fp_f32_val(cvt_bf16_to_f32(h)) : (double)fp_f32_val(cvt_f16_to_f32(h));
}
static inline uint16_t h_trunc(int bf, double v) {
  uint32_t r = f32_from_double(v);
  if (!bf && fabsf(fp_f32_val(r)) >= 65536.0f) return (uint16_t)(((r >> 16) & 0x8000u) | 0x7C00u);
  return (uint16_t)fp_cvt(r, FP_F32, bf ? FP_BF16 : FP_F16, FP_RZ, 0);
}
static inline uint16_t h_nan(int bf) { return bf ? BF16_CANON_NAN : FP16_CANON_NAN; }
static inline int h_isnan(int bf, uint16_t h) { return bf ? bf16_isnan(h) : f16_isnan(h); }
static inline uint16_t mufu_ex2_h(int bf, uint16_t a) {
  if (h_isnan(bf, a)) return h_nan(bf);
  if (bf && bf16_issub(a)) a &= 0x8000u;
  double x = h_val(bf, a);
  uint16_t r = h_trunc(bf, (x <= 0.0 && x > -0x1p-23) ? 1.0 : exp2(x));
  if (bf && bf16_issub(r)) r &= 0x8000u;
  return r;
}
/* tanh: the f32 unit's result (mufu_tanh) truncated to 16 bits (every input
 * measured). */
static inline uint16_t mufu_tanh_h(int bf, uint16_t a) {
  if (h_isnan(bf, a)) return h_nan(bf);
  uint32_t x = bf ? cvt_bf16_to_f32(a) : cvt_f16_to_f32(a);
  return (uint16_t)fp_cvt(mufu_tanh(x), FP_F32, bf ? FP_BF16 : FP_F16, FP_RZ, 0);
}
/* MUFU.RCP64H / RSQ64H: the high word of the result from the high word of
 * the input (its low word is not read).  Measured on an H200 (the H100's
 * SM) over all 2^20 mantissas of that word, for rsq at both exponent
 * parities: the f32 unit's result on the same 20 mantissa bits, widened to
 * f64 and cut to its high word (20 mantissa bits, truncated), the exponent
 * applied apart.  Zeros and subnormals give infinities, infinities zeros;
 * NaN, and rsq of a negative, the f32 unit's NaN widened (0x7fffffff). */
/* (f64)r's high word: the widening is exact (r is the unit's result on a
 * normal 1.m or 2 x 1.m, itself normal) */
static inline uint32_t hi_of_f32(uint32_t r) { return (uint32_t)(fp_f64_bits((double)fp_f32_val(r)) >> 32); }
/* f64 high word with the mantissa of high word h and its exponent lowered
 * by k; results below the normal range flush to zero of the sign */
static inline uint32_t hi_scaled(uint32_t sign, uint32_t h, int32_t k) {
  int32_t e = (int32_t)((h >> 20) & 0x7FFu) - k;
  if (e <= 0) return sign;
  return sign | ((uint32_t)e << 20) | (h & 0xFFFFFu);
}
static inline uint32_t mufu_rcp64h(uint32_t hi) {
  uint32_t sign = hi & 0x80000000u, ex = (hi >> 20) & 0x7FFu, m = hi & 0xFFFFFu;
  if (ex == 0) return sign | 0x7FF00000u;
  if (ex == 0x7FFu) return m ? 0x7FFFFFFFu : sign;
  uint32_t r = mufu_rcp(0x3F800000u | m << 3);          /* 1.m: a result in (0.5, 1] */
  return hi_scaled(sign, hi_of_f32(r), (int32_t)ex - 1023);
}
static inline uint32_t mufu_rsq64h(uint32_t hi) {
  uint32_t sign = hi & 0x80000000u, ex = (hi >> 20) & 0x7FFu, m = hi & 0xFFFFFu;
  if (ex == 0) return sign | 0x7FF00000u;
  if ((ex == 0x7FFu && m) || sign) return 0x7FFFFFFFu;
  if (ex == 0x7FFu) return 0;
  int32_t e = (int32_t)ex - 1023, odd = e & 1;          /* 2^e * 1.m = 2^(e - odd) * (2^odd * 1.m) */
  uint32_t r = mufu_rsq((odd ? 0x40000000u : 0x3F800000u) | m << 3);
  return hi_scaled(0, hi_of_f32(r), (e - odd) / 2);
}

/* ---- the PTX-level sequences ------------------------------------------------ */

static inline uint32_t rcp_approx(uint32_t a, int ftz) {
  if (ftz) return mufu_rcp(a);
  uint32_t s = tiny32(a) ? F32_2P24 : 0x3F800000u;
  if (huge32(a)) s = F32_QUARTER;
  return fmul(s, mufu_rcp(fmul(a, s)));
}
static inline uint32_t div_approx(uint32_t a, uint32_t b, int ftz) {
  if (ftz) return fmul_ftz(a, mufu_rcp(b));
  if (tiny32(b)) { b = fmul(b, F32_2P24); a = fmul(a, F32_2P24); }
  return fmul(mufu_rcp(b), a);
}
static inline uint32_t div_full(uint32_t a, uint32_t b, int ftz) {
  if (ftz) {
    if (huge32(b)) { b = fmul_ftz(b, F32_QUARTER); a = fmul_ftz(a, F32_QUARTER); }
    return fmul_ftz(mufu_rcp(b), a);
  }
  int big = huge32(b), small = tiny32(b);
  if (big) { b = fmul(b, F32_QUARTER); a = fmul(a, F32_QUARTER); }
  if (small) { b = fmul(b, F32_2P24); a = fmul(a, F32_2P24); }
  return fmul(mufu_rcp(b), a);
}
static inline uint32_t sqrt_approx(uint32_t a, int ftz) {
  if (ftz || !tiny32(a)) return mufu_sqrt(a);
  return fmul(mufu_sqrt(fmul(a, F32_2P24)), 0x39800000u);      /* * 2^-12 */
}
static inline uint32_t rsqrt_approx(uint32_t a, int ftz) {
  if (ftz || !tiny32(a)) return mufu_rsq(a);
  return fmul(mufu_rsq(fmul(a, F32_2P24)), 0x45800000u);       /* * 2^12 */
}
static inline uint32_t lg2_approx(uint32_t a, int ftz) {
  if (ftz || !tiny32(a)) return mufu_lg2(a);
  return f32_add_rn(mufu_lg2(fmul(a, F32_2P24)), 0xC1C00000u, 0, 0);   /* - 24 */
}
static inline uint32_t ex2_approx(uint32_t a, int ftz) {
  if (ftz) return mufu_ex2(a);
  int ge = !f32_isnan(a) && fp_f32_val(a) >= -126.0f;
  if (ge) return mufu_ex2(a);
  uint32_t r = mufu_ex2(fmul(a, 0x3F000000u));
  return fmul(r, r);
}
static inline uint32_t turns(uint32_t a) { return fp32_mul_dir(a, 0x3E22F983u, FP_RZ, 0, 0); }

/* rsqrt.approx.f64 without .ftz: a Newton step on MUFU.RSQ64H. */
static inline uint64_t rsq64_newton(uint64_t a) {
  uint64_t r = (uint64_t)mufu_rsq64h((uint32_t)(a >> 32)) << 32;
  uint64_t r2 = f64_mul_rn(r, r);
  uint64_t e = f64_fma_rn(a, r2 ^ 0x8000000000000000ull, 0x3FF0000000000000ull);
  uint64_t c = f64_fma_rn(e, 0x3FD8000000000000ull, 0x3FE0000000000000ull);
  uint64_t q = f64_mul_rn(r, e);
  return f64_fma_rn(c, q, r);
}
static uint64_t rsqrt_approx_f64(uint64_t a, int ftz) {
  if (ftz) return (uint64_t)mufu_rsq64h((uint32_t)(a >> 32)) << 32;
  uint32_t hi = (uint32_t)(a >> 32);
  if (hi - 0x100000u < 0x7FE00000u) return rsq64_newton(a);
  /* slow path: zeros, subnormals, negatives, inf and NaN */
  if ((a & 0x7FFFFFFFFFFFFFFFull) == 0) return ((uint64_t)(hi & 0x80000000u) | 0x7FF00000u) << 32;
  if (f64_isnan(a)) return a | FP64_QUIET_BIT;                              /* a + a */
  if (hi & 0x80000000u) return FP64_CANON_NAN;
  if (f64_isinf(a)) return 0;
  uint64_t s = f64_mul_rn(a, 0x4350000000000000ull);                         /* * 2^54 */
  return f64_mul_rn(rsq64_newton(s), 0x41A0000000000000ull);                 /* * 2^27 */
}

/* ---- the interface (fp.h) ------------------------------------------------------ */

uint32_t fp_approx_f32(int fn, uint32_t a, int ftz) {
  switch (fn) {
  case FPA_RCP: return rcp_approx(a, ftz);
  case FPA_SQRT: return sqrt_approx(a, ftz);
  case FPA_RSQRT: return rsqrt_approx(a, ftz);
  case FPA_LG2: return lg2_approx(a, ftz);
  case FPA_EX2: return ex2_approx(a, ftz);
  case FPA_SIN: return mufu_sin(turns(a));
  case FPA_COS: return mufu_cos(turns(a));
  case FPA_TANH: return mufu_tanh(a);
  default: return FP32_CANON_NAN;
  }
}
uint16_t fp_approx_h(int fn, int bf, uint16_t a) {
  switch (fn) {
  case FPA_EX2: return mufu_ex2_h(bf, a);
  case FPA_TANH: return mufu_tanh_h(bf, a);
  default: return h_nan(bf);
  }
}
uint32_t fp_div_approx_f32(uint32_t a, uint32_t b, int ftz) { return div_approx(a, b, ftz); }
uint32_t fp_div_full_f32(uint32_t a, uint32_t b, int ftz) { return div_full(a, b, ftz); }
uint64_t fp_rcp_approx_f64(uint64_t a) { return (uint64_t)mufu_rcp64h((uint32_t)(a >> 32)) << 32; }
uint64_t fp_rsqrt_approx_f64(uint64_t a, int ftz) { return rsqrt_approx_f64(a, ftz); }
