/* fuzz_launch.c - libFuzzer harness: bytes -> lf_parse_mem, with a virtual
 * path inside a private temp folder (data files named by the input are looked
 * up there and are normally missing). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host/launch.h"

static char tmpdir[] = "/tmp/ptxemu-fuzz-launch-XXXXXX";
static char vpath[sizeof tmpdir + 16];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  if (!mkdtemp(tmpdir)) abort();
  snprintf(vpath, sizeof vpath, "%s/case.txt", tmpdir);
  devnull = fopen("/dev/null", "w");
  /* generated buffer contents cost time and memory: 16 MB per input keeps
   * every input well under the 10 s timeout (seeds include labs with
   * megabyte buffers) */
  lf_set_total_cap(16u << 20);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  launch_file lf;
  memset(&lf, 0, sizeof lf);
  lf_parse_mem((const char *)data, size, vpath, &lf, devnull);
  lf_free(&lf);          /* safe on failure too */
  return 0;
}
