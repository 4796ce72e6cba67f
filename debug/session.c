/* debug/session.c - the debugger's place in a session: it wraps the launch
 * hooks (a trace's keep running after it) and observes every warp
 * instruction before it runs, stopping there for breakpoints, watchpoints
 * and steps by running the command loop inside the hook. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "debug/internal.h"
#include "emu/timing.h"

dbg *dbg_new(const dbg_config *c) {
  dbg *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->c = *c;
  d->interactive = isatty_file(c->in);
  d->next_num = 1;
  d->prompt_at_start = true;
  return d;
}

void dbg_free(dbg *d) {
  if (!d) return;
  for (int i = 0; i < d->nbps; i++) {
    free(d->bps[i].where); free(d->bps[i].file); free(d->bps[i].func);
    free(d->bps[i].at_f); free(d->bps[i].at_i);
  }
  free(d->bps);
  free(d->ctas);
  dbg_free_sources(d);
  free(d);
}

bool dbg_quitting(const dbg *d) { return d->quitting; }
int dbg_launches(const dbg *d) { return d->launches; }

dbg *dbg_from_env(session_opts *o) {
  const char *p = getenv("PTXEMU_DEBUG");
  if (!p || !*p) return NULL;
  const char *b = getenv("PTXEMU_DEBUG_BATCH");
  bool batch = b && strcmp(b, "1") == 0, std = strcmp(p, "-") == 0;
  FILE *in = std ? stdin : fopen(p, "r");
  if (!in) { fprintf(stderr, "ptxemu: PTXEMU_DEBUG: cannot read '%s'\n", p); exit(66); }
  dbg_config c = { .in = in, .out = stdout, .then = std || batch ? NULL : stdin, .source_dir = getenv("PTXEMU_DEBUG_SOURCE_DIR") };
  dbg *d = dbg_new(&c);
  if (d) dbg_attach(d, o);
  return d;
}

/* ---- the observer: chained after the one it replaced (a trace), host/obs_chain */

/* the emulator calls on_insn of any installed observer; the debugger needs none */
static void no_insn(void *ctx, const warp *w, const xinsn *x, lanemask a, lanemask g, lanemask t) {
  (void)ctx; (void)w; (void)x; (void)a; (void)g; (void)t;
}
static void watch_mem(void *ctx, const warp *w, const xinsn *x, const uint64_t *addr, lanemask m, uint32_t bytes,
                      uint32_t sectors, uint32_t lines, uint32_t wavefronts) {
  dbg *d = ctx;
  (void)sectors; (void)wavefronts;
  if (d->has_watch && x->in->op != OP_LD) dbg_watch_note_mem(d, w, addr, m, bytes, lines == 0);
}

static void note_cta(dbg *d, cta *c) {
  if (d->nctas && d->ctas[d->nctas - 1] == c) return;
  for (uint32_t i = 0; i < d->nctas; i++) if (d->ctas[i] == c) return;
  if (d->nctas == d->capctas) {
    uint32_t nc = d->capctas ? d->capctas * 2 : 16;
    cta **n = realloc(d->ctas, nc * sizeof *n);
    if (!n) return;
    d->ctas = n;
    d->capctas = nc;
  }
  d->ctas[d->nctas++] = c;
}

static const char *const stall_names[] = { "", "selected (issued without waiting)",
  "not_selected (eligible, another warp was selected)", "long_scoreboard (waiting for a global/local memory result)",
  "short_scoreboard (waiting for a shared memory or special-function result)", "wait (fixed-latency dependency)",
  "barrier (waiting at a block barrier)", "membar (waiting for a memory barrier)",
  "math_pipe_throttle (the functional unit was busy)", "mio_throttle (the memory input/output queue was full)",
  "lg_throttle (the local/global memory queue was full)", "tex_throttle (the texture queue was full)",
  "branch_resolving (waiting for a branch target)", "no_instruction (instruction fetch miss)",
  "dispatch_stall (the dispatcher stalled)", "drain (draining memory stores at exit)",
  "sleeping (nanosleep or a warp-level wait)", "misc (any other reason)",
  "imc_miss (waiting for the constant cache: kernel parameters, .const)" };
/* one description per warp state of emu/timing.h */
_Static_assert(sizeof stall_names / sizeof *stall_names == STALL_NREASONS, "a stall reason without a description");

void dbg_print_cycle(dbg *d) {
  uint64_t cycle, waited;
  int why;
  if (!d->e || !d->sw || !emu_timing_issue(d->e, &cycle, &waited, &why)) {
    dbg_printf(d, "The cycle is known in timing mode only: run the debugger with --timing or --gpu NAME.\n");
    return;
  }
  dbg_printf(d, "cycle %llu: warp %u of block (%u,%u,%u) issues now", (unsigned long long)cycle, d->sw->id,
             d->sw->cta->id[0], d->sw->cta->id[1], d->sw->cta->id[2]);
  if (waited) dbg_printf(d, " after waiting %llu cycles", (unsigned long long)waited);
  dbg_printf(d, "\nstall reason: %s\n", why > 0 && why < (int)(sizeof stall_names / sizeof *stall_names) ? stall_names[why] : "unknown");
}

/* Stop: say where, then read commands until the program is to go on. */
static void stop(dbg *d, const warp *w, const xinsn *x, lanemask m) {
  d->sw = w;
  d->sx = x;
  d->sm = m;
  d->mode = RM_CONT;
  int lane;
  const warp *fw = dbg_focus_warp(d, &lane);
  if (fw == w && !(m >> lane & 1)) {
    dbg_printf(d, "(warp %u runs lanes 0x%08x here; thread (%u,%u,%u) is not among them: it waits at ", w->id, m,
               d->fthread[0], d->fthread[1], d->fthread[2]);
    dbg_print_pos(d, &d->e->prog[dbg_lane_pc(w, lane)]);
    dbg_printf(d, ")\n");
  } else if (fw && fw != w && fw->state[lane] != TS_EXITED) {
    /* a watchpoint moved the focus to the writer: another warp runs now */
    dbg_printf(d, "(thread (%u,%u,%u) is at ", d->fthread[0], d->fthread[1], d->fthread[2]);
    dbg_print_pos(d, &d->e->prog[dbg_lane_pc(fw, lane)]);
    dbg_printf(d, "; warp %u of block (%u,%u,%u) runs now:)\n", w->id, w->cta->id[0], w->cta->id[1], w->cta->id[2]);
  }
  dbg_print_where(d, x);
  if (d->e->timing) dbg_print_cycle(d);
  dbg_command_loop(d);
  d->sw = NULL;
  d->sx = NULL;
}

static void focus_on(dbg *d, const warp *w, int lane) {
  memcpy(d->fblock, w->cta->id, sizeof d->fblock);
  dbg_thread_of(d, w, lane, d->fthread);
}

/* Ctrl-C in a terminal stops the kernel at the next instruction, as in gdb */
volatile sig_atomic_t dbg_interrupted;
static void on_sigint(int sig) { (void)sig; dbg_interrupted = 1; }

static void before_insn(void *ctx, const warp *w, const xinsn *x, lanemask m, lanemask g) {
  dbg *d = ctx;
  note_cta(d, w->cta);
  d->started = true;
  if (dbg_interrupted) {
    dbg_interrupted = 0;
    dbg_printf(d, "\nInterrupted: block (%u,%u,%u) warp %u.\n", w->cta->id[0], w->cta->id[1], w->cta->id[2], w->id);
    focus_on(d, w, __builtin_ctz(m));
    stop(d, w, x, m);
    return;
  }
  bool stopped = false;
  if (d->has_watch && d->last.valid) {
    uint8_t was[8];
    dbg_bp *wb;
    while ((wb = dbg_watch_changed(d, was))) {
      dbg_report_watch(d, wb, was);
      /* the focus goes to the thread that wrote */
      cta *c = dbg_find_cta(d, d->last.block);
      if (c && d->last.warp < c->nwarps) {
        const warp *ww = &c->warps[d->last.warp];
        int l = d->last.wlane >= 0 ? d->last.wlane : d->last.g ? __builtin_ctz(d->last.g) : 0;
        focus_on(d, ww, l);
      }
      stopped = true;
    }
  }
  d->last = (dbg_last){ .valid = true, .warp = w->id, .x = x, .g = g, .wlane = -1 };
  memcpy(d->last.block, w->cta->id, sizeof d->last.block);
  int lane = -1;
  dbg_bp *bp = d->nbps ? dbg_bp_hit(d, w, x, m, &lane) : NULL;
  if (stopped && !bp) { stop(d, w, x, m); return; }
  if (bp) {
    bp->hits++;
    int fl;
    const warp *fw = dbg_focus_warp(d, &fl);
    if (lane < 0) lane = fw == w && (m >> fl & 1) ? fl : __builtin_ctz(m);
    focus_on(d, w, lane);
    dbg_printf(d, "\nBreakpoint %d, %s<<<(%u,%u,%u),(%u,%u,%u)>>> block (%u,%u,%u) thread (%u,%u,%u)\n", bp->num, d->kernel,
               d->launch.grid[0], d->launch.grid[1], d->launch.grid[2], d->launch.block[0], d->launch.block[1],
               d->launch.block[2], d->fblock[0], d->fblock[1], d->fblock[2], d->fthread[0], d->fthread[1], d->fthread[2]);
    stop(d, w, x, m);
    return;
  }
  if (d->mode == RM_CONT) return;
  int fl;
  const warp *fw = dbg_focus_warp(d, &fl);
  if (!fw || !~fw->exited) {
    /* the warp being stepped has gone: stop where the program is now */
    dbg_printf(d, "The focused warp has exited; the focus moves to the warp that runs now.\n");
    focus_on(d, w, __builtin_ctz(m));
    stop(d, w, x, m);
    return;
  }
  if (fw != w) return;
  if ((d->mode == RM_NEXT && w->cur_depth > d->step_depth) || (d->mode == RM_FINISH && w->cur_depth >= d->step_depth)) return;
  if (d->mode == RM_FINISH) dbg_printf(d, "Run till exit: back in %s\n", x->f->name);
  stop(d, w, x, m);
}

/* A fault: stop where it happened, before the launch ends and its warps go. */
static void on_fault(void *ctx, const warp *w, const xinsn *x) {
  dbg *d = ctx;
  if (!d->started) return;
  dbg_printf(d, "\n");
  emu_print_fault(d->e, d->c.out);
  const emu_fault *f = &d->e->fault;
  memcpy(d->fblock, f->cta, sizeof d->fblock);
  memcpy(d->fthread, f->tid, sizeof d->fthread);
  dbg_printf(d, "The kernel stopped at the fault: look around; 'continue' ends the launch.\n");
  stop(d, w, x, w->cur ? w->cur : 1u << f->lane);
}

/* ---- launches -------------------------------------------------------------- */

static void on_begin(void *ctx, int index, const char *kernel, emu *e, const emu_launch *l) {
  dbg *d = ctx;
  if (d->next_begin) d->next_begin(d->next_ctx, index, kernel, e, l);
  d->next_obs = e->obs == &d->obs || e->obs == &d->chain.obs ? NULL : e->obs;
  d->obs = (emu_observer){ .ctx = d, .on_insn = no_insn, .on_mem = watch_mem, .on_before_insn = before_insn, .on_fault = on_fault,
                        .reads_any_register = true };
  e->obs = obs_chain_make(&d->chain, d->next_obs, &d->obs);
  d->e = e;
  d->started = false;
  d->launch_index = index;
  d->kernel = kernel;
  d->launch = *l;
  d->nctas = 0;
  d->last.valid = false;
  d->launches++;
  /* each launch resolves the breakpoints against its own module */
  for (int i = 0; i < d->nbps; i++) { d->bps[i].have_old = false; d->bps[i].rm = NULL; }
  dbg_printf(d, "[launch %d: %s<<<(%u,%u,%u),(%u,%u,%u)>>>]\n", index, kernel, l->grid[0], l->grid[1], l->grid[2],
             l->block[0], l->block[1], l->block[2]);
  if (d->prompt_at_start) {
    /* the first launch of the first run: breakpoints can be set against its module */
    d->prompt_at_start = false;
    d->pre_start = true;
    dbg_command_loop(d);
    d->pre_start = false;
  }
}

static void on_done(void *ctx, int index, const char *kernel, emu *e, int rc) {
  dbg *d = ctx;
  if (d->has_watch && d->last.valid) {
    uint8_t was[8];
    dbg_bp *wb;
    while ((wb = dbg_watch_changed(d, was))) dbg_report_watch(d, wb, was);
  }
  if (d->mode != RM_CONT) dbg_printf(d, "The kernel ended before the focused warp ran another instruction.\n");
  dbg_printf(d, "[launch %d: %s %s]\n", index, kernel, rc ? "failed (the message follows)" : "finished");
  fflush(d->c.out);
  e->obs = d->next_obs;
  d->e = NULL;
  d->nctas = 0;
  d->mode = RM_CONT;
  if (d->next_done) d->next_done(d->next_ctx, index, kernel, e, rc);
}

void dbg_attach(dbg *d, session_opts *o) {
  d->so = o;
  d->next_ctx = o->observer_ctx;
  d->next_begin = o->launch_begin;
  d->next_done = o->launch_done;
  o->observer_ctx = d;
  o->launch_begin = on_begin;
  o->launch_done = on_done;
  o->quiet = true;           /* no progress line while the user sits at a stop */
  d->launches = 0;
  if (d->interactive) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;   /* no SA_RESTART: Ctrl-C at the prompt gives a new prompt */
    sigaction(SIGINT, &sa, NULL);
  }
}

bool dbg_after_exit(dbg *d, int rc) {
  static const char *const what[] = { [0] = "finished", [1] = "finished; some expected output differs", [3] = "ended with a kernel fault",
                                      [4] = "reached a limit" };
  const char *w = rc >= 0 && rc < (int)(sizeof what / sizeof *what) && what[rc] ? what[rc] : "failed";
  dbg_printf(d, "[program %s: exit status %d]\n", w, rc);
  if (d->launches == 0) dbg_printf(d, "(it launched no kernel)\n");
  d->prompt_at_start = false;
  return dbg_command_loop(d);
}
