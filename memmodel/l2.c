/* memmodel/l2.c - L2 slices, partitions, write-back and atomics (see l2.h). */
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include "memmodel/l2.h"

static uint64_t mix(uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
  return x;
}

int l2_init(l2sys *l, const l2_params *p, dram *d) {
  memset(l, 0, sizeof *l);
  if (!p->slices || !p->partitions || p->slices % p->partitions || !p->interleave_bytes || p->slice_bytes_per_cycle <= 0) return -1;
  if (!p->line_bytes || p->interleave_bytes % p->line_bytes) return -1;   /* (a line in one slice) */
  if (p->interleave_bytes & (p->interleave_bytes - 1)) return -1;
  l->ib_shift = (uint32_t)__builtin_ctz(p->interleave_bytes);
  l->slices_inv = p->slices == 1 ? 0 : UINT64_MAX / p->slices + 1;
  if (p->write_granule > 32 || (p->write_granule & (p->write_granule - 1))) return -1;
  if (p->fill_bytes > p->line_bytes || (p->fill_bytes & (p->fill_bytes - 1))) return -1;
  if (p->far_atomic_fill_bytes > p->line_bytes || (p->far_atomic_fill_bytes & (p->far_atomic_fill_bytes - 1))) return -1;
  l->p = *p;
  if (!l->p.far_atomic_fill_bytes) l->p.far_atomic_fill_bytes = p->fill_bytes;
  l->dram = d;
  l->lanes = p->slices / p->partitions;
  if (d->p.groups != l->lanes) return -1;
  l->slice = calloc_lines(p->slices, sizeof *l->slice);
  l->count = calloc_lines(l->lanes, sizeof *l->count);
  if (!l->slice || !l->count) return -1;
  /* one mapping, backed where touched, for every slice's sets and masks */
  bool masks = p->partial_fill && !p->write_granule;
  size_t per = cache_pool_bytes(p->bytes / p->slices, p->assoc, p->line_bytes);
  size_t nmask = cache_ways(p->bytes / p->slices, p->assoc, p->line_bytes) * (p->line_bytes / 32);
  lazypool_init(&l->cpool, p->slices * (per + (masks ? lazypool_bytes(nmask * sizeof(uint32_t)) : 0)), true);
  for (uint32_t i = 0; i < p->slices; i++) {
    l2_slice *sl = &l->slice[i];
    if (cache_init_in(&sl->c, p->bytes / p->slices, p->assoc, p->line_bytes, 32, &l->cpool)) return -1;
    if (masks && !(sl->bytes = lazypool_take(&l->cpool, nmask * sizeof *sl->bytes))) {
      sl->bytes_own = true;
      if (!(sl->bytes = calloc(nmask, sizeof *sl->bytes))) return -1;
    }
    if (p->dirty_ways && p->dirty_ways < p->assoc) {
      sl->dq.cap = 64;
      if (!(sl->dq.e = malloc(sl->dq.cap * sizeof *sl->dq.e))) return -1;
    }
  }
  if (p->partitions > 1 && !(l->copied = calloc(L2_COPIED_BITS / 64, sizeof *l->copied))) return -1;
  /* a lane's slices a timeline group: lanes served on different threads
   * write apart */
  double path = 8 * 32.0 / p->slice_bytes_per_cycle;
  lazypool_init(&l->pool, l->lanes * timeline_group_pool_bytes(p->partitions, path, TIMELINE_HORIZON), true);
  for (uint32_t g = 0; g < l->lanes; g++)
    if (timeline_init_group(&l->slice[g].path, l->lanes * sizeof *l->slice, p->partitions, path, TIMELINE_HORIZON, &l->pool)) return -1;
  return 0;
}

void l2_reset(l2sys *l) {
  if (l->copied) for (size_t i = 0; i < L2_COPIED_BITS / 64; i++) atomic_store_explicit(&l->copied[i], 0, memory_order_relaxed);
  for (uint32_t i = 0; i < l->p.slices; i++) {
    cache_reset(&l->slice[i].c);
    l->slice[i].dq.head = l->slice[i].dq.n = l->slice[i].dq.dirty = 0;
  }
}

void l2_reset_timing(l2sys *l) {
  for (uint32_t i = 0; i < l->p.slices; i++) { timeline_reset(&l->slice[i].path); l->slice[i].atom_free = 0; }
  memset(l->count, 0, l->lanes * sizeof *l->count);
}

void l2_free(l2sys *l) {
  for (uint32_t i = 0; l->slice && i < l->p.slices; i++) {
    cache_free(&l->slice[i].c);
    timeline_free(&l->slice[i].path);
    if (l->slice[i].bytes_own) free(l->slice[i].bytes);
    free(l->slice[i].dq.e);
  }
  lazypool_free(&l->pool);
  lazypool_free(&l->cpool);
  free(l->copied);
  free(l->slice);
  free(l->count);
  l->copied = NULL;
  l->slice = NULL;
  l->count = NULL;
}

l2_lane_count l2_counts(const l2sys *l) {
  l2_lane_count s = { 0 };
  for (uint32_t i = 0; i < l->lanes; i++) {
    s.hits += l->count[i].hits;
    s.lookups += l->count[i].lookups;
    s.write_fetches += l->count[i].write_fetches;
  }
  return s;
}
uint64_t l2_hits(const l2sys *l) { return l2_counts(l).hits; }
uint64_t l2_lookups(const l2sys *l) { return l2_counts(l).lookups; }
uint64_t l2_write_fetches(const l2sys *l) { return l2_counts(l).write_fetches; }

void l2_count_hits(l2sys *l, uint64_t n) { l->count[0].hits += n; l->count[0].lookups += n; }

/* Address blocks in rows of `slices` blocks: the blocks of a row go to
 * the slices one each, rotated by a hash of the row (no power-of-two
 * stride camps on a slice), so that a slice holds one block of every row
 * and its lines are keyed by (row, offset): consecutive rows' blocks take
 * consecutive sets, as consecutive lines of one cache would.  Slice k is
 * partition k / lanes' slice of lane k % lanes. */
static uint32_t home_of(const l2sys *l, uint32_t s) { return s / l->lanes; }
static uint32_t lane_of(const l2sys *l, uint32_t s) { return s % l->lanes; }
/* (the row's hash onto 0 .. slices - 1 by a multiply, not a division) */
static uint32_t rot_of(const l2sys *l, uint64_t row) { return l->p.hash ? (uint32_t)(((mix(row) >> 32) * l->p.slices) >> 32) : 0; }

/* Where an address lives: its home slice, and its key in its lane's
 * caches: its row and offset, and its home partition above them (a near
 * partition's copies of far lines share its sets with its own lines of
 * the same rows). */
#define KEY_HOME_SHIFT 56
typedef struct l2_where { uint32_t s, home, lane; uint64_t key; } l2_where;

/* block / slices: a multiply by the rounded-up inverse, then corrected
 * (the estimate is at most one too small or large) */
static uint64_t row_of(const l2sys *l, uint64_t block) {
  if (!l->slices_inv) return block;
  uint64_t q = (uint64_t)(((unsigned __int128)block * l->slices_inv) >> 64);
  if (q * l->p.slices > block) q--;
  else if ((q + 1) * l->p.slices <= block) q++;
  return q;
}

static l2_where where_of(const l2sys *l, uint64_t addr) {
  uint64_t ib = l->p.interleave_bytes, block = addr >> l->ib_shift, row = row_of(l, block);
  uint32_t s = (uint32_t)(block - row * l->p.slices) + rot_of(l, row);
  if (s >= l->p.slices) s -= l->p.slices;
  l2_where w = { s, home_of(l, s), lane_of(l, s), 0 };
  w.key = (row << l->ib_shift) + (addr & (ib - 1)) + ((uint64_t)w.home << KEY_HOME_SHIFT);
  return w;
}

/* The address of key, whose home is slice s. */
static uint64_t addr_of(const l2sys *l, uint32_t s, uint64_t key) {
  key &= (1ull << KEY_HOME_SHIFT) - 1;
  uint64_t row = key >> l->ib_shift, S = l->p.slices;
  return ((row * S + (s + S - rot_of(l, row)) % S) << l->ib_shift) + (key & (l->p.interleave_bytes - 1));
}

uint32_t l2_lane_of(const l2sys *l, uint64_t addr) { return where_of(l, addr).lane; }

/* The DRAM channel of key, whose home is slice s: one of its lane's
 * group, the lane's rows' blocks dealt out over them in turn (each row
 * gives a lane a block per partition). */
static uint32_t channel_of(const l2sys *l, uint32_t s, uint64_t key) {
  key &= (1ull << KEY_HOME_SHIFT) - 1;
  uint64_t row = key >> l->ib_shift;
  uint64_t unit = (((row * l->p.partitions + home_of(l, s)) << l->ib_shift) + (key & (l->p.interleave_bytes - 1))) / l->dram->p.interleave_bytes;
  return lane_of(l, s) * l->dram->per_group + (uint32_t)(unit % l->dram->per_group);
}

/* Write a victim's dirty sectors back to DRAM; one only partly written is
 * first read and merged (partial_fill).  Returns when DRAM has taken the
 * last of them, its first access for a read and merge (t, or later when
 * DRAM's queue is longer than its latency): the L2 cannot hold more
 * write-backs than that, so the write that needed the room waits. */
static double write_back(l2sys *l, uint32_t s, double t, const cache_evict *ev) {
  uint32_t g = lane_of(l, s);
  uint64_t line = addr_of(l, s, ev->addr);
  double taken = t, lat = l->dram->p.latency;
  for (uint32_t m = ev->dirty; m; m &= m - 1) {
    uint32_t o = 32u * (uint32_t)__builtin_ctz(m);
    uint64_t a = line + o;
    uint32_t c = channel_of(l, s, ev->addr + o);
    double in;
    if (ev->partial & m & -m) {
      double r = dram_access(l->dram, c, t, a, false);
      l->count[g].write_fetches++;
      dram_access(l->dram, c, r, a, true);
      in = r - lat;
    } else in = dram_access(l->dram, c, t, a, true) - lat;
    if (in > taken) taken = in;
  }
  return taken;
}

/* The byte mask of the sector of addr in line ln of slice s. */
static uint32_t *bytes_of(l2sys *l, uint32_t s, const cache_line *ln, uint64_t addr) {
  const cache *c = &l->slice[s].c;
  uint32_t spl_shift = c->line_shift - c->sector_shift;
  size_t sector = (addr >> c->sector_shift) & ((1u << spl_shift) - 1);
  return &l->slice[s].bytes[((size_t)(ln - c->lines) << spl_shift) + sector];
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

static bool cleans_ahead(const l2sys *l) { return l->p.dirty_ways && l->p.dirty_ways < l->p.assoc; }

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

/* A line of slice s became dirty: count it and queue it for cleaning
 * (once: a line cleaned and dirtied again keeps its place). */
static void dirty_add(l2sys *l, uint32_t s, cache_line *ln) {
  if (!cleans_ahead(l)) return;
  l2_dirtyq *q = &l->slice[s].dq;
  q->dirty++;
  if (ln->queued) return;
  const cache *c = &l->slice[s].c;
  if (q->n == q->cap && dirtyq_make_room(q, c)) return;   /* out of host memory: the line is not cleaned ahead */
  q->e[(q->head + q->n++) % q->cap] = (struct l2_dirty_entry){ cache_line_tag(c, ln), (uint32_t)(ln - c->lines) };
  ln->queued = 1;
}

static void dirty_gone(l2sys *l, uint32_t s) { if (cleans_ahead(l) && l->slice[s].dq.dirty) l->slice[s].dq.dirty--; }

/* The L2 cleans ahead of need: while a slice holds more dirty lines than
 * dirty_ways per set, the one dirty longest is written back (it stays,
 * clean).  A budget of the whole slice, not of each set: 16 MiB written
 * by one kernel (a third of the H100's L2) leaves DRAM almost untouched
 * ([M] tests/microbench mb_l2dirty: 39 KB written back), where sets filled
 * unevenly would each have overflowed.
 * Returns when DRAM has taken the write-backs (see write_back). */
static double limit_dirty(l2sys *l, uint32_t s, double t) {
  if (!cleans_ahead(l)) return t;
  l2_dirtyq *q = &l->slice[s].dq;
  cache *c = &l->slice[s].c;
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
    double r = write_back(l, s, t, &ev);
    if (r > taken) taken = r;
    ln->dirty = 0;
    ln->partial = 0;               /* the write-back merged them with DRAM's bytes */
    q->dirty--;
  }
  return taken;
}

/* Sector `bit` of ln (in slice s) is written: a line newly dirty joins
 * the cleaning queue and may push the slice past its budget.
 * Returns when DRAM has taken the write-backs that caused (t if none). */
static double make_dirty(l2sys *l, uint32_t s, cache_line *ln, uint32_t bit, double t) {
  bool was_clean = !ln->dirty;
  ln->dirty |= bit;
  if (!was_clean) return t;
  dirty_add(l, s, ln);
  return limit_dirty(l, s, t);
}

/* A set holding more than partial_ways lines with partly written sectors
 * completes those of its least recently used one: read from DRAM, merged
 * and written back (the L2 has byte masks for a few lines only). */
static double limit_partial(l2sys *l, uint32_t s, double t, double arrive, uint64_t addr) {
  if (!l->p.partial_ways) return t;
  cache *c = &l->slice[s].c;
  cache_line *oldest = oldest_partial_beyond(c, addr, l->p.partial_ways, arrive);
  if (!oldest) return t;
  /* a line made whole in issue order but not yet at `arrive`: its sectors are
   * read, merged and written as partial ones; the writes still to arrive
   * leave them dirty again (they stay so) */
  uint32_t ghost = oldest->whole_at > arrive ? oldest->ghost : 0;
  cache_evict ev = { cache_line_tag(c, oldest) << c->line_shift, oldest->partial | ghost, oldest->partial | ghost };
  double taken = write_back(l, s, t, &ev);
  oldest->dirty &= ~oldest->partial;
  oldest->partial = 0;
  oldest->ghost = 0;
  if (!oldest->dirty) dirty_gone(l, s);
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

/* A read miss's DRAM access takes fill bytes (fill_bytes): the absent
 * sectors of the aligned block around addr's come too, marked fetched ([M]
 * tests/microbench mb_mem, golden timing_dram_latency: pointer chases that
 * use one sector a line read twice its bytes from DRAM). */
static void fill_block(l2sys *l, uint32_t s, uint64_t key, const cache *c, cache_line *ln, double t, uint64_t addr, uint32_t fill) {
  uint32_t per = fill >> c->sector_shift;
  if (per < 2) return;
  uint32_t first = (uint32_t)(addr >> c->sector_shift) & ((1u << (c->line_shift - c->sector_shift)) - 1) & ~(per - 1);
  uint64_t line = addr >> c->line_shift << c->line_shift;
  for (uint32_t k = first; k < first + per; k++) {
    uint32_t b = 1u << k;
    if ((ln->sectors | ln->fetched) & b) continue;
    uint64_t o = (uint64_t)k << c->sector_shift, a = line + o;
    double r = dram_access(l->dram, channel_of(l, s, (key >> c->line_shift << c->line_shift) + o), t, a, false);
    ln->fetched |= b;
    if (r > ln->ready) ln->ready = r;
  }
}

/* Look up (and allocate) a sector in slice s; reads that miss
 * fetch from DRAM, and so do writes of `bytes` that leave part of a write
 * granule out when the sector is absent (a read's DRAM access miss_wait
 * cycles after the lookup).  Returns the cycle the sector's data is at the
 * slice (as seen from the SM: start + lat_hit for a hit). */
static double lookup(l2sys *l, uint32_t s, uint64_t key, double t, uint64_t addr, enum l2_op op, bool home, cache_line **out,
                     uint32_t bytes, bool same_line, double *merged, double extra, uint32_t fill, double miss_wait) {
  cache_evict ev;
  bool hit;
  uint32_t g = lane_of(l, s);
  l2_lane_count *n = &l->count[g];
  cache *c = &l->slice[s].c;
  cache_line *ln = cache_ref(c, key, true, &hit, &ev);
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
  n->lookups++;
  double room = start;
  if (ev.dirty) { room = write_back(l, s, start, &ev); dirty_gone(l, s); }   /* when the victim has left */
  double done = start + l->p.lat_hit;
  if (l->slice[s].bytes && masked) {
    /* byte masks: a write to an absent or partial sector adds its bytes;
     * the sector is whole again once they cover it */
    uint32_t *m = bytes_of(l, s, ln, addr), had = ln->partial;
    *m = (hit ? *m : 0) | bytes;
    if (*m == ~0u) ln->partial &= ~bit; else ln->partial |= bit;
    if (had & bit & ~ln->partial) {            /* whole in issue order; in time when this write arrives (t) */
      if (ln->whole_at <= t) ln->ghost = 0;
      ln->ghost |= (uint16_t)bit;
      ln->whole_at = t < (double)UINT32_MAX ? (uint32_t)t : UINT32_MAX;
    }
    if (!had && ln->partial) { double r = limit_partial(l, s, start, t, key); if (r > room) room = r; }
  } else if (l->slice[s].bytes && home && op == L2_READ && hit && (ln->partial & bit)) {
    /* a read needs the bytes nobody wrote: the sector is read from DRAM and merged */
    double arrive = dram_access(l->dram, channel_of(l, s, key), start, addr, false);
    n->write_fetches++;
    ln->partial &= ~bit;
    if (arrive > ln->ready) ln->ready = arrive;
    return arrive;
  }
  if (op == L2_WRITE) {
    if (!hit && !came && home && !l2_write_whole(l->p.write_granule, bytes)) {
      /* read-modify-write: the sector comes from DRAM before the write
       * merges into it (a miss, as the profiler counts it) */
      double arrive = dram_access(l->dram, channel_of(l, s, key), start, addr, false);
      n->write_fetches++;
      if (arrive > ln->ready) ln->ready = arrive;
      if (merged) *merged = arrive;
    } else n->hits++;             /* allocate on write without fetching: the profiler counts a hit */
    if (home && !(ln->dirty & bit)) { double r = make_dirty(l, s, ln, bit, start); if (r > room) room = r; }
    /* the write is in once the write-backs it caused have left */
    if (merged && room + l->p.lat_hit > *merged) *merged = room + l->p.lat_hit;
    return done;
  }
  if (hit) {
    n->hits++;
    return ln->ready > done ? ln->ready : done;
  }
  if (!home) return -1;            /* the near partition forwards the miss */
  if (came) return ln->ready > done ? ln->ready : done;
  /* (miss_wait: its request's misses before it leave first) */
  double arrive = dram_access(l->dram, channel_of(l, s, key), start + miss_wait, addr, false);
  ln->ready = arrive;
  fill_block(l, s, key, c, ln, start + miss_wait, addr, fill);
  return arrive;
}

/* Lines some partition has made a copy of since the run began, by a hash
 * of the line: a write of a line never copied looks for no copy to drop
 * (a collision only looks in vain). */
static size_t copied_bit(const l2sys *l, uint64_t addr) { return (size_t)(addr / l->p.line_bytes) & (L2_COPIED_BITS - 1); }
/* (set and read by the lanes' threads: a bit another lane's line set only
 * makes a write look for a copy that is not there; atomic for that) */
static void mark_copied(l2sys *l, uint64_t addr) {
  size_t b = copied_bit(l, addr);
  uint64_t bit = 1ull << (b % 64);
  if (!(atomic_load_explicit(&l->copied[b / 64], memory_order_relaxed) & bit)) atomic_fetch_or_explicit(&l->copied[b / 64], bit, memory_order_relaxed);
}
static bool maybe_copied(const l2sys *l, uint64_t addr) {
  size_t b = copied_bit(l, addr);
  return l->copied && (atomic_load_explicit(&l->copied[b / 64], memory_order_relaxed) >> (b % 64) & 1);
}

static double sector_access(l2sys *l, uint32_t near, double t, uint64_t addr, enum l2_op op, uint32_t lanes, uint32_t bytes,
                            bool same_line, double *merged, double miss_wait) {
  l2_where w = where_of(l, addr);
  uint32_t s = w.s, home = w.home, lane = w.lane;
  near %= l->p.partitions;
  double done;
  if (home != near) {
    /* the near partition first: its copy serves reads; writes and atomics
     * pass through to the point of coherence (a counted hit) */
    uint32_t ns = near * l->lanes + lane;
    if (op == L2_READ) {
      cache_line *copy;
      done = lookup(l, ns, w.key, t, addr, op, false, &copy, bytes, false, NULL, 0, l->p.fill_bytes, 0);
      if (done >= 0) return done;
      done = lookup(l, s, w.key, t, addr, op, true, NULL, bytes, false, NULL, 0, l->p.fill_bytes, miss_wait);
      copy->ready = done;            /* the near copy fills when the answer passes */
      mark_copied(l, addr);
      return done;
    }
    slice_take(l, ns, t, false, 0);
    l->count[lane].lookups++;
    l->count[lane].hits++;
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
      if (p != home && cache_drop_sector(&l->slice[p * l->lanes + lane].c, w.key) && p != near) copied = true;
  cache_line *ln;
  /* an atomic's miss from another partition's SM reads less of its block
   * ([M] far_atomic_fill_bytes: tools/microbench/atomic_fill) */
  done = lookup(l, s, w.key, t, addr, op == L2_ATOMIC ? L2_READ : op, true, &ln, bytes, same_line, merged,
                copied && op == L2_WRITE && bytes != ~0u ? l->p.copy_write_cycles : 0,
                op == L2_ATOMIC && home != near ? l->p.far_atomic_fill_bytes : l->p.fill_bytes, miss_wait);
  if (op != L2_ATOMIC) return done;
  /* the slice's atomic unit performs the lanes' updates one after another
   * once the data is there; the old value returns after lat_atomic */
  l2_slice *sl = &l->slice[s];
  bool red = lanes & L2_NO_RETURN;
  double per = lanes & L2_F16 && l->p.atomic_f16_cycles > 0 ? l->p.atomic_f16_cycles : l->p.atomic_cycles;
  lanes &= ~(L2_NO_RETURN | L2_F16);
  double ready = done - l->p.lat_hit, begin = ready > sl->atom_free ? ready : sl->atom_free;
  sl->atom_free = begin + lanes * per;
  make_dirty(l, s, ln, cache_sector_bit(&sl->c, addr), done);
  return sl->atom_free + (red ? 0 : l->p.lat_atomic);
}

double l2_access(l2sys *l, uint32_t near, double t, uint64_t addr, enum l2_op op, uint32_t lanes) {
  return sector_access(l, near, t, addr, op, lanes, ~0u, false, NULL, 0);
}

double l2_read_late(l2sys *l, uint32_t near, double t, uint64_t addr, double miss_wait) {
  return sector_access(l, near, t, addr, L2_READ, 1, ~0u, false, NULL, miss_wait);
}

double l2_write(l2sys *l, uint32_t near, double t, uint64_t addr, uint32_t bytes, bool same_line, double *merged) {
  double fetched = 0, ack = sector_access(l, near, t, addr, L2_WRITE, 1, bytes, same_line, &fetched, 0);
  if (merged) *merged = fetched > ack ? fetched : ack;
  return ack;
}
