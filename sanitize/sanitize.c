/* sanitize/sanitize.c - the sanitizer's life cycle: options, the session
 * hooks it wraps, its observer (chained in front of a trace's), and the
 * per-block and per-region state the checkers share. */
#include <stdlib.h>
#include <string.h>
#include "sanitize/internal.h"
#include "host/obs_chain.h"
#include "host/session.h"

const char *const san_tool_names[3] = { "racecheck", "synccheck", "initcheck" };

int san_parse(const char *list, const char **bad, size_t *badlen) {
  int m = 0;
  const char *p = list;
  while (*p) {
    size_t n = strcspn(p, ",");
    if (n == 3 && strncmp(p, "all", 3) == 0) m |= SAN_RACECHECK | SAN_SYNCCHECK | SAN_INITCHECK;
    else if (n == 9 && strncmp(p, "racecheck", 9) == 0) m |= SAN_RACECHECK;
    else if (n == 9 && strncmp(p, "synccheck", 9) == 0) m |= SAN_SYNCCHECK;
    else if (n == 9 && strncmp(p, "initcheck", 9) == 0) m |= SAN_INITCHECK;
    else if (n == 8 && strncmp(p, "memcheck", 8) == 0) {}   /* always on */
    else { *bad = p; *badlen = n; return -1; }
    p += n;
    if (*p == ',') p++;
  }
  return m;
}

sanitizer *san_new(unsigned checks, FILE *out) {
  sanitizer *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->checks = checks;
  s->out = out;
  return s;
}

void san_free(sanitizer *s) {
  if (!s) return;
  for (uint32_t i = 0; i < s->nctas; i++) { free(s->ctas[i].sh); free(s->ctas[i].init); }
  for (uint32_t i = 0; i < s->nregions; i++) { free(s->regions[i].race); free(s->regions[i].init); }
  free(s->ctas);
  free(s->regions);
  free(s->fences);
  free(s->bfence);
  free(s->seen);
  free(s->found);
  free(s);
}

void san_set_sink(sanitizer *s, void (*sink)(void *ctx, const san_finding *f), void *ctx) { s->sink = sink; s->sink_ctx = ctx; }
uint64_t san_total(const sanitizer *s) { return s ? s->total : 0; }

void san_summary(const sanitizer *s) {
  if (!s || !s->checks || !s->launch) return;
  fprintf(s->out, "ptxemu: sanitizer: %llu finding%s (racecheck %llu, synccheck %llu, initcheck %llu)\n",
          (unsigned long long)s->total, s->total == 1 ? "" : "s", (unsigned long long)s->per_tool[0],
          (unsigned long long)s->per_tool[1], (unsigned long long)s->per_tool[2]);
  if (s->repeats)
    fprintf(s->out, "ptxemu: sanitizer: later launches found %llu of them again (not printed again; each is in the trace)\n",
            (unsigned long long)s->repeats);
}

/* ---- the observer (chained after the launch's own: host/obs_chain.h) ------------ */

/* Instructions the checkers look at (others cost one table load). */
enum { C_NONE, C_BAR, C_WSYNC, C_FENCE, C_MBWAIT, C_BLIND };
static uint8_t op_class[OP_COUNT];
static void init_classes(void) {
  static bool done;
  if (done) return;
  done = true;
  op_class[OP_BAR] = op_class[OP_BARRIER] = C_BAR;
  op_class[OP_BAR_WARP_SYNC] = C_WSYNC;
  op_class[OP_MEMBAR] = op_class[OP_FENCE] = C_FENCE;
  op_class[OP_MBARRIER_TEST_WAIT] = op_class[OP_MBARRIER_TRY_WAIT] = C_MBWAIT;
  /* they write memory without an on_mem report: initcheck cannot follow */
  static const int blind[] = { OP_ST_ASYNC, OP_ST_BULK, OP_MULTIMEM_ST, OP_MULTIMEM_RED, OP_RED_ASYNC, OP_CP_ASYNC,
    OP_CP_ASYNC_BULK, OP_CP_REDUCE_ASYNC_BULK, OP_CP_ASYNC_BULK_TENSOR, OP_CP_REDUCE_ASYNC_BULK_TENSOR,
    OP_WMMA_STORE_D, OP_STMATRIX, OP_SUST, OP_SURED, OP_TENSORMAP_REPLACE };
  for (size_t i = 0; i < sizeof blind / sizeof *blind; i++) op_class[blind[i]] = C_BLIND;
}

static void on_insn(void *ctx, const warp *w, const xinsn *x, lanemask m, lanemask g, lanemask taken) {
  (void)taken;
  sanitizer *s = ctx;
  uint8_t cls = op_class[x->in->op];
  if (!cls && !(x->flags & XF_SYNC)) return;
  if (s->checks & SAN_SYNCCHECK) sync_insn(s, w, x, m, g);
  if (s->checks & SAN_RACECHECK) race_insn(s, w, x, m, g);
  if ((s->checks & SAN_INITCHECK) && cls == C_BLIND) init_insn(s, w, x, m, g);
}

static void on_mem(void *ctx, const warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t bytes,
                   uint32_t sectors, uint32_t lines, uint32_t wavefronts) {
  (void)lines; (void)wavefronts;
  sanitizer *s = ctx;
  bool shared = sectors == 0;             /* global accesses always touch a sector */
  if (s->checks & SAN_RACECHECK) race_mem(s, w, x, a, m, bytes, shared);
  if (s->checks & SAN_INITCHECK) init_mem(s, w, x, a, m, bytes, shared);
}

/* ---- launches ------------------------------------------------------------------ */

void san_launch_begin(void *ctx, int index, const char *kernel, emu *e, const emu_launch *l) {
  sanitizer *s = ctx;
  if (s->inner_begin) s->inner_begin(s->ctx, index, kernel, e, l);
  init_classes();
  s->e = e;
  s->launch++;
  s->kernel = kernel;
  s->bsize = l->block[0] * l->block[1] * l->block[2];
  s->its = e->m && e->m->sm >= 70;
  s->init_blind = false;
  s->nfound = 0;
  s->dropped = 0;
  uint64_t threads = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] * s->bsize;
  /* global racecheck numbers the grid's threads in 32 bits and keeps a fence
   * count per thread: grids beyond 64 M threads go without it */
  s->global_race = false;
  if ((s->checks & SAN_RACECHECK) && threads && threads <= (1u << 26)) {
    if (threads > s->nfences) { free(s->fences); s->fences = malloc(threads * sizeof *s->fences); s->nfences = s->fences ? threads : 0; }
    uint64_t blocks = threads / s->bsize;
    if (blocks > s->nbfence) { free(s->bfence); s->bfence = malloc(blocks * sizeof *s->bfence); s->nbfence = s->bfence ? blocks : 0; }
    if (s->fences && s->bfence) {
      memset(s->fences, 0, threads * sizeof *s->fences);
      memset(s->bfence, 0, blocks * sizeof *s->bfence);
      s->global_race = true;
    }
  }
  /* the trace (when it records this launch) observes first */
  s->inner = e->obs;
  s->obs = (emu_observer){ .ctx = s, .on_insn = on_insn, .on_mem = on_mem };
  e->obs = obs_chain_make(&s->chain, s->inner, &s->obs);
}

void san_launch_done(void *ctx, int index, const char *kernel, emu *e, int rc) {
  sanitizer *s = ctx;
  e->obs = s->inner;
  s->inner = NULL;
  if (s->checks & SAN_INITCHECK) init_launch_end(s);
  san_report_launch(s);
  /* blocks of this launch are gone */
  for (uint32_t i = 0; i < s->nctas; i++) s->ctas[i].c = NULL;
  if (s->inner_done) s->inner_done(s->ctx, index, kernel, e, rc);
}

void san_attach(sanitizer *s, session_opts *o) {
  s->ctx = o->observer_ctx;
  s->inner_begin = o->launch_begin;
  s->inner_done = o->launch_done;
  o->observer_ctx = s;
  o->launch_begin = san_launch_begin;
  o->launch_done = san_launch_done;
  o->buffer_alloc = san_buffer_alloc;
}

/* ---- blocks ---------------------------------------------------------------------- */

static int cta_reset(sanitizer *s, san_cta *sc, const cta *c) {
  sc->c = c;
  sc->linear = c->linear;
  sc->launch = s->launch;
  sc->instance = ++s->next_instance;
  memset(sc->gen, 0, sizeof sc->gen);
  memset(sc->wgen, 0, sizeof sc->wgen);
  memset(sc->bar_stamp, 0, sizeof sc->bar_stamp);
  memset(sc->next_wgen, 0, sizeof sc->next_wgen);
  memset(sc->bar_count, 0, sizeof sc->bar_count);
  sc->next_gen = 0;
  sc->blind = false;
  uint32_t words = c->shared_size / 4 + 1;
  if ((s->checks & SAN_RACECHECK) && words > sc->nsh) {
    sword *n = realloc(sc->sh, words * sizeof *n);
    if (!n) return -1;
    /* instance 0 is never current: the new words read as untouched */
    memset(n + sc->nsh, 0, (words - sc->nsh) * sizeof *n);
    sc->sh = n;
    sc->nsh = words;
  }
  if (s->checks & SAN_INITCHECK) {
    uint32_t bytes = c->shared_size / 8 + 1;
    if (bytes > sc->ninit) {
      uint8_t *n = realloc(sc->init, bytes);
      if (!n) return -1;
      sc->init = n;
      sc->ninit = bytes;
    }
    memset(sc->init, 0, bytes);
  }
  return 0;
}

san_cta *san_cta_of(sanitizer *s, const warp *w) {
  const cta *c = w->cta;
  if (s->last_cta < s->nctas) {
    san_cta *sc = &s->ctas[s->last_cta];
    if (sc->c == c && sc->linear == c->linear && sc->launch == s->launch) return sc;
  }
  uint32_t free_slot = UINT32_MAX;
  for (uint32_t i = 0; i < s->nctas; i++) {
    san_cta *sc = &s->ctas[i];
    if (sc->c == c) {
      s->last_cta = i;
      if (sc->linear != c->linear || sc->launch != s->launch) { if (cta_reset(s, sc, c)) return NULL; }
      return sc;
    }
    if (!sc->c && free_slot == UINT32_MAX) free_slot = i;
  }
  if (free_slot == UINT32_MAX) {
    if (s->nctas == s->capctas) {
      uint32_t cap = s->capctas ? s->capctas * 2 : 16;
      san_cta *n = realloc(s->ctas, cap * sizeof *n);
      if (!n) return NULL;
      memset(n + s->capctas, 0, (cap - s->capctas) * sizeof *n);
      s->ctas = n;
      s->capctas = cap;
    }
    free_slot = s->nctas++;
  }
  s->last_cta = free_slot;
  if (cta_reset(s, &s->ctas[free_slot], c)) { s->ctas[free_slot].c = NULL; return NULL; }
  return &s->ctas[free_slot];
}

/* ---- regions ----------------------------------------------------------------------- */

static san_region *region_add(sanitizer *s, uint64_t base, uint64_t size) {
  for (uint32_t i = 0; i < s->nregions; i++) {
    san_region *r = &s->regions[i];
    if (r->base != base) continue;
    if (r->size != size) {           /* freed and allocated again with another size */
      if (r->race) s->shadow_bytes -= (r->size / 4 + 2) * sizeof *r->race;
      free(r->race); free(r->init);
      r->race = NULL; r->init = NULL; r->size = size; r->tracked = false;
    }
    return r;
  }
  if (s->nregions == s->capregions) {
    uint32_t cap = s->capregions ? s->capregions * 2 : 16;
    san_region *n = realloc(s->regions, cap * sizeof *n);
    if (!n) return NULL;
    s->regions = n;
    s->capregions = cap;
  }
  san_region *r = &s->regions[s->nregions++];
  memset(r, 0, sizeof *r);
  r->base = base;
  r->size = size;
  return r;
}

san_region *san_region_at(sanitizer *s, uint64_t addr) {
  if (s->last_region < s->nregions) {
    san_region *r = &s->regions[s->last_region];
    if (addr - r->base < r->size) return r;
  }
  const mem_region *mr = emu_region_of(s->e, addr);
  if (!mr) return NULL;
  san_region *r = region_add(s, mr->base, mr->size);
  if (!r) return NULL;
  r->name = mr->name;
  s->last_region = (uint32_t)(r - s->regions);
  return r;
}

void san_buffer_alloc(void *ctx, uint64_t addr, uint64_t size, bool written) {
  sanitizer *s = ctx;
  if (!(s->checks & SAN_INITCHECK) || !size) return;
  san_region *r = region_add(s, addr, size);
  if (!r) return;
  free(r->init);
  r->init = calloc(size / 8 + 1, 1);
  r->tracked = r->init != NULL;
  if (r->init && written) init_mark(r, 0, size);
}

void san_host_write(sanitizer *s, uint64_t addr, uint64_t size) {
  if (!s || !(s->checks & SAN_INITCHECK)) return;
  for (uint32_t i = 0; i < s->nregions; i++) {
    san_region *r = &s->regions[i];
    if (!r->tracked || addr - r->base >= r->size) continue;
    uint64_t off = addr - r->base, n = size < r->size - off ? size : r->size - off;
    init_mark(r, off, n);
  }
}
