/* tools/approx-sweep/check_raw.c - compares ptxemu's model of the .approx
 * functions (emu/fp_approx.c) with every raw H100 output in RAWDIR (see
 * rawfiles.h); prints the differing inputs per file, exits 1 if any differ.
 *   cc -std=gnu11 -O2 -I. tools/approx-sweep/check_raw.c emu/fp.c emu/fp_approx.c -lm
 *   ./a.out RAWDIR */
#include "rawfiles.h"

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: check_raw RAWDIR\n"); return 64; }
  struct raw *v;
  int n = raw_load(argv[1], &v);
  uint64_t all = 0, tot = 0;
  for (int i = 0; i < n; i++) {
    uint64_t bad = raw_diffs(&v[i]);
    printf("%-22s %08x %8u stride %-4x differ %llu\n", v[i].name, v[i].lo, v[i].count, v[i].stride, (unsigned long long)bad);
    all += bad;
    tot += v[i].count;
  }
  printf("%d files, %llu outputs, %llu differ\n", n, (unsigned long long)tot, (unsigned long long)all);
  return all != 0;
}
