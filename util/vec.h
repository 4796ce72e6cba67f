/* util/vec.h - growable arrays: VEC(T) declares {T *v; n; cap}. */
#ifndef UTIL_VEC_H
#define UTIL_VEC_H
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
#define VEC_FREE(vec) do { free((vec).v); (vec).v = NULL; (vec).n = (vec).cap = 0; } while (0)
#endif
