/* emu/exec_async.c - asynchronous copies, mbarriers and clusters:
 *   cp.async (+ commit_group / wait_group / wait_all / mbarrier.arrive),
 *   mbarrier.* , cp.async.bulk / cp.reduce.async.bulk (+ bulk groups),
 *   cp.async.bulk.tensor / cp.reduce.async.bulk.tensor (tile mode),
 *   st.async / red.async, barrier.cluster, mapa, getctarank.
 *
 * ---- Timing model (what a program can observe) ---------------------------
 * Asynchronous writes land late, as hardware may let them:
 *  - cp.async: the source is read at issue; the destination is written
 *    when the thread's group completes (cp.async.wait_group/wait_all), or
 *    when an mbarrier tracking it (cp.async.mbarrier.arrive) is next used.
 *    Other threads that read the destination early see the old bytes.
 *  - Copies that complete on an mbarrier (cp.async.bulk[.tensor] into
 *    shared memory, cp.reduce.async.bulk into shared::cluster, st.async,
 *    red.async) read their source at issue and are queued on the CTA that
 *    owns the mbarrier.  The queue of a barrier is drained, in issue order,
 *    before any mbarrier instruction touches that barrier (and at once while
 *    a thread sleeps in try_wait on it): the data is written, then
 *    complete_tx is performed.  So a copy issued before the matching
 *    expect_tx drives the tx-count negative, as it may on hardware.
 *  - Bulk-group copies to global memory (cp.async.bulk.global.shared::cta,
 *    cp.reduce.async.bulk.global, the tensor store/reduce forms) read shared
 *    memory at issue, so cp.async.bulk.wait_group.read has nothing left to
 *    wait for; the global writes happen at cp.async.bulk.wait_group (no
 *    .read) covering them, or when the CTA's cluster finishes.
 *
 * ---- mbarrier encoding ------------------------------------------------------
 * The whole state of an mbarrier is the 8-byte shared-memory word itself:
 *     bits  0..20  pending arrival count       (unsigned)
 *     bits 21..41  expected arrival count      (unsigned; 0 = not initialised)
 *     bits 42..62  tx-count                    (signed, two's complement)
 *     bit  63      current phase parity
 * mbarrier.init writes {phase 0, expected = pending = count, tx 0};
 * mbarrier.inval writes 0 but keeps the phase bit (waits on phases that
 * completed before it succeed, as on an H200).  A phase completes when pending == 0 and
 * tx-count == 0: the phase bit flips, pending reloads from expected and
 * tx-count restarts at 0.
 * The state token that mbarrier.arrive returns is the word as it is right
 * after the arrive's own update and before a phase flip it may cause: bit 63
 * is the phase the thread arrived in, bits 0..20 the pending count left
 * after the arrive (what mbarrier.pending_count returns).  test_wait /
 * try_wait with a token succeed when the barrier's phase bit differs from
 * the token's; with .parity, when it differs from the parity operand.
 *
 * ---- Waiting ----------------------------------------------------------------
 * mbarrier.try_wait that finds its phase incomplete suspends the thread
 * (TS_SLEEP) until the phase completes; then it executes again and returns
 * true.  A thread never sleeps when it would be the last runnable thread of
 * its cluster: it returns false instead (the hardware time limit), and every
 * sleeper of the cluster is woken to return false once, so code that does
 * something else after a failed try_wait still progresses.
 * (emu_async_stalled, for the scheduler to call when nothing progressed,
 * lets the time limit expire too.)  After EXPIRY_LIMIT expiries in a row
 * with no mbarrier update in the cluster, threads sleep for good and the
 * scheduler reports the deadlock.
 * barrier.cluster.wait keeps the waiting threads at the instruction and
 * yields to other threads (re-checking, so threads that exit count as
 * arrived); those re-executions are not counted as executed instructions.
 *
 * ---- Tensor maps --------------------------------------------------------------
 * cp.async.bulk.tensor reads a 128-byte descriptor in ptxemu's own layout
 * (see tests/exec/README-async.md), from global, .const or kernel .param
 * memory, 64-byte aligned, little-endian:
 *     0x00 u64 global_address       16-byte aligned
 *     0x08 u32 global_dim[5]        elements, innermost dimension first
 *     0x1c u32 reserved
 *     0x20 u64 global_stride[4]     bytes between elements of dims 1..4 (x16)
 *     0x40 u32 box_dim[5]           1..256
 *     0x54 u32 element_stride[5]    1..8 (0 reads as 1)
 *     0x68 u8  rank                 1..5
 *     0x69 u8  data_type            CUtensorMapDataType numbering 0..12
 *     0x6a u8  interleave           0 only
 *     0x6b u8  swizzle              0 none, 1 32B, 2 64B, 3 128B
 *     0x6c u8  l2_promotion         ignored
 *     0x6d u8  oob_fill             0 zeros, 1 NaN (float types)
 *     0x6e u8  version              1
 *     0x6f u8  reserved
 *     0x70 u32 magic                0x4d545850 ("PXTM")
 *     0x74     reserved up to 0x80
 * The box lands in shared memory densely (innermost dimension fastest,
 * ceil(box_dim/element_stride) elements per dimension); a swizzle mode
 * XORs byte-address bits 4..6 with bits 7..9 (128B; 64B and 32B use 2 and 1
 * bits) of the shared address of every 16-byte chunk.
 */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/fp.h"
#include "memmodel/space.h"
#include "emu/texobj.h"

/* ---- state ------------------------------------------------------------------ */

typedef struct cpa_op {          /* one cp.async of one thread */
  uint32_t group, seq, dst;      /* commit count at issue, issue number, shared offset */
  uint8_t size;
  uint8_t data[16];
} cpa_op;

typedef struct cpa_fifo { cpa_op *v; uint32_t head, n, cap, committed, seq; } cpa_fifo;

#define TMAP_MAGIC 0x4d545850u
typedef struct tmap {
  uint64_t addr, stride[5], bytes, count;
  uint32_t rank, dtype, esize, swz, fill;
  uint32_t dim[5], box[5], es[5], nb[5];
  uint32_t im2col, chans, pixels;  /* im2col mode: channels per pixel, pixels per column */
  int32_t lower[3], upper[3];      /* im2col: the bounding box corners of dimensions 1..rank-2 */
} tmap;

enum { BK_LINEAR, BK_TENSOR };
typedef struct bulk_op {         /* a bulk-group write to global memory */
  uint32_t group;
  uint8_t kind, rtype, noftz, has_mask;
  uint16_t rop, bytemask;        /* rop: MOD_ADD... (0 = plain copy) */
  uint64_t dst;
  uint32_t len;
  uint8_t *data;                 /* len bytes (box order for tensors) */
  int32_t coord[5];
  tmap tm;
} bulk_op;

typedef struct bulk_fifo { bulk_op *v; uint32_t head, n, cap, committed; } bulk_fifo;

typedef struct warp_async {
  cpa_fifo cpa[WARP_SIZE];
  bulk_fifo bulk[WARP_SIZE];
  struct cta *sleep_cta[WARP_SIZE];   /* mbarrier a TS_SLEEP lane waits on */
  uint32_t sleep_off[WARP_SIZE];
  uint8_t sleeping[WARP_SIZE];
  uint8_t timeout[WARP_SIZE];         /* woken by the time limit: next try_wait does not sleep */
  uint32_t cl_target[WARP_SIZE];      /* barrier.cluster: phase the lane waits for, 0 none */
} warp_async;

enum { Q_COPY, Q_RED, Q_CPA_ARRIVE };
typedef struct mbq {             /* an mbarrier-completed operation, queued on the barrier's CTA */
  uint32_t bar;                  /* barrier offset in the owning CTA */
  uint8_t kind, rtype, noftz, swz;
  uint16_t rop;
  uint32_t dst, len, tx;         /* data destination (offset in dc), bytes, complete_tx bytes */
  cta *dc;
  uint8_t *data;
  warp *w;                       /* Q_CPA_ARRIVE: the thread and its issue count */
  uint32_t lane, seq;
} mbq;

typedef struct cta_async {
  mbq *q;
  uint32_t nq, capq;
  uint32_t nsleep;               /* lanes of this CTA in TS_SLEEP (try_wait) */
  uint32_t cl_arrived, cl_phase; /* barrier.cluster (kept by the cluster's rank 0) */
  uint64_t events;               /* mbarrier updates in this CTA's shared memory */
  uint64_t expiry_mark;          /* rank 0: cluster events at the last time-limit expiry */
  uint32_t quiet_expiries;       /* rank 0: expiries in a row with no event in between */
} cta_async;

static warp_async *wa_of(warp *w) {
  if (!w->async_state) w->async_state = calloc(1, sizeof(warp_async));
  return w->async_state;
}
static cta_async *ca_of(cta *c) {
  if (!c->async_state) c->async_state = calloc(1, sizeof(cta_async));
  return c->async_state;
}
static uint32_t cluster_size(const emu *e) { return e->launch.cluster[0] * e->launch.cluster[1] * e->launch.cluster[2]; }
static cta *cluster_cta(cta *c, uint32_t r) { return &c->peers[r]; }

static bool oom(warp *w, const xinsn *x, void *p) {
  if (p) return false;
  emu_fault_at(w, x, 0, FAULT_MEMORY, "out of host memory for asynchronous copies");
  return true;
}

static inline uint64_t key_of(uint16_t depth, uint32_t pc) { return ((uint64_t)(0xffffu - depth) << 32) | pc; }

static void set_pcs(warp *w, lanemask lanes, uint32_t pc, uint16_t depth) {
  FOR_LANES(i) if (lanes >> i & 1) { w->pc[i] = pc; w->depth[i] = depth; }
}

/* Park the current group (its lanes' pcs already set) and let another
 * group of the warp run.  emu_reschedule skips the yielding group once; the
 * group it picks instead must not hand the warp straight back because the
 * yielder has a lower key, so its next_key ignores the yielder (it merges
 * with other groups as usual and the yielder runs when it leaves). */
static void yield_group(warp *w, uint64_t key) {
  w->yield_key = key;
  w->cur = 0;
  emu_reschedule(w);
  if (!w->cur || key_of(w->cur_depth, w->cur_pc) == key) return;
  uint64_t second = UINT64_MAX;
  FOR_LANES(i) {
    if ((w->cur >> i & 1) || (w->state[i] != TS_RUN && w->state[i] != TS_WSYNC)) continue;
    uint64_t k = key_of(w->depth[i], w->pc[i]);
    if (k != key && k < second) second = k;
  }
  w->next_key = second;
}

/* Value of a register/immediate operand for one lane. */
static uint64_t opv(warp *w, const xinsn *x, int k, int lane) { return xsrc(w, x, k)[lane]; }

/* ---- addresses ---------------------------------------------------------------- */

static bool is_shared_mod(uint16_t s) { return s == MOD_SHARED || s == MOD_SHARED_CTA || s == MOD_SHARED_CLUSTER; }

/* A shared address of an operand -> the CTA owning it and the offset there.
 * space is the instruction's space modifier (0 = generic); own_only rejects
 * other CTAs of the cluster.  NULL after a fault. */
static cta *shared_target(warp *w, const xinsn *x, int lane, uint64_t a, uint16_t space, uint8_t symspace,
                          uint64_t size, uint32_t align, bool own_only, uint32_t *off) {
  uint64_t sa = a & 0xffffffffull;        /* shared addresses are 32 bits wide (wider registers truncate) */
  if (symspace != PTX_SPACE_SHARED && !is_shared_mod(space)) {
    if (symspace != PTX_SPACE_NONE || mm_classify(a) != MM_SHARED) {
      emu_fault_at(w, x, lane, FAULT_BAD_ADDRESS_SPACE, "address 0x%llx is not in shared memory", (unsigned long long)a);
      return NULL;
    }
    sa = a - GEN_SHARED_BASE;
  }
  if (align > 1 && (sa & (align - 1))) {
    emu_fault_at(w, x, lane, FAULT_MISALIGNED, "shared address 0x%llx is not %u-byte aligned", (unsigned long long)sa, align);
    w->e->fault.addr = a;
    return NULL;
  }
  cta *c = w->cta;
  uint64_t o = sa;
  if (sa >> CLUSTER_RANK_SHIFT) {
    uint64_t r = (sa >> CLUSTER_RANK_SHIFT) - 1;
    if (r >= cluster_size(w->e)) {
      emu_fault_at(w, x, lane, FAULT_OOB, "shared::cluster address 0x%llx names CTA rank %llu, the cluster has %u",
                   (unsigned long long)sa, (unsigned long long)r, cluster_size(w->e));
      w->e->fault.addr = a;
      return NULL;
    }
    c = cluster_cta(w->cta, (uint32_t)r);
    o = sa & ((1ull << CLUSTER_RANK_SHIFT) - 1);
    if (own_only && c != w->cta) {
      emu_fault_at(w, x, lane, FAULT_BAD_ADDRESS_SPACE, "shared address 0x%llx is in another CTA of the cluster (rank %llu); this operand must be shared::cta",
                   (unsigned long long)sa, (unsigned long long)r);
      return NULL;
    }
  }
  if (!c->shared || o >= c->shared_size || size > c->shared_size - o) {
    emu_fault_at(w, x, lane, FAULT_OOB, "invalid shared access of %llu bytes at address 0x%llx", (unsigned long long)size,
                 (unsigned long long)sa);
    w->e->fault.addr = a;
    w->e->fault.size = (uint32_t)size;
    return NULL;
  }
  *off = (uint32_t)o;
  return c;
}

/* Host pointer of global memory [a, a+size), NULL after a fault. */
static uint8_t *global_ptr(warp *w, const xinsn *x, int lane, uint64_t a, uint64_t size, uint32_t align, uint8_t symspace) {
  if (symspace == PTX_SPACE_SHARED || symspace == PTX_SPACE_LOCAL || mm_classify(a) != MM_GLOBAL) {
    emu_fault_at(w, x, lane, FAULT_BAD_ADDRESS_SPACE, "address 0x%llx is not in global memory", (unsigned long long)a);
    return NULL;
  }
  if (align > 1 && (a & (align - 1))) {
    emu_fault_at(w, x, lane, FAULT_MISALIGNED, "global address 0x%llx is not %u-byte aligned", (unsigned long long)a, align);
    w->e->fault.addr = a;
    return NULL;
  }
  static uint8_t dummy[1];
  if (!size) return dummy;
  uint8_t *p = size > UINT32_MAX ? NULL : mm_global_ptr(w->e, a, (uint32_t)size);
  if (!p) {
    emu_fault_at(w, x, lane, FAULT_OOB, "invalid global access of %llu bytes at address 0x%llx", (unsigned long long)size,
                 (unsigned long long)a);
    w->e->fault.addr = a;
    w->e->fault.size = (uint32_t)size;
  }
  return p;
}

/* ---- reductions ------------------------------------------------------------------- */

static bool signed_t(int t) { return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64; }

static uint64_t red_apply(int t, uint16_t op, uint64_t old, uint64_t v, bool noftz) {
  unsigned bits = (unsigned)ptx_type_bits((enum ptx_type)t);
  uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  old &= mask;
  v &= mask;
  switch (t) {
  case PTX_T_F32: case PTX_T_TF32:
    if (op == MOD_ADD) return f32_add_rn((uint32_t)old, (uint32_t)v, !noftz, 0);
    if (op == MOD_MIN) return f32_min((uint32_t)old, (uint32_t)v, 0, 0, 0);
    if (op == MOD_MAX) return f32_max((uint32_t)old, (uint32_t)v, 0, 0, 0);
    return old;
  case PTX_T_F64:
    if (op == MOD_ADD) return f64_add_rn(old, v);
    if (op == MOD_MIN || op == MOD_MAX) {
      double a = fp_f64_val(old), b = fp_f64_val(v);
      if (f64_isnan(old)) return f64_isnan(v) ? FP64_CANON_NAN : v;
      if (f64_isnan(v)) return old;
      if (a == b) return op == MOD_MIN ? (old | v) : (old & v);   /* -0 < +0 */
      return (op == MOD_MIN) == (a < b) ? old : v;
    }
    return old;
  case PTX_T_F16:
    if (op == MOD_ADD) return f16_add((uint16_t)old, (uint16_t)v, FP_RN, 0, 0);
    if (op == MOD_MIN) return f16_min((uint16_t)old, (uint16_t)v, 0, 0, 0);
    if (op == MOD_MAX) return f16_max((uint16_t)old, (uint16_t)v, 0, 0, 0);
    return old;
  case PTX_T_BF16:
    if (op == MOD_ADD) return bf16_add((uint16_t)old, (uint16_t)v, FP_RN, 0, 0);
    if (op == MOD_MIN) return bf16_min((uint16_t)old, (uint16_t)v, 0, 0);
    if (op == MOD_MAX) return bf16_max((uint16_t)old, (uint16_t)v, 0, 0);
    return old;
  default: break;
  }
  bool sg = signed_t(t);
  switch (op) {
  case MOD_ADD: return (old + v) & mask;
  case MOD_MIN: return sg ? (sext(old, bits) < sext(v, bits) ? old : v) : (old < v ? old : v);
  case MOD_MAX: return sg ? (sext(old, bits) > sext(v, bits) ? old : v) : (old > v ? old : v);
  case MOD_INC: return old >= v ? 0 : (old + 1) & mask;
  case MOD_DEC: return (old == 0 || old > v) ? v : (old - 1) & mask;
  case MOD_AND: return old & v;
  case MOD_OR: return old | v;
  case MOD_XOR: return old ^ v;
  default: return v;
  }
}

static void red_bytes(uint8_t *dst, const uint8_t *src, uint32_t len, int t, uint16_t op, bool noftz) {
  int b = ptx_type_bits((enum ptx_type)t);
  uint32_t eb = b <= 8 ? 1 : (uint32_t)b / 8;
  if (eb > 8) eb = 8;
  for (uint32_t k = 0; k + eb <= len; k += eb) {
    uint64_t o = 0, v = 0;
    memcpy(&o, dst + k, eb);
    memcpy(&v, src + k, eb);
    o = red_apply(t, op, o, v, noftz);
    memcpy(dst + k, &o, eb);
  }
}

static bool red_supported(int t, uint16_t op) {
  switch (op) {
  case MOD_ADD: case MOD_MIN: case MOD_MAX: break;
  case MOD_INC: case MOD_DEC: case MOD_AND: case MOD_OR: case MOD_XOR:
    if (t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_TF32) return false;
    break;
  default: return false;
  }
  int b = ptx_type_bits((enum ptx_type)t);
  return b >= 8 && b <= 64;
}

/* ---- mbarrier words ------------------------------------------------------------------ */

#define MB_MASK 0x1fffffull
static inline uint32_t mb_pending(uint64_t s) { return (uint32_t)(s & MB_MASK); }
static inline uint32_t mb_expected(uint64_t s) { return (uint32_t)(s >> 21 & MB_MASK); }
static inline int64_t mb_tx(uint64_t s) { return sext(s >> 42 & MB_MASK, 21); }
static inline uint32_t mb_phase(uint64_t s) { return (uint32_t)(s >> 63); }
static inline uint64_t mb_make(uint32_t phase, uint64_t expected, uint64_t pending, int64_t tx) {
  return (uint64_t)(phase & 1) << 63 | ((uint64_t)tx & MB_MASK) << 42 | (expected & MB_MASK) << 21 | (pending & MB_MASK);
}
static uint64_t mb_load(cta *c, uint32_t off) { uint64_t s; memcpy(&s, c->shared + off, 8); return s; }
static void mb_store(cta *c, uint32_t off, uint64_t s) {
  memcpy(c->shared + off, &s, 8);
  cta_async *a = ca_of(c);
  if (a) a->events++;
}

/* Wake the lanes of the cluster sleeping on barrier (c, off). */
static void wake_bar(cta *c, uint32_t off) {
  uint32_t n = cluster_size(c->e);
  for (uint32_t r = 0; r < n; r++) {
    cta *p = cluster_cta(c, r);
    cta_async *s = p->async_state;
    if (!s || !s->nsleep || !p->warps) continue;
    for (uint32_t wi = 0; wi < p->nwarps; wi++) {
      warp *w = &p->warps[wi];
      warp_async *a = w->async_state;
      if (!a) continue;
      FOR_LANES(i) if (a->sleeping[i] && a->sleep_cta[i] == c && a->sleep_off[i] == off) {
        a->sleeping[i] = 0;
        s->nsleep--;
        if (w->state[i] == TS_SLEEP) w->state[i] = TS_RUN;
        w->next_key = 0;
      }
    }
  }
}

/* Wake every sleeper of the cluster with the time-limit flag. */
static void timeout_all(cta *c) {
  uint32_t n = cluster_size(c->e);
  for (uint32_t r = 0; r < n; r++) {
    cta *p = cluster_cta(c, r);
    cta_async *s = p->async_state;
    if (!s || !s->nsleep || !p->warps) continue;
    for (uint32_t wi = 0; wi < p->nwarps; wi++) {
      warp *w = &p->warps[wi];
      warp_async *a = w->async_state;
      if (!a) continue;
      FOR_LANES(i) if (a->sleeping[i]) {
        a->sleeping[i] = 0;
        a->timeout[i] = 1;
        s->nsleep--;
        if (w->state[i] == TS_SLEEP) w->state[i] = TS_RUN;
        w->next_key = 0;
      }
    }
  }
}

/* The time limit of suspended try_waits expires: allowed unless it already
 * expired EXPIRY_LIMIT times in a row without any mbarrier update in the
 * cluster (then nothing can change: a deadlock, left to the scheduler). */
#define EXPIRY_LIMIT 1000
static bool expire(cta *c) {
  uint32_t n = cluster_size(c->e);
  uint64_t ev = 0;
  for (uint32_t r = 0; r < n; r++) {
    cta_async *s = cluster_cta(c, r)->async_state;
    if (s) ev += s->events;
  }
  cta_async *s0 = ca_of(cluster_cta(c, 0));
  if (!s0) return false;
  if (ev != s0->expiry_mark) s0->quiet_expiries = 0;
  else if (s0->quiet_expiries >= EXPIRY_LIMIT) return false;
  s0->quiet_expiries++;
  s0->expiry_mark = ev;
  timeout_all(c);
  return true;
}

static bool cluster_has_sleepers(cta *c) {
  uint32_t n = cluster_size(c->e);
  for (uint32_t r = 0; r < n; r++) {
    cta_async *s = cluster_cta(c, r)->async_state;
    if (s && s->nsleep) return true;
  }
  return false;
}

/* Phase completion: pending and tx-count both zero. */
static uint64_t mb_settle(cta *c, uint32_t off, uint64_t s) {
  if (mb_pending(s) == 0 && mb_tx(s) == 0) {
    uint32_t ex = mb_expected(s);
    s = mb_make(mb_phase(s) ^ 1, ex, ex, 0);
    wake_bar(c, off);
  }
  return s;
}

/* arrive-on (count), after dropping `drop` from the expected count and
 * adding tx to the tx-count; returns the state token. */
static uint64_t mb_arrive(cta *c, uint32_t off, uint32_t count, int64_t tx, uint32_t drop) {
  uint64_t s = mb_load(c, off);
  uint32_t ex = mb_expected(s), pend = mb_pending(s);
  ex = drop > ex ? 0 : ex - drop;
  pend = count > pend ? 0 : pend - count;
  uint64_t tok = mb_make(mb_phase(s), ex, pend, mb_tx(s) + tx);
  mb_store(c, off, mb_settle(c, off, tok));
  return tok;
}

static void mb_add_tx(cta *c, uint32_t off, int64_t tx) {
  uint64_t s = mb_load(c, off);
  s = mb_make(mb_phase(s), mb_expected(s), mb_pending(s), mb_tx(s) + tx);
  mb_store(c, off, mb_settle(c, off, s));
}

/* ---- per-thread cp.async groups ------------------------------------------------------- */

/* Perform the oldest cp.async ops of a lane while group < glimit and seq < slimit. */
static void cpa_perform(warp *w, int lane, uint32_t glimit, uint32_t slimit) {
  warp_async *a = w->async_state;
  if (!a) return;
  cpa_fifo *f = &a->cpa[lane];
  while (f->head < f->n && f->v[f->head].group < glimit && f->v[f->head].seq < slimit) {
    cpa_op *o = &f->v[f->head++];
    memcpy(w->cta->shared + o->dst, o->data, o->size);
  }
  if (f->head == f->n) f->head = f->n = 0;
}

/* ---- the mbarrier queue ----------------------------------------------------------------- */

static void mbq_run(cta *c, mbq *q) {
  if (q->kind != Q_CPA_ARRIVE) emu_proxy_async_write(q->dc, q->dst, q->swz ? (q->len + 127) / 128 * 128 : q->len);
  switch (q->kind) {
  case Q_COPY:
    if (q->len) {
      if (!q->swz) memcpy(q->dc->shared + q->dst, q->data, q->len);
      else {
        uint32_t bits = q->swz == 3 ? 7 : q->swz == 2 ? 3 : 1;
        for (uint32_t k = 0; k < q->len; k += 16) {
          uint32_t a = q->dst + k;
          a ^= ((a >> 7) & bits) << 4;
          memcpy(q->dc->shared + a, q->data + k, q->len - k < 16 ? q->len - k : 16);
        }
      }
    }
    mb_add_tx(c, q->bar, -(int64_t)q->tx);
    break;
  case Q_RED:
    red_bytes(q->dc->shared + q->dst, q->data, q->len, q->rtype, q->rop, q->noftz);
    mb_add_tx(c, q->bar, -(int64_t)q->tx);
    break;
  case Q_CPA_ARRIVE:
    cpa_perform(q->w, (int)q->lane, UINT32_MAX, q->seq);
    mb_arrive(c, q->bar, 1, 0, 0);
    break;
  }
}

/* Drain what is queued on barrier (c, off), in issue order. */
static void mb_flush(cta *c, uint32_t off) {
  cta_async *s = c->async_state;
  if (!s || !s->nq) return;
  uint32_t k = 0, n = s->nq;
  for (uint32_t i = 0; i < n; i++) {
    mbq q = s->q[i];
    if (q.bar == off) { mbq_run(c, &q); free(q.data); }
    else s->q[k++] = q;
  }
  s->nq = k;
}

static bool enqueue(warp *w, const xinsn *x, cta *c, const mbq *q) {
  cta_async *s = ca_of(c);
  if (oom(w, x, s)) return false;
  if (s->nq == s->capq) {
    uint32_t nc = s->capq ? s->capq * 2 : 16;
    mbq *nq = realloc(s->q, nc * sizeof *nq);
    if (oom(w, x, nq)) return false;
    s->q = nq;
    s->capq = nc;
  }
  s->q[s->nq++] = *q;
  if (cluster_has_sleepers(c)) mb_flush(c, q->bar);   /* a waiter is suspended on it: complete now */
  return true;
}

/* ---- bulk groups ------------------------------------------------------------------------- */

static bool tmap_elem(const tmap *t, const int32_t *c, uint64_t k, uint64_t *ga) {
  uint64_t off = 0;
  bool in = true;
  for (uint32_t i = 0; i < t->rank; i++) {
    uint64_t b = k % t->nb[i];
    k /= t->nb[i];
    int64_t g = (int64_t)c[i] + (int64_t)b * t->es[i];
    if (g < 0 || g >= (int64_t)t->dim[i]) in = false;
    off += (uint64_t)g * t->stride[i];
  }
  *ga = t->addr + off;
  return in;
}

/* im2col mode: element k of the box is channel k % chans of pixel k / chans.
 * The pixels are the positions of the bounding box (in dimension i+1 from
 * lower[i] to dim - 1 + upper[i], every elementStrides apart), walked with
 * the innermost spatial dimension fastest and then the batch dimension,
 * from the position c[1..rank-1]; each is read at that position plus the
 * instruction's offsets off[] (zero filled outside the tensor). */
static bool im2col_elem(const tmap *t, const int32_t *c, const int32_t *off, uint64_t k, uint64_t *ga) {
  /* The walk is a mixed-radix addition of the pixel index to the start
   * position, one dimension at a time with a carry (floor division): the
   * same as linearising the position over the extents, without the
   * product of up to three 2^32 extents that overflows 64 bits. */
  uint32_t ns = t->rank - 2;
  int64_t g[5];
  g[0] = (int64_t)c[0] + (int64_t)(k % t->chans);
  int64_t carry = (int64_t)(k / t->chans);         /* < 1024 pixels */
  for (uint32_t i = 0; i < ns; i++) {
    int64_t span = (int64_t)t->dim[i + 1] - 1 + t->upper[i] - t->lower[i];   /* |span| < 2^33 */
    int64_t ext = span < 0 ? 1 : span / t->es[i + 1] + 1;
    int64_t v = ((int64_t)c[i + 1] - t->lower[i]) / t->es[i + 1] + carry;
    int64_t q = v % ext;
    if (q < 0) q += ext;
    carry = (v - q) / ext;
    g[i + 1] = t->lower[i] + q * t->es[i + 1] + off[i];
  }
  g[t->rank - 1] = (int64_t)c[t->rank - 1] + carry;
  uint64_t a = 0;
  bool in = true;
  for (uint32_t i = 0; i < t->rank; i++) {
    if (g[i] < 0 || g[i] >= (int64_t)t->dim[i]) in = false;
    a += (uint64_t)g[i] * t->stride[i];
  }
  *ga = t->addr + a;
  return in;
}

static int tmap_ptx_type(uint32_t dt) {
  static const uint8_t ty[13] = { PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_S32, PTX_T_U64, PTX_T_S64, PTX_T_F16,
                                  PTX_T_F32, PTX_T_F64, PTX_T_BF16, PTX_T_F32, PTX_T_F32, PTX_T_F32 };
  return dt < 13 ? ty[dt] : PTX_T_U8;
}

/* Write one bulk-group operation to global memory; false after a fault. */
static bool bulk_perform(warp *w, const xinsn *x, int lane, bulk_op *o) {
  emu *e = w->e;
  if (o->kind == BK_LINEAR) {
    uint8_t *p = mm_global_ptr(e, o->dst, o->len);
    if (!p) {
      emu_fault_at(w, x, lane, FAULT_OOB, "bulk copy of %u bytes to 0x%llx: the memory is no longer valid", o->len, (unsigned long long)o->dst);
      return false;
    }
    if (o->rop) red_bytes(p, o->data, o->len, o->rtype, o->rop, o->noftz);
    else if (o->has_mask) {
      for (uint32_t k = 0; k < o->len; k++) if (o->bytemask >> (k & 15) & 1) p[k] = o->data[k];
    } else memcpy(p, o->data, o->len);
    return true;
  }
  const tmap *t = &o->tm;
  for (uint64_t k = 0; k < t->count; k++) {
    uint64_t ga;
    if (!tmap_elem(t, o->coord, k, &ga)) continue;       /* out-of-bounds elements are not written */
    uint8_t *p = mm_global_ptr(e, ga, t->esize);
    if (!p) {
      emu_fault_at(w, x, lane, FAULT_OOB, "tensor store to 0x%llx is outside device memory (check the tensor map)", (unsigned long long)ga);
      e->fault.addr = ga;
      return false;
    }
    if (o->rop) red_bytes(p, o->data + k * t->esize, t->esize, o->rtype, o->rop, o->noftz);
    else memcpy(p, o->data + k * t->esize, t->esize);
  }
  return true;
}

/* Perform the oldest bulk ops of a lane with group < glimit. */
static void bulk_complete(warp *w, const xinsn *x, int lane, uint32_t glimit) {
  warp_async *a = w->async_state;
  if (!a) return;
  bulk_fifo *f = &a->bulk[lane];
  while (f->head < f->n && f->v[f->head].group < glimit) {
    bulk_op *o = &f->v[f->head++];
    bool ok = w->e->faulted || bulk_perform(w, x, lane, o);
    free(o->data);
    o->data = NULL;
    if (!ok) break;
  }
  if (f->head == f->n) f->head = f->n = 0;
}

static bool bulk_push(warp *w, const xinsn *x, int lane, const bulk_op *o) {
  warp_async *a = wa_of(w);
  if (oom(w, x, a)) return false;
  bulk_fifo *f = &a->bulk[lane];
  if (f->n == f->cap) {
    uint32_t nc = f->cap ? f->cap * 2 : 8;
    bulk_op *nv = realloc(f->v, nc * sizeof *nv);
    if (oom(w, x, nv)) return false;
    f->v = nv;
    f->cap = nc;
  }
  f->v[f->n] = *o;
  f->v[f->n].group = f->committed;
  f->n++;
  return true;
}

/* ---- life cycle ------------------------------------------------------------------------------ */

/* For the scheduler (run.c), when a round made no progress: the time limit
 * of the try_wait sleepers of c's cluster expires (they return false once).
 * Returns true if a thread became runnable, i.e. this is not a deadlock. */
bool emu_async_stalled(cta *c) {
  if (!c->peers || !cluster_has_sleepers(c)) return false;
  return expire(c);
}

void emu_async_release(cta *c) {
  emu *e = c->e;
  for (uint32_t wi = 0; c->warps && wi < c->nwarps; wi++) {
    warp *w = &c->warps[wi];
    warp_async *a = w->async_state;
    if (!a) continue;
    FOR_LANES(i) {
      if (!e->faulted) bulk_complete(w, NULL, i, UINT32_MAX);   /* global writes still land */
      bulk_fifo *f = &a->bulk[i];
      for (uint32_t k = f->head; k < f->n; k++) free(f->v[k].data);
      free(f->v);
      free(a->cpa[i].v);
    }
    free(a);
    w->async_state = NULL;
  }
  cta_async *s = c->async_state;
  if (s) {
    for (uint32_t i = 0; i < s->nq; i++) free(s->q[i].data);
    free(s->q);
    free(s);
    c->async_state = NULL;
  }
}

/* ---- cp.async ------------------------------------------------------------------------------- */

static void h_cp_async(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  int extra = (int)x->nops - 3 - ((in->flags & IF_CACHE_HINT) ? 1 : 0);
  bool ignore_pred = extra >= 1 && x->op[3].kind == OK_REG && x->op[3].bits == 1;
  uint64_t da[WARP_SIZE], sa[WARP_SIZE];
  uint8_t dsym, ssym;
  emu_lane_addrs(w, x, x->op[0].o, g, da, &dsym);
  emu_lane_addrs(w, x, x->op[1].o, g, sa, &ssym);
  warp_async *a = wa_of(w);
  if (oom(w, x, a)) return;
  uint8_t kind[WARP_SIZE];
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint32_t cp = (uint32_t)opv(w, x, 2, i);
    if (cp != 4 && cp != 8 && cp != 16) { emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "cp.async copy size %u is not 4, 8 or 16", cp); return; }
    uint32_t src = cp;
    if (extra >= 1) {
      if (ignore_pred) src = ((opv(w, x, 3, i) & 1) ^ x->op[3].neg) ? 0 : cp;
      else src = (uint32_t)opv(w, x, 3, i);
      if (src > cp) src = cp;
    }
    uint32_t doff;
    if (!shared_target(w, x, i, da[i], in->space, dsym, cp, cp, true, &doff)) return;
    const uint8_t *sp = global_ptr(w, x, i, sa[i], src, cp, ssym);
    if (!sp) return;
    cpa_fifo *f = &a->cpa[i];
    if (f->n == f->cap) {
      uint32_t nc = f->cap ? f->cap * 2 : 8;
      cpa_op *nv = realloc(f->v, nc * sizeof *nv);
      if (oom(w, x, nv)) return;
      f->v = nv;
      f->cap = nc;
    }
    cpa_op *o = &f->v[f->n++];
    o->group = f->committed;
    o->seq = f->seq++;
    o->dst = doff;
    o->size = (uint8_t)cp;
    emu_proxy_generic_write(w, x, i, w->cta, doff, cp);    /* cp.async writes in the generic proxy */
    memset(o->data, 0, sizeof o->data);
    memcpy(o->data, sp, src);                 /* bytes beyond src-size are zero */
    kind[i] = MM_GLOBAL;
  }
  emu_count_access(w, x, sa, g, (uint32_t)opv(w, x, 2, __builtin_ctz(g)), kind, false);
}

static void h_cp_async_commit(warp *w, const xinsn *x, lanemask g) {
  (void)x;
  if (!g) return;
  warp_async *a = wa_of(w);
  if (oom(w, x, a)) return;
  FOR_LANES(i) if (g >> i & 1) a->cpa[i].committed++;
}

static void h_cp_async_wait(warp *w, const xinsn *x, lanemask g) {
  if (!g || !w->async_state) return;
  warp_async *a = w->async_state;
  bool all = x->in->op == OP_CP_ASYNC_WAIT_ALL;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    cpa_fifo *f = &a->cpa[i];
    if (all) { f->committed++; cpa_perform(w, i, UINT32_MAX, UINT32_MAX); continue; }
    uint64_t n = opv(w, x, 0, i);
    uint32_t lim = n >= f->committed ? 0 : f->committed - (uint32_t)n;   /* groups older than the N newest */
    cpa_perform(w, i, lim, UINT32_MAX);
  }
}

static void h_cp_async_mbar_arrive(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  bool noinc = isa_has_mod(x->in, MOD_NOINC);
  uint64_t ba[WARP_SIZE];
  uint8_t bsym;
  emu_lane_addrs(w, x, x->op[0].o, g, ba, &bsym);
  warp_async *a = wa_of(w);
  if (oom(w, x, a)) return;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint32_t off;
    cta *c = shared_target(w, x, i, ba[i], x->in->space, bsym, 8, 8, true, &off);
    if (!c) return;
    mb_flush(c, off);
    if (!noinc) {                          /* pending + 1 now, the asynchronous arrive takes it back */
      uint64_t s = mb_load(c, off);
      mb_store(c, off, mb_make(mb_phase(s), mb_expected(s), mb_pending(s) + 1, mb_tx(s)));
    }
    mbq q = { .bar = off, .kind = Q_CPA_ARRIVE, .w = w, .lane = (uint32_t)i, .seq = a->cpa[i].seq };
    if (!enqueue(w, x, c, &q)) return;
  }
}

/* ---- mbarrier -------------------------------------------------------------------------------- */

/* Barrier operand k of lane i -> CTA and offset (after draining its queue). */
static cta *bar_of(warp *w, const xinsn *x, int lane, const uint64_t *ba, uint8_t bsym, bool own_only, uint32_t *off) {
  cta *c = shared_target(w, x, lane, ba[lane], x->in->space, bsym, 8, 8, own_only, off);
  if (c) mb_flush(c, *off);
  return c;
}

static void h_mbar_init(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  uint64_t ba[WARP_SIZE];
  uint8_t bsym;
  emu_lane_addrs(w, x, x->op[0].o, g, ba, &bsym);
  bool inval = x->in->op == OP_MBARRIER_INVAL;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint32_t off;
    cta *c = bar_of(w, x, i, ba, bsym, true, &off);
    if (!c) return;
    uint64_t n = inval ? 0 : opv(w, x, 1, i) & MB_MASK;
    /* inval keeps the phase: a wait on a phase that completed before it
     * still succeeds, as on an H200 (threads that poll after the one that
     * invalidates, as cuda-samples globalToShmemTMACopy's do) */
    mb_store(c, off, inval ? mb_make(mb_phase(mb_load(c, off)), 0, 0, 0) : mb_make(0, n, n, 0));
  }
}

/* mbarrier.arrive / arrive_drop {.expect_tx} {.noComplete} state|_, [addr] {, count|txCount} */
static void h_mbar_arrive(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  bool drop = in->op == OP_MBARRIER_ARRIVE_DROP, etx = (in->flags & IF_EXPECT_TX) != 0;
  uint64_t ba[WARP_SIZE];
  uint8_t bsym;
  emu_lane_addrs(w, x, x->op[1].o, g, ba, &bsym);
  uint64_t *d = x->op[0].kind == OK_REG ? xdst(w, x, 0) : NULL;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint32_t off;
    cta *c = bar_of(w, x, i, ba, bsym, false, &off);
    if (!c) return;
    uint32_t count = 1;
    int64_t tx = 0;
    if (x->nops >= 3) {
      uint64_t v = opv(w, x, 2, i);
      if (etx) tx = (int64_t)(v & 0xffffffffu); else count = (uint32_t)v;
    }
    uint64_t tok = mb_arrive(c, off, count, tx, drop ? count : 0);
    if (d) d[i] = xfit(x, 0, tok);
  }
}

static void h_mbar_tx(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  bool complete = x->in->op == OP_MBARRIER_COMPLETE_TX;
  uint64_t ba[WARP_SIZE];
  uint8_t bsym;
  emu_lane_addrs(w, x, x->op[0].o, g, ba, &bsym);
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint32_t off;
    cta *c = bar_of(w, x, i, ba, bsym, false, &off);
    if (!c) return;
    int64_t tx = (int64_t)(opv(w, x, 1, i) & 0xffffffffu);
    mb_add_tx(c, off, complete ? -tx : tx);
  }
}

static void h_mbar_pending(warp *w, const xinsn *x, lanemask g) {
  uint64_t *d = xdst(w, x, 0);
  const uint64_t *s = xsrc(w, x, 1);
  FOR_LANES(i) if (g >> i & 1) d[i] = xfit(x, 0, mb_pending(s[i]));
}

/* Whether the phase that operand 2 names has completed, for lane i (-1
 * after a fault); bc and off receive the barrier.  In the timing model a
 * completed phase's result waits for the bulk copies that completed it. */
static int wait_done(warp *w, const xinsn *x, int i, const uint64_t *ba, uint8_t bsym, cta **bc, uint32_t *off) {
  cta *c = bar_of(w, x, i, ba, bsym, true, off);
  if (!c) return -1;
  *bc = c;
  uint64_t s = mb_load(c, *off), v = opv(w, x, 2, i);
  uint32_t want = (x->in->flags & IF_PARITY) ? (uint32_t)(v & 1) : (uint32_t)(v >> 63);
  bool done = mb_phase(s) != want;
  if (done && w->e->timing) timing_mbar_wait(w->e, w, c, *off, want);
  return done;
}

static void h_mbar_test_wait(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  uint64_t ba[WARP_SIZE];
  uint8_t bsym;
  emu_lane_addrs(w, x, x->op[1].o, g, ba, &bsym);
  uint64_t *d = x->op[0].kind == OK_REG ? xdst(w, x, 0) : NULL;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    cta *c;
    uint32_t off;
    int r = wait_done(w, x, i, ba, bsym, &c, &off);
    if (r < 0) return;
    if (d) d[i] = (uint64_t)r;
  }
}

/* Any thread of the cluster that can run, other than lanes `excl` of self. */
static bool others_runnable(warp *self, lanemask excl) {
  cta *c = self->cta;
  uint32_t n = cluster_size(c->e);
  for (uint32_t r = 0; r < n; r++) {
    cta *p = cluster_cta(c, r);
    if (!p->warps) continue;
    for (uint32_t wi = 0; wi < p->nwarps; wi++) {
      warp *w = &p->warps[wi];
      lanemask ex = w == self ? excl : 0;
      FOR_LANES(i) if (!(ex >> i & 1) && (w->state[i] == TS_RUN || w->state[i] == TS_WSYNC)) return true;
    }
  }
  return false;
}

/* mbarrier.try_wait{.parity} p, [addr], state|parity {, suspendTimeHint} (owns the PC) */
static void h_mbar_try_wait(warp *w, const xinsn *x, lanemask g) {
  lanemask m = w->cur, fail = 0;
  uint64_t ba[WARP_SIZE];
  uint8_t bsym;
  uint32_t offs[WARP_SIZE];
  cta *ctas[WARP_SIZE];
  if (g) emu_lane_addrs(w, x, x->op[1].o, g, ba, &bsym);
  warp_async *a = g ? wa_of(w) : NULL;
  if (g && oom(w, x, a)) return;
  uint64_t *d = x->op[0].kind == OK_REG ? xdst(w, x, 0) : NULL;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    int r = wait_done(w, x, i, ba, bsym, &ctas[i], &offs[i]);
    if (r < 0) return;
    if (d) d[i] = (uint64_t)r;
    if (!r && !a->timeout[i]) fail |= 1u << i;
    a->timeout[i] = 0;
  }
  if (fail && !others_runnable(w, fail) && expire(w->cta)) {
    /* the last runnable thread does not sleep: it sees the time limit
     * expire, and so do the sleepers, once */
    fail = 0;
  }
  if (!fail) { w->cur_pc++; return; }
  cta_async *cs = ca_of(w->cta);
  if (oom(w, x, cs)) return;
  FOR_LANES(i) if (fail >> i & 1) {
    w->pc[i] = w->cur_pc;
    w->depth[i] = w->cur_depth;
    w->state[i] = TS_SLEEP;
    a->sleeping[i] = 1;
    a->sleep_cta[i] = ctas[i];
    a->sleep_off[i] = offs[i];
    cs->nsleep++;
  }
  w->cur = m & ~fail;
  if (w->cur) w->cur_pc++;
  else emu_reschedule(w);
}

/* ---- bulk copies ------------------------------------------------------------------------------ */

static uint8_t *snapshot(warp *w, const xinsn *x, const uint8_t *src, uint32_t len) {
  uint8_t *p = malloc(len ? len : 1);
  if (oom(w, x, p)) return NULL;
  if (len) memcpy(p, src, len);
  return p;
}

/* Queue `len` bytes of data for the shared memory of dc at dst, completing
 * on barrier (bc, bar).  Takes a copy of data. */
static bool queue_copy(warp *w, const xinsn *x, cta *bc, uint32_t bar, cta *dc, uint32_t dst, const uint8_t *data,
                       uint32_t len, uint8_t kind, uint8_t swz, int rtype, uint16_t rop, bool noftz) {
  uint8_t *p = snapshot(w, x, data, len);
  if (!p) return false;
  mbq q = { .bar = bar, .kind = kind, .rtype = (uint8_t)rtype, .noftz = noftz, .swz = swz, .rop = rop, .dst = dst,
            .len = len, .tx = len, .dc = dc, .data = p };
  if (!enqueue(w, x, bc, &q)) { free(p); return false; }
  return true;
}

/* cp.async.bulk and cp.reduce.async.bulk (not tensor) */
static void h_bulk(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  bool reduce = in->op == OP_CP_REDUCE_ASYNC_BULK;
  uint16_t dsp = in->space, ssp = in->space2;
  uint64_t da[WARP_SIZE], sa[WARP_SIZE], ba[WARP_SIZE];
  uint8_t dsym, ssym, bsym = PTX_SPACE_NONE;
  emu_lane_addrs(w, x, x->op[0].o, g, da, &dsym);
  emu_lane_addrs(w, x, x->op[1].o, g, sa, &ssym);
  bool to_global = dsp == MOD_GLOBAL;
  bool from_global = ssp == MOD_GLOBAL;
  bool multicast = isa_has_mod(in, MOD_MULTICAST_CLUSTER);
  bool noftz = (in->flags & IF_NOFTZ) != 0;
  int rtype = in->type;
  uint16_t rop = reduce ? in->bop : 0;
  if (reduce && !red_supported(rtype, rop)) {
    emu_fault_at(w, x, __builtin_ctz(g), FAULT_UNSUPPORTED, "this reduction is not supported by cp.reduce.async.bulk");
    return;
  }
  if (!to_global) {
    if (x->nops < 4 || (x->op[3].kind != OK_ADDR && x->op[3].kind != OK_ADDRX)) {
      emu_fault_at(w, x, __builtin_ctz(g), FAULT_UNSUPPORTED, "a bulk copy into shared memory needs an mbarrier operand");
      return;
    }
    emu_lane_addrs(w, x, x->op[3].o, g, ba, &bsym);
  }
  bool cp_mask = to_global && isa_has_mod(in, MOD_CP_MASK);
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint32_t size = (uint32_t)opv(w, x, 2, i);
    if (size % 16) { emu_fault_at(w, x, i, FAULT_MISALIGNED, "bulk copy size %u is not a multiple of 16", size); return; }
    /* source */
    const uint8_t *src;
    if (from_global) src = global_ptr(w, x, i, sa[i], size, 16, ssym);
    else {
      uint32_t soff;
      cta *sc = shared_target(w, x, i, sa[i], ssp ? ssp : MOD_SHARED_CTA, ssym, size, 16, true, &soff);
      src = sc ? sc->shared + soff : NULL;
      if (sc && !emu_proxy_async_read(w, x, i, sc, soff, size, reduce ? "cp.reduce.async.bulk" : "cp.async.bulk")) return;
    }
    if (!src) return;
    if (to_global) {
      if (!global_ptr(w, x, i, da[i], size, 16, dsym)) return;
      bulk_op o = { .kind = BK_LINEAR, .rtype = (uint8_t)rtype, .noftz = noftz, .rop = rop, .dst = da[i], .len = size };
      if (cp_mask) { o.has_mask = 1; o.bytemask = (uint16_t)opv(w, x, x->nops - 1, i); }
      o.data = snapshot(w, x, src, size);
      if (!o.data) return;
      if (!bulk_push(w, x, i, &o)) { free(o.data); return; }
      if (w->e->timing) timing_bulk(w->e, w, &da[i], &size, 1, size, reduce ? TB_REDUCE : TB_WRITE, NULL, 0, 0);
      continue;
    }
    /* into shared::cluster, completing on an mbarrier */
    uint32_t boff, doff;
    cta *bc = shared_target(w, x, i, ba[i], dsp, bsym, 8, 8, false, &boff);
    if (!bc) return;
    uint8_t kind = reduce ? Q_RED : Q_COPY;
    if (multicast && from_global) {
      uint32_t mask = (uint32_t)opv(w, x, 4, i) & 0xffff, n = cluster_size(w->e);
      bool own_too = mask >> w->cta->cluster_rank & 1;
      uint32_t own_phase = 0;
      uint32_t dl = (uint32_t)(da[i] & ((1ull << CLUSTER_RANK_SHIFT) - 1)), bl = (uint32_t)(ba[i] & ((1ull << CLUSTER_RANK_SHIFT) - 1));
      if (dsym != PTX_SPACE_SHARED && !is_shared_mod(dsp)) dl = (uint32_t)((da[i] - GEN_SHARED_BASE) & ((1ull << CLUSTER_RANK_SHIFT) - 1));
      if (bsym != PTX_SPACE_SHARED && !is_shared_mod(dsp)) bl = (uint32_t)((ba[i] - GEN_SHARED_BASE) & ((1ull << CLUSTER_RANK_SHIFT) - 1));
      for (uint32_t r = 0; r < n; r++) {
        if (!(mask >> r & 1)) continue;
        cta *dc = cluster_cta(w->cta, r);
        if ((dl & 15) || dl >= dc->shared_size || size > dc->shared_size - dl || bl + 8 > dc->shared_size || (bl & 7)) {
          emu_fault_at(w, x, i, FAULT_OOB, "multicast bulk copy to offset 0x%x (%u bytes, mbarrier 0x%x) does not fit CTA rank %u", dl, size, bl, r);
          return;
        }
        if (dc == w->cta) own_phase = mb_phase(mb_load(dc, bl));
        if (!queue_copy(w, x, dc, bl, dc, dl, src, size, kind, 0, rtype, rop, noftz)) return;
      }
      /* one read of global memory for every destination; the timing model
       * delays the issuing block's barrier (timing.c timing_bulk) */
      if (w->e->timing) timing_bulk(w->e, w, &sa[i], &size, 1, size, TB_READ, own_too ? w->cta : NULL, bl, own_phase);
      continue;
    }
    cta *dc = shared_target(w, x, i, da[i], dsp, dsym, size, 16, false, &doff);
    if (!dc) return;
    uint32_t phase = mb_phase(mb_load(bc, boff));   /* (the one it completes: the queue may complete it at once) */
    if (!queue_copy(w, x, bc, boff, dc, doff, src, size, kind, 0, rtype, rop, noftz)) return;
    if (w->e->timing) timing_bulk(w->e, w, &sa[i], &size, from_global, size, from_global ? TB_READ : TB_SHARED, bc, boff, phase);
  }
}

static void h_bulk_commit(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  warp_async *a = wa_of(w);
  if (oom(w, x, a)) return;
  FOR_LANES(i) if (g >> i & 1) a->bulk[i].committed++;
}

static void h_bulk_wait(warp *w, const xinsn *x, lanemask g) {
  if (!g || !w->async_state) return;
  if (isa_has_mod(x->in, MOD_READ)) return;       /* sources were read at issue */
  warp_async *a = w->async_state;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    bulk_fifo *f = &a->bulk[i];
    uint64_t n = opv(w, x, 0, i);
    uint32_t lim = n >= f->committed ? 0 : f->committed - (uint32_t)n;
    bulk_complete(w, x, i, lim);
    if (w->e->faulted) return;
  }
}

/* ---- tensor copies -------------------------------------------------------------------------- */

static int insn_rank(const isa_insn *in) {
  static const int mods[5] = { MOD_T1D, MOD_T2D, MOD_T3D, MOD_T4D, MOD_T5D };
  for (int k = 0; k < 5; k++) if (isa_has_mod(in, mods[k])) return k + 1;
  return 0;
}

static bool tmap_bad(warp *w, const xinsn *x, int lane, uint64_t a, const char *why) {
  emu_fault_at(w, x, lane, FAULT_UNSUPPORTED, "tensor map at 0x%llx: %s (see tests/exec/README-async.md for ptxemu's layout)",
               (unsigned long long)a, why);
  return false;
}

static bool tmap_read(warp *w, const xinsn *x, int lane, uint64_t a, uint8_t symspace, tmap *t) {
  const uint8_t *p = global_ptr(w, x, lane, a, 128, 64, symspace);
  if (!p) return false;
  static const uint8_t dsize[13] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };
  memset(t, 0, sizeof *t);
  emu_tmapdesc d;                      /* the layout is read in one place: texobj.c */
  if (emu_tensormap_decode(p, &d)) return tmap_bad(w, x, lane, a, "not a ptxemu tensor map (magic 0x4d545850 missing at byte 0x70)");
  t->addr = d.addr;
  t->rank = (uint32_t)d.rank;
  t->dtype = (uint32_t)d.dtype;
  t->swz = (uint32_t)d.swizzle;
  t->fill = (uint32_t)d.oobfill;
  if (t->rank < 1 || t->rank > 5) return tmap_bad(w, x, lane, a, "rank must be 1..5");
  t->im2col = d.im2col != 0;
  if (t->im2col) {
    t->chans = d.channels;
    t->pixels = d.pixels;
    for (int i = 0; i < 3; i++) { t->lower[i] = d.lower[i]; t->upper[i] = d.upper[i]; }
    if (t->rank < 3) return tmap_bad(w, x, lane, a, "an im2col map needs rank 3..5");
    if (!t->chans || t->chans > 256 || !t->pixels || t->pixels > 1024)
      return tmap_bad(w, x, lane, a, "im2col channels must be 1..256 and pixels 1..1024");
  }
  if (t->dtype > 12) return tmap_bad(w, x, lane, a, "unsupported data type");
  if (d.interleave) return tmap_bad(w, x, lane, a, "interleaved layouts are not supported");
  if (t->swz > 3) return tmap_bad(w, x, lane, a, "swizzle must be 0..3");
  if (d.swizzle_atomicity) return tmap_bad(w, x, lane, a, "a swizzle atomicity other than 16B (sm_100a) is not modelled");
  if (t->addr & 15) return tmap_bad(w, x, lane, a, "global address is not 16-byte aligned");
  t->esize = dsize[t->dtype];
  t->stride[0] = t->esize;
  t->count = 1;
  for (uint32_t i = 0; i < t->rank; i++) {
    t->dim[i] = (uint32_t)d.dim[i];
    t->box[i] = d.box[i];
    t->es[i] = d.estride[i];
    /* without interleave TMA has no stride in dimension 0: the first
     * element stride is ignored (cuTensorMapEncodeTiled) */
    if (!t->es[i] || i == 0) t->es[i] = 1;
    if (i) t->stride[i] = d.stride[i];
    if (!t->dim[i]) return tmap_bad(w, x, lane, a, "a global dimension is 0");
    if (t->im2col) {
      if (i && (t->stride[i] & 15)) return tmap_bad(w, x, lane, a, "global strides must be multiples of 16");
      if (t->es[i] > 8) return tmap_bad(w, x, lane, a, "element strides must be 1..8");
      continue;
    }
    if (!t->box[i] || t->box[i] > 256) return tmap_bad(w, x, lane, a, "box dimensions must be 1..256");
    if (t->es[i] > 8) return tmap_bad(w, x, lane, a, "element strides must be 1..8");
    if (i && (t->stride[i] & 15)) return tmap_bad(w, x, lane, a, "global strides must be multiples of 16");
    t->nb[i] = (t->box[i] + t->es[i] - 1) / t->es[i];
    t->count *= t->nb[i];
  }
  if (t->im2col) { t->box[0] = t->chans; t->count = (uint64_t)t->chans * t->pixels; }
  if ((uint64_t)t->box[0] * t->esize % 16) return tmap_bad(w, x, lane, a, "the inner box dimension must span a multiple of 16 bytes");
  if (t->swz && (uint64_t)t->box[0] * t->esize > (16u << t->swz))
    return tmap_bad(w, x, lane, a, "the inner box dimension is wider than the swizzle span");
  t->bytes = t->count * t->esize;
  if (t->bytes > (1u << 20)) return tmap_bad(w, x, lane, a, "the box is larger than shared memory");
  return true;
}

/* Coordinates of the [tensorMap, {c...}] operand k for lane i. */
static int tensor_coords(warp *w, const xinsn *x, int k, int lane, int32_t *c) {
  const isa_opnd *o = x->op[k].o;
  if (o->kind != OK_ADDRX || o->n < 2) return 0;
  const isa_opnd *v = &x->f->pool[o->v + 1];
  const isa_opnd *el = v;
  uint32_t n = 1;
  if (v->kind == OK_VEC) { el = &x->f->pool[v->v]; n = v->n; }
  else n = o->n - 1, el = v;
  if (n > 5) return 0;
  for (uint32_t j = 0; j < n; j++) {
    const isa_opnd *e = &el[j];
    int row = emu_row_of(w->e, x, e);
    c[j] = (int32_t)(row >= 0 ? w->r[row][lane] : (uint64_t)e->imm);
  }
  return (int)n;
}

/* The im2col offsets operand {w, h, d} (16-bit, after the mbarrier) of lane i:
 * nonzero after a fault.  The offsets are unsigned (a filter position): on
 * an H100 an offset of -1 reads 65535 pixels away, all zero fill. */
static int im2col_offsets(warp *w, const xinsn *x, int lane, int n, int32_t *off) {
  const isa_opnd *o = x->nops > 3 ? x->op[3].o : NULL;
  if (!o || o->kind != OK_VEC || (int)o->n != n) {
    emu_fault_at(w, x, lane, FAULT_UNSUPPORTED, "an .im2col copy of this rank needs a vector of %d offsets after the mbarrier", n);
    return 1;
  }
  for (int k = 0; k < n; k++) {
    const isa_opnd *e = &x->f->pool[o->v + k];
    int row = emu_row_of(w->e, x, e);
    off[k] = (uint16_t)(row >= 0 ? w->r[row][lane] : (uint64_t)e->imm);
  }
  return 0;
}

static uint32_t swz_addr(uint32_t a, uint32_t mode) {
  uint32_t bits = mode == 3 ? 7 : mode == 2 ? 3 : mode == 1 ? 1 : 0;
  return a ^ (((a >> 7) & bits) << 4);
}

/* The timing model's view of a tensor copy (timing.c timing_bulk): the
 * global bytes its box's elements inside the tensor cover, as runs of
 * consecutive elements; false after a fault (out of memory). */
static bool tensor_timing(warp *w, const xinsn *x, const tmap *t, const int32_t *c, const int32_t *off, bool im2col,
                          int how, const cta *bar, uint32_t bar_off, uint32_t phase) {
  uint64_t *seg = malloc((t->count ? t->count : 1) * sizeof *seg);
  uint32_t *len = malloc((t->count ? t->count : 1) * sizeof *len), n = 0;
  if (!seg || !len) { free(seg); free(len); return !oom(w, x, NULL); }
  for (uint64_t k = 0; k < t->count; k++) {
    uint64_t ga;
    if (!(im2col ? im2col_elem(t, c, off, k, &ga) : tmap_elem(t, c, k, &ga))) continue;
    if (n && seg[n - 1] + len[n - 1] == ga) len[n - 1] += t->esize;
    else { seg[n] = ga; len[n++] = t->esize; }
  }
  timing_bulk(w->e, w, seg, len, n, (uint32_t)t->bytes, how, bar, bar_off, phase);
  free(seg);
  free(len);
  return true;
}

/* cp.async.bulk.tensor / cp.reduce.async.bulk.tensor, tile mode */
static void h_tensor(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  bool reduce = in->op == OP_CP_REDUCE_ASYNC_BULK_TENSOR;
  bool load = !reduce && in->space != MOD_GLOBAL;
  int lead = __builtin_ctz(g);
  bool im2col = isa_has_mod(in, MOD_IM2COL);
  if ((im2col && !load) || isa_has_mod(in, MOD_IM2COL_W) || isa_has_mod(in, MOD_IM2COL_W128) || isa_has_mod(in, MOD_IM2COL_NO_OFFS) ||
      isa_has_mod(in, MOD_TILE_GATHER4) || isa_has_mod(in, MOD_TILE_SCATTER4) || isa_has_mod(in, MOD_CTA_GROUP_2)) {
    emu_fault_at(w, x, lead, FAULT_UNSUPPORTED, "only the tile mode and im2col loads of tensor copies are supported");
    return;
  }
  /* (the assembler refuses a load without its mbarrier operand; an object
   * file may still hold one: the operand count allows the store form's two) */
  if (load && (x->nops < 3 || (x->op[2].kind != OK_ADDR && x->op[2].kind != OK_ADDRX))) {
    emu_fault_at(w, x, lead, FAULT_UNSUPPORTED, "a tensor copy into shared memory needs an mbarrier operand");
    return;
  }
  int rank = insn_rank(in);
  int tk = load ? 1 : 0;                         /* the [tensorMap, {coords}] operand */
  uint64_t ta[WARP_SIZE], sa[WARP_SIZE], ba[WARP_SIZE];
  uint8_t tsym, ssym, bsym;
  emu_lane_addrs(w, x, x->op[tk].o, g, ta, &tsym);
  emu_lane_addrs(w, x, x->op[load ? 0 : 1].o, g, sa, &ssym);
  if (load) emu_lane_addrs(w, x, x->op[2].o, g, ba, &bsym);
  bool multicast = load && isa_has_mod(in, MOD_MULTICAST_CLUSTER);
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    tmap t;
    if (!tmap_read(w, x, i, ta[i], tsym, &t)) return;
    int32_t c[5] = {0};
    int n = tensor_coords(w, x, tk, i, c);
    if ((rank && n != rank) || n != (int)t.rank) {
      emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "tensor copy with %d coordinates (.%dd) on a rank-%u tensor map", n, rank, t.rank);
      return;
    }
    int32_t off[3] = {0};
    if (im2col != (t.im2col != 0)) {
      emu_fault_at(w, x, i, FAULT_UNSUPPORTED, im2col ? "an .im2col copy needs an im2col tensor map" : "a tile-mode copy cannot use an im2col tensor map");
      return;
    }
    if (im2col && im2col_offsets(w, x, i, (int)t.rank - 2, off)) return;
    /* a tile's first element must start a 16-byte unit of its row: an
     * H200 raises an illegal instruction for an INT32 map's x = 1 (0 and 4
     * load); negative coordinates too, whose elements are filled */
    if (!im2col && ((int64_t)c[0] * (int64_t)t.esize) % 16) {
      emu_fault_at(w, x, i, FAULT_ILLEGAL, "tensor copy at coordinate %d of the innermost dimension: %lld bytes into the row, "
                   "not a multiple of 16 (an illegal instruction on the GPU)", c[0], (long long)c[0] * t.esize);
      return;
    }
    if (load) {
      uint8_t *box = malloc(t.bytes ? t.bytes : 1);
      if (oom(w, x, box)) return;
      /* the NaN fill of an H100 is the 16-bit pattern 0x7ff7 in every half
       * word (measured: f16, f32, f32.ftz, tf32 and f64 maps) */
      uint64_t nan = 0x7ff77ff77ff77ff7ull;
      bool nanfill = t.fill == 1 && (t.dtype >= 6);
      for (uint64_t k = 0; k < t.count; k++) {
        uint64_t ga;
        uint8_t *dst = box + k * t.esize;
        if (im2col ? im2col_elem(&t, c, off, k, &ga) : tmap_elem(&t, c, k, &ga)) {
          const uint8_t *p = global_ptr(w, x, i, ga, t.esize, 1, PTX_SPACE_NONE);
          if (!p) { free(box); return; }
          memcpy(dst, p, t.esize);
        } else if (nanfill) memcpy(dst, &nan, t.esize);
        else memset(dst, 0, t.esize);
      }
      uint32_t len = (uint32_t)t.bytes, span = t.swz ? (len + 127) / 128 * 128 : len;
      uint32_t boff, doff;
      cta *bc = shared_target(w, x, i, ba[i], in->space, bsym, 8, 8, false, &boff);
      if (!bc) { free(box); return; }
      uint32_t own_phase = 0;          /* (the phase the copy completes, as h_bulk) */
      if (multicast) {
        int mk = 3;
        uint32_t mask = (uint32_t)opv(w, x, mk, i) & 0xffff, nc = cluster_size(w->e);
        uint32_t dl = (uint32_t)(sa[i] & ((1ull << CLUSTER_RANK_SHIFT) - 1)), bl = boff;
        for (uint32_t r = 0; r < nc; r++) {
          if (!(mask >> r & 1)) continue;
          cta *dc = cluster_cta(w->cta, r);
          if ((dl & 127) || dl >= dc->shared_size || span > dc->shared_size - dl) {
            emu_fault_at(w, x, i, FAULT_OOB, "multicast tensor copy to offset 0x%x (%u bytes) does not fit CTA rank %u", dl, span, r);
            free(box);
            return;
          }
          if (dc == w->cta && dc == bc) own_phase = mb_phase(mb_load(dc, bl));   /* (bl checked for bc) */
          if (!queue_copy(w, x, dc, bl, dc, dl, box, len, Q_COPY, (uint8_t)t.swz, 0, 0, false)) { free(box); return; }
        }
      } else {
        cta *dc = shared_target(w, x, i, sa[i], in->space, ssym, span, 128, false, &doff);
        if (dc) own_phase = mb_phase(mb_load(bc, boff));
        if (!dc || !queue_copy(w, x, bc, boff, dc, doff, box, len, Q_COPY, (uint8_t)t.swz, 0, 0, false)) { free(box); return; }
      }
      free(box);
      /* (multicast: the issuing block's barrier, as h_bulk) */
      cta *own = !multicast ? bc : (uint32_t)opv(w, x, 3, i) >> w->cta->cluster_rank & 1 && bc == w->cta ? w->cta : NULL;
      if (w->e->timing && !tensor_timing(w, x, &t, c, off, im2col, TB_READ, own, boff, own_phase)) return;
      continue;
    }
    /* shared::cta -> global, bulk group */
    uint32_t len = (uint32_t)t.bytes, span = t.swz ? (len + 127) / 128 * 128 : len, soff;
    cta *sc = shared_target(w, x, i, sa[i], in->space2 ? in->space2 : MOD_SHARED_CTA, ssym, span, 128, true, &soff);
    if (!sc) return;
    bulk_op o = { .kind = BK_TENSOR, .len = len, .tm = t };
    memcpy(o.coord, c, sizeof c);
    if (reduce) {
      o.rop = in->bop;
      o.rtype = (uint8_t)tmap_ptx_type(t.dtype);
      o.noftz = (in->flags & IF_NOFTZ) != 0;
      if (!red_supported(o.rtype, o.rop)) {
        emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "this reduction is not supported for the tensor map's data type");
        return;
      }
    }
    o.data = malloc(len ? len : 1);
    if (oom(w, x, o.data)) return;
    for (uint32_t k = 0; k < len; k += 16) {
      uint32_t a = swz_addr(soff + k, t.swz), n = len - k < 16 ? len - k : 16;
      if (!emu_proxy_async_read(w, x, i, sc, a, n, reduce ? "cp.reduce.async.bulk.tensor" : "cp.async.bulk.tensor")) {
        free(o.data);
        return;
      }
      memcpy(o.data + k, sc->shared + a, n);
    }
    if (!bulk_push(w, x, i, &o)) { free(o.data); return; }
    if (w->e->timing && !tensor_timing(w, x, &t, c, off, false, reduce ? TB_REDUCE : TB_WRITE, NULL, 0, 0)) return;
  }
}

/* tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
 * [dst], [src], 128: the tensor map built in shared memory is copied to
 * global memory, fenced for the tensormap proxy (nothing more to do here:
 * ptxemu's TMA reads the map at each copy).  Every lane performs the copy. */
static void h_tmap_cp(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  uint64_t da[WARP_SIZE], sa[WARP_SIZE];
  uint8_t dsym, ssym;
  emu_lane_addrs(w, x, x->op[0].o, g, da, &dsym);
  emu_lane_addrs(w, x, x->op[1].o, g, sa, &ssym);
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint64_t size = opv(w, x, 2, i);
    if (size != 128) { emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "tensormap.cp_fenceproxy copies 128 bytes, not %llu", (unsigned long long)size); return; }
    uint32_t soff;
    cta *sc = shared_target(w, x, i, sa[i], MOD_SHARED_CTA, ssym, 128, 128, true, &soff);
    if (!sc) return;
    uint8_t *d = global_ptr(w, x, i, da[i], 128, 128, dsym);
    if (!d) return;
    memmove(d, sc->shared + soff, 128);
  }
}

/* tensormap.replace.tile.FIELD{.global,.shared::cta}.b1024.{b32,b64} [map], {ord,} new_val
 * (PTX ISA 8.3): one field of a tensor map in global or shared memory gets a
 * new value.  The map (ptxemu's layout, tests/exec/README-async.md) is
 * decoded, the field changed and the map re-encoded.  Values follow the PTX
 * manual's numbering (table "Tensormap new_val validity"): .rank is the rank
 * minus 1; .elemtype has its own numbering (0 .u8, 1 .u16, 2 .u32, 3 .s32,
 * 4 .u64, 5 .s64, 6 .f16, 7 .f32, 8 .f32.ftz, 9 .f64, 10 .bf16, 11 .tf32,
 * 12 .tf32.ftz, 13..15 sub-byte types), not CUtensorMapDataType's;
 * .interleave_layout 0 none, 1 16B, 2 32B; .swizzle_mode 0 none, 1 32B,
 * 2 64B, 3 128B, 4 96B; .swizzle_atomicity 0 16B, 1 32B, 2 32B + 8B flip,
 * 3 64B; .fill_mode 0 zeros, 1 NaN (OOB-NaN fill).  ord is the dimension of
 * .box_dim, .global_dim and .element_stride (0..4) and, for .global_stride,
 * the index in the driver API's globalStrides (0..3: the stride of dimension
 * ord + 1; dimension 0's stride is the element size).  A value the manual
 * leaves undefined stops the launch naming the field and the value, and so
 * does one ptxemu does not model (sub-byte element types, the 96B swizzle of
 * sm_103a); limits that involve several fields (the inner box dimension in
 * bytes, the swizzle span) are checked when a copy uses the map, as a map is
 * edited one field at a time. */
enum { TF_ADDR, TF_RANK, TF_BOX, TF_GDIM, TF_GSTRIDE, TF_ESTRIDE, TF_ELEMTYPE, TF_INTERLEAVE, TF_SWIZZLE, TF_ATOMICITY, TF_FILL, TF_N };
static const struct { uint16_t mod; const char *name; } tmap_fields[TF_N] = {
  { MOD_GLOBAL_ADDRESS, "global_address" }, { MOD_RANK, "rank" }, { MOD_BOX_DIM, "box_dim" },
  { MOD_GLOBAL_DIM, "global_dim" }, { MOD_GLOBAL_STRIDE, "global_stride" }, { MOD_ELEMENT_STRIDE, "element_stride" },
  { MOD_ELEMTYPE, "elemtype" }, { MOD_INTERLEAVE_LAYOUT, "interleave_layout" }, { MOD_SWIZZLE_MODE, "swizzle_mode" },
  { MOD_SWIZZLE_ATOMICITY, "swizzle_atomicity" }, { MOD_FILL_MODE, "fill_mode" },
};

/* Apply field F = v (dimension ord) to D; NULL, or why the value is refused. */
static const char *tmap_apply(emu_tmapdesc *d, int f, uint32_t ord, uint64_t v, char *buf, size_t len) {
  /* PTX .elemtype -> CUtensorMapDataType (ptxemu's layout) */
  static const int8_t cu_type[13] = { 0, 1, 2, 3, 4, 5, 6, 7, 10, 8, 9, 11, 12 };
  switch (f) {
  case TF_ADDR:
    if (v & 15) { snprintf(buf, len, "0x%llx is not 16-byte aligned", (unsigned long long)v); return buf; }
    if (d->interleave == 2 && (v & 31)) { snprintf(buf, len, "0x%llx is not 32-byte aligned (32B interleave)", (unsigned long long)v); return buf; }
    d->addr = v;
    return NULL;
  case TF_RANK:
    if (v > 4) { snprintf(buf, len, "%llu is out of range: the field holds the rank minus 1, 0..4", (unsigned long long)v); return buf; }
    d->rank = (int)v + 1;
    return NULL;
  case TF_BOX:
    if (!v || v > 256) { snprintf(buf, len, "%llu (dimension %u) is out of range 1..256", (unsigned long long)v, ord); return buf; }
    d->box[ord] = (uint32_t)v;
    return NULL;
  case TF_GDIM:
    if (!v) { snprintf(buf, len, "0 (dimension %u): a global dimension is 1..2^32", ord); return buf; }
    d->dim[ord] = v;
    return NULL;
  case TF_GSTRIDE:
    if ((v & 15) || v >= (1ull << 40)) {
      snprintf(buf, len, "%llu (dimension %u) is not a multiple of 16 below 2^40", (unsigned long long)v, ord + 1);
      return buf;
    }
    if (d->interleave == 2 && (v & 31)) { snprintf(buf, len, "%llu (dimension %u) is not a multiple of 32 (32B interleave)", (unsigned long long)v, ord + 1); return buf; }
    d->stride[ord + 1] = v;
    return NULL;
  case TF_ESTRIDE:
    if (!v || v > 8) { snprintf(buf, len, "%llu (dimension %u) is out of range 1..8", (unsigned long long)v, ord); return buf; }
    d->estride[ord] = (uint32_t)v;
    return NULL;
  case TF_ELEMTYPE:
    if (v >= 13 && v <= 15) { snprintf(buf, len, "%llu (a sub-byte type, sm_100a) is not modelled by ptxemu", (unsigned long long)v); return buf; }
    if (v > 15) { snprintf(buf, len, "%llu is not an element type (0..15)", (unsigned long long)v); return buf; }
    d->dtype = cu_type[v];
    return NULL;
  case TF_INTERLEAVE:
    if (v > 2) { snprintf(buf, len, "%llu is not an interleave layout (0 none, 1 16B, 2 32B)", (unsigned long long)v); return buf; }
    d->interleave = (int)v;
    return NULL;
  case TF_SWIZZLE:
    if (v == 4) { snprintf(buf, len, "4 (96B swizzling, sm_103a) is not modelled by ptxemu"); return buf; }
    if (v > 4) { snprintf(buf, len, "%llu is not a swizzle mode (0 none, 1 32B, 2 64B, 3 128B, 4 96B)", (unsigned long long)v); return buf; }
    d->swizzle = (int)v;
    return NULL;
  case TF_ATOMICITY:
    if (v > 3) { snprintf(buf, len, "%llu is not a swizzle atomicity (0 16B, 1 32B, 2 32B + 8B flip, 3 64B)", (unsigned long long)v); return buf; }
    d->swizzle_atomicity = (int)v;
    return NULL;
  default:
    if (v > 1) { snprintf(buf, len, "%llu is not a fill mode (0 zero fill, 1 OOB-NaN fill)", (unsigned long long)v); return buf; }
    d->oobfill = (int)v;
    return NULL;
  }
}

static void h_tmap_replace(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  int lead = __builtin_ctz(g), f = -1, nf = 0;
  for (int k = 0; k < TF_N; k++) if (isa_has_mod(in, tmap_fields[k].mod)) { f = k; nf++; }
  bool field2 = f == TF_BOX || f == TF_GDIM || f == TF_GSTRIDE || f == TF_ESTRIDE;
  /* the assembler refuses these forms; an object from elsewhere stops here */
  if (nf != 1 || x->nops != (field2 ? 3 : 2) || (field2 && x->op[1].o->kind != OK_IMM)) {
    emu_fault_at(w, x, lead, FAULT_UNSUPPORTED, "malformed tensormap.replace (one field; [map], ord, new_val for the dimension fields)");
    return;
  }
  const char *fname = tmap_fields[f].name;
  uint32_t ord = 0;
  if (field2) {
    uint64_t o = (uint64_t)x->op[1].o->imm;
    if (o > (f == TF_GSTRIDE ? 3u : 4u)) {
      emu_fault_at(w, x, lead, FAULT_UNSUPPORTED, "tensormap.replace.%s: ordinal %llu is out of range (0..%d)", fname,
                   (unsigned long long)o, f == TF_GSTRIDE ? 3 : 4);
      return;
    }
    ord = (uint32_t)o;
  }
  bool wide = f == TF_ADDR || f == TF_GSTRIDE;
  uint64_t ma[WARP_SIZE];
  uint8_t msym;
  emu_lane_addrs(w, x, x->op[0].o, g, ma, &msym);
  bool shared = in->space != MOD_GLOBAL && (is_shared_mod(in->space) || msym == PTX_SPACE_SHARED ||
                                            mm_classify(ma[lead]) == MM_SHARED);
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint8_t *p;
    cta *c = NULL;
    uint32_t off = 0;
    if (shared) {
      c = shared_target(w, x, i, ma[i], in->space, msym, 128, 64, true, &off);
      if (!c) return;
      p = c->shared + off;
    } else if (!(p = global_ptr(w, x, i, ma[i], 128, 64, msym))) return;
    emu_tmapdesc d;
    if (emu_tensormap_decode(p, &d)) {
      emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "tensormap.replace.%s: the 128 bytes at 0x%llx are not a ptxemu tensor map (magic 0x4d545850 missing at byte 0x70; tests/exec/README-async.md)",
                   fname, (unsigned long long)ma[i]);
      return;
    }
    if (d.im2col) {
      emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "tensormap.replace.tile.%s on an im2col tensor map at 0x%llx (the .tile mode needs a tiled map)",
                   fname, (unsigned long long)ma[i]);
      return;
    }
    uint64_t v = opv(w, x, field2 ? 2 : 1, i);
    if (!wide) v &= 0xffffffffu;
    char why[160];
    const char *bad = tmap_apply(&d, f, ord, v, why, sizeof why);
    if (bad) {
      emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "tensormap.replace.%s: new value %s", fname, bad);
      return;
    }
    if (shared) emu_proxy_generic_write(w, x, i, c, off, 128);   /* a weak write of the whole 1024-bit object */
    emu_tensormap_reencode(p, &d);
  }
}

/* ---- st.async / red.async --------------------------------------------------------------------- */

static void h_st_async(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  bool red = in->op == OP_RED_ASYNC;
  int bits = ptx_type_bits((enum ptx_type)in->type);
  uint32_t eb = bits <= 8 ? 1 : (uint32_t)bits / 8;
  const isa_opnd *vo = x->op[1].o;
  uint32_t n = vo->kind == OK_VEC ? vo->n : 1;
  uint32_t size = eb * n;
  if (red && !red_supported(in->type, in->bop)) {
    emu_fault_at(w, x, __builtin_ctz(g), FAULT_UNSUPPORTED, "this red.async operation is not supported");
    return;
  }
  if (x->nops < 3) {
    emu_fault_at(w, x, __builtin_ctz(g), FAULT_UNSUPPORTED, "%s without an mbarrier operand is not supported", red ? "red.async" : "st.async");
    return;
  }
  uint64_t da[WARP_SIZE], ba[WARP_SIZE];
  uint8_t dsym, bsym;
  emu_lane_addrs(w, x, x->op[0].o, g, da, &dsym);
  emu_lane_addrs(w, x, x->op[2].o, g, ba, &bsym);
  uint16_t sp = in->space ? in->space : MOD_SHARED_CLUSTER;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint8_t data[64];
    for (uint32_t j = 0; j < n && j * eb < sizeof data; j++) {
      const isa_opnd *el = vo->kind == OK_VEC ? &x->f->pool[vo->v + j] : vo;
      int row = emu_row_of(w->e, x, el);
      uint64_t v = row >= 0 ? w->r[row][i] : (uint64_t)el->imm;
      memcpy(data + j * eb, &v, eb > 8 ? 8 : eb);
    }
    uint32_t doff, boff;
    cta *dc = shared_target(w, x, i, da[i], sp, dsym, size, size, false, &doff);
    if (!dc) return;
    cta *bc = shared_target(w, x, i, ba[i], sp, bsym, 8, 8, false, &boff);
    if (!bc) return;
    if (!queue_copy(w, x, bc, boff, dc, doff, data, size, red ? Q_RED : Q_COPY, 0, in->type, red ? in->bop : 0,
                    (in->flags & IF_NOFTZ) != 0)) return;
  }
}

/* ---- barrier.cluster ---------------------------------------------------------------------------- */

static void cl_check(cta *c0) {
  cta_async *s = c0->async_state;
  if (!s || !s->cl_arrived) return;
  uint32_t n = cluster_size(c0->e), live = 0;
  for (uint32_t r = 0; r < n; r++) live += cluster_cta(c0, r)->live_threads;
  if (s->cl_arrived < live) return;
  /* exact count: arrived threads that have not exited */
  uint32_t exact = 0, want = s->cl_phase + 1;
  for (uint32_t r = 0; r < n; r++) {
    cta *p = cluster_cta(c0, r);
    for (uint32_t wi = 0; p->warps && wi < p->nwarps; wi++) {
      warp_async *a = p->warps[wi].async_state;
      if (!a) continue;
      FOR_LANES(i) if (a->cl_target[i] == want && p->warps[wi].state[i] != TS_EXITED) exact++;
    }
  }
  if (exact < live) return;
  s->cl_phase++;
  s->cl_arrived = 0;
}

static void cl_arrive(lanemask g, warp_async *a, cta_async *s) {
  FOR_LANES(i) if ((g >> i & 1) && !a->cl_target[i]) { a->cl_target[i] = s->cl_phase + 1; s->cl_arrived++; }
}

static void h_cluster_arrive(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  cta *c0 = cluster_cta(w->cta, 0);
  warp_async *a = wa_of(w);
  cta_async *s = ca_of(c0);
  if (oom(w, x, a) || oom(w, x, s)) return;
  cl_arrive(g, a, s);
  cl_check(c0);
}

/* barrier.cluster.wait (and arrive + wait when neither is named); owns the PC */
static void h_cluster_wait(warp *w, const xinsn *x, lanemask g) {
  lanemask m = w->cur;
  cta *c0 = cluster_cta(w->cta, 0);
  warp_async *a = wa_of(w);
  cta_async *s = ca_of(c0);
  if (oom(w, x, a) || oom(w, x, s)) return;
  if (x->in->sub != MOD_WAIT) cl_arrive(g, a, s);
  cl_check(c0);
  lanemask fail = 0;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    if (a->cl_target[i] && s->cl_phase < a->cl_target[i]) fail |= 1u << i;
    else a->cl_target[i] = 0;
  }
  if (!fail) { w->cur_pc++; return; }
  if (fail == m) {                 /* no thread moved: this execution does not count */
    w->insts--;
    w->thread_insts -= (uint64_t)__builtin_popcount(m);
  }
  set_pcs(w, m & ~fail, w->cur_pc + 1, w->cur_depth);
  set_pcs(w, fail, w->cur_pc, w->cur_depth);
  yield_group(w, key_of(w->cur_depth, w->cur_pc));
}

/* ---- mapa / getctarank ------------------------------------------------------------------------- */

/* Operand 1 as an address value (register, immediate or symbol). */
static void addr_operand(warp *w, const xinsn *x, lanemask g, uint64_t *a, uint8_t *symspace) {
  const isa_opnd *o = x->op[1].o;
  if (o->kind == OK_SYM) {
    isa_opnd t = *o;
    t.kind = OK_ADDR;
    emu_lane_addrs(w, x, &t, g, a, symspace);
    return;
  }
  *symspace = PTX_SPACE_NONE;
  const uint64_t *v = xsrc(w, x, 1);
  FOR_LANES(i) a[i] = v[i];
}

static void h_mapa(warp *w, const xinsn *x, lanemask g) {
  uint64_t a[WARP_SIZE];
  uint8_t sym;
  addr_operand(w, x, g, a, &sym);
  uint64_t *d = xdst(w, x, 0);
  bool generic = !is_shared_mod(x->in->space);
  const uint64_t low = (1ull << CLUSTER_RANK_SHIFT) - 1;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint64_t rank = opv(w, x, 2, i) & 0xffffffffu, v = a[i];
    bool gen_in = generic && sym != PTX_SPACE_SHARED;
    if (gen_in && mm_classify(v) != MM_SHARED) { d[i] = xfit(x, 0, v); continue; }   /* not shared memory */
    uint64_t off = (gen_in ? v - GEN_SHARED_BASE : v) & low;
    uint64_t r = ((rank + 1) << CLUSTER_RANK_SHIFT) | off;
    d[i] = xfit(x, 0, generic ? GEN_SHARED_BASE + r : r);
  }
}

static void h_getctarank(warp *w, const xinsn *x, lanemask g) {
  uint64_t a[WARP_SIZE];
  uint8_t sym;
  addr_operand(w, x, g, a, &sym);
  uint64_t *d = xdst(w, x, 0);
  bool generic = !is_shared_mod(x->in->space) && sym != PTX_SPACE_SHARED;
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    uint64_t v = generic ? a[i] : a[i] & 0xffffffffull;   /* shared addresses are 32 bits */
    if (generic) {
      if (mm_classify(v) != MM_SHARED) {
        emu_fault_at(w, x, i, FAULT_BAD_ADDRESS_SPACE, "getctarank of 0x%llx, which is not a shared address", (unsigned long long)v);
        return;
      }
      v -= GEN_SHARED_BASE;
    }
    uint64_t r = v >> CLUSTER_RANK_SHIFT ? (v >> CLUSTER_RANK_SHIFT) - 1 : w->cta->cluster_rank;
    d[i] = xfit(x, 0, r);
  }
}

static void h_nop(warp *w, const xinsn *x, lanemask g) { (void)w; (void)x; (void)g; }

int prep_async(emu *e, xinsn *x) {
  (void)e;
  const isa_insn *in = x->in;
  switch (in->op) {
  case OP_CP_ASYNC: x->fn = h_cp_async; return 0;
  case OP_CP_ASYNC_COMMIT_GROUP: x->fn = h_cp_async_commit; return 0;
  case OP_CP_ASYNC_WAIT_GROUP: case OP_CP_ASYNC_WAIT_ALL: x->fn = h_cp_async_wait; return 0;
  case OP_CP_ASYNC_MBARRIER_ARRIVE: x->fn = h_cp_async_mbar_arrive; return 0;
  case OP_MBARRIER_INIT: case OP_MBARRIER_INVAL: x->fn = h_mbar_init; return 0;
  case OP_MBARRIER_ARRIVE: case OP_MBARRIER_ARRIVE_DROP: x->fn = h_mbar_arrive; return 0;
  case OP_MBARRIER_EXPECT_TX: case OP_MBARRIER_COMPLETE_TX: x->fn = h_mbar_tx; return 0;
  case OP_MBARRIER_TEST_WAIT: x->fn = h_mbar_test_wait; return 0;
  case OP_MBARRIER_TRY_WAIT: x->fn = h_mbar_try_wait; x->flags |= XF_CONTROL; return 0;
  case OP_MBARRIER_PENDING_COUNT: x->fn = h_mbar_pending; return 0;
  case OP_CP_ASYNC_BULK: case OP_CP_REDUCE_ASYNC_BULK: x->fn = h_bulk; return 0;
  case OP_CP_ASYNC_BULK_COMMIT_GROUP: x->fn = h_bulk_commit; return 0;
  case OP_CP_ASYNC_BULK_WAIT_GROUP: x->fn = h_bulk_wait; return 0;
  case OP_CP_ASYNC_BULK_PREFETCH: case OP_CP_ASYNC_BULK_PREFETCH_TENSOR: x->fn = h_nop; return 0;
  case OP_CP_ASYNC_BULK_TENSOR: case OP_CP_REDUCE_ASYNC_BULK_TENSOR: x->fn = h_tensor; return 0;
  case OP_ST_ASYNC: case OP_RED_ASYNC: x->fn = h_st_async; return 0;
  case OP_TENSORMAP_CP_FENCEPROXY: x->fn = h_tmap_cp; return 0;
  case OP_TENSORMAP_REPLACE: x->fn = h_tmap_replace; return 0;
  case OP_BAR: case OP_BARRIER:
    if (in->scope != MOD_CLUSTER) return -1;
    if (in->sub == MOD_ARRIVE) { x->fn = h_cluster_arrive; return 0; }
    x->fn = h_cluster_wait;
    x->flags |= XF_CONTROL;
    return 0;
  case OP_MAPA: x->fn = h_mapa; return 0;
  case OP_GETCTARANK: x->fn = h_getctarank; return 0;
  default: return -1;
  }
}
