/* util/strtab.c - string interning (see strtab.h). */
#include "util/strtab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t strtab_hash(const char *s, size_t n) {    /* FNV-1a */
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static void grow(strtab *t) {
  size_t ncap = t->cap ? t->cap * 2 : 1024;
  const char **ns = calloc(ncap, sizeof *ns);
  uint32_t *nh = calloc(ncap, sizeof *nh);
  if (!ns || !nh) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
  for (size_t i = 0; i < t->cap; i++) {
    if (!t->slots[i]) continue;
    size_t j = t->hashes[i] & (ncap - 1);
    while (ns[j]) j = (j + 1) & (ncap - 1);
    ns[j] = t->slots[i]; nh[j] = t->hashes[i];
  }
  free(t->slots); free(t->hashes);
  t->slots = ns; t->hashes = nh; t->cap = ncap;
}

void strtab_init(strtab *t, arena *a) { memset(t, 0, sizeof *t); t->arena = a; grow(t); }
void strtab_fini(strtab *t) { free(t->slots); free(t->hashes); memset(t, 0, sizeof *t); }

const char *strtab_intern(strtab *t, const char *s, size_t n) {
  uint32_t h = strtab_hash(s, n);
  size_t mask = t->cap - 1, j = h & mask;
  for (; t->slots[j]; j = (j + 1) & mask)
    if (t->hashes[j] == h && strncmp(t->slots[j], s, n) == 0 && t->slots[j][n] == 0)
      return t->slots[j];
  if ((t->count + 1) * 2 > t->cap) { grow(t); return strtab_intern(t, s, n); }
  const char *p = arena_strndup(t->arena, s, n);
  t->slots[j] = p; t->hashes[j] = h; t->count++;
  return p;
}
