/* debug/warps.c - the focus (block and thread, as cuda-gdb has it), and
 * what the warps of the focused block and the lanes of its warp are doing. */
#include <stdlib.h>
#include <string.h>
#include "debug/internal.h"

void dbg_print_focus(dbg *d) {
  int lane;
  const warp *w = dbg_focus_warp(d, &lane);
  dbg_printf(d, "Focus: block (%u,%u,%u) thread (%u,%u,%u)", d->fblock[0], d->fblock[1], d->fblock[2], d->fthread[0], d->fthread[1], d->fthread[2]);
  if (w) dbg_printf(d, ", warp %u lane %d\n", w->id, lane);
  else dbg_printf(d, " (the block is not running)\n");
}

/* The lanes of warp w grouped by PC and state: lanes alive, and per group
 * its mask; groups ordered by PC. */
typedef struct group { uint32_t pc; int state; lanemask m; } group;
static int groups_of(const warp *w, group *g) {
  int n = 0;
  for (int l = 0; l < (int)w->nthreads; l++) {
    if (w->state[l] == TS_EXITED) continue;
    uint32_t pc = dbg_lane_pc(w, l);
    int st = w->state[l] == TS_WSYNC && w->cur >> l & 1 ? TS_RUN : w->state[l];
    if (st == TS_RUN && w->cur && !(w->cur >> l & 1)) st = -1;     /* waits for its turn (divergence) */
    int k = 0;
    while (k < n && (g[k].pc != pc || g[k].state != st)) k++;
    if (k == n) { g[n++] = (group){ pc, st, 0 }; }
    g[k].m |= 1u << l;
  }
  for (int i = 1; i < n; i++) for (int j = i; j > 0 && g[j].pc < g[j - 1].pc; j--) { group t = g[j]; g[j] = g[j - 1]; g[j - 1] = t; }
  return n;
}

static const char *state_name(int st) {
  switch (st) {
  case TS_BAR: return "waiting at barrier";
  case TS_WSYNC: return "waiting at warp sync";
  case TS_SLEEP: return "sleeping (mbarrier)";
  case -1: return "diverged, waits";
  default: return "running";
  }
}

int dbg_cmd_info_warps(dbg *d) {
  if (!dbg_is_running(d, true)) return -1;
  cta *c = dbg_find_cta(d, d->fblock);
  if (!c) { dbg_printf(d, "Block (%u,%u,%u) is not running now (not started yet, or finished).\n", d->fblock[0], d->fblock[1], d->fblock[2]); return -1; }
  int flane;
  const warp *fw = dbg_focus_warp(d, &flane);
  dbg_printf(d, "Warps of block (%u,%u,%u):\n  Warp  Active mask  State                 PC   Where\n", c->id[0], c->id[1], c->id[2]);
  for (uint32_t wi = 0; wi < c->nwarps; wi++) {
    const warp *w = &c->warps[wi];
    group g[WARP_SIZE];
    int n = groups_of(w, g);
    const char *mark = w == fw ? "*" : " ";
    if (!n) { dbg_printf(d, "%s %-5u %-12s %-21s %-4s\n", mark, wi, "0x00000000", "exited", "-"); continue; }
    lanemask all = 0;
    for (int k = 0; k < n; k++) all |= g[k].m;
    char mask[16];
    snprintf(mask, sizeof mask, "0x%08x", all);
    if (n == 1) {
      dbg_printf(d, "%s %-5u %-12s %-21s %-4u ", mark, wi, mask, state_name(g[0].state), dbg_func_pc(d, &d->e->prog[g[0].pc]));
      dbg_print_pos(d, &d->e->prog[g[0].pc]);
      dbg_printf(d, "%s\n", w == d->sw ? "   <- runs now" : "");
      continue;
    }
    char st[32];
    snprintf(st, sizeof st, "diverged: %d groups", n);
    dbg_printf(d, "%s %-5u %-12s %s\n", mark, wi, mask, st);
    for (int k = 0; k < n; k++) {
      snprintf(mask, sizeof mask, "0x%08x", g[k].m);
      dbg_printf(d, "        %-12s %-21s %-4u ", mask, state_name(g[k].state), dbg_func_pc(d, &d->e->prog[g[k].pc]));
      dbg_print_pos(d, &d->e->prog[g[k].pc]);
      dbg_printf(d, "%s\n", w == d->sw && g[k].state == TS_RUN ? "   <- runs now" : "");
    }
  }
  return 0;
}

int dbg_cmd_info_lanes(dbg *d) {
  if (!dbg_is_running(d, true)) return -1;
  int flane;
  const warp *w = dbg_focus_warp(d, &flane);
  if (!w) { dbg_printf(d, "Block (%u,%u,%u) is not running now (not started yet, or finished).\n", d->fblock[0], d->fblock[1], d->fblock[2]); return -1; }
  dbg_printf(d, "Lanes of warp %u in block (%u,%u,%u):\n  Lane  Thread       State                 PC   Where\n", w->id, w->cta->id[0], w->cta->id[1], w->cta->id[2]);
  for (int l = 0; l < (int)w->nthreads; l++) {
    uint32_t t[3];
    dbg_thread_of(d, w, l, t);
    char th[40];
    snprintf(th, sizeof th, "(%u,%u,%u)", t[0], t[1], t[2]);
    dbg_printf(d, "%s %-5d %-12s %-21s ", l == flane ? "*" : " ", l, th, dbg_lane_state(w, l));
    if (w->state[l] == TS_EXITED) { dbg_printf(d, "-\n"); continue; }
    uint32_t pc = dbg_lane_pc(w, l);
    dbg_printf(d, "%-4u ", dbg_func_pc(d, &d->e->prog[pc]));
    dbg_print_pos(d, &d->e->prog[pc]);
    dbg_printf(d, "\n");
  }
  return 0;
}

/* "block X,Y,Z thread X,Y,Z", "cuda block ... thread ...", "thread X";
 * with no coordinates: print the focus. */
int dbg_cmd_focus(dbg *d, const char *s) {
  uint32_t b[3], t[3];
  memcpy(b, d->fblock, sizeof b);
  memcpy(t, d->fthread, sizeof t);
  bool any = false;
  while (*s) {
    const char *e;
    while (*s == ' ' || *s == '\t') s++;
    if (strncmp(s, "cuda", 4) == 0 && (s[4] == ' ' || !s[4])) { s += 4; continue; }
    if (strncmp(s, "focus", 5) == 0 && (s[5] == ' ' || !s[5])) { s += 5; continue; }
    if (!*s) break;
    bool blk = strncmp(s, "block", 5) == 0, thr = strncmp(s, "thread", 6) == 0;
    const char *after = s + (blk ? 5 : 6);
    if ((!blk && !thr) || (*after && *after != ' ' && *after != '\t' && *after != '(')) {
      dbg_printf(d, "Bad focus '%s': write 'block X,Y,Z thread X,Y,Z' (either part alone works too).\n", s);
      return -1;
    }
    while (*after == ' ' || *after == '\t') after++;
    if (!*after) { s = after; continue; }      /* "cuda block": show the focus */
    if (!dbg_parse_dim3(after, blk ? b : t, &e)) { dbg_printf(d, "Bad coordinates '%s': write X, X,Y or X,Y,Z (or (X,Y,Z)).\n", after); return -1; }
    any = true;
    s = e;
  }
  if (!any) { if (d->e) dbg_print_focus(d); else dbg_printf(d, "The program is not running: there is no focus.\n"); return 0; }
  if (!dbg_is_running(d, true)) return -1;
  const emu_launch *l = &d->launch;
  if (b[0] >= l->grid[0] || b[1] >= l->grid[1] || b[2] >= l->grid[2]) {
    dbg_printf(d, "No block (%u,%u,%u): the grid is (%u,%u,%u). Focus unchanged.\n", b[0], b[1], b[2], l->grid[0], l->grid[1], l->grid[2]);
    return -1;
  }
  if (t[0] >= l->block[0] || t[1] >= l->block[1] || t[2] >= l->block[2]) {
    dbg_printf(d, "No thread (%u,%u,%u): the blocks are (%u,%u,%u). Focus unchanged.\n", t[0], t[1], t[2], l->block[0], l->block[1], l->block[2]);
    return -1;
  }
  if (!dbg_find_cta(d, b)) {
    dbg_printf(d, "Block (%u,%u,%u) is not running now (not started yet, or finished). Focus unchanged.\n", b[0], b[1], b[2]);
    return -1;
  }
  memcpy(d->fblock, b, sizeof b);
  memcpy(d->fthread, t, sizeof t);
  dbg_printf(d, "[Switching focus to block (%u,%u,%u) thread (%u,%u,%u)]\n", b[0], b[1], b[2], t[0], t[1], t[2]);
  int lane;
  const warp *w = dbg_focus_warp(d, &lane);
  if (w && w->state[lane] != TS_EXITED) dbg_print_where(d, &d->e->prog[dbg_lane_pc(w, lane)]);
  else if (w) dbg_printf(d, "(this thread has exited)\n");
  return 0;
}
