/* fuzz_ptx.c - libFuzzer harness: PTX text -> isa_assemble_ptx; on success
 * disassemble and assemble the listing again (it must assemble). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ast.h"
#include "isa/isa.h"

static FILE *devnull;

static isa_module *assemble(const char *text, size_t len, const char *path) {
  char *buf = malloc(len + 2);
  if (!buf) return NULL;
  memcpy(buf, text, len);
  buf[len] = buf[len + 1] = 0;          /* the two NULs the scanner needs */
  ptx_diag d;
  memset(&d, 0, sizeof d);
  d.path = path; d.src = buf; d.src_len = len; d.out = devnull; d.max_errors = 20;
  isa_module *m = isa_assemble_ptx(buf, len, path, &d);
  free(buf);
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!devnull) devnull = fopen("/dev/null", "w");
  if (size > 1 << 16) return 0;
  isa_module *m = assemble((const char *)data, size, "fuzz.ptx");
  if (!m) return 0;
  char *text = NULL;
  size_t tlen = 0;
  FILE *ms = open_memstream(&text, &tlen);
  if (ms) {
    isa_disassemble(m, ms);
    fclose(ms);
    isa_module *m2 = assemble(text, tlen, "fuzz.dis.ptx");
    /* The disassembler promises text that assembles back. */
    if (!m2) {
      fprintf(stderr, "fuzz_ptx: disassembly does not assemble again:\n%.*s\n", (int)tlen, text);
      abort();
    }
    isa_module_free(m2);
  }
  free(text);
  isa_module_free(m);
  return 0;
}
