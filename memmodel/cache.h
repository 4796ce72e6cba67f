/* memmodel/cache.h - a sectored, set-associative cache with LRU
 * replacement: lines of line_bytes split into sectors of sector_bytes; a
 * lookup hits when its sector is present (a line can be resident with only
 * some of its sectors filled, as in NVIDIA's L1 and L2).  Sectors can be
 * dirty (write-back caches); a line remembers when its last fill lands, so
 * a hit on data still in flight waits for it. */
#ifndef MEMMODEL_CACHE_H
#define MEMMODEL_CACHE_H
#include <stdbool.h>
#include <stdint.h>
#include "util/lazymap.h"
#include "util/host_line.h"

/* What a lookup scans, one per way, apart from the rest of the line: a
 * 16-way set of these is 4 host cache lines (the lines beside them would
 * make it 12), and the L2's sets are far too many to stay in the host's
 * caches. */
typedef struct cache_way {
  uint64_t tag;
  uint32_t gen;                    /* valid when equal to its cache's gen          */
  uint32_t lru;                    /* the cache's tick at its last use             */
} cache_way;

typedef struct cache_line {
  double ready;                    /* cycle the line's latest fill arrives */
  uint32_t sectors, dirty;         /* bit masks of present / dirty sectors */
  uint32_t partial;                /* present sectors holding only the bytes written (L2 byte masks) */
  uint32_t fetched;                /* absent sectors whose bytes a neighbour's DRAM read brought (L2 fill_bytes) */
  uint16_t queued;                 /* in the L2's queue of lines to clean (l2.c) */
  uint16_t ghost;                  /* L2: sectors made whole by writes that arrive at whole_at
                                    * (of a line's first 16: lines of 512 bytes and less) */
  uint32_t whole_at;               /* ... (the L2 takes writes in issue order; they arrive later) */
} cache_line;

/* Caches of this many ways or more are mapped, backed where touched. */
#define CACHE_MAP_WAYS ((size_t)2048)
/* a mapped cache is written (made resident) CACHE_WARM_WAYS ways at a time */
#define CACHE_WARM_WAYS ((size_t)512)

typedef struct cache {
  HOST_LINE_ALIGNED uint32_t sets, assoc, line_bytes, sector_bytes;   /* (each SM's written by its thread: util/host_line.h) */
  uint32_t line_shift, sector_shift;
  cache_way *ways;                 /* sets * assoc, set by set */
  cache_line *lines;               /* the same ways' other fields */
  size_t mapped;                   /* ways when mapped (CACHE_MAP_WAYS or more), else 0 */
  bool pooled;                     /* ways and lines belong to a lazypool */
  uint64_t *warm;                  /* mapped: a bit per CACHE_WARM_WAYS ways written */
  uint32_t tick;                   /* LRU clock (halved with every way's lru when it wraps) */
  uint32_t gen;                    /* lines of another generation are empty: a reset is one increment */
  size_t last;                     /* the way cache_ref found or filled last (a warp's sectors come line by line) */
  uint64_t hits, misses;           /* sector accesses */
} cache;

/* What a fill pushed out: the line's address, its dirty sectors and which
 * of them were only partly written. */
typedef struct cache_evict { uint64_t addr; uint32_t dirty, partial; } cache_evict;

/* 0 on success; size_bytes is rounded down to whole sets (at least one). */
int cache_init(cache *c, uint64_t size_bytes, uint32_t assoc, uint32_t line_bytes, uint32_t sector_bytes);
/* The ways cache_init gives a cache of size_bytes (whole sets, at least one). */
size_t cache_ways(uint64_t size_bytes, uint32_t assoc, uint32_t line_bytes);
/* The same, its ways and lines from pool p where it has room (every SM's
 * caches from one mapping); cache_pool_bytes: what they take. */
int cache_init_in(cache *c, uint64_t size_bytes, uint32_t assoc, uint32_t line_bytes, uint32_t sector_bytes, lazypool *p);
size_t cache_pool_bytes(uint64_t size_bytes, uint32_t assoc, uint32_t line_bytes);
void cache_free(cache *c);
void cache_flush(cache *c);
/* Empty, as after cache_init: lines, LRU clock and counters. */
void cache_reset(cache *c);
static inline bool cache_line_valid(const cache *c, const cache_line *l) { return c->ways[l - c->lines].gen == c->gen; }
static inline uint64_t cache_line_tag(const cache *c, const cache_line *l) { return c->ways[l - c->lines].tag; }
static inline uint32_t cache_line_lru(const cache *c, const cache_line *l) { return c->ways[l - c->lines].lru; }
/* Access one sector (addr anywhere in it); allocate on miss if fill.
 * Returns true on a hit. */
bool cache_access(cache *c, uint64_t addr, bool fill);
/* Look up the sector of addr.  *hit says whether it was present.  With
 * fill, a missing sector is allocated (a missing line evicts the set's LRU
 * line, reported in *ev when ev is not NULL: ev->dirty = 0 when nothing
 * dirty left).  Returns the line holding the sector, or NULL when it is
 * absent and fill is false. */
cache_line *cache_ref(cache *c, uint64_t addr, bool fill, bool *hit, cache_evict *ev);
/* The line in way i referenced again, a hit, as cache_ref would find it
 * (its LRU stamp, the hit counted): for a caller that knows the line is
 * still there with the sector (cache_ref found it so, and nothing
 * referenced c since). */
void cache_ref_again(cache *c, size_t i);
/* Bit of addr's sector within its line. */
static inline uint32_t cache_sector_bit(const cache *c, uint64_t addr) {
  return 1u << ((addr >> c->sector_shift) & ((1u << (c->line_shift - c->sector_shift)) - 1));
}
/* The assoc lines of the set addr maps to. */
cache_line *cache_set(cache *c, uint64_t addr);
/* Drop addr's line (a store on a write-invalidate L1). */
void cache_invalidate(cache *c, uint64_t addr);
/* Drop addr's sector from its line, if held (a stale copy); whether it was. */
bool cache_drop_sector(cache *c, uint64_t addr);
#endif
