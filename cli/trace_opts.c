/* cli/trace_opts.c - the --trace options of "ptxemu run" and "ptxemu check":
 * parse them, open the trace database and hook it into the session. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpu/config.h"
#include "host/session.h"
#include "traces/trace.h"
#include "util/num.h"

struct cli_trace {
  trace_opts o;
  char gpu_name[32];             /* timed runs: the configuration */
  char *gpu_params;
  bool any_option;               /* a --trace-* option was given              */
  const char *kernels[64];
  trace *t;
  char *cmdline;
};

const char cli_trace_usage[] =
  "  --trace FILE      record an execution trace in the SQLite database FILE\n"
  "                    (appends a run when FILE is already a trace; ptxemu-trace(5))\n"
  "  --trace-level L   launch | warp (default) | mem | all\n"
  "  --trace-kernel K  record details only for launches of kernel K (repeatable)\n"
  "  --trace-blocks A-B  only blocks with linear id A..B (or one block A)\n"
  "  --trace-pcs A-B   only instructions at PCs A..B of their function\n"
  "  --trace-max-size SIZE  stop recording warp/memory rows when the file reaches\n"
  "                    SIZE (e.g. 500M; default 4G; 0: no cap); exit status 4\n";

/* "A-B" or "A" -> [lo, hi] (whole numbers up to 2^32-1) */
static int range(const char *s, uint32_t *lo, uint32_t *hi) {
  char a[32];
  const char *dash = strchr(s, '-');
  size_t n = dash ? (size_t)(dash - s) : strlen(s);
  if (n >= sizeof a) return -1;
  memcpy(a, s, n);
  a[n] = 0;
  uint64_t x, y;
  if (num_u64(a, 0, UINT32_MAX, &x)) return -1;
  if (num_u64(dash ? dash + 1 : a, 0, UINT32_MAX, &y) || x > y) return -1;
  *lo = (uint32_t)x;
  *hi = (uint32_t)y;
  return 0;
}

/* One per process (static, so an early exit on a bad option leaks nothing). */
static cli_trace *get(cli_trace **ct) {
  static cli_trace the_trace;
  if (!*ct) {
    memset(&the_trace, 0, sizeof the_trace);
    *ct = &the_trace;
    (*ct)->o.level = TRACE_WARP;
    (*ct)->o.block_hi = UINT32_MAX;
    (*ct)->o.pc_hi = UINT32_MAX;
    (*ct)->o.kernels = (*ct)->kernels;
    (*ct)->o.max_bytes = 4ull << 30;
  }
  return *ct;
}

int cli_trace_option(cli_trace **ctp, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (strncmp(a, "--trace", 7) != 0) return 0;
  if (*i + 1 >= argc) { fprintf(stderr, "ptxemu %s: %s needs a value\n", argv[0], a); return -1; }
  cli_trace *ct = get(ctp);
  if (!ct) return -1;
  const char *v = argv[++*i];
  if (strcmp(a, "--trace") == 0) { ct->o.path = v; return 1; }
  ct->any_option = true;
  if (strcmp(a, "--trace-level") == 0) {
    int l = trace_level_from_name(v);
    if (l < 0) { fprintf(stderr, "ptxemu %s: --trace-level is launch, warp, mem or all, not '%s'\n", argv[0], v); return -1; }
    ct->o.level = (enum trace_level)l;
  } else if (strcmp(a, "--trace-kernel") == 0) {
    if (ct->o.nkernels == (int)(sizeof ct->kernels / sizeof ct->kernels[0])) { fprintf(stderr, "ptxemu %s: too many --trace-kernel\n", argv[0]); return -1; }
    ct->kernels[ct->o.nkernels++] = v;
  } else if (strcmp(a, "--trace-blocks") == 0) {
    if (range(v, &ct->o.block_lo, &ct->o.block_hi)) { fprintf(stderr, "ptxemu %s: --trace-blocks wants A-B (whole numbers from 0 to 4294967295, A <= B), got '%s'\n", argv[0], v); return -1; }
  } else if (strcmp(a, "--trace-max-size") == 0) {
    if (num_size(v, 0, 1ull << 50, &ct->o.max_bytes)) { fprintf(stderr, "ptxemu %s: --trace-max-size wants a size such as 500M, from 0 (no cap) to 1024T, got '%s'\n", argv[0], v); return -1; }
  } else if (strcmp(a, "--trace-pcs") == 0) {
    if (range(v, &ct->o.pc_lo, &ct->o.pc_hi)) { fprintf(stderr, "ptxemu %s: --trace-pcs wants A-B (whole numbers from 0 to 4294967295, A <= B), got '%s'\n", argv[0], v); return -1; }
  } else {
    fprintf(stderr, "ptxemu %s: unknown option '%s'\n", argv[0], a);
    return -1;
  }
  return 1;
}

int cli_trace_start(cli_trace *ct, session_opts *so, int argc, char **argv, const char *input) {
  if (!ct) return 0;
  if (!ct->o.path) { fprintf(stderr, "ptxemu %s: the --trace-* options need --trace FILE\n", argv[0]); return EXIT_USAGE; }
  /* the command line as typed (arguments with blanks or quotes quoted) */
  size_t n = 16;
  for (int i = 0; i < argc; i++) n += strlen(argv[i]) * 4 + 3;
  ct->cmdline = malloc(n);
  if (!ct->cmdline) return EXIT_SOFTWARE;
  size_t k = (size_t)snprintf(ct->cmdline, n, "ptxemu");
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    bool q = !*a || strpbrk(a, " \t\n'\"\\$`*?") != NULL;
    ct->cmdline[k++] = ' ';
    if (q) ct->cmdline[k++] = '\'';
    for (; *a; a++) {
      if (q && *a == '\'') { memcpy(ct->cmdline + k, "'\\''", 4); k += 4; }
      else ct->cmdline[k++] = *a;
    }
    if (q) ct->cmdline[k++] = '\'';
  }
  ct->cmdline[k] = 0;
  ct->o.command_line = ct->cmdline;
  ct->o.launch_file = input;
  ct->o.verbose = so->verbose;
  /* the GPU of a timed run, with all its parameters, goes into runs */
  if (so->gpu) {
    gpu_config g;
    if (gpu_config_load_set(so->gpu, so->sets, so->nsets, &g, stderr)) return EXIT_DATAERR;
    if (so->sched) gpu_config_set_scheduler(&g, so->sched);
    if (so->issue_order) gpu_config_set_issue_order(&g, so->issue_order);
    char *params = NULL;
    size_t plen = 0;
    FILE *mf = open_memstream(&params, &plen);
    if (mf) { gpu_config_write(&g, mf); fclose(mf); }
    snprintf(ct->gpu_name, sizeof ct->gpu_name, "%s", g.name);
    ct->gpu_params = params;
    ct->o.config_name = ct->gpu_name;
    ct->o.config_params = params;
  }
  char err[600];
  ct->t = trace_open(&ct->o, err, sizeof err);
  if (!ct->t) { fprintf(stderr, "ptxemu %s: --trace: %s\n", argv[0], err); return EXIT_CANTCREAT; }
  so->observer = NULL;            /* installed per launch by trace_launch_begin */
  so->observer_ctx = ct->t;
  so->launch_begin = trace_launch_begin;
  so->launch_done = trace_launch_done;
  return 0;
}

struct trace *cli_trace_of(cli_trace *ct) { return ct ? ct->t : NULL; }

int cli_trace_finish(cli_trace *ct, int rc) {
  if (!ct) return rc;
  /* the runs row records the status the process exits with, the trace's
   * own failure included */
  int tr = ct->t ? trace_drain(ct->t) : 0;
  if (tr == -1 && (rc == 0 || rc == EXIT_LIMIT)) rc = EXIT_CANTCREAT;
  else if (tr == -2 && rc == 0) rc = EXIT_LIMIT;
  if (ct->t && trace_close(ct->t, rc) && rc == 0) rc = EXIT_CANTCREAT;
  ct->t = NULL;
  free(ct->cmdline);
  free(ct->gpu_params);
  ct->cmdline = ct->gpu_params = NULL;
  return rc;
}
