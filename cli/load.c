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
  ptx_module *pm = ptx_parse(text, len, path, &diag);
  isa_module *m = NULL;
  if (pm && diag.errors == 0) m = isa_assemble(pm, &diag);
  else if (pm) {
    /* parse errors: still run the checker to report semantic errors too */
    uint32_t before = diag.errors;
    isa_module *x = isa_assemble(pm, &diag);
    isa_module_free(x);
    (void)before;
  }
  ptx_module_free(pm);
  free(text);
  if (!m) {
    fprintf(stderr, "%s: %u error%s\n", path, diag.errors, diag.errors == 1 ? "" : "s");
    *status = EXIT_DATAERR;
  }
  return m;
}
