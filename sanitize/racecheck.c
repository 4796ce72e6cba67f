/* sanitize/racecheck.c - data hazards between threads that nothing orders.
 *
 * Shadow memory keeps, per 4-byte word, the last write and the last two
 * reads by different threads.  An access conflicts with a recorded one of
 * another thread when the bytes overlap, one of them writes, and:
 *  - shared memory, or global memory in the same block: both threads had
 *    passed the same barrier phase (gen; a phase is stamped when its first
 *    thread arrives, so everybody released by it shares the stamp) and
 *    they are in different warps, or in one warp on sm_70+ (independent
 *    thread scheduling) with no __syncwarp (bar.warp.sync) between them;
 *    an mbarrier wait gives the waiting thread a phase of its own;
 *  - global memory in different blocks: the earlier thread made no fence
 *    (membar/fence) or atomic since its access.
 * The lanes of one instruction are checked against the state before it, so
 * a warp's own store of one value by several lanes is not a hazard.
 * Atomics never conflict. */
#include <stdlib.h>
#include <string.h>
#include "sanitize/internal.h"
/* messages are cut at their buffer's end, on purpose */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static uint8_t byte_mask(uint64_t off, uint32_t size, uint64_t word) {
  uint64_t lo = off > word * 4 ? off - word * 4 : 0, hi = off + size - word * 4;
  if (hi > 4) hi = 4;
  return (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
}

/* ---- barrier phases, warp syncs, fences (before the instruction runs) -------------- */

/* Lanes g fenced (or made an atomic): their own earlier accesses, and those
 * of their block from before the last barrier they passed (a fence is
 * cumulative: grid.sync has one thread fence for its block), are ordered
 * for the other blocks. */
static void fenced(sanitizer *s, const warp *w, san_cta *sc, lanemask g) {
  uint64_t base = (uint64_t)w->cta->linear * s->bsize + w->id * WARP_SIZE;
  uint16_t *bf = &s->bfence[w->cta->linear];
  FOR_LANES(i) if (g >> i & 1) {
    s->fences[base + (uint64_t)i]++;
    uint16_t gen = sc->gen[w->id * WARP_SIZE + (uint32_t)i];
    if (gen > *bf) *bf = gen;
  }
}

void race_insn(sanitizer *s, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  (void)m;
  const isa_insn *in = x->in;
  san_cta *sc = san_cta_of(s, w);
  if (!sc) return;
  if (in->op == OP_MEMBAR || in->op == OP_FENCE) {
    if (s->global_race) fenced(s, w, sc, g);
    return;
  }
  if (in->op == OP_MBARRIER_TEST_WAIT || in->op == OP_MBARRIER_TRY_WAIT) {
    /* an mbarrier phase orders its arrivals before its waiters: a waiting
     * thread starts a phase of its own (a wait that fails and loops only
     * starts more; racecheck may miss a hazard there, never invent one) */
    uint16_t st = ++sc->next_gen;
    FOR_LANES(i) if (g >> i & 1) sc->gen[w->id * WARP_SIZE + (uint32_t)i] = st;
    return;
  }
  if (in->op == OP_BAR_WARP_SYNC) {
    uint16_t st = ++sc->next_wgen[w->id & 31];
    FOR_LANES(i) if (g >> i & 1) sc->wgen[w->id * WARP_SIZE + (uint32_t)i] = st;
    return;
  }
  if (in->op != OP_BAR && in->op != OP_BARRIER) return;
  if (in->sub == MOD_CLUSTER || in->scope == MOD_CLUSTER) {
    /* barrier.cluster.wait: a phase of its own for each waiting group */
    if (in->sub != MOD_ARRIVE) { uint16_t st = ++sc->next_gen; FOR_LANES(i) if (g >> i & 1) sc->gen[w->id * WARP_SIZE + (uint32_t)i] = st; }
    return;
  }
  bool red = in->sub == MOD_RED, arrive = in->sub == MOD_ARRIVE;
  int k = red ? 1 : 0;
  int lead = __builtin_ctz(g ? g : m);
  uint32_t id = in->nops > k ? (uint32_t)xsrc(w, x, k)[lead] : 0;
  if (id >= 16) return;                          /* the emulator faults */
  if (w->cta->bar[id].arrived == 0) sc->bar_stamp[id] = ++sc->next_gen;   /* a new phase */
  if (arrive) return;                            /* bar.arrive does not wait: nothing after it is ordered */
  FOR_LANES(i) if (g >> i & 1) sc->gen[w->id * WARP_SIZE + (uint32_t)i] = sc->bar_stamp[id];
}

/* ---- reporting ------------------------------------------------------------------- */

static void hazard(sanitizer *s, enum san_kind kind, bool shared, uint32_t pca, uint8_t acca, uint32_t blka, uint32_t tida,
                   const warp *w, const xinsn *x, int lane, uint8_t accb, uint64_t addr, uint32_t size, int how) {
  bool fresh;
  san_finding *f = san_record(s, SAN_RACECHECK, kind, pca, x->spc, &fresh);
  if (!f || !fresh) return;
  f->space = shared ? "shared" : "global";
  san_site_of(s, &f->a, pca, acca, blka, tida);
  san_site_of(s, &f->b, x->spc, accb, w->cta->linear, w->id * WARP_SIZE + (uint32_t)lane);
  f->addr = addr;
  f->size = size;
  san_describe_addr(s, f, shared, addr);
  static const char *const what[] = { "read after write", "write after read", "write after write" };
  char la[200], lb[200];
  /* in source order: "between the store and the load" reads naturally */
  const san_site *first = &f->a, *second = &f->b;
  if (f->a.cuda_line && f->b.cuda_line ? f->b.cuda_line < f->a.cuda_line : f->b.ptx_line < f->a.ptx_line) { first = &f->b; second = &f->a; }
  if (first->cuda_line) snprintf(la, sizeof la, "%s:%u", first->cuda_file, first->cuda_line);
  else snprintf(la, sizeof la, "PTX line %u", first->ptx_line);
  if (second->cuda_line) snprintf(lb, sizeof lb, "%s:%u", second->cuda_file, second->cuda_line);
  else snprintf(lb, sizeof lb, "PTX line %u", second->ptx_line);
  if (how == 2)
    snprintf(f->message, sizeof f->message, "%s hazard between lanes of one warp with no __syncwarp() between them "
             "(sm_70+ schedules the lanes independently): add __syncwarp() between %s and %s", what[kind], la, lb);
  else if (how == 3)
    snprintf(f->message, sizeof f->message, "%s hazard between threads of different blocks in one launch: nothing orders them "
             "(a __threadfence() and an atomic flag, or two kernel launches)", what[kind]);
  else
    snprintf(f->message, sizeof f->message, "%s hazard between threads of different warps that no barrier orders: "
             "add __syncthreads() between %s and %s", what[kind], la, lb);
}

/* ---- shared memory ------------------------------------------------------------------ */

/* 0 ordered, 1 different warps in one phase, 2 lanes of one warp without __syncwarp */
static int sh_unordered(const sanitizer *s, const san_cta *sc, const sacc *p, uint16_t tid, uint8_t mask) {
  if (p->tid == SAN_NONE || p->tid == tid || !(p->mask & mask)) return 0;
  if (sc->gen[tid] != p->gen) return 0;
  if (p->tid / WARP_SIZE != tid / WARP_SIZE) return 1;
  if (!s->its) return 0;
  return sc->wgen[tid] == p->wgen ? 2 : 0;
}

static void race_shared(sanitizer *s, const warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, bool store) {
  san_cta *sc = san_cta_of(s, w);
  if (!sc || !sc->sh) return;
  uint32_t limit = w->cta->shared_size;
  /* stores check every lane against the state before the instruction, then
   * update (lanes of one store do not race each other); a load's checks
   * read only the last write, which loads leave alone: one pass */
  for (int pass = store ? 0 : 1; pass < 2; pass++) {
    FOR_LANES(i) {
      if (!(m >> i & 1)) continue;
      uint64_t off = a[i];
      if (off + size > limit) continue;        /* another block of the cluster */
      uint16_t tid = (uint16_t)(w->id * WARP_SIZE + (uint32_t)i);
      for (uint64_t k = off / 4; k <= (off + size - 1) / 4; k++) {
        sword *e = &sc->sh[k];
        if (e->instance != sc->instance) {
          if (pass == 0) continue;
          e->instance = sc->instance;
          e->w.tid = e->r.tid = e->r2.tid = SAN_NONE;
        }
        uint8_t mask = byte_mask(off, size, k);
        if (!store) {
          int how = sh_unordered(s, sc, &e->w, tid, mask);
          if (how) hazard(s, SK_RAW, true, e->w.pc, 1, w->cta->linear, e->w.tid, w, x, i, 0, k * 4, 4, how);
        }
        if (pass == 0) {
          int how;
          if ((how = sh_unordered(s, sc, &e->w, tid, mask)))
            hazard(s, store ? SK_WAW : SK_RAW, true, e->w.pc, 1, w->cta->linear, e->w.tid, w, x, i, store, k * 4, 4, how);
          if (store) {
            /* a reader of another warp, which only a barrier orders, before
             * one of the writer's own warp (a __syncwarp() would do) */
            const sacc *p = &e->r;
            int hr2 = sh_unordered(s, sc, &e->r2, tid, mask);
            how = sh_unordered(s, sc, &e->r, tid, mask);
            if (hr2 && (!how || (hr2 == 1 && how != 1))) { p = &e->r2; how = hr2; }
            if (how) hazard(s, SK_WAR, true, p->pc, 0, w->cta->linear, p->tid, w, x, i, 1, k * 4, 4, how);
          }
          continue;
        }
        sacc cur = { .pc = x->spc, .tid = tid, .gen = sc->gen[tid], .wgen = sc->wgen[tid], .mask = mask };
        if (store) { e->w = cur; e->r.tid = e->r2.tid = SAN_NONE; }
        else if (e->r.tid == tid || e->r.tid == SAN_NONE) e->r = cur;
        /* r2 keeps a reader of another warp than r where there was one:
         * a broadcast value read by every warp conflicts with them all */
        else if (e->r.tid / WARP_SIZE != tid / WARP_SIZE || e->r2.tid == SAN_NONE) { e->r2 = e->r; e->r = cur; }
        else e->r = cur;
      }
    }
  }
}

/* ---- global memory ------------------------------------------------------------------ */

static int g_unordered(const sanitizer *s, const san_cta *sc, const gacc *p, uint8_t pmask, uint32_t thr, uint32_t tid, uint8_t mask) {
  if (p->thr == UINT32_MAX || p->thr == thr || !(pmask & mask)) return 0;
  if (p->thr / s->bsize == thr / s->bsize) {
    if (sc->gen[tid] != p->gen) return 0;
    return (p->thr % s->bsize) / WARP_SIZE != tid / WARP_SIZE;     /* one warp: ordered */
  }
  if (s->fences[p->thr] != p->fence || p->gen < s->bfence[p->thr / s->bsize]) return 0;
  return 3;
}

static void race_global(sanitizer *s, const warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, bool store) {
  san_cta *sc = san_cta_of(s, w);
  if (!sc) return;
  uint32_t stamp = (uint32_t)s->launch;
  uint64_t tbase = (uint64_t)w->cta->linear * s->bsize;
  for (int pass = store ? 0 : 1; pass < 2; pass++) {     /* as in race_shared */
    FOR_LANES(i) {
      if (!(m >> i & 1)) continue;
      san_region *r = san_region_at(s, a[i]);
      if (!r) continue;
      if (!r->race) {
        if (pass == 0) continue;
        /* 8 bytes of shadow per byte: past the cap, regions go unchecked */
        uint64_t bytes = (r->size / 4 + 2) * sizeof *r->race;
        if (s->shadow_bytes + bytes > SAN_MAX_SHADOW) {
          if (!s->shadow_full)
            fprintf(s->out, "ptxemu: racecheck: not checking global memory beyond %llu MiB of buffers (its shadow would pass %llu GiB)\n",
                    (unsigned long long)(s->shadow_bytes / sizeof *r->race * 4 >> 20), SAN_MAX_SHADOW >> 30);
          s->shadow_full = true;
          continue;
        }
        r->race = calloc(r->size / 4 + 2, sizeof *r->race);
        if (!r->race) continue;
        s->shadow_bytes += bytes;
      }
      uint64_t off = a[i] - r->base;
      if (off + size > r->size) continue;
      uint32_t tid = w->id * WARP_SIZE + (uint32_t)i, thr = (uint32_t)(tbase + tid);
      for (uint64_t k = off / 4; k <= (off + size - 1) / 4; k++) {
        gword *e = &r->race[k];
        if (e->stamp != stamp) {
          if (pass == 0) continue;
          e->stamp = stamp;
          e->w.thr = e->r.thr = UINT32_MAX;
        }
        uint8_t mask = byte_mask(off, size, k);
        if (!store) {
          int how = g_unordered(s, sc, &e->w, e->wmask, thr, tid, mask);
          if (how) hazard(s, SK_RAW, false, e->w.pc, 1, e->w.thr / s->bsize, e->w.thr % s->bsize, w, x, i, 0, r->base + k * 4, 4, how);
        }
        if (pass == 0) {
          int how;
          if ((how = g_unordered(s, sc, &e->w, e->wmask, thr, tid, mask)))
            hazard(s, store ? SK_WAW : SK_RAW, false, e->w.pc, 1, e->w.thr / s->bsize, e->w.thr % s->bsize, w, x, i, store,
                   r->base + k * 4, 4, how);
          else if (store && (how = g_unordered(s, sc, &e->r, e->rmask, thr, tid, mask)))
            hazard(s, SK_WAR, false, e->r.pc, 0, e->r.thr / s->bsize, e->r.thr % s->bsize, w, x, i, 1, r->base + k * 4, 4, how);
          continue;
        }
        gacc cur = { .pc = x->spc, .thr = thr, .gen = sc->gen[tid], .fence = s->fences[thr] };
        if (store) { e->w = cur; e->wmask = mask; e->r.thr = UINT32_MAX; }
        else { e->r = cur; e->rmask = mask; }
      }
    }
  }
}

void race_mem(sanitizer *s, const warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, bool shared) {
  int op = x->in->op;
  if (op == OP_ATOM || op == OP_RED) {
    /* an atomic orders the thread's earlier global accesses for other blocks */
    if (!s->global_race || shared) return;
    san_cta *sc = san_cta_of(s, w);
    if (sc) fenced(s, w, sc, m);
    return;
  }
  bool store = op == OP_ST;
  if (!store && op != OP_LD && op != OP_LDU) return;
  if (!size) return;
  if (shared) race_shared(s, w, x, a, m, size, store);
  else if (s->global_race) race_global(s, w, x, a, m, size, store);
}
