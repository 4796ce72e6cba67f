/* util/bits.h - bit counts without a library call: portable builds do not
 * assume POPCNT, and __builtin_popcount there is a call per word. */
#ifndef UTIL_BITS_H
#define UTIL_BITS_H
#include <stdint.h>

static inline int popc32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

static inline int popc64(uint64_t x) { return popc32((uint32_t)x) + popc32((uint32_t)(x >> 32)); }
#endif
