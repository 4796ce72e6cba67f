/* emu/timing.c - the timed launch loop (see timing.h); the warp
 * schedulers are in sched.c, the instructions' timing classes in
 * timing_insn.c. */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/sched.h"
#include "emu/timing.h"
#include "emu/timing_insn.h"
#include "util/wbuf.h"
#include "util/lazymap.h"
#include "util/clock.h"
#include "util/vec.h"
#include "emu/timing_par.h"
#include "emu/parallel.h"
#include "emu/reorder.h"
#include "memmodel/memsys.h"
#include "memmodel/ifetch.h"
#include "memmodel/space.h"
#include "util/host_line.h"
#include "util/spin.h"
#include <stdatomic.h>

typedef struct tsm {
  HOST_LINE_ALIGNED uint64_t sched_free[8];   /* per sub-partition: next issue cycle (SMs of different threads: util/host_line.h) */
  sched_list ns[8];                   /* ... warps it did not select (not_selected) */
  sched_list unit_wait[8][U_COUNT];   /* ... warps another warp's use of a unit holds back */
  uint64_t unit_free[8][U_COUNT];     /* per sub-partition and unit               */
  const twarp *unit_by[8][U_COUNT];   /* ... the warp that last issued to it       */
  uint64_t unit_at[8][U_COUNT];       /* ... and the cycle it did                  */
  uint32_t ctas;                      /* resident CTAs                            */
  uint64_t first, last;               /* active span                              */
  uint64_t warp_cycles;               /* sum over resident warps of their lifetime */
  double s2r_free;                    /* when the SM takes its next special register read (S2R) */
  uint64_t port_free;                 /* when the SM's LSU port dispatches its next global load (lsu_port) */
  sched_list port_wait;               /* ... the warps waiting for it */
  uint32_t atom_head;                 /* the oldest of its atomics in flight (timing_state.atom_ack) */
  double bar_free;                    /* when its barrier unit takes the next CTA barrier arrival (bar_arrive_cycles) */
  double retire_free;                 /* when it retires its next ended block (cta_retire_cycles) */
} tsm;

const char *const timing_stall_names[STALL_NREASONS] = {
  "none", "selected", "not_selected", "long_scoreboard", "short_scoreboard", "wait", "barrier", "membar",
  "math_pipe_throttle", "mio_throttle", "lg_throttle", "tex_throttle", "branch_resolving", "no_instruction",
  "dispatch_stall", "drain", "sleeping", "misc", "imc_miss"
};

/* Per SM, an instruction queue in front of a memory pipe: when each of
 * the last `depth` instructions left it (started there; an LDC
 * ldc_mio_hold cycles later), a ring; free_at: when the oldest did, that
 * is when the next place frees (places are taken again in order); and the
 * warps held back while it is full.  IQ_MIO: shared-memory instructions and the shared
 * pipe (gpu_config.mio_queue); IQ_LG: global and local ones and the L1
 * (gpu_config.lg_queue). */
enum { IQ_MIO, IQ_LG, IQ_COUNT };

/* twarp.ldc_done: bit k, the deferred pointer parameter k (deps.defer - 1,
 * at most 63 a kernel); this bit, its stack pointer's LDC */
#define LDC_STACK (1ull << 63)
typedef struct issueq {
  HOST_LINE_ALIGNED uint64_t *start;
  uint32_t next;
  uint64_t free_at;
  sched_list wait;
} issueq;

/* One periodic sample of an SM (sm_samples of traces). */
typedef struct tsample { uint64_t cycle; uint32_t sm, active, eligible; } tsample;

/* A domain: the SMs one scheduler queue orders, whose state no other
 * domain touches within a window of cycles (doc/parallel.md): an SM, or in
 * a cluster launch a GPC (a cluster's blocks interact within it). */
typedef struct tdom {
  HOST_LINE_ALIGNED sched q;
  uint64_t now;                       /* the cycle of its last event                  */
  uint64_t stop;                      /* events from this cycle wait for the edge (a block ended) */
  uint64_t end;                       /* the latest cycle its warps need             */
  uint32_t ended;                     /* blocks that ended in the window              */
  struct tpark { twarp *tw; uint64_t t, code; } *park;   /* warps waiting for a pending value (code: the latest they need) */
  uint32_t npark, cappark;
  struct tsite { uint64_t *p; uint64_t code; twarp *tw; } *site;  /* where pending values were stored */
  uint32_t nsite, capsite;
  struct tfin { uint64_t when; uint32_t base; } *fin;             /* blocks ended: the next one's start */
  uint32_t nfin, capfin;
  /* blocks the edge gave it, set up by the domain itself (on its thread)
   * before its window: their slots, start cycles and launch numbers */
  struct tstart { uint64_t when, seq; uint32_t base; } *start;
  uint32_t nstart, capstart;
  uint32_t *slots, nslots;            /* the slots of its SMs                          */
  uint32_t owner;                     /* the thread that ran it last (its blocks use that thread's launch state) */
  uint32_t sm_lo, sm_hi;              /* its SMs: sm_lo .. sm_hi - 1                   */
  uint64_t settled_max;               /* the largest value its SMs' served batch settled (edge_dom) */
  tsample *samples;                   /* sm_samples of its SMs (see take_sample)      */
  uint32_t nsamples, capsamples, sample_cycles;
  uint64_t sample_every, next_sample;
} tdom;


typedef struct timing_state {
  HOST_LINE_ALIGNED const gpu_config *g;   /* (each worker thread has a copy) */
  emu *e;
  deps *dep;                          /* per program PC                           */
  tsm *sms;
  memsys *mem;                        /* L1s, L2, DRAM (memmodel/memsys.h)        */
  ifetch *ic;                         /* instruction caches, NULL: not modelled   */
  bool *uniform_atom;                 /* per PC: one atomic per warp (emu/uniform.c) */
  uint8_t *row_defer;                 /* per row: 1 + the deferred pointer parameter it holds (deps.defer), 0: none */
  uint32_t defer_off[64];             /* ... the parameters' offsets in the parameter block */
  int32_t defer_rows[64][4];          /* ... the rows that hold each (defer_nrows > 4: look in row_defer) */
  uint8_t defer_nrows[64];
  uint64_t ldc_first;                 /* LDC_STACK (ldc_stack): a warp's first LDC, before anything (twarp.ldc_done) */
  uint64_t port_cycles;               /* the cycles a global load holds the SM's LSU port (lsu_port: l1_request_cycles, rounded) */
  issueq *iq[IQ_COUNT];               /* per SM; NULL: that queue's depth is 0 */
  uint64_t *iq_mem[IQ_COUNT];
  uint32_t iq_depth[IQ_COUNT];
  twarp **list_mem;                   /* the lists' warps (sched_list)               */
  tdom *dom;                          /* the domains, and each SM's                 */
  uint32_t ndom, *dom_of;
  sched_sp *sp;                       /* per SM and sub-partition (sched.h)         */
  uint64_t now, mem_latency;
  uint64_t code_bytes;                /* the kernel's SASS code (timing_code_bytes) */
  uint32_t ready_rows;                /* rows of a warp's ready cycles (dep_rows) */
  bool mem_done;
  bool mem_store;                     /* ... a store (not a reduction) */
  uint64_t mem_link_queued;           /* ... with mem_store: when its lines are in the write link's queue (store_drain 2; else 0) */
  bool mem_atom;                      /* ... a global atomic: one of the SM's atomics in flight */
  uint64_t *atom_ack;                 /* per SM, atomics_in_flight of them: when the L2 performed each (a ring from tsm.atom_head; pending codes too) */
  uint64_t mem_read_at;               /* ... when the L1 or the shared pipe takes it from its queue (reads its registers) */
  uint8_t mem_read_why;               /* ... the wait of an instruction that writes one of them before */
  timing_result r;
  uint64_t issue_wait; uint8_t issue_why;  /* the issuing warp's wait (emu_timing_issue) */
  twarp *issuing;                     /* the warp whose instruction runs (timing_mem) */
  uint64_t bulk_sent;                 /* ... a bulk copy's: when it has read its shared source (AC_BULK_READ; 0: none) */
  uint64_t mbar_merged;               /* ... an mbarrier wait's: the phase's cycle its result waits for (mem_done) */
  cta *res;                           /* the resident-block slots (a block's slot: its place here) */
  uint32_t nslots;
  struct tbar *tbar;                  /* per slot, TBAR_MAX: bulk copies' mbarriers (timing_bulk); NULL: none */
} timing_state;

static uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* ---- read barriers ------------------------------------------------------------ */

/* A memory instruction reads its registers (address, data) when the L1 or
 * the shared pipe takes it from the LG or MIO queue, not at issue; ptxas
 * gives it a read barrier, and an instruction that writes one of them
 * waits on it: long_scoreboard for the LG queue, short_scoreboard for the
 * MIO ([M] tests/microbench mb_l2dirty fill: a store loop whose address
 * register the next iteration writes, 36-59 % long_scoreboard and no
 * lg_throttle on the H100; mb_wb: store-only loops 35-90 %
 * long_scoreboard; the sm_90 SASS of mb_l1w: the IMAD.WIDE that writes an
 * LDG's address register waits on the LDG's read barrier). */
static void war_note(twarp *tw, const deps *d, uint64_t read_at, uint8_t why) {
  for (uint8_t i = 0; i < d->nsrc; i++) {
    int32_t row = d->src[i];
    if (row < 0) continue;
    uint32_t k = 0;
    while (k < tw->war_n && tw->war_row[k] != (uint32_t)row) k++;
    if (k == tw->war_n) {
      if (k == TWARP_WAR_MAX) {         /* full: the one read first makes room */
        k = 0;
        for (uint32_t j = 1; j < TWARP_WAR_MAX; j++) if (tw->war_t[j] < tw->war_t[k]) k = j;
      } else tw->war_n++;
      tw->war_row[k] = (uint32_t)row;
      tw->war_t[k] = 0;
    }
    if (read_at > tw->war_t[k]) { tw->war_t[k] = read_at; tw->war_why[k] = why; }
    if (read_at > tw->war_last) tw->war_last = read_at;
  }
}

/* The instruction d of warp tw, about to issue at *t (it could at now),
 * waits until the registers it writes have been read; once every one has
 * been (war_last), the warp forgets them all. */
static void war_wait(twarp *tw, const deps *d, uint64_t now, uint64_t *t, int *why) {
  if (now >= tw->war_last) { tw->war_n = 0; return; }   /* all read */
  if (!d->ndst) return;
  uint32_t n = 0;
  for (uint32_t k = 0; k < tw->war_n; k++) {
    if (tw->war_t[k] <= now) continue;     /* read: forgotten */
    tw->war_row[n] = tw->war_row[k]; tw->war_t[n] = tw->war_t[k]; tw->war_why[n] = tw->war_why[k];
    for (uint8_t i = 0; i < d->ndst; i++)
      if (d->dst[i] >= 0 && (uint32_t)d->dst[i] == tw->war_row[n] && tw->war_t[n] > *t) { *t = tw->war_t[n]; *why = tw->war_why[n]; }
    n++;
  }
  tw->war_n = (uint8_t)n;
}
/* ---- memory --------------------------------------------------------------- */

static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Where a kernel's parameters start in constant bank 0. */
static uint64_t imc_param_base(const gpu_config *g) { return g->sm_version >= 90 ? 0x210 : 0x160; }

/* An instruction entered queue k of SM smid (modelled: s->iq[k]) and
 * started on its pipe at `start`. */
static inline void iq_note(timing_state *s, int k, uint32_t smid, uint64_t start) {
  issueq *q = &s->iq[k][smid];
  q->start[q->next] = start;
  if (++q->next == s->iq_depth[k]) q->next = 0;
  q->free_at = q->start[q->next];
}

/* An LDC the constant port started at `start` leaves the SM's MIO queue
 * ldc_mio_hold cycles later (gpu/config.h). */
static void ldc_leaves(timing_state *s, uint32_t smid, uint64_t start) { iq_note(s, IQ_MIO, smid, start + s->g->ldc_mio_hold); }

/* An LDC at cycle t on SM smid: with `queued` (ldc_s2r_mio), a place in
 * the MIO queue until it leaves (ldc_leaves); returns when the constant
 * port starts it (ldc_cycles; t without the queue). */
static uint64_t ldc_start(timing_state *s, uint32_t smid, uint64_t t, bool queued) {
  if (!queued) return t;
  uint64_t start = (uint64_t)(memsys_const_port(s->mem, smid, t, s->g->ldc_cycles) + 0.5);
  ldc_leaves(s, smid, start);
  return start;
}

/* The latency from cycle t of a 64-bit kernel parameter's LDC (lanes a, m):
 * the queue and port (ldc_start), then the constant cache; MS_PENDING for
 * a value the window's edge settles (its answer's own, from t). */
static uint64_t ldc_param(timing_state *s, uint32_t smid, uint64_t t, const uint64_t *a, lanemask m, bool queued) {
  uint64_t start = ldc_start(s, smid, t, queued), lat = memsys_param(s->mem, smid, t, a, m);
  return lat == MS_PENDING ? lat : lat + (start - t);
}

/* Local memory as the GPU lays it out: each resident warp slot has a
 * region of its own (a later block's warps in that slot reuse it), in
 * which the threads' 4-byte words are interleaved, word k of lane l at
 * k * 128 + l * 4 (the CUDA programming guide: consecutive 32-bit words
 * are accessed by consecutive thread IDs, so a warp whose threads use the
 * same offset touches whole lines).  The emulator's addresses are each
 * thread's own offsets, which every warp shares.  An access wider than a
 * word whose lanes' offsets differ is made word by word (its lanes'
 * words lie 128 bytes apart); with one offset for all lanes, each lane's
 * bytes side by side touch the same lines as the interleaved words do. */
static uint64_t local_access(timing_state *s, warp *w, uint32_t smid, uint64_t t, const uint64_t *a, lanemask m, uint32_t size,
                             enum ms_op op) {
  uint64_t slot = s->issuing ? (uint64_t)s->issuing->slot * w->cta->nwarps + w->id : (uint64_t)w->cta->linear * w->cta->nwarps + w->id;
  /* (regions wrap within 1 TiB, below the shared window and global memory:
   * only the cache model sees these addresses) */
  uint64_t base = GEN_LOCAL_BASE + ((slot * (((uint64_t)w->local_stride + 3) / 4 * 128)) & ((1ull << 40) - 1));
  uint64_t off[WARP_SIZE], pa[WARP_SIZE];
  /* (a local-window address and a .local one alike: the window is 4 GiB
   * aligned, so the low 32 bits are the offset: memmodel/space.h) */
  FOR_LANES(i) off[i] = a[i] & (GEN_WINDOW_SIZE - 1);
  uint64_t first = off[__builtin_ctz(m | 0x80000000u)];
  bool uniform = true;
  FOR_LANES(i) if ((m >> i & 1) && off[i] != first) uniform = false;
  if (size <= 4 || uniform) {
    FOR_LANES(i) pa[i] = base + off[i] / 4 * 128 + (size <= 4 ? (uint64_t)i * 4 + off[i] % 4 : (uint64_t)i * size);
    return memsys_global(s->mem, smid, t, pa, m, size, op, MS_LOCAL);
  }
  /* word by word: the latest word's answer (pending values combined) */
  uint64_t done = t;
  for (uint32_t k = 0; k < size / 4; k++) {
    FOR_LANES(i) pa[i] = base + (off[i] / 4 + k) * 128 + (uint64_t)i * 4;
    uint64_t lat = memsys_global(s->mem, smid, t, pa, m, 4, op, MS_LOCAL);
    done = memsys_pend_max(s->mem, smid, done, memsys_result_at(s->mem, smid, t, lat));
  }
  return memsys_result_from(s->mem, smid, t, done);
}

/* A shared access taken by the pipe (memsys_shared set s->mem_read_at,
 * when its first wavefront goes): its latency, what a writer of its
 * registers before then waits on (short_scoreboard), the counters'
 * figures for it (exec_mem.c count_shared: a merged access's, as the
 * profiler counts the SASS's vector access), its MIO queue place held
 * until then. */
static void shared_taken(emu *e, timing_state *s, uint32_t smid, uint64_t lat, uint32_t wf, uint32_t ideal) {
  s->mem_latency = lat;
  s->mem_read_why = STALL_SHORT_SCOREBOARD;
  e->shared_wf = (struct emu_shared_wf){ wf, ideal, true };
  if (s->iq[IQ_MIO]) iq_note(s, IQ_MIO, smid, s->mem_read_at);
}

void timing_mem(emu *e, warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, int space, bool store) {
  timing_state *s = e->timing;
  uint32_t smid = w->cta->smid;
  uint64_t t = s->now;
  uint16_t isp = x->in->space;
  e->shared_wf.valid = false;
  /* ptxas merged it into another instruction's vector access (fuse.c):
   * the SASS has no access of its own to count (its bytes are in the
   * merged access's wavefronts) */
  const deps *d = &s->dep[x->pc];
  if (d->fused) { e->shared_wf = (struct emu_shared_wf){ 0, 0, true }; return; }
  uint64_t va[WARP_SIZE];
  if (d->fuse_bytes) {
    FOR_LANES(i) va[i] = a[i] - d->fuse_pos;
    a = va;
    size = d->fuse_bytes;
  }
  s->mem_done = true;
  if (isp == MOD_PARAM || isp == MOD_PARAM_ENTRY || isp == MOD_PARAM_FUNC || isp == MOD_CONST) {
    /* a pointer whose LDC issues where it is used (ldc_at_use) */
    if (d->defer) { s->mem_latency = 0; return; }
    /* a call's parameters and return value are registers in the SASS
     * calling convention: a copy, no memory access (mb_stack: Nsight
     * Compute shows no imc_miss in recursive calls) */
    uint64_t first = a[__builtin_ctz(m | 0x80000000u)];
    if (space == MM_LOCAL && isp != MOD_CONST) s->mem_latency = 0;
    else if (isp == MOD_CONST) {
      /* an LDC waits in the MIO queue until the constant port takes it,
       * and keeps its place until it leaves (ldc_leaves) */
      bool ldc = d->throttle_why == STALL_MIO_THROTTLE && s->iq[IQ_MIO];
      uint64_t qstart = ldc ? (uint64_t)(s->mem->sm[smid].const_free + 0.5) : 0;
      s->mem_latency = memsys_const(s->mem, smid, t, a, m, size, ldc ? s->g->ldc_cycles : 1);
      if (ldc) ldc_leaves(s, smid, umax(t, qstart));
    }
    else if (size * (x->in->vec ? x->in->vec : 1) <= 4 && s->g->imc_miss_cycles && s->issuing && first >= e->param_addr &&
             first - e->param_addr < (1u << 16))
      /* a kernel parameter of 32 bits: ULDC (timing_insn.c) */
      s->mem_latency = memsys_imc(s->mem, smid, t, imc_param_base(s->g) + first - e->param_addr, &s->issuing->imc_busy);
    else   /* an LDC of a 64-bit parameter; queued for the constant port with ldc_s2r_mio */
      s->mem_latency = ldc_param(s, smid, t, a, m, d->throttle_why == STALL_MIO_THROTTLE && s->iq[IQ_MIO]);
    if (store) s->mem_latency = 0;
    return;
  }
  if (space == MM_SHARED) {
    /* offsets in the CTA's shared memory: the addresses themselves, unless
     * some are generic (the OR of all below the window) */
    uint64_t buf[WARP_SIZE], any = 0;
    const uint64_t *off = a;
    UNROLL_LANES
    for (int i = 0; i < WARP_SIZE; i++) any |= a[i];
    if (any >= GEN_SHARED_BASE) {
      any = 0;
      FOR_LANES(i) { buf[i] = a[i] >= GEN_SHARED_BASE ? a[i] - GEN_SHARED_BASE : a[i]; any |= buf[i]; }
      off = buf;
    }
    /* (a cluster's other blocks: a rank in the offset's high bits, which
     * the lanes of a plain shared access all leave 0) */
    bool remote = false, window = false;
    if (__builtin_expect(any >> CLUSTER_RANK_SHIFT != 0, 0))
      FOR_LANES(i) if ((m >> i & 1) && off[i] >> CLUSTER_RANK_SHIFT) {
        window = true;
        if ((off[i] >> CLUSTER_RANK_SHIFT) - 1 != w->cta->cluster_rank) remote = true;
      }
    double *own = s->issuing ? &s->issuing->smem_own : NULL;
    uint32_t wf, ideal;
    uint64_t lat = memsys_shared(s->mem, smid, t, off, m, size, own, &s->mem_read_at, &wf, &ideal);
    shared_taken(e, s, smid, lat, wf, ideal);
    /* another block's shared memory: over the SMs' network; the block's
     * own through the cluster's window (an address mapa made): slower
     * than a plain shared access, not as slow as another SM's */
    if (remote && s->g->lat_dsmem > s->g->lat_shared) s->mem_latency += s->g->lat_dsmem - s->g->lat_shared;
    else if (window && s->g->lat_dsmem_own > s->g->lat_shared) s->mem_latency += s->g->lat_dsmem_own - s->g->lat_shared;
    return;
  }
  bool atomic = x->in->op == OP_ATOM || x->in->op == OP_RED;
  /* volatile and strong (relaxed/acquire beyond the CTA) loads must see
   * other SMs' writes: the L1 is not coherent, so they are served by L2 */
  bool strong = x->in->sem == MOD_VOLATILE || ((x->in->sem == MOD_RELAXED || x->in->sem == MOD_ACQUIRE) && x->in->scope != MOD_CTA);
  enum ms_path path = space == MM_LOCAL ? MS_LOCAL
                    : x->in->cache == MOD_CG || x->in->cache == MOD_CV || strong ? MS_BYPASS
                    : x->in->cache == MOD_NC ? MS_READONLY : MS_CACHED;
  enum ms_op op = !atomic ? (store ? MS_STORE : MS_LOAD) : s->uniform_atom[x - e->prog] ? MS_ATOMIC_WARP
                : s->atom_ack && (d->unread || x->in->op == OP_RED) ? MS_RED : MS_ATOMIC;
  if (d->atom_f16) op |= MS_F16;
  /* one of the SM's atomics in flight (the try waited for its place) */
  s->mem_atom = atomic && s->atom_ack && path != MS_LOCAL;
  /* a store's latency only bounds the kernel's end: it writes no register */
  s->mem_read_at = umax(t, (uint64_t)((s->g->l1_accept_cycles > 0 ? s->mem->sm[smid].l1_accept : s->mem->sm[smid].l1_free) + 0.5));
  s->mem_read_why = STALL_LONG_SCOREBOARD;
  s->mem_latency = path == MS_LOCAL ? local_access(s, w, smid, t, a, m, size, op)
                                    : memsys_global(s->mem, smid, t, a, m, size, op, path);
  s->mem_store = store && !atomic;
  /* a store the L1 took once its buffer of stores had room
   * (l1_store_buffer_bytes): its registers are read then; its lines are
   * in the write link's queue (store_drain 2) from one L2 round trip
   * before its last sector leaves (the queue the L1's pipeline keeps) */
  if (s->mem_store && s->g->l1_store_buffer_bytes) s->mem_read_at = umax(s->mem_read_at, memsys_store_taken(s->mem, smid));
  uint64_t out = s->mem_store && s->g->store_drain > 1 ? memsys_store_out(s->mem, smid) : 0;
  s->mem_link_queued = out > s->g->lat_l2 ? out - s->g->lat_l2 : 0;
  if (s->iq[IQ_LG]) iq_note(s, IQ_LG, smid, s->mem_read_at);
}

/* A whole warp's shared access through a register comes back through it,
 * unwritten since, with only its displacement changed (a tile's unrolled
 * loads [%r], [%r+64], ...): every lane's offset moves by the difference
 * (both accesses' lanes lie in the block's shared memory, which is far
 * smaller than 2^31 bytes), and moved by a multiple of memsys's bank_align
 * the lane pattern has the same wavefronts (memsys_shared's memo): the
 * warp keeps its last two, and such an access skips the addresses. */
static inline struct tshared_last *shared_last(timing_state *s, warp *w, const xinsn *x) {
  twarp *tw = s->issuing;
  const deps *d = &s->dep[x->pc];
  return tw && tw->w == w && !d->fused && !d->fuse_bytes ? tw->sh : NULL;
}

void timing_shared_note(emu *e, warp *w, const xinsn *x, uint32_t size, int64_t imm) {
  timing_state *s = e->timing;
  struct tshared_last *sh = shared_last(s, w, x);
  if (!sh || !e->shared_wf.valid) return;
  twarp *tw = s->issuing;
  sh[tw->sh_next] = (struct tshared_last){ w->insts - x->pc, imm, x->pc, w->cta->linear, size, e->shared_wf.wf, e->shared_wf.ideal };
  tw->sh_next ^= 1;
}

bool timing_shared_again(emu *e, warp *w, const xinsn *x, uint32_t size, int64_t imm) {
  timing_state *s = e->timing;
  struct tshared_last *sh = shared_last(s, w, x);
  if (!sh) return false;
  uint64_t base = w->insts - x->pc, align = memsys_bank_align(s->mem);
  for (int k = 0; k < 2; k++) {
    struct tshared_last *l = &sh[k];
    if (l->size != size || l->pc + 1 != x->same_addr_as || l->base != base || l->linear != w->cta->linear ||
        ((uint64_t)imm - (uint64_t)l->imm) & (align - 1))
      continue;
    /* timing_mem's shared access, its wavefronts known */
    uint32_t smid = w->cta->smid;
    s->mem_done = true;
    shared_taken(e, s, smid, memsys_shared_wavefronts(s->mem, smid, s->now, l->wf, &s->issuing->smem_own, &s->mem_read_at), l->wf, l->ideal);
    l->pc = x->pc;
    l->imm = imm;
    s->issuing->sh_next = (uint8_t)(k ^ 1);
    return true;
  }
  return false;
}

/* ---- bulk copies -------------------------------------------------------------- */

static void fault_oom(emu *e) {
  e->faulted = true;
  e->fault.kind = FAULT_MEMORY;
  snprintf(e->fault.msg, sizeof e->fault.msg, "out of memory in the timing model");
}

/* Bulk copies (cp.async.bulk[.tensor], cp.reduce.async.bulk[.tensor]) are
 * the SM's tensor memory accelerator's, not the lanes': their global side
 * goes to L2 (and DRAM) as 16-byte pieces, 32 a request, from the SM's
 * TMA (memsys MS_TMA: its own rate, no L1 pipeline or MSHRs); a reduction
 * is an L2 update per 16 bytes.  One into shared memory completes on its
 * mbarrier: when its last piece is back is kept per block, barrier and
 * phase parity (tbar), and a try_wait or test_wait that finds that phase
 * complete returns then.  One to global memory completes its bulk group
 * when its last piece is written in L2, and has read its shared source
 * (wait_group.read) when its last piece has left the SM.  A copy into
 * another block's shared memory (multicast, shared::cluster) delays the
 * barriers of the blocks on the issuing SM only: another SM's values are
 * pending on that SM's batch until the window's edge.  (doc/memory-model.md,
 * "Bulk copies") */
#define TBAR_MAX 16
typedef struct tbar {
  uint32_t off1;                      /* 1 + the barrier's offset in its block's shared memory; 0: free */
  uint64_t ready[2];                  /* per phase parity: when the copies completing it are done (0: none) */
} tbar;

/* The mbarrier (c, off)'s entry; a new one (the one done first makes room)
 * with `add`; NULL: not kept. */
static tbar *tbar_of(timing_state *s, const cta *c, uint32_t off, bool add) {
  if (!s->tbar || c < s->res || c >= s->res + s->nslots) return NULL;
  tbar *b = &s->tbar[(size_t)(c - s->res) * TBAR_MAX];
  for (int k = 0; k < TBAR_MAX; k++) if (b[k].off1 == off + 1) return &b[k];
  if (!add) return NULL;
  int v = 0;
  for (int k = 0; k < TBAR_MAX && b[v].off1; k++)
    if (!b[k].off1 || umax(b[k].ready[0], b[k].ready[1]) < umax(b[v].ready[0], b[v].ready[1])) v = k;
  b[v] = (tbar){ off + 1, { 0, 0 } };
  return &b[v];
}

/* The access's result `done` (a cycle or a pending code) joins those of
 * the instruction's earlier lanes. */
static void mem_merge(timing_state *s, uint32_t sm, uint64_t t, uint64_t done) {
  uint64_t prev = s->mem_done ? memsys_result_at(s->mem, sm, t, s->mem_latency) : t;
  s->mem_latency = memsys_result_from(s->mem, sm, t, memsys_pend_max(s->mem, sm, prev, done));
  s->mem_done = true;
}

/* One request of n pieces: its result joins the copy's so far (*done),
 * and when its last piece has left the SM (a write's or reduction's source
 * read, *sent).  (A store's memsys result is when it leaves for L2, its
 * write done there an L2 latency later; a reduction's, when its answer
 * would be back, an L2 latency after it left.) */
static void bulk_request(timing_state *s, uint32_t sm, uint64_t t, const uint64_t *a, uint32_t n, enum ms_op op,
                         uint64_t *done, uint64_t *sent) {
  uint64_t lat = memsys_global(s->mem, sm, t, a, n == WARP_SIZE ? FULL_MASK : (1u << n) - 1, 16, op, MS_TMA);
  uint64_t r = memsys_result_at(s->mem, sm, t, lat), lat_l2 = s->g->lat_l2;
  if (op == MS_LOAD) { *done = memsys_pend_max(s->mem, sm, *done, r); return; }
  /* (each a value of its own: a pending value is moved by pend_add, and the
   * pending max of r and a cycle before it is a new one) */
  uint64_t w = memsys_pend_max(s->mem, sm, r, t);
  if (op == MS_STORE) {
    if (ms_is_pending(w)) memsys_pend_add(s->mem, sm, w, lat_l2); else w += lat_l2;
    *done = memsys_pend_max(s->mem, sm, *done, w);
    *sent = memsys_pend_max(s->mem, sm, *sent, r);
    return;
  }
  if (ms_is_pending(w)) memsys_pend_add(s->mem, sm, w, (uint64_t)0 - lat_l2); else w = w > t + lat_l2 ? w - lat_l2 : t;
  *done = memsys_pend_max(s->mem, sm, *done, r);
  *sent = memsys_pend_max(s->mem, sm, *sent, w);
}

void timing_bulk(emu *e, warp *w, const uint64_t *seg, const uint32_t *len, uint32_t nseg, uint32_t bytes, int how,
                 const cta *bar, uint32_t bar_off, uint32_t parity) {
  timing_state *s = e->timing;
  uint32_t sm = w->cta->smid;
  uint64_t t = s->now, wavefronts = ((uint64_t)bytes + 127) / 128;
  uint64_t done = t + 1, sent = t + wavefronts;
  if (how == TB_SHARED) done = t + s->g->lat_dsmem + wavefronts;
  else {
    enum ms_op op = how == TB_READ ? MS_LOAD : how == TB_WRITE ? MS_STORE : MS_ATOMIC;
    uint64_t a[WARP_SIZE];
    uint32_t n = 0;
    for (uint32_t k = 0; k < nseg; k++)
      for (uint64_t p = seg[k] & ~(uint64_t)15, end = seg[k] + len[k]; p < end; p += 16) {
        a[n++] = p;
        if (n == WARP_SIZE) { bulk_request(s, sm, t, a, n, op, &done, &sent); n = 0; }
      }
    if (n) bulk_request(s, sm, t, a, n, op, &done, &sent);
  }
  if (!bar) {                          /* a bulk group's */
    s->bulk_sent = memsys_pend_max(s->mem, sm, s->bulk_sent ? s->bulk_sent : t, sent);
    mem_merge(s, sm, t, done);
    s->mem_store = true;               /* (no register, no drain: its group waits for it) */
    s->mem_link_queued = 0;
    return;
  }
  if (bar->smid != sm) return;
  tbar *b = tbar_of(s, bar, bar_off, true);
  if (!b) return;
  uint64_t *r = &b->ready[parity & 1];
  /* the phase's first copy replaces a completed phase's cycle */
  *r = !ms_is_pending(*r) && *r <= t ? done : memsys_pend_max(s->mem, sm, *r, done);
  if (!ms_is_pending(*r)) return;
  if (!s->issuing) { *r = 0; return; }     /* (no warp to settle it for: not kept) */
  tdom *dm = &s->dom[s->dom_of[sm]];
  if (VEC_APPEND(dm->site, dm->nsite, dm->capsite, ((struct tsite){ r, *r, s->issuing }))) fault_oom(e);
}

void timing_mbar_wait(emu *e, warp *w, const cta *bar, uint32_t bar_off, uint32_t parity) {
  timing_state *s = e->timing;
  tbar *b = tbar_of(s, bar, bar_off, false);
  uint64_t r = b ? b->ready[parity & 1] : 0;
  if (s->mem_done && s->mbar_merged == r) return;          /* (the warp's other lanes: the same barrier) */
  if (bar->smid == w->cta->smid && (ms_is_pending(r) || r > s->now)) { mem_merge(s, w->cta->smid, s->now, r); s->mbar_merged = r; }
}

/* An SM unit that takes one request every `cycles` in arrival order
 * (*free_at: when it takes the next): when one that comes at t starts. */
static double unit_take(double *free_at, uint64_t t, double cycles) {
  double start = *free_at > (double)t ? *free_at : (double)t;
  *free_at = start + cycles;
  return start;
}

/* A special register read (S2R, S2UR) waits for the SM's turn: one every
 * s2r_cycles; the wait adds to its latency, as the hardware's reads of 32
 * warps at once wait longer on the scoreboard, not at issue ([M]
 * tests/microbench mb_sreg: 53 % short_scoreboard, no mio_throttle).  With
 * ldc_s2r_mio it holds a place in the SM's MIO queue until it starts. */
static uint64_t s2r_wait(timing_state *s, tsm *sm, uint64_t t) {
  double c = s->g->s2r_cycles, start = c > 0 ? unit_take(&sm->s2r_free, t, c) : (double)t;
  uint64_t at = (uint64_t)(start + 0.5);
  if (s->g->ldc_s2r_mio && s->iq[IQ_MIO]) iq_note(s, IQ_MIO, (uint32_t)(sm - s->sms), at);
  return at - t;
}

/* The first CTA on an SM fetches the kernel's code and its constant bank
 * through L2. */
static void fetch_code(timing_state *s, tsm *sm, uint64_t t) {
  memsys_code(s->mem, (uint32_t)(sm - s->sms), t, s->code_bytes + 512);
}

/* The group that ran (mask0) gave way to another at a point where the
 * hardware's path would end too: it merged into a larger group, stopped
 * (exit, a barrier, a warp sync, sleep), or reached its branch's join, where
 * ptxas put a BSYNC (deps.join).  A group that jumped forward past another's
 * waiting threads would go on in the hardware: the interpreter's order of
 * paths is not the hardware's, its cost is. */
static bool path_ends(const timing_state *s, const warp *w, lanemask mask0) {
  lanemask left = mask0 & ~w->cur;
  if (!left) return true;
  int i = __builtin_ctz(left);
  return w->state[i] != TS_RUN || s->dep[w->pc[i]].join;
}

/* The cycles a SASS sequence's later instructions add after its first
 * issues (lat: the first's latency): one a cycle, each a 'selected' cycle
 * (Nsight Compute: one per instruction), and with %warpid (s2r_seq) the
 * wait of its shift for the S2R, which holds the warp's next instructions
 * too.  Out of the issue loop: few instructions are sequences. */
static __attribute__((noinline, cold)) uint64_t sequence_tail(const gpu_config *g, twarp *tw, const deps *d, uint64_t lat) {
  uint64_t after = d->slots - 1, alu = 2 * (uint64_t)g->lat_int, n = after;
  if (d->s2r_seq && lat > after + alu) {
    n += lat - alu - after;
    twarp_note_wait(tw, STALL_SHORT_SCOREBOARD, lat - alu - after);
  }
  twarp_note_wait(tw, STALL_SELECTED, after);
  return n;
}

/* ---- sm_samples ------------------------------------------------------------- */

#define SAMPLE_CYCLES_MAX 128          /* sample cycles kept per launch (64..128 after thinning) */

/* Eligible: it could issue at cycle c but for the choice of another warp. */
static bool warp_ready_at(const timing_state *s, const twarp *tw, uint64_t c) {
  const warp *w = tw->w;
  if (tw->issued1 == c + 1) return true;                 /* selected in that cycle */
  if (!w->cur || !tw->queued || tw->parked || tw->elig > c) return false;
  for (int k = 0; k < IQ_COUNT; k++) if (tw->wl && s->iq[k] && tw->wl == &s->iq[k][tw->sm].wait && *tw->wl->free_at > c) return false;
  if (tw->wl == &s->sms[tw->sm].port_wait && *tw->wl->free_at > c) return false;
  const deps *d = &s->dep[w->cur_pc];
  for (uint8_t i = 0; i < d->nsrc; i++) if (tw->ready[d->src[i]] > c) return false;
  for (uint8_t i = 0; i < d->ndst; i++) if (tw->ready[d->dst[i]] > c) return false;
  return s->sms[tw->sm].unit_free[tw->sp][d->unit] <= c;
}

/* sm_samples, only when an observer wants them: each domain samples its
 * SMs every sample_every cycles as its events pass them, the state before
 * the cycle's issues; the interval doubles (dropping every other sample)
 * to keep a launch's samples bounded, and the launch keeps the samples at
 * multiples of the longest interval of its domains. */
static int take_sample(timing_state *s, tdom *dm, twarp **tws, const cta *res, const uint64_t *cta_start_t, uint32_t slots, uint64_t c) {
  uint32_t nsm = s->g->sms, di = (uint32_t)(dm - s->dom);
  uint32_t *act = calloc(2 * (size_t)nsm, sizeof *act), *eli = act + nsm;
  if (!act) return -1;
  for (uint32_t i = 0; i < slots; i++) {
    /* (a block set up at an edge before its start cycle is not there yet) */
    if (!tws[i] || !res[i].warps || s->dom_of[tws[i][0].sm] != di || cta_start_t[i] > c) continue;
    for (uint32_t wi = 0; wi < res[i].nwarps; wi++) {
      const twarp *tw = &tws[i][wi];
      if (!~tw->w->exited) continue;
      act[tw->sm]++;
      if (warp_ready_at(s, tw, c)) eli[tw->sm]++;
    }
  }
  int rc = 0;
  for (uint32_t m = 0; m < nsm && !rc; m++) {
    if (!act[m]) continue;
    if (VEC_APPEND(dm->samples, dm->nsamples, dm->capsamples, ((tsample){ c, m, act[m], eli[m] }))) rc = -1;
  }
  free(act);
  if (++dm->sample_cycles > SAMPLE_CYCLES_MAX) {
    /* keep the samples at multiples of the doubled interval */
    dm->sample_every *= 2;
    uint32_t k = 0;
    for (uint32_t i = 0; i < dm->nsamples; i++) if (dm->samples[i].cycle % dm->sample_every == 0) dm->samples[k++] = dm->samples[i];
    dm->nsamples = k;
    dm->sample_cycles = (dm->sample_cycles + 1) / 2;
    dm->next_sample = (dm->next_sample + dm->sample_every - 1) / dm->sample_every * dm->sample_every;
  }
  return rc;
}

static int sample_order(const void *a, const void *b) {
  const tsample *x = a, *y = b;
  return x->cycle != y->cycle ? (x->cycle < y->cycle ? -1 : 1) : x->sm < y->sm ? -1 : x->sm > y->sm;
}

/* Every domain's samples at multiples of the longest interval, by (cycle, SM). */
static void report_samples(timing_state *s, emu_observer *obs) {
  uint64_t every = 1;
  size_t n = 0;
  for (uint32_t d = 0; d < s->ndom; d++) { if (s->dom[d].sample_every > every) every = s->dom[d].sample_every; n += s->dom[d].nsamples; }
  tsample *all = malloc((n ? n : 1) * sizeof *all);
  if (!all) return;
  n = 0;
  for (uint32_t d = 0; d < s->ndom; d++)
    for (uint32_t i = 0; i < s->dom[d].nsamples; i++) if (s->dom[d].samples[i].cycle % every == 0) all[n++] = s->dom[d].samples[i];
  qsort(all, n, sizeof *all, sample_order);
  for (size_t i = 0; i < n; i++) obs->on_sm_sample(obs->ctx, all[i].sm, all[i].cycle, all[i].active, all[i].eligible);
  free(all);
}

/* ---- the launch ------------------------------------------------------------- */

/* The SM of each resident-block slot: breadth-first over the SMs, as the
 * hardware's block scheduler fills them; a cluster's blocks go to SMs of
 * one GPC (GPCs take consecutive SMs, split as evenly as they divide). */
static void place_slots(const gpu_config *g, uint32_t slots, uint32_t csize, uint32_t *slot_sm) {
  uint32_t nsm = g->sms, gpcs = g->gpcs ? g->gpcs : 1;
  for (uint32_t i = 0; i < slots; i++) {
    if (csize <= 1) { slot_sm[i] = i % nsm; continue; }
    uint32_t ci = i / csize, r = i % csize, gpc = ci % gpcs, k = ci / gpcs;
    uint32_t first = (uint32_t)((uint64_t)nsm * gpc / gpcs), size = (uint32_t)((uint64_t)nsm * (gpc + 1) / gpcs) - first;
    slot_sm[i] = first + (k * csize + r) % (size ? size : 1);
  }
}

static uint32_t cut32(uint64_t x) { return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x; }

/* The parts of a warp's wait before an issue, largest first, that add up
 * to the waited cycles since its previous issue: what the notes leave out
 * (a wait for a pending value at a window's edge) goes to the largest part
 * (or 'selected' when nothing was noted), what they count twice comes off
 * the smallest.  At least one part; the warp's notes start again. */
static int gap_parts(twarp *tw, uint64_t waited, emu_stall *st) {
  uint32_t mask = tw->gap_mask;
  if (!(mask & (mask - 1))) {
    /* one reason or none (most issues): the whole wait is its part */
    int k = mask ? __builtin_ctz(mask) : STALL_SELECTED;
    tw->gap[k] = 0;
    tw->gap_mask = 0;
    st[0] = (emu_stall){ (uint8_t)k, cut32(waited) };
    return 1;
  }
  /* the EMU_STALL_PARTS largest, largest first (ties: the lower reason);
   * a smaller reason's cycles go to the largest part.  (Sorted as two
   * arrays and written to st once: moving the parts of st itself read
   * each back right after its byte and word were stored, which the host
   * cannot forward, a stall per move.) */
  uint8_t kw[EMU_STALL_PARTS];
  uint32_t kc[EMU_STALL_PARTS];
  int n = 0;
  uint64_t rest = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int k = __builtin_ctz(m);
    uint32_t c = cut32(tw->gap[k]);
    tw->gap[k] = 0;
    if (n == EMU_STALL_PARTS && c <= kc[n - 1]) { rest += c; continue; }
    if (n == EMU_STALL_PARTS) rest += kc[--n];
    int j = n++;
    for (; j > 0 && kc[j - 1] < c; j--) { kc[j] = kc[j - 1]; kw[j] = kw[j - 1]; }
    kc[j] = c;
    kw[j] = (uint8_t)k;
  }
  tw->gap_mask = 0;
  if (rest) kc[0] = cut32(kc[0] + rest);
  uint64_t sum = 0;
  for (int i = 0; i < n; i++) sum += kc[i];
  if (sum < waited) kc[0] = cut32(kc[0] + (waited - sum));
  for (int i = n - 1; i >= 0 && sum > waited; i--) {
    uint32_t c = sum - waited < kc[i] ? (uint32_t)(sum - waited) : kc[i];
    kc[i] -= c;
    sum -= c;
  }
  int m = 0;
  for (int i = 0; i < n; i++) if (!i || kc[i]) st[m++] = (emu_stall){ kw[i], kc[i] };
  return m;
}

/* A warp that waited outside the queue (blocked) is queued again. */
static int requeue_released(timing_state *s, twarp *tw, uint64_t t) {
  if (tw->blocked_at && t > tw->blocked_at) twarp_note_wait(tw, tw->blocked_why, t - tw->blocked_at);
  tw->blocked_at = 0;
  return sched_push(&s->dom[s->dom_of[tw->sm]].q, tw, t);
}

/* A SASS sequence (timing_insn.c) also uses the other math pipe and the
 * SFU, for ii[k] cycles each (0: not that one). */
static void seq_pipes(const deps *d, uint8_t unit[2], uint16_t ii[2]) {
  unit[0] = d->unit == U_INT ? U_FP32 : U_INT; ii[0] = d->seq_other_ii;
  unit[1] = U_SFU; ii[1] = d->seq_xu_ii;
}

/* The pipe a sequence waits for: of its own and those it also uses, the
 * one free last. */
static uint8_t seq_pipe(const tsm *sm, const twarp *tw, const deps *d) {
  uint8_t unit[2], best = d->unit;
  uint16_t ii[2];
  seq_pipes(d, unit, ii);
  for (int k = 0; k < 2; k++)
    if (ii[k] && sm->unit_free[tw->sp][unit[k]] > sm->unit_free[tw->sp][best]) best = unit[k];
  return best;
}

/* ... and its instructions there hold them, as its own pipe is held. */
static void hold_seq_pipes(tsm *sm, const twarp *tw, const deps *d, uint64_t t) {
  uint8_t unit[2];
  uint16_t ii[2];
  seq_pipes(d, unit, ii);
  for (int k = 0; k < 2; k++) {
    if (!ii[k]) continue;
    uint64_t *f = &sm->unit_free[tw->sp][unit[k]];
    *f = umax(*f, t + ii[k]);
    sm->unit_by[tw->sp][unit[k]] = tw;
    sm->unit_at[tw->sp][unit[k]] = t;
  }
}

/* The SM's oldest atomic in flight: its place in timing_state.atom_ack,
 * which the next one takes (atomics_in_flight). */
static inline uint64_t *atom_oldest(const timing_state *s, const tsm *sm, uint32_t smid) {
  return &s->atom_ack[(size_t)smid * s->g->atomics_in_flight + sm->atom_head];
}

/* When the SM's atomic just issued (its place in the ring, atom_head, is
 * behind it) leaves the SM for L2: when the SM's atomic unit is done with
 * it (memsys_atomic_sent: the SM's last atomic, this one), and once
 * atomics_unacked sent before it wait for the L2, when the one that many
 * before it is performed (a cycle or a pending code).  The request's
 * timing at L2 is not moved by this: atomics_in_flight bounds the SM's
 * atomics at their issue; this is when the warp may leave. */
static __attribute__((noinline)) uint64_t red_leaves(timing_state *s, const tsm *sm, uint32_t smid) {
  uint32_t n = s->g->atomics_in_flight, k = s->g->atomics_unacked;
  uint64_t sent = umax(memsys_atomic_sent(s->mem, smid), s->now + 1);
  if (k >= n) return sent;
  uint64_t ack = s->atom_ack[(size_t)smid * n + (sm->atom_head + n - 1 - k) % n];
  return memsys_pend_max(s->mem, smid, sent, ack);
}

/* What an instruction's try weighs besides the warp itself (the try,
 * own_wait and stays_first alike): the SM's issue queue it waits for
 * (IQ_MIO, IQ_LG; -1: none), the LDCs the warp makes first (ldc_stack,
 * ldc_at_use), and the unit it takes (*uid: the FMA pipe for an IMAD form
 * when that is freer) and the one whose being busy holds it (a SASS
 * sequence: the pipe it uses that is busy longest). */
static inline int queue_of(const deps *d) {
  return d->throttle_why == STALL_MIO_THROTTLE ? IQ_MIO : d->throttle_why == STALL_LG_THROTTLE ? IQ_LG : -1;
}
static inline uint64_t ldcs_of(const timing_state *s, const twarp *tw, const deps *d) {
  return (d->defer_mask | s->ldc_first) & ~tw->ldc_done;
}
static inline uint8_t unit_held(const tsm *sm, const twarp *tw, const deps *d, uint8_t *uid) {
  uint8_t u = d->unit;
  if (d->alt_ii && sm->unit_free[tw->sp][U_FP32] < sm->unit_free[tw->sp][u]) u = U_FP32;   /* IMAD form */
  *uid = u;
  return __builtin_expect(d->seq_other_ii | d->seq_xu_ii, 0) ? seq_pipe(sm, tw, d) : u;
}

/* ready_why: the register's value is a scaled special function's
 * (deps.sfu_scaled); the rest is the stall reason. */
#define WHY_SCALED 0x80
_Static_assert((int)AC_COUNT == (int)TWARP_ASYNC_CLASSES, "twarp's group arrays hold one row per async class");
_Static_assert(STALL_NREASONS <= WHY_SCALED, "stall reasons must leave ready_why's top bit free");

/* Rows of a warp's ready cycles (twarp.ready, and ready_why a byte each):
 * up to the last row an instruction's dependences name.  The emulator
 * numbers every special register (e->nrows, 128 for a kernel of 14
 * registers); a row no instruction names needs no cycle, and 8192
 * resident warps' arrays are fresh memory a timed launch pays for. */
static uint32_t dep_rows(const emu *e, const deps *dep, const uint8_t *row_defer) {
  int32_t hi = 0;
  for (uint32_t r = 0; row_defer && r < e->nrows; r++) hi = row_defer[r] ? (int32_t)r : hi;   /* (deferred parameters' rows) */
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const deps *d = &dep[pc];
    for (uint8_t i = 0; i < d->nsrc; i++) hi = d->src[i] > hi ? d->src[i] : hi;
    for (uint8_t i = 0; i < d->ndst; i++) hi = d->dst[i] > hi ? d->dst[i] : hi;
    hi = d->fuse_row > hi ? d->fuse_row : hi;
  }
  return (uint32_t)hi + 1 < e->nrows ? (uint32_t)hi + 1 : e->nrows ? e->nrows : 1;
}

/* A warp none of whose threads can run: at a barrier, or suspended in an
 * mbarrier try_wait (its phase check outstanding: long_scoreboard, [M]
 * tests/microbench mb_bulk as timing_insn.c), or else sleeping. */
static void mark_blocked(twarp *tw, uint64_t t) {
  const warp *w = tw->w;
  bool bar = false, phase = false;
  FOR_LANES(i) { bar |= w->state[i] == TS_BAR; phase |= w->state[i] == TS_SLEEP; }
  tw->blocked_why = bar ? STALL_BARRIER : phase ? STALL_LONG_SCOREBOARD : STALL_SLEEPING;
  tw->blocked_at = t ? t : 1;
}

/* What a window's domains share, read-only during the window (each slot,
 * and each warp's entry, belongs to the domain of its SM). */
typedef struct trun {
  const gpu_config *g;
  emu_observer *obs;
  bool want_samples;
  cta *res;
  twarp **tws, *twmem;
  bool *unqueued;                     /* per block (cluster: its first): a live warp may be out of the queue */
  uint64_t *cta_start_t;
  uint32_t slots, csize, nwarps;
  uint64_t next, total, live, we;
  const uint32_t *slot_sm;            /* per slot: its SM                               */
  bool *slot_init;                    /* per slot: its warps' ready arrays exist        */
} trun;

/* Set up the cluster group of blocks p->seq.. in slots [p->base, +csize)
 * of the domain's SMs, starting at p->when: on the domain's thread, with
 * its copy of the launch state (e) and timing state (s), so that the
 * registers' first touch and the warps' setup spread over the threads. */
static int start_group(const trun *R, timing_state *s, emu *e, tdom *dm, const struct tstart *p) {
  const gpu_config *g = R->g;
  uint32_t nsm = g->sms, nwarps = R->nwarps, base = p->base;
  uint64_t when = p->when;
  for (uint32_t r = 0; r < R->csize; r++) {
    uint32_t si = base + r, sm = R->slot_sm[si];
    cta *c = &R->res[si];
    if (emu_cta_start(e, c, p->seq + r, &R->res[base])) return -1;
    c->par_owner = (p->seq + r) / R->csize + 1;
    c->smid = sm;
    if (e->sr_base + SR_NSMID < c->warps[0].nrows)     /* the file holds them (warp_rows) */
      for (uint32_t wi = 0; wi < c->nwarps; wi++) FOR_LANES(q) {
        c->warps[wi].r[e->sr_base + SR_SMID][q] = sm;
        c->warps[wi].r[e->sr_base + SR_NSMID][q] = nsm;
      }
    twarp *t = &R->twmem[(size_t)si * nwarps];
    R->tws[si] = t;
    tsm *m = &s->sms[sm];
    if (m->ctas++ == 0 && s->ic) ifetch_sm_start(s->ic, sm);   /* the SM's first block */
    fetch_code(s, m, when);
    if (when < m->first) m->first = when;
    R->cta_start_t[si] = when;
    if (s->tbar) memset(&s->tbar[(size_t)si * TBAR_MAX], 0, TBAR_MAX * sizeof *s->tbar);
    for (uint32_t wi = 0; wi < c->nwarps && wi < nwarps; wi++) {
      twarp *tw = &t[wi];
      uint64_t *rd = tw->ready;
      uint8_t *rw = tw->ready_why;
      if (!R->slot_init[si]) { rd = wbuf_alloc(s->ready_rows * sizeof *rd, true); rw = wbuf_alloc(s->ready_rows, true); }
      else { memset(rd, 0, s->ready_rows * sizeof *rd); memset(rw, 0, s->ready_rows); }
      uint64_t h0 = tw->hoist_t0;
      memset(tw, 0, sizeof *tw);
      tw->hoist_t0 = h0;
      tw->ready = rd;
      tw->ready_why = rw;
      tw->loopst[0] = UINT32_MAX;
      if (!rd || !rw) { R->slot_init[si] = true; return -1; }
      tw->w = &c->warps[wi];
      tw->sm = sm;
      tw->slot = si;
      tw->issued1 = when;             /* a warp's states count from its start (sm__warps_active) */
      tw->sp = (c->warps[wi].id + si) % g->sub_partitions;
      tw->spi = sm * g->sub_partitions + tw->sp;
      sched_add(&dm->q, tw);
      /* the instruction buffer fills before the first issue */
      twarp_note_wait(tw, STALL_NO_INSTRUCTION, g->fetch_cycles);
      if (sched_push(&dm->q, tw, when + g->fetch_cycles)) { R->slot_init[si] = true; return -1; }
    }
    R->slot_init[si] = true;
  }
  return 0;
}

/* The LDCs warp tw makes before instruction d, at cycle t (`want`, bits
 * of twarp.ldc_done): its stack pointer's (LDC_STACK, ldc_stack), a place
 * in the MIO queue until the constant port starts it, nothing waits for
 * it; and those of the deferred pointer parameters whose block it enters
 * (ldc_at_use, timing_insn.c timing_mark_deferred_params): a place in the MIO
 * queue (ldc_s2r_mio) until the constant port starts it (ldc_cycles), then
 * the constant cache; the registers that hold the pointer are ready when
 * its value is ('short_scoreboard').  Each is a SASS instruction (its
 * issue cycle is not a 'selected' sample: the warp states are the
 * issuing instructions' and their waits, as traces record them).  -1: out
 * of memory. */
static int make_ldcs(timing_state *s, tdom *dm, twarp *tw, uint64_t want, uint64_t t) {
  const gpu_config *g = s->g;
  bool queue = g->ldc_s2r_mio && g->ldc_cycles && s->iq[IQ_MIO];
  tw->ldc_done |= want;
  /* the stack pointer's first, then the parameters' in program order */
  for (want = (want << 1) | (want >> 63); want; want &= want - 1) {
    uint32_t k = (uint32_t)__builtin_ctzll(want) - 1;
    s->r.sass_issued++;
    if (k == UINT32_MAX) { ldc_start(s, tw->sm, t, queue); continue; }   /* (LDC_STACK) */
    uint64_t a[WARP_SIZE];
    FOR_LANES(i) a[i] = s->e->param_addr + s->defer_off[k];
    uint64_t lat = ldc_param(s, tw->sm, t, a, FULL_MASK, queue);
    uint64_t ready = memsys_result_at(s->mem, tw->sm, t, lat);
    uint32_t nr = s->defer_nrows[k] <= 4 ? s->defer_nrows[k] : s->e->nrows;
    for (uint32_t j = 0; j < nr; j++) {
      uint32_t r = s->defer_nrows[k] <= 4 ? (uint32_t)s->defer_rows[k][j] : j;
      if (s->row_defer[r] != k + 1) continue;
      tw->ready[r] = ready;
      tw->ready_why[r] = STALL_SHORT_SCOREBOARD;
      if (ms_is_pending(ready) && VEC_APPEND(dm->site, dm->nsite, dm->capsite, ((struct tsite){ &tw->ready[r], ready, tw }))) return -1;
    }
  }
  return 0;
}

/* The next events' warps (the queue's top after a pop, and its children)
 * are usually others of thousands whose state is out of the host's
 * caches: their lines are loaded while this event runs.  (always_inline:
 * GCC 12 takes a function of prefetches alone for one without effects and
 * drops its calls.) */
static inline __attribute__((always_inline)) void prefetch_next(const sched *q) {
  const twarp *n = q->heap[0].tw;
  __builtin_prefetch(n);
  __builtin_prefetch((const char *)n + 64);
  __builtin_prefetch(n->w);
  for (uint32_t i = 0; i < 3; i++) __builtin_prefetch((const char *)n->ready + 64 * i);
  for (uint32_t i = 1; i < 3 && i < q->nheap; i++) __builtin_prefetch(q->heap[i].tw);
}

/* An asynchronous operation of class k, done at `done` (a cycle or a
 * pending value), joins the warp's uncommitted ones; -1: out of memory. */
static int grp_open_add(timing_state *s, tdom *dm, twarp *tw, int k, uint64_t done) {
  if (ms_is_pending(done) || ms_is_pending(tw->grp_open[k])) {
    tw->grp_open[k] = memsys_pend_max(s->mem, tw->sm, tw->grp_open[k], done);
    return VEC_APPEND(dm->site, dm->nsite, dm->capsite, ((struct tsite){ NULL, 0, tw })) ? -1 : 0;
  }
  if (done > tw->grp_open[k]) tw->grp_open[k] = done;
  return 0;
}

/* commit_group: the uncommitted operations of class k become its newest
 * group (of 8 kept: the oldest is dropped) */
static void grp_commit(twarp *tw, int k) {
  uint64_t *g = tw->grp_done[k];
  if (tw->grp_n[k] == 8) { memmove(g, g + 1, 7 * sizeof *g); tw->grp_n[k]--; }
  g[tw->grp_n[k]++] = tw->grp_open[k];
  tw->grp_open[k] = 0;
}

/* An if/else ptxas predicates (deps.ifc_*): at its first branch the
 * warp keeps the rows its paths rename as they were; a path reads those
 * the other writes as they were, and its last write of a row both write
 * is ready when both paths' are (the select at the join).  A value still
 * pending at the window's edge leaves the if/else as the PTX has it. */
_Static_assert(TWARP_IFC_ROWS == IFC_ROWS, "twarp keeps deps.ifc_w");
static void ifc_enter(twarp *tw, const deps *d) {
  tw->ifc_ok = true;
  tw->ifc_n = d->ifc_nw;
  for (uint32_t k = 0; k < d->ifc_nw; k++) {
    int32_t r = d->ifc_w[k];
    tw->ifc_row[k] = r;
    tw->ifc_prev[k] = tw->ifc_other[k] = tw->ready[r];
    tw->ifc_prev_why[k] = tw->ifc_other_why[k] = tw->ready_why[r];
    if (ms_is_pending(tw->ready[r])) tw->ifc_ok = false;
  }
}

static int ifc_slot(const twarp *tw, int32_t row) {
  for (uint32_t k = 0; k < tw->ifc_n; k++) if (tw->ifc_row[k] == row) return (int)k;
  return -1;
}

/* When instruction d of warp tw, trying at now, has waited for the warp
 * itself: its operands, the registers its memory instructions have yet to
 * read (forgetting those read by now), ptxas's stall counts; *why the
 * reason of the wait that ends last. */
static inline uint64_t own_ready(twarp *tw, const warp *w, const deps *d, uint64_t now, int *why) {
  uint64_t t = now;
  int y = 0;
  /* (a load merged into another's access waits for nothing: its register
   * is written when the access's is) */
  if (__builtin_expect((d->ifc_src | d->ifc_first) && tw->ifc_ok, 0)) {
    /* (an if/else's path: the other path's rows as they were) */
    for (uint8_t i = 0; i < d->nsrc && !d->fused; i++) {
      int k = d->ifc_src >> i & 1 ? ifc_slot(tw, d->src[i]) : -1;
      uint64_t r = k >= 0 ? tw->ifc_prev[k] : tw->ready[d->src[i]];
      if (r > t) { t = r; y = k >= 0 ? tw->ifc_prev_why[k] : tw->ready_why[d->src[i]]; }
    }
    for (uint8_t i = 0; i < d->ndst; i++) {
      int k = d->ifc_first >> i & 1 ? ifc_slot(tw, d->dst[i]) : -1;
      uint64_t r = k >= 0 ? tw->ifc_prev[k] : tw->ready[d->dst[i]];
      if (r > t) { t = r; y = k >= 0 ? tw->ifc_prev_why[k] : tw->ready_why[d->dst[i]]; }
    }
  } else {
    if (!d->fused)
      for (uint8_t i = 0; i < d->nsrc; i++) if (tw->ready[d->src[i]] > t) { t = tw->ready[d->src[i]]; y = tw->ready_why[d->src[i]]; }
    for (uint8_t i = 0; i < d->ndst; i++) if (tw->ready[d->dst[i]] > t) { t = tw->ready[d->dst[i]]; y = tw->ready_why[d->dst[i]]; }
  }
  if (__builtin_expect(tw->war_n != 0, 0)) war_wait(tw, d, now, &t, &y);
  /* a store or reduction at or before the PC of the warp's last one (the
   * next iteration of their loop) waits until those since its last wait
   * have read their registers: something in each iteration waits on the
   * read barrier they set (iter_read_wait; sm_90 SASS of tests/microbench
   * mb_fuse fuse_st_a16: the loop's first FADD waits on the barrier of
   * its four STS.128, mb_atomic red_u32: the loop's first REDG on its
   * REDGs') */
  if (__builtin_expect(d->iter_read, 0) && w->cur_pc <= tw->iter_pc && tw->iter_read_at > t) { t = tw->iter_read_at; y = tw->iter_read_why; }
  /* a warp's memory instructions issue mio_warp_interval cycles apart at
   * the least: the stall count ptxas writes after each ('wait') */
  if (d->lsu && tw->mio_next > t) { t = tw->mio_next; y = STALL_WAIT; }
  /* the stall count of the instruction before it, whatever that waited */
  if (d->static_gap && !d->free && tw->issued1 && tw->issued1 - 1 + d->static_gap > t) { t = tw->issued1 - 1 + d->static_gap; y = STALL_WAIT; }
  *why = y;
  return t;
}

/* Where d's instruction lies in the kernel's SASS code: the instruction
 * caches' lines hold SASS, fewer instructions than PTX where ptxas
 * combines or drops them, more where one becomes a sequence
 * (timing_code_bytes). */
static inline uint64_t code_addr(const gpu_config *g, const deps *d) {
  return (uint64_t)d->code_at * g->insn_bytes;
}

/* After an issue the warp is queued for the cycle nt its next instruction
 * could come.  Where that instruction then waits for the warp itself (its
 * operands, the registers its memory instructions have yet to read,
 * ptxas's stall count, the spacing of its memory instructions, its own
 * previous instruction on the pipe), that wait is known now: it is noted
 * as the try at nt would have noted it and the warp queued at its end,
 * instead of a try that only queues it again (most of a busy SM's tries).
 * Where a resource other warps share may bind (a queue, the LSU port, a
 * unit another warp holds, the scheduler), or the try has more to decide
 * (a loop's skipped control, a sequence's or the FMA pipe's choice of
 * unit, an instruction line not yet fetched, LDCs, a value pending at the
 * window's edge, two_level's active set), the try at nt stays. */
static uint64_t own_wait(const timing_state *s, const gpu_config *g, const sched *q, twarp *tw, const warp *w, uint64_t nt) {
  const deps *d = &s->dep[w->cur_pc];
  if (d->loop != LOOP_NONE || d->alt_ii || d->seq_other_ii || d->seq_xu_ii || d->kind == DK_ASYNC_WAIT || d->gdesc || d->gatom ||
      ldcs_of(s, tw, d) || q->policy == GPU_SCHED_TWO_LEVEL)
    return nt;
  int why;
  uint64_t t = own_ready(tw, w, d, nt, &why);
  if (why & WHY_SCALED) return nt;
  if (s->ic) {
    uint64_t line1 = (code_addr(g, d) >> 7) + 1;
    if (tw->iline1 != line1) return nt;
    if (tw->iready > t) { t = tw->iready; why = STALL_NO_INSTRUCTION; }
  }
  if (d->queued) {
    int k = queue_of(d);
    if (k >= 0 && s->iq[k] && s->iq[k][tw->sm].free_at > t) return nt;
    if (d->exits && tw->stores_done > t) { t = tw->stores_done; why = STALL_DRAIN; }
  }
  if (ms_is_pending(t)) return nt;
  const tsm *sm = &s->sms[tw->sm];
  if (d->port && sm->port_free > t) return nt;
  uint64_t unit = sm->unit_free[tw->sp][d->unit];
  bool own = sm->unit_by[tw->sp][d->unit] == tw;
  if ((unit > nt && !own) || sm->sched_free[tw->sp] > nt) return nt;
  /* its own previous instruction holding the pipe longer: 'wait' throughout */
  if (unit > t) { twarp_note_wait(tw, STALL_WAIT, unit - nt); return unit; }
  if (t == nt) return nt;
  /* waiting for an operand while its own previous instruction holds the
   * pipe: that stretch is 'wait' (as in the try) */
  uint64_t fixed = (why == STALL_SHORT_SCOREBOARD || why == STALL_LONG_SCOREBOARD) && unit > nt ? unit - nt : 0;
  twarp_note_wait(tw, STALL_WAIT, fixed);
  twarp_note_wait(tw, why, t - nt - fixed);
  return t;
}

/* The first warp of a list (sched_list), its event at now, where another
 * warp took the list's resource again in that cycle: the try would put it
 * back as the first of the same list (it still goes before every other
 * warp there), queued for the resource's next free cycle.  Where nothing
 * else would hold it longer, the try's outcome is made here without it:
 * the wait so far counted as leaving the list would count it, and the
 * warp stays first, queued then (*at).  Lists: the sub-partition's
 * not_selected, a full issue queue's, a unit's another warp holds; not
 * the LSU port's, nor two_level's active set.  Its own waits must be over
 * (wl_own: where they ended when it joined; nothing but its issues
 * changes them). */
static bool stays_first(const timing_state *s, const gpu_config *g, const sched *q, twarp *tw, const warp *w, uint64_t now, uint64_t *at) {
  const tsm *sm = &s->sms[tw->sm];
  sched_list *l = tw->wl;
  if (q->policy == GPU_SCHED_TWO_LEVEL || !w->cur || !~w->exited || *l->free_at <= now || tw->wl_own > now) return false;
  const deps *d = &s->dep[w->cur_pc];
  if (d->kind == DK_ASYNC_WAIT || d->gatom || ldcs_of(s, tw, d)) return false;
  /* the try's bounds, in its order: the issue queue, the LSU port, the
   * unit (as the FMA pipe or a sequence chooses it), the scheduler */
  int k = d->queued ? queue_of(d) : -1;
  uint64_t qf = k >= 0 && s->iq[k] ? s->iq[k][tw->sm].free_at : 0, t = qf > now ? qf : now;
  if (d->queued && d->exits && tw->stores_done > t) return false;
  if (d->port && sm->port_free > t) return false;
  /* (the memory descriptor's ULDC not made yet: the try makes it) */
  if (d->gdesc && g->imc_desc && g->imc_miss_cycles && (!tw->desc_ready || tw->desc_ready > t + 1)) return false;
  uint8_t uid, wuid = unit_held(sm, tw, d, &uid);
  uint64_t slot = umax(t, sm->sched_free[tw->sp]), unit = sm->unit_free[tw->sp][wuid];
  int why;
  bool lost = false;
  if (unit > slot) {
    /* another warp's use of the unit (not one of two the instruction can take) */
    if (sm->unit_by[tw->sp][wuid] == tw || d->alt_ii || l != &sm->unit_wait[tw->sp][wuid]) return false;
    why = wuid != uid && wuid == U_SFU ? STALL_MIO_THROTTLE : d->throttle_why;
    lost = sm->unit_at[tw->sp][wuid] == now;
  } else if (slot > t) {
    if (l != &sm->ns[tw->sp]) return false;
    why = STALL_NOT_SELECTED;
  } else {
    if (qf <= now || l != &s->iq[k][tw->sm].wait) return false;
    why = d->throttle_why;
  }
  uint64_t p = sched_priority(q, tw);
  for (uint32_t i = 0; i < l->n; i++) if (sched_priority(q, l->w[i]) < p) return false;
  /* what leaving and joining again count (sched_list_leave, _join) */
  twarp_note_throttle(tw, tw->wl_why, now - tw->wl_since, l->share);
  if (lost) twarp_note_wait(tw, STALL_NOT_SELECTED, 1);
  tw->wl_since = now + lost;
  tw->wl_why = (uint8_t)why;
  *at = umax(*l->free_at, now + lost);
  return true;
}

/* One domain's events of the window (those before its stop): the state
 * of its SMs, its warps and its own counters only; e and s are its
 * worker's (their scratch and counters; everything else is shared). */
static void run_dom(const trun *R, timing_state *s, emu *e, tdom *dm) {
  const gpu_config *g = R->g;
  emu_observer *obs = R->obs;
  bool want_samples = R->want_samples;
  cta *res = R->res;
  twarp **tws = R->tws;
  bool *unqueued = R->unqueued;
  uint64_t *cta_start_t = R->cta_start_t;
  uint32_t slots = R->slots, csize = R->csize, nwarps = R->nwarps;
  uint64_t next = R->next, total = R->total, live = R->live, we = R->we;
  sched *q = &dm->q;
  sched_list *rehead = NULL;           /* its first warp left: pick the next */
  uint64_t rehead_t = 0;
  for (uint32_t i = 0; i < dm->nstart; i++)
    if (start_group(R, s, e, dm, &dm->start[i])) { fault_oom(e); return; }
  dm->nstart = 0;
  for (;;) {
    if (rehead) {
      if (sched_list_pick(q, rehead, rehead_t)) { fault_oom(e); return; }
      rehead = NULL;
    }
    sched_drop_stale(q);
    if (e->faulted || !q->nheap || q->heap[0].t >= umin(we, dm->stop)) break;
    /* samples of the cycles before the next event see the state they had */
    while (want_samples && dm->next_sample < q->heap[0].t) {
      if (take_sample(s, dm, tws, res, cta_start_t, slots, dm->next_sample)) { fault_oom(e); return; }
      dm->next_sample += dm->sample_every;
    }
    /* budgets: the clock (and resident memory) are read every 4096 issues */
    if (__builtin_expect((e->opt.max_warp_insts && e->warp_insts > e->opt.max_warp_insts) || !(s->r.issued & 0xfff), 0) &&
        emu_over_budget(e, q->heap[0].tw->w))
      break;
    if (e->opt.progress && !(s->r.issued & 0xffff)) emu_progress(e, next - live, total, false);
    heapent he;
    if (!sched_pop(q, &he)) continue;
    twarp *tw = he.tw;
    warp *w = tw->w;
    if (q->nheap) prefetch_next(q);
    uint64_t at;
    if (tw->wl && stays_first(s, g, q, tw, w, he.t, &at)) {
      if (sched_push(q, tw, at)) { fault_oom(e); return; }
      continue;
    }
    if (tw->wl) { rehead = tw->wl; rehead_t = he.t; sched_list_leave(rehead, tw, he.t); }
    if (!~w->exited) { if (sched_leave(q, tw, he.t)) fault_oom(e); continue; }
    s->now = dm->now = he.t;
    e->cycle_now = he.t;
    if (!w->cur) {
      emu_reschedule(w);
      if (!w->cur) {                   /* requeued on release */
        mark_blocked(tw, he.t);
        unqueued[tw->slot / csize * csize] = true;
        if (sched_leave(q, tw, he.t)) fault_oom(e);
        continue;
      }
    }
    if (!sched_admit(q, tw, he.t)) continue;                 /* two_level: waits for a place */
    const deps *d = &s->dep[w->cur_pc];
    /* loop control in all but one of each unroll_factor iterations of a
     * loop ptxas unrolls costs nothing (timing_insn.h) */
    deps dl;
    bool unrolled = false;
    if (__builtin_expect(d->loop != LOOP_NONE, 0)) {
      const uint32_t *ls = tw->loopst;
      uint32_t k = ls[0] == d->loop_end ? ls[1] : 0;
      if (k % g->unroll_factor != g->unroll_factor - 1) {
        dl = *d;
        dl.nsrc = 0; dl.free = true; dl.lat = 0; dl.bank_extra = 0; dl.kind = DK_PLAIN;
        d = &dl;
        unrolled = true;
      }
    }
    tsm *sm = &s->sms[tw->sm];
    int why;
    issueq *held = NULL;              /* the full issue queue that alone held it back until q_t */
    uint64_t q_t = 0;
    uint64_t t = own_ready(tw, w, d, he.t, &why);
    bool scaled = why & WHY_SCALED;      /* the value is a scaled special function's */
    why &= ~WHY_SCALED;
    if (s->ic) {
      /* the instruction's line must be in the sub-partition's L0 cache;
       * a warp asks once per line it enters */
      uint64_t addr = code_addr(g, d), line1 = (addr >> 7) + 1;
      if (tw->iline1 != line1) {
        tw->iline1 = line1;
        double r = ifetch_line(s->ic, tw->sm, tw->sp, (double)he.t, addr);
        tw->iready = r > (double)he.t ? (uint64_t)(r + 0.5) : he.t;
      }
      if (tw->iready > t) { t = tw->iready; why = STALL_NO_INSTRUCTION; }
    }
    uint64_t own_t = t;                /* (its own waits: stays_first) */
    if (__builtin_expect(d->queued, 0)) {
      /* a shared-memory (global, local) instruction waits to issue while
       * the SM's MIO (LG) queue is full: until the one mio_queue
       * (lg_queue) places before it has started on the shared pipe (the
       * L1): mio_throttle (lg_throttle) */
      int k = queue_of(d);
      if (k >= 0 && s->iq[k] && s->iq[k][tw->sm].free_at > t) {
        held = &s->iq[k][tw->sm];
        t = q_t = held->free_at;
        why = d->throttle_why;
      }
      /* a warp leaves when its reductions are done: 'drain' (Nsight Compute:
       * waiting after EXIT for the memory instructions to complete) */
      if (d->exits && tw->stores_done > t) { t = tw->stores_done; why = STALL_DRAIN; }
    }
    /* a global load dispatches when the SM's LSU port is free (lsu_port):
     * the warp waits at issue, dispatch_stall ([M] tests/microbench
     * mb_l1w: 15-18 % on the H100, with 9-21 % long_scoreboard) */
    uint64_t port_t = 0;              /* (0: the port did not hold it) */
    if (d->port && sm->port_free > t) { t = port_t = sm->port_free; why = STALL_DISPATCH; }
    /* LDCs it makes first: the stack pointer's, a warp's first SASS
     * instruction (ldc_stack), and those of the pointers whose block it
     * enters (ldc_at_use): a place in the MIO queue each (ldc_s2r_mio) */
    uint64_t ldcs = ldcs_of(s, tw, d);
    if (__builtin_expect(ldcs != 0, 0) && g->ldc_s2r_mio && s->iq[IQ_MIO] && s->iq[IQ_MIO][tw->sm].free_at > t) {
      held = &s->iq[IQ_MIO][tw->sm];
      t = q_t = held->free_at;
      why = STALL_MIO_THROTTLE;
    }
    /* ptxas reads the memory descriptor (c[0x0][0x208]) into a uniform
     * register with ULDC.64 before a warp's first global access: an
     * immediate-constant read that misses with the SM's first warps
     * (imc_desc) */
    if (__builtin_expect(d->gdesc, 0) && g->imc_desc && g->imc_miss_cycles) {
      if (!tw->desc_ready) {
        s->r.sass_issued++;
        tw->desc_ready = 1 + he.t + memsys_imc(s->mem, tw->sm, he.t, imc_param_base(g) - 8, &tw->imc_busy);
      }
      if (tw->desc_ready > t + 1) { t = tw->desc_ready - 1; why = STALL_IMC_MISS; }
    }
    if (d->kind == DK_ASYNC_WAIT) {
      /* all but the newest grp_keep committed groups must be complete
       * (cp.async.wait_all: the uncommitted copies too) */
      uint64_t need = 0, n = tw->grp_n[d->grp];
      for (uint32_t i = 0; i + d->grp_keep < n; i++) need = umax(need, tw->grp_done[d->grp][i]);
      if (d->grp_open_too) need = umax(need, tw->grp_open[d->grp]);
      if (need > t) { t = need; why = d->grp == AC_WGMMA ? STALL_SLEEPING : STALL_LONG_SCOREBOARD; }
    }
    /* an SM has at most atomics_in_flight global atomics the L2 has not
     * performed yet: the next issues when the oldest is done (a pending
     * one: when the window's edge settles it) ([M] tests/microbench
     * mb_atomic3: one warp's 32 reductions of 32 lanes on one word leave
     * it at once and it drains (55 %); 128 of them, or 8 warps', wait
     * 'long_scoreboard' (51-71 %); val_hist hist_global, every SM's
     * atomics on 256 bins: 97 % 'long_scoreboard', 1 % 'lg_throttle': the
     * warps wait before the LG queue, not in it) */
    if (__builtin_expect(d->gatom, 0)) {
      uint64_t oldest = *atom_oldest(s, sm, tw->sm);
      if (oldest > t) { t = oldest; why = STALL_LONG_SCOREBOARD; }
    }
    /* a value still pending (a memory result the window's edge settles):
     * the warp waits outside the queue and tries again at he.t then */
    if (__builtin_expect(ms_is_pending(t), 0)) {
      /* a value of a batch dropped since would make it wait for ever */
      if (memsys_lost(s->mem, t)) { emu_fault_at(w, NULL, 0, FAULT_DEADLOCK, "timing model: the warp waits for a memory result that was dropped (an internal error)"); break; }
      tw->queued = true;
      if (VEC_APPEND(dm->park, dm->npark, dm->cappark, ((struct tpark){ tw, he.t, t }))) { fault_oom(e); break; }
      continue;
    }
    /* the unit throttles only when it stays busy past the scheduler's
     * next free cycle; until then the warp is eligible, not selected */
    uint8_t uid, wuid = unit_held(sm, tw, d, &uid);
    bool seq = d->seq_other_ii | d->seq_xu_ii;
    uint64_t could = t, slot = umax(t, sm->sched_free[tw->sp]), unit = sm->unit_free[tw->sp][wuid];
    /* the warp's own previous instruction holding the pipe is a stall the
     * compiler wrote into the control bits ('wait', as Nsight Compute counts
     * it: mb_pipe, one warp: no math_pipe_throttle at any ILP); another
     * warp's is a throttle, but for the cycle that warp was chosen in: the
     * pipe was free then, this warp was not selected */
    bool lost = false, throttled = false;
    if (unit > slot) {
      t = could = unit;
      bool own = sm->unit_by[tw->sp][wuid] == tw;
      /* a sequence held up by the SFU waits for its I2F, F2I or MUFU,
       * which go there through the MIO */
      why = own ? STALL_WAIT : wuid != uid && wuid == U_SFU ? STALL_MIO_THROTTLE : d->throttle_why;
      lost = !own && sm->unit_at[tw->sp][wuid] == he.t;
      throttled = !own && !d->alt_ii;
    } else if (slot > t) { t = slot; why = STALL_NOT_SELECTED; }
    if (t > he.t) {
      if (lost) twarp_note_wait(tw, STALL_NOT_SELECTED, 1);
      /* held back by a full MIO or LG queue alone (nothing later moved t
       * past it), by another warp's use of the unit (not one that takes
       * either of two) or by the scheduler */
      sched_list *l = held && t == q_t ? &held->wait
                    : port_t && t == port_t ? &sm->port_wait
                    : throttled ? &sm->unit_wait[tw->sp][wuid]
                    : why == STALL_NOT_SELECTED && !lost ? &sm->ns[tw->sp] : NULL;
      if (l) {
        int j = sched_list_join(q, l, tw, he.t + lost, why);
        if (j < 0) { fault_oom(e); break; }
        if (j) { tw->wl_own = own_t; continue; }
      }
      /* waiting for an operand while its own previous instruction still
       * holds the pipe: that stretch is the stall ptxas wrote into the
       * control bits, 'wait' ([M] tests/microbench mb_pipe pipe_sfu_ilp1:
       * dependent MUFU a trip after another, 18 cycles apart, show
       * about 7 of them as wait, the rest short_scoreboard) */
      uint64_t gap = t - he.t - lost, fixed = 0;
      if ((why == STALL_SHORT_SCOREBOARD || why == STALL_LONG_SCOREBOARD) && unit > he.t && sm->unit_by[tw->sp][wuid] == tw)
        fixed = umin(unit, t) - he.t;
      /* ... and so are the FMUL and FSETP of a scaled special function */
      if (scaled && why == STALL_SHORT_SCOREBOARD) fixed += g->sfu_denorm_cycles;
      fixed = umin(fixed, gap);
      twarp_note_wait(tw, STALL_WAIT, fixed);
      twarp_note_throttle(tw, why, gap - fixed, throttled ? sm->unit_wait[tw->sp][wuid].share : why == STALL_DISPATCH ? sm->port_wait.share : 1);
      /* two_level: a long wait gives the place in the active set away */
      if (why == STALL_LONG_SCOREBOARD && sched_leave(q, tw, he.t)) { fault_oom(e); break; }
      if (sched_push(q, tw, t)) { fault_oom(e); break; }
      tw->elig = could;
      continue;
    }
    if (!d->free) {
      sm->sched_free[tw->sp] = t + d->slots;
      sm->unit_free[tw->sp][uid] = t + d->bank_extra + (uid == d->unit ? d->ii : d->alt_ii);
      sm->unit_by[tw->sp][uid] = tw;
      sm->unit_at[tw->sp][uid] = t;
      if (__builtin_expect(seq, 0)) hold_seq_pipes(sm, tw, d, t);
      if (d->port) sm->port_free = t + s->port_cycles;
    }
    if (__builtin_expect(ldcs != 0, 0) && make_ldcs(s, dm, tw, ldcs, t)) { fault_oom(e); break; }
    if (d->lsu) tw->mio_next = t + g->mio_warp_interval;
    s->mem_done = false;
    s->mem_latency = 0;
    s->mem_store = false;
    s->mem_atom = false;
    s->mem_read_at = 0;
    s->bulk_sent = 0;
    uint32_t pc0 = w->cur_pc;
    lanemask mask0 = w->cur;
    if (__builtin_expect(obs && obs->reads_any_register, 0)) {
      /* the debugger's "waited N cycles (why)": the largest part so far */
      s->issue_wait = 0;
      s->issue_why = STALL_SELECTED;
      for (uint32_t m = tw->gap_mask; m; m &= m - 1) {
        int k = __builtin_ctz(m);
        if (tw->gap[k] > s->issue_wait) { s->issue_wait = tw->gap[k]; s->issue_why = (uint8_t)k; }
      }
    }
    s->issuing = tw;
    uint32_t ran = emu_warp_run(w, 1);
    s->issuing = NULL;
    if (e->par) emu_par_release(e);
    if (e->faulted) break;
    if (!ran) {
      if (!w->cur) unqueued[tw->slot / csize * csize] = true;
      else if (sched_push(q, tw, t + 1)) { fault_oom(e); break; }
      continue;
    }
    s->r.issued++;
    s->r.sass_issued += deps_sass(d);
    if (d->loop == LOOP_BACKEDGE) {
      uint32_t *ls = tw->loopst;
      if (ls[0] != pc0) { ls[0] = pc0; ls[1] = 0; }
      ls[1] = w->cur_pc == e->prog[pc0].target ? ls[1] + 1 : 0;
    }
    /* an instruction that leaves no SASS (d->free) issues nothing: no
     * 'selected' cycle, and the gap before it goes on to the next one */
    uint64_t prev_issue1 = tw->issued1;
    if (!d->free) tw->issued1 = t + 1;
    sched_issued(q, tw);
    /* a CTA barrier arrival passes the SM's barrier unit, one every
     * bar_arrive_cycles in the order they issue; the warps a barrier holds
     * resume barrier_cycles after its last arrival passed (rel), the last
     * one too ([M] tools/calibrate bar_1/4/32_warps: 14.2, 20.2 and 76.2
     * cycles a bar.sync round; tests/microbench mb_vary vbar_loop, 1..32
     * warps a block: 45..108 cycles a round, 2 more a warp) */
    uint64_t rel = t;
    if (__builtin_expect(d->cta_bar != 0, 0) && g->bar_arrive_cycles > 0)
      rel = (uint64_t)(unit_take(&sm->bar_free, t, g->bar_arrive_cycles) + g->bar_arrive_cycles + 0.5);
    if (__builtin_expect(d->imc_sreg != 0, 0) && g->imc_miss_cycles) {
      s->mem_done = true;
      s->mem_latency = memsys_imc(s->mem, tw->sm, t, d->imc_sreg - 1u, &tw->imc_busy);
    }
    if (s->mem_done && s->mem_read_at > t && !d->fused) war_note(tw, d, s->mem_read_at, s->mem_read_why);
    if (__builtin_expect(d->iter_read, 0) && s->mem_done) {
      if (pc0 <= tw->iter_pc) tw->iter_read_at = 0;        /* waited for above */
      tw->iter_read_at = umax(tw->iter_read_at, s->mem_read_at);
      tw->iter_pc = pc0;
      tw->iter_read_why = s->mem_read_why;
    }
    /* a result from L2 is pending until the window's edge: done is its code */
    bool pend = s->mem_done && s->mem_latency == MS_PENDING;
    uint64_t lat = pend ? 0 : (s->mem_done ? s->mem_latency : d->lat) + d->bank_extra;
    if (__builtin_expect(d->s2r, 0) && !d->free) lat += s2r_wait(s, sm, t);
    uint64_t done = d->free ? t : t + (lat ? lat : 1);
    if (d->fused && d->fuse_row >= 0) done = tw->ready[d->fuse_row];
    if (pend) {
      memsys_pend_add(s->mem, tw->sm, memsys_pend_code(s->mem, tw->sm), d->bank_extra);
      if (!d->free) done = memsys_pend_code(s->mem, tw->sm);
    }
    /* a load ptxas hoists above its unrolled copies issues earlier than
     * the PTX puts it (a pending result moves by the same cycles) */
    if (__builtin_expect(d->hoist != 0, 0) && !d->fused) {
      uint64_t *h0 = &tw->hoist_t0;
      if (!pend) done = timing_hoisted_done(g, d, tw->loopst, h0, tw->ready, t, d->free ? 0 : lat ? lat : 1);
      else {
        uint64_t at = timing_hoisted_done(g, d, tw->loopst, h0, tw->ready, t, 0);
        if (at < t) memsys_pend_add(s->mem, tw->sm, done, (uint64_t)0 - (t - at));
      }
    }
    /* the SM's atomic in flight until done (timing_mem) */
    if (s->mem_atom) {
      uint64_t *slot = atom_oldest(s, sm, tw->sm);
      *slot = done;
      if (++sm->atom_head == g->atomics_in_flight) sm->atom_head = 0;
      if (ms_is_pending(done) && VEC_APPEND(dm->site, dm->nsite, dm->capsite, ((struct tsite){ slot, done, tw }))) { fault_oom(e); break; }
    }
    /* a reduction (red, an atom whose result nobody reads) drains until
     * it has left the SM for L2 (atomics_unacked), not until the L2 has
     * performed it; a store as soon as the L1 takes it ([M] tests/microbench
     * mb_atomic3 (H200): one warp's 32 reductions on 8-32 words of a line,
     * 2.5 % drain, on one word (32 passes of the SM's atomic unit each)
     * 55 %; 8 warps' on an SM, mb_atomic red_*: 15-22 %; val_hist
     * hist_shared, each warp's one reduction at its end, 16 an SM: 0.04 %;
     * stores of any pattern (mb_mem chain_init, scattered): ~0%).  Without
     * atomics_unacked, until it is done. */
    if (s->mem_done && (!d->ndst || d->unread) && !s->mem_store) {
      uint64_t *sd = &tw->stores_done, left = done;
      if (s->mem_atom && g->atomics_unacked) left = red_leaves(s, sm, tw->sm);
      if (ms_is_pending(left) || ms_is_pending(*sd)) {
        *sd = memsys_pend_max(s->mem, tw->sm, *sd, left);
        if (VEC_APPEND(dm->site, dm->nsite, dm->capsite, ((struct tsite){ sd, *sd, tw }))) { fault_oom(e); break; }
      } else if (left > *sd) *sd = left;
    }
    /* a store: until the L1 has taken it (store_drain 1), and until the
     * write link's queue ahead of its last sector is no longer than one L2
     * round trip (2: its lines are in the link's queue, not the L1's) */
    if (g->store_drain && s->mem_done && s->mem_store && !ms_is_pending(tw->stores_done)) {
      uint64_t left = umax(s->mem_read_at, s->mem_link_queued);
      if (left > tw->stores_done) tw->stores_done = left;
    }
    uint8_t rwhy = d->result_why;
    uint64_t async_done = 0;
    if (d->kind == DK_ASYNC_OP) {
      /* asynchronous: a wgmma's registers are the program's to protect with
       * wgmma.wait_group, a cp.async writes shared memory; either completes
       * in the background */
      async_done = ms_is_pending(done) ? 0 : done;
      if (grp_open_add(s, dm, tw, d->grp, done) ||
          (d->grp == AC_BULK && grp_open_add(s, dm, tw, AC_BULK_READ, s->bulk_sent ? s->bulk_sent : t + 1))) { fault_oom(e); break; }
      done = t + 1;
    } else if (d->kind == DK_ASYNC_COMMIT) {
      grp_commit(tw, d->grp);
      if (d->grp == AC_BULK) grp_commit(tw, AC_BULK_READ);   /* (one group, two completions) */
    } else if (d->kind == DK_ASYNC_WAIT && tw->grp_n[d->grp] > d->grp_keep) {
      uint32_t drop = tw->grp_n[d->grp] - d->grp_keep;
      memmove(tw->grp_done[d->grp], tw->grp_done[d->grp] + drop, d->grp_keep * sizeof tw->grp_done[d->grp][0]);
      tw->grp_n[d->grp] = (uint8_t)d->grp_keep;
    }
    if (d->kind == DK_ASYNC_WAIT && d->grp_open_too) tw->grp_open[d->grp] = 0;
    uint8_t nready = d->rz ? 0 : d->ndst;   /* (an ATOMS writing RZ: no register to wait for) */
    bool ifc = __builtin_expect((d->ifc_first | d->ifc_last) && tw->ifc_ok, 0);
    for (uint8_t i = 0; i < nready; i++) {
      int k = ifc ? ifc_slot(tw, d->dst[i]) : -1;
      if (k >= 0 && (d->ifc_first >> i & 1)) { tw->ifc_other[k] = tw->ready[d->dst[i]]; tw->ifc_other_why[k] = tw->ready_why[d->dst[i]]; }
      if (k >= 0 && (d->ifc_last >> i & 1) && !ms_is_pending(done) && !ms_is_pending(tw->ifc_other[k]) && tw->ifc_other[k] > done) {
        tw->ready[d->dst[i]] = tw->ifc_other[k];          /* (the other path's value ends later) */
        tw->ready_why[d->dst[i]] = tw->ifc_other_why[k];
        continue;
      }
      tw->ready[d->dst[i]] = done;
      tw->ready_why[d->dst[i]] = d->sfu_scaled ? (uint8_t)(rwhy | WHY_SCALED) : rwhy;
      if (ms_is_pending(done) && VEC_APPEND(dm->site, dm->nsite, dm->capsite, ((struct tsite){ &tw->ready[d->dst[i]], done, tw }))) { fault_oom(e); break; }
    }
    /* warp states (timing.h): the issue cycle is 'selected', the cycles
     * since the warp's previous issue go to the reasons that held the warp,
     * part by part (an instruction without SASS: none, its gap goes on) */
    emu_stall st[EMU_STALL_PARTS];
    int nst = 0;
    if (!d->free) {
      nst = gap_parts(tw, prev_issue1 && t > prev_issue1 ? t - prev_issue1 : 0, st);
      for (int k = 0; k < nst; k++) s->r.stall_cycles[st[k].why] += st[k].cycles;
      s->r.stall_cycles[STALL_SELECTED]++;
    }
    /* (a result still pending: its lower bound, the window's end) */
    if (obs && obs->on_timing) {
      uint64_t cpl = async_done > done ? async_done : done;
      obs->on_timing(obs->ctx, w, t, ms_is_pending(cpl) ? umax(we, t + 1) : cpl, st, nst);
    }
    if (!pend && t + lat > dm->end) dm->end = t + lat;
    cta *c = w->cta;
    if (~w->exited) {
      if (w->cur) {
        /* control flow: the branch resolves, a changed mask reconverges,
         * a jump refills the instruction buffer */
        uint64_t nt = d->free ? t : t + 1;
        if (__builtin_expect(!d->free && d->slots > 1, 0)) nt += sequence_tail(g, tw, d, lat);
        if (d->kind == DK_BRANCH) {
          /* ptxas's stall count after every BRA (5 in sm_90 SASS), taken
           * or not: 'wait' before it resolves */
          if (g->branch_stall > 1 && !d->free) { nt += g->branch_stall - 1; twarp_note_wait(tw, STALL_WAIT, g->branch_stall - 1); }
          nt += g->branch_cycles + d->after;
          twarp_note_wait(tw, STALL_BRANCH_RESOLVING, g->branch_cycles);
          if (d->after && pc0 < e->nprog && e->prog[pc0].in->op == OP_RET) {
            /* a return restores the registers its call saved: a local load
             * (an L1 hit: long_scoreboard), then the moves and the jump
             * back ('wait') ([M] tests/microbench mb_stack recurse: 17%
             * long_scoreboard, 33% wait) */
            uint64_t ldl = umin(g->lat_l1, d->after);
            twarp_note_wait(tw, STALL_LONG_SCOREBOARD, ldl);
            twarp_note_wait(tw, STALL_WAIT, d->after - ldl);
          } else if (d->after) twarp_note_wait(tw, STALL_BRANCH_RESOLVING, d->after);
        }
        /* in a region ptxas predicates, neither divergence nor jumps cost */
        if (__builtin_expect(d->ifconv_end != 0, 0)) {
          uint32_t *ir = tw->ifreg;
          if (!(pc0 >= ir[0] && pc0 < ir[1])) { ir[0] = pc0; ir[1] = d->ifconv_end; }
          if (d->ifc_nw) ifc_enter(tw, d);
        }
        if (__builtin_expect(w->cur != mask0 || w->cur_pc != pc0 + 1, 0)) {
          const uint32_t *ir = tw->ifreg;
          bool predicated = pc0 >= ir[0] && pc0 < ir[1];
          /* the paths split at a branch (branch_resolving); switching to the
           * other path and the join are the reconvergence (BSYNC: wait) */
          bool split = !(w->cur & ~mask0);
          if (w->cur != mask0 && !predicated && (split || path_ends(s, w, mask0))) {
            uint64_t c = split ? g->split_cycles : g->reconverge_cycles, refill = split ? 0 : umin(g->reconverge_refill_cycles, c);
            nt += c;
            twarp_note_wait(tw, STALL_NO_INSTRUCTION, refill);
            twarp_note_wait(tw, split ? STALL_BRANCH_RESOLVING : STALL_WAIT, c - refill);
          }
          if (w->cur_pc != pc0 + 1 && !unrolled && !predicated) { nt += g->fetch_cycles; twarp_note_wait(tw, STALL_NO_INSTRUCTION, g->fetch_cycles); }
        }
        if (d->kind == DK_MEMBAR) { nt += d->after; twarp_note_wait(tw, d->after_why ? d->after_why : STALL_MEMBAR, d->after); }
        if (d->kind == DK_SLEEP) { nt += d->after; twarp_note_wait(tw, STALL_SLEEPING, d->after); }
        /* (its arrival completed the barrier: it waits for the release as well) */
        if (__builtin_expect(d->cta_bar & BAR_WAITS, 0) && g->bar_arrive_cycles > 0 && rel + g->barrier_cycles > nt) {
          twarp_note_wait(tw, STALL_BARRIER, rel + g->barrier_cycles - nt);
          nt = rel + g->barrier_cycles;
        }
        nt = own_wait(s, g, q, tw, w, nt);
        if (sched_push(q, tw, nt)) { fault_oom(e); break; }
      } else {
        /* the warp blocked (barrier, warp-sync): its released threads resume
         * after the barrier's latency; other warps of the CTA may have been
         * released by this instruction too */
        emu_reschedule(w);
        if (w->cur) { twarp_note_wait(tw, STALL_BARRIER, rel - t + g->barrier_cycles); if (sched_push(q, tw, rel + g->barrier_cycles)) { fault_oom(e); break; } }
        else {
          if (d->kind == DK_MEMBAR && d->after_why == STALL_BARRIER) tw->release_extra = d->after;
          mark_blocked(tw, t + 1);
          unqueued[tw->slot / csize * csize] = true;
          if (sched_leave(q, tw, t + 1)) { fault_oom(e); break; }
        }
      }
    } else {
      tw->exit_t = t + 1;                /* active (sm__warps_active) until it exits, not until its block ends */
      if (sched_leave(q, tw, t + 1)) { fault_oom(e); break; }
    }
    /* threads this instruction released in other warps of the CTA, or of
     * its cluster (barrier.cluster, mbarriers completed by a multicast
     * copy): only where a live warp may be out of the queue */
    uint32_t base = tw->slot / csize * csize;
    if (unqueued[base]) {
      bool still = !tw->queued && ~w->exited;
      for (uint32_t r = 0; r < csize && !e->faulted; r++) {
        cta *pc = &res[base + r];
        if (!tws[base + r] || !pc->warps) continue;
        for (uint32_t wi = 0; wi < pc->nwarps && wi < nwarps; wi++) {
          warp *o = &pc->warps[wi];
          twarp *ot = &tws[base + r][wi];
          if (ot->queued || !~o->exited || o == w) continue;
          if (o->next_key == 0 || o->cur) {
            emu_reschedule(o);
            uint32_t *x = &ot->release_extra;
            if (o->cur && requeue_released(s, ot, rel + g->barrier_cycles + *x)) { fault_oom(e); break; }
            if (o->cur) *x = 0;
          }
          if (!ot->queued) still = true;
        }
      }
      unqueued[base] = still;
    }
    if (emu_cta_done(c)) {
      /* a whole cluster leaves together */
      uint32_t base = tw->slot / csize * csize;
      bool all = true;
      for (uint32_t r = 0; r < csize; r++) if (!emu_cta_done(&res[base + r])) all = false;
      if (!all) continue;
      /* an SM retires its ended blocks one at a time, cta_retire_cycles
       * each, and a slot takes its next block once its block is retired;
       * the kernel's end waits for the last retire to begin (an empty
       * launch, launch_cycles, has its one block's) */
      uint64_t retire_at = t + 1, freed = g->cta_retire_cycles ? 0 : t + 1 + g->cta_launch_cycles;
      for (uint32_t r = 0; r < csize; r++) {
        cta *cc = &res[base + r];
        tsm *m = &s->sms[cc->smid];
        if (g->cta_retire_cycles) {
          uint64_t at = (uint64_t)unit_take(&m->retire_free, t + 1, g->cta_retire_cycles);
          retire_at = umax(retire_at, at);
          freed = umax(freed, at + g->cta_retire_cycles);
        }
        for (uint32_t wi = 0; wi < cc->nwarps && wi < nwarps; wi++) {
          uint64_t x = tws[base + r][wi].exit_t;
          m->warp_cycles += (x && x <= t + 1 ? x : t + 1) - cta_start_t[base + r];
        }
        if (t + 1 > m->last) m->last = t + 1;
        if (obs && obs->on_block_timing) obs->on_block_timing(obs->ctx, cc, cta_start_t[base + r], t + 1);
        tws[base + r] = NULL;
        emu_cta_free(cc);
        dm->ended++;
      }
      if (retire_at > dm->end) dm->end = retire_at;
      /* the next block starts at the window's edge: the domain's events
       * from the next cycle wait for it */
      if (next < total) {
        if (VEC_APPEND(dm->fin, dm->nfin, dm->capfin, ((struct tfin){ freed, base }))) { fault_oom(e); break; }
        dm->stop = umin(dm->stop, t + 1);
      }
    }
  }
}

/* The window: half the shortest time from an SM's request to anything
 * shared (an L2 hit's round trip, an atomic's) to its answer, so that an
 * answer comes two windows after the one that asked at the earliest: a
 * window's requests are served while the next runs (doc/parallel.md). */
static uint64_t window_cycles(const gpu_config *g) {
  uint64_t w = umin(g->lat_l2, g->lat_atomic) / 2;
  return w ? w : 1;
}

static int fin_order(const void *a, const void *b) {
  const struct tfin *x = a, *y = b;
  return x->when != y->when ? (x->when < y->when ? -1 : 1) : x->base < y->base ? -1 : x->base > y->base;
}

/* A domain's part of a window's edge (doc/parallel.md), once its window
 * has run and every part of the closed batch is served: its SMs' values
 * of the previous window's requests are settled and the lines they fill
 * ready, the pending values take their values where they were stored,
 * warps waiting for them queue again, and its SMs' requests of this
 * window are closed, to be served during the next.  It touches its own
 * SMs and warps only, so the domains' edges run on their threads in any
 * order with the same result.  -1: e (or a warp) faulted. */
static int edge_dom(timing_state *s, emu *e, tdom *dm) {
  memsys *m = s->mem;
  dm->settled_max = 0;
  for (uint32_t k = dm->sm_lo; k < dm->sm_hi; k++) {
    memsys_edge_settle(m, k);
    dm->settled_max = umax(dm->settled_max, memsys_settled_max_on(m, k));
  }
  uint32_t kept = 0;
  for (uint32_t i = 0; i < dm->nsite; i++) {
    struct tsite *st = &dm->site[i];
    twarp *tw = st->tw;
    if (st->p) {
      if (*st->p != st->code) continue;                    /* overwritten since */
      if (!memsys_known_on(m, tw->sm, st->code)) { dm->site[kept++] = *st; continue; }
      *st->p = memsys_value(m, tw->sm, st->code);
      continue;
    }
    bool open = false;
    for (int k = 0; k < AC_COUNT; k++) {
      tw->grp_open[k] = memsys_value(m, tw->sm, tw->grp_open[k]);
      open |= ms_is_pending(tw->grp_open[k]);
      for (int j = 0; j < 8; j++) {
        tw->grp_done[k][j] = memsys_value(m, tw->sm, tw->grp_done[k][j]);
        open |= ms_is_pending(tw->grp_done[k][j]);
      }
    }
    if (open) dm->site[kept++] = *st;
  }
  dm->nsite = kept;
  kept = 0;
  for (uint32_t i = 0; i < dm->npark; i++) {
    twarp *tw = dm->park[i].tw;
    if (memsys_lost(m, dm->park[i].code)) {
      emu_fault_at(tw->w, NULL, 0, FAULT_DEADLOCK, "timing model: the warp waits for a memory result that was dropped (an internal error)");
      return -1;
    }
    if (!memsys_known_on(m, tw->sm, dm->park[i].code)) { dm->park[kept++] = dm->park[i]; continue; }
    if (sched_push(&dm->q, tw, dm->park[i].t)) { fault_oom(e); return -1; }
  }
  dm->npark = kept;
  for (uint32_t k = dm->sm_lo; k < dm->sm_hi; k++)
    if (memsys_edge_switch(m, k)) { fault_oom(e); return -1; }
  return 0;
}

/* A window on several threads: worker i runs the domains i, i + n, ... */
typedef struct twin {
  const trun *R;
  timing_state *s, *wts;              /* the launch's, and each worker's copy      */
  emu **wemu;                         /* each worker's copy of the launch state    */
  uint32_t n;
  uint32_t nserve;                    /* threads that serve the window's L2 requests (memsys_serve_part) */
  emu_par_job *job;
  /* per thread: how many of its domains (i, i + n, ...) were claimed */
  struct tclaim { HOST_LINE_ALIGNED _Atomic uint32_t next; } *claim;
  _Atomic bool serve_failed;          /* memsys_serve_part ran out of memory */
  _Atomic uint32_t served;            /* parts of the window's serving done */
} twin;

/* Until every part of the window's serving is done. */
static void wait_parts_served(twin *t) {
  for (uint32_t spins = 0; atomic_load_explicit(&t->served, memory_order_acquire) < t->nserve; spins++) spin_step(spins);
}

/* Claim the next unclaimed domain of thread o's share; false when none. */
static bool claim_domain(twin *t, uint32_t o, uint32_t *di) {
  uint32_t k = atomic_fetch_add_explicit(&t->claim[o].next, 1, memory_order_relaxed);
  *di = o + k * t->n;
  return *di < t->s->ndom;
}

/* Thread i's part of a window: the first threads serve the previous
 * window's requests, each its share of the L2's lanes; each runs its own
 * domains (i, i + n, ...), then those of threads still busy.  Which
 * thread runs a domain, or serves a lane, does not change what it does
 * (doc/parallel.md). */
static void window_part(void *ctx, uint32_t i) {
  twin *t = ctx;
  if (i < t->nserve) {
    uint64_t t0 = clock_now_ns();
    if (memsys_serve_part(t->s->mem, i, t->nserve)) atomic_store(&t->serve_failed, true);
    atomic_fetch_add_explicit(&t->served, 1, memory_order_release);
    if (i == 0) t->s->e->timing_wall.serve_ns += clock_now_ns() - t0;   /* (the launch's thread: tteam_run) */
  }
  for (uint32_t o = i, seen = 0; seen < t->n; seen++, o = (o + 1) % t->n) {
    uint32_t di;
    while (claim_domain(t, o, &di)) {
      if (t->wemu[i]->faulted || emu_par_job_stopped(t->job)) return;
      tdom *dm = &t->s->dom[di];
      if (dm->owner != i) {          /* its blocks go on with this thread's launch state */
        for (uint32_t k = 0; k < dm->nslots; k++) if (t->R->res[dm->slots[k]].warps) emu_cta_move(&t->R->res[dm->slots[k]], t->wemu[i]);
        dm->owner = i;
      }
      run_dom(t->R, &t->wts[i], t->wemu[i], dm);
      if (t->wemu[i]->faulted) return;
      wait_parts_served(t);
      if (edge_dom(t->s, t->wemu[i], dm)) return;
    }
  }
}

/* The timed launch on nthreads threads (or one); *again: the attempt on
 * several was abandoned (device memory as before it): run it on one. */
static int run_timed(emu *e, const emu_launch *l, uint32_t nthreads, bool *again) {
  uint64_t end = 0;
  struct tfin *due = NULL;             /* blocks to start at an edge */
  uint32_t ndue = 0, capdue = 0;
  struct tfin *later = NULL;           /* ... and those the SM's launcher holds past this window */
  uint32_t nlater = 0, caplater = 0;
  uint64_t *launch_free = NULL;        /* per SM: when its block launcher takes the next block */
  const gpu_config *g = e->timing_cfg;
  emu_par_job *job = NULL;
  tteam *team = NULL;
  emu **wemu = NULL;
  timing_state *wts = NULL;
  struct tclaim *claim = NULL;        /* per thread: its domains claimed this window */
  uint32_t nw = 1;
  timing_state S, *s = &S;
  memset(s, 0, sizeof S);
  s->g = g;
  s->e = e;
  const isa_func *k = &e->m->funcs[l->func];
  uint32_t threads = l->block[0] * l->block[1] * l->block[2];
  gpu_occupancy occ;
  gpu_occupancy_calc(g, threads, k->regs_used, e->static_shared + l->dyn_shared, &occ);
  if (!occ.active_ctas) {
    e->faulted = true;
    e->fault.kind = FAULT_MEMORY;
    snprintf(e->fault.msg, sizeof e->fault.msg, "the block cannot run on %s: %s (%u threads, %u registers, %u bytes shared)",
             g->name, occ.error ? occ.error : occ.limiter, threads, k->regs_used, e->static_shared + l->dyn_shared);
    return -1;
  }
  uint32_t per_sm = occ.active_ctas;
  uint32_t csize = e->launch.cluster[0] * e->launch.cluster[1] * e->launch.cluster[2];
  if (csize > 1) per_sm = per_sm < csize ? csize : per_sm / csize * csize;   /* whole clusters */
  s->r.theoretical_occupancy = occ.occupancy;
  uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  uint32_t nsm = g->sms, nsp = g->sub_partitions;
  uint32_t slots = nsm * per_sm;
  if (slots > total) slots = (uint32_t)total;
  slots = slots < csize ? csize : slots / csize * csize;
  uint32_t nwarps = (threads + WARP_SIZE - 1) / WARP_SIZE;
  emu_observer *obs = e->obs;
  bool want_samples = obs && obs->on_sm_sample;
  /* L1 gets what the carve-out for the resident blocks' shared memory leaves */
  uint64_t shared_used = (uint64_t)(e->static_shared + l->dyn_shared ? occ.smem_per_cta : 0) * per_sm;
  /* the model's host memory grows with the configuration's geometry and
   * the resident blocks: checked against the memory cap before building */
  uint64_t per_warp = sizeof(twarp) + (uint64_t)e->nrows * (sizeof(uint64_t) + 1) + (uint64_t)e->nrows * WARP_SIZE * 8 +
                      (uint64_t)WARP_SIZE * e->local_per_thread + 5 * sizeof(uint32_t) + sizeof(uint64_t);
  uint64_t need = memsys_host_bytes(g, nsm, shared_used) + ifetch_host_bytes(g, nsm) + (uint64_t)nsm * sizeof(tsm) +
                  (uint64_t)e->nprog * sizeof *s->dep + (uint64_t)slots * (sizeof(cta) + 32) + (uint64_t)slots * nwarps * per_warp +
                  (uint64_t)nsm * (g->mio_queue + g->lg_queue + g->atomics_in_flight) * sizeof(uint64_t) + (uint64_t)nsm * per_sm * nwarps * (3 + U_COUNT) * sizeof(twarp *);
  if (e->warp_bytes + need > e->opt.mem_cap || need > e->opt.mem_cap) {
    e->faulted = true;
    e->fault.kind = FAULT_MEMORY;
    snprintf(e->fault.msg, sizeof e->fault.msg, "the timing model of %s needs %llu MiB of host memory for this launch (%u resident blocks), "
             "more than the memory cap leaves (--max-memory)", g->name, (unsigned long long)(need >> 20), slots);
    return -1;
  }
  s->sms = calloc_lines(nsm, sizeof *s->sms);
  s->atom_ack = g->atomics_in_flight ? calloc((size_t)nsm * g->atomics_in_flight, sizeof *s->atom_ack) : NULL;
  s->dep = calloc(e->nprog ? e->nprog : 1, sizeof *s->dep);
  if (s->dep) {
    timing_build_deps(e, g, s->dep);
    /* the issue order ptxas would give (before anything keyed by PC) */
    if (g->reorder && emu_reorder(e, g, s->dep)) { free(s->dep); s->dep = NULL; }
    /* the links between accesses through one register are the issue
     * order's: a link to another place would pair an access with another
     * register's (exec_mem.c fast_span, timing_shared_again) */
    else if (g->reorder) emu_link_accesses(e);
    /* pointer LDCs where ptxas puts them, on the issue order */
    if (s->dep && g->ldc_at_use) {
      s->row_defer = calloc(e->nrows ? e->nrows : 1, 1);
      if (s->row_defer) timing_mark_deferred_params(e, s->dep, s->row_defer, s->defer_off);
      else { free(s->dep); s->dep = NULL; }
    }
    for (uint32_t r = 0; s->row_defer && r < e->nrows; r++) {
      uint32_t k = s->row_defer[r];
      if (!k || s->defer_nrows[k - 1] == UINT8_MAX) continue;    /* (more than 4: all rows are looked at) */
      if (s->defer_nrows[k - 1]++ < 4) s->defer_rows[k - 1][s->defer_nrows[k - 1] - 1] = (int32_t)r;
    }
    s->ldc_first = g->ldc_stack ? LDC_STACK : 0;
    if (s->dep && g->static_stalls) timing_mark_static_gaps(e, g, s->dep);
  }
  if (s->dep) {                      /* (no deps: the launch fails below) */
    s->code_bytes = timing_code_bytes(e, g, s->dep, l->func);
    s->ready_rows = dep_rows(e, s->dep, s->row_defer);
  }
  cta *res = calloc(slots, sizeof *res);
  s->res = res;
  s->nslots = slots;
  /* bulk copies into shared memory: their mbarriers' completion per slot */
  bool bulk_in = false;
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    uint16_t op = e->prog[pc].in->op;
    bulk_in |= op == OP_CP_ASYNC_BULK || op == OP_CP_REDUCE_ASYNC_BULK || op == OP_CP_ASYNC_BULK_TENSOR;
  }
  s->tbar = bulk_in ? calloc((size_t)slots * TBAR_MAX, sizeof *s->tbar) : NULL;
  /* per slot, kept from one block to the next: its warps' timing state
   * (registers' ready cycles allocated once) */
  twarp **tws = calloc(slots, sizeof *tws);
  /* ... zeroed pages first touched where each slot's first block sets
   * its warps up, on the thread that runs the slot's SM, not by this one
   * for every slot before the first window (the 1024x1024 transpose's
   * 8192 warps: 5.5 MiB, 3 ms of page faults, where the whole launch
   * takes 90 ms on 16 threads) */
  size_t twbytes;
  twarp *twmem = __builtin_mul_overflow((size_t)slots * nwarps, sizeof(twarp), &twbytes) ? NULL : lazymap_zeroed_held(twbytes);
  bool *unqueued = calloc(slots, sizeof *unqueued);
  uint64_t *cta_start_t = calloc(slots, sizeof *cta_start_t);
  uint32_t *slot_sm = calloc(slots, sizeof *slot_sm);
  bool *slot_init = calloc(slots, sizeof *slot_init);
  if (memsys_fits(e->memsys_keep, g, nsm, shared_used)) { s->mem = e->memsys_keep; memsys_reset(s->mem); }
  else { memsys_free(e->memsys_keep); s->mem = memsys_new(g, nsm, shared_used); }
  e->memsys_keep = NULL;
  if (g->icache_l0_bytes) {
    s->ic = ifetch_fits(e->ifetch_keep, g, nsm) ? e->ifetch_keep : NULL;
    if (!s->ic) { ifetch_free(e->ifetch_keep); s->ic = ifetch_new(g, nsm); }
    e->ifetch_keep = NULL;
    if (!s->ic || ifetch_launch(s->ic, s->code_bytes, (double)(g->launch_cycles / 2))) { fault_oom(e); goto out; }
  }
  s->uniform_atom = emu_uniform_atomics(e);
  /* domains: each SM, or each GPC when blocks come in clusters */
  {
    uint32_t gpcs = csize > 1 ? (g->gpcs ? g->gpcs : 1) : nsm;
    s->ndom = gpcs;
    s->dom = calloc_lines(gpcs, sizeof *s->dom);
    s->dom_of = calloc(nsm, sizeof *s->dom_of);
    s->sp = calloc_lines((size_t)nsm * nsp, sizeof *s->sp);
    for (uint32_t d = 0; s->dom_of && d < gpcs; d++) {
      s->dom[d].sm_lo = (uint32_t)((uint64_t)nsm * d / gpcs);
      s->dom[d].sm_hi = (uint32_t)((uint64_t)nsm * (d + 1) / gpcs);
      for (uint32_t i = s->dom[d].sm_lo; i < s->dom[d].sm_hi; i++) s->dom_of[i] = d;
    }
  }
  s->iq_depth[IQ_MIO] = g->mio_queue;
  s->iq_depth[IQ_LG] = g->lg_queue;
  for (int k = 0; k < IQ_COUNT; k++) {
    if (!s->iq_depth[k]) continue;
    size_t per = round_to_lines(s->iq_depth[k], sizeof *s->iq_mem[k]);
    s->iq[k] = calloc_lines(nsm, sizeof *s->iq[k]);
    s->iq_mem[k] = calloc_lines((size_t)nsm * per, sizeof *s->iq_mem[k]);
    if (!s->iq[k] || !s->iq_mem[k]) { fault_oom(e); goto out; }
    for (uint32_t i = 0; i < nsm; i++) s->iq[k][i].start = s->iq_mem[k] + (size_t)i * per;
  }
  /* the waiting lists: each SM's MIO and LG queues (any of its warps may
   * wait there), each sub-partition's scheduler and units (its warps) */
  /* the LSU port takes a load every port_cycles: a wait behind it is
   * dispatch_stall, but for the cycles another warp's load went
   * (twarp_note_throttle) */
  s->port_cycles = (uint64_t)(g->l1_request_cycles + 0.5);
  uint32_t port_share = s->port_cycles ? (uint32_t)s->port_cycles : 1;
  uint32_t per_sp = per_sm * ((nwarps + nsp - 1) / nsp), per_sm_lists = (IQ_COUNT + 1) * per_sm * nwarps + nsp * (1 + U_COUNT) * per_sp;
  per_sm_lists = (uint32_t)round_to_lines(per_sm_lists, sizeof *s->list_mem);
  s->list_mem = calloc_lines((size_t)nsm * per_sm_lists, sizeof *s->list_mem);
  for (uint32_t i = 0; s->list_mem && s->sms && i < nsm; i++) {
    twarp **m = s->list_mem + (size_t)i * per_sm_lists;
    for (uint32_t p = 0; p < nsp; p++) {
      s->sms[i].ns[p] = (sched_list){ .w = m, .cap = per_sp, .free_at = &s->sms[i].sched_free[p] };
      m += per_sp;
      for (int u = 0; u < U_COUNT; u++, m += per_sp)
        s->sms[i].unit_wait[p][u] = (sched_list){ .w = m, .cap = per_sp, .free_at = &s->sms[i].unit_free[p][u],
                                                  .share = timing_unit_interval(g, u) };
    }
    for (int k = 0; k < IQ_COUNT; k++, m += per_sm * nwarps)
      if (s->iq[k]) s->iq[k][i].wait = (sched_list){ .w = m, .cap = per_sm * nwarps, .free_at = &s->iq[k][i].free_at, .give_way = true };
    s->sms[i].port_wait = (sched_list){ .w = m, .cap = per_sm * nwarps, .free_at = &s->sms[i].port_free, .share = port_share };
  }
  if (!s->sms || (g->atomics_in_flight && !s->atom_ack) || !s->dep || !res || !tws || !twmem || !unqueued || !cta_start_t || !slot_sm || !slot_init || !s->mem || !s->uniform_atom || !s->list_mem ||
      !s->dom || !s->dom_of || !s->sp || (bulk_in && !s->tbar)) {
    fault_oom(e);
    goto out;
  }
  /* the model has read the program by PTX register: the warps' files may
   * now hold the registers packed */
  emu_rows_pack(e, l->func);
  memsys_launch(s->mem);
  memsys_windowed(s->mem, true);
  if (s->ic) ifetch_windowed(s->ic, true);
  for (uint32_t i = 0; i < nsm; i++) s->sms[i].first = UINT64_MAX;
  place_slots(g, slots, csize, slot_sm);
  for (uint32_t di = 0; di < s->ndom; di++) {
    sched_init_part(&s->dom[di].q, (int)g->sched_policy, s->sp, g->sched_active_warps);
    s->dom[di].stop = UINT64_MAX;
    s->dom[di].sample_every = 32;
    s->dom[di].owner = UINT32_MAX;
  }
  /* each domain's slots (a thread that takes the domain over takes their blocks) */
  for (uint32_t i = 0; i < slots; i++) s->dom[s->dom_of[slot_sm[i]]].nslots++;
  for (uint32_t di = 0; di < s->ndom; di++) {
    if (!(s->dom[di].slots = malloc((s->dom[di].nslots ? s->dom[di].nslots : 1) * sizeof *s->dom[di].slots))) { fault_oom(e); goto out; }
    s->dom[di].nslots = 0;
  }
  for (uint32_t i = 0; i < slots; i++) { tdom *dm = &s->dom[s->dom_of[slot_sm[i]]]; dm->slots[dm->nslots++] = i; }
  e->timing = s;
  /* on several threads: a worker's domains, its copy of the launch state
   * (parallel.c checks the blocks' global accesses against each other) and
   * of the timing scratch and counters */
  if (nthreads > 1) {
    nw = nthreads < s->ndom ? nthreads : s->ndom;
    job = nw > 1 ? emu_par_job_begin(e, nw) : NULL;
    if (nw < 2) e->par_last = "one SM domain";
    wemu = job ? calloc(nw, sizeof *wemu) : NULL;
    wts = job ? calloc_lines(nw, sizeof *wts) : NULL;
    if (job && (!wemu || !wts)) { emu_par_job_stop(job, "out of memory"); *again = true; goto out; }
    if (!job) nw = 1;
    for (uint32_t i = 0; job && i < nw; i++) {
      wemu[i] = emu_par_job_emu(job, i);
      wts[i] = *s;
      wts[i].e = wemu[i];
      wemu[i]->timing = &wts[i];
    }
  }

  uint64_t next = 0, t0 = g->launch_cycles / 2;
  if (!(launch_free = calloc(nsm, sizeof *launch_free))) { fault_oom(e); goto out; }
  end = t0;
  uint32_t live = 0;
  /* the first blocks start in waves, cta_launch_cycles apart per SM; each
   * is set up at the edge before its start cycle's window */
  uint32_t nwave_groups = 0, wave_next = 0;
  for (uint32_t b = 0; b < slots && (uint64_t)b / csize < (total + csize - 1) / csize; b += csize) nwave_groups++;

  /* Windows of W cycles (doc/parallel.md): within one, each domain runs its
   * own events on its own state; what crosses domains (L2 and DRAM, code
   * lines in L2, the next block for a free slot) waits for the edge. */
  uint64_t W = window_cycles(g), ws = t0 / W * W;
  trun R = { g, obs, want_samples, res, tws, twmem, unqueued, cta_start_t, slots, csize, nwarps,
             0, total, 0, 0, slot_sm, slot_init };
  if (job && !(claim = calloc_lines(nw, sizeof *claim))) { emu_par_job_stop(job, "out of memory"); *again = true; goto out; }
  /* the most parts a window's requests are served in: a thread each */
  memsys_set_parts(s->mem, job ? (uint32_t)umin(nw, memsys_max_parts(s->mem)) : 1);
  twin tw_ctx = { .R = &R, .s = s, .wts = wts, .wemu = wemu, .n = nw, .nserve = 1, .job = job, .claim = claim, .serve_failed = false };
  uint64_t loop_t0 = clock_now_ns();
  memset(&e->timing_wall, 0, sizeof e->timing_wall);
  while (!e->faulted) {
    uint64_t we = ws + W;
    /* the blocks due: the successors of those that ended, and the first
     * waves starting before the window ends, by (cycle, slot) */
    ndue = 0;
    for (uint32_t i = 0; i < nlater; i++) if (VEC_APPEND(due, ndue, capdue, later[i])) { fault_oom(e); goto out; }
    nlater = 0;
    for (uint32_t di = 0; di < s->ndom; di++) {
      tdom *dm = &s->dom[di];
      for (uint32_t i = 0; i < dm->nfin; i++) if (VEC_APPEND(due, ndue, capdue, dm->fin[i])) { fault_oom(e); goto out; }
      dm->nfin = 0;
      dm->stop = UINT64_MAX;
    }
    for (; wave_next < nwave_groups; wave_next++) {
      uint32_t b = wave_next * csize;
      uint64_t when = t0 + (b / nsm) * g->cta_launch_cycles;
      if (when >= we) break;
      if (VEC_APPEND(due, ndue, capdue, ((struct tfin){ when, b }))) { fault_oom(e); goto out; }
    }
    if (ndue > 1) qsort(due, ndue, sizeof *due, fin_order);
    /* each group goes to its domain, which sets it up (start_group); an
     * SM's launcher starts one block every cta_launch_cycles, however many
     * slots are free ([M] tests/microbench mb_blocks: an H200's blocks
     * start 22-27 cycles apart on an SM, 4 to 32 at once), so a block due
     * before the launcher is free waits for it, to a later window if
     * need be */
    for (uint32_t i = 0; i < ndue && next < total; i++) {
      uint32_t sm = slot_sm[due[i].base];
      uint64_t when = umax(due[i].when, launch_free[sm]);
      if (when >= we) { if (VEC_APPEND(later, nlater, caplater, due[i])) { fault_oom(e); goto out; } continue; }
      launch_free[sm] = when + g->cta_launch_cycles;
      tdom *dm = &s->dom[s->dom_of[sm]];
      if (VEC_APPEND(dm->start, dm->nstart, dm->capstart, ((struct tstart){ when, next, due[i].base }))) { fault_oom(e); goto out; }
      next += csize;
      live += csize;
    }
    R.next = next;
    R.live = live;
    R.we = we;
    uint64_t w0 = clock_now_ns();
    if (job) {
      /* on the team; a conflict or a worker's fault or limit ends the attempt */
      if (!team && !(team = tteam_new(nw, window_part, &tw_ctx))) { emu_par_job_stop(job, "the threads could not start"); *again = true; goto out; }
      for (uint32_t i = 0; i < nw; i++) atomic_store_explicit(&tw_ctx.claim[i].next, 0, memory_order_relaxed);
      tw_ctx.nserve = memsys_serve_split(s->mem);
      atomic_store_explicit(&tw_ctx.served, 0, memory_order_relaxed);
      tteam_run(team);
      if (atomic_load(&tw_ctx.serve_failed)) { fault_oom(e); break; }
      const char *why = NULL;
      for (uint32_t i = 0; i < nw && !why; i++)
        if (wemu[i]->faulted) {
          int k = wemu[i]->fault.kind;
          why = k == FAULT_BUDGET ? "the instruction budget" : k == FAULT_TIMEOUT || k == FAULT_STOPPED || k == FAULT_MEMORY ? "a limit" : "a fault";
        }
      if (!why && e->opt.max_warp_insts && emu_par_job_insts(job) > e->opt.max_warp_insts) why = "the instruction budget";
      if (why || emu_par_job_stopped(job)) { emu_par_job_stop(job, why ? why : "a limit"); *again = true; goto out; }
    } else {
      if (memsys_serve_part(s->mem, 0, 1)) { fault_oom(e); break; }
      e->timing_wall.serve_ns += clock_now_ns() - w0;
      for (uint32_t di = 0; di < s->ndom && !e->faulted; di++) {
        run_dom(&R, s, e, &s->dom[di]);
        if (!e->faulted) edge_dom(s, e, &s->dom[di]);
      }
    }
    e->timing_wall.window_ns += clock_now_ns() - w0;
    e->timing_wall.windows++;
    for (uint32_t di = 0; di < s->ndom; di++) {
      live -= s->dom[di].ended;
      s->dom[di].ended = 0;
      end = umax(end, s->dom[di].end);
    }
    if (e->faulted) break;
    /* the edge's serial part: every domain's own (edge_dom) is done */
    memsys_edge_end(s->mem);
    if (s->ic && ifetch_commit(s->ic)) { fault_oom(e); break; }
    uint64_t now = 0, first = UINT64_MAX;
    bool fins = false, lagged = false, waiting = false;
    for (uint32_t di = 0; di < s->ndom; di++) {
      tdom *dm = &s->dom[di];
      end = umax(end, dm->settled_max);
      if (dm->npark) waiting = true;
      sched_drop_stale(&dm->q);
      if (dm->q.nheap && dm->q.heap[0].t < first) first = dm->q.heap[0].t;
      if (dm->now > now) now = dm->now;
      if (dm->nfin) fins = true;
      if (dm->stop < we) lagged = true;
    }
    /* requests still to serve, or warps waiting for them: the next window
     * runs (serving them) whatever its domains have to do */
    if (memsys_unserved(s->mem)) waiting = true;
    if (wave_next < nwave_groups && next < total) first = umin(first, t0 + (wave_next * csize / nsm) * g->cta_launch_cycles);
    for (uint32_t i = 0; i < nlater && next < total; i++) first = umin(first, umax(later[i].when, launch_free[slot_sm[later[i].base]]));
    if (fins && next < total) first = umin(first, we);
    if (first == UINT64_MAX && waiting) { ws = lagged ? ws : we; continue; }
    if (first == UINT64_MAX) {
      /* everything waits: threads released by barriers or mbarriers without
       * an issuing warp noticing; requeue whatever can run, else deadlock */
      bool any = false;
      s->now = now;
      for (uint32_t i = 0; i < slots; i++) {
        if (!res[i].warps || !tws[i]) continue;
        for (uint32_t wi = 0; wi < res[i].nwarps; wi++) {
          warp *w = &res[i].warps[wi];
          if (tws[i][wi].queued || !~w->exited) continue;
          bool run = false;
          FOR_LANES(q) if (w->state[q] == TS_RUN) run = true;
          if (run) {
            uint32_t *x = &tws[i][wi].release_extra;
            if (requeue_released(s, &tws[i][wi], now + g->barrier_cycles + *x)) { fault_oom(e); goto out; }
            *x = 0;
            any = true;
          }
        }
      }
      if (!any) {
        for (uint32_t i = 0; i < slots && !any; i++) if (res[i].warps && emu_async_stalled(&res[i])) any = true;
        if (any) { ws = we; continue; }
        if (!live) break;
        for (uint32_t i = 0; i < slots; i++) if (res[i].warps && !emu_cta_done(&res[i])) {
          emu_fault_at(&res[i].warps[0], NULL, 0, FAULT_DEADLOCK, "block (%u,%u,%u): every thread waits and none can proceed",
                       res[i].id[0], res[i].id[1], res[i].id[2]);
          break;
        }
        break;
      }
      first = now + g->barrier_cycles;
    }
    /* a domain that stopped for a block's successor runs the rest of the
     * same window once the successor is there, before any domain goes
     * past it: the window's events stay in time order on every SM (its
     * shared memory, pipes and queues book time in order), and whatever
     * it asks of L2 is still answered after the window's end */
    ws = lagged ? ws : waiting ? we : umax(we, first / W * W);
  }
  e->timing_wall.edge_ns = clock_now_ns() - loop_t0 - e->timing_wall.window_ns;
out:
  for (uint32_t i = 0; i < slots; i++) {
    if (res && res[i].warps) emu_cta_free(&res[i]);
    if (twmem && slot_init && slot_init[i])
      for (uint32_t wi = 0; wi < nwarps; wi++) {
        twarp *tw = &twmem[(size_t)i * nwarps + wi];
        wbuf_free(tw->ready, s->ready_rows * sizeof *tw->ready);
        wbuf_free(tw->ready_why, s->ready_rows);
      }
  }
  e->timing = NULL;
  tteam_free(team);
  if (job) {
    /* a fault found at an edge (a deadlock) is a worker's: the sequential
     * run reports it */
    if (e->faulted) emu_par_job_stop(job, e->fault.kind == FAULT_DEADLOCK ? "blocks that wait (a deadlock)" : "a fault");
    if (!emu_par_job_end(job)) *again = true;
    for (uint32_t i = 0; i < nw && !*again; i++) {
      s->r.issued += wts[i].r.issued;
      s->r.sass_issued += wts[i].r.sass_issued;
      for (int k = 0; k < STALL_NREASONS; k++) s->r.stall_cycles[k] += wts[i].r.stall_cycles[k];
    }
    if (*again) { e->faulted = false; memset(&e->fault, 0, sizeof e->fault); e->fault.pc = UINT32_MAX; }
  }
  free(wemu);
  free(wts);
  if (e->opt.progress && !*again) emu_progress(e, total, total, true);
  s->r.cycles = end + g->launch_cycles - g->launch_cycles / 2;
  uint64_t active = 0, wc = 0;
  for (uint32_t i = 0; s->sms && i < nsm; i++) {
    if (s->sms[i].first != UINT64_MAX && s->sms[i].last > s->sms[i].first) { active += s->sms[i].last - s->sms[i].first; wc += s->sms[i].warp_cycles; }
  }
  s->r.achieved_occupancy = active ? (double)wc / ((double)active * g->max_warps_per_sm) : 0;
  if (want_samples && !e->faulted && s->dom) report_samples(s, obs);
  if (s->mem) {
    s->r.l1_hits = s->mem->l1_hits;
    s->r.l1_lookups = s->mem->l1_lookups;
    dram_count dc = dram_counts(&s->mem->dram);
    l2_lane_count lc = l2_counts(&s->mem->l2);
    s->r.l2_hits = lc.hits;
    s->r.l2_lookups = lc.lookups;
    s->r.dram_read_bytes = dc.read_bytes + s->mem->launch_dram_bytes;
    s->r.dram_write_bytes = dc.write_bytes;   /* evictions; dirty lines left at the end are not flushed */
    s->r.xbar_write_sectors = s->mem->write_sectors;
  }
  if (e->timing_out && !*again) *e->timing_out = s->r;
  e->memsys_keep = s->mem;             /* the next launch resets and reuses it */
  e->ifetch_keep = s->ic;
  free(s->uniform_atom);
  free(s->row_defer);
  for (int k = 0; k < IQ_COUNT; k++) { free(s->iq[k]); free(s->iq_mem[k]); }
  free(s->list_mem);
  for (uint32_t di = 0; s->dom && di < s->ndom; di++) {
    tdom *dm = &s->dom[di];
    sched_free(&dm->q);
    free(dm->park); free(dm->site); free(dm->fin); free(dm->start); free(dm->samples); free(dm->slots);
  }
  free(s->dom);
  free(s->dom_of);
  free(s->sp);
  free(due);
  free(later);
  free(launch_free);
  free(claim);
  if (s->mem) { memsys_clear(s->mem); memsys_windowed(s->mem, false); }
  if (s->ic) ifetch_windowed(s->ic, false);
  free(s->sms);
  free(s->atom_ack);
  s->atom_ack = NULL;
  free(s->dep);
  free(res);
  free(s->tbar);
  s->tbar = NULL;
  free(tws);
  lazymap_free_held(twmem, twbytes);
  free(unqueued);
  free(cta_start_t);
  free(slot_sm);
  free(slot_init);
  emu_rows_unpack(e);                  /* (a run on one thread builds its model again) */
  return e->faulted ? -1 : 0;
}

int emu_run_timed(emu *e, const emu_launch *l) {
  if (emu_launch_begin(e, l)) return -1;
  if (timing_check_arch(e, e->timing_cfg, l->func)) { emu_launch_end(e); return -1; }
  bool again = false;
  if (e->opt.threads < 2) e->par_last = "one thread";
  /* a run on one thread after an abandoned parallel one starts from the
   * prepared program: the first one put it in its issue order (reorder.c
   * moves instructions, guards the bodies of predicated ifs and retargets
   * their branches), which must not be reordered again */
  xinsn *prepared = NULL;
  if (e->opt.threads >= 2 && e->nprog && !(prepared = malloc(e->nprog * sizeof *prepared))) { fault_oom(e); emu_launch_end(e); return -1; }
  if (prepared) memcpy(prepared, e->prog, e->nprog * sizeof *prepared);
  int rc = run_timed(e, l, e->opt.threads, &again);
  if (again) {
    again = false;
    if (prepared) memcpy(e->prog, prepared, e->nprog * sizeof *prepared);
    rc = run_timed(e, l, 1, &again);
  }
  free(prepared);
  emu_launch_end(e);
  return rc;
}

bool emu_timing_issue(const emu *e, uint64_t *cycle, uint64_t *waited, int *why) {
  const timing_state *s = e->timing;
  if (!s) return false;
  *cycle = e->cycle_now;
  *waited = s->issue_wait;
  *why = s->issue_why;
  return true;
}
