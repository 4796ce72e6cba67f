/* emu/exec_pending.c - placeholders for instruction families being written. */
#include "emu/internal.h"
/* TEMPORARY: a few integer forms so the core can be exercised until
 * exec_int.c and exec_warp.c land. */
static void t_mov(warp *w, const xinsn *x, lanemask m) { const uint64_t *a = xsrc(w, x, 1); uint64_t *d = xdst(w, x, 0); FOR_LANES(i) if (m >> i & 1) d[i] = xfit(x, 0, a[i]); }
static void t_add(warp *w, const xinsn *x, lanemask m) { const uint64_t *a = xsrc(w, x, 1), *b = xsrc(w, x, 2); uint64_t *d = xdst(w, x, 0); FOR_LANES(i) if (m >> i & 1) d[i] = xfit(x, 0, a[i] + b[i]); }
static void t_madlo(warp *w, const xinsn *x, lanemask m) { const uint64_t *a = xsrc(w, x, 1), *b = xsrc(w, x, 2), *c = xsrc(w, x, 3); uint64_t *d = xdst(w, x, 0); FOR_LANES(i) if (m >> i & 1) d[i] = xfit(x, 0, a[i] * b[i] + c[i]); }
static void t_mulwide(warp *w, const xinsn *x, lanemask m) { const uint64_t *a = xsrc(w, x, 1), *b = xsrc(w, x, 2); uint64_t *d = xdst(w, x, 0); FOR_LANES(i) if (m >> i & 1) d[i] = (uint64_t)(sext(a[i], 32) * sext(b[i], 32)); }
static void t_setp_ge(warp *w, const xinsn *x, lanemask m) { const uint64_t *a = xsrc(w, x, 1), *b = xsrc(w, x, 2); uint64_t *d = xdst(w, x, 0); FOR_LANES(i) if (m >> i & 1) d[i] = sext(a[i], 32) >= sext(b[i], 32); }
int prep_int(emu *e, xinsn *x) {
  (void)e;
  switch (x->in->op) {
  case OP_MOV: if (x->op[1].row) { x->fn = t_mov; return 0; } return -1;
  case OP_ADD: if (x->in->type == PTX_T_F32) return -1; x->fn = t_add; return 0;
  case OP_MAD: x->fn = t_madlo; return 0;
  case OP_MUL: if (x->in->flags & IF_WIDE) { x->fn = t_mulwide; return 0; } return -1;
  case OP_SETP: if (x->in->cmp == MOD_GE) { x->fn = t_setp_ge; return 0; } return -1;
  default: return -1;
  }
}
int prep_warp(emu *e, xinsn *x) { (void)e; (void)x; return -1; }
