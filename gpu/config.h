/* gpu/config.h - the description of one GPU: a plain-text configuration
 * file (configs/NAME.gpu, bundled ones built into the program), parsed
 * into named, range-checked parameters.  The occupancy calculator and the
 * timing model read only this struct. */
#ifndef GPU_CONFIG_H
#define GPU_CONFIG_H
#include <stdint.h>
#include <stdio.h>

#define GPU_MAX_CARVEOUTS 16

typedef struct gpu_config {
  char name[32], description[96], arch[16], dram[16];
  uint32_t sm_version;                 /* 90 for sm_90 */
  uint32_t sms, sub_partitions, clock_mhz;
  uint32_t max_threads_per_sm, max_warps_per_sm, max_ctas_per_sm, max_threads_per_cta;
  uint32_t regs_per_sm, max_regs_per_thread, reg_alloc_unit;
  uint32_t shared_per_sm, shared_per_cta, shared_reserved_per_cta, shared_alloc_unit;
  uint32_t carveouts_kb[GPU_MAX_CARVEOUTS], ncarveouts;
  uint32_t shared_banks, shared_bank_bytes;   /* banks, and each bank's width (bytes a cycle)   */
  uint32_t shared_bank_mode;           /* addressing: consecutive words of this many bytes go to consecutive
                                          banks (Kepler: 4 or 8, cudaDeviceSetSharedMemConfig); 0: the width */
  uint32_t shared_bank_mode_default;   /* the file's shared_bank_mode (cudaSharedMemBankSizeDefault) */
  char metric_set[16];                 /* the profiler whose metric definitions apply: "ncu" or "nvprof" */
  uint32_t metrics;                    /* enum gpu_metric_set, from metric_set */
  uint32_t l1_bytes, l1_line_bytes, l1_sector_bytes;
  uint64_t l2_bytes;
  uint32_t l2_slices;
  uint32_t dram_bandwidth_gbs;
  /* timing: latencies (cycles from issue until a dependent instruction can
   * issue) and issue intervals (cycles between two warp instructions on
   * one sub-partition's unit) */
  uint32_t lat_int, lat_fp32, lat_fp16, lat_fp64, lat_sfu, lat_cvt, lat_branch, lat_tensor;
  uint32_t lat_shared, lat_l1, lat_l2, lat_dram, lat_atomic;
  uint32_t ii_int, ii_fp32, ii_fp16, ii_fp64, ii_sfu, ii_lsu, ii_tensor;
  uint32_t ii_tensor_f64;               /* an fp64 m8n8k4 mma's interval (0: ii_tensor's rule, a quarter of the 16-bit rate) */
  uint32_t lat_tensor_work;             /* the part of lat_tensor that scales with a shape's work (0: twice the interval saved) */
  uint32_t ii_imul;                    /* integer multiply(-add); 0: ii_int */
  uint32_t l1_assoc, l2_assoc;
  /* memory hierarchy (memmodel/memsys.h): L1 policy and throughput */
  uint32_t l1_caches_global;           /* 1: global loads allocate in L1; 0: only local (Kepler) */
  uint32_t l1_store_allocate;          /* 1: stores allocate in L1 (write-through); 0: stores invalidate */
  uint32_t l1_fill_bytes;              /* bytes an L1 miss fetches: a sector (32) or a whole line (128) */
  uint32_t l1_mshrs;                   /* outstanding sector misses per SM */
  uint32_t l1_sectors_per_cycle;       /* tag/data throughput of L1 */
  double l1_lines_per_cycle;           /* distinct lines a cycle (tag lookups; 0: no limit) */
  double l1_hit_lines_per_cycle;       /* l1_data_banks: a hit's own lines looked up a cycle, before its wavefronts (0: none) */
  uint32_t l1_data_banks;              /* ... a load's hits counted as its bank wavefronts, its missing lines one each */
  uint32_t l1_shared_pipe;             /* shared-memory wavefronts and L1 requests take one data pipe */
  uint32_t store_drain;                /* a warp exits once the L1 has taken its stores (1: their registers read; 2: and their lines are in the write link's queue) */
  uint32_t l1_store_buffer_bytes;      /* the L1 takes stores (reads their registers) into this many bytes ahead of its pipeline (0: as its pipeline starts them) */
  double l1_accept_cycles;             /* the L1 takes a global or local request every this many cycles, its lines queued inside (0: with its lines) */
  double l1_request_cycles;            /* the fewest cycles a warp request holds the L1 (0: no floor) */
  uint32_t lsu_port;                   /* 1: a global load takes that floor at the SM's LSU port, the warp waiting at dispatch */
  uint32_t l1_store_combine;           /* a store's sector joins the same sector among the last this many queued for L2 (0: never) */
  uint32_t l1_store_queue_join;        /* ... or its last store, if still queued for the L1 and among the last this many sectors stored */
  uint32_t l2_write_bytes_per_cycle;   /* an SM's stores into L2 (sectors of 32 bytes) */
  double l2_write_line_cycles;         /* ... and the link's cycles for each line a request writes (a packet's header) */
  uint32_t readonly_cache_bytes;       /* separate ld.global.nc cache per SM; 0: nc loads use L1 */
  uint32_t const_cache_bytes;          /* constant cache per SM */
  /* L2: partitions of slices, a hash of address blocks over slices */
  uint32_t l2_partitions, l2_interleave_bytes, l2_slice_bytes_per_cycle;
  uint32_t l2_dirty_ways;               /* dirty lines a partition keeps, per set; more are written back early */
  uint32_t l2_write_granule_bytes;      /* a write covering part of such a granule of an absent sector
                                           reads the sector from DRAM first (inline ECC); 0: byte masks */
  uint32_t l2_partial_fill;             /* 1: DRAM takes whole sectors: one left incomplete is read before
                                           its write-back (or a read) merges it (HBM's ECC) */
  uint32_t l2_partial_ways;             /* most lines per set with incomplete sectors; more are filled early */
  double l2_partial_write_cycles;       /* slice cycles of a write of part of a sector (0: as a whole one) */
  double l2_copy_write_cycles;          /* more for one of a sector another partition had a copy of */
  double l1_miss_line_cycles;           /* a request's misses leave the L1 this many cycles apart, line after line */
  double l2_miss_sector_cycles;         /* ... and a request's sectors that miss in L2 leave it for DRAM this many apart */
  uint32_t l1_mshr_lines;               /* 1: a request's misses of one line share an MSHR (l1_mshrs counts lines); 0: one a sector */
  uint32_t l2_fill_bytes;               /* bytes a read miss takes from DRAM: its sector and the rest of
                                           their aligned block (32: the sector alone) */
  uint32_t l2_far_atomic_fill_bytes;    /* ... an atomic's miss from an SM of another partition (0: l2_fill_bytes) */
  uint32_t partition_hash;              /* 1: slices and DRAM channels take a hash of the block; 0: block mod count */
  double l2_atomic_cycles;             /* one lane's update at its slice's atomic unit */
  double l2_atomic_f16_cycles;         /* ... of 16-bit floats (f16, f16x2, bf16, bf16x2; 0: l2_atomic_cycles) */
  double l1_atomic_cycles;             /* the SM's atomic unit: a cycle count per pass of a request (0: none) */
  uint32_t atomics_in_flight;          /* global atomics an SM has taken and the L2 not yet performed (0: no limit) */
  uint32_t atomics_unacked;            /* ... of which the SM has sent to L2: a reduction leaves (drain) when the one that
                                          many before it is performed (0: when it is performed itself; atomics_in_flight or
                                          more: when the SM's atomic unit is done with it) */
  uint32_t l2_launch_sectors;          /* L2 lookups every launch makes besides the SMs' (all hits) */
  /* DRAM: channels of banks with one open row each */
  uint32_t dram_channels, dram_banks, dram_row_bytes, dram_interleave_bytes;
  uint32_t dram_row_miss_cycles;       /* precharge + activate, SM cycles */
  uint32_t dram_activate_cycles;       /* least SM cycles between two activates of a channel */
  uint32_t dram_launch_bytes;          /* DRAM bytes read every launch besides the SMs' */
  uint32_t barrier_cycles, launch_cycles, cta_launch_cycles;
  uint32_t cta_retire_cycles;          /* an SM retires its ended blocks one at a time, this long each (0: at once) */
  /* SM pipeline (the "SM" block of a configuration; optional, with defaults) */
  char scheduler[16];                  /* gto, lrr or two_level                       */
  uint32_t sched_policy;               /* enum gpu_sched, from scheduler              */
  uint32_t sched_active_warps;         /* two_level: active warps per scheduler       */
  uint32_t reg_banks;                  /* register-file banks per sub-partition       */
  uint32_t reg_bank_ports;             /* reads one bank serves per cycle             */
  uint32_t fetch_cycles;               /* refill of the instruction buffer after a redirect */
  uint32_t branch_cycles;              /* a branch resolves this long after its issue  */
  uint32_t reconverge_cycles;          /* extra cost when a warp's active mask changes */
  uint32_t split_cycles;               /* ... when it loses threads at a divergent branch (not given: reconverge_cycles) */
  uint32_t reconverge_refill_cycles;   /* ... of reconverge_cycles where it gains threads, those the instruction buffer
                                          takes to refill at their PC (no_instruction; the rest: wait) */
  uint32_t membar_cycles;              /* membar/fence at gpu or system scope          */
  uint32_t cluster_arrive_cycles;      /* barrier.cluster.arrive: its release fence (membar) */
  uint32_t cluster_barrier_cycles;     /* barrier.cluster.wait: the cluster-wide round trip */
  double bar_arrive_cycles;            /* a CTA barrier arrival holds the SM's barrier unit this long; the barrier
                                          releases barrier_cycles after its last arrival passed it (0: after its issue) */
  double shared_replay_cycles;         /* cycles between one shared access's own wavefronts (its bank-conflict replays,
                                         a wide access's parts); the pipe takes others' in between (0: 1) */
  /* the device's copies (ptxemu exec's memcpy and memset on the modelled
   * clock): the host link's bandwidth, pinned and pageable, in GB/s, and a
   * copy's fixed cost in microseconds (0: copies take no modelled time);
   * copies within the device take DRAM's bandwidth (read and written) */
  double host_link_gbs, host_pageable_gbs, copy_latency_us;
  uint32_t lat_dsmem;                  /* a shared-memory access to another block of the cluster (0: lat_shared) */
  uint32_t lat_dsmem_own;              /* ... to the block's own through the cluster's window (0: lat_shared) */
  /* bulk copies (cp.async.bulk[.tensor]): the SM's tensor memory
   * accelerator sends their global side at tma_bytes_per_cycle (0: the L1's
   * request rate, through its pipeline), lat_tma cycles after their issue */
  double tma_bytes_per_cycle;
  uint32_t lat_tma;
  uint32_t hoist_invariants;           /* 1: a loop body's invariant arithmetic issues nothing (ptxas hoists it) */
  uint32_t lat_s2r;                    /* a special register read by S2R/S2UR (%tid, %ctaid, %laneid, %warpid, %smid,
                                          %lanemask_*): cycles until its value is there ('short_scoreboard'; 0: an ALU move) */
  double s2r_cycles;                   /* ... the SM takes one every this many cycles (0: no limit) */
  uint32_t iter_read_wait;             /* 1: a store or reduction waits once a loop iteration for earlier ones' register reads */
  uint32_t imc_desc;                   /* 1: a warp reads the memory descriptor (ULDC.64) before its first global access */
  uint32_t static_pipe_ii;             /* 1: the static stall counts space a math pipe's instructions its issue interval apart */
  uint32_t three_input_alu;            /* 1: an add combined with an add or a shift (IADD3, LEA) issues to the ALU only */
  uint32_t hoist_predicates;           /* with hoist_invariants: the loop-invariant compares a loop's hoisting keeps (their predicates stay live) */
  uint32_t joins_at_bsync;             /* 1: a path switch costs reconverge_cycles only where a group stops at its branch's join */
  uint32_t imm_in_register;            /* 1: an immediate a reader cannot take as its one immediate operand is moved into a register */
  uint32_t fold_imm_banks;             /* 1: a register only immediate moves write reads no bank (ptxas folds it) */
  uint32_t ldc_s2r_mio;                /* 1: S2R reads and LDCs of 64-bit kernel parameters queue for the MIO (mio_queue, ldc_cycles) */
  uint32_t ldc_stack;                  /* 1: a warp's first SASS instruction is an LDC of its stack pointer (an MIO queue place) */
  uint32_t ldc_at_use;                 /* 1: a 64-bit kernel parameter's LDC issues where the pointer is first used, not at its ld.param */
  uint32_t lat_cross_pipe;             /* a math result read on another pipe (the ALU's on the FMA pipe, or the reverse, either's by a memory instruction): cycles more in ptxas's stall counts */
  uint32_t lat_pred;                   /* a compare's predicate: cycles until a branch or guard reads it (0: its unit's latency) */
  uint32_t branch_stall;               /* a branch's stall count: the warp's next issue no sooner (0: none) */
  uint32_t static_stalls;              /* 1: an instruction that waited does not shorten the fixed stall counts after it */
  uint32_t mio_warp_interval;          /* cycles between a warp's issues of two LSU instructions (ptxas's stall counts; 0: none) */
  uint32_t mio_queue;                  /* shared-memory instructions an SM queues before their issue throttles (0: no limit) */
  uint32_t lg_queue;                   /* global and local memory instructions an SM queues before the L1 (0: no limit) */
  uint32_t sfu_denorm_cycles;          /* a .f32 approx ex2/lg2/rsqrt/rcp/sqrt without .ftz: its denormal scaling */
  uint32_t call_cycles;                /* a call resolves (and its return) this long: branch_resolving */
  uint32_t ret_cycles;                 /* a return restores the caller's saved registers: wait */
  uint32_t call_sass, ret_sass;        /* SASS instructions of the calling convention a call (return) issues besides it */
  uint32_t ifconvert_max_insns;        /* ptxas predicates an if's path of at most this many SASS instructions */
  uint32_t ifconvert_else_max_insns;   /* ... and an if/else of at most this many (both paths; 0: as an if's) */
  uint32_t ifconvert_schedule;         /* ... and schedules a predicated if with the code before it (emu/reorder.c) */
  uint32_t unroll_factor;              /* ptxas unrolls counted single-block loops this many times (1: no) */
  uint32_t unroll_max_insns;           /* ... whose body has at most this many SASS instructions */
  double unroll_load_cost;             /* ... a global load counting as this share of one */
  uint32_t printf_cycles;              /* a device printf (vprintf call) holds its warp this long */
  uint32_t hoist_regs;                 /* ... and hoists the loads of as many copies as these registers hold (0: none) */
  uint32_t combine_ops;                /* ptxas writes dependent pairs as one LEA, IADD3, LOP3, IMAD, xSETP (0: no) */
  uint32_t ptxas_sink;                 /* ptxas computes what only stores use just before them (0: as soon as it can) */
  uint32_t fuse_bytes;                 /* ptxas merges scalar accesses into vector ones of up to this many bytes (0: none) */
  uint32_t ptxas_regs;                 /* ptxas schedules a block within this many registers a thread where PTX order fits (0: no limit) */
  uint32_t ptxas_ahead_regs;           /* ... or within those live into the block and this many more, where that is more */
  uint32_t imc_miss_cycles;            /* a kernel parameter not in the SM's constant cache (0: from L2) */
  double imc_miss_sm_cycles;           /* ... and this much more per SM before it (all SMs miss one line at a launch) */
  double ldc_cycles;                   /* an LDC (ld.const at a register address) through the MIO queue:
                                        * the SM's constant port's cycles per LDC (0: one a cycle, no queue) */
  uint32_t ldc_mio_hold;               /* ... and the cycles it keeps its MIO queue place after the port starts it */
  uint32_t gpcs;                       /* graphics processing clusters (SMs split evenly) */
  char issue_order[16];                /* "scheduled" (ptxas-like, in basic blocks) or "ptx" */
  uint32_t reorder;                    /* 1 for "scheduled", from issue_order         */
  /* instruction fetch (memmodel/ifetch.h); icache_l0_bytes 0: not modelled */
  uint32_t insn_bytes;                 /* bytes of machine code per instruction       */
  uint32_t icache_l0_bytes, icache_l1_bytes;   /* per sub-partition, per SM          */
  uint32_t icache_l1_cycles, icache_l2_cycles, icache_dram_cycles;   /* per 128-byte line into L0, L1 */
  uint32_t icache_launch_bytes;        /* kernel code in every SM's L1 at launch      */
  uint32_t icache_launch_cycles;       /* ... from this long after the first block starts */
  double icache_launch_sm_cycles;      /* ... and this much later on each next SM     */
  uint32_t icache_ahead;               /* lines fetched ahead of a warp               */
} gpu_config;

/* Metric definitions: Nsight Compute's (sectors of 32 bytes) or nvprof's
 * (Fermi/Kepler: 128-byte transactions, L1-cached loads in whole lines). */
enum gpu_metric_set { GPU_METRICS_NCU, GPU_METRICS_NVPROF, GPU_METRICS_COUNT };
extern const char *const gpu_metric_set_names[GPU_METRICS_COUNT];
/* Select the shared-memory bank mode (cudaDeviceSetSharedMemConfig): 4 or
 * 8 bytes, 0 for the configuration's default; -1 if the GPU's banks are
 * narrower than the mode. */
int gpu_config_set_bank_mode(gpu_config *c, uint32_t bytes);

enum gpu_sched { GPU_SCHED_GTO, GPU_SCHED_LRR, GPU_SCHED_TWO_LEVEL, GPU_SCHED_COUNT };
extern const char *const gpu_sched_names[GPU_SCHED_COUNT];
/* "gto" -> GPU_SCHED_GTO ...; -1 if unknown. */
int gpu_sched_from_name(const char *name);
/* Choose the warp scheduler (ptxemu run --sched); -1 if the name is unknown. */
int gpu_config_set_scheduler(gpu_config *c, const char *name);
/* "scheduled" -> 1 (reorder), "ptx" -> 0; -1 if the name is unknown. */
int gpu_issue_order_from_name(const char *name);
/* Choose the issue order (ptxemu run --issue-order): "scheduled" or "ptx"; -1 otherwise. */
int gpu_config_set_issue_order(gpu_config *c, const char *name);

/* Load a configuration: a bundled name ("h100") or a file path.  Errors
 * go to err as "FILE:LINE: error: ..." lines; returns 0 on success. */
int gpu_config_load(const char *name_or_path, gpu_config *out, FILE *err);
/* The same with overrides (ptxemu --set NAME=VALUE): each "NAME=VALUE" is
 * checked as a line of the file is, may replace the file's value (not
 * another override's), and the checks that relate parameters see the
 * result.  Messages about an override read "ptxemu: --set NAME=VALUE: error: ...". */
int gpu_config_load_set(const char *name_or_path, const char *const *sets, int nsets, gpu_config *out, FILE *err);
/* 1 when NAME is a configuration parameter. */
int gpu_param_known(const char *name);
/* One parameter's value as gpu_config_write writes it; -1 for an unknown NAME. */
int gpu_config_get(const gpu_config *c, const char *name, char *buf, size_t n);
/* Parse configuration text (virtual_path names it in messages). */
int gpu_config_parse(const char *text, const char *virtual_path, gpu_config *out, FILE *err);
/* Bundled configurations, for "ptxemu gpus". */
int gpu_builtin_count(void);
const char *gpu_builtin_name(int i);
const char *gpu_builtin_text(int i);
/* Write every parameter as "name = value" lines (traces keep them). */
void gpu_config_write(const gpu_config *c, FILE *out);

/* Theoretical occupancy of a kernel (the CUDA occupancy calculator's rules). */
typedef struct gpu_occupancy {
  uint32_t warps_per_cta, regs_per_warp, smem_per_cta;
  uint32_t ctas_by_warps, ctas_by_regs, ctas_by_smem, ctas_by_limit;
  uint32_t active_ctas, active_warps;
  double occupancy;                    /* active warps / max warps per SM */
  const char *limiter;                 /* "warps", "registers", "shared memory", "blocks per SM" */
  const char *error;                   /* non-NULL: the block cannot run at all */
} gpu_occupancy;

void gpu_occupancy_calc(const gpu_config *c, uint32_t threads_per_cta, uint32_t regs_per_thread,
                        uint32_t smem_per_cta, gpu_occupancy *o);
#endif
