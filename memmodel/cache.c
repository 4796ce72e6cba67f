/* memmodel/cache.c - sectored set-associative LRU cache (see cache.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "memmodel/cache.h"
#include "util/lazymap.h"

static uint32_t log2u(uint32_t x) { uint32_t r = 0; while ((1u << (r + 1)) <= x) r++; return r; }

int cache_init(cache *c, uint64_t size, uint32_t assoc, uint32_t line, uint32_t sector) {
  memset(c, 0, sizeof *c);
  if (!assoc || !line || !sector || line % sector || line / sector > 32) return -1;
  c->assoc = assoc;
  c->line_bytes = line;
  c->sector_bytes = sector;
  c->line_shift = log2u(line);
  c->sector_shift = log2u(sector);
  uint64_t sets = size / ((uint64_t)line * assoc);
  c->sets = sets ? (uint32_t)sets : 1;
  /* a large cache's lines are backed where used: an L1 per SM, most of
   * which a launch never touches, costs only its touched sets */
  size_t bytes = (size_t)c->sets * assoc * sizeof *c->lines;
  if (bytes >= CACHE_MAP_BYTES) { c->lines = lazymap_zeroed(bytes); c->mapped = c->lines ? bytes : 0; }
  else c->lines = calloc((size_t)c->sets * assoc, sizeof *c->lines);
  c->gen = 1;                      /* the zeroed lines (gen 0) are empty */
  return c->lines ? 0 : -1;
}

void cache_free(cache *c) {
  if (c->mapped) munmap(c->lines, c->mapped); else free(c->lines);
  c->lines = NULL;
  c->mapped = 0;
}
void cache_flush(cache *c) { memset(c->lines, 0, (size_t)c->sets * c->assoc * sizeof *c->lines); }

void cache_reset(cache *c) {
  if (++c->gen == 0) { if (c->lines) cache_flush(c); c->gen = 1; }
  c->tick = 0;
  c->hits = c->misses = 0;
}

static cache_line *set_of(const cache *c, uint64_t lineno) {
  /* hash the set index so power-of-two strides spread over sets */
  uint64_t h = lineno ^ (lineno >> 7) ^ (lineno >> 17);
  return &c->lines[(size_t)(h % c->sets) * c->assoc];
}

cache_line *cache_ref(cache *c, uint64_t addr, bool fill, bool *hit, cache_evict *ev) {
  uint64_t lineno = addr >> c->line_shift;
  cache_line *set = set_of(c, lineno);
  uint32_t bit = cache_sector_bit(c, addr);
  if (ev) ev->dirty = ev->partial = 0;
  c->tick++;
  cache_line *victim = &set[0];
  for (uint32_t w = 0; w < c->assoc; w++) {
    cache_line *l = &set[w];
    if (cache_line_valid(c, l) && l->tag == lineno) {
      l->lru = c->tick;
      *hit = (l->sectors & bit) != 0;
      if (*hit) { c->hits++; return l; }
      c->misses++;
      if (!fill) return NULL;
      l->sectors |= bit;
      return l;
    }
    if (!cache_line_valid(c, l) || (cache_line_valid(c, victim) && l->lru < victim->lru)) victim = l;
  }
  *hit = false;
  c->misses++;
  if (!fill) return NULL;
  if (ev && cache_line_valid(c, victim)) {
    ev->addr = victim->tag << c->line_shift;
    ev->dirty = victim->dirty;
    ev->partial = victim->partial;
  }
  victim->gen = c->gen;
  victim->tag = lineno;
  victim->sectors = bit;
  victim->dirty = 0;
  victim->partial = 0;
  victim->fetched = 0;
  victim->queued = 0;
  victim->ready = 0;
  victim->lru = c->tick;
  return victim;
}

bool cache_access(cache *c, uint64_t addr, bool fill) {
  bool hit;
  cache_ref(c, addr, fill, &hit, NULL);
  return hit;
}

cache_line *cache_set(const cache *c, uint64_t addr) { return set_of(c, addr >> c->line_shift); }

/* addr's line if the cache holds it (a line is held in one way at most), else NULL */
static cache_line *held_line(const cache *c, uint64_t addr) {
  uint64_t lineno = addr >> c->line_shift;
  cache_line *set = set_of(c, lineno);
  for (uint32_t w = 0; w < c->assoc; w++)
    if (cache_line_valid(c, &set[w]) && set[w].tag == lineno) return &set[w];
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
  if (ln) { ln->gen = 0; ln->sectors = ln->dirty = 0; }
}
