/* cli/cmd_run.c - "ptxemu run" and "ptxemu check": play a launch file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "host/session.h"

static void usage(FILE *f, const char *cmd) {
  fprintf(f, "usage: ptxemu %s [options] LAUNCH.txt\n"
             "  --out DIR         write every expected buffer to DIR/NAME.bin\n"
             "  --stats FILE      write per-launch counters (hw.txt layout) to FILE\n"
             "  --max-insts N     stop a launch after N warp instructions (default 2e9)\n"
             "  -q, -v            quieter / more verbose\n"
             "%s", cmd, strcmp(cmd, "check") == 0 ?
             "Runs the launch file and compares every 'expect' line (and 'stdout');\n"
             "exits 0 only when all match, 1 on a mismatch, 3 on a kernel fault.\n" :
             "Runs the launch file (see ptxemu-launch(5)); device printf goes to stdout.\n");
}

static int run_common(int argc, char **argv, bool compare) {
  session_opts o = { .compare = compare };
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) { usage(stdout, argv[0]); return EXIT_OK; }
    else if (strcmp(a, "--out") == 0 && i + 1 < argc) o.out_dir = argv[++i];
    else if (strcmp(a, "--stats") == 0 && i + 1 < argc) o.stats_path = argv[++i];
    else if (strcmp(a, "--max-insts") == 0 && i + 1 < argc) {
      char *end;
      double v = strtod(argv[++i], &end);
      if (*end || v < 1) { fprintf(stderr, "ptxemu %s: bad --max-insts '%s'\n", argv[0], argv[i]); return EXIT_USAGE; }
      o.max_insts = (uint64_t)v;
    }
    else if (strcmp(a, "-q") == 0) o.quiet = true;
    else if (strcmp(a, "-v") == 0) o.verbose = true;
    else if (a[0] == '-' && a[1]) { fprintf(stderr, "ptxemu %s: unknown option '%s'\n", argv[0], a); usage(stderr, argv[0]); return EXIT_USAGE; }
    else if (!path) path = a;
    else { fprintf(stderr, "ptxemu %s: more than one launch file\n", argv[0]); return EXIT_USAGE; }
  }
  if (!path) { usage(stderr, argv[0]); return EXIT_USAGE; }
  return session_run(path, &o, cli_load_module);
}

int cmd_run(int argc, char **argv) { return run_common(argc, argv, false); }
int cmd_check(int argc, char **argv) { return run_common(argc, argv, true); }
