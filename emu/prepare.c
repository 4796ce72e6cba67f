/* emu/prepare.c - turn the functions a kernel can reach into one program
 * of prepared instructions (xinsn): global PCs, operands resolved to
 * register rows or constant rows, handlers chosen once by the family files,
 * and the local-memory frame of each function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"

static const isa_insn implicit_ret = { .op = OP_RET, .guard = -1 };

/* Special register + component -> SR_* row offset. */
static int sr_row(uint32_t sreg, uint32_t comp) {
  int c = comp >= 1 && comp <= 3 ? (int)comp - 1 : 0;
  switch (sreg) {
  case SREG_TID: return SR_TID_X + c;
  case SREG_NTID: return SR_NTID_X + c;
  case SREG_CTAID: return SR_CTAID_X + c;
  case SREG_NCTAID: return SR_NCTAID_X + c;
  case SREG_LANEID: return SR_LANEID;
  case SREG_WARPID: return SR_WARPID;
  case SREG_NWARPID: return SR_NWARPID;
  case SREG_SMID: return SR_SMID;
  case SREG_NSMID: return SR_NSMID;
  case SREG_GRIDID: return SR_GRIDID;
  case SREG_LANEMASK_EQ: return SR_LANEMASK_EQ;
  case SREG_LANEMASK_LE: return SR_LANEMASK_LE;
  case SREG_LANEMASK_LT: return SR_LANEMASK_LT;
  case SREG_LANEMASK_GE: return SR_LANEMASK_GE;
  case SREG_LANEMASK_GT: return SR_LANEMASK_GT;
  case SREG_CLOCK: return SR_CLOCK;
  case SREG_CLOCK_HI: return SR_CLOCK_HI;
  case SREG_CLOCK64: return SR_CLOCK64;
  case SREG_GLOBALTIMER: return SR_GLOBALTIMER;
  case SREG_GLOBALTIMER_LO: return SR_GLOBALTIMER_LO;
  case SREG_GLOBALTIMER_HI: return SR_GLOBALTIMER_HI;
  case SREG_DYNAMIC_SMEM_SIZE: return SR_DYNAMIC_SMEM_SIZE;
  case SREG_TOTAL_SMEM_SIZE: return SR_TOTAL_SMEM_SIZE;
  case SREG_AGGR_SMEM_SIZE: return SR_AGGR_SMEM_SIZE;
  case SREG_CLUSTERID: return SR_CLUSTERID_X + c;
  case SREG_NCLUSTERID: return SR_NCLUSTERID_X + c;
  case SREG_CLUSTER_CTAID: return SR_CLUSTER_CTAID_X + c;
  case SREG_CLUSTER_NCTAID: return SR_CLUSTER_NCTAID_X + c;
  case SREG_CLUSTER_CTARANK: return SR_CLUSTER_CTARANK;
  case SREG_CLUSTER_NCTARANK: return SR_CLUSTER_NCTARANK;
  case SREG_IS_EXPLICIT_CLUSTER: return SR_IS_EXPLICIT_CLUSTER;
  case SREG_ENVREG: return comp < 32 ? SR_ENVREG0 + (int)comp : SR_ZERO;
  default: return SR_ZERO;
  }
}

int emu_row_of(const emu *e, const xinsn *x, const isa_opnd *o) {
  if ((o->kind == OK_REG || o->kind == OK_SREG) && (o->flags & OF_OFFSET)) {   /* r+imm: the row the sum is put in */
    ptrdiff_t k = o - &x->f->ops[x->in->opi];
    if (k >= 0 && k < ISA_MAX_OFFSET_OPND) return (int)(e->off_base + (uint32_t)k);
  }
  if (o->kind == OK_REG) return emu_reg_row(e, x, o->v);
  if (o->kind == OK_SREG) return (int)e->sr_base + sr_row(o->v, o->n);
  return -1;
}

/* The row an r+imm operand adds its offset to (the register's own). */
int emu_offset_src_row(const emu *e, const xinsn *x, const isa_opnd *o) {
  if (o->kind == OK_SREG) return (int)e->sr_base + sr_row(o->v, o->n);
  return emu_reg_row(e, x, o->v);
}

static uint32_t konst_slot(uint64_t v, uint32_t cap) { return (uint32_t)((v * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1); }

/* The constant row holding v in every lane (found through a hash: a kernel
 * may have tens of thousands of distinct immediates); 0 when out of memory. */
int32_t emu_konst_row(emu *e, uint64_t v) {
  if (e->konst_icap) {
    for (uint32_t h = konst_slot(v, e->konst_icap); e->konst_index[h]; h = (h + 1) & (e->konst_icap - 1))
      if (e->konst[e->konst_index[h] - 1][0] == v) return -(int32_t)e->konst_index[h];
  }
  if (e->nkonst == e->capkonst) {
    if (e->capkonst >= (1u << 26)) return 0;
    uint32_t nc = e->capkonst ? e->capkonst * 2 : 64;
    void *nk = realloc(e->konst, nc * sizeof *e->konst);
    uint32_t *ni = calloc((size_t)nc * 2, sizeof *ni);
    if (!nk || !ni) { if (nk) e->konst = nk; free(ni); return 0; }
    e->konst = nk;
    e->capkonst = nc;
    free(e->konst_index);
    e->konst_index = ni;
    e->konst_icap = nc * 2;
    for (uint32_t i = 0; i < e->nkonst; i++) {
      uint32_t h = konst_slot(e->konst[i][0], e->konst_icap);
      while (ni[h]) h = (h + 1) & (e->konst_icap - 1);
      ni[h] = i + 1;
    }
  }
  FOR_LANES(i) e->konst[e->nkonst][i] = v;
  uint32_t h = konst_slot(v, e->konst_icap);
  while (e->konst_index[h]) h = (h + 1) & (e->konst_icap - 1);
  e->konst_index[h] = ++e->nkonst;
  return -(int32_t)e->nkonst;
}

/* Functions the kernel can reach: direct calls, call tables, and every
 * function whose address is taken anywhere (indirect calls).  An explicit
 * stack, not recursion: a call chain may be 50,000 functions long; stack
 * has room for m->nfuncs entries. */
static void reach(const isa_module *m, uint32_t root, uint8_t *mark, uint32_t *stack) {
  uint32_t sp = 0, nf = m->nfuncs;
  if (root >= nf || mark[root]) return;
  mark[root] = 1;
  stack[sp++] = root;
#define PUSH(g) do { uint32_t g_ = (g); if (g_ < nf && !mark[g_]) { mark[g_] = 1; stack[sp++] = g_; } } while (0)
  while (sp) {
    const isa_func *fn = &m->funcs[stack[--sp]];
    for (uint32_t i = 0; i < fn->nops; i++) if (fn->ops[i].kind == OK_FUNC && fn->ops[i].v < nf && !m->funcs[fn->ops[i].v].is_proto) PUSH(fn->ops[i].v);
    for (uint32_t i = 0; i < fn->npool; i++) if (fn->pool[i].kind == OK_FUNC && fn->pool[i].v < nf && !m->funcs[fn->pool[i].v].is_proto) PUSH(fn->pool[i].v);
    for (uint32_t t = 0; t < fn->ntables; t++)
      if (fn->tables[t].calls) for (uint32_t k = 0; k < fn->tables[t].n; k++) PUSH(fn->tables[t].pcs[k]);
  }
#undef PUSH
}

static uint64_t layout_shared(const isa_module *m, const uint8_t *reached, uint64_t *sym_off);

/* Functions the kernel can reach, marked in mark (m->nfuncs bytes). */
static void reach_kernel(const isa_module *m, uint32_t kernel, uint8_t *mark, uint32_t *stack) {
  reach(m, kernel, mark, stack);
  /* functions whose address is taken by module variables can be called indirectly */
  for (uint32_t i = 0; i < m->nsyms; i++)
    for (uint32_t k = 0; k < m->syms[i].nrelocs; k++)
      if (m->syms[i].relocs[k].sym >= m->nsyms) reach(m, UINT32_MAX - m->syms[i].relocs[k].sym, mark, stack);
}

/* The shared layout of a launch of kernel (layout_shared over the
 * functions it reaches); UINT64_MAX when it fails or memory runs out. */
static uint64_t kernel_shared(const isa_module *m, int kernel, uint64_t *sym_off) {
  uint8_t *mark = calloc(m->nfuncs ? m->nfuncs : 1, 1);
  uint32_t *stack = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof *stack);
  uint64_t n = UINT64_MAX;
  if (mark && stack) {
    reach_kernel(m, (uint32_t)kernel, mark, stack);
    n = layout_shared(m, mark, sym_off);
  }
  free(mark);
  free(stack);
  return n;
}

uint64_t emu_static_shared(const isa_module *m, int kernel) { return kernel_shared(m, kernel, NULL); }

bool emu_shared_offset(const isa_module *m, int kernel, uint32_t sym, uint64_t *off) {
  uint64_t *offs = sym < m->nsyms ? calloc(m->nsyms, sizeof *offs) : NULL;
  /* a variable the kernel does not name has no place (offset 0 is the
   * reserved bytes') */
  bool ok = offs && kernel_shared(m, kernel, offs) != UINT64_MAX && offs[sym] >= EMU_SHARED_RESERVED;
  if (ok) *off = offs[sym];
  free(offs);
  return ok;
}

/* Calls between functions with bodies, as lists: the graph recursion and
 * stack depth are read from.  A direct call (any operand naming a
 * function) is an edge to it; an indirect call (through a register: a
 * virtual function, a function pointer) is an edge to every function whose
 * address is taken (named by an operand other than a call's target, by a
 * module variable's initializer, or by a call table), since any of them may
 * be its target at run time. */
typedef struct calls { uint32_t *off, *to; } calls;

static const isa_opnd *call_target(const isa_func *fn, const isa_insn *in) {
  const isa_opnd *ops = &fn->ops[in->opi];
  uint32_t k = in->nops && ops[0].kind == OK_LIST ? 1 : 0;
  return k < in->nops ? &ops[k] : NULL;
}

static bool callable(const isa_module *m, uint32_t f) { return f < m->nfuncs && m->funcs[f].has_body && !m->funcs[f].is_proto; }

/* taken[f]: f's address is taken; indirect[f]: f calls through a register. */
static void address_taken(const isa_module *m, uint8_t *taken, uint8_t *indirect) {
  uint32_t nf = m->nfuncs;
  for (uint32_t i = 0; i < m->nsyms; i++)
    for (uint32_t k = 0; k < m->syms[i].nrelocs; k++)
      if (m->syms[i].relocs[k].sym >= m->nsyms && UINT32_MAX - m->syms[i].relocs[k].sym < nf) taken[UINT32_MAX - m->syms[i].relocs[k].sym] = 1;
  for (uint32_t f = 0; f < nf; f++) {
    const isa_func *fn = &m->funcs[f];
    for (uint32_t i = 0; i < fn->ninsns; i++) {
      const isa_insn *in = &fn->insns[i];
      const isa_opnd *tgt = in->op == OP_CALL ? call_target(fn, in) : NULL;
      if (tgt && tgt->kind != OK_FUNC) indirect[f] = 1;
      for (uint32_t k = 0; k < in->nops; k++) {
        const isa_opnd *o = &fn->ops[in->opi + k];
        if (o != tgt && o->kind == OK_FUNC && o->v < nf) taken[o->v] = 1;
      }
    }
    for (uint32_t i = 0; i < fn->npool; i++) if (fn->pool[i].kind == OK_FUNC && fn->pool[i].v < nf) taken[fn->pool[i].v] = 1;
    for (uint32_t t = 0; t < fn->ntables; t++)
      if (fn->tables[t].calls) for (uint32_t k = 0; k < fn->tables[t].n; k++) if (fn->tables[t].pcs[k] < nf) taken[fn->tables[t].pcs[k]] = 1;
  }
}

static int calls_build(const emu *e, calls *c) {
  const isa_module *m = e->m;
  uint32_t nf = m->nfuncs;
  c->off = calloc((size_t)nf + 1, sizeof *c->off);
  c->to = NULL;
  uint8_t *taken = calloc(nf ? nf : 1, 1), *indirect = calloc(nf ? nf : 1, 1);
  if (!c->off || !taken || !indirect) { free(taken); free(indirect); return -1; }
  address_taken(m, taken, indirect);
  uint64_t n = 0;
  for (int fill = 0; fill < 2; fill++) {
    n = 0;
    for (uint32_t f = 0; f < nf; f++) {
      const isa_func *fn = &m->funcs[f];
      c->off[f] = (uint32_t)n;
      for (uint32_t i = 0; i < fn->nops; i++) {
        const isa_opnd *o = &fn->ops[i];
        if (o->kind == OK_FUNC && callable(m, o->v)) { if (fill) c->to[n] = o->v; n++; }
      }
      if (indirect[f])
        for (uint32_t g = 0; g < nf; g++) if (taken[g] && callable(m, g)) { if (fill) c->to[n] = g; n++; }
      if (n > UINT32_MAX / 2) { free(taken); free(indirect); return -1; }
    }
    c->off[nf] = (uint32_t)n;
    if (!fill && !(c->to = malloc((n ? n : 1) * sizeof *c->to))) { free(taken); free(indirect); return -1; }
  }
  free(taken);
  free(indirect);
  return 0;
}

/* Strongly connected components of the call graph among the reached
 * functions (Tarjan's algorithm without recursion), each found after every
 * component it calls into: a function is recursive when its component has
 * more than one member or it calls itself, and the deepest chain of frames
 * below a component is its own frames plus the deepest of the components
 * it calls (all of its frames: a bound on the longest path through it).
 * Linear in the number of functions and calls. */
static int call_depths(emu *e, const calls *c, const uint8_t *reached, uint32_t kernel, uint64_t *need_out) {
  uint32_t nf = e->m->nfuncs, idx = 0, sp = 0, cp = 0, ncomp = 0;
  uint32_t *index = malloc((size_t)nf * sizeof *index), *low = malloc((size_t)nf * sizeof *low);
  uint32_t *comp = malloc((size_t)nf * sizeof *comp), *stack = malloc((size_t)nf * sizeof *stack);
  uint32_t *cnode = malloc((size_t)nf * sizeof *cnode), *cedge = malloc((size_t)nf * sizeof *cedge);
  uint64_t *need = malloc((size_t)nf * sizeof *need);
  int rc = -1;
  if (!index || !low || !comp || !stack || !cnode || !cedge || !need) goto out;
  for (uint32_t f = 0; f < nf; f++) { index[f] = UINT32_MAX; comp[f] = UINT32_MAX; }
  for (uint32_t root = 0; root < nf; root++) {
    if (!reached[root] || index[root] != UINT32_MAX) continue;
    cnode[cp] = root; cedge[cp++] = c->off[root];
    index[root] = low[root] = idx++;
    stack[sp++] = root;
    while (cp) {
      uint32_t v = cnode[cp - 1];
      if (cedge[cp - 1] < c->off[v + 1]) {
        uint32_t w = c->to[cedge[cp - 1]++];
        if (index[w] == UINT32_MAX) {
          index[w] = low[w] = idx++;
          stack[sp++] = w;
          cnode[cp] = w; cedge[cp++] = c->off[w];
        } else if (comp[w] == UINT32_MAX && index[w] < low[v]) low[v] = index[w];   /* w is on the stack */
        continue;
      }
      cp--;
      if (cp && low[v] < low[cnode[cp - 1]]) low[cnode[cp - 1]] = low[v];
      if (low[v] != index[v]) continue;
      /* v roots a component: pop it, then its depth from the components below */
      uint32_t top = sp;
      do comp[stack[--sp]] = ncomp; while (stack[sp] != v);
      uint64_t frames = 0, below = 0;
      for (uint32_t k = sp; k < top; k++) {
        uint32_t f = stack[k];
        frames += e->frame_size[f];
        for (uint32_t j = c->off[f]; j < c->off[f + 1]; j++) {
          uint32_t g = c->to[j];
          if (comp[g] == ncomp) { e->recursive[f] = 1; continue; }
          if (need[g] > below) below = need[g];
        }
      }
      if (top - sp > 1) for (uint32_t k = sp; k < top; k++) e->recursive[stack[k]] = 1;
      for (uint32_t k = sp; k < top; k++) need[stack[k]] = frames + below;
      ncomp++;
    }
  }
  *need_out = need[kernel];
  rc = 0;
out:
  free(index); free(low); free(comp); free(stack); free(cnode); free(cedge); free(need);
  return rc;
}

static uint64_t al(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* Why emu_prepare refused the kernel (a limit, not a lack of memory). */
static int refuse(emu *e, const char *fmt, const char *name, unsigned long long n) {
  e->fault.kind = FAULT_MEMORY;
  snprintf(e->fault.msg, sizeof e->fault.msg, fmt, name, n);
  return -1;
}

/* The frame is laid out in 64 bits and must fit the 32-bit offsets that
 * calls use (the object reader and the assembler keep each area within
 * ISA_MAX_FRAME_BYTES; saved registers of a recursive function add 8 bytes
 * each). */
static int layout_frame(emu *e, uint32_t fi) {
  const isa_func *f = &e->m->funcs[fi];
  uint64_t rets = 0, params = 0, scoped = 0;
  for (uint32_t k = 0; k < f->nsyms; k++) {
    const isa_sym *s = &f->syms[k];
    if (s->space != PTX_SPACE_PARAM) continue;
    uint64_t end = s->offset + s->size;
    if (k < f->nrets) { if (end > rets) rets = end; }
    else if (k < f->nrets + f->nparams) { if (end > params) params = end; }
    else if (end > scoped) scoped = end;
  }
  if (rets > ISA_MAX_FRAME_BYTES || params > ISA_MAX_FRAME_BYTES || scoped > ISA_MAX_FRAME_BYTES || f->local_bytes > ISA_MAX_FRAME_BYTES)
    return refuse(e, "the stack frame of '%s' is larger than %llu bytes", f->name, 4ull * ISA_MAX_FRAME_BYTES);
  uint64_t params_off = al(16 + rets, 16);                   /* header: return pc, caller fp */
  uint64_t local_off = al(params_off + params, 16);
  uint64_t scoped_off = al(local_off + f->local_bytes, 16);
  uint64_t end = al(scoped_off + scoped, 16), regsave = end;
  if (e->recursive[fi]) end += 8ull * f->nregs;
  end = al(end, 16);
  if (end > UINT32_MAX / 2)
    return refuse(e, "the stack frame of '%s' needs %llu bytes, more than 2 GiB", f->name, end);
  e->rets_off[fi] = 16;
  e->params_off[fi] = (uint32_t)params_off;
  e->local_off[fi] = (uint32_t)local_off;
  e->scoped_param_off[fi] = (uint32_t)scoped_off;
  e->regsave_off[fi] = (uint32_t)regsave;
  e->frame_size[fi] = (uint32_t)end;
  return 0;
}

/* Shared memory of this kernel: the module's .shared variables that the
 * kernel or its callees name, in module order; dynamic (extern, unsized)
 * arrays start after them, 16-byte aligned.  Returns where they start (the
 * static size), UINT64_MAX past 2^48 (sizes are at most that, so the sum
 * is exact below it); sym_off (when not NULL) gets each variable's offset
 * in the CTA's window, after the reserved bytes (EMU_SHARED_RESERVED). */
static uint64_t layout_shared(const isa_module *m, const uint8_t *reached, uint64_t *sym_off) {
  uint8_t *used = calloc(m->nsyms ? m->nsyms : 1, 1);
  if (!used) return UINT64_MAX;
  for (uint32_t f = 0; f < m->nfuncs; f++) {
    if (!reached[f]) continue;
    const isa_func *fn = &m->funcs[f];
    for (uint32_t pass = 0; pass < 2; pass++) {
      const isa_opnd *v = pass ? fn->pool : fn->ops;
      uint32_t n = pass ? fn->npool : fn->nops;
      for (uint32_t i = 0; i < n; i++)
        if ((v[i].kind == OK_ADDR || v[i].kind == OK_SYM) && (v[i].flags & (OF_MODSYM | OF_FUNCSYM)) == OF_MODSYM &&
            v[i].v < m->nsyms && m->syms[v[i].v].space == PTX_SPACE_SHARED) used[v[i].v] = 1;
    }
  }
  /* shared variables whose address initialises a global one are used too */
  for (uint32_t i = 0; i < m->nsyms; i++)
    for (uint32_t k = 0; k < m->syms[i].nrelocs; k++)
      if (m->syms[i].relocs[k].sym < m->nsyms) used[m->syms[i].relocs[k].sym] = 1;
  uint64_t off = 0;
  for (uint32_t i = 0; i < m->nsyms; i++) {
    const isa_sym *s = &m->syms[i];
    if (s->space != PTX_SPACE_SHARED || !used[i] || s->dim_open || (s->linkage & PTX_LINK_EXTERN)) continue;
    uint64_t a = s->align ? s->align : 1;
    off = (off + a - 1) / a * a;
    if (sym_off) sym_off[i] = EMU_SHARED_RESERVED + off;
    off += s->size > ISA_MAX_VAR_BYTES ? ISA_MAX_VAR_BYTES + 1 : s->size;
    if (off > ISA_MAX_VAR_BYTES) { free(used); return UINT64_MAX; }
  }
  uint64_t dyn = (off + 15) & ~15ull;
  for (uint32_t i = 0; i < m->nsyms && sym_off; i++) {
    const isa_sym *s = &m->syms[i];
    if (s->space == PTX_SPACE_SHARED && (s->dim_open || (s->linkage & PTX_LINK_EXTERN))) sym_off[i] = EMU_SHARED_RESERVED + dyn;
  }
  free(used);
  return dyn;
}

void emu_unprepare(emu *e) {
  emu_rows_unpack(e);
  free(e->prog); e->prog = NULL; e->nprog = 0;
  free(e->konst); e->konst = NULL; e->nkonst = e->capkonst = 0;
  free(e->konst_index); e->konst_index = NULL; e->konst_icap = 0;
  free(e->func_base); free(e->row_base); free(e->frame_size); free(e->params_off); free(e->rets_off);
  free(e->scoped_param_off); free(e->local_off); free(e->regsave_off); free(e->recursive);
  e->func_base = e->row_base = e->frame_size = e->params_off = e->rets_off = NULL;
  e->scoped_param_off = e->local_off = e->regsave_off = NULL;
  e->recursive = NULL;
  free(e->clear_runs); e->clear_runs = NULL; e->nclear_runs = 0;
}

static void unsupported(warp *w, const xinsn *x, lanemask m) {
  char name[256];
  isa_format_opname(x->in, name, sizeof name);
  emu_fault_at(w, x, __builtin_ctz(m | 0x80000000u), FAULT_UNSUPPORTED, "'%s' is not supported by this version of ptxemu", name);
}

static int prep_one(emu *e, xinsn *x) {
  static const xprepare preps[] = { prep_ctrl, prep_mem, prep_int, prep_fp, prep_cvt, prep_warp, prep_mma, prep_async, prep_tex };
  for (size_t i = 0; i < sizeof preps / sizeof *preps; i++)
    if (preps[i](e, x) == 0) return 0;
  x->fn = unsupported;
  return 0;
}

/* (internal.h) */
bool emu_mark_uses(const isa_func *fn, const isa_opnd *o, uint8_t *use) {
  switch (o->kind) {
  case OK_REG: use[o->v] = 1; return o->n == 0;
  case OK_ADDR: if (o->flags & OF_BASEREG) use[o->v] = 1; return true;
  case OK_ADDRX: case OK_VEC: case OK_LIST: case OK_PAIR: {
    bool ok = true;
    for (uint32_t j = 0; j < (o->kind == OK_ADDRX ? (o->n ? o->n : 1) : o->n); j++) ok &= emu_mark_uses(fn, &fn->pool[o->v + j], use);
    return ok;
  }
  default: return true;
  }
}

/* The kernel register an instruction certainly writes in every active
 * lane (an unguarded one of the plain families, into a whole register of
 * at most 64 bits, or ld's vector elements), marked in def; false when it
 * writes none that way.  (The guard is x's: a timed run's issue order
 * guards the bodies of the ifs it predicates, emu/reorder.c; their branch,
 * after them, reads the predicate too, so the use emu_insn_regs marks
 * from the PTX's guard still covers them.) */
bool emu_defines(const isa_func *kf, const xinsn *x, uint8_t *def) {
  const isa_insn *in = x->in;
  int fam = isa_ops[in->op].family;
  bool ld = in->op == OP_LD || in->op == OP_LDU;
  if (x->guard >= 0 || !in->nops || !isa_writes_first(in) ||
      !(fam == F_ARITH || fam == F_BITS || fam == F_SFU || fam == F_CMP || fam == F_LOGIC || fam == F_MOV || fam == F_CVT || ld)) return false;
  const isa_opnd *d = &kf->ops[in->opi];
  bool any = false;
  for (uint32_t j = 0; j < (d->kind == OK_VEC ? d->n : 1); j++) {
    const isa_opnd *el = d->kind == OK_VEC ? &kf->pool[d->v + j] : d;
    if (d->kind == OK_VEC && !ld) return false;
    if (el->kind != OK_REG || el->n || (el->flags & OF_OFFSET) || ptx_type_bits((enum ptx_type)kf->regtype[el->v]) > 64) continue;
    def[el->v] = 1;
    any = true;
  }
  return any;
}

bool emu_insn_regs(const isa_func *kf, const xinsn *x, uint8_t *use, uint8_t *def) {
  const isa_insn *in = x->in;
  memset(use, 0, kf->nregs ? kf->nregs : 1);
  memset(def, 0, kf->nregs ? kf->nregs : 1);
  bool d = emu_defines(kf, x, def), ok = true;
  if (in->guard >= 0) use[in->guard] = 1;
  const isa_opnd *ops = in->nops ? &kf->ops[in->opi] : NULL;
  for (uint32_t k = 0; k < in->nops; k++) {
    if (k == 0 && d) {   /* a defined vector's other elements (immediates, sinks) name nothing */
      if (ops[0].kind == OK_VEC)
        for (uint32_t j = 0; j < ops[0].n; j++) {
          const isa_opnd *el = &kf->pool[ops[0].v + j];
          if (!(el->kind == OK_REG && def[el->v])) ok &= emu_mark_uses(kf, el, use);
        }
      continue;
    }
    ok &= emu_mark_uses(kf, &ops[k], use);
  }
  return ok;
}

bool emu_lane_private(const xinsn *x, uint32_t base, uint32_t n) {
  int fam = isa_ops[x->in->op].family, op = x->in->op;
  if (fam == F_WARP || fam == F_MMA) return false;
  if ((x->flags & XF_CONTROL) && op != OP_BRA && op != OP_RET && op != OP_EXIT && op != OP_BAR && op != OP_BARRIER && op != OP_NANOSLEEP) return false;
  return op != OP_BRA || (x->target >= base && x->target < base + n);
}

uint32_t emu_successors(const xinsn *x, uint32_t base, uint32_t n, uint32_t i, uint32_t succ[2]) {
  int op = x->in->op;
  bool guarded = x->guard >= 0;
  uint32_t ns = 0;
  if (op == OP_BRA) { succ[ns++] = x->target - base; if (guarded && i + 1 < n) succ[ns++] = i + 1; }
  else if (op == OP_RET || op == OP_EXIT) { if (guarded && i + 1 < n) succ[ns++] = i + 1; }
  else if (i + 1 < n) succ[ns++] = i + 1;
  return ns;
}

/* Instructions that read other lanes' registers (shuffles, votes,
 * matches, reductions, matrix instructions). */
static bool cross_lane(const xinsn *x) {
  int fam = isa_ops[x->in->op].family;
  return fam == F_WARP || fam == F_MMA;
}

/* What a warp's start sets up (emu_cta_start): the special rows the
 * program names (sr_used), and which register rows a reused register file
 * must have cleared (clear_runs).  A pooled file holds its last warp's
 * values, and a thread must read the same value whatever ran before it on
 * whichever worker: zero, unless the thread certainly wrote the row
 * first.  A forward must-analysis over the kernel's instructions finds the
 * registers written on every path to each instruction (emu_defines());
 * a register that some instruction names where it may not have been
 * written is cleared, and so is every register an instruction reads in
 * other lanes (a shuffle's source, a vote's predicate, a matrix fragment):
 * the lane read may have taken another path, exited, or lie past the
 * block's threads, and must show zero rather than what the file's last
 * warp left.  Kernels with calls, control flow other than bra, ret, exit
 * and barriers, or register components are cleared whole. */
_Static_assert(SR_ENVREG0 <= 64, "sr_used has a bit for each special row before %envreg");

uint32_t *emu_runs_of(const uint8_t *flag, uint32_t n, uint32_t *nruns) {
  uint32_t runs = 0;
  for (uint32_t r = 0; r < n; r++) if (flag[r] && (r == 0 || !flag[r - 1])) runs++;
  uint32_t *v = malloc((runs ? runs : 1) * 2 * sizeof *v);
  if (!v) return NULL;
  *nruns = 0;
  for (uint32_t r = 0; r < n; r++) {
    if (!flag[r]) continue;
    if (r == 0 || !flag[r - 1]) { v[2 * *nruns] = r; v[2 * *nruns + 1] = 0; (*nruns)++; }
    v[2 * *nruns - 1]++;
  }
  return v;
}

static int plan_warp_start(emu *e, uint32_t kernel) {
  const isa_module *m = e->m;
  e->sr_used = 0;
  bool whole = false;
  for (uint32_t f = 0; f < m->nfuncs; f++) {
    if (e->func_base[f] == UINT32_MAX) continue;
    const isa_func *fn = &m->funcs[f];
    if (f != kernel && fn->nregs) whole = true;
    for (int pass = 0; pass < 2; pass++)
      for (uint32_t i = 0; i < (pass ? fn->npool : fn->nops); i++) {
        const isa_opnd *o = pass ? &fn->pool[i] : &fn->ops[i];
        if (o->kind == OK_SREG && sr_row(o->v, o->n) < SR_ENVREG0) e->sr_used |= 1ull << sr_row(o->v, o->n);
      }
  }
  const isa_func *kf = &m->funcs[kernel];
  uint32_t n = kf->ninsns + 1, nr = kf->nregs, words = (nr + 63) / 64, base = e->func_base[kernel], kb = e->row_base[kernel];
  /* too large to analyse: clear it all (the analysis costs about n x nr
   * steps and n x words per pass; a 50,000-instruction kernel of 10,000
   * registers took 13 s) */
  if ((uint64_t)n * (words ? words : 1) > (1u << 20) || (uint64_t)n * (nr ? nr : 1) > (32u << 20)) whole = true;
  uint8_t *clear = calloc(e->sr_base ? e->sr_base : 1, 1), *use = calloc(nr ? nr : 1, 1), *def = calloc(nr ? nr : 1, 1);
  uint64_t *in = whole ? NULL : malloc((size_t)n * (words ? words : 1) * 8), *nin = whole ? NULL : malloc((size_t)n * (words ? words : 1) * 8);
  uint64_t *dset = whole ? NULL : calloc((size_t)n * (words ? words : 1), 8);
  if (!clear || !use || !def || (!whole && (!in || !nin || !dset))) { free(clear); free(use); free(def); free(in); free(nin); free(dset); return -1; }
  for (uint32_t i = 0; i < n && !whole; i++) {
    const xinsn *x = &e->prog[base + i];
    if (!cross_lane(x) && !emu_lane_private(x, base, n)) whole = true;
    memset(def, 0, nr ? nr : 1);
    if (emu_defines(kf, x, def)) for (uint32_t r = 0; r < nr; r++) if (def[r]) dset[(size_t)i * words + r / 64] |= 1ull << (r % 64);
  }
  /* IN[i]: registers written on every path from the kernel's start to i */
  for (int it = 0; !whole; it++) {
    if (it == 0) { memset(in, 0xff, (size_t)n * words * 8); memset(in, 0, words * 8); }
    for (size_t k = 0; k < (size_t)n * words; k++) nin[k] = ~0ull;
    memset(nin, 0, words * 8);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t succ[2], ns = emu_successors(&e->prog[base + i], base, n, i, succ);
      for (uint32_t k = 0; k < ns; k++)
        for (uint32_t wd = 0; wd < words; wd++) nin[(size_t)succ[k] * words + wd] &= in[(size_t)i * words + wd] | dset[(size_t)i * words + wd];
    }
    if (!memcmp(in, nin, (size_t)n * words * 8)) break;
    memcpy(in, nin, (size_t)n * words * 8);
    if ((uint64_t)(it + 2) * n * words > (64u << 20)) whole = true;   /* converging slowly: give up */
  }
  /* every register named where it may not have been written, and every
   * one an instruction reads in other lanes, which may not have written it */
  for (uint32_t i = 0; i < n && !whole; i++) {
    if (!emu_insn_regs(kf, &e->prog[base + i], use, def)) whole = true;
    bool cross = cross_lane(&e->prog[base + i]);
    for (uint32_t r = 0; r < nr; r++) if (use[r] && (cross || !(in[(size_t)i * words + r / 64] >> (r % 64) & 1))) clear[kb + r] = 1;
  }
  if (whole) memset(clear, 1, e->sr_base ? e->sr_base : 1);
  /* other functions' rows (the offset rows are written before each read) */
  for (uint32_t r = 0; r < e->sr_base; r++) if ((r < kb || r >= kb + nr) && (r < e->off_base || r >= e->sr_base)) clear[r] = 1;
  free(use); free(def); free(in); free(nin); free(dset);
  e->clear_runs = emu_runs_of(clear, e->sr_base, &e->nclear_runs);
  free(clear);
  if (!e->clear_runs) return -1;
  /* the rows a register file holds: those up to the last special row a
   * warp's start or an instruction writes (init_sregs fills a group of
   * rows, a clock read all six); %envreg, last, when the kernel reads it */
  uint64_t need = e->sr_used | 1ull << SR_ZERO | 1ull << SR_CC;
  const uint64_t groups[] = {
    1ull << SR_TID_X | 1ull << SR_TID_Y | 1ull << SR_TID_Z,
    1ull << SR_LANEID | 1ull << SR_LANEMASK_EQ | 1ull << SR_LANEMASK_LE | 1ull << SR_LANEMASK_LT | 1ull << SR_LANEMASK_GE | 1ull << SR_LANEMASK_GT,
    1ull << SR_CLOCK | 1ull << SR_CLOCK_HI | 1ull << SR_CLOCK64 | 1ull << SR_GLOBALTIMER | 1ull << SR_GLOBALTIMER_LO | 1ull << SR_GLOBALTIMER_HI };
  for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) if (need & groups[g]) need |= groups[g];
  e->warp_rows = e->reads_envreg ? e->nrows : e->sr_base + (uint32_t)(64 - __builtin_clzll(need));
  return 0;
}

/* What the prepared program's functions need of a warp's state, in one
 * look at their instructions:
 *  - offset_rows: an r+imm operand, whose sum needs an offset row.  Most
 *    kernels have none, and their warps' register files then go without the
 *    ISA_MAX_OFFSET_OPND rows (an eighth of a typical file: fresh memory for
 *    every resident warp of a timed launch).  All or none: the special rows
 *    then keep their numbers modulo 8, so the timing model's register banks
 *    (row mod reg_banks, 2 or 4) are the same either way.
 *  - local: an access to local memory may happen: a .local variable, a call
 *    or alloca (frames), or an address operand of an instruction whose
 *    space is local or generic (or one not known to be another).  Where none
 *    can, a reused warp's local memory needs no clearing (the bench
 *    transpose: 1.5 KiB a warp). */
static void program_needs(const emu *e, bool *offset_rows, bool *local) {
  const isa_module *m = e->m;
  *offset_rows = *local = false;
  for (uint32_t f = 0; f < m->nfuncs; f++) {
    if (e->func_base[f] == UINT32_MAX) continue;
    const isa_func *fn = &m->funcs[f];
    if (fn->local_bytes) *local = true;
    for (uint32_t i = 0; i < fn->ninsns; i++) {
      const isa_insn *in = &fn->insns[i];
      if (in->op == OP_CALL || in->op == OP_ALLOCA) *local = true;
      bool other = in->space == MOD_GLOBAL || in->space == MOD_SHARED || in->space == MOD_SHARED_CTA || in->space == MOD_SHARED_CLUSTER ||
                   in->space == MOD_CONST || in->space == MOD_PARAM || in->space == MOD_PARAM_ENTRY || in->space == MOD_PARAM_FUNC;
      for (uint32_t k = 0; k < in->nops; k++) {
        const isa_opnd *o = &fn->ops[in->opi + k];
        if ((o->kind == OK_ADDR || o->kind == OK_ADDRX) && !other) *local = true;
        if ((o->kind == OK_REG || o->kind == OK_SREG) && (o->flags & OF_OFFSET) && k < ISA_MAX_OFFSET_OPND) *offset_rows = true;
      }
    }
  }
}

int emu_prepare(emu *e, int kernel) {
  emu_unprepare(e);
  isa_module *m = e->m;
  uint32_t nf = m->nfuncs;
  uint8_t *mark = calloc(nf ? nf : 1, 1);
  uint32_t *stack = malloc((nf ? nf : 1) * sizeof *stack);
  calls cg = { NULL, NULL };
  e->func_base = calloc(nf, sizeof *e->func_base);
  e->row_base = calloc(nf, sizeof *e->row_base);
  e->frame_size = calloc(nf, sizeof *e->frame_size);
  e->params_off = calloc(nf, sizeof *e->params_off);
  e->rets_off = calloc(nf, sizeof *e->rets_off);
  e->scoped_param_off = calloc(nf, sizeof *e->scoped_param_off);
  e->local_off = calloc(nf, sizeof *e->local_off);
  e->regsave_off = calloc(nf, sizeof *e->regsave_off);
  e->recursive = calloc(nf, 1);
  if (!mark || !stack || !e->func_base || !e->row_base || !e->frame_size || !e->recursive || calls_build(e, &cg)) goto fail;
  reach_kernel(m, (uint32_t)kernel, mark, stack);
  uint64_t need = 0;
  if (call_depths(e, &cg, mark, (uint32_t)kernel, &need)) goto fail;    /* the recursive functions */
  uint32_t pc = 0, rows = 0;
  for (uint32_t f = 0; f < nf; f++) {
    e->func_base[f] = UINT32_MAX;
    if (!mark[f] || !m->funcs[f].has_body || m->funcs[f].is_proto) continue;
    e->func_base[f] = pc;
    pc += m->funcs[f].ninsns + 1;                /* + the implicit return at the end */
    e->row_base[f] = rows;
    rows += m->funcs[f].nregs;
    if (layout_frame(e, f)) goto fail;
  }
  if (e->func_base[kernel] == UINT32_MAX) {       /* a declaration: nothing to run */
    e->fault.kind = FAULT_UNSUPPORTED;
    snprintf(e->fault.msg, sizeof e->fault.msg, "kernel '%s' has no body", m->funcs[kernel].name);
    goto fail;
  }
  bool offset_rows;
  program_needs(e, &offset_rows, &e->local_reached);
  e->off_base = rows;
  e->sr_base = rows + (offset_rows ? ISA_MAX_OFFSET_OPND : 0);
  e->nrows = e->sr_base + SR_COUNT;
  /* %envreg rows are filled at each warp's start only for kernels that read them */
  e->reads_envreg = false;
  for (uint32_t f = 0; f < nf && !e->reads_envreg; f++) {
    if (e->func_base[f] == UINT32_MAX) continue;
    const isa_func *fn = &m->funcs[f];
    for (uint32_t i = 0; i < fn->nops && !e->reads_envreg; i++) e->reads_envreg = fn->ops[i].kind == OK_SREG && fn->ops[i].v == SREG_ENVREG;
    for (uint32_t i = 0; i < fn->npool && !e->reads_envreg; i++) e->reads_envreg = fn->pool[i].kind == OK_SREG && fn->pool[i].v == SREG_ENVREG;
  }
  e->nprog = pc;
  e->prog = calloc(pc ? pc : 1, sizeof *e->prog);
  if (!e->prog) goto fail;
  bool any_recursive = false;
  for (uint32_t f = 0; f < nf; f++) {
    if (e->func_base[f] == UINT32_MAX) continue;
    if (e->recursive[f]) any_recursive = true;
    const isa_func *fn = &m->funcs[f];
    for (uint32_t i = 0; i <= fn->ninsns; i++) {
      xinsn *x = &e->prog[e->func_base[f] + i];
      x->f = fn;
      x->pc = x->spc = e->func_base[f] + i;
      x->guard = -1;
      if (i == fn->ninsns) { x->in = &implicit_ret; prep_one(e, x); continue; }
      const isa_insn *in = &fn->insns[i];
      x->in = in;
      if (in->guard >= 0) { x->guard = (int32_t)(e->row_base[f] + (uint32_t)in->guard); x->guard_neg = in->guard_neg; }
      x->nops = in->nops;
      int tb = ptx_type_bits((enum ptx_type)in->type);
      x->tbits = (uint8_t)(tb > 64 ? 64 : tb);
      for (uint32_t k = 0; k < in->nops && k < XOPS; k++) {
        const isa_opnd *o = &fn->ops[in->opi + k];
        xop *p = &x->op[k];
        p->o = o;
        p->kind = o->kind;
        p->neg = (o->flags & OF_NEG) != 0;
        if (o->kind == OK_REG) {
          p->row = (int32_t)(e->row_base[f] + o->v);
          if ((o->flags & OF_OFFSET) && k < ISA_MAX_OFFSET_OPND) { p->row = (int32_t)(e->off_base + k); x->flags |= XF_OFFSET; }
          int b = ptx_type_bits((enum ptx_type)fn->regtype[o->v]);
          p->bits = (uint8_t)(b > 64 ? 64 : b);
          p->comp = (uint8_t)o->n;
        } else if (o->kind == OK_SREG) {
          p->row = (int32_t)(e->sr_base + (uint32_t)sr_row(o->v, o->n));
          p->bits = 64;
          if ((o->flags & OF_OFFSET) && k < ISA_MAX_OFFSET_OPND) { p->row = (int32_t)(e->off_base + k); x->flags |= XF_OFFSET; }
          if (o->v == SREG_CLOCK || o->v == SREG_CLOCK_HI || o->v == SREG_CLOCK64 || o->v == SREG_GLOBALTIMER ||
              o->v == SREG_GLOBALTIMER_LO || o->v == SREG_GLOBALTIMER_HI) x->flags |= XF_CLOCK;
        } else if (o->kind == OK_IMM) {
          p->imm = o->imm;
          p->row = emu_konst_row(e, (uint64_t)o->imm);
        } else if (o->kind == OK_LABEL) {
          x->target = e->func_base[f] + o->v;
        }
      }
      prep_one(e, x);
    }
  }
  emu_link_accesses(e);
  /* static shared memory: at most what a block can have (the timing
   * model checks the chosen GPU's figure; functional runs are an H100's),
   * never wrapped into 32 bits */
  uint64_t shared = layout_shared(m, mark, e->shared_sym_off);
  uint64_t shared_max = e->timing_cfg ? 1ull << 30 : EMU_MAX_SHARED_PER_BLOCK;
  if (shared > shared_max || shared + e->launch.dyn_shared > shared_max) {
    refuse(e, "'%s' needs %llu bytes of shared memory, more than a block can have", m->funcs[kernel].name,
           shared == UINT64_MAX ? shared : shared + e->launch.dyn_shared);
    goto fail;
  }
  e->static_shared = (uint32_t)shared;
  /* local memory per thread: the deepest chain of frames (plus a stack for recursion) */
  if (call_depths(e, &cg, mark, (uint32_t)kernel, &need)) goto fail;      /* now with the frames laid out */
  if (any_recursive) need += (uint64_t)e->opt.stack_bytes * 16;
  /* alloca takes memory from the top of the thread's local memory */
  e->alloca_bytes = 0;
  for (uint32_t pc = 0; pc < e->nprog; pc++) if (e->prog[pc].in->op == OP_ALLOCA) e->alloca_bytes = e->opt.stack_bytes * 4;
  need += e->alloca_bytes;
  if (plan_warp_start(e, (uint32_t)kernel)) goto fail;
  free(mark); free(stack); free(cg.off); free(cg.to);
  /* a thread's local memory is addressed with 32 bits */
  if (need > UINT32_MAX / 2) return refuse(e, "'%s' needs %llu bytes of stack a thread, more than 2 GiB", m->funcs[kernel].name, need);
  e->local_per_thread = (uint32_t)al(need ? need : 16, 16);
  return 0;
fail:
  free(mark); free(stack); free(cg.off); free(cg.to);
  return -1;
}

/* Spare operand slots (past the instruction's own operands) let handlers
 * reach vector elements and the second destination of d|p like rows. */
/* Element i of VEC/PAIR operand o into spare slot s. */
int emu_elem_slot(emu *e, xinsn *x, const isa_opnd *o, int i, int s) {
  if (s >= XOPS || i >= o->n) return -1;
  const isa_opnd *el = &x->f->pool[o->v + (uint32_t)i];
  xop *d = &x->op[s];
  memset(d, 0, sizeof *d);
  d->o = el;
  d->kind = el->kind;
  d->row = -1;
  if (el->kind == OK_REG) {
    d->row = emu_row_of(e, x, el);
    int b = ptx_type_bits((enum ptx_type)x->f->regtype[el->v]);
    d->bits = (uint8_t)(b > 64 ? 64 : b);
    return d->row >= 0 && b <= 64 ? 0 : -1;
  }
  if (el->kind == OK_IMM) { d->imm = el->imm; return 0; }
  return el->kind == OK_SINK ? 0 : -1;
}
/* Destination d|p of operand 0 into slots s (d) and s+1 (p); a plain
 * register or sink is d alone and p is a sink. */
int emu_pair_slots(emu *e, xinsn *x, int s) {
  if (s + 1 >= XOPS) return -1;
  int k = xkind(x, 0);
  if (k == OK_PAIR) return x->op[0].o->n == 2 && !emu_elem_slot(e, x, x->op[0].o, 0, s) && !emu_elem_slot(e, x, x->op[0].o, 1, s + 1) ? 0 : -1;
  if (k != OK_REG && k != OK_SINK) return -1;
  x->op[s] = x->op[0];
  if (k == OK_SINK) x->op[s].row = -1;
  memset(&x->op[s + 1], 0, sizeof x->op[s + 1]);
  x->op[s + 1].kind = OK_SINK;
  x->op[s + 1].row = -1;
  return 0;
}

uint64_t emu_fsym_local(const warp *w, int lane, const xinsn *x, uint32_t sym) {
  const emu *e = w->e;
  uint32_t fi = (uint32_t)(x->f - e->m->funcs);
  const isa_sym *s = &x->f->syms[sym];
  uint64_t base = w->fp[lane];
  if (s->space == PTX_SPACE_LOCAL) return base + e->local_off[fi] + s->offset;
  if (s->space == PTX_SPACE_PARAM) {
    if (sym < x->f->nrets) return base + e->rets_off[fi] + s->offset;
    if (sym < x->f->nrets + x->f->nparams) return base + e->params_off[fi] + s->offset;
    return base + e->scoped_param_off[fi] + s->offset;
  }
  return base;
}
