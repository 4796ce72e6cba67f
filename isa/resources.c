/* isa/resources.c - what a kernel needs from the hardware: physical
 * registers per thread (estimated by liveness, like a register allocator
 * would find), static shared memory, local frame and parameter bytes.
 * Occupancy and the timing model use these figures. */
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"

bool isa_writes_first(const isa_insn *in) {
  switch (in->op) {
  case OP_ST: case OP_ST_ASYNC: case OP_ST_BULK: case OP_RED: case OP_RED_ASYNC: case OP_PREFETCH:
  case OP_PREFETCHU: case OP_APPLYPRIORITY: case OP_DISCARD: case OP_BRA: case OP_BRX_IDX: case OP_CALL:
  case OP_RET: case OP_EXIT: case OP_TRAP: case OP_BRKPT: case OP_PMEVENT: case OP_NANOSLEEP: case OP_BAR:
  case OP_BARRIER: case OP_BAR_WARP_SYNC: case OP_MEMBAR: case OP_FENCE: case OP_CP_ASYNC:
  case OP_CP_ASYNC_COMMIT_GROUP: case OP_CP_ASYNC_WAIT_GROUP: case OP_CP_ASYNC_WAIT_ALL:
  case OP_CP_ASYNC_MBARRIER_ARRIVE: case OP_CP_ASYNC_BULK: case OP_CP_REDUCE_ASYNC_BULK:
  case OP_CP_ASYNC_BULK_PREFETCH: case OP_CP_ASYNC_BULK_TENSOR: case OP_CP_REDUCE_ASYNC_BULK_TENSOR:
  case OP_CP_ASYNC_BULK_PREFETCH_TENSOR: case OP_CP_ASYNC_BULK_COMMIT_GROUP: case OP_CP_ASYNC_BULK_WAIT_GROUP:
  case OP_MBARRIER_INIT: case OP_MBARRIER_INVAL: case OP_MBARRIER_EXPECT_TX: case OP_MBARRIER_COMPLETE_TX:
  case OP_WMMA_STORE_D: case OP_STMATRIX: case OP_SUST: case OP_SURED: case OP_STACKRESTORE:
  case OP_WGMMA_FENCE: case OP_WGMMA_COMMIT_GROUP: case OP_WGMMA_WAIT_GROUP: case OP_TENSORMAP_REPLACE:
  case OP_TENSORMAP_CP_FENCEPROXY: case OP_MULTIMEM_ST: case OP_MULTIMEM_RED: case OP_SETMAXNREG:
  case OP_GRIDDEPCONTROL: case OP_TCGEN05: case OP_CLUSTERLAUNCHCONTROL:
    return false;
  default:
    return in->nops > 0;
  }
}

/* 32-bit register units a slot of this type occupies (predicates live in
 * their own file). */
static unsigned units(uint8_t t) {
  int b = ptx_type_bits((enum ptx_type)t);
  return b <= 1 ? 0 : b <= 32 ? 1 : (unsigned)b / 32;
}

static void each_reg(const isa_func *f, const isa_opnd *o, void (*fn)(void *, uint32_t), void *ctx) {
  switch (o->kind) {
  case OK_REG: fn(ctx, o->v); break;
  case OK_ADDR: if (o->flags & OF_BASEREG) fn(ctx, o->v); break;
  case OK_ADDRX: case OK_VEC: case OK_LIST: case OK_PAIR:
    for (uint32_t i = 0; i < o->n && o->v + i < f->npool; i++) each_reg(f, &f->pool[o->v + i], fn, ctx);
    break;
  default: break;
  }
}

typedef struct { uint64_t *set; } setctx;
static void set_bit(void *c, uint32_t r) { uint64_t *s = ((setctx *)c)->set; s[r / 64] |= 1ull << (r % 64); }
static void clr_bit(void *c, uint32_t r) { uint64_t *s = ((setctx *)c)->set; s[r / 64] &= ~(1ull << (r % 64)); }

static unsigned estimate_regs(const isa_func *f) {
  uint32_t n = f->ninsns, W = (f->nregs + 63) / 64;
  unsigned declared = 0;
  for (uint32_t r = 0; r < f->nregs; r++) declared += units(f->regtype[r]);
  if (!n || !W) return 0;
  if ((uint64_t)n * W > (1u << 22)) return declared;       /* too big to analyse: upper bound */
  uint64_t *live = calloc((size_t)n * W, sizeof *live);
  uint64_t *tmp = calloc(W, sizeof *tmp);
  if (!live || !tmp) { free(live); free(tmp); return declared; }
  /* successors: fall-through and label operands; ret/exit/trap end */
  bool changed = true;
  for (int iter = 0; changed && iter < 1000; iter++) {
    changed = false;
    for (uint32_t i = n; i-- > 0;) {
      const isa_insn *in = &f->insns[i];
      memset(tmp, 0, W * sizeof *tmp);
      bool ends = in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP;
      bool uncond = (in->op == OP_BRA) && in->guard < 0;
      if (!ends && !uncond && i + 1 < n)
        for (uint32_t w = 0; w < W; w++) tmp[w] |= live[(size_t)(i + 1) * W + w];
      for (uint32_t k = 0; k < in->nops; k++) {
        const isa_opnd *o = &f->ops[in->opi + k];
        if (o->kind == OK_LABEL && o->v < n)
          for (uint32_t w = 0; w < W; w++) tmp[w] |= live[(size_t)o->v * W + w];
      }
      if (in->op == OP_BRX_IDX)
        for (uint32_t t = 0; t < f->ntables; t++)
          for (uint32_t k = 0; k < f->tables[t].n; k++) {
            uint32_t pc = f->tables[t].pcs[k];
            if (pc < n) for (uint32_t w = 0; w < W; w++) tmp[w] |= live[(size_t)pc * W + w];
          }
      setctx sc = { tmp };
      if (isa_writes_first(in) && in->guard < 0) each_reg(f, &f->ops[in->opi], clr_bit, &sc);
      for (uint32_t k = isa_writes_first(in) ? 1 : 0; k < in->nops; k++) each_reg(f, &f->ops[in->opi + k], set_bit, &sc);
      if (in->guard >= 0) set_bit(&sc, (uint32_t)in->guard);
      uint64_t *dst = &live[(size_t)i * W];
      if (memcmp(dst, tmp, W * sizeof *tmp)) { memcpy(dst, tmp, W * sizeof *tmp); changed = true; }
    }
  }
  unsigned best = 0;
  for (uint32_t i = 0; i < n; i++) {
    unsigned u = 0;
    for (uint32_t w = 0; w < W; w++) {
      uint64_t x = live[(size_t)i * W + w];
      while (x) { int b = __builtin_ctzll(x); x &= x - 1; u += units(f->regtype[w * 64 + (uint32_t)b]); }
    }
    /* the destination needs a register too while its sources are live */
    const isa_insn *in = &f->insns[i];
    if (isa_writes_first(in)) {
      const isa_opnd *o = &f->ops[in->opi];
      if (o->kind == OK_REG) u += units(f->regtype[o->v]);
    }
    if (u > best) best = u;
  }
  free(live);
  free(tmp);
  return best;
}

void isa_resources(isa_module *m) {
  uint64_t shared = 0;
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *s = &m->syms[i];
    if (s->space == PTX_SPACE_SHARED && !(s->linkage & PTX_LINK_EXTERN)) {
      uint64_t a = s->align ? s->align : 1;
      shared = (shared + a - 1) / a * a + s->size;
    }
  }
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    isa_func *f = &m->funcs[i];
    if (f->is_proto || !f->has_body) continue;
    unsigned r = estimate_regs(f);
    /* ptxas reserves a few registers beyond the live values (stack pointer,
     * address temporaries); it never reports fewer than 2 */
    r += 2;
    if (f->perf.maxnreg && r > f->perf.maxnreg) r = f->perf.maxnreg;
    if (r > 255) r = 255;
    f->regs_used = r;
    uint64_t params = 0;
    for (uint32_t k = 0; k < f->nsyms; k++)
      if (f->syms[k].space == PTX_SPACE_PARAM && k < f->nrets + f->nparams && k >= f->nrets) {
        uint64_t end = f->syms[k].offset + f->syms[k].size;
        if (end > params) params = end;
      }
    f->param_bytes = params;
    f->shared_bytes = shared;
  }
}
