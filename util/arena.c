/* util/arena.c - bump allocator (see arena.h). */
#include "util/arena.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

/* dirty: recycled by arena_reset, so not zero like fresh pages;
 * standard: one of the arena's own blocks (kept by arena_reset), not a
 * big object's mapping */
struct arena_block { arena_block *next; size_t used, cap; bool dirty, standard; _Alignas(16) unsigned char data[]; };

/* Standard blocks start at 64 KiB mappings and double, one after another,
 * up to 4 MiB (headers included): a small module's parse populates a few
 * pages, not the 4 MiB blocks a large one fills (the four arenas of a
 * 10 KB module had populated 16 MiB: 3 of the 6 ms `ptxemu check` takes
 * on the vecadd example). */
#define ARENA_FIRST ((size_t)(64 << 10) - sizeof(arena_block))
#define ARENA_BLOCK ((size_t)(4 << 20) - sizeof(arena_block))

/* Blocks come straight from mmap: fresh pages are zero (no memset per
 * object) and, being large, can be backed by huge pages.  They are
 * populated at once: first touch of memory, one page fault at a time, is
 * what dominates a fast assembler (and costs several times more under a
 * hypervisor). */
enum { HUGE = 2 << 20 };

/* A mapping of at least *bytes (rounded up to whole huge pages when that
 * large), starting on a huge page; *bytes is set to its size. */
static void *block_new(size_t *bytes) {
  size_t want = *bytes >= HUGE ? (*bytes + HUGE - 1) / HUGE * HUGE : *bytes;
  size_t len = want >= HUGE ? want + HUGE : want;
  unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  if (want >= HUGE) {                      /* trim to a huge-page boundary */
    size_t lead = (size_t)(-(uintptr_t)p & (HUGE - 1));
    if (lead) munmap(p, lead);
    munmap(p + lead + want, HUGE - lead);
    p += lead;
#ifdef MADV_HUGEPAGE
    madvise(p, want, MADV_HUGEPAGE);
#endif
  }
#ifdef MADV_POPULATE_WRITE
  madvise(p, want, MADV_POPULATE_WRITE);    /* best effort: older kernels fault lazily */
#endif
  *bytes = want;
  return p;
}

/* the standard block after one of cap bytes: a mapping twice as large */
static size_t grown(size_t cap) {
  size_t m = (cap + sizeof(arena_block)) * 2;
  return m >= ARENA_BLOCK + sizeof(arena_block) ? ARENA_BLOCK : m - sizeof(arena_block);
}

static void oom(void) { fputs("ptxemu: out of memory\n", stderr); exit(70); }

arena *arena_new(void) {
  arena *a = calloc(1, sizeof *a);
  if (!a) oom();
  return a;
}

static void free_chain(arena_block *b) {
  for (arena_block *n; b; b = n) { n = b->next; munmap(b, sizeof *b + b->cap); }
}

void arena_free(arena *a) {
  if (!a) return;
  free_chain(a->head);
  free_chain(a->spare);
  free(a);
}

/* Everything allocated so far is dropped; the standard blocks are kept for
 * the next allocations (arena_alloc zeroes what it hands out of them), big
 * ones go back to the system. */
void arena_reset(arena *a) {
  /* of the standard blocks only the largest are kept: the arena grew past
   * the others, and the next round fills the large ones */
  size_t keep = 0;
  for (arena_block *b = a->head; b; b = b->next) if (b->standard && b->cap > keep) keep = b->cap;
  for (arena_block *b = a->spare; b; b = b->next) if (b->cap > keep) keep = b->cap;
  for (arena_block **pp = &a->spare; *pp;) {
    arena_block *b = *pp;
    if (b->cap == keep) { pp = &b->next; continue; }
    *pp = b->next;
    a->total -= b->cap;
    munmap(b, sizeof *b + b->cap);
  }
  for (arena_block *b = a->head, *n; b; b = n) {
    n = b->next;
    if (!b->standard || b->cap != keep) { a->total -= b->cap; munmap(b, sizeof *b + b->cap); continue; }
    b->used = 0;
    b->dirty = true;
    b->next = a->spare;
    a->spare = b;
  }
  a->head = NULL;
}

void *arena_alloc(arena *a, size_t n) {
  void *p = arena_alloc_raw(a, n);
  if (a->head && a->head->dirty) memset(p, 0, n);   /* a big object always comes fresh */
  return p;
}

void *arena_alloc_raw(arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    /* the next standard block: twice the last one, or more for an object
     * of more than a quarter of it; an object of more than a quarter of
     * the largest gets a mapping of its own */
    size_t std = a->next ? a->next : ARENA_FIRST;
    while (std < ARENA_BLOCK && n > std / 4) std = grown(std);
    bool standard = n <= std / 4;
    size_t cap = standard ? std : n;
    arena_block *nb;
    if (standard && a->spare && a->spare->cap >= n) { nb = a->spare; a->spare = nb->next; }
    else {
      size_t bytes = sizeof *nb + cap;
      nb = block_new(&bytes);
      if (!nb) oom();
      nb->used = 0;
      nb->dirty = false;
      nb->standard = standard;
      nb->cap = standard ? cap : bytes - sizeof *nb;
      a->total += nb->cap;
      if (standard) a->next = grown(cap);
    }
    if (!standard && b) {      /* big object: keep the current block on top */
      nb->next = b->next; b->next = nb;
      nb->used = n;
      return nb->data;
    }
    nb->next = b; a->head = nb;
    b = nb;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc_raw(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

void *arena_grow(arena *a, void *old, size_t oldbytes, size_t newbytes) {
  void *p = arena_alloc_raw(a, newbytes);
  if (old && oldbytes) memcpy(p, old, oldbytes);
  return p;
}
