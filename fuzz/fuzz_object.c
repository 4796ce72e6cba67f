/* fuzz_object.c - libFuzzer harness for object files (.pxo).
 *  1. the bytes as an object: isa_read_object_mem;
 *  2. a valid object (built once from a small PTX module) with the input
 *     applied as mutations (pairs of offset, xor byte), read back, and if it
 *     still reads, disassembled and written again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ptx/ast.h"
#include "isa/isa.h"

static const char seed_ptx[] =
  ".version 8.0\n.target sm_80\n.address_size 64\n"
  ".global .align 4 .u32 tab[4] = {1, 2, 3, 4};\n"
  ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
  "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
  "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n];\n"
  "  mov.u32 %r2, %tid.x; setp.ge.u32 %p1, %r2, %r1; @%p1 bra DONE;\n"
  "  mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;\n"
  "  ld.global.u32 %r3, [tab]; st.global.u32 [%rd3], %r3;\n"
  "DONE:\n  ret;\n}\n";

static uint8_t *valid;
static size_t valid_len;
static char tmpdir[] = "/tmp/ptxemu-fuzz-obj-XXXXXX";
static FILE *devnull;

static int slurp(const char *path, uint8_t **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *out = malloc(n > 0 ? (size_t)n : 1);
  *len = fread(*out, 1, n > 0 ? (size_t)n : 0, f);
  fclose(f);
  return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  devnull = fopen("/dev/null", "w");
  if (!mkdtemp(tmpdir)) abort();
  size_t len = sizeof seed_ptx - 1;
  char *buf = calloc(1, len + 2);
  memcpy(buf, seed_ptx, len);
  ptx_diag d;
  memset(&d, 0, sizeof d);
  d.path = "seed.ptx"; d.src = buf; d.src_len = len; d.out = stderr;
  isa_module *m = isa_assemble_ptx(buf, len, "seed.ptx", &d);
  if (!m) abort();
  char path[sizeof tmpdir + 16], err[256];
  snprintf(path, sizeof path, "%s/seed.pxo", tmpdir);
  if (isa_write_object(m, path, err, sizeof err)) { fprintf(stderr, "%s\n", err); abort(); }
  if (slurp(path, &valid, &valid_len)) abort();
  isa_module_free(m);
  free(buf);
  return 0;
}

static void check(const uint8_t *data, size_t len, int rewrite) {
  char err[256];
  isa_module *m = isa_read_object_mem(data, len, err, sizeof err);
  if (!m) return;
  isa_disassemble(m, devnull);
  if (rewrite) {
    char path[sizeof tmpdir + 16];
    snprintf(path, sizeof path, "%s/rt.pxo", tmpdir);
    if (isa_write_object(m, path, err, sizeof err) == 0) {
      uint8_t *back; size_t blen;
      if (slurp(path, &back, &blen) == 0) {
        isa_module *m2 = isa_read_object_mem(back, blen, err, sizeof err);
        /* an object we wrote ourselves must read back */
        if (!m2) { fprintf(stderr, "fuzz_object: rewritten object does not read: %s\n", err); abort(); }
        isa_module_free(m2);
        free(back);
      }
    }
  }
  isa_module_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check(data, size, 0);
  if (size >= 2 && valid_len) {
    uint8_t *copy = malloc(valid_len);
    memcpy(copy, valid, valid_len);
    size_t len = valid_len;
    for (size_t i = 0; i + 1 < size && i < 64; i += 2) {
      if (data[i] == 0xff && data[i + 1] < len) { len = data[i + 1] * (len / 256 + 1) % len; continue; } /* truncate */
      size_t off = ((size_t)data[i] * 131 + i) % valid_len;
      copy[off] ^= data[i + 1];
    }
    check(copy, len, 1);
    free(copy);
  }
  return 0;
}
