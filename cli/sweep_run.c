/* cli/sweep_run.c - run the points of a sweep: each point is one ptxemu
 * check (a launch file) or ptxemu exec (a program) process, started with
 * fork/exec and an argument vector (never a shell), with its --stats file;
 * its result (status, reason, wall time, the effective parameters and the
 * per-launch counters) becomes DIR/points/N.db, written under a temporary
 * name and renamed, so a result file is whole or absent. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/sweep.h"
#include "gpu/config.h"
#include "util/clock.h"

const char *sweep_self(void) {
  static char self[PATH_MAX];
  if (!self[0]) {
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) snprintf(self, sizeof self, "ptxemu");
    else self[n] = 0;
  }
  return self;
}

void sweep_result_path(const char *dir, int index, char *out, size_t n) {
  snprintf(out, n, "%s/points/%06d.db", dir, index);
}

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

int sweep_dir_prepare(const char *dir, const char *spec_text, const char *base, const sweep_overrides *ov) {
  char p[PATH_MAX];
  const char *sub[] = { "", "/points", "/logs", "/slurm", "/traces" };
  for (size_t i = 0; i < sizeof sub / sizeof *sub; i++) {
    snprintf(p, sizeof p, "%s%s", dir, sub[i]);
    if (mkdir(p, 0777) && errno != EEXIST) { fprintf(stderr, "ptxemu sweep: cannot create '%s': %s\n", p, strerror(errno)); return EXIT_CANTCREAT; }
  }
  snprintf(p, sizeof p, "%s/sweep.spec", dir);
  char q[PATH_MAX];
  snprintf(q, sizeof q, "%s/sweep.base", dir);
  char b[PATH_MAX + 128];
  snprintf(b, sizeof b, "%s\nrepeat %d\nmax-seconds %.17g\nmax-memory %llu\n", base, ov->repeat, ov->max_seconds, (unsigned long long)ov->max_memory);
  if (write_text(p, spec_text) || write_text(q, b)) { fprintf(stderr, "ptxemu sweep: cannot write '%s': %s\n", p, strerror(errno)); return EXIT_CANTCREAT; }
  return 0;
}

int sweep_dir_load(const char *dir, sweep_spec *s) {
  char p[PATH_MAX], base[PATH_MAX], line[128];
  snprintf(p, sizeof p, "%s/sweep.base", dir);
  FILE *f = fopen(p, "r");
  if (!f || !fgets(base, sizeof base, f)) {
    fprintf(stderr, "ptxemu sweep: '%s' is not a sweep folder (no sweep.base)\n", dir);
    if (f) fclose(f);
    return EXIT_NOINPUT;
  }
  base[strcspn(base, "\n")] = 0;
  /* the command line's overrides of the run that wrote the folder */
  sweep_overrides ov = {0};
  while (fgets(line, sizeof line, f)) {
    unsigned long long m;
    if (sscanf(line, "repeat %d", &ov.repeat) == 1 || sscanf(line, "max-seconds %lf", &ov.max_seconds) == 1) continue;
    if (sscanf(line, "max-memory %llu", &m) == 1) ov.max_memory = m;
  }
  fclose(f);
  if (ov.repeat < 0 || ov.repeat > 1000) ov.repeat = 0;
  if (!(ov.max_seconds >= 0 && ov.max_seconds <= 1e7)) ov.max_seconds = 0;
  if (ov.max_memory > (1ull << 44)) ov.max_memory = 0;
  snprintf(p, sizeof p, "%s/sweep.spec", dir);
  return sweep_spec_load(s, p, base, &ov, NULL);
}

int sweep_point_state(const char *dir, const sweep_spec *s, int index) {
  char p[PATH_MAX];
  sweep_result_path(dir, index, p, sizeof p);
  if (access(p, R_OK)) return 0;
  sqlite3 *db;
  int state = 0;
  if (sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT key, status FROM point", -1, &st, NULL) == SQLITE_OK) {
      if (sqlite3_step(st) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(st, 0), *v = (const char *)sqlite3_column_text(st, 1);
        if (k && v && strcmp(k, s->points[index].key) == 0) state = strcmp(v, "done") == 0 ? 1 : 2;
      }
      sqlite3_finalize(st);
    }
  }
  sqlite3_close(db);
  return state;
}

/* ---- one point --------------------------------------------------------- */

typedef struct slot { pid_t pid; int index; uint64_t start_ns; bool timed_out; } slot;

static void push(const char **v, int *n, const char *a) { v[(*n)++] = a; }

/* argv of point index (strings in s->a, or the static buffers given) */
static const char **point_argv(const char *dir, const sweep_spec *s, int index, char *stats, char *trace, char *mem, char *sec) {
  const sweep_point *p = &s->points[index];
  const sweep_workload *w = &s->w[p->workload];
  const char **sets;
  int nsets = sweep_point_sets(s, p, &sets);
  const char **v = arena_alloc(s->a, sizeof *v * (size_t)(2 * nsets + w->argc + 24));
  int n = 0;
  push(v, &n, sweep_self());
  push(v, &n, w->exec ? "exec" : "check");
  push(v, &n, "-q");
  push(v, &n, "--gpu");
  push(v, &n, s->gpus[p->gpu]);
  for (int i = 0; i < nsets; i++) { push(v, &n, "--set"); push(v, &n, sets[i]); }
  snprintf(stats, PATH_MAX, "%s/logs/%06d.stats", dir, index);
  push(v, &n, "--stats");
  push(v, &n, stats);
  if (s->max_seconds > 0) { snprintf(sec, 32, "%g", s->max_seconds); push(v, &n, "--max-seconds"); push(v, &n, sec); }
  if (s->max_memory) { snprintf(mem, 32, "%llu", (unsigned long long)s->max_memory); push(v, &n, "--max-memory"); push(v, &n, mem); }
  if (s->trace_level) {
    snprintf(trace, PATH_MAX, "%s/traces/%06d.db", dir, index);
    unlink(trace);                       /* a rerun's trace is not appended to an old one */
    push(v, &n, "--trace"); push(v, &n, trace);
    push(v, &n, "--trace-level"); push(v, &n, s->trace_level);
  }
  if (w->exec) push(v, &n, "--");
  for (int i = 0; i < w->argc; i++) push(v, &n, w->argv[i]);
  v[n] = NULL;
  return v;
}

static pid_t start_point(const char *dir, const sweep_spec *s, int index) {
  char stats[PATH_MAX], trace[PATH_MAX], mem[32], sec[32], log[PATH_MAX];
  const char **argv = point_argv(dir, s, index, stats, trace, mem, sec);
  snprintf(log, sizeof log, "%s/logs/%06d.err", dir, index);
  unlink(stats);
  fflush(NULL);
  pid_t pid = fork();
  if (pid) return pid;
  /* the child: its own process group (a time limit kills all of it), the
   * SPEC's folder as working folder, output into the log */
  setpgid(0, 0);
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666), nul = open("/dev/null", O_RDWR);
  if (fd >= 0) { dup2(fd, 2); close(fd); }
  if (nul >= 0) { dup2(nul, 0); dup2(nul, 1); close(nul); }
  if (chdir(s->base)) { fprintf(stderr, "ptxemu sweep: cannot enter '%s': %s\n", s->base, strerror(errno)); _exit(126); }
  execv(argv[0], (char *const *)argv);
  fprintf(stderr, "ptxemu sweep: cannot run '%s': %s\n", argv[0], strerror(errno));
  _exit(126);
}

/* The last non-blank line of the point's log (at most 300 characters). */
static void last_line(const char *dir, int index, char *out, size_t n) {
  char p[PATH_MAX], buf[4096];
  snprintf(p, sizeof p, "%s/logs/%06d.err", dir, index);
  out[0] = 0;
  FILE *f = fopen(p, "r");
  if (!f) return;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, sz > (long)sizeof buf - 1 ? sz - (long)sizeof buf + 1 : 0, SEEK_SET);
  size_t k = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[k] = 0;
  while (k && (buf[k - 1] == '\n' || buf[k - 1] == ' ' || buf[k - 1] == '\r')) buf[--k] = 0;
  char *l = strrchr(buf, '\n');
  snprintf(out, n, "%.300s", l ? l + 1 : buf);
}

static const char *status_meaning(int rc) {
  switch (rc) {
  case EXIT_MISMATCH: return "an expected output differs";
  case EXIT_FAULT: return "kernel fault";
  case EXIT_LIMIT: return "a limit was reached";
  case EXIT_USAGE: return "bad command line";
  case EXIT_DATAERR: return "bad input";
  case EXIT_NOINPUT: return "input missing or unreadable";
  case EXIT_CANTCREAT: return "cannot write an output";
  default: return "failed";
  }
}

#define SQL_OK(x) ((x) == SQLITE_OK || (x) == SQLITE_DONE || (x) == SQLITE_ROW)

static const char point_schema[] =
  "CREATE TABLE point(key TEXT NOT NULL, point_index INTEGER, workload TEXT, kind TEXT, gpu TEXT, rep INTEGER,\n"
  "  status TEXT NOT NULL, exit_status INTEGER, reason TEXT, wall_seconds REAL, host TEXT, finished_at TEXT,\n"
  "  command_line TEXT, trace TEXT, gpu_params TEXT);\n"
  "CREATE TABLE params(name TEXT NOT NULL, value TEXT, swept INTEGER);\n"
  "CREATE TABLE metrics(launch INTEGER, kernel TEXT, name TEXT NOT NULL, value REAL);\n";

/* The --stats lines "launch N KERNEL NAME VALUE ..." into metrics. */
static int load_stats(sqlite3 *db, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  sqlite3_stmt *st;
  int rc = sqlite3_prepare_v2(db, "INSERT INTO metrics VALUES(?,?,?,?)", -1, &st, NULL);
  char *line = NULL;
  size_t cap = 0;
  long rows = 0;
  while (SQL_OK(rc) && getline(&line, &cap, f) > 0 && rows < 10000000) {
    char *save = NULL, *t = strtok_r(line, " \n", &save);
    if (!t || strcmp(t, "launch")) continue;
    char *idx = strtok_r(NULL, " \n", &save), *kernel = strtok_r(NULL, " \n", &save);
    if (!idx || !kernel) continue;
    for (char *name; SQL_OK(rc) && (name = strtok_r(NULL, " \n", &save));) {
      char *val = strtok_r(NULL, " \n", &save);
      if (!val) break;
      sqlite3_bind_int64(st, 1, strtoll(idx, NULL, 10));
      sqlite3_bind_text(st, 2, kernel, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
      /* whole counters stay integers (sums of them print as such) */
      char *end;
      long long iv = strtoll(val, &end, 10);
      if (*end || end == val) sqlite3_bind_double(st, 4, strtod(val, NULL));
      else sqlite3_bind_int64(st, 4, iv);
      rc = sqlite3_step(st);
      sqlite3_reset(st);
      rows++;
    }
  }
  free(line);
  fclose(f);
  sqlite3_finalize(st);
  return SQL_OK(rc) ? 0 : -1;
}

static int write_result(const char *dir, const sweep_spec *s, int index, int ws, bool timed_out, double wall) {
  const sweep_point *p = &s->points[index];
  char path[PATH_MAX], tmp[PATH_MAX + 8], stats[PATH_MAX], trace[PATH_MAX], mem[32], sec[32];
  const char **argv = point_argv(dir, s, index, stats, trace, mem, sec);
  sweep_result_path(dir, index, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  unlink(tmp);
  int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  char reason[512] = "", tail[320];
  last_line(dir, index, tail, sizeof tail);
  if (timed_out) snprintf(reason, sizeof reason, "over the time limit of %g s (max-seconds)", s->max_seconds);
  else if (WIFSIGNALED(ws)) snprintf(reason, sizeof reason, "killed by signal %d (%s)%s%s", WTERMSIG(ws), strsignal(WTERMSIG(ws)), *tail ? ": " : "", tail);
  else if (code) snprintf(reason, sizeof reason, "exit %d, %s%s%s", code, status_meaning(code), *tail ? ": " : "", tail);
  bool done = !*reason;
  /* the parameters the point ran with: all of them, as the configuration
   * reads once the overrides apply */
  const char **sets;
  int nsets = sweep_point_sets(s, p, &sets);
  gpu_config g;
  char *params = NULL;
  size_t plen = 0;
  FILE *nul = fopen("/dev/null", "w");
  if (nul && gpu_config_load_set(s->gpus[p->gpu], sets, nsets, &g, nul) == 0) {
    FILE *m = open_memstream(&params, &plen);
    if (m) { gpu_config_write(&g, m); fclose(m); }
  }
  if (nul) fclose(nul);
  char *cmd = NULL;
  size_t clen = 0;
  FILE *m = open_memstream(&cmd, &clen);
  if (m) { for (int i = 0; argv[i]; i++) fprintf(m, "%s%s", i ? " " : "", argv[i]); fclose(m); }
  char host[256] = "", when[32];
  gethostname(host, sizeof host - 1);
  time_t now = time(NULL);
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

  sqlite3 *db;
  int rc = sqlite3_open(tmp, &db);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;", NULL, NULL, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, point_schema, NULL, NULL, NULL);
  sqlite3_stmt *st = NULL;
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, "INSERT INTO point VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &st, NULL);
  if (rc == SQLITE_OK) {
    const sweep_workload *w = &s->w[p->workload];
    sqlite3_bind_text(st, 1, p->key, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, index);
    sqlite3_bind_text(st, 3, w->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, w->exec ? "exec" : "launch", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, s->gpus[p->gpu], -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 6, p->rep);
    sqlite3_bind_text(st, 7, done ? "done" : "failed", -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 8, code);
    if (!done) sqlite3_bind_text(st, 9, reason, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 10, wall);
    sqlite3_bind_text(st, 11, host, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 12, when, -1, SQLITE_STATIC);
    if (cmd) sqlite3_bind_text(st, 13, cmd, -1, SQLITE_STATIC);
    if (s->trace_level) sqlite3_bind_text(st, 14, trace, -1, SQLITE_STATIC);
    if (params) sqlite3_bind_text(st, 15, params, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    st = NULL;
  }
  if (SQL_OK(rc)) rc = sqlite3_prepare_v2(db, "INSERT INTO params VALUES(?,?,?)", -1, &st, NULL);
  for (int i = 0; i < nsets && SQL_OK(rc); i++) {
    size_t n = strcspn(sets[i], "=");
    sqlite3_bind_text(st, 1, sets[i], (int)n, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, sets[i] + n + 1, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, i >= s->nfixed);
    rc = sqlite3_step(st);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  if (SQL_OK(rc) && load_stats(db, stats)) rc = SQLITE_ERROR;
  if (SQL_OK(rc)) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  if (!SQL_OK(rc)) fprintf(stderr, "ptxemu sweep: cannot write '%s': %s\n", tmp, sqlite3_errmsg(db));
  sqlite3_close(db);
  free(params);
  free(cmd);
  if (!SQL_OK(rc) || rename(tmp, path)) { unlink(tmp); return -1; }
  unlink(stats);
  return done ? 0 : 1;
}

/* ---- the local scheduler ---------------------------------------------- */

static void progress_line(int done, int failed, int total, uint64_t t0, bool tty, bool last) {
  double el = (double)(clock_now_ns() - t0) / 1e9;
  int fin = done + failed;
  char est[48] = "";
  if (fin && fin < total) snprintf(est, sizeof est, ", about %.0f s left", el / fin * (total - fin));
  fprintf(stderr, "%s[sweep] %d/%d points: %d done, %d failed, %d remaining, %.1f s%s%s", tty ? "\r" : "", fin, total, done,
          failed, total - fin, el, est, tty && !last ? "\033[K" : "\n");
  if (tty && last) fputc('\n', stderr);
}

/* SIGINT/SIGTERM (a Ctrl-C, scancel): the points running are stopped and
 * left without a result, so a rerun runs them */
static volatile sig_atomic_t stop_signal;
static void on_stop(int sig) { stop_signal = sig; }

int sweep_run_points(const char *dir, const sweep_spec *s, const int *idx, int n, int jobs, bool progress) {
  struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  if (jobs < 1) jobs = 1;
  if (jobs > 1024) jobs = 1024;
  slot *run = calloc((size_t)jobs, sizeof *run);
  if (!run) return -1;
  bool tty = progress && isatty(2);
  uint64_t t0 = clock_now_ns(), last_print = 0;
  int next = 0, active = 0, done = 0, failed = 0, errors = 0;
  while (next < n || active) {
    if (stop_signal) {
      for (int k = 0; k < jobs; k++)
        if (run[k].pid) { kill(-run[k].pid, SIGKILL); while (waitpid(run[k].pid, NULL, 0) < 0 && errno == EINTR) {} }
      fprintf(stderr, "%sptxemu sweep: stopped by signal %d; %d points ran, a rerun runs the rest\n", progress ? "\n" : "", (int)stop_signal, done + failed);
      break;
    }
    while (next < n && active < jobs) {
      int k = 0;
      while (run[k].pid) k++;
      pid_t pid = start_point(dir, s, idx[next]);
      if (pid < 0) { fprintf(stderr, "ptxemu sweep: cannot start a process: %s\n", strerror(errno)); errors++; next = n; break; }
      run[k] = (slot){ pid, idx[next], clock_now_ns(), false };
      next++;
      active++;
    }
    int ws;
    pid_t pid = waitpid(-1, &ws, WNOHANG);
    if (pid > 0) {
      for (int k = 0; k < jobs; k++)
        if (run[k].pid == pid) {
          int r = write_result(dir, s, run[k].index, ws, run[k].timed_out, (double)(clock_now_ns() - run[k].start_ns) / 1e9);
          if (r < 0) errors++;
          else if (r) failed++;
          else done++;
          run[k].pid = 0;
          active--;
        }
      continue;
    }
    if (pid < 0 && errno != EINTR) break;
    /* nothing finished: enforce the time limits, show progress, wait a little */
    uint64_t now = clock_now_ns();
    for (int k = 0; k < jobs; k++)
      if (run[k].pid && !run[k].timed_out && s->max_seconds > 0 && (double)(now - run[k].start_ns) / 1e9 > s->max_seconds + 1) {
        run[k].timed_out = true;
        kill(-run[k].pid, SIGKILL);
      }
    if (progress && (now - last_print > (tty ? 200000000ull : 10000000000ull))) {
      progress_line(done, failed, n, t0, tty, false);
      last_print = now;
    }
    struct timespec ts = { 0, 2000000 };
    nanosleep(&ts, NULL);
  }
  if (progress && !stop_signal) progress_line(done, failed, n, t0, tty, true);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  free(run);
  return stop_signal ? -2 : errors ? -1 : failed;
}

int sweep_capture(char *const argv[], char *out, size_t n) {
  int fd[2];
  if (pipe(fd)) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) { close(fd[0]); close(fd[1]); return -1; }
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    execvp(argv[0], argv);
    fprintf(stderr, "ptxemu sweep: cannot run '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(fd[1]);
  size_t k = 0;
  for (;;) {
    char junk[512];
    ssize_t r = k + 1 < n ? read(fd[0], out + k, n - 1 - k) : read(fd[0], junk, sizeof junk);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    if (k + 1 < n) k += (size_t)r;
  }
  if (n) out[k] = 0;
  close(fd[0]);
  int ws;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}
