/* cli/cmd_sweep.c - "ptxemu sweep": run the points of a SPEC (here, or as a
 * Slurm job array) into a folder, and the status, collect, plot and task
 * sub-commands (ptxemu-sweep(1)).  A rerun runs only the points without a
 * finished result. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/sweep.h"
#include "util/num.h"

static void usage(FILE *f) {
  fputs("usage: ptxemu sweep [--local [-j N]] [--list] [OPTIONS] SPEC DIR\n"
        "       ptxemu sweep [--chunk K] SPEC DIR --slurm [SBATCH-OPTION...]\n"
        "       ptxemu sweep status DIR\n"
        "       ptxemu sweep collect DIR -o RESULTS.db\n"
        "       ptxemu sweep plot RESULTS.db --axis PARAM [--metric COLUMN] -o PLOT.svg\n"
        "Runs every point of SPEC (workloads x GPUs x parameter values x repetitions)\n"
        "not yet done in DIR, each into DIR/points/N.db.\n"
        "  --local          run here (the default), -j N processes at once (default: the cores)\n"
        "  --slurm ...      submit one Slurm job array; the rest of the line goes to sbatch\n"
        "  --chunk K        points per array task (default: as many as keep 1000 tasks)\n"
        "  --list           print the points and whether each is done, run nothing\n"
        "  --repeat N, --max-seconds S, --max-memory SIZE\n"
        "                   instead of the SPEC's repeat, max-seconds and max-memory\n"
        "See ptxemu-sweep(1) for the SPEC format and the result tables.\n", f);
}

/* DIR as an absolute path (children work in the SPEC's folder; job
 * scripts run anywhere); created when create. */
static int abs_dir(const char *dir, bool create, char *out) {
  for (const char *p = dir; *p; p++)
    if ((unsigned char)*p < 0x20) { fprintf(stderr, "ptxemu sweep: the folder name holds a control character\n"); return EXIT_USAGE; }
  if (create && mkdir(dir, 0777) && errno != EEXIST) { fprintf(stderr, "ptxemu sweep: cannot create '%s': %s\n", dir, strerror(errno)); return EXIT_CANTCREAT; }
  if (!realpath(dir, out)) { fprintf(stderr, "ptxemu sweep: no folder '%s': %s\n", dir, strerror(errno)); return EXIT_NOINPUT; }
  return 0;
}

static int cores(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

static int run_sweep(int argc, char **argv) {
  const char *spec = NULL, *dir = NULL;
  uint64_t jobs = 0, chunk = 0;
  bool list = false;
  sweep_overrides ov = {0};
  int slurm = 0;                    /* index of --slurm: the sbatch options follow */
  for (int i = 1; i < argc && !slurm; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) { usage(stdout); return EXIT_OK; }
    else if (strcmp(a, "--local") == 0) {}
    else if (strcmp(a, "--list") == 0) list = true;
    else if (strcmp(a, "--slurm") == 0) slurm = i;
    else if ((strcmp(a, "-j") == 0 || strcmp(a, "--chunk") == 0) && i + 1 < argc) {
      uint64_t *v = a[1] == 'j' ? &jobs : &chunk;
      if (num_u64(argv[++i], 1, 1024 * (a[1] == 'j' ? 1 : 100), v)) {
        fprintf(stderr, "ptxemu sweep: bad %s '%s': a whole number from 1 to %d\n", a, argv[i], a[1] == 'j' ? 1024 : 102400);
        return EXIT_USAGE;
      }
    }
    else if (strcmp(a, "--repeat") == 0 && i + 1 < argc) {
      uint64_t v;
      if (num_u64(argv[++i], 1, 1000, &v)) { fprintf(stderr, "ptxemu sweep: bad --repeat '%s': a whole number from 1 to 1000\n", argv[i]); return EXIT_USAGE; }
      ov.repeat = (int)v;
    }
    else if (strcmp(a, "--max-seconds") == 0 && i + 1 < argc) {
      if (num_f64(argv[++i], 0.001, 1e7, &ov.max_seconds)) { fprintf(stderr, "ptxemu sweep: bad --max-seconds '%s': a number of seconds from 0.001 to 1e7\n", argv[i]); return EXIT_USAGE; }
    }
    else if (strcmp(a, "--max-memory") == 0 && i + 1 < argc) {
      if (num_size(argv[++i], 1u << 20, 1ull << 44, &ov.max_memory)) { fprintf(stderr, "ptxemu sweep: bad --max-memory '%s': a size from 1M to 16T\n", argv[i]); return EXIT_USAGE; }
    }
    else if (cli_missing_value("sweep", a, "-j --chunk --repeat --max-seconds --max-memory")) return EXIT_USAGE;
    else if (a[0] == '-' && a[1]) { fprintf(stderr, "ptxemu sweep: unknown option '%s'\n", a); usage(stderr); return EXIT_USAGE; }
    else if (!spec) spec = a;
    else if (!dir) dir = a;
    else { fprintf(stderr, "ptxemu sweep: more than a SPEC and a folder\n"); return EXIT_USAGE; }
  }
  if (!spec || !dir) { usage(stderr); return EXIT_USAGE; }
  if (slurm && jobs) { fprintf(stderr, "ptxemu sweep: -j goes with --local (Slurm tasks use SLURM_CPUS_PER_TASK)\n"); return EXIT_USAGE; }
  sweep_spec s;
  char *text = NULL;
  int rc = sweep_spec_load(&s, spec, NULL, &ov, &text);
  if (rc) return rc;
  char adir[PATH_MAX];
  if (list) {
    bool have = realpath(dir, adir) != NULL;
    for (int i = 0; i < s.npoints; i++) {
      int st = have ? sweep_point_state(adir, &s, i) : 0;
      printf("%d %s%s%s\n", i, s.points[i].key, s.points[i].baseline ? " (baseline)" : "", st == 1 ? " done" : st == 2 ? " failed" : "");
    }
    free(text);
    sweep_spec_free(&s);
    return EXIT_OK;
  }
  rc = abs_dir(dir, true, adir);
  if (!rc) rc = sweep_dir_prepare(adir, text, s.base, &ov);
  free(text);
  if (rc) { sweep_spec_free(&s); return rc; }
  /* only what is not done: missing, failed, or left by another SPEC */
  int *todo = malloc(sizeof *todo * (size_t)s.npoints), n = 0;
  if (!todo) { sweep_spec_free(&s); return EXIT_SOFTWARE; }
  for (int i = 0; i < s.npoints; i++) if (sweep_point_state(adir, &s, i) != 1) todo[n++] = i;
  if (!n) printf("all %d points are done (ptxemu sweep collect %s -o RESULTS.db)\n", s.npoints, dir);
  else if (slurm) rc = sweep_slurm_submit(adir, &s, todo, n, (int)chunk, argv + slurm + 1, argc - slurm - 1);
  else {
    if (n < s.npoints) fprintf(stderr, "[sweep] %d of %d points are done already; running the other %d\n", s.npoints - n, s.npoints, n);
    int failed = sweep_run_points(adir, &s, todo, n, jobs ? (int)jobs : cores(), true);
    if (failed == -2) rc = 130;
    else if (failed < 0) rc = EXIT_CANTCREAT;
    else if (failed) { fprintf(stderr, "[sweep] %d points failed (ptxemu sweep status %s says why)\n", failed, dir); rc = EXIT_MISMATCH; }
  }
  free(todo);
  sweep_spec_free(&s);
  return rc;
}

int cmd_sweep(int argc, char **argv) {
  if (argc < 2) { usage(stderr); return EXIT_USAGE; }
  const char *sub = argv[1];
  char adir[PATH_MAX];
  if (strcmp(sub, "status") == 0) {
    if (argc != 3) { fprintf(stderr, "usage: ptxemu sweep status DIR\n"); return EXIT_USAGE; }
    return abs_dir(argv[2], false, adir) ?: sweep_status(adir);
  }
  if (strcmp(sub, "task") == 0) {
    if (argc != 5) { fprintf(stderr, "usage: ptxemu sweep task DIR TODO TASK (the job script's command)\n"); return EXIT_USAGE; }
    return abs_dir(argv[2], false, adir) ?: sweep_slurm_task(adir, argv[3], argv[4]);
  }
  if (strcmp(sub, "collect") == 0) {
    const char *dir = NULL, *out = NULL;
    for (int i = 2; i < argc; i++) {
      if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
      else if (!dir && argv[i][0] != '-') dir = argv[i];
      else { fprintf(stderr, "usage: ptxemu sweep collect DIR -o RESULTS.db\n"); return EXIT_USAGE; }
    }
    if (!dir || !out) { fprintf(stderr, "usage: ptxemu sweep collect DIR -o RESULTS.db\n"); return EXIT_USAGE; }
    return abs_dir(dir, false, adir) ?: sweep_collect(adir, out);
  }
  if (strcmp(sub, "plot") == 0) {
    const char *db = NULL, *axis = NULL, *metric = "cycles", *out = NULL;
    for (int i = 2; i < argc; i++) {
      if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
      else if (strcmp(argv[i], "--axis") == 0 && i + 1 < argc) axis = argv[++i];
      else if (strcmp(argv[i], "--metric") == 0 && i + 1 < argc) metric = argv[++i];
      else if (!db && argv[i][0] != '-') db = argv[i];
      else { db = NULL; break; }
    }
    if (!db || !axis || !out) { fprintf(stderr, "usage: ptxemu sweep plot RESULTS.db --axis PARAM [--metric COLUMN] -o PLOT.svg\n"); return EXIT_USAGE; }
    return sweep_plot(db, axis, metric, out);
  }
  return run_sweep(argc, argv);
}
