/* host/session.h - run a launch file on the emulator (ptxemu run/check). */
#ifndef HOST_SESSION_H
#define HOST_SESSION_H
#include <stdbool.h>
#include <stdint.h>
#include "isa/isa.h"

struct emu;
struct emu_observer;
struct emu_launch;
struct grade_run;

typedef struct session_opts {
  bool compare;                 /* check: compare expect lines and stdout        */
  bool quiet, verbose;
  const char *out_dir;          /* --out: write every expected buffer here        */
  const char *stats_path;       /* --stats: one hw.txt-style line per launch      */
  uint64_t max_insts;           /* --max-insts: per-launch warp instruction budget */
  double max_seconds;           /* --max-seconds: per-launch wall-time budget      */
  uint64_t mem_cap;             /* --max-memory: device memory cap; 0: the default */
  const char *gpu;              /* --gpu NAME|FILE: run the timing model of that GPU */
  bool strict_async;            /* --strict-async: check proxy fences (emu/proxy.c) */
  uint32_t threads;             /* --threads: functional launches' worker threads; 0: one per core */
  const char *sched;            /* --sched: warp scheduler instead of the GPU's   */
  const char *issue_order;      /* --issue-order: scheduled or ptx, instead of the GPU's */
  struct grade_run *grade;      /* check --format json|tap: results go here, not to stdout */
  const char *const *sets;      /* --set NAME=VALUE overrides of the GPU's parameters */
  int nsets;
  struct emu_observer *observer;/* traces                                          */
  void *observer_ctx;
  void (*launch_done)(void *ctx, int index, const char *kernel, struct emu *e, int rc);
  /* traces: called just before each launch runs (it may set e->obs) */
  void (*launch_begin)(void *ctx, int index, const char *kernel, struct emu *e, const struct emu_launch *l);
  /* sanitizers: each device buffer the launch file allocates (written: it
   * has contents), before any launch */
  void (*buffer_alloc)(void *ctx, uint64_t addr, uint64_t size, bool written);
} session_opts;

/* Returns the exit status: 0 ok, 1 mismatch, 3 kernel fault, 4 limit,
 * 65 bad input, 66 unreadable, 70 internal, 73 cannot write. */
int session_run(const char *launch_path, const session_opts *o, isa_module *(*load)(const char *, int *));
/* The same for launch-file text given directly (paths relative to the
 * folder of virtual_path). */
int session_run_text(const char *text, const char *virtual_path, const session_opts *o, isa_module *(*load)(const char *, int *));
int session_write_file(const char *path, const void *data, size_t n);
/* --threads: the default (the online cores) and the largest value. */
#define SESSION_MAX_THREADS 1024
uint32_t session_default_threads(void);
#endif
