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
 *    moves, conversions, plain (weak, non-volatile) ld/ldu/st, and the
 *    warp's matrix loads, stores and products (wmma, ldmatrix, mma).  Every
 *    other instruction (barriers, fences, atomics, warp collectives, async
 *    copies, clock reads, calls...) stays where it is and nothing crosses
 *    it, so reconvergence points, barrier order and the memory model's
 *    ordering are untouched.
 *  - Between two fixed instructions, a list scheduler keeps every
 *    dependence: registers (read after write, write after read, write after
 *    write, the carry flag), and memory (a store orders against every load
 *    and store of a state space it may alias; generic aliases global,
 *    shared and local).  Cycle by cycle, of the instructions whose
 *    operands are due, the one with the longest latency path to the end of
 *    the run goes first (ties in PTX order).  Loads weigh their memory
 *    latency, so they rise, and their uses sink below independent work.
 * Within one thread the result is the same as in PTX order, so functional
 * results do not change; x->pc is the new index (execution and scheduling
 * use it), x->spc the instruction's own PC (traces and messages use it). */
#include <stdlib.h>
#include <string.h>
#include "emu/internal.h"
#include "emu/timing_insn.h"
#include "emu/reorder.h"

#define RUN_MAX 256               /* longer runs are scheduled in pieces of this size */

enum { MC_GLOBAL = 1, MC_SHARED = 2, MC_LOCAL = 4, MC_PARAM = 8, MC_CONST = 16 };

typedef struct node {
  int32_t src[MAX_DEPS + 1], dst[MAX_DEPS + 1];
  uint8_t nsrc, ndst;
  uint8_t mem;                    /* MC_* classes it may touch, 0: none  */
  bool store;
  uint32_t weight;                /* its latency, for the priority       */
  uint64_t height;                /* longest weighted path to the run's end */
  uint64_t due;                   /* the cycle its operands are ready     */
  uint32_t npred;
} node;

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
  if (x->flags & (XF_CONTROL | XF_SYNC | XF_CLOCK)) return false;
  if (d->nsrc >= MAX_DEPS || d->ndst >= MAX_DEPS) return false;    /* its operand list was cut short */
  const isa_insn *in = x->in;
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
  return (a->store || b->store) && (a->mem & b->mem) ? 1 : 0;
}

/* Schedule a run of n movable instructions into order[0 .. n): cycle by
 * cycle, the ready instruction (its predecessors issued, its operands due)
 * with the longest path to the run's end issues; when none is due, the one
 * due first. */
static void schedule_run(node *nd, uint32_t n, uint8_t *edge, uint32_t *order) {
  memset(edge, 0, (size_t)n * n);
  for (uint32_t i = 0; i < n; i++) { nd[i].npred = 0; nd[i].due = 0; }
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = i + 1; j < n; j++)
      if ((edge[i * n + j] = depends(&nd[i], &nd[j]))) nd[j].npred++;
  for (uint32_t i = n; i-- > 0;) {
    uint64_t h = 0;
    for (uint32_t j = i + 1; j < n; j++) if (edge[i * n + j] && nd[j].height > h) h = nd[j].height;
    nd[i].height = h + nd[i].weight;
  }
  uint64_t now = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t best = UINT32_MAX, first = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
      if (nd[i].npred) continue;
      if (nd[i].due <= now && (best == UINT32_MAX || nd[i].height > nd[best].height)) best = i;
      if (first == UINT32_MAX || nd[i].due < nd[first].due) first = i;
    }
    if (best == UINT32_MAX) { best = first; now = nd[first].due; }
    order[k] = best;
    nd[best].npred = UINT32_MAX;                  /* issued */
    for (uint32_t j = best + 1; j < n; j++) {
      if (!edge[best * n + j]) continue;
      nd[j].npred--;
      uint64_t due = now + (edge[best * n + j] == 2 ? nd[best].weight : 1);
      if (due > nd[j].due) nd[j].due = due;
    }
    now++;
  }
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
  if (!leader || !nd || !edge || !order || !tmp || !dtmp) goto out;
  emu_block_leaders(e, leader);
  uint32_t pc = 0;
  while (pc < np) {
    if (!emu_reorder_movable(&e->prog[pc], &dep[pc])) { pc++; continue; }
    /* a run of movable instructions inside one block */
    uint32_t lo = pc, n = 0;
    do n++; while (lo + n < np && n < RUN_MAX && !leader[lo + n] && emu_reorder_movable(&e->prog[lo + n], &dep[lo + n]));
    if (n > 1) {
      for (uint32_t i = 0; i < n; i++) make_node(e, g, &e->prog[lo + i], &dep[lo + i], &nd[i]);
      schedule_run(nd, n, edge, order);
      memcpy(tmp, &e->prog[lo], n * sizeof *tmp);
      memcpy(dtmp, &dep[lo], n * sizeof *dtmp);
      for (uint32_t k = 0; k < n; k++) {
        e->prog[lo + k] = tmp[order[k]];
        e->prog[lo + k].pc = lo + k;
        dep[lo + k] = dtmp[order[k]];    /* an instruction's timing class does not depend on its place */
      }
    }
    pc = lo + n;
  }
  timing_mark_hoisted(e, g, dep);
  rc = 0;
out:
  free(leader); free(nd); free(edge); free(order); free(tmp); free(dtmp);
  return rc;
}
