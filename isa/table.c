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

/* Instructions no GPU has a unit for: ptxas expands them into a mostly
 * dependent SASS sequence (integer division and remainder around an
 * MUFU.RCP estimate; IEEE-rounded division with Newton-Raphson steps and a
 * fix-up).  Lengths are those of nvcc's SASS for sm_70..90 (cuobjdump
 * -sass); 0: not a sequence. */
static uint32_t sass_sequence(const isa_insn *in) {
  bool wide = in->type == PTX_T_S64 || in->type == PTX_T_U64 || in->type == PTX_T_B64;
  switch (in->op) {
  case OP_REM: return wide ? 70 : 20;
  case OP_DIV:
    if (in->type == PTX_T_F64) return 20;
    if (in->type == PTX_T_F32) return in->rnd != RND_NONE ? 10 : 0;   /* div.approx / div.full: MUFU.RCP + FMUL */
    if (in->type == PTX_T_F16 || in->type == PTX_T_BF16) return 0;
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
  uint32_t seq = sass_sequence(in);
  return seq ? seq : 1;
}
