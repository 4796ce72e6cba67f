/* util/host_line.h - state that threads write apart, kept on cache lines
 * of its own.
 *
 * The timing model's domains (SMs) run on worker threads; each writes its
 * own SMs' entries of per-SM arrays on every issue and memory access.
 * Neighbouring entries of two SMs of different threads that share a host
 * cache line make the line move between cores at each write (false
 * sharing): on 16 threads the workers did three times the work of one.
 * Such structs start with HOST_LINE_ALIGNED (their size becomes a multiple
 * of the line) and their arrays come from calloc_lines. */
#ifndef UTIL_HOST_LINE_H
#define UTIL_HOST_LINE_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HOST_LINE_BYTES 64
#define HOST_LINE_ALIGNED _Alignas(HOST_LINE_BYTES)

/* n zeroed elements of size bytes on whole host cache lines (free with
 * free); NULL when out of memory or n * size overflows. */
static inline void *calloc_lines(size_t n, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(n ? n : 1, size ? size : 1, &bytes) || bytes > SIZE_MAX - HOST_LINE_BYTES) return NULL;
  bytes = (bytes + HOST_LINE_BYTES - 1) / HOST_LINE_BYTES * HOST_LINE_BYTES;
  void *p = aligned_alloc(HOST_LINE_BYTES, bytes);
  if (p) memset(p, 0, bytes);
  return p;
}

/* n elements of size bytes rounded up to whole host cache lines */
static inline size_t round_to_lines(size_t n, size_t size) {
  size_t per = HOST_LINE_BYTES / size;
  return per > 1 ? (n + per - 1) / per * per : n;
}
#endif
