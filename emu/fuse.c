/* emu/fuse.c - ptxas's merging of scalar loads and stores into vector
 * accesses, for the timing model (timing_insn.h, timing_mark_fused).
 *
 * nvcc often leaves a shared array's unrolled accesses scalar
 * (ld.shared.f32 at [q+0], [q+4], [q+8], [q+12]); ptxas turns those it can
 * prove 16-byte aligned into one LDS.128 (or two 8-byte-aligned ones into
 * an LDS.64).  What sm_90 and sm_80 ptxas do, from the sizes of the
 * accesses in its SASS (doc/timing-validation.md):
 *  - It merges weak, unguarded ld/st of 4- or 8-byte units (a v2 of 4-byte
 *    elements is one 8-byte unit) through one base and constant offsets,
 *    in one basic block, with nothing between them that may write the
 *    same memory (a load group) or touch it (a store group): a shared or
 *    generic store, a barrier, a fence, an atomic, a call.
 *  - It knows the alignment of a shared variable (it lays them out: at
 *    least 16 bytes, even for .align 4, and the dynamic window's start) and
 *    of integer arithmetic on known alignments (a shift, a multiply by a
 *    constant, an and with a mask, an induction variable's start and step);
 *    a global variable's or a kernel parameter's pointer is unknown.
 *  - Loads: the elements read in one aligned 16-byte block become one
 *    16-byte load, or an 8-byte one where they lie in one aligned half
 *    (shared memory only: it reads the block's unused bytes too).  Stores,
 *    and global loads: only a block written (read) whole.
 *  - Sub-word accesses (8- and 16-bit) stay as they are.
 * The group's first load in PTX order makes the access, and its later
 * loads take its result; the group's last store makes the access with all
 * of its data.  Functional execution is untouched: only the timing model
 * reads these marks (deps.fuse_*). */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/timing_insn.h"
#include "emu/reorder.h"

/* What is known of a value: its low k bits are `low` (k = UNDEF: nothing
 * defines it yet, the identity of meet; k = 0: nothing known). */
typedef struct known { uint8_t k; uint64_t low; } known;
#define UNDEF 255
#define KMAX 63
#define MAX_PASSES 16

static uint64_t lowmask(uint8_t k) { return k >= 64 ? ~0ull : (1ull << k) - 1; }
static known mk(uint8_t k, uint64_t low) { if (k > KMAX) k = KMAX; return (known){ k, low & lowmask(k) }; }
static known unknown(void) { return (known){ 0, 0 }; }
static uint8_t kmin(uint8_t a, uint8_t b) { return a < b ? a : b; }
static uint8_t tz(uint64_t v, uint8_t k) { return v ? kmin((uint8_t)__builtin_ctzll(v), k) : k; }

/* Either of two values (a register's definitions, selp's operands). */
static known meet(known a, known b) {
  if (a.k == UNDEF) return b;
  if (b.k == UNDEF) return a;
  uint8_t k = kmin(a.k, b.k);
  return mk(tz(a.low ^ b.low, k), a.low);
}

static const isa_sym *sym_of(const emu *e, const xinsn *x, const isa_opnd *o) {
  uint8_t f = o->flags & (OF_MODSYM | OF_FUNCSYM);
  if (f == OF_MODSYM) return o->v < e->m->nsyms ? &e->m->syms[o->v] : NULL;
  if (f == OF_FUNCSYM) return o->v < x->f->nsyms ? &x->f->syms[o->v] : NULL;
  return NULL;
}

/* A symbol's address: ptxas places shared variables itself, 16-byte
 * aligned at least; other addresses it does not know */
static known sym_base(const emu *e, const xinsn *x, const isa_opnd *o) {
  const isa_sym *s = sym_of(e, x, o);
  return s && s->space == PTX_SPACE_SHARED ? mk(4, 0) : unknown();
}

static bool is_int_type(uint8_t t) {
  return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B32 || t == PTX_T_U64 || t == PTX_T_S64 || t == PTX_T_B64;
}

/* What is known of a source operand's value. */
static known opnd_known(const emu *e, const xinsn *x, const isa_opnd *o, const known *kn) {
  switch (o->kind) {
  case OK_IMM: return mk(KMAX, (uint64_t)o->imm);
  case OK_REG: {
    if (o->n) return unknown();                          /* a component */
    if (!(o->flags & OF_OFFSET)) return kn[emu_row_of(e, x, o)];
    known r = kn[emu_offset_src_row(e, x, o)];
    return r.k == UNDEF ? r : mk(r.k, r.low + (uint64_t)o->imm);
  }
  case OK_SYM: { known b = sym_base(e, x, o); return mk(b.k, (uint64_t)o->imm); }
  default: return unknown();
  }
}

static known k_add(known a, known b, bool sub) { uint8_t k = kmin(a.k, b.k); return mk(k, sub ? a.low - b.low : a.low + b.low); }

static known k_mul(known a, known b) {
  uint8_t k = kmin(a.k + tz(b.low, b.k) > KMAX ? KMAX : (uint8_t)(a.k + tz(b.low, b.k)),
                   b.k + tz(a.low, a.k) > KMAX ? KMAX : (uint8_t)(b.k + tz(a.low, a.k)));
  return mk(k, a.low * b.low);
}

/* x & y: a bit is known where either operand has a known 0, or both are known. */
static known k_and(known a, known b) {
  uint8_t k = 0;
  while (k < KMAX) {
    bool za = k < a.k && !(a.low >> k & 1), zb = k < b.k && !(b.low >> k & 1);
    if (!(za || zb || (k < a.k && k < b.k))) break;
    k++;
  }
  return mk(k, a.low & b.low);
}

/* What x writes to its one register, from what is known of its sources. */
static known result_known(const emu *e, const xinsn *x, const known *kn) {
  const isa_insn *in = x->in;
  const isa_opnd *o = &x->f->ops[in->opi];
  known a = in->nops > 1 ? opnd_known(e, x, &o[1], kn) : unknown(), b = in->nops > 2 ? opnd_known(e, x, &o[2], kn) : unknown();
  if (a.k == UNDEF || b.k == UNDEF) return (known){ UNDEF, 0 };
  bool integer = is_int_type(in->type);
  switch (in->op) {
  case OP_MOV: case OP_CVTA: return in->nops == 2 ? a : unknown();
  case OP_CVT: return integer && is_int_type(in->type2) ? mk(kmin(a.k, (uint8_t)ptx_type_bits((enum ptx_type)in->type)), a.low) : unknown();
  case OP_ADD: case OP_SUB: return integer && !(in->flags & IF_CC) ? k_add(a, b, in->op == OP_SUB) : unknown();
  case OP_AND: return integer ? k_and(a, b) : unknown();
  case OP_OR: return integer ? mk(kmin(a.k, b.k), a.low | b.low) : unknown();
  case OP_XOR: return integer ? mk(kmin(a.k, b.k), a.low ^ b.low) : unknown();
  case OP_SELP: return meet(a, b);
  case OP_SHL:
    if (o[2].kind != OK_IMM || o[2].imm < 0 || o[2].imm >= 64) return unknown();
    return mk(a.k + o[2].imm > KMAX ? KMAX : (uint8_t)(a.k + o[2].imm), a.low << o[2].imm);
  case OP_MUL: return integer && !(in->flags & IF_HI) ? k_mul(a, b) : unknown();
  case OP_MAD: {
    if (!integer || (in->flags & IF_HI) || in->nops < 4) return unknown();
    known c = opnd_known(e, x, &o[3], kn);
    return c.k == UNDEF ? c : k_add(k_mul(a, b), c, false);
  }
  default: return unknown();
  }
}

/* What is known of every register row's value: the meet over all of its
 * definitions (flow-insensitive; a loop's induction variable: what its
 * start and its step give). */
static known *row_knowledge(const emu *e, const deps *dep) {
  known *kn = malloc((e->nrows ? e->nrows : 1) * sizeof *kn);
  uint8_t *defined = calloc(e->nrows ? e->nrows : 1, 1);
  if (!kn || !defined) { free(kn); free(defined); return NULL; }
  for (uint32_t pc = 0; pc < e->nprog; pc++)
    for (uint8_t i = 0; i < dep[pc].ndst; i++) if ((uint32_t)dep[pc].dst[i] < e->nrows) defined[dep[pc].dst[i]] = 1;
  for (uint32_t r = 0; r < e->nrows; r++) kn[r] = defined[r] ? (known){ UNDEF, 0 } : unknown();
  free(defined);
  /* each pass carries what is known along the program; loops take a few
   * more.  A program that has not settled after MAX_PASSES (it would take
   * one pass per bit of every row at worst) is taken as knowing nothing. */
  bool changed = true;
  for (int pass = 0; changed && pass < MAX_PASSES; pass++) {
    changed = false;
    for (uint32_t pc = 0; pc < e->nprog; pc++) {
      const xinsn *x = &e->prog[pc];
      const deps *d = &dep[pc];
      const isa_insn *in = x->in;
      bool one = d->ndst == 1 && in->nops >= 2 && x->f->ops[in->opi].kind == OK_REG && !x->f->ops[in->opi].n &&
                 isa_writes_first(in);
      known v = one ? result_known(e, x, kn) : unknown();
      if (v.k == UNDEF) continue;                         /* its sources are not defined yet */
      for (uint8_t i = 0; i < d->ndst; i++) {
        uint32_t r = (uint32_t)d->dst[i];
        if (r >= e->nrows) continue;
        known m = meet(kn[r], v);
        if (m.k != kn[r].k || m.low != kn[r].low) { kn[r] = m; changed = true; }
      }
    }
  }
  /* a row only ever defined from undefined ones: nothing known */
  for (uint32_t r = 0; r < e->nrows; r++) if (changed || kn[r].k == UNDEF) kn[r] = unknown();
  return kn;
}

/* ---- candidates ------------------------------------------------------------ */

enum { SP_SHARED, SP_GLOBAL, SP_N };

typedef struct cand {
  uint32_t pc;
  bool store;
  uint8_t space, unit, base_al, cache;  /* base_al: log2 of the base's known alignment (4 at most) */
  uint32_t base, ver, epoch;           /* base: a row, or a symbol | 1 << 31 */
  int64_t off;
} cand;

static int space_of(uint16_t sp) {
  if (sp == MOD_SHARED || sp == MOD_SHARED_CTA) return SP_SHARED;
  if (sp == MOD_GLOBAL) return SP_GLOBAL;
  return -1;
}

static bool plain(const isa_insn *in) { return !(in->flags & IF_VOLATILE) && (!in->sem || in->sem == MOD_WEAK); }

static int cand_order(const void *a, const void *b) {
  const cand *x = a, *y = b;
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
  CMP(store); CMP(space); CMP(base); CMP(ver); CMP(epoch); CMP(unit); CMP(cache); CMP(off); CMP(pc);
#undef CMP
  return 0;
}

static bool same_group_key(const cand *x, const cand *y) {
  return x->store == y->store && x->space == y->space && x->base == y->base && x->ver == y->ver && x->epoch == y->epoch &&
         x->unit == y->unit && x->cache == y->cache;
}

static bool row_written(const deps *dep, uint32_t lo, uint32_t hi, int32_t row) {
  for (uint32_t i = lo; i < hi; i++)
    for (uint8_t k = 0; k < dep[i].ndst; k++) if (dep[i].dst[k] == row) return true;
  return false;
}

/* Mark c[0..n) (one key, one aligned block of `bytes` at block_off) as one
 * access; false when ptxas could not merge them. */
static bool make_group(deps *dep, const cand *c, uint32_t n, uint32_t bytes, int64_t block_off) {
  if (n < 2) return false;
  uint32_t lead = 0;
  for (uint32_t i = 1; i < n; i++)
    if (c[0].store ? c[i].pc > c[lead].pc : c[i].pc < c[lead].pc) lead = i;
  deps *L = &dep[c[lead].pc];
  if (c[0].store) {
    /* the last store writes everything: it waits for the others' data */
    int32_t extra[MAX_DEPS];
    uint8_t ne = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (i == lead) continue;
      const deps *f = &dep[c[i].pc];
      for (uint8_t k = 0; k < f->nsrc; k++) {
        bool have = false;
        for (uint8_t j = 0; j < L->nsrc && !have; j++) have = L->src[j] == f->src[k];
        for (uint8_t j = 0; j < ne && !have; j++) have = extra[j] == f->src[k];
        if (have) continue;
        if (L->nsrc + ne + 1 >= MAX_DEPS) return false;
        extra[ne++] = f->src[k];
      }
    }
    memcpy(L->src + L->nsrc, extra, ne * sizeof *extra);
    L->nsrc = (uint8_t)(L->nsrc + ne);
  } else {
    /* the others take the first load's result: it must still be there */
    if (!L->ndst) return false;
    for (uint32_t i = 0; i < n; i++)
      if (i != lead && row_written(dep, c[lead].pc + 1, c[i].pc, L->dst[0])) return false;
  }
  L->fuse_bytes = (uint8_t)bytes;
  L->fuse_pos = (uint8_t)(c[lead].off - block_off);
  for (uint32_t i = 0; i < n; i++) {
    if (i == lead) continue;
    deps *f = &dep[c[i].pc];
    f->fused = true;
    f->free = true;
    f->queued = false;
    f->lat = 0;
    f->bank_extra = 0;
    f->result_why = L->result_why;
    f->fuse_row = -1;
    if (!c[0].store) {
      f->fuse_row = L->dst[0];
      f->src[f->nsrc++] = L->dst[0];      /* the issue order keeps it after the first */
    }
  }
  return true;
}

/* The groups among one key's candidates c[0..n), sorted by offset. */
static void group_key(deps *dep, const cand *c, uint32_t n, uint32_t max_bytes) {
  uint32_t u = c[0].unit;
  bool overfetch = !c[0].store && c[0].space == SP_SHARED;
  for (uint32_t i = 0; i < n;) {
    /* the members in c[i]'s aligned block of max_bytes (or 8) */
    uint32_t big = max_bytes >= 16 && c[0].base_al >= 4 ? 16 : c[0].base_al >= 3 && max_bytes >= 8 ? 8 : 0;
    if (!big || u >= big) { i++; continue; }
    int64_t b0 = c[i].off & ~(int64_t)(big - 1);
    uint32_t j = i;
    bool dup = false;
    while (j < n && c[j].off < b0 + big) { if (j > i && c[j].off == c[j - 1].off) dup = true; j++; }
    if (dup) { i = j; continue; }
    uint32_t m = j - i;
    bool whole = m * u == big;
    int64_t h0 = c[i].off & ~7;
    bool half = big == 16 && c[j - 1].off + u <= h0 + 8;     /* all in one aligned 8 bytes */
    if (half && u == 4) {
      if ((m == 2 || overfetch) && make_group(dep, c + i, m, 8, h0)) { i = j; continue; }
    } else if (whole || (overfetch && big == 16)) {
      if (make_group(dep, c + i, m, big, b0)) { i = j; continue; }
    } else if (big == 16 && u == 4) {
      /* stores (and global loads): each half written whole */
      for (uint32_t k = i; k + 1 < j; k++)
        if ((c[k].off & 7) == 0 && c[k + 1].off == c[k].off + 4 && make_group(dep, c + k, 2, 8, c[k].off)) k++;
    }
    i = j;
  }
}

static void flush(deps *dep, cand *c, uint32_t n, uint32_t max_bytes) {
  if (n < 2) return;
  qsort(c, n, sizeof *c, cand_order);
  for (uint32_t i = 0; i < n;) {
    uint32_t j = i + 1;
    while (j < n && same_group_key(&c[i], &c[j])) j++;
    if (j - i > 1) group_key(dep, c + i, j - i, max_bytes);
    i = j;
  }
}

/* A candidate access: a weak unguarded scalar (or v2) ld or st of 4- or
 * 8-byte units to shared or global memory through a register or a
 * symbol; false for anything else. */
static bool as_cand(const emu *e, const xinsn *x, const deps *d, const known *kn, const uint32_t *ver, cand *c) {
  const isa_insn *in = x->in;
  if ((in->op != OP_LD && in->op != OP_ST) || x->guard >= 0 || !plain(in) || (in->flags & IF_CACHE_HINT)) return false;
  int sp = space_of(in->space);
  int bits = ptx_type_bits((enum ptx_type)in->type);
  uint32_t unit = bits > 0 ? (uint32_t)bits / 8 * (in->vec ? in->vec : 1) : 0;
  /* (room for the source a load merged into another takes: make_group) */
  if (sp < 0 || (unit != 4 && unit != 8) || in->nops != 2 || d->nsrc >= MAX_DEPS - 1) return false;
  const isa_opnd *a = &x->f->ops[in->opi + (in->op == OP_ST ? 0 : 1)];
  /* (offsets beyond 2^40 merge with nothing; the sums below stay in range) */
  if (a->kind != OK_ADDR || a->imm > (1ll << 40) || a->imm < -(1ll << 40)) return false;
  memset(c, 0, sizeof *c);
  known b;
  if (a->flags & OF_BASEREG) {
    uint32_t row = (uint32_t)emu_reg_row(e, x, a->v);
    if (row >= e->nrows) return false;
    c->base = row;
    c->ver = ver[row];
    b = kn[row];
  } else if (sym_of(e, x, a)) {
    c->base = (a->v & 0x3fffffffu) | 1u << 31 | ((a->flags & OF_FUNCSYM) ? 1u << 30 : 0);
    b = sym_base(e, x, a);
  } else return false;
  /* the offset from the base's last aligned boundary: the base's known
   * low bits are part of it */
  c->base_al = kmin(b.k, 4);
  c->off = a->imm + (int64_t)(b.low & lowmask(c->base_al));
  c->pc = x->pc;
  c->store = in->op == OP_ST;
  c->space = (uint8_t)sp;
  c->unit = (uint8_t)unit;
  c->cache = (uint8_t)in->cache;
  return (c->off & (unit - 1)) == 0;
}

/* What x does to the groups being collected: 2 ends them all, else the
 * spaces (bit SP_*) whose loads (*ld) and stores (*st) it separates. */
static int separates(const xinsn *x, const deps *d, uint8_t *ld, uint8_t *st) {
  const isa_insn *in = x->in;
  *ld = *st = 0;
  if (!emu_reorder_movable(x, d)) return 2;
  int fam = isa_ops[in->op].family;
  if (fam == F_MMA) {
    if (in->op == OP_MMA || in->op == OP_MMA_SP || in->op == OP_WMMA_MMA) return 0;
    return 2;                                            /* a matrix load or store */
  }
  if (fam != F_MEM) return 0;
  int sp = space_of(in->space);
  uint8_t bits = sp >= 0 ? (uint8_t)(1u << sp) : in->space ? 0 : (uint8_t)((1u << SP_N) - 1);   /* generic: both */
  if (in->op == OP_ST) { *ld = bits; *st = bits; }
  else *st = bits;
  return 1;
}

void timing_mark_fused(const emu *e, const gpu_config *g, deps *dep, const uint8_t *leader) {
  if (g->fuse_bytes < 8 || !e->nprog) return;
  known *kn = row_knowledge(e, dep);
  uint32_t *ver = calloc(e->nrows ? e->nrows : 1, sizeof *ver);
  cand *c = malloc(256 * sizeof *c);
  if (!kn || !ver || !c) goto out;
  uint32_t n = 0, epoch_ld[SP_N] = {0}, epoch_st[SP_N] = {0};
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    const xinsn *x = &e->prog[pc];
    deps *d = &dep[pc];
    cand k;
    bool is_cand = as_cand(e, x, d, kn, ver, &k);
    uint8_t ld = 0, st = 0;
    int sep = is_cand ? 0 : separates(x, d, &ld, &st);
    if (leader[pc] || sep == 2 || n == 256) { flush(dep, c, n, g->fuse_bytes); n = 0; }
    if (is_cand) {
      /* a store ends the loads' groups of its space, and another base's
       * stores' (they may alias); a load ends the stores' */
      if (k.store) {
        epoch_ld[k.space]++;
        for (uint32_t i = n; i-- > 0;)
          if (c[i].store && c[i].space == k.space) { if (c[i].base != k.base || c[i].ver != k.ver) epoch_st[k.space]++; break; }
      } else epoch_st[k.space]++;
      k.epoch = k.store ? epoch_st[k.space] : epoch_ld[k.space];
      c[n++] = k;
    }
    for (int s = 0; s < SP_N; s++) { if (ld >> s & 1) epoch_ld[s]++; if (st >> s & 1) epoch_st[s]++; }
    for (uint8_t i = 0; i < d->ndst; i++) if ((uint32_t)d->dst[i] < e->nrows) ver[d->dst[i]]++;
  }
  flush(dep, c, n, g->fuse_bytes);
out:
  free(kn); free(ver); free(c);
}
