/* memmodel/pattern_memo.c - the lane pattern of the last access counted
 * (see pattern_memo.h). */
#include <string.h>
#include "memmodel/pattern_memo.h"

/* two lanes at a time: the whole warp's pass compiles to vector instructions */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* the pass unrolled (GCC 8 and later; others decide) */
#if defined(__GNUC__) && __GNUC__ >= 8 && !defined(__clang__)
#define UNROLL_PASS _Pragma("GCC unroll 16")
#else
#define UNROLL_PASS
#endif

bool pattern_memo_same(pattern_memo *m, const uint64_t *addr, uint32_t mask, uint32_t bytes, uint64_t align) {
  if (!mask) { m->valid = false; return false; }
  /* one pass compares each lane's distance with the memo's and writes it
   * in its place (where the pattern is the same, the same value) */
  uint64_t a0 = addr[__builtin_ctz(mask)], diff = 0;
  if (mask == 0xffffffffu) {
    u64x2 v0 = { a0, a0 }, d = { 0, 0 };
    UNROLL_PASS
    for (int i = 0; i < 32; i += 2) {
      u64x2 v, rel;
      memcpy(&v, addr + i, sizeof v);
      memcpy(&rel, m->rel + i, sizeof rel);
      v -= v0;
      d |= v ^ rel;
      memcpy(m->rel + i, &v, sizeof v);
    }
    diff = d[0] | d[1];
  } else {
    for (int i = 0; i < 32; i++) {
      uint64_t v = mask >> i & 1 ? addr[i] - a0 : 0;
      diff |= v ^ m->rel[i];
      m->rel[i] = v;
    }
  }
  bool same = m->valid && m->mask == mask && m->bytes == bytes && !((a0 ^ m->first) & (align - 1)) && !diff;
  m->mask = mask;
  m->bytes = bytes;
  m->valid = true;
  m->first = a0;
  return same;
}
