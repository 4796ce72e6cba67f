/* debug/state.c - the blocks, warps and lanes of the running launch, as the
 * focus (a block and a thread, as cuda-gdb has it) names them. */
#include <string.h>
#include "debug/internal.h"

bool dbg_is_running(dbg *d, bool say) {
  if (d->e && d->started && d->sw) return true;
  if (say) {
    if (d->pre_start || (d->e && !d->started)) dbg_printf(d, "The kernel has not started yet: set a breakpoint and 'run'.\n");
    else dbg_printf(d, "The kernel is not running: 'run' starts it.\n");
  }
  return false;
}

cta *dbg_find_cta(dbg *d, const uint32_t id[3]) {
  for (uint32_t i = 0; i < d->nctas; i++) {
    cta *c = d->ctas[i];
    if (c->warps && memcmp(c->id, id, sizeof c->id) == 0) return c;
  }
  return NULL;
}

const warp *dbg_focus_warp(dbg *d, int *lane) {
  if (!d->e) return NULL;
  const emu_launch *l = &d->launch;
  uint32_t t = d->fthread[0] + l->block[0] * (d->fthread[1] + l->block[1] * d->fthread[2]);
  cta *c = dbg_find_cta(d, d->fblock);
  *lane = (int)(t % WARP_SIZE);
  if (!c || t / WARP_SIZE >= c->nwarps) return NULL;
  return &c->warps[t / WARP_SIZE];
}

uint32_t dbg_lane_pc(const warp *w, int lane) {
  uint32_t pc = w->cur >> lane & 1 ? w->cur_pc : w->pc[lane];
  /* a thread at a barrier has its PC past the bar instruction */
  if (w->state[lane] == TS_BAR && pc) pc--;
  return pc < w->e->nprog ? pc : 0;
}

const char *dbg_lane_state(const warp *w, int lane) {
  if ((uint32_t)lane >= w->nthreads) return "no thread";
  switch (w->state[lane]) {
  case TS_EXITED: return "exited";
  case TS_BAR: return "waiting at barrier";
  case TS_WSYNC: return "waiting at warp sync";
  case TS_SLEEP: return "sleeping (mbarrier)";
  default: return w->cur >> lane & 1 || !w->cur ? "running" : "diverged, waits";
  }
}

void dbg_thread_of(const dbg *d, const warp *w, int lane, uint32_t t[3]) {
  const emu_launch *l = &d->launch;
  uint32_t lin = w->id * WARP_SIZE + (uint32_t)lane;
  t[0] = lin % l->block[0];
  t[1] = lin / l->block[0] % l->block[1];
  t[2] = lin / (l->block[0] * l->block[1]);
}
