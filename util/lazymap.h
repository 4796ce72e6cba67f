/* util/lazymap.h - zeroed memory the host backs only where it is touched. */
#ifndef PTXEMU_UTIL_LAZYMAP_H
#define PTXEMU_UTIL_LAZYMAP_H
#include <stdbool.h>
#include <stddef.h>

/* A private anonymous mapping of bytes with no swap reserved (NULL on
 * failure; free with munmap).  Up to LAZYMAP_HUGE_MAX it asks for huge
 * pages: a page fault then backs 2 MiB instead of 4 KiB, which matters
 * when worker threads touch fresh memory together (faults in one mapping
 * serialise on its locks: a 64 MiB buffer written by 16 threads spent 10x
 * its user time in the kernel).  Larger mappings keep small pages, so a
 * 40 GB buffer of which a kernel touches 1 MB costs about 1 MB. */
#define LAZYMAP_HUGE_MAX ((size_t)256 << 20)
void *lazymap_zeroed(size_t bytes);
/* The same with small pages whatever the size, for structures a run
 * touches here and there (cache tags, timelines' windows): a huge page
 * there would back and zero 2 MiB for a few touched lines. */
void *lazymap_sparse(size_t bytes);

/* lazymap_zeroed for an array that holds pointers to heap blocks, freed
 * with lazymap_free_held(p, bytes).  Under AddressSanitizer a heap block
 * (cache-line aligned): its leak checker looks for pointers in the heap,
 * not in mappings, and would call the blocks an array still names leaked
 * when the process exits before freeing them (a launch the debugger
 * quits). */
void *lazymap_zeroed_held(size_t bytes);
void lazymap_free_held(void *p, size_t bytes);

/* Keeps [lo, hi) of this process's address space from ever being handed
 * out (an inaccessible mapping, no memory behind it).  0 when reserved;
 * -1 when something is already there or the system refuses (a limit on
 * address space): then nothing is reserved. */
int lazymap_reserve(size_t lo, size_t hi);

/* Many zeroed arrays (a DRAM's thousands of bank timelines, every SM's L1
 * tags) from one mapping: one mmap instead of thousands of
 * allocations, none of whose headers touch memory before the arrays'
 * users do.  A pool that cannot be mapped (a limit on address space)
 * hands out nothing: its users then allocate each array themselves. */
typedef struct lazypool { unsigned char *base; size_t size, used; } lazypool;
/* The bytes lazypool_take(p, bytes) uses (host cache lines of its own). */
size_t lazypool_bytes(size_t bytes);
/* sparse: small pages (lazymap_sparse), for arrays one thread touches
 * here and there; otherwise lazymap_zeroed's huge pages, for arrays that
 * worker threads fill together (each fault backs 2 MiB, and faults in one
 * mapping serialise: the SMs' caches of a timed launch on 16 threads took
 * 4 % longer on small pages). */
void lazypool_init(lazypool *p, size_t bytes, bool sparse);
/* Zeroed bytes from p (NULL: p is NULL, unmapped or full). */
void *lazypool_take(lazypool *p, size_t bytes);
/* Two arrays of a structure from p (*a and *b), or false and neither: its
 * owner then allocates both itself. */
bool lazypool_take2(lazypool *p, size_t abytes, void **a, size_t bbytes, void **b);
void lazypool_free(lazypool *p);

#endif
