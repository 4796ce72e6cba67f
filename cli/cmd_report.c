/* cli/cmd_report.c - "ptxemu report TRACE.db -o REPORT.html": a
 * self-contained HTML page of a trace database (report/report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "report/report.h"
#include "util/clock.h"
#include "util/num.h"

#define MAX_LAUNCH_OPTS 64

static void usage(FILE *f) {
  fputs("usage: ptxemu report [options] TRACE.db\n"
        "  -o FILE         the HTML file to write (default: TRACE with .html for .db)\n"
        "  --launch ID     only launch ID (launches.launch_id; repeatable)\n"
        "  --kernel NAME   only launches of kernel NAME\n"
        "  --source-dir DIR  where the CUDA sources named by the PTX's .file lines are\n"
        "                  (default: their path, beside the PTX, beside the trace)\n"
        "  --sm N|all      the warp timeline: warps of SM N only, or of every SM (default all)\n"
        "  -v              print the time each part took and the size of the page\n"
        "Writes one self-contained HTML page (inline CSS and SVG, nothing fetched) of a\n"
        "trace written by 'ptxemu run --trace': the launches and their metrics, a timeline\n"
        "of the warps, occupancy over time, the PTX annotated per line and the memory\n"
        "hierarchy.  Without --launch: the launches of the last run in the trace.\n", f);
}

int cmd_report(int argc, char **argv) {
  const char *path = NULL, *out = NULL, *kernel = NULL, *source_dir = NULL;
  long long launches[MAX_LAUNCH_OPTS];
  size_t nl = 0;
  bool verbose = false;
  long long sm = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) { usage(stdout); return EXIT_OK; }
    else if (strcmp(a, "-o") == 0 && i + 1 < argc) out = argv[++i];
    else if (strcmp(a, "--kernel") == 0 && i + 1 < argc) kernel = argv[++i];
    else if (strcmp(a, "--source-dir") == 0 && i + 1 < argc) source_dir = argv[++i];
    else if (strcmp(a, "--launch") == 0 && i + 1 < argc) {
      int64_t id;
      if (num_s64(argv[++i], 1, INT64_MAX, &id)) { fprintf(stderr, "ptxemu report: bad --launch '%s': a launch id from 1 to 2^63-1\n", argv[i]); return EXIT_USAGE; }
      if (nl == MAX_LAUNCH_OPTS) { fprintf(stderr, "ptxemu report: more than %d --launch options\n", MAX_LAUNCH_OPTS); return EXIT_USAGE; }
      launches[nl++] = id;
    }
    else if (strcmp(a, "--sm") == 0 && i + 1 < argc) {
      int64_t v;
      if (strcmp(argv[++i], "all") == 0) sm = -1;
      else if (num_s64(argv[i], 0, 1 << 20, &v)) { fprintf(stderr, "ptxemu report: bad --sm '%s': an SM number from 0, or all\n", argv[i]); return EXIT_USAGE; }
      else sm = v;
    }
    else if (strcmp(a, "-v") == 0) verbose = true;
    else if (a[0] == '-' && a[1]) { fprintf(stderr, "ptxemu report: unknown option '%s'\n", a); usage(stderr); return EXIT_USAGE; }
    else if (!path) path = a;
    else { fprintf(stderr, "ptxemu report: more than one trace\n"); return EXIT_USAGE; }
  }
  if (!path) { usage(stderr); return EXIT_USAGE; }
  struct stat sd;
  if (source_dir && (stat(source_dir, &sd) != 0 || !S_ISDIR(sd.st_mode))) {
    fprintf(stderr, "ptxemu report: --source-dir '%s' is not a folder\n", source_dir);
    return EXIT_NOINPUT;
  }
  char *dflt = NULL;
  if (!out) {
    size_t len = strlen(path);
    dflt = malloc(len + 6);
    if (!dflt) return EXIT_SOFTWARE;
    memcpy(dflt, path, len + 1);
    if (len > 3 && strcmp(dflt + len - 3, ".db") == 0) dflt[len - 3] = 0;
    strcat(dflt, ".html");
    out = dflt;
  }
  report_opts o = { .launches = nl ? launches : NULL, .nlaunches = nl, .kernel = kernel, .verbose = verbose, .source_dir = source_dir, .sm = sm };
  char err[600];
  uint64_t t0 = clock_now_ns();
  int st = report_write(path, out, &o, err, sizeof err);
  uint64_t t1 = clock_now_ns();
  int rc = EXIT_OK;
  switch (st) {
  case REPORT_OK: break;
  case REPORT_NOINPUT: rc = EXIT_NOINPUT; break;
  case REPORT_CANTCREAT: rc = EXIT_CANTCREAT; break;
  default: rc = EXIT_DATAERR; break;
  }
  if (rc) fprintf(stderr, "ptxemu report: %s\n", err);
  else if (verbose) {
    struct stat sb;
    long long size = stat(out, &sb) == 0 ? (long long)sb.st_size : -1;
    fprintf(stderr, "ptxemu report: wrote %s: %lld bytes in %.3f s\n", out, size,
            (double)(t1 - t0) * 1e-9);
  }
  free(dflt);
  return rc;
}
