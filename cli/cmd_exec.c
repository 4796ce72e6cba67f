/* cli/cmd_exec.c - "ptxemu exec [OPTIONS] PROGRAM [ARGS...]": run a CUDA
 * program with ptxemu's CUDA libraries in place of NVIDIA's.  The options
 * become PTXEMU_* variables (cudart/options.h) that the libraries read,
 * LD_LIBRARY_PATH puts the libraries first, and the program's exit status
 * is passed on (and recorded in the trace's runs row). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "config.h"
#include "cli/cli.h"
#include "cudart/fatbin.h"
#include "cudart/options.h"
#include "gpu/config.h"
#include "traces/trace.h"
#include "util/clock.h"

static void usage(FILE *f) {
  fputs("usage: ptxemu exec [OPTIONS] PROGRAM [ARGS...]\n"
        "Runs a CUDA program (built with nvcc -cudart shared) on the emulated GPU.\n"
        "  --timing          the cycle-approximate timing model (default GPU: h100)\n"
        "  --gpu NAME|FILE   the GPU to model; implies --timing\n"
        "  --sched POLICY    gto, lrr or two_level; implies --timing\n"
        "  --issue-order O   scheduled or ptx; implies --timing\n"
        "  --set NAME=VALUE  override a parameter of the GPU (repeatable); implies --timing\n"
        "  --stats FILE      per-launch counters of every kernel the program launches\n"
        "  --trace FILE      record every launch in a SQLite trace (ptxemu-trace(5));\n"
        "  --trace-level L, --trace-kernel K, --trace-blocks A-B, --trace-pcs A-B, --trace-max-size SIZE\n"
        "  --max-insts N     stop a launch after N warp instructions\n"
        "  --threads N       worker threads for functional launches (default: one per core);\n"
        "                    the results are those of --threads 1\n"
        "  --max-seconds S   stop a launch after S seconds\n"
        "  --max-memory SIZE cap on the host memory the emulation uses, e.g. 2G\n"
        "  --strict-async    check proxy fences of the async proxy\n"
        "  --sanitize LIST   racecheck, synccheck, initcheck (comma-separated) or all; a finding\n"
        "                    makes ptxemu exec exit 3 when the program exits 0\n"
        "  --cache DIR|off   where assembled modules are kept (default ~/.cache/ptxemu)\n"
        "  -q, -v            quieter / more verbose\n"
        "  --format F        text (default) or json: after the program, one JSON document on\n"
        "                    stdout with its exit status, output, wall time and launches\n"
        "  --libdir          print the folder of the CUDA libraries and exit\n"
        "Options go before the program, as with env(1).  The program's exit status\n"
        "is passed on; a program killed by a signal gives 128 + the signal.  See ptxemu-exec(1).\n", f);
}

/* The folder holding libcudart.so.13: beside this ptxemu in a build tree
 * (cudart/), else the installed package library folder. */
static const char *libdir(void) {
  static char dir[PATH_MAX];
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash) {
      *slash = 0;
      snprintf(dir, sizeof dir, "%.4000s/cudart", self);
      char probe[PATH_MAX + 32];
      snprintf(probe, sizeof probe, "%.4000s/libcudart.so.13", dir);
      if (access(probe, R_OK) == 0) return dir;
    }
  }
  return PTXEMU_PKGLIBDIR;
}

/* The program's path as execvp would find it (for the static-runtime check). */
static int find_program(const char *name, char *out, size_t n) {
  if (strchr(name, '/')) { snprintf(out, n, "%s", name); return access(out, X_OK); }
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  while (*path) {
    size_t k = strcspn(path, ":");
    snprintf(out, n, "%.*s/%s", (int)k, path, name);
    if (access(out, X_OK) == 0) return 0;
    path += k + (path[k] == ':');
  }
  return -1;
}

static int set(const char *var, const char *val) {
  if (setenv(var, val, 1)) { fprintf(stderr, "ptxemu exec: cannot set %s\n", var); return -1; }
  return 0;
}

/* Append a (shell-quoted) word to the command line kept for the trace. */
static void add_word(char **cmd, size_t *len, const char *w) {
  size_t need = *len + strlen(w) * 4 + 4;
  char *n = realloc(*cmd, need);
  if (!n) return;
  *cmd = n;
  bool q = !*w || strpbrk(w, " \t\n'\"\\$`*?") != NULL;
  char *p = *cmd + *len;
  if (*len) *p++ = ' ';
  if (q) *p++ = '\'';
  for (; *w; w++) {
    if (q && *w == '\'') { memcpy(p, "'\\''", 4); p += 4; }
    else *p++ = *w;
  }
  if (q) *p++ = '\'';
  *p = 0;
  *len = (size_t)(p - *cmd);
}

int cmd_exec(int argc, char **argv) {
  static const struct { const char *opt, *var; } valued[] = {
    { "--gpu", "PTXEMU_GPU" }, { "--sched", "PTXEMU_SCHED" }, { "--issue-order", "PTXEMU_ISSUE_ORDER" },
    { "--stats", "PTXEMU_STATS" }, { "--trace", "PTXEMU_TRACE" }, { "--trace-level", "PTXEMU_TRACE_LEVEL" },
    { "--trace-blocks", "PTXEMU_TRACE_BLOCKS" }, { "--trace-pcs", "PTXEMU_TRACE_PCS" },
    { "--trace-max-size", "PTXEMU_TRACE_MAX_SIZE" }, { "--max-insts", "PTXEMU_MAX_INSTS" },
    { "--threads", "PTXEMU_THREADS" }, { "--max-seconds", "PTXEMU_MAX_SECONDS" }, { "--max-memory", "PTXEMU_MAX_MEMORY" }, { "--cache", "PTXEMU_CACHE" },
    { "--sanitize", "PTXEMU_SANITIZE" },
  };
  char *cmdline = NULL;
  size_t cmdlen = 0;
  add_word(&cmdline, &cmdlen, "ptxemu");
  add_word(&cmdline, &cmdlen, "exec");
  char kernels[4096] = "";
  bool json = false;
  static char setv[65536];             /* PTXEMU_SET: the --set values joined with ';' */
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) { i++; break; }
    if (a[0] != '-') break;
    add_word(&cmdline, &cmdlen, a);
    if (cli_is_help(a)) { usage(stdout); free(cmdline); return EXIT_OK; }
    if (strcmp(a, "--libdir") == 0) { printf("%s\n", libdir()); free(cmdline); return EXIT_OK; }
    if (strcmp(a, "--timing") == 0) { set("PTXEMU_TIMING", "1"); continue; }
    if (strcmp(a, "--strict-async") == 0) { set("PTXEMU_STRICT_ASYNC", "1"); continue; }
    if (strcmp(a, "-q") == 0) { set("PTXEMU_QUIET", "1"); continue; }
    if (strcmp(a, "-v") == 0) { set("PTXEMU_VERBOSE", "1"); continue; }
    if (strcmp(a, "--format") == 0 && i + 1 < argc) {
      const char *v = argv[++i];
      add_word(&cmdline, &cmdlen, v);
      if (strcmp(v, "json") && strcmp(v, "text")) { fprintf(stderr, "ptxemu exec: --format must be text or json, got '%s'\n", v); free(cmdline); return EXIT_USAGE; }
      json = strcmp(v, "json") == 0;
      continue;
    }
    bool found = false;
    for (size_t k = 0; k < sizeof valued / sizeof *valued && !found; k++) {
      if (strcmp(a, valued[k].opt)) continue;
      found = true;
      if (i + 1 >= argc) { fprintf(stderr, "ptxemu exec: %s needs a value\n", a); free(cmdline); return EXIT_USAGE; }
      add_word(&cmdline, &cmdlen, argv[i + 1]);
      set(valued[k].var, argv[++i]);
    }
    if (found) continue;
    if (strcmp(a, "--set") == 0) {
      if (i + 1 >= argc) { fprintf(stderr, "ptxemu exec: --set needs a value\n"); free(cmdline); return EXIT_USAGE; }
      const char *v = argv[++i];
      size_t l = strlen(setv);
      add_word(&cmdline, &cmdlen, v);
      if (strchr(v, ';') || l + strlen(v) + 2 > sizeof setv) {
        fprintf(stderr, "ptxemu exec: --set '%s': a value holds no ';' (and all of them at most 64 KiB)\n", v);
        free(cmdline);
        return EXIT_USAGE;
      }
      snprintf(setv + l, sizeof setv - l, "%s%s", l ? ";" : "", v);
      set("PTXEMU_SET", setv);
      continue;
    }
    if (strcmp(a, "--trace-kernel") == 0 && i + 1 < argc) {
      add_word(&cmdline, &cmdlen, argv[i + 1]);
      size_t l = strlen(kernels);
      snprintf(kernels + l, sizeof kernels - l, "%s%s", l ? "," : "", argv[++i]);
      set("PTXEMU_TRACE_KERNEL", kernels);
      continue;
    }
    fprintf(stderr, "ptxemu exec: unknown option '%s' (options go before the program)\n", a);
    usage(stderr);
    free(cmdline);
    return EXIT_USAGE;
  }
  if (i >= argc) { fprintf(stderr, "ptxemu exec: no program given\n"); usage(stderr); free(cmdline); return EXIT_USAGE; }
  for (int k = i; k < argc; k++) add_word(&cmdline, &cmdlen, argv[k]);

  /* check the options here, where a mistake is a usage error */
  drv_options o;
  if (drv_options_from_env(&o)) { free(cmdline); return EXIT_USAGE; }
  int sr = cli_check_sets(o.gpu ? o.gpu : "h100", o.sets, o.nsets);
  if (sr) { free(cmdline); return sr; }
  if (o.gpu) {
    gpu_config g;
    if (gpu_config_load(o.gpu, &g, stderr)) { free(cmdline); return EXIT_DATAERR; }
    if (o.sched && gpu_config_set_scheduler(&g, o.sched) < 0) {
      fprintf(stderr, "ptxemu exec: --sched is gto, lrr or two_level, not '%s'\n", o.sched);
      free(cmdline);
      return EXIT_USAGE;
    }
    if (o.issue_order && gpu_config_set_issue_order(&g, o.issue_order) < 0) {
      fprintf(stderr, "ptxemu exec: --issue-order is scheduled or ptx, not '%s'\n", o.issue_order);
      free(cmdline);
      return EXIT_USAGE;
    }
  }

  /* a program that cannot run here: say why before it starts */
  char path[PATH_MAX];
  if (find_program(argv[i], path, sizeof path)) {
    fprintf(stderr, "ptxemu exec: %s: %s\n", argv[i], strchr(argv[i], '/') ? strerror(errno) : "command not found");
    free(cmdline);
    return EXIT_NOINPUT;
  }
  fatbin_elf_info info;
  char err[512];
  if (fatbin_scan_elf(path, 90, &info, err, sizeof err) == 0 &&
      (info.problem == FATBIN_ELF_STATIC_CUDART || info.problem == FATBIN_ELF_NO_PTX || info.problem == FATBIN_ELF_PTX_TOO_NEW)) {
    fprintf(stderr, "ptxemu exec: %s: %s\n", argv[i], info.message);
    free(cmdline);
    return EXIT_DATAERR;
  }

  const char *dir = libdir();
  const char *old = getenv("LD_LIBRARY_PATH");
  size_t ln = strlen(dir) + (old ? strlen(old) : 0) + 2;
  char *lp = malloc(ln);
  if (!lp) { free(cmdline); return EXIT_SOFTWARE; }
  snprintf(lp, ln, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
  set("LD_LIBRARY_PATH", lp);
  free(lp);
  set("PTXEMU_COMMAND", cmdline);
#ifdef PTXEMU_SAN_PRELOAD
  /* this ptxemu (and its libraries) is built with sanitizers: their runtime
   * must be loaded before the program's own libraries */
  set("LD_PRELOAD", PTXEMU_SAN_PRELOAD);
  if (!getenv("ASAN_OPTIONS")) set("ASAN_OPTIONS", "detect_leaks=0");
#endif

  /* json: the counters come from a stats file (the user's, or a temporary
   * one) and the program's stdout is kept for the document */
  FILE *jstats = NULL, *jout = NULL;
  char stats_tmp[64] = "";
  if (json) {
    if (getenv("PTXEMU_STATS")) jstats = NULL;
    else {
      const char *td = getenv("TMPDIR");
      snprintf(stats_tmp, sizeof stats_tmp, "%.40s/ptxemu-stats-XXXXXX", td && *td && strlen(td) < 40 ? td : "/tmp");
      int fd = mkstemp(stats_tmp);
      if (fd < 0) { fprintf(stderr, "ptxemu exec: cannot create a temporary file: %s\n", strerror(errno)); free(cmdline); return EXIT_CANTCREAT; }
      close(fd);
      set("PTXEMU_STATS", stats_tmp);
    }
    jout = tmpfile();
    if (!jout) { fprintf(stderr, "ptxemu exec: cannot create a temporary file: %s\n", strerror(errno)); if (*stats_tmp) unlink(stats_tmp); free(cmdline); return EXIT_CANTCREAT; }
  }
  uint64_t t0 = clock_now_ns();
  /* the libraries write the number of sanitizer findings here at exit */
  int sanpipe[2] = { -1, -1 };
  if (o.sanitize) {
    char fdv[16];
    if (pipe(sanpipe)) { fprintf(stderr, "ptxemu exec: cannot create a pipe: %s\n", strerror(errno)); free(cmdline); return EXIT_SOFTWARE; }
    fcntl(sanpipe[0], F_SETFD, FD_CLOEXEC);
    snprintf(fdv, sizeof fdv, "%d", sanpipe[1]);
    set("PTXEMU_SANITIZE_FD", fdv);
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) { fprintf(stderr, "ptxemu exec: cannot start '%s': %s\n", argv[i], strerror(errno)); free(cmdline); return EXIT_SOFTWARE; }
  if (pid == 0) {
    if (jout) dup2(fileno(jout), 1);
    execv(path, argv + i);
    fprintf(stderr, "ptxemu exec: cannot run '%s': %s\n", argv[i], strerror(errno));
    _exit(126);
  }
  /* the program owns the terminal's signals; ptxemu waits for it */
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int ws;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {}
  int status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  if (sanpipe[0] >= 0) {
    close(sanpipe[1]);
    char buf[64];
    ssize_t n = read(sanpipe[0], buf, sizeof buf - 1);
    close(sanpipe[0]);
    /* findings fail a run that otherwise succeeded, as a kernel fault does */
    if (n > 0 && buf[0] != '0' && status == 0) status = 3;
  }
  if (WIFSIGNALED(ws)) fprintf(stderr, "ptxemu exec: %s was killed by signal %d (%s)\n", argv[i], WTERMSIG(ws), strsignal(WTERMSIG(ws)));
  if (o.trace) trace_record_exit(o.trace, cmdline, status);
  if (json) {
    const char *sp = *stats_tmp ? stats_tmp : getenv("PTXEMU_STATS");
    jstats = sp ? fopen(sp, "r") : NULL;
    const char *gpu = o.timing ? (o.gpu ? o.gpu : "h100") : NULL;
    exec_write_json(stdout, argv + i, status, WIFSIGNALED(ws) ? WTERMSIG(ws) : 0, (double)(clock_now_ns() - t0) / 1e9, gpu, jstats, jout);
    if (jstats) fclose(jstats);
    fclose(jout);
    if (*stats_tmp) unlink(stats_tmp);
  }
  free(cmdline);
  return status;
}
