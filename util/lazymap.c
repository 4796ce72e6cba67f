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

int lazymap_reserve(size_t lo, size_t hi) {
  if (hi <= lo) return -1;
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
#ifdef MAP_FIXED_NOREPLACE
  flags |= MAP_FIXED_NOREPLACE;
#endif
  void *p = mmap((void *)lo, hi - lo, PROT_NONE, flags, -1, 0);
  if (p == MAP_FAILED) return -1;
  /* a kernel older than MAP_FIXED_NOREPLACE takes the address as a hint */
  if ((size_t)p != lo) { munmap(p, hi - lo); return -1; }
  return 0;
}
