/* util/lazymap.c - zeroed memory backed where touched (see lazymap.h). */
#include "util/lazymap.h"
#include <sys/mman.h>

void *lazymap_zeroed(size_t bytes) {
  void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  if (bytes >= ((size_t)2 << 20) && bytes <= LAZYMAP_HUGE_MAX) madvise(p, bytes, MADV_HUGEPAGE);   /* a hint: ignored where THP is off */
#endif
  return p;
}
