/* cli/cmd_run.c - "ptxemu run" and "ptxemu check": play a launch file, or
 * launch a kernel of a PTX file straight from the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpu/config.h"
#include "host/grade.h"
#include "host/session.h"
#include "util/clock.h"
#include "sanitize/sanitize.h"
#include "traces/trace.h"
#include "util/num.h"

static void usage(FILE *f, const char *cmd) {
  fprintf(f, "usage: ptxemu %s [options] LAUNCH.txt\n"
             "       ptxemu %s [options] KERNEL.ptx --kernel NAME [--grid X[,Y[,Z]]|XxYxZ] [--block ...]\n"
             "              [--shared BYTES] [-e 'LAUNCH-FILE LINE']... [--arg TYPE:VALUE]...\n"
             "  --out DIR         write every expected buffer to DIR/NAME.bin\n"
             "  --stats FILE      write per-launch counters (hw.txt layout) to FILE\n"
             "  --max-insts N     stop a launch after N warp instructions (default 2e9)\n"
             "  --max-seconds S   stop a launch after S seconds of wall time (default: none)\n"
             "  --max-memory SIZE cap on the host memory the emulation uses, e.g. 2G (default: half the RAM)\n"
             "  --threads N       worker threads for functional launches (default: one per core);\n"
             "                    results, printf, --stats and faults are those of --threads 1\n"
             "  --timing          run the cycle-approximate timing model (default GPU: h100)\n"
             "  --gpu NAME|FILE   the GPU to model (ptxemu gpus lists the bundled ones); implies --timing\n"
             "  --sanitize LIST   racecheck, synccheck, initcheck (comma-separated) or all; a finding\n"
             "                    exits 3 (memcheck, bounds and alignment, is always on)\n"
             "  --strict-async    fault when the async proxy reads shared memory written through the\n"
             "                    generic proxy without a fence.proxy.async by the writing thread\n"
             "  --sched POLICY    warp scheduler instead of the GPU's: gto, lrr or two_level; implies --timing\n"
             "  --issue-order O   scheduled (ptxas-like order in basic blocks, the default) or ptx; implies --timing\n"
             "  --set NAME=VALUE  override a parameter of the GPU's configuration (repeatable; ptxemu-gpu(5));\n"
             "                    implies --timing\n"
             "  -e LINE           a launch-file line: buffer/symbol lines go before the launch,\n"
             "                    dump/expect/stdout lines after it\n"
             "  --arg TYPE:VALUE  a kernel argument: u32:5, f32:1.5, ptr:BUFFER, ...\n"
             "  -q, -v            quieter / more verbose\n"
             "%s%s", cmd, cmd, cli_trace_usage, strcmp(cmd, "check") == 0 ?
             "  --format F        text (default), json or tap: one result per expect line with\n"
             "                    its first mismatch, and the run's figures, for graders\n"
             "Runs the launch file and compares every 'expect' line (and 'stdout');\n"
             "exits 0 only when all match, 1 on a mismatch, 3 on a kernel fault or a sanitizer finding.\n" :
             "Runs the launch file (see ptxemu-launch(5)); device printf goes to stdout.\n");
}

/* --grid/--block "X[,Y[,Z]]" or "XxYxZ" within the hardware limits ->
 * "X Y Z"; 0, or a message and -1. */
static int dims(const char *cmd, const char *opt, const char *s, char *out, size_t n) {
  static const uint64_t grid_max[3] = { 0x7fffffff, 65535, 65535 }, block_max[3] = { 1024, 1024, 64 };
  bool grid = strcmp(opt, "--grid") == 0;
  uint32_t v[3];
  int which;
  int rc = num_dims3(s, grid ? grid_max : block_max, v, &which);
  if (rc == NUM_OUT_OF_RANGE) {
    fprintf(stderr, "ptxemu %s: bad %s '%s': %c must be 1 to %llu\n", cmd, opt, s, "xyz"[which],
            (unsigned long long)(grid ? grid_max : block_max)[which]);
    return -1;
  }
  if (rc) { fprintf(stderr, "ptxemu %s: bad %s '%s': X, X,Y, X,Y,Z or XxYxZ (whole numbers)\n", cmd, opt, s); return -1; }
  if (!grid && (uint64_t)v[0] * v[1] * v[2] > 1024) {
    fprintf(stderr, "ptxemu %s: bad --block '%s': %llu threads, more than 1024\n", cmd, s, (unsigned long long)v[0] * v[1] * v[2]);
    return -1;
  }
  snprintf(out, n, "%u %u %u", v[0], v[1], v[2]);
  return 0;
}

/* A number option; 0, or a message naming the option and its range and -1. */
static int num_opt(const char *cmd, const char *opt, int rc, const char *v, const char *range) {
  if (!rc) return 0;
  fprintf(stderr, "ptxemu %s: bad %s '%s': %s\n", cmd, opt, v, range);
  return -1;
}

typedef struct sbuf { char *p; size_t n, cap; } sbuf;
static void add(sbuf *b, const char *s) {
  size_t l = strlen(s);
  if (b->n + l + 2 > b->cap) { b->cap = (b->n + l + 2) * 2; b->p = realloc(b->p, b->cap); }
  memcpy(b->p + b->n, s, l);
  b->n += l;
  b->p[b->n++] = '\n';
  b->p[b->n] = 0;
}

/* --sanitize: the sanitizer around the session's (and the trace's) hooks;
 * its findings also go to the trace's hazards table. */
static int san_start(sanitizer **out, int checks, session_opts *o, cli_trace *ct) {
  *out = NULL;
  if (!checks) return 0;
  sanitizer *s = san_new((unsigned)checks, stderr);
  if (!s) { fprintf(stderr, "ptxemu: out of memory\n"); return EXIT_SOFTWARE; }
  san_attach(s, o);
  trace *t = cli_trace_of(ct);
  if (t) san_set_sink(s, trace_hazard, t);
  *out = s;
  return 0;
}

static int run_common(int argc, char **argv, bool compare, void (*attach)(session_opts *, void *), void *actx) {
  sanitizer *san = NULL;
  session_opts o = { .compare = compare };
  const char *path = NULL, *kernel = NULL, *grid = "1", *block = "1", *shared = "0";
  /* static: an early exit on a bad option leaves them reachable, not leaked */
  static sbuf pre, args, post;
  pre = args = post = (sbuf){0};
  cli_trace *ct = NULL;                             /* --trace options */
  static const char *sets[CLI_MAX_SETS];
  int tr, format = GRADE_TEXT, checks = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool more = i + 1 < argc;
    if (cli_is_help(a)) { usage(stdout, argv[0]); return EXIT_OK; }
    else if (strcmp(a, "--out") == 0 && more) o.out_dir = argv[++i];
    else if (strcmp(a, "--stats") == 0 && more) o.stats_path = argv[++i];
    else if (strcmp(a, "--max-insts") == 0 && more) {
      i++;
      if (num_opt(argv[0], a, num_u64(argv[i], 1, 1000000000000000ull, &o.max_insts), argv[i], "a whole number from 1 to 1e15")) return EXIT_USAGE;
    }
    else if (strcmp(a, "--threads") == 0 && more) {
      i++;
      uint64_t t;
      if (num_opt(argv[0], a, num_u64(argv[i], 1, SESSION_MAX_THREADS, &t), argv[i], "a whole number from 1 to 1024")) return EXIT_USAGE;
      o.threads = (uint32_t)t;
    }
    else if (strcmp(a, "--max-seconds") == 0 && more) {
      i++;
      if (num_opt(argv[0], a, num_f64(argv[i], 0.001, 1e7, &o.max_seconds), argv[i], "a number of seconds from 0.001 to 1e7")) return EXIT_USAGE;
    }
    else if (strcmp(a, "--max-memory") == 0 && more) {
      i++;
      if (num_opt(argv[0], a, num_size(argv[i], 1, 1ull << 44, &o.mem_cap), argv[i], "a size from 1 byte to 16T (bytes, or with K, M, G, T)")) return EXIT_USAGE;
    }
    else if (strcmp(a, "--kernel") == 0 && more) kernel = argv[++i];
    else if (strcmp(a, "--gpu") == 0 && more) o.gpu = argv[++i];
    else if (strcmp(a, "--timing") == 0) { if (!o.gpu) o.gpu = "h100"; }
    else if (strcmp(a, "--strict-async") == 0) o.strict_async = true;
    else if (strcmp(a, "--sanitize") == 0 && more) {
      const char *bad;
      size_t bl;
      int c = san_parse(argv[++i], &bad, &bl);
      if (c < 0) { fprintf(stderr, "ptxemu %s: --sanitize: unknown check '%.*s' (racecheck, synccheck, initcheck, memcheck or all)\n", argv[0], (int)bl, bad); return EXIT_USAGE; }
      checks |= c;
    }
    else if (strcmp(a, "--sched") == 0 && more) {
      o.sched = argv[++i];
      if (gpu_sched_from_name(o.sched) < 0) { fprintf(stderr, "ptxemu %s: --sched must be gto, lrr or two_level, got '%s'\n", argv[0], o.sched); return EXIT_USAGE; }
      if (!o.gpu) o.gpu = "h100";
    }
    else if (strcmp(a, "--issue-order") == 0 && more) {
      o.issue_order = argv[++i];
      if (gpu_issue_order_from_name(o.issue_order) < 0) { fprintf(stderr, "ptxemu %s: --issue-order must be scheduled or ptx, got '%s'\n", argv[0], o.issue_order); return EXIT_USAGE; }
      if (!o.gpu) o.gpu = "h100";
    }
    else if (strcmp(a, "--set") == 0 && more) {
      if (o.nsets == CLI_MAX_SETS) { fprintf(stderr, "ptxemu %s: more than %d --set options\n", argv[0], CLI_MAX_SETS); return EXIT_USAGE; }
      sets[o.nsets++] = argv[++i];
      o.sets = sets;
      if (!o.gpu) o.gpu = "h100";
    }
    else if (strcmp(a, "--grid") == 0 && more) grid = argv[++i];
    else if (strcmp(a, "--block") == 0 && more) block = argv[++i];
    else if (strcmp(a, "--shared") == 0 && more) {
      uint64_t v;
      shared = argv[++i];
      if (num_opt(argv[0], a, num_u64(shared, 0, 232448, &v), shared, "a byte count from 0 to 232448 (227 KiB)")) return EXIT_USAGE;
    }
    else if (strcmp(a, "-e") == 0 && more) {
      /* results (dump, expect) come after the launch, the rest before it */
      const char *l = argv[++i];
      while (*l == ' ') l++;
      add(strncmp(l, "dump", 4) == 0 || strncmp(l, "expect", 6) == 0 || strncmp(l, "stdout", 6) == 0 ? &post : &pre, l);
    }
    else if (strcmp(a, "--arg") == 0 && more) {
      char line[512];
      const char *v = argv[++i], *colon = strchr(v, ':');
      if (!colon) { fprintf(stderr, "ptxemu %s: --arg wants TYPE:VALUE, got '%s'\n", argv[0], v); return EXIT_USAGE; }
      snprintf(line, sizeof line, "arg %.*s %s", (int)(colon - v), v, colon + 1);
      add(&args, line);
    }
    else if (compare && strcmp(a, "--format") == 0 && more) {
      format = grade_format_from_name(argv[++i]);
      if (format < 0) { fprintf(stderr, "ptxemu %s: --format must be text, json or tap, got '%s'\n", argv[0], argv[i]); return EXIT_USAGE; }
    }
    else if (strcmp(a, "-q") == 0) o.quiet = true;
    else if (strcmp(a, "-v") == 0) o.verbose = true;
    else if ((tr = cli_trace_option(&ct, argc, argv, &i)) != 0) { if (tr < 0) return EXIT_USAGE; }
    else if (cli_missing_value(argv[0], a, "--out --stats --max-insts --threads --max-seconds --max-memory --sanitize --sched --issue-order --set --kernel --gpu --grid --block --shared -e --arg --format")) return EXIT_USAGE;
    else if (a[0] == '-' && a[1]) { fprintf(stderr, "ptxemu %s: unknown option '%s'\n", argv[0], a); usage(stderr, argv[0]); return EXIT_USAGE; }
    else if (!path) path = a;
    else { fprintf(stderr, "ptxemu %s: more than one input\n", argv[0]); return EXIT_USAGE; }
  }
  if (!path) { usage(stderr, argv[0]); return EXIT_USAGE; }
  int sr = cli_check_sets(o.gpu, o.sets, o.nsets);
  if (sr) return sr;
  if (cli_cuda_source(argv[0], path)) return EXIT_DATAERR;
  static grade_run grade;
  grade = (grade_run){ .input = path };
  if (format != GRADE_TEXT) o.grade = &grade;
  uint64_t t0 = clock_now_ns();
  size_t pl = strlen(path);
  bool module = (pl > 4 && (strcmp(path + pl - 4, ".ptx") == 0 || strcmp(path + pl - 4, ".pxo") == 0)) || kernel;
  int rc;
  if (!module && (pre.p || post.p || args.p || strcmp(grid, "1") || strcmp(block, "1") || strcmp(shared, "0"))) {
    fprintf(stderr, "ptxemu %s: -e, --arg, --grid, --block and --shared go with a PTX module and --kernel, not a launch file\n", argv[0]);
    rc = EXIT_USAGE;
  } else if (!module) {
    rc = cli_trace_start(ct, &o, argc, argv, path) ?: san_start(&san, checks, &o, ct);
    if (!rc && attach) attach(&o, actx);
    if (!rc) rc = session_run(path, &o, cli_load_module);
  }
  else {
    if (!kernel) { fprintf(stderr, "ptxemu %s: a module needs --kernel NAME\n", argv[0]); return EXIT_USAGE; }
    char g[64], b[64], line[1024];
    if (dims(argv[0], "--grid", grid, g, sizeof g) || dims(argv[0], "--block", block, b, sizeof b)) return EXIT_USAGE;
    sbuf t = {0};
    /* the module path is given relative to the current folder */
    snprintf(line, sizeof line, "ptx %s", path);
    add(&t, line);
    if (pre.p) add(&t, pre.p);
    snprintf(line, sizeof line, "launch %s grid %s block %s shared %s", kernel, g, b, shared);
    add(&t, line);
    if (args.p) add(&t, args.p);
    if (post.p) add(&t, post.p);
    rc = cli_trace_start(ct, &o, argc, argv, path) ?: san_start(&san, checks, &o, ct);
    if (!rc && attach) attach(&o, actx);
    if (!rc) rc = session_run_text(t.p, "./command-line", &o, cli_load_module);
    free(t.p);
  }
  free(pre.p);
  free(args.p);
  free(post.p);
  if (san) {
    san_summary(san);
    /* a finding fails the run as a kernel fault does */
    if (san_total(san) && (rc == 0 || rc == 1)) rc = 3;
    san_free(san);
  }
  rc = cli_trace_finish(ct, rc);
  if (o.grade) {
    grade.status = rc;
    grade.wall_seconds = (double)(clock_now_ns() - t0) / 1e9;
    grade_write(stdout, &grade, (enum grade_format)format);
    grade_free(&grade);
  }
  return rc;
}

int cmd_run(int argc, char **argv) { return run_common(argc, argv, false, NULL, NULL); }
int cmd_check(int argc, char **argv) { return run_common(argc, argv, true, NULL, NULL); }
int cli_run_attached(int argc, char **argv, void (*attach)(session_opts *, void *), void *ctx) {
  return run_common(argc, argv, false, attach, ctx);
}
