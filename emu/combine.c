/* emu/combine.c - ptxas's combining of two dependent PTX instructions into
 * one SASS instruction, for the timing model (timing_insn.h,
 * timing_mark_combined).
 *
 * Since Maxwell the SASS has three-input integer and logic instructions and
 * compares that fold in a predicate: ptxas writes a shift feeding an add as
 * one LEA, two adds as one IADD3, two logic operations as one LOP3, a
 * logic operation tested against zero as a LOP3 with a predicate result, a
 * compare feeding a predicate and/or/xor as one ISETP (FSETP) with the
 * combining operation, and a multiply feeding an add as one IMAD (a wide
 * one feeding a 64-bit add as IMAD.WIDE).  It does so where the first
 * instruction's result has no other reader: nvcc's PTX writes each such
 * temporary once and reads it once.  PTX that reuses a register (inline
 * asm, hand-written kernels) has the same dead values in another form: an
 * accumulator that each instruction of a chain reads and writes again
 * (x ^= a; x ^= b), whose value the next step overwrites after reading it
 * once; ptxas, which renames every definition, combines those pairs too
 * ([S] sm_90 SASS of tests/microbench mb_launch code_1024: 1024 dependent
 * xor.b32 of one register are 512 LOP3).
 *
 * Marked: the first instruction of the pair (the producer) takes no issue
 * slot and no latency (deps.free); its consumer reads its result as soon
 * as the producer's own sources are ready, as the combined instruction
 * reads them.  A consumer that took a producer does not become a producer
 * itself (a combined instruction has at most three inputs). */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/timing_insn.h"

#define NEAR 64                  /* the farthest reader looked for */

static bool int32_type(uint8_t t) { return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B32; }
static bool int64_type(uint8_t t) { return t == PTX_T_U64 || t == PTX_T_S64 || t == PTX_T_B64; }
static bool logic_op(uint16_t op) { return op == OP_AND || op == OP_OR || op == OP_XOR || op == OP_NOT; }

/* The immediate of source k of x, if it is one. */
static bool imm_src(const xinsn *x, uint32_t k, int64_t *v) {
  if (x->in->nops <= k) return false;
  const isa_opnd *o = &x->f->ops[x->in->opi + k];
  if (o->kind != OK_IMM) return false;
  *v = o->imm;
  return true;
}

/* Whether ptxas writes producer p and its consumer c as one instruction. */
static bool combines(const xinsn *p, const xinsn *c) {
  const isa_insn *a = p->in, *b = c->in;
  if (a->flags & IF_CC || b->flags & IF_CC) return false;
  int64_t v = 0;
  switch (a->op) {
  case OP_SHL:                                             /* LEA */
    return (int32_type(a->type) || int64_type(a->type)) && imm_src(p, 2, &v) && v > 0 && v < 32 &&
           b->op == OP_ADD && (int32_type(b->type) || int64_type(b->type));
  case OP_ADD: case OP_SUB:                                /* IADD3 */
    return int32_type(a->type) && (b->op == OP_ADD || b->op == OP_SUB) && int32_type(b->type);
  case OP_MUL:                                             /* IMAD, IMAD.WIDE */
    if (a->flags & IF_HI) return false;
    if (a->flags & IF_WIDE) return int32_type(a->type) && b->op == OP_ADD && int64_type(b->type);
    return int32_type(a->type) && b->op == OP_ADD && int32_type(b->type);
  case OP_SETP:                                            /* ISETP/FSETP with .AND/.OR/.XOR */
    return b->type == PTX_T_PRED && (b->op == OP_AND || b->op == OP_OR || b->op == OP_XOR);
  case OP_AND: case OP_OR: case OP_XOR: case OP_NOT:
    if (!int32_type(a->type) && a->type != PTX_T_B64) return false;
    if (logic_op(b->op) && b->type == a->type) return true;   /* LOP3 */
    /* LOP3 with a predicate result: x == 0, x != 0 */
    return b->op == OP_SETP && (b->cmp == MOD_EQ || b->cmp == MOD_NE) && (int32_type(b->type) || int64_type(b->type)) &&
           imm_src(c, 2, &v) && v == 0;
  default: return false;
  }
}

/* Whether consumer c reads r in one operand and writes r alone: the value
 * it read is dead after it. */
static bool chain_step(const deps *c, int32_t r) {
  uint8_t k = 0;
  for (uint8_t i = 0; i < c->nsrc; i++) k += c->src[i] == r;
  return k == 1 && c->ndst == 1 && c->dst[0] == r;
}

void timing_mark_combined(const emu *e, const gpu_config *g, deps *dep, const uint8_t *leader) {
  if (!g->combine_ops || !e->nprog) return;
  uint32_t n = e->nrows ? e->nrows : 1;
  uint16_t *defs = calloc(n, sizeof *defs), *reads = calloc(n, sizeof *reads);
  uint8_t *absorbed = calloc(e->nprog, 1);
  if (!defs || !reads || !absorbed) goto out;
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    for (uint8_t i = 0; i < dep[pc].ndst; i++) if ((uint32_t)dep[pc].dst[i] < n && defs[dep[pc].dst[i]] < UINT16_MAX) defs[dep[pc].dst[i]]++;
    for (uint8_t i = 0; i < dep[pc].nsrc; i++) if ((uint32_t)dep[pc].src[i] < n && reads[dep[pc].src[i]] < UINT16_MAX) reads[dep[pc].src[i]]++;
  }
  for (uint32_t p = 0; p < e->nprog; p++) {
    const xinsn *x = &e->prog[p];
    deps *d = &dep[p];
    if (d->free || absorbed[p] || x->guard >= 0 || d->ndst != 1 || d->nsrc >= MAX_DEPS) continue;
    int32_t r = d->dst[0];
    if ((uint32_t)r >= n) continue;
    /* the next instruction that reads or writes r, later in the block and
     * near (ptxas's window; a bound on the search in long blocks): its
     * reader, unless r is written again first */
    uint32_t c = p + 1;
    bool reads_r = false, writes_r = false;
    for (; c < e->nprog && !leader[c] && c - p <= NEAR; c++) {
      for (uint8_t i = 0; i < dep[c].nsrc; i++) reads_r |= dep[c].src[i] == r;
      for (uint8_t i = 0; i < dep[c].ndst; i++) writes_r |= dep[c].dst[i] == r;
      if (reads_r || writes_r) break;
    }
    if (!reads_r || dep[c].free || e->prog[c].guard >= 0 || !combines(x, &e->prog[c])) continue;
    /* ... and the value's only one: r written and read once in the kernel,
     * or a step of a chain, read once by c, which writes r again */
    if (!(defs[r] == 1 && reads[r] == 1) && !chain_step(&dep[c], r)) continue;
    d->free = true;
    d->lat = 0;
    d->bank_extra = 0;
    absorbed[c] = 1;
    /* an IADD3 or LEA (an add that took an add or a shift) has three
     * inputs, which the FMA pipe's IMAD.IADD does not take: the ALU's
     * alone ([S] sm_90 SASS of tests/microbench mb_vary3 v3_int: each
     * x + (i + k) an IADD3, the ALU's 12 of the trip's 19 instructions) */
    if ((x->in->op == OP_ADD || x->in->op == OP_SUB || x->in->op == OP_SHL) && g->three_input_alu) dep[c].alt_ii = 0;
  }
out:
  free(defs); free(reads); free(absorbed);
}
