/* host/obs_chain.c - two emulator observers as one (see obs_chain.h). */
#include "host/obs_chain.h"

static void on_insn(void *ctx, const warp *w, const xinsn *x, lanemask m, lanemask g, lanemask taken) {
  obs_chain *c = ctx;
  if (c->a->on_insn) c->a->on_insn(c->a->ctx, w, x, m, g, taken);
  if (c->b->on_insn) c->b->on_insn(c->b->ctx, w, x, m, g, taken);
}
static void on_mem(void *ctx, const warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t bytes,
                   uint32_t sectors, uint32_t lines, uint32_t wavefronts) {
  obs_chain *c = ctx;
  if (c->a->on_mem) c->a->on_mem(c->a->ctx, w, x, a, m, bytes, sectors, lines, wavefronts);
  if (c->b->on_mem) c->b->on_mem(c->b->ctx, w, x, a, m, bytes, sectors, lines, wavefronts);
}
static void on_timing(void *ctx, const warp *w, uint64_t issue, uint64_t complete, const emu_stall *st, int nst) {
  obs_chain *c = ctx;
  if (c->a->on_timing) c->a->on_timing(c->a->ctx, w, issue, complete, st, nst);
  if (c->b->on_timing) c->b->on_timing(c->b->ctx, w, issue, complete, st, nst);
}
static void on_before_insn(void *ctx, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  obs_chain *c = ctx;
  if (c->a->on_before_insn) c->a->on_before_insn(c->a->ctx, w, x, m, g);
  if (c->b->on_before_insn) c->b->on_before_insn(c->b->ctx, w, x, m, g);
}
static void on_fault(void *ctx, const warp *w, const xinsn *x) {
  obs_chain *c = ctx;
  if (c->a->on_fault) c->a->on_fault(c->a->ctx, w, x);
  if (c->b->on_fault) c->b->on_fault(c->b->ctx, w, x);
}
static void on_block_timing(void *ctx, const cta *k, uint64_t start, uint64_t end) {
  obs_chain *c = ctx;
  if (c->a->on_block_timing) c->a->on_block_timing(c->a->ctx, k, start, end);
  if (c->b->on_block_timing) c->b->on_block_timing(c->b->ctx, k, start, end);
}
static void on_sm_sample(void *ctx, uint32_t sm, uint64_t cycle, uint32_t active, uint32_t eligible) {
  obs_chain *c = ctx;
  if (c->a->on_sm_sample) c->a->on_sm_sample(c->a->ctx, sm, cycle, active, eligible);
  if (c->b->on_sm_sample) c->b->on_sm_sample(c->b->ctx, sm, cycle, active, eligible);
}

emu_observer *obs_chain_make(obs_chain *c, emu_observer *a, emu_observer *b) {
  if (!a) return b;
  if (!b) return a;
  c->a = a;
  c->b = b;
  c->obs = (emu_observer){ .ctx = c };   /* no fold: each observer's on_insn sees every instruction */
  /* the emulator calls on_insn whenever an observer is installed */
  c->obs.on_insn = on_insn;
  if (a->on_mem || b->on_mem) c->obs.on_mem = on_mem;
  if (a->on_timing || b->on_timing) c->obs.on_timing = on_timing;
  if (a->on_block_timing || b->on_block_timing) c->obs.on_block_timing = on_block_timing;
  if (a->on_sm_sample || b->on_sm_sample) c->obs.on_sm_sample = on_sm_sample;
  if (a->on_before_insn || b->on_before_insn) c->obs.on_before_insn = on_before_insn;
  if (a->on_fault || b->on_fault) c->obs.on_fault = on_fault;
  c->obs.reads_any_register = a->reads_any_register || b->reads_any_register;
  return &c->obs;
}
