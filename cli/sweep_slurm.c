/* cli/sweep_slurm.c - a sweep as one Slurm job array: a todo file lists
 * the points of each array task (one line a task), a small job script runs
 * "ptxemu sweep task DIR TODO $SLURM_ARRAY_TASK_ID", and sbatch is called
 * with an argument vector (no shell); the status command asks squeue
 * which tasks are pending or running and reads the result files. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/sweep.h"
#include "util/num.h"

/* a word of a POSIX shell script: single quotes, a quote as '\'' */
static void sh_word(FILE *f, const char *w) {
  fputc('\'', f);
  for (; *w; w++) {
    if (*w == '\'') fputs("'\\''", f);
    else fputc(*w, f);
  }
  fputc('\'', f);
}

int sweep_slurm_submit(const char *dir, const sweep_spec *s, const int *idx, int n, int chunk, char **opts, int nopts) {
  (void)s;
  if (chunk < 1) chunk = (n + 999) / 1000;   /* Slurm's default MaxArraySize is 1001 */
  if (chunk < 1) chunk = 1;
  int tasks = (n + chunk - 1) / chunk;
  char todo[PATH_MAX], script[PATH_MAX], out[2 * PATH_MAX + 32];
  long stamp = (long)time(NULL);
  snprintf(todo, sizeof todo, "%s/slurm/todo-%ld-%d.txt", dir, stamp, (int)getpid());
  snprintf(script, sizeof script, "%s/slurm/job-%ld-%d.sh", dir, stamp, (int)getpid());
  FILE *f = fopen(todo, "w");
  if (!f) { fprintf(stderr, "ptxemu sweep: cannot write '%s': %s\n", todo, strerror(errno)); return EXIT_CANTCREAT; }
  for (int t = 0; t < tasks; t++) {
    for (int i = t * chunk; i < n && i < (t + 1) * chunk; i++) fprintf(f, "%s%d", i > t * chunk ? " " : "", idx[i]);
    fputc('\n', f);
  }
  if (fclose(f)) { fprintf(stderr, "ptxemu sweep: cannot write '%s'\n", todo); return EXIT_CANTCREAT; }
  f = fopen(script, "w");
  if (!f) { fprintf(stderr, "ptxemu sweep: cannot write '%s': %s\n", script, strerror(errno)); return EXIT_CANTCREAT; }
  fputs("#!/bin/sh\n# a ptxemu sweep (ptxemu-sweep(1)): array task K runs the points on line K+1 of the todo file\nexec ", f);
  sh_word(f, sweep_self());
  fputs(" sweep task ", f);
  sh_word(f, dir);
  fputc(' ', f);
  sh_word(f, todo);
  fputs(" \"$SLURM_ARRAY_TASK_ID\"\n", f);
  if (fclose(f) || chmod(script, 0755)) { fprintf(stderr, "ptxemu sweep: cannot write '%s'\n", script); return EXIT_CANTCREAT; }

  char array[64];
  snprintf(array, sizeof array, "--array=0-%d", tasks - 1);
  /* sbatch reads % in the file name as a pattern: the folder's own are doubled */
  size_t k0 = (size_t)snprintf(out, sizeof out, "--output=");
  for (const char *p = dir; *p && k0 + 3 < sizeof out - 16; p++) {
    if (*p == '%') out[k0++] = '%';
    out[k0++] = *p;
  }
  snprintf(out + k0, sizeof out - k0, "/slurm/%%A_%%a.out");
  char **argv = calloc((size_t)nopts + 8, sizeof *argv);
  if (!argv) return EXIT_SOFTWARE;
  int k = 0;
  argv[k++] = "sbatch";
  argv[k++] = "--parsable";
  argv[k++] = "--job-name=ptxemu-sweep";
  argv[k++] = array;
  argv[k++] = out;
  for (int i = 0; i < nopts; i++) argv[k++] = opts[i];   /* the user's options come last: they win */
  argv[k++] = script;
  argv[k] = NULL;
  char id[256];
  int rc = sweep_capture(argv, id, sizeof id);
  free(argv);
  id[strcspn(id, ";\n")] = 0;
  uint64_t jid;
  if (rc != 0 || num_u64(id, 1, UINT32_MAX, &jid)) {
    fprintf(stderr, "ptxemu sweep: sbatch failed (exit %d)%s%s\n", rc, *id ? ": " : "", id);
    return EXIT_SOFTWARE;
  }
  char jobs[PATH_MAX];
  snprintf(jobs, sizeof jobs, "%s/slurm/jobs", dir);
  f = fopen(jobs, "a");
  if (f) { fprintf(f, "%llu %s\n", (unsigned long long)jid, todo); fclose(f); }
  printf("submitted job %llu: %d points in %d array tasks\n", (unsigned long long)jid, n, tasks);
  return EXIT_OK;
}

/* The points on line task + 1 of the todo file (at most n). */
static int todo_line(const char *todo, long task, int *idx, int max, int npoints) {
  FILE *f = fopen(todo, "r");
  if (!f) return -1;
  char *line = NULL;
  size_t cap = 0;
  int n = -1;
  for (long t = 0; getline(&line, &cap, f) > 0; t++) {
    if (t != task) continue;
    n = 0;
    for (char *save = NULL, *w = strtok_r(line, " \n", &save); w && n < max; w = strtok_r(NULL, " \n", &save)) {
      uint64_t v;
      if (num_u64(w, 0, (uint64_t)npoints - 1, &v)) { n = -1; break; }
      idx[n++] = (int)v;
    }
    break;
  }
  free(line);
  fclose(f);
  return n;
}

int sweep_slurm_task(const char *dir, const char *todo, const char *task) {
  uint64_t t;
  if (num_u64(task, 0, 10000000, &t)) { fprintf(stderr, "ptxemu sweep task: bad task number '%s'\n", task); return EXIT_USAGE; }
  sweep_spec s;
  int rc = sweep_dir_load(dir, &s);
  if (rc) return rc;
  int *idx = malloc(sizeof *idx * (size_t)s.npoints);
  int n = idx ? todo_line(todo, (long)t, idx, s.npoints, s.npoints) : -1;
  if (n < 0) { fprintf(stderr, "ptxemu sweep task: no line %llu in '%s'\n", (unsigned long long)t + 1, todo); free(idx); sweep_spec_free(&s); return EXIT_DATAERR; }
  /* the CPUs Slurm gave the task */
  const char *cpus = getenv("SLURM_CPUS_PER_TASK");
  uint64_t j = 1;
  if (cpus && num_u64(cpus, 1, 1024, &j)) j = 1;
  int failed = sweep_run_points(dir, &s, idx, n, (int)j, false);
  free(idx);
  sweep_spec_free(&s);
  /* a failed point is a result (recorded with its reason), not a failed task */
  return failed == -2 ? 130 : failed < 0 ? EXIT_CANTCREAT : EXIT_OK;
}

/* ---- ptxemu sweep status DIR ------------------------------------------- */

enum { ST_MISSING, ST_DONE, ST_FAILED, ST_PENDING, ST_RUNNING };

/* Mark the points of the tasks squeue lists for job jid (todo file todo). */
static int from_squeue(unsigned long long jid, const char *todo, int *state, int npoints) {
  char jobarg[32], out[1 << 16];
  snprintf(jobarg, sizeof jobarg, "%llu", jid);
  char *argv[] = { "squeue", "-h", "-r", "-j", jobarg, "-o", "%i %T", NULL };
  int rc = sweep_capture(argv, out, sizeof out);
  if (rc < 0 || rc == 127) return -1;
  int *idx = malloc(sizeof *idx * (size_t)npoints);
  if (!idx) return -1;
  for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    char *us = strchr(l, '_'), *sp = strchr(l, ' ');
    if (!us || !sp || sp < us) continue;
    long task = strtol(us + 1, NULL, 10);
    int st = strstr(sp, "RUNNING") || strstr(sp, "COMPLETING") ? ST_RUNNING : ST_PENDING;
    int n = todo_line(todo, task, idx, npoints, npoints);
    for (int i = 0; i < n; i++) if (state[idx[i]] == ST_MISSING) state[idx[i]] = st;
  }
  free(idx);
  return 0;
}

int sweep_status(const char *dir) {
  sweep_spec s;
  int rc = sweep_dir_load(dir, &s);
  if (rc) return rc;
  int *state = calloc((size_t)s.npoints, sizeof *state);
  if (!state) { sweep_spec_free(&s); return EXIT_SOFTWARE; }
  for (int i = 0; i < s.npoints; i++) {
    int st = sweep_point_state(dir, &s, i);
    state[i] = st == 1 ? ST_DONE : st == 2 ? ST_FAILED : ST_MISSING;
  }
  char jobs[PATH_MAX];
  snprintf(jobs, sizeof jobs, "%s/slurm/jobs", dir);
  FILE *f = fopen(jobs, "r");
  bool squeue_ok = true;
  unsigned long long last = 0;
  if (f) {
    char line[PATH_MAX + 32];
    while (fgets(line, sizeof line, f)) {
      char *sp = strchr(line, ' ');
      if (!sp) continue;
      *sp = 0;
      sp[1 + strcspn(sp + 1, "\n")] = 0;
      last = strtoull(line, NULL, 10);
      if (from_squeue(last, sp + 1, state, s.npoints)) squeue_ok = false;
    }
    fclose(f);
  }
  int count[5] = {0};
  for (int i = 0; i < s.npoints; i++) count[state[i]]++;
  printf("%d points: %d done, %d failed, %d pending, %d running, %d missing\n", s.npoints, count[ST_DONE], count[ST_FAILED],
         count[ST_PENDING], count[ST_RUNNING], count[ST_MISSING]);
  if (last) printf("slurm job %llu%s\n", last, squeue_ok ? "" : " (squeue did not answer: pending and running are not known)");
  for (int i = 0; i < s.npoints; i++) {
    if (state[i] != ST_FAILED) continue;
    char p[PATH_MAX];
    sweep_result_path(dir, i, p, sizeof p);
    sqlite3 *db;
    const char *why = "?";
    sqlite3_stmt *st = NULL;
    if (sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT reason FROM point", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
      why = (const char *)sqlite3_column_text(st, 0);
    printf("failed %d %s: %s\n", i, s.points[i].key, why);
    sqlite3_finalize(st);
    sqlite3_close(db);
  }
  if (count[ST_MISSING] && !count[ST_PENDING] && !count[ST_RUNNING])
    printf("a rerun of 'ptxemu sweep' with the same SPEC and folder runs the %d missing and %d failed points\n", count[ST_MISSING], count[ST_FAILED]);
  free(state);
  sweep_spec_free(&s);
  return EXIT_OK;
}
