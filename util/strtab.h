/* util/strtab.h - string interning: equal strings share one pointer, so
 * later tables can hash and compare names by address. */
#ifndef UTIL_STRTAB_H
#define UTIL_STRTAB_H
#include <stddef.h>
#include <stdint.h>
#include "util/arena.h"

typedef struct strtab {
  arena *arena;            /* where the strings live (not owned)          */
  const char **slots;      /* open addressing; NULL = empty               */
  uint64_t *meta;          /* hash << 32 | length of each slot            */
  size_t cap, count;
} strtab;

void strtab_init(strtab *t, arena *a);
void strtab_fini(strtab *t);
const char *strtab_intern(strtab *t, const char *s, size_t n);
uint32_t strtab_hash(const char *s, size_t n);
#endif
