/* emu/sched.h - warp schedulers of the timing model (timing.c).
 *
 * Warps wait in one priority queue keyed by (cycle, priority): the cycle at
 * which a warp may try to issue, and among warps trying in the same cycle
 * on the same sub-partition the policy's order (lower first):
 *  - gto (greedy then oldest): the warp that issued last on the
 *    sub-partition keeps going while it is ready; otherwise the oldest;
 *  - lrr (loose round-robin): the warp that issued least recently first, so
 *    ready warps take turns;
 *  - two_level: only an active set of sched_active_warps warps per
 *    sub-partition may issue (lrr among them); a warp that stalls on a
 *    long-latency result (global memory), blocks at a barrier or exits
 *    leaves the set and the oldest pending warp takes its place. */
#ifndef EMU_SCHED_H
#define EMU_SCHED_H
#include <stdbool.h>
#include <stdint.h>
#include "emu/emu.h"
#include "emu/timing.h"
#include "util/host_line.h"

enum { TWARP_WAR_MAX = 16 };
enum { TWARP_ASYNC_CLASSES = 4 };     /* enum async_class (timing_insn.h) */
enum { TWARP_IFC_ROWS = 8 };          /* IFC_ROWS (timing_insn.h) */
typedef struct twarp {
  /* (what a warp's every event reads, on its first lines) */
  HOST_LINE_ALIGNED warp *w;          /* (a domain's warps on lines of their own: util/host_line.h) */
  uint32_t sm, sp, slot;
  uint32_t spi;                       /* sm * sub_partitions + sp                   */
  uint64_t *ready;                    /* per register row: cycle its value is ready */
  uint8_t *ready_why;                 /* per row: the stall reason while it is not   */
  uint64_t key, key_prio;             /* cycle it is queued for, and the entry's priority */
  uint64_t stale_t, stale_prio;       /* stale: the key of a queue entry that is no longer its event (sched_list_join) */
  uint64_t elig;                      /* cycle from which it could issue if selected (sm_samples) */
  uint64_t issued1;                   /* 1 + the cycle of its last issue; 0: none    */
  uint64_t age, stamp;                /* start order; order of its last issue (lrr) */
  uint64_t iline1, iready;            /* 1 + the code line it last fetched, and when that is in L0 */
  struct sched_list *wl;              /* the list it waits in without an event (sched_list) ... */
  uint64_t wl_since;                  /* ... since this cycle, for this reason (enum timing_stall), */
  uint64_t wl_own;                    /* ... its own waits over by this cycle (timing.c stays_first) */
  uint8_t wl_why;
  bool queued, active, parked, stale;
  uint8_t war_n;                      /* (war_*, below) */
  uint8_t iter_read_why;              /* (iter_read_at, below) */
  uint8_t blocked_why;                /* blocked (barrier, warp-level wait) since ... */
  uint32_t gap_mask;                  /* the reasons of the wait before the next issue ... */
  uint32_t gap[STALL_NREASONS];       /* ... and their cycles so far (enum timing_stall, saturating) */
  uint64_t mio_next;                  /* its next LSU instruction issues no sooner (mio_warp_interval) */
  uint64_t stores_done;               /* when its last reduction completes (drain) */
  uint64_t iter_read_at;              /* when its stores and reductions since its last wait for them have read
                                         their registers (iter_read_wait) ... */
  uint32_t iter_pc;                   /* ... the PC of the last of them, and what its read waits for (iter_read_why) */
  uint32_t loopst[2];                 /* the back-edge PC of the unrolled loop it runs (deps.loop_end), its iterations */
  uint32_t ifreg[2];                  /* the predicated region (deps.ifconv_end) it runs, [start, end) */
  uint64_t ldc_done;                  /* the LDCs it has made: of deferred pointer parameters (ldc_at_use), of its stack pointer (timing.c) */
  uint64_t desc_ready;                /* 1 + when its memory descriptor's ULDC is done (imc_desc); 0: not read */
  /* (the rest, now and then) */
  uint64_t blocked_at, parked_at;
  uint64_t imc_busy;                  /* its last immediate-constant miss is served then (memsys_imc) */
  uint64_t exit_t;                    /* cycle all its threads had exited; 0: not yet */
  /* asynchronous groups, per class (enum async_class, timing_insn.h):
   * completion of the uncommitted operations and of the committed groups,
   * oldest first */
  uint64_t grp_open[TWARP_ASYNC_CLASSES];
  uint64_t grp_done[TWARP_ASYNC_CLASSES][8];
  uint8_t grp_n[TWARP_ASYNC_CLASSES];
  struct twarp *next_parked;
  uint32_t release_extra;             /* cycles its release from the barrier it blocks on takes beyond barrier_cycles (barrier.cluster) */
  /* registers its memory instructions waiting in the MIO or LG queue have
   * yet to read (the SASS read barriers): written only once read (war_n) */
  uint8_t war_why[TWARP_WAR_MAX];
  uint32_t war_row[TWARP_WAR_MAX];
  uint64_t war_t[TWARP_WAR_MAX];
  uint64_t war_last;                  /* ... the last of those reads */
  uint64_t hoist_t0;                  /* when the current copy group of its unrolled loop began (deps.hoist; kept by its slot) */
  double smem_own;                    /* when its next shared access may begin: after its last one's wavefronts (memsys_shared) */
  /* its last whole-warp shared accesses through a register, two kept
   * (timing.c timing_shared_again): the PC, its place in straight-line
   * code (instructions executed less the PC) and block, bytes,
   * displacement and wavefronts (size 0: none) */
  struct tshared_last { uint64_t base; int64_t imm; uint32_t pc, linear, size, wf, ideal; } sh[2];
  uint8_t sh_next;                    /* the one to replace */
  /* an if/else ptxas predicates (deps.ifconv_end, ifc_*): its rows as they
   * were before it (ifc_prev) and as the path that ran first left them
   * (ifc_other), for the one after (timing.c ifc_*); ifc_ok: kept (no
   * value was pending) */
  bool ifc_ok;
  uint8_t ifc_n;
  uint8_t ifc_prev_why[TWARP_IFC_ROWS], ifc_other_why[TWARP_IFC_ROWS];
  int32_t ifc_row[TWARP_IFC_ROWS];
  uint64_t ifc_prev[TWARP_IFC_ROWS], ifc_other[TWARP_IFC_ROWS];
} twarp;

/* The warp waits len cycles for reason why before its next issue: added to
 * that reason's part of the wait (the parts are made at the issue,
 * timing.c gap_parts; a part stops at 2^32 - 1 cycles). */
static inline void twarp_note_wait(twarp *tw, int why, uint64_t len) {
  if (!len) return;
  uint32_t *g = &tw->gap[why];
  if (len > UINT32_MAX || __builtin_add_overflow(*g, (uint32_t)len, g)) *g = UINT32_MAX;
  tw->gap_mask |= 1u << why;
}

/* A wait of len cycles behind a busy pipe (math_pipe_throttle) that takes
 * an instruction every share cycles: in one of every share of those
 * cycles the pipe was free and another warp was selected, which Nsight
 * Compute counts as not_selected ([M] tests/microbench mb_alu: 8 warps a
 * sub-partition on the ALU, ii 2: 42 % not_selected, 42 %
 * math_pipe_throttle).  So too behind the SM's LSU port (dispatch_stall,
 * lsu_port: mb_l1w 15-18 % dispatch_stall, 17-23 % not_selected).  Other
 * reasons, and resources of share 1, as they are. */
static inline void twarp_note_throttle(twarp *tw, int why, uint64_t len, uint32_t share) {
  if ((why == STALL_MATH_PIPE_THROTTLE || why == STALL_DISPATCH) && share > 1) {
    uint64_t free_cycles = len / share;
    twarp_note_wait(tw, STALL_NOT_SELECTED, free_cycles);
    len -= free_cycles;
  }
  twarp_note_wait(tw, why, len);
}

/* Warps held back by one resource that frees for one warp at a time (a
 * full MIO queue, a unit or a sub-partition's scheduler busy with another
 * warp):
 * only the first by priority has an event, at the cycle the resource
 * frees (*free_at); the others wait in the list without one, so the
 * resource costs an event per grant rather than one per waiting warp per
 * cycle. */
typedef struct sched_list {
  struct twarp **w, *head;
  uint32_t n, cap;
  const uint64_t *free_at;            /* the cycle the resource frees next      */
  uint32_t share;                     /* a pipe's: the cycles it takes an instruction in (twarp_note_throttle) */
  bool give_way;                      /* the first warp gives its place to one that goes before it (sched_list_join) */
} sched_list;

typedef struct heapent { uint64_t t, prio; twarp *tw; } heapent;

typedef struct sched_sp { HOST_LINE_ALIGNED twarp *greedy, *phead, *ptail; uint32_t nactive; } sched_sp;

typedef struct sched {
  int policy;                         /* enum gpu_sched                              */
  uint32_t active_limit;
  heapent *heap;
  uint32_t nheap, capheap;
  sched_sp *sp;                       /* per SM and sub-partition                   */
  uint64_t counter;                   /* ages and issue stamps                      */
  bool own_sp;                        /* sp allocated by sched_init                 */
} sched;

int sched_init(sched *s, int policy, uint32_t nsp_total, uint32_t active_limit);
/* A queue for part of the SMs, over a per-sub-partition array sp of all
 * of them that the caller owns (each warp touches its own entries only). */
void sched_init_part(sched *s, int policy, sched_sp *sp, uint32_t active_limit);
void sched_free(sched *s);
/* a new warp: its age */
void sched_add(sched *s, twarp *tw);
/* queue tw for cycle t; -1 when out of memory */
int sched_push(sched *s, twarp *tw, uint64_t t);
/* the next warp to try; false when none is queued */
bool sched_pop(sched *s, heapent *out);
/* drops the stale entries (sched_list_join) at the head of the queue:
 * heap[0] is then the next warp sched_pop gives, whose cycle bounds a
 * window's run (the test inline: stale entries are few) */
void sched_drop_stale_at_head(sched *s);
static inline void sched_drop_stale(sched *s) {
  if (s->nheap && __builtin_expect(s->heap[0].tw->stale, 0)) sched_drop_stale_at_head(s);
}
/* two_level: may tw issue now?  If not it is parked until a place frees
 * (the test inline: most warps are in the active set, or the policy has
 * none) */
bool sched_admit_wait(sched *s, twarp *tw, uint64_t now);
static inline bool sched_admit(sched *s, twarp *tw, uint64_t now) {
  return s->policy != GPU_SCHED_TWO_LEVEL || tw->active || sched_admit_wait(s, tw, now);
}
/* the order among warps trying in the same cycle (lower first) */
uint64_t sched_priority(const sched *s, const twarp *tw);
/* tw, held back by l's resource at now, waits in l (counted as why): 1;
 * where it goes before the list's first warp and the list gives way, it
 * becomes the first and that one waits in the list again (its queue entry
 * stale: sched_pop drops it), unless that one gave way so before with its
 * entry still queued; 0: l is full, or tw goes before the first warp and
 * that one does not give way, and tw is to be queued as usual; -1: out of
 * memory */
int sched_list_join(sched *s, sched_list *l, twarp *tw, uint64_t now, int why);
/* the first warp's event came at now: it leaves l to try to issue (its
 * wait counted), and the caller calls sched_list_pick once it has tried */
void sched_list_leave(sched_list *l, twarp *tw, uint64_t now);
/* without a first warp: the next one by priority gets the event, at the
 * cycle the resource frees but not before now (-1: out of memory) */
int sched_list_pick(sched *s, sched_list *l, uint64_t now);
/* tw issued */
void sched_issued(sched *s, twarp *tw);
/* tw leaves the active set (two_level); a parked warp is queued at now */
int sched_leave(sched *s, twarp *tw, uint64_t now);
#endif
