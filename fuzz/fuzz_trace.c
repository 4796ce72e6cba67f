/* fuzz_trace.c - libFuzzer harness: bytes -> a file in a private temp
 * folder, read as a trace database by the code behind "ptxemu stats"
 * (cli/cmd_stats.c: the metric table, --by-line, --csv of every run) and
 * "ptxemu report" (report_write, the page written to /dev/null).  A trace
 * is untrusted input: damaged or crafted files must give a message and an
 * exit status, never a crash, a sanitizer report or a hang.  Seeds are
 * real traces vacuumed to small pages (fuzz/run.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "report/report.h"

/* cmd_stats is linked from cli/cmd_stats.c; the rest of cli/ is not */
int cli_is_help(const char *a) { return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0; }

static char tmpdir[] = "/tmp/ptxemu-fuzz-trace-XXXXXX";
static char path[sizeof tmpdir + 16];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  if (!mkdtemp(tmpdir)) abort();
  snprintf(path, sizeof path, "%s/t.db", tmpdir);
  /* stats prints to stdout and stderr: keep the fuzzer's output readable */
  if (!freopen("/dev/null", "w", stdout)) abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 20) return 0;
  unlink(path);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
  FILE *saved_err = stderr;
  FILE *quiet = fopen("/dev/null", "w");
  if (quiet) stderr = quiet;
  char *a1[] = { "stats", path, NULL };
  char *a2[] = { "stats", "--by-line", "--run", "all", path, NULL };
  char *a3[] = { "stats", "--csv", "--run", "all", path, NULL };
  cmd_stats(2, a1);
  cmd_stats(5, a2);
  cmd_stats(5, a3);
  char err[600];
  report_opts o;
  memset(&o, 0, sizeof o);
  o.sm = -1;
  report_write(path, "/dev/null", &o, err, sizeof err);
  if (quiet) { stderr = saved_err; fclose(quiet); }
  fflush(stdout);
  return 0;
}
