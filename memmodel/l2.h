/* memmodel/l2.h - the L2 cache: slices grouped into partitions, each
 * partition one sectored, write-back, write-allocate cache.  An address
 * block of interleave_bytes lives in one slice (a hash spreads blocks over
 * slices); the slice's partition is its home.  With several partitions (as
 * on A100/H100) a unit first looks in its near partition, which keeps
 * clean copies of far data it read: a far read that misses there is looked
 * up again at home, so a streaming read makes ~1.5 lookups per sector, as
 * Nsight Compute counts lts__t_sectors.  Each slice serves
 * slice_bytes_per_cycle and performs atomics one lane update after another
 * (atomic_cycles each), so updates of one address, or of addresses sharing
 * a slice, serialise.  Misses and dirty evictions go to DRAM. */
#ifndef MEMMODEL_L2_H
#define MEMMODEL_L2_H
#include "memmodel/cache.h"
#include "memmodel/dram.h"

typedef struct l2_params {
  uint64_t bytes;
  uint32_t assoc, line_bytes, slices, partitions, interleave_bytes;
  double slice_bytes_per_cycle, atomic_cycles;
  uint32_t lat_hit, lat_atomic;    /* unloaded round trips from the SM, cycles */
  bool hash;                       /* slice = hash of the block, else block mod slices */
  uint32_t dirty_ways;             /* most dirty lines per set (0: no limit) */
} l2_params;

typedef struct l2_slice { double free, atom_free; } l2_slice;

enum l2_op { L2_READ, L2_WRITE, L2_ATOMIC };

typedef struct l2sys {
  l2_params p;
  cache *part;                     /* one cache per partition */
  l2_slice *slice;
  dram *dram;
  uint64_t hits, lookups;          /* sector lookups, both partitions */
} l2sys;

int l2_init(l2sys *l, const l2_params *p, dram *d);
void l2_free(l2sys *l);
/* One sector request (lanes: the lane updates of an atomic) from a unit
 * whose near partition is `near`, leaving the SM at cycle t.  Returns the
 * cycle the data (or the atomic's old value) is back at the SM. */
double l2_access(l2sys *l, uint32_t near, double t, uint64_t addr, enum l2_op op, uint32_t lanes);
/* Count lookups that hit without timing (launch bookkeeping traffic). */
void l2_count_hits(l2sys *l, uint64_t n);
#endif
