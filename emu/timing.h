/* emu/timing.h - the cycle-approximate timing model (ptxemu run --timing).
 *
 * The functional emulator stays the single source of results; the timing
 * model only decides WHEN each warp instruction issues:
 *  - CTAs are placed on SMs up to the occupancy limit of the configuration
 *    (gpu/config.h) and a finished CTA frees its slot for the next;
 *  - each SM has sub-partitions, each issuing at most one warp instruction
 *    per cycle, the ready warp its scheduler policy picks (sched.h: gto,
 *    lrr, two_level);
 *  - an instruction issues when its source registers are ready (a per-warp
 *    scoreboard of register rows), its unit's issue interval has passed, and
 *    its sub-partition is free; its results are ready after the unit's
 *    latency (plus register-bank conflict cycles), or the memory system's
 *    latency for loads; branches, reconvergence, instruction-buffer refills
 *    and memory barriers delay the warp's next instruction;
 *  - every issue records why the warp waited (enum timing_stall);
 *  - memory: sectored L1 per SM, sectored L2 shared by all SMs, DRAM with a
 *    bandwidth queue; shared memory serves one wavefront per cycle per SM.
 * Nothing runs for idle cycles: warps wait in a priority queue keyed by the
 * cycle at which they can issue next; warps that only another warp's turn
 * holds back (a full MIO queue, a busy unit, the scheduler) wait in a list
 * per resource in which only the first has an event (sched_list). */
#ifndef EMU_TIMING_H
#define EMU_TIMING_H
#include <stdint.h>
#include "gpu/config.h"

/* Why a warp waited before an instruction issued: the ids of the
 * stall_reasons table of traces (traces/schema.c, ptxemu-trace(5)).  An
 * instruction gets the reason that held it longest.
 *
 * Warp states, the one definition (doc/stall-reasons.md): each cycle of a
 * warp is in one state, as Nsight Compute's smsp__warps_issue_stalled_*
 * counters count them.  The cycle a warp issues is 'selected'; the cycles
 * since its previous issue are charged to the instruction's stall reason.
 * timing.c charges them as it issues (timing_result.stall_cycles, and the
 * observer's on_timing, which traces store in warp_runs.stall_cycles); every
 * view of them (ptxemu run --stats, the stall_breakdown views, ptxemu stats,
 * the HTML report) sums those numbers. */
enum timing_stall {
  STALL_SELECTED = 1, STALL_NOT_SELECTED, STALL_LONG_SCOREBOARD, STALL_SHORT_SCOREBOARD, STALL_WAIT,
  STALL_BARRIER, STALL_MEMBAR, STALL_MATH_PIPE_THROTTLE, STALL_MIO_THROTTLE, STALL_LG_THROTTLE,
  STALL_TEX_THROTTLE, STALL_BRANCH_RESOLVING, STALL_NO_INSTRUCTION, STALL_DISPATCH, STALL_DRAIN,
  STALL_SLEEPING, STALL_MISC, STALL_IMC_MISS, STALL_NREASONS
};
/* stall_reasons.name of each id (index 0: none) */
extern const char *const timing_stall_names[STALL_NREASONS];

typedef struct timing_result {
  uint64_t cycles;                  /* kernel duration in SM cycles (sm__cycles_elapsed.max) */
  uint64_t l1_hits, l1_lookups;     /* global-load sectors                            */
  uint64_t l2_hits, l2_lookups;
  uint64_t dram_read_bytes, dram_write_bytes;
  uint64_t xbar_write_sectors;      /* store sectors the L1s sent to L2 (l1tex__m_l1tex2xbar_write_sectors) */
  double achieved_occupancy;        /* active warps / max warps, over active SM cycles */
  double theoretical_occupancy;
  uint64_t issued;                  /* warp instructions issued                       */
  uint64_t sass_issued;             /* the SASS instructions they stand for (estimate) */
  uint64_t stall_cycles[STALL_NREASONS];  /* warp cycles per state (enum timing_stall)     */
} timing_result;

#endif
