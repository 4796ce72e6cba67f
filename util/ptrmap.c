/* util/ptrmap.c - pointer-keyed hash map (see ptrmap.h). */
#include "util/ptrmap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t slot_of(const void *k, size_t mask) {
  uint64_t x = (uint64_t)(uintptr_t)k;
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 29;
  return (size_t)x & mask;
}

static void rehash(ptrmap *m, size_t ncap) {
  const void **nk = calloc(ncap, sizeof *nk);
  uint32_t *nv = malloc(ncap * sizeof *nv);
  if (!nk || !nv) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i]) continue;
    size_t j = slot_of(m->keys[i], ncap - 1);
    while (nk[j]) j = (j + 1) & (ncap - 1);
    nk[j] = m->keys[i]; nv[j] = m->vals[i];
  }
  free(m->keys); free(m->vals);
  m->keys = nk; m->vals = nv; m->cap = ncap;
}

void ptrmap_init(ptrmap *m) { memset(m, 0, sizeof *m); rehash(m, 64); }
void ptrmap_fini(ptrmap *m) { free(m->keys); free(m->vals); memset(m, 0, sizeof *m); }
/* A map reused for one function after another: after a big one it goes
 * back to a small table, so clearing stays proportional to the use. */
void ptrmap_clear(ptrmap *m) {
  if (m->cap > 4096 && m->count * 16 < m->cap) { ptrmap_fini(m); ptrmap_init(m); return; }
  if (m->count) memset(m->keys, 0, m->cap * sizeof *m->keys);
  m->count = 0;
}

uint32_t ptrmap_get(const ptrmap *m, const void *key) {
  size_t mask = m->cap - 1;
  for (size_t j = slot_of(key, mask); m->keys[j]; j = (j + 1) & mask)
    if (m->keys[j] == key) return m->vals[j];
  return PTRMAP_ABSENT;
}

uint32_t ptrmap_put(ptrmap *m, const void *key, uint32_t val) {
  if ((m->count + 1) * 2 > m->cap) rehash(m, m->cap * 2);
  size_t mask = m->cap - 1, j = slot_of(key, mask);
  for (; m->keys[j]; j = (j + 1) & mask)
    if (m->keys[j] == key) { uint32_t old = m->vals[j]; m->vals[j] = val; return old; }
  m->keys[j] = key; m->vals[j] = val; m->count++;
  return PTRMAP_ABSENT;
}
