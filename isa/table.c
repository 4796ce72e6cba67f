/* isa/table.c - the opcode and modifier tables, expanded from the .def files. */
#include "isa/isa.h"

#define T(a, b) a, b
#define N(a, b) a, b
const isa_opinfo isa_ops[OP_COUNT] = {
#define OP(id, name, fam, unit, ty, nops, sig, groups, sm, ptx) { name, fam, unit, ty, nops, sig, groups, sm, ptx },
#include "isa/opcodes.def"
#undef OP
};
#undef T
#undef N

const isa_modinfo isa_mods[MOD_COUNT] = {
  { "", 0 },
#define MOD(id, s, g) { s, g },
#include "isa/mods.def"
#undef MOD
};

_Static_assert(ISA_COMP_MOD + MOD_LIMIT < 65536, "modifier ids must fit isa_insn.comps");
_Static_assert(PTX_T_COUNT <= ISA_COMP_MOD, "types must stay below ISA_COMP_MOD");

const char *const isa_sreg_names[SREG_COUNT] = {
#define X(id, s) s,
  ISA_SREGS(X)
#undef X
};

const char *const isa_unit_names[U_COUNT] = {
  "arith", "int", "fp16", "fp32", "fp64", "sfu", "cvt", "lsu", "atom", "branch", "sync",
  "tensor", "tex", "misc"
};

enum isa_unit isa_unit_of(const isa_insn *in) {
  enum isa_unit u = isa_ops[in->op].unit;
  if (u != U_ARITH) return u;
  switch (in->type) {
  case PTX_T_F64: return U_FP64;
  case PTX_T_F32: return U_FP32;
  case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2: return U_FP16;
  default: return U_INT;
  }
}

/* Whether an instruction of pcs lo..hi writes register slot reg. */
static bool writes_reg(const isa_func *f, uint32_t lo, uint32_t hi, uint32_t reg) {
  for (uint32_t pc = lo; pc <= hi && pc < f->ninsns; pc++) {
    const isa_insn *in = &f->insns[pc];
    if (!in->nops || !isa_writes_first(in)) continue;
    const isa_opnd *o = &f->ops[in->opi];
    if (o->kind == OK_REG && o->v == reg) return true;
    if (o->kind == OK_VEC || o->kind == OK_PAIR || o->kind == OK_LIST)
      for (uint32_t k = 0; k < o->n && o->v + k < f->npool; k++)
        if (f->pool[o->v + k].kind == OK_REG && f->pool[o->v + k].v == reg) return true;
  }
  return false;
}

/* Whether register slot reg is written once in the whole function, by a
 * mov of an immediate (as nvcc writes WARP_SZ): ptxas propagates it. */
static bool constant_reg(const isa_func *f, uint32_t reg, int64_t *imm) {
  const isa_insn *def = NULL;
  for (uint32_t pc = 0; pc < f->ninsns; pc++)
    if (writes_reg(f, pc, pc, reg)) {
      if (def) return false;
      def = &f->insns[pc];
    }
  if (!def || def->op != OP_MOV || def->guard >= 0 || def->nops != 2) return false;
  const isa_opnd *src = &f->ops[def->opi + 1];
  if (src->kind != OK_IMM) return false;
  *imm = src->imm;
  return true;
}

/* The divisor of an integer division: a runtime value, one that the
 * innermost loop around the instruction (the pcs from a backward branch's
 * target to the branch) never writes, or a constant (an immediate, or a
 * register that only ever holds one). */
enum divisor { DIV_RUNTIME, DIV_INVARIANT, DIV_CONST, DIV_POW2 };
static enum divisor divisor_of(const isa_func *f, const isa_insn *in) {
  if (in->nops < 3) return DIV_RUNTIME;
  const isa_opnd *d = &f->ops[in->opi + 2];
  int64_t imm = d->imm;
  if (d->kind == OK_IMM || (d->kind == OK_REG && !d->n && !(d->flags & OF_OFFSET) && constant_reg(f, d->v, &imm)))
    return imm > 0 && !(imm & (imm - 1)) ? DIV_POW2 : DIV_CONST;
  if (d->kind != OK_REG || d->n) return DIV_RUNTIME;
  uint32_t pc = (uint32_t)(in - f->insns), lo = 0, hi = UINT32_MAX;
  for (uint32_t b = pc; b < f->ninsns; b++) {
    const isa_insn *br = &f->insns[b];
    if (br->op != OP_BRA || !br->nops) continue;
    const isa_opnd *t = &f->ops[br->opi];
    if (t->kind == OK_LABEL && t->v <= pc && b - t->v < hi - lo) { lo = t->v; hi = b; }
  }
  return hi != UINT32_MAX && !writes_reg(f, lo, hi, d->v) ? DIV_INVARIANT : DIV_RUNTIME;
}

/* Instructions no GPU has a unit for: ptxas expands them into a SASS
 * sequence (integer division and remainder around an MUFU.RCP estimate of
 * the divisor's reciprocal; IEEE-rounded division with Newton-Raphson steps
 * and a check).  What each sequence is made of, from nvcc's SASS for
 * sm_70..90 (cuobjdump -sass) and the H100's figures (inst_executed of
 * reduceNeighbored; tests/golden/timing_divrem: 7.6 instructions and ~59
 * cycles of latency a rem.u32 with a loop-invariant divisor, 11.8 and ~57
 * a div.rn.f32): n instructions, of which alu on the integer ALU, math on
 * the instruction's own pipe (IMAD, FFMA, DFMA) and xu on the quarter-rate
 * unit (I2F, F2I, MUFU, FCHK); on the dependent path, chain of the own
 * pipe's latency and xu_chain of the XU's.
 * A 32-bit divisor that a loop does not change has its reciprocal computed
 * once before the loop; a constant one becomes a multiplication by its
 * reciprocal (a shift or a mask for a power of two).  The 64-bit ones are
 * a called subroutine, none of whose work ptxas hoists. */
static const isa_sass_seq seq_rem32 = { 20, 10, 7, 3, 14, 3, false, 0, 0 };
static const isa_sass_seq seq_rem32_hoisted = { 8, 5, 3, 0, 15, 0, false, 0, 0 };
static const isa_sass_seq seq_rem32s_hoisted = { 10, 7, 3, 0, 17, 0, false, 0, 0 };
static const isa_sass_seq seq_rem32_const = { 4, 2, 2, 0, 4, 0, false, 0, 0 };
static const isa_sass_seq seq_rem32s_const = { 6, 4, 2, 0, 6, 0, false, 0, 0 };
static const isa_sass_seq seq_rems_pow2 = { 4, 4, 0, 0, 4, 0, false, 0, 0 };
/* The 64-bit ones a subroutine each of div.u64, div.s64, rem.u64, rem.s64:
 * [S] sm_90 SASS of tests/golden/timing_divrem rem64_tput, at each of its
 * 40 rem.u64 three argument moves, the CALL and two result moves, the body
 * (64 instructions with its RET) once after the EXIT. */
static const isa_sass_seq seq_rem64[4] = {
  { 70, 70, 0, 0, 89, 0, false, 6, 1 }, { 70, 70, 0, 0, 89, 0, false, 6, 2 },
  { 70, 70, 0, 0, 89, 0, false, 6, 3 }, { 70, 70, 0, 0, 89, 0, false, 6, 4 } };
static const isa_sass_seq seq_rem64_const = { 10, 5, 5, 0, 10, 0, false, 0, 0 };
static const isa_sass_seq seq_div_f32 = { 10, 3, 5, 2, 5, 2, false, 0, 0 };
static const isa_sass_seq seq_div_f64 = { 20, 6, 8, 1, 10, 1, false, 0, 0 };

/* The .f32 special functions around their MUFU (sm_90 SASS of each,
 * cuobjdump -sass, 2026-11-26):
 * - ex2, lg2, rsqrt, sqrt .approx without .ftz scale a denormal input
 *   and the result: FSETP, FMUL (or FMUL and FSEL), MUFU, FMUL (FADD for
 *   lg2); ex2's scaling is left out when its input is another ex2's
 *   result, which is never below -126 (tests/microbench mb_pipe
 *   pipe_sfu_*: 2.75 SASS instructions an ex2 in a chain of four a step);
 *   rcp.approx without .ftz compares twice, selects twice, FMUL, MUFU, FMUL;
 * - sin, cos: FMUL.RZ by 1/(2 pi), then MUFU (golden timing_sfu: 75020
 *   instructions for 20000 sin+ex2 steps);
 * - rcp.rn, sqrt.rn: MUFU, a Newton step (FFMA, FADD or FMUL, FFMA) and
 *   a range check that branches to a slow path for extreme inputs;
 * - the .ftz forms, tanh, ex2.f16: the MUFU alone.
 * The scaled forms' cost on the dependent path is gpu_config.sfu_denorm_cycles
 * (chain 0 here); the others' is chain FMA-pipe latencies. */
static const isa_sass_seq seq_sfu_scaled = { 4, 1, 2, 1, 0, 1, true, 0, 0 };
static const isa_sass_seq seq_rcp_scaled = { 7, 4, 2, 1, 0, 1, true, 0, 0 };
static const isa_sass_seq seq_sincos = { 2, 0, 1, 1, 1, 1, false, 0, 0 };
static const isa_sass_seq seq_sfu_newton = { 8, 4, 3, 1, 3, 1, false, 0, 0 };

/* Whether the input of an ex2 is the result of another ex2: its last
 * write before in, in the same straight-line code, is an unguarded ex2. */
static bool ex2_of_ex2(const isa_func *f, const isa_insn *in) {
  const isa_opnd *src = &f->ops[in->opi + 1];
  if (src->kind != OK_REG || src->n) return false;
  uint32_t pc = (uint32_t)(in - f->insns);
  for (uint32_t d = pc; d-- > 0;) {
    const isa_insn *x = &f->insns[d];
    if (x->op == OP_BRA || x->op == OP_RET || x->op == OP_EXIT || x->op == OP_CALL) return false;
    if (!writes_reg(f, d, d, src->v)) continue;
    if (x->op != OP_EX2 || x->guard >= 0) return false;
    /* no branch may enter between the write and in */
    for (uint32_t b = 0; b < f->ninsns; b++) {
      const isa_insn *br = &f->insns[b];
      if (br->op != OP_BRA || !br->nops) continue;
      const isa_opnd *t = &f->ops[br->opi];
      if (t->kind == OK_LABEL && t->v > d && t->v <= pc) return false;
    }
    return true;
  }
  return false;
}

static const isa_sass_seq *sfu_sequence(const isa_func *f, const isa_insn *in) {
  if (in->type != PTX_T_F32) return NULL;
  bool ftz = in->flags & IF_FTZ, approx = in->flags & IF_APPROX;
  switch (in->op) {
  case OP_SIN: case OP_COS: return &seq_sincos;
  case OP_EX2: return ftz || ex2_of_ex2(f, in) ? NULL : &seq_sfu_scaled;
  case OP_LG2: case OP_RSQRT: return ftz ? NULL : &seq_sfu_scaled;
  case OP_SQRT: return !approx ? &seq_sfu_newton : ftz ? NULL : &seq_sfu_scaled;
  case OP_RCP: return !approx ? &seq_sfu_newton : ftz ? NULL : &seq_rcp_scaled;
  default: return NULL;
  }
}

/* cp.async: sm_90 ptxas puts three predicated-off shared loads (@!PT LDS
 * RZ, [RZ]) before each LDGSTS; they issue and count as executed (8 of 8
 * LDGSTS in the SASS of the golden cp_async and mbarrier kernels). */
static const isa_sass_seq seq_ldgsts = { 4, 0, 1, 0, 1, 0, false, 0, 0 };

static const isa_sass_seq *sass_sequence(const isa_func *f, const isa_insn *in) {
  if (isa_ops[in->op].unit == U_SFU) return sfu_sequence(f, in);
  if (in->op == OP_CP_ASYNC) return &seq_ldgsts;
  if (in->op != OP_REM && in->op != OP_DIV) return NULL;
  bool wide = in->type == PTX_T_S64 || in->type == PTX_T_U64 || in->type == PTX_T_B64;
  bool sgn = in->type == PTX_T_S32 || in->type == PTX_T_S64;
  if (in->type == PTX_T_F64) return &seq_div_f64;
  if (in->type == PTX_T_F32) return in->rnd != RND_NONE ? &seq_div_f32 : NULL;   /* div.approx / div.full: MUFU.RCP + FMUL */
  if (in->type == PTX_T_F16 || in->type == PTX_T_BF16) return NULL;
  switch (divisor_of(f, in)) {
  case DIV_POW2: return sgn ? &seq_rems_pow2 : NULL;
  case DIV_CONST: return wide ? &seq_rem64_const : sgn ? &seq_rem32s_const : &seq_rem32_const;
  case DIV_INVARIANT: if (!wide) return sgn ? &seq_rem32s_hoisted : &seq_rem32_hoisted; break;
  case DIV_RUNTIME: break;
  }
  return wide ? &seq_rem64[(in->op == OP_REM) * 2 + sgn] : &seq_rem32;
}

/* PTX instructions that leave no SASS instruction behind: an unguarded
 * copy between registers of one width (register allocation coalesces it:
 * SASS registers have no type, and a mov.b32 from a .u32 to an .f32
 * register is a copy of bits: [S] sm_90 SASS of tests/microbench mb_cvt,
 * `cvt.rn.f32.u32 t, %r; mov.b32 %r, t;` is one I2FP R4, R4) and the
 * generic <-> global conversions (the identity on sm_20 and later: global
 * addresses are their own generic addresses).  A guarded copy stays (a
 * predicated MOV or SEL). */
static bool sass_free(const isa_func *f, const isa_insn *in) {
  if (in->guard >= 0 || in->nops != 2) return false;
  if (in->op == OP_CVTA) return in->space == MOD_GLOBAL;
  if (in->op != OP_MOV) return false;
  const isa_opnd *ops = &f->ops[in->opi];
  if (ops[0].kind != OK_REG || ops[1].kind != OK_REG || ops[0].n || ops[1].n || (ops[1].flags & OF_OFFSET)) return false;   /* r+imm: an add */
  int a = f->regtype[ops[0].v], b = f->regtype[ops[1].v];
  return a == b || (a != PTX_T_PRED && b != PTX_T_PRED && ptx_type_bits((enum ptx_type)a) == ptx_type_bits((enum ptx_type)b));
}

/* SASS instructions of a PTX instruction that is no sequence (its own
 * unit's timing) but takes more than one issue slot:
 * - an fp64 mma (DMMA) and the NOP sm_90 ptxas puts after it where nothing
 *   independent is at hand (190 of the 205 DMMAs in the SASS of
 *   tests/microbench mb_mma and the golden mma_variants);
 * - barrier.cluster in a cluster launch (sm_90 SASS of tests/microbench
 *   mb_cluster, every one of its 14): the arrive is @!P BRA, MEMBAR.ALL.GPU,
 *   ERRBAR, CGAERRBAR, UCGABAR_ARV, BRA (a .relaxed one has no release
 *   fence: the MEMBAR and the error barriers left out), the wait @!P BRA,
 *   UCGABAR_WAIT, CCTL.IVALL, BRA (the P: a cluster launch; otherwise a NOP
 *   and a BAR.SYNC, never both paths). */
static uint32_t plain_sass_count(const isa_insn *in) {
  if ((in->op == OP_MMA || in->op == OP_WMMA_MMA) && in->type2 == PTX_T_F64) return 2;
  if ((in->op == OP_BAR || in->op == OP_BARRIER) && in->scope == MOD_CLUSTER)
    return in->sub != MOD_ARRIVE ? 4 : in->sem == MOD_RELAXED ? 3 : 6;
  return 1;
}

uint32_t isa_sass_count(const isa_func *f, const isa_insn *in, const isa_sass_seq **seq) {
  bool none = sass_free(f, in);
  const isa_sass_seq *s = none ? NULL : sass_sequence(f, in);
  if (seq) *seq = s;
  return none ? 0 : s ? s->n : plain_sass_count(in);
}
