/* emu/timing.c - the timed launch loop (see timing.h). */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/timing.h"
#include "memmodel/memsys.h"
#include "memmodel/space.h"

#define MAX_DEPS 16

/* Registers an instruction reads and writes (rows), computed once. */
typedef struct deps { int32_t src[MAX_DEPS], dst[MAX_DEPS]; uint8_t nsrc, ndst; uint8_t unit; } deps;

typedef struct tsm {
  uint64_t sched_free[8];             /* per sub-partition: next issue cycle      */
  uint64_t unit_free[8][U_COUNT];     /* per sub-partition and unit               */
  uint32_t ctas;                      /* resident CTAs                            */
  uint64_t first, last;               /* active span                              */
  uint64_t warp_cycles;               /* sum over resident warps of their lifetime */
} tsm;

typedef struct twarp {
  warp *w;
  uint32_t sm, sp, slot;
  uint64_t *ready;                    /* per register row: cycle its value is ready */
  bool queued;
} twarp;

typedef struct heapent { uint64_t t, seq; twarp *tw; } heapent;

typedef struct timing_state {
  const gpu_config *g;
  emu *e;
  deps *dep;                          /* per program PC                           */
  tsm *sms;
  memsys *mem;                         /* L1s, L2, DRAM (memmodel/memsys.h)        */
  bool *uniform_atom;                 /* per PC: one atomic per warp (emu/uniform.c) */
  heapent *heap;
  uint32_t nheap, capheap;
  uint64_t seq, now, mem_latency;
  bool mem_done;
  timing_result r;
} timing_state;

/* ---- priority queue of warps by issue cycle (then age: oldest first) ---- */

static bool before(const heapent *a, const heapent *b) { return a->t < b->t || (a->t == b->t && a->seq < b->seq); }

static void push(timing_state *s, twarp *tw, uint64_t t, uint64_t age) {
  if (s->nheap == s->capheap) {
    s->capheap = s->capheap ? s->capheap * 2 : 1024;
    s->heap = realloc(s->heap, s->capheap * sizeof *s->heap);
  }
  uint32_t i = s->nheap++;
  heapent e = { t, age, tw };
  while (i && before(&e, &s->heap[(i - 1) / 2])) { s->heap[i] = s->heap[(i - 1) / 2]; i = (i - 1) / 2; }
  s->heap[i] = e;
  tw->queued = true;
}

static heapent pop(timing_state *s) {
  heapent top = s->heap[0], last = s->heap[--s->nheap];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= s->nheap) break;
    if (c + 1 < s->nheap && before(&s->heap[c + 1], &s->heap[c])) c++;
    if (!before(&s->heap[c], &last)) break;
    s->heap[i] = s->heap[c];
    i = c;
  }
  if (s->nheap) s->heap[i] = last;
  return top;
}

/* ---- dependencies -------------------------------------------------------- */

static void add_row(int32_t *v, uint8_t *n, int row) { if (row >= 0 && *n < MAX_DEPS) v[(*n)++] = row; }

static void operand_rows(const emu *e, const xinsn *x, const isa_opnd *o, int32_t *v, uint8_t *n) {
  switch (o->kind) {
  case OK_REG: add_row(v, n, emu_row_of(e, x, o)); break;
  case OK_ADDR: if (o->flags & OF_BASEREG) add_row(v, n, emu_reg_row(e, x, o->v)); break;
  case OK_VEC: case OK_PAIR: case OK_ADDRX: case OK_LIST:
    for (uint32_t i = 0; i < o->n; i++) operand_rows(e, x, &x->f->pool[o->v + i], v, n);
    break;
  default: break;
  }
}

static void build_deps(timing_state *s) {
  emu *e = s->e;
  s->dep = calloc(e->nprog ? e->nprog : 1, sizeof *s->dep);
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const xinsn *x = &e->prog[pc];
    deps *d = &s->dep[pc];
    d->unit = (uint8_t)isa_unit_of(x->in);
    if (x->guard >= 0) add_row(d->src, &d->nsrc, x->guard);
    const isa_opnd *ops = x->in->nops ? &x->f->ops[x->in->opi] : NULL;
    bool w0 = isa_writes_first(x->in);
    for (uint32_t k = 0; k < x->in->nops; k++) {
      const isa_opnd *o = &ops[k];
      if (k == 0 && w0 && o->kind != OK_ADDR && o->kind != OK_ADDRX) operand_rows(e, x, o, d->dst, &d->ndst);
      else operand_rows(e, x, o, d->src, &d->nsrc);
    }
  }
}

static uint32_t unit_latency(const gpu_config *g, int unit) {
  switch (unit) {
  case U_INT: return g->lat_int;
  case U_FP16: return g->lat_fp16;
  case U_FP32: return g->lat_fp32;
  case U_FP64: return g->lat_fp64;
  case U_SFU: return g->lat_sfu;
  case U_CVT: return g->lat_cvt;
  case U_BRANCH: case U_SYNC: return g->lat_branch;
  case U_TENSOR: return g->lat_tensor;
  case U_ATOM: return g->lat_atomic;
  default: return g->lat_int;
  }
}

static uint32_t unit_interval(const gpu_config *g, int unit) {
  switch (unit) {
  case U_FP16: return g->ii_fp16;
  case U_FP32: return g->ii_fp32;
  case U_FP64: return g->ii_fp64;
  case U_SFU: case U_CVT: return g->ii_sfu;
  case U_LSU: case U_ATOM: case U_TEX: return g->ii_lsu;
  case U_TENSOR: return g->ii_tensor;
  default: return g->ii_int;
  }
}

/* ---- memory --------------------------------------------------------------- */

static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

void timing_mem(emu *e, warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, int space, bool store) {
  timing_state *s = e->timing;
  uint32_t smid = w->cta->smid;
  uint64_t t = s->now;
  uint16_t isp = x->in->space;
  s->mem_done = true;
  if (isp == MOD_PARAM || isp == MOD_PARAM_ENTRY || isp == MOD_PARAM_FUNC || isp == MOD_CONST) {
    s->mem_latency = space == MM_LOCAL ? memsys_global(s->mem, smid, t, a, m, size, store ? MS_STORE : MS_LOAD, MS_LOCAL)
                                       : memsys_const(s->mem, smid, t, a, m, size);
    if (store) s->mem_latency = 0;
    return;
  }
  if (space == MM_SHARED) {
    uint64_t off[WARP_SIZE];
    FOR_LANES(i) off[i] = a[i] >= GEN_SHARED_BASE ? a[i] - GEN_SHARED_BASE : a[i];
    s->mem_latency = memsys_shared(s->mem, smid, t, off, m, size);
    return;
  }
  bool atomic = x->in->op == OP_ATOM || x->in->op == OP_RED;
  /* volatile and strong (relaxed/acquire beyond the CTA) loads must see
   * other SMs' writes: the L1 is not coherent, so they are served by L2 */
  bool strong = x->in->sem == MOD_VOLATILE || ((x->in->sem == MOD_RELAXED || x->in->sem == MOD_ACQUIRE) && x->in->scope != MOD_CTA);
  enum ms_path path = space == MM_LOCAL ? MS_LOCAL
                    : x->in->cache == MOD_CG || x->in->cache == MOD_CV || strong ? MS_BYPASS
                    : x->in->cache == MOD_NC ? MS_READONLY : MS_CACHED;
  enum ms_op op = !atomic ? (store ? MS_STORE : MS_LOAD) : s->uniform_atom[x - e->prog] ? MS_ATOMIC_WARP : MS_ATOMIC;
  /* a store's latency only bounds the kernel's end: it writes no register */
  s->mem_latency = memsys_global(s->mem, smid, t, a, m, size, op, path);
}

/* The first CTA on an SM fetches the kernel's code (16 bytes per
 * instruction, as SASS is) and its constant bank through L2. */
static void fetch_code(timing_state *s, tsm *sm, uint64_t t) {
  memsys_code(s->mem, (uint32_t)(sm - s->sms), t, (uint64_t)s->e->nprog * 16 + 512);
}

/* ---- the launch ------------------------------------------------------------- */

static void fault_oom(emu *e) {
  e->faulted = true;
  e->fault.kind = FAULT_HEAP;
  snprintf(e->fault.msg, sizeof e->fault.msg, "out of memory in the timing model");
}

int emu_run_timed(emu *e, const emu_launch *l) {
  uint64_t end = 0;
  const gpu_config *g = e->timing_cfg;
  if (emu_launch_begin(e, l)) return -1;
  timing_state S, *s = &S;
  memset(s, 0, sizeof S);
  s->g = g;
  s->e = e;
  const isa_func *k = &e->m->funcs[l->func];
  uint32_t threads = l->block[0] * l->block[1] * l->block[2];
  gpu_occupancy occ;
  gpu_occupancy_calc(g, threads, k->regs_used, e->static_shared + l->dyn_shared, &occ);
  if (!occ.active_ctas) {
    e->faulted = true;
    e->fault.kind = FAULT_HEAP;
    snprintf(e->fault.msg, sizeof e->fault.msg, "the block cannot run on %s: %s (%u threads, %u registers, %u bytes shared)",
             g->name, occ.error ? occ.error : occ.limiter, threads, k->regs_used, e->static_shared + l->dyn_shared);
    emu_launch_end(e);
    return -1;
  }
  uint32_t per_sm = occ.active_ctas;
  uint32_t csize = e->launch.cluster[0] * e->launch.cluster[1] * e->launch.cluster[2];
  if (csize > 1) per_sm = per_sm < csize ? csize : per_sm / csize * csize;   /* whole clusters */
  s->r.theoretical_occupancy = occ.occupancy;
  uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  uint32_t nsm = g->sms;
  uint32_t slots = nsm * per_sm;
  if (slots > total) slots = (uint32_t)total;
  slots = slots < csize ? csize : slots / csize * csize;
  s->sms = calloc(nsm, sizeof *s->sms);
  cta *res = calloc(slots, sizeof *res);
  twarp **tws = calloc(slots, sizeof *tws);
  uint64_t *cta_start_t = calloc(slots, sizeof *cta_start_t);
  /* L1 gets what the carve-out for the resident blocks' shared memory leaves */
  s->mem = memsys_new(g, nsm, (uint64_t)(e->static_shared + l->dyn_shared ? occ.smem_per_cta : 0) * per_sm);
  s->uniform_atom = emu_uniform_atomics(e);
  if (!s->sms || !res || !tws || !cta_start_t || !s->mem || !s->uniform_atom) {
    fault_oom(e);
    goto out;
  }
  memsys_launch(s->mem);
  for (uint32_t i = 0; i < nsm; i++) s->sms[i].first = UINT64_MAX;
  build_deps(s);
  e->timing = s;

  uint64_t next = 0, t0 = g->launch_cycles / 2;
  end = t0;
  uint32_t live = 0;
  /* place a cluster group of CTAs in slots [base, base+csize); slots go
   * to SMs breadth-first, as the hardware's block scheduler fills SMs */
  #define START_GROUP(base, when) do { \
      for (uint32_t r_ = 0; r_ < csize; r_++) { \
        uint32_t sm_ = ((base) + r_) % nsm; \
        cta *c_ = &res[(base) + r_]; \
        if (emu_cta_start(e, c_, next++, &res[base])) { fault_oom(e); goto out; } \
        c_->smid = sm_; \
        for (uint32_t wi_ = 0; wi_ < c_->nwarps; wi_++) FOR_LANES(q_) { c_->warps[wi_].r[e->sr_base + SR_SMID][q_] = sm_; \
          c_->warps[wi_].r[e->sr_base + SR_NSMID][q_] = nsm; } \
        twarp *t_ = calloc(c_->nwarps, sizeof *t_); \
        tws[(base) + r_] = t_; \
        tsm *m_ = &s->sms[sm_]; \
        m_->ctas++; \
        fetch_code(s, m_, (when)); \
        if ((when) < m_->first) m_->first = (when); \
        cta_start_t[(base) + r_] = (when); \
        for (uint32_t wi_ = 0; wi_ < c_->nwarps; wi_++) { \
          t_[wi_].w = &c_->warps[wi_]; t_[wi_].sm = sm_; t_[wi_].slot = (base) + r_; \
          t_[wi_].sp = (c_->warps[wi_].id + (base) + r_) % g->sub_partitions; \
          t_[wi_].ready = calloc(e->nrows, sizeof(uint64_t)); \
          if (!t_[wi_].ready) { fault_oom(e); goto out; } \
          push(s, &t_[wi_], (when), s->seq++); \
        } \
        live++; \
      } } while (0)
  for (uint32_t b = 0; b < slots && next < total; b += csize) START_GROUP(b, t0 + (b / nsm) * g->cta_launch_cycles);

  while (!e->faulted) {
    if (!s->nheap) {
      /* everything waits: threads released by barriers or mbarriers without
       * an issuing warp noticing; requeue whatever can run, else deadlock */
      bool any = false;
      for (uint32_t i = 0; i < slots; i++) {
        if (!res[i].warps || !tws[i]) continue;
        for (uint32_t wi = 0; wi < res[i].nwarps; wi++) {
          warp *w = &res[i].warps[wi];
          if (tws[i][wi].queued || !~w->exited) continue;
          bool run = false;
          FOR_LANES(q) if (w->state[q] == TS_RUN) run = true;
          if (run) { push(s, &tws[i][wi], s->now + g->barrier_cycles, s->seq++); any = true; }
        }
      }
      if (!any) {
        for (uint32_t i = 0; i < slots && !any; i++) if (res[i].warps && emu_async_stalled(&res[i])) any = true;
        if (any) continue;
        if (!live) break;
        for (uint32_t i = 0; i < slots; i++) if (res[i].warps && !emu_cta_done(&res[i])) {
          emu_fault_at(&res[i].warps[0], NULL, 0, FAULT_DEADLOCK, "block (%u,%u,%u): every thread waits and none can proceed",
                       res[i].id[0], res[i].id[1], res[i].id[2]);
          break;
        }
        break;
      }
      continue;
    }
    if (e->opt.max_warp_insts && e->warp_insts > e->opt.max_warp_insts) {
      heapent h0 = s->heap[0];
      warp *bw = h0.tw->w;
      emu_fault_at(bw, &e->prog[bw->cur ? bw->cur_pc : bw->pc[__builtin_ctz(~bw->exited)]], 0, FAULT_BUDGET,
                   "more than %llu warp instructions executed (raise --max-insts if the kernel is meant to run that long)",
                   (unsigned long long)e->opt.max_warp_insts);
      break;
    }
    if (e->opt.progress && !(s->r.issued & 0xffff)) emu_progress(e, next - live, total, false);
    heapent he = pop(s);
    twarp *tw = he.tw;
    tw->queued = false;
    warp *w = tw->w;
    if (!~w->exited) continue;
    s->now = he.t;
    e->cycle_now = he.t;
    if (!w->cur) { emu_reschedule(w); if (!w->cur) continue; }     /* blocked: requeued on release */
    const deps *d = &s->dep[w->cur_pc];
    tsm *sm = &s->sms[tw->sm];
    uint64_t t = he.t;
    for (uint8_t i = 0; i < d->nsrc; i++) t = umax(t, tw->ready[d->src[i]]);
    for (uint8_t i = 0; i < d->ndst; i++) t = umax(t, tw->ready[d->dst[i]]);
    t = umax(t, sm->sched_free[tw->sp]);
    t = umax(t, sm->unit_free[tw->sp][d->unit]);
    if (t > he.t) { push(s, tw, t, he.seq); continue; }
    sm->sched_free[tw->sp] = t + 1;
    sm->unit_free[tw->sp][d->unit] = t + unit_interval(g, d->unit);
    s->mem_done = false;
    s->mem_latency = 0;
    uint32_t ran = emu_warp_run(w, 1);
    if (e->faulted) break;
    if (!ran) { if (w->cur) push(s, tw, t + 1, he.seq); continue; }
    s->r.issued++;
    uint64_t lat = s->mem_done ? s->mem_latency : unit_latency(g, d->unit);
    for (uint8_t i = 0; i < d->ndst; i++) tw->ready[d->dst[i]] = t + (lat ? lat : 1);
    if (t + lat > end) end = t + lat;
    cta *c = w->cta;
    if (~w->exited) {
      if (w->cur) push(s, tw, t + 1, he.seq);
      else {
        /* the warp blocked (barrier, warp-sync): its released threads resume
         * after the barrier's latency; other warps of the CTA may have been
         * released by this instruction too */
        emu_reschedule(w);
        if (w->cur) push(s, tw, t + g->barrier_cycles, he.seq);
      }
    }
    /* threads this instruction released in other warps of the CTA */
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
      warp *o = &c->warps[wi];
      twarp *ot = &tws[tw->slot][wi];
      if (ot->queued || !~o->exited || o == w) continue;
      if (o->next_key == 0 || o->cur) { emu_reschedule(o); if (o->cur) push(s, ot, t + g->barrier_cycles, s->seq++); }
    }
    if (emu_cta_done(c)) {
      /* a whole cluster leaves together */
      uint32_t base = tw->slot / csize * csize;
      bool all = true;
      for (uint32_t r = 0; r < csize; r++) if (!emu_cta_done(&res[base + r])) all = false;
      if (!all) continue;
      for (uint32_t r = 0; r < csize; r++) {
        cta *cc = &res[base + r];
        tsm *m = &s->sms[cc->smid];
        m->warp_cycles += (t + 1 - cta_start_t[base + r]) * cc->nwarps;
        if (t + 1 > m->last) m->last = t + 1;
        for (uint32_t wi = 0; wi < cc->nwarps; wi++) free(tws[base + r][wi].ready);
        free(tws[base + r]);
        tws[base + r] = NULL;
        emu_cta_free(cc);
        live--;
      }
      if (t + 1 > end) end = t + 1;
      if (next < total) START_GROUP(base, t + 1 + g->cta_launch_cycles);
    }
  }
  #undef START_GROUP
out:
  for (uint32_t i = 0; i < slots; i++) {
    if (tws && tws[i]) { for (uint32_t wi = 0; res[i].warps && wi < res[i].nwarps; wi++) free(tws[i][wi].ready); free(tws[i]); }
    if (res && res[i].warps) emu_cta_free(&res[i]);
  }
  e->timing = NULL;
  if (e->opt.progress) emu_progress(e, total, total, true);
  s->r.cycles = end + g->launch_cycles - g->launch_cycles / 2;
  uint64_t active = 0, wc = 0;
  for (uint32_t i = 0; s->sms && i < nsm; i++) {
    if (s->sms[i].first != UINT64_MAX && s->sms[i].last > s->sms[i].first) { active += s->sms[i].last - s->sms[i].first; wc += s->sms[i].warp_cycles; }
  }
  s->r.achieved_occupancy = active ? (double)wc / ((double)active * g->max_warps_per_sm) : 0;
  if (s->mem) {
    s->r.l1_hits = s->mem->l1_hits;
    s->r.l1_lookups = s->mem->l1_lookups;
    s->r.l2_hits = s->mem->l2.hits;
    s->r.l2_lookups = s->mem->l2.lookups;
    s->r.dram_read_bytes = s->mem->dram.read_bytes + s->mem->launch_dram_bytes;
    s->r.dram_write_bytes = s->mem->dram.write_bytes;   /* evictions; dirty lines left at the end are not flushed */
  }
  if (e->timing_out) *e->timing_out = s->r;
  memsys_free(s->mem);
  free(s->uniform_atom);
  free(s->sms);
  free(s->dep);
  free(s->heap);
  free(res);
  free(tws);
  free(cta_start_t);
  emu_launch_end(e);
  return e->faulted ? -1 : 0;
}
