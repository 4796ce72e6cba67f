/* memmodel/ifetch.c - instruction fetch (see ifetch.h). */
#include <stdlib.h>
#include <string.h>
#include "memmodel/cache.h"
#include "memmodel/ifetch.h"
#include "util/host_line.h"
#include "util/vec.h"

#define LINE_SHIFT 7                   /* 128-byte instruction-cache lines */
#define AGAIN_LINES 16                 /* the most lines a fetch asks for that l0_again records */

/* A sub-partition's last fetch, when every line it asked its L0 for was
 * there: the next fetch of the same line finds the same lines in the same
 * ways (only the sub-partition's fetches use its L0, each writes this
 * record, and a launch forgets it), so it only moves their LRU stamps (the
 * sub-partition's warps entering, one after another, the line the first
 * entered). */
struct l0_again {
  uint64_t addr;                       /* the line fetched */
  double ready;                        /* its answer */
  uint32_t way[AGAIN_LINES];           /* the ways of its lines, in the order asked */
  bool valid;
};

/* What an SM's fetches write, on host lines of its own (SMs run on
 * different threads: util/host_line.h). */
struct ifsm {
  HOST_LINE_ALIGNED double l1_free;    /* the SM's and ...                          */
  double l0_free[8];                   /* ... each sub-partition's fetch engine is busy until then */
  /* windowed (ifetch_windowed): the lines the SM brought into L2 this
   * window, published to the other SMs by ifetch_commit */
  struct ifl2 { uint64_t li; double at; } *pub;
  uint32_t npub, cappub;
  struct l0_again again[8];            /* per sub-partition */
};

struct ifetch {
  const gpu_config *g;
  uint32_t nsm, nsp;
  cache *l0;                           /* per sub-partition (sm * nsp + sp) */
  cache *l1;                           /* per SM */
  struct ifsm *sm;                     /* per SM */
  double *in_l2;                       /* per code line: cycle it is in L2 (0: not fetched yet) */
  uint64_t nlines, cap;
  bool windowed;
  bool oom;
  uint64_t pre_end;                    /* the code bytes in every SM's L1 at the launch (from 0) ... */
  double pre_ready;                    /* ... from this cycle (on SM 0; sm * icache_launch_sm_cycles later on SM sm) */
  lazypool pool;                       /* the caches' tags */
};

static double dmax(double a, double b) { return a > b ? a : b; }

void ifetch_free(ifetch *f) {
  if (!f) return;
  for (uint32_t i = 0; f->l0 && i < f->nsm * f->nsp; i++) cache_free(&f->l0[i]);
  for (uint32_t i = 0; f->l1 && i < f->nsm; i++) cache_free(&f->l1[i]);
  for (uint32_t i = 0; f->sm && i < f->nsm; i++) free(f->sm[i].pub);
  free(f->sm);
  free(f->l0); free(f->l1); free(f->in_l2);
  lazypool_free(&f->pool);
  free(f);
}

uint64_t ifetch_host_bytes(const gpu_config *g, uint32_t nsm) {
  if (!g->icache_l0_bytes) return 0;
  uint64_t line = 1u << LINE_SHIFT, s0 = g->icache_l0_bytes / (line * 4), s1 = g->icache_l1_bytes / (line * 8);
  uint64_t n0 = (uint64_t)nsm * g->sub_partitions;
  return sizeof(ifetch) + n0 * (sizeof(cache) + (s0 ? s0 : 1) * 4 * (sizeof(cache_line) + sizeof(cache_way)))
         + nsm * (sizeof(cache) + sizeof(struct ifsm) + (s1 ? s1 : 1) * 8 * (sizeof(cache_line) + sizeof(cache_way)));
}

ifetch *ifetch_new(const gpu_config *g, uint32_t nsm) {
  if (!g->icache_l0_bytes) return NULL;
  ifetch *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->g = g;
  f->nsm = nsm;
  f->nsp = g->sub_partitions;
  uint32_t n0 = nsm * f->nsp;
  f->l0 = calloc_lines(n0, sizeof *f->l0);
  f->l1 = calloc_lines(nsm, sizeof *f->l1);
  f->sm = calloc_lines(nsm, sizeof *f->sm);
  if (!f->l0 || !f->l1 || !f->sm || f->nsp > 8) { ifetch_free(f); return NULL; }
  lazypool_init(&f->pool, n0 * cache_pool_bytes(g->icache_l0_bytes, 4, 1u << LINE_SHIFT)
                          + nsm * cache_pool_bytes(g->icache_l1_bytes, 8, 1u << LINE_SHIFT), false);   /* (the SMs' threads fill it) */
  for (uint32_t i = 0; i < n0; i++)
    if (cache_init_in(&f->l0[i], g->icache_l0_bytes, 4, 1u << LINE_SHIFT, 1u << LINE_SHIFT, &f->pool)) { ifetch_free(f); return NULL; }
  for (uint32_t i = 0; i < nsm; i++)
    if (cache_init_in(&f->l1[i], g->icache_l1_bytes, 8, 1u << LINE_SHIFT, 1u << LINE_SHIFT, &f->pool)) { ifetch_free(f); return NULL; }
  return f;
}

bool ifetch_fits(const ifetch *f, const gpu_config *g, uint32_t nsm) {
  return f && f->g == g && f->nsm == nsm && f->nsp == g->sub_partitions;
}

int ifetch_launch(ifetch *f, uint64_t code_bytes, double start) {
  uint64_t nl = (code_bytes >> LINE_SHIFT) + 2;
  if (nl > f->cap) {
    double *p = realloc(f->in_l2, nl * sizeof *p);
    if (!p) return -1;
    f->in_l2 = p;
    f->cap = nl;
  }
  f->nlines = nl;
  f->oom = false;
  for (uint32_t i = 0; i < f->nsm; i++) f->sm[i].npub = 0;
  memset(f->in_l2, 0, nl * sizeof *f->in_l2);
  for (uint32_t i = 0; i < f->nsm * f->nsp; i++) { cache_reset(&f->l0[i]); f->sm[i / f->nsp].l0_free[i % f->nsp] = 0; }
  ifetch_forget_last(f);
  uint64_t pre_end = f->g->icache_launch_bytes < code_bytes ? f->g->icache_launch_bytes : code_bytes;
  for (uint64_t a = 0; a < pre_end; a += 1u << LINE_SHIFT) f->in_l2[a >> LINE_SHIFT] = 1;   /* there from cycle 1 */
  f->pre_end = pre_end;
  f->pre_ready = f->g->icache_launch_cycles ? start + f->g->icache_launch_cycles : 0;
  for (uint32_t i = 0; i < f->nsm; i++) {
    cache_reset(&f->l1[i]);
    f->sm[i].l1_free = 0;
  }
  return 0;
}

/* Every SM asks L2 for the kernel's first lines at once: they come one SM
 * after another ([M] tests/microbench mb_launch: a warp's first
 * instruction waits ~140 cycles on one SM, ~230 on 132). */
void ifetch_sm_start(ifetch *f, uint32_t sm) {
  double ready = f->pre_ready ? f->pre_ready + sm * f->g->icache_launch_sm_cycles : 0;
  for (uint64_t a = 0; a < f->pre_end; a += 1u << LINE_SHIFT) {
    bool hit;
    cache_ref(&f->l1[sm], a, true, &hit, NULL)->ready = ready;
  }
}

void ifetch_windowed(ifetch *f, bool on) { f->windowed = on; }

int ifetch_commit(ifetch *f) {
  /* a line several SMs fetched this window: in L2 from the earliest */
  for (uint32_t sm = 0; sm < f->nsm; sm++) {
    struct ifsm *m = &f->sm[sm];
    for (uint32_t i = 0; i < m->npub; i++) {
      double *l2 = &f->in_l2[m->pub[i].li];
      if (!*l2 || m->pub[i].at < *l2) *l2 = m->pub[i].at;
    }
    m->npub = 0;
  }
  return f->oom ? -1 : 0;
}

/* Line addr into SM sm's L1 (asked for at t): when it is there. */
static double l1_line(ifetch *f, uint32_t sm, double t, uint64_t addr) {
  const gpu_config *g = f->g;
  bool hit;
  cache_line *ln = cache_ref(&f->l1[sm], addr, true, &hit, NULL);
  if (hit) return ln->ready;
  uint64_t li = addr >> LINE_SHIFT;
  double *l2 = li < f->nlines ? &f->in_l2[li] : NULL;
  struct ifsm *m = &f->sm[sm];
  double start = dmax(t, m->l1_free), cost = g->icache_dram_cycles;
  if (l2 && *l2) { start = dmax(start, *l2); cost = g->icache_l2_cycles; }   /* another SM fetched it */
  ln->ready = start + cost;
  m->l1_free = ln->ready;
  if (l2 && !*l2) {
    if (!f->windowed) *l2 = ln->ready;
    else if (VEC_APPEND(m->pub, m->npub, m->cappub, ((struct ifl2){ li, ln->ready }))) f->oom = true;
  }
  return ln->ready;
}

/* Line addr into L0 of sub-partition spi of SM sm (asked for at t). */
static double l0_line(ifetch *f, uint32_t sm, uint32_t spi, double t, uint64_t addr, size_t *way, bool *hit) {
  cache *c = &f->l0[spi];
  cache_line *ln = cache_ref(c, addr, true, hit, NULL);
  *way = (size_t)(ln - c->lines);
  if (*hit) return ln->ready;
  double from_l1 = l1_line(f, sm, t, addr);
  double *busy = &f->sm[sm].l0_free[spi - sm * f->nsp];
  double start = dmax(t, *busy);
  ln->ready = dmax(start + f->g->icache_l1_cycles, from_l1);
  *busy = ln->ready;
  return ln->ready;
}

double ifetch_line(ifetch *f, uint32_t sm, uint32_t sp, double t, uint64_t addr) {
  uint32_t spi = sm * f->nsp + sp, n = 1 + f->g->icache_ahead;
  addr &= ~(uint64_t)((1u << LINE_SHIFT) - 1);
  cache *c = &f->l0[spi];
  struct l0_again *a = &f->sm[sm].again[sp];
  if (a->valid && a->addr == addr) {
    for (uint32_t k = 0; k < n; k++) cache_ref_again(c, a->way[k]);
    return a->ready;
  }
  bool all = n <= AGAIN_LINES, hit;
  size_t way;
  double ready = 0;
  for (uint32_t k = 0; k < n; k++) {
    double r = l0_line(f, sm, spi, t, addr + ((uint64_t)k << LINE_SHIFT), &way, &hit);
    if (!k) ready = r;
    all &= hit;
    if (k < AGAIN_LINES) a->way[k] = (uint32_t)way;
  }
  a->addr = addr;
  a->ready = ready;
  a->valid = all;
  return ready;
}

void ifetch_forget_last(ifetch *f) {
  for (uint32_t i = 0; i < f->nsm; i++)
    for (uint32_t sp = 0; sp < f->nsp; sp++) f->sm[i].again[sp].valid = false;
}
