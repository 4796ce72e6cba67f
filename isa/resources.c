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

unsigned isa_reg_units(uint8_t t) {
  int b = ptx_type_bits((enum ptx_type)t);
  return b <= 1 ? 0 : b <= 32 ? 1 : (unsigned)b / 32;
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

/* The control-flow graph of a function's basic blocks, both ways (CSR).
 * Node nb is a hub for the .branchtargets tables: every brx.idx block
 * flows into it and it flows into every table target, so a function with
 * many indirect branches still has edges linear in its size. */
typedef struct cfg { uint32_t nb, *soff, *succ, *poff, *pred; } cfg;

static void cfg_free(cfg *g) { free(g->soff); free(g->succ); free(g->poff); free(g->pred); }

/* Successors of block b (b < nb) into out (when not NULL); returns their number. */
static uint32_t block_succs(const isa_func *f, uint32_t b, uint32_t nb, const uint32_t *first, const uint32_t *block, uint32_t *out) {
  uint32_t n = f->ninsns, last = first[b + 1] - 1, k = 0;
  const isa_insn *x = &f->insns[last];
  if (!(ends_flow(x) || (x->op == OP_BRA && x->guard < 0)) && last + 1 < n) { if (out) out[k] = block[last + 1]; k++; }
  if (may_branch(x))
    for (uint32_t i = 0; i < x->nops; i++) {
      const isa_opnd *o = &f->ops[x->opi + i];
      if (o->kind == OK_LABEL && o->v < n) { if (out) out[k] = block[o->v]; k++; }
    }
  if (x->op == OP_BRX_IDX) { if (out) out[k] = nb; k++; }
  return k;
}

static int cfg_build(const isa_func *f, uint32_t nb, const uint32_t *first, const uint32_t *block, cfg *g) {
  uint32_t n = f->ninsns, nn = nb + 1;
  memset(g, 0, sizeof *g);
  g->nb = nb;
  g->soff = calloc((size_t)nn + 1, sizeof *g->soff);
  g->poff = calloc((size_t)nn + 2, sizeof *g->poff);
  if (!g->soff || !g->poff) return -1;
  uint64_t ne = 0;
  for (uint32_t b = 0; b < nb; b++) { g->soff[b] = (uint32_t)ne; ne += block_succs(f, b, nb, first, block, NULL); if (ne > UINT32_MAX / 2) return -1; }
  g->soff[nb] = (uint32_t)ne;
  for (uint32_t t = 0; t < f->ntables; t++)
    if (!f->tables[t].calls) { ne += f->tables[t].n; if (ne > UINT32_MAX / 2) return -1; }
  g->soff[nn] = (uint32_t)ne;
  g->succ = malloc((ne ? ne : 1) * sizeof *g->succ);
  g->pred = malloc((ne ? ne : 1) * sizeof *g->pred);
  if (!g->succ || !g->pred) return -1;
  for (uint32_t b = 0; b < nb; b++) block_succs(f, b, nb, first, block, &g->succ[g->soff[b]]);
  uint32_t k = g->soff[nb];
  for (uint32_t t = 0; t < f->ntables; t++)
    if (!f->tables[t].calls)
      for (uint32_t i = 0; i < f->tables[t].n; i++) g->succ[k++] = f->tables[t].pcs[i] < n ? block[f->tables[t].pcs[i]] : nb;
  /* predecessors: count, prefix sums, fill */
  for (uint32_t b = 0; b < nn; b++)
    for (uint32_t e = g->soff[b]; e < g->soff[b + 1]; e++) g->poff[g->succ[e] + 2]++;
  for (uint32_t b = 0; b < nn; b++) g->poff[b + 2] += g->poff[b + 1];
  for (uint32_t b = 0; b < nn; b++)
    for (uint32_t e = g->soff[b]; e < g->soff[b + 1]; e++) g->pred[g->poff[g->succ[e] + 1]++] = b;
  return 0;
}

/* Live-out of block b: the live-in of its successors. */
static void live_out(const cfg *g, uint32_t b, uint32_t W, const uint64_t *in, uint64_t *out) {
  memset(out, 0, W * 8);
  for (uint32_t e = g->soff[b]; e < g->soff[b + 1]; e++) {
    const uint64_t *s = &in[(size_t)g->succ[e] * W];
    for (uint32_t j = 0; j < W; j++) out[j] |= s[j];
  }
}

/* Live-in of every node: in = use | (out & ~def), the least fixed point.
 * Solved one word of 64 registers at a time by pushing newly live bits
 * to predecessors from a work queue: a node is queued again only when it
 * gains a bit, at most 64 times per word, so the work is bounded by
 * 64 x edges x words however the loops nest (a round-robin sweep needs
 * one pass per back edge on a chain of overlapping loops). */
static int solve_live_in(const cfg *g, uint32_t W, const uint64_t *use, const uint64_t *def, uint64_t *in) {
  uint32_t nn = g->nb + 1;
  uint64_t *pend = calloc(nn, 8);
  uint32_t *queue = malloc((size_t)nn * sizeof *queue);
  uint8_t *queued = calloc(nn, 1);
  if (!pend || !queue || !queued) { free(pend); free(queue); free(queued); return -1; }
  for (uint32_t j = 0; j < W; j++) {
    uint32_t head = 0, count = 0;
    for (uint32_t b = 0; b < nn; b++) {
      uint64_t u = use[(size_t)b * W + j];
      in[(size_t)b * W + j] = u;
      if (u) { pend[b] = u; queue[(head + count++) % nn] = b; queued[b] = 1; }
    }
    while (count) {
      uint32_t b = queue[head];
      head = (head + 1) % nn;
      count--;
      queued[b] = 0;
      uint64_t bits = pend[b];
      pend[b] = 0;
      for (uint32_t e = g->poff[b]; e < g->poff[b + 1]; e++) {
        uint32_t p = g->pred[e];
        uint64_t add = bits & ~def[(size_t)p * W + j] & ~in[(size_t)p * W + j];
        if (!add) continue;
        in[(size_t)p * W + j] |= add;
        pend[p] |= add;
        if (!queued[p]) { queued[p] = 1; queue[(head + count++) % nn] = p; }
      }
    }
  }
  free(pend); free(queue); free(queued);
  return 0;
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
  for (uint32_t r = 0; r < f->nregs; r++) declared += ru[r] = (uint8_t)isa_reg_units(f->regtype[r]);
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
  /* the live sets are nb x W words: past 32 MiB of them, the declared registers */
  if (!first || ((uint64_t)nb + 1) * W > (1u << 22)) { free(block); free(leader); free(first); free(ru); return declared; }
  for (uint32_t i = 0, b = 0; i < n; i++) if (leader[i] & LEADER) first[b++] = i;
  first[nb] = n;
  /* use/def of each block (node nb, the tables' hub, has neither), then live-in */
  size_t words = ((size_t)nb + 1) * W;
  uint64_t *use = calloc(words, 8), *def = calloc(words, 8), *in = calloc(words, 8);
  uint64_t *tmp = calloc(W, 8);
  unsigned best = 0;
  cfg cfg;
  int built = cfg_build(f, nb, first, block, &cfg);
  if (built || !use || !def || !in || !tmp) { best = declared; goto out; }
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
  if (solve_live_in(&cfg, W, use, def, in)) { best = declared; goto out; }
  /* pressure: walk each block backwards from its live-out set */
  for (uint32_t b = 0; b < nb; b++) {
    live_out(&cfg, b, W, in, tmp);
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
  cfg_free(&cfg);
  free(block); free(leader); free(first); free(use); free(def); free(in); free(tmp); free(ru);
  return best;
}

/* Who calls whom and which .shared variables each function names itself,
 * gathered once from the operands (CSR lists, function by function). */
typedef struct callgraph { uint32_t *coff, *callee, *voff, *var; } callgraph;

static int callgraph_build(const isa_module *m, callgraph *g) {
  uint32_t nf = m->nfuncs;
  memset(g, 0, sizeof *g);
  g->coff = calloc((size_t)nf + 1, sizeof *g->coff);
  g->voff = calloc((size_t)nf + 1, sizeof *g->voff);
  if (!g->coff || !g->voff) return -1;
  uint64_t nc = 0, nv = 0;
  for (int fill = 0; fill < 2; fill++) {
    nc = nv = 0;
    for (uint32_t fi = 0; fi < nf; fi++) {
      const isa_func *f = &m->funcs[fi];
      g->coff[fi] = (uint32_t)nc;
      g->voff[fi] = (uint32_t)nv;
      for (uint32_t pass = 0; pass < 2; pass++) {
        const isa_opnd *v = pass ? f->pool : f->ops;
        uint32_t n = pass ? f->npool : f->nops;
        for (uint32_t i = 0; i < n; i++) {
          if (v[i].kind == OK_FUNC && v[i].v < nf) { if (fill) g->callee[nc] = v[i].v; nc++; }
          else if ((v[i].kind == OK_ADDR || v[i].kind == OK_SYM) && (v[i].flags & (OF_MODSYM | OF_FUNCSYM)) == OF_MODSYM &&
                   v[i].v < m->nsyms && m->syms[v[i].v].space == PTX_SPACE_SHARED) { if (fill) g->var[nv] = v[i].v; nv++; }
        }
      }
      if (nc > UINT32_MAX / 2 || nv > UINT32_MAX / 2) return -1;
    }
    g->coff[nf] = (uint32_t)nc;
    g->voff[nf] = (uint32_t)nv;
    if (!fill) {
      g->callee = malloc((nc ? nc : 1) * sizeof *g->callee);
      g->var = malloc((nv ? nv : 1) * sizeof *g->var);
      if (!g->callee || !g->var) return -1;
    }
  }
  return 0;
}

static void callgraph_free(callgraph *g) { free(g->coff); free(g->callee); free(g->voff); free(g->var); }

static int cmp_u32(const void *a, const void *b) { uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b; return x < y ? -1 : x > y; }

/* Static shared memory of a kernel: the variables it (or a callee) names,
 * laid out in module order, as the emulator does.  One walk over the
 * functions it reaches (callees: false, its own alone) without recursion,
 * as call chains may be long; seen[f] ==
 * stamp marks those visited by this walk, stack and vars have room for
 * every function and every variable reference. */
static uint64_t kernel_shared(const isa_module *m, const callgraph *g, uint32_t fi, bool callees, uint32_t *seen,
                              uint32_t stamp, uint32_t *stack, uint32_t *vars, uint8_t *used) {
  uint32_t sp = 0, nv = 0;
  stack[sp++] = fi;
  seen[fi] = stamp;
  while (sp) {
    uint32_t f = stack[--sp];
    for (uint32_t k = g->voff[f]; k < g->voff[f + 1]; k++)
      if (!used[g->var[k]]) { used[g->var[k]] = 1; vars[nv++] = g->var[k]; }
    for (uint32_t k = g->coff[f]; k < g->coff[f + 1] && callees; k++)
      if (seen[g->callee[k]] != stamp) { seen[g->callee[k]] = stamp; stack[sp++] = g->callee[k]; }
  }
  qsort(vars, nv, sizeof *vars, cmp_u32);
  uint64_t shared = 0;
  for (uint32_t i = 0; i < nv; i++) {
    const isa_sym *s = &m->syms[vars[i]];
    used[vars[i]] = 0;
    if (s->dim_open || (s->linkage & PTX_LINK_EXTERN)) continue;
    uint64_t a = s->align ? s->align : 1;
    shared = (shared + a - 1) / a * a + s->size;
    if (shared > ISA_MAX_VAR_BYTES) return UINT64_MAX;     /* sizes are at most 2^48: the sum never wraps */
  }
  return shared;
}

void isa_resources(isa_module *m) {
  callgraph g;
  uint32_t nf = m->nfuncs;
  int ok = callgraph_build(m, &g) == 0;
  uint32_t *seen = calloc(nf ? nf : 1, sizeof *seen), *stack = malloc((nf ? nf : 1) * sizeof *stack);
  uint32_t *vars = ok ? malloc(((size_t)g.voff[nf] + 1) * sizeof *vars) : NULL;
  uint8_t *used = calloc(m->nsyms ? m->nsyms : 1, 1);
  ok = ok && seen && stack && vars && used;
  for (uint32_t i = 0; i < nf; i++) {
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
    /* kernels: what they reach (a walk per kernel); a device function's own
     * figure (only the variables it names itself) keeps the work linear */
    f->shared_bytes = 0;
    if (ok && (f->is_entry || g.voff[i] < g.voff[i + 1]))
      f->shared_bytes = kernel_shared(m, &g, i, f->is_entry, seen, i + 1, stack, vars, used);
  }
  callgraph_free(&g);
  free(seen); free(stack); free(vars); free(used);
}
