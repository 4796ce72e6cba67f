/* memmodel/ifetch.h - instruction fetch: when the code a warp is about to
 * issue is in its sub-partition's instruction buffer cache.
 *
 * Each sub-partition has an L0 instruction cache, each SM an L1
 * instruction cache behind it, fed from L2 (or DRAM, the first time a line
 * is fetched in a launch).  Code streams in 128-byte lines: a fetch engine
 * per sub-partition fills L0 from L1 and one per SM fills L1 from L2 or
 * DRAM, each taking a fixed number of cycles per line, and both run
 * ifetch_ahead lines ahead of the warp that asked (the sequential
 * prefetch that lets straight-line code run at the engines' rate).  The
 * first icache_launch_bytes of the kernel are in every SM's L1 when the
 * launch starts.  Every figure comes from the GPU configuration
 * (icache_* parameters); icache_l0_bytes = 0 turns the model off. */
#ifndef MEMMODEL_IFETCH_H
#define MEMMODEL_IFETCH_H
#include <stdbool.h>
#include <stdint.h>
#include "gpu/config.h"

typedef struct ifetch ifetch;

/* NULL when out of memory or when the configuration has no instruction caches. */
ifetch *ifetch_new(const gpu_config *g, uint32_t nsm);
/* The host memory ifetch_new would take (checked against the memory cap). */
uint64_t ifetch_host_bytes(const gpu_config *g, uint32_t nsm);
/* Whether f was made for this configuration and SM count (reuse it). */
bool ifetch_fits(const ifetch *f, const gpu_config *g, uint32_t nsm);
/* A new launch: every cache empty, code_bytes of code that begins with the
 * kernel (its .text section: its first icache_launch_bytes preloaded, in
 * SM sm's L1 from cycle start + icache_launch_cycles + sm *
 * icache_launch_sm_cycles, start being the first block's start). */
int ifetch_launch(ifetch *f, uint64_t code_bytes, double start);
/* SM sm's first block of the launch starts: its L1 takes those first lines,
 * on the thread that runs the SM (the caches' first touch of their host
 * memory spread over the threads, not made by the launching one for all
 * SMs).  Before the SM's first ifetch_line. */
void ifetch_sm_start(ifetch *f, uint32_t sm);
/* The cycle the line holding code byte addr is in sub-partition sp of SM
 * sm, for a warp reaching it at cycle t (fetching it and the lines after
 * it when they are missing). */
double ifetch_line(ifetch *f, uint32_t sm, uint32_t sp, double t, uint64_t addr);
/* Each sub-partition forgets its last fetch, whose lines ifetch_line
 * takes again without looking them up when the next fetch is of the same
 * line (the answers are the same either way: the tests compare them). */
void ifetch_forget_last(ifetch *f);
void ifetch_free(ifetch *f);
/* Windowed mode: a line an SM fetches from DRAM is in L2 for the other
 * SMs only from the next ifetch_commit (the end of the window of cycles),
 * so that an SM's fetches within a window depend on its own state alone. */
void ifetch_windowed(ifetch *f, bool on);
int ifetch_commit(ifetch *f);
#endif
