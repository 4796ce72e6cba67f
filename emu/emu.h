/* emu/emu.h - functional execution of an assembled module.
 *
 * Model: a launch runs CTAs (blocks); a CTA holds warps of WARP_SIZE
 * threads.  A warp executes one instruction at a time for the group of its
 * threads that share a PC (SIMT); threads at other PCs wait and merge again
 * when the group reaches their PC (lowest call depth and PC run first).
 *
 * Registers: each warp owns rows of WARP_SIZE 64-bit lanes, one row per
 * register slot of the function plus pseudo-rows for special registers
 * (%tid.x ...).  A row holds each lane's value zero-extended from the
 * register's width.  Handlers work on whole rows (all 32 lanes in a loop
 * the compiler vectorises) and write only the lanes of their mask.
 *
 * Every instruction is prepared once per launch into an xinsn: its handler
 * (chosen by opcode, type and modifiers) and its operands resolved to row
 * pointers.  The interpreter loop is "x->fn(w, x, mask)".
 */
#ifndef EMU_EMU_H
#define EMU_EMU_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include "isa/isa.h"
#include "util/bits.h"
#include "memmodel/pattern_memo.h"

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu
typedef uint32_t lanemask;

struct emu;
struct warp;
struct cta;
struct xinsn;

typedef void (*xhandler)(struct warp *w, const struct xinsn *x, lanemask m);

/* Operand k of a prepared instruction. */
typedef struct xop {
  uint8_t kind;            /* enum isa_opnd_kind (REG/SREG/IMM are rows)          */
  uint8_t bits;            /* register width (for writes), 0 if not a register   */
  uint8_t comp;            /* component: .x ... / .b0 .. / .h0 .h1               */
  uint8_t neg;             /* !%p                                                 */
  int32_t row;             /* >= 0: register row of the warp; < 0: constant row -row-1 */
  int64_t imm;             /* immediate value (also in the constant row)          */
  const isa_opnd *o;       /* the encoded operand, for addresses, vectors, lists  */
} xop;

#define XOPS 8
typedef struct xinsn {
  xhandler fn;
  const isa_insn *in;      /* decoded fields: type, rnd, flags, cmp, bop, sub... */
  const isa_func *f;       /* function the instruction belongs to                 */
  uint32_t pc;             /* global PC: the index in emu.prog                    */
  uint32_t spc;            /* the instruction's own global PC (traces, messages); differs from pc
                              where a timed run reorders blocks (reorder.c)       */
  uint32_t target;         /* branch target (global PC) where it has one          */
  int32_t guard;           /* guard row or -1                                     */
  uint8_t guard_neg, nops, tbits, flags;   /* tbits: width of in->type            */
  uint32_t same_addr_as;   /* fast ld/st: 1 + the PC of the fast ld/st before it, in
                              straight-line code, through the same address register
                              that nothing between writes (emu_link_accesses); 0: none */
  xop op[XOPS];
} xinsn;

/* xinsn.flags */
enum { XF_CONTROL = 1,     /* may change control flow: core handles the PC        */
       XF_SYNC = 2,        /* warp-collective with a member mask                  */
       XF_CLOCK = 4,       /* reads %clock/%globaltimer: refresh before running   */
       XF_OFFSET = 8 };    /* has r+imm sources: their sums go to the offset rows first */

/* Special-register pseudo rows, after the functions' register slots and
 * the offset rows.  Ordered by how often a warp needs them: a register
 * file holds the rows up to the last one the kernel names (emu.warp_rows),
 * so the rarer ones (clusters, %envreg) come last. */
enum {
  SR_ZERO,                 /* %pm*, reserved offsets: read as 0                  */
  SR_CC,                   /* carry flag of add.cc/addc/madc... (bit 0 per lane)  */
  SR_TID_X, SR_TID_Y, SR_TID_Z, SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
  SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
  SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
  SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT, SR_LANEMASK_GE, SR_LANEMASK_GT,
  SR_CLOCK, SR_CLOCK_HI, SR_CLOCK64, SR_GLOBALTIMER, SR_GLOBALTIMER_LO, SR_GLOBALTIMER_HI,
  SR_DYNAMIC_SMEM_SIZE, SR_TOTAL_SMEM_SIZE, SR_AGGR_SMEM_SIZE,
  SR_CLUSTERID_X, SR_CLUSTERID_Y, SR_CLUSTERID_Z, SR_NCLUSTERID_X, SR_NCLUSTERID_Y, SR_NCLUSTERID_Z,
  SR_CLUSTER_CTAID_X, SR_CLUSTER_CTAID_Y, SR_CLUSTER_CTAID_Z,
  SR_CLUSTER_NCTAID_X, SR_CLUSTER_NCTAID_Y, SR_CLUSTER_NCTAID_Z,
  SR_CLUSTER_CTARANK, SR_CLUSTER_NCTARANK, SR_IS_EXPLICIT_CLUSTER,
  SR_ENVREG0,              /* %envreg0..31: what the driver passes a launch       */
  SR_COUNT = SR_ENVREG0 + 32
};

/* Thread states inside a warp. */
enum { TS_RUN, TS_EXITED, TS_BAR, TS_WSYNC, TS_SLEEP };

/* A fault stops the launch; everything needed for the report. */
typedef struct emu_fault {
  int kind;                /* enum emu_fault_kind                                 */
  uint32_t pc, lane;
  uint32_t cta[3], tid[3];
  uint64_t addr;
  uint32_t size;
  uint8_t space;           /* enum ptx_space                                       */
  char msg[256];
} emu_fault;

enum emu_fault_kind {
  FAULT_NONE, FAULT_OOB, FAULT_MISALIGNED, FAULT_TRAP, FAULT_ASSERT, FAULT_DEADLOCK,
  FAULT_BUDGET, FAULT_STACK, FAULT_UNSUPPORTED, FAULT_BAD_ADDRESS_SPACE, FAULT_HEAP,
  FAULT_TIMEOUT, FAULT_PROXY,
  FAULT_OUTPUT,            /* device printf output could not be written         */
  FAULT_MEMORY,            /* host memory or the device memory cap ran out: a limit */
  FAULT_STOPPED,           /* the host stopped the launch (emu_request_stop)      */
  FAULT_ILLEGAL            /* an instruction the GPU refuses as given (an illegal instruction there) */
};

typedef struct warp {
  /* (what every instruction reads first, on the struct's first line) */
  struct cta *cta;
  struct emu *e;
  uint64_t (*r)[WARP_SIZE];/* register rows: function slots, then SR_* rows       */
  lanemask exited;               /* threads that ran exit/ret from the kernel     */
  lanemask cur;                  /* the group executing now                       */
  uint32_t cur_pc;
  uint16_t cur_depth;
  bool force_sync;               /* release a warp-sync group that cannot complete */
  bool done;
  uint64_t insts, thread_insts;  /* executed warp / thread instructions           */
  uint32_t id;             /* warp index in the CTA                               */
  uint32_t nthreads;       /* threads that exist (the last warp may be partial)   */
  uint32_t nrows;
  uint32_t pc[WARP_SIZE];  /* global PC of each thread                             */
  uint8_t state[WARP_SIZE];
  uint16_t depth[WARP_SIZE];     /* call depth                                    */
  uint32_t fp[WARP_SIZE];        /* local-memory frame pointer (bytes)            */
  uint32_t dsp[WARP_SIZE];       /* alloca stack pointer: grows down from the top  */
  uint8_t barid[WARP_SIZE];      /* barrier a TS_BAR thread waits on              */
  int32_t red_row;               /* bar.red destination row, -1 none              */
  lanemask red_lanes;            /* lanes whose bar.red result is pending         */
  uint64_t next_key;             /* (depth, pc) key of the next waiting group      */
  uint64_t yield_key;            /* group that yielded after spinning              */
  uint32_t backjumps;            /* backward branches in a row while others wait  */
  uint8_t *local;                /* per-thread local memory, lane-major           */
  uint32_t local_stride;         /* bytes of local memory per thread              */
  void *async_state;             /* owned by exec_async.c (cp.async groups)       */
} warp;

typedef struct emu_barrier {
  uint32_t arrived;              /* threads arrived in this phase                */
  uint32_t expected;             /* 0: all non-exited threads of the CTA         */
  uint32_t red_count;            /* bar.red: arrived threads whose predicate was true */
  uint32_t red_false;            /* ... and those whose predicate was false       */
  uint16_t red_op;               /* MOD_POPC / MOD_AND / MOD_OR, 0 none           */
} emu_barrier;

typedef struct cta {
  struct emu *e;
  uint32_t id[3];
  uint32_t linear;
  uint32_t smid;
  uint8_t *shared;               /* static + dynamic shared memory                */
  uint32_t shared_size;
  uint32_t nwarps;
  warp *warps;
  uint32_t live_threads;         /* not exited                                    */
  uint32_t cluster_rank;         /* %cluster_ctarank                              */
  struct cta *peers;             /* the CTAs of this cluster, by rank             */
  void *async_state;             /* owned by exec_async.c (mbarrier/bulk groups)  */
  void *proxy_state;             /* owned by proxy.c (--strict-async marks)       */
  emu_barrier bar[16];
  bool done;
  uint64_t par_owner;            /* parallel launch: 1 + the cluster's number (parallel.c) */
} cta;

/* A device memory region (buffer, module variable, heap, params). */
typedef struct mem_region {
  uint64_t base, size;
  uint8_t *data;
  const char *name;
  bool readonly;                 /* a read-only cuMemMap mapping: host copies into it are refused (kernel stores are not checked) */
  bool mapped;                   /* data is an mmap of its own (large, lazily backed) */
  bool external;                 /* host memory mapped in (not freed by the emu)  */
  bool par_read_written;         /* a parallel launch read and wrote it: its reads are shadowed from the start (emu/parallel.c) */
} mem_region;

typedef struct emu_stats {
  uint64_t inst_executed;        /* warp instructions                             */
  uint64_t thread_inst_executed; /* thread instructions (active & guard true)     */
  uint64_t gld_requests, gld_sectors, gst_requests, gst_sectors;
  uint64_t shared_ld_requests, shared_st_requests;
  uint64_t shared_ld_wavefronts, shared_st_wavefronts;
  uint64_t shared_ld_bank_conflicts, shared_st_bank_conflicts;
  uint64_t atom_requests, atom_sectors, shared_atom_requests;
  uint64_t shared_atom_rounds;    /* a round per wavefront or per lane on one address */
  uint64_t gld_lines, gst_lines;  /* 128-byte lines (nvprof's transactions)        */
  uint64_t branches, divergent_branches;
} emu_stats;

typedef struct emu_launch {
  int func;                      /* kernel: index in the module                   */
  uint32_t grid[3], block[3], cluster[3];
  uint32_t dyn_shared;
  const uint8_t *params;         /* kernel parameter bytes, laid out as the params */
  uint32_t param_size;
  uint32_t envreg[32];           /* %envreg0..31 (a cooperative launch's grid-sync
                                    workspace is in 1 and 2, as CUDA's driver puts it) */
} emu_launch;

typedef struct emu_options {
  uint64_t max_warp_insts;       /* per launch; 0 = unlimited                     */
  double max_seconds;            /* per-launch wall-time budget; 0 = unlimited    */
  uint32_t resident_ctas;        /* CTAs run concurrently                         */
  uint32_t slice;                /* warp instructions before switching warps      */
  uint64_t heap_bytes;           /* device malloc heap                            */
  uint64_t mem_cap;              /* host memory the emulation may keep resident (--max-memory):
                                    device memory costs host memory only where touched */
  uint64_t device_bytes;         /* the modelled GPU's global memory: what allocations may total */
  uint32_t stack_bytes;          /* per-thread stack for calls                    */
  uint32_t nsm;                  /* %nsmid                                        */
  FILE *printf_out;              /* device printf                                  */
  bool counters;                 /* compute address-determined counters (sectors, wavefronts) */
  bool progress;                 /* progress line on stderr for long launches    */
  bool strict_async;             /* fault on async-proxy reads of unfenced generic writes (proxy.c) */
  uint32_t threads;              /* functional launches: worker threads (0, 1: the sequential loop) */
} emu_options;

/* Whether a global load x allocates in L1 on the timed GPU (the timing
 * model's path: the configuration's l1_caches_global, not .cg/.cv/.nc nor
 * volatile); false in a functional run. */
bool emu_load_cached_in_l1(const struct emu *e, const xinsn *x);

/* Cycles a warp waited for one reason (enum timing_stall) before an issue;
 * a wait can hold several (its own pipe's stall count, losing the
 * scheduler's choice, another warp's instruction in the pipe). */
#define EMU_STALL_PARTS 3
typedef struct emu_stall { uint8_t why; uint32_t cycles; } emu_stall;

/* Hooks for observers (traces).  NULL when nobody listens; the interpreter
 * tests one pointer. */
typedef struct emu_observer {
  void *ctx;
  void (*on_insn)(void *ctx, const warp *w, const xinsn *x, lanemask active, lanemask guard, lanemask taken);
  void (*on_mem)(void *ctx, const warp *w, const xinsn *x, const uint64_t *addr, lanemask m, uint32_t bytes,
                 uint32_t sectors, uint32_t lines, uint32_t wavefronts);
  /* timing mode only (any may be NULL): right after on_insn's instruction
   * ran, when it issued, when its results are ready, and the cycles since
   * the warp's previous issue by the reason that held it (nst parts of
   * EMU_STALL_PARTS at most, the largest first; 0 parts: an instruction
   * that leaves no SASS, which issues nothing; doc/stall-reasons.md); a
   * block's first issue-able cycle and the cycle after it ended; an SM's
   * resident and eligible warps at a cycle */
  void (*on_timing)(void *ctx, const warp *w, uint64_t issue, uint64_t complete, const emu_stall *st, int nst);
  void (*on_block_timing)(void *ctx, const cta *c, uint64_t start, uint64_t end);
  void (*on_sm_sample)(void *ctx, uint32_t sm, uint64_t cycle, uint32_t active, uint32_t eligible);
  /* before a warp instruction runs (may be NULL; the debugger stops here by
   * not returning): the group m about to execute it and its guard lanes g */
  void (*on_before_insn)(void *ctx, const warp *w, const xinsn *x, lanemask m, lanemask g);
  /* an instruction faulted (e->fault is filled; may be NULL): the warps are
   * still as the fault found them */
  void (*on_fault)(void *ctx, const warp *w, const xinsn *x);
  /* it may read any register row of any lane (the debugger prints them),
   * not only an instruction's operands: a warp's registers then start
   * zeroed whole and every special register is filled */
  bool reads_any_register;
  /* a run of instructions the observer folds into one record, counted
   * here instead of reported: while warp fold_w (NULL: none) goes on at
   * PC fold_next with the lanes fold_mask, unguarded, at a PC where
   * fold_pc is set, the interpreter adds one to fold_n and to fold_next
   * in place of calling on_insn.  A loop the same way: at PC fold_end (a
   * branch all the lanes take back to fold_loop; UINT32_MAX: none) it
   * counts an iteration in fold_reps (up to fold_reps_max), sets fold_n
   * to 0 and fold_next to fold_loop.  The observer sets them in on_insn
   * and takes the counts when it next hears from the interpreter
   * (traces/writer.c) */
  const warp *fold_w;
  uint32_t fold_next, fold_n;
  lanemask fold_mask;
  const uint8_t *fold_pc;
  uint32_t fold_loop, fold_end, fold_reps, fold_reps_max;
} emu_observer;

/* An observer that wants every memory access (its addresses and counters). */
static inline bool emu_obs_mem(const emu_observer *o) { return o && o->on_mem; }

/* A module loaded into the device: its variables' addresses (a CUDA
 * context holds several modules over one device memory). */
typedef struct emu_module {
  isa_module *m;
  uint64_t *sym_addr, *shared_sym_off, *func_addr;
} emu_module;

/* The access an access memo (emu.access_memo, span_memo) saw last: its
 * warp (and block), PC, and the warp's instruction count less that PC
 * (constant while the warp runs straight on), for the next access through
 * the same register (xinsn.same_addr_as; exec_mem.c came_from). */
struct emu_access_at { const warp *w; uint32_t linear, pc; uint64_t base; };

typedef struct emu {
  isa_module *m;                 /* the selected module (emu_module_select)       */
  emu_options opt;
  /* device memory */
  mem_region *regions;
  uint32_t nregions, capregions;
  uint64_t next_base;
  uint32_t last_region;          /* translation cache                             */
  uint64_t mem_used;
  /* address ranges reserved by cuMemAddressReserve, sorted by base: no
   * allocation is placed there, and only the regions mapped into them
   * (emu_map_reserved) can be reached */
  struct emu_vrange { uint64_t base, size; } *vranges;
  uint32_t nvranges, capvranges;
  bool aliased;                  /* some bytes have two device addresses (cuMemMap): launches run sequentially */
  uint64_t *sym_addr;            /* address of each module symbol                 */
  uint64_t *func_addr;           /* "address" of each function (for indirect calls) */
  /* the prepared program of the current launch */
  xinsn *prog;
  uint32_t nprog;
  uint32_t *func_base;           /* global PC of each function's first instruction */
  uint32_t *row_base;            /* first register row of each function           */
  int32_t *kmap;                 /* rows packed by liveness (rowpack.c): the kernel's
                                    slot s in storage row kmap[s] (s < kmap_n); NULL:
                                    every slot in row row_base[f] + s                */
  uint32_t kmap_n;
  struct emu_unpacked *unpacked; /* what the packing changed, to put back          */
  uint32_t pack_regs, pack_rows, pack_file_rows;   /* the last launch's packing: its kernel's
                                    registers in pack_rows rows, a warp's file in pack_file_rows
                                    (0: not packed) */
  uint64_t (*konst)[WARP_SIZE];  /* constant rows                                  */
  uint32_t nkonst, capkonst;
  uint32_t *konst_index;         /* open-addressing hash of the rows: 1 + row, 0 free */
  uint32_t konst_icap;           /* its size, a power of two (2 x capkonst)       */
  uint32_t *frame_size;          /* per function: local frame bytes               */
  uint32_t *params_off;          /* per function: offset of formal params in frame */
  uint32_t *rets_off;
  uint32_t *scoped_param_off;    /* per function: offset of scoped .param area    */
  uint32_t *local_off;           /* per function: offset of .local area           */
  uint32_t *regsave_off;         /* per function: register save area (recursion)  */
  uint8_t *recursive;            /* per function: can call itself                 */
  uint32_t local_per_thread;     /* local memory bytes per thread                 */
  bool local_reached;            /* an instruction may access local memory (a reused
                                    warp's is cleared only then)                  */
  uint32_t alloca_bytes;         /* of which the top part is for alloca           */
  uint32_t nrows;                /* register rows (max over functions + offsets + SR) */
  uint32_t warp_rows;            /* of which a warp's register file holds the first ones: up to
                                    the last special row the kernel uses (all for an observer) */
  uint32_t sr_base;              /* first special-register row                    */
  uint32_t off_base;             /* rows of the r+imm operands of the instruction running (k-th
                                    operand: off_base + k), after the functions' registers; none
                                    (sr_base == off_base) where no instruction has one */
  bool reads_envreg;             /* the kernel names %envregN: its rows are filled */
  uint64_t sr_used;              /* bit k: special row k (< SR_ENVREG0) is named by the program */
  uint32_t *clear_runs;          /* register rows a reused register file must have cleared:
                                    pairs (first row, count), nclear_runs of them */
  uint32_t nclear_runs;
  emu_launch launch;
  uint64_t param_addr;           /* device address of the kernel parameters       */
  uint32_t param_cap;            /* and the size of that region                   */
  uint32_t static_shared;
  uint64_t *shared_sym_off;      /* per module symbol: offset in shared memory    */
  /* heap (builtins.c): the allocator's state, kept outside device memory */
  uint64_t heap_base, heap_size;
  void *heap_blocks;
  uint32_t nheap;                /* live blocks                                   */
  /* results */
  emu_stats stats;
  /* recent access patterns (lanes' address registers less lane 0's) and
   * their counters (shared: wavefronts and ideal ones; global: sectors and
   * lines), for the functional counters (exec_mem.c) */
  struct emu_access_memo {
    uint64_t rel[WARP_SIZE]; uint32_t size, phase, n1, n2; bool valid;
    struct emu_access_at at;
  } access_memo[8];
  /* a whole warp's shared access through a register (by row, 4 kept): the
   * OR of its lanes' low 32 bits (their alignment) and a bound on them (the
   * greatest where it was looked for, else the OR), where the next access
   * through it, unwritten since, needs only its own displacement added
   * (exec_mem.c fast_span) */
  struct emu_span_memo { struct emu_access_at at; uint32_t any, bound; } span_memo[4];
  /* the sectors and lines of the last global access counted from its
   * addresses (count_global: timed runs, partial warps, atomics), for the
   * next with the same lane pattern moved by whole lines
   * (memmodel/pattern_memo.h) */
  struct emu_sector_memo { pattern_memo p; uint32_t sectors, lines; } sector_memo;
  emu_fault fault;
  bool faulted;
  uint64_t warp_insts;           /* this launch, for the budget                   */
  uint64_t deadline_ns;          /* CLOCK_MONOTONIC end of the wall-time budget; 0: none */
  uint64_t rss_checked_ns;       /* when emu_over_budget last read the resident memory */
  uint64_t rss_base;             /* resident memory when the device was created: the cap
                                    holds what the emulation added to it */
  const char *stop_reason;       /* emu_request_stop: end the launch at the next budget check */
  uint32_t gridid;
  emu_observer *obs;
  const struct gpu_config *timing_cfg; /* non-NULL: timing mode on this GPU (timing.c) */
  struct memsys *memsys_keep;    /* timing: the memory system of the last launch, reset and reused */
  struct ifetch *ifetch_keep;    /* timing: the instruction caches of the last launch, likewise */
  struct timing_state *timing;   /* the timing model while a timed launch runs    */
  struct timing_result *timing_out; /* figures of the last timed launch            */
  uint64_t cycle_now;            /* timing mode: the cycle being simulated (for %clock) */
  /* timing mode: the wavefronts the model just found for a shared access
   * (timing_mem), which its counters take rather than count again: a
   * merged access's for the instruction that makes it, none for the
   * others of its group (emu/fuse.c) */
  struct emu_shared_wf { uint32_t wf, ideal; bool valid; } shared_wf;
  double progress_start, progress_last;  /* progress line (run.c)                */
  /* register and local-memory buffers of finished warps, reused (run.c) */
#define EMU_POOL 256
  uint64_t (*pool_regs[EMU_POOL])[WARP_SIZE];
  uint8_t *pool_local[EMU_POOL];
  uint32_t npool;
  uint32_t pool_rows, pool_local_stride;   /* the pooled buffers' register rows and local bytes per thread */
  _Atomic uint64_t warp_bytes;   /* host memory of the launch's warp buffers (counted against mem_cap; atomic: a timed launch's thread that takes an SM over moves its blocks' count from the thread that had them) */
  /* device printf buffer (builtins.c: written out when full and after each launch) */
  char *pbuf;
  size_t plen, pcap;
  void *textures;                /* texture/surface objects (texobj.c)             */
  void *cdp;                     /* device-side launches (cdp.c)                  */
  emu_module *mods;              /* every module loaded, in load order            */
  uint32_t nmods;
  uint32_t next_func_index;      /* function "addresses" are unique across modules */
  struct emu_par *par;           /* a parallel launch's worker copy: its access log (parallel.c); NULL otherwise */
  uint64_t par_launches, par_fallbacks; /* launches tried on several threads, and those run again sequentially */
  uint64_t par_retries;          /* attempts run again because a region read without its shadow was written */
  const char *par_last;          /* how the last launch ran ("parallel", or why it was sequential) */
  /* where the host time of the last timed launch went (run -v; wall
   * clock, so not part of the counters): its windows, the serving of the
   * L2 and DRAM requests (on one thread), the windows' domains together
   * with that serving, and the edges between windows */
  struct { uint64_t windows, serve_ns, window_ns, edge_ns; } timing_wall;
} emu;

/* ---- life cycle (emu/device.c) ---- */
/* A device with module m loaded and selected (m may be NULL: none yet). */
emu *emu_new(isa_module *m, const emu_options *opt);
/* Load another module into the same device memory (its variables get
 * their own regions, initialised); returns its index, or -1 (memory cap).
 * The emu does not own m. */
int emu_module_add(emu *e, isa_module *m);
/* Make module idx the one whose kernels launch and whose symbols
 * emu_symbol_addr finds. */
void emu_module_select(emu *e, int idx);
/* Map host memory into the device at device address base (NULL data: the
 * device owns none of it).  0, or -1 if the range overlaps a region or the
 * emulator's own windows. */
int emu_map_host(emu *e, uint64_t base, void *data, uint64_t size, const char *name);
/* Whether [a, a+n) touches the emulator's own address windows (device
 * allocations, generic shared/local, functions, the null page). */
bool emu_in_windows(uint64_t a, uint64_t n);
/* Reserve size bytes of device addresses (a multiple of align, a power
 * of two) with nothing behind them: at hint when it is aligned and free,
 * else where emu_alloc would place them.  The base, or 0 when no room. */
uint64_t emu_reserve(emu *e, uint64_t size, uint64_t align, uint64_t hint);
/* Give back the reservation [base, base+size) exactly as made; -1 when
 * there is none such or a region still lies in it. */
int emu_unreserve(emu *e, uint64_t base, uint64_t size);
/* The reservation holding addr, or NULL. */
const struct emu_vrange *emu_reservation_of(const emu *e, uint64_t addr);
/* Map data (not owned by the emu) at [base, base+size) inside one
 * reservation; -1 when it lies outside one or overlaps a region. */
int emu_map_reserved(emu *e, uint64_t base, uint8_t *data, uint64_t size, const char *name, bool readonly);
/* Remove the region that starts at base (a buffer freed); 0 or -1. */
int emu_free_region(emu *e, uint64_t base);
/* The region holding addr, or NULL (messages name the allocation). */
const mem_region *emu_region_of(const emu *e, uint64_t addr);
void emu_free(emu *e);
void emu_default_options(emu_options *o);
uint64_t emu_default_mem_cap(void);
/* An H100 80GB's global memory, as cudaMemGetInfo reports it (81,559 MiB). */
#define EMU_DEVICE_BYTES (81559ull << 20)
/* Allocate device memory; returns its address (0 on failure: cap reached). */
uint64_t emu_alloc(emu *e, uint64_t size, const char *name);
/* Allocate device memory again at base, an address emu_alloc returned and
 * that was freed since; 0 when the range is taken or the cap reached. */
uint64_t emu_alloc_at(emu *e, uint64_t base, uint64_t size, const char *name);
/* Replace the device malloc heap, unused so far, by one of `size` bytes
 * (cudaLimitMallocHeapSize); -1 when it does not fit (the old one stays). */
int emu_heap_resize(emu *e, uint64_t size);
uint8_t *emu_host_ptr(emu *e, uint64_t addr, uint64_t size);
/* Address of a module symbol by name (global/const variables), or 0. */
uint64_t emu_symbol_addr(emu *e, const char *name, uint64_t *size);
/* A grid a kernel launched (CUDA dynamic parallelism): it runs after the
 * launching grid, in launch order (emu/cdp.c). */
typedef struct emu_child {
  int func;                      /* kernel of the launching grid's module        */
  uint32_t grid[3], block[3], dyn_shared;
  uint8_t *params;               /* malloc'd: the caller of emu_child_pop frees it */
  uint32_t param_size;
} emu_child;
/* The next queued child grid, or false when none is left. */
bool emu_child_pop(emu *e, emu_child *out);
/* Drop queued children and the parameter buffers (after a host launch). */
void emu_cdp_reset(emu *e);
/* Static shared memory of a kernel as a launch lays it out (the .shared
 * variables it and its callees name), UINT64_MAX past 2^48 bytes. */
uint64_t emu_static_shared(const isa_module *m, int kernel);
/* Where shared variable sym lies in a CTA's window as a launch of kernel
 * lays it out (for a debugger, before or during the launch); false when the
 * kernel does not use it or the layout fails. */
bool emu_shared_offset(const isa_module *m, int kernel, uint32_t sym, uint64_t *off);
/* Shared memory a block can have in functional runs (an H100's 227 KiB);
 * timed runs take the GPU configuration's shared_per_cta. */
#define EMU_MAX_SHARED_PER_BLOCK 232448u
/* A CTA's shared-memory window as an sm_90 lays it out (measured on an
 * H200, tests/cuda/shared_window): the first EMU_SHARED_RESERVED bytes
 * are the system's (cudaDevAttrReservedSharedMemoryPerBlock), the
 * kernel's variables follow, and accesses are good up to the end of the
 * last EMU_SHARED_GRANULE-byte unit they take; beyond it, a fault. */
#define EMU_SHARED_RESERVED 1024u
#define EMU_SHARED_GRANULE 128u
/* Run one launch to completion.  Returns 0, or -1 with e->fault set. */
int emu_run(emu *e, const emu_launch *l);
/* Print the fault like a memory checker would (file:line, thread, block). */
void emu_print_fault(const emu *e, FILE *out);
/* Stop the running launch at its next budget check with a FAULT_STOPPED
 * fault saying why (a static string), e.g. when its trace cannot be
 * written: from the emulator's thread (an observer callback). */
void emu_request_stop(emu *e, const char *why);
/* Timing mode, from on_before_insn: the cycle the instruction issues at,
 * the longest wait before it (cycles) and that wait's reason (enum
 * timing_stall); false in functional mode. */
bool emu_timing_issue(const emu *e, uint64_t *cycle, uint64_t *waited, int *why);

/* ---- helpers for instruction handlers (emu/exec_*.c) ---- */

/* Source row of operand k (register, special register or constant). */
static inline const uint64_t *xsrc(const warp *w, const xinsn *x, int k) {
  int32_t r = x->op[k].row;
  return r >= 0 ? w->r[r] : w->e->konst[-r - 1];
}
static inline uint64_t *xdst(warp *w, const xinsn *x, int k) { return w->r[x->op[k].row]; }

/* Write lanes of m: value truncated to the destination register's width. */
static inline uint64_t xfit(const xinsn *x, int k, uint64_t v) {
  unsigned b = x->op[k].bits;
  /* b is 1..64 for a register (0: no register, whose value goes nowhere);
   * a mask without a test, so lane loops vectorise */
  return v & (~0ull >> ((64 - b) & 63));
}
#define FOR_LANES(i) for (int i = 0; i < WARP_SIZE; i++)
/* d[i] = v[i] for lanes in m; full masks take the straight path. */
static inline void xstore(uint64_t *d, const uint64_t *v, lanemask m) {
  if (m == FULL_MASK) { FOR_LANES(i) d[i] = v[i]; return; }
  FOR_LANES(i) if (m >> i & 1) d[i] = v[i];
}
/* Sign extension of the low b bits. */
static inline int64_t sext(uint64_t v, unsigned b) { return b >= 64 ? (int64_t)v : (int64_t)(v << (64 - b)) >> (64 - b); }

/* Kind of operand k (the encoded operand's, or the slot's own for spare slots). */
static inline int xkind(const xinsn *x, int k) { return x->op[k].o ? x->op[k].o->kind : x->op[k].kind; }
/* Spare slots (prepare.c): element i of a VEC/PAIR operand o into slot s,
 * and the destination d|p of operand 0 into slots s (d) and s+1 (p; a sink
 * when operand 0 is a plain register).  0, or -1 when they do not fit. */
int emu_elem_slot(emu *e, xinsn *x, const isa_opnd *o, int i, int s);
int emu_pair_slots(emu *e, xinsn *x, int s);
/* Store t into slot s unless it is a sink. */
static inline void xslot_store(warp *w, const xinsn *x, int s, const uint64_t *t, lanemask m) {
  if (x->op[s].row >= 0) xstore(w->r[x->op[s].row], t, m);
}

/* The constant row holding v in every lane (for prepare functions that
 * rewrite an immediate), as an xop row value (negative). */
int32_t emu_konst_row(emu *e, uint64_t v);
/* The row a warp's register file holds the instruction's function's
 * register slot in (for observers that read an operand's register). */
int emu_slot_row(const emu *e, const xinsn *x, uint32_t slot);

/* ", file.cu:12": the CUDA line of x for a message ("" without .loc). */
void emu_source_suffix(const emu *e, const xinsn *x, char *buf, size_t n);
/* Stop the launch with a fault at lane `lane` of the current instruction. */
void emu_fault_at(warp *w, const xinsn *x, int lane, int kind, const char *fmt, ...)
  __attribute__((format(printf, 5, 6)));

/* Handler selection: each family file provides one "prepare" function that
 * sets x->fn (and may adjust operands) for the opcodes it implements, and
 * returns 0, or -1 if it does not implement this form. */
typedef int (*xprepare)(emu *e, xinsn *x);
int prep_int(emu *e, xinsn *x);      /* exec_int.c:   F_ARITH (integer types), F_BITS, F_LOGIC, F_VIDEO,
                                                      selp/slct, integer setp/set, mov, prmt        */
int prep_fp(emu *e, xinsn *x);       /* exec_fp.c:    F_ARITH (float types), F_SFU, testp, copysign,
                                                      float setp/set                                 */
int prep_cvt(emu *e, xinsn *x);      /* exec_cvt.c:   cvt, cvt.pack                                    */
int prep_mem(emu *e, xinsn *x);      /* exec_mem.c:   ld/st/atom/red/cvta/isspacep/prefetch...        */
int prep_ctrl(emu *e, xinsn *x);     /* exec_ctrl.c:  bra/brx/call/ret/exit/trap, bar, membar, fence   */
int prep_warp(emu *e, xinsn *x);     /* exec_warp.c:  shfl/vote/match/redux/activemask/elect           */
int prep_mma(emu *e, xinsn *x);      /* exec_mma.c:   wmma, mma(.sp), ldmatrix/stmatrix/movmatrix, wgmma */
int prep_async(emu *e, xinsn *x);    /* exec_async.c: cp.async*, mbarrier, bulk/tensor copies, clusters */
int prep_tex(emu *e, xinsn *x);      /* exec_tex.c:   tex/tld4/txq, suld/sust/sured/suq, istypep       */

#endif
