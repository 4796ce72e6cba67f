/* util/vec.h - growable arrays: VEC(T) declares {T *v; n; cap}. */
#ifndef UTIL_VEC_H
#define UTIL_VEC_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define VEC(T) struct { T *v; uint32_t n, cap; }
#define VEC_PUSH(vec, x) do { \
    if ((vec).n == (vec).cap) { \
      (vec).cap = (vec).cap ? (vec).cap * 2 : 16; \
      void *np_ = realloc((vec).v, (size_t)(vec).cap * sizeof *(vec).v); \
      if (!np_) { fputs("ptxemu: out of memory\n", stderr); exit(70); } \
      (vec).v = np_; \
    } \
    (vec).v[(vec).n++] = (x); \
  } while (0)
/* Where running out of memory is the caller's to report (the emulator's
 * per-launch state): room for one more element of *a, whose capacity *cap
 * doubles from `first`; false when out of memory (*a unchanged). */
static inline bool vec_grow(void **a, uint32_t *cap, size_t elem, uint32_t first) {
  if (*cap > UINT32_MAX / 2) return false;
  uint32_t nc = *cap ? *cap * 2 : first;
  void *n = realloc(*a, (size_t)nc * elem);
  if (!n) return false;
  *a = n;
  *cap = nc;
  return true;
}
/* append v to a[0..n) of capacity cap: 0, or -1 when out of memory */
#define VEC_APPEND(a, n, cap, v) (((n) < (cap) || vec_grow((void **)&(a), &(cap), sizeof *(a), 64)) ? ((a)[(n)++] = (v), 0) : -1)
#define VEC_FREE(vec) do { free((vec).v); (vec).v = NULL; (vec).n = (vec).cap = 0; } while (0)
#endif
