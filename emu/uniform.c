/* emu/uniform.c - which atomics have a warp-uniform address, as ptxas
 * proves it: it rewrites such an atom/red.add into one warp-level
 * reduction and a single atomic per warp, 32 times fewer L2 updates.  A register is uniform when every definition of it computes
 * from uniform values only: immediates, symbols, kernel parameters,
 * %ntid/%ctaid/%nctaid-like special registers, and loads from a uniform
 * address.  %tid, %laneid, lane masks, clocks, atomics' results, shuffles
 * and anything defined under a non-uniform guard are not. */
#include <stdlib.h>
#include "emu/internal.h"

static bool sreg_uniform(int sr) {
  switch (sr) {
  case SR_TID_X: case SR_TID_Y: case SR_TID_Z: case SR_LANEID:
  case SR_LANEMASK_EQ: case SR_LANEMASK_LE: case SR_LANEMASK_LT: case SR_LANEMASK_GE: case SR_LANEMASK_GT:
  case SR_CLOCK: case SR_CLOCK_HI: case SR_CLOCK64: case SR_GLOBALTIMER: case SR_GLOBALTIMER_LO: case SR_GLOBALTIMER_HI:
  case SR_CC: return false;
  default: return true;
  }
}

/* Is every register the operand reads uniform?  (Rows past nrows are
 * special registers.) */
static bool opnd_uniform(const emu *e, const xinsn *x, const isa_opnd *o, const uint8_t *nonuni) {
  switch (o->kind) {
  case OK_REG: case OK_SREG: {
    int row = (o->flags & OF_OFFSET) ? emu_offset_src_row(e, x, o) : emu_row_of(e, x, o);   /* r+imm: uniform with r */
    if (row < 0) return true;
    if ((uint32_t)row >= e->sr_base && (uint32_t)row < e->sr_base + SR_COUNT) return sreg_uniform(row - (int)e->sr_base);
    return !nonuni[row];
  }
  case OK_ADDR: return !(o->flags & OF_BASEREG) || !nonuni[emu_reg_row(e, x, o->v)];
  case OK_VEC: case OK_PAIR: case OK_ADDRX: case OK_LIST:
    for (uint32_t i = 0; i < o->n; i++) if (!opnd_uniform(e, x, &x->f->pool[o->v + i], nonuni)) return false;
    return true;
  default: return true;
  }
}

static void mark_dst(const emu *e, const xinsn *x, const isa_opnd *o, uint8_t *nonuni, bool *changed) {
  switch (o->kind) {
  case OK_REG: {
    int row = emu_row_of(e, x, o);
    if (row >= 0 && (uint32_t)row < e->nrows && !nonuni[row]) { nonuni[row] = 1; *changed = true; }
    break;
  }
  case OK_VEC: case OK_PAIR: case OK_LIST:
    for (uint32_t i = 0; i < o->n; i++) mark_dst(e, x, &x->f->pool[o->v + i], nonuni, changed);
    break;
  default: break;
  }
}

bool *emu_uniform_atomics(const emu *e) {
  bool *uni = calloc(e->nprog ? e->nprog : 1, sizeof *uni);
  uint8_t *nonuni = calloc(e->nrows ? e->nrows : 1, 1);
  if (!uni || !nonuni) { free(uni); free(nonuni); return NULL; }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t pc = 0; pc < e->nprog; pc++) {
      const xinsn *x = &e->prog[pc];
      if (!x->in->nops || !isa_writes_first(x->in)) continue;
      const isa_opnd *ops = &x->f->ops[x->in->opi];
      if (ops[0].kind == OK_ADDR || ops[0].kind == OK_ADDRX) continue;
      int op = x->in->op;
      bool u = op != OP_ATOM && op != OP_SHFL && op != OP_MATCH && op != OP_ACTIVEMASK && op != OP_ELECT && op != OP_CALL;
      if (u && x->guard >= 0 && (uint32_t)x->guard < e->nrows && nonuni[x->guard]) u = false;
      for (uint32_t k = 1; u && k < x->in->nops; k++) u = opnd_uniform(e, x, &ops[k], nonuni);
      if (!u) mark_dst(e, x, &ops[0], nonuni, &changed);
    }
  }
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const xinsn *x = &e->prog[pc];
    /* measured for add (timing_atomic_contention); other operations stay
     * per lane: atomic_misc's min/max/and/or/xor run at per-lane speed */
    if ((x->in->op != OP_ATOM && x->in->op != OP_RED) || x->in->bop != MOD_ADD) continue;
    const isa_opnd *ops = &x->f->ops[x->in->opi];
    for (uint32_t k = 0; k < x->in->nops; k++)
      if (ops[k].kind == OK_ADDR || ops[k].kind == OK_ADDRX) { uni[pc] = opnd_uniform(e, x, &ops[k], nonuni); break; }
  }
  free(nonuni);
  return uni;
}
