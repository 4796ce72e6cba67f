/* emu/exec_mem.c - loads, stores, atomics and addresses: ld, ldu, st, atom,
 * red, cvta, isspacep, mov of a symbol's address, prefetch and cache hints.
 * Every access is translated per lane with bounds and alignment checks; a
 * warp whose lanes all fall in one region takes a single check. */
#include <math.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/parallel.h"
#include "emu/fp.h"
#include "gpu/config.h"
#include "memmodel/space.h"

/* ---- addresses ------------------------------------------------------------- */

static bool is_kernel_param(const emu *e, const xinsn *x, uint32_t sym) {
  return x->f == &e->m->funcs[e->launch.func] && sym >= x->f->nrets && sym < x->f->nrets + x->f->nparams &&
         x->f->syms[sym].space == PTX_SPACE_PARAM;
}

/* Address of a symbol in its own state space. */
static uint64_t sym_address(warp *w, const xinsn *x, const isa_opnd *o, int lane, uint8_t *space) {
  emu *e = w->e;
  if ((o->flags & (OF_MODSYM | OF_FUNCSYM)) == (OF_MODSYM | OF_FUNCSYM)) { *space = PTX_SPACE_GLOBAL; return e->func_addr[o->v]; }
  if (o->flags & OF_MODSYM) {
    const isa_sym *s = &e->m->syms[o->v];
    if (s->space == PTX_SPACE_SHARED) { *space = PTX_SPACE_SHARED; return e->shared_sym_off[o->v]; }
    *space = s->space == PTX_SPACE_CONST ? PTX_SPACE_CONST : PTX_SPACE_GLOBAL;
    return e->sym_addr[o->v];
  }
  if (is_kernel_param(e, x, o->v)) { *space = PTX_SPACE_PARAM; return e->param_addr + x->f->syms[o->v].offset; }
  *space = PTX_SPACE_LOCAL;
  return emu_fsym_local(w, lane, x, o->v);
}

/* Per-lane addresses of a memory operand; *symspace gets the space a symbol
 * base lives in (PTX_SPACE_NONE for register or absolute bases). */
void emu_lane_addrs(warp *w, const xinsn *x, const isa_opnd *o, lanemask m, uint64_t *a, uint8_t *symspace) {
  *symspace = PTX_SPACE_NONE;
  if (o->kind == OK_ADDRX) o = &x->f->pool[o->v];
  if (o->kind != OK_ADDR && o->kind != OK_SYM) { FOR_LANES(i) a[i] = (uint64_t)o->imm; return; }   /* its flags name nothing */
  if (o->flags & OF_BASEREG) {
    /* inactive lanes take the first active lane's address, so later passes
     * over all 32 lanes need no mask tests (and vectorise) */
    const uint64_t *r = w->r[emu_reg_row(w->e, x, o->v)];
    uint64_t first = r[__builtin_ctz(m | 0x80000000u)], imm = (uint64_t)o->imm;
    /* an address is as wide as its register (PTX ISA, "Addresses as
     * Operands"): [%r+imm] with a 32-bit %r wraps modulo 2^32, as the GPU's
     * 32-bit address arithmetic does (%r = 0xffffffc0, [%r+64] is 0) */
    uint64_t wrap = ptx_type_bits((enum ptx_type)x->f->regtype[o->v]) <= 32 ? 0xffffffffull : ~0ull;
    if (m == FULL_MASK) { FOR_LANES(i) a[i] = (r[i] + imm) & wrap; return; }
    FOR_LANES(i) { uint64_t v = r[i]; a[i] = ((m >> i & 1 ? v : first) + imm) & wrap; }   /* a select: no branch */
    return;
  }
  if (o->flags & (OF_MODSYM | OF_FUNCSYM)) {
    int lead = __builtin_ctz(m | 0x80000000u);
    uint64_t first = sym_address(w, x, o, lead, symspace) + (uint64_t)o->imm;
    if (*symspace != PTX_SPACE_LOCAL) { FOR_LANES(i) a[i] = first; return; }    /* the same for every thread */
    FOR_LANES(i) a[i] = (m >> i & 1) && i != lead ? sym_address(w, x, o, i, symspace) + (uint64_t)o->imm : first;
    return;
  }
  FOR_LANES(i) a[i] = (uint64_t)o->imm;
}

/* Resolve which space each access goes to and return host pointers; false
 * after a fault. */
bool emu_translate(warp *w, const xinsn *x, uint16_t space_mod, uint8_t symspace, uint64_t *a, lanemask m,
                      uint32_t size, uint8_t **p, uint8_t *kind) {
  emu *e = w->e;
  enum mm_space sp;
  switch (space_mod) {
  case MOD_GLOBAL: sp = MM_GLOBAL; break;
  case MOD_SHARED: case MOD_SHARED_CTA: case MOD_SHARED_CLUSTER: sp = MM_SHARED; break;
  case MOD_LOCAL: sp = MM_LOCAL; break;
  case MOD_CONST: sp = MM_GLOBAL; break;
  case MOD_PARAM: case MOD_PARAM_ENTRY: case MOD_PARAM_FUNC:
    sp = symspace == PTX_SPACE_LOCAL ? MM_LOCAL : MM_GLOBAL;
    if (symspace == PTX_SPACE_NONE && x->f != &e->m->funcs[e->launch.func]) sp = MM_LOCAL;
    break;
  default: sp = MM_NONE; break;           /* generic */
  }
  if (sp == MM_NONE && symspace != PTX_SPACE_NONE) {
    /* generic access through a symbol: the symbol's own space */
    sp = symspace == PTX_SPACE_SHARED ? MM_SHARED : symspace == PTX_SPACE_LOCAL ? MM_LOCAL : MM_GLOBAL;
    symspace = PTX_SPACE_NONE;
  }
  /* a 32-bit .const or kernel .param address (mov.u32 %r, var) is an offset
   * in its window: module variables are placed first from GLOBAL_BASE and a
   * launch's parameters in one block, so the offsets lack only bits 63..32 */
  if (sp == MM_GLOBAL && space_mod != MOD_GLOBAL && space_mod != 0) {
    uint64_t hi = space_mod == MOD_CONST ? GLOBAL_BASE : e->param_addr & ~0xffffffffull;
    FOR_LANES(i) if (!(a[i] >> 32)) a[i] |= hi;
  }
  /* One pass: shared and local addresses are 32 bits wide (a wider register
   * is truncated: PTX ISA, "Addresses as Operands", as the GPU's LDS/LDL
   * do); inactive lanes take the first active lane's address, so every lane
   * below holds a checked address and later loops need no mask tests. */
  uint64_t trunc = sp == MM_SHARED || sp == MM_LOCAL ? 0xffffffffull : ~0ull;
  uint64_t first = a[__builtin_ctz(m | 0x80000000u)] & trunc;
  uint64_t anyaddr = 0, lo = UINT64_MAX, hi = 0;
  FOR_LANES(i) {
    uint64_t v = a[i] & trunc;
    v = m >> i & 1 ? v : first;
    a[i] = v;
    anyaddr |= v;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  if (anyaddr & (size - 1)) {
    FOR_LANES(i) if ((m >> i & 1) && (a[i] & (size - 1))) {
      emu_fault_at(w, x, i, FAULT_MISALIGNED, "%u-byte access at 0x%llx is not %u-byte aligned", size, (unsigned long long)a[i], size);
      return false;
    }
  }
  /* fast path: every lane inside one region of one space takes one check */
  enum mm_space usp = sp;
  uint64_t off = 0;
  if (usp == MM_NONE) {
    usp = mm_classify(lo);
    if (mm_classify(hi) != usp) usp = MM_NONE;
    off = usp == MM_SHARED ? GEN_SHARED_BASE : usp == MM_LOCAL ? GEN_LOCAL_BASE : 0;
  }
  if (hi - lo < (1u << 30) && (usp == MM_GLOBAL || (usp == MM_SHARED && ((hi - off) >> CLUSTER_RANK_SHIFT) == 0))) {
    uint8_t *base = usp == MM_GLOBAL ? mm_global_ptr(e, lo, (uint32_t)(hi - lo) + size)
                                     : mm_shared_ptr(w->cta, lo - off, (uint32_t)(hi - lo) + size);
    if (base) {
      FOR_LANES(i) p[i] = base + (a[i] - lo);
      memset(kind, usp, WARP_SIZE);
      return !e->par || usp != MM_GLOBAL || emu_par_access(w, x, a, m, size, kind);   /* a parallel launch's conflict check */
    }
  }
  FOR_LANES(i) {
    if (!(m >> i & 1)) continue;
    uint64_t ad = a[i];
    enum mm_space s = sp;
    if (s == MM_NONE) {
      s = mm_classify(ad);
      if (s == MM_SHARED) ad -= GEN_SHARED_BASE;
      else if (s == MM_LOCAL) ad -= GEN_LOCAL_BASE;
    }
    uint8_t *hp = s == MM_GLOBAL ? mm_global_ptr(e, ad, size)
                : s == MM_SHARED ? mm_shared_ptr(w->cta, ad, size)
                : mm_local_ptr(w, i, ad, size);
    if (!hp) {
      static const char *const names[] = { "global", "shared", "local" };
      emu_fault_at(w, x, i, FAULT_OOB, "invalid %s access of %u bytes at address 0x%llx", names[s], size, (unsigned long long)a[i]);
      w->e->fault.addr = a[i];
      w->e->fault.size = size;
      return false;
    }
    p[i] = hp;
    kind[i] = (uint8_t)s;
  }
  int lead = __builtin_ctz(m | 0x80000000u);
  FOR_LANES(i) if (!(m >> i & 1)) { p[i] = p[lead]; kind[i] = kind[lead]; }
  return !e->par || emu_par_access(w, x, a, m, size, kind);
}

bool emu_load_cached_in_l1(const emu *e, const xinsn *x) {
  const isa_insn *in = x->in;
  if (!e->timing_cfg || !e->timing_cfg->l1_caches_global || in->op != OP_LD) return false;
  bool strong = in->sem == MOD_VOLATILE || ((in->sem == MOD_RELAXED || in->sem == MOD_ACQUIRE) && in->scope != MOD_CTA);
  if (in->cache == MOD_CG || in->cache == MOD_CV || strong) return false;
  return in->cache != MOD_NC || !e->timing_cfg->readonly_cache_bytes;
}

/* The counters of an access that lands in global memory (sectors, lines:
 * mm_sectors's figures; a: the addresses, which an observer reads, NULL
 * where there is none) */
static inline __attribute__((always_inline)) void add_global(warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, bool atomic, bool store, uint32_t sectors, uint32_t lines) {
  emu_stats *st = &w->e->stats;
  if (atomic) { st->atom_requests++; st->atom_sectors += sectors; }
  else if (store) { st->gst_requests++; st->gst_sectors += sectors; st->gst_lines += lines; }
  else { st->gld_requests++; st->gld_sectors += sectors; st->gld_lines += lines; }
  if (emu_obs_mem(w->e->obs)) w->e->obs->on_mem(w->e->obs->ctx, w, x, a, m, size, sectors, lines, 0);
}

static void count_global(warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, bool atomic, bool store) {
  struct emu_sector_memo *k = &w->e->sector_memo;
  if (!pattern_memo_same(&k->p, a, m, size, 128)) mm_sectors(a, m, size, &k->sectors, &k->lines);
  add_global(w, x, a, m, size, atomic, store, k->sectors, k->lines);
}

/* Whether shared memory has plain 4-byte banks (functional runs, and every
 * timed GPU but Kepler with its 8-byte banks). */
static bool word_banks(const gpu_config *g) {
  return !g || (g->shared_bank_bytes == 4 && (!g->shared_bank_mode || g->shared_bank_mode >= 4));
}

/* The wavefronts of a shared access, and those it would take without bank
 * conflicts: the timed GPU's banks and bank mode (Kepler's 8-byte banks in
 * 4- or 8-byte mode); 4-byte banks otherwise. */
static uint32_t shared_wavefronts(const emu *e, const uint64_t *off, lanemask m, uint32_t size, uint32_t *ideal) {
  const gpu_config *g = e->timing_cfg;
  return word_banks(g) ? mm_shared_wavefronts(off, m, size, ideal)
                       : mm_shared_wavefronts_mode(off, m, size, g->shared_bank_bytes, g->shared_bank_mode, ideal);
}

/* ... and in shared memory (wf, ideal: shared_wavefronts's figures; off:
 * the offsets in the CTA's shared memory, which atomics and an observer
 * read, NULL where neither can; obs_wf: the wavefronts an observer is
 * told, the PTX instruction's own, where the counters take a merged
 * access's in timing mode) */
static inline __attribute__((always_inline)) void add_shared_as(warp *w, const xinsn *x, const uint64_t *off, lanemask m, uint32_t size, bool atomic, bool store, uint32_t wf, uint32_t ideal, uint32_t obs_wf) {
  emu_stats *st = &w->e->stats;
  if (atomic) { st->shared_atom_requests++; st->shared_atom_rounds += wf; }
  else if (store) { st->shared_st_requests++; st->shared_st_wavefronts += wf; st->shared_st_bank_conflicts += wf - ideal; }
  else { st->shared_ld_requests++; st->shared_ld_wavefronts += wf; st->shared_ld_bank_conflicts += wf - ideal; }
  if (emu_obs_mem(w->e->obs)) w->e->obs->on_mem(w->e->obs->ctx, w, x, off, m, size, 0, 0, obs_wf);
}

static inline __attribute__((always_inline)) void add_shared(warp *w, const xinsn *x, const uint64_t *off, lanemask m, uint32_t size, bool atomic, bool store, uint32_t wf, uint32_t ideal) {
  add_shared_as(w, x, off, m, size, atomic, store, wf, ideal, wf);
}

static void count_shared(warp *w, const xinsn *x, const uint64_t *off, lanemask m, uint32_t size, bool atomic, bool store) {
  if (atomic && size == 4 && word_banks(w->e->timing_cfg)) {
    uint32_t wf;
    int64_t rounds = mm_shared_atomic4(off, m, &wf);
    if (rounds >= 0) { add_shared(w, x, off, m, size, true, store, (uint32_t)rounds, 1); return; }
  }
  struct emu_shared_wf *k = &w->e->shared_wf;
  uint32_t ideal, wf, own;
  if (k->valid) {                       /* (timing_mem's, for this access: a merged one's, or none) */
    wf = k->wf; ideal = k->ideal;
    own = emu_obs_mem(w->e->obs) ? shared_wavefronts(w->e, off, m, size, &(uint32_t){ 0 }) : wf;
  } else own = wf = shared_wavefronts(w->e, off, m, size, &ideal);
  k->valid = false;
  if (atomic) own = wf = mm_shared_atomic_rounds(off, m, wf);
  add_shared_as(w, x, off, m, size, atomic, store, wf, ideal, own);
}

void emu_count_access(warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, const uint8_t *kind, bool store) {
  int lead = __builtin_ctz(m);
  uint16_t sp = x->in->space;
  if (w->e->timing) timing_mem(w->e, w, x, a, m, size, kind[lead], store);
  if (!w->e->opt.counters && !emu_obs_mem(w->e->obs)) return;     /* nobody asked for the counters */
  /* the profiler's global counters see ld/st.global and generic accesses
   * that land in global memory, not parameter or constant reads */
  if (sp == MOD_PARAM || sp == MOD_PARAM_ENTRY || sp == MOD_PARAM_FUNC || sp == MOD_CONST || sp == MOD_LOCAL) return;
  /* atomics have counters of their own, as in the profiler */
  bool atomic = x->in->op == OP_ATOM || x->in->op == OP_RED;
  if (kind[lead] == MM_GLOBAL) count_global(w, x, a, m, size, atomic, store);
  else if (kind[lead] == MM_SHARED) {
    uint64_t off[WARP_SIZE];
    FOR_LANES(i) off[i] = a[i] >= GEN_SHARED_BASE ? a[i] - GEN_SHARED_BASE : a[i];
    count_shared(w, x, off, m, size, atomic, store);
  }
}

/* ---- ld / st -------------------------------------------------------------- */

static uint32_t elem_bytes(const isa_insn *in) {
  int b = ptx_type_bits((enum ptx_type)in->type);
  return b <= 8 ? 1 : (uint32_t)b / 8;
}

/* Register rows of a value operand: a register or a vector of them (-1 = sink). */
static int value_rows(warp *w, const xinsn *x, int k, int *rows, uint8_t *bits, uint64_t *imms) {
  const isa_opnd *o = x->op[k].o;
  if (o->kind == OK_VEC) {
    for (uint32_t j = 0; j < o->n; j++) {
      const isa_opnd *el = &x->f->pool[o->v + j];
      rows[j] = el->kind == OK_IMM ? -2 : emu_row_of(w->e, x, el);
      imms[j] = (uint64_t)el->imm;
      bits[j] = el->kind == OK_REG ? (uint8_t)ptx_type_bits((enum ptx_type)x->f->regtype[el->v]) : 64;
    }
    return (int)o->n;
  }
  if (o->kind == OK_IMM) { rows[0] = -2; imms[0] = (uint64_t)o->imm; bits[0] = 64; return 1; }
  rows[0] = emu_row_of(w->e, x, o);
  bits[0] = x->op[k].bits ? x->op[k].bits : 64;
  return 1;
}

static bool signed_type(int t) { return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64; }

static void h_ld(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  uint32_t eb = elem_bytes(in), n;
  int rows[16]; uint8_t bits[16]; uint64_t imms[16];
  n = (uint32_t)value_rows(w, x, 0, rows, bits, imms);
  uint32_t size = eb * n;
  uint64_t a[WARP_SIZE];
  uint8_t *p[WARP_SIZE], kind[WARP_SIZE], symspace;
  emu_lane_addrs(w, x, x->op[1].o, g, a, &symspace);
  if (!emu_translate(w, x, in->space, symspace, a, g, size, p, kind)) return;
  emu_count_access(w, x, a, g, size, kind, false);
  bool sx = signed_type(in->type);
  for (uint32_t j = 0; j < n; j++) {
    if (rows[j] < 0) continue;
    uint64_t *d = w->r[rows[j]];
    unsigned db = bits[j];
    uint64_t dmask = db >= 64 ? ~0ull : (1ull << db) - 1;
    uint32_t o = j * eb;
    /* one loop per width, so each compiles to plain loads; emu_translate
     * points inactive lanes at an active lane's data, so every lane loads
     * and a select keeps the inactive lanes' registers */
    switch (sx ? 0 : eb) {
    case 4: FOR_LANES(i) { uint32_t v; memcpy(&v, p[i] + o, 4); d[i] = g >> i & 1 ? v & dmask : d[i]; } break;
    case 8: FOR_LANES(i) { uint64_t v; memcpy(&v, p[i] + o, 8); d[i] = g >> i & 1 ? v & dmask : d[i]; } break;
    case 2: FOR_LANES(i) if (g >> i & 1) { uint16_t v; memcpy(&v, p[i] + o, 2); d[i] = v & dmask; } break;
    case 1: FOR_LANES(i) if (g >> i & 1) d[i] = p[i][o] & dmask; break;
    default:
      FOR_LANES(i) {
        if (!(g >> i & 1)) continue;
        uint64_t v = 0;
        memcpy(&v, p[i] + o, eb > 8 ? 8 : eb);
        if (sx && eb < 8) v = (uint64_t)sext(v, eb * 8);
        d[i] = v & dmask;
      }
    }
  }
}

static void h_st(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  uint32_t eb = elem_bytes(in), n;
  int rows[16]; uint8_t bits[16]; uint64_t imms[16];
  n = (uint32_t)value_rows(w, x, 1, rows, bits, imms);
  uint32_t size = eb * n;
  uint64_t a[WARP_SIZE];
  uint8_t *p[WARP_SIZE], kind[WARP_SIZE], symspace;
  emu_lane_addrs(w, x, x->op[0].o, g, a, &symspace);
  if (!emu_translate(w, x, in->space, symspace, a, g, size, p, kind)) return;
  emu_count_access(w, x, a, g, size, kind, true);
  if (w->e->opt.strict_async) FOR_LANES(i) if ((g >> i & 1) && kind[i] == MM_SHARED) emu_proxy_generic_ptr(w, x, i, p[i], size);
  /* lanes store in order, so the highest lane wins when addresses collide */
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    for (uint32_t j = 0; j < n; j++) {
      uint64_t v = rows[j] >= 0 ? w->r[rows[j]][i] : imms[j];
      memcpy(p[i] + j * eb, &v, eb > 8 ? 8 : eb);
    }
  }
}

/* ---- ld / st, the common case ---------------------------------------------- */

/* ld or st of one register of 4 or 8 bytes at [%r+imm] in .shared or
 * .global is most of what compiled kernels access memory with.  prep_fast
 * puts what it needs in the spare operand slot FAST_SLOT; the handlers
 * check the span of the warp's addresses against one region at once, then
 * access memory recomputing each lane's address (cheaper than keeping
 * per-lane pointers).  Anything else (misaligned lanes, lanes outside one
 * region, an access that faults) goes the general way, which does it all
 * again and reports it. */
enum { FAST_SLOT = 4, FAST_SHARED = 1, FAST_GLOBAL = 2 };
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* Address of lane i: shared addresses are 32 bits wide, global ones as
 * wide as the register (wrap). */
#define FAST_ADDR(r, i, imm, wrap) (((r)[i] + (imm)) & (wrap))

/* Whether warp w came straight to x from the access `at` names, through
 * the same register, unwritten since (emu_link_accesses); and naming x. */
static inline bool came_from(const warp *w, const xinsn *x, const struct emu_access_at *at) {
  return x->same_addr_as == at->pc + 1 && at->w == w && at->base == w->insts - x->pc && at->linear == w->cta->linear;
}
static inline void name_at(const warp *w, const xinsn *x, struct emu_access_at *at) {
  *at = (struct emu_access_at){ w, w->cta->linear, x->pc, w->insts - x->pc };
}

/* The host address *base of address *lo, where every active lane's access
 * lies in one region; false where the general path must decide.  The AND
 * and OR of the addresses bound them and take vector instructions; the
 * exact least and greatest are looked for only when those bounds fail. */
static __attribute__((noinline)) bool fast_span_all(warp *w, const xinsn *x, lanemask g, uint32_t size, uint8_t **base, uint64_t *lo, uint64_t *hi) {
  const xop *f = &x->op[FAST_SLOT];
  const uint64_t *r = w->r[f->row];
  uint64_t imm = (uint64_t)f->imm;
  uint64_t wrap = f->comp == FAST_SHARED || f->bits <= 32 ? 0xffffffffull : ~0ull, all, any;
  if (g == FULL_MASK && f->comp == FAST_SHARED) {
    /* shared memory starts at offset 0: only the upper bound matters; the
     * OR of the register's low 32 bits is kept for the accesses after it
     * (fast_span) */
    u64x2 vo = { 0, 0 }, vr = { 0, 0 }, vi = { imm, imm }, vw = { wrap, wrap };
    UNROLL_LANES
    for (int i = 0; i < WARP_SIZE; i += 2) { u64x2 v; memcpy(&v, r + i, sizeof v); vr |= v; vo |= (v + vi) & vw; }
    struct emu_span_memo *sm = &w->e->span_memo[f->row & 3];
    name_at(w, x, &sm->at);
    sm->any = sm->bound = (uint32_t)(vr[0] | vr[1]);
    all = 0;
    any = vo[0] | vo[1];
  } else if (g == FULL_MASK) {
    /* written with vectors: the compiler leaves reductions scalar at -O2 */
    u64x2 va = { ~0ull, ~0ull }, vo = { 0, 0 }, vi = { imm, imm }, vw = { wrap, wrap };
    UNROLL_LANES
    for (int i = 0; i < WARP_SIZE; i += 2) { u64x2 v; memcpy(&v, r + i, sizeof v); v = (v + vi) & vw; va &= v; vo |= v; }
    all = va[0] & va[1];
    any = vo[0] | vo[1];
  } else {
    all = ~0ull; any = 0;
    FOR_LANES(i) { uint64_t on = 0 - (uint64_t)(g >> i & 1), v = FAST_ADDR(r, i, imm, wrap); all &= v | ~on; any |= v & on; }
  }
  if (any & (size - 1)) return false;
  uint64_t l = all, h = any;
  for (int exact = 0; exact < 2; exact++) {
    if (exact && g == FULL_MASK && f->comp == FAST_SHARED) {   /* the greatest offset alone (a padded tile's column) */
      /* the register's greatest low 32 bits: without wrapping, plus the
       * displacement it is the greatest offset, and the bound the next
       * access through the register starts from */
      uint32_t top = 0;
      FOR_LANES(i) { uint32_t v = (uint32_t)r[i]; top = v > top ? v : top; }
      if ((uint64_t)top + (uint32_t)imm <= UINT32_MAX) { h = (uint64_t)top + (uint32_t)imm; w->e->span_memo[f->row & 3].bound = top; }
      else { h = 0; FOR_LANES(i) { uint64_t v = FAST_ADDR(r, i, imm, wrap); h = v > h ? v : h; } }
    } else if (exact) {      /* the bounds were too loose: the exact ones */
      l = UINT64_MAX; h = 0;
      FOR_LANES(i) if (g >> i & 1) { uint64_t v = FAST_ADDR(r, i, imm, wrap); l = v < l ? v : l; h = v > h ? v : h; }
    }
    if (f->comp == FAST_SHARED) {
      const cta *c = w->cta;
      if ((h >> CLUSTER_RANK_SHIFT) || h >= c->shared_size || size > c->shared_size - h) continue;
      *base = c->shared; *lo = 0; *hi = h;
      return true;
    }
    if (h - l >= (1u << 30)) continue;
    *base = mm_global_ptr(w->e, l, (uint32_t)(h - l) + size);
    *lo = l;
    *hi = h;
    if (*base) return true;
  }
  return false;
}

/* fast_span, first for a whole warp's shared access that came straight
 * from one through the same register (unwritten since, a whole warp too:
 * xinsn.same_addr_as): that one's bound on the lanes' offsets plus this
 * displacement, where no lane wraps and every lane is aligned (a tile's
 * unrolled loads [%r], [%r+4], ...) */
static inline bool fast_span(warp *w, const xinsn *x, lanemask g, uint32_t size, uint8_t **base, uint64_t *lo, uint64_t *hi) {
  const xop *f = &x->op[FAST_SLOT];
  if (g == FULL_MASK && f->comp == FAST_SHARED && x->same_addr_as) {
    struct emu_span_memo *sm = &w->e->span_memo[f->row & 3];
    uint32_t im = (uint32_t)f->imm;
    uint64_t h = (uint64_t)sm->bound + im;
    const cta *c = w->cta;
    if (came_from(w, x, &sm->at) && !((sm->any | im) & (size - 1)) && h <= UINT32_MAX && !(h >> CLUSTER_RANK_SHIFT) && h < c->shared_size &&
        size <= c->shared_size - h) {
      sm->at.pc = x->pc;
      *base = c->shared; *lo = 0; *hi = h;
      return true;
    }
  }
  return fast_span_all(w, x, g, size, base, lo, hi);
}

/* A parallel launch checks every global access for dependencies between
 * blocks (emu/parallel.c), as emu_translate does on the general path:
 * false when the launch stops there. */
static inline bool fast_par_ok(warp *w, const xinsn *x, lanemask g, uint32_t size, uint64_t lo, uint64_t hi) {
  const xop *f = &x->op[FAST_SLOT];
  if (!w->e->par || f->comp == FAST_SHARED) return true;
  /* a load from memory no block has written: nothing to record */
  if (x->in->op == OP_LD && emu_par_read_unshadowed(w, lo, hi + size)) return true;
  uint64_t imm = (uint64_t)f->imm, wrap = f->bits <= 32 ? 0xffffffffull : ~0ull;
  const uint64_t *r = w->r[f->row];
  /* fast_span's bounds [lo, hi] may be looser than the lanes' (the AND and
   * OR of their addresses); they are exact when lanes hold them, as the
   * first and last lane of an ascending access do */
  bool exact = g == FULL_MASK && FAST_ADDR(r, 0, imm, wrap) == lo && FAST_ADDR(r, WARP_SIZE - 1, imm, wrap) == hi;
  /* fast_span put every lane's bytes in one allocation */
  if (exact && hi - lo <= 256 - size) return emu_par_span(w, x, lo, hi + size);
  if (g == FULL_MASK && x->in->op != OP_ATOM && x->in->op != OP_RED) {
    /* a warp over two rows of a tile: each half-warp ascending, its bytes
     * close together (bounded as above, exact by the same test) */
    enum { H = WARP_SIZE / 2 };
    u64x2 va[2] = { { ~0ull, ~0ull }, { ~0ull, ~0ull } }, vo[2] = { { 0, 0 }, { 0, 0 } }, vi = { imm, imm }, vw = { wrap, wrap };
    for (int h = 0; h < 2; h++) {
      UNROLL_LANES
      for (int i = h * H; i < (h + 1) * H; i += 2) { u64x2 v; memcpy(&v, r + i, sizeof v); v = (v + vi) & vw; va[h] &= v; vo[h] |= v; }
    }
    uint64_t l0 = va[0][0] & va[0][1], h0 = vo[0][0] | vo[0][1], l1 = va[1][0] & va[1][1], h1 = vo[1][0] | vo[1][1];
    if (FAST_ADDR(r, 0, imm, wrap) == l0 && FAST_ADDR(r, H - 1, imm, wrap) == h0 && h0 - l0 <= 256 - size &&
        FAST_ADDR(r, H, imm, wrap) == l1 && FAST_ADDR(r, WARP_SIZE - 1, imm, wrap) == h1 && h1 - l1 <= 256 - size)
      return emu_par_span(w, x, l0, h0 + size) && emu_par_span(w, x, l1, h1 + size);
  }
  if (!exact) {
    lo = UINT64_MAX; hi = 0;
    FOR_LANES(i) {
      uint64_t v = FAST_ADDR(r, i, imm, wrap);
      bool on = g >> i & 1;
      lo = on && v < lo ? v : lo;
      hi = on && v > hi ? v : hi;
    }
  }
  if (hi - lo <= 256 - size) return emu_par_span(w, x, lo, hi + size);
  uint64_t a[WARP_SIZE];
  uint8_t kind[WARP_SIZE];
  FOR_LANES(i) a[i] = FAST_ADDR(r, i, imm, wrap);
  memset(kind, MM_GLOBAL, sizeof kind);
  return emu_par_access(w, x, a, g, size, kind);
}

/* The access memo (fast_count_on) for x's access, or NULL where the
 * addresses are needed (the timing model, observers, partial warps,
 * atomics, 32-bit global addresses); *phase: lane 0's place in its
 * 128-byte line (global; 0 for shared). */
static inline struct emu_access_memo *memo_for(warp *w, const xinsn *x, lanemask g, bool atomic, uint32_t *phase) {
  emu *e = w->e;
  const xop *f = &x->op[FAST_SLOT];
  bool shared = f->comp == FAST_SHARED;
  if (g != FULL_MASK || atomic || e->timing || e->timing_cfg || emu_obs_mem(e->obs) || !(shared || f->bits > 32)) return NULL;
  *phase = shared ? 0 : (uint32_t)((w->r[f->row][0] + (uint64_t)f->imm) & 127);
  return &e->access_memo[(shared ? 0 : 4) + (f->row & 3)];
}

/* Whether the warp came straight from the access the memo last saw,
 * through the same register, unwritten since (emu_link_accesses): the same
 * pattern without comparing it. */
static inline bool memo_followed(const warp *w, const xinsn *x, const struct emu_access_memo *mo, uint32_t phase) {
  return came_from(w, x, &mo->at) && mo->phase == phase;
}

/* A pattern the memo knows: its counts, added again. */
static inline void memo_count(warp *w, const xinsn *x, lanemask g, uint32_t size, bool store, const struct emu_access_memo *mo) {
  if (x->op[FAST_SLOT].comp == FAST_SHARED) add_shared(w, x, NULL, g, size, false, store, mo->n1, mo->n2);
  else add_global(w, x, NULL, g, size, false, store, mo->n1, mo->n2);
}

/* The access counters and the timing model, as emu_count_access has them,
 * with the addresses emu_translate would have given (inactive lanes at the
 * first active lane's address; shared ones are offsets already). */
static void fast_count_on(warp *w, const xinsn *x, lanemask g, uint32_t size, bool store) {
  emu *e = w->e;
  const xop *f = &x->op[FAST_SLOT];
  const uint64_t *r = w->r[f->row];
  uint64_t imm = (uint64_t)f->imm, wrap = f->comp == FAST_SHARED || f->bits <= 32 ? 0xffffffffull : ~0ull;
  bool shared = f->comp == FAST_SHARED, atomic = x->in->op == OP_ATOM || x->in->op == OP_RED;
  /* Counters that a translation of the whole access keeps come from a
   * memo of recent patterns (the lanes' address registers less lane 0's;
   * a few kept, by register row): accesses through one register repeat
   * their pattern (a tile's unrolled loads, the same loads in other
   * warps), and a pattern met before needs neither the addresses nor the
   * counting.  With 4-byte banks, moving every lane by a multiple of 4
   * bytes permutes the banks, so a shared access's wavefronts depend on
   * the pattern alone (equal register differences: equal offsets, which
   * fast_span put inside the block's shared memory); a global access's
   * sectors and lines on the pattern and lane 0's place in its 128-byte
   * line (64-bit addresses: no wrapping).  The timing model, observers,
   * partial warps and atomics take the addresses. */
  uint32_t phase = 0;
  struct emu_access_memo *mo = memo_for(w, x, g, atomic, &phase);
  if (mo) {
    bool same = memo_followed(w, x, mo, phase);
    if (!same) {
      u64x2 v0 = { r[0], r[0] }, diff = { 0, 0 };
      UNROLL_LANES
      for (int i = 0; i < WARP_SIZE; i += 2) { u64x2 v, rel; memcpy(&v, r + i, sizeof v); memcpy(&rel, mo->rel + i, sizeof rel); diff |= (v - v0) ^ rel; }
      same = mo->valid && mo->size == size && mo->phase == phase && !(diff[0] | diff[1]);
      name_at(w, x, &mo->at);
    }
    mo->at.pc = x->pc;
    if (same) { memo_count(w, x, g, size, store, mo); return; }
  }
  /* (the timing model: a whole warp's shared load or store through a
   * register it came straight through, its wavefronts the warp's last
   * ones there; nobody needs the addresses) */
  bool linked = e->timing && shared && !atomic && g == FULL_MASK && !emu_obs_mem(e->obs);
  if (linked && x->same_addr_as && timing_shared_again(e, w, x, size, f->imm)) {
    if (e->opt.counters) count_shared(w, x, NULL, g, size, false, store);
    return;
  }
  uint64_t a[WARP_SIZE];
  if (g == FULL_MASK) {
    u64x2 vi = { imm, imm }, vw = { wrap, wrap };
    UNROLL_LANES
    for (int i = 0; i < WARP_SIZE; i += 2) { u64x2 v; memcpy(&v, r + i, sizeof v); v = (v + vi) & vw; memcpy(a + i, &v, sizeof v); }
  } else {
    uint64_t first = FAST_ADDR(r, __builtin_ctz(g), imm, wrap);
    FOR_LANES(i) a[i] = g >> i & 1 ? FAST_ADDR(r, i, imm, wrap) : first;
  }
  if (e->timing) {
    timing_mem(e, w, x, a, g, size, shared ? MM_SHARED : MM_GLOBAL, store);
    if (linked) timing_shared_note(e, w, x, size, f->imm);
  }
  if (!e->opt.counters && !emu_obs_mem(e->obs)) return;
  if (!mo) {
    if (shared) count_shared(w, x, a, g, size, atomic, store);
    else count_global(w, x, a, g, size, atomic, store);
    return;
  }
  uint32_t n1, n2;
  if (shared) n1 = shared_wavefronts(e, a, g, size, &n2);
  else mm_sectors(a, g, size, &n1, &n2);
  FOR_LANES(i) mo->rel[i] = r[i] - r[0];
  mo->size = size; mo->phase = phase; mo->n1 = n1; mo->n2 = n2; mo->valid = true;
  if (shared) add_shared(w, x, a, g, size, false, store, n1, n2);
  else add_global(w, x, a, g, size, false, store, n1, n2);
}

/* ... only where someone asks (the test inline: most runs have no counters) */
static inline void fast_count(warp *w, const xinsn *x, lanemask g, uint32_t size, bool store) {
  const emu *e = w->e;
  if (e->timing || e->opt.counters || emu_obs_mem(e->obs)) fast_count_on(w, x, g, size, store);
}

/* fast_count for ld and st, with the memo's commonest answer inline: the
 * warp came straight from the access the memo last saw, through the same
 * register (fast_count_on's first test, before any address is looked at;
 * a counted loop's unrolled loads are most of the accesses) */
static inline void fast_count_ldst(warp *w, const xinsn *x, lanemask g, uint32_t size, bool store) {
  emu *e = w->e;
  if (!e->opt.counters && !e->timing && !emu_obs_mem(e->obs)) return;
  uint32_t phase = 0;
  struct emu_access_memo *mo = x->same_addr_as ? memo_for(w, x, g, false, &phase) : NULL;
  if (mo && memo_followed(w, x, mo, phase)) { mo->at.pc = x->pc; memo_count(w, x, g, size, store, mo); return; }
  fast_count_on(w, x, g, size, store);
}

static void h_ld_fast(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const xop *f = &x->op[FAST_SLOT];
  uint32_t size = f->neg ? 8 : 4;
  uint64_t lo, hi;
  uint8_t *base;
  if (!fast_span(w, x, g, size, &base, &lo, &hi)) { h_ld(w, x, g); return; }
  if (!fast_par_ok(w, x, g, size, lo, hi)) return;
  fast_count_ldst(w, x, g, size, false);
  /* the destination may be the address register: each lane reads its
   * address before it writes its value */
  const uint64_t *r = w->r[f->row];
  uint64_t *d = w->r[x->op[0].row];
  unsigned db = x->op[0].bits;
  uint64_t dmask = db >= 64 ? ~0ull : (1ull << db) - 1, imm = (uint64_t)f->imm - lo;
  uint64_t wrap = f->comp == FAST_SHARED || f->bits <= 32 ? 0xffffffffull : ~0ull;
  if (g == FULL_MASK && !f->kind && db >= size * 8) {     /* a whole warp, no truncation */
    if (f->comp == FAST_SHARED) {
      uint32_t im = (uint32_t)f->imm;
      if (size == 4) FOR_LANES_UNROLLED(i) { uint32_t v; memcpy(&v, base + ((uint32_t)r[i] + im), 4); d[i] = v; }
      else FOR_LANES_UNROLLED(i) { uint64_t v; memcpy(&v, base + ((uint32_t)r[i] + im), 8); d[i] = v; }
      return;
    }
    if (wrap == ~0ull) {    /* base + (r + imm - lo) in one addition */
      uintptr_t adj = (uintptr_t)base + (uintptr_t)imm;
      if (size == 4) FOR_LANES_UNROLLED(i) { uint32_t v; memcpy(&v, (const uint8_t *)(adj + (uintptr_t)r[i]), 4); d[i] = v; }
      else FOR_LANES_UNROLLED(i) { uint64_t v; memcpy(&v, (const uint8_t *)(adj + (uintptr_t)r[i]), 8); d[i] = v; }
      return;
    }
  }
  /* inactive lanes read at offset 0, inside the region */
  if (g == FULL_MASK) {
    if (size == 8) FOR_LANES(i) { uint64_t v; memcpy(&v, base + (FAST_ADDR(r, i, (uint64_t)f->imm, wrap) - lo), 8); d[i] = v & dmask; }
    else if (f->kind) FOR_LANES(i) { int32_t v; memcpy(&v, base + (FAST_ADDR(r, i, (uint64_t)f->imm, wrap) - lo), 4); d[i] = (uint64_t)(int64_t)v & dmask; }
    else FOR_LANES(i) { uint32_t v; memcpy(&v, base + (FAST_ADDR(r, i, (uint64_t)f->imm, wrap) - lo), 4); d[i] = v & dmask; }
    return;
  }
#define FAST_OFF(i) (g >> (i) & 1 ? FAST_ADDR(r, i, (uint64_t)f->imm, wrap) - lo : 0)
  if (size == 8) FOR_LANES(i) { uint64_t v; memcpy(&v, base + FAST_OFF(i), 8); d[i] = g >> i & 1 ? v & dmask : d[i]; }
  else if (f->kind) FOR_LANES(i) { int32_t v; memcpy(&v, base + FAST_OFF(i), 4); d[i] = g >> i & 1 ? (uint64_t)(int64_t)v & dmask : d[i]; }
  else FOR_LANES(i) { uint32_t v; memcpy(&v, base + FAST_OFF(i), 4); d[i] = g >> i & 1 ? v & dmask : d[i]; }
#undef FAST_OFF
}

static void h_st_fast(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const xop *f = &x->op[FAST_SLOT];
  uint32_t size = f->neg ? 8 : 4;
  uint64_t lo, hi;
  uint8_t *base;
  if (w->e->opt.strict_async || !fast_span(w, x, g, size, &base, &lo, &hi)) { h_st(w, x, g); return; }
  if (!fast_par_ok(w, x, g, size, lo, hi)) return;
  fast_count_ldst(w, x, g, size, true);
  const uint64_t *r = w->r[f->row], *s = w->r[x->op[1].row];
  uint64_t imm = (uint64_t)f->imm, wrap = f->comp == FAST_SHARED || f->bits <= 32 ? 0xffffffffull : ~0ull;
  /* lanes store in order, so the highest lane wins when addresses collide */
  if (g == FULL_MASK && size == 4) {     /* a whole warp: no lane tests, one addition per address */
    if (f->comp == FAST_SHARED) { uint32_t im = (uint32_t)f->imm; FOR_LANES_UNROLLED(i) { uint32_t v = (uint32_t)s[i]; memcpy(base + ((uint32_t)r[i] + im), &v, 4); } return; }
    if (wrap == ~0ull) { uintptr_t adj = (uintptr_t)base + (uintptr_t)(imm - lo); FOR_LANES_UNROLLED(i) { uint32_t v = (uint32_t)s[i]; memcpy((uint8_t *)(adj + (uintptr_t)r[i]), &v, 4); } return; }
  }
  if (size == 8) FOR_LANES(i) { if (g >> i & 1) memcpy(base + (FAST_ADDR(r, i, imm, wrap) - lo), &s[i], 8); }
  else FOR_LANES(i) { if (g >> i & 1) { uint32_t v = (uint32_t)s[i]; memcpy(base + (FAST_ADDR(r, i, imm, wrap) - lo), &v, 4); } }
}

/* ld.param of a kernel parameter into one register: the same address for
 * every thread (the launch's parameter block plus the symbol's offset, in
 * FAST_SLOT's imm), so one check and one load for the warp, with the
 * hooks emu_translate and emu_count_access have (a parallel launch's
 * conflict check, the timing model).  Anything unusual goes to h_ld. */
static void h_ld_param(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  emu *e = w->e;
  const xop *f = &x->op[FAST_SLOT];
  uint32_t size = f->bits;
  uint64_t ad = e->param_addr + (uint64_t)f->imm;
  const uint8_t *p = (ad & (size - 1)) ? NULL : mm_global_ptr(e, ad, size);
  if (!p) { h_ld(w, x, g); return; }
  if (e->par && !emu_par_span(w, x, ad, ad + size)) return;
  if (e->timing || e->opt.counters || emu_obs_mem(e->obs)) {
    uint64_t a[WARP_SIZE];
    uint8_t kind[WARP_SIZE];
    FOR_LANES(i) a[i] = ad;
    memset(kind, MM_GLOBAL, sizeof kind);
    emu_count_access(w, x, a, g, size, kind, false);
  }
  uint64_t v = 0;
  memcpy(&v, p, size);
  if (f->kind && size < 8) v = (uint64_t)sext(v, size * 8);
  unsigned db = x->op[0].bits;
  v &= !db || db >= 64 ? ~0ull : (1ull << db) - 1;
  uint64_t *d = w->r[x->op[0].row];
  if (g == FULL_MASK) FOR_LANES(i) d[i] = v;
  else FOR_LANES(i) d[i] = g >> i & 1 ? v : d[i];
}

/* Whether x takes h_ld_param; fills FAST_SLOT (imm: the parameter's
 * offset in the block, bits: bytes, kind: sign-extending). */
static bool prep_param(emu *e, xinsn *x) {
  const isa_insn *in = x->in;
  uint32_t eb = elem_bytes(in);
  if (in->op != OP_LD || (in->space != MOD_PARAM && in->space != MOD_PARAM_ENTRY) || in->nops != 2 || x->nops > FAST_SLOT) return false;
  const isa_opnd *v = x->op[0].o, *ad = x->op[1].o;
  if (!v || v->kind != OK_REG || (v->flags & OF_OFFSET) || x->op[0].row < 0 || (eb != 1 && eb != 2 && eb != 4 && eb != 8)) return false;
  if (ad->kind != OK_ADDR || (ad->flags & (OF_BASEREG | OF_MODSYM | OF_FUNCSYM)) != OF_FUNCSYM || !is_kernel_param(e, x, ad->v)) return false;
  xop *f = &x->op[FAST_SLOT];
  f->imm = (int64_t)(x->f->syms[ad->v].offset + (uint64_t)ad->imm);
  f->bits = (uint8_t)eb;
  f->kind = signed_type(in->type);
  return true;
}

/* A kernel parameter's load into one register (h_ld_param): its offset in
 * the parameter block and its bytes. */
bool emu_param_load(const xinsn *x, uint64_t *off, uint32_t *bytes) {
  if (x->fn != h_ld_param) return false;
  *off = (uint64_t)x->op[FAST_SLOT].imm;
  *bytes = x->op[FAST_SLOT].bits;
  return true;
}

/* Whether x takes the handlers above; fills FAST_SLOT. */
static bool prep_fast(emu *e, xinsn *x) {
  const isa_insn *in = x->in;
  bool st = in->op == OP_ST, atomic = in->op == OP_ATOM || in->op == OP_RED;
  int comp = in->space == MOD_GLOBAL ? FAST_GLOBAL : in->space == MOD_SHARED || in->space == MOD_SHARED_CTA ? FAST_SHARED : 0;
  uint32_t eb = elem_bytes(in);
  if (!comp || (eb != 4 && eb != 8) || x->nops > FAST_SLOT || in->nops != x->nops) return false;
  const isa_opnd *v = x->op[st ? 1 : 0].o, *ad = x->op[st || in->op == OP_RED ? 0 : 1].o;
  if (atomic) {
    if (in->vec > 1) return false;
  } else if (in->nops != 2 || !v || v->kind != OK_REG || (v->flags & OF_OFFSET)) return false;
  if (ad->kind == OK_ADDRX) ad = &x->f->pool[ad->v];
  if (ad->kind != OK_ADDR || !(ad->flags & OF_BASEREG)) return false;
  xop *f = &x->op[FAST_SLOT];
  f->row = emu_reg_row(e, x, ad->v);
  f->imm = ad->imm;
  f->bits = (uint8_t)(ptx_type_bits((enum ptx_type)x->f->regtype[ad->v]) <= 32 ? 32 : 64);
  f->comp = (uint8_t)comp;
  f->neg = eb == 8;                                         /* 8-byte access */
  /* a sign-extending load; a 32-bit integer atomic */
  f->kind = (uint8_t)(atomic ? in->type == PTX_T_U32 || in->type == PTX_T_S32 : !st && eb == 4 && signed_type(in->type));
  return true;
}

/* Whether instruction y names register slot reg in an operand (a write
 * can only come through one); use is scratch of a slot per register. */
static bool names_reg(const xinsn *y, uint32_t reg, uint8_t *use) {
  use[reg] = 0;
  for (uint32_t k = 0; k < y->in->nops; k++) emu_mark_uses(y->f, &y->f->ops[y->in->opi + k], use);
  return use[reg];
}

/* The fast ld/st whose address register (FAST_SLOT) nothing has written
 * since the previous fast ld/st through it in the same straight-line code
 * (no control flow, barrier or warp-collective, no instruction naming the
 * register between, the earlier one does not load into it, both access
 * as many bytes): a full warp that runs the two back to back has the same
 * address pattern at both, which fast_count_on's memo then need not
 * compare.  Without memory for the scratch, nothing is linked. */
void emu_link_accesses(emu *e) {
  memset(e->access_memo, 0, sizeof e->access_memo);
  uint32_t nregs = 1;
  for (uint32_t i = 0; i < e->m->nfuncs; i++) if (e->m->funcs[i].nregs > nregs) nregs = e->m->funcs[i].nregs;
  uint8_t *use = calloc(nregs, 1);
  for (uint32_t pc = 0; pc < e->nprog; pc++) {
    xinsn *x = &e->prog[pc];
    x->same_addr_as = 0;
    if (!use || (x->fn != h_ld_fast && x->fn != h_st_fast)) continue;
    const isa_opnd *ad = x->op[x->in->op == OP_ST ? 0 : 1].o;
    if (ad->kind == OK_ADDRX) ad = &x->f->pool[ad->v];
    uint32_t reg = ad->v;
    /* within 256 instructions: the search stays linear in the program */
    for (uint32_t p = pc; p-- > 0 && pc - p <= 256;) {
      const xinsn *y = &e->prog[p];
      int fam = isa_ops[y->in->op].family;
      if (y->f != x->f || (y->flags & (XF_CONTROL | XF_SYNC)) || fam == F_CTRL || fam == F_SYNC) break;
      if ((y->fn == h_ld_fast || y->fn == h_st_fast) && y->op[FAST_SLOT].row == x->op[FAST_SLOT].row &&
          y->op[FAST_SLOT].comp == x->op[FAST_SLOT].comp && y->op[FAST_SLOT].neg == x->op[FAST_SLOT].neg) {
        use[reg] = 0;
        if (y->fn == h_ld_fast) emu_mark_uses(y->f, y->op[0].o, use);   /* a load into its own address register */
        if (!use[reg]) x->same_addr_as = p + 1;
        break;
      }
      if (names_reg(y, reg, use)) break;
    }
  }
  free(use);
}

/* ---- atomics -------------------------------------------------------------- */

static float f32_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t bits_of_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static double f64_of(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }
static uint64_t bits_of_f64(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }

static uint32_t ftz32(uint32_t b) { return (b & 0x7f800000u) == 0 ? b & 0x80000000u : b; }
static uint32_t canon32(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : b; }

/* One f16/bf16 element of atom/red .add/.min/.max .noftz (sm_90 vector
 * atomics, and the scalar .add.noftz forms): .add rounds to nearest even and
 * keeps subnormal inputs and results; .min/.max return the other operand
 * when one is NaN (canonical NaN when both are) and order -0 below +0, as
 * min/max.f16 do. */
static uint16_t atom_half(bool bf, uint16_t op, uint16_t a, uint16_t b) {
  if (op == MOD_ADD) return bf ? bf16_add(a, b, FP_RN, 0, 0) : f16_add(a, b, FP_RN, 0, 0);
  if (op == MOD_MIN) return bf ? bf16_min(a, b, 0, 0) : f16_min(a, b, 0, 0, 0);
  return bf ? bf16_max(a, b, 0, 0) : f16_max(a, b, 0, 0, 0);
}

/* bits: the width of the instruction's type (xinsn.tbits) */
static inline uint64_t atom_apply(const isa_insn *in, unsigned bits, uint64_t old, uint64_t b, uint64_t c, bool *ok) {
  int t = in->type;
  uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  bool sg = signed_type(t);
  *ok = true;
  if (t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
    bool bf = t == PTX_T_BF16 || t == PTX_T_BF16X2;
    if (in->bop != MOD_ADD && in->bop != MOD_MIN && in->bop != MOD_MAX) { *ok = false; return old; }
    uint64_t r = atom_half(bf, in->bop, (uint16_t)old, (uint16_t)b);
    if (bits == 32) r |= (uint64_t)atom_half(bf, in->bop, (uint16_t)(old >> 16), (uint16_t)(b >> 16)) << 16;
    return r;
  }
  switch (in->bop) {
  case MOD_ADD:
    if (t == PTX_T_F32) {   /* atom/red .add.f32 flush subnormal inputs and results */
      uint32_t r = bits_of_f32(f32_of(ftz32((uint32_t)old)) + f32_of(ftz32((uint32_t)b)));
      return canon32(ftz32(r));
    }
    if (t == PTX_T_F64) { uint64_t r = bits_of_f64(f64_of(old) + f64_of(b)); return (r & 0x7fffffffffffffffull) > 0x7ff0000000000000ull ? 0x7fffffffffffffffull : r; }
    return (old + b) & mask;
  case MOD_MIN:
    if (t == PTX_T_F32) { float x = f32_of((uint32_t)old), y = f32_of((uint32_t)b); return bits_of_f32(fminf(x, y)); }
    if (sg) return sext(old, bits) < sext(b, bits) ? old : b & mask;
    return (old & mask) < (b & mask) ? old : b & mask;
  case MOD_MAX:
    if (t == PTX_T_F32) { float x = f32_of((uint32_t)old), y = f32_of((uint32_t)b); return bits_of_f32(fmaxf(x, y)); }
    if (sg) return sext(old, bits) > sext(b, bits) ? old : b & mask;
    return (old & mask) > (b & mask) ? old : b & mask;
  case MOD_INC: return (old & mask) >= (b & mask) ? 0 : (old + 1) & mask;
  case MOD_DEC: return ((old & mask) == 0 || (old & mask) > (b & mask)) ? b & mask : (old - 1) & mask;
  case MOD_AND: return old & b & mask;
  case MOD_OR: return (old | b) & mask;
  case MOD_XOR: return (old ^ b) & mask;
  case MOD_EXCH: return b & mask;
  case MOD_CAS: return (old & mask) == (b & mask) ? c & mask : old & mask;
  default: *ok = false; return old;
  }
}

static void h_atom(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  bool is_red = in->op == OP_RED;
  int ak = is_red ? 0 : 1;                 /* address operand */
  uint32_t eb = elem_bytes(in), nv = in->vec > 1 ? in->vec : 1, size = eb * nv;
  uint64_t a[WARP_SIZE];
  uint8_t *p[WARP_SIZE], kind[WARP_SIZE], symspace;
  emu_lane_addrs(w, x, x->op[ak].o, g, a, &symspace);
  if (!emu_translate(w, x, in->space, symspace, a, g, size, p, kind)) return;
  /* vector forms exist for global memory only (a generic address must point there) */
  if (nv > 1) FOR_LANES(i) if ((g >> i & 1) && kind[i] != MM_GLOBAL) {
    emu_fault_at(w, x, i, FAULT_BAD_ADDRESS_SPACE, "vector %s at 0x%llx, which is not a global address", is_red ? "red" : "atom",
                 (unsigned long long)a[i]);
    return;
  }
  emu_count_access(w, x, a, g, size, kind, is_red);
  if (w->e->opt.strict_async) FOR_LANES(i) if ((g >> i & 1) && kind[i] == MM_SHARED) emu_proxy_generic_ptr(w, x, i, p[i], size);
  /* vector atomics (sm_90: atom/red .v2/.v4 .f32, .f16x2 ...) apply the
   * operation element by element; their operands are register vectors */
  int brows[16], drows[16];
  uint8_t bits[16];
  uint64_t bimm[16], dimm[16];
  if (nv > 1) {
    if (value_rows(w, x, ak + 1, brows, bits, bimm) != (int)nv || (!is_red && value_rows(w, x, 0, drows, bits, dimm) != (int)nv)) {
      emu_fault_at(w, x, __builtin_ctz(g), FAULT_UNSUPPORTED, "vector atomic with operands that are not %u-element vectors", nv);
      return;
    }
  }
  const uint64_t *b = nv == 1 ? xsrc(w, x, ak + 1) : NULL;
  const uint64_t *c = in->bop == MOD_CAS ? xsrc(w, x, ak + 2) : NULL;
  uint64_t *d = is_red || nv > 1 ? NULL : xdst(w, x, 0);
  /* lanes in order: the result each lane sees is well defined and repeatable */
  FOR_LANES(i) {
    if (!(g >> i & 1)) continue;
    for (uint32_t j = 0; j < nv; j++) {
      uint64_t old = 0, bv = nv == 1 ? b[i] : brows[j] >= 0 ? w->r[brows[j]][i] : bimm[j];
      memcpy(&old, p[i] + j * eb, eb);
      bool ok;
      uint64_t nval = atom_apply(in, x->tbits, old, bv, c ? c[i] : 0, &ok);
      if (!ok) { emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "atomic operation not supported"); return; }
      memcpy(p[i] + j * eb, &nval, eb);
      if (d) d[i] = xfit(x, 0, old);
      else if (nv > 1 && !is_red && drows[j] >= 0) w->r[drows[j]][i] = old;
    }
  }
}

/* A scalar atom/red of 4 or 8 bytes at [%r+imm] in .shared or .global
 * (prep_fast): the fused path's addresses, then the lanes in order as
 * h_atom applies them. */
static void h_atom_fast(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  const isa_insn *in = x->in;
  const xop *f = &x->op[FAST_SLOT];
  bool is_red = in->op == OP_RED;
  uint32_t size = f->neg ? 8 : 4;
  uint64_t lo, hi;
  uint8_t *base;
  if (w->e->opt.strict_async || !fast_span(w, x, g, size, &base, &lo, &hi)) { h_atom(w, x, g); return; }
  if (!fast_par_ok(w, x, g, size, lo, hi)) return;
  fast_count(w, x, g, size, is_red);
  const uint64_t *r = w->r[f->row], *b = xsrc(w, x, is_red ? 1 : 2);
  const uint64_t *c = in->bop == MOD_CAS ? xsrc(w, x, 3) : NULL;
  uint64_t *d = is_red ? NULL : xdst(w, x, 0);
  uint64_t imm = (uint64_t)f->imm, wrap = f->comp == FAST_SHARED || f->bits <= 32 ? 0xffffffffull : ~0ull;
  if (in->bop == MOD_ADD && size == 4 && f->kind) {      /* 32-bit integer add: the counters and histograms */
    uint64_t dmask = d && x->op[0].bits < 64 ? (1ull << x->op[0].bits) - 1 : ~0ull;
    FOR_LANES(i) if (g >> i & 1) {
      uint8_t *p = base + (FAST_ADDR(r, i, imm, wrap) - lo);
      uint32_t old;
      memcpy(&old, p, 4);
      uint32_t nval = old + (uint32_t)b[i];
      memcpy(p, &nval, 4);
      if (d) d[i] = old & dmask;
    }
    return;
  }
  FOR_LANES(i) if (g >> i & 1) {
    uint8_t *p = base + (FAST_ADDR(r, i, imm, wrap) - lo);
    uint64_t old = 0;
    memcpy(&old, p, size);
    bool ok;
    uint64_t nval = atom_apply(in, x->tbits, old, b[i], c ? c[i] : 0, &ok);
    if (!ok) { emu_fault_at(w, x, i, FAULT_UNSUPPORTED, "atomic operation not supported"); return; }
    memcpy(p, &nval, size);
    if (d) d[i] = xfit(x, 0, old);
  }
}

/* ---- addresses as values ------------------------------------------------------ */

static void h_mov_sym(warp *w, const xinsn *x, lanemask g) {
  if (!g) return;
  uint64_t *d = xdst(w, x, 0);
  const isa_opnd *o = x->op[1].o;
  const isa_opnd so = { .kind = OK_SYM, .flags = o->flags, .v = o->v };
  uint8_t sp = PTX_SPACE_NONE;
  uint64_t first = o->kind == OK_FUNC ? w->e->func_addr[o->v] : sym_address(w, x, &so, __builtin_ctz(g), &sp) + (uint64_t)o->imm;
  bool same = o->kind == OK_FUNC || sp != PTX_SPACE_LOCAL;     /* the same for every thread */
  FOR_LANES(i) if (g >> i & 1) d[i] = xfit(x, 0, same ? first : sym_address(w, x, &so, i, &sp) + (uint64_t)o->imm);
}

static void h_cvta(warp *w, const xinsn *x, lanemask g) {
  const isa_insn *in = x->in;
  uint64_t *d = xdst(w, x, 0);
  uint64_t a[WARP_SIZE];
  const isa_opnd *o = x->op[1].o;
  if (o->kind == OK_SYM) {
    if (!g) return;
    const isa_opnd so = { .kind = OK_SYM, .flags = o->flags, .v = o->v };
    uint8_t sp;
    uint64_t first = sym_address(w, x, &so, __builtin_ctz(g), &sp) + (uint64_t)o->imm;
    bool same = sp != PTX_SPACE_LOCAL;                         /* the same for every thread */
    FOR_LANES(i) if (g >> i & 1) a[i] = same ? first : sym_address(w, x, &so, i, &sp) + (uint64_t)o->imm;
  } else {
    const uint64_t *s = xsrc(w, x, 1);
    FOR_LANES(i) a[i] = s[i];
  }
  uint16_t sp = in->space;
  uint64_t base = (sp == MOD_SHARED || sp == MOD_SHARED_CTA || sp == MOD_SHARED_CLUSTER) ? GEN_SHARED_BASE
                : sp == MOD_LOCAL ? GEN_LOCAL_BASE : 0;
  uint64_t add = (in->flags & IF_TO) ? 0 - base : base;
  if (g == FULL_MASK) FOR_LANES(i) d[i] = xfit(x, 0, a[i] + add);    /* no lane tests: vectorised */
  else FOR_LANES(i) if (g >> i & 1) d[i] = xfit(x, 0, a[i] + add);
}

static void h_isspacep(warp *w, const xinsn *x, lanemask g) {
  uint64_t *d = xdst(w, x, 0);
  const uint64_t *a = xsrc(w, x, 1);
  uint16_t sp = x->in->space;
  FOR_LANES(i) if (g >> i & 1) {
    enum mm_space s = mm_classify(a[i]);
    bool r;
    if (sp == MOD_SHARED || sp == MOD_SHARED_CTA || sp == MOD_SHARED_CLUSTER) r = s == MM_SHARED;
    else if (sp == MOD_LOCAL) r = s == MM_LOCAL;
    else if (sp == MOD_GLOBAL) r = s == MM_GLOBAL && mm_global_ptr(w->e, a[i], 1) != NULL;
    else r = s == MM_GLOBAL && mm_global_ptr(w->e, a[i], 1) != NULL;   /* const, param: in the global window */
    d[i] = r;
  }
}

static void h_createpolicy(warp *w, const xinsn *x, lanemask g) {
  uint64_t *d = xdst(w, x, 0);
  FOR_LANES(i) if (g >> i & 1) d[i] = 0x10000000000000ull;   /* an opaque policy; hints do not change results */
}

/* alloca: memory from the top of the thread's local memory, growing down
 * towards the call frames (which grow up); the address is a local one. */
static void h_alloca(warp *w, const xinsn *x, lanemask g) {
  const uint64_t *sz = xsrc(w, x, 1);
  uint64_t *d = xdst(w, x, 0);
  uint32_t fi = (uint32_t)(x->f - w->e->m->funcs);
  uint64_t align = x->nops > 2 ? (uint64_t)x->op[2].imm : 8;
  if (!align || (align & (align - 1))) align = 8;
  FOR_LANES(i) if (g >> i & 1) {
    uint64_t floor = (uint64_t)w->fp[i] + w->e->frame_size[fi];
    uint64_t top = w->dsp[i];
    if (sz[i] > top || ((top - sz[i]) & ~(align - 1)) < floor || top - sz[i] < w->local_stride - w->e->alloca_bytes) {
      emu_fault_at(w, x, i, FAULT_STACK, "alloca of %llu bytes overflows the %u bytes of stack left for it",
                   (unsigned long long)sz[i], w->e->alloca_bytes);
      return;
    }
    w->dsp[i] = (uint32_t)((top - sz[i]) & ~(align - 1));
    d[i] = xfit(x, 0, w->dsp[i]);
  }
}

static void h_stacksave(warp *w, const xinsn *x, lanemask g) {
  uint64_t *d = xdst(w, x, 0);
  FOR_LANES(i) if (g >> i & 1) d[i] = xfit(x, 0, w->dsp[i]);
}

static void h_stackrestore(warp *w, const xinsn *x, lanemask g) {
  const uint64_t *a = xsrc(w, x, 0);
  FOR_LANES(i) if (g >> i & 1) {
    if (a[i] > w->local_stride || a[i] < w->local_stride - w->e->alloca_bytes) {
      emu_fault_at(w, x, i, FAULT_STACK, "stackrestore to 0x%llx, which stacksave did not return", (unsigned long long)a[i]);
      return;
    }
    w->dsp[i] = (uint32_t)a[i];
  }
}

static void h_nop(warp *w, const xinsn *x, lanemask g) { (void)w; (void)x; (void)g; }

int prep_mem(emu *e, xinsn *x) {
  const isa_insn *in = x->in;
  switch (in->op) {
  case OP_LD: case OP_LDU: x->fn = prep_fast(e, x) ? h_ld_fast : prep_param(e, x) ? h_ld_param : h_ld; return 0;
  case OP_ST: x->fn = prep_fast(e, x) ? h_st_fast : h_st; return 0;
  case OP_ATOM: case OP_RED: x->fn = prep_fast(e, x) ? h_atom_fast : h_atom; return 0;
  case OP_CVTA: x->fn = h_cvta; return 0;
  case OP_ISSPACEP: x->fn = h_isspacep; return 0;
  case OP_MOV:
    if (in->nops == 2 && (x->op[1].kind == OK_SYM || x->op[1].kind == OK_FUNC)) { x->fn = h_mov_sym; return 0; }
    return -1;
  case OP_PREFETCH: case OP_PREFETCHU: case OP_APPLYPRIORITY: case OP_DISCARD: x->fn = h_nop; return 0;
  case OP_CREATEPOLICY: x->fn = h_createpolicy; return 0;
  case OP_ALLOCA: x->fn = h_alloca; return 0;
  case OP_STACKSAVE: x->fn = h_stacksave; return 0;
  case OP_STACKRESTORE: x->fn = h_stackrestore; return 0;
  default: return -1;
  }
}
