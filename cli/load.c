/* cli/load.c - read a module from PTX or from a .pxo object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

isa_module *cli_load_module(const char *path, int *status) {
  size_t len;
  char *text = ptx_read_file(path, &len);
  if (!text) {
    fprintf(stderr, "ptxemu: cannot read '%s'\n", path);
    *status = EXIT_NOINPUT;
    return NULL;
  }
  char err[256];
  if (len >= 4 && memcmp(text, "PXO", 4) == 0) {
    isa_module *m = isa_read_object_mem((const uint8_t *)text, len, err, sizeof err);
    free(text);
    if (!m) { fprintf(stderr, "%s: error: %s\n", path, err); *status = EXIT_DATAERR; }
    return m;
  }
  ptx_diag diag = { .path = path, .src = text, .src_len = len, .out = stderr, .max_errors = 100 };
  /* one pass: each function is assembled as soon as it is parsed */
  isa_module *m = isa_assemble_ptx(text, len, path, &diag);
  free(text);
  if (!m) {
    fprintf(stderr, "%s: %u error%s\n", path, diag.errors, diag.errors == 1 ? "" : "s");
    *status = EXIT_DATAERR;
  }
  return m;
}
