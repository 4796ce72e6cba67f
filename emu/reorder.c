/* emu/reorder.c - the issue order of a timed run: what ptxas's list
 * scheduler does to each basic block before the GPU sees it.
 *
 * A GPU issues each warp's instructions in order, but not in PTX order:
 * ptxas schedules every basic block, and above all it moves loads up,
 * above independent arithmetic and above other loads' uses, so that one
 * warp has several loads in flight (nvcc's PTX for an unrolled loop is
 * "ld, ld, fma, ld, ld, fma ...", the SASS is "LDG x8, FFMA x4").  Timing
 * PTX order would serialise those latencies.
 *
 * The reordering is a permutation of e->prog inside blocks, done once per
 * timed launch after preparation:
 *  - Blocks start at the function's entry, at every label and after every
 *    control instruction, and keep their place; a branch target (an index
 *    in e->prog) still names its block's first slot.
 *  - Inside a block, only "movable" instructions change places: arithmetic,
 *    moves, conversions, plain (weak, non-volatile) ld/ldu/st, shuffles and
 *    votes (every lane that reaches one runs the block in the same order, so
 *    the lanes still meet at it with the same values), and the warp's
 *    matrix loads, stores and products (wmma, ldmatrix, mma).  Every other
 *    instruction (barriers, fences, atomics, other warp collectives, async
 *    copies, clock reads, calls...) stays where it is and nothing crosses
 *    it, so reconvergence points, barrier order and the memory model's
 *    ordering are untouched.  (The one exception: the branches of a
 *    predicated if, which go after its body, below.)
 *  - Between two fixed instructions, a list scheduler keeps every
 *    dependence: registers (read after write, write after read, write after
 *    write, the carry flag), and memory (a store orders against every load
 *    and store of a state space it may alias; generic aliases global,
 *    shared and local).  Cycle by cycle, of the instructions whose
 *    operands are due, the one with the longest latency path to the end of
 *    the run goes first (ties in PTX order).  Loads weigh their memory
 *    latency, so they rise, and their uses sink below independent work.
 *  - ... but within a register budget (ptxas_regs, see struct budget):
 *    an instruction that would take the registers live at once past it
 *    waits while another fits, so a load rises only as far as its
 *    registers allow (val_nbody's SASS).  A vector load ptxas makes of
 *    merged scalar loads (fuse.c) writes all of its registers at once: its
 *    parts issue right after it; and a run of such loads keeps
 *    ptxas_ahead_regs registers of them in flight beyond its live-in, past
 *    the budget (knn_brute's SASS: 4 LDS.128 in flight at 40 registers).
 *  - ... and what only stores use comes just before the store, not as soon
 *    as it could (ptxas_sink, sink_late): the block is scheduled again with
 *    those instructions held back, so a loop's induction update and compare
 *    that must follow a store's address come last, as in the SASS.
 * Within one thread the result is the same as in PTX order, so functional
 * results do not change; x->pc is the new index (execution and scheduling
 * use it), x->spc the instruction's own PC (traces and messages use it). */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/timing_insn.h"
#include "emu/reorder.h"
#include "emu/rowlive.h"

#define RUN_MAX 256               /* longer runs are scheduled in pieces of this size */

enum { MC_GLOBAL = 1, MC_SHARED = 2, MC_LOCAL = 4, MC_PARAM = 8, MC_CONST = 16 };

typedef struct node {
  int32_t src[MAX_DEPS + 1], dst[MAX_DEPS + 1];
  uint8_t nsrc, ndst;
  int32_t after_row;              /* a load merged into another's access (fuse.c): that access's
                                     result row; it follows the access, its value due with it */
  uint8_t mem;                    /* MC_* classes it may touch, 0: none  */
  bool store;
  uint32_t weight;                /* its latency, for the priority       */
  uint64_t height;                /* longest weighted path to the run's end */
  uint64_t due;                   /* the cycle its operands are ready     */
  uint64_t not_before;            /* the cycle it may issue at the earliest (sink_late) */
  uint32_t npred;
  /* register pressure (budget): the run's rows it reads, with the value
   * (the number of the run's writes of the row before it) it reads, and
   * those it writes */
  uint16_t rrow[2 * MAX_DEPS + 2], rval[2 * MAX_DEPS + 2], wrow[MAX_DEPS + 1];
  uint8_t nr, nw;
} node;

/* A row the run names: its 32-bit registers, whether its current value
 * is live, and per value (before the run's first write of it, after each)
 * the reads not yet scheduled. */
typedef struct rowuse {
  int32_t row;
  uint8_t units;
  bool live, live_out;            /* live_out: its last value is read after the run */
  uint16_t nwrites, written;      /* writes in the run, scheduled so far */
  uint32_t reads;                 /* index of value 0's count in the reads-left array */
} rowuse;

/* ptxas schedules within a register budget (ptxas_regs: the registers
 * per thread that keep an SM full, less the stack pointer and a spare):
 * a load rises above other work only while the registers live at once
 * stay within it, or within what PTX order needs where that is more.
 * Without liveness (too large a program) there is no budget. */
typedef struct budget {
  uint32_t regs, ahead;
  rowlive *live;
  uint64_t *before, *after;       /* row sets: live before and after the run */
  int32_t *local;                 /* per row: its index in rows, -1: not named by the run */
  rowuse *rows;
  uint16_t *left;                 /* reads left per value */
  uint32_t nrows, nleft;
  int64_t p0, p;                  /* 32-bit registers live before the run, and now */
} budget;

static uint8_t mem_class(uint16_t space) {
  switch (space) {
  case MOD_GLOBAL: return MC_GLOBAL;
  case MOD_SHARED: case MOD_SHARED_CTA: case MOD_SHARED_CLUSTER: return MC_SHARED;
  case MOD_LOCAL: return MC_LOCAL;
  case MOD_PARAM: case MOD_PARAM_ENTRY: case MOD_PARAM_FUNC: return MC_PARAM;
  case MOD_CONST: return MC_CONST;
  default: return MC_GLOBAL | MC_SHARED | MC_LOCAL;   /* generic */
  }
}

static bool plain_memory(const isa_insn *in) {
  if (in->flags & IF_VOLATILE) return false;
  if (in->sem && in->sem != MOD_WEAK) return false;      /* relaxed, acquire, release, mmio... */
  return true;
}

bool emu_reorder_movable(const xinsn *x, const deps *d) {
  const isa_insn *in = x->in;
  /* shuffles and votes exchange registers between the lanes that reach
   * them together; every lane runs the block in the same order, so they
   * move as arithmetic does (ptxas interleaves independent shuffle
   * reductions: val_attention attn_tiled's SASS runs four at once) */
  bool exchange = in->op == OP_SHFL || in->op == OP_VOTE;
  if (x->flags & (XF_CONTROL | XF_CLOCK)) return false;
  if ((x->flags & XF_SYNC) && !exchange) return false;
  if (d->nsrc >= MAX_DEPS || d->ndst >= MAX_DEPS) return false;    /* its operand list was cut short */
  switch (isa_ops[in->op].family) {
  case F_ARITH: case F_BITS: case F_SFU: case F_CMP: case F_LOGIC: case F_CVT: case F_VIDEO: return true;
  case F_MOV:
    return in->op == OP_MOV || in->op == OP_PRMT || in->op == OP_CVTA || in->op == OP_ISSPACEP ||
           in->op == OP_MAPA || in->op == OP_GETCTARANK || in->op == OP_CREATEPOLICY;
  case F_MEM: return (in->op == OP_LD || in->op == OP_LDU || in->op == OP_ST) && plain_memory(in);
  /* warp-wide matrix loads, stores and products: in SASS, loads (LDG, LDS,
   * LDSM), stores and HMMAs that ptxas schedules like any other; every lane
   * of the warp runs the block's instructions in the same order */
  case F_MMA:
    return in->op == OP_WMMA_LOAD_A || in->op == OP_WMMA_LOAD_B || in->op == OP_WMMA_LOAD_C || in->op == OP_WMMA_STORE_D ||
           in->op == OP_LDMATRIX || in->op == OP_WMMA_MMA || in->op == OP_MMA || in->op == OP_MMA_SP;
  case F_WARP: return exchange;
  default: return false;
  }
}

static bool touches_carry(const isa_insn *in) {
  return (in->flags & IF_CC) || in->op == OP_ADDC || in->op == OP_SUBC || in->op == OP_MADC;
}

static void make_node(const emu *e, const gpu_config *g, const xinsn *x, const deps *d, node *n) {
  memset(n, 0, sizeof *n);
  memcpy(n->src, d->src, d->nsrc * sizeof *d->src);
  memcpy(n->dst, d->dst, d->ndst * sizeof *d->dst);
  n->nsrc = d->nsrc;
  n->ndst = d->ndst;
  n->after_row = -1;
  if (d->fused && d->fuse_row >= 0) {
    /* it takes its part of the merged load's result: the vector load
     * writes all of the group's registers at once, so the part goes right
     * after it (its registers live from then, for the budget), and its
     * readers wait for the load's latency, not for the part */
    n->after_row = d->fuse_row;
    uint8_t k = 0;
    for (uint8_t i = 0; i < n->nsrc; i++) if (n->src[i] != d->fuse_row) n->src[k++] = n->src[i];
    n->nsrc = k;
  }
  if (touches_carry(x->in)) {
    int32_t cc = (int32_t)(e->sr_base + SR_CC);
    n->src[n->nsrc++] = cc;
    n->dst[n->ndst++] = cc;
  }
  n->weight = d->lat ? d->lat : 1;
  const isa_insn *in = x->in;
  bool load = in->op == OP_LD || in->op == OP_LDU || in->op == OP_LDMATRIX ||
              in->op == OP_WMMA_LOAD_A || in->op == OP_WMMA_LOAD_B || in->op == OP_WMMA_LOAD_C;
  if (load || in->op == OP_ST || in->op == OP_WMMA_STORE_D) {
    n->mem = mem_class(in->space);
    n->store = !load;
    /* kernel parameters are constant-bank operands in SASS: no latency to hide */
    if (!n->store) n->weight = n->mem & (MC_GLOBAL | MC_LOCAL) ? g->lat_dram : n->mem == MC_SHARED ? g->lat_shared
                             : n->mem == MC_PARAM ? g->lat_int : g->lat_l1;
  }
}

static bool shares_row(const int32_t *a, uint8_t na, const int32_t *b, uint8_t nb) {
  for (uint8_t i = 0; i < na; i++)
    for (uint8_t j = 0; j < nb; j++) if (a[i] == b[j]) return true;
  return false;
}

/* Must a (earlier in PTX order) issue before b?  0: no; 1: before it;
 * 2: b reads what a writes, so b waits for a's result. */
static uint8_t depends(const node *a, const node *b) {
  if (shares_row(a->dst, a->ndst, b->src, b->nsrc)) return 2;      /* read after write  */
  if (shares_row(a->src, a->nsrc, b->dst, b->ndst)) return 1;      /* write after read  */
  if (shares_row(a->dst, a->ndst, b->dst, b->ndst)) return 1;      /* write after write */
  if (b->after_row >= 0 && shares_row(a->dst, a->ndst, &b->after_row, 1)) return 1;   /* a merged load's part */
  return (a->store || b->store) && (a->mem & b->mem) ? 1 : 0;
}

/* ---- the register budget ------------------------------------------------- */

/* 32-bit registers of row r in function f's register file (predicates,
 * special and offset rows: none) */
static uint8_t row_units(const emu *e, const isa_func *f, int32_t r) {
  uint32_t base = e->row_base[f - e->m->funcs];
  if (r < 0 || (uint32_t)r < base || (uint32_t)r - base >= f->nregs) return 0;
  return (uint8_t)isa_reg_units(f->regtype[(uint32_t)r - base]);
}

static bool has_bit(const uint64_t *s, int32_t r) { return s[(uint32_t)r / 64] >> ((uint32_t)r % 64) & 1; }

/* The run's index of row r, made on first sight. */
static uint16_t local_row(budget *b, const emu *e, const isa_func *f, int32_t r) {
  if (b->local[r] >= 0) return (uint16_t)b->local[r];
  rowuse *u = &b->rows[b->nrows];
  *u = (rowuse){ r, row_units(e, f, r), false, has_bit(b->after, r), 0, 0, 0 };
  b->local[r] = (int32_t)b->nrows;
  return (uint16_t)b->nrows++;
}

static bool has16(const uint16_t *a, uint8_t n, uint16_t v) {
  for (uint8_t i = 0; i < n; i++) if (a[i] == v) return true;
  return false;
}

/* The run's instructions lo.. (n nodes, in PTX order) set up for the
 * budget: which rows each reads and writes, and the rows live before and
 * after the run (budget_start then begins a schedule). */
static void budget_setup(budget *b, const emu *e, node *nd, uint32_t n, uint32_t lo) {
  const isa_func *f = e->prog[lo].f;
  rowlive_before(b->live, lo, b->before);
  rowlive_before(b->live, lo + n, b->after);
  b->nrows = 0;
  for (uint32_t i = 0; i < n; i++) {
    node *x = &nd[i];
    bool guarded = e->prog[lo + i].guard >= 0;
    x->nr = x->nw = 0;
    for (uint8_t k = 0; k < x->nsrc; k++)
      if (x->src[k] >= 0 && (uint32_t)x->src[k] < e->nrows) {
        uint16_t l = local_row(b, e, f, x->src[k]);
        if (!has16(x->rrow, x->nr, l)) { x->rrow[x->nr] = l; x->rval[x->nr++] = b->rows[l].nwrites; }
      }
    for (uint8_t k = 0; k < x->ndst; k++)
      if (x->dst[k] >= 0 && (uint32_t)x->dst[k] < e->nrows) {
        uint16_t l = local_row(b, e, f, x->dst[k]);
        if (has16(x->wrow, x->nw, l)) continue;
        /* a guarded write keeps the old value for the other lanes: a read of it */
        if (guarded && !has16(x->rrow, x->nr, l)) { x->rrow[x->nr] = l; x->rval[x->nr++] = b->rows[l].nwrites; }
        x->wrow[x->nw++] = l;
      }
    for (uint8_t k = 0; k < x->nw; k++) b->rows[x->wrow[k]].nwrites++;
  }
  b->nleft = 0;
  for (uint32_t r = 0; r < b->nrows; r++) { b->rows[r].reads = b->nleft; b->nleft += b->rows[r].nwrites + 1u; }
  /* live before the run: every row, named by the run or not */
  b->p0 = 0;
  for (uint32_t w = 0; w < rowlive_words(b->live); w++)
    for (uint64_t m = b->before[w]; m; m &= m - 1) b->p0 += row_units(e, f, (int32_t)(w * 64 + (uint32_t)__builtin_ctzll(m)));
}

/* A schedule of the set-up run begins: no instruction issued, the reads
 * of each value all to come, the registers live before the run. */
static void budget_start(budget *b, const node *nd, uint32_t n) {
  for (uint32_t r = 0; r < b->nrows; r++) {
    b->rows[r].written = 0;
    b->rows[r].live = has_bit(b->before, b->rows[r].row);
  }
  memset(b->left, 0, b->nleft * sizeof *b->left);
  for (uint32_t i = 0; i < n; i++)
    for (uint8_t k = 0; k < nd[i].nr; k++) b->left[b->rows[nd[i].rrow[k]].reads + nd[i].rval[k]]++;
  b->p = b->p0;
}

static void budget_forget(budget *b) {
  for (uint32_t r = 0; r < b->nrows; r++) b->local[b->rows[r].row] = -1;
  b->nrows = 0;
}

/* Whether row u's value v is live once the reads before it are done. */
static bool value_live(const budget *b, const rowuse *u, uint32_t v) {
  return b->left[u->reads + v] > 0 || (v == u->nwrites && u->live_out);
}

/* The change in live registers if x issued now (apply: and it does):
 * the values whose last read it is die, the values it writes that are
 * read later (or after the run) are born; a destination may reuse a
 * source's register. */
static int64_t budget_step(budget *b, const node *x, bool apply) {
  int64_t d = 0;
  uint16_t died[2 * MAX_DEPS + 2];
  uint8_t ndied = 0;
  for (uint8_t k = 0; k < x->nr; k++) {
    rowuse *u = &b->rows[x->rrow[k]];
    uint16_t *left = &b->left[u->reads + x->rval[k]];
    bool last_value = u->written == u->nwrites && u->live_out;
    if (*left == 1 && u->live && x->rval[k] == u->written && !last_value) { d -= u->units; died[ndied++] = x->rrow[k]; }
    if (apply && *left) (*left)--;
  }
  for (uint8_t k = 0; k < x->nw; k++) {
    rowuse *u = &b->rows[x->wrow[k]];
    uint32_t v = u->written + 1u;
    bool was = u->live && !has16(died, ndied, x->wrow[k]), now = value_live(b, u, v);
    if (now && !was) d += u->units;
    if (!now && was) d -= u->units;
    if (apply) { u->written = (uint16_t)v; u->live = now; }
  }
  if (apply) {
    for (uint8_t k = 0; k < ndied; k++) if (!has16(x->wrow, x->nw, died[k])) b->rows[died[k]].live = false;
    b->p += d;
  }
  return d;
}

/* Whether x may issue now within the budget's limit. */
static bool fits(budget *b, const node *x, int64_t limit) {
  int64_t d = budget_step(b, x, false);
  return d <= 0 || b->p + d <= limit;
}

/* Issue node i as the k-th of the run at cycle now: its successors' due cycles. */
static void issue_node(node *nd, uint32_t n, const uint8_t *edge, uint32_t *order, budget *b, uint32_t k, uint32_t i, uint64_t now) {
  order[k] = i;
  if (b) budget_step(b, &nd[i], true);
  nd[i].npred = UINT32_MAX;                  /* issued */
  for (uint32_t j = i + 1; j < n; j++) {
    if (!edge[i * n + j]) continue;
    nd[j].npred--;
    uint64_t due = now + (edge[i * n + j] == 2 ? nd[i].weight : 1);
    if (due > nd[j].due) nd[j].due = due;
  }
}

/* Schedule a run of n movable instructions into order[0 .. n): cycle by
 * cycle, the ready instruction (its predecessors issued, its operands due)
 * with the longest path to the run's end issues; when none is due, the one
 * due first.  With a budget (b set up for the run), an instruction that
 * would take the live registers past the limit waits while another
 * (due, else the first due) stays within it.  *end (unless NULL): the
 * schedule's length in cycles. */
static void schedule_run(node *nd, uint32_t n, uint8_t *edge, uint32_t *order, budget *b, const emu *e, uint32_t lo, uint64_t *end) {
  memset(edge, 0, (size_t)n * n);
  for (uint32_t i = 0; i < n; i++) { nd[i].npred = 0; nd[i].due = nd[i].not_before; }
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = i + 1; j < n; j++)
      if ((edge[i * n + j] = depends(&nd[i], &nd[j]))) nd[j].npred++;
  for (uint32_t i = n; i-- > 0;) {
    uint64_t h = 0;
    for (uint32_t j = i + 1; j < n; j++) if (edge[i * n + j] && nd[j].height > h) h = nd[j].height;
    nd[i].height = h + nd[i].weight;
  }
  int64_t limit = INT64_MAX;
  if (b) {
    /* the limit: the budget, or the most PTX order has live in the run */
    budget_setup(b, e, nd, n, lo);
    budget_start(b, nd, n);
    int64_t peak = b->p;
    for (uint32_t i = 0; i < n; i++) { budget_step(b, &nd[i], true); if (b->p > peak) peak = b->p; }
    budget_start(b, nd, n);
    limit = peak > (int64_t)b->regs ? peak : (int64_t)b->regs;
    bool merged = false;
    for (uint32_t i = 0; i < n; i++) merged |= nd[i].after_row >= 0;
    if (merged && b->p0 + (int64_t)b->ahead > limit) limit = b->p0 + (int64_t)b->ahead;
  }
  uint64_t now = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t best = UINT32_MAX, first = UINT32_MAX, fit = UINT32_MAX, fit_first = UINT32_MAX;
    bool best_fits = false;
    for (uint32_t i = 0; i < n; i++) {
      if (nd[i].npred) continue;
      bool ok = b && fits(b, &nd[i], limit);
      if (nd[i].due <= now && (best == UINT32_MAX || nd[i].height > nd[best].height)) { best = i; best_fits = ok; }
      if (first == UINT32_MAX || nd[i].due < nd[first].due) first = i;
      if (ok) {
        if (nd[i].due <= now && (fit == UINT32_MAX || nd[i].height > nd[fit].height)) fit = i;
        if (fit_first == UINT32_MAX || nd[i].due < nd[fit_first].due) fit_first = i;
      }
    }
    if (b && !best_fits) {
      if (fit != UINT32_MAX) best = fit;
      else if (fit_first != UINT32_MAX) { best = fit_first; if (nd[best].due > now) now = nd[best].due; }
    }
    if (best == UINT32_MAX) { best = first; now = nd[first].due; }
    issue_node(nd, n, edge, order, b, k, best, now);
    /* the parts of a merged load come with it: one vector load writes them */
    for (uint32_t j = best + 1; j < n && k + 1 < n; j++)
      if (!nd[j].npred && nd[j].after_row >= 0 && shares_row(nd[best].dst, nd[best].ndst, &nd[j].after_row, 1))
        issue_node(nd, n, edge, order, b, ++k, j, now);
    now++;
  }
  if (end) *end = now;                       /* the cycle after the last issue */
  if (b) budget_forget(b);
}

void emu_block_leaders(const emu *e, uint8_t *leader) {
  uint32_t np = e->nprog;
  /* labels (branch and table targets are labels) */
  const isa_module *m = e->m;
  for (uint32_t f = 0; f < m->nfuncs; f++) {
    uint32_t base = e->func_base[f];
    if (base == UINT32_MAX) continue;
    leader[base] = 1;
    const isa_func *fn = &m->funcs[f];
    for (uint32_t l = 0; l < fn->nlabels; l++) if (fn->label_pc[l] <= fn->ninsns) leader[base + fn->label_pc[l]] = 1;
  }
  for (uint32_t pc = 0; pc < np; pc++) {
    const xinsn *x = &e->prog[pc];
    if (x->target < np && (x->flags & XF_CONTROL)) leader[x->target] = 1;
    if ((x->flags & XF_CONTROL) || isa_ops[x->in->op].family == F_CTRL) leader[pc + 1] = 1;
  }
}

/* ptxas computes a value that only stores use (their address, their data,
 * directly or through other such instructions) just before the store, as
 * late as the store's own inputs allow, not as soon as it can: the value's
 * registers are not held across the block ([S] sm_90 SASS of tests/microbench
 * mb_mix mix_store and the validation init kernels: the IMAD.WIDE of the
 * STG's address comes after the whole hash, the induction update that
 * must follow it after that, and the loop's ISETP right before the BRA,
 * which waits its 13 cycles).  With the first schedule's length `end`, such
 * an instruction may issue no earlier than its path to the end (through
 * results) before it.  Special-register and constant reads keep their
 * place: their latency is long, and ptxas issues them first. */
static bool sink_late(node *nd, uint32_t n, const uint8_t *edge, const deps *dep, uint32_t lo, uint64_t end) {
  bool late[RUN_MAX], moved = false;
  uint64_t path[RUN_MAX];
  for (uint32_t i = n; i-- > 0;) {
    bool read = false, only_stores = true;
    path[i] = nd[i].weight;
    for (uint32_t j = i + 1; j < n; j++) {
      if (edge[i * n + j] != 2) continue;
      read = true;
      if (!nd[j].store && !late[j]) only_stores = false;
      if (nd[i].weight + path[j] > path[i]) path[i] = nd[i].weight + path[j];
    }
    late[i] = read && only_stores && !nd[i].mem && !dep[lo + i].s2r && !dep[lo + i].imc_sreg;
  }
  for (uint32_t i = 0; i < n; i++)
    if (late[i] && end > path[i]) { nd[i].not_before = end - path[i]; moved = true; }
  return moved;
}

/* ---- predicated ifs scheduled with the code around them ------------------
 *
 * ptxas writes a short if as predicated code in the block around it and
 * schedules the two together (sm_90 SASS of val_srad srad1: its four halo
 * ifs' LDGs issue back to back with the tile's, their STSs after).  With
 * gpu_config.ifconvert_schedule, an if the timing model if-converts
 * (deps.ifconv_end) joins the run of movable instructions before it:
 *   '@p bra T; BODY T:'           BODY runs where p is false
 *   '@p bra T; bra J; T: BODY J:' BODY runs where p is true
 * BODY takes the branch's predicate as its guard (the lanes whose guard
 * holds are those that would have entered it, so every lane computes the
 * same values) and the branches go after the run, each to the instruction
 * after it: they still execute (the PTX's counts keep them) but skip
 * nothing.  A run goes on past the region's join when only the region's
 * branches lead there.  BODY must be straight code of movable, unguarded,
 * lane-private instructions that do not write p, and the join no return
 * (ptxas makes such an if an early EXIT). */

/* The if-converted region whose first branch is at b: its body
 * [*body, *join), the branches before it (*nbr), and the guard's sense. */
static bool region_at(const emu *e, const deps *dep, const uint8_t *refs, uint32_t b, uint32_t *body, uint32_t *join,
                      uint32_t *nbr, bool *neg) {
  uint32_t np = e->nprog;
  const xinsn *x = &e->prog[b];
  /* (a branch another one leads to would skip the body moved above it) */
  if (x->in->op != OP_BRA || x->guard < 0 || !dep[b].ifconv_end || x->target <= b || x->target >= np || refs[b]) return false;
  if (x->target == b + 2 && e->prog[b + 1].in->op == OP_BRA && e->prog[b + 1].guard < 0 && dep[b + 1].ifconv_end &&
      e->prog[b + 1].target > b + 2 && e->prog[b + 1].target < np && refs[b + 1] == 0 && refs[b + 2] == 1) {
    *body = b + 2; *join = e->prog[b + 1].target; *nbr = 2; *neg = x->guard_neg != 0;
  } else {
    *body = b + 1; *join = x->target; *nbr = 1; *neg = !x->guard_neg;
  }
  /* (an if that skips to the function's return is an early EXIT in SASS:
   * the warps that leave issue nothing more, tests/timing early_exit) */
  if (dep[b].ifconv_end != *join || (*nbr == 1 && refs[*body]) || *join <= *body ||
      e->prog[*join].in->op == OP_RET || e->prog[*join].in->op == OP_EXIT)
    return false;
  for (uint32_t i = *body; i < *join; i++) {
    const xinsn *y = &e->prog[i];
    int fam = isa_ops[y->in->op].family;
    if (y->f != x->f || y->guard >= 0 || (i > *body && refs[i]) || fam == F_WARP || fam == F_MMA || !emu_reorder_movable(y, &dep[i]) ||
        dep[i].nsrc + 1 >= MAX_DEPS)
      return false;
    for (uint8_t k = 0; k < dep[i].ndst; k++) if (dep[i].dst[k] == x->guard) return false;
  }
  return true;
}

/* Move e->prog[a, m) (and their deps) to the end of [a, z), the rest up. */
static void rotate(emu *e, deps *dep, uint32_t a, uint32_t m, uint32_t z, xinsn *tx, deps *td) {
  uint32_t k = m - a;
  memcpy(tx, &e->prog[a], k * sizeof *tx);
  memcpy(td, &dep[a], k * sizeof *td);
  memmove(&e->prog[a], &e->prog[m], (z - m) * sizeof *tx);
  memmove(&dep[a], &dep[m], (z - m) * sizeof *td);
  memcpy(&e->prog[z - k], tx, k * sizeof *tx);
  memcpy(&dep[z - k], td, k * sizeof *td);
  for (uint32_t i = a; i < z; i++) e->prog[i].pc = i;
}

/* The run of n movable instructions at lo grown by the predicated ifs
 * after it (and the movable code after their joins): returns its movable
 * length; *nbr: the branches that now follow it, each retargeted to the
 * instruction after it (they skip nothing). */
static uint32_t join_regions(emu *e, deps *dep, const uint8_t *leader, const uint8_t *refs, uint32_t lo, uint32_t n,
                             uint32_t *nbranches, xinsn *tx, deps *td) {
  uint32_t np = e->nprog, held = 0;    /* the branches moved so far: [lo + n, lo + n + held) */
  for (;;) {
    uint32_t b = lo + n + held, body, join, nbr;
    bool neg;
    if (b >= np || !region_at(e, dep, refs, b, &body, &join, &nbr, &neg) || join - lo > RUN_MAX) break;
    /* the body before the branches (held ones and this region's) */
    for (uint32_t i = body; i < join; i++) {
      e->prog[i].guard = e->prog[b].guard;
      e->prog[i].guard_neg = neg;
      dep[i].src[dep[i].nsrc++] = e->prog[b].guard;
    }
    rotate(e, dep, lo + n, body, join, tx, td);
    n += join - body;
    held += nbr;
    /* ... and the movable code after the join, where only they lead */
    uint32_t j = lo + n + held, k = 0;
    if (j >= np || refs[j] != 1 || !emu_reorder_movable(&e->prog[j], &dep[j])) break;
    while (j + k < np && j + k - lo < RUN_MAX && (k == 0 || !leader[j + k]) && emu_reorder_movable(&e->prog[j + k], &dep[j + k])) k++;
    rotate(e, dep, lo + n, j, j + k, tx, td);
    n += k;
  }
  for (uint32_t i = lo + n; i < lo + n + held; i++) { e->prog[i].target = i + 1; dep[i].ifconv_end = i + 1; }
  *nbranches = held;
  return n;
}

int emu_reorder(emu *e, const gpu_config *g, deps *dep) {
  uint32_t np = e->nprog;
  if (!np) return 0;
  uint8_t *leader = calloc(np + 1, 1);
  node *nd = malloc(RUN_MAX * sizeof *nd);
  uint8_t *edge = malloc(RUN_MAX * RUN_MAX);
  uint32_t *order = malloc(RUN_MAX * sizeof *order);
  xinsn *tmp = malloc(RUN_MAX * sizeof *tmp);
  deps *dtmp = malloc(RUN_MAX * sizeof *dtmp);
  int rc = -1;
  uint8_t *refs = NULL;
  budget bud = { 0 }, *b = NULL;
  if (!leader || !nd || !edge || !order || !tmp || !dtmp) goto out;
  emu_block_leaders(e, leader);
  if (g->ptxas_regs > 2 && (bud.live = rowlive_new(e, dep, leader))) {
    uint32_t W = rowlive_words(bud.live);
    bud.regs = g->ptxas_regs - 2;
    bud.ahead = g->ptxas_ahead_regs;
    bud.before = malloc((size_t)W * 8);
    bud.after = malloc((size_t)W * 8);
    bud.local = malloc((size_t)e->nrows * sizeof *bud.local);
    bud.rows = malloc(RUN_MAX * (3 * MAX_DEPS + 3) * sizeof *bud.rows);
    bud.left = malloc(RUN_MAX * (3 * MAX_DEPS + 3) * 2 * sizeof *bud.left);
    if (!bud.before || !bud.after || !bud.local || !bud.rows || !bud.left) goto out;
    memset(bud.local, 0xff, (size_t)e->nrows * sizeof *bud.local);
    b = &bud;
  }
  /* how many branches lead to each PC (predicated ifs: the joins only they reach) */
  if (g->ifconvert_schedule) {
    if (!(refs = calloc(np + 1, 1))) goto out;
    for (uint32_t i = 0; i < np; i++) {
      const xinsn *x = &e->prog[i];
      if (x->in->op == OP_BRX_IDX) { free(refs); refs = NULL; break; }    /* (table targets: not counted) */
      if ((x->flags & XF_CONTROL) && x->target < np && refs[x->target] < 255) refs[x->target]++;
    }
  }
  uint32_t pc = 0;
  while (pc < np) {
    if (!emu_reorder_movable(&e->prog[pc], &dep[pc])) { pc++; continue; }
    /* a run of movable instructions inside one block */
    uint32_t lo = pc, n = 0, nbr = 0;
    do n++; while (lo + n < np && n < RUN_MAX && !leader[lo + n] && emu_reorder_movable(&e->prog[lo + n], &dep[lo + n]));
    if (refs) n = join_regions(e, dep, leader, refs, lo, n, &nbr, tmp, dtmp);
    if (n > 1) {
      for (uint32_t i = 0; i < n; i++) make_node(e, g, &e->prog[lo + i], &dep[lo + i], &nd[i]);
      uint64_t end = 0;
      schedule_run(nd, n, edge, order, b, e, lo, &end);
      if (g->ptxas_sink && sink_late(nd, n, edge, dep, lo, end)) schedule_run(nd, n, edge, order, b, e, lo, NULL);
      memcpy(tmp, &e->prog[lo], n * sizeof *tmp);
      memcpy(dtmp, &dep[lo], n * sizeof *dtmp);
      for (uint32_t k = 0; k < n; k++) {
        e->prog[lo + k] = tmp[order[k]];
        e->prog[lo + k].pc = lo + k;
        dep[lo + k] = dtmp[order[k]];    /* an instruction's timing class does not depend on its place */
      }
    }
    pc = lo + n + nbr;
  }
  timing_mark_hoisted(e, g, dep);
  rc = 0;
out:
  free(refs);
  free(leader); free(nd); free(edge); free(order); free(tmp); free(dtmp);
  rowlive_free(bud.live); free(bud.before); free(bud.after); free(bud.local); free(bud.rows); free(bud.left);
  return rc;
}
