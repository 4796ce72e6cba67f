/* util/lazymap.c - zeroed memory backed where touched (see lazymap.h). */
#include "util/lazymap.h"
#include <stdlib.h>
#include <sys/mman.h>
#include "util/asan.h"
#include "util/host_line.h"

void *lazymap_sparse(size_t bytes) {
  void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void *lazymap_zeroed(size_t bytes) {
  void *p = lazymap_sparse(bytes);
#ifdef MADV_HUGEPAGE
  if (p && bytes >= ((size_t)2 << 20) && bytes <= LAZYMAP_HUGE_MAX) madvise(p, bytes, MADV_HUGEPAGE);   /* a hint: ignored where THP is off */
#endif
  return p;
}

void *lazymap_zeroed_held(size_t bytes) {
#ifdef PTXEMU_ASAN
  return calloc_lines(bytes, 1);
#else
  return lazymap_zeroed(bytes);
#endif
}

void lazymap_free_held(void *p, size_t bytes) {
#ifdef PTXEMU_ASAN
  (void)bytes;
  free(p);
#else
  if (p) munmap(p, bytes);
#endif
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

size_t lazypool_bytes(size_t bytes) { return (bytes + 63) & ~(size_t)63; }

void lazypool_init(lazypool *p, size_t bytes, bool sparse) {
  p->used = 0;
  p->base = !bytes ? NULL : sparse ? lazymap_sparse(bytes) : lazymap_zeroed(bytes);
  p->size = p->base ? bytes : 0;
}

void *lazypool_take(lazypool *p, size_t bytes) {
  bytes = lazypool_bytes(bytes);
  if (!p || !p->base || p->size - p->used < bytes) return NULL;
  void *r = p->base + p->used;
  p->used += bytes;
  return r;
}

bool lazypool_take2(lazypool *p, size_t abytes, void **a, size_t bbytes, void **b) {
  *a = lazypool_take(p, abytes);
  *b = *a ? lazypool_take(p, bbytes) : NULL;
  return *b != NULL;
}

void lazypool_free(lazypool *p) {
  if (p->base) munmap(p->base, p->size);
  p->base = NULL;
  p->size = p->used = 0;
}
