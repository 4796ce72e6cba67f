/* util/strtab.c - string interning (see strtab.h). */
#include "util/strtab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names are short: hash them eight bytes at a time (a multiply-xorshift
 * mix per word), which is several times faster than a byte loop. */
uint32_t strtab_hash(const char *s, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
    s += 8; n -= 8;
  }
  if (n) {
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
  }
  h ^= h >> 29;
  h *= 0xc4ceb9fe1a85ec53ull;
  return (uint32_t)(h >> 32);
}

/* meta: hash << 32 | length, so a probe compares lengths before bytes */
static void grow(strtab *t) {
  size_t ncap = t->cap ? t->cap * 2 : 1024;
  const char **ns = calloc(ncap, sizeof *ns);
  uint64_t *nm = calloc(ncap, sizeof *nm);
  if (!ns || !nm) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
  for (size_t i = 0; i < t->cap; i++) {
    if (!t->slots[i]) continue;
    size_t j = (t->meta[i] >> 32) & (ncap - 1);
    while (ns[j]) j = (j + 1) & (ncap - 1);
    ns[j] = t->slots[i]; nm[j] = t->meta[i];
  }
  free(t->slots); free(t->meta);
  t->slots = ns; t->meta = nm; t->cap = ncap;
}

void strtab_init(strtab *t, arena *a) { memset(t, 0, sizeof *t); t->arena = a; grow(t); }
void strtab_fini(strtab *t) { free(t->slots); free(t->meta); memset(t, 0, sizeof *t); }

const char *strtab_intern(strtab *t, const char *s, size_t n) {
  uint64_t key = (uint64_t)strtab_hash(s, n) << 32 | (uint32_t)n;
  size_t mask = t->cap - 1, j = (key >> 32) & mask;
  for (; t->slots[j]; j = (j + 1) & mask)
    if (t->meta[j] == key && memcmp(t->slots[j], s, n) == 0) return t->slots[j];
  if ((t->count + 1) * 2 > t->cap) { grow(t); return strtab_intern(t, s, n); }
  const char *p = arena_strndup(t->arena, s, n);
  t->slots[j] = p; t->meta[j] = key; t->count++;
  return p;
}
