/* cudart/options.h - ptxemu's options for programs run through its CUDA
 * libraries, from PTXEMU_* environment variables (ptxemu exec sets them
 * from its command line; ptxemu-exec(1) lists them). */
#ifndef CUDART_OPTIONS_H
#define CUDART_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>
#include "traces/trace.h"

typedef struct drv_options {
  bool timing;                   /* PTXEMU_TIMING=1, or PTXEMU_GPU set          */
  const char *gpu;               /* PTXEMU_GPU: name or configuration file      */
  const char *sched, *issue_order;   /* PTXEMU_SCHED, PTXEMU_ISSUE_ORDER (imply timing) */
  const char *const *sets;       /* PTXEMU_SET: "NAME=VALUE;NAME=VALUE" overrides of the GPU's */
  int nsets;                     /*   parameters (ptxemu exec --set; imply timing) */
  const char *stats;             /* PTXEMU_STATS: --stats file                  */
  const char *trace;             /* PTXEMU_TRACE: trace database               */
  trace_opts trace_opts;         /* PTXEMU_TRACE_LEVEL/_KERNEL/_BLOCKS/_PCS/_MAX_SIZE */
  uint64_t max_insts;            /* PTXEMU_MAX_INSTS                            */
  double max_seconds;            /* PTXEMU_MAX_SECONDS                          */
  uint64_t max_memory;           /* PTXEMU_MAX_MEMORY (K/M/G/T suffixes)        */
  uint64_t threads;              /* PTXEMU_THREADS: functional launches' worker threads; 0: one per core */
  bool strict_async;             /* PTXEMU_STRICT_ASYNC=1                       */
  bool quiet, verbose;           /* PTXEMU_QUIET=1, PTXEMU_VERBOSE=1            */
  const char *cache_dir;         /* PTXEMU_CACHE: module cache folder, or "off" */
  const char *command_line;      /* PTXEMU_COMMAND: for the trace's runs row     */
  int sanitize;                  /* PTXEMU_SANITIZE=LIST: SAN_* checks          */
  int sanitize_fd;               /* PTXEMU_SANITIZE_FD: where the count of findings
                                    goes at exit (ptxemu exec's status), -1 none */
} drv_options;

/* Read the variables; 0, or -1 with a message on stderr naming the bad one. */
int drv_options_from_env(drv_options *o);
#endif
