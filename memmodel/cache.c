/* memmodel/cache.c - sectored set-associative LRU cache (see cache.h). */
#include <stdlib.h>
#include <string.h>
#include "memmodel/cache.h"

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
  c->lines = calloc((size_t)c->sets * assoc, sizeof *c->lines);
  return c->lines ? 0 : -1;
}

void cache_free(cache *c) { free(c->lines); c->lines = NULL; }
void cache_flush(cache *c) { memset(c->lines, 0, (size_t)c->sets * c->assoc * sizeof *c->lines); }

bool cache_access(cache *c, uint64_t addr, bool fill) {
  uint64_t lineno = addr >> c->line_shift;
  /* hash the set index so power-of-two strides spread over sets */
  uint64_t h = lineno ^ (lineno >> 7) ^ (lineno >> 17);
  cache_line *set = &c->lines[(size_t)(h % c->sets) * c->assoc];
  uint32_t bit = 1u << ((addr >> c->sector_shift) & ((1u << (c->line_shift - c->sector_shift)) - 1));
  c->tick++;
  cache_line *victim = &set[0];
  for (uint32_t w = 0; w < c->assoc; w++) {
    cache_line *l = &set[w];
    if (l->valid && l->tag == lineno) {
      l->lru = c->tick;
      if (l->sectors & bit) { c->hits++; return true; }
      c->misses++;
      if (fill) l->sectors |= bit;
      return false;
    }
    if (!l->valid || l->lru < victim->lru) victim = l;
  }
  c->misses++;
  if (fill) { victim->valid = true; victim->tag = lineno; victim->sectors = bit; victim->lru = c->tick; }
  return false;
}
