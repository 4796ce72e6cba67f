/* emu/exec_ctrl.c - control flow and CTA synchronisation: bra, brx.idx,
 * call/ret (frames in local memory, parameters copied between frames),
 * exit, trap, nanosleep, bar/barrier, bar.warp.sync, membar/fence.
 * These handlers own the PC: they set w->cur_pc, or split the group into
 * per-thread PCs and let the scheduler pick the next group. */
#include <string.h>
#include "emu/internal.h"
#include "memmodel/space.h"

#define SPIN_YIELD 2048   /* backward branches in a row, while others wait, before yielding */

/* Park the current group's lanes with per-lane PCs, then pick the next group. */
static void split(warp *w) {
  w->cur = 0;
  emu_reschedule(w);
}

static void set_pcs(warp *w, lanemask lanes, uint32_t pc, uint16_t depth) {
  if (lanes == FULL_MASK) { FOR_LANES(i) { w->pc[i] = pc; w->depth[i] = depth; } return; }   /* no tests: vectorised */
  FOR_LANES(i) if (lanes >> i & 1) { w->pc[i] = pc; w->depth[i] = depth; }
}

static void h_bra(warp *w, const xinsn *x, lanemask g) {
  lanemask m = w->cur;
  if (g == m) {
    /* sm_70+ schedules threads independently; older targets run the warp in
     * lockstep, where a spin lock between lanes of one warp never ends */
    if (x->target <= w->cur_pc && w->next_key != UINT64_MAX && w->e->m->sm >= 70 && ++w->backjumps > SPIN_YIELD) {
      /* a group spinning while other threads of the warp wait: let them run */
      w->backjumps = 0;
      w->yield_key = ((uint64_t)(0xffffu - w->cur_depth) << 32) | x->target;
      set_pcs(w, m, x->target, w->cur_depth);
      split(w);
      return;
    }
    w->cur_pc = x->target;
    return;
  }
  w->e->stats.divergent_branches += g != 0;
  if (!g) { w->cur_pc++; return; }
  set_pcs(w, g, x->target, w->cur_depth);
  set_pcs(w, m & ~g, w->cur_pc + 1, w->cur_depth);
  split(w);
}

static void h_brx(warp *w, const xinsn *x, lanemask g) {
  lanemask m = w->cur;
  const isa_opnd *tab = &x->f->ops[x->in->opi + 1];
  const isa_table *t = &x->f->tables[tab->v];
  const uint64_t *idx = xsrc(w, x, 0);
  uint32_t base = w->e->func_base[x->f - w->e->m->funcs];
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint32_t k = (uint32_t)idx[i];
    if (k >= t->n) { emu_fault_at(w, x, i, FAULT_OOB, "brx.idx index %u outside the %u targets of '%s'", k, t->n, t->name); return; }
    w->pc[i] = base + t->pcs[k];
    w->depth[i] = w->cur_depth;
  }
  set_pcs(w, m & ~g, w->cur_pc + 1, w->cur_depth);
  split(w);
}

/* ---- calls ------------------------------------------------------------------ */

static void copy_value(warp *w, int lane, uint8_t *dst, const isa_opnd *src, const xinsn *x, uint32_t size) {
  int row = emu_row_of(w->e, x, src);
  uint64_t v = row >= 0 ? w->r[row][lane] : (uint64_t)src->imm;
  memcpy(dst, &v, size > 8 ? 8 : size);
}

/* Bytes of a caller-side operand of a call (a .param symbol of the caller,
 * or a register/immediate for old-style register parameters). */
uint8_t *emu_param_ptr(warp *w, int lane, const xinsn *x, const isa_opnd *o, uint32_t size) {
  if (o->kind != OK_SYM || !(o->flags & OF_FUNCSYM)) return NULL;
  uint64_t a = emu_fsym_local(w, lane, x, o->v) + (uint64_t)o->imm;
  return mm_local_ptr(w, lane, a, size);
}

/* The register of a .reg parameter: the first named as it (by contents:
 * names read from an object file are not the same pointers). */
static uint32_t reg_param_slot(const isa_func *callee, const char *name) {
  for (uint32_t r = 0; r < callee->nregs; r++)
    if (callee->regname[r] == name || (callee->regname[r] && name && strcmp(callee->regname[r], name) == 0)) return r;
  return callee->nregs;
}

call_ops emu_call_operands(const xinsn *x) {
  const isa_opnd *ops = &x->f->ops[x->in->opi];
  call_ops c = {0};
  uint32_t k = 0;
  if (x->in->nops && ops[0].kind == OK_LIST) c.rets = &ops[k++];
  c.tgt = &ops[k++];
  if (k < x->in->nops && ops[k].kind == OK_LIST) c.args = &ops[k];
  return c;
}

static int callee_of(warp *w, const xinsn *x, const call_ops *c, int lane) {
  if (c->tgt->kind == OK_FUNC) return (int)c->tgt->v;
  int row = emu_row_of(w->e, x, c->tgt);
  uint64_t a = row >= 0 ? w->r[row][lane] : 0;
  uint64_t first = w->e->m->nfuncs ? w->e->func_addr[0] : FUNC_ADDR_BASE;   /* this module's functions */
  uint64_t fi = (a - first) / 16;
  if (a < first || (a - first) % 16 || fi >= w->e->m->nfuncs || w->e->func_base[fi] == UINT32_MAX) {
    emu_fault_at(w, x, lane, FAULT_BAD_ADDRESS_SPACE, "indirect call through 0x%llx, which is not a function", (unsigned long long)a);
    return -1;
  }
  return (int)fi;
}

static void h_call(warp *w, const xinsn *x, lanemask g) {
  emu *e = w->e;
  lanemask m = w->cur;
  call_ops c = emu_call_operands(x);
  uint32_t caller = (uint32_t)(x->f - e->m->funcs);
  lanemask todo = g;
  set_pcs(w, m & ~g, w->cur_pc + 1, w->cur_depth);
  while (todo) {
    int lead = __builtin_ctz(todo);
    int fi = callee_of(w, x, &c, lead);
    if (fi < 0) return;
    lanemask same = 0;
    FOR_LANES(i) if ((todo >> i & 1) && (i == lead || c.tgt->kind == OK_FUNC || callee_of(w, x, &c, i) == fi)) same |= 1u << i;
    todo &= ~same;
    const isa_func *callee = &e->m->funcs[fi];
    if (!callee->has_body || e->func_base[fi] == UINT32_MAX) {
      set_pcs(w, same, w->cur_pc + 1, w->cur_depth);
      if (!emu_builtin_call(w, x, same, callee)) {
        emu_fault_at(w, x, lead, FAULT_UNSUPPORTED, "call of '%s', which has no body and is not provided by ptxemu", callee->name);
        return;
      }
      if (e->faulted) return;
      continue;
    }
    FOR_LANES(i) {
      if (!(same >> i & 1)) continue;
      uint32_t nfp = w->fp[i] + e->frame_size[caller];
      if ((uint64_t)nfp + e->frame_size[fi] > w->local_stride || w->depth[i] >= 0xfff0) {
        emu_fault_at(w, x, i, FAULT_STACK, "call of '%s' overflows the %u-byte stack of the thread", callee->name, w->local_stride);
        return;
      }
      uint8_t *fr = w->local + (size_t)i * w->local_stride + nfp;
      uint32_t hdr[4] = { w->cur_pc + 1, x->pc, w->fp[i], w->dsp[i] };   /* alloca memory is freed on return */
      memcpy(fr, hdr, sizeof hdr);
      /* arguments */
      for (uint32_t a = 0; c.args && a < c.args->n && a < callee->nparams; a++) {
        const isa_opnd *src = &x->f->pool[c.args->v + a];
        const isa_sym *ps = &callee->syms[callee->nrets + a];
        if (ps->space == PTX_SPACE_REG) {
          /* old ABI: the parameter is a register of the callee */
          uint32_t slot = reg_param_slot(callee, ps->name);
          if (slot >= callee->nregs) continue;
          if (src->kind == OK_VEC) {   /* a vector register for a vector parameter: element by element */
            for (uint32_t k = 0; k < src->n && k < ps->vec && slot + k < callee->nregs; k++) {
              const isa_opnd *el = &x->f->pool[src->v + k];
              int row = emu_row_of(e, x, el);
              w->r[e->row_base[fi] + slot + k][i] = row >= 0 ? w->r[row][i] : (uint64_t)el->imm;
            }
            continue;
          }
          uint8_t tmp[8] = {0};
          uint8_t *sp = emu_param_ptr(w, i, x, src, 8);
          if (sp) memcpy(tmp, sp, ps->size > 8 ? 8 : ps->size); else copy_value(w, i, tmp, src, x, 8);
          uint64_t v; memcpy(&v, tmp, 8);
          w->r[e->row_base[fi] + slot][i] = v;
          continue;
        }
        uint8_t *dst = fr + e->params_off[fi] + ps->offset;
        uint8_t *sp = emu_param_ptr(w, i, x, src, (uint32_t)ps->size);
        if (sp) memmove(dst, sp, ps->size);        /* an indirect call's argument may be shorter: ranges can overlap */
        else copy_value(w, i, dst, src, x, (uint32_t)ps->size);
      }
      if (e->recursive[fi]) {
        uint64_t *save = (uint64_t *)(fr + e->regsave_off[fi]);
        for (uint32_t r = 0; r < callee->nregs; r++) memcpy(&save[r], &w->r[e->row_base[fi] + r][i], 8);
      }
      w->fp[i] = nfp;
      w->pc[i] = e->func_base[fi];
      w->depth[i] = (uint16_t)(w->cur_depth + 1);
    }
  }
  split(w);
}

static void do_return(warp *w, const xinsn *x, lanemask g) {
  emu *e = w->e;
  lanemask m = w->cur;
  if (w->cur_depth == 0) {               /* return from the kernel */
    emu_thread_exit(w, g);
    set_pcs(w, m & ~g, w->cur_pc + 1, 0);
    split(w);
    return;
  }
  uint32_t fi = (uint32_t)(x->f - e->m->funcs);
  const isa_func *callee = x->f;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint8_t *fr = w->local + (size_t)i * w->local_stride + w->fp[i];
    uint32_t hdr[4];
    memcpy(hdr, fr, sizeof hdr);
    /* the header is in the thread's local memory, which the kernel can
     * write (st.local through a computed address): it must still name the
     * call and the caller's frame that h_call stored, or the return would
     * jump to any pc and move the frame pointer anywhere */
    const xinsn *cx = hdr[1] < e->nprog ? &e->prog[hdr[1]] : NULL;
    if (!cx || cx->in->op != OP_CALL || hdr[0] >= e->nprog ||
        (uint64_t)hdr[2] + e->frame_size[cx->f - e->m->funcs] != w->fp[i]) {
      emu_fault_at(w, x, i, FAULT_STACK, "the return address in the stack frame was overwritten");
      return;
    }
    call_ops c = emu_call_operands(cx);
    /* return values: .param returns are in the callee's frame; old-style
     * .reg returns are callee registers, read before a recursive callee's
     * registers are restored */
    uint64_t regret[8][4];   /* a vector .reg return: its elements */
    uint32_t nret = c.rets ? c.rets->n : 0;
    if (nret > callee->nrets) nret = callee->nrets;
    if (nret > 8) nret = 8;
    for (uint32_t k = 0; k < nret; k++) {
      const isa_sym *rs = &callee->syms[k];
      memset(regret[k], 0, sizeof regret[k]);
      if (rs->space != PTX_SPACE_REG) continue;
      uint32_t r = reg_param_slot(callee, rs->name);
      if (r < callee->nregs)
        for (uint32_t el = 0; el < 4 && (el == 0 || el < rs->vec) && r + el < callee->nregs; el++) regret[k][el] = w->r[e->row_base[fi] + r + el][i];
    }
    if (e->recursive[fi]) {
      const uint64_t *save = (const uint64_t *)(fr + e->regsave_off[fi]);
      for (uint32_t r = 0; r < callee->nregs; r++) memcpy(&w->r[e->row_base[fi] + r][i], &save[r], 8);
    }
    uint32_t callee_fp = w->fp[i];
    w->fp[i] = hdr[2];
    w->dsp[i] = hdr[3];
    for (uint32_t k = 0; k < nret; k++) {
      const isa_opnd *dst = &cx->f->pool[c.rets->v + k];
      const isa_sym *rs = &callee->syms[k];
      uint8_t tmp[8];
      const uint8_t *src;
      uint32_t size = rs->size > 8 && rs->space == PTX_SPACE_REG ? 8 : (uint32_t)rs->size;
      if (rs->space == PTX_SPACE_REG && dst->kind == OK_VEC) {
        for (uint32_t el = 0; el < dst->n && el < rs->vec && el < 4; el++) {
          const isa_opnd *de = &cx->f->pool[dst->v + el];
          if (de->kind == OK_REG) w->r[emu_row_of(e, cx, de)][i] = regret[k][el];
        }
        continue;
      }
      if (rs->space == PTX_SPACE_REG) { memcpy(tmp, &regret[k][0], 8); src = tmp; }
      else {
        src = mm_local_ptr(w, i, (uint64_t)callee_fp + e->rets_off[fi] + rs->offset, size);
        if (!src) { emu_fault_at(w, x, i, FAULT_STACK, "return value outside the stack"); return; }
      }
      if (dst->kind == OK_SYM && (dst->flags & OF_FUNCSYM)) {
        uint8_t *dp = emu_param_ptr(w, i, cx, dst, size);
        if (dp) memmove(dp, src, size);
      } else if (dst->kind == OK_REG) {
        uint64_t v = 0;
        memcpy(&v, src, size > 8 ? 8 : size);
        w->r[emu_row_of(e, cx, dst)][i] = v;
      }
    }
    w->pc[i] = hdr[0];
    w->depth[i] = (uint16_t)(w->cur_depth - 1);
  }
  set_pcs(w, m & ~g, w->cur_pc + 1, w->cur_depth);
  split(w);
}

static void h_ret(warp *w, const xinsn *x, lanemask g) { do_return(w, x, g); }

static void h_exit(warp *w, const xinsn *x, lanemask g) {
  (void)x;
  lanemask m = w->cur;
  emu_thread_exit(w, g);
  if (m & ~g) { w->cur = m & ~g; w->cur_pc++; }
  else { w->cur = 0; emu_reschedule(w); }
}

static void h_trap(warp *w, const xinsn *x, lanemask g) {
  if (!g) { w->cur_pc++; return; }
  emu_fault_at(w, x, __builtin_ctz(g), FAULT_TRAP, "%s executed", x->in->op == OP_BRKPT ? "brkpt" : "trap");
}

static void h_nanosleep(warp *w, const xinsn *x, lanemask g) {
  (void)x; (void)g;
  /* sleeping is a promise to let other threads run: yield if any wait */
  w->cur_pc++;
  if (w->next_key != UINT64_MAX && w->e->m->sm >= 70) {
    w->yield_key = ((uint64_t)(0xffffu - w->cur_depth) << 32) | w->cur_pc;
    set_pcs(w, w->cur, w->cur_pc, w->cur_depth);
    split(w);
  }
}

/* bar.sync / barrier.sync / bar.arrive / bar.red */
static void h_bar(warp *w, const xinsn *x, lanemask g) {
  lanemask m = w->cur;
  const isa_insn *in = x->in;
  cta *c = w->cta;
  bool red = in->sub == MOD_RED, arrive = in->sub == MOD_ARRIVE;
  int k = red ? 1 : 0;                         /* bar.red has a destination first */
  int lead = __builtin_ctz(g ? g : m);
  uint32_t id = in->nops > k ? (uint32_t)xsrc(w, x, k)[lead] : 0;
  if (id >= 16) { emu_fault_at(w, x, lead, FAULT_OOB, "barrier %u does not exist (0..15)", id); return; }
  emu_barrier *b = &c->bar[id];
  bool has_count = red ? in->nops == 4 : in->nops >= 2;
  if (has_count) b->expected = (uint32_t)xsrc(w, x, k + 1)[lead];
  if (red && g) {
    const uint64_t *p = xsrc(w, x, in->nops - 1);
    bool neg = x->op[in->nops - 1].neg;
    FOR_LANES(i) if (g >> i & 1) { if ((p[i] & 1) ^ neg) b->red_count++; else b->red_false++; }
    b->red_op = in->bop ? in->bop : in->sub;
    w->red_row = x->op[0].row;
    w->red_lanes |= g;
  }
  b->arrived += (uint32_t)popc32(g);
  if (arrive) {
    w->cur_pc++;
    emu_barrier_check(c, (int)id);
    return;
  }
  if (g == FULL_MASK) { memset(w->state, TS_BAR, WARP_SIZE); memset(w->barid, (int)id, WARP_SIZE); }
  else FOR_LANES(i) if (g >> i & 1) { w->state[i] = TS_BAR; w->barid[i] = (uint8_t)id; }
  set_pcs(w, m, w->cur_pc + 1, w->cur_depth);
  w->cur = 0;
  emu_barrier_check(c, (int)id);
  if (emu_none_can_run(w)) w->yield_key = 0;     /* the whole warp waits */
  else emu_reschedule(w);
}

static void h_nop(warp *w, const xinsn *x, lanemask g) { (void)w; (void)x; (void)g; }

int prep_ctrl(emu *e, xinsn *x) {
  (void)e;
  switch (x->in->op) {
  case OP_BRA: x->fn = h_bra; break;
  case OP_BRX_IDX: x->fn = h_brx; break;
  case OP_CALL: x->fn = h_call; break;
  case OP_RET: x->fn = h_ret; break;
  case OP_EXIT: x->fn = h_exit; break;
  case OP_TRAP: case OP_BRKPT: x->fn = h_trap; break;
  case OP_NANOSLEEP: x->fn = h_nanosleep; break;
  case OP_BAR: case OP_BARRIER:
    if (x->in->sub == MOD_CLUSTER || x->in->scope == MOD_CLUSTER) return -1;   /* barrier.cluster: async family */
    x->fn = h_bar;
    break;
  case OP_BAR_WARP_SYNC: x->fn = h_nop; x->flags |= XF_SYNC; return 0;
  case OP_FENCE:
    x->fn = emu_proxy_is_async_fence(x->in) ? emu_proxy_fence : h_nop; return 0;
  case OP_MEMBAR: case OP_PMEVENT: case OP_GRIDDEPCONTROL: case OP_SETMAXNREG:
    x->fn = h_nop; return 0;
  default: return -1;
  }
  x->flags |= XF_CONTROL;
  return 0;
}
