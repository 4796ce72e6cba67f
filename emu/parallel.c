/* emu/parallel.c - functional launches on worker threads, deterministic.
 *
 * Workers take clusters in launch order and run them with the sequential
 * scheduler's window, each on its own copy of the emulator's per-launch
 * state.  Every global access records, in a shadow of 64-byte chunks, which
 * block touched the chunk and how; a dependency between two blocks (one
 * reads or writes what another wrote, or writes what another read) is a
 * conflict.  On a conflict, fault or limit the attempt stops, device memory
 * goes back to what it was (each page's bytes, saved before its first
 * write) and the caller runs the launch sequentially.  Reads of a region
 * no block writes need no shadow (nothing they read can change): a
 * region's reads go unrecorded until its first write, and a write after
 * such reads stops the attempt, which runs again with that region's reads
 * recorded from the start (as later launches do).  So a launch's
 * answer never depends on the thread count: either its blocks were
 * independent, and any order gives the sequential result, or it is the
 * sequential result (doc/parallel.md). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "emu/internal.h"
#include "emu/parallel.h"
#include "memmodel/space.h"
#include "util/clock.h"
#include "util/lazymap.h"
#include "util/vec.h"

/* A shadow word per 64-byte chunk of a region: bits 0..15 the chunk's
 * 4-byte granules its owner wrote (in ATOM mode: the operation's class),
 * 16..31 those read (by the owner, or in SHARED_READ mode by anyone),
 * 32..61 the owner (1 + cluster number), 62..63 the mode.  Mode 3 is a
 * short lock (low bits 0) or MULTI (low bits 1): blocks share the chunk's
 * granules, and a word per granule (the fine shadow) says who uses each. */
enum { M_EXCL, M_SHARED_READ, M_ATOM, M_LOCKED };
#define OWNER_BITS 30
#define OWNER_MASK ((1ull << OWNER_BITS) - 1)
#define MODE(w) ((unsigned)((w) >> 62))
#define OWNER(w) (((w) >> 32) & OWNER_MASK)
#define WBITS(w) ((uint16_t)(w))
#define RBITS(w) ((uint16_t)((w) >> 16))
#define MK(mode, owner, low) ((uint64_t)(mode) << 62 | ((uint64_t)(owner) & OWNER_MASK) << 32 | (uint64_t)(low))
#define LOCKED MK(M_LOCKED, 0, 0)
#define MULTI MK(M_LOCKED, 0, 1)
/* fine shadow word: state in bits 30..31, owner below */
enum { FS_NONE, FS_READ1, FS_READN, FS_WRITTEN };
#define FMK(st, owner) ((uint32_t)(st) << 30 | (uint32_t)(owner))

enum { A_READ, A_WRITE, A_ATOM };

/* A region's shadowing in an attempt: nobody touched it yet, it was read
 * (unrecorded) and not written, or every access goes through the shadow. */
enum { RS_CLEAN, RS_READ, RS_TRACKED };

/* Device memory before the attempt is kept a 4 KiB page at a time: a
 * page is copied before the launch first writes any byte of it (a chunk's
 * first write by its owner, a chunk's first atomic), so a transposed or
 * scattered store logs each page once instead of each chunk it touches. */
enum { PG_SHIFT = 12, PG_SIZE = 1 << PG_SHIFT, PG_NONE = 0, PG_COPYING, PG_SAVED };

/* A page a worker saved (to put back when the attempt is abandoned). */
typedef struct saved_page { uint32_t ri; bool zero; uint64_t page; } saved_page;   /* zero: all its bytes were 0, nothing copied */

typedef struct par_shared {
  emu *e;                        /* the launching emulator                        */
  _Atomic uint64_t next;         /* next cluster to start                          */
  uint64_t nclusters;
  uint32_t batch;                /* clusters a worker claims at once               */
  uint64_t single_from;          /* ... one at a time from this cluster on         */
  uint32_t csize;
  _Atomic int stop;              /* an attempt is abandoned                        */
  const char *_Atomic why;       /* why (the first reason)                         */
  _Atomic uint64_t insts;        /* warp instructions of all workers (--max-insts) */
  _Atomic(_Atomic uint64_t *) *shadow;   /* per region, mapped at its first access */
  _Atomic(_Atomic uint32_t *) *fine;     /* per region: a word per granule, for MULTI chunks */
  _Atomic(_Atomic uint8_t *) *pstate;    /* per region: a PG_* state per page   */
  _Atomic(uint8_t *) *saved;             /* per region: the saved pages' bytes (at their offsets) */
  uint8_t *acc;                  /* per PC: its access class (A_READ, A_WRITE, A_ATOM; access_of) ... */
  uint16_t *cls;                 /* ... and an A_ATOM's commutative class */
  _Atomic uint8_t *rstate;       /* per region: RS_*                               */
  _Atomic uint8_t *rewrite;      /* per region: written after unrecorded reads (the attempt stopped) */
  atomic_flag atom_lock;         /* held around shared commutative atomics (their read-modify-write is not atomic) */
  size_t *shadow_bytes, *fine_bytes, *pstate_bytes, *saved_bytes;
  /* device printf: each worker writes to a memory stream; per cluster, the
   * stream offsets where each of its rounds ended, to interleave them as
   * the sequential window would */
  bool prints;
  struct par_cluster { uint32_t worker, nrounds; uint64_t first, start; } *cl;
} par_shared;

struct emu_par {
  par_shared *s;
  uint32_t ri;                   /* region of the previous access                  */
  /* that region's bounds [rlo, rhi), and its state as far as this attempt
   * settled it: RS_READ or RS_TRACKED never change until it ends (a write
   * to a RS_READ region stops it), so the region's gate and shadow are
   * looked up once per region change, not per access */
  uint64_t rlo, rhi;
  uint8_t rsettled;              /* RS_READ, RS_TRACKED, or RS_CLEAN: not known */
  _Atomic uint64_t *rsh;         /* RS_TRACKED: its shadow                          */
  uint32_t known_ri;             /* a page this worker knows is saved (log_chunk) */
  uint64_t known_page;
  bool holds;                    /* holds atom_lock until its next access or the slice's end */
  saved_page *log;               /* the pages this worker saved                    */
  uint32_t nlog, caplog;
  uint32_t idx;                  /* worker number                                  */
  FILE *out;                     /* device printf (when the kernel prints)         */
  char *outbuf;
  size_t outlen;
  uint64_t *ends, nends, capends;   /* stream offsets at the ends of rounds       */
  uint64_t cur;                  /* the cluster running                            */
  uint64_t batch_next, batch_end;   /* the clusters claimed, not started yet        */
};

typedef struct par_worker {
  _Alignas(64) emu e;            /* this worker's copy of the launch state (a line of its own) */
  _Alignas(64) struct emu_par p;
  char pad[64];                  /* the next worker's state starts on another line */
} par_worker;

static void stop(par_shared *s, const char *why) {
  const char *none = NULL;
  atomic_compare_exchange_strong(&s->why, &none, why);
  atomic_store(&s->stop, 1);
}

/* ---- the shadow ------------------------------------------------------------ */

static void *map_once(_Atomic(void *) *slot, size_t bytes, size_t *size_out) {
  void *sh = atomic_load_explicit(slot, memory_order_acquire);
  if (sh) return sh;
  void *m = lazymap_zeroed(bytes);
  if (!m) return NULL;
  void *none = NULL;
  if (!atomic_compare_exchange_strong(slot, &none, m)) { munmap(m, bytes); return none; }
  *size_out = bytes;
  return m;
}

static _Atomic uint64_t *shadow_of(par_shared *s, uint32_t ri) {
  return map_once((_Atomic(void *) *)&s->shadow[ri], (size_t)((s->e->regions[ri].size + 63) / 64) * sizeof(uint64_t), &s->shadow_bytes[ri]);
}
static _Atomic uint32_t *fine_of(par_shared *s, uint32_t ri) {
  return map_once((_Atomic(void *) *)&s->fine[ri], (size_t)((s->e->regions[ri].size + 63) / 64) * 16 * sizeof(uint32_t), &s->fine_bytes[ri]);
}

static _Atomic uint8_t *pstate_of(par_shared *s, uint32_t ri) {
  return map_once((_Atomic(void *) *)&s->pstate[ri], (size_t)((s->e->regions[ri].size + PG_SIZE - 1) >> PG_SHIFT), &s->pstate_bytes[ri]);
}
static uint8_t *saved_of(par_shared *s, uint32_t ri) {
  return map_once((_Atomic(void *) *)&s->saved[ri], (size_t)s->e->regions[ri].size, &s->saved_bytes[ri]);
}

static bool all_zero(const uint8_t *b, uint64_t len) {
  uint64_t acc = 0, i = 0;
  for (; i + 8 <= len; i += 8) { uint64_t v; memcpy(&v, b + i, 8); acc |= v; }
  for (; i < len; i++) acc |= b[i];
  return acc == 0;
}

/* Before the first write to chunk `chunk` of region ri by this worker's
 * block: its page is saved (by this worker, or another that got there
 * first: then wait until the copy is complete, since writes follow). */
static bool log_chunk(struct emu_par *p, uint32_t ri, uint64_t chunk) {
  par_shared *s = p->s;
  uint64_t page = chunk >> (PG_SHIFT - 6);
  if (page == p->known_page && ri == p->known_ri) return true;   /* a warp's next chunk of the page */
  _Atomic uint8_t *st = pstate_of(s, ri);
  if (!st) return false;
  uint8_t old = atomic_load_explicit(&st[page], memory_order_acquire);
  if (old == PG_SAVED) { p->known_ri = ri; p->known_page = page; return true; }
  if (old == PG_NONE && atomic_compare_exchange_strong_explicit(&st[page], &old, PG_COPYING, memory_order_acq_rel, memory_order_acquire)) {
    const mem_region *r = &s->e->regions[ri];
    uint64_t off = page << PG_SHIFT, left = r->size - off, len = left < PG_SIZE ? left : PG_SIZE;
    /* a page of zeros (an output buffer not written yet) is remembered as
     * such: no copy, and no saved page to back */
    bool zero = all_zero(r->data + off, len);
    uint8_t *sv = zero ? NULL : saved_of(s, ri);
    if ((!zero && !sv) || (p->nlog == p->caplog && !vec_grow((void **)&p->log, &p->caplog, sizeof *p->log, 256))) { atomic_store_explicit(&st[page], PG_NONE, memory_order_release); return false; }
    if (!zero) memcpy(sv + off, r->data + off, len);
    p->log[p->nlog++] = (saved_page){ ri, zero, page };
    atomic_store_explicit(&st[page], PG_SAVED, memory_order_release);
    return true;
  }
  while (atomic_load_explicit(&st[page], memory_order_acquire) == PG_COPYING) { }
  /* the copier ran out of memory (PG_NONE again): the attempt stops anyway */
  return atomic_load_explicit(&st[page], memory_order_acquire) == PG_SAVED;
}

static void release(struct emu_par *p) {
  if (p->holds) { atomic_flag_clear_explicit(&p->s->atom_lock, memory_order_release); p->holds = false; }
}

/* The granules of a MULTI chunk, one by one: a granule another block wrote
 * may not be read or written, one others read may not be written. */
static bool touch_fine(struct emu_par *p, uint32_t ri, uint64_t chunk, uint16_t mask, int acc, uint64_t owner) {
  par_shared *s = p->s;
  _Atomic uint32_t *f = fine_of(s, ri);
  if (!f) { stop(s, "out of memory for the access shadow"); return false; }
  f += chunk * 16;
  for (unsigned g = 0; g < 16; g++) {
    if (!(mask >> g & 1)) continue;
    uint32_t old = atomic_load_explicit(&f[g], memory_order_acquire);
    for (;;) {
      unsigned st = old >> 30;
      bool mine = (old & 0x3fffffffu) == owner;
      uint32_t nw;
      if (acc == A_READ) {
        if (st == FS_READN || (mine && st != FS_NONE)) break;
        if (st == FS_WRITTEN) goto conflict;
        nw = st == FS_NONE ? FMK(FS_READ1, owner) : FMK(FS_READN, 0);
      } else {
        if (st == FS_WRITTEN && mine) break;
        if (st == FS_READN || (st != FS_NONE && !mine)) goto conflict;
        nw = FMK(FS_WRITTEN, owner);
      }
      if (atomic_compare_exchange_weak_explicit(&f[g], &old, nw, memory_order_acq_rel, memory_order_acquire)) {
        if (nw >> 30 == FS_WRITTEN && !log_chunk(p, ri, chunk)) {
          stop(s, "out of memory for the saved pages");
          return false;
        }
        break;
      }
    }
  }
  return true;
conflict:
  stop(s, "blocks depend on each other through global memory");
  return false;
}

/* Block `owner` accesses the granules `mask` of chunk `chunk` of region ri
 * (shadow: the region's shadow_of); *shared_atom: a commutative atomic on a
 * chunk other blocks may update. */
static bool touch(struct emu_par *p, uint32_t ri, _Atomic uint64_t *shadow, uint64_t chunk, uint16_t mask, int acc, uint16_t cls, uint64_t owner, bool *shared_atom) {
  par_shared *s = p->s;
  _Atomic uint64_t *sh = shadow + chunk;
  uint64_t old = atomic_load_explicit(sh, memory_order_acquire);
  for (;;) {
    uint64_t nw;
    uint16_t newly = 0;
    unsigned mode = MODE(old);
    if (old == 0) {
      if (acc == A_ATOM) {
        /* the chunk's bytes are logged before any block's atomic changes them */
        if (!atomic_compare_exchange_weak(sh, &old, LOCKED)) continue;
        bool ok = log_chunk(p, ri, chunk);
        atomic_store_explicit(sh, MK(M_ATOM, 0, cls), memory_order_release);
        if (!ok) { stop(s, "out of memory for the saved pages"); return false; }
        *shared_atom = true;
        return true;
      }
      nw = acc == A_READ ? MK(M_EXCL, owner, (uint32_t)mask << 16) : MK(M_EXCL, owner, mask);
      newly = acc == A_READ ? 0 : mask;
    } else if (old == LOCKED) {
      old = atomic_load_explicit(sh, memory_order_acquire);
      continue;
    } else if (old == MULTI) {
      return touch_fine(p, ri, chunk, mask, acc == A_ATOM ? A_WRITE : acc, owner);
    } else if (mode == M_EXCL && OWNER(old) == owner) {
      if (acc == A_READ) {
        if (!(mask & ~(RBITS(old) | WBITS(old)))) return true;
        nw = old | (uint64_t)mask << 16;
      } else {
        newly = (uint16_t)(mask & ~WBITS(old));
        if (!newly) return true;
        nw = old | mask;
      }
    } else if (mode == M_EXCL || mode == M_SHARED_READ) {
      /* another block's chunk: reads of granules nobody wrote may share it;
       * granules apart from everyone else's go one by one */
      uint16_t w = mode == M_EXCL ? WBITS(old) : 0, rd = RBITS(old);
      if (acc == A_READ && !w) {
        if (mode == M_SHARED_READ && !(mask & ~rd)) return true;
        nw = MK(M_SHARED_READ, 0, (uint32_t)(rd | mask) << 16);
      } else if (mask & (acc == A_READ ? w : (uint16_t)(w | rd))) {
        goto conflict;
      } else {
        if (!atomic_compare_exchange_weak_explicit(sh, &old, LOCKED, memory_order_acq_rel, memory_order_acquire)) continue;
        _Atomic uint32_t *f = fine_of(s, ri);
        if (!f) { atomic_store(sh, old); stop(s, "out of memory for the access shadow"); return false; }
        f += chunk * 16;
        uint64_t o = OWNER(old);
        for (unsigned g = 0; g < 16; g++)
          atomic_store_explicit(&f[g], w >> g & 1 ? FMK(FS_WRITTEN, o) : !(rd >> g & 1) ? FMK(FS_NONE, 0)
                                       : mode == M_EXCL ? FMK(FS_READ1, o) : FMK(FS_READN, 0), memory_order_relaxed);
        atomic_store_explicit(sh, MULTI, memory_order_release);
        return touch_fine(p, ri, chunk, mask, acc == A_ATOM ? A_WRITE : acc, owner);
      }
    } else {
      if (acc == A_ATOM && (old & 0xffff) == cls) { *shared_atom = true; return true; }
      goto conflict;
    }
    if (atomic_compare_exchange_weak_explicit(sh, &old, nw, memory_order_acq_rel, memory_order_acquire)) {
      /* only the owner writes these granules, and only after this */
      if (newly && !log_chunk(p, ri, chunk)) { stop(s, "out of memory for the saved pages"); return false; }
      return true;
    }
  }
conflict:
  stop(s, "blocks depend on each other through global memory");
  return false;
}

static int gate(struct emu_par *p, uint32_t ri, int acc);

/* touch, finding the region's shadow (the lane-by-lane path) */
static bool touch_lanes(struct emu_par *p, uint32_t ri, uint64_t chunk, uint16_t mask, int acc, uint16_t cls, uint64_t owner, bool *sa) {
  int gt = gate(p, ri, acc);
  if (gt <= 0) return gt == 0;
  _Atomic uint64_t *sh = shadow_of(p->s, ri);
  if (!sh) { stop(p->s, "out of memory for the access shadow"); return false; }
  return touch(p, ri, sh, chunk, mask, acc, cls, owner, sa);
}

static bool find_region(const emu *e, uint32_t *ri, uint64_t a) {
  if (*ri < e->nregions && a - e->regions[*ri].base < e->regions[*ri].size && a >= e->regions[*ri].base) return true;
  uint32_t lo = 0, hi = e->nregions;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (e->regions[mid].base + e->regions[mid].size <= a) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= e->nregions || a < e->regions[lo].base) return false;
  *ri = lo;
  return true;
}

/* Integer reductions whose order does not matter: their class, else 0. */
static uint16_t commutative_class(const isa_insn *in, bool unused) {
  if ((in->op != OP_RED && !(in->op == OP_ATOM && unused)) || in->vec > 1) return 0;
  bool sg = in->type == PTX_T_S32 || in->type == PTX_T_S64;
  bool wide = in->type == PTX_T_U64 || in->type == PTX_T_S64 || in->type == PTX_T_B64;
  if (!sg && !wide && in->type != PTX_T_U32 && in->type != PTX_T_B32) return 0;
  switch (in->bop) {
  case MOD_ADD: case MOD_AND: case MOD_OR: case MOD_XOR: sg = false; break;   /* the same bits either way */
  case MOD_MIN: case MOD_MAX: break;
  default: return 0;
  }
  return (uint16_t)(0x8000 | (in->bop & 0xfff) << 2 | (sg ? 2 : 0) | (wide ? 1 : 0));
}

/* The access class of x (A_READ, A_WRITE or A_ATOM with its *cls);
 * unused: x is an atom whose result no instruction reads. */
static int access_class(const xinsn *x, bool unused, uint16_t *cls) {
  switch (x->in->op) {
  case OP_LD: case OP_LDU: case OP_WMMA_LOAD_A: case OP_WMMA_LOAD_B: case OP_WMMA_LOAD_C: case OP_LDMATRIX: return A_READ;
  default: return (*cls = commutative_class(x->in, unused)) ? A_ATOM : A_WRITE;
  }
}

/* The same, from the attempt's table (shared_init). */
static inline int access_of(const struct emu_par *p, const xinsn *x, uint16_t *cls) {
  *cls = p->s->cls[x->pc];
  return p->s->acc[x->pc];
}

/* Whether an access to region ri goes through the shadow (1), needs
 * nothing (0: a read of a region nobody wrote yet), or stopped the attempt
 * (-1: a write after unrecorded reads; the region is marked for the next
 * attempt).  The region's first write makes it RS_TRACKED, its first read
 * before that RS_READ; the two compare-and-swaps decide which came first,
 * so no read goes unrecorded that a write of this attempt could change. */
static int gate(struct emu_par *p, uint32_t ri, int acc) {
  par_shared *s = p->s;
  _Atomic uint8_t *st = &s->rstate[ri];
  uint8_t v = atomic_load_explicit(st, memory_order_acquire);
  for (;;) {
    if (v == RS_TRACKED) return 1;
    if (acc == A_READ) {
      if (v == RS_READ || atomic_compare_exchange_weak_explicit(st, &v, RS_READ, memory_order_acq_rel, memory_order_acquire)) return 0;
    } else if (v == RS_READ) {
      atomic_store_explicit(&s->rewrite[ri], 1, memory_order_relaxed);
      stop(s, "a region read without its shadow is written (the launch runs again with its reads recorded)");
      return -1;
    } else if (atomic_compare_exchange_weak_explicit(st, &v, RS_TRACKED, memory_order_acq_rel, memory_order_acquire)) {
      return 1;
    }
  }
}

/* The bytes [lo, end) of region p->ri, chunk by chunk.  Callers give the
 * span of nearby lanes' accesses: a superset of the granules they touch,
 * so a granule between them that another block uses is a conflict where it
 * need not be, which costs only the parallel attempt, never the answer. */
static bool touch_span(struct emu_par *p, uint64_t lo, uint64_t end, int acc, uint16_t cls, uint64_t owner, bool *sa) {
  _Atomic uint64_t *sh = p->rsh;
  if (!sh) {
    if (p->rsettled == RS_READ && acc == A_READ) return true;
    int gt = gate(p, p->ri, acc);
    if (gt <= 0) {
      if (gt == 0) p->rsettled = RS_READ;
      return gt == 0;
    }
    if (!(sh = shadow_of(p->s, p->ri))) { stop(p->s, "out of memory for the access shadow"); return false; }
    p->rsettled = RS_TRACKED;
    p->rsh = sh;
  }
  uint64_t base = p->rlo, g = (lo - base) >> 2, g1 = (end - 1 - base) >> 2;
  while (g <= g1) {
    uint64_t chunk = g >> 4, gend = g1 < (chunk << 4) + 15 ? g1 : (chunk << 4) + 15;
    uint16_t mask = (uint16_t)(((2u << (gend & 15)) - 1) & ~((1u << (g & 15)) - 1));
    if (!touch(p, p->ri, sh, chunk, mask, acc, cls, owner, sa)) return false;
    g = gend + 1;
  }
  return true;
}

/* After the chunks were taken: other workers' atomics on these chunks wait
 * until this one has written. */
static bool taken(struct emu_par *p, bool sa) {
  if (sa) {
    while (atomic_flag_test_and_set_explicit(&p->s->atom_lock, memory_order_acquire)) { }
    p->holds = true;
  }
  return true;
}

/* Whether [lo, end) lies in one region (p->ri becomes it). */
static inline bool span_in_region(const emu *e, struct emu_par *p, uint64_t lo, uint64_t end) {
  if (lo >= p->rlo && end <= p->rhi) return true;
  if (!find_region(e, &p->ri, lo)) return false;
  const mem_region *r = &e->regions[p->ri];
  p->rlo = r->base;
  p->rhi = r->base + r->size;
  p->rsettled = RS_CLEAN;
  p->rsh = NULL;
  return end - r->base <= r->size;
}

/* Spans this short go as one (touch_span); a warp's coalesced access is one. */
#define PAR_SPAN_MAX 256

bool emu_par_span(warp *w, const xinsn *x, uint64_t lo, uint64_t end) {
  emu *e = w->e;
  struct emu_par *p = e->par;
  release(p);   /* the previous instruction's atomic has written */
  uint16_t cls = 0;
  int acc = access_of(p, x, &cls);
  bool sa = false;
  if (end - lo > PAR_SPAN_MAX || !span_in_region(e, p, lo, end)) {
    stop(p->s, "an access outside one region");      /* emu_translate checked it: cannot happen */
    e->faulted = true;
    return false;
  }
  if (!touch_span(p, lo, end, acc, cls, w->cta->par_owner, &sa)) { e->faulted = true; return false; }
  return taken(p, sa);
}

bool emu_par_read_unshadowed(warp *w, uint64_t lo, uint64_t end) {
  emu *e = w->e;
  struct emu_par *p = e->par;
  if (!span_in_region(e, p, lo, end)) return false;
  if (p->rsettled != RS_READ) {
    if (p->rsettled == RS_TRACKED || atomic_load_explicit(&p->s->rstate[p->ri], memory_order_acquire) != RS_READ) return false;
    p->rsettled = RS_READ;
  }
  release(p);   /* the previous instruction's atomic has written */
  return true;
}

bool emu_par_access(warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, const uint8_t *kind) {
  emu *e = w->e;
  struct emu_par *p = e->par;
  release(p);   /* the previous instruction's atomic has written */
  uint16_t cls = 0;
  int acc = access_of(p, x, &cls);
  bool sa = false;
  uint64_t owner = w->cta->par_owner;
  uint64_t lo = UINT64_MAX, hi = 0;
  lanemask gm = 0;
  FOR_LANES(i) {
    bool on = (m >> i & 1) && kind[i] == MM_GLOBAL;
    gm |= (lanemask)on << i;
    uint64_t v = a[i];
    lo = on && v < lo ? v : lo;
    hi = on && v > hi ? v : hi;
  }
  if (!gm) return true;
  /* the usual case: the lanes' bytes lie close together in one region */
  if (hi - lo <= PAR_SPAN_MAX - size && span_in_region(e, p, lo, hi + size)) {
    if (!touch_span(p, lo, hi + size, acc, cls, owner, &sa)) goto conflict;
    return taken(p, sa);
  }
  /* else runs of lanes close together (a warp over two rows of a tile):
   * a span each, while they stay in one region */
  {
    uint64_t s0 = 0, s1 = 0;
    bool open = false, spans = true;
    for (int i = 0; i < WARP_SIZE && spans; i++) {
      if (!(gm >> i & 1)) continue;
      uint64_t v = a[i], ve = v + size;
      if (open && v >= s0 && ve - s0 <= PAR_SPAN_MAX) { s1 = ve > s1 ? ve : s1; continue; }
      if (open && v < s0 && s1 - v <= PAR_SPAN_MAX) { s0 = v; continue; }
      if (open) {
        if (!span_in_region(e, p, s0, s1)) spans = false;
        else if (!touch_span(p, s0, s1, acc, cls, owner, &sa)) goto conflict;
      }
      s0 = v; s1 = ve; open = true;
    }
    if (spans && open) {
      if (!span_in_region(e, p, s0, s1)) spans = false;
      else if (!touch_span(p, s0, s1, acc, cls, owner, &sa)) goto conflict;
    }
    if (spans) return taken(p, sa);
    /* a span across two allocations: lane by lane (taking a chunk twice is harmless) */
  }
  uint32_t cri = UINT32_MAX;
  uint64_t cchunk = 0;
  uint16_t cmask = 0;
  for (int i = 0; i < WARP_SIZE; i++) {
    if (!(m >> i & 1) || kind[i] != MM_GLOBAL) continue;
    uint32_t ri = p->ri;       /* (p->ri stays the region of p->rlo and p->rhi) */
    if (!find_region(e, &ri, a[i])) continue;     /* emu_translate checked it: cannot happen */
    uint64_t off = a[i] - e->regions[ri].base;
    uint64_t g = off >> 2, g1 = (off + size - 1) >> 2;
    while (g <= g1) {
      uint64_t chunk = g >> 4, gend = g1 < (chunk << 4) + 15 ? g1 : (chunk << 4) + 15;
      uint16_t mask = (uint16_t)(((2u << (gend & 15)) - 1) & ~((1u << (g & 15)) - 1));
      if (ri == cri && chunk == cchunk) cmask |= mask;
      else {
        if (cmask && !touch_lanes(p, cri, cchunk, cmask, acc, cls, owner, &sa)) goto conflict;
        cri = ri;
        cchunk = chunk;
        cmask = mask;
      }
      g = gend + 1;
    }
  }
  if (cmask && !touch_lanes(p, cri, cchunk, cmask, acc, cls, owner, &sa)) goto conflict;
  return taken(p, sa);
conflict:
  e->faulted = true;
  return false;
}

/* ---- workers --------------------------------------------------------------- */

static bool start_cluster(par_worker *wk, cta *slot) {
  par_shared *s = wk->p.s;
  struct emu_par *bp = &wk->p;
  if (bp->batch_next == bp->batch_end) {
    /* a few consecutive clusters at a time: neighbouring blocks usually
     * touch neighbouring bytes, whose shadow words share cache lines, so
     * blocks running at once on other threads are better further apart;
     * the last ones one at a time, so that the workers end together */
    uint32_t b = atomic_load_explicit(&s->next, memory_order_relaxed) >= s->single_from ? 1 : s->batch;
    uint64_t q0 = atomic_fetch_add(&s->next, b);
    if (q0 >= s->nclusters) return false;
    bp->batch_next = q0;
    bp->batch_end = q0 + b < s->nclusters ? q0 + b : s->nclusters;
  }
  uint64_t q = bp->batch_next++;
  for (uint32_t r = 0; r < s->csize; r++) {
    if (emu_cta_start(&wk->e, &slot[r], q * s->csize + r, slot)) { stop(s, "out of memory starting a block"); return false; }
    slot[r].par_owner = q + 1;
  }
  if (s->prints) {
    struct emu_par *p = &wk->p;
    emu_printf_flush(&wk->e);
    fflush(p->out);
    s->cl[q] = (struct par_cluster){ p->idx, 0, p->nends, p->outlen };
    p->cur = q;
  }
  return true;
}

/* Device printf: the end of a round of the running cluster. */
static bool round_end(par_worker *wk) {
  struct emu_par *p = &wk->p;
  emu_printf_flush(&wk->e);
  if (fflush(p->out) || p->outlen > (256u << 20)) return false;   /* held in memory: at most 256 MiB */
  if (p->nends == p->capends) {
    size_t cap = p->capends ? p->capends * 2 : 256;
    uint64_t *n = realloc(p->ends, cap * sizeof *n);
    if (!n) return false;
    p->ends = n;
    p->capends = cap;
  }
  p->ends[p->nends++] = p->outlen;
  p->s->cl[p->cur].nrounds++;
  return true;
}

/* The sequential loop of emu_run over this worker's window (one cluster);
 * any event whose outcome could depend on other blocks stops the attempt. */
static void *worker_main(void *arg) {
  par_worker *wk = arg;
  par_shared *s = wk->p.s;
  emu *e = &wk->e;
  uint32_t csize = s->csize;
  /* one cluster at a time: independent blocks need no interleaving, and
   * the resident warps' registers stay in this core's caches (a window of
   * 16 blocks per worker took 15% more time on the bench matmul) */
  uint32_t window = csize;
  uint32_t ngroups = window / csize, nlive = 0;
  cta *res = calloc(window, sizeof *res);
  bool *live = calloc(ngroups, sizeof *live);
  if (!res || !live) { stop(s, "out of memory"); goto out; }
  for (uint32_t gi = 0; gi < ngroups && !atomic_load_explicit(&s->stop, memory_order_relaxed); gi++) {
    if (!start_cluster(wk, &res[gi * csize])) break;
    live[gi] = true;
    nlive++;
  }
  while (nlive && !atomic_load_explicit(&s->stop, memory_order_relaxed)) {
    bool progress = false;
    uint64_t before = e->warp_insts;
    for (uint32_t gi = 0; gi < ngroups && !e->faulted; gi++) {
      if (!live[gi]) continue;
      bool all_done = true;
      for (uint32_t r = 0; r < csize && !e->faulted; r++) {
        cta *c = &res[gi * csize + r];
        for (uint32_t wi = 0; wi < c->nwarps && !e->faulted; wi++) {
          if (~c->warps[wi].exited && emu_warp_run(&c->warps[wi], e->opt.slice)) progress = true;
          release(&wk->p);
        }
        if (!emu_cta_done(c)) all_done = false;
      }
      if (e->faulted) break;
      if (s->prints && !round_end(wk)) { stop(s, "device printf output (memory)"); break; }
      if (all_done) {
        for (uint32_t r = 0; r < csize; r++) emu_cta_free(&res[gi * csize + r]);
        if (start_cluster(wk, &res[gi * csize])) progress = true;
        else { live[gi] = false; nlive--; }
      }
    }
    if (e->faulted) { stop(s, e->fault.kind ? "a fault" : "blocks depend on each other through global memory"); break; }
    uint64_t total = atomic_fetch_add(&s->insts, e->warp_insts - before) + (e->warp_insts - before);
    if (e->opt.max_warp_insts && total > e->opt.max_warp_insts) { stop(s, "the instruction budget"); break; }
    if (!nlive) break;
    if (!progress) { stop(s, "blocks that wait (a deadlock or a sleep)"); break; }
    /* the wall-time budget, a stop request and the memory cap */
    for (uint32_t i = 0; i < window; i++) if (live[i / csize] && res[i].warps) {
      warp *w0 = &res[i].warps[0];
      for (uint32_t wi = 0; wi < res[i].nwarps; wi++) if (~res[i].warps[wi].exited) { w0 = &res[i].warps[wi]; break; }
      if (emu_over_budget(e, w0)) stop(s, "a limit");
      break;
    }
  }
out:
  if (res) for (uint32_t i = 0; i < window; i++) if (res[i].warps) emu_cta_free(&res[i]);
  free(res);
  free(live);
  return NULL;
}

/* ---- the worker threads ------------------------------------------------------ */

/* Started once and kept for the process (a thread's caches, such as the
 * matrix instructions' scratch, live as long as it does); one launch at a
 * time uses them. */
static struct {
  pthread_mutex_t use;           /* held by the launch running on the pool        */
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  uint32_t started;              /* threads running (worker indexes 1..started)   */
  uint32_t spawn_from, spawn_to; /* thread spawn_from starts spawn_from+1..spawn_to-1 (0: none) */
  uint64_t gen;                  /* bumped for each launch                         */
  par_worker *wk;
  uint32_t n, pending;
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, NULL, 0, 0 };

static void *pool_thread(void *arg);

static bool pool_create(uint32_t idx) {
  pthread_t t;
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&t, &at, pool_thread, (void *)(uintptr_t)idx);
  pthread_attr_destroy(&at);
  return rc == 0;
}

static void *pool_thread(void *arg) {
  uint32_t idx = (uint32_t)(uintptr_t)arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&pool.mu);
  /* the first thread of a launch that needs new ones starts the others, in
   * index order, while the launching thread already runs blocks (15
   * pthread_creates took half a millisecond of a 12 ms launch before any
   * block ran) */
  if (idx == pool.spawn_from) {
    for (uint32_t k = idx + 1; k < pool.spawn_to; k++) {
      pthread_mutex_unlock(&pool.mu);
      bool ok = pool_create(k);
      pthread_mutex_lock(&pool.mu);
      if (!ok) { pool.pending -= pool.spawn_to - k; break; }   /* fewer workers: they take the clusters between them */
      pool.started = k;
    }
    pool.spawn_from = 0;
  }
  for (;;) {
    while (pool.gen == seen) pthread_cond_wait(&pool.go, &pool.mu);
    seen = pool.gen;
    if (idx >= pool.n) continue;
    par_worker *w = &pool.wk[idx];
    pthread_mutex_unlock(&pool.mu);
    worker_main(w);
    pthread_mutex_lock(&pool.mu);
    if (--pool.pending == 0) pthread_cond_signal(&pool.done);
  }
  return NULL;
}

/* A forked child has this thread only: it starts a pool of its own. */
static void pool_after_fork(void) {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t c = PTHREAD_COND_INITIALIZER;
  pool.use = m;
  pool.mu = m;
  pool.go = c;
  pool.done = c;
  pool.started = pool.spawn_from = pool.spawn_to = 0;
  pool.wk = NULL;
  pool.n = pool.pending = 0;
}
static void pool_init(void) { pthread_atfork(NULL, NULL, pool_after_fork); }

/* Run wk[0..n) (wk[0] on this thread); false when the pool is busy. */
static bool pool_run(par_worker *wk, uint32_t n) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, pool_init);
  if (pthread_mutex_trylock(&pool.use)) return false;
  pthread_mutex_lock(&pool.mu);
  pool.wk = wk;
  pool.n = n;
  pool.pending = n - 1;
  pool.gen++;
  if (pool.started < n - 1) {
    /* one new thread here; it starts the rest (pool_thread) */
    uint32_t first = pool.started + 1;
    pool.spawn_from = first;
    pool.spawn_to = n;
    if (pool_create(first)) pool.started = first;
    else { pool.pending -= n - first; pool.spawn_from = 0; }   /* this thread alone */
  }
  pthread_cond_broadcast(&pool.go);
  pthread_mutex_unlock(&pool.mu);
  worker_main(&wk[0]);
  pthread_mutex_lock(&pool.mu);
  while (pool.pending) pthread_cond_wait(&pool.done, &pool.mu);
  pool.wk = NULL;
  pthread_mutex_unlock(&pool.mu);
  pthread_mutex_unlock(&pool.use);
  return true;
}

/* ---- the launch ------------------------------------------------------------ */

/* Whether the destination of atom x is a register nothing else names (nvcc
 * writes atom with a result where ptxas makes a red of it). */
static bool atom_result_unused(const xinsn *x) {
  const isa_func *f = x->f;
  const isa_opnd *d = &f->ops[x->in->opi];
  if (x->in->nops == 0 || d->kind != OK_REG) return d->kind == OK_SINK;
  uint32_t uses = 0;
  for (uint32_t i = 0; i < f->nops; i++) {
    const isa_opnd *o = &f->ops[i];
    uses += (o->kind == OK_REG || (o->kind == OK_ADDR && (o->flags & OF_BASEREG))) && o->v == d->v;
  }
  for (uint32_t i = 0; i < f->npool; i++) {
    const isa_opnd *o = &f->pool[i];
    uses += (o->kind == OK_REG || (o->kind == OK_ADDR && (o->flags & OF_BASEREG))) && o->v == d->v;
  }
  return uses == 1;
}

/* Why the launch must run sequentially whatever the thread count, or NULL. */
static const char *ineligible(const emu *e, bool *prints) {
  if (e->obs) return "an observer (trace, sanitizer, debugger) is attached";
  if (e->opt.strict_async) return "--strict-async";
  if (e->reads_envreg) return "the kernel reads %envreg (a cooperative launch)";
  /* the access shadows are per region: two regions over the same bytes
   * would hide a dependency between blocks from them */
  if (e->aliased) return "device memory is mapped at two addresses (cuMemMap)";
  bool runtime = false;           /* the module declares printf, malloc, device launches... */
  for (uint32_t i = 0; i < e->m->nfuncs; i++) runtime |= !e->m->funcs[i].has_body && !e->m->funcs[i].is_proto;
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const xinsn *x = &e->prog[pc];
    if (runtime && x->in->op == OP_CALL) {
      call_ops c = emu_call_operands(x);
      if (c.tgt && c.tgt->kind == OK_FUNC && strcmp(e->m->funcs[c.tgt->v].name, "vprintf") == 0 && !e->m->funcs[c.tgt->v].has_body)
        *prints = true;
      else if (!c.tgt || c.tgt->kind != OK_FUNC || !e->m->funcs[c.tgt->v].has_body)
        return "the kernel calls the device runtime (malloc, launches) or through a pointer";
    }
    int fam = isa_ops[x->in->op].family;
    if (fam == F_ASYNC || fam == F_TEX) return "the kernel uses asynchronous copies or textures";
    const isa_opnd *ops = &x->f->ops[x->in->opi];
    for (uint32_t k = 0; k < x->in->nops; k++)
      if (ops[k].kind == OK_SREG && (ops[k].v == SREG_GLOBALTIMER || ops[k].v == SREG_GLOBALTIMER_LO || ops[k].v == SREG_GLOBALTIMER_HI))
        return "the kernel reads %globaltimer";
  }
  return NULL;
}

/* Device printf in the sequential order: the window of emu_run (its
 * slots, each cluster's rounds, a finished cluster's slot taking the next
 * one for the following round), replayed over the recorded rounds. */
/* An abandoned attempt: every page a worker wrote goes back to the copy
 * saved before its first write. */
static void restore_pages(emu *e, const par_shared *s, const par_worker *wk, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    for (size_t k = 0; k < wk[i].p.nlog; k++) {
      const saved_page *u = &wk[i].p.log[k];
      const mem_region *r = &e->regions[u->ri];
      uint64_t off = u->page << PG_SHIFT, left = r->size - off, len = left < PG_SIZE ? left : PG_SIZE;
      if (u->zero) memset(r->data + off, 0, len);
      else memcpy(r->data + off, (const uint8_t *)s->saved[u->ri] + off, len);
    }
}

static void replay_printf(emu *e, par_shared *s, par_worker *wk) {
  const emu_launch *l = &e->launch;
  uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  uint32_t window = e->opt.resident_ctas ? e->opt.resident_ctas : 1;
  if (window > total) window = (uint32_t)total;
  window = window < s->csize ? s->csize : window / s->csize * s->csize;
  uint32_t ngroups = window / s->csize, nlive = 0;
  uint64_t *slot = calloc(ngroups, sizeof *slot), *start = calloc(ngroups, sizeof *start), next = 0;
  bool *live = calloc(ngroups, sizeof *live);
  if (!slot || !start || !live) { free(slot); free(start); free(live); return; }
  for (uint32_t gi = 0; gi < ngroups && next < s->nclusters; gi++) { slot[gi] = next++; live[gi] = true; nlive++; }
  for (uint64_t round = 0; nlive && !e->faulted; round++) {
    for (uint32_t gi = 0; gi < ngroups; gi++) {
      if (!live[gi]) continue;
      const struct par_cluster *c = &s->cl[slot[gi]];
      const struct emu_par *p = &wk[c->worker].p;
      uint64_t lr = round - start[gi];
      uint64_t from = lr ? p->ends[c->first + lr - 1] : c->start, to = p->ends[c->first + lr];
      if (to > from) emu_printf_write(e, p->outbuf + from, to - from);
      if (lr + 1 == c->nrounds) {
        if (next < s->nclusters) { slot[gi] = next++; start[gi] = round + 1; }
        else { live[gi] = false; nlive--; }
      }
    }
  }
  free(slot);
  free(start);
  free(live);
}

/* Why a launch cannot run its clusters on n threads (NULL: it can). */
static const char *not_parallel(emu *e, uint32_t n, uint64_t *nclusters, uint32_t *csize, bool *prints) {
  const emu_launch *l = &e->launch;
  *csize = l->cluster[0] * l->cluster[1] * l->cluster[2];
  *nclusters = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] / *csize;
  if (n < 2) return "one thread";
  if (*nclusters < 2) return "one cluster";
  if (*nclusters >= OWNER_MASK) return "too many clusters (2^30)";
  *prints = false;
  return ineligible(e, prints);
}

static void shared_free(par_shared *s) {
  const emu *e = s->e;
  for (uint32_t ri = 0; ri < e->nregions; ri++) {
    if (s->shadow && s->shadow[ri]) munmap((void *)s->shadow[ri], s->shadow_bytes[ri]);
    if (s->fine && s->fine[ri]) munmap((void *)s->fine[ri], s->fine_bytes[ri]);
    if (s->pstate && s->pstate[ri]) munmap((void *)s->pstate[ri], s->pstate_bytes[ri]);
    if (s->saved && s->saved[ri]) munmap((void *)s->saved[ri], s->saved_bytes[ri]);
  }
  free(s->shadow); free(s->shadow_bytes);
  free(s->fine); free(s->fine_bytes);
  free(s->pstate); free(s->pstate_bytes);
  free(s->saved); free(s->saved_bytes);
  free(s->acc);
  free(s->cls);
  free((void *)s->rstate);
  free((void *)s->rewrite);
  free(s->cl);
}

/* The shared state of one attempt (its maps are made at first access). */
static bool shared_init(par_shared *s, emu *e, uint64_t nclusters, uint32_t csize, bool speculate) {
  *s = (par_shared){ .e = e, .nclusters = nclusters, .csize = csize, .batch = 1, .atom_lock = ATOMIC_FLAG_INIT };
  size_t nr = e->nregions ? e->nregions : 1;
  s->shadow = calloc(nr, sizeof *s->shadow);
  s->shadow_bytes = calloc(nr, sizeof *s->shadow_bytes);
  s->fine = calloc(nr, sizeof *s->fine);
  s->fine_bytes = calloc(nr, sizeof *s->fine_bytes);
  s->pstate = calloc(nr, sizeof *s->pstate);
  s->pstate_bytes = calloc(nr, sizeof *s->pstate_bytes);
  s->saved = calloc(nr, sizeof *s->saved);
  s->saved_bytes = calloc(nr, sizeof *s->saved_bytes);
  s->acc = calloc(e->nprog ? e->nprog : 1, sizeof *s->acc);
  s->cls = calloc(e->nprog ? e->nprog : 1, sizeof *s->cls);
  s->rstate = calloc(nr, 1);
  s->rewrite = calloc(nr, 1);
  if (!s->shadow || !s->shadow_bytes || !s->fine || !s->fine_bytes || !s->pstate || !s->pstate_bytes || !s->saved || !s->saved_bytes || !s->acc || !s->cls ||
      !s->rstate || !s->rewrite) {
    shared_free(s);
    return false;
  }
  for (uint32_t pc = 0; pc < e->nprog; pc++)
    s->acc[pc] = (uint8_t)access_class(&e->prog[pc], e->prog[pc].in->op == OP_ATOM && atom_result_unused(&e->prog[pc]), &s->cls[pc]);
  for (uint32_t ri = 0; ri < e->nregions; ri++) s->rstate[ri] = speculate && !e->regions[ri].par_read_written ? RS_CLEAN : RS_TRACKED;
  return true;
}

/* Worker i's copy of the launch state: counters, fault and pools its own. */
static void worker_init(par_worker *wk, uint32_t i, emu *e, par_shared *s) {
  emu *c = &wk[i].e;
  *c = *e;
  memset(&c->stats, 0, sizeof c->stats);
  memset(&c->fault, 0, sizeof c->fault);
  c->fault.pc = UINT32_MAX;
  c->faulted = false;
  c->warp_insts = 0;
  c->npool = 0;
  c->warp_bytes = 0;
  c->pbuf = NULL;
  c->plen = c->pcap = 0;
  c->obs = NULL;
  c->opt.progress = false;
  c->par = &wk[i].p;
  wk[i].p.s = s;
  wk[i].p.ri = wk[i].p.known_ri = UINT32_MAX;
  wk[i].p.idx = i;
}

/* The end of an attempt: the workers' counters added up (ok), or device
 * memory put back; the workers' own memory freed. */
static void attempt_end(emu *e, par_shared *s, par_worker *wk, uint32_t n, bool ok, bool again) {
  if (!ok) {
    restore_pages(e, s, wk, n);
    if (again) e->par_retries++;
    else e->par_fallbacks++;
    e->par_last = atomic_load(&s->why);
  } else {
    for (uint32_t i = 0; i < n; i++) {
      uint64_t *d = (uint64_t *)&e->stats;
      const uint64_t *src = (const uint64_t *)&wk[i].e.stats;
      for (size_t k = 0; k < sizeof e->stats / sizeof(uint64_t); k++) d[k] += src[k];
      e->warp_insts += wk[i].e.warp_insts;
    }
    e->par_last = "parallel";
    if (s->prints) replay_printf(e, s, wk);
  }
  for (uint32_t i = 0; i < n; i++) {
    emu *c = &wk[i].e;
    emu_pool_free(c);
    free(wk[i].p.log);
    free(c->pbuf);
    if (wk[i].p.out) fclose(wk[i].p.out);
    free(wk[i].p.outbuf);
    free(wk[i].p.ends);
  }
}

/* One attempt; *again: it stopped only because a region read without its
 * shadow was written (the region is marked, and another attempt can go). */
static bool attempt(emu *e, uint32_t n, uint64_t nclusters, uint32_t csize, bool prints, bool *again) {
  *again = false;
  par_shared s;
  par_worker *wk = aligned_alloc(64, n * sizeof *wk);   /* sizeof is a multiple of 64 */
  if (!wk || !shared_init(&s, e, nclusters, csize, true)) {
    free(wk);
    e->par_fallbacks++;
    e->par_last = "out of memory";
    return false;
  }
  memset(wk, 0, n * sizeof *wk);
  s.prints = prints;
  /* claims of up to 8 clusters, while each worker still gets 16 claims */
  uint64_t b = nclusters / ((uint64_t)n * 16);
  s.batch = b < 1 ? 1 : b > 8 ? 8 : (uint32_t)b;
  /* the last two claims of each worker's share are single clusters */
  uint64_t tail = (uint64_t)n * s.batch * 2;
  s.single_from = nclusters > tail ? nclusters - tail : 0;
  if (prints && !(s.cl = calloc(nclusters, sizeof *s.cl))) s.prints = false, atomic_store(&s.stop, 1), s.why = "out of memory";
  for (uint32_t i = 0; i < n; i++) {
    worker_init(wk, i, e, &s);
    if (s.prints) {
      wk[i].p.out = open_memstream(&wk[i].p.outbuf, &wk[i].p.outlen);
      if (!wk[i].p.out) { atomic_store(&s.stop, 1); s.why = "out of memory"; s.prints = false; }
      wk[i].e.opt.printf_out = wk[i].p.out;
    }
  }
  if (!atomic_load(&s.stop) && !pool_run(wk, n)) stop(&s, "another launch is using the worker threads");
  bool ok = !atomic_load(&s.stop);
  if (!ok) {
    /* a write after unrecorded reads was the first reason to stop: the
     * attempt's answer says nothing about the blocks' dependencies yet */
    for (uint32_t ri = 0; ri < e->nregions; ri++)
      if (atomic_load_explicit(&s.rewrite[ri], memory_order_relaxed)) { e->regions[ri].par_read_written = true; *again = true; }
    const char *why = atomic_load(&s.why);
    if (*again && (!why || strncmp(why, "a region read without", 21))) *again = false;
  }
  attempt_end(e, &s, wk, n, ok, *again);
  shared_free(&s);
  free(wk);
  return ok;
}

bool emu_par_run(emu *e) {
  uint64_t nclusters;
  uint32_t csize, n = e->opt.threads;
  bool prints;
  const char *why = not_parallel(e, n, &nclusters, &csize, &prints);
  if (why) { e->par_last = why; return false; }
  if (n > nclusters) n = (uint32_t)nclusters;
  e->par_launches++;
  bool again, ok = attempt(e, n, nclusters, csize, prints, &again);
  /* each region needs marking once; a region marked is never unrecorded again */
  while (!ok && again) ok = attempt(e, n, nclusters, csize, prints, &again);
  return ok;
}

/* ---- a launch whose caller runs the blocks (timing mode) --------------------- */

/* The timing model runs blocks on its own threads, in windows of cycles
 * (timing.c, doc/parallel.md); it takes from here the workers' copies of
 * the launch state with the access shadow, and the end of the attempt:
 * the counters added up, or device memory put back. */
struct emu_par_job {
  par_shared s;
  par_worker *wk;
  uint32_t n;
};

emu_par_job *emu_par_job_begin(emu *e, uint32_t n) {
  uint64_t nclusters;
  uint32_t csize;
  bool prints;
  const char *why = not_parallel(e, n, &nclusters, &csize, &prints);
  if (!why && prints) why = "device printf (timing mode)";
  if (why) { e->par_last = why; return NULL; }
  emu_par_job *j = calloc(1, sizeof *j);
  par_worker *wk = aligned_alloc(64, n * sizeof *wk);
  if (!j || !wk || !shared_init(&j->s, e, nclusters, csize, false)) {
    free(j);
    free(wk);
    e->par_last = "out of memory";
    return NULL;
  }
  memset(wk, 0, n * sizeof *wk);
  e->par_launches++;
  j->wk = wk;
  j->n = n;
  for (uint32_t i = 0; i < n; i++) worker_init(wk, i, e, &j->s);
  return j;
}

emu *emu_par_job_emu(emu_par_job *j, uint32_t i) { return &j->wk[i].e; }

void emu_par_release(emu *e) { if (e->par) release(e->par); }

bool emu_par_job_stopped(emu_par_job *j) { return atomic_load_explicit(&j->s.stop, memory_order_relaxed); }

void emu_par_job_stop(emu_par_job *j, const char *why) { stop(&j->s, why); }

uint64_t emu_par_job_insts(emu_par_job *j) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < j->n; i++) n += j->wk[i].e.warp_insts;
  return n;
}

bool emu_par_job_end(emu_par_job *j) {
  emu *e = j->s.e;
  bool ok = !atomic_load(&j->s.stop);
  for (uint32_t i = 0; i < j->n && ok; i++) if (j->wk[i].e.faulted) { stop(&j->s, j->wk[i].e.fault.kind ? "a fault" : "blocks depend on each other through global memory"); ok = false; }
  attempt_end(e, &j->s, j->wk, j->n, ok, false);
  shared_free(&j->s);
  free(j->wk);
  free(j);
  return ok;
}
