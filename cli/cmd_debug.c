/* cli/cmd_debug.c - "ptxemu debug": the warp debugger (debug/) over a
 * launch file, a PTX kernel or, after --, a CUDA program run as "ptxemu
 * exec" runs it (the CUDA library starts the debugger: PTXEMU_DEBUG). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "debug/debug.h"

static void usage(FILE *f) {
  fputs("usage: ptxemu debug [debug options] [run options] LAUNCH.txt\n"
        "       ptxemu debug [debug options] [run options] KERNEL.ptx --kernel NAME [--grid ...] [--block ...] [--arg ...]\n"
        "       ptxemu debug [debug options] [exec options] -- PROGRAM [ARGS]\n"
        "  -x FILE           read commands from FILE (then from the standard input, unless --batch)\n"
        "  --batch           end when the commands end (a command file or a pipe)\n"
        "  --source-dir DIR  where the CUDA sources named by the PTX's .file lines are\n"
        "The run options are those of 'ptxemu run' (--timing, --gpu, --max-insts...).\n"
        "The debugger stops before the first kernel starts: set breakpoints, then 'run'.\n"
        "'help' at the prompt lists the commands; see ptxemu-debug(1).\n", f);
}

static void attach(struct session_opts *o, void *ctx) { dbg_attach(ctx, o); }

/* A CUDA program: its CUDA library reads the commands (PTXEMU_DEBUG). */
static int debug_program(int nrest, char **rest, char **prog, const char *cmdfile, bool batch, const char *srcdir) {
  if (setenv("PTXEMU_DEBUG", cmdfile ? cmdfile : "-", 1) || (batch && setenv("PTXEMU_DEBUG_BATCH", "1", 1)) ||
      (srcdir && setenv("PTXEMU_DEBUG_SOURCE_DIR", srcdir, 1))) {
    fprintf(stderr, "ptxemu debug: cannot set the environment\n");
    return EXIT_SOFTWARE;
  }
  int n = 0;
  while (prog[n]) n++;
  char **av = calloc((size_t)(nrest + n + 2), sizeof *av);
  if (!av) return EXIT_SOFTWARE;
  int k = 0;
  av[k++] = "exec";
  for (int i = 1; i < nrest; i++) av[k++] = rest[i];
  av[k++] = "--";
  for (int i = 0; i < n; i++) av[k++] = prog[i];
  int rc = cmd_exec(k, av);
  free(av);
  return rc;
}

int cmd_debug(int argc, char **argv) {
  const char *cmdfile = NULL, *srcdir = NULL;
  bool batch = false;
  char **rest = calloc((size_t)argc + 1, sizeof *rest);
  if (!rest) return EXIT_SOFTWARE;
  int nrest = 0, prog = -1;
  rest[nrest++] = argv[0];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) { usage(stdout); free(rest); return EXIT_OK; }
    if (strcmp(a, "-x") == 0 && i + 1 < argc) cmdfile = argv[++i];
    else if (strcmp(a, "--batch") == 0) batch = true;
    else if (strcmp(a, "--source-dir") == 0 && i + 1 < argc) srcdir = argv[++i];
    else if (strcmp(a, "--") == 0) { prog = i + 1; break; }
    else if (strcmp(a, "-x") == 0 || strcmp(a, "--source-dir") == 0) { fprintf(stderr, "ptxemu debug: %s needs a value\n", a); free(rest); return EXIT_USAGE; }
    else rest[nrest++] = argv[i];
  }
  if (prog >= 0) {
    if (prog >= argc) { fprintf(stderr, "ptxemu debug: no program after --\n"); free(rest); return EXIT_USAGE; }
    if (cmdfile) {
      FILE *t = fopen(cmdfile, "r");
      if (!t) { fprintf(stderr, "ptxemu debug: cannot read '%s': %s\n", cmdfile, strerror(errno)); free(rest); return EXIT_NOINPUT; }
      fclose(t);
    }
    int rc = debug_program(nrest, rest, argv + prog, cmdfile, batch, srcdir);
    free(rest);
    return rc;
  }
  if (nrest == 1) { usage(stderr); free(rest); return EXIT_USAGE; }
  FILE *in = stdin;
  if (cmdfile && !(in = fopen(cmdfile, "r"))) {
    fprintf(stderr, "ptxemu debug: cannot read '%s': %s\n", cmdfile, strerror(errno));
    free(rest);
    return EXIT_NOINPUT;
  }
  dbg_config c = { .in = in, .out = stdout, .then = cmdfile && !batch ? stdin : NULL, .source_dir = srcdir };
  dbg *d = dbg_new(&c);
  int rc = EXIT_SOFTWARE;
  while (d) {
    rc = cli_run_attached(nrest, rest, attach, d);
    /* a bad command line or input: nothing ran to debug */
    if (dbg_quitting(d) || rc == EXIT_USAGE || ((rc == EXIT_DATAERR || rc == EXIT_NOINPUT) && !dbg_launches(d))) break;
    if (!dbg_after_exit(d, rc)) break;
  }
  dbg_free(d);
  if (in != stdin) fclose(in);
  free(rest);
  return rc;
}
