/* memmodel/cache.c - sectored set-associative LRU cache (see cache.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "memmodel/cache.h"
#include "util/lazymap.h"

static uint32_t log2u(uint32_t x) { uint32_t r = 0; while ((1u << (r + 1)) <= x) r++; return r; }

/* A mapped cache's bitmap of warm chunks: its words for n ways, and
 * whether chunk k (ways k * CACHE_WARM_WAYS on) has been written. */
static size_t warm_words(size_t n) { return (n / CACHE_WARM_WAYS + 64) / 64; }
static bool chunk_warm(const cache *c, size_t k) { return c->warm[k / 64] >> (k % 64) & 1; }

size_t cache_ways(uint64_t size, uint32_t assoc, uint32_t line) {
  uint64_t sets = line && assoc ? size / ((uint64_t)line * assoc) : 0;
  return (size_t)(sets ? sets : 1) * assoc;
}

size_t cache_pool_bytes(uint64_t size, uint32_t assoc, uint32_t line) {
  size_t n = cache_ways(size, assoc, line);
  return lazypool_bytes(n * sizeof(cache_way)) + lazypool_bytes(n * sizeof(cache_line));
}

int cache_init(cache *c, uint64_t size, uint32_t assoc, uint32_t line, uint32_t sector) {
  return cache_init_in(c, size, assoc, line, sector, NULL);
}

int cache_init_in(cache *c, uint64_t size, uint32_t assoc, uint32_t line, uint32_t sector, lazypool *p) {
  memset(c, 0, sizeof *c);
  if (!assoc || !line || !sector || line % sector || line / sector > 32) return -1;
  c->assoc = assoc;
  c->line_bytes = line;
  c->sector_bytes = sector;
  c->line_shift = log2u(line);
  c->sector_shift = log2u(sector);
  size_t n = cache_ways(size, assoc, line);
  c->sets = (uint32_t)(n / assoc);
  /* a large cache's lines are backed where used: an L1 per SM, most of
   * which a launch never touches, costs only its touched sets */
  void *w, *l;
  c->pooled = lazypool_take2(p, n * sizeof *c->ways, &w, n * sizeof *c->lines, &l);
  if (n >= CACHE_MAP_WAYS) {
    c->ways = c->pooled ? w : lazymap_sparse(n * sizeof *c->ways);
    c->lines = c->pooled ? l : lazymap_sparse(n * sizeof *c->lines);
    c->warm = calloc(warm_words(n), sizeof *c->warm);
    c->mapped = n;
    if (!c->ways || !c->lines || !c->warm) { cache_free(c); return -1; }
  } else {
    c->ways = c->pooled ? w : calloc(n, sizeof *c->ways);
    c->lines = c->pooled ? l : calloc(n, sizeof *c->lines);
    if (!c->ways || !c->lines) { cache_free(c); return -1; }
  }
  c->gen = 1;                      /* the zeroed ways (gen 0) are empty */
  return 0;
}

void cache_free(cache *c) {
  size_t n = c->mapped;
  if (!c->pooled && n) {               /* (a pool's arrays go with the pool) */
    if (c->ways) munmap(c->ways, n * sizeof *c->ways);
    if (c->lines) munmap(c->lines, n * sizeof *c->lines);
  } else if (!c->pooled) { free(c->ways); free(c->lines); }
  free(c->warm);
  c->ways = NULL;
  c->lines = NULL;
  c->warm = NULL;
  c->mapped = 0;
}

void cache_flush(cache *c) {
  size_t n = (size_t)c->sets * c->assoc;
  memset(c->ways, 0, n * sizeof *c->ways);
  memset(c->lines, 0, n * sizeof *c->lines);
  if (c->warm) memset(c->warm, 0xff, warm_words(n) * sizeof *c->warm);
}

void cache_reset(cache *c) {
  if (++c->gen == 0) { if (c->ways) cache_flush(c); c->gen = 1; }
  c->tick = 0;
  c->hits = c->misses = 0;
}

/* A mapped cache is written a chunk at a time before its first lookup
 * there: a read of untouched mapped memory maps the zero page, and the
 * write after it is a second fault (with several threads, one that
 * flushes every core's TLB). */
static void warm_chunk(cache *c, size_t k) {
  size_t lo = k * CACHE_WARM_WAYS, n = CACHE_WARM_WAYS;
  if (lo + n > c->mapped) n = c->mapped - lo;
  memset(c->ways + lo, 0, n * sizeof *c->ways);
  memset(c->lines + lo, 0, n * sizeof *c->lines);
  c->warm[k / 64] |= 1ull << (k % 64);
}

static size_t set_of(cache *c, uint64_t lineno) {
  /* hash the set index so power-of-two strides spread over sets */
  uint64_t h = lineno ^ (lineno >> 7) ^ (lineno >> 17);
  size_t first = (size_t)(h % c->sets) * c->assoc;
  if (c->warm)
    for (size_t k = first / CACHE_WARM_WAYS; k <= (first + c->assoc - 1) / CACHE_WARM_WAYS; k++)
      if (!chunk_warm(c, k)) warm_chunk(c, k);
  return first;
}

/* The LRU clock wrapped: halve every way's stamp (their order stays, but
 * for neighbours that become equal) and go on from above them. */
static void halve_lru(cache *c) {
  size_t n = (size_t)c->sets * c->assoc;
  for (size_t i = 0; i < n; i++)
    if (!c->warm || chunk_warm(c, i / CACHE_WARM_WAYS)) c->ways[i].lru >>= 1;
  c->tick = 1u << 31;
}

/* The line held in way i, referenced: its LRU stamp and the sector's hit. */
static cache_line *ref_held(cache *c, size_t i, uint32_t bit, bool fill, bool *hit) {
  cache_line *l = &c->lines[i];
  c->ways[i].lru = c->tick;
  c->last = i;
  *hit = (l->sectors & bit) != 0;
  if (*hit) { c->hits++; return l; }
  c->misses++;
  if (!fill) return NULL;
  l->sectors |= bit;
  return l;
}

cache_line *cache_ref(cache *c, uint64_t addr, bool fill, bool *hit, cache_evict *ev) {
  uint64_t lineno = addr >> c->line_shift;
  uint32_t bit = cache_sector_bit(c, addr), gen = c->gen;
  if (ev) ev->dirty = ev->partial = 0;
  /* (a way's chunk warmed below starts all zero: halving first skips it
   * and leaves the same stamps) */
  if (__builtin_expect(++c->tick == 0, 0)) halve_lru(c);
  /* the line of the last reference, where it still is (a line is held in
   * one way at most): no set to search */
  const cache_way *m = &c->ways[c->last];
  if (m->gen == gen && m->tag == lineno) return ref_held(c, c->last, bit, fill, hit);
  size_t first = set_of(c, lineno);
  cache_way *set = &c->ways[first];
  uint32_t victim = 0;
  for (uint32_t w = 0; w < c->assoc; w++) {
    cache_way *y = &set[w];
    if (y->gen == gen && y->tag == lineno) return ref_held(c, first + w, bit, fill, hit);
    const cache_way *v = &set[victim];
    if (y->gen != gen || (v->gen == gen && y->lru < v->lru)) victim = w;
  }
  *hit = false;
  c->misses++;
  if (!fill) return NULL;
  cache_way *y = &set[victim];
  cache_line *l = &c->lines[first + victim];
  if (ev && y->gen == gen) {
    ev->addr = y->tag << c->line_shift;
    ev->dirty = l->dirty;
    ev->partial = l->partial;
  }
  y->gen = gen;
  y->tag = lineno;
  y->lru = c->tick;
  *l = (cache_line){ .sectors = bit };
  c->last = first + victim;
  return l;
}

void cache_ref_again(cache *c, size_t i) {
  if (__builtin_expect(++c->tick == 0, 0)) halve_lru(c);
  c->ways[i].lru = c->tick;
  c->last = i;
  c->hits++;
}

bool cache_access(cache *c, uint64_t addr, bool fill) {
  bool hit;
  cache_ref(c, addr, fill, &hit, NULL);
  return hit;
}

cache_line *cache_set(cache *c, uint64_t addr) { return &c->lines[set_of(c, addr >> c->line_shift)]; }

/* addr's line if the cache holds it (a line is held in one way at most), else NULL */
static cache_line *held_line(cache *c, uint64_t addr) {
  uint64_t lineno = addr >> c->line_shift;
  size_t first = set_of(c, lineno);
  for (uint32_t w = 0; w < c->assoc; w++)
    if (c->ways[first + w].gen == c->gen && c->ways[first + w].tag == lineno) return &c->lines[first + w];
  return NULL;
}

bool cache_drop_sector(cache *c, uint64_t addr) {
  cache_line *ln = held_line(c, addr);
  if (!ln) return false;
  uint32_t bit = cache_sector_bit(c, addr);
  bool had = (ln->sectors & bit) != 0;
  ln->sectors &= ~bit;
  ln->fetched &= ~bit;
  return had;
}

void cache_invalidate(cache *c, uint64_t addr) {
  cache_line *ln = held_line(c, addr);
  if (ln) { c->ways[ln - c->lines].gen = 0; ln->sectors = ln->dirty = 0; }
}
