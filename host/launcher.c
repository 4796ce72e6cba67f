/* host/launcher.c - one kernel launch with its trace hooks, stats line,
 * messages and fault report (see launcher.h). */
#define _GNU_SOURCE                      /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "host/launcher.h"
#include "host/grade.h"
#include "emu/emu.h"
#include "emu/timing.h"
#include "gpu/config.h"
#include "util/clock.h"
#include "util/demangle.h"

static void write_stats(FILE *f, int index, const char *kernel, const emu_stats *s, const isa_func *k, uint64_t wall_ns,
                        const timing_result *tr) {
  fprintf(f, "launch %d %s ", index, kernel);
  if (tr) {
    fprintf(f, "cycles %llu ", (unsigned long long)tr->cycles);
    if (tr->l1_lookups) fprintf(f, "l1_hit_pct %.2f ", 100.0 * (double)tr->l1_hits / (double)tr->l1_lookups);
    if (tr->l2_lookups) fprintf(f, "l2_hit_pct %.2f ", 100.0 * (double)tr->l2_hits / (double)tr->l2_lookups);
    fprintf(f, "dram_read_bytes %llu dram_write_bytes %llu achieved_occupancy_pct %.2f theoretical_occupancy_pct %.2f ",
            (unsigned long long)tr->dram_read_bytes, (unsigned long long)tr->dram_write_bytes,
            100.0 * tr->achieved_occupancy, 100.0 * tr->theoretical_occupancy);
    fprintf(f, "sass_inst_executed %llu xbar_write_sectors %llu ", (unsigned long long)tr->sass_issued,
            (unsigned long long)tr->xbar_write_sectors);
    /* warp states as shares of all warp cycles (emu/timing.h) */
    double all = 0;
    for (int i = 1; i < STALL_NREASONS; i++) all += (double)tr->stall_cycles[i];
    for (int i = 1; i < STALL_NREASONS && all > 0; i++)
      if (tr->stall_cycles[i]) fprintf(f, "stall_%s_pct %.2f ", timing_stall_names[i], 100.0 * (double)tr->stall_cycles[i] / all);
  }
  fprintf(f, "inst_executed %llu thread_inst_executed %llu gld_requests %llu gld_sectors %llu "
             "gst_requests %llu gst_sectors %llu shared_ld_bank_conflicts %llu shared_st_bank_conflicts %llu "
             "shared_ld_wavefronts %llu warp_exec_efficiency %.2f regs_per_thread %u emu_wall_ns %llu\n",
          (unsigned long long)s->inst_executed, (unsigned long long)s->thread_inst_executed,
          (unsigned long long)s->gld_requests, (unsigned long long)s->gld_sectors, (unsigned long long)s->gst_requests,
          (unsigned long long)s->gst_sectors, (unsigned long long)s->shared_ld_bank_conflicts,
          (unsigned long long)s->shared_st_bank_conflicts, (unsigned long long)s->shared_ld_wavefronts,
          s->inst_executed ? (double)s->thread_inst_executed / (double)s->inst_executed : 0.0, k->regs_used,
          (unsigned long long)wall_ns);
}

void host_stats_header(FILE *f, const gpu_config *c, const char *const *sets, int nsets) {
  if (!nsets) return;
  fprintf(f, "gpu %s", c->name);
  for (int i = 0; i < nsets; i++) {
    char name[64], val[128];
    size_t n = strcspn(sets[i], "= \t");
    snprintf(name, sizeof name, "%.*s", (int)n, sets[i]);
    if (gpu_config_get(c, name, val, sizeof val) == 0) {
      for (char *v = val; *v; v++) if (*v == ' ' || *v == '\t') *v = '_';   /* one word, as the other values */
      fprintf(f, " %s %s", name, val);
    }
  }
  fputc('\n', f);
}

int host_fault_status(const emu *e) {
  int k = e->fault.kind;
  /* limits are 4, an output that cannot be written 73, kernel faults 3 */
  if (k == FAULT_OUTPUT || k == FAULT_STOPPED) return 73;
  return k == FAULT_BUDGET || k == FAULT_TIMEOUT || k == FAULT_MEMORY ? 4 : 3;
}

static int host_launch_one(host_launcher *hl, emu *e, const emu_launch *el, int index, const char *kernel, const char *where);

/* The grid, then the grids it launched (dynamic parallelism) and theirs,
 * in launch order, until one fails. */
int host_launch(host_launcher *hl, emu *e, const emu_launch *el, int index, const char *kernel, const char *where) {
  int status = host_launch_one(hl, e, el, index, kernel, where);
  emu_child c;
  while (!status && emu_child_pop(e, &c)) {
    emu_launch cl = { .func = c.func, .dyn_shared = c.dyn_shared, .params = c.params, .param_size = c.param_size };
    memcpy(cl.grid, c.grid, sizeof cl.grid);
    memcpy(cl.block, c.block, sizeof cl.block);
    status = host_launch_one(hl, e, &cl, 100000 + ++hl->children, e->m->funcs[c.func].name, where);
    free(c.params);
  }
  emu_cdp_reset(e);
  return status;
}

/* The process's peak resident memory so far (device memory is backed as it
 * is touched, so this is what a run really cost the host). */
static double peak_rss_mib(void) {
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss / 1024.0 : 0.0;
}

/* One grid. */
static int host_launch_one(host_launcher *hl, emu *e, const emu_launch *el, int index, const char *kernel, const char *where) {
  const session_opts *o = hl->o;
  memset(&e->stats, 0, sizeof e->stats);
  if (o->launch_begin) o->launch_begin(o->observer_ctx, index, kernel, e, el);
  uint64_t t0 = clock_now_ns();
  int rc = emu_run(e, el);
  uint64_t dt = clock_now_ns() - t0;
  hl->last_wall_ns = dt;
  if (o->launch_done) o->launch_done(o->observer_ctx, index, kernel, e, rc);
  if (o->grade) {
    o->grade->launches++;
    o->grade->inst_executed += e->stats.inst_executed;
    o->grade->thread_inst_executed += e->stats.thread_inst_executed;
    if (hl->gcfg) o->grade->cycles += hl->tres->cycles;
  }
  if (hl->stats) write_stats(hl->stats, index, kernel, &e->stats, &e->m->funcs[el->func], dt, hl->gcfg ? hl->tres : NULL);
  char dm[1024];
  const char *shown = demangle_or_self(kernel, dm, sizeof dm);
  if (hl->gcfg && !o->quiet)
    fprintf(stderr, "ptxemu: launch %d %s: %llu cycles on %s\n", index, shown, (unsigned long long)hl->tres->cycles, hl->gcfg->name);
  if (!o->quiet && o->verbose)
    fprintf(stderr, "ptxemu: launch %d %s: %llu warp instructions, %llu thread instructions in %.3f s (%.1f M thread-inst/s), "
            "peak host memory %.1f MiB\n",
            index, shown, (unsigned long long)e->stats.inst_executed, (unsigned long long)e->stats.thread_inst_executed,
            (double)dt / 1e9, (double)e->stats.thread_inst_executed / ((double)dt / 1e9) / 1e6, peak_rss_mib());
  /* the warps' register files, packed by liveness (emu/rowpack.c) */
  if (!o->quiet && o->verbose && e->pack_regs)
    fprintf(stderr, "ptxemu: launch %d %s: %u registers held in %u rows a thread (a warp's file: %u rows with the special registers)\n",
            index, shown, e->pack_regs, e->pack_rows, e->pack_file_rows);
  /* where a timed launch's host time went: the windows (their SMs and,
   * lane by lane, the serving of L2 and DRAM requests on every thread),
   * the launch's thread's serving in them, the edges between them on it
   * alone (doc/parallel.md) */
  if (!o->quiet && o->verbose && hl->gcfg && e->timing_wall.windows)
    fprintf(stderr, "ptxemu: launch %d %s: %llu windows of cycles in %.3f s, the launch's thread serving L2 and DRAM requests %.3f s of them; "
            "%.3f s between windows\n", index, shown, (unsigned long long)e->timing_wall.windows, (double)e->timing_wall.window_ns / 1e9,
            (double)e->timing_wall.serve_ns / 1e9, (double)e->timing_wall.edge_ns / 1e9);
  /* how the launch used the worker threads (doc/parallel.md) */
  if (!o->quiet && o->verbose && e->opt.threads > 1)
    fprintf(stderr, "ptxemu: launch %d %s: %s on %u threads%s%s (parallel launches %llu, run again sequentially %llu, "
            "tried again with a region's reads recorded %llu)\n", index, shown,
            e->par_last && strcmp(e->par_last, "parallel") == 0 ? "parallel" : "sequential", e->opt.threads,
            e->par_last && strcmp(e->par_last, "parallel") ? ": " : "", e->par_last && strcmp(e->par_last, "parallel") ? e->par_last : "",
            (unsigned long long)e->par_launches, (unsigned long long)e->par_fallbacks, (unsigned long long)e->par_retries);
  if (!rc) return 0;
  /* the name as the launch file or program gave it, and demangled */
  char also[1100] = "";
  if (shown != kernel) snprintf(also, sizeof also, " (%s)", shown);
  if (where) fprintf(stderr, "%s: launch of '%s'%s failed\n", where, kernel, also);
  else fprintf(stderr, "ptxemu: launch %d of '%s'%s failed\n", index, kernel, also);
  emu_print_fault(e, stderr);
  if (o->grade && !o->grade->fault) {
    /* the same report, for the grading output */
    size_t n;
    FILE *mf = open_memstream(&o->grade->fault, &n);
    if (mf) {
      if (where) fprintf(mf, "%s: launch of '%s'%s failed\n", where, kernel, also);
      emu_print_fault(e, mf);
      fclose(mf);
    }
  }
  return host_fault_status(e);
}
