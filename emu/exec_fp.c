/* emu/exec_fp.c - floating-point arithmetic on warps (prep_fp): add sub
 * mul fma mad div abs neg min max copysign testp on .f16/.f16x2/.bf16/
 * .bf16x2/.f32/.f64, the special functions (rcp sqrt rsqrt sin cos lg2 ex2
 * tanh), and setp/set with floating-point sources.
 *
 * The semantics are emu/fp.c's (bit-exact to the H100); this file only
 * applies them lane by lane.  A handler is generated per (operation, type)
 * from the inline op_*() functions with a constant operation selector; the
 * modifiers (rounding, .ftz, .sat, .NaN ...) are read once per instruction
 * into an fpm before the lane loop.  The common .rn forms without .ftz/.sat
 * of add/sub/mul/fma.f32 have their own handlers with constant modifiers.
 *
 * The approximate instructions (.approx, div.full) are emu/fp_approx.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "emu/emu.h"
#include "emu/fp.h"

extern int emu_row_of(const emu *e, const xinsn *x, const isa_opnd *o);

#define H(n) static void n(warp *w, const xinsn *x, lanemask m)

/* ---- modifiers ------------------------------------------------------------ */

typedef struct fpm {
  int rnd;          /* enum fp_rnd (RN when the instruction has none)          */
  int ftz, sat, relu, nan;
  int xabs;         /* .xorsign.abs (two-input min/max)                         */
  int abs3;         /* .abs of three-input min/max                              */
} fpm;

static inline int fp_rnd_of(const isa_insn *in) {
  switch (in->rnd) {
  case RND_RZ: return FP_RZ;
  case RND_RM: return FP_RM;
  case RND_RP: return FP_RP;
  case RND_RNA: return FP_RNA;
  default: return FP_RN;
  }
}
static inline fpm mods_of(const isa_insn *in) {
  uint32_t f = in->flags;
  fpm p;
  p.rnd = fp_rnd_of(in);
  p.ftz = (f & IF_FTZ) != 0;
  p.sat = (f & IF_SAT) != 0;
  p.relu = (f & IF_RELU) != 0;
  p.nan = (f & IF_NAN) != 0;
  p.xabs = (f & IF_XORSIGN) && (f & IF_ABS);
  p.abs3 = (f & IF_ABS) && !(f & IF_XORSIGN);
  return p;
}

/* ---- the operations --------------------------------------------------------- */

enum { O_ADD, O_SUB, O_MUL, O_FMA, O_FMA_OOB, O_MIN, O_MAX, O_MIN3, O_MAX3, O_ABS, O_NEG, O_COPYSIGN,
       O_DIV, O_DIVAPX, O_DIVFULL, O_RCP, O_RCPAPX, O_SQRT, O_SQRTAPX, O_RSQRT, O_SIN, O_COS, O_LG2,
       O_EX2, O_TANH, O_NOPS };

static inline uint32_t op_f32(int op, uint32_t a, uint32_t b, uint32_t c, fpm p) {
  switch (op) {
  case O_ADD: return f32_add(a, b, p.rnd, p.ftz, p.sat);
  case O_SUB: return f32_sub(a, b, p.rnd, p.ftz, p.sat);
  case O_MUL: return f32_mul(a, b, p.rnd, p.ftz, p.sat);
  case O_FMA: return f32_fma(a, b, c, p.rnd, p.ftz, p.sat);
  case O_MIN: return f32_min(a, b, p.ftz, p.nan, p.xabs);
  case O_MAX: return f32_max(a, b, p.ftz, p.nan, p.xabs);
  case O_MIN3: return f32_min3(a, b, c, p.ftz, p.nan, p.abs3);
  case O_MAX3: return f32_max3(a, b, c, p.ftz, p.nan, p.abs3);
  case O_ABS: return f32_abs(a, p.ftz);
  case O_NEG: return f32_neg(a, p.ftz);
  case O_COPYSIGN: return f32_copysign(a, b);
  case O_DIV: return f32_div(a, b, p.rnd, p.ftz);
  case O_DIVAPX: return fp_div_approx_f32(a, b, p.ftz);
  case O_DIVFULL: return fp_div_full_f32(a, b, p.ftz);
  case O_RCP: return f32_rcp(a, p.rnd, p.ftz);
  case O_RCPAPX: return fp_approx_f32(FPA_RCP, a, p.ftz);
  case O_SQRT: return f32_sqrt(a, p.rnd, p.ftz);
  case O_SQRTAPX: return fp_approx_f32(FPA_SQRT, a, p.ftz);
  case O_RSQRT: return fp_approx_f32(FPA_RSQRT, a, p.ftz);
  case O_SIN: return fp_approx_f32(FPA_SIN, a, p.ftz);
  case O_COS: return fp_approx_f32(FPA_COS, a, p.ftz);
  case O_LG2: return fp_approx_f32(FPA_LG2, a, p.ftz);
  case O_EX2: return fp_approx_f32(FPA_EX2, a, p.ftz);
  case O_TANH: return fp_approx_f32(FPA_TANH, a, p.ftz);
  default: return FP32_CANON_NAN;
  }
}

static inline uint64_t op_f64(int op, uint64_t a, uint64_t b, uint64_t c, fpm p) {
  switch (op) {
  case O_ADD: return f64_add(a, b, p.rnd);
  case O_SUB: return f64_sub(a, b, p.rnd);
  case O_MUL: return f64_mul(a, b, p.rnd);
  case O_FMA: return f64_fma(a, b, c, p.rnd);
  case O_MIN: return f64_min(a, b, p.nan);
  case O_MAX: return f64_max(a, b, p.nan);
  case O_ABS: return f64_abs(a);
  case O_NEG: return f64_neg(a);
  case O_COPYSIGN: return f64_copysign(a, b);
  case O_DIV: return f64_div(a, b, p.rnd);
  case O_RCP: return f64_rcp(a, p.rnd);
  case O_RCPAPX: return fp_rcp_approx_f64(a);
  case O_SQRT: return f64_sqrt(a, p.rnd);
  case O_RSQRT: return fp_rsqrt_approx_f64(a, p.ftz);
  default: return FP64_CANON_NAN;
  }
}

static inline uint16_t h_nan(int bf) { return bf ? BF16_CANON_NAN : FP16_CANON_NAN; }
static inline int h_isnan(int bf, uint16_t h) { return bf ? bf16_isnan(h) : f16_isnan(h); }

/* .relu on a 16-bit result: negative and -0 -> +0, NaN -> canonical NaN. */
static inline uint16_t h_relu(int bf, uint16_t r) {
  if (h_isnan(bf, r)) return h_nan(bf);
  return (r & 0x8000u) ? 0 : r;
}
/* fma.oob: the result is +0 when a multiplicand is the OOB-NaN, the
 * pattern the tensor copies fill out-of-bound elements with (0x7ff7, f16
 * and bf16 alike; exec_async.c).  Measured on an H200 over 512 operand
 * triples: a or b 0x7ff7 (or 0xfff7) gives +0 whatever c is; c 0x7ff7, or any other
 * NaN (0x7fff, 0x7ff8), is an ordinary NaN. */
static inline int h_oob(uint16_t a, uint16_t b) { return (a & 0x7FFFu) == 0x7FF7u || (b & 0x7FFFu) == 0x7FF7u; }

static inline uint16_t op_h(int op, int bf, uint16_t a, uint16_t b, uint16_t c, fpm p) {
  uint16_t r;
  switch (op) {
  case O_ADD: return bf ? bf16_add(a, b, p.rnd, 0, 0) : f16_add(a, b, p.rnd, p.ftz, p.sat);
  case O_SUB: return bf ? bf16_sub(a, b, p.rnd, 0, 0) : f16_sub(a, b, p.rnd, p.ftz, p.sat);
  case O_MUL: return bf ? bf16_mul(a, b, p.rnd, 0, 0) : f16_mul(a, b, p.rnd, p.ftz, p.sat);
  case O_FMA: return bf ? bf16_fma(a, b, c, p.rnd, 0, 0, p.relu) : f16_fma(a, b, c, p.rnd, p.ftz, p.sat, p.relu);
  case O_FMA_OOB:
    if (h_oob(a, b)) return 0;
    return bf ? bf16_fma(a, b, c, p.rnd, 0, 0, p.relu) : f16_fma(a, b, c, p.rnd, p.ftz, p.sat, p.relu);
  case O_MIN: r = bf ? bf16_min(a, b, p.nan, p.xabs) : f16_min(a, b, p.ftz, p.nan, p.xabs); break;
  case O_MAX: r = bf ? bf16_max(a, b, p.nan, p.xabs) : f16_max(a, b, p.ftz, p.nan, p.xabs); break;
  case O_ABS: return bf ? bf16_abs(a) : f16_abs(a, p.ftz);
  case O_NEG: return bf ? bf16_neg(a) : f16_neg(a, p.ftz);
  case O_EX2: return fp_approx_h(FPA_EX2, bf, a);
  case O_TANH: return fp_approx_h(FPA_TANH, bf, a);
  default: return h_nan(bf);
  }
  return p.relu ? h_relu(bf, r) : r;
}

/* ---- handlers ----------------------------------------------------------------- */

#define SRCS const uint64_t *A = xsrc(w, x, 1), *B = x->nops > 2 ? xsrc(w, x, 2) : A, \
                            *C = x->nops > 3 ? xsrc(w, x, 3) : B; uint64_t t[WARP_SIZE]
#define DEF_F32(op) H(f32_##op) { fpm p = mods_of(x->in); SRCS; \
  FOR_LANES(i) { t[i] = op_f32(op, (uint32_t)A[i], (uint32_t)B[i], (uint32_t)C[i], p); } xstore(xdst(w, x, 0), t, m); }
#define DEF_F64(op) H(f64_##op) { fpm p = mods_of(x->in); SRCS; \
  FOR_LANES(i) { t[i] = op_f64(op, A[i], B[i], C[i], p); } xstore(xdst(w, x, 0), t, m); }
#define DEF_H(op, BF, X2) H(h_##op##_##BF##_##X2) { fpm p = mods_of(x->in); SRCS; \
  FOR_LANES(i) { uint64_t r = op_h(op, BF, (uint16_t)A[i], (uint16_t)B[i], (uint16_t)C[i], p); \
    if (X2) r |= (uint64_t)op_h(op, BF, (uint16_t)(A[i] >> 16), (uint16_t)(B[i] >> 16), (uint16_t)(C[i] >> 16), p) << 16; \
    t[i] = r; } xstore(xdst(w, x, 0), t, m); }
/* one table row per operation: f32 f64 f16 f16x2 bf16 bf16x2 */
#define GEN(op) DEF_F32(op) DEF_F64(op) DEF_H(op, 0, 0) DEF_H(op, 0, 1) DEF_H(op, 1, 0) DEF_H(op, 1, 1)
#define ROW(op) { f32_##op, f64_##op, h_##op##_0_0, h_##op##_0_1, h_##op##_1_0, h_##op##_1_1 }
GEN(O_ADD) GEN(O_SUB) GEN(O_MUL) GEN(O_FMA) GEN(O_FMA_OOB) GEN(O_MIN) GEN(O_MAX) GEN(O_MIN3) GEN(O_MAX3)
GEN(O_ABS) GEN(O_NEG) GEN(O_COPYSIGN) GEN(O_DIV) GEN(O_DIVAPX) GEN(O_DIVFULL) GEN(O_RCP) GEN(O_RCPAPX)
GEN(O_SQRT) GEN(O_SQRTAPX) GEN(O_RSQRT) GEN(O_SIN) GEN(O_COS) GEN(O_LG2) GEN(O_EX2) GEN(O_TANH)
static const xhandler tab_op[O_NOPS][6] = {
  ROW(O_ADD), ROW(O_SUB), ROW(O_MUL), ROW(O_FMA), ROW(O_FMA_OOB), ROW(O_MIN), ROW(O_MAX), ROW(O_MIN3),
  ROW(O_MAX3), ROW(O_ABS), ROW(O_NEG), ROW(O_COPYSIGN), ROW(O_DIV), ROW(O_DIVAPX), ROW(O_DIVFULL),
  ROW(O_RCP), ROW(O_RCPAPX), ROW(O_SQRT), ROW(O_SQRTAPX), ROW(O_RSQRT), ROW(O_SIN), ROW(O_COS),
  ROW(O_LG2), ROW(O_EX2), ROW(O_TANH) };

/* The frequent f32 forms with constant modifiers: .rn (or none), no .sat,
 * with and without .ftz. */
#define DEF_F32K(op, FTZ) H(f32k_##op##_##FTZ) { const fpm p = { FP_RN, FTZ, 0, 0, 0, 0, 0 }; SRCS; \
  FOR_LANES(i) { t[i] = op_f32(op, (uint32_t)A[i], (uint32_t)B[i], (uint32_t)C[i], p); } xstore(xdst(w, x, 0), t, m); }
#define GENK(op) DEF_F32K(op, 0) DEF_F32K(op, 1)
GENK(O_ADD) GENK(O_SUB) GENK(O_MUL) DEF_F32K(O_FMA, 1)

/* fma.rn.f32, the hottest float instruction: built twice, and the machine
 * picks at load time (with FMA hardware the lane loop becomes vfmadd; an
 * FMA is exact, so both give the same bits). */
#ifndef __SANITIZE_THREAD__   /* (a clone's resolver runs before ThreadSanitizer is set up) */
__attribute__((target_clones("fma", "default")))
#endif
static void f32_fma_rn_fast(warp *w, const xinsn *x, lanemask m) {
  const uint64_t *A = xsrc(w, x, 1), *B = xsrc(w, x, 2), *C = xsrc(w, x, 3);
  uint64_t t[WARP_SIZE];
  FOR_LANES(i) {
    uint32_t ua = (uint32_t)A[i], ub = (uint32_t)B[i], uc = (uint32_t)C[i], ur;
    float a, b, c, r;
    memcpy(&a, &ua, 4); memcpy(&b, &ub, 4); memcpy(&c, &uc, 4);
    r = __builtin_fmaf(a, b, c);
    memcpy(&ur, &r, 4);
    t[i] = (ur & 0x7FFFFFFFu) > 0x7F800000u ? FP32_CANON_NAN : ur;
  }
  xstore(xdst(w, x, 0), t, m);
}

static const xhandler tab_k[4][2] = { { f32k_O_ADD_0, f32k_O_ADD_1 }, { f32k_O_SUB_0, f32k_O_SUB_1 },
                                      { f32k_O_MUL_0, f32k_O_MUL_1 }, { f32_fma_rn_fast, f32k_O_FMA_1 } };

/* ---- testp -------------------------------------------------------------------- */

H(testp_h) {
  const uint64_t *A = xsrc(w, x, 1);
  int fmt = x->in->type == PTX_T_F64 ? FP_F64 : FP_F32, op;
  switch (x->in->sub) {
  case MOD_FINITE: op = FP_TESTP_FINITE; break;
  case MOD_INFINITE: op = FP_TESTP_INFINITE; break;
  case MOD_NUMBER: op = FP_TESTP_NUMBER; break;
  case MOD_NOTANUMBER: op = FP_TESTP_NOTANUMBER; break;
  case MOD_NORMAL: op = FP_TESTP_NORMAL; break;
  default: op = FP_TESTP_SUBNORMAL; break;
  }
  uint64_t t[WARP_SIZE];
  FOR_LANES(i) { t[i] = (uint64_t)fp_testp(fmt == FP_F64 ? A[i] : (uint32_t)A[i], fmt, op); }
  xstore(xdst(w, x, 0), t, m);
}

/* ---- setp / set ------------------------------------------------------------------
 * A comparison is decided from the relation of the two values (less, equal,
 * greater, unordered).  .ftz flushes subnormal f32/f16 sources first (a
 * subnormal then equals zero); f16/bf16 compare exactly through f32.
 * setp: p = t BoolOp c, q = !t BoolOp c; for .f16x2/.bf16x2 p is the lower
 * half's t and q the upper half's.  set: d = t BoolOp c ? one : 0, with one
 * = 1.0 for a float destination and all ones for an integer one (per half
 * for packed sources). */
enum { R_LT = 1, R_EQ = 2, R_GT = 4, R_UN = 8 };
/* Bit r of the mask of a comparison: its result for relation r. */
static uint16_t cmp_mask(int mod) {
  switch (mod) {
  case MOD_EQ: return 1u << R_EQ;
  case MOD_NE: return 1u << R_LT | 1u << R_GT;
  case MOD_LT: return 1u << R_LT;
  case MOD_LE: return 1u << R_LT | 1u << R_EQ;
  case MOD_GT: return 1u << R_GT;
  case MOD_GE: return 1u << R_GT | 1u << R_EQ;
  case MOD_EQU: return 1u << R_EQ | 1u << R_UN;
  case MOD_NEU: return 1u << R_LT | 1u << R_GT | 1u << R_UN;
  case MOD_LTU: return 1u << R_LT | 1u << R_UN;
  case MOD_LEU: return 1u << R_LT | 1u << R_EQ | 1u << R_UN;
  case MOD_GTU: return 1u << R_GT | 1u << R_UN;
  case MOD_GEU: return 1u << R_GT | 1u << R_EQ | 1u << R_UN;
  case MOD_NUM: return 1u << R_LT | 1u << R_EQ | 1u << R_GT;
  case MOD_NAN: return 1u << R_UN;
  default: return 0;
  }
}
static inline int rel_d(double a, double b) { return a < b ? R_LT : a > b ? R_GT : a == b ? R_EQ : R_UN; }
static inline int rel_i(int64_t a, int64_t b, int S) {
  if (S) return a < b ? R_LT : a > b ? R_GT : R_EQ;
  return (uint64_t)a < (uint64_t)b ? R_LT : (uint64_t)a > (uint64_t)b ? R_GT : R_EQ;
}
/* source kinds of a comparison */
enum { CK_F32, CK_F64, CK_F16, CK_BF16, CK_U, CK_S };
static inline double cmp_val(int ck, uint64_t v, int ftz) {
  switch (ck) {
  case CK_F32: { uint32_t u = (uint32_t)v; if (ftz) u = f32_flush(u); return (double)fp_f32_val(u); }
  case CK_F64: return fp_f64_val(v);
  case CK_F16: { uint16_t h = (uint16_t)v; if (ftz) h = f16_flush(h); return (double)fp_f32_val(cvt_f16_to_f32(h)); }
  default: return (double)fp_f32_val(cvt_bf16_to_f32((uint16_t)v));
  }
}
/* relation of half k (0 or 1; 0 for scalars) of a and b */
static inline int cmp_rel(int ck, unsigned W, uint64_t a, uint64_t b, int k, int ftz) {
  if (ck == CK_S) return rel_i(sext(a, W), sext(b, W), 1);
  if (ck == CK_U) { uint64_t mk = W >= 64 ? ~0ull : (1ull << W) - 1; return rel_i((int64_t)(a & mk), (int64_t)(b & mk), 0); }
  if (k) { a >>= 16; b >>= 16; }
  return rel_d(cmp_val(ck, a, ftz), cmp_val(ck, b, ftz));
}

typedef struct cmpinfo { int ck, x2, ftz; unsigned W; uint16_t mask; } cmpinfo;
static cmpinfo cmp_info(const isa_insn *in) {
  cmpinfo c;
  int st = in->op == OP_SET ? in->type2 : in->type;
  c.x2 = st == PTX_T_F16X2 || st == PTX_T_BF16X2;
  c.W = (unsigned)ptx_type_bits((enum ptx_type)st);
  c.ftz = (in->flags & IF_FTZ) != 0;
  int cm = in->cmp;
  switch (cm) {                 /* lo ls hi hs: the unsigned lt le gt ge */
  case MOD_LO_: cm = MOD_LT; break;
  case MOD_LS: cm = MOD_LE; break;
  case MOD_HI_: cm = MOD_GT; break;
  case MOD_HS: cm = MOD_GE; break;
  default: break;
  }
  c.mask = cmp_mask(cm);
  switch (st) {
  case PTX_T_F32: c.ck = CK_F32; break;
  case PTX_T_F64: c.ck = CK_F64; break;
  case PTX_T_F16: case PTX_T_F16X2: c.ck = CK_F16; break;
  case PTX_T_BF16: case PTX_T_BF16X2: c.ck = CK_BF16; break;
  case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64: c.ck = CK_S; break;
  default: c.ck = CK_U; break;
  }
  if (cm != in->cmp) c.ck = CK_U;
  return c;
}
static inline uint64_t boolop(int bop, uint64_t t, uint64_t c) {
  switch (bop) {
  case MOD_AND: return t & c;
  case MOD_OR: return t | c;
  case MOD_XOR: return t ^ c;
  default: return t;
  }
}

/* setp: destinations in spare slots nops (p) and nops+1 (q), row -1 = sink */
H(setp_h) {
  const isa_insn *in = x->in;
  cmpinfo ci = cmp_info(in);
  const uint64_t *A = xsrc(w, x, 1), *B = xsrc(w, x, 2);
  const uint64_t *C = x->nops > 3 ? xsrc(w, x, 3) : A;
  uint64_t n = x->nops > 3 ? x->op[3].neg : 0;
  int bop = x->nops > 3 ? in->bop : 0;
  uint64_t p[WARP_SIZE], q[WARP_SIZE];
  FOR_LANES(i) {
    uint64_t c = (C[i] ^ n) & 1;
    uint64_t t0 = (ci.mask >> cmp_rel(ci.ck, ci.W, A[i], B[i], 0, ci.ftz)) & 1;
    uint64_t t1 = ci.x2 ? (ci.mask >> cmp_rel(ci.ck, ci.W, A[i], B[i], 1, ci.ftz)) & 1 : t0 ^ 1;
    p[i] = boolop(bop, t0, c);
    q[i] = boolop(bop, t1, c);
  }
  int s = x->nops;
  if (x->op[s].row >= 0) xstore(w->r[x->op[s].row], p, m);
  if (x->op[s + 1].row >= 0) xstore(w->r[x->op[s + 1].row], q, m);
}

/* set: the "true" value of the destination type for one (half of a) result */
static inline uint64_t set_one(int dt) {
  switch (dt) {
  case PTX_T_F32: return 0x3F800000u;
  case PTX_T_F16: case PTX_T_F16X2: return 0x3C00u;
  case PTX_T_BF16: case PTX_T_BF16X2: return 0x3F80u;
  default: return ~0ull;
  }
}
H(set_h) {
  const isa_insn *in = x->in;
  cmpinfo ci = cmp_info(in);
  const uint64_t *A = xsrc(w, x, 1), *B = xsrc(w, x, 2);
  const uint64_t *C = x->nops > 3 ? xsrc(w, x, 3) : A;
  uint64_t n = x->nops > 3 ? x->op[3].neg : 0;
  int bop = x->nops > 3 ? in->bop : 0;
  unsigned dw = (unsigned)ptx_type_bits((enum ptx_type)in->type);
  uint64_t one = set_one(in->type), dmask = dw >= 64 ? ~0ull : (1ull << dw) - 1, t[WARP_SIZE];
  uint64_t hone = ci.x2 ? one & 0xFFFFu : 0;
  FOR_LANES(i) {
    uint64_t c = (C[i] ^ n) & 1;
    uint64_t t0 = boolop(bop, (ci.mask >> cmp_rel(ci.ck, ci.W, A[i], B[i], 0, ci.ftz)) & 1, c);
    if (ci.x2) {
      uint64_t t1 = boolop(bop, (ci.mask >> cmp_rel(ci.ck, ci.W, A[i], B[i], 1, ci.ftz)) & 1, c);
      t[i] = xfit(x, 0, ((t0 ? hone : 0) | (t1 ? hone << 16 : 0)) & dmask);
    } else {
      t[i] = xfit(x, 0, (t0 ? one : 0) & dmask);
    }
  }
  xstore(xdst(w, x, 0), t, m);
}

/* ---- preparation ------------------------------------------------------------ */


/* Operand k as a spare slot s: a register row, or -1 for a sink. */
static int slot_from(emu *e, xinsn *x, const isa_opnd *o, int s) {
  if (s >= XOPS) return -1;
  xop *d = &x->op[s];
  memset(d, 0, sizeof *d);
  d->o = o;
  d->kind = o->kind;
  d->row = -1;
  if (o->kind == OK_SINK) return 0;
  if (o->kind != OK_REG) return -1;
  d->row = emu_row_of(e, x, o);
  d->bits = 1;
  return d->row >= 0 ? 0 : -1;
}
/* setp's destination p, p|q or _ into slots nops and nops+1. */
static int setp_slots(emu *e, xinsn *x) {
  int s = x->nops;
  if (s + 1 >= XOPS) return -1;
  const isa_opnd *o = x->op[0].o;
  if (!o) return -1;
  if (o->kind == OK_PAIR) {
    if (o->n != 2) return -1;
    return slot_from(e, x, &x->f->pool[o->v], s) || slot_from(e, x, &x->f->pool[o->v + 1], s + 1) ? -1 : 0;
  }
  static const isa_opnd sink = { .kind = OK_SINK };
  return slot_from(e, x, o, s) || slot_from(e, x, &sink, s + 1) ? -1 : 0;
}

static int is_int_t(int t) {
  switch (t) {
  case PTX_T_B16: case PTX_T_B32: case PTX_T_B64: case PTX_T_U16: case PTX_T_U32: case PTX_T_U64:
  case PTX_T_S16: case PTX_T_S32: case PTX_T_S64: return 1;
  default: return 0;
  }
}
/* Index of a floating-point type in the handler rows, or -1. */
static int fty(int t) {
  switch (t) {
  case PTX_T_F32: return 0;
  case PTX_T_F64: return 1;
  case PTX_T_F16: return 2;
  case PTX_T_F16X2: return 3;
  case PTX_T_BF16: return 4;
  case PTX_T_BF16X2: return 5;
  default: return -1;
  }
}

static int prep_cmp(emu *e, xinsn *x) {
  const isa_insn *in = x->in;
  int st = in->op == OP_SET ? in->type2 : in->type;
  int fs = fty(st);
  if (fs < 0 && !(in->op == OP_SET && is_int_t(st))) return -1;
  if (fs >= 0 ? !cmp_mask(in->cmp) : !cmp_info(in).mask) return -1;
  if (fs < 0 && in->cmp >= MOD_EQU) return -1;                 /* unordered tests need floats */
  if (x->nops > 3 && in->bop != MOD_AND && in->bop != MOD_OR && in->bop != MOD_XOR) return -1;
  if (in->op == OP_SETP) {
    if (setp_slots(e, x)) return -1;
    x->fn = setp_h;
    return 0;
  }
  int dt = in->type;
  if (xkind(x, 0) != OK_REG) return -1;
  if (fs < 0 && dt != PTX_T_F16 && dt != PTX_T_BF16) return -1;  /* integer sources: exec_int.c has the rest */
  int x2 = fs == 3 || fs == 5;
  switch (dt) {
  case PTX_T_U32: case PTX_T_S32: case PTX_T_B32:
    break;
  case PTX_T_U16: case PTX_T_S16: case PTX_T_B16: case PTX_T_F32: case PTX_T_F16: case PTX_T_BF16:
    if (x2) return -1;
    break;
  case PTX_T_F16X2: case PTX_T_BF16X2:
    if (!x2) return -1;
    break;
  default: return -1;
  }
  x->fn = set_h;
  return 0;
}

/* A float literal in a 16-bit float instruction (the assembler converts
 * only f32/f64 ones): its value rounded to the type, in a constant row. */
static int32_t konst(emu *e, uint64_t v) { return emu_konst_row(e, v); }
static int fix_half_imms(emu *e, xinsn *x, int fi) {
  if (fi < 2) return 0;
  int bf = fi >= 4, x2 = fi & 1;
  for (int k = 1; k < x->nops && k < XOPS; k++) {
    xop *o = &x->op[k];
    if (o->kind != OK_IMM || !o->o || !(o->o->flags & (OF_F32 | OF_F64))) continue;
    uint64_t h = fp_cvt((uint64_t)o->imm, (o->o->flags & OF_F32) ? FP_F32 : FP_F64, bf ? FP_BF16 : FP_F16, FP_RN, 0);
    uint64_t v = x2 ? h | h << 16 : h;
    int32_t r = konst(e, v);
    if (!r) return -1;
    o->row = r;
    o->imm = (int64_t)v;
  }
  return 0;
}

static int has_comp_mod(const isa_insn *in, int mod) {
  for (int i = 0; i < in->ncomps; i++)
    if ((in->comps[i] & ~ISA_COMP_JOINED) == ISA_COMP_MOD + mod) return 1;
  return 0;
}

int prep_fp(emu *e, xinsn *x) {
  const isa_insn *in = x->in;
  if (in->op >= OP_COUNT) return -1;
  if (in->op == OP_SETP || in->op == OP_SET) return prep_cmp(e, x);
  int fam = isa_ops[in->op].family;
  if (fam != F_ARITH && fam != F_SFU) return -1;
  int fi = fty(in->type);
  if (fi < 0 || xkind(x, 0) != OK_REG) return -1;
  uint32_t f = in->flags;
  int half = fi >= 2, f32 = fi == 0, f64 = fi == 1, rnd = in->rnd, approx = (f & IF_APPROX) != 0;
  int old = e->m->version < 14;             /* PTX ISA 1.0-1.3 defaults (see below) */
  if (rnd == RND_RS || rnd == RND_RNA) return -1;
  if (f & (IF_HI | IF_LO | IF_WIDE | IF_CC)) return -1;
  int op;
  switch (in->op) {
  case OP_ADD: op = O_ADD; break;
  case OP_SUB: op = O_SUB; break;
  case OP_MUL: op = O_MUL; break;
  case OP_FMA:
    /* fma.f32/.f64 need a rounding modifier; half forms are .rn */
    op = half && has_comp_mod(in, MOD_OOB) ? O_FMA_OOB : O_FMA;
    break;
  case OP_MAD:
    /* mad.rnd.f32 is fma.rnd.f32.  Without a rounding modifier (sm_1x PTX;
     * ptxas rejects it for sm_20+: "Rounding modifier required") the
     * sm_20+ code generators produced the fused form: take .rn. */
    if (half) return -1;
    op = O_FMA;
    break;
  case OP_DIV:
    if (half) return -1;
    if (f64) { if (approx || (f & IF_FULL)) return -1; op = O_DIV; break; }
    /* no .approx/.full/.rnd: PTX 1.0-1.3 meant div.approx.ftz.f32, later
     * versions require a modifier; take the IEEE .rn form there */
    op = approx ? O_DIVAPX : (f & IF_FULL) ? O_DIVFULL : rnd ? O_DIV : old ? O_DIVAPX : O_DIV;
    break;
  case OP_ABS: op = O_ABS; break;
  case OP_NEG: op = O_NEG; break;
  case OP_MIN: case OP_MAX:
    if (x->nops == 4) { if (!f32) return -1; op = in->op == OP_MIN ? O_MIN3 : O_MAX3; }
    else op = in->op == OP_MIN ? O_MIN : O_MAX;
    break;
  case OP_COPYSIGN:
    if (half) return -1;
    op = O_COPYSIGN;
    break;
  case OP_TESTP:
    if (half || xkind(x, 0) != OK_REG) return -1;
    x->fn = testp_h;
    return 0;
  case OP_RCP:
    if (half) return -1;
    if (f64) op = approx ? O_RCPAPX : O_RCP;        /* rcp.approx.ftz.f64 */
    else op = approx ? O_RCPAPX : rnd ? O_RCP : old ? O_RCPAPX : O_RCP;
    break;
  case OP_SQRT:
    if (half || (f64 && approx)) return -1;
    op = approx ? O_SQRTAPX : rnd ? O_SQRT : (old && f32) ? O_SQRTAPX : O_SQRT;
    break;
  case OP_RSQRT:
    if (half) return -1;
    op = O_RSQRT;
    break;
  case OP_SIN: case OP_COS: case OP_LG2:
    if (!f32) return -1;
    op = in->op == OP_SIN ? O_SIN : in->op == OP_COS ? O_COS : O_LG2;
    break;
  case OP_EX2:
    if (f64) return -1;
    op = O_EX2;
    break;
  case OP_TANH:
    if (f64) return -1;
    op = O_TANH;
    break;
  default: return -1;
  }
  /* .ftz only goes with f32 and f16 (the f64 approx forms read it too) */
  if ((f & IF_FTZ) && (fi == 4 || fi == 5) && op != O_EX2) return -1;
  /* ptxas orders the commutative operands of DADD/DMUL/DFMA by register
   * number, and which NaN an f64 operation returns depends on that order
   * (fp.h): model it, so NaN payloads come out as on the hardware. */
  if (f64 && (op == O_ADD || op == O_MUL || op == O_FMA) && xkind(x, 1) == OK_REG && xkind(x, 2) == OK_REG &&
      x->op[1].row > x->op[2].row) {
    xop t = x->op[1];
    x->op[1] = x->op[2];
    x->op[2] = t;
  }
  if (half && fix_half_imms(e, x, fi)) return -1;
  if (f32 && !(f & (IF_SAT | IF_RELU)) && (rnd == RND_NONE || rnd == RND_RN) && op <= O_FMA) {
    x->fn = tab_k[op][(f & IF_FTZ) != 0];           /* O_ADD..O_FMA are 0..3 */
    return 0;
  }
  x->fn = tab_op[op][fi];
  return 0;
}
