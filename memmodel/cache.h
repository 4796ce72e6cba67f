/* memmodel/cache.h - a sectored, set-associative cache with LRU
 * replacement: lines of line_bytes split into sectors of sector_bytes; a
 * lookup hits when its sector is present (a line can be resident with only
 * some of its sectors filled, as in NVIDIA's L1 and L2). */
#ifndef MEMMODEL_CACHE_H
#define MEMMODEL_CACHE_H
#include <stdbool.h>
#include <stdint.h>

typedef struct cache_line { uint64_t tag; uint64_t lru; uint32_t sectors; bool valid; } cache_line;

typedef struct cache {
  uint32_t sets, assoc, line_bytes, sector_bytes;
  uint32_t line_shift, sector_shift;
  cache_line *lines;               /* sets * assoc */
  uint64_t tick;
  uint64_t hits, misses;           /* sector accesses */
} cache;

/* 0 on success; size_bytes is rounded down to whole sets. */
int cache_init(cache *c, uint64_t size_bytes, uint32_t assoc, uint32_t line_bytes, uint32_t sector_bytes);
void cache_free(cache *c);
void cache_flush(cache *c);
/* Access one sector (addr anywhere in it); allocate on miss if fill.
 * Returns true on a hit. */
bool cache_access(cache *c, uint64_t addr, bool fill);
#endif
