/* memmodel/dram.h - DRAM as channels of banks, each bank with one open
 * row.  An access to the open row only waits for the channel's data bus;
 * one to another row first precharges and activates (row_miss_cycles), and
 * a channel starts at most one activate every activate_cycles (the tRRD /
 * tFAW limits that make random access slower than streaming).  Times are
 * SM cycles, fractional because one 32-byte burst can take under a cycle. */
#ifndef MEMMODEL_DRAM_H
#define MEMMODEL_DRAM_H
#include <stdbool.h>
#include <stdint.h>

typedef struct dram_params {
  uint32_t channels, banks, row_bytes, interleave_bytes;
  double bytes_per_cycle;          /* all channels together */
  uint32_t row_miss_cycles, activate_cycles;
  uint32_t latency;                /* unloaded latency of a row miss, request to data */
  bool hash;                       /* channel = hash of the block, else block mod channels */
} dram_params;

typedef struct dram_bank { uint64_t row; double free; bool open; } dram_bank;
typedef struct dram_channel { double bus_free, act_free; } dram_channel;

typedef struct dram {
  dram_params p;
  dram_channel *ch;
  dram_bank *bank;                 /* channels * banks */
  double burst_cycles;             /* one 32-byte burst on one channel */
  uint64_t read_bytes, write_bytes, row_hits, row_misses;
} dram;

int dram_init(dram *d, const dram_params *p);
void dram_free(dram *d);
/* Which channel holds addr. */
uint32_t dram_channel_of(const dram *d, uint64_t addr);
/* One 32-byte access requested at cycle t: returns the cycle its data
 * reaches the requester (reads) or is written (writes). */
double dram_access(dram *d, double t, uint64_t addr, bool write);
#endif
