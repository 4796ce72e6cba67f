/* cudart/options.c - PTXEMU_* environment variables, parsed strictly: a
 * value out of range or with trailing characters is an error that names
 * the variable, never a silent default. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/options.h"
#include "util/num.h"
#include "sanitize/sanitize.h"

static int bad(const char *var, const char *val, const char *want) {
  fprintf(stderr, "ptxemu: %s='%s': expected %s\n", var, val, want);
  return -1;
}

static int flag(const char *var, bool *out) {
  const char *v = getenv(var);
  if (!v || !*v) return 0;
  if (strcmp(v, "1") == 0 || strcmp(v, "yes") == 0) *out = true;
  else if (strcmp(v, "0") == 0 || strcmp(v, "no") == 0) *out = false;
  else return bad(var, v, "1 or 0");
  return 0;
}

/* A whole number in [lo, hi] (util/num's forms, as on the command line). */
static int integer(const char *var, uint64_t lo, uint64_t hi, const char *want, uint64_t *out) {
  const char *v = getenv(var);
  if (!v || !*v) return 0;
  return num_u64(v, lo, hi, out) ? bad(var, v, want) : 0;
}

/* A byte count with an optional K/M/G/T suffix (powers of 1024). */
static int size(const char *var, uint64_t lo, uint64_t hi, const char *want, uint64_t *out) {
  const char *v = getenv(var);
  if (!v || !*v) return 0;
  return num_size(v, lo, hi, out) ? bad(var, v, want) : 0;
}

/* "A-B" or "A", each a whole number below 2^32, A <= B. */
static int range(const char *var, uint32_t *lo, uint32_t *hi) {
  const char *v = getenv(var);
  if (!v || !*v) return 0;
  char first[32];
  const char *dash = strchr(v + (*v == '-'), '-');
  size_t n = dash ? (size_t)(dash - v) : strlen(v);
  uint64_t a, b;
  if (n >= sizeof first) return bad(var, v, "A-B or A, A <= B < 2^32");
  memcpy(first, v, n);
  first[n] = 0;
  if (num_u64(first, 0, UINT32_MAX, &a) || num_u64(dash ? dash + 1 : first, 0, UINT32_MAX, &b) || a > b)
    return bad(var, v, "A-B or A, A <= B < 2^32");
  *lo = (uint32_t)a;
  *hi = (uint32_t)b;
  return 0;
}

static const char *str(const char *var) {
  const char *v = getenv(var);
  return v && *v ? v : NULL;
}

int drv_options_from_env(drv_options *o) {
  memset(o, 0, sizeof *o);
  o->trace_opts.level = TRACE_WARP;
  o->trace_opts.block_hi = UINT32_MAX;
  o->trace_opts.pc_hi = UINT32_MAX;
  o->trace_opts.max_bytes = 4ull << 30;
  o->gpu = str("PTXEMU_GPU");
  o->sched = str("PTXEMU_SCHED");
  o->issue_order = str("PTXEMU_ISSUE_ORDER");
  o->stats = str("PTXEMU_STATS");
  o->trace = str("PTXEMU_TRACE");
  o->cache_dir = str("PTXEMU_CACHE");
  o->command_line = str("PTXEMU_COMMAND");
  if (flag("PTXEMU_TIMING", &o->timing) || flag("PTXEMU_STRICT_ASYNC", &o->strict_async) ||
      flag("PTXEMU_QUIET", &o->quiet) || flag("PTXEMU_VERBOSE", &o->verbose))
    return -1;
  o->sanitize_fd = -1;
  const char *sv = str("PTXEMU_SANITIZE");
  if (sv) {
    const char *badw;
    size_t bl;
    int c = san_parse(sv, &badw, &bl);
    if (c < 0) return bad("PTXEMU_SANITIZE", sv, "a list of racecheck, synccheck, initcheck, memcheck or all");
    o->sanitize = c;
    uint64_t fd;
    if (integer("PTXEMU_SANITIZE_FD", 0, 1023, "a file descriptor from 0 to 1023", &fd)) return -1;
    if (getenv("PTXEMU_SANITIZE_FD") && *getenv("PTXEMU_SANITIZE_FD")) o->sanitize_fd = (int)fd;
  }
  /* overrides, ';'-separated (a parameter value never holds one) */
  const char *ss = str("PTXEMU_SET");
  if (ss) {
    static const char *sets[256];
    static char buf[65536];
    if (strlen(ss) >= sizeof buf) return bad("PTXEMU_SET", "...", "at most 64 KiB of NAME=VALUE;NAME=VALUE");
    memcpy(buf, ss, strlen(ss) + 1);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
      if (n == 256) return bad("PTXEMU_SET", ss, "at most 256 NAME=VALUE overrides");
      sets[n++] = t;
    }
    o->sets = sets;
    o->nsets = n;
  }
  if (o->gpu || o->sched || o->issue_order || o->nsets) o->timing = true;
  /* the ranges of ptxemu run's --max-insts, --max-seconds, --max-memory */
  if (integer("PTXEMU_MAX_INSTS", 1, 1000000000000000ull, "a whole number from 1 to 1e15", &o->max_insts) ||
      integer("PTXEMU_THREADS", 1, 1024, "a whole number from 1 to 1024", &o->threads) ||
      size("PTXEMU_MAX_MEMORY", 1u << 20, 1ull << 44, "a size from 1M to 16T (bytes, or with K, M, G, T)", &o->max_memory))
    return -1;
  const char *ms = getenv("PTXEMU_MAX_SECONDS");
  if (ms && *ms && num_f64(ms, 0.001, 1e7, &o->max_seconds)) return bad("PTXEMU_MAX_SECONDS", ms, "a number of seconds from 0.001 to 1e7");
  const char *lv = str("PTXEMU_TRACE_LEVEL");
  if (lv) {
    int l = trace_level_from_name(lv);
    if (l < 0) return bad("PTXEMU_TRACE_LEVEL", lv, "launch, warp, mem or all");
    o->trace_opts.level = (enum trace_level)l;
  }
  /* kernel names, comma-separated */
  const char *ks = str("PTXEMU_TRACE_KERNEL");
  if (ks) {
    static const char *names[64];
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s", ks);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      if (n == 64) return bad("PTXEMU_TRACE_KERNEL", ks, "at most 64 kernel names");
      names[n++] = t;
    }
    o->trace_opts.kernels = names;
    o->trace_opts.nkernels = n;
  }
  if (range("PTXEMU_TRACE_BLOCKS", &o->trace_opts.block_lo, &o->trace_opts.block_hi) ||
      range("PTXEMU_TRACE_PCS", &o->trace_opts.pc_lo, &o->trace_opts.pc_hi) ||
      size("PTXEMU_TRACE_MAX_SIZE", 0, 1ull << 50, "a size such as 500M, from 0 (no cap) to 1024T", &o->trace_opts.max_bytes))
    return -1;
  if ((o->trace_opts.kernels || getenv("PTXEMU_TRACE_LEVEL") || getenv("PTXEMU_TRACE_BLOCKS")) && !o->trace) {
    fprintf(stderr, "ptxemu: the PTXEMU_TRACE_* variables need PTXEMU_TRACE\n");
    return -1;
  }
  return 0;
}
