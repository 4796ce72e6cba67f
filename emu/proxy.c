/* emu/proxy.c - strict proxy-fence checking (ptxemu run/check --strict-async).
 *
 * Shared memory written through the generic proxy (st.shared, atom/red,
 * stmatrix, wmma.store, cp.async) must be ordered before the async proxy
 * reads it (cp.async.bulk / cp.reduce.async.bulk from shared memory, TMA
 * stores and reductions, wgmma operands read through descriptors) by a
 * fence.proxy.async of the writing thread.  The hardware does not check
 * this: without the fence the async proxy may read stale data, now and then.
 *
 * Per CTA, one mark per byte of shared memory: the thread that last wrote
 * the byte through the generic proxy (its cluster rank and thread index)
 * and the PC of the writing instruction; 0 when no such write is pending.
 * A fence.proxy.async (any form but .global) clears the marks of the
 * threads that execute it, in every CTA of the cluster; an async-proxy
 * write (a bulk or tensor copy into shared memory) clears the bytes it
 * writes; an async-proxy read of a marked byte stops the launch with a
 * "missing proxy fence" fault naming the reader, the writer and the
 * writer's PTX line.  Nothing is tracked without the option.
 */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"

typedef struct proxy_state {
  uint32_t size;
  uint32_t *writer;              /* (cluster rank << 16) | (thread index + 1), 0: clean */
  uint32_t *pc;                  /* the writing instruction                       */
} proxy_state;

static proxy_state *state_of(cta *c) {
  if (!c->proxy_state) {
    proxy_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->size = c->shared_size;
    s->writer = calloc(s->size ? s->size : 1, sizeof *s->writer);
    s->pc = calloc(s->size ? s->size : 1, sizeof *s->pc);
    if (!s->writer || !s->pc) { free(s->writer); free(s->pc); free(s); return NULL; }
    c->proxy_state = s;
  }
  return c->proxy_state;
}

static uint32_t writer_id(const warp *w, int lane) {
  return w->cta->cluster_rank << 16 | (w->id * WARP_SIZE + (uint32_t)lane + 1);
}

void emu_proxy_generic_write(warp *w, const xinsn *x, int lane, cta *c, uint32_t off, uint32_t n) {
  if (!w->e->opt.strict_async || off >= c->shared_size) return;
  proxy_state *s = state_of(c);
  if (!s) return;
  if (n > s->size - off) n = s->size - off;
  uint32_t id = writer_id(w, lane);
  for (uint32_t k = 0; k < n; k++) { s->writer[off + k] = id; s->pc[off + k] = x->pc; }
}

/* The CTA of the cluster whose shared memory holds host pointer p. */
static cta *owner_of(cta *c, const uint8_t *p, uint32_t *off) {
  const emu_launch *l = &c->e->launch;
  uint32_t n = c->peers ? l->cluster[0] * l->cluster[1] * l->cluster[2] : 1;
  for (uint32_t r = 0; r < n; r++) {
    cta *o = c->peers ? &c->peers[r] : c;
    if (o->shared && p >= o->shared && p < o->shared + o->shared_size) { *off = (uint32_t)(p - o->shared); return o; }
  }
  return NULL;
}

void emu_proxy_generic_ptr(warp *w, const xinsn *x, int lane, const uint8_t *p, uint32_t n) {
  if (!w->e->opt.strict_async) return;
  uint32_t off;
  cta *o = owner_of(w->cta, p, &off);
  if (o) emu_proxy_generic_write(w, x, lane, o, off, n);
}

void emu_proxy_async_write(cta *c, uint32_t off, uint32_t n) {
  proxy_state *s = c->proxy_state;
  if (!s || off >= s->size) return;
  if (n > s->size - off) n = s->size - off;
  memset(s->writer + off, 0, (size_t)n * sizeof *s->writer);
}

bool emu_proxy_async_read(warp *w, const xinsn *x, int lane, cta *c, uint32_t off, uint32_t n, const char *what) {
  proxy_state *s = c->proxy_state;
  if (!w->e->opt.strict_async || !s || off >= s->size) return true;
  if (n > s->size - off) n = s->size - off;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t id = s->writer[off + k];
    if (!id) continue;
    const emu_launch *l = &w->e->launch;
    uint32_t t = (id & 0xffff) - 1, rank = id >> 16;
    const xinsn *wx = s->pc[off + k] < w->e->nprog ? &w->e->prog[s->pc[off + k]] : NULL;
    char where[32] = "", cu[80];
    emu_source_suffix(w->e, wx, cu, sizeof cu);
    if (rank != w->cta->cluster_rank) snprintf(where, sizeof where, " of cluster CTA rank %u", rank);
    emu_fault_at(w, x, lane, FAULT_PROXY,
                 "%s reads shared memory at 0x%x that thread (%u,%u,%u)%s wrote through the generic proxy "
                 "(line %u%s) with no fence.proxy.async by that thread since",
                 what, off + k, t % l->block[0], t / l->block[0] % l->block[1], t / (l->block[0] * l->block[1]), where,
                 wx ? wx->in->line : 0, cu);
    w->e->fault.addr = off + k;
    return false;
  }
  return true;
}

/* fence.proxy.async by the threads in m: their generic writes are ordered. */
void emu_proxy_fence(warp *w, const xinsn *x, lanemask m) {
  (void)x;
  if (!m || !w->e->opt.strict_async) return;
  cta *c = w->cta;
  const emu_launch *l = &c->e->launch;
  uint32_t n = c->peers ? l->cluster[0] * l->cluster[1] * l->cluster[2] : 1;
  uint32_t lo = writer_id(w, 0), hi = lo + WARP_SIZE;
  for (uint32_t r = 0; r < n; r++) {
    cta *o = c->peers ? &c->peers[r] : c;
    proxy_state *s = o->proxy_state;
    if (!s) continue;
    for (uint32_t k = 0; k < s->size; k++) {
      uint32_t id = s->writer[k];
      if (id >= lo && id < hi && (m >> (id - lo) & 1)) s->writer[k] = 0;
    }
  }
}

/* The forms that order generic-proxy accesses of shared memory with the
 * async proxy: fence.proxy.async{,.shared::cta,.shared::cluster}. */
bool emu_proxy_is_async_fence(const isa_insn *in) {
  bool proxy = false, async = false;
  for (int i = 0; i < in->ncomps; i++) {
    int c = in->comps[i] - ISA_COMP_MOD;
    if (c == MOD_PROXY) proxy = true;
    if (c == MOD_ASYNC || c == MOD_ASYNC_SHARED_CTA || c == MOD_ASYNC_SHARED_CLUSTER) async = true;
  }
  return proxy && async && in->space != MOD_GLOBAL;
}

void emu_proxy_release(cta *c) {
  proxy_state *s = c->proxy_state;
  if (!s) return;
  free(s->writer);
  free(s->pc);
  free(s);
  c->proxy_state = NULL;
}
