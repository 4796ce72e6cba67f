/* memmodel/memsys.c - L1, read-only and constant caches, shared memory,
 * tied to L2 and DRAM (see memsys.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "memmodel/memsys.h"
#include "memmodel/space.h"
#include "util/bits.h"
#include "util/spin.h"
#include "util/vec.h"

#define CODE_BASE (FUNC_ADDR_BASE - (1ull << 30))   /* where code and constant banks "live" */

uint64_t memsys_l1_bytes(const gpu_config *g, uint64_t used) {
  uint64_t carve = used;
  if (g->ncarveouts) {
    uint64_t best = UINT64_MAX, largest = 0;
    for (uint32_t i = 0; i < g->ncarveouts; i++) {
      uint64_t b = (uint64_t)g->carveouts_kb[i] * 1024;
      if (b > largest) largest = b;
      if (b >= used && b < best) best = b;
    }
    carve = g->sm_version < 70 ? largest : best != UINT64_MAX ? best : largest;
    if (carve < used) carve = used;
  }
  uint64_t min = (uint64_t)g->l1_line_bytes * g->l1_assoc;
  return g->l1_bytes > carve + min ? g->l1_bytes - carve : min;
}

static uint64_t cache_host_bytes(uint64_t size, uint32_t assoc, uint32_t line) {
  return (uint64_t)cache_ways(size, assoc, line) * (sizeof(cache_line) + sizeof(cache_way));
}

/* The sectors queued for an SM's write link, by sector: where a store's
 * sector is queued still (it leaves at out, after the store arrives) and
 * is among the last l1_store_combine sectors queued, the store's bytes
 * join it: one turn on the link, one L2 write.  Measured on the H100 with
 * Nsight's l1tex__m_l1tex2xbar_write_sectors against the sectors stored:
 * lab 4's column copy (each warp stores 8 bytes into each of 16 sectors,
 * 4 warps fill a sector between them) sends 248143 of 524288; but warps
 * storing 4 bytes into each of 32 sectors, store after store, send every
 * sector (golden float_math; wgmma_sm90a's wgmma_rs, 8 such stores back to
 * back: 2048 of 2048), and a BFS sweep's scattered stores nearly every one
 * (157830 of 158617; the model: 153452 of 154189).
 * Direct-mapped: the queue is at most an L2 round trip of sectors long
 * (the L1 stalls beyond it), well under WQ_SIZE. */
#define WQ_SIZE 512u
/* last: when the L1 took the sector's last store; hseq: s->hseq then */
struct ms_wq { uint64_t sector, seq, hseq; double out, last; uint32_t req, gen; };
/* A store also joins its sector's last store, sent or not, if that one
 * was still waiting for the L1 when this one arrived (both in the L1's
 * queue at once) and is among the last l1_store_queue_join sectors stored.
 * Measured on the H100 (tests/microbench mb_flag and mb_samestore,
 * Nsight's l1tex2xbar write sectors, which the L2's write sectors equal):
 * lane 0 of every warp, 4 stores back to back to one word, sends 604
 * sectors of 33792 (to words of one sector 608; each SM to its own line
 * 175), to 2 lines in turn 2221, to 8 lines 15656, to 64 lines 16695 (a
 * warp's own stores, with 3 other warps' between them, join half the
 * time); a BFS sweep's flag stores, each warp's after its gathers, 490 of
 * 33241 join (mb_gather).  The unmerged ones queue at the line's slice. */
static bool wq_joins(const gpu_config *g, const ms_sm *s, const struct ms_wq *q, uint64_t sector, double start, double t) {
  if (q->gen != s->wgen || q->sector != sector) return false;
  if (q->out > start && s->wseq - q->seq <= g->l1_store_combine) return true;
  return q->last >= t && s->hseq - q->hseq <= g->l1_store_queue_join;
}
/* Whether the SMs keep the queue of stored sectors at all. */
static bool wq_used(const gpu_config *g) { return g->l1_store_combine || g->l1_store_queue_join; }
static uint32_t wq_slot(uint64_t sector) { return (uint32_t)((sector * 0x9e3779b97f4a7c15ull) >> 55) & (WQ_SIZE - 1); }
/* (a new window: the requests were served, so no entry of wq is queued) */
static void clear_lanes(ms_batch *b, uint32_t lanes) { if (b->lane) for (uint32_t l = 0; l <= lanes; l++) b->lane[l].n = 0; }
static void clear_sm(memsys *m, ms_sm *s) { s->cur.nreq = s->cur.npend = 0; clear_lanes(&s->cur, m->l2.lanes); s->wgen++; }

static uint64_t timeline_host_bytes(double width) {
  return width > 0 ? timeline_windows(width, TIMELINE_HORIZON) * (uint64_t)TIMELINE_WINDOW_BYTES : 0;
}

/* DRAM channels as the model has them: a whole number for each L2 lane
 * (l2.h), the nearest to the configuration's (at least one); the
 * bandwidth stays the configuration's (the H200's 188 are 200 here, each
 * with 188/200 of a channel's bandwidth). */
static uint32_t l2_lanes(const gpu_config *g) {
  return g->l2_partitions && g->l2_slices >= g->l2_partitions ? g->l2_slices / g->l2_partitions : 1;
}
static uint32_t dram_channels(const gpu_config *g) {
  uint32_t lanes = l2_lanes(g);
  uint32_t per = (uint32_t)(((uint64_t)g->dram_channels + lanes / 2) / lanes);
  return (per ? per : 1) * lanes;
}

uint64_t memsys_host_bytes(const gpu_config *g, uint32_t nsm, uint64_t shared_used) {
  uint64_t sm = sizeof(ms_sm) + (uint64_t)g->l1_mshrs * sizeof(double)
              + cache_host_bytes(memsys_l1_bytes(g, shared_used), g->l1_assoc, g->l1_line_bytes)
              + (g->readonly_cache_bytes ? cache_host_bytes(g->readonly_cache_bytes, g->l1_assoc, g->l1_line_bytes) : 0)
              + cache_host_bytes(g->const_cache_bytes, 4, 64) + (wq_used(g) ? WQ_SIZE * sizeof(struct ms_wq) : 0);
  uint64_t parts = g->l2_partitions ? g->l2_partitions : 1, slices = g->l2_slices ? g->l2_slices : 1;
  uint64_t sets = cache_host_bytes(g->l2_bytes / slices, g->l2_assoc, g->l1_line_bytes);   /* a slice's */
  uint64_t lines = slices * sets / (sizeof(cache_line) + sizeof(cache_way));
  uint64_t l2 = slices * sets + slices * (sizeof(l2_slice) + timeline_host_bytes(8 * 32.0 / g->l2_slice_bytes_per_cycle));
  if (g->l2_partial_fill && !g->l2_write_granule_bytes && g->l1_line_bytes >= 32)
    l2 += lines * (g->l1_line_bytes / 32) * sizeof(uint32_t);
  if (parts > 1) l2 += L2_COPIED_BITS / 8;
  if (g->l2_dirty_ways && g->l2_dirty_ways < g->l2_assoc)   /* the queue of lines to clean, grown to the lines it holds */
    l2 += lines * sizeof(struct l2_dirty_entry);
  double bpc = (double)g->dram_bandwidth_gbs * 1e3 / (g->clock_mhz ? g->clock_mhz : 1);
  uint64_t nch = dram_channels(g), ch = sizeof(dram_channel) + timeline_host_bytes(8 * 32.0 * nch / bpc)
              + timeline_host_bytes(2.0 * (g->dram_activate_cycles ? g->dram_activate_cycles : 1));
  uint64_t bank = sizeof(dram_bank) + timeline_host_bytes(2.0 * (g->dram_row_miss_cycles ? g->dram_row_miss_cycles : 1));
  return sizeof(memsys) + nsm * sm + l2 + nch * (ch + (uint64_t)g->dram_banks * bank);
}

/* An SM's MSHR times and write queue, beside its caches in the pool: no
 * pointers in them (the leak checker does not look in mappings), and the
 * SM's thread backs them where it first touches them, not the launching
 * thread for every SM (calloc cleared them: 5 MiB for the H100's 132).
 * From the heap when the pool could not be mapped. */
static size_t sm_arrays_bytes(const gpu_config *g) {
  return lazypool_bytes(g->l1_mshrs * sizeof(double)) + 2 * lazypool_bytes(g->l1_mshrs * sizeof(uint32_t)) +
         (wq_used(g) ? lazypool_bytes(WQ_SIZE * sizeof(struct ms_wq)) : 0);
}
static void *sm_array(memsys *m, size_t n, size_t size) {
  return m->arrays_pooled ? lazypool_take(&m->pool, n * size) : calloc(n, size);
}

/* x where it is a power of two, else 0 (pattern_memo_same: only the
 * same addresses) */
static uint64_t pattern_align(uint64_t x) { return x && !(x & (x - 1)) ? x : 0; }

/* How far a shared access may move and keep its wavefronts: a 4-byte
 * word where the banks are words (mm_shared_wavefronts); with wider banks
 * or a narrower bank mode (mm_shared_wavefronts_mode's own test), 32 rows
 * of 32 banks, whole words of the mode and whole rows of the banks */
static uint64_t shared_align(const gpu_config *g) {
  uint32_t bb = g->shared_bank_bytes, mode = g->shared_bank_mode;
  bool by_mode = mode && mode < bb;
  if (!by_mode && bb <= 4) return 4;
  return by_mode && !pattern_align(mode) ? 0 : pattern_align(1024 * (uint64_t)bb);
}

memsys *memsys_new(const gpu_config *g, uint32_t nsm, uint64_t shared_used) {
  memsys *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->g = g;
  m->nsm = nsm;
  m->l1_bytes = memsys_l1_bytes(g, shared_used);
  m->sm = calloc_lines(nsm, sizeof *m->sm);
  dram_params dp = { dram_channels(g), g->dram_banks, g->dram_row_bytes, g->dram_interleave_bytes,
                     (double)g->dram_bandwidth_gbs * 1e3 / g->clock_mhz, g->dram_row_miss_cycles,
                     g->dram_activate_cycles, g->lat_dram, g->partition_hash != 0,
                     l2_lanes(g) };
  l2_params lp = { g->l2_bytes, g->l2_assoc, g->l1_line_bytes, g->l2_slices, g->l2_partitions, g->l2_interleave_bytes,
                   g->l2_slice_bytes_per_cycle, g->l2_atomic_cycles, g->lat_l2, g->lat_atomic, g->partition_hash != 0, g->l2_dirty_ways,
                   g->l2_write_granule_bytes, g->l2_partial_fill != 0, g->l2_partial_ways, g->l2_partial_write_cycles,
                   g->l2_fill_bytes, g->l2_copy_write_cycles, g->l2_far_atomic_fill_bytes, g->l2_atomic_f16_cycles };
  if (!m->sm || dram_init(&m->dram, &dp) || l2_init(&m->l2, &lp, &m->dram)) { memsys_free(m); return NULL; }
  lazypool_init(&m->pool, nsm * (cache_pool_bytes(m->l1_bytes, g->l1_assoc, g->l1_line_bytes)
                                 + (g->readonly_cache_bytes ? cache_pool_bytes(g->readonly_cache_bytes, g->l1_assoc, g->l1_line_bytes) : 0)
                                 + cache_pool_bytes(g->const_cache_bytes, 4, 64) + sm_arrays_bytes(g)), false);   /* (the SMs' threads fill it) */
  m->arrays_pooled = m->pool.base != NULL;
  m->line_align = pattern_align(g->l1_line_bytes > 128 ? g->l1_line_bytes : 128);
  m->bank_align = shared_align(g);
  for (uint32_t i = 0; i < nsm; i++) {
    ms_sm *s = &m->sm[i];
    s->mshr = sm_array(m, g->l1_mshrs, sizeof *s->mshr);
    s->mshr_writer = sm_array(m, g->l1_mshrs, sizeof *s->mshr_writer);
    s->mshr_batch = sm_array(m, g->l1_mshrs, sizeof *s->mshr_batch);
    s->cur.lane = calloc(m->l2.lanes + 1, sizeof *s->cur.lane);
    s->old.lane = calloc(m->l2.lanes + 1, sizeof *s->old.lane);
    if (!s->cur.lane || !s->old.lane) { memsys_free(m); return NULL; }
    s->has_ro = g->readonly_cache_bytes > 0;
    if (wq_used(g) && !(s->wq = sm_array(m, WQ_SIZE, sizeof *s->wq))) { memsys_free(m); return NULL; }
    if (!s->mshr || !s->mshr_writer || !s->mshr_batch || cache_init_in(&s->l1, m->l1_bytes, g->l1_assoc, g->l1_line_bytes, g->l1_sector_bytes, &m->pool)
        || (s->has_ro && cache_init_in(&s->ro, g->readonly_cache_bytes, g->l1_assoc, g->l1_line_bytes, g->l1_sector_bytes, &m->pool))
        || cache_init_in(&s->cst, g->const_cache_bytes, 4, 64, 32, &m->pool)) { memsys_free(m); return NULL; }
  }
  return m;
}

void memsys_reset(memsys *m) {
  for (uint32_t i = 0; i < m->nsm; i++) {
    ms_sm *s = &m->sm[i];
    cache_reset(&s->l1);
    if (s->has_ro) cache_reset(&s->ro);
    cache_reset(&s->cst);
    s->l1_free = s->shared_free = s->const_free = s->wport_free = s->l1_accept = s->tma_free = s->atom_free = s->atom_sent = 0;
    s->store_taken = s->store_out = 0;
    s->sbuf_head = s->sbuf_n = s->sbuf_bytes = 0;
    memset(s->mshr, 0, m->g->l1_mshrs * sizeof *s->mshr);
    s->mshr_next = 0;
    s->code = false;
    clear_sm(m, s);
    s->l1_hits = s->l1_lookups = s->wsectors = 0;
  }
  m->oom = false;
  m->parts = 1;
  memsys_clear(m);
  l2_reset(&m->l2);
  l2_reset_timing(&m->l2);
  dram_reset(&m->dram);
  m->l1_hits = m->l1_lookups = m->write_sectors = 0;
  m->launch_dram_bytes = 0;
}

bool memsys_fits(const memsys *m, const gpu_config *g, uint32_t nsm, uint64_t shared_used) {
  return m && m->g == g && m->nsm == nsm && m->l1_bytes == memsys_l1_bytes(g, shared_used);
}

void memsys_free(memsys *m) {
  if (!m) return;
  for (uint32_t i = 0; m->sm && i < m->nsm; i++) {
    cache_free(&m->sm[i].l1);
    cache_free(&m->sm[i].ro);
    cache_free(&m->sm[i].cst);
    if (!m->arrays_pooled) {
      free(m->sm[i].mshr);
      free(m->sm[i].mshr_writer);
      free(m->sm[i].mshr_batch);
      free(m->sm[i].wq);
    }
    for (int k = 0; k < 2; k++) {
      ms_batch *b = k ? &m->sm[i].old : &m->sm[i].cur;
      for (uint32_t l = 0; b->lane && l <= m->l2.lanes; l++) free(b->lane[l].e);
      free(b->lane);
    }
    free(m->sm[i].cur.req);
    free(m->sm[i].cur.pend);
    free(m->sm[i].old.req);
    free(m->sm[i].old.pend);
  }
  free(m->sm);
  lazypool_free(&m->pool);
  l2_free(&m->l2);
  dram_free(&m->dram);
  free(m);
}

void memsys_launch(memsys *m) {
  l2_count_hits(&m->l2, m->g->l2_launch_sectors);
  m->launch_dram_bytes += m->g->dram_launch_bytes;
}

static double dmax(double a, double b) { return a > b ? a : b; }

/* The SM's near L2 partition: SMs are split evenly over partitions. */
static uint32_t near_part(const memsys *m, uint32_t sm) { return (uint32_t)((uint64_t)sm * m->g->l2_partitions / m->nsm); }

/* A sector miss takes an MSHR; with all of them busy it waits for the one
 * it reuses (they are reused in turn, a FIFO approximation of "the first
 * that frees"): the choice here, the wait when the request is served. */
static uint32_t mshr_take(ms_sm *s, uint32_t n) {
  uint32_t slot = s->mshr_next;
  s->mshr_next = (s->mshr_next + 1) % n;
  return slot;
}

/* ---- requests to L2 and pending values ---------------------------------------- */

#define NONE UINT32_MAX
#define BATCH_MASK ((1u << 31) - 1)
#define INDEX_MASK ((1ull << MS_BATCH_SHIFT) - 1)

static uint64_t code_of(uint32_t batch, uint32_t i) { return MS_PEND_BIT | (uint64_t)(batch & BATCH_MASK) << MS_BATCH_SHIFT | i; }
static uint32_t batch_of(uint64_t v) { return (uint32_t)(v >> MS_BATCH_SHIFT) & BATCH_MASK; }

/* A line filled by request r of a batch: a negative mark of the batch
 * (20 bits) and r until the request is served (exact in a double). */
static double fill_mark(uint32_t batch, uint32_t r) { return -(double)(((uint64_t)(batch & 0xfffff) << 32) + r + 1); }
static void mark_fill(memsys *m, ms_sm *s, uint32_t r, cache_line *ln) {
  s->cur.req[r].ln = ln;
  ln->ready = fill_mark(m->batch, r);
}

static uint32_t new_pend(memsys *m, ms_sm *s) {
  ms_batch *b = &s->cur;
  if (b->npend == b->cappend && !vec_grow((void **)&b->pend, &b->cappend, sizeof *b->pend, 256)) { m->oom = true; return NONE; }
  memset(&b->pend[b->npend], 0, sizeof b->pend[0]);
  return b->npend++;
}

/* Record a request of SM s feeding pending value *pend (made on first use). */
static uint32_t add_req(memsys *m, ms_sm *s, uint32_t *pend, uint8_t kind, uint64_t t, double at, uint64_t addr) {
  if (pend && *pend == NONE && (*pend = new_pend(m, s)) == NONE) return NONE;
  ms_batch *b = &s->cur;
  if (b->nreq == b->capreq && !vec_grow((void **)&b->req, &b->capreq, sizeof *b->req, 256)) { m->oom = true; return NONE; }
  /* an SM's requests in the merge are in the order it made them: their
   * cycles never fall (the domain runs its events in cycle order; kept so
   * here, since memsys_serve_part's waits rely on it) */
  if (b->nreq && t < b->req[b->nreq - 1].t) t = b->req[b->nreq - 1].t;
  bool parts = m->windowed && m->parts > 1 && kind <= RQ_CODE;
  uint16_t lane = !parts ? 0 : kind == RQ_CODE ? MS_ALL_LANES : (uint16_t)l2_lane_of(&m->l2, addr);
  b->req[b->nreq] = (ms_req){ .t = t, .at = at, .addr = addr, .pend = pend ? *pend : NONE, .ref = NONE, .slot = NONE, .kind = kind, .lane = lane };
  if (parts) {
    ms_lane_list *L = &b->lane[lane == MS_ALL_LANES ? m->l2.lanes : lane];
    if (L->n == L->cap && !vec_grow((void **)&L->e, &L->cap, sizeof *L->e, 64)) { m->oom = true; return NONE; }
    L->e[L->n++] = (struct ms_lane_ref){ t, b->nreq };
  }
  return b->nreq++;
}

/* A hit on line ln whose fill is still a request (its ready is a mark):
 * the access waits for that request, of this batch or of the one closed
 * before it (the only marks a line can hold: memsys_publish clears the
 * older ones). */
static void add_dep(memsys *m, ms_sm *s, uint32_t *pend, uint64_t t, double at, uint64_t addr, const cache_line *ln) {
  uint64_t x = (uint64_t)-ln->ready;
  bool old = (x >> 32) != (m->batch & 0xfffff);
  uint32_t r = add_req(m, s, pend, old ? RQ_DEP_OLD : RQ_DEP, t, at, addr);
  if (r != NONE) s->cur.req[r].ref = (uint32_t)(x & 0xffffffffu) - 1;
}

/* Serve one request of batch b at L2 (and DRAM). */
static void serve(memsys *m, uint32_t smi, ms_batch *b, ms_req *r) {
  ms_sm *s = &m->sm[smi];
  uint32_t near = near_part(m, smi);
  switch (r->kind) {
  case RQ_READ:
    /* same_line: it shares the MSHR its request's earlier miss (ref)
     * took, and leaves as much later as that one waited for it (ack) */
    if (r->slot != NONE && r->same_line) r->at += b->req[r->ref].ack;
    else if (r->slot != NONE) { double at = dmax(r->at, s->mshr[r->slot]); r->ack = at - r->at; r->at = at; }
    r->res = l2_read_late(&m->l2, near, r->at, r->addr, r->arg * m->g->l2_miss_sector_cycles);
    if (r->slot != NONE) s->mshr[r->slot] = r->same_line ? dmax(s->mshr[r->slot], r->res) : r->res;
    break;
  case RQ_EXTRA: {
    /* another sector of a whole-line fill: leaves with the first */
    ms_req *p = &b->req[r->ref];
    p->res = dmax(p->res, l2_access(&m->l2, near, p->at, r->addr, L2_READ, 1));
    if (p->slot != NONE) s->mshr[p->slot] = p->res;
    break;
  }
  case RQ_ATOMIC: r->res = l2_access(&m->l2, near, r->at, r->addr, L2_ATOMIC, r->arg); break;
  case RQ_WRITE: {
    double merged, ack = l2_write(&m->l2, near, r->at, r->addr, r->arg, r->same_line, &merged);
    r->res = dmax(ack, merged) - m->g->lat_l2;
    r->ack = ack;
    break;
  }
  case RQ_CODE:
    for (uint64_t off = 0; off < r->arg; off += 32) l2_access(&m->l2, near, r->at, r->addr + off, L2_READ, 1);
    r->res = r->at;
    break;
  default: break;
  }
}

/* The cycle the line a request fills is ready: a line written through
 * (local stores) when L2 acknowledges. */
static double line_ready(const ms_req *f) { return f->kind == RQ_WRITE ? f->ack : f->res; }

/* v's value within batch b (number bn) being settled: its own codes have
 * theirs by now (an entry refers to earlier ones only); others stay. */
static uint64_t value_in(const ms_batch *b, uint32_t bn, uint64_t v) {
  if (!ms_is_pending(v) || batch_of(v) != (bn & BATCH_MASK)) return v;
  uint64_t i = v & INDEX_MASK;
  return i < b->npend ? b->pend[i].val : v;
}

/* After batch b's (number bn) requests are served: the values, and the
 * lines they fill (the SM's calls that could meet those lines are over). */
static void settle_batch(ms_batch *b, uint32_t bn) {
  for (uint32_t i = 0; i < b->nreq; i++) {
    ms_req *r = &b->req[i];
    if (r->kind == RQ_EXTRA || r->kind == RQ_CODE) continue;
    double line = r->kind == RQ_DEP ? line_ready(&b->req[r->ref]) : line_ready(r);
    double v = r->kind == RQ_DEP || r->kind == RQ_DEP_SET ? line : r->res;
    if (r->ln) {
      double mark = fill_mark(bn, i);
      if (r->ln->ready == mark) r->ln->ready = line;
    }
    if (r->pend != NONE) b->pend[r->pend].done = dmax(b->pend[r->pend].done, v);
  }
  for (uint32_t j = 0; j < b->npend; j++) {
    ms_pend *p = &b->pend[j];
    if (p->max) { uint64_t x = value_in(b, bn, p->a), y = value_in(b, bn, p->b); p->val = (x > y ? x : y) + p->add; }
    else p->val = p->t + (uint64_t)(p->done - (double)p->t + 0.5) + p->add;
  }
}

/* The SM's L1 counts into memsys's (serially: at once, or at publish). */
static void count_l1(memsys *m, ms_sm *s) {
  m->l1_hits += s->l1_hits;
  m->l1_lookups += s->l1_lookups;
  m->write_sectors += s->wsectors;
  s->l1_hits = s->l1_lookups = s->wsectors = 0;
}

/* The result of a call that recorded requests feeding pending value pend
 * (NONE: none) with `done` known so far: served now, or pending. */
static uint64_t finish(memsys *m, uint32_t smi, uint64_t t, double done, uint32_t pend) {
  ms_sm *s = &m->sm[smi];
  if (!m->windowed) count_l1(m, s);
  if (pend == NONE) {
    if (!m->windowed) {                /* requests without a result (code) */
      for (uint32_t i = 0; i < s->cur.nreq; i++) serve(m, smi, &s->cur, &s->cur.req[i]);
      clear_sm(m, s);
    }
    return (uint64_t)(done - (double)t + 0.5);
  }
  s->cur.pend[pend].t = t;
  s->cur.pend[pend].done = done;
  if (m->windowed) { s->pend_code = code_of(m->batch, pend); return MS_PENDING; }
  for (uint32_t i = 0; i < s->cur.nreq; i++) serve(m, smi, &s->cur, &s->cur.req[i]);
  settle_batch(&s->cur, m->batch);
  uint64_t v = s->cur.pend[pend].val;
  clear_sm(m, s);
  return v - t;
}

void memsys_windowed(memsys *m, bool on) { m->windowed = on; }

uint64_t memsys_pend_max(memsys *m, uint32_t smi, uint64_t a, uint64_t b) {
  if (!ms_is_pending(a) && !ms_is_pending(b)) return a > b ? a : b;
  if (!a || a == b) return b;
  if (!b) return a;
  ms_sm *s = &m->sm[smi];
  uint32_t j = new_pend(m, s);
  if (j == NONE) return ms_is_pending(a) ? a : b;
  s->cur.pend[j].max = true;
  s->cur.pend[j].a = a;
  s->cur.pend[j].b = b;
  return code_of(m->batch, j);
}

void memsys_pend_add(memsys *m, uint32_t smi, uint64_t code, uint64_t add) {
  ms_sm *s = &m->sm[smi];
  if (ms_is_pending(code) && batch_of(code) == (m->batch & BATCH_MASK) && (code & INDEX_MASK) < s->cur.npend)
    s->cur.pend[code & INDEX_MASK].add += add;
}

/* v is a value, or a code of the served batch once `settled` */
static bool known_if(const memsys *m, bool settled, uint64_t v) {
  return !ms_is_pending(v) || (m->has_old && settled && batch_of(v) == ((m->batch - 1) & BATCH_MASK));
}

bool memsys_known(const memsys *m, uint64_t v) { return known_if(m, m->old_served, v); }

bool memsys_known_on(const memsys *m, uint32_t smi, uint64_t v) { return known_if(m, m->old_served || m->sm[smi].settled, v); }

bool memsys_lost(const memsys *m, uint64_t v) {
  if (!ms_is_pending(v)) return false;
  uint32_t made = m->batch & BATCH_MASK, age = (made - batch_of(v)) & BATCH_MASK;
  return age > 1 && age < (1u << 30);    /* older than the batch served (or being served) */
}

uint64_t memsys_value(const memsys *m, uint32_t smi, uint64_t v) {
  return memsys_known_on(m, smi, v) ? value_in(&m->sm[smi].old, m->batch - 1, v) : v;
}

int memsys_edge_switch(memsys *m, uint32_t k) {
  ms_sm *s = &m->sm[k];
  /* what the closing batch took from the served one */
  for (uint32_t i = 0; i < s->cur.nreq; i++) {
    ms_req *r = &s->cur.req[i];
    if (r->kind != RQ_DEP_OLD) continue;
    if (!(m->old_served || s->settled) || r->ref >= s->old.nreq) return -1;   /* (a mark of no served batch: an internal error) */
    r->res = line_ready(&s->old.req[r->ref]);
    r->kind = RQ_DEP_SET;
  }
  for (uint32_t j = 0; j < s->cur.npend; j++) {
    ms_pend *p = &s->cur.pend[j];
    if (p->max) { p->a = memsys_value(m, k, p->a); p->b = memsys_value(m, k, p->b); }
  }
  ms_batch t = s->old;
  s->old = s->cur;
  s->cur = t;
  clear_sm(m, s);
  s->settled = false;
  return 0;
}

/* memsys_switch's part after every SM's */
static void switch_end(memsys *m) {
  m->old_nreq = 0;
  for (uint32_t k = 0; k < m->nsm; k++) m->old_nreq += m->sm[k].old.nreq;
  m->has_old = true;
  m->old_served = false;
  m->batch++;
}

int memsys_switch(memsys *m) {
  for (uint32_t k = 0; k < m->nsm; k++) if (memsys_edge_switch(m, k)) return -1;
  switch_end(m);
  return 0;
}

void memsys_edge_end(memsys *m) {
  memsys_publish(m);
  switch_end(m);
}

bool memsys_unserved(const memsys *m) {
  if (!m->has_old || m->old_served) return false;
  for (uint32_t i = 0; i < m->nsm; i++) if (m->sm[i].old.nreq || m->sm[i].old.npend) return true;
  return false;
}

/* A request's place in the merge: its cycle, SM and index on the SM. */
typedef struct ms_ref { uint64_t t; uint32_t sm, i; } ms_ref;

static int ref_order(const void *a, const void *b) {
  const ms_ref *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* Whether part `part` of n serves request r (RQ_CODE: its sectors of the
 * part's lanes; the dependencies need no serving). */
static bool part_serves(const ms_req *r, uint32_t part, uint32_t n) {
  if (r->kind > RQ_CODE) return false;
  return r->lane == MS_ALL_LANES || r->lane % n == part;
}

/* Append request i of SM sm (cycle t) to ord, widening the span. */
static void add_ref(ms_ref *ord, uint64_t *k, uint64_t *lo, uint64_t *hi, uint64_t t, uint32_t sm, uint32_t i) {
  ord[(*k)++] = (ms_ref){ t, sm, i };
  if (t < *lo) *lo = t;
  if (t > *hi) *hi = t;
}

static void add_list(const ms_lane_list *L, uint32_t sm, ms_ref *ord, uint64_t *k, uint64_t *lo, uint64_t *hi) {
  for (uint32_t j = 0; j < L->n; j++) add_ref(ord, k, lo, hi, L->e[j].t, sm, L->e[j].i);
}

/* ord (k requests of cycles lo .. hi, each SM's in its order) by (cycle,
 * SM, order on the SM): a counting sort over the cycles they span (a
 * window's few hundred), stable, so each SM's stay in order; `relist`:
 * an SM's requests came lane list by lane list, so those of one cycle are
 * put in the SM's order again (insertion: they nearly are).  -1 when out
 * of memory. */
static int sort_refs(ms_ref **ord, uint64_t k, uint64_t lo, uint64_t hi, bool relist) {
  uint64_t span = hi - lo + 1;
  if (span > (1u << 16)) { qsort(*ord, k, sizeof **ord, ref_order); return 0; }
  uint32_t *cnt = calloc(span + 1, sizeof *cnt);
  ms_ref *out = malloc(k * sizeof *out), *in = *ord;
  if (!cnt || !out) { free(cnt); free(out); return -1; }
  for (uint64_t j = 0; j < k; j++) cnt[in[j].t - lo + 1]++;
  for (uint64_t c = 1; c <= span; c++) cnt[c] += cnt[c - 1];
  for (uint64_t j = 0; j < k; j++) out[cnt[in[j].t - lo]++] = in[j];
  for (uint64_t j = 1; relist && j < k; j++) {
    ms_ref v = out[j];
    uint64_t p = j;
    while (p > 0 && ref_order(&out[p - 1], &v) > 0) { out[p] = out[p - 1]; p--; }
    out[p] = v;
  }
  free(cnt);
  free(in);
  *ord = out;
  return 0;
}

/* The closed batch's requests that part `part` of n serves, in (cycle, SM,
 * order on the SM) order.  One part reads every request; several read
 * their lanes' lists only (lanes part, part + n, ..., then RQ_CODE's).
 * *out: malloc'd; NULL when there are none. */
static int merge_order(const memsys *m, uint32_t part, uint32_t n, ms_ref **out, uint64_t *count) {
  uint32_t nl = m->l2.lanes;
  uint64_t cap = 0, k = 0, lo = UINT64_MAX, hi = 0;
  *out = NULL;
  *count = 0;
  for (uint32_t i = 0; i < m->nsm; i++) {
    const ms_batch *b = &m->sm[i].old;
    if (n < 2) { cap += b->nreq; continue; }
    for (uint32_t l = part; l < nl; l += n) cap += b->lane[l].n;
    cap += b->lane[nl].n;
  }
  if (!cap) return 0;
  ms_ref *ord = malloc(cap * sizeof *ord);
  if (!ord) return -1;
  for (uint32_t i = 0; i < m->nsm; i++) {
    const ms_batch *b = &m->sm[i].old;
    if (n < 2) {
      for (uint32_t j = 0; j < b->nreq; j++) if (b->req[j].kind <= RQ_CODE) add_ref(ord, &k, &lo, &hi, b->req[j].t, i, j);
      continue;
    }
    for (uint32_t l = part; l < nl; l += n) add_list(&b->lane[l], i, ord, &k, &lo, &hi);
    add_list(&b->lane[nl], i, ord, &k, &lo, &hi);
  }
  if (k && sort_refs(&ord, k, lo, hi, n >= 2)) { free(ord); return -1; }
  if (!k) { free(ord); ord = NULL; }
  *out = ord;
  *count = k;
  return 0;
}

int memsys_serve(memsys *m) {
  if (memsys_serve_part(m, 0, 1)) return -1;
  return memsys_serve_end(m);
}

uint32_t memsys_max_parts(const memsys *m) { return m->l2.lanes; }

void memsys_set_parts(memsys *m, uint32_t n) { m->parts = n; }

uint32_t memsys_serve_split(const memsys *m) {
  uint64_t n = m->old_nreq / MS_PART_REQUESTS;
  return n < 2 || m->parts < 2 ? 1 : n < m->parts ? (uint32_t)n : m->parts;
}

/* Wait until another part has served request d. */
static void wait_served(const ms_req *d) {
  for (uint32_t spins = 0; !atomic_load_explicit(&d->served, memory_order_acquire); spins++) spin_step(spins);
}

int memsys_serve_part(memsys *m, uint32_t part, uint32_t n) {
  if (!m->has_old || m->old_served || part >= n) return 0;
  if (n > 1 && n > m->parts) return -1;   /* (the requests noted no lanes: an internal error) */
  ms_ref *ord;
  uint64_t k;
  if (merge_order(m, part, n, &ord, &k)) {
    /* the other parts may wait for these: marked served, unserved (the
     * launch fails for the memory) */
    for (uint32_t i = 0; i < m->nsm; i++)
      for (uint32_t j = 0; j < m->sm[i].old.nreq; j++)
        if (part_serves(&m->sm[i].old.req[j], part, n)) atomic_store_explicit(&m->sm[i].old.req[j].served, 1, memory_order_release);
    return -1;
  }
  for (uint64_t j = 0; j < k; j++) {
    ms_batch *b = &m->sm[ord[j].sm].old;
    ms_req *r = &b->req[ord[j].i];
    if (r->kind == RQ_CODE) {
      /* its sectors of this part's lanes */
      uint32_t near = near_part(m, ord[j].sm);
      for (uint64_t off = 0; off < r->arg; off += 32)
        if (l2_lane_of(&m->l2, r->addr + off) % n == part) l2_access(&m->l2, near, r->at, r->addr + off, L2_READ, 1);
      if (part == 0) r->res = r->at;   /* (its one writer) */
      continue;
    }
    /* a new holder of an MSHR waits for the time its last writer of this
     * batch, earlier in the order, gives it */
    if (r->kind == RQ_READ && r->slot != NONE && !r->same_line && r->ref < ord[j].i && b->req[r->ref].lane % n != part)
      wait_served(&b->req[r->ref]);
    serve(m, ord[j].sm, b, r);
    atomic_store_explicit(&r->served, 1, memory_order_release);
  }
  free(ord);
  return 0;
}

int memsys_serve_end(memsys *m) {
  if (!m->has_old || m->old_served) return 0;
  for (uint32_t i = 0; i < m->nsm; i++) memsys_edge_settle(m, i);
  m->old_served = true;
  return 0;
}

void memsys_edge_settle(memsys *m, uint32_t smi) {
  ms_sm *s = &m->sm[smi];
  if (!m->has_old || m->old_served || s->settled) return;
  if (s->old.nreq || s->old.npend) settle_batch(&s->old, m->batch - 1);
  s->settled = true;
}

void memsys_publish(memsys *m) {
  for (uint32_t i = 0; i < m->nsm; i++) count_l1(m, &m->sm[i]);
}

int memsys_settle(memsys *m) {
  if (memsys_switch(m) || memsys_serve(m)) return -1;
  memsys_publish(m);
  return m->oom ? -1 : 0;
}

uint64_t memsys_settled_max_on(const memsys *m, uint32_t smi) {
  uint64_t hi = 0;
  if (!m->has_old || !(m->old_served || m->sm[smi].settled)) return 0;
  for (uint32_t j = 0; j < m->sm[smi].old.npend; j++) if (m->sm[smi].old.pend[j].val > hi) hi = m->sm[smi].old.pend[j].val;
  return hi;
}

uint64_t memsys_settled_max(const memsys *m) {
  uint64_t hi = 0;
  if (!m->has_old || !m->old_served) return 0;
  for (uint32_t i = 0; i < m->nsm; i++) { uint64_t v = memsys_settled_max_on(m, i); if (v > hi) hi = v; }
  return hi;
}

void memsys_clear(memsys *m) {
  for (uint32_t i = 0; i < m->nsm; i++) {
    clear_sm(m, &m->sm[i]);
    memset(m->sm[i].mshr_batch, 0, m->g->l1_mshrs * sizeof *m->sm[i].mshr_batch);
    m->sm[i].old.nreq = m->sm[i].old.npend = 0;
    clear_lanes(&m->sm[i].old, m->l2.lanes);
    m->sm[i].settled = false;
  }
  m->has_old = m->old_served = false;
  m->old_nreq = 0;
}

/* l1_store_buffer_bytes: when the L1's buffer of stores for its pipeline
 * has room for one of need bytes that came at t.  The stores the pipeline
 * started by t are gone; while the rest leave no room, the oldest goes
 * first (the ring's order; so do MS_SBUF_MAX stores). */
static double sbuf_room(ms_sm *s, const gpu_config *g, uint32_t need, uint64_t t) {
  uint32_t cap = g->l1_store_buffer_bytes;
  double room = 0;
  while (s->sbuf_n) {
    const struct ms_sbuf *b = &s->sbuf[s->sbuf_head];
    bool full = s->sbuf_bytes + need > cap || s->sbuf_n == MS_SBUF_MAX;
    if (!full && b->start > (double)t) break;
    room = dmax(room, b->start);
    s->sbuf_bytes -= b->bytes;
    s->sbuf_head = (s->sbuf_head + 1) % MS_SBUF_MAX;
    s->sbuf_n--;
  }
  return room;
}

/* ... and the store, there until the pipeline starts it */
static void sbuf_push(ms_sm *s, double start, uint32_t need) {
  s->sbuf[(s->sbuf_head + s->sbuf_n) % MS_SBUF_MAX] = (struct ms_sbuf){ start, need };
  s->sbuf_n++;
  s->sbuf_bytes += need;
}

/* The SM's write link to L2 takes one sector every 32 /
 * l2_write_bytes_per_cycle cycles, full or partial, and each line a
 * request writes (a packet: its first sector) l2_write_line_cycles more
 * (H100: a scattered 4-byte store's sector 2 cycles, a coalesced line's
 * four sectors 5); returns when this one goes. */
static double port_take(double *free_at, double t, const gpu_config *g, bool first_of_line) {
  double at = dmax(t, *free_at);
  *free_at = at + 32.0 / g->l2_write_bytes_per_cycle + (first_of_line ? g->l2_write_line_cycles : 0);
  return at;
}

/* Distinct lines (of 2^shift sectors) among n distinct sectors; again[k]:
 * an earlier sector is of sector k's line; ord[k]: that line's place among
 * the request's lines (0: the first). */
static uint32_t lines_of(const uint64_t *sec, uint32_t n, uint32_t shift, bool *again, uint8_t *ord) {
  uint32_t lines = 0;
  bool rising = true;           /* sectors in rising order: a line's are together */
  for (uint32_t k = 0; k < n; k++) {
    uint32_t j = 0;
    if (k && rising && sec[k] > sec[k - 1]) j = sec[k - 1] >> shift == sec[k] >> shift ? k - 1 : k;
    else {
      if (k) rising = false;
      while (j < k && sec[j] >> shift != sec[k] >> shift) j++;
    }
    ord[k] = (uint8_t)(j < k ? ord[j] : lines);
    lines += j == k;
    again[k] = j < k;
  }
  return lines;
}

/* For each of the n sectors: the most lanes of the mask that update one
 * address in it (same-address updates are performed one after another:
 * the sector's passes).  Returns the request's passes through the SM's
 * atomic unit (l1_atomic_cycles): a sector's passes, and where a pass
 * updates several words of it, a cycle more for each pass after its first
 * ([M] tests/microbench mb_atomic3, 8 warps on an SM, cycles a request:
 * 32 lanes on one word 32, 16 on each of two words of a sector 32, 8 on
 * each of four 16, 4 on each of eight 8, a word each in 4 sectors 4, in 32
 * sectors or lines 33-40). */
static uint32_t atomic_serial(const uint64_t *addr, uint32_t mask, const uint64_t *sec, uint32_t n, uint32_t *serial) {
  uint32_t words[64];
  for (uint32_t k = 0; k < n; k++) serial[k] = 1, words[k] = 0;
  for (uint32_t rest = mask; rest;) {
    int i = __builtin_ctz(rest);
    uint32_t same = 0;
    for (uint32_t r = rest; r;) {
      int j = __builtin_ctz(r);
      r &= r - 1;
      if (addr[j] == addr[i]) { same++; rest &= ~(1u << j); }
    }
    for (uint32_t k = 0; k < n; k++)
      if (sec[k] == addr[i] >> 5) { words[k]++; if (same > serial[k]) serial[k] = same; }
  }
  uint32_t passes = 0;
  for (uint32_t k = 0; k < n; k++) passes += words[k] > 1 ? 2 * serial[k] - 1 : serial[k];
  return passes;
}

/* Request r of the batch being made writes MSHR slot's time (served);
 * noted where the batches are served in parts (memsys_serve_part). */
static void note_writer(memsys *m, ms_sm *s, uint32_t slot, uint32_t r) {
  if (m->parts < 2) return;
  s->mshr_writer[slot] = r;
  s->mshr_batch[slot] = m->batch + 1;
}

/* l1_mshr_lines: the MSHR a line's first miss in a request took, and that
 * miss's request (slot NONE: none yet). */
typedef struct line_mshr { uint32_t slot, req; } line_mshr;

/* Read request r of SM s holds MSHR slot: its own, noted in *ln (NULL:
 * no sharing), or, where ln has one already, its line's. */
static void take_slot(memsys *m, ms_sm *s, uint32_t r, uint32_t slot, line_mshr *ln) {
  ms_req *q = &s->cur.req[r];
  q->slot = slot;
  bool shares = ln && ln->slot != NONE;
  if (shares) { q->same_line = true; q->ref = ln->req; }
  else if (ln) *ln = (line_mshr){ slot, r };
  /* the request whose time of the MSHR a new holder waits for, when it is
   * of this batch (memsys_serve_part) */
  if (!shares && m->parts > 1 && s->mshr_batch[slot] == m->batch + 1) q->ref = s->mshr_writer[slot];
  note_writer(m, s, slot, r);
}

uint64_t memsys_global(memsys *m, uint32_t smi, uint64_t t, const uint64_t *addr, uint32_t mask, uint32_t bytes,
                       enum ms_op op, enum ms_path path) {
  const gpu_config *g = m->g;
  ms_sm *s = &m->sm[smi];
  /* the sectors, and below the lines and bank wavefronts, of the SM's
   * last access with this lane pattern, where the lanes moved by whole
   * lines (pattern_memo.h) */
  struct ms_global_geo *geo = &s->global_geo;
  uint64_t sec[64];
  const uint32_t *touched = geo->touched;
  uint32_t n;
  if (pattern_memo_same(&geo->p, addr, mask, bytes, m->line_align)) {
    n = geo->n;
    for (uint32_t k = 0; k < n; k++) sec[k] = geo->sec[k] + (geo->p.first >> 5);
  } else {
    uint32_t lanes[64];
    n = geo->n = mm_sector_bytes(addr, mask, bytes, sec, lanes, geo->touched);
    for (uint32_t k = 0; k < n; k++) geo->sec[k] = sec[k] - (geo->p.first >> 5);
    geo->has_lines = geo->has_per = false;
  }
  if (!n) return 1;
  cache *c = NULL;
  uint32_t f16 = op & MS_F16 ? L2_F16 : 0;
  op &= ~MS_F16;
  bool atomic = op == MS_ATOMIC || op == MS_ATOMIC_WARP || op == MS_RED;
  if (!atomic) {
    if (path == MS_LOCAL) c = &s->l1;
    else if (path == MS_READONLY) c = s->has_ro ? &s->ro : &s->l1;
    else if (path == MS_CACHED && g->l1_caches_global) c = &s->l1;
  }
  /* the L1 takes l1_sectors_per_cycle sectors, but one tag lookup per
   * line: an access spread over many lines takes a cycle per line or so.
   * With l1_data_banks a load's hits take a cycle per wavefront of its
   * data banks (4-byte words of 32 banks, as shared memory's bank
   * conflicts): hits in lines whose words lie in other banks are read
   * together; its lines that miss still take a cycle each (below) */
  double busy = (double)n / g->l1_sectors_per_cycle;
  bool banked = g->l1_data_banks && op == MS_LOAD && g->l1_lines_per_cycle > 0 && path != MS_TMA;
  uint64_t missed = 0;             /* banked: the lines (ord) with a miss */
  const bool *again = geo->again;  /* set by lines_of: stores read it */
  const uint8_t *ord = geo->ord;   /* ... and misses, where l1_miss_line_cycles or l1_mshr_lines */
  double own_extra = 0;            /* banked: a hit's own lines and wavefronts, beyond lat_l1 */
  line_mshr lm[64];                /* ... and each line's MSHR, with l1_mshr_lines */
  if (g->l1_lines_per_cycle > 0 || op == MS_STORE || g->l1_miss_line_cycles > 0 || g->l1_mshr_lines) {
    if (!geo->has_lines) {
      geo->lines = lines_of(sec, n, s->l1.line_shift > 5 ? s->l1.line_shift - 5 : 0, geo->again, geo->ord);
      geo->has_lines = true;
    }
    uint32_t lines = geo->lines;
    if (banked && !geo->has_per) {
      uint32_t ideal;
      geo->per = mm_shared_wavefronts(addr, mask, bytes, &ideal);
      geo->has_per = true;
    }
    uint32_t per = banked ? geo->per : lines;
    if (g->l1_lines_per_cycle > 0) busy = dmax(busy, per / g->l1_lines_per_cycle);
    /* the request's own lines pass the tag stage, then its data comes a
     * wavefront at a time, shared_replay_cycles apart as a shared load's:
     * the L1 overlaps these stages across requests (busy), one request's
     * hit latency has both */
    if (banked)
      own_extra = (per - 1) * (g->shared_replay_cycles > 0 ? g->shared_replay_cycles : 1) +
                  (g->l1_hit_lines_per_cycle > 0 ? (lines - 1) / g->l1_hit_lines_per_cycle : 0);
    if (g->l1_mshr_lines) for (uint32_t i = 0; i < lines; i++) lm[i].slot = NONE;
  }
  /* a store's bytes, which the L1 holds until its pipeline starts the
   * store (l1_store_buffer_bytes) */
  bool sbuf_keep = op == MS_STORE && path != MS_TMA && g->l1_store_buffer_bytes;
  uint32_t sbuf_need = 0;
  if (sbuf_keep) for (uint32_t k = 0; k < n; k++) sbuf_need += (uint32_t)__builtin_popcount(touched[k]);
  if (sbuf_need > g->l1_store_buffer_bytes) sbuf_need = g->l1_store_buffer_bytes;   /* (a larger store fills it) */
  double last_out = 0;             /* (a store: when its last sector leaves on the write link) */
  /* (a global load took the request's floor at the SM's LSU port: lsu_port) */
  if (!(g->lsu_port && op == MS_LOAD && path != MS_LOCAL)) busy = dmax(busy, g->l1_request_cycles);
  double start;
  /* a bulk copy's pieces leave from the SM's TMA at its own rate, lat_tma
   * after the copy's issue, by neither the L1's pipeline nor its MSHRs */
  bool tma = path == MS_TMA && g->tma_bytes_per_cycle > 0;
  double piece = tma ? 32.0 / g->tma_bytes_per_cycle : 0;
  if (tma) {
    start = dmax((double)t + g->lat_tma, s->tma_free);
    s->tma_free = start + n * piece;
  } else {
    start = dmax((double)t + (path == MS_TMA ? g->lat_tma : 0), s->l1_free);
    s->l1_free = start + busy;
    /* with l1_accept_cycles, the L1 takes a request (reads its registers,
     * frees its LG queue place) at its own rate; its lines queue inside.
     * With l1_store_buffer_bytes, a store once its bytes fit in the
     * buffer ahead of the pipeline (the pipeline starts it no sooner than
     * before: room is when older stores left the buffer for it) */
    double room = sbuf_keep ? sbuf_room(s, g, sbuf_need, t) : 0;
    double taken = dmax(dmax((double)t, s->l1_accept), room);
    s->l1_accept = taken + g->l1_accept_cycles;
    if (op == MS_STORE) s->store_taken = taken;
  }
  double done = start + 1;
  uint32_t pend = NONE;
  /* atomics: updates of one address serialise at the L2 slice, distinct
   * addresses of a sector are updated together ([M] tests/microbench
   * mb_atomic: 32 lanes on one word ~5x slower than on 32 words of a line) */
  uint32_t serial[64], passes = atomic ? atomic_serial(addr, mask, sec, n, serial) : 0;
  /* the SM's atomic unit takes the request after the L1's pipeline and
   * sends it to L2 when done with it (a bulk reduction: the TMA's) */
  if (atomic && !tma && g->l1_atomic_cycles > 0) {
    start = dmax(start, s->atom_free);
    s->atom_free = start + (op == MS_ATOMIC_WARP ? 1 : passes) * g->l1_atomic_cycles;
    start = s->atom_free;
  }
  if (atomic) s->atom_sent = start;
  for (uint32_t k = 0; k < n; k++) {
    uint64_t a = sec[k] << 5;
    if (tma) {                     /* (a piece each piece's time apart) */
      double at = start + k * piece;
      uint32_t r = add_req(m, s, &pend, atomic ? RQ_ATOMIC : op == MS_STORE ? RQ_WRITE : RQ_READ, t,
                           op == MS_STORE ? port_take(&s->wport_free, at, g, !again[k]) : at, a);
      if (r == NONE) continue;
      if (atomic) s->cur.req[r].arg = serial[k];
      else if (op == MS_STORE) { s->wsectors++; s->cur.req[r].arg = touched[k]; s->cur.req[r].same_line = again[k]; }
      continue;
    }
    if (atomic) {
      uint32_t r = add_req(m, s, &pend, RQ_ATOMIC, t, start, a);
      if (r != NONE) s->cur.req[r].arg = (op == MS_ATOMIC_WARP ? 1 : serial[k]) | (op == MS_RED ? L2_NO_RETURN : 0) | f16;
      continue;
    }
    if (op == MS_STORE) {
      cache_line *wl = NULL;
      if (c && (g->l1_store_allocate || path == MS_LOCAL)) {
        bool hit;
        wl = cache_ref(c, a, true, &hit, NULL);
        s->l1_lookups++;
        s->l1_hits += hit;
      } else if (c || path == MS_CACHED) {
        cache_invalidate(&s->l1, a);
        if (s->has_ro) cache_invalidate(&s->ro, a);
      }
      /* a sector still waiting for the write link takes this store's
       * bytes too: one packet, one L2 write (l1_store_combine) */
      struct ms_wq *q = s->wq && path != MS_LOCAL && m->windowed ? &s->wq[wq_slot(sec[k])] : NULL;
      if (q) s->hseq++;
      if (q && wq_joins(g, s, q, sec[k], start, (double)t)) {
        s->cur.req[q->req].arg |= touched[k];
        q->last = start;
        q->hseq = s->hseq;
        last_out = dmax(last_out, q->out);
        continue;
      }
      /* write-through over the SM's write link; the L1's pipeline stalls
       * when the link's queue is longer than one L2 round trip, and so
       * does its taking of requests, but where the stores' buffer takes
       * them (a store's registers are the warp's again once the L1 has
       * taken it: emu/timing.c war_wait) */
      double out = port_take(&s->wport_free, start, g, !again[k]);
      last_out = dmax(last_out, out);
      if (out - start > g->lat_l2) {
        s->l1_free = dmax(s->l1_free, out - g->lat_l2);
        if (!g->l1_store_buffer_bytes) s->l1_accept = dmax(s->l1_accept, out - g->lat_l2);
      }
      /* the kernel is not over before its stores are in L2 (a partial
       * write's sector read from DRAM included); a store the buffer took
       * is made a request where the pipeline starts it (its place among
       * the SMs' requests at L2) */
      uint32_t r = add_req(m, s, &pend, RQ_WRITE, sbuf_keep ? (uint64_t)start : t, out, a);
      if (r == NONE) continue;
      s->wsectors++;
      s->cur.req[r].arg = touched[k];
      s->cur.req[r].same_line = again[k];
      if (q) *q = (struct ms_wq){ sec[k], ++s->wseq, s->hseq, out, start, r, s->wgen };
      /* a load of a local line waits until L2 has acknowledged its
       * write-through ([M] tests/microbench mb_stack local_16..256: a local
       * array's load after stores to its lines takes an L2 round trip) */
      if (wl && path == MS_LOCAL) mark_fill(m, s, r, wl);
      continue;
    }
    /* with l1_mshr_lines a request's misses of one line share the MSHR
     * the first of them took */
    line_mshr *lmk = g->l1_mshr_lines ? &lm[ord[k]] : NULL;
    bool shares = lmk && lmk->slot != NONE;
    uint32_t slot = shares ? lmk->slot : mshr_take(s, g->l1_mshrs);
    /* a request's misses leave the L1 line after line ([M] calibrate
     * hops_l2_again_warp: 32 lanes chasing near-partition L2 lines, a
     * line each, take 217 cycles a hop more than one lane) */
    double leave = g->l1_miss_line_cycles > 0 ? start + ord[k] * g->l1_miss_line_cycles : start;
    /* ... and where it misses in L2 too, it leaves the slice for DRAM its
     * place among the request's sectors (k, its arg) times
     * l2_miss_sector_cycles after its lookup (serve) */
    if (!c) {
      if (banked) missed |= 1ull << (ord[k] & 63);
      uint32_t r = add_req(m, s, &pend, RQ_READ, t, leave, a);
      if (r != NONE) { take_slot(m, s, r, slot, lmk); s->cur.req[r].arg = k; }
      continue;
    }
    bool hit;
    cache_line *ln = cache_ref(c, a, true, &hit, NULL);
    s->l1_lookups++;
    if (hit) {
      if (!shares) s->mshr_next = (s->mshr_next + g->l1_mshrs - 1) % g->l1_mshrs;   /* a hit takes no MSHR */
      s->l1_hits++;
      done = dmax(done, start + g->lat_l1 + own_extra);   /* (own_extra: above) */
      /* a hit on a fill in flight waits for it */
      if (ln->ready >= 0) done = dmax(done, ln->ready);
      else add_dep(m, s, &pend, t, start, a, ln);
      continue;
    }
    /* a miss fetches its sector, or every missing sector of the line when
     * the L1 fills whole lines (Fermi/Kepler 128-byte lines) */
    if (banked) missed |= 1ull << (ord[k] & 63);
    uint32_t r = add_req(m, s, &pend, RQ_READ, t, leave, a);
    if (r == NONE) continue;
    take_slot(m, s, r, slot, lmk);
    s->cur.req[r].arg = k;
    mark_fill(m, s, r, ln);
    if (g->l1_fill_bytes > c->sector_bytes) {
      uint64_t base = a & ~(uint64_t)(g->l1_fill_bytes - 1);
      for (uint64_t o = 0; o < g->l1_fill_bytes; o += 32) {
        if (base + o == a) continue;
        uint32_t bit = cache_sector_bit(c, base + o);
        if (ln->sectors & bit) continue;
        ln->sectors |= bit;
        uint32_t x = add_req(m, s, NULL, RQ_EXTRA, t, start, base + o);
        if (x != NONE) { s->cur.req[x].ref = r; note_writer(m, s, slot, x); }
      }
    }
  }
  if (banked && missed)
    s->l1_free = dmax(s->l1_free, start + popc64(missed) / g->l1_lines_per_cycle);
  if (op == MS_STORE && !tma) s->store_out = dmax(last_out, start);
  if (sbuf_keep) sbuf_push(s, start, sbuf_need);
  return finish(m, smi, t, done, pend);
}

uint64_t memsys_shared(memsys *m, uint32_t smi, uint64_t t, const uint64_t *off, uint32_t mask, uint32_t bytes,
                       double *own, uint64_t *begins, uint32_t *wf_out, uint32_t *ideal_out) {
  ms_sm *s = &m->sm[smi];
  /* the wavefronts of the SM's last access with this lane pattern, where
   * the lanes moved by whole banks (pattern_memo.h) */
  struct ms_shared_geo *geo = &s->shared_geo;
  uint32_t ideal, wf;
  if (pattern_memo_same(&geo->p, off, mask, bytes, m->bank_align)) { wf = geo->wf; ideal = geo->ideal; }
  else {
    wf = geo->wf = mm_shared_wavefronts_mode(off, mask, bytes, m->g->shared_bank_bytes, m->g->shared_bank_mode, &ideal);
    geo->ideal = ideal;
  }
  *wf_out = wf;
  *ideal_out = ideal;
  return memsys_shared_wavefronts(m, smi, t, wf, own, begins);
}

uint64_t memsys_shared_wavefronts(memsys *m, uint32_t smi, uint64_t t, uint32_t wf, double *own, uint64_t *begins) {
  ms_sm *s = &m->sm[smi];
  double *free_at = m->g->l1_shared_pipe ? &s->l1_free : &s->shared_free;
  /* the pipe takes a wavefront a cycle, but one access's own come every
   * shared_replay_cycles: another warp's fill the gaps, the same warp's
   * next access's do not (it begins the cycle after the last of them; the
   * pipe's share is booked in arrival order, as other warps would fill it) */
  double rc = m->g->shared_replay_cycles > 0 ? m->g->shared_replay_cycles : 1;
  double start = dmax((double)t, *free_at);
  *free_at = start + wf;
  if (own) { start = dmax(start, *own); *own = start + (wf - 1) * rc + 1; }
  *begins = (uint64_t)(start + 0.5);
  return (uint64_t)(start - (double)t) + m->g->lat_shared + (uint64_t)((wf - 1) * rc + 0.5);
}

uint64_t memsys_atomic_sent(const memsys *m, uint32_t smi) { return (uint64_t)(m->sm[smi].atom_sent + 0.5); }
uint64_t memsys_store_taken(const memsys *m, uint32_t smi) { return (uint64_t)(m->sm[smi].store_taken + 0.5); }
uint64_t memsys_store_out(const memsys *m, uint32_t smi) { return (uint64_t)(m->sm[smi].store_out + 0.5); }

double memsys_const_port(memsys *m, uint32_t smi, uint64_t t, double cycles) {
  ms_sm *s = &m->sm[smi];
  double start = dmax((double)t, s->const_free);
  s->const_free = start + cycles;
  return start;
}

uint64_t memsys_const(memsys *m, uint32_t smi, uint64_t t, const uint64_t *addr, uint32_t mask, uint32_t bytes, double port_cycles) {
  ms_sm *s = &m->sm[smi];
  (void)bytes;
  /* lanes reading one address share it (broadcast); distinct addresses
   * are served one per cycle */
  uint64_t seen[32];
  uint32_t n = 0;
  for (int i = 0; i < 32; i++) {
    if (!(mask >> i & 1)) continue;
    uint32_t k = 0;
    while (k < n && seen[k] != addr[i]) k++;
    if (k == n) seen[n++] = addr[i];
  }
  if (!n) return 1;
  double start = memsys_const_port(m, smi, t, n * (port_cycles > 0 ? port_cycles : 1));
  double done = start + m->g->lat_l1 + n - 1;
  uint32_t pend = NONE;
  for (uint32_t k = 0; k < n; k++) {
    bool hit;
    cache_line *ln = cache_ref(&s->cst, seen[k], true, &hit, NULL);
    if (hit && ln->ready >= 0) { done = dmax(done, ln->ready); continue; }
    if (hit) { add_dep(m, s, &pend, t, start + k, seen[k] & ~31ull, ln); continue; }
    uint32_t r = add_req(m, s, &pend, RQ_READ, t, start + k, seen[k] & ~31ull);
    if (r != NONE) mark_fill(m, s, r, ln);
  }
  return finish(m, smi, t, done, pend);
}

uint64_t memsys_param(memsys *m, uint32_t smi, uint64_t t, const uint64_t *addr, uint32_t mask) {
  ms_sm *s = &m->sm[smi];
  double done = (double)t;
  uint32_t pend = NONE;
  for (int i = 0; i < 32; i++) {
    if (!(mask >> i & 1)) continue;
    bool hit;
    cache_line *ln = cache_ref(&s->cst, addr[i], true, &hit, NULL);
    if (!hit && m->g->imc_miss_cycles) ln->ready = (double)(t + m->g->imc_miss_cycles);
    else if (!hit || ln->ready < 0) {
      if (hit) add_dep(m, s, &pend, t, (double)t, addr[i] & ~31ull, ln);
      else { uint32_t r = add_req(m, s, &pend, RQ_READ, t, (double)t, addr[i] & ~31ull); if (r != NONE) mark_fill(m, s, r, ln); }
      break;
    }
    done = dmax(done, ln->ready);
    break;                          /* one parameter: the lanes read the same address */
  }
  return finish(m, smi, t, done, pend);
}

/* the immediate-constant lines, apart from those LDC and ld.const read */
#define IMC_TAG (1ull << 62)

uint64_t memsys_imc(memsys *m, uint32_t smi, uint64_t t, uint64_t bank_off, uint64_t *busy) {
  ms_sm *s = &m->sm[smi];
  bool hit;
  cache_line *ln = cache_ref(&s->cst, IMC_TAG | bank_off, true, &hit, NULL);
  if (!hit) {
    /* the immediate-constant cache fills whole 64-byte lines: kernel
     * parameters on both sides of a 32-byte boundary miss once ([M]
     * tests/microbench mb_flag flag_paced reads c[0x0][0x218..0x227] and
     * %ntid: 221 cycles of imc_miss a warp, mb_mem chain_init 0x218..0x21f
     * and %ntid: 300) */
    ln->sectors = ~0u >> (32 - (1u << (s->cst.line_shift - s->cst.sector_shift)));
    double start = dmax((double)t, (double)*busy);
    ln->ready = start + m->g->imc_miss_cycles + smi * m->g->imc_miss_sm_cycles;
    *busy = (uint64_t)ln->ready;
  }
  return finish(m, smi, t, dmax((double)t, ln->ready), NONE);
}

void memsys_code(memsys *m, uint32_t smi, uint64_t t, uint64_t bytes) {
  ms_sm *s = &m->sm[smi];
  if (s->code) return;
  s->code = true;
  uint32_t r = add_req(m, s, NULL, RQ_CODE, t, (double)t, CODE_BASE);
  if (r != NONE) s->cur.req[r].arg = (uint32_t)(bytes < UINT32_MAX ? bytes : UINT32_MAX);
  finish(m, smi, t, (double)t, NONE);
}
