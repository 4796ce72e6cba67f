/* util/arena.c - bump allocator (see arena.h). */
#include "util/arena.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct arena_block { arena_block *next; size_t used, cap; _Alignas(16) unsigned char data[]; };

enum { ARENA_BLOCK = 4 << 20 };

/* Blocks come straight from mmap: fresh pages are zero (no memset per
 * object) and, being large and aligned, can be backed by huge pages, which
 * makes first touch several times cheaper than 4 KiB page faults. */
static void *block_new(size_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  if (bytes >= (2u << 20)) madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

static void oom(void) { fputs("ptxemu: out of memory\n", stderr); exit(70); }

arena *arena_new(void) {
  arena *a = calloc(1, sizeof *a);
  if (!a) oom();
  return a;
}

void arena_free(arena *a) {
  if (!a) return;
  for (arena_block *b = a->head, *n; b; b = n) { n = b->next; munmap(b, sizeof *b + b->cap); }
  free(a);
}

void *arena_alloc(arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
    arena_block *nb = block_new(sizeof *nb + cap);
    if (!nb) oom();
    nb->used = 0; nb->cap = cap;
    if (cap != ARENA_BLOCK && b) {      /* big object: keep the current block on top */
      nb->next = b->next; b->next = nb;
    } else { nb->next = b; a->head = nb; }
    b = nb;
    a->total += cap;
    if (b != a->head) { nb->used = n; return nb->data; }
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

void *arena_grow(arena *a, void *old, size_t oldbytes, size_t newbytes) {
  void *p = arena_alloc(a, newbytes);
  if (old && oldbytes) memcpy(p, old, oldbytes);
  return p;
}
