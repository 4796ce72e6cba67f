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

/* The divisor of an integer division: a runtime value, one that the
 * innermost loop around the instruction (the pcs from a backward branch's
 * target to the branch) never writes, or an immediate. */
enum divisor { DIV_RUNTIME, DIV_INVARIANT, DIV_CONST, DIV_POW2 };
static enum divisor divisor_of(const isa_func *f, const isa_insn *in) {
  if (in->nops < 3) return DIV_RUNTIME;
  const isa_opnd *d = &f->ops[in->opi + 2];
  if (d->kind == OK_IMM) return d->imm > 0 && !(d->imm & (d->imm - 1)) ? DIV_POW2 : DIV_CONST;
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

/* Instructions no GPU has a unit for: ptxas expands them into a mostly
 * dependent SASS sequence (integer division and remainder around an
 * MUFU.RCP estimate; IEEE-rounded division with Newton-Raphson steps and a
 * fix-up).  Lengths are those of nvcc's SASS for sm_70..90 (cuobjdump
 * -sass; the H100's inst_executed of reduceNeighbored, timing_divrem);
 * 0: not a sequence.  A 32-bit divisor that a loop does not change has its
 * reciprocal computed once before the loop, leaving about 8 instructions
 * in it (timing_divrem: 7.6 per rem.u32); a constant one becomes a
 * multiplication by its reciprocal (a shift or mask for a power of two). */
static uint32_t sass_sequence(const isa_func *f, const isa_insn *in) {
  bool wide = in->type == PTX_T_S64 || in->type == PTX_T_U64 || in->type == PTX_T_B64;
  bool sgn = in->type == PTX_T_S32 || in->type == PTX_T_S64;
  switch (in->op) {
  case OP_REM: case OP_DIV:
    if (in->type == PTX_T_F64) return 20;
    if (in->type == PTX_T_F32) return in->rnd != RND_NONE ? 10 : 0;   /* div.approx / div.full: MUFU.RCP + FMUL */
    if (in->type == PTX_T_F16 || in->type == PTX_T_BF16) return 0;
    switch (divisor_of(f, in)) {
    case DIV_POW2: return sgn ? 4 : 0;
    case DIV_CONST: return wide ? 10 : sgn ? 6 : 4;
    case DIV_INVARIANT: if (!wide) return sgn ? 10 : 8; break;
    case DIV_RUNTIME: break;
    }
    return wide ? 70 : 20;
  default: return 0;
  }
}

/* PTX instructions that leave no SASS instruction behind: an unguarded
 * copy between registers of one type (register allocation coalesces it)
 * and the generic <-> global conversions (the identity on sm_20 and later:
 * global addresses are their own generic addresses).  A guarded copy stays
 * (a predicated MOV or SEL). */
static bool sass_free(const isa_func *f, const isa_insn *in) {
  if (in->guard >= 0 || in->nops != 2) return false;
  if (in->op == OP_CVTA) return in->space == MOD_GLOBAL;
  if (in->op != OP_MOV) return false;
  const isa_opnd *ops = &f->ops[in->opi];
  if (ops[0].kind != OK_REG || ops[1].kind != OK_REG || ops[0].n || ops[1].n) return false;
  return f->regtype[ops[0].v] == f->regtype[ops[1].v];
}

uint32_t isa_sass_count(const isa_func *f, const isa_insn *in) {
  if (sass_free(f, in)) return 0;
  uint32_t seq = sass_sequence(f, in);
  return seq ? seq : 1;
}
