/* memmodel/l2.c - L2 slices, partitions, write-back and atomics (see l2.h). */
#include <stdlib.h>
#include <string.h>
#include "memmodel/l2.h"

static uint64_t mix(uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
  return x;
}

int l2_init(l2sys *l, const l2_params *p, dram *d) {
  memset(l, 0, sizeof *l);
  if (!p->slices || !p->partitions || p->slices % p->partitions || !p->interleave_bytes || p->slice_bytes_per_cycle <= 0) return -1;
  if (p->write_granule > 32 || (p->write_granule & (p->write_granule - 1))) return -1;
  if (p->fill_bytes > p->line_bytes || (p->fill_bytes & (p->fill_bytes - 1))) return -1;
  l->p = *p;
  l->dram = d;
  l->part = calloc_lines(p->partitions, sizeof *l->part);
  l->slice = calloc(p->slices, sizeof *l->slice);
  if (!l->part || !l->slice) return -1;
  for (uint32_t i = 0; i < p->partitions; i++)
    if (cache_init(&l->part[i], p->bytes / p->partitions, p->assoc, p->line_bytes, 32)) return -1;
  if (p->partial_fill && !p->write_granule) {
    l->bytes = calloc(p->partitions, sizeof *l->bytes);
    if (!l->bytes) return -1;
    for (uint32_t i = 0; i < p->partitions; i++) {
      const cache *c = &l->part[i];
      l->bytes[i] = calloc((size_t)c->sets * c->assoc << (c->line_shift - c->sector_shift), sizeof **l->bytes);
      if (!l->bytes[i]) return -1;
    }
  }
  if (p->partitions > 1 && !(l->copied = calloc(L2_COPIED_BITS / 64, sizeof *l->copied))) return -1;
  if (p->dirty_ways && p->dirty_ways < p->assoc) {
    l->dirtyq = calloc(p->partitions, sizeof *l->dirtyq);
    if (!l->dirtyq) return -1;
    for (uint32_t i = 0; i < p->partitions; i++) {
      l->dirtyq[i].cap = 1024;
      l->dirtyq[i].e = malloc(1024 * sizeof *l->dirtyq[i].e);
      if (!l->dirtyq[i].e) return -1;
    }
  }
  double path = 8 * 32.0 / p->slice_bytes_per_cycle;
  lazypool_init(&l->pool, timeline_group_pool_bytes(p->slices, path, TIMELINE_HORIZON), true);   /* (served on one thread) */
  if (timeline_init_group(&l->slice[0].path, sizeof *l->slice, p->slices, path, TIMELINE_HORIZON, &l->pool)) return -1;
  return 0;
}

void l2_reset(l2sys *l) {
  if (l->copied) memset(l->copied, 0, L2_COPIED_BITS / 8);
  for (uint32_t i = 0; i < l->p.partitions; i++) {
    cache_reset(&l->part[i]);
    if (l->dirtyq) l->dirtyq[i].head = l->dirtyq[i].n = l->dirtyq[i].dirty = 0;
  }
}

void l2_reset_timing(l2sys *l) {
  for (uint32_t i = 0; i < l->p.slices; i++) { timeline_reset(&l->slice[i].path); l->slice[i].atom_free = 0; }
  l->hits = l->lookups = l->write_fetches = 0;
}

void l2_free(l2sys *l) {
  for (uint32_t i = 0; l->part && i < l->p.partitions; i++) cache_free(&l->part[i]);
  for (uint32_t i = 0; l->slice && i < l->p.slices; i++) timeline_free(&l->slice[i].path);
  lazypool_free(&l->pool);
  for (uint32_t i = 0; l->bytes && i < l->p.partitions; i++) free(l->bytes[i]);
  free(l->bytes);
  l->bytes = NULL;
  for (uint32_t i = 0; l->dirtyq && i < l->p.partitions; i++) free(l->dirtyq[i].e);
  free(l->dirtyq);
  l->dirtyq = NULL;
  free(l->copied);
  l->copied = NULL;
  free(l->part);
  free(l->slice);
  l->part = NULL;
  l->slice = NULL;
}

void l2_count_hits(l2sys *l, uint64_t n) { l->hits += n; l->lookups += n; }

/* Write a victim's dirty sectors back to DRAM; one only partly written is
 * first read and merged (partial_fill).  Returns when DRAM has taken the
 * last of them, its first access for a read and merge (t, or later when
 * DRAM's queue is longer than its latency): the L2 cannot hold more
 * write-backs than that, so the write that needed the room waits. */
static double write_back(l2sys *l, double t, const cache_evict *ev) {
  double taken = t, lat = l->dram->p.latency;
  for (uint32_t m = ev->dirty; m; m &= m - 1) {
    uint64_t a = ev->addr + 32u * (uint32_t)__builtin_ctz(m);
    double in;
    if (ev->partial & m & -m) {
      double r = dram_access(l->dram, t, a, false);
      l->write_fetches++;
      dram_access(l->dram, r, a, true);
      in = r - lat;
    } else in = dram_access(l->dram, t, a, true) - lat;
    if (in > taken) taken = in;
  }
  return taken;
}

/* The byte mask of the sector of addr in line ln of partition part. */
static uint32_t *bytes_of(l2sys *l, uint32_t part, const cache_line *ln, uint64_t addr) {
  const cache *c = &l->part[part];
  uint32_t spl_shift = c->line_shift - c->sector_shift;
  size_t sector = (addr >> c->sector_shift) & ((1u << spl_shift) - 1);
  return &l->bytes[part][((size_t)(ln - c->lines) << spl_shift) + sector];
}

/* Whether ln holds byte masks at cycle t: sectors still partly written,
 * or made whole by writes the L2 took in issue order that arrive after t
 * (a store's bytes reach the slice when the SM's write link has sent them,
 * often thousands of cycles after the store issued: [M] tests/microbench
 * mb_store store_w8, 8 stores that complete a sector of each of 32 lines
 * a warp, and its lines are all partly written at once on the H100). */
static bool masked_at(const cache_line *ln, double t) { return ln->partial || (ln->ghost && ln->whole_at > t); }

/* The least recently used line of addr's set among those holding byte
 * masks at cycle t, when there are more than `most` of them; else NULL. */
static cache_line *oldest_partial_beyond(cache *c, uint64_t addr, uint32_t most, double t) {
  cache_line *set = cache_set(c, addr), *oldest = NULL;
  uint32_t n = 0;
  for (uint32_t w = 0; w < c->assoc; w++)
    if (cache_line_valid(c, &set[w]) && masked_at(&set[w], t)) {
      n++;
      if (!oldest || cache_line_lru(c, &set[w]) < cache_line_lru(c, oldest)) oldest = &set[w];
    }
  return n > most ? oldest : NULL;
}

static bool cleans_ahead(const l2sys *l) { return l->dirtyq != NULL; }

/* Drop the stale entries of a full ring; grow it when live ones fill half.
 * A live entry's line is queued once, so they are at most the lines. */
static int dirtyq_make_room(l2_dirtyq *q, const cache *c) {
  size_t kept = 0;
  for (size_t i = 0; i < q->n; i++) {
    struct l2_dirty_entry e = q->e[(q->head + i) % q->cap];
    const cache_line *ln = &c->lines[e.line];
    if (cache_line_valid(c, ln) && cache_line_tag(c, ln) == e.tag && ln->queued) q->e[kept++] = e;
  }
  q->head = 0;
  q->n = kept;
  if (kept * 2 <= q->cap) return 0;
  size_t cap = q->cap * 2;
  struct l2_dirty_entry *e = realloc(q->e, cap * sizeof *e);
  if (!e) return -1;
  q->e = e;
  q->cap = cap;
  return 0;
}

/* A line of partition part became dirty: count it and queue it for
 * cleaning (once: a line cleaned and dirtied again keeps its place). */
static void dirty_add(l2sys *l, uint32_t part, cache_line *ln) {
  if (!cleans_ahead(l)) return;
  l2_dirtyq *q = &l->dirtyq[part];
  q->dirty++;
  if (ln->queued) return;
  const cache *c = &l->part[part];
  if (q->n == q->cap && dirtyq_make_room(q, c)) return;   /* out of host memory: the line is not cleaned ahead */
  q->e[(q->head + q->n++) % q->cap] = (struct l2_dirty_entry){ cache_line_tag(c, ln), (uint32_t)(ln - c->lines) };
  ln->queued = 1;
}

static void dirty_gone(l2sys *l, uint32_t part) { if (cleans_ahead(l) && l->dirtyq[part].dirty) l->dirtyq[part].dirty--; }

/* The L2 cleans ahead of need: while a partition holds more dirty lines
 * than dirty_ways per set, the one dirty longest is written back (it
 * stays, clean).  A budget of the whole partition, not of each set: 16 MiB
 * written by one kernel (a third of the H100's L2) leaves DRAM almost
 * untouched ([M] tests/microbench mb_l2dirty: 39 KB written back), where
 * sets filled unevenly would each have overflowed.
 * Returns when DRAM has taken the write-backs (see write_back). */
static double limit_dirty(l2sys *l, uint32_t part, double t) {
  if (!cleans_ahead(l)) return t;
  l2_dirtyq *q = &l->dirtyq[part];
  cache *c = &l->part[part];
  uint64_t most = (uint64_t)l->p.dirty_ways * c->sets;
  double taken = t;
  while (q->dirty > most && q->n) {
    struct l2_dirty_entry e = q->e[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    cache_line *ln = &c->lines[e.line];
    if (!cache_line_valid(c, ln) || cache_line_tag(c, ln) != e.tag) continue;   /* evicted since */
    ln->queued = 0;
    if (!ln->dirty) continue;
    cache_evict ev = { cache_line_tag(c, ln) << c->line_shift, ln->dirty, ln->partial };
    double r = write_back(l, t, &ev);
    if (r > taken) taken = r;
    ln->dirty = 0;
    ln->partial = 0;               /* the write-back merged them with DRAM's bytes */
    q->dirty--;
  }
  return taken;
}

/* Sector `bit` of ln (in partition part) is written: a line newly dirty
 * joins the cleaning queue and may push the partition past its budget.
 * Returns when DRAM has taken the write-backs that caused (t if none). */
static double make_dirty(l2sys *l, uint32_t part, cache_line *ln, uint32_t bit, double t) {
  bool was_clean = !ln->dirty;
  ln->dirty |= bit;
  if (!was_clean) return t;
  dirty_add(l, part, ln);
  return limit_dirty(l, part, t);
}

/* A set holding more than partial_ways lines with partly written sectors
 * completes those of its least recently used one: read from DRAM, merged
 * and written back (the L2 has byte masks for a few lines only). */
static double limit_partial(l2sys *l, uint32_t part, double t, double arrive, uint64_t addr) {
  if (!l->p.partial_ways) return t;
  cache *c = &l->part[part];
  cache_line *oldest = oldest_partial_beyond(c, addr, l->p.partial_ways, arrive);
  if (!oldest) return t;
  /* a line made whole in issue order but not yet at `arrive`: its sectors are
   * read, merged and written as partial ones; the writes still to arrive
   * leave them dirty again (they stay so) */
  uint32_t ghost = oldest->whole_at > arrive ? oldest->ghost : 0;
  cache_evict ev = { cache_line_tag(c, oldest) << c->line_shift, oldest->partial | ghost, oldest->partial | ghost };
  double taken = write_back(l, t, &ev);
  oldest->dirty &= ~oldest->partial;
  oldest->partial = 0;
  oldest->ghost = 0;
  if (!oldest->dirty) dirty_gone(l, part);
  return taken;
}

/* Occupy a slice's data path for one sector (a partial write: for
 * partial_write_cycles), and `extra` cycles more; returns when it starts. */
static double slice_take(l2sys *l, uint32_t s, double t, bool partial, double extra) {
  double w = partial && l->p.partial_write_cycles > 0 ? l->p.partial_write_cycles : 32.0 / l->p.slice_bytes_per_cycle;
  return timeline_take(&l->slice[s].path, t, w + extra);
}

bool l2_write_whole(uint32_t granule, uint32_t bytes) {
  if (!granule) return true;
  uint32_t all = granule == 32 ? ~0u : (1u << granule) - 1;
  for (uint32_t o = 0; o < 32; o += granule) {
    uint32_t g = bytes >> o & all;
    if (g && g != all) return false;
  }
  return true;
}

/* A read miss's DRAM access takes fill_bytes: the absent sectors of the
 * aligned block around addr's come too, marked fetched ([M] tests/microbench
 * mb_mem, golden timing_dram_latency: pointer chases that use one sector a
 * line read twice its bytes from DRAM). */
static void fill_block(l2sys *l, const cache *c, cache_line *ln, double t, uint64_t addr) {
  uint32_t per = l->p.fill_bytes >> c->sector_shift;
  if (per < 2) return;
  uint32_t first = (uint32_t)(addr >> c->sector_shift) & ((1u << (c->line_shift - c->sector_shift)) - 1) & ~(per - 1);
  uint64_t line = addr >> c->line_shift << c->line_shift;
  for (uint32_t k = first; k < first + per; k++) {
    uint32_t b = 1u << k;
    if ((ln->sectors | ln->fetched) & b) continue;
    double r = dram_access(l->dram, t, line + ((uint64_t)k << c->sector_shift), false);
    ln->fetched |= b;
    if (r > ln->ready) ln->ready = r;
  }
}

/* Look up (and allocate) a sector in partition `part`; reads that miss
 * fetch from DRAM, and so do writes of `bytes` that leave part of a write
 * granule out when the sector is absent.  Returns the cycle the sector's
 * data is at the slice (as seen from the SM: start + lat_hit for a hit). */
static double lookup(l2sys *l, uint32_t part, uint32_t s, double t, uint64_t addr, enum l2_op op, bool home, cache_line **out,
                     uint32_t bytes, bool same_line, double *merged, double extra) {
  cache_evict ev;
  bool hit;
  cache *c = &l->part[part];
  cache_line *ln = cache_ref(c, addr, true, &hit, &ev);
  uint32_t bit = cache_sector_bit(c, addr);
  /* a sector whose bytes a neighbour's DRAM read brought (fill_bytes) is
   * whole without a DRAM access of its own; the profiler still counts a
   * miss, the sector was not there when asked for */
  bool came = !hit && (ln->fetched & bit);
  if (came) ln->fetched &= ~bit;
  /* a write into an absent or incomplete sector goes through the byte
   * masks; a partial one into a whole sector is a plain write */
  bool masked = op == L2_WRITE && home && ((!hit && !came) || (ln->partial & bit));
  double start = slice_take(l, s, t, masked && bytes != ~0u && !same_line, extra);
  if (out) *out = ln;
  l->lookups++;
  double room = start;
  if (ev.dirty) { room = write_back(l, start, &ev); dirty_gone(l, part); }   /* when the victim has left */
  double done = start + l->p.lat_hit;
  if (l->bytes && masked) {
    /* byte masks: a write to an absent or partial sector adds its bytes;
     * the sector is whole again once they cover it */
    uint32_t *m = bytes_of(l, part, ln, addr), had = ln->partial;
    *m = (hit ? *m : 0) | bytes;
    if (*m == ~0u) ln->partial &= ~bit; else ln->partial |= bit;
    if (had & bit & ~ln->partial) {            /* whole in issue order; in time when this write arrives (t) */
      if (ln->whole_at <= t) ln->ghost = 0;
      ln->ghost |= (uint16_t)bit;
      ln->whole_at = t < (double)UINT32_MAX ? (uint32_t)t : UINT32_MAX;
    }
    if (!had && ln->partial) { double r = limit_partial(l, part, start, t, addr); if (r > room) room = r; }
  } else if (l->bytes && home && op == L2_READ && hit && (ln->partial & bit)) {
    /* a read needs the bytes nobody wrote: the sector is read from DRAM and merged */
    double arrive = dram_access(l->dram, start, addr, false);
    l->write_fetches++;
    ln->partial &= ~bit;
    if (arrive > ln->ready) ln->ready = arrive;
    return arrive;
  }
  if (op == L2_WRITE) {
    if (!hit && !came && home && !l2_write_whole(l->p.write_granule, bytes)) {
      /* read-modify-write: the sector comes from DRAM before the write
       * merges into it (a miss, as the profiler counts it) */
      double arrive = dram_access(l->dram, start, addr, false);
      l->write_fetches++;
      if (arrive > ln->ready) ln->ready = arrive;
      if (merged) *merged = arrive;
    } else l->hits++;             /* allocate on write without fetching: the profiler counts a hit */
    if (home && !(ln->dirty & bit)) { double r = make_dirty(l, part, ln, bit, start); if (r > room) room = r; }
    /* the write is in once the write-backs it caused have left */
    if (merged && room + l->p.lat_hit > *merged) *merged = room + l->p.lat_hit;
    return done;
  }
  if (hit) {
    l->hits++;
    return ln->ready > done ? ln->ready : done;
  }
  if (!home) return -1;            /* the near partition forwards the miss */
  if (came) return ln->ready > done ? ln->ready : done;
  double arrive = dram_access(l->dram, start, addr, false);
  ln->ready = arrive;
  fill_block(l, c, ln, start, addr);
  return arrive;
}

/* Lines some partition has made a copy of since the run began, by a hash
 * of the line: a write of a line never copied looks for no copy to drop
 * (a collision only looks in vain). */
static size_t copied_bit(const l2sys *l, uint64_t addr) { return (size_t)(addr / l->p.line_bytes) & (L2_COPIED_BITS - 1); }
static void mark_copied(l2sys *l, uint64_t addr) { size_t b = copied_bit(l, addr); l->copied[b / 64] |= 1ull << (b % 64); }
static bool maybe_copied(const l2sys *l, uint64_t addr) { size_t b = copied_bit(l, addr); return l->copied && (l->copied[b / 64] >> (b % 64) & 1); }

static double sector_access(l2sys *l, uint32_t near, double t, uint64_t addr, enum l2_op op, uint32_t lanes, uint32_t bytes,
                            bool same_line, double *merged) {
  uint32_t per = l->p.slices / l->p.partitions;
  uint64_t block = addr / l->p.interleave_bytes;
  uint32_t s = (uint32_t)((l->p.hash ? mix(block) : block) % l->p.slices);
  uint32_t home = s / per;
  near %= l->p.partitions;
  double done;
  if (home != near) {
    /* the near partition first: its copy serves reads; writes and atomics
     * pass through to the point of coherence (a counted hit) */
    uint32_t ns = near * per + s % per;
    if (op == L2_READ) {
      cache_line *copy;
      done = lookup(l, near, ns, t, addr, op, false, &copy, bytes, false, NULL, 0);
      if (done >= 0) return done;
      done = lookup(l, home, s, t, addr, op, true, NULL, bytes, false, NULL, 0);
      copy->ready = done;            /* the near copy fills when the answer passes */
      mark_copied(l, addr);
      return done;
    }
    slice_take(l, ns, t, false, 0);
    l->lookups++;
    l->hits++;
  }
  /* a write or atomic leaves the other partitions' copies of the sector
   * stale: they drop it, and their next read of it goes home (the writer's
   * near partition as the write passes).  A write of part of a sector that
   * a partition it does not pass had copied holds the home slice for
   * copy_write_cycles more ([M] tests/microbench mb_rmw, mb_rmw2, mb_rmw4:
   * 4-byte stores into an array other SMs read, wherever in it, cost the
   * H100 5x those into another array, more with more blocks storing and
   * little with one: the slice's time, not a latency; in-place reductions,
   * each block on its own lines, pay nothing: golden lab_reduce) */
  bool copied = false;
  if (op != L2_READ && maybe_copied(l, addr))
    for (uint32_t p = 0; p < l->p.partitions; p++)
      if (p != home && cache_drop_sector(&l->part[p], addr) && p != near) copied = true;
  cache_line *ln;
  done = lookup(l, home, s, t, addr, op == L2_ATOMIC ? L2_READ : op, true, &ln, bytes, same_line, merged,
                copied && op == L2_WRITE && bytes != ~0u ? l->p.copy_write_cycles : 0);
  if (op != L2_ATOMIC) return done;
  /* the slice's atomic unit performs the lanes' updates one after another
   * once the data is there; the old value returns after lat_atomic */
  l2_slice *sl = &l->slice[s];
  double ready = done - l->p.lat_hit, begin = ready > sl->atom_free ? ready : sl->atom_free;
  sl->atom_free = begin + lanes * l->p.atomic_cycles;
  make_dirty(l, home, ln, cache_sector_bit(&l->part[home], addr), done);
  return sl->atom_free + l->p.lat_atomic;
}

double l2_access(l2sys *l, uint32_t near, double t, uint64_t addr, enum l2_op op, uint32_t lanes) {
  return sector_access(l, near, t, addr, op, lanes, ~0u, false, NULL);
}

double l2_write(l2sys *l, uint32_t near, double t, uint64_t addr, uint32_t bytes, bool same_line, double *merged) {
  double fetched = 0, ack = sector_access(l, near, t, addr, L2_WRITE, 1, bytes, same_line, &fetched);
  if (merged) *merged = fetched > ack ? fetched : ack;
  return ack;
}
