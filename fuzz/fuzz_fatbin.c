/* fuzz_fatbin.c - libFuzzer harness for cudart/fatbin.c: bytes as a fatbin
 * (fatbin_parse, every entry decompressed, PTX picked for sm_90 and sm_80)
 * and as a section of several fatbins; bytes starting with an ELF magic are
 * also written to a private temp file and given to fatbin_scan_elf, and read
 * as a cubin (cubin_regcounts, cubin_has_code), as every decompressed entry is.  Every
 * pointer the parser hands back must lie inside the input (abort if not). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cudart/cubin.h"
#include "cudart/fatbin.h"

static char tmpdir[] = "/tmp/ptxemu-fuzz-fatbin-XXXXXX";
static char elfpath[sizeof tmpdir + 16];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  if (!mkdtemp(tmpdir)) abort();
  snprintf(elfpath, sizeof elfpath, "%s/prog", tmpdir);
  return 0;
}

static int inside(const void *p, uint64_t len, const uint8_t *data, size_t size) {
  const uint8_t *b = p;
  return b >= data && b <= data + size && len <= (uint64_t)(data + size - b);
}

/* Each register count names a NUL-terminated function and is a count. */
static void regs_seen(const char *name, unsigned regs, void *user) {
  (void)user;
  if (!name || regs > 255 || strlen(name) > (1u << 30)) abort();
}

static void entries(const uint8_t *data, size_t size, const fatbin_entry *e, int n) {
  char err[512];
  for (int i = 0; i < n; i++) {
    if (!inside(e[i].payload, e[i].payload_size, data, size)) abort();
    if (e[i].name && !inside(e[i].name, e[i].name_len, data, size)) abort();
    if (e[i].options && !inside(e[i].options, e[i].options_len, data, size)) abort();
    uint8_t *d;
    uint64_t len;
    if (fatbin_entry_data(&e[i], &d, &len, err, sizeof err) == 0) {
      if (len > e[i].uncompressed_size || d[len] != 0) abort();
      cubin_regcounts(d, len, regs_seen, NULL);
      (void)cubin_has_code(d, len);
      free(d);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fatbin_entry e[32];
  char err[512];
  int n = fatbin_parse(data, size, e, 32, err, sizeof err);
  if (n >= 0) {
    if (fatbin_size(data, size) > size) abort();
    entries(data, size, e, n < 32 ? n : 32);
    for (unsigned t = 80; t <= 90; t += 10) {
      char *ptx;
      uint64_t len;
      unsigned arch;
      if (fatbin_select_ptx(data, size, t, &ptx, &len, &arch, err, sizeof err) == 0) {
        if (strlen(ptx) != len || arch > t) abort();
        free(ptx);
      }
    }
  }
  n = fatbin_parse_section(data, size, e, 32, err, sizeof err);
  if (n >= 0) entries(data, size, e, n < 32 ? n : 32);
  if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0) {
    FILE *f = fopen(elfpath, "wb");
    if (!f) abort();
    fwrite(data, 1, size, f);
    fclose(f);
    cubin_regcounts(data, size, regs_seen, NULL);
    fatbin_elf_info info;
    if (fatbin_scan_elf(elfpath, 90, &info, err, sizeof err) == 0 && info.problem != FATBIN_ELF_OK &&
        !info.message[0])
      abort();
  }
  return 0;
}
