/* cli/load.c - read a module from PTX or from a .pxo object. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

isa_module *cli_load_module(const char *path, int *status) {
  size_t len;
  char *text = ptx_read_file(path, &len);
  if (!text) {
    if (errno == EFBIG) {
      fprintf(stderr, "ptxemu: '%s' is larger than the input limit of %llu bytes (PTXEMU_MAX_INPUT)\n", path,
              (unsigned long long)ptx_input_cap());
      *status = EXIT_DATAERR;
    } else {
      fprintf(stderr, "ptxemu: cannot read '%s'\n", path);
      *status = EXIT_NOINPUT;
    }
    return NULL;
  }
  char err[256];
  if (len >= 4 && memcmp(text, "PXO", 4) == 0) {
    isa_module *m = isa_read_object_mem((const uint8_t *)text, len, err, sizeof err);
    free(text);
    if (!m) { fprintf(stderr, "%s: error: %s\n", path, err); *status = EXIT_DATAERR; }
    return m;
  }
  size_t pl = strlen(path);
  if (pl > 4 && strcmp(path + pl - 4, ".pxo") == 0) {   /* not read as PTX: its errors would say nothing useful */
    fprintf(stderr, "%s: error: not a ptxemu object file (it does not start with \"PXO\")\n", path);
    free(text);
    *status = EXIT_DATAERR;
    return NULL;
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
