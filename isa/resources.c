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

bool isa_dest_writable(const isa_opnd *o, const isa_opnd *pool, uint32_t npool) {
  switch (o->kind) {
  case OK_REG: case OK_SINK: return true;
  case OK_VEC: case OK_PAIR:
    if ((uint64_t)o->v + o->n > npool) return false;
    for (uint32_t k = 0; k < o->n; k++) {
      const isa_opnd *x = &pool[o->v + k];
      /* a pair holds a vector and a predicate ({a, b}|p); no deeper nesting */
      bool ok = x->kind == OK_REG || x->kind == OK_SINK || (o->kind == OK_PAIR && x->kind == OK_VEC && isa_dest_writable(x, pool, npool));
      if (!ok) return false;
    }
    return true;
  default: return false;
  }
}

/* 32-bit register units a slot of this type occupies (predicates live in
 * their own file). */
static unsigned units(uint8_t t) {
  int b = ptx_type_bits((enum ptx_type)t);
  return b <= 1 ? 0 : b <= 32 ? 1 : (unsigned)b / 32;
}

/* Live-out of block b: the live-in of its successors. */
static void live_out(const isa_func *f, uint32_t b, uint32_t nb, uint32_t W, const uint32_t *first,
                     const uint32_t *block, const uint64_t *in, uint64_t *out) {
  uint32_t n = f->ninsns, last = first[b + 1] - 1;
  const isa_insn *x = &f->insns[last];
  memset(out, 0, W * 8);
#define OR_IN(pc) do { const uint64_t *s_ = &in[(size_t)block[pc] * W]; for (uint32_t j_ = 0; j_ < W; j_++) out[j_] |= s_[j_]; } while (0)
  if (!((x->op == OP_RET || x->op == OP_EXIT || x->op == OP_TRAP) || (x->op == OP_BRA && x->guard < 0)) && last + 1 < n)
    OR_IN(last + 1);
  if (x->op == OP_BRA || x->op == OP_BRX_IDX || x->op == OP_CALL)
    for (uint32_t k = 0; k < x->nops; k++) {
      const isa_opnd *o = &f->ops[x->opi + k];
      if (o->kind == OK_LABEL && o->v < n) OR_IN(o->v);
    }
  if (x->op == OP_BRX_IDX)
    for (uint32_t t = 0; t < f->ntables; t++)
      for (uint32_t k = 0; k < f->tables[t].n; k++) if (f->tables[t].pcs[k] < n) OR_IN(f->tables[t].pcs[k]);
#undef OR_IN
  (void)nb;
}

/* Registers an operand reads or writes: itself, an address base, the
 * elements of vectors, lists, pairs and texture coordinates. */
/* A set of registers and the 32-bit units they occupy (ru: per register). */
typedef struct regset { uint64_t *bits; unsigned units; const uint8_t *ru; } regset;

static void set_reg(regset *s, uint32_t r) {
  uint64_t b = 1ull << (r % 64);
  if (!(s->bits[r / 64] & b)) { s->bits[r / 64] |= b; s->units += s->ru[r]; }
}
static void clr_reg(regset *s, uint32_t r) {
  uint64_t b = 1ull << (r % 64);
  if (s->bits[r / 64] & b) { s->bits[r / 64] &= ~b; s->units -= s->ru[r]; }
}

static inline void mark(regset *s, uint32_t r, bool set) { if (set) set_reg(s, r); else clr_reg(s, r); }

static void each_reg(const isa_func *f, const isa_opnd *o, bool set, regset *s) {
  switch (o->kind) {
  case OK_REG: if (o->v < f->nregs) mark(s, o->v, set); break;
  case OK_ADDR: if ((o->flags & OF_BASEREG) && o->v < f->nregs) mark(s, o->v, set); break;
  case OK_ADDRX: case OK_VEC: case OK_LIST: case OK_PAIR:
    for (uint32_t i = 0; i < o->n && o->v + i < f->npool; i++) each_reg(f, &f->pool[o->v + i], set, s);
    break;
  default: break;
  }
}

/* each_reg, with the common case (a register) inline */
static inline void visit(const isa_func *f, const isa_opnd *o, bool set, regset *s) {
  if (o->kind == OK_REG) { if (o->v < f->nregs) mark(s, o->v, set); }
  else if (o->kind == OK_ADDR || o->kind == OK_ADDRX || o->kind == OK_VEC || o->kind == OK_LIST || o->kind == OK_PAIR)
    each_reg(f, o, set, s);
}

/* An instruction's effect on the live set, walking backwards: an
 * unconditional write kills its destination, then every source (and the
 * guard) is live. */
static void step_back(const isa_func *f, const isa_insn *in, bool w, regset *s) {
  if (w && in->guard < 0) visit(f, &f->ops[in->opi], false, s);
  for (uint32_t k = w ? 1 : 0; k < in->nops; k++) visit(f, &f->ops[in->opi + k], true, s);
  if (in->guard >= 0 && (uint32_t)in->guard < f->nregs) set_reg(s, (uint32_t)in->guard);
}

static bool ends_flow(const isa_insn *in) { return in->op == OP_RET || in->op == OP_EXIT || in->op == OP_TRAP; }

/* Only branches and calls have label operands. */
static bool may_branch(const isa_insn *in) { return in->op == OP_BRA || in->op == OP_BRX_IDX || in->op == OP_CALL; }

static bool has_targets(const isa_func *f, const isa_insn *in) {
  if (in->op == OP_BRX_IDX) return true;
  if (!may_branch(in)) return false;
  for (uint32_t k = 0; k < in->nops; k++) if (f->ops[in->opi + k].kind == OK_LABEL) return true;
  return false;
}

/* Physical registers a function needs, like a register allocator would:
 * the most 32-bit units live at once (liveness over basic blocks, then
 * one backward walk per block), plus the destination being written. */
static unsigned estimate_regs(const isa_func *f) {
  uint32_t n = f->ninsns, W = (f->nregs + 63) / 64;
  if (!n || !W) return 0;
  uint8_t *ru = malloc(f->nregs);
  unsigned declared = 0;
  if (!ru) return 0;
  for (uint32_t r = 0; r < f->nregs; r++) declared += ru[r] = (uint8_t)units(f->regtype[r]);
  /* basic blocks: leaders are the entry, branch targets and what follows a branch or an end */
  uint32_t *block = calloc(n + 1, sizeof *block);           /* insn -> block, n -> nblocks */
  uint8_t *leader = calloc(n + 1, 1);
  if (!block || !leader) { free(block); free(leader); free(ru); return declared; }
  /* leader[i]: LEADER, and WRITES when instruction i writes its first operand */
  enum { LEADER = 1, WRITES = 2 };
  leader[0] = LEADER;
  for (uint32_t i = 0; i < n; i++) {
    const isa_insn *in = &f->insns[i];
    if (isa_writes_first(in)) leader[i] |= WRITES;
    if (ends_flow(in) || has_targets(f, in)) leader[i + 1] |= LEADER;
    if (may_branch(in))
      for (uint32_t k = 0; k < in->nops; k++) {
        const isa_opnd *o = &f->ops[in->opi + k];
        if (o->kind == OK_LABEL && o->v < n) leader[o->v] |= LEADER;
      }
  }
  for (uint32_t t = 0; t < f->ntables; t++)
    for (uint32_t k = 0; k < f->tables[t].n; k++) if (!f->tables[t].calls && f->tables[t].pcs[k] < n) leader[f->tables[t].pcs[k]] |= LEADER;
  uint32_t nb = 0;
  for (uint32_t i = 0; i < n; i++) { if (leader[i] & LEADER) nb++; block[i] = nb - 1; }
  uint32_t *first = malloc((nb + 1) * sizeof *first);
  if (!first || (uint64_t)nb * W > (1u << 23)) { free(block); free(leader); free(first); free(ru); return declared; }
  for (uint32_t i = 0, b = 0; i < n; i++) if (leader[i] & LEADER) first[b++] = i;
  first[nb] = n;
  /* use/def of each block, then live-in to a fixed point */
  uint64_t *use = calloc((size_t)nb * W, 8), *def = calloc((size_t)nb * W, 8), *in = calloc((size_t)nb * W, 8);
  uint64_t *tmp = calloc(W, 8);
  unsigned best = 0;
  if (!use || !def || !in || !tmp) { best = declared; goto out; }
  for (uint32_t b = 0; b < nb; b++) {
    regset u = { &use[(size_t)b * W], 0, ru }, d = { &def[(size_t)b * W], 0, ru };
    for (uint32_t i = first[b + 1]; i-- > first[b];) {
      const isa_insn *x = &f->insns[i];
      bool w = leader[i] & WRITES;
      if (w && x->guard < 0) { visit(f, &f->ops[x->opi], false, &u); visit(f, &f->ops[x->opi], true, &d); }
      for (uint32_t j = w ? 1 : 0; j < x->nops; j++) visit(f, &f->ops[x->opi + j], true, &u);
      if (x->guard >= 0 && (uint32_t)x->guard < f->nregs) set_reg(&u, (uint32_t)x->guard);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = nb; b-- > 0;) {
      live_out(f, b, nb, W, first, block, in, tmp);
      uint64_t *bi = &in[(size_t)b * W], *u = &use[(size_t)b * W], *d = &def[(size_t)b * W];
      for (uint32_t j = 0; j < W; j++) {
        uint64_t v = u[j] | (tmp[j] & ~d[j]);
        if (v != bi[j]) { bi[j] = v; changed = true; }
      }
    }
  }
  /* pressure: walk each block backwards from its live-out set */
  for (uint32_t b = 0; b < nb; b++) {
    live_out(f, b, nb, W, first, block, in, tmp);
    regset s = { tmp, 0, ru };
    for (uint32_t j = 0; j < W; j++)
      for (uint64_t x = tmp[j]; x; x &= x - 1) s.units += ru[j * 64 + (uint32_t)__builtin_ctzll(x)];
    for (uint32_t i = first[b + 1]; i-- > first[b];) {
      const isa_insn *x = &f->insns[i];
      bool w = leader[i] & WRITES;
      step_back(f, x, w, &s);
      unsigned u = s.units;
      /* the destination needs a register too while its sources are live */
      if (w && f->ops[x->opi].kind == OK_REG) u += ru[f->ops[x->opi].v];
      if (u > best) best = u;
    }
  }
out:
  free(block); free(leader); free(first); free(use); free(def); free(in); free(tmp); free(ru);
  return best;
}

/* Mark the module's .shared variables that function fi or its callees name. */
static void mark_shared(const isa_module *m, uint32_t fi, uint8_t *seen, uint8_t *used) {
  if (seen[fi]) return;
  seen[fi] = 1;
  const isa_func *f = &m->funcs[fi];
  for (uint32_t pass = 0; pass < 2; pass++) {
    const isa_opnd *v = pass ? f->pool : f->ops;
    uint32_t n = pass ? f->npool : f->nops;
    for (uint32_t i = 0; i < n; i++) {
      if (v[i].kind == OK_FUNC && v[i].v < m->nfuncs) mark_shared(m, v[i].v, seen, used);
      else if ((v[i].kind == OK_ADDR || v[i].kind == OK_SYM) && (v[i].flags & (OF_MODSYM | OF_FUNCSYM)) == OF_MODSYM &&
               v[i].v < m->nsyms && m->syms[v[i].v].space == PTX_SPACE_SHARED)
        used[v[i].v] = 1;
    }
  }
}

/* Static shared memory of a kernel: the variables it (or a callee) names,
 * laid out in module order, as the emulator does. */
static uint64_t kernel_shared(const isa_module *m, uint32_t fi, uint8_t *seen, uint8_t *used) {
  memset(seen, 0, m->nfuncs ? m->nfuncs : 1);
  memset(used, 0, m->nsyms ? m->nsyms : 1);
  mark_shared(m, fi, seen, used);
  uint64_t shared = 0;
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *s = &m->syms[i];
    if (!used[i] || s->dim_open || (s->linkage & PTX_LINK_EXTERN)) continue;
    uint64_t a = s->align ? s->align : 1;
    shared = (shared + a - 1) / a * a + s->size;
    if (shared > ISA_MAX_VAR_BYTES) return UINT64_MAX;     /* sizes are at most 2^48: the sum never wraps */
  }
  return shared;
}

void isa_resources(isa_module *m) {
  uint8_t *seen = calloc(m->nfuncs ? m->nfuncs : 1, 1), *used = calloc(m->nsyms ? m->nsyms : 1, 1);
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
    f->shared_bytes = seen && used ? kernel_shared(m, i, seen, used) : 0;
  }
  free(seen);
  free(used);
}
