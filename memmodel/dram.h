/* memmodel/dram.h - DRAM as channels of banks, each bank with one open
 * row.  An access to the open row only waits for the channel's data bus;
 * one to another row first precharges and activates (row_miss_cycles), and
 * a channel starts at most one activate every activate_cycles (the tRRD /
 * tFAW limits that make random access slower than streaming).  Times are
 * SM cycles, fractional because one 32-byte burst can take under a cycle.
 * Buses, activate slots and banks are timelines (timeline.h): requests
 * come in the order warps issue them, not the order they reach DRAM.
 * The channels are split into `groups` of equal size, one per L2 lane
 * (l2.h), which picks the channel of its group an access goes to. */
#ifndef MEMMODEL_DRAM_H
#define MEMMODEL_DRAM_H
#include <stdbool.h>
#include <stdint.h>
#include "memmodel/timeline.h"
#include "util/host_line.h"

typedef struct dram_params {
  uint32_t channels, banks, row_bytes, interleave_bytes;
  double bytes_per_cycle;          /* all channels together */
  uint32_t row_miss_cycles, activate_cycles;
  uint32_t latency;                /* unloaded latency of a row miss, request to data */
  bool hash;                       /* channel = hash of the block, else block mod channels */
  uint32_t groups;                 /* channel groups (0 or 1: one); channels a multiple of it */
} dram_params;

/* A bank's rows: the controller reorders its queue to serve requests to an
 * open row together (FR-FCFS), and requests reach this model in the order
 * warps issue them, not the order they reach the bank, so a bank keeps the
 * last DRAM_ROWS rows it opened (open page: a row stays until a newer one
 * replaces it), each with the earliest request cycle it served (first) and
 * when it opened (ready).  A request to one of them is a row hit unless it
 * comes more than DRAM_ROW_EARLY row misses before that row's first use. */
#define DRAM_ROWS 4
#define DRAM_ROW_EARLY 8
typedef struct dram_row { uint64_t row; double first, last, ready; bool open; } dram_row;   /* last: the latest request, for replacement */
typedef struct dram_bank { timeline busy; dram_row rows[DRAM_ROWS]; } dram_bank;
typedef struct dram_channel { timeline bus, act; } dram_channel;

/* A group's counters (a group's accesses come from one thread). */
typedef struct dram_count { HOST_LINE_ALIGNED uint64_t read_bytes, write_bytes, row_hits, row_misses; } dram_count;

typedef struct dram {
  dram_params p;
  dram_channel *ch;
  dram_bank *bank;                 /* channels * banks */
  double burst_cycles;             /* one 32-byte burst on one channel */
  uint32_t per_group;              /* channels per group */
  dram_count *count;               /* per group */
  lazypool pool;                   /* the channels' and banks' timelines */
} dram;

int dram_init(dram *d, const dram_params *p);
void dram_free(dram *d);
/* Forget every booking and open row (a new launch). */
void dram_reset(dram *d);
/* A channel of group g for addr by a hash of its block (for users that
 * do not lay addresses out themselves). */
uint32_t dram_channel_of(const dram *d, uint32_t g, uint64_t addr);
/* One 32-byte access on channel c (of group c / per_group) requested at
 * cycle t: returns the cycle its data reaches the requester (reads) or is
 * written (writes). */
double dram_access(dram *d, uint32_t c, double t, uint64_t addr, bool write);
/* Counters over all groups. */
dram_count dram_counts(const dram *d);
#endif
