/* emu/exec_warp.c - warp-collective instructions (prep_warp): shfl, vote,
 * match, redux, activemask, elect.
 *
 * The core calls a handler with m = the lanes executing now (active, guard
 * true; for .sync forms the members that arrived).  Each lane's group is
 * m & its own member mask (threads may name different masks), or m for the
 * legacy forms without .sync.  Lanes outside m are never written; a shfl
 * reading a lane outside m sees that lane's current register value.
 *
 * Pair destinations d|p are resolved at prepare time into spare operand
 * slots x->op[x->nops] (d) and x->op[x->nops + 1] (p); row -1 is a sink. */
#include <string.h>
#include "emu/emu.h"

extern int emu_row_of(const emu *e, const xinsn *x, const isa_opnd *o);

#define H(n) static void n(warp *w, const xinsn *x, lanemask m)

static inline uint64_t negof(const xinsn *x, int k) {
  return (x->op[k].neg || (x->op[k].o && (x->op[k].o->flags & OF_NEG))) ? 1 : 0;
}
/* Group of each lane: m & member mask (operand k), or m without one. */
static inline void groups(warp *w, const xinsn *x, lanemask m, int k, lanemask *g) {
  if (k < 0) { FOR_LANES(i) g[i] = m; return; }
  const uint64_t *M = xsrc(w, x, k);
  FOR_LANES(i) g[i] = m & (lanemask)M[i];
}
static inline int mm_op(const xinsn *x) { return (x->in->flags & IF_SYNC) ? x->nops - 1 : -1; }

/* ---- shfl -------------------------------------------------------------------- */
/* c packs the clamp value c[4:0] and the segment mask c[12:8]; j is the
 * source lane, p whether it is in range (else the lane keeps its own a). */
enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };
static inline uint32_t shfl_src(int mode, uint32_t lane, uint64_t b, uint64_t c, uint64_t *p) {
  uint32_t bv = (uint32_t)b & 31, cv = (uint32_t)c & 31, mk = (uint32_t)(c >> 8) & 31;
  uint32_t maxl = (lane & mk) | (cv & ~mk), minl = lane & mk;
  int32_t j;
  int ok;
  switch (mode) {
  case SH_UP: j = (int32_t)lane - (int32_t)bv; ok = j >= (int32_t)maxl; break;
  case SH_DOWN: j = (int32_t)(lane + bv); ok = j <= (int32_t)maxl; break;
  case SH_BFLY: j = (int32_t)(lane ^ bv); ok = j <= (int32_t)maxl; break;
  default: j = (int32_t)(minl | (bv & ~mk)); ok = j <= (int32_t)maxl; break;
  }
  *p = (uint64_t)ok;
  return ok ? (uint32_t)j : lane;
}
#define DEF_SHFL(mode) H(shfl_##mode) { \
  const uint64_t *A = xsrc(w, x, 1), *B = xsrc(w, x, 2), *C = xsrc(w, x, 3); \
  uint64_t t[WARP_SIZE], p[WARP_SIZE]; \
  FOR_LANES(i) { t[i] = A[shfl_src(mode, (uint32_t)i, B[i], C[i], &p[i])] & 0xffffffff; } \
  xslot_store(w, x, x->nops, t, m); xslot_store(w, x, x->nops + 1, p, m); }
DEF_SHFL(SH_UP) DEF_SHFL(SH_DOWN) DEF_SHFL(SH_BFLY) DEF_SHFL(SH_IDX)

/* ---- vote ---------------------------------------------------------------------- */
/* Ballot of the (possibly negated) predicate over the executing lanes; each
 * lane then reduces over its group. */
static inline lanemask ballot(warp *w, const xinsn *x, lanemask m) {
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t n = negof(x, 1);
  lanemask b = 0;
  FOR_LANES(i) b |= (lanemask)((A[i] ^ n) & 1) << i;
  return b & m;
}
enum { VT_ALL, VT_ANY, VT_UNI, VT_BALLOT };
static inline uint64_t vote1(int mode, lanemask b, lanemask g) {
  switch (mode) {
  case VT_ALL: return (b & g) == g;
  case VT_ANY: return (b & g) != 0;
  case VT_UNI: return (b & g) == 0 || (b & g) == g;
  default: return b & g;
  }
}
#define DEF_VOTE(mode) H(vote_##mode) { \
  lanemask g[WARP_SIZE], b = ballot(w, x, m); uint64_t t[WARP_SIZE]; \
  groups(w, x, m, mm_op(x), g); \
  FOR_LANES(i) { t[i] = vote1(mode, b, g[i]); } \
  xstore(xdst(w, x, 0), t, m); }
DEF_VOTE(VT_ALL) DEF_VOTE(VT_ANY) DEF_VOTE(VT_UNI) DEF_VOTE(VT_BALLOT)

/* ---- match ------------------------------------------------------------------------- */
/* match.any: d = the lanes of my group holding my value;
 * match.all: d = my group if all of it holds my value, else 0; p likewise. */
H(match_any) {
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t M = x->tbits >= 64 ? ~0ull : (1ull << x->tbits) - 1, t[WARP_SIZE];
  lanemask g[WARP_SIZE];
  groups(w, x, m, mm_op(x), g);
  FOR_LANES(i) {
    lanemask eq = 0;
    if (m >> i & 1) FOR_LANES(j) eq |= (lanemask)(((A[j] ^ A[i]) & M) == 0) << j;
    t[i] = eq & g[i];
  }
  xstore(xdst(w, x, 0), t, m);
}
H(match_all) {
  const uint64_t *A = xsrc(w, x, 1);
  uint64_t M = x->tbits >= 64 ? ~0ull : (1ull << x->tbits) - 1, t[WARP_SIZE], p[WARP_SIZE];
  lanemask g[WARP_SIZE];
  groups(w, x, m, mm_op(x), g);
  FOR_LANES(i) {
    lanemask eq = 0;
    if (m >> i & 1) FOR_LANES(j) eq |= (lanemask)(((A[j] ^ A[i]) & M) == 0) << j;
    p[i] = (eq & g[i]) == g[i];
    t[i] = p[i] ? g[i] : 0;
  }
  xslot_store(w, x, x->nops, t, m);
  xslot_store(w, x, x->nops + 1, p, m);
}

/* ---- redux --------------------------------------------------------------------------- */
/* 32-bit reduction over each lane's group (.add wraps).  f32 min/max: -0 <
 * +0; NaN inputs are ignored unless .NaN, the result is the canonical NaN
 * 0x7fffffff when one is kept or all are NaN; .abs reduces |x|. */
enum { RX_ADD, RX_MINU, RX_MAXU, RX_MINS, RX_MAXS, RX_AND, RX_OR, RX_XOR, RX_FMIN, RX_FMAX };
static inline int64_t fkey(uint32_t v) { return v >> 31 ? -(int64_t)(v & 0x7fffffff) - 1 : (int64_t)v; }   /* total order, -0 < +0 */
static inline uint64_t redux1(int op, const uint64_t *A, lanemask g, int fabs_, int fnan) {
  uint32_t r = op == RX_AND || op == RX_MINU ? ~0u : op == RX_MINS ? 0x7fffffffu : op == RX_MAXS ? 0x80000000u : 0;
  int have = 0, nan = 0;
  int64_t best = 0;
  for (lanemask s = g; s; s &= s - 1) {
    uint32_t v = (uint32_t)A[__builtin_ctz(s)];
    switch (op) {
    case RX_ADD: r += v; break;
    case RX_MINU: if (v < r) r = v; break;
    case RX_MAXU: if (v > r) r = v; break;
    case RX_MINS: if ((int32_t)v < (int32_t)r) r = v; break;
    case RX_MAXS: if ((int32_t)v > (int32_t)r) r = v; break;
    case RX_AND: r &= v; break;
    case RX_OR: r |= v; break;
    case RX_XOR: r ^= v; break;
    default: {
      if (fabs_) v &= 0x7fffffff;
      if ((v & 0x7fffffff) > 0x7f800000) { nan = 1; break; }
      int64_t k = fkey(v);
      if (!have || (op == RX_FMIN ? k < best : k > best)) { best = k; r = v; have = 1; }
    }
    }
  }
  if ((op == RX_FMIN || op == RX_FMAX) && ((nan && fnan) || !have)) r = g ? 0x7fffffffu : r;
  return r;
}
#define DEF_REDUX(op) H(redux_##op) { \
  const uint64_t *A = xsrc(w, x, 1); lanemask g[WARP_SIZE]; uint64_t t[WARP_SIZE]; \
  int fa = (x->in->flags & IF_ABS) != 0, fn = (x->in->flags & IF_NAN) != 0; \
  groups(w, x, m, mm_op(x), g); \
  lanemask done = 0; \
  FOR_LANES(i) { t[i] = 0; } \
  FOR_LANES(i) { \
    if (!(m >> i & 1) || (done >> i & 1)) continue; \
    uint64_t r = redux1(op, A, g[i], fa, fn); \
    FOR_LANES(j) if ((m >> j & 1) && g[j] == g[i]) { t[j] = r; done |= 1u << j; } \
  } \
  xstore(xdst(w, x, 0), t, m); }
DEF_REDUX(RX_ADD) DEF_REDUX(RX_MINU) DEF_REDUX(RX_MAXU) DEF_REDUX(RX_MINS) DEF_REDUX(RX_MAXS)
DEF_REDUX(RX_AND) DEF_REDUX(RX_OR) DEF_REDUX(RX_XOR) DEF_REDUX(RX_FMIN) DEF_REDUX(RX_FMAX)

/* ---- activemask, elect --------------------------------------------------------- */
/* activemask: the executing, predicated-on lanes (manual: inactive, exited
 * and predicated-off threads contribute 0). */
H(activemask_h) { uint64_t t[WARP_SIZE]; FOR_LANES(i) { t[i] = m; } xstore(xdst(w, x, 0), t, m); }
/* elect.sync d|p, membermask: the leader is the lowest lane of the group;
 * d = its lane id in every lane of the group, p true in the leader only. */
H(elect_h) {
  lanemask g[WARP_SIZE];
  uint64_t d[WARP_SIZE], p[WARP_SIZE];
  groups(w, x, m, x->nops - 1, g);
  FOR_LANES(i) {
    uint32_t lead = g[i] ? (uint32_t)__builtin_ctz(g[i]) : (uint32_t)i;
    d[i] = lead;
    p[i] = lead == (uint32_t)i;
  }
  xslot_store(w, x, x->nops, d, m);
  xslot_store(w, x, x->nops + 1, p, m);
}

/* ---- prepare -------------------------------------------------------------------------- */

int prep_warp(emu *e, xinsn *x) {
  const isa_insn *in = x->in;
  int sync = (in->flags & IF_SYNC) != 0;
  switch (in->op) {
  case OP_SHFL:
    if (x->nops != (sync ? 5 : 4) || ptx_type_bits((enum ptx_type)in->type) != 32 || emu_pair_slots(e, x, x->nops)) return -1;
    switch (in->sub) {
    case MOD_UP: x->fn = shfl_SH_UP; break;
    case MOD_DOWN: x->fn = shfl_SH_DOWN; break;
    case MOD_BFLY: x->fn = shfl_SH_BFLY; break;
    case MOD_IDX: x->fn = shfl_SH_IDX; break;
    default: return -1;
    }
    break;
  case OP_VOTE:
    if (x->nops != (sync ? 3 : 2) || xkind(x, 0) != OK_REG) return -1;
    switch (in->sub) {
    case MOD_ALL: x->fn = vote_VT_ALL; break;
    case MOD_ANY: x->fn = vote_VT_ANY; break;
    case MOD_UNI_: x->fn = vote_VT_UNI; break;
    case MOD_BALLOT: x->fn = vote_VT_BALLOT; break;
    default: return -1;
    }
    break;
  case OP_MATCH: {
    int b = ptx_type_bits((enum ptx_type)in->type);
    if (!sync || x->nops != 3 || (b != 32 && b != 64)) return -1;
    if (in->sub == MOD_ANY) { if (xkind(x, 0) != OK_REG) return -1; x->fn = match_any; }
    else if (in->sub == MOD_ALL) { if (emu_pair_slots(e, x, x->nops)) return -1; x->fn = match_all; }
    else return -1;
    break;
  }
  case OP_REDUX: {
    int t = in->type, S = t == PTX_T_S32;
    if (!sync || x->nops != 3 || xkind(x, 0) != OK_REG) return -1;
    if (t == PTX_T_F32) {
      if (in->bop == MOD_MIN) x->fn = redux_RX_FMIN;
      else if (in->bop == MOD_MAX) x->fn = redux_RX_FMAX;
      else return -1;
      break;
    }
    if (ptx_type_bits((enum ptx_type)t) != 32) return -1;
    switch (in->bop) {
    case MOD_ADD: x->fn = redux_RX_ADD; break;
    case MOD_MIN: x->fn = S ? redux_RX_MINS : redux_RX_MINU; break;
    case MOD_MAX: x->fn = S ? redux_RX_MAXS : redux_RX_MAXU; break;
    case MOD_AND: x->fn = redux_RX_AND; break;
    case MOD_OR: x->fn = redux_RX_OR; break;
    case MOD_XOR: x->fn = redux_RX_XOR; break;
    default: return -1;
    }
    break;
  }
  case OP_ACTIVEMASK:
    if (xkind(x, 0) != OK_REG) return -1;
    x->fn = activemask_h;
    return 0;
  case OP_ELECT:
    if (!sync || x->nops != 2 || emu_pair_slots(e, x, x->nops)) return -1;
    x->fn = elect_h;
    break;
  default:
    return -1;
  }
  if (sync) x->flags |= XF_SYNC;      /* the core waits for the members (last operand) */
  return 0;
}
