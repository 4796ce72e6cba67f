/* emu/run.c - the interpreter loop and the schedulers around it.
 *
 * Inside a warp: the group of threads with the deepest call depth and the
 * lowest PC runs; the others wait and merge when the group reaches their PC
 * (this reconverges structured and unstructured control flow at the
 * earliest common point).  A group that spins on a backward branch while
 * others wait yields after a while, so spin locks between lanes of one warp
 * make progress as on sm_70+.
 *
 * Inside a launch: a window of resident CTAs runs round-robin, each warp a
 * slice of instructions at a time, so CTAs that wait on each other through
 * memory still progress.  No progress at all in a round is a deadlock. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "emu/internal.h"
#include "emu/parallel.h"
#include "memmodel/space.h"
#include "util/wbuf.h"
#include "util/clock.h"
#include "util/rss.h"

static inline uint64_t key_of(uint16_t depth, uint32_t pc) { return ((uint64_t)(0xffffu - depth) << 32) | pc; }

/* One pass over the lanes computes every key and the candidates for the
 * three rules below (the others' keys, not recomputed); the choice is that
 * of the rules read in order. */
void emu_reschedule(warp *w) {
  for (lanemask m = w->cur; m; m &= m - 1) { int i = __builtin_ctz(m); w->pc[i] = w->cur_pc; w->depth[i] = w->cur_depth; }
  /* a group that yielded runs only if nothing else can, and does not cut
   * short the group picked instead */
  uint64_t skip = w->yield_key;
  w->yield_key = 0;
  /* the common cases first, tested a word at a time: the whole warp at one
   * PC (a barrier released it), or no thread that can run (it waits) */
  uint64_t st[WARP_SIZE / 8], any_run_or_wsync = 0, all_run = 0;
  memcpy(st, w->state, sizeof st);
  for (int j = 0; j < WARP_SIZE / 8; j++) {
    uint64_t a = st[j], b = st[j] ^ 0x0101010101010101ull * TS_WSYNC;
    any_run_or_wsync |= ((a - 0x0101010101010101ull) & ~a) | ((b - 0x0101010101010101ull) & ~b);
    all_run |= a ^ 0x0101010101010101ull * TS_RUN;
  }
  if (!(any_run_or_wsync & 0x8080808080808080ull)) { w->cur = 0; return; }
  if (!all_run) {
    uint32_t dpc = 0, pc0 = w->pc[0];
    uint16_t dd = 0, d0 = w->depth[0];
    FOR_LANES(i) { dpc |= w->pc[i] ^ pc0; dd |= (uint16_t)(w->depth[i] ^ d0); }
    if (!dpc && !dd) {
      w->cur = FULL_MASK;
      w->cur_pc = pc0;
      w->cur_depth = d0;
      w->next_key = UINT64_MAX;
      w->force_sync = false;
      return;
    }
  }
  uint64_t key[WARP_SIZE];
  uint64_t best_other = UINT64_MAX, best_run = UINT64_MAX, best_wsync = UINT64_MAX;
  lanemask run = 0, wsync = 0;
  FOR_LANES(i) {
    uint64_t k = key_of(w->depth[i], w->pc[i]);
    key[i] = k;
    if (w->state[i] == TS_RUN) {
      run |= 1u << i;
      if (k < best_run) best_run = k;
      if (!(skip && k == skip) && k < best_other) best_other = k;
    } else if (w->state[i] == TS_WSYNC) {
      wsync |= 1u << i;
      if (k < best_wsync) best_wsync = k;
    }
  }
  uint64_t best;
  bool forced = false;
  if (best_other != UINT64_MAX) best = best_other;
  else {
    skip = 0;
    if (run) best = best_run;
    else {
      /* only threads parked at warp-synchronous instructions: release the first
       * group even though some members never arrive (they exited or wait elsewhere) */
      if (!wsync) { w->cur = 0; return; }
      best = best_wsync;
      forced = true;
    }
  }
  lanemask cur = 0;
  uint64_t second = UINT64_MAX;
  for (lanemask m = run | wsync; m; m &= m - 1) {
    int i = __builtin_ctz(m);
    uint64_t k = key[i];
    if (k == best) { cur |= 1u << i; w->state[i] = TS_RUN; }
    else if (k < second && !(skip && k == skip)) second = k;
  }
  w->cur = cur;
  w->cur_pc = (uint32_t)best;
  w->cur_depth = (uint16_t)(0xffffu - (best >> 32));
  w->next_key = second;
  w->force_sync = forced;
}

/* The member mask of a .sync warp instruction is its last operand. */
static bool sync_ready(warp *w, const xinsn *x, lanemask g) {
  if (w->force_sync) { w->force_sync = false; return true; }
  const uint64_t *mm = xsrc(w, x, x->nops - 1);
  int lead = __builtin_ctz(g ? g : w->cur);
  lanemask need = (lanemask)mm[lead] & ~w->exited;
  if (!(need & ~w->cur)) return true;
  /* wait here for the members that are elsewhere */
  FOR_LANES(i) if (w->cur >> i & 1) { w->pc[i] = w->cur_pc; w->depth[i] = w->cur_depth; w->state[i] = TS_WSYNC; }
  w->cur = 0;
  emu_reschedule(w);
  return false;
}

static void refresh_clock(warp *w) {
  uint32_t b = w->e->sr_base;
  /* timing mode: the model's cycle; functional: deterministic, monotonic per warp */
  uint64_t t = w->e->timing ? w->e->cycle_now : w->insts * 4 + w->cta->linear;
  uint64_t ns = w->e->warp_insts * 2 + 1000;
  FOR_LANES(i) {
    w->r[b + SR_CLOCK][i] = (uint32_t)t;
    w->r[b + SR_CLOCK_HI][i] = (uint32_t)(t >> 32);
    w->r[b + SR_CLOCK64][i] = t;
    w->r[b + SR_GLOBALTIMER][i] = ns;
    w->r[b + SR_GLOBALTIMER_LO][i] = (uint32_t)ns;
    w->r[b + SR_GLOBALTIMER_HI][i] = (uint32_t)(ns >> 32);
  }
}

/* The sums of the instruction's r+imm sources, at each register's width,
 * into the offset rows its operands read (emu/prepare.c). */
static void add_offsets(warp *w, const xinsn *x) {
  const isa_opnd *ops = &x->f->ops[x->in->opi];
  for (uint32_t k = 0; k < x->in->nops && k < ISA_MAX_OFFSET_OPND; k++) {
    if ((ops[k].kind != OK_REG && ops[k].kind != OK_SREG) || !(ops[k].flags & OF_OFFSET)) continue;
    int b = ops[k].kind == OK_REG ? ptx_type_bits((enum ptx_type)x->f->regtype[ops[k].v])
            : ops[k].v == SREG_CLOCK64 || ops[k].v == SREG_GLOBALTIMER || ops[k].v == SREG_GRIDID ? 64 : 32;
    uint64_t mask = b >= 64 ? ~0ull : (1ull << b) - 1, off = (uint64_t)ops[k].imm;
    const uint64_t *s = w->r[emu_offset_src_row(w->e, x, &ops[k])];
    uint64_t *d = w->r[w->e->off_base + k];
    FOR_LANES(i) d[i] = (s[i] + off) & mask;
  }
}

/* Whether the observer counts this instruction into the run or loop it
 * folds (emu_observer's fold) instead of hearing of it. */
static inline bool obs_folds(emu_observer *o, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  if (w != o->fold_w || x->pc != o->fold_next || m != o->fold_mask || g != m) return false;
  if (x->pc == o->fold_end) {        /* the loop's branch, all lanes taking it */
    if (o->fold_reps >= o->fold_reps_max) return false;
    o->fold_reps++;
    o->fold_n = 0;
    o->fold_next = o->fold_loop;
    return true;
  }
  if (!o->fold_pc[x->pc]) return false;
  o->fold_n++;
  o->fold_next++;
  return true;
}

/* Run up to budget instructions of warp w; returns how many ran. */
uint32_t emu_warp_run(warp *w, uint32_t budget) {
  emu *e = w->e;
  const xinsn *prog = e->prog;
  emu_observer *obs = e->obs;
  uint32_t n = 0;
  if (!w->cur) {
    if (emu_none_can_run(w)) { w->yield_key = 0; return 0; }
    emu_reschedule(w);
    if (!w->cur) return 0;
  }
  while (n < budget) {
    const xinsn *x = &prog[w->cur_pc];
    lanemask m = w->cur;
    lanemask g = emu_guard(w, x, m);
    if (x->flags & (XF_SYNC | XF_CLOCK | XF_OFFSET)) {
      if (x->flags & XF_CLOCK) refresh_clock(w);
      if (x->flags & XF_OFFSET) add_offsets(w, x);
      if ((x->flags & XF_SYNC) && !sync_ready(w, x, g)) { if (!w->cur) break; continue; }
    }
    if (obs && obs->on_before_insn) obs->on_before_insn(obs->ctx, w, x, m, g);
    n++;
    w->insts++;
    w->thread_insts += m == FULL_MASK ? WARP_SIZE : (uint64_t)popc32(m);
    if (obs && !obs_folds(obs, w, x, m, g)) obs->on_insn(obs->ctx, w, x, m, g, 0);
    x->fn(w, x, g);
    if (e->faulted) break;
    if (!(x->flags & XF_CONTROL)) w->cur_pc++;
    if (!w->cur || key_of(w->cur_depth, w->cur_pc) >= w->next_key) {
      if (!w->cur && emu_none_can_run(w)) { w->yield_key = 0; break; }
      emu_reschedule(w);
      if (!w->cur) break;
    }
  }
  e->warp_insts += n;
  return n;
}

/* ---- CTAs ----------------------------------------------------------------- */

static void fill_row(uint64_t *row, uint64_t v) { FOR_LANES(i) row[i] = v; }

/* The special rows a warp reads: those the program names (emu_prepare's
 * sr_used), or all for an observer (the debugger prints any of them). */
static void init_sregs(emu *e, cta *c, warp *w) {
  const emu_launch *l = &e->launch;
  uint64_t (*r)[WARP_SIZE] = w->r + e->sr_base;
  uint64_t use = e->obs && e->obs->reads_any_register ? ~0ull : e->sr_used;
  uint32_t nthreads = l->block[0] * l->block[1] * l->block[2];
  if (use & (1ull << SR_TID_X | 1ull << SR_TID_Y | 1ull << SR_TID_Z)) {
    /* thread index of the first lane, then counted up lane by lane (no divisions) */
    uint32_t t = w->id * WARP_SIZE, x = t % l->block[0], y = t / l->block[0] % l->block[1], z = t / (l->block[0] * l->block[1]);
    FOR_LANES(i) {
      bool real = t + (uint32_t)i < nthreads;
      r[SR_TID_X][i] = real ? x : 0;
      r[SR_TID_Y][i] = real ? y : 0;
      r[SR_TID_Z][i] = real ? z : 0;
      if (++x == l->block[0]) { x = 0; if (++y == l->block[1]) { y = 0; z++; } }
    }
  }
  if (use & (1ull << SR_LANEID | 1ull << SR_LANEMASK_EQ | 1ull << SR_LANEMASK_LE | 1ull << SR_LANEMASK_LT | 1ull << SR_LANEMASK_GE | 1ull << SR_LANEMASK_GT))
    FOR_LANES(i) {
      r[SR_LANEID][i] = (uint64_t)i;
      r[SR_LANEMASK_EQ][i] = 1u << i;
      r[SR_LANEMASK_LE][i] = (uint32_t)((2ull << i) - 1);
      r[SR_LANEMASK_LT][i] = (1u << i) - 1;
      r[SR_LANEMASK_GE][i] = (uint32_t)~((1u << i) - 1);
      r[SR_LANEMASK_GT][i] = (uint32_t)~((2ull << i) - 1);
    }
#define FILL(k, v) do { if (use >> (k) & 1) fill_row(r[k], v); } while (0)
  uint32_t csize = 1;
  for (int k = 0; k < 3; k++) {
    uint32_t cd = l->cluster[k] ? l->cluster[k] : 1;
    csize *= cd;
    FILL(SR_NTID_X + k, l->block[k]);
    FILL(SR_CTAID_X + k, c->id[k]);
    FILL(SR_NCTAID_X + k, l->grid[k]);
    FILL(SR_CLUSTERID_X + k, c->id[k] / cd);
    FILL(SR_NCLUSTERID_X + k, l->grid[k] / cd);
    FILL(SR_CLUSTER_CTAID_X + k, c->id[k] % cd);
    FILL(SR_CLUSTER_NCTAID_X + k, cd);
  }
  FILL(SR_CLUSTER_CTARANK, c->cluster_rank);
  FILL(SR_CLUSTER_NCTARANK, csize);
  FILL(SR_IS_EXPLICIT_CLUSTER, csize > 1);
  FILL(SR_WARPID, w->id);
  FILL(SR_NWARPID, 64);
  FILL(SR_SMID, c->smid);
  FILL(SR_NSMID, e->opt.nsm);
  FILL(SR_GRIDID, e->gridid);
  FILL(SR_DYNAMIC_SMEM_SIZE, l->dyn_shared);
  /* the kernel's units of shared memory; with the reserved bytes */
  FILL(SR_TOTAL_SMEM_SIZE, c->shared_size - EMU_SHARED_RESERVED);
  FILL(SR_AGGR_SMEM_SIZE, c->shared_size);
#undef FILL
  if (e->reads_envreg) for (int k = 0; k < 32; k++) fill_row(r[SR_ENVREG0 + k], l->envreg[k]);
}

/* A pooled register file holds what its last warp left: clear the rows
 * that warp can have written, but those every thread writes before it
 * reads them (emu_prepare's clear_runs).  The special registers that
 * init_sregs fills are written again; the other special rows are read-only
 * to PTX (the assembler refuses them as destinations) and stay as a fresh
 * file has them (zero), apart from rows the emulator writes: the clock rows
 * and the offset rows, written whole before each instruction that reads
 * them, and the carry flag, which addc may read before any .cc wrote it.
 * An observer may show any row of any lane (the debugger): for one,
 * everything is zero. */
static void clear_used_rows(const emu *e, uint64_t (*r)[WARP_SIZE], bool fresh) {
  if (e->obs && e->obs->reads_any_register) {
    memset(r, 0, e->sr_base * sizeof *r);          /* the functions' and offset rows */
    memset(r + e->sr_base + SR_ZERO, 0, 2 * sizeof *r);   /* SR_ZERO, SR_CC */
    memset(r + e->sr_base + SR_CLOCK, 0, (SR_GLOBALTIMER_HI + 1 - SR_CLOCK) * sizeof *r);
    if (fresh && !e->reads_envreg) memset(r + e->sr_base + SR_ENVREG0, 0, 32 * sizeof *r);
    return;
  }
  for (uint32_t k = 0; k < e->nclear_runs; k++) memset(r + e->clear_runs[2 * k], 0, e->clear_runs[2 * k + 1] * sizeof *r);
  memset(r + e->sr_base + SR_CC, 0, sizeof *r);
  if (fresh) memset(r + e->sr_base + SR_ZERO, 0, sizeof *r);
}

/* A warp's register rows and local memory, as emu_cta_start took them. */
static void warp_bufs_free(uint64_t (*r)[WARP_SIZE], void *local, uint32_t rows, uint32_t local_stride) {
  wbuf_free(r, (size_t)rows * sizeof *r);
  wbuf_free(local, (size_t)WARP_SIZE * local_stride);
}

void emu_pool_free(emu *e) {
  uint64_t each = (uint64_t)e->pool_rows * WARP_SIZE * 8 + (uint64_t)WARP_SIZE * e->pool_local_stride;
  while (e->npool) {
    e->npool--;
    warp_bufs_free(e->pool_regs[e->npool], e->pool_local[e->npool], e->pool_rows, e->pool_local_stride);
    e->warp_bytes -= each;
  }
}

/* The pool holds buffers of another shape (another kernel's): freed. */
static void pool_keep_shape(emu *e, uint32_t rows, uint32_t local_stride) {
  if (e->npool && (e->pool_rows != rows || e->pool_local_stride != local_stride)) emu_pool_free(e);
}

/* Host memory of one warp's register rows and local memory. */
static uint64_t warp_bytes(const emu *e) { return (uint64_t)emu_warp_rows(e) * WARP_SIZE * 8 + (uint64_t)WARP_SIZE * e->local_per_thread; }

/* Start the CTA number seq of the launch, counted cluster by cluster (all
 * CTAs of a cluster run together: they share memory and barriers). */
int emu_cta_start(emu *e, cta *c, uint64_t seq, cta *peers) {
  const emu_launch *l = &e->launch;
  memset(c, 0, sizeof *c);
  c->e = e;
  uint32_t cd[3] = { l->cluster[0], l->cluster[1], l->cluster[2] };
  uint32_t csize = cd[0] * cd[1] * cd[2];
  uint64_t q = seq / csize;
  uint32_t r = (uint32_t)(seq % csize);
  uint32_t qd[3] = { l->grid[0] / cd[0], l->grid[1] / cd[1], l->grid[2] / cd[2] };
  uint32_t qc[3] = { (uint32_t)(q % qd[0]), (uint32_t)(q / qd[0] % qd[1]), (uint32_t)(q / ((uint64_t)qd[0] * qd[1])) };
  uint32_t rc[3] = { r % cd[0], r / cd[0] % cd[1], r / (cd[0] * cd[1]) };
  for (int k = 0; k < 3; k++) c->id[k] = qc[k] * cd[k] + rc[k];
  uint32_t linear = c->id[0] + l->grid[0] * (c->id[1] + l->grid[1] * c->id[2]);
  c->linear = linear;
  c->cluster_rank = r;
  c->peers = peers;
  c->smid = linear % e->opt.nsm;
  uint32_t nthreads = l->block[0] * l->block[1] * l->block[2];
  c->nwarps = (nthreads + WARP_SIZE - 1) / WARP_SIZE;
  c->live_threads = nthreads;
  /* the window: the reserved bytes, then the kernel's shared memory to
   * the end of its last allocation unit (emu.h) */
  uint64_t user = (uint64_t)e->static_shared + l->dyn_shared;
  c->shared_size = (uint32_t)(EMU_SHARED_RESERVED + (user + EMU_SHARED_GRANULE - 1) / EMU_SHARED_GRANULE * EMU_SHARED_GRANULE);
  c->shared = calloc(1, c->shared_size);
  c->warps = calloc(c->nwarps, sizeof *c->warps);
  if (!c->shared || !c->warps) return -1;
  uint32_t entry = e->func_base[l->func];
  for (uint32_t wi = 0; wi < c->nwarps; wi++) {
    warp *w = &c->warps[wi];
    w->cta = c;
    w->e = e;
    w->id = wi;
    w->red_row = -1;
    w->nthreads = nthreads - wi * WARP_SIZE < WARP_SIZE ? nthreads - wi * WARP_SIZE : WARP_SIZE;
    w->nrows = emu_warp_rows(e);
    w->local_stride = e->local_per_thread;
    pool_keep_shape(e, w->nrows, w->local_stride);
    if (e->npool) {           /* reuse the buffers of a finished warp */
      e->npool--;
      w->r = e->pool_regs[e->npool];
      w->local = e->pool_local[e->npool];
      clear_used_rows(e, w->r, false);
      if (e->local_reached) memset(w->local, 0, (size_t)WARP_SIZE * w->local_stride);
    } else {
      /* registers and local memory of resident warps count against the cap */
      if (e->warp_bytes + warp_bytes(e) > e->opt.mem_cap) return -1;
      w->r = wbuf_alloc(w->nrows * sizeof *w->r, false);
      if (w->r) clear_used_rows(e, w->r, true);
      /* local memory only a kernel that reaches it needs zeroed (as a
       * reused warp's above) */
      w->local = wbuf_alloc_apart((size_t)WARP_SIZE * w->local_stride, e->local_reached);
      if (w->r && w->local) e->warp_bytes += warp_bytes(e);
    }
    if (!w->r || !w->local) return -1;
    FOR_LANES(i) {
      w->dsp[i] = w->local_stride;
      w->pc[i] = entry;
      w->state[i] = (uint32_t)i < w->nthreads ? TS_RUN : TS_EXITED;
    }
    w->exited = w->nthreads == WARP_SIZE ? 0 : ~((1u << w->nthreads) - 1);
    w->cur_depth = 0;
    init_sregs(e, c, w);
  }
  return 0;
}

void emu_cta_free(cta *c) {
  emu_async_release(c);
  emu_proxy_release(c);
  for (uint32_t i = 0; i < c->nwarps; i++) {
    c->e->stats.inst_executed += c->warps[i].insts;
    c->e->stats.thread_inst_executed += c->warps[i].thread_insts;
    emu *e = c->e;
    pool_keep_shape(e, c->warps[i].nrows, c->warps[i].local_stride);
    if (e->npool < EMU_POOL && c->warps[i].r && c->warps[i].local) {
      e->pool_rows = c->warps[i].nrows;
      e->pool_local_stride = c->warps[i].local_stride;
      e->pool_regs[e->npool] = c->warps[i].r;
      e->pool_local[e->npool++] = c->warps[i].local;
    } else {
      if (c->warps[i].r && c->warps[i].local) e->warp_bytes -= warp_bytes(e);
      warp_bufs_free(c->warps[i].r, c->warps[i].local, c->warps[i].nrows, c->warps[i].local_stride);
    }
  }
  free(c->warps);
  free(c->shared);
  c->warps = NULL;
  c->shared = NULL;
}

void emu_cta_move(cta *c, emu *to) {
  emu *from = c->e;
  if (from == to) return;
  for (uint32_t i = 0; i < c->nwarps; i++) {
    warp *w = &c->warps[i];
    if (w->r && w->local) { from->warp_bytes -= warp_bytes(from); to->warp_bytes += warp_bytes(to); }
    w->e = to;
  }
  c->e = to;
}

void emu_thread_exit(warp *w, lanemask m) {
  m &= ~w->exited;
  if (!m) return;
  FOR_LANES(i) if (m >> i & 1) w->state[i] = TS_EXITED;
  w->exited |= m;
  cta *c = w->cta;
  c->live_threads -= (uint32_t)popc32(m);
  /* barriers that wait for "all threads" may be complete now */
  for (int b = 0; b < 16; b++) if (c->bar[b].arrived) emu_barrier_check(c, b);
}

void emu_barrier_check(cta *c, int id) {
  emu_barrier *b = &c->bar[id];
  uint32_t expected = b->expected ? b->expected : c->live_threads;
  if (b->arrived < expected) return;
  uint32_t result = b->red_op == MOD_POPC ? b->red_count : b->red_op == MOD_AND ? b->red_false == 0 : b->red_count > 0;
  for (uint32_t wi = 0; wi < c->nwarps; wi++) {
    warp *w = &c->warps[wi];
    bool woke = false;
    /* the usual case first, a word at a time: the whole warp waits here */
    uint64_t st[WARP_SIZE / 8], bi[WARP_SIZE / 8], diff = 0;
    memcpy(st, w->state, sizeof st);
    memcpy(bi, w->barid, sizeof bi);
    for (int k = 0; k < WARP_SIZE / 8; k++) diff |= (st[k] ^ 0x0101010101010101ull * TS_BAR) | (bi[k] ^ 0x0101010101010101ull * (uint64_t)id);
    if (!diff) { memset(w->state, TS_RUN, WARP_SIZE); woke = true; }
    else FOR_LANES(i) if (w->state[i] == TS_BAR && w->barid[i] == id) { w->state[i] = TS_RUN; woke = true; }
    if (w->red_lanes && w->red_row >= 0 && woke) {
      FOR_LANES(i) if (w->red_lanes >> i & 1) w->r[w->red_row][i] = result;
      w->red_lanes = 0;
      w->red_row = -1;
    }
    if (woke) w->next_key = 0;      /* merge the released threads at the next step */
  }
  memset(b, 0, sizeof *b);
}

bool emu_cta_done(const cta *c) {
  for (uint32_t i = 0; i < c->nwarps; i++) if (~c->warps[i].exited) return false;
  return true;
}

static void describe_deadlock(emu *e, cta *c) {
  char buf[400];
  size_t n = 0;
  for (uint32_t wi = 0; wi < c->nwarps && n < sizeof buf - 100; wi++) {
    warp *w = &c->warps[wi];
    FOR_LANES(i) {
      if (w->state[i] == TS_BAR || w->state[i] == TS_WSYNC || w->state[i] == TS_SLEEP) {
        const xinsn *x = &e->prog[w->pc[i] ? w->pc[i] - (w->state[i] == TS_BAR) : 0];
        char cu[80];
        emu_source_suffix(e, x, cu, sizeof cu);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%swarp %u waits at line %u%s%s", n ? "; " : "", wi, x->in->line, cu,
                              w->state[i] == TS_SLEEP ? " (mbarrier)" : "");
        break;
      }
    }
  }
  warp *w0 = &c->warps[0];
  emu_fault_at(w0, NULL, 0, FAULT_DEADLOCK, "block (%u,%u,%u): %u of its threads have exited, the others wait: %s",
               c->id[0], c->id[1], c->id[2],
               (e->launch.block[0] * e->launch.block[1] * e->launch.block[2]) - c->live_threads, buf);
}

/* A progress line on stderr (only when it is a terminal: the caller
 * decides), for launches that run longer than a second. */
void emu_progress(emu *e, uint64_t done, uint64_t total, bool last) {
  double now = (double)clock_now_ns() * 1e-9;
  if (!e->progress_start) { e->progress_start = now; e->progress_last = now; return; }
  if (!last && now - e->progress_last < 0.25) return;
  if (now - e->progress_start < 1.0) return;
  e->progress_last = now;
  double el = now - e->progress_start;
  fprintf(stderr, "\rptxemu: %s: blocks %llu/%llu, %.1f M warp-inst/s, %.1f s%s", e->m->funcs[e->launch.func].name,
          (unsigned long long)done, (unsigned long long)total, (double)e->warp_insts / el / 1e6, el, last ? "\n" : "   ");
  fflush(stderr);
}

/* Everything a launch needs before its first CTA: the program, the
 * parameters in device memory, a valid cluster shape. */
int emu_launch_begin(emu *e, const emu_launch *l) {
  e->launch = *l;
  for (int k = 0; k < 3; k++) { if (!e->launch.cluster[k]) e->launch.cluster[k] = 1; }
  e->faulted = false;
  memset(&e->fault, 0, sizeof e->fault);
  e->fault.pc = UINT32_MAX;
  e->warp_insts = 0;
  /* the access memos name warps by address and instruction count: a
   * launch's warps may sit where the last one's did, counting from 0 */
  memset(e->access_memo, 0, sizeof e->access_memo);
  memset(e->span_memo, 0, sizeof e->span_memo);
  e->pack_regs = e->pack_rows = e->pack_file_rows = 0;
  e->deadline_ns = e->opt.max_seconds > 0 ? clock_now_ns() + (uint64_t)(e->opt.max_seconds * 1e9) : 0;
  if (e->stop_reason) e->deadline_ns = 1;    /* a stop request holds for every later launch */
  e->progress_start = 0;
  e->gridid++;
  if (emu_prepare(e, l->func)) {    /* a limit (its message set), or no memory */
    e->faulted = true;
    if (!e->fault.msg[0]) { e->fault.kind = FAULT_MEMORY; snprintf(e->fault.msg, sizeof e->fault.msg, "out of memory preparing the kernel"); }
    return -1;
  }
  /* kernel parameters live in device memory (like the constant bank) */
  /* one region, grown when a launch needs more: launches reuse it */
  uint32_t need = l->param_size ? l->param_size : 8;
  if (!e->param_addr || need > e->param_cap) { e->param_addr = emu_alloc(e, need, "kernel parameters"); e->param_cap = need; }
  if (!e->param_addr) { e->faulted = true; e->fault.kind = FAULT_MEMORY; snprintf(e->fault.msg, sizeof e->fault.msg, "device memory cap reached"); return -1; }
  if (l->param_size) memcpy(emu_host_ptr(e, e->param_addr, l->param_size), l->params, l->param_size);
  for (int k = 0; k < 3; k++)
    if (e->launch.grid[k] % e->launch.cluster[k]) {
      e->faulted = true;
      e->fault.kind = FAULT_BAD_ADDRESS_SPACE;
      snprintf(e->fault.msg, sizeof e->fault.msg, "cluster dimension %u does not divide grid dimension %u", e->launch.cluster[k], e->launch.grid[k]);
      return -1;
    }
  return 0;
}

/* The per-launch budgets (--max-insts, --max-seconds): past one, fault at
 * where warp w stands, so the report names a thread, block and PTX line. */
bool emu_over_budget(emu *e, warp *w) {
  int kind = 0;
  uint64_t rss = 0, now = clock_now_ns();
  /* device memory is backed as it is touched: the host's resident memory,
   * read at most every 10 ms (a system call), is what --max-memory holds */
  if (e->opt.mem_cap && now - e->rss_checked_ns > 10000000) {
    e->rss_checked_ns = now;
    rss = rss_bytes();
    rss = rss > e->rss_base ? rss - e->rss_base : 0;
    /* below 64 MiB page-granular noise dominates; the emulator's own
     * buffers (warps, heap, launch-file data) are checked one by one */
    if (rss > e->opt.mem_cap && rss > (64u << 20)) kind = FAULT_MEMORY;
  }
  if (e->stop_reason) kind = FAULT_STOPPED;
  else if (e->opt.max_warp_insts && e->warp_insts > e->opt.max_warp_insts) kind = FAULT_BUDGET;
  else if (e->deadline_ns && now > e->deadline_ns) kind = FAULT_TIMEOUT;
  if (!kind) return false;
  const xinsn *x = &e->prog[w->cur ? w->cur_pc : w->pc[__builtin_ctz(~w->exited)]];
  int lane = w->cur ? __builtin_ctz(w->cur) : __builtin_ctz(~w->exited);
  if (kind == FAULT_STOPPED)
    emu_fault_at(w, x, lane, FAULT_STOPPED, "%s", e->stop_reason);
  else if (kind == FAULT_BUDGET)
    emu_fault_at(w, x, lane, FAULT_BUDGET, "more than %llu warp instructions executed (raise --max-insts if the kernel is meant to run that long)",
                 (unsigned long long)e->opt.max_warp_insts);
  else if (kind == FAULT_MEMORY)
    emu_fault_at(w, x, lane, FAULT_MEMORY, "the emulation's resident host memory grew by %llu MiB, over the cap of %llu MiB (--max-memory): "
                 "the kernel touched more device memory than that", (unsigned long long)(rss >> 20), (unsigned long long)(e->opt.mem_cap >> 20));
  else
    emu_fault_at(w, x, lane, FAULT_TIMEOUT, "the launch ran longer than its wall-time budget of %g s (--max-seconds)", e->opt.max_seconds);
  return true;
}

/* After the last CTA: device printf output, in execution order. */
void emu_launch_end(emu *e) {
  emu_pool_free(e);
  e->warp_bytes = 0;
  emu_printf_flush(e);
}

int emu_run(emu *e, const emu_launch *l) {
  if (e->timing_cfg) return emu_run_timed(e, l);
  if (emu_launch_begin(e, l)) return -1;
  emu_rows_pack(e, l->func);
  /* on worker threads where its blocks turn out independent (parallel.c);
   * otherwise (or after the attempt was abandoned) the loop below */
  if (emu_par_run(e)) { emu_launch_end(e); return e->faulted ? -1 : 0; }
  uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  uint32_t csize = e->launch.cluster[0] * e->launch.cluster[1] * e->launch.cluster[2];
  /* the window holds whole clusters; a group of slots is refilled when its
   * cluster is done */
  uint32_t window = e->opt.resident_ctas ? e->opt.resident_ctas : 1;
  if (window > total) window = (uint32_t)total;
  window = window < csize ? csize : window / csize * csize;
  uint32_t ngroups = window / csize;
  cta *res = calloc(window, sizeof *res);
  bool *live = calloc(ngroups, sizeof *live);
  uint64_t next = 0;
  int rc = 0;
  uint32_t nlive = 0;
  for (uint32_t gi = 0; gi < ngroups && next < total && !rc; gi++) {
    for (uint32_t r = 0; r < csize && !rc; r++) if (emu_cta_start(e, &res[gi * csize + r], next++, &res[gi * csize])) rc = -1;
    live[gi] = true;
    nlive++;
  }
  while (nlive && !e->faulted && !rc) {
    bool progress = false;
    if (e->opt.progress) emu_progress(e, next - nlive * csize, total, false);
    for (uint32_t gi = 0; gi < ngroups && !e->faulted; gi++) {
      if (!live[gi]) continue;
      bool all_done = true;
      for (uint32_t r = 0; r < csize && !e->faulted; r++) {
        cta *c = &res[gi * csize + r];
        for (uint32_t wi = 0; wi < c->nwarps && !e->faulted; wi++)
          if (~c->warps[wi].exited && emu_warp_run(&c->warps[wi], e->opt.slice)) progress = true;
        if (!emu_cta_done(c)) all_done = false;
      }
      if (e->faulted) break;
      if (all_done) {
        for (uint32_t r = 0; r < csize; r++) emu_cta_free(&res[gi * csize + r]);
        if (next < total) {
          for (uint32_t r = 0; r < csize && !rc; r++) if (emu_cta_start(e, &res[gi * csize + r], next++, &res[gi * csize])) rc = -1;
          progress = true;
        } else { live[gi] = false; nlive--; }
      }
    }
    if (!e->faulted) {
      for (uint32_t i = 0; i < window; i++) if (live[i / csize] && res[i].warps) {
        warp *w0 = &res[i].warps[0];
        for (uint32_t wi = 0; wi < res[i].nwarps; wi++) if (~res[i].warps[wi].exited) { w0 = &res[i].warps[wi]; break; }
        emu_over_budget(e, w0);
        break;
      }
    }
    if (!progress && !e->faulted && nlive) {
      /* threads asleep on an mbarrier that only a timeout would release */
      for (uint32_t i = 0; i < window; i++) if (live[i / csize] && res[i].warps && emu_async_stalled(&res[i])) progress = true;
    }
    if (!progress && !e->faulted && nlive) {
      for (uint32_t i = 0; i < window; i++) if (live[i / csize] && res[i].warps && !emu_cta_done(&res[i])) { describe_deadlock(e, &res[i]); break; }
    }
  }
  for (uint32_t i = 0; i < window; i++) if (res[i].warps) emu_cta_free(&res[i]);
  free(res);
  free(live);
  if (e->opt.progress) emu_progress(e, total, total, true);
  emu_launch_end(e);
  if (rc) { e->faulted = true; e->fault.kind = FAULT_MEMORY; snprintf(e->fault.msg, sizeof e->fault.msg, "out of memory starting a block (each warp's registers and local memory take %llu KiB, counted against --max-memory)",
                    (unsigned long long)(warp_bytes(e) >> 10)); }
  return e->faulted ? -1 : 0;
}
