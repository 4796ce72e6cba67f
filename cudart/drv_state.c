/* cudart/drv_state.c - the process's emulated device (drv.h): options from
 * the environment, the lock, synchronisation points, device printf, the
 * trace and --stats file, and the end of the process. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debug/debug.h"
#include "cudart/drv.h"
#include "cudart/options.h"
#include "util/clock.h"
#include "emu/timing.h"
#include "host/launcher.h"
#include "host/session.h"
#include "traces/trace.h"
#include "sanitize/sanitize.h"
#include "memmodel/space.h"
#include "util/lazymap.h"

drv_state drv;

/* The lock: recursive for the thread that holds it (host callbacks may
 * call back in), released whole while a caller waits for a host function. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static __thread int depth;
static CUresult init_error;

/* what the launch path needs (host/launcher.h) */
static session_opts sopts;
static host_launcher launcher;
static timing_result tres;
static trace *the_trace;
static FILE *stats_file;
static drv_options opts;
static sanitizer *the_san;

void drv_san_alloc(uint64_t addr, uint64_t size) { if (the_san) san_buffer_alloc(the_san, addr, size, false); }
void drv_san_host_write(uint64_t addr, uint64_t size) { if (the_san) san_host_write(the_san, addr, size); }

void drv_lock(void) {
  if (depth++) return;
  pthread_mutex_lock(&lock);
}
void drv_unlock(void) {
  if (--depth == 0) pthread_mutex_unlock(&lock);
}

/* Wait until a host function finishes (the lock is let go meanwhile). */
void drv_wait_done(void) {
  if (!drv.host_running) return;
  int d = depth;
  depth = 0;
  pthread_cond_wait(&done, &lock);
  depth = d;
}
void drv_signal_done(void) { pthread_cond_broadcast(&done); }

CUresult drv_enter(void) {
  drv_lock();
  CUresult r = drv_init();
  if (r) drv_unlock();
  return r;
}

void drv_flush_printf(void) {
  if (!drv.printf_stream) return;
  fflush(drv.printf_stream);
  if (drv.printf_len) {
    fwrite(drv.printf_buf, 1, drv.printf_len, stdout);
    fflush(stdout);
  }
  fclose(drv.printf_stream);
  free(drv.printf_buf);
  drv.printf_buf = NULL;
  drv.printf_len = 0;
  drv.printf_stream = open_memstream(&drv.printf_buf, &drv.printf_len);
  if (drv.e) drv.e->opt.printf_out = drv.printf_stream ? drv.printf_stream : stdout;
}

CUresult drv_sync(void) {
  drv_wait_stream(NULL);
  drv_flush_printf();
  return drv.sticky;
}

/* The end of the process: what was printed, the trace's runs row. */
static void __attribute__((destructor)) drv_fini(void) {
  if (!drv.inited) return;
  drv_lock();
  drv_drain();
  drv_flush_printf();
  if (stats_file) { if (fclose(stats_file) != 0) fprintf(stderr, "ptxemu: cannot write '%s'\n", opts.stats); stats_file = NULL; }
  if (the_san) {
    san_summary(the_san);
    /* ptxemu exec turns a finding into exit status 3 */
    if (opts.sanitize_fd >= 0) {
      char buf[32];
      int n = snprintf(buf, sizeof buf, "%llu\n", (unsigned long long)san_total(the_san));
      if (write(opts.sanitize_fd, buf, (size_t)n) != n) fprintf(stderr, "ptxemu: cannot pass the sanitizer's findings to ptxemu exec\n");
    }
  }
  if (the_trace) {
    /* the program's exit status is not known here: ptxemu exec records it */
    int rc = drv.sticky || san_total(the_san) ? 3 : 0;
    trace_close(the_trace, rc);
    the_trace = NULL;
  }
  drv_unlock();
}

CUresult drv_init(void) {
  if (drv.inited) return init_error;
  drv.inited = true;
  if (drv_options_from_env(&opts)) exit(64);     /* a bad PTXEMU_* value: message printed */
  drv.quiet = opts.quiet;
  drv.verbose = opts.verbose;
  if (gpu_config_load_set(opts.gpu ? opts.gpu : "h100", opts.sets, opts.nsets, &drv.cfg, stderr)) exit(65);
  if (opts.sched && gpu_config_set_scheduler(&drv.cfg, opts.sched) < 0) {
    fprintf(stderr, "ptxemu: PTXEMU_SCHED: unknown scheduler '%s'\n", opts.sched);
    exit(64);
  }
  if (opts.issue_order && gpu_config_set_issue_order(&drv.cfg, opts.issue_order) < 0) {
    fprintf(stderr, "ptxemu: PTXEMU_ISSUE_ORDER: unknown issue order '%s'\n", opts.issue_order);
    exit(64);
  }
  drv.timing = opts.timing;
  emu_options eo;
  emu_default_options(&eo);
  if (opts.max_insts) eo.max_warp_insts = opts.max_insts;
  if (opts.max_seconds > 0) eo.max_seconds = opts.max_seconds;
  if (opts.max_memory) eo.mem_cap = opts.max_memory;
  eo.strict_async = opts.strict_async;
  eo.threads = opts.threads ? (uint32_t)opts.threads : session_default_threads();
  eo.counters = opts.stats || opts.trace || drv.timing;
  eo.progress = !opts.quiet && isatty(2);
  eo.nsm = drv.cfg.sms;
  drv.printf_stream = open_memstream(&drv.printf_buf, &drv.printf_len);
  eo.printf_out = drv.printf_stream ? drv.printf_stream : stdout;
  /* the device's address map shares this process's address space with the
   * program's host memory: keep the program's mappings out of it */
  if (lazymap_reserve((size_t)EMU_ADDR_MAP_LO, (size_t)EMU_ADDR_MAP_HI) && drv.verbose)
    fprintf(stderr, "ptxemu: could not reserve the device's address range; continuing\n");
  drv.e = emu_new(NULL, &eo);
  if (!drv.e) { fprintf(stderr, "ptxemu: cannot set up the emulated device (memory)\n"); init_error = CUDA_ERROR_OUT_OF_MEMORY; return init_error; }
  drv.primary.primary = true;
  drv.legacy.id = 1;
  drv.per_thread.id = 2;
  drv.next_stream_id = 3;
  drv.per_thread.next_live = NULL;
  drv.legacy.next_live = &drv.per_thread;
  drv.live = &drv.legacy;
  sopts.quiet = opts.quiet;
  sopts.verbose = opts.verbose;
  sopts.stats_path = opts.stats;
  sopts.gpu = drv.timing ? drv.cfg.name : NULL;
  if (drv.timing) { drv.e->timing_cfg = &drv.cfg; drv.e->timing_out = &tres; }
  if (opts.stats) {
    stats_file = fopen(opts.stats, "w");
    if (!stats_file) { fprintf(stderr, "ptxemu: cannot write '%s': %s\n", opts.stats, strerror(errno)); exit(73); }
    if (drv.timing) host_stats_header(stats_file, &drv.cfg, opts.sets, opts.nsets);
  }
  if (opts.trace) {
    trace_opts to = opts.trace_opts;
    to.path = opts.trace;
    to.command_line = opts.command_line;
    to.verbose = opts.verbose;
    static char gpu_name[32];
    char *params = NULL;
    size_t plen = 0;
    if (drv.timing) {
      FILE *mf = open_memstream(&params, &plen);
      if (mf) { gpu_config_write(&drv.cfg, mf); fclose(mf); }
      snprintf(gpu_name, sizeof gpu_name, "%s", drv.cfg.name);
      to.config_name = gpu_name;
      to.config_params = params;
    }
    char err[600];
    the_trace = trace_open(&to, err, sizeof err);
    free(params);
    if (!the_trace) { fprintf(stderr, "ptxemu: trace: %s\n", err); exit(73); }
    sopts.observer_ctx = the_trace;
    sopts.launch_begin = trace_launch_begin;
    sopts.launch_done = trace_launch_done;
  }
  if (opts.sanitize) {
    the_san = san_new((unsigned)opts.sanitize, stderr);
    if (!the_san) { fprintf(stderr, "ptxemu: out of memory\n"); exit(70); }
    san_attach(the_san, &sopts);
    if (the_trace) san_set_sink(the_san, trace_hazard, the_trace);
  }
  /* ptxemu debug -- PROGRAM: the debugger reads its commands here */
  dbg_from_env(&sopts);
  launcher.o = &sopts;
  launcher.stats = stats_file;
  launcher.gcfg = drv.timing ? &drv.cfg : NULL;
  launcher.tres = &tres;
  return CUDA_SUCCESS;
}

CUresult drv_fault_error(const emu *e) {
  switch (e->fault.kind) {
  case FAULT_OOB: case FAULT_BAD_ADDRESS_SPACE: case FAULT_STACK: return CUDA_ERROR_ILLEGAL_ADDRESS;
  case FAULT_MISALIGNED: return CUDA_ERROR_MISALIGNED_ADDRESS;
  case FAULT_ASSERT: return CUDA_ERROR_ASSERT;
  case FAULT_BUDGET: case FAULT_TIMEOUT: return CUDA_ERROR_LAUNCH_TIMEOUT;
  case FAULT_HEAP: return CUDA_ERROR_ILLEGAL_ADDRESS;      /* a bad free */
  case FAULT_MEMORY: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  case FAULT_UNSUPPORTED: case FAULT_ILLEGAL: return CUDA_ERROR_ILLEGAL_INSTRUCTION;
  default: return CUDA_ERROR_LAUNCH_FAILED;   /* trap, deadlock, proxy */
  }
}

/* ---- executing work ---- */

static CUresult run_kernel(drv_op *op) {
  emu *e = drv.e;
  struct CUfunc_st *f = op->f;
  emu_module_select(e, f->mod->idx);
  emu_launch el = { .func = f->func, .dyn_shared = op->shared, .params = op->params, .param_size = op->param_size };
  memcpy(el.grid, op->grid, sizeof el.grid);
  memcpy(el.block, op->block, sizeof el.block);
  memcpy(el.cluster, op->cluster, sizeof el.cluster);
  uint32_t resident = e->opt.resident_ctas;
  if (op->cooperative) {
    /* grid.sync() counts arrivals in a zeroed word the driver hands the
     * kernel in %envreg1:%envreg2; every block must be resident at once */
    static uint64_t workspace;
    if (!workspace) workspace = emu_alloc(e, 64, "grid-sync workspace");
    if (!workspace) { drv.sticky = CUDA_ERROR_OUT_OF_MEMORY; return drv.sticky; }
    memset(emu_host_ptr(e, workspace, 64), 0, 64);
    el.envreg[1] = (uint32_t)(workspace >> 32);
    el.envreg[2] = (uint32_t)workspace;
    e->opt.resident_ctas = op->grid[0] * op->grid[1] * op->grid[2];
  }
  int index = ++drv.launches;
  const char *name = f->mod->m->funcs[f->func].name;
  int rc = host_launch(&launcher, e, &el, index, name, NULL);
  e->opt.resident_ctas = resident;
  /* printf output waits for a synchronisation, but not without bound: past
   * the size of CUDA's printf buffer (1 MiB) it goes out now */
  if (drv.printf_stream) {
    fflush(drv.printf_stream);
    if (drv.printf_len > (1u << 20)) drv_flush_printf();
  }
  if (drv.timing) drv.clock_ms += (double)tres.cycles / ((double)drv.cfg.clock_mhz * 1e3);
  else drv.clock_ms += (double)launcher.last_wall_ns / 1e6;
  if (rc) {
    drv.sticky = drv_fault_error(e);
    if (!drv.quiet)
      fprintf(stderr, "ptxemu: the program will see %s from its next synchronising call\n", drv_error_name(drv.sticky, true));
  }
  return CUDA_SUCCESS;
}

/* The device clock over a copy or fill of `bytes` (dst and src: where it
 * writes and reads; src DRV_DEVICE for a fill) that took the emulator
 * wall_ns: in timing mode the modelled time, a copy's fixed cost and then
 * the host link's bandwidth (pinned or pageable memory) or, within the
 * device, DRAM's (a copy reads and writes each byte); in functional mode
 * the emulator's own time, as for a launch. */
static void copy_clock(enum drv_place dst, enum drv_place src, uint64_t bytes, bool fill, uint64_t wall_ns) {
  const gpu_config *g = &drv.cfg;
  if (!drv.timing) { drv.clock_ms += (double)wall_ns / 1e6; return; }
  if (g->copy_latency_us <= 0 && g->host_link_gbs <= 0) return;    /* (a configuration without them) */
  double gbs;
  if (dst == DRV_DEVICE && src == DRV_DEVICE) gbs = (double)g->dram_bandwidth_gbs / (fill ? 1 : 2);
  else if (dst == DRV_PAGEABLE || src == DRV_PAGEABLE) gbs = g->host_pageable_gbs;
  else if (dst == DRV_PINNED && src == DRV_PINNED) gbs = 0;        /* host to host: the CPU's copy */
  else gbs = g->host_link_gbs;
  drv.clock_ms += g->copy_latency_us / 1e3 + (gbs > 0 ? (double)bytes / (gbs * 1e6) : 0);
}

static CUresult run_memcpy(const drv_op *op) {
  uint64_t t0 = clock_now_ns(), n = 0;
  for (uint64_t z = 0; z < (op->depth ? op->depth : 1); z++)
    for (uint64_t r = 0; r < op->height; r++) {
      uint64_t d = op->dst + z * op->dslice + r * op->dpitch, s = op->src + z * op->sslice + r * op->spitch;
      uint8_t *dp = drv_any_ptr(d, op->width), *sp = drv_any_ptr(s, op->width);
      if (!dp || !sp) return CUDA_ERROR_INVALID_VALUE;
      memmove(dp, sp, op->width);
      drv_san_host_write(d, op->width);    /* (initcheck: written, in stream order, graphs' copies too) */
      n += op->width;
    }
  copy_clock(drv_place_of(op->dst), drv_place_of(op->src), n, false, clock_now_ns() - t0);
  return CUDA_SUCCESS;
}

static CUresult run_memset(const drv_op *op) {
  uint64_t t0 = clock_now_ns();
  for (uint64_t r = 0; r < op->height; r++) {
    uint64_t d = op->dst + r * op->dpitch;
    uint8_t *dp = drv_any_ptr(d, op->width * op->elem);
    if (!dp) return CUDA_ERROR_INVALID_VALUE;
    for (uint64_t i = 0; i < op->width; i++) memcpy(dp + i * op->elem, &op->value, op->elem);
    drv_san_host_write(d, op->width * op->elem);
  }
  enum drv_place at = drv_place_of(op->dst);
  copy_clock(at, at == DRV_DEVICE ? DRV_DEVICE : DRV_PINNED, op->width * op->elem * op->height, true, clock_now_ns() - t0);
  return CUDA_SUCCESS;
}

CUresult drv_execute(drv_op *op) {
  if (drv.sticky) return drv.sticky;
  switch (op->kind) {
  case OP_KERNEL: return run_kernel(op);
  case OP_MEMCPY: return run_memcpy(op);
  case OP_MEMSET: return run_memset(op);
  case OP_HOST: drv_flush_printf(); op->fn(op->user); return CUDA_SUCCESS;
  case OP_EVENT_RECORD: op->event->recorded = true; op->event->t_ms = drv.clock_ms; return CUDA_SUCCESS;
  /* child graphs are expanded when their graph is launched (drv_graph_exec.c) */
  case OP_GRAPH: case OP_EMPTY: case OP_WAIT_EVENT: return CUDA_SUCCESS;
  case OP_MEM_ALLOC: case OP_MEM_FREE: return drv_gmem_run(op);
  case OP_COND: return drv_graph_run_cond(op);
  }
  return CUDA_ERROR_INVALID_VALUE;
}

void drv_op_release(drv_op *op) {
  free(op->params);
  free(op->staged);
  op->params = NULL;
  op->staged = NULL;
}

/* ---- messages ---- */

CUresult drv_unsupported(const char *fn) {
  fprintf(stderr, "ptxemu: %s is not supported by ptxemu's CUDA libraries (returning an error)\n", fn);
  return CUDA_ERROR_NOT_SUPPORTED;
}

static const struct { int code; const char *rt, *drv, *msg; } errors[] = {
#define ERR(num, rt, drv, msg) { num, rt, drv, msg },
#include "cudart/errors.def"
#undef ERR
};

const char *drv_error_string(int code) {
  for (size_t i = 0; i < sizeof errors / sizeof *errors; i++) if (errors[i].code == code) return errors[i].msg;
  return NULL;
}

const char *drv_error_name(int code, bool runtime) {
  for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
    if (errors[i].code == code) return runtime ? errors[i].rt : errors[i].drv;
  return NULL;
}
