/* cli/load.c - read a module from PTX or from a .pxo object. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

int cli_cuda_source(const char *cmd, const char *path) {
  size_t n = strlen(path);
  bool cu = (n > 3 && strcmp(path + n - 3, ".cu") == 0) || (n > 4 && strcmp(path + n - 4, ".cuh") == 0);
  if (!cu) return 0;
  const char *base = isa_path_base(path);
  int stem = (int)(strrchr(base, '.') - base);
  fprintf(stderr,
          "ptxemu%s%s: '%s' is CUDA C++ source; ptxemu runs PTX. Compile the kernels to PTX first:\n"
          "    nvcc -ptx -arch=sm_90 -lineinfo %s -o %.*s.ptx\n"
          "  (-lineinfo keeps the CUDA lines for messages, stats and reports). Declare each kernel\n"
          "  extern \"C\" __global__ to launch it by its plain name from a launch file (ptxemu-launch(5))\n"
          "  or with: ptxemu run %.*s.ptx --kernel NAME --grid X --block Y --arg ...\n"
          "  A whole program with main() runs as it is:\n"
          "    nvcc -cudart shared %s -o %.*s && ptxemu exec ./%.*s\n",
          cmd[0] ? " " : "", cmd, path, path, stem, base, stem, base, path, stem, base, stem, base);
  return 1;
}

isa_module *cli_load_module(const char *path, int *status) {
  if (cli_cuda_source("", path)) { *status = EXIT_DATAERR; return NULL; }
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
