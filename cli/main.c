/* cli/main.c - "ptxemu CMD ...": dispatch to the sub-commands. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "config.h"
#include "cli/cli.h"
#include "gpu/config.h"
#include "util/num.h"
#include "util/outfile.h"

static const struct { const char *name; int (*fn)(int, char **); const char *what; } cmds[] = {
  { "asm", cmd_asm, "assemble PTX into a .pxo object (checks it; -v prints resources)" },
  { "dis", cmd_dis, "print a .pxo object (or PTX) as PTX" },
  { "run", cmd_run, "execute a launch file or a kernel" },
  { "check", cmd_check, "execute a launch file and compare its expected outputs" },
  { "exec", cmd_exec, "run a CUDA program (nvcc -cudart shared) on the emulated GPU" },
  { "debug", cmd_debug, "debug a kernel warp by warp (breakpoints, stepping, registers, memory)" },
  { "gpus", cmd_gpus, "list the bundled GPU configurations" },
  { "occupancy", cmd_occupancy, "theoretical occupancy of a kernel and what limits it" },
  { "stats", cmd_stats, "print the metrics of an execution trace (run --trace FILE)" },
  { "report", cmd_report, "write an HTML report (timeline, metrics, annotated PTX) of a trace" },
  { "sweep", cmd_sweep, "run a design-space sweep (here or as a Slurm job array) into one SQLite table" },
};

static void usage(FILE *f) {
  fputs("usage: ptxemu COMMAND [ARGS]\n\n"
        "ptxemu assembles and executes NVIDIA PTX without a GPU.\n\ncommands:\n", f);
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].what);
  fputs("\n'ptxemu COMMAND --help' describes a command; see ptxemu(1).\n", f);
}

int cli_is_help(const char *a) { return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0; }

int cli_parse_size(const char *s, uint64_t *out) {
  return num_size(s, 0, UINT64_MAX, out) ? -1 : 0;
}

int cli_check_sets(const char *gpu, const char *const *sets, int nsets) {
  if (!nsets) return 0;
  gpu_config g;
  if (gpu_config_load(gpu, &g, stderr)) return EXIT_DATAERR;
  return gpu_config_load_set(gpu, sets, nsets, &g, stderr) ? EXIT_USAGE : 0;
}

int cli_missing_value(const char *cmd, const char *a, const char *opts) {
  size_t n = strlen(a);
  for (const char *p = opts; *p;) {
    size_t k = strcspn(p, " ");
    if (k == n && memcmp(p, a, n) == 0) { fprintf(stderr, "ptxemu %s: %s needs a value\n", cmd, a); return 1; }
    p += k + (p[k] == ' ');
  }
  return 0;
}

int main(int argc, char **argv) {
#ifdef M_TOP_PAD
  /* A worker thread's malloc heap made writable 4 MiB at once, not a page
   * or so at a time: each growth is an mprotect, which holds the process's
   * memory map against every other thread's page faults (the blocks that
   * a timed launch's 16 workers set up in its first windows: 8.7-11.7 ->
   * 6.2-7.6 ms; the main heap's padding costs 2.4 MiB of resident memory) */
  mallopt(M_TOP_PAD, 4 << 20);
#endif
  if (argc < 2) { usage(stderr); return EXIT_USAGE; }
  /* the size cap on input files (PTX, objects), for every command */
  const char *cap = getenv("PTXEMU_MAX_INPUT");
  if (cap && *cap) {
    uint64_t v;
    if (cli_parse_size(cap, &v) || !v) { fprintf(stderr, "ptxemu: bad PTXEMU_MAX_INPUT '%s' (bytes, or with K, M, G)\n", cap); return EXIT_USAGE; }
    ptx_set_input_cap(v);
  }
  if (cli_is_help(argv[1])) { usage(stdout); return EXIT_OK; }
  if (strcmp(argv[1], "--libdir") == 0) { char *a[] = { "exec", "--libdir", NULL }; return cmd_exec(2, a); }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
    printf("ptxemu %s\n", PACKAGE_VERSION);
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
    if (strcmp(argv[1], cmds[i].name) == 0) {
      int rc = cmds[i].fn(argc - 1, argv + 1);
      /* output lost on a full disk or a closed pipe is a failure too */
      if (outfile_check_stream(stdout)) {
        fprintf(stderr, "ptxemu %s: cannot write the standard output: %s\n", argv[1], strerror(errno));
        if (rc == EXIT_OK) rc = EXIT_CANTCREAT;
      }
      return rc;
    }
  fprintf(stderr, "ptxemu: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return EXIT_USAGE;
}
