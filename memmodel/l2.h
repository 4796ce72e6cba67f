/* memmodel/l2.h - the L2 cache: slices grouped into partitions, each
 * partition one sectored, write-back, write-allocate cache.  An address
 * block of interleave_bytes lives in one slice (a hash spreads blocks over
 * slices); the slice's partition is its home.  With several partitions (as
 * on A100/H100) a unit first looks in its near partition, which keeps
 * clean copies of far data it read (a write drops them: they would be
 * stale): a far read that misses there is looked up again at home, so a
 * streaming read makes ~1.5 lookups per sector, as Nsight Compute counts
 * lts__t_sectors.  Each slice serves
 * slice_bytes_per_cycle and performs atomics one lane update after another
 * (atomic_cycles each), so updates of one address, or of addresses sharing
 * a slice, serialise.  Misses and dirty evictions go to DRAM.
 *
 * Writes allocate without fetching.  A write that covers only part of a
 * write granule (write_granule bytes, e.g. the ECC word of an inline-ECC
 * GDDR5 part) of a sector the L2 does not hold first reads the sector from
 * DRAM: the check bits cover the whole granule, so the bytes the write
 * leaves out are needed to compute them (a read-modify-write).  With
 * write_granule 0 the L2 keeps byte masks and merges partial writes with
 * no read; with partial_fill (a DRAM that only takes whole sectors, as
 * HBM's ECC does) a sector still incomplete when it is written back, or
 * when a read wants it, is then read from DRAM and merged; a set keeps
 * such sectors in at most partial_ways lines.  A partial write into an
 * absent or incomplete sector occupies its slice for partial_write_cycles
 * where a whole sector takes 32 bytes' worth; that is the tag and byte-mask
 * work of the line, done once for the sectors of one line a request
 * writes: the others take their 32 bytes' worth ([M] tests/microbench
 * mb_store: 4-byte stores completing 4 sectors of a line a request write
 * 1.6x the sectors per cycle that those completing 1 a line do).
 *
 * Lanes.  Address blocks come in rows of `slices` blocks, one to each
 * slice (rotated by a hash of the row: no power-of-two stride camps on a
 * slice); slice k is partition k / lanes' slice of lane k % lanes (lanes
 * = slices / partitions).  A far read looks in its near partition's slice of the same
 * lane before the home one, so an address block only ever touches the
 * slices of one lane.  Each slice holds its own sets (a line's set from
 * its row and offset: consecutive rows take consecutive sets, so a
 * streaming write spreads over them as over one cache), dirty lines and
 * byte masks, and each lane its own DRAM channels (dram.h's groups, its
 * rows' blocks dealt over them in turn): the lanes share no state, so
 * requests can be served lane by lane on several threads, each lane's in
 * their order, with the answer the one serial order gives
 * (memmodel/memsys.c, doc/parallel.md).  On the GPU, too, each slice
 * caches its own memory controller's addresses. */
#ifndef MEMMODEL_L2_H
#define MEMMODEL_L2_H
#include "memmodel/cache.h"
#include "memmodel/dram.h"
#include "util/host_line.h"

typedef struct l2_params {
  uint64_t bytes;
  uint32_t assoc, line_bytes, slices, partitions, interleave_bytes;
  double slice_bytes_per_cycle, atomic_cycles;
  uint32_t lat_hit, lat_atomic;    /* unloaded round trips from the SM, cycles */
  bool hash;                       /* slice = hash of the block, else block mod slices */
  uint32_t dirty_ways;             /* dirty lines a partition keeps: this many per set on average (0: no limit) */
  uint32_t write_granule;          /* bytes a write must cover whole not to fetch (0: never fetch) */
  bool partial_fill;               /* write_granule 0: fill incomplete sectors before write-back or a read */
  uint32_t partial_ways;           /* most lines per set with incomplete sectors (0: no limit) */
  double partial_write_cycles;     /* slice cycles of a write of part of a sector (0: as a whole one) */
  uint32_t fill_bytes;             /* a read miss's DRAM access: its aligned block of this size (0, 32: the sector) */
  double copy_write_cycles;        /* more slice cycles for a write of part of a sector another partition had a copy of */
  uint32_t far_atomic_fill_bytes;  /* fill_bytes of an atomic's miss that comes from another partition (0: fill_bytes) */
  double atomic_f16_cycles;        /* atomic_cycles of an update of 16-bit floats (0: atomic_cycles) */
} l2_params;

enum l2_op { L2_READ, L2_WRITE, L2_ATOMIC };
/* with an L2_ATOMIC's lanes: no old value returns (a reduction); the
 * result is when the slice has performed it */
#define L2_NO_RETURN 0x80000000u
/* ... of 16-bit floats (atomic_f16_cycles an update) */
#define L2_F16 0x40000000u

/* A partition's dirty lines in the order they became dirty (a ring of
 * line index and tag; an entry whose line now holds another tag, or is
 * clean, is stale), and how many lines are dirty. */
typedef struct l2_dirtyq {
  struct l2_dirty_entry { uint64_t tag; uint32_t line; } *e;
  size_t cap, head, n;
  uint64_t dirty;
} l2_dirtyq;

/* A slice: its sets, the data path (a timeline, timeline.h: requests
 * come in issue order), its atomic unit, byte masks and dirty lines. */
typedef struct l2_slice {
  timeline path;
  double atom_free;
  cache c;
  uint32_t *bytes;                 /* per line and sector: bytes written of a partial sector (partial_fill) */
  bool bytes_own;                  /* ... its own allocation (not the pool's) */
  l2_dirtyq dq;                    /* with dirty_ways below assoc */
} l2_slice;

/* A lane's counters (a lane's requests are served by one thread). */
typedef struct l2_lane_count {
  HOST_LINE_ALIGNED uint64_t hits, lookups;   /* sector lookups, both partitions */
  uint64_t write_fetches;          /* sectors read from DRAM for partial writes */
} l2_lane_count;

#define L2_COPIED_BITS ((size_t)1 << 20)

typedef struct l2sys {
  l2_params p;
  uint32_t lanes;                  /* slices / partitions */
  uint32_t ib_shift;               /* log2 interleave_bytes */
  uint64_t slices_inv;             /* 2^64 / slices, rounded up: block / slices by a multiply */
  l2_slice *slice;
  l2_lane_count *count;            /* per lane */
  dram *dram;
  _Atomic uint64_t *copied;        /* with partitions: L2_COPIED_BITS bits, lines by hash that were copied */
  lazypool pool;                   /* the slices' timelines */
  lazypool cpool;                  /* the slices' tags, lines and byte masks */
} l2sys;

/* d must have a channel group per lane (dram_init's groups). */
int l2_init(l2sys *l, const l2_params *p, dram *d);
/* The lane of addr's slice. */
uint32_t l2_lane_of(const l2sys *l, uint64_t addr);
/* Counters over all lanes (l2_counts), and each of them. */
l2_lane_count l2_counts(const l2sys *l);
uint64_t l2_hits(const l2sys *l);
uint64_t l2_lookups(const l2sys *l);
uint64_t l2_write_fetches(const l2sys *l);
void l2_free(l2sys *l);
/* Empty the partitions (a new run). */
void l2_reset(l2sys *l);
/* Forget the slices' bookings and the counters (the cache contents stay). */
void l2_reset_timing(l2sys *l);
/* One sector request (lanes: the lane updates of an atomic, with
 * L2_NO_RETURN and L2_F16 as they apply) from a unit
 * whose near partition is `near`, leaving the SM at cycle t.  Returns the
 * cycle the data (or the atomic's old value) is back at the SM; a
 * reduction's: the cycle its slice performed it. */
double l2_access(l2sys *l, uint32_t near, double t, uint64_t addr, enum l2_op op, uint32_t lanes);
/* A read whose DRAM access, if it misses, leaves miss_wait cycles after its lookup. */
double l2_read_late(l2sys *l, uint32_t near, double t, uint64_t addr, double miss_wait);
/* A write of the bytes in `bytes` (bit i: byte i of the 32-byte sector at
 * addr).  Returns the cycle the slice's acknowledgement is back at the SM
 * (an L2 round trip after the slice takes the write); *merged is when the
 * write is in the sector: the same, or for a partial write of an absent
 * sector (see write_granule above) when its DRAM read is back, the write
 * waiting meanwhile in the slice.  same_line: an earlier sector of the
 * same request was of addr's line (see partial_write_cycles above).
 * l2_access(..., L2_WRITE, ...) writes the whole sector. */
double l2_write(l2sys *l, uint32_t near, double t, uint64_t addr, uint32_t bytes, bool same_line, double *merged);
/* Whether a write of the bytes in `bytes` covers every write granule of
 * its sector that it touches (granule 0: always). */
bool l2_write_whole(uint32_t granule, uint32_t bytes);
/* Count lookups that hit without timing (launch bookkeeping traffic). */
void l2_count_hits(l2sys *l, uint64_t n);
#endif
