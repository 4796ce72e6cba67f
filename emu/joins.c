/* emu/joins.c - where the paths of a divergent branch meet.
 *
 * ptxas brackets a divergent region with BSSY and a BSYNC at the branch's
 * immediate post-dominator: the warp runs one path until the BSYNC, then
 * switches to a waiting one ([S] sm_90 SASS of tests/microbench mb_div and
 * mb_vary vswitch: one BSSY before a switch's compare tree, its BSYNC where
 * the cases meet).  The interpreter runs the group with the lowest PC
 * first (run.c), which may also switch groups in the middle of a path
 * (a case that jumps forward past another's waiting threads); the timing
 * model charges a path switch only where the hardware's would be (timing.c),
 * which is what this computes: each conditional branch's immediate
 * post-dominator, over each function's basic blocks (Cooper, Harvey and
 * Kennedy's iterative algorithm on the reversed graph).  A function whose
 * graph it cannot follow (an indirect branch, brx.idx) or that is too large
 * has every PC marked: every switch is charged there. */
#include <stdlib.h>
#include "emu/internal.h"
#include "emu/reorder.h"
#include "emu/joins.h"

#define MAX_BLOCKS (1u << 20)
#define MAX_PASSES 64

static void mark_all(uint8_t *join, uint32_t lo, uint32_t hi) { for (uint32_t pc = lo; pc < hi; pc++) join[pc] = 1; }

/* nearest common post-dominator of a and b (order: postorder numbers on the
 * reversed graph, the exit highest) */
static uint32_t meet(const uint32_t *ipdom, const uint32_t *order, uint32_t a, uint32_t b, uint64_t *work) {
  while (a != b) {
    while (order[a] < order[b]) { a = ipdom[a]; ++*work; }
    while (order[b] < order[a]) { b = ipdom[b]; ++*work; }
  }
  return a;
}

/* one function, global PCs [lo, hi); false: not followed */
static bool function_joins(const emu *e, const uint8_t *leader, uint32_t lo, uint32_t hi, uint8_t *join) {
  uint32_t nb = 0;
  for (uint32_t pc = lo; pc < hi; pc++) {
    if (e->prog[pc].in->op == OP_BRX_IDX) return false;
    nb += leader[pc];                          /* (a function's first PC leads a block) */
  }
  if (nb == 0 || nb > MAX_BLOCKS) return nb == 0;
  uint32_t x = nb, n = nb + 1;                 /* x: the exit */
  uint32_t *blk = malloc((hi - lo) * sizeof *blk), *first = malloc(n * sizeof *first), *succ = malloc(2 * n * sizeof *succ);
  uint32_t *npred = calloc(n + 1, sizeof *npred), *pred = malloc(2 * n * sizeof *pred), *order = malloc(n * sizeof *order);
  uint32_t *ipdom = malloc(n * sizeof *ipdom), *stack = malloc(2 * n * sizeof *stack), *rpo = malloc(n * sizeof *rpo);
  uint32_t *at = malloc(n * sizeof *at);
  uint8_t *nsucc = calloc(n, 1);
  bool ok = blk && first && succ && npred && pred && order && ipdom && stack && rpo && at && nsucc;
  if (!ok) goto out;
  for (uint32_t pc = lo, b = 0; pc < hi; pc++) {
    if (leader[pc] && pc != lo) b++;
    if (leader[pc]) first[b] = pc;
    blk[pc - lo] = b;
  }
  /* successors: the instruction's (emu_successors) as blocks; exit and ret,
   * a target outside the function and the end go to the exit */
  for (uint32_t b = 0; b < nb; b++) {
    uint32_t last = (b + 1 < nb ? first[b + 1] : hi) - 1, sl[2];
    const xinsn *xi = &e->prog[last];
    uint32_t ns = emu_successors(xi, lo, hi - lo, last - lo, sl);
    uint8_t k = 0;
    if (xi->in->op == OP_EXIT || xi->in->op == OP_RET) succ[2 * b + k++] = x;
    for (uint32_t i = 0; i < ns; i++) {
      uint32_t sb = sl[i] < hi - lo ? blk[sl[i]] : x;
      if (!k || succ[2 * b] != sb) succ[2 * b + k++] = sb;
    }
    if (!k) succ[2 * b + k++] = x;
    nsucc[b] = k;
  }
  /* predecessors (the reversed graph's successors), counted then placed */
  for (uint32_t b = 0; b < nb; b++) for (uint8_t k = 0; k < nsucc[b]; k++) npred[succ[2 * b + k] + 1]++;
  for (uint32_t i = 0; i < n; i++) npred[i + 1] += npred[i];
  for (uint32_t i = 0; i < n; i++) at[i] = npred[i];
  for (uint32_t b = 0; b < nb; b++) for (uint8_t k = 0; k < nsucc[b]; k++) pred[at[succ[2 * b + k]]++] = b;
  /* postorder of the reversed graph from the exit, without recursion */
  for (uint32_t i = 0; i < n; i++) order[i] = UINT32_MAX;
  uint32_t sp = 0, post = 0;
  stack[sp++] = x; stack[sp++] = npred[x];
  order[x] = UINT32_MAX - 1;                  /* on the stack */
  while (sp) {
    uint32_t v = stack[sp - 2], *next = &stack[sp - 1];
    if (*next < npred[v + 1]) {
      uint32_t u = pred[(*next)++];
      if (order[u] == UINT32_MAX) { order[u] = UINT32_MAX - 1; stack[sp++] = u; stack[sp++] = npred[u]; }
    } else {
      sp -= 2;
      order[v] = post;
      rpo[post++] = v;
    }
  }
  /* the iteration, in reverse postorder (the exit first) */
  for (uint32_t i = 0; i < n; i++) ipdom[i] = UINT32_MAX;
  ipdom[x] = x;
  bool changed = true;
  uint64_t work = 0, max_work = 64 * (uint64_t)n + (1u << 22);   /* (hostile graphs stay linear) */
  for (uint32_t pass = 0; changed && pass < MAX_PASSES && work <= max_work; pass++) {
    changed = false;
    for (uint32_t i = post; i-- > 0; ) {
      uint32_t b = rpo[i];
      if (b == x) continue;
      uint32_t d = UINT32_MAX;
      for (uint8_t k = 0; k < nsucc[b]; k++) {
        uint32_t s = succ[2 * b + k];
        if (ipdom[s] == UINT32_MAX) continue;
        d = d == UINT32_MAX ? s : meet(ipdom, order, d, s, &work);
      }
      if (d != ipdom[b]) { ipdom[b] = d; changed = true; }
    }
  }
  if (changed) { ok = false; goto out; }   /* (not settled: every PC a join) */
  /* each conditional branch's meeting point (none where the paths meet
   * only at the exit, or a block the exit cannot be reached from) */
  for (uint32_t b = 0; b < nb; b++)
    if (nsucc[b] == 2 && ipdom[b] != UINT32_MAX && ipdom[b] != x) join[first[ipdom[b]]] = 1;
out:
  free(blk); free(first); free(succ); free(npred); free(pred); free(order); free(ipdom); free(stack); free(rpo); free(at); free(nsucc);
  return ok;
}

bool emu_join_points(const emu *e, uint8_t *join) {
  uint8_t *leader = calloc(e->nprog + 1, 1);
  if (!leader) return false;
  emu_block_leaders(e, leader);
  const isa_module *m = e->m;
  for (uint32_t f = 0; f < m->nfuncs; f++) {
    uint32_t lo = e->func_base[f];
    if (lo == UINT32_MAX) continue;
    uint32_t hi = lo + m->funcs[f].ninsns + 1;            /* (+ the implicit return) */
    if (hi > e->nprog) hi = e->nprog;
    if (!function_joins(e, leader, lo, hi, join)) mark_all(join, lo, hi);
  }
  free(leader);
  return true;
}
