/* emu/cdp.c - device-side launches (CUDA dynamic parallelism, CDP2): what
 * __cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2, the device
 * runtime's calls, do.  A kernel asks for a parameter buffer in device
 * memory, writes the child's parameters into it and launches it; the
 * launch is queued and runs after the launching grid ends (host/launcher.c
 * runs the queue, children before grandchildren, in launch order).  CDP2
 * has no device-side wait for children, so running them after their
 * parent is a schedule CUDA allows. */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"

#define CDP_BUFFER_BYTES (8u << 20)   /* parameter buffers of one host launch */

typedef struct cdp_pending { uint64_t buf; emu_child c; } cdp_pending;
typedef struct cdp_state {
  uint64_t base, used;              /* the parameter buffers' region          */
  cdp_pending *prepared;            /* buffers handed out, not launched yet   */
  uint32_t nprepared, capprepared;
  emu_child *queue;                 /* launched, waiting to run                */
  uint32_t head, n, cap;
} cdp_state;

static cdp_state *state(emu *e) {
  if (!e->cdp) e->cdp = calloc(1, sizeof(cdp_state));
  return e->cdp;
}

/* Parameter bytes of kernel func: the extent of its parameters. */
static uint32_t param_bytes(const isa_func *k) {
  uint64_t size = 0;
  for (uint32_t i = 0; i < k->nparams; i++) {
    const isa_sym *s = &k->syms[k->nrets + i];
    if (s->offset + s->size > size) size = s->offset + s->size;
  }
  return (uint32_t)size;
}

uint64_t emu_cdp_param_buffer(emu *e, uint64_t func_addr, const uint32_t grid[3], const uint32_t block[3], uint32_t shared) {
  cdp_state *s = state(e);
  if (!s || !e->m->nfuncs) return 0;
  uint64_t first = e->func_addr[0], fi = (func_addr - first) / 16;
  if (func_addr < first || (func_addr - first) % 16 || fi >= e->m->nfuncs || !e->m->funcs[fi].is_entry) return 0;
  uint32_t size = param_bytes(&e->m->funcs[fi]);
  if (!s->base && !(s->base = emu_alloc(e, CDP_BUFFER_BYTES, "device launch parameter buffers"))) return 0;
  uint64_t off = (s->used + 63) & ~63ull;
  if (off + size + 1 > CDP_BUFFER_BYTES) return 0;    /* full: CUDA returns NULL too */
  s->used = off + size + 1;
  if (s->nprepared == s->capprepared) {
    uint32_t nc = s->capprepared ? s->capprepared * 2 : 64;
    cdp_pending *np = realloc(s->prepared, nc * sizeof *np);
    if (!np) return 0;
    s->prepared = np;
    s->capprepared = nc;
  }
  cdp_pending *p = &s->prepared[s->nprepared++];
  memset(p, 0, sizeof *p);
  p->buf = s->base + off;
  p->c.func = (int)fi;
  memcpy(p->c.grid, grid, sizeof p->c.grid);
  memcpy(p->c.block, block, sizeof p->c.block);
  p->c.dyn_shared = shared;
  p->c.param_size = size;
  return p->buf;
}

int emu_cdp_launch(emu *e, uint64_t buf) {
  cdp_state *s = state(e);
  if (!s) return 2;                  /* cudaErrorMemoryAllocation */
  for (uint32_t i = 0; i < s->nprepared; i++) {
    if (s->prepared[i].buf != buf) continue;
    emu_child c = s->prepared[i].c;
    c.params = malloc(c.param_size ? c.param_size : 1);
    if (!c.params) return 2;
    const uint8_t *p = c.param_size ? emu_host_ptr(e, buf, c.param_size) : NULL;
    if (p) memcpy(c.params, p, c.param_size);
    s->prepared[i] = s->prepared[--s->nprepared];
    if (s->head + s->n == s->cap) {
      if (s->head) { memmove(s->queue, s->queue + s->head, s->n * sizeof *s->queue); s->head = 0; }
      if (s->n == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 64;
        emu_child *nq = realloc(s->queue, nc * sizeof *nq);
        if (!nq) { free(c.params); return 2; }
        s->queue = nq;
        s->cap = nc;
      }
    }
    s->queue[s->head + s->n++] = c;
    return 0;
  }
  return 1;                          /* cudaErrorInvalidValue: not a parameter buffer */
}

bool emu_child_pop(emu *e, emu_child *out) {
  cdp_state *s = e->cdp;
  if (!s || !s->n) return false;
  *out = s->queue[s->head++];
  s->n--;
  return true;
}

void emu_cdp_reset(emu *e) {
  cdp_state *s = e->cdp;
  if (!s) return;
  emu_child c;
  while (emu_child_pop(e, &c)) free(c.params);
  s->head = 0;
  s->used = 0;
  s->nprepared = 0;
}

void emu_cdp_free(emu *e) {
  cdp_state *s = e->cdp;
  if (!s) return;
  emu_cdp_reset(e);
  free(s->prepared);
  free(s->queue);
  free(s);
  e->cdp = NULL;
}
