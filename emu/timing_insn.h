/* emu/timing_insn.h - what the timing model needs to know about each
 * instruction (timing.c): the register rows it reads and writes, its unit's
 * latency and issue interval (tensor instructions by shape and type),
 * register-bank conflicts, what it does to the issuing warp, and whether
 * the modelled GPU has it at all. */
#ifndef EMU_TIMING_INSN_H
#define EMU_TIMING_INSN_H
#include <stdint.h>
#include "emu/emu.h"
#include "gpu/config.h"

#define MAX_DEPS 16
#define IFC_ROWS 8                    /* rows an if/else's paths rename (deps.ifc_w) */

/* What an instruction does to the warp that issues it, besides results. */
enum dep_kind { DK_PLAIN, DK_BRANCH, DK_MEMBAR, DK_SLEEP,
                DK_ASYNC_OP, DK_ASYNC_COMMIT, DK_ASYNC_WAIT };   /* the DK_ASYNC_* last: they have a grp */
/* Operations that complete in the background, in groups the program
 * commits and waits for: wgmma (wgmma.commit_group / wait_group), cp.async
 * (cp.async.commit_group / wait_group / wait_all) and the bulk copies to
 * global memory (cp.async.bulk.commit_group / wait_group): their writes
 * done (AC_BULK), or only their reads of shared memory (AC_BULK_READ,
 * wait_group.read), committed together. */
enum async_class { AC_WGMMA, AC_CP_ASYNC, AC_BULK, AC_BULK_READ, AC_COUNT };

/* Loops ptxas unrolls (gpu_config.unroll_factor): a single-block loop
 * counted by an induction variable with a constant step.  Its copies share
 * one loop test, so on all but one of every unroll_factor iterations the
 * loop control (the induction update, the compare, the back-edge branch)
 * costs nothing: no issue slot, no wait, no branch or refill. */
enum loop_role { LOOP_NONE, LOOP_CONTROL, LOOP_BACKEDGE };
/* deps.cta_bar: what a CTA barrier instruction does */
enum { BAR_ARRIVES = 1, BAR_WAITS = 2 };

/* Registers an instruction reads and writes (rows) and its timing class,
 * computed once per program PC. */
typedef struct deps {
  int32_t src[MAX_DEPS], dst[MAX_DEPS];
  uint8_t nsrc, ndst, unit;
  uint8_t kind;                       /* enum dep_kind                            */
  uint8_t bank_extra;                 /* operand-collection cycles lost to bank conflicts */
  bool sfu_scaled;                    /* a special function scaled around its MUFU (isa_sass_seq.scaled): the
                                         scaling's cycles at the end of its latency are fixed ('wait') */
  bool free;                          /* ptxas emits no SASS for it (a register copy, a
                                         global cvta): no issue slot, no latency */
  uint8_t result_why;                 /* what a dependent instruction waits for   */
  uint8_t imc_sreg;                   /* 1 + the offset in constant bank 0 of the %ntid or %nctaid
                                       * it reads (through the immediate-constant cache); 0: none */
  uint8_t throttle_why;               /* the reason while its unit is busy        */
  bool s2r;                           /* a special register read by S2R or S2UR (gpu_config.lat_s2r) */
  bool s2r_seq;                       /* ... whose SASS sequence goes on with its result (%warpid: S2R, SHF, SGXT):
                                         the warp's next instructions wait for it */
  bool gdesc;                         /* a global or generic access: its SASS reads the memory descriptor (imc_desc) */
  uint8_t static_gap;                 /* cycles after the warp's previous issue, ptxas's stall count
                                         (gpu_config.static_stalls; 0: none beyond its slots) */
  uint32_t lat, ii;                   /* latency and issue interval of its unit   */
  uint32_t slots;                     /* issue cycles it takes from its scheduler (a SASS sequence: its length) */
  uint32_t code_at;                   /* its first SASS instruction's number in the kernel's code
                                         (timing_code_bytes: the instruction caches' addresses) */
  uint8_t after_why;                  /* DK_MEMBAR: the stall reason of `after` (0: membar) */
  uint32_t after;                     /* membar, nanosleep, call, ret: cycles before the warp's next issue */
  uint32_t grp_keep;                  /* wait_group N: the newest N groups may stay pending */
  uint8_t grp;                        /* enum async_class of DK_ASYNC_*           */
  bool grp_open_too;                  /* cp.async.wait_all: the uncommitted copies as well */
  bool join;                          /* the meeting point of a divergent branch's paths (joins.c): a group
                                         that stops here for another is a path switch (reconverge_cycles) */
  uint32_t ifconv_end;                /* a branch of a region ptxas predicates: the region's end (join) PC; 0: none */
  /* ... an if/else there: ptxas computes both paths from the registers
   * as they were before it, the second's writes renamed, and selects at
   * the join (timing.c ifc_*) */
  uint16_t ifc_src;                   /* on a path: sources (bits) the other path writes, read as they were */
  uint16_t ifc_first, ifc_last;       /* ... its first and last write (bits of dst) of a row both paths write */
  uint8_t ifc_nw;                     /* its first branch: the rows to keep as they were (ifc_w, at the end) */
  bool unread;                        /* a memory access whose result nobody reads (drain) */
  bool rz;                            /* ... in shared memory: the SASS's ATOMS writes RZ (no register to wait for);
                                         in global memory with atomics_in_flight: a REDG, none either */
  bool gatom;                         /* an atom or red not of shared space: one of the SM's atomics in flight
                                         where it goes to global memory (atomics_in_flight) */
  bool atom_f16;                      /* an atom or red of 16-bit floats (l2_atomic_f16_cycles) */
  uint8_t cta_bar;                    /* a CTA barrier arrival (bar, barrier: not .cluster): BAR_ARRIVES, or
                                         BAR_WAITS too (sync, red) */
  bool iter_read;                     /* a store or reduction: once a loop iteration it waits for the
                                         warp's earlier ones to have read their registers (iter_read_wait) */
  bool lsu;                           /* a shared, global or local access or an atomic that makes its access (not fused) */
  bool port;                          /* a global load (not a local one): dispatched through the SM's LSU port (lsu_port) */
  bool queued;                        /* waits for a queue besides its unit: exits, or a shared access with mio_queue */
  bool exits;                         /* exit, or ret of the kernel: waits for the warp's stores (drain) */
  uint8_t loop;                       /* enum loop_role: ptxas's unrolling of its loop */
  uint32_t loop_end;                  /* LOOP_*, hoist: the PC of its loop's back-edge branch */
  uint8_t hoist;                      /* a load ptxas hoists across its loop's unrolled copies:
                                         1 + its place among them in the body (0: none) */
  uint8_t nhoist;                     /* ... how many such instructions the body has */
  uint8_t hoist_copies;               /* ... the copies hoisted together (gpu_config.hoist_regs) */
  uint8_t alt_ii;                     /* an integer add, move or shift ptxas can also issue to the FMA
                                         pipe (IMAD.IADD, IMAD.MOV, IMAD.SHL): that pipe's interval; 0: no */
  uint16_t seq_other_ii, seq_xu_ii;   /* a SASS sequence: the cycles its instructions hold the other
                                         math pipe (FMA for an integer one, ALU for a float one) and the
                                         SFU; ii is its own pipe's share (0: not a sequence) */
  /* ptxas reads a 64-bit kernel parameter (a pointer) with an LDC where it
   * is first used (gpu_config.ldc_at_use) */
  uint8_t defer;                      /* the ld.param of one: 1 + its number (it issues nothing) */
  uint64_t defer_mask;                /* the first of a block: bit j-1 for each deferred one (defer j) the
                                         block reads (a copy of one, such as its cvta, reads none) */
  /* ptxas's merging of scalar accesses into a vector one (fuse.c) */
  uint8_t fuse_bytes;                 /* it makes the merged access: its bytes a lane (0: no merge) */
  uint8_t fuse_pos;                   /* ... its own address less the merged access's */
  bool fused;                         /* another instruction of its group makes the access (free) */
  int32_t fuse_row;                   /* a fused load: the row of the access's result (-1: none) */
  int32_t ifc_w[IFC_ROWS];            /* (ifc_nw) */
} deps;

/* The SASS instructions d issues (none for one that leaves no SASS). */
static inline uint32_t deps_sass(const deps *d) { return d->free ? 0 : d->slots; }

/* Fill dep[0 .. e->nprog). */
void timing_build_deps(const emu *e, const gpu_config *g, deps *dep);
/* A unit's issue interval: it takes a warp instruction every that many cycles. */
uint32_t timing_unit_interval(const gpu_config *g, int unit);
/* ptxas's LDCs of pointer parameters in the blocks that use them
 * (gpu_config.ldc_at_use): deps.defer, deps.defer_mask, on the issue order
 * (after emu_reorder); row_defer (e->nrows, zeroed): per register row, 1 +
 * the number of the deferred parameter it holds, 0: none; defer_off (64):
 * each one's offset in the parameter block.  Out of memory: none deferred. */
void timing_mark_deferred_params(const emu *e, deps *dep, uint8_t *row_defer, uint32_t *defer_off);
/* ptxas's stall counts (gpu_config.static_stalls): deps.static_gap, in issue order. */
void timing_mark_static_gaps(const emu *e, const gpu_config *g, deps *dep);
/* Mark the instructions ptxas combines with their one reader into one SASS
 * instruction (combine.c; gpu_config.combine_ops), on PTX order; leader:
 * emu_block_leaders's.  timing_build_deps calls it. */
void timing_mark_combined(const emu *e, const gpu_config *g, deps *dep, const uint8_t *leader);
/* Mark the loads and stores ptxas merges into vector accesses (fuse.c;
 * gpu_config.fuse_bytes), on PTX order, the same way. */
void timing_mark_fused(const emu *e, const gpu_config *g, deps *dep, const uint8_t *leader);
/* The bytes of the kernel's SASS code, as a launch fetches it: insn_bytes
 * a SASS instruction (deps.slots), with the unroll_factor copies of each loop
 * ptxas unrolls besides the loop kept for the remaining iterations.
 * Sets deps.code_at: each PTX instruction's first SASS instruction's
 * number there (one ptxas combines into the next: the next one's).  As
 * ptxas lays out a kernel's .text section: kernel kfunc (the launched
 * one) first, then the functions it calls; the module's other functions
 * after them. */
uint64_t timing_code_bytes(const emu *e, const gpu_config *g, deps *dep, uint32_t kfunc);
/* Mark the loads ptxas hoists above the other copies of an unrolled loop
 * (deps.hoist), on the issue order (emu_reorder calls it). */
void timing_mark_hoisted(const emu *e, const gpu_config *g, deps *dep);
/* When a hoisted instruction's result is ready, issued at cycle t with
 * latency lat: ptxas issues the loads of hoist_copies copies of the body
 * (and their address arithmetic) first, so the one of copy k
 * (iteration ls[1] of the loop ls[0]) left at *t0 (when copy 0's first one
 * issued) plus its place among them, or when its sources were ready
 * (ready: the warp's register scoreboard), if later; copy 0 sets *t0.  The
 * result may be ready before t: the warp issued late, in PTX's copy order. */
uint64_t timing_hoisted_done(const gpu_config *g, const deps *d, const uint32_t ls[2], uint64_t *t0,
                             const uint64_t *ready, uint64_t t, uint64_t lat);
/* Every instruction the kernel kfunc can reach (its own, those of the
 * functions it calls; all functions when it calls indirectly) must exist on
 * the modelled GPU; otherwise a fault naming the first one, and -1. */
int timing_check_arch(emu *e, const gpu_config *g, uint32_t kfunc);
#endif
