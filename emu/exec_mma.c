/* emu/exec_mma.c - warp-level matrix instructions (tensor cores):
 *   mma.sync (every shape/type of PTX ISA 9.x that sm_90 runs), mma.sp,
 *   wmma.load/store/mma, ldmatrix, stmatrix, movmatrix, and the sm_90a
 *   warpgroup instructions wgmma.mma_async/fence/commit_group/wait_group.
 *
 * Every matrix instruction is done the same way: the fragments of the warp
 * are gathered into whole matrices A (MxK), B (KxN), C (MxN) through the
 * fragment layout of the instruction (lane, register, element) -> (row,
 * col); D = A*B + C is computed with the numerics of the H100 tensor cores;
 * D is scattered back to the lanes.  Lanes outside the guard mask still
 * contribute their registers (the instructions are .aligned: every lane
 * must execute them) but only lanes of the mask are written.
 *
 * Numerics (see tc_dot), all measured on an H100 (tests/exec/mma_*):
 * the tensor-core dot product multiplies f16/bf16/tf32/fp8 inputs exactly,
 * aligns the K products and the accumulator c to the largest exponent
 * E = max(ea+eb, ec) (exponents of the input formats, subnormals at emin),
 * truncates each toward zero to TC_FRAC (25) fraction bits below 2^E, adds
 * them exactly, and rounds the sum once: toward zero to f32, to nearest
 * even to f16.  tf32 inputs ignore their low 13 bits.  Forms that ptxas
 * builds from several instructions compose that step:
 *   mma.sync e4m3/e5m2: the inputs become f16, the k with (k/2) even and
 *     the k with (k/2) odd go through two f16 products (the first with a
 *     zero accumulator), then c is added by an IEEE add (f32 or f16);
 *   mma.m8n8k4 with an f32 result: an f32 fma chain, p0 + p1 + p2 + p3
 *     in that order, then + c, all rounded to nearest;
 *   wmma.m16n16k8 tf32: two k=4 products in k order;
 *   wgmma e4m3/e5m2: 13 fraction bits, and an f32 result keeps 13 bits.
 * f64 is a chain of IEEE fmas in k order; integer and b1 products are
 * exact (wrap, or .satfinite).
 *
 * wgmma: a warpgroup is 4 consecutive warps of the CTA (warp id % 4 gives
 * the quarter).  The core runs warps one after another, so instead of
 * waiting for the 4 warps, each warp computes its own 16 rows of the 64-row
 * D tile when it issues wgmma.mma_async: its A rows come from its own
 * registers or from the shared-memory descriptor, B comes from shared
 * memory (read at issue), and its accumulator registers are read and
 * written at issue.  This is a legal schedule of the asynchronous
 * operation (PTX forbids touching the accumulators or the shared inputs
 * before wgmma.wait_group), so fence/commit_group/wait_group are no-ops.
 */
#include <pthread.h>
#include <string.h>
#include <stdlib.h>
#include "emu/internal.h"
#include "emu/fp.h"
#include "memmodel/space.h"

/* ---------------------------------------------------------------------- */
/* Operands                                                               */
/* ---------------------------------------------------------------------- */

static const isa_opnd *opnd(const xinsn *x, int k) { return &x->f->ops[x->in->opi + (uint32_t)k]; }

#define MAXREGS 132          /* wgmma m64n256 f32: 128 registers */

/* The register elements of a vector (or single register) operand. */
typedef struct {
  int n;
  int32_t row[MAXREGS];      /* >= 0 register row; -1 immediate; -2 sink */
  int64_t imm[MAXREGS];
  uint8_t bits[MAXREGS];     /* register width */
} regvec;

static void get_regs(const warp *w, const xinsn *x, const isa_opnd *o, regvec *v) {
  const isa_opnd *el = o;
  int n = 1;
  if (o->kind == OK_VEC || o->kind == OK_LIST) { el = &x->f->pool[o->v]; n = o->n; }
  if (n > MAXREGS) n = MAXREGS;
  v->n = n;
  for (int j = 0; j < n; j++) {
    const isa_opnd *e = &el[j];
    v->imm[j] = 0;
    v->bits[j] = 64;
    if (e->kind == OK_REG || e->kind == OK_SREG) {
      v->row[j] = emu_row_of(w->e, x, e);
      if (e->kind == OK_REG) {
        int b = ptx_type_bits((enum ptx_type)x->f->regtype[e->v]);
        v->bits[j] = (uint8_t)(b > 64 || b <= 0 ? 64 : b);
      }
    } else if (e->kind == OK_IMM) {
      v->row[j] = -1;
      v->imm[j] = e->imm;
    } else {
      v->row[j] = -2;
    }
  }
}

static inline uint64_t rv_get(const warp *w, const regvec *v, int j, int lane) {
  if (j >= v->n) return 0;
  return v->row[j] >= 0 ? w->r[v->row[j]][lane] : (uint64_t)v->imm[j];
}

static inline void rv_set(warp *w, const regvec *v, int j, int lane, uint64_t val) {
  if (j >= v->n || v->row[j] < 0) return;
  unsigned b = v->bits[j];
  w->r[v->row[j]][lane] = b >= 64 ? val : val & ((1ull << b) - 1);
}

/* Value of a scalar operand (register, predicate or immediate) in a lane. */
static uint64_t scalar_val(const warp *w, const xinsn *x, const isa_opnd *o, int lane) {
  if (o->kind == OK_IMM) return (uint64_t)o->imm;
  int r = emu_row_of(w->e, x, o);
  if (r < 0) return 0;
  uint64_t v = w->r[r][lane];
  if (o->kind == OK_REG && x->f->regtype[o->v] == PTX_T_PRED) v = (v & 1) ^ ((o->flags & OF_NEG) ? 1 : 0);
  return v;
}

/* .row/.col in source order: which = 0 first, 1 second; 1 = row, 0 = col, -1 none. */
static int layout_mod(const isa_insn *in, int which) {
  int k = 0;
  for (int i = 0; i < in->ncomps; i++) {
    uint16_t c = in->comps[i];
    if (c == ISA_COMP_MOD + MOD_ROW || c == ISA_COMP_MOD + MOD_COL) {
      if (k == which) return c == ISA_COMP_MOD + MOD_ROW;
      k++;
    }
  }
  return -1;
}

/* ---------------------------------------------------------------------- */
/* Element formats                                                        */
/* ---------------------------------------------------------------------- */

enum efmt {
  E_NONE, E_F16, E_BF16, E_TF32, E_F32, E_F64, E_E4M3, E_E5M2,
  E_S8, E_U8, E_S4, E_U4, E_B1, E_S32
};

static int efmt_of(int t) {
  switch (t) {
  case PTX_T_F16: case PTX_T_F16X2: return E_F16;
  case PTX_T_BF16: case PTX_T_BF16X2: return E_BF16;
  case PTX_T_TF32: return E_TF32;
  case PTX_T_F32: return E_F32;
  case PTX_T_F64: return E_F64;
  case PTX_T_E4M3: return E_E4M3;
  case PTX_T_E5M2: return E_E5M2;
  case PTX_T_S8: return E_S8;
  case PTX_T_U8: return E_U8;
  case PTX_T_S4: return E_S4;
  case PTX_T_U4: return E_U4;
  case PTX_T_B1: return E_B1;
  case PTX_T_S32: return E_S32;
  default: return E_NONE;
  }
}

static int ebits_of(int f) {
  switch (f) {
  case E_F16: case E_BF16: return 16;
  case E_TF32: case E_F32: case E_S32: return 32;
  case E_F64: return 64;
  case E_E4M3: case E_E5M2: case E_S8: case E_U8: return 8;
  case E_S4: case E_U4: return 4;
  case E_B1: return 1;
  default: return 32;
  }
}

static bool is_int_fmt(int f) { return f == E_S8 || f == E_U8 || f == E_S4 || f == E_U4 || f == E_S32; }

/* A decoded floating-point element: value = (-1)^sign * sig * 2^x; fexp is
 * the exponent of the format (emin for subnormals). */
enum { FC_ZERO, FC_NUM, FC_INF, FC_NAN };
typedef struct { uint8_t cls, sign; int16_t fexp; int32_t x; uint64_t sig; } fnum;

static fnum fdecode(uint64_t bits, int f) {
  fnum r = { FC_ZERO, 0, 0, 0, 0 };
  int eb, mb;
  switch (f) {
  case E_F16: eb = 5; mb = 10; break;
  case E_BF16: eb = 8; mb = 7; break;
  case E_TF32: eb = 8; mb = 23; bits &= 0xFFFFE000u; break;   /* low 13 bits ignored */
  case E_F32: eb = 8; mb = 23; break;
  case E_E4M3: eb = 4; mb = 3; break;
  case E_E5M2: eb = 5; mb = 2; break;
  default: eb = 11; mb = 52; break;
  }
  uint64_t emask = (1u << eb) - 1, mmask = (1ull << mb) - 1;
  int bias = (1 << (eb - 1)) - 1;
  r.sign = (uint8_t)((bits >> (eb + mb)) & 1);
  uint64_t e = (bits >> mb) & emask, m = bits & mmask;
  if (f == E_E4M3) {
    if (e == emask && m == mmask) { r.cls = FC_NAN; return r; }
  } else if (e == emask) {
    r.cls = m ? FC_NAN : FC_INF;
    return r;
  }
  if (e == 0) {
    if (!m) return r;
    r.cls = FC_NUM; r.sig = m; r.fexp = (int16_t)(1 - bias); r.x = 1 - bias - mb;
    return r;
  }
  r.cls = FC_NUM; r.sig = m | (1ull << mb); r.fexp = (int16_t)((int)e - bias); r.x = (int)e - bias - mb;
  return r;
}

/* Round sign * mag * 2^x to a binary format (mb fraction bits, eb exponent
 * bits); rz: toward zero, else to nearest even.  Overflow gives infinity. */
static uint64_t fpack(int sign, uint64_t mag, int x, int mb, int eb, int rz) {
  uint64_t sbit = (uint64_t)sign << (eb + mb);
  if (!mag) return sbit;
  int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
  int nb = 64 - __builtin_clzll(mag);
  int e = x + nb - 1;
  int lsb = (e < emin ? emin : e) - mb;
  int sh = lsb - x;
  uint64_t q;
  if (sh <= 0) q = mag << -sh;
  else {
    uint64_t rem, half;
    if (sh >= 64) { q = 0; rem = mag; half = sh == 64 ? 1ull << 63 : 0; if (sh > 64) rem = rem ? 1 : 0; }
    else { q = mag >> sh; rem = mag & ((1ull << sh) - 1); half = 1ull << (sh - 1); }
    if (!rz && half && (rem > half || (rem == half && (q & 1)))) q++;
  }
  if (q >> (mb + 1)) { q >>= 1; lsb++; }
  uint64_t emax = (1u << eb) - 1;
  if (q < (1ull << mb)) return sbit | q;                       /* subnormal (or zero) */
  int64_t be = (int64_t)lsb + mb + bias;
  if (be >= (int64_t)emax) return sbit | (emax << mb);          /* overflow: infinity */
  return sbit | ((uint64_t)be << mb) | (q & ((1ull << mb) - 1));
}

/* Fraction bits kept below the alignment exponent in the multi-term adder
 * (wgmma with fp8 inputs: 13, and its f32 results keep 13 fraction bits). */
#define TC_FRAC 25
#define TC_FRAC_FP8 13

/* The tensor-core dot product: sum_i a[i]*b[i] + c, rounded to an f32
 * (out16 = 0, toward zero; out16 = 2: toward zero to 13 fraction bits) or
 * f16 (out16 = 1, nearest even) result.  c is an f32 (cf16 = 0) or f16
 * (cf16 = 1) bit pattern. */
static uint32_t tc_dot(const fnum *const *a, const fnum *const *b, int n, uint32_t cbits, int cf16, int out16, int frac) {
  fnum c = fdecode(cbits, cf16 ? E_F16 : E_F32);
  bool nan = c.cls == FC_NAN, pinf = c.cls == FC_INF && !c.sign, ninf = c.cls == FC_INF && c.sign;
  for (int i = 0; i < n; i++) {
    const fnum *p = a[i], *q = b[i];
    if (p->cls == FC_NAN || q->cls == FC_NAN) { nan = true; continue; }
    if (p->cls == FC_INF || q->cls == FC_INF) {
      if (p->cls == FC_ZERO || q->cls == FC_ZERO) { nan = true; continue; }
      if (p->sign ^ q->sign) ninf = true; else pinf = true;
    }
  }
  if (nan || (pinf && ninf)) return out16 == 1 ? FP16_CANON_NAN : FP32_CANON_NAN;
  if (pinf || ninf) return out16 == 1 ? (ninf ? 0xFC00u : 0x7C00u) : (ninf ? 0xFF800000u : 0x7F800000u);
  /* alignment exponent */
  int M = INT32_MIN;
  bool any = false, allneg = true;
  if (c.cls == FC_NUM) { M = c.fexp; any = true; }
  allneg = c.sign;
  for (int i = 0; i < n; i++) {
    const fnum *p = a[i], *q = b[i];
    allneg = allneg && (p->sign ^ q->sign);
    if (p->cls != FC_NUM || q->cls != FC_NUM) continue;
    int e = p->fexp + q->fexp;
    if (e > M) M = e;
    any = true;
  }
  if (!any) return (uint32_t)(allneg ? (out16 == 1 ? 0x8000u : 0x80000000u) : 0);
  int lsb = M - frac;
  int64_t s = 0;
  for (int i = 0; i < n; i++) {
    const fnum *p = a[i], *q = b[i];
    if (p->cls != FC_NUM || q->cls != FC_NUM) continue;
    uint64_t sig = p->sig * q->sig;
    int sh = p->x + q->x - lsb;
    uint64_t v = sh >= 0 ? sig << sh : (sh <= -64 ? 0 : sig >> -sh);
    s += (p->sign ^ q->sign) ? -(int64_t)v : (int64_t)v;
  }
  if (c.cls == FC_NUM) {
    int sh = c.x - lsb;
    uint64_t v = sh >= 0 ? c.sig << sh : (sh <= -64 ? 0 : c.sig >> -sh);
    s += c.sign ? -(int64_t)v : (int64_t)v;
  }
  int sign = s < 0;
  uint64_t mag = sign ? (uint64_t)(-s) : (uint64_t)s;
  if (!mag) return 0;
  if (out16 == 1) return (uint32_t)fpack(sign, mag, lsb, 10, 5, 0);
  uint32_t r = (uint32_t)fpack(sign, mag, lsb, 23, 8, 1);
  if (out16 == 2 && (r & 0x7F800000u) != 0x7F800000u) r &= ~0x3FFu;
  return r;
}

/* An fp8 element as the f16 it converts to exactly (for the f16 path). */
static fnum as_f16(fnum v) {
  if (v.cls != FC_NUM) return v;
  int e = v.x + 63 - __builtin_clzll(v.sig);       /* exponent of the leading bit */
  v.fexp = (int16_t)(e < -14 ? -14 : e);
  return v;
}

/* ---------------------------------------------------------------------- */
/* Matrix multiply-accumulate on whole matrices                          */
/* ---------------------------------------------------------------------- */

typedef struct {
  int M, N, K;
  int afmt, bfmt, cfmt, dfmt;   /* enum efmt */
  int bop;                      /* b1: MOD_XOR / MOD_AND */
  bool satf;
  int rnd;                      /* f64: enum fp_rnd */
  bool nega, negb;              /* wgmma imm-scale-a/b = -1 */
  int num;                      /* enum tc_num: how the products are put together */
  const uint8_t *sel;           /* mma.sp: M x K flags of the elements of A that exist */
} mspec;

enum tc_num {
  TCN_BLOCK,        /* one tensor-core dot product over K                     */
  TCN_FP8_HMMA,     /* mma.sync fp8: two f16 products over k/2 even/odd + add */
  TCN_FFMA,         /* mma.m8n8k4 f32 result: f32 fma chain, then + c         */
  TCN_K4,           /* wmma.m16n16k8 tf32: k=4 products in k order            */
  TCN_QGMMA         /* wgmma fp8: 13 fraction bits, f32 results keep 13 bits   */
};

/* Scratch matrices (element bit patterns), big enough for wgmma m64n256k256 b1
 * per warp (16 rows). */
#define MAX_AK (16 * 256)
#define MAX_BK (256 * 256)
#define MAX_CD (16 * 256)
typedef struct {
  uint64_t A[MAX_AK], B[MAX_BK], C[MAX_CD], D[MAX_CD];
  fnum fa[MAX_AK], fb[MAX_BK];
} mscratch;
static _Thread_local mscratch *scr;
/* a thread's scratch is freed when the thread ends (the timing model's
 * worker threads end with their launch) */
static pthread_key_t scr_key;
static pthread_once_t scr_once = PTHREAD_ONCE_INIT;
static bool scr_keyed;
static void scr_key_make(void) { scr_keyed = pthread_key_create(&scr_key, free) == 0; }

static mscratch *scratch(warp *w, const xinsn *x, lanemask m) {
  if (!scr) {
    pthread_once(&scr_once, scr_key_make);
    scr = calloc(1, sizeof *scr);
    if (scr && scr_keyed) pthread_setspecific(scr_key, scr);
  }
  if (!scr) emu_fault_at(w, x, __builtin_ctz(m), FAULT_MEMORY, "out of host memory for a matrix instruction");
  return scr;
}

static int64_t ival(uint64_t v, int f) {
  switch (f) {
  case E_S8: return sext(v, 8);
  case E_U8: return (int64_t)(v & 0xff);
  case E_S4: return sext(v, 4);
  case E_U4: return (int64_t)(v & 0xf);
  default: return (int64_t)(v & 1);
  }
}

/* D[m][n] = sum_k A[m][k] * B[k][n] + C[m][n]; matrices row-major in s. */
static void mma_compute(const mspec *sp, mscratch *s) {
  int M = sp->M, N = sp->N, K = sp->K;
  if (sp->afmt == E_F64) {
    for (int m = 0; m < M; m++)
      for (int n = 0; n < N; n++) {
        uint64_t d = s->C[m * N + n];
        for (int k = 0; k < K; k++) d = fp64_fma_dir(s->A[m * K + k], s->B[k * N + n], d, sp->rnd);
        s->D[m * N + n] = d;
      }
    return;
  }
  if (sp->afmt == E_B1) {
    /* A rows and B columns as bit strings of K bits */
    for (int m = 0; m < M; m++)
      for (int n = 0; n < N; n++) {
        int64_t acc = (int32_t)s->C[m * N + n];
        for (int k = 0; k < K; k++) {
          uint64_t a = s->A[m * K + k] & 1, b = s->B[k * N + n] & 1;
          acc += (int64_t)(sp->bop == MOD_XOR ? (a ^ b) : (a & b));
        }
        s->D[m * N + n] = (uint32_t)acc;
      }
    return;
  }
  if (is_int_fmt(sp->afmt)) {
    for (int m = 0; m < M; m++)
      for (int n = 0; n < N; n++) {
        int64_t acc = (int32_t)s->C[m * N + n];
        for (int k = 0; k < K; k++) acc += ival(s->A[m * K + k], sp->afmt) * ival(s->B[k * N + n], sp->bfmt);
        if (sp->satf) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        s->D[m * N + n] = (uint32_t)acc;
      }
    return;
  }
  /* floating point */
  for (int i = 0; i < M * K; i++) { s->fa[i] = fdecode(s->A[i], sp->afmt); if (sp->nega) s->fa[i].sign ^= 1; }
  for (int i = 0; i < K * N; i++) { s->fb[i] = fdecode(s->B[i], sp->bfmt); if (sp->negb) s->fb[i].sign ^= 1; }
  int cf16 = sp->cfmt == E_F16, out16 = sp->dfmt == E_F16;
  const fnum *pa[256], *pb[256];
  int kk = K > 256 ? 256 : K;
  if (sp->num == TCN_FP8_HMMA) {
    for (int i = 0; i < M * K; i++) s->fa[i] = as_f16(s->fa[i]);
    for (int i = 0; i < K * N; i++) s->fb[i] = as_f16(s->fb[i]);
  }
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      uint32_t c = (uint32_t)s->C[m * N + n], d;
      switch (sp->num) {
      case TCN_FP8_HMMA: {
        /* products of k = 0,1,4,5,... then of k = 2,3,6,7,..., each an f16-input
         * tensor-core product (the first from a zero accumulator), then + c */
        uint32_t part = 0;
        for (int h = 0; h < 2; h++) {
          int j = 0;
          for (int k = 0; k < kk; k++)
            if (((k >> 1) & 1) == h) { pa[j] = &s->fa[m * K + k]; pb[j] = &s->fb[k * N + n]; j++; }
          part = tc_dot(pa, pb, j, part, out16, out16, TC_FRAC);
        }
        d = out16 ? f16_add((uint16_t)part, (uint16_t)c, FP_RN, 0, 0) : f32_add_rn(part, c, 0, 0);
        break;
      }
      case TCN_FFMA: {
        /* f16 products are exact in f32 */
        uint32_t acc = 0;
        for (int k = 0; k < kk; k++) {
          uint32_t a = cvt_f16_to_f32((uint16_t)s->A[m * K + k]), b = cvt_f16_to_f32((uint16_t)s->B[k * N + n]);
          acc = k == 0 ? f32_mul_rn(a, b, 0, 0) : f32_fma_rn(a, b, acc, 0, 0);
        }
        d = f32_add_rn(acc, cf16 ? cvt_f16_to_f32((uint16_t)c) : c, 0, 0);
        break;
      }
      case TCN_K4: {
        d = c;
        for (int k0 = 0; k0 < kk; k0 += 4) {
          int j = 0;
          for (int k = k0; k < k0 + 4 && k < kk; k++, j++) { pa[j] = &s->fa[m * K + k]; pb[j] = &s->fb[k * N + n]; }
          d = tc_dot(pa, pb, j, d, k0 ? out16 : cf16, out16, TC_FRAC);
        }
        break;
      }
      default: {
        int j = 0;
        for (int k = 0; k < kk; k++)
          if (!sp->sel || sp->sel[m * K + k]) { pa[j] = &s->fa[m * K + k]; pb[j] = &s->fb[k * N + n]; j++; }
        if (sp->num == TCN_QGMMA) d = tc_dot(pa, pb, j, c, cf16, out16 ? 1 : 2, TC_FRAC_FP8);
        else d = tc_dot(pa, pb, j, c, cf16, out16, TC_FRAC);
        break;
      }
      }
      s->D[m * N + n] = d;
    }
}

/* ---------------------------------------------------------------------- */
/* Fragment layouts                                                       */
/* ---------------------------------------------------------------------- */

/* A layout maps (lane, register j, element e of the register) -> (row, col). */
typedef void (*layfn)(int lane, int j, int e, int per, int *r, int *c);

/* mma.m16n8kK / m8n8kK multiplicand A (per = elements per 32-bit register). */
static void lay_A(int lane, int j, int e, int per, int *r, int *c) {
  int g = lane >> 2, t = lane & 3;
  *r = g + 8 * (j & 1);
  *c = (j >> 1) * 4 * per + t * per + e;
}
/* multiplicand B */
static void lay_B(int lane, int j, int e, int per, int *r, int *c) {
  int g = lane >> 2, t = lane & 3;
  *r = j * 4 * per + t * per + e;
  *c = g;
}
/* accumulator C/D: 16x8 blocks side by side along N (wgmma: N/8 blocks) */
static void lay_C(int lane, int j, int e, int per, int *r, int *c) {
  int g = lane >> 2, t = lane & 3;
  int i = j * per + e, blk = i >> 2;
  i &= 3;
  *r = g + 8 * (i >> 1);
  *c = blk * 8 + t * 2 + (i & 1);
}
/* Volta-style mma.m8n8k4 .f16: lanes 4q..4q+3 (low group) and 16+4q..16+4q+3
 * (high group) hold the 8x8x4 product q; the high group has rows (A, C) or
 * columns (B) 4..7.  The caller gathers one q at a time. */
static void lay_884_A_row(int lane, int j, int e, int per, int *r, int *c) {
  int i = j * per + e;
  *r = (lane & 3) + (lane >= 16 ? 4 : 0);
  *c = i;
}
static void lay_884_A_col(int lane, int j, int e, int per, int *r, int *c) {
  int i = j * per + e;
  *r = (i & 3) + (lane >= 16 ? 4 : 0);
  *c = lane & 3;
}
static void lay_884_B_row(int lane, int j, int e, int per, int *r, int *c) {
  int i = j * per + e;
  *r = lane & 3;
  *c = i + (lane >= 16 ? 4 : 0);
}
static void lay_884_B_col(int lane, int j, int e, int per, int *r, int *c) {
  int i = j * per + e;
  *r = i;
  *c = (lane & 3) + (lane >= 16 ? 4 : 0);
}
static void lay_884_C16(int lane, int j, int e, int per, int *r, int *c) {
  int i = j * per + e;
  *r = (lane & 3) + (lane >= 16 ? 4 : 0);
  *c = i;
}
static void lay_884_C32(int lane, int j, int e, int per, int *r, int *c) {
  int i = j * per + e;
  *r = (lane & 1) + (i & 2) + (lane >= 16 ? 4 : 0);
  *c = (i & 4) + (lane & 2) + (i & 1);
}

/* Gather a fragment into the row-major matrix mat (cols columns): nregs
 * registers of ebits-wide elements of the lanes in 'lanes'. */
static void gather(const warp *w, const regvec *v, int nregs, int ebits, layfn lay, uint64_t *mat, int cols,
                   uint32_t lanes) {
  int per = ebits >= 32 ? 1 : 32 / ebits;
  uint64_t emask = ebits >= 64 ? ~0ull : (1ull << ebits) - 1;
  for (int lane = 0; lane < WARP_SIZE; lane++) {
    if (!(lanes >> lane & 1)) continue;
    for (int j = 0; j < nregs; j++) {
      uint64_t val = rv_get(w, v, j, lane);
      for (int e = 0; e < per; e++) {
        int r, c;
        lay(lane, j, e, per, &r, &c);
        mat[r * cols + c] = ebits >= 64 ? val : (val >> (e * ebits)) & emask;
      }
    }
  }
}

/* Scatter D to the registers of the lanes in both 'lanes' and m. */
static void scatter(warp *w, const regvec *v, int nregs, int ebits, layfn lay, const uint64_t *mat, int cols,
                    uint32_t lanes, lanemask m) {
  int per = ebits >= 32 ? 1 : 32 / ebits;
  uint64_t emask = ebits >= 64 ? ~0ull : (1ull << ebits) - 1;
  for (int lane = 0; lane < WARP_SIZE; lane++) {
    if (!(lanes >> lane & 1) || !(m >> lane & 1)) continue;
    for (int j = 0; j < nregs; j++) {
      uint64_t val = 0;
      for (int e = 0; e < per; e++) {
        int r, c;
        lay(lane, j, e, per, &r, &c);
        val |= (mat[r * cols + c] & emask) << (ebits >= 64 ? 0 : e * ebits);
      }
      rv_set(w, v, j, lane, val);
    }
  }
}

/* ---------------------------------------------------------------------- */
/* mma.sync                                                               */
/* ---------------------------------------------------------------------- */

static int regs_for(int rows, int cols, int ebits) {
  int per = ebits >= 32 ? 1 : 32 / ebits;
  return rows * cols / WARP_SIZE / per;
}

static void h_mma(warp *w, const xinsn *x, lanemask m) {
  if (!m) return;
  const isa_insn *in = x->in;
  mscratch *s = scratch(w, x, m);
  if (!s) return;
  mspec sp = { 0 };
  sp.M = in->shape_m; sp.N = in->shape_n; sp.K = in->shape_k;
  sp.dfmt = efmt_of(in->type); sp.afmt = efmt_of(in->type2); sp.bfmt = efmt_of(in->type3); sp.cfmt = efmt_of(in->type4);
  if (sp.dfmt == E_S32) sp.cfmt = E_S32;
  sp.bop = in->bop;
  sp.satf = (in->flags & IF_SATFINITE) != 0;
  sp.rnd = FP_RN;
  regvec rv[4], *vd = &rv[0], *va = &rv[1], *vb = &rv[2], *vc = &rv[3];
  get_regs(w, x, opnd(x, 0), vd);
  get_regs(w, x, opnd(x, 1), va);
  get_regs(w, x, opnd(x, 2), vb);
  get_regs(w, x, opnd(x, 3), vc);
  int ab = ebits_of(sp.afmt), bb = ebits_of(sp.bfmt), cb = ebits_of(sp.cfmt), db = ebits_of(sp.dfmt);
  if (sp.afmt == E_E4M3 || sp.afmt == E_E5M2) sp.num = TCN_FP8_HMMA;
  if (sp.M == 8 && sp.N == 8 && sp.K == 4 && sp.afmt == E_F16) {
    /* Volta-style: four 8x8x4 products, one per quad pair */
    if (sp.dfmt == E_F32) sp.num = TCN_FFMA;
    int al = layout_mod(in, 0), bl = layout_mod(in, 1);
    layfn la = al == 0 ? lay_884_A_col : lay_884_A_row, lb = bl == 1 ? lay_884_B_row : lay_884_B_col;
    layfn lc = sp.cfmt == E_F16 ? lay_884_C16 : lay_884_C32, ld = sp.dfmt == E_F16 ? lay_884_C16 : lay_884_C32;
    for (int q = 0; q < 4; q++) {
      uint32_t lanes = (0xFu << (4 * q)) | (0xFu << (16 + 4 * q));
      gather(w, va, 2, 16, la, s->A, 4, lanes);
      gather(w, vb, 2, 16, lb, s->B, 8, lanes);
      gather(w, vc, sp.cfmt == E_F16 ? 4 : 8, cb, lc, s->C, 8, lanes);
      mma_compute(&sp, s);
      scatter(w, vd, sp.dfmt == E_F16 ? 4 : 8, db, ld, s->D, 8, lanes, m);
    }

    return;
  }
  if (sp.afmt == E_F64) {
    ab = bb = cb = db = 64;
  }
  gather(w, va, regs_for(sp.M, sp.K, ab), ab, lay_A, s->A, sp.K, FULL_MASK);
  gather(w, vb, regs_for(sp.K, sp.N, bb), bb, lay_B, s->B, sp.N, FULL_MASK);
  gather(w, vc, regs_for(sp.M, sp.N, cb), cb, lay_C, s->C, sp.N, FULL_MASK);
  mma_compute(&sp, s);
  scatter(w, vd, regs_for(sp.M, sp.N, db), db, lay_C, s->D, sp.N, FULL_MASK, m);

}


/* ---------------------------------------------------------------------- */
/* mma.sp (f16 / bf16, m16n8k16 and m16n8k32)                             */
/* ---------------------------------------------------------------------- */

/* A holds the two non-zero elements of each 4-wide chunk of a row: register
 * j of lane (g, t) has row g + 8*(j&1), chunk t + 4*(j>>1), its halves the
 * chunk's first and second element.  The metadata of row r, chunk c is the
 * nibble at bit 16*(r >= 8) + 4*(c % 4) of the e operand of lane
 * 4g + sel (K = 16) or 4g + 2*sel + c/4 (K = 32); its low two bits index the
 * first element in the chunk, its high two bits the second.  B and C/D are
 * as for the dense shapes.  (Measured on an H100: tests/exec/mma_sp.) */
static void h_mma_sp(warp *w, const xinsn *x, lanemask m) {
  if (!m) return;
  const isa_insn *in = x->in;
  mscratch *s = scratch(w, x, m);
  if (!s) return;
  mspec sp = { 0 };
  sp.M = 16; sp.N = 8; sp.K = in->shape_k;
  sp.dfmt = efmt_of(in->type); sp.afmt = efmt_of(in->type2); sp.bfmt = efmt_of(in->type3); sp.cfmt = efmt_of(in->type4);
  regvec rv[4], *vd = &rv[0], *va = &rv[1], *vb = &rv[2], *vc = &rv[3];
  get_regs(w, x, opnd(x, 0), vd);
  get_regs(w, x, opnd(x, 1), va);
  get_regs(w, x, opnd(x, 2), vb);
  get_regs(w, x, opnd(x, 3), vc);
  const isa_opnd *eo = opnd(x, 4);
  int sel = (int)(scalar_val(w, x, opnd(x, 5), __builtin_ctz(m)) & 3);
  int K = sp.K;
  uint8_t selm[16 * 32];
  memset(selm, 0, sizeof selm);
  memset(s->A, 0, sizeof s->A[0] * (size_t)(16 * K));
  int na = K / 8;
  for (int lane = 0; lane < WARP_SIZE; lane++) {
    int g = lane >> 2, t = lane & 3;
    for (int j = 0; j < na; j++) {
      uint64_t v = rv_get(w, va, j, lane);
      int row = g + 8 * (j & 1), chunk = t + 4 * (j >> 1);
      int ml = 4 * g + (K == 16 ? sel : 2 * sel + chunk / 4);
      uint32_t meta = (uint32_t)scalar_val(w, x, eo, ml);
      uint32_t nib = (meta >> (16 * (row >= 8) + 4 * (chunk % 4))) & 15;
      for (int h = 0; h < 2; h++) {
        int k = 4 * chunk + (int)((nib >> (2 * h)) & 3);
        s->A[row * K + k] = (v >> (16 * h)) & 0xFFFF;
        selm[row * K + k] = 1;
      }
    }
  }
  sp.sel = selm;
  gather(w, vb, regs_for(K, 8, 16), 16, lay_B, s->B, 8, FULL_MASK);
  gather(w, vc, regs_for(16, 8, ebits_of(sp.cfmt)), ebits_of(sp.cfmt), lay_C, s->C, 8, FULL_MASK);
  mma_compute(&sp, s);
  scatter(w, vd, regs_for(16, 8, ebits_of(sp.dfmt)), ebits_of(sp.dfmt), lay_C, s->D, 8, FULL_MASK, m);

}

/* ---------------------------------------------------------------------- */
/* wmma                                                                   */
/* ---------------------------------------------------------------------- */

/* wmma fragments.  PTX leaves their layout opaque; these are the layouts
 * ptxas uses on sm_90, measured on an H100 (tests/exec/mma_wmma_layout: the
 * register images wmma.load makes of matrices of distinct elements, and the
 * memory wmma.store.d makes of distinct registers).  They do not depend on
 * the .row/.col memory layout.  Element i of a fragment is in register
 * i / per at bit (i % per) * width; g = lane / 4, t = lane % 4:
 *   16-bit A (MxK, K = 16): M = 16: row g + 8*((i>>1)&1), col 2t + (i&1) + 8*((i>>2)&1)
 *                           M = 32: the same + 16*(i>>3);  M = 8: row g, col 2t + (i&1) + 8*(i>>1)
 *   16-bit B (KxN):  N = 16: row 2t + (i&1) + 8*((i>>1)&1), col g + 8*(i>>2)
 *                    N = 8:  row 2t + (i&1) + 8*(i>>1), col g
 *                    N = 32: row 2t + (i&1) + 8*((i>>2)&1), col g + 8*((i>>1)&1) + 16*(i>>3)
 *   8-bit A: row g + 8*(i>>2), col 4t + (i&3);  8-bit B: row 4t + (i&3), col g + 8*(i>>2)
 *   tf32 A: row g + 8*(i&1), col t + 4*(i>>1);  tf32 B: row t + 4*(i&1), col g + 8*(i>>1)
 *   f64 / s4 / b1 (m8n8): A row g, col t*w + i;  B row t*w + i, col g  (w = 1, 8, 32)
 *   C/D: m16n16: row g + 8*((i>>1)&1), col 2t + (i&1) + 8*(i>>2)
 *        m32n8:  row g + 8*(i>>1), col 2t + (i&1);  m8n32: row 2t + (i&1), col g + 8*(i>>1)
 *        m8n8:   row g, col 2t + i
 * (m8n32k16 is the transposed m32n8k16.)  f16 A/B fragments always have 8
 * registers: a fragment with fewer distinct elements repeats them. */
enum { WA, WB, WC };

typedef struct {
  int rows, cols;        /* the matrix this fragment holds */
  int nregs, ebits;
  layfn lay;
} wfrag;

static _Thread_local int w_m, w_n, w_k, w_which, w_ebits;   /* the fragment being laid out */
/* The memory accesses of a 16-bit A fragment of a column-major matrix, or
 * B of a row-major one: the registers hold the layouts below whatever the
 * memory layout (measured), so a register's pair of elements runs across
 * the matrix's contiguous dimension; ptxas loads 32-bit words along it and
 * regroups the halves (PRMT): the requests are those of the transposed
 * layout (Nsight Compute on the H100, tests/golden/lab_gemm: a row-major B
 * fragment of m16n16k16 loads in 4 requests of 8 sectors, as A's do). */
static _Thread_local int w_trans;

static void lay_wmma(int lane, int j, int e, int per, int *r, int *c) {
  int g = lane >> 2, t = lane & 3;
  int rows = w_which == WA ? w_m : w_which == WB ? w_k : w_m;
  int cols = w_which == WA ? w_k : w_n;
  int u = rows * cols / WARP_SIZE;                 /* distinct elements per lane */
  int i = (j * per + e) % (u ? u : 1);
  if (w_which == WC) {
    if (w_m == 8 && w_n == 8) { *r = g; *c = 2 * t + i; }
    else if (w_m == 32) { *r = g + 8 * (i >> 1); *c = 2 * t + (i & 1); }
    else if (w_m == 8) { *r = 2 * t + (i & 1); *c = g + 8 * (i >> 1); }
    else { *r = g + 8 * ((i >> 1) & 1); *c = 2 * t + (i & 1) + 8 * (i >> 2); }
    return;
  }
  bool a = w_which == WA;
  switch (w_ebits) {
  case 16:
    if (w_trans && a) {
      if (w_m == 8) { *r = 2 * t + (i & 1); *c = g + 8 * (i >> 1); }
      else { *r = 2 * t + (i & 1) + 8 * ((i >> 2) & 1) + 16 * (i >> 3); *c = g + 8 * ((i >> 1) & 1); }
    } else if (w_trans) {
      if (w_n == 8) { *r = g + 8 * (i >> 1); *c = 2 * t + (i & 1); }
      else if (w_n == 16) { *r = g + 8 * ((i >> 1) & 1); *c = 2 * t + (i & 1) + 8 * (i >> 2); }
      else { *r = g + 8 * ((i >> 2) & 1); *c = 2 * t + (i & 1) + 8 * ((i >> 1) & 1) + 16 * (i >> 3); }
    } else if (a) {
      if (w_m == 8) { *r = g; *c = 2 * t + (i & 1) + 8 * (i >> 1); }
      else { *r = g + 8 * ((i >> 1) & 1) + 16 * (i >> 3); *c = 2 * t + (i & 1) + 8 * ((i >> 2) & 1); }
    } else {
      if (w_n == 8) { *r = 2 * t + (i & 1) + 8 * (i >> 1); *c = g; }
      else if (w_n == 16) { *r = 2 * t + (i & 1) + 8 * ((i >> 1) & 1); *c = g + 8 * (i >> 2); }
      else { *r = 2 * t + (i & 1) + 8 * ((i >> 2) & 1); *c = g + 8 * ((i >> 1) & 1) + 16 * (i >> 3); }
    }
    return;
  case 8:
    if (a) { *r = g + 8 * (i >> 2); *c = 4 * t + (i & 3); }
    else { *r = 4 * t + (i & 3); *c = g + 8 * (i >> 2); }
    return;
  case 32:                                         /* tf32 */
    if (a) { *r = g + 8 * (i & 1); *c = t + 4 * (i >> 1); }
    else { *r = t + 4 * (i & 1); *c = g + 8 * (i >> 1); }
    return;
  default: {                                       /* f64, s4/u4, b1: the m8n8 mma layouts */
    int w = w_ebits == 64 ? 1 : w_ebits == 4 ? 8 : 32;
    if (a) { *r = g; *c = t * w + i; }
    else { *r = t * w + i; *c = g; }
    return;
  }
  }
}

/* lay_wmma with each register's pair along the other dimension (w_trans). */
static void lay_wmma_trans(int lane, int j, int e, int per, int *r, int *c) {
  w_trans = 1;
  lay_wmma(lane, j, e, per, r, c);
  w_trans = 0;
}

/* Select the fragment (also sets the layout state for lay_wmma). */
static void wmma_frag(int which, int M, int N, int K, int f, wfrag *fr) {
  w_m = M; w_n = N; w_k = K; w_which = which;
  int eb = ebits_of(f);
  w_ebits = eb;
  fr->ebits = eb;
  fr->lay = lay_wmma;
  if (which == WA) { fr->rows = M; fr->cols = K; }
  else if (which == WB) { fr->rows = K; fr->cols = N; }
  else { fr->rows = M; fr->cols = N; }
  int per = eb >= 32 ? 1 : 32 / eb;
  fr->nregs = fr->rows * fr->cols / WARP_SIZE / per;
  if (f == E_F16 && which != WC) fr->nregs = 8;    /* always 8 registers */
}

/* shape of a wmma instruction */
static void wmma_shape(const isa_insn *in, int *M, int *N, int *K) { *M = in->shape_m; *N = in->shape_n; *K = in->shape_k; }

/* Per-lane byte address of element (r, c) of a wmma matrix in memory. */
static uint64_t welem_off(int r, int c, int rowmajor, uint64_t stride, int ebits, int *bit) {
  uint64_t idx = rowmajor ? (uint64_t)r * stride + (uint64_t)c : (uint64_t)c * stride + (uint64_t)r;
  uint64_t bitpos = idx * (uint64_t)ebits;
  *bit = (int)(bitpos & 7);
  return bitpos >> 3;
}

static void h_wmma_ldst(warp *w, const xinsn *x, lanemask m) {
  if (!m) return;
  const isa_insn *in = x->in;
  bool store = in->op == OP_WMMA_STORE_D;
  int which = in->op == OP_WMMA_LOAD_A ? WA : in->op == OP_WMMA_LOAD_B ? WB : WC;
  int M, N, K;
  wmma_shape(in, &M, &N, &K);
  int f = efmt_of(in->type);
  if (f == E_NONE) f = E_F32;
  wfrag fr;
  int rowmajor = layout_mod(in, 0) != 0;
  wmma_frag(which, M, N, K, f, &fr);
  bool trans = fr.ebits == 16 && (which == WA ? !rowmajor : which == WB && rowmajor);
  regvec rv, *v = &rv;
  get_regs(w, x, opnd(x, store ? 1 : 0), v);
  const isa_opnd *ao = opnd(x, store ? 0 : 1);
  uint64_t stride[WARP_SIZE];
  uint64_t defstride = rowmajor ? (uint64_t)fr.cols : (uint64_t)fr.rows;
  if (in->nops >= 3) {
    const isa_opnd *so = opnd(x, 2);
    FOR_LANES(i) stride[i] = (uint32_t)scalar_val(w, x, so, i);
  } else FOR_LANES(i) stride[i] = defstride;
  uint64_t base[WARP_SIZE], a[WARP_SIZE];
  uint8_t symspace, *p[WARP_SIZE], kind[WARP_SIZE];
  emu_lane_addrs(w, x, ao, m, base, &symspace);
  int eb = fr.ebits, per = eb >= 32 ? 1 : 32 / eb;
  uint32_t esize = eb >= 8 ? (uint32_t)eb / 8 : 1;
  uint64_t emask = eb >= 64 ? ~0ull : (1ull << eb) - 1;
  int nreg = fr.nregs;
  uint64_t vals[MAXREGS][WARP_SIZE];
  if (store) FOR_LANES(i) for (int j = 0; j < nreg; j++) vals[j][i] = rv_get(w, v, j, i);
  else memset(vals, 0, sizeof vals[0] * (size_t)nreg);
  uint64_t counted[64];
  int ncounted = 0;
  for (int j = 0; j < nreg; j++) {
    for (int e = 0; e < per; e++) {
      int bit[WARP_SIZE];
      FOR_LANES(i) {
        if (!(m >> i & 1)) { a[i] = 0; continue; }
        int r, c;
        fr.lay(i, j, e, per, &r, &c);
        a[i] = base[i] + welem_off(r, c, rowmajor, stride[i], eb, &bit[i]);
      }
      if (!emu_translate(w, x, in->space, symspace, a, m, esize, p, kind)) return;
      if (store && w->e->opt.strict_async) FOR_LANES(i) if ((m >> i & 1) && kind[i] == MM_SHARED) emu_proxy_generic_ptr(w, x, i, p[i], esize);
      /* ptxas moves fragments two elements per access (LDG/STG of 32 bits
       * for halves, 64 for floats): count requests the same way */
      if (eb < 8 ? e == 0 : ((j * per + e) & 1) == 0) {
        const uint64_t *ca = a;
        const uint8_t *ck = kind;
        uint64_t ta[WARP_SIZE];
        uint8_t *tp[WARP_SIZE], tk[WARP_SIZE];
        if (trans) {
          FOR_LANES(i) {
            int r, c, b;
            if (!(m >> i & 1)) { ta[i] = 0; continue; }
            lay_wmma_trans(i, j, e, per, &r, &c);
            ta[i] = base[i] + welem_off(r, c, rowmajor, stride[i], eb, &b);
          }
          if (!emu_translate(w, x, in->space, symspace, ta, m, esize * (uint32_t)per, tp, tk)) return;
          ca = ta;
          ck = tk;
        }
        /* fragments that repeat elements (f16 A/B) load them once */
        uint64_t key = ca[__builtin_ctz(m)];
        int seen = 0;
        for (int q = 0; q < ncounted; q++) seen |= counted[q] == key;
        if (!seen) {
          if (ncounted < 64) counted[ncounted++] = key;
          emu_count_access(w, x, ca, m, eb < 8 ? esize * (uint32_t)per : esize * 2, ck, store);
        }
      }
      FOR_LANES(i) {
        if (!(m >> i & 1)) continue;
        if (store) {
          uint64_t ev = eb >= 64 ? vals[j][i] : (vals[j][i] >> (e * eb)) & emask;
          if (eb >= 8) memcpy(p[i], &ev, esize);
          else { uint8_t b = *p[i]; b = (uint8_t)((b & ~(emask << bit[i])) | (ev << bit[i])); *p[i] = b; }
        } else {
          uint64_t ev = 0;
          if (eb >= 8) memcpy(&ev, p[i], esize);
          else ev = (*p[i] >> bit[i]) & emask;
          vals[j][i] |= eb >= 64 ? ev : ev << (e * eb);
        }
      }
    }
  }
  if (!store)
    FOR_LANES(i) if (m >> i & 1) for (int j = 0; j < nreg; j++) rv_set(w, v, j, i, vals[j][i]);
}

static void h_wmma_mma(warp *w, const xinsn *x, lanemask m) {
  if (!m) return;
  const isa_insn *in = x->in;
  mscratch *s = scratch(w, x, m);
  if (!s) return;
  mspec sp = { 0 };
  wmma_shape(in, &sp.M, &sp.N, &sp.K);
  /* types: f16 forms name only dtype and ctype */
  int nt = (in->type != 0) + (in->type2 != 0) + (in->type3 != 0) + (in->type4 != 0);
  sp.dfmt = efmt_of(in->type);
  if (nt == 2) { sp.afmt = sp.bfmt = E_F16; sp.cfmt = efmt_of(in->type2); }
  else { sp.afmt = efmt_of(in->type2); sp.bfmt = efmt_of(in->type3); sp.cfmt = efmt_of(in->type4); }
  if (sp.dfmt == E_S32) sp.cfmt = E_S32;
  sp.bop = in->bop;
  sp.satf = (in->flags & IF_SATFINITE) != 0;
  sp.rnd = in->rnd == RND_RZ ? FP_RZ : in->rnd == RND_RM ? FP_RM : in->rnd == RND_RP ? FP_RP : FP_RN;
  regvec rv[4], *vd = &rv[0], *va = &rv[1], *vb = &rv[2], *vc = &rv[3];
  get_regs(w, x, opnd(x, 0), vd);
  get_regs(w, x, opnd(x, 1), va);
  get_regs(w, x, opnd(x, 2), vb);
  get_regs(w, x, opnd(x, 3), vc);
  if (sp.afmt == E_TF32) sp.num = TCN_K4;          /* ptxas: two m16n8k4 steps */
  wfrag f;
  wmma_frag(WA, sp.M, sp.N, sp.K, sp.afmt, &f);
  gather(w, va, f.nregs, f.ebits, f.lay, s->A, sp.K, FULL_MASK);
  wmma_frag(WB, sp.M, sp.N, sp.K, sp.bfmt, &f);
  gather(w, vb, f.nregs, f.ebits, f.lay, s->B, sp.N, FULL_MASK);
  wmma_frag(WC, sp.M, sp.N, sp.K, sp.cfmt == E_NONE ? E_F32 : sp.cfmt, &f);
  gather(w, vc, f.nregs, f.ebits, f.lay, s->C, sp.N, FULL_MASK);
  mma_compute(&sp, s);
  wmma_frag(WC, sp.M, sp.N, sp.K, sp.dfmt, &f);
  scatter(w, vd, f.nregs, f.ebits, f.lay, s->D, sp.N, FULL_MASK, m);
}

/* ---------------------------------------------------------------------- */
/* ldmatrix / stmatrix / movmatrix                                        */
/* ---------------------------------------------------------------------- */

static void h_ldstmatrix(warp *w, const xinsn *x, lanemask m) {
  if (!m) return;
  const isa_insn *in = x->in;
  bool store = in->op == OP_STMATRIX;
  bool trans = (in->flags & IF_TRANS) != 0;
  int num = in->shape_m;                       /* .x1 .x2 .x4 (parsed after the shape) */
  if (num != 1 && num != 2 && num != 4) num = 1;
  regvec v;
  get_regs(w, x, opnd(x, store ? 1 : 0), &v);
  const isa_opnd *ao = opnd(x, store ? 0 : 1);
  uint64_t a[WARP_SIZE];
  uint8_t symspace, *p[WARP_SIZE], kind[WARP_SIZE];
  lanemask sup = (num == 4 ? FULL_MASK : (1u << (8 * num)) - 1);
  lanemask am = sup & m;
  memset(p, 0, sizeof p);
  if (am) {
    emu_lane_addrs(w, x, ao, am, a, &symspace);
    if (!emu_translate(w, x, in->space, symspace, a, am, 16, p, kind)) return;
    emu_count_access(w, x, a, am, 16, kind, store);
    if (store && w->e->opt.strict_async) FOR_LANES(i) if ((am >> i & 1) && kind[i] == MM_SHARED) emu_proxy_generic_ptr(w, x, i, p[i], 16);
  }
  /* mat[i][r][c]: matrix i, 8x8 b16 */
  uint16_t mat[4][8][8];
  if (!store) {
    for (int i = 0; i < num; i++)
      for (int r = 0; r < 8; r++) {
        int lane = 8 * i + r;
        for (int c = 0; c < 8; c++) {
          uint16_t h = 0;
          if (p[lane]) memcpy(&h, p[lane] + 2 * c, 2);
          mat[i][r][c] = h;
        }
      }
    FOR_LANES(l) {
      if (!(m >> l & 1)) continue;
      int g = l >> 2, t = l & 3;
      for (int i = 0; i < num; i++) {
        uint32_t lo, hi;
        if (trans) { lo = mat[i][2 * t][g]; hi = mat[i][2 * t + 1][g]; }
        else { lo = mat[i][g][2 * t]; hi = mat[i][g][2 * t + 1]; }
        rv_set(w, &v, i, l, lo | hi << 16);
      }
    }
  } else {
    FOR_LANES(l) {
      int g = l >> 2, t = l & 3;
      for (int i = 0; i < num; i++) {
        uint32_t val = (uint32_t)rv_get(w, &v, i, l);
        if (trans) { mat[i][2 * t][g] = (uint16_t)val; mat[i][2 * t + 1][g] = (uint16_t)(val >> 16); }
        else { mat[i][g][2 * t] = (uint16_t)val; mat[i][g][2 * t + 1] = (uint16_t)(val >> 16); }
      }
    }
    for (int i = 0; i < num; i++)
      for (int r = 0; r < 8; r++) {
        int lane = 8 * i + r;
        if (p[lane]) memcpy(p[lane], mat[i][r], 16);
      }
  }
}

static void h_movmatrix(warp *w, const xinsn *x, lanemask m) {
  if (!m) return;
  const uint64_t *a = xsrc(w, x, 1);
  uint64_t *d = xdst(w, x, 0);
  uint16_t mat[8][8];
  FOR_LANES(l) {
    int g = l >> 2, t = l & 3;
    mat[g][2 * t] = (uint16_t)a[l];
    mat[g][2 * t + 1] = (uint16_t)(a[l] >> 16);
  }
  FOR_LANES(l) {
    if (!(m >> l & 1)) continue;
    int g = l >> 2, t = l & 3;
    d[l] = xfit(x, 0, (uint32_t)mat[2 * t][g] | (uint32_t)mat[2 * t + 1][g] << 16);
  }
}

/* ---------------------------------------------------------------------- */
/* wgmma                                                                  */
/* ---------------------------------------------------------------------- */

/* Byte address in shared memory of element (mn, k) of a descriptor operand;
 * mn is the M (A) or N (B) index, kbit the bit offset along K (< 256). */
static uint64_t desc_addr(uint64_t desc, int mn, int kbit, int ebits, bool mnmajor) {
  uint64_t start = (desc & 0x3FFF) << 4;
  uint64_t lbo = ((desc >> 16) & 0x3FFF) << 4;
  uint64_t sbo = ((desc >> 32) & 0x3FFF) << 4;
  int base_off = (int)((desc >> 49) & 7);
  int mode = (int)(desc >> 62);                    /* 0 none, 1 128B, 2 64B, 3 32B */
  int sw = mode == 1 ? 3 : mode == 2 ? 2 : mode == 3 ? 1 : 0;   /* log2(swizzle bytes / 16) */
  uint64_t off;
  if (!mnmajor) {
    int kb = kbit >> 3, chunk = kb >> 4, within = kb & 15;
    uint64_t rowbytes = 16u << sw;
    if (sw == 0) off = (uint64_t)(mn & 7) * 16 + (uint64_t)(mn >> 3) * sbo + (uint64_t)chunk * lbo + (uint64_t)within;
    else off = (uint64_t)(mn & 7) * rowbytes + (uint64_t)(mn >> 3) * sbo + (uint64_t)chunk * 16 + (uint64_t)within;
  } else {
    int eb = ebits / 8;                            /* 16-bit types only */
    int k = kbit / ebits;
    int T = 16 / eb;                               /* elements per 16 bytes */
    if (sw == 0) off = (uint64_t)(mn % T) * (uint64_t)eb + (uint64_t)(mn / T) * sbo + (uint64_t)(k & 7) * 16 + (uint64_t)(k >> 3) * lbo;
    else {
      int span = T << sw;                          /* elements in one swizzle row */
      off = (uint64_t)(mn % span) * (uint64_t)eb + (uint64_t)(mn / span) * lbo + (uint64_t)(k & 7) * (16u << sw) + (uint64_t)(k >> 3) * sbo;
    }
  }
  uint64_t addr = start + off;
  if (sw) {
    uint64_t phase = ((addr >> 7) - (uint64_t)base_off) & ((1u << sw) - 1);
    addr ^= phase << 4;
  }
  return addr;
}

static bool desc_read(warp *w, const xinsn *x, uint64_t desc, int mn, int kbit, int ebits, bool mnmajor, uint64_t *val) {
  uint64_t addr = desc_addr(desc, mn, kbit, ebits, mnmajor);
  uint32_t n = ebits >= 8 ? (uint32_t)ebits / 8 : 1;
  uint8_t *p = mm_shared_ptr(w->cta, addr, n);
  if (!p) {
    emu_fault_at(w, x, 0, FAULT_OOB, "wgmma matrix descriptor reads shared memory at 0x%llx, outside the CTA's %u bytes",
                 (unsigned long long)addr, w->cta->shared_size);
    w->e->fault.addr = addr;
    w->e->fault.size = n;
    return false;
  }
  if (!emu_proxy_async_read(w, x, 0, w->cta, (uint32_t)addr, n, "wgmma.mma_async (matrix descriptor)")) return false;
  uint64_t v = 0;
  if (ebits >= 8) memcpy(&v, p, n);
  else v = (*p >> (kbit & 7)) & ((1u << ebits) - 1);
  *val = v;
  return true;
}

static void h_wgmma(warp *w, const xinsn *x, lanemask m) {
  if (!m) return;
  const isa_insn *in = x->in;
  mscratch *s = scratch(w, x, m);
  if (!s) return;
  mspec sp = { 0 };
  sp.M = 16;                                       /* this warp's rows */
  sp.N = in->shape_n; sp.K = in->shape_k;
  sp.dfmt = efmt_of(in->type); sp.afmt = efmt_of(in->type2); sp.bfmt = efmt_of(in->type3);
  sp.cfmt = sp.dfmt;
  sp.bop = in->bop;
  sp.satf = (in->flags & IF_SATFINITE) != 0;
  sp.rnd = FP_RN;
  int nops = in->nops;
  const isa_opnd *ao = opnd(x, 1);
  bool a_regs = ao->kind == OK_VEC;
  bool isfloat = !is_int_fmt(sp.afmt) && sp.afmt != E_B1;
  bool is16 = sp.afmt == E_F16 || sp.afmt == E_BF16;
  /* operands after d, a, b: scale-d [, imm-scale-a, imm-scale-b [, imm-trans-a], imm-trans-b] */
  int lead = __builtin_ctz(m);
  bool scale_d = nops > 3 ? (scalar_val(w, x, opnd(x, 3), lead) & 1) != 0 : true;
  bool trans_a = false, trans_b = false;
  if (isfloat && nops > 5) {
    sp.nega = (int32_t)scalar_val(w, x, opnd(x, 4), lead) == -1;
    sp.negb = (int32_t)scalar_val(w, x, opnd(x, 5), lead) == -1;
    if (is16) {
      if (a_regs) { if (nops > 6) trans_b = scalar_val(w, x, opnd(x, 6), lead) != 0; }
      else {
        if (nops > 6) trans_a = scalar_val(w, x, opnd(x, 6), lead) != 0;
        if (nops > 7) trans_b = scalar_val(w, x, opnd(x, 7), lead) != 0;
      }
    }
  }
  if (sp.afmt == E_E4M3 || sp.afmt == E_E5M2) sp.num = TCN_QGMMA;
  int ab = ebits_of(sp.afmt), bb = ebits_of(sp.bfmt), db = ebits_of(sp.dfmt);
  int q = (int)(w->id & 3);                        /* quarter of the warpgroup */
  regvec rv[2], *vd = &rv[0], *va = &rv[1];
  get_regs(w, x, opnd(x, 0), vd);
  /* A: rows 16q..16q+15 */
  if (a_regs) {
    get_regs(w, x, ao, va);
    gather(w, va, regs_for(16, sp.K, ab), ab, lay_A, s->A, sp.K, FULL_MASK);
  } else {
    uint64_t desc = scalar_val(w, x, ao, lead);
    for (int r = 0; r < 16; r++)
      for (int k = 0; k < sp.K; k++)
        if (!desc_read(w, x, desc, 16 * q + r, k * ab, ab, trans_a, &s->A[r * sp.K + k])) return;
  }
  uint64_t bdesc = scalar_val(w, x, opnd(x, 2), lead);
  for (int k = 0; k < sp.K; k++)
    for (int n = 0; n < sp.N; n++)
      if (!desc_read(w, x, bdesc, n, k * bb, bb, trans_b, &s->B[k * sp.N + n])) return;
  int nd = regs_for(16, sp.N, db);
  if (scale_d) gather(w, vd, nd, db, lay_C, s->C, sp.N, FULL_MASK);
  else memset(s->C, 0, sizeof s->C[0] * (size_t)(16 * sp.N));
  mma_compute(&sp, s);
  scatter(w, vd, nd, db, lay_C, s->D, sp.N, FULL_MASK, m);

}

/* ---------------------------------------------------------------------- */
/* Which forms are implemented (others are left "not supported")          */
/* ---------------------------------------------------------------------- */

static bool has_mod(const isa_insn *in, int mod) {
  for (int i = 0; i < in->ncomps; i++) if (in->comps[i] == ISA_COMP_MOD + mod) return true;
  return false;
}

/* mma / wmma.mma shape and input type: the PTX ISA 9 lists for sm_90 */
typedef struct { uint8_t m, n; uint16_t k; } mnk;
static bool in_list(const mnk *l, int n, int M, int N, int K) {
  for (int i = 0; i < n; i++) if (l[i].m == M && l[i].n == N && l[i].k == K) return true;
  return false;
}
#define IN(l) in_list(l, (int)(sizeof l / sizeof *l), M, N, K)
static bool shape_ok(int a, int M, int N, int K, bool wmma) {
  static const mnk w16[] = { { 16, 16, 16 }, { 32, 8, 16 }, { 8, 32, 16 } }, wtf32[] = { { 16, 16, 8 } },
                   w884[] = { { 8, 8, 4 } }, ws4[] = { { 8, 8, 32 } }, wb1[] = { { 8, 8, 128 } };
  static const mnk f16[] = { { 8, 8, 4 }, { 16, 8, 8 }, { 16, 8, 16 } }, bf16[] = { { 16, 8, 8 }, { 16, 8, 16 } },
                   tf32[] = { { 16, 8, 4 }, { 16, 8, 8 } }, fp8[] = { { 16, 8, 16 }, { 16, 8, 32 } },
                   f64[] = { { 8, 8, 4 }, { 16, 8, 4 }, { 16, 8, 8 }, { 16, 8, 16 } },
                   i8[] = { { 8, 8, 16 }, { 16, 8, 16 }, { 16, 8, 32 } }, i4[] = { { 8, 8, 32 }, { 16, 8, 32 }, { 16, 8, 64 } },
                   b1[] = { { 8, 8, 128 }, { 16, 8, 128 }, { 16, 8, 256 } };
  if (wmma) {
    switch (a) {
    case E_F16: case E_BF16: case E_S8: case E_U8: return IN(w16);
    case E_TF32: return IN(wtf32);
    case E_F64: return IN(w884);
    case E_S4: case E_U4: return IN(ws4);
    case E_B1: return IN(wb1);
    default: return false;
    }
  }
  switch (a) {
  case E_F16: return IN(f16);
  case E_BF16: return IN(bf16);
  case E_TF32: return IN(tf32);
  case E_E4M3: case E_E5M2: return IN(fp8);
  case E_F64: return IN(f64);
  case E_S8: case E_U8: return IN(i8);
  case E_S4: case E_U4: return IN(i4);
  case E_B1: return IN(b1);
  default: return false;
  }
}
#undef IN

static bool mma_form_ok(const isa_insn *in) {
  static const int extra[] = { MOD_SP, MOD_KIND_F8F6F4, MOD_KIND_F16, MOD_KIND_TF32, MOD_KIND_I8, MOD_KIND_MXF8F6F4,
                               MOD_KIND_MXF4, MOD_KIND_MXF4NVF4, MOD_BLOCK_SCALE, MOD_ORDERED_METADATA };
  for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) if (has_mod(in, extra[i])) return false;
  int a = efmt_of(in->type2), b = efmt_of(in->type3), d = efmt_of(in->type), c = efmt_of(in->type4);
  if (a == E_NONE || b == E_NONE || d == E_NONE || c == E_NONE) return false;
  if (a == E_B1 && in->bop != MOD_XOR && in->bop != MOD_AND) return false;
  return shape_ok(a, in->shape_m, in->shape_n, in->shape_k, false);
}

static bool wmma_form_ok(const isa_insn *in) {
  if (in->op == OP_WMMA_MMA) {
    int nt = (in->type != 0) + (in->type2 != 0) + (in->type3 != 0) + (in->type4 != 0);
    int a = nt == 2 ? E_F16 : efmt_of(in->type2);
    if (efmt_of(in->type) == E_NONE || a == E_NONE) return false;
    if (a == E_B1 && in->bop != MOD_XOR && in->bop != MOD_AND) return false;
    return shape_ok(a, in->shape_m, in->shape_n, in->shape_k, true);
  }
  int f = efmt_of(in->type);
  if (f == E_NONE || f == E_E4M3 || f == E_E5M2) return false;
  if (in->op == OP_WMMA_LOAD_C || in->op == OP_WMMA_STORE_D) return f == E_F16 || f == E_F32 || f == E_S32 || f == E_F64;
  return shape_ok(f, in->shape_m, in->shape_n, in->shape_k, true);
}

static bool wgmma_form_ok(const isa_insn *in) {
  if (has_mod(in, MOD_SP)) return false;                      /* sparse wgmma: not measured */
  int a = efmt_of(in->type2), b = efmt_of(in->type3), d = efmt_of(in->type);
  if (a == E_NONE || b == E_NONE || (d != E_F32 && d != E_F16 && d != E_S32)) return false;
  if (in->shape_m != 64 || !in->shape_n || in->shape_n > 256 || in->shape_n % 8) return false;
  switch (a) {
  case E_F16: case E_BF16: return in->shape_k == 16;
  case E_TF32: return in->shape_k == 8;
  case E_E4M3: case E_E5M2: case E_S8: case E_U8: return in->shape_k == 32;
  case E_B1: return in->shape_k == 256 && (in->bop == MOD_AND || in->bop == MOD_XOR);
  default: return false;
  }
}

static void h_nop(warp *w, const xinsn *x, lanemask m) { (void)w; (void)x; (void)m; }

/* ---------------------------------------------------------------------- */

int prep_mma(emu *e, xinsn *x) {
  (void)e;
  switch (x->in->op) {
  case OP_MMA:
    if (!mma_form_ok(x->in)) return -1;
    x->fn = h_mma; return 0;
  case OP_MMA_SP: {
    int a = efmt_of(x->in->type2);
    if ((a != E_F16 && a != E_BF16) || (x->in->shape_k != 16 && x->in->shape_k != 32)) return -1;  /* others: not measured */
    x->fn = h_mma_sp; return 0;
  }
  case OP_WMMA_LOAD_A: case OP_WMMA_LOAD_B: case OP_WMMA_LOAD_C: case OP_WMMA_STORE_D:
    if (!wmma_form_ok(x->in)) return -1;
    x->fn = h_wmma_ldst; return 0;
  case OP_WMMA_MMA:
    if (!wmma_form_ok(x->in)) return -1;
    x->fn = h_wmma_mma; return 0;
  case OP_LDMATRIX: case OP_STMATRIX:
    /* .m8n8 .b16 only; the .b8 forms (.m16n16, .m8n16, .m16n8) are sm_100+.
     * (.x1/.x2/.x4 is decoded after the shape, so shape_m holds the count.) */
    if (x->in->shape_n != 8 || x->in->type != PTX_T_B16) return -1;
    x->fn = h_ldstmatrix; return 0;
  case OP_MOVMATRIX: x->fn = h_movmatrix; return 0;
  case OP_WGMMA_MMA_ASYNC:
    if (!wgmma_form_ok(x->in)) return -1;
    x->fn = h_wgmma; return 0;
  case OP_WGMMA_FENCE: case OP_WGMMA_COMMIT_GROUP: case OP_WGMMA_WAIT_GROUP: x->fn = h_nop; return 0;
  default: return -1;
  }
}
