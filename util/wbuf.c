/* util/wbuf.c - buffers of a few sizes from huge-page mappings (wbuf.h). */
#include "util/wbuf.h"
#include "util/lazymap.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/asan.h"
#ifdef PTXEMU_ASAN
#define WBUF_PLAIN 1
#endif

#ifndef WBUF_PLAIN
/* Sizes from WBUF_MIN to WBUF_MAX bytes, up to WBUF_CLASSES of them at a
 * time (a process runs a few kernels); the others go to malloc. */
enum { WBUF_MIN = 256, WBUF_MAX = 1 << 20, WBUF_CLASSES = 16, WBUF_ALIGN = 64 };
#define WBUF_SLAB ((size_t)32 << 20)

/* A class's free buffers are listed outside them: a buffer no one wrote
 * (local memory of a kernel without local accesses) stays untouched, its
 * pages never backed.  Only where that list cannot grow does a buffer
 * hold the link to the next (head). */
typedef struct wfree { struct wfree *next; } wfree;
/* nheld: the buffers in free and head, readable without the lock (a
 * class with none is not locked to be looked at) */
static struct { size_t bytes; wfree *head; void **free; size_t nfree, capfree; _Atomic size_t nheld; } cls[WBUF_CLASSES];
/* [0]: buffers of wbuf_alloc, [1]: of wbuf_alloc_apart */
static struct { unsigned char *next, *end; } slab[2];
/* New buffers come from a chunk of a slab that the thread that asks took
 * (under the lock, one chunk for many buffers), without the lock: the
 * workers of a timed launch set up thousands of warps at once (the
 * 1024x1024 transpose on 16 threads: 49152 allocations and frees, 15 %
 * of them waiting for the lock).  Chunks, not a slab a thread: the
 * threads' first buffers share huge pages as before (a slab of each of 16
 * workers of a functional launch backed and zeroed 2 MiB pages for a few
 * register files: the 2048x2048 transpose 18 % slower). */
enum { WBUF_CHUNK = 256 << 10 };
static _Thread_local struct { unsigned char *next, *end; } chunk[2];
/* the thread's last sizes and their classes (classes, once made, stay;
 * a warp's set-up asks for three or four sizes in turn) */
enum { WBUF_KNOWN = 4 };
static _Thread_local struct { size_t bytes; int c; } known[WBUF_KNOWN];
static _Thread_local unsigned known_next;
static int known_class(size_t bytes) {
  for (int i = 0; i < WBUF_KNOWN; i++) if (known[i].bytes == bytes) return known[i].c;
  return -1;
}
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* A child forked while another thread held the lock would find it held
 * for ever: fork waits for it, as glibc's malloc does. */
static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_done(void) { pthread_mutex_unlock(&lock); }
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void register_fork(void) { pthread_atfork(fork_prepare, fork_done, fork_done); }

/* The class of a size: found, or made in a free place; -1 when all are taken. */
static int class_of(size_t bytes) {
  int empty = -1;
  for (int i = 0; i < WBUF_CLASSES; i++) {
    if (cls[i].bytes == bytes) return i;
    if (!cls[i].bytes && empty < 0) empty = i;
  }
  if (empty >= 0) cls[empty].bytes = bytes;
  return empty;
}

/* bytes of slab apart (a new slab when the last has too few left), under
 * the lock; NULL when no slab can be mapped */
static unsigned char *slab_take(int apart, size_t bytes) {
  unsigned char *q = NULL;
  pthread_mutex_lock(&lock);
  if ((size_t)(slab[apart].end - slab[apart].next) < bytes) {
    unsigned char *s = lazymap_zeroed(WBUF_SLAB);
    if (s) { slab[apart].next = s; slab[apart].end = s + WBUF_SLAB; }
  }
  if ((size_t)(slab[apart].end - slab[apart].next) >= bytes) { q = slab[apart].next; slab[apart].next += bytes; }
  pthread_mutex_unlock(&lock);
  return q;
}

static bool pooled(size_t bytes) { return bytes >= WBUF_MIN && bytes <= WBUF_MAX; }
#endif

static void *take(size_t bytes, bool zero, int apart) {
  (void)apart;                     /* (no slabs under WBUF_PLAIN) */
#ifndef WBUF_PLAIN
  if (pooled(bytes)) {
    size_t need = (bytes + WBUF_ALIGN - 1) & ~(size_t)(WBUF_ALIGN - 1);
    pthread_once(&once, register_fork);
    int c = known_class(bytes);
    void *p = NULL;
    bool fresh = false;
    if (c < 0 || atomic_load_explicit(&cls[c].nheld, memory_order_relaxed)) {
      pthread_mutex_lock(&lock);
      c = class_of(bytes);
      if (c >= 0 && cls[c].nfree) p = cls[c].free[--cls[c].nfree];
      else if (c >= 0 && cls[c].head) { p = cls[c].head; cls[c].head = cls[c].head->next; }
      if (p) atomic_fetch_sub_explicit(&cls[c].nheld, 1, memory_order_relaxed);
      pthread_mutex_unlock(&lock);
      if (c >= 0 && known_class(bytes) < 0) { known[known_next].bytes = bytes; known[known_next].c = c; known_next = (known_next + 1) % WBUF_KNOWN; }
    }
    if (!p && c >= 0) {
      if ((size_t)(chunk[apart].end - chunk[apart].next) < need) {
        /* a new chunk (a buffer larger than one: a piece its size) */
        size_t take = need > WBUF_CHUNK ? need : WBUF_CHUNK;
        unsigned char *q = slab_take(apart, take);
        if (q) { chunk[apart].next = q; chunk[apart].end = q + take; }
      }
      if ((size_t)(chunk[apart].end - chunk[apart].next) >= need) { p = chunk[apart].next; chunk[apart].next += need; fresh = true; }
    }
    if (p) {
      if (zero && !fresh) memset(p, 0, bytes);
      return p;
    }
    /* no room for a slab (a small address-space limit): from malloc; its
     * class keeps it when it is freed, as a slab's buffer.  Every class
     * taken: bytes is not pooled, and wbuf_free finds no class for it */
  }
#endif
  return zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
}

void *wbuf_alloc(size_t bytes, bool zero) { return take(bytes, zero, 0); }
void *wbuf_alloc_apart(size_t bytes, bool zero) { return take(bytes, zero, 1); }

void wbuf_free(void *p, size_t bytes) {
  (void)bytes;
  if (!p) return;
#ifndef WBUF_PLAIN
  if (pooled(bytes)) {
    pthread_mutex_lock(&lock);
    int c = -1;
    for (int i = 0; i < WBUF_CLASSES; i++) if (cls[i].bytes == bytes) c = i;
    if (c >= 0 && cls[c].nfree == cls[c].capfree) {
      size_t cap = cls[c].capfree ? 2 * cls[c].capfree : 1024;
      void **f = realloc(cls[c].free, cap * sizeof *f);
      if (f) { cls[c].free = f; cls[c].capfree = cap; }
    }
    if (c >= 0 && cls[c].nfree < cls[c].capfree) {
      cls[c].free[cls[c].nfree++] = p;
      atomic_fetch_add_explicit(&cls[c].nheld, 1, memory_order_relaxed);
      pthread_mutex_unlock(&lock);
      return;
    }
    if (c >= 0) {
      wfree *f = p;
      f->next = cls[c].head;
      cls[c].head = f;
      atomic_fetch_add_explicit(&cls[c].nheld, 1, memory_order_relaxed);
      pthread_mutex_unlock(&lock);
      return;
    }
    pthread_mutex_unlock(&lock);
  }
#endif
  free(p);
}
