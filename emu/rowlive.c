/* emu/rowlive.c - live register rows over the timed program's basic
 * blocks (see rowlive.h). */
#include <stdlib.h>
#include <string.h>
#include "emu/rowlive.h"

#define MAX_WORDS (1u << 20)      /* blocks x words of a set, all sets together: past it, no answer */
#define MAX_PASSES 64             /* sweeps before giving up (a fixed point needs about the loop depth) */

struct rowlive {
  const emu *e;
  const deps *dep;
  uint32_t nb, W;
  uint32_t *first;                /* per block: its first pc; first[nb] = nprog */
  uint32_t *block;                /* per pc: its block */
  uint64_t *in, *out;             /* per block: live-in, live-out */
};

uint32_t rowlive_words(const rowlive *l) { return l->W; }

void rowlive_free(rowlive *l) {
  if (!l) return;
  free(l->first); free(l->block); free(l->in); free(l->out);
  free(l);
}

static void set_bit(uint64_t *s, int32_t r, uint32_t W) { if (r >= 0 && (uint32_t)r / 64 < W) s[r / 64] |= 1ull << (r % 64); }
static void clear_bit(uint64_t *s, int32_t r, uint32_t W) { if (r >= 0 && (uint32_t)r / 64 < W) s[r / 64] &= ~(1ull << (r % 64)); }

/* live = live before instruction pc, given live after it */
static void step_back(const rowlive *l, uint32_t pc, uint64_t *live) {
  const deps *d = &l->dep[pc];
  if (l->e->prog[pc].guard < 0)
    for (uint8_t i = 0; i < d->ndst; i++) clear_bit(live, d->dst[i], l->W);
  for (uint8_t i = 0; i < d->nsrc; i++) set_bit(live, d->src[i], l->W);
}

/* The blocks after block b (-1 ends the list; at most 2), or none known:
 * *all set (an indexed branch: everything counts as live after it). */
static void successors(const rowlive *l, uint32_t b, int64_t *succ, bool *all) {
  const emu *e = l->e;
  uint32_t last = l->first[b + 1] - 1, np = e->nprog;
  const xinsn *x = &e->prog[last];
  int k = 0;
  *all = false;
  bool falls = last + 1 < np;
  if (x->flags & XF_CONTROL) {
    switch (x->in->op) {
    case OP_BRA:
      if (x->target < np) succ[k++] = l->block[x->target];
      falls = falls && x->guard >= 0;
      break;
    case OP_RET: case OP_EXIT: case OP_TRAP: falls = false; break;
    case OP_CALL: break;
    default:
      if (x->in->op == OP_BRX_IDX) *all = true;
      else if (x->target < np) succ[k++] = l->block[x->target];
      break;
    }
  }
  if (falls) succ[k++] = l->block[last + 1];
  succ[k] = -1;
}

rowlive *rowlive_new(const emu *e, const deps *dep, const uint8_t *leader) {
  uint32_t np = e->nprog, nb = 0, W = (e->nrows + 63) / 64;
  if (!np || !W) return NULL;
  for (uint32_t pc = 0; pc < np; pc++) nb += pc == 0 || leader[pc];
  if ((uint64_t)nb * W * 2 > MAX_WORDS) return NULL;
  rowlive *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  *l = (rowlive){ e, dep, nb, W, malloc(((size_t)nb + 1) * sizeof *l->first), malloc((size_t)np * sizeof *l->block),
                  calloc((size_t)nb * W, 8), calloc((size_t)nb * W, 8) };
  uint64_t *tmp = malloc((size_t)W * 8);
  if (!l->first || !l->block || !l->in || !l->out || !tmp) { free(tmp); rowlive_free(l); return NULL; }
  for (uint32_t pc = 0, b = 0; pc < np; pc++) {
    if (pc == 0 || leader[pc]) l->first[b++] = pc;
    l->block[pc] = b - 1;
  }
  l->first[nb] = np;
  /* backward sweeps, last block first, until nothing changes */
  bool changed = true;
  for (uint32_t pass = 0; changed; pass++) {
    if (pass == MAX_PASSES) { free(tmp); rowlive_free(l); return NULL; }
    changed = false;
    for (uint32_t b = nb; b-- > 0;) {
      uint64_t *out = &l->out[(size_t)b * W], *in = &l->in[(size_t)b * W];
      int64_t succ[3];
      bool all;
      successors(l, b, succ, &all);
      if (all) memset(out, 0xff, (size_t)W * 8);
      for (int k = 0; succ[k] >= 0; k++) {
        const uint64_t *s = &l->in[(size_t)succ[k] * W];
        for (uint32_t j = 0; j < W; j++) out[j] |= s[j];
      }
      memcpy(tmp, out, (size_t)W * 8);
      for (uint32_t pc = l->first[b + 1]; pc-- > l->first[b];) step_back(l, pc, tmp);
      if (memcmp(tmp, in, (size_t)W * 8)) { memcpy(in, tmp, (size_t)W * 8); changed = true; }
    }
  }
  free(tmp);
  return l;
}

void rowlive_before(const rowlive *l, uint32_t pc, uint64_t *out) {
  if (pc >= l->e->nprog) { memset(out, 0, (size_t)l->W * 8); return; }
  uint32_t b = l->block[pc];
  memcpy(out, &l->out[(size_t)b * l->W], (size_t)l->W * 8);
  for (uint32_t i = l->first[b + 1]; i-- > pc;) step_back(l, i, out);
}

