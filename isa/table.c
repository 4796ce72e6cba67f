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
