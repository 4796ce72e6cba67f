/* memmodel/memsys.c - L1, read-only and constant caches, shared memory,
 * tied to L2 and DRAM (see memsys.h). */
#include <stdlib.h>
#include <string.h>
#include "memmodel/memsys.h"
#include "memmodel/space.h"

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
  uint64_t sets = assoc && line ? size / ((uint64_t)line * assoc) : 0;
  return (sets ? sets : 1) * assoc * sizeof(cache_line);
}

static uint64_t timeline_host_bytes(double width) {
  return width > 0 ? timeline_windows(width, TIMELINE_HORIZON) * (uint64_t)TIMELINE_WINDOW_BYTES : 0;
}

uint64_t memsys_host_bytes(const gpu_config *g, uint32_t nsm, uint64_t shared_used) {
  uint64_t sm = sizeof(ms_sm) + (uint64_t)g->l1_mshrs * sizeof(double)
              + cache_host_bytes(memsys_l1_bytes(g, shared_used), g->l1_assoc, g->l1_line_bytes)
              + (g->readonly_cache_bytes ? cache_host_bytes(g->readonly_cache_bytes, g->l1_assoc, g->l1_line_bytes) : 0)
              + cache_host_bytes(g->const_cache_bytes, 4, 64);
  uint64_t parts = g->l2_partitions ? g->l2_partitions : 1, part = cache_host_bytes(g->l2_bytes / parts, g->l2_assoc, g->l1_line_bytes);
  uint64_t l2 = parts * part + (uint64_t)g->l2_slices * (sizeof(l2_slice) + timeline_host_bytes(8 * 32.0 / g->l2_slice_bytes_per_cycle));
  if (g->l2_partial_fill && !g->l2_write_granule_bytes && g->l1_line_bytes >= 32)
    l2 += parts * part / sizeof(cache_line) * (g->l1_line_bytes / 32) * sizeof(uint32_t);
  double bpc = (double)g->dram_bandwidth_gbs * 1e3 / (g->clock_mhz ? g->clock_mhz : 1);
  uint64_t ch = sizeof(dram_channel) + timeline_host_bytes(8 * 32.0 * g->dram_channels / bpc)
              + timeline_host_bytes(2.0 * (g->dram_activate_cycles ? g->dram_activate_cycles : 1));
  uint64_t bank = sizeof(dram_bank) + timeline_host_bytes(2.0 * (g->dram_row_miss_cycles ? g->dram_row_miss_cycles : 1));
  return sizeof(memsys) + nsm * sm + l2 + (uint64_t)g->dram_channels * (ch + (uint64_t)g->dram_banks * bank);
}

memsys *memsys_new(const gpu_config *g, uint32_t nsm, uint64_t shared_used) {
  memsys *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->g = g;
  m->nsm = nsm;
  m->l1_bytes = memsys_l1_bytes(g, shared_used);
  m->sm = calloc(nsm, sizeof *m->sm);
  dram_params dp = { g->dram_channels, g->dram_banks, g->dram_row_bytes, g->dram_interleave_bytes,
                     (double)g->dram_bandwidth_gbs * 1e3 / g->clock_mhz, g->dram_row_miss_cycles,
                     g->dram_activate_cycles, g->lat_dram, g->partition_hash != 0 };
  l2_params lp = { g->l2_bytes, g->l2_assoc, g->l1_line_bytes, g->l2_slices, g->l2_partitions, g->l2_interleave_bytes,
                   g->l2_slice_bytes_per_cycle, g->l2_atomic_cycles, g->lat_l2, g->lat_atomic, g->partition_hash != 0, g->l2_dirty_ways,
                   g->l2_write_granule_bytes, g->l2_partial_fill != 0, g->l2_partial_ways, g->l2_partial_write_cycles };
  if (!m->sm || dram_init(&m->dram, &dp) || l2_init(&m->l2, &lp, &m->dram)) { memsys_free(m); return NULL; }
  for (uint32_t i = 0; i < nsm; i++) {
    ms_sm *s = &m->sm[i];
    s->mshr = calloc(g->l1_mshrs, sizeof *s->mshr);
    s->has_ro = g->readonly_cache_bytes > 0;
    if (!s->mshr || cache_init(&s->l1, m->l1_bytes, g->l1_assoc, g->l1_line_bytes, g->l1_sector_bytes)
        || (s->has_ro && cache_init(&s->ro, g->readonly_cache_bytes, g->l1_assoc, g->l1_line_bytes, g->l1_sector_bytes))
        || cache_init(&s->cst, g->const_cache_bytes, 4, 64, 32)) { memsys_free(m); return NULL; }
  }
  return m;
}

void memsys_reset(memsys *m) {
  for (uint32_t i = 0; i < m->nsm; i++) {
    ms_sm *s = &m->sm[i];
    cache_reset(&s->l1);
    if (s->has_ro) cache_reset(&s->ro);
    cache_reset(&s->cst);
    s->l1_free = s->shared_free = s->const_free = s->wport_free = 0;
    memset(s->mshr, 0, m->g->l1_mshrs * sizeof *s->mshr);
    s->mshr_next = 0;
    s->code = false;
  }
  for (uint32_t p = 0; p < m->l2.p.partitions; p++) cache_reset(&m->l2.part[p]);
  l2_reset_timing(&m->l2);
  dram_reset(&m->dram);
  m->l1_hits = m->l1_lookups = 0;
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
    free(m->sm[i].mshr);
  }
  free(m->sm);
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
 * that frees"). */
static double mshr_take(ms_sm *s, uint32_t n, double t, double **slot) {
  *slot = &s->mshr[s->mshr_next];
  s->mshr_next = (s->mshr_next + 1) % n;
  return dmax(t, **slot);
}

/* The SM's write link to L2 takes one sector every 32 /
 * l2_write_bytes_per_cycle cycles, full or partial (H100: a sector per 2
 * cycles for coalesced and for scattered 4-byte stores alike); returns
 * when this one goes. */
static double port_take(double *free_at, double t, uint32_t bytes_per_cycle) {
  double at = dmax(t, *free_at);
  *free_at = at + 32.0 / bytes_per_cycle;
  return at;
}

/* Distinct sectors of an access, with the number of lanes in each and
 * the bytes of the sector they touch (bit i: byte i). */
static uint32_t sectors_of(const uint64_t *addr, uint32_t mask, uint32_t bytes, uint64_t *sec, uint32_t *lanes, uint32_t *touched) {
  uint32_t n = 0;
  uint64_t len = bytes ? bytes : 1;
  for (int i = 0; i < 32; i++) {
    if (!(mask >> i & 1)) continue;
    for (uint64_t sc = addr[i] >> 5; sc <= (addr[i] + len - 1) >> 5 && n < 64; sc++) {
      uint32_t k = 0;
      while (k < n && sec[k] != sc) k++;
      if (k == n) { sec[n] = sc; lanes[n] = 0; touched[n++] = 0; }
      lanes[k]++;
      uint64_t lo = addr[i] > sc << 5 ? addr[i] - (sc << 5) : 0, hi = addr[i] + len - (sc << 5);
      if (hi > 32) hi = 32;
      touched[k] |= (uint32_t)(((1ull << hi) - 1) & ~((1ull << lo) - 1));
    }
  }
  return n;
}

/* Distinct lines (of 2^shift sectors) among n distinct sectors. */
static uint32_t lines_of(const uint64_t *sec, uint32_t n, uint32_t shift) {
  uint32_t lines = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t j = 0;
    while (j < k && sec[j] >> shift != sec[k] >> shift) j++;
    lines += j == k;
  }
  return lines;
}

/* For each of the n sectors: the most lanes of the mask that update one
 * address in it (same-address updates are performed one after another). */
static void atomic_serial(const uint64_t *addr, uint32_t mask, const uint64_t *sec, uint32_t n, uint32_t *serial) {
  for (uint32_t k = 0; k < n; k++) serial[k] = 1;
  for (uint32_t rest = mask; rest;) {
    int i = __builtin_ctz(rest);
    uint32_t same = 0;
    for (uint32_t r = rest; r;) {
      int j = __builtin_ctz(r);
      r &= r - 1;
      if (addr[j] == addr[i]) { same++; rest &= ~(1u << j); }
    }
    for (uint32_t k = 0; k < n; k++) if (sec[k] == addr[i] >> 5 && same > serial[k]) serial[k] = same;
  }
}

uint64_t memsys_global(memsys *m, uint32_t smi, uint64_t t, const uint64_t *addr, uint32_t mask, uint32_t bytes,
                       enum ms_op op, enum ms_path path) {
  const gpu_config *g = m->g;
  ms_sm *s = &m->sm[smi];
  uint64_t sec[64];
  uint32_t lanes[64], touched[64];
  uint32_t n = sectors_of(addr, mask, bytes, sec, lanes, touched);
  if (!n) return 1;
  cache *c = NULL;
  bool atomic = op == MS_ATOMIC || op == MS_ATOMIC_WARP;
  if (!atomic) {
    if (path == MS_LOCAL) c = &s->l1;
    else if (path == MS_READONLY) c = s->has_ro ? &s->ro : &s->l1;
    else if (path == MS_CACHED && g->l1_caches_global) c = &s->l1;
  }
  /* the L1 takes l1_sectors_per_cycle sectors, but one tag lookup per
   * line: an access spread over many lines takes a cycle per line or so */
  double busy = (double)n / g->l1_sectors_per_cycle;
  if (g->l1_lines_per_cycle > 0)
    busy = dmax(busy, lines_of(sec, n, s->l1.line_shift > 5 ? s->l1.line_shift - 5 : 0) / g->l1_lines_per_cycle);
  double start = dmax((double)t, s->l1_free);
  s->l1_free = start + busy;
  uint32_t near = near_part(m, smi);
  double done = start + 1;
  /* atomics: updates of one address serialise at the L2 slice, distinct
   * addresses of a sector are updated together ([M] tests/microbench
   * mb_atomic: 32 lanes on one word ~5x slower than on 32 words of a line) */
  uint32_t serial[64];
  if (atomic) atomic_serial(addr, mask, sec, n, serial);
  for (uint32_t k = 0; k < n; k++) {
    uint64_t a = sec[k] << 5;
    if (atomic) {
      done = dmax(done, l2_access(&m->l2, near, start, a, L2_ATOMIC, op == MS_ATOMIC_WARP ? 1 : serial[k]));
      continue;
    }
    if (op == MS_STORE) {
      cache_line *wl = NULL;
      if (c && (g->l1_store_allocate || path == MS_LOCAL)) {
        bool hit;
        wl = cache_ref(c, a, true, &hit, NULL);
        m->l1_lookups++;
        m->l1_hits += hit;
      } else if (c || path == MS_CACHED) {
        cache_invalidate(&s->l1, a);
        if (s->has_ro) cache_invalidate(&s->ro, a);
      }
      /* write-through over the SM's write link; the L1 stalls when the
       * link's queue is longer than one L2 round trip (stores hold no
       * register, only the queue slows them) */
      double out = port_take(&s->wport_free, start, g->l2_write_bytes_per_cycle);
      double merged, accepted = l2_write(&m->l2, near, out, a, touched[k], &merged) - g->lat_l2;
      if (out - start > g->lat_l2) s->l1_free = dmax(s->l1_free, out - g->lat_l2);
      /* a load of the line waits until L2 has acknowledged the write-through
       * ([M] tests/microbench mb_stack local_16..256: a local array's load
       * after stores to its lines takes an L2 round trip) */
      if (wl && path == MS_LOCAL) wl->ready = dmax(wl->ready, accepted + g->lat_l2);
      /* the kernel is not over before its stores are in L2 (a partial
       * write's sector read from DRAM included) */
      done = dmax(done, dmax(accepted, merged - g->lat_l2));
      continue;
    }
    double *slot, issue = mshr_take(s, g->l1_mshrs, start, &slot);
    if (!c) { *slot = l2_access(&m->l2, near, issue, a, L2_READ, 1); done = dmax(done, *slot); continue; }
    bool hit;
    cache_line *ln = cache_ref(c, a, true, &hit, NULL);
    m->l1_lookups++;
    if (hit) {
      s->mshr_next = (s->mshr_next + g->l1_mshrs - 1) % g->l1_mshrs;   /* a hit takes no MSHR */
      m->l1_hits++;
      done = dmax(done, dmax(start + g->lat_l1, ln->ready));   /* a hit on a fill in flight waits for it */
      continue;
    }
    /* a miss fetches its sector, or every missing sector of the line when
     * the L1 fills whole lines (Fermi/Kepler 128-byte lines) */
    double arrive = l2_access(&m->l2, near, issue, a, L2_READ, 1);
    if (g->l1_fill_bytes > c->sector_bytes) {
      uint64_t base = a & ~(uint64_t)(g->l1_fill_bytes - 1);
      for (uint64_t o = 0; o < g->l1_fill_bytes; o += 32) {
        if (base + o == a) continue;
        uint32_t bit = cache_sector_bit(c, base + o);
        if (ln->sectors & bit) continue;
        ln->sectors |= bit;
        arrive = dmax(arrive, l2_access(&m->l2, near, issue, base + o, L2_READ, 1));
      }
    }
    ln->ready = arrive;
    *slot = arrive;
    done = dmax(done, arrive);
  }
  return (uint64_t)(done - (double)t + 0.5);
}

uint64_t memsys_shared(memsys *m, uint32_t smi, uint64_t t, const uint64_t *off, uint32_t mask, uint32_t bytes) {
  ms_sm *s = &m->sm[smi];
  uint32_t ideal, wf = mm_shared_wavefronts_mode(off, mask, bytes, m->g->shared_bank_bytes, m->g->shared_bank_mode, &ideal);
  double start = dmax((double)t, s->shared_free);
  s->shared_free = start + wf;
  return (uint64_t)(start - (double)t) + m->g->lat_shared + wf - 1;
}

uint64_t memsys_const(memsys *m, uint32_t smi, uint64_t t, const uint64_t *addr, uint32_t mask, uint32_t bytes) {
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
  double start = dmax((double)t, s->const_free);
  s->const_free = start + n;
  double done = start + m->g->lat_l1 + n - 1;
  for (uint32_t k = 0; k < n; k++) {
    bool hit;
    cache_line *ln = cache_ref(&s->cst, seen[k], true, &hit, NULL);
    if (hit) { done = dmax(done, ln->ready); continue; }
    ln->ready = l2_access(&m->l2, near_part(m, smi), start + k, seen[k] & ~31ull, L2_READ, 1);
    done = dmax(done, ln->ready);
  }
  return (uint64_t)(done - (double)t + 0.5);
}

uint64_t memsys_param(memsys *m, uint32_t smi, uint64_t t, const uint64_t *addr, uint32_t mask) {
  ms_sm *s = &m->sm[smi];
  double done = (double)t;
  for (int i = 0; i < 32; i++) {
    if (!(mask >> i & 1)) continue;
    bool hit;
    cache_line *ln = cache_ref(&s->cst, addr[i], true, &hit, NULL);
    if (!hit) ln->ready = m->g->imc_miss_cycles ? (double)(t + m->g->imc_miss_cycles)
                                               : l2_access(&m->l2, near_part(m, smi), (double)t, addr[i] & ~31ull, L2_READ, 1);
    done = dmax(done, ln->ready);
    break;                          /* one parameter: the lanes read the same address */
  }
  return (uint64_t)(done - (double)t + 0.5);
}

void memsys_code(memsys *m, uint32_t smi, uint64_t t, uint64_t bytes) {
  ms_sm *s = &m->sm[smi];
  if (s->code) return;
  s->code = true;
  for (uint64_t off = 0; off < bytes; off += 32) l2_access(&m->l2, near_part(m, smi), (double)t, CODE_BASE + off, L2_READ, 1);
}
