/* emu/exec_cvt.c - cvt between every pair of types, and cvt.pack (prep_cvt).
 *
 * The conversions themselves are emu/fp.c's (cvt_int_sat, cvt_float_to_int,
 * cvt_int_to_float, fp_cvt, fp_round_int), bit-exact to the H100; this file
 * picks the form at prepare time and applies it lane by lane.  The form's
 * parameters (formats, widths, signedness, rounding, flags) are packed into
 * the spare operand slot x->op[CVT_SLOT].imm, which the core leaves zeroed.
 *
 * Forms (d is operand 0, a operand 1, b operand 2):
 *   int <- int       truncation / sign or zero extension, .sat clamps
 *   int <- float     .rni/.rzi/.rmi/.rpi (a plain .rn/.rz/.rm/.rp is taken
 *                    the same way; none at all, which ptxas rejects, is .rzi),
 *                    always saturating, NaN -> 0 (see fp.h)
 *   float <- int     .rn/.rz/.rm/.rp (none: .rn), .sat
 *   float <- float   fp_cvt with .ftz/.sat/.relu/.satfinite; an integer
 *                    rounding on the same format is fp_round_int; the same
 *                    format without one is what ptxas emits (measured SASS):
 *                    cvt.f32.f32 and cvt.f64.f64 are plain moves (NaN
 *                    payloads kept), cvt{.ftz}{.sat}.f32.f32 is FADD
 *                    (canonical NaN), cvt{.sat}.f16.f16 is HADD2 (canonical
 *                    NaN, subnormals kept)
 *   x2 <- f32, f32   .f16x2/.bf16x2/.e4m3x2/.e5m2x2/.e2m3x2/.e3m2x2/.e2m1x2/
 *                    .ue8m0x2: a goes to the upper element, b to the lower
 *   x2 <- x2         .e4m3x2/.e5m2x2 <- .f16x2 (and .bf16x2), .f16x2 <- fp8/
 *                    fp6/fp4 pairs, .bf16x2 <- .ue8m0x2, .ue8m0x2 <- .bf16x2:
 *                    element by element, upper to upper
 * A destination register wider than the type gets the result sign-extended
 * for signed integer types and zero-extended otherwise.  .rs (stochastic
 * rounding, sm_100) is not implemented.
 *
 * cvt.pack.sat.{u16,s16,u8,s8,u4,s4}.s32{.b32} d, a, b{, c}: a and b are
 * clamped to the type, b goes to bits [size-1:0], a to [2size-1:size], and
 * the bits above come from the low bits of c (PTX ISA semantics).
 */
#include <stdlib.h>
#include <string.h>
#include "emu/emu.h"
#include "emu/fp.h"

#define H(n) static void n(warp *w, const xinsn *x, lanemask m)
#define CVT_SLOT (XOPS - 1)

/* Parameters of a prepared cvt. */
typedef struct cvtp {
  uint8_t sf, df;       /* enum fp_fmt of source / destination (element) */
  uint8_t sb, db;       /* source / destination (element) width in bits  */
  uint8_t ss, ds;       /* signedness of integer source / destination     */
  uint8_t rnd;          /* enum fp_rnd                                    */
  uint8_t fl;           /* FP_CVT_* flags, and CV_* below                 */
} cvtp;
enum { CV_SAT = 0x10, CV_FTZ = 0x20 };   /* .sat of int <- int / int <- float; .ftz of fp_round_int */

static inline cvtp params(const xinsn *x) {
  cvtp p;
  memcpy(&p, &x->op[CVT_SLOT].imm, sizeof p);
  return p;
}
static inline uint64_t maskb(unsigned b) { return b >= 64 ? ~0ull : (1ull << b) - 1; }
/* integer source value: the low sb bits, extended by signedness */
static inline uint64_t int_src(uint64_t v, unsigned sb, int ss) { return ss ? (uint64_t)sext(v, sb) : v & maskb(sb); }

H(cvt_ii) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t t[WARP_SIZE];
  int sat = (p.fl & CV_SAT) != 0;
  FOR_LANES(i) { t[i] = xfit(x, 0, cvt_int_sat(A[i], p.sb, p.ss, p.db, p.ds, sat)); }
  xstore(xdst(w, x, 0), t, m);
}
H(cvt_fi) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t t[WARP_SIZE], sm = maskb(p.sb);
  int ftz = (p.fl & CV_FTZ) != 0;
  FOR_LANES(i) { t[i] = xfit(x, 0, cvt_float_to_int(A[i] & sm, p.sf, p.db, p.ds, p.rnd, ftz)); }
  xstore(xdst(w, x, 0), t, m);
}
H(cvt_if) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t t[WARP_SIZE];
  int sat = (p.fl & FP_CVT_SAT) != 0;
  FOR_LANES(i) { t[i] = xfit(x, 0, cvt_int_to_float(int_src(A[i], p.sb, p.ss), p.ss, p.df, p.rnd, sat)); }
  xstore(xdst(w, x, 0), t, m);
}
H(cvt_ff) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t t[WARP_SIZE], sm = maskb(p.sb);
  unsigned fl = p.fl & 0xf;
  FOR_LANES(i) { t[i] = xfit(x, 0, fp_cvt(A[i] & sm, p.sf, p.df, p.rnd, fl)); }
  xstore(xdst(w, x, 0), t, m);
}
/* cvt.f32.f32 / cvt.f64.f64 without modifiers: the source bits unchanged */
H(cvt_mov) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t t[WARP_SIZE], sm = maskb(p.sb);
  FOR_LANES(i) { t[i] = xfit(x, 0, A[i] & sm); }
  xstore(xdst(w, x, 0), t, m);
}
/* cvt.{rni,rzi,rmi,rpi}{.ftz}{.sat}.fX.fX */
H(cvt_rint) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t t[WARP_SIZE], sm = maskb(p.sb);
  int ftz = (p.fl & CV_FTZ) != 0, sat = (p.fl & FP_CVT_SAT) != 0;
  FOR_LANES(i) { t[i] = xfit(x, 0, fp_round_int(A[i] & sm, p.sf, p.rnd, ftz, sat)); }
  xstore(xdst(w, x, 0), t, m);
}
/* two f32 sources into a packed destination: a upper, b lower */
H(cvt_pair) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1), *B = xsrc(w, x, 2);
  uint64_t t[WARP_SIZE], em = maskb(p.db);
  unsigned fl = p.fl & 0xf;
  FOR_LANES(i) {
    uint64_t hi = fp_cvt((uint32_t)A[i], FP_F32, p.df, p.rnd, fl) & em;
    uint64_t lo = fp_cvt((uint32_t)B[i], FP_F32, p.df, p.rnd, fl) & em;
    t[i] = xfit(x, 0, lo | hi << p.db);
  }
  xstore(xdst(w, x, 0), t, m);
}
/* packed pair to packed pair, element by element (sb/db: element widths
 * in the register, 8 for the fp6 formats, whose top two bits are zero) */
H(cvt_unpk) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t t[WARP_SIZE], em = maskb(p.db);
  unsigned fl = p.fl & 0xf;
  uint64_t sm = (p.sf == FP_E2M3 || p.sf == FP_E3M2) ? 0x3f : maskb(p.sb);
  FOR_LANES(i) {
    uint64_t lo = fp_cvt(A[i] & sm, p.sf, p.df, p.rnd, fl) & em;
    uint64_t hi = fp_cvt((A[i] >> p.sb) & sm, p.sf, p.df, p.rnd, fl) & em;
    t[i] = xfit(x, 0, lo | hi << p.db);
  }
  xstore(xdst(w, x, 0), t, m);
}

/* cvt.pack: type width in db, signedness in ds, c present in fl bit 0 */
H(cvt_pack) {
  cvtp p = params(x);
  const uint64_t *A = xsrc(w, x, 1), *B = xsrc(w, x, 2), *C = p.fl & 1 ? xsrc(w, x, 3) : A;
  unsigned n = p.db;
  int64_t lo = p.ds ? -((int64_t)1 << (n - 1)) : 0, hi = p.ds ? ((int64_t)1 << (n - 1)) - 1 : ((int64_t)1 << n) - 1;
  uint64_t em = maskb(n), t[WARP_SIZE];
  FOR_LANES(i) {
    int64_t a = sext(A[i], 32), b = sext(B[i], 32);
    a = a < lo ? lo : a > hi ? hi : a;
    b = b < lo ? lo : b > hi ? hi : b;
    uint64_t d = ((uint64_t)b & em) | ((uint64_t)a & em) << n;
    if ((p.fl & 1) && 2 * n < 32) d |= C[i] << 2 * n;
    t[i] = xfit(x, 0, d & 0xffffffffu);
  }
  xstore(xdst(w, x, 0), t, m);
}

/* ---- preparation ------------------------------------------------------------ */


/* Integer types: width and signedness. */
static int int_type(int t, unsigned *bits, int *sgn) {
  switch (t) {
  case PTX_T_U8: case PTX_T_B8: *bits = 8; *sgn = 0; return 1;
  case PTX_T_U16: case PTX_T_B16: *bits = 16; *sgn = 0; return 1;
  case PTX_T_U32: case PTX_T_B32: *bits = 32; *sgn = 0; return 1;
  case PTX_T_U64: case PTX_T_B64: *bits = 64; *sgn = 0; return 1;
  case PTX_T_S8: *bits = 8; *sgn = 1; return 1;
  case PTX_T_S16: *bits = 16; *sgn = 1; return 1;
  case PTX_T_S32: *bits = 32; *sgn = 1; return 1;
  case PTX_T_S64: *bits = 64; *sgn = 1; return 1;
  default: return 0;
  }
}
/* Scalar float types: format and width in the register. */
static int float_type(int t, unsigned *bits) {
  switch (t) {
  case PTX_T_F16: *bits = 16; return FP_F16;
  case PTX_T_BF16: *bits = 16; return FP_BF16;
  case PTX_T_TF32: *bits = 32; return FP_TF32;
  case PTX_T_F32: *bits = 32; return FP_F32;
  case PTX_T_F64: *bits = 64; return FP_F64;
  case PTX_T_E4M3: *bits = 8; return FP_E4M3;
  case PTX_T_E5M2: *bits = 8; return FP_E5M2;
  case PTX_T_E2M3: *bits = 8; return FP_E2M3;
  case PTX_T_E3M2: *bits = 8; return FP_E3M2;
  case PTX_T_E2M1: *bits = 4; return FP_E2M1;
  case PTX_T_UE8M0: *bits = 8; return FP_UE8M0;
  default: return -1;
  }
}
/* Packed pairs: element format and element width in the register. */
static int pair_type(int t, unsigned *ebits) {
  switch (t) {
  case PTX_T_F16X2: *ebits = 16; return FP_F16;
  case PTX_T_BF16X2: *ebits = 16; return FP_BF16;
  case PTX_T_E4M3X2: *ebits = 8; return FP_E4M3;
  case PTX_T_E5M2X2: *ebits = 8; return FP_E5M2;
  case PTX_T_E2M3X2: *ebits = 8; return FP_E2M3;
  case PTX_T_E3M2X2: *ebits = 8; return FP_E3M2;
  case PTX_T_E2M1X2: *ebits = 4; return FP_E2M1;
  case PTX_T_UE8M0X2: *ebits = 8; return FP_UE8M0;
  default: return -1;
  }
}
static int fp_rnd(int r, int dflt) {
  switch (r) {
  case RND_RN: return FP_RN;
  case RND_RZ: return FP_RZ;
  case RND_RM: return FP_RM;
  case RND_RP: return FP_RP;
  case RND_RNA: return FP_RNA;
  default: return dflt;
  }
}
/* the narrow formats always saturate to their finite range */
static int narrow_fmt(int f) { return f >= FP_E4M3 && f <= FP_E2M1; }

static void set_params(xinsn *x, cvtp p) {
  memset(&x->op[CVT_SLOT], 0, sizeof x->op[CVT_SLOT]);
  x->op[CVT_SLOT].row = -1;
  memcpy(&x->op[CVT_SLOT].imm, &p, sizeof p);
}

/* Second f32 source of the pair forms: the assembler converts float
 * literals only for the first source, so a literal here is rounded to f32
 * now (decimal and 0d literals, and integers, by value). */
static int32_t konst(emu *e, uint64_t v) { return emu_konst_row(e, v); }
static int f32_imm(emu *e, xinsn *x, int k) {
  xop *o = &x->op[k];
  if (o->kind != OK_IMM || !o->o || (o->o->flags & OF_F32)) return 0;
  uint32_t v;
  if (o->o->flags & OF_F64) v = (uint32_t)fp_cvt((uint64_t)o->imm, FP_F64, FP_F32, FP_RN, 0);
  else v = fp_f32_bits((float)o->imm);
  int32_t r = konst(e, v);
  if (!r) return -1;
  o->row = r;
  o->imm = v;
  return 0;
}

static int prep_pack(xinsn *x) {
  const isa_insn *in = x->in;
  unsigned n;
  int s;
  switch (in->type) {
  case PTX_T_U16: n = 16; s = 0; break;
  case PTX_T_S16: n = 16; s = 1; break;
  case PTX_T_U8: n = 8; s = 0; break;
  case PTX_T_S8: n = 8; s = 1; break;
  case PTX_T_U4: n = 4; s = 0; break;
  case PTX_T_S4: n = 4; s = 1; break;
  default: return -1;
  }
  if (in->type2 != PTX_T_S32 || xkind(x, 0) != OK_REG || x->nops < 3) return -1;
  if (n < 16 && x->nops != 4) return -1;
  cvtp p = { 0 };
  p.db = (uint8_t)n;
  p.ds = (uint8_t)s;
  p.fl = x->nops == 4 && n < 16;
  set_params(x, p);
  x->fn = cvt_pack;
  return 0;
}

int prep_cvt(emu *e, xinsn *x) {
  const isa_insn *in = x->in;
  if (in->op == OP_CVT_PACK) return prep_pack(x);
  if (in->op != OP_CVT || xkind(x, 0) != OK_REG || x->nops < 2 || x->nops > 3) return -1;
  if (in->rnd == RND_RS) return -1;
  uint32_t f = in->flags;
  int dt = in->type, st = in->type2, intr = (f & IF_INTRND) != 0;
  unsigned db = 0, sb = 0;
  int ds = 0, ss = 0;
  cvtp p = { 0 };
  p.fl = (uint8_t)(((f & IF_FTZ) ? FP_CVT_FTZ : 0) | ((f & IF_SAT) ? FP_CVT_SAT : 0) |
                   ((f & IF_RELU) ? FP_CVT_RELU : 0) | ((f & IF_SATFINITE) ? FP_CVT_SATFINITE : 0));
  int dfi = float_type(dt, &db), sfi = float_type(st, &sb);
  int dint = int_type(dt, &db, &ds), sint = int_type(st, &sb, &ss);
  unsigned deb = 0, seb = 0;
  int dpair = pair_type(dt, &deb), spair = pair_type(st, &seb);

  if (x->nops == 3) {                          /* d, a, b: a pair from two f32 */
    if (dpair < 0 || st != PTX_T_F32 || intr) return -1;
    if (f32_imm(e, x, 2)) return -1;
    p.df = (uint8_t)dpair;
    p.db = (uint8_t)deb;
    p.rnd = (uint8_t)fp_rnd(in->rnd, FP_RN);
    if (narrow_fmt(dpair)) p.fl |= FP_CVT_SATFINITE;
    set_params(x, p);
    x->fn = cvt_pair;
    return 0;
  }
  if (dint && sint) {
    p.sb = (uint8_t)sb; p.db = (uint8_t)db; p.ss = (uint8_t)ss; p.ds = (uint8_t)ds;
    p.fl = (f & IF_SAT) ? CV_SAT : 0;
    set_params(x, p);
    x->fn = cvt_ii;
    return 0;
  }
  if (dint && sfi >= 0) {
    p.sf = (uint8_t)sfi; p.sb = (uint8_t)sb; p.db = (uint8_t)db; p.ds = (uint8_t)ds;
    p.rnd = (uint8_t)fp_rnd(in->rnd, FP_RZ);
    p.fl = (f & IF_FTZ) ? CV_FTZ : 0;
    set_params(x, p);
    x->fn = cvt_fi;
    return 0;
  }
  if (dfi >= 0 && sint) {
    p.df = (uint8_t)dfi; p.sb = (uint8_t)sb; p.ss = (uint8_t)ss;
    p.rnd = (uint8_t)fp_rnd(in->rnd, FP_RN);
    set_params(x, p);
    x->fn = cvt_if;
    return 0;
  }
  if (dfi >= 0 && sfi >= 0) {
    p.sf = (uint8_t)sfi; p.df = (uint8_t)dfi; p.sb = (uint8_t)sb; p.db = (uint8_t)db;
    p.rnd = (uint8_t)fp_rnd(in->rnd, FP_RN);
    if (narrow_fmt(dfi)) p.fl |= FP_CVT_SATFINITE;
    if (dfi == sfi) {
      if (intr) {
        if (dfi != FP_F16 && dfi != FP_BF16 && dfi != FP_F32 && dfi != FP_F64) return -1;
        if (f & IF_FTZ) p.fl |= CV_FTZ;
        x->fn = cvt_rint;
      } else if ((dfi == FP_F32 && !(p.fl & (FP_CVT_FTZ | FP_CVT_SAT))) || (dfi == FP_F64 && !(p.fl & FP_CVT_SAT))) {
        x->fn = cvt_mov;
      } else {
        x->fn = cvt_ff;
      }
      set_params(x, p);
      return 0;
    }
    if (intr) return -1;                        /* integer rounding only within a format */
    set_params(x, p);
    x->fn = cvt_ff;
    return 0;
  }
  if (dpair >= 0 && spair >= 0) {
    p.sf = (uint8_t)spair; p.df = (uint8_t)dpair; p.sb = (uint8_t)seb; p.db = (uint8_t)deb;
    p.rnd = (uint8_t)fp_rnd(in->rnd, FP_RN);
    if (narrow_fmt(dpair)) p.fl |= FP_CVT_SATFINITE;
    set_params(x, p);
    x->fn = cvt_unpk;
    return 0;
  }
  return -1;
}
