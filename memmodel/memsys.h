/* memmodel/memsys.h - the memory hierarchy of the timing model, the one
 * interface emu/timing.c uses: per SM an L1 (unified with shared memory,
 * sized by the carve-out the resident blocks need), an optional read-only
 * cache (Kepler's ld.global.nc path), a constant cache and 32-bank shared
 * memory; one L2 of slices and partitions (memmodel/l2.h); DRAM channels
 * with banks and row buffers (memmodel/dram.h).  Every call takes the
 * cycle a warp's request issues and returns the cycles until its data is
 * back.  All parameters come from the GPU configuration (ptxemu-gpu(5)). */
#ifndef MEMMODEL_MEMSYS_H
#define MEMMODEL_MEMSYS_H
#include "util/host_line.h"
#include <stdint.h>
#include "gpu/config.h"
#include "memmodel/cache.h"
#include "memmodel/dram.h"
#include "memmodel/l2.h"
#include "memmodel/pattern_memo.h"

enum ms_op {
  MS_LOAD, MS_STORE,
  MS_ATOMIC,                       /* one L2 update per lane                         */
  MS_ATOMIC_WARP,                  /* warp-uniform address: reduced in the SM first,
                                      one update per warp (what ptxas emits)         */
  MS_RED,                          /* MS_ATOMIC whose old values nobody reads (REDG):
                                      its result is when the L2 has performed it     */
  MS_F16 = 0x10                    /* with an atomic: of 16-bit floats (f16, f16x2, bf16,
                                      bf16x2), l2_atomic_f16_cycles an update        */
};
/* Which way a global access goes through the SM. */
enum ms_path {
  MS_CACHED,                       /* ld/st.global: L1 as the configuration says   */
  MS_BYPASS,                       /* .cg/.cv: L2 only                             */
  MS_READONLY,                     /* ld.global.nc: the read-only cache if any     */
  MS_LOCAL,                        /* local memory: always cached in L1            */
  MS_TMA                           /* a bulk copy's: the SM's TMA to L2, at its own rate
                                      (tma_bytes_per_cycle), no L1 or MSHR          */
};

/* Windowed mode (memsys_windowed): a request to L2 is not served when its
 * warp issues but recorded in its SM's batch, and served later with every
 * SM's requests of the batch, in the order (cycle, SM, order on the SM)
 * (memsys_switch, memsys_serve, below).  Results that depend on it are
 * pending values (MS_PENDING) until then. */
enum ms_req_kind {
  RQ_READ, RQ_EXTRA, RQ_ATOMIC, RQ_WRITE, RQ_CODE,
  RQ_DEP,                          /* an L1 hit on a line its batch's request ref fills */
  RQ_DEP_OLD,                      /* ... that the batch being served fills (ref is there) */
  RQ_DEP_SET                       /* ... which was served: res is the line's cycle */
};
typedef struct ms_req {
  uint64_t t;                      /* the cycle its warp instruction issued (merge order) */
  double at;                       /* the cycle it leaves the SM (RQ_READ: before waiting for its MSHR) */
  double res;                      /* settled: when its answer is back at the SM */
  double ack;                      /* RQ_WRITE: when L2 has acknowledged it (a local line it writes is ready then);
                                    * RQ_READ: how long it waited for its MSHR */
  uint64_t addr;
  cache_line *ln;                  /* the L1/constant line it fills (ready: a negative mark of its batch and index until served) */
  uint32_t pend;                   /* the pending value it feeds (UINT32_MAX: none) */
  uint32_t ref;                    /* RQ_EXTRA, RQ_DEP: the fill it belongs to / waits for; RQ_READ
                                    * with same_line: the read whose MSHR it shares; other RQ_READs
                                    * with a slot: the request of the batch that wrote the slot's
                                    * time last (UINT32_MAX: none, an older batch's) */
  uint32_t slot;                   /* the MSHR it holds (UINT32_MAX: none) */
  uint32_t arg;                    /* lanes (atomics), bytes written (RQ_WRITE), code bytes (RQ_CODE), its sector's place
                                    * in its request (RQ_READ: l2_miss_sector_cycles) */
  uint8_t kind;
  bool same_line;                  /* RQ_WRITE: an earlier sector of its request was of its line (l2_write);
                                    * RQ_READ: it shares that sector's MSHR (l1_mshr_lines) */
  uint16_t lane;                   /* its L2 lane (l2.h); MS_ALL_LANES: RQ_CODE, several */
  _Atomic uint8_t served;          /* memsys_serve_part: served (another part may wait for it) */
} ms_req;
#define MS_ALL_LANES UINT16_MAX
/* A pending value: the cycle an instruction's memory result is back (t +
 * the rounded latency + add), or the larger of two values (a and b,
 * either a cycle or an earlier pending value's code) + add. */
typedef struct ms_pend { uint64_t t, add, val, a, b; double done; bool max; } ms_pend;
/* A pending value's code: above every cycle; its batch of requests above
 * the SM's index of it, so that of two codes the later batch's is larger. */
#define MS_PEND_BIT (1ull << 62)
#define MS_BATCH_SHIFT 31
#define MS_PENDING UINT64_MAX      /* memsys_* result: pending, m->pend_code says which */
static inline bool ms_is_pending(uint64_t v) { return v >= MS_PEND_BIT; }

/* One batch of an SM's requests to L2 (a window's) and the pending values
 * they feed. */
/* A batch's requests of one L2 lane (windowed), in the order the SM made
 * them: what memsys_serve_part reads of the batch, its cycle and index. */
typedef struct ms_lane_list { struct ms_lane_ref { uint64_t t; uint32_t i; } *e; uint32_t n, cap; } ms_lane_list;
typedef struct ms_batch {
  ms_req *req;
  uint32_t nreq, capreq;
  ms_pend *pend;
  uint32_t npend, cappend;
  ms_lane_list *lane;              /* per L2 lane, then one of the requests of several (RQ_CODE) */
} ms_batch;
/* the most stores the L1 holds ahead of its pipeline (l1_store_buffer_bytes) */
enum { MS_SBUF_MAX = 256 };
typedef struct ms_sm {
  HOST_LINE_ALIGNED ms_batch cur; /* the requests being made (an SM per host line: util/host_line.h) */
  ms_batch old;                    /* windowed: the previous batch (being served, or served) */
  uint64_t pend_code;              /* the last MS_PENDING result's code */
  uint64_t l1_hits, l1_lookups;    /* not yet added to memsys's (windowed: until memsys_publish) */
  uint64_t wsectors;               /* ... and store sectors sent to L2 */
  bool settled;                    /* old's values are settled (memsys_edge_settle), until memsys_edge_switch */
  cache l1, ro, cst;
  double l1_free, shared_free, const_free;
  double tma_free;                 /* MS_TMA: when the SM's TMA sends its next piece */
  double atom_free;                /* when the SM's atomic unit takes its next request (l1_atomic_cycles) */
  double atom_sent;                /* when the SM's last atomic request left its atomic unit for L2 (memsys_atomic_sent) */
  double l1_accept;                   /* when the L1 takes its next global or local request (l1_accept_cycles) */
  double wport_free;               /* the SM's write link to L2 is busy until then */
  double store_taken;              /* when the L1 took the SM's last store (read its registers) */
  double store_out;                /* ... and when its last sector leaves on the SM's write link */
  struct ms_wq *wq;                /* sectors queued for the write link (l1_store_combine), or NULL */
  uint32_t wgen;                   /* this window's number: older entries of wq were served */
  uint64_t wseq;                   /* sectors queued so far (the order of wq's entries) */
  uint64_t hseq;                   /* sector stores so far (l1_store_queue_join counts back in these) */
  double *mshr;                    /* completion cycle of each MSHR, reused in turn */
  uint32_t *mshr_writer;           /* per MSHR: the request of batch mshr_batch[] that wrote its time last */
  uint32_t *mshr_batch;
  uint32_t mshr_next;
  bool has_ro, code;
  /* the geometry of the SM's last shared and global access, for the next
   * with the same lane pattern (pattern_memo.h): a shared access's
   * wavefronts; a global one's sectors (less the sector of its first
   * active lane's address: p.first >> 5), the bytes of each, its lines
   * (lines_of) and L1 bank wavefronts, the latter two once asked for */
  struct ms_shared_geo { pattern_memo p; uint32_t wf, ideal; } shared_geo;
  struct ms_global_geo {
    pattern_memo p;
    uint32_t n, lines, per;
    bool has_lines, has_per;
    uint64_t sec[64];
    uint32_t touched[64];
    bool again[64];
    uint8_t ord[64];
  } global_geo;
  /* l1_store_buffer_bytes: the stores whose bytes the L1 holds until its
   * pipeline starts them, oldest first (a ring) */
  struct ms_sbuf { double start; uint32_t bytes; } sbuf[MS_SBUF_MAX];
  uint32_t sbuf_head, sbuf_n, sbuf_bytes;
} ms_sm;

typedef struct memsys {
  const gpu_config *g;
  uint32_t nsm;
  uint64_t l1_bytes;               /* L1 size left by the carve-out */
  ms_sm *sm;
  dram dram;
  l2sys l2;
  uint64_t l1_hits, l1_lookups;    /* sectors through L1 (and the read-only cache) */
  uint64_t write_sectors;          /* store sectors the SMs sent to L2, after combining (l1tex2xbar) */
  uint64_t launch_dram_bytes;
  bool windowed;                   /* requests wait for memsys_serve (else served at once) */
  uint32_t parts;                  /* memsys_serve_part's parts (below 2: memsys_serve alone) */
  bool oom;                        /* a request could not be recorded */
  uint32_t batch;                  /* the number of the batch being made */
  uint64_t old_nreq;               /* the closed batch's requests, all SMs' */
  bool has_old, old_served;        /* batch - 1 exists; it was served */
  lazypool pool;                   /* the SMs' L1, read-only and constant caches' tags, MSHR times and write queues */
  bool arrays_pooled;              /* ... the latter from the pool (else from the heap) */
  /* how far a lane pattern may move and keep its geometry (pattern_memo.h):
   * global accesses whole lines (of 128 bytes at least: the L1's data
   * banks), shared ones whole banks (memsys.c shared_align) */
  uint64_t line_align, bank_align;
} memsys;

/* The L1 bytes an SM has when its resident blocks use shared_used bytes:
 * the smallest carve-out that fits on sm_70 and later (the driver's
 * choice), the largest (48 KiB, the default) before. */
uint64_t memsys_l1_bytes(const gpu_config *g, uint64_t shared_used);
/* NULL when out of memory. */
memsys *memsys_new(const gpu_config *g, uint32_t nsm, uint64_t shared_used_per_sm);
/* The host memory memsys_new would take (caches, queues), from the
 * configuration alone: checked against the memory cap before building. */
uint64_t memsys_host_bytes(const gpu_config *g, uint32_t nsm, uint64_t shared_used_per_sm);
/* The same memory system, empty again (caches, queues, DRAM rows,
 * counters) for the next launch: cheaper than a new one, whose tens of
 * megabytes of cache state would be faulted in afresh. */
void memsys_reset(memsys *m);
/* Whether m was made by memsys_new with these arguments. */
bool memsys_fits(const memsys *m, const gpu_config *g, uint32_t nsm, uint64_t shared_used);
void memsys_free(memsys *m);
/* The traffic every launch makes besides the SMs' (counted, not timed). */
void memsys_launch(memsys *m);
/* A warp's global or local access: lanes in mask, `bytes` each at addr[]. */
uint64_t memsys_global(memsys *m, uint32_t sm, uint64_t t, const uint64_t *addr, uint32_t mask, uint32_t bytes,
                       enum ms_op op, enum ms_path path);
/* When the SM's last global atomic (memsys_global) left the SM for L2:
 * past the L1's pipeline and the SM's atomic unit. */
uint64_t memsys_atomic_sent(const memsys *m, uint32_t sm);
/* When the L1 took the SM's last store (memsys_global: its registers
 * read), and when that store's last sector leaves on the SM's write link. */
uint64_t memsys_store_taken(const memsys *m, uint32_t sm);
uint64_t memsys_store_out(const memsys *m, uint32_t sm);
/* A warp's shared-memory access (offsets into the CTA's shared memory);
 * *wf and *ideal get its wavefronts with and without bank conflicts,
 * *begins the cycle its first wavefront goes (its registers are read).
 * *own (NULL: none): when the warp's previous access's wavefronts are
 * over, which this access waits for and moves on. */
uint64_t memsys_shared(memsys *m, uint32_t sm, uint64_t t, const uint64_t *off, uint32_t mask, uint32_t bytes,
                       double *own, uint64_t *begins, uint32_t *wf, uint32_t *ideal);
/* The same for an access whose wavefronts the caller knows: those of an
 * access with the same lane pattern moved by a multiple of bank_align
 * bytes (the geometry memsys_shared finds; the pipe's timing alone). */
uint64_t memsys_shared_wavefronts(memsys *m, uint32_t sm, uint64_t t, uint32_t wf, double *own, uint64_t *begins);
static inline uint64_t memsys_bank_align(const memsys *m) { return m->bank_align; }
/* A warp's constant read: its distinct addresses one after another, each
 * taking the SM's constant port port_cycles (an LDC's ldc_cycles; 1 for a
 * constant-bank operand). */
uint64_t memsys_const(memsys *m, uint32_t sm, uint64_t t, const uint64_t *addr, uint32_t mask, uint32_t bytes, double port_cycles);
/* Book SM sm's constant port for `cycles` from cycle t (after what it
 * holds already); returns when the booking starts. */
double memsys_const_port(memsys *m, uint32_t sm, uint64_t t, double cycles);
/* Kernel parameters: constant-bank operands of the SASS instructions that
 * use them (no load of their own): 0 cycles when the SM's constant cache
 * holds the bank's sector, else the fetch from L2 (Nsight Compute's
 * imc_miss). */
uint64_t memsys_param(memsys *m, uint32_t smi, uint64_t t, const uint64_t *addr, uint32_t mask);
/* A read through the immediate-constant cache (what ptxas makes of a
 * 32-bit kernel parameter, %ntid or %nctaid: ULDC, or a constant operand):
 * bank_off is its offset in constant bank 0.  The warp stalls at issue on a
 * miss, so its misses come one after another: one starts when the warp's
 * previous miss is served (*busy, updated); all SMs miss the same lines
 * when a launch starts, and SM i is served imc_miss_sm_cycles * i later.
 * Needs imc_miss_cycles. */
uint64_t memsys_imc(memsys *m, uint32_t smi, uint64_t t, uint64_t bank_off, uint64_t *busy);
/* An SM's first block fetches the kernel's code and constant bank. */
void memsys_code(memsys *m, uint32_t sm, uint64_t t, uint64_t code_bytes);

/* Windowed mode (see ms_req).  The L2 and DRAM are touched only by
 * memsys_serve; everything else per SM (its L1, MSHR choice, ports,
 * shared memory) only by that SM's calls.
 *
 * Requests come in batches: memsys_switch closes the batch being made (a
 * window's), memsys_serve serves it, and may do so while the SMs make
 * the next batch (on other threads: it reads and writes only the closed
 * batch, the L2, DRAM and the MSHRs' times; the lines its requests fill
 * are written when its values are settled, once the SMs' calls of the
 * window are over: memsys_serve_end, or memsys_edge_settle SM by SM).  A pending value of the served batch
 * has its value until the next memsys_switch; those of the batch being
 * made that depend on it take theirs at that switch. */
void memsys_windowed(memsys *m, bool on);
/* The code of SM sm's last MS_PENDING result. */
static inline uint64_t memsys_pend_code(const memsys *m, uint32_t sm) { return m->sm[sm].pend_code; }
/* A memsys_* result of SM sm asked at cycle t (a latency, or MS_PENDING)
 * as a value: the cycle it is ready, or its pending code. */
static inline uint64_t memsys_result_at(const memsys *m, uint32_t sm, uint64_t t, uint64_t lat) {
  return lat == MS_PENDING ? memsys_pend_code(m, sm) : t + lat;
}
/* ... and a value back as a memsys_* result from t (a pending code: MS_PENDING). */
static inline uint64_t memsys_result_from(memsys *m, uint32_t sm, uint64_t t, uint64_t v) {
  if (!ms_is_pending(v)) return v - t;
  m->sm[sm].pend_code = v;
  return MS_PENDING;
}
/* A pending value of SM sm: the larger of a and b (cycles or codes). */
uint64_t memsys_pend_max(memsys *m, uint32_t sm, uint64_t a, uint64_t b);
/* Add `add` cycles (modulo 2^64: a negative add too) to the pending value
 * `code` of SM sm's batch being made (a result or a pending max). */
void memsys_pend_add(memsys *m, uint32_t sm, uint64_t code, uint64_t add);
/* Close the batch being made (between calls of the SMs and memsys_serve):
 * its references to the served batch take their values, the served one is
 * dropped.  -1 when out of memory. */
int memsys_switch(memsys *m);
/* Serve the closed batch's requests, every SM's, in (cycle, SM, order)
 * order; its pending values then have values.  -1 when out of memory. */
int memsys_serve(memsys *m);
/* The most parts a batch can be served in: the L2's lanes (l2.h). */
uint32_t memsys_max_parts(const memsys *m);
/* Before a launch's first request: its batches will be served in up to n
 * parts (the requests then note their lanes and the MSHRs they wait for). */
void memsys_set_parts(memsys *m, uint32_t n);
/* The parts to serve the closed batch in, at most memsys_set_parts' n: one
 * for every MS_PART_REQUESTS requests (a part's fixed cost, a pass over
 * every SM's lists, then weighs little), at least one. */
#define MS_PART_REQUESTS 512
uint32_t memsys_serve_split(const memsys *m);
/* memsys_serve on n threads at once: thread `part` serves the requests of
 * the L2 lanes l with l % n == part in that order, waiting where one
 * reuses an MSHR whose time a request of another part wrote last before
 * it; then, on one thread, memsys_serve_end settles the values.  The
 * lanes share no state (l2.h), so the answer is memsys_serve's for every
 * n.  -1 when out of memory. */
int memsys_serve_part(memsys *m, uint32_t part, uint32_t n);
int memsys_serve_end(memsys *m);
/* Between calls of the SMs: their L1 counts join memsys's. */
void memsys_publish(memsys *m);
/* Switch, serve and publish: the requests made so far are served. */
int memsys_settle(memsys *m);
/* Whether a closed batch is waiting for memsys_serve. */
bool memsys_unserved(const memsys *m);
/* A window's edge SM by SM, on the threads (doc/parallel.md): an SM's
 * edge reads and writes that SM's state alone, so the SMs' edges may run
 * in any order on any threads, each once every part of the closed batch
 * is served (memsys_serve_part) and the SM's calls of the window are
 * over.  memsys_edge_settle is memsys_serve_end for one SM (its codes are
 * then known to memsys_known_on and memsys_value);
 * memsys_edge_switch is its part of memsys_switch (-1: an internal
 * error); then, on one thread, memsys_edge_end: memsys_publish and the rest of
 * memsys_switch. */
void memsys_edge_settle(memsys *m, uint32_t sm);
int memsys_edge_switch(memsys *m, uint32_t sm);
void memsys_edge_end(memsys *m);
/* The largest value of SM sm's settled batch (the kernel's end). */
uint64_t memsys_settled_max_on(const memsys *m, uint32_t sm);
/* Whether v is a value, or a code whose value is known (its batch was served). */
bool memsys_known(const memsys *m, uint64_t v);
/* ... a code of SM sm: also after memsys_edge_settle of the SM. */
bool memsys_known_on(const memsys *m, uint32_t sm, uint64_t v);
/* Whether v is a code of a batch dropped since (an internal error: its
 * value is gone). */
bool memsys_lost(const memsys *m, uint64_t v);
/* The value of v: v itself, or the served value of SM sm's code v (a code
 * of a batch not served yet stays as it is). */
uint64_t memsys_value(const memsys *m, uint32_t sm, uint64_t v);
/* The largest value of the served batch (the kernel's end). */
uint64_t memsys_settled_max(const memsys *m);
/* Forget every batch's requests and values. */
void memsys_clear(memsys *m);
#endif
