/* util/wbuf.h - buffers of a few sizes (a warp's register rows, its local
 * memory) carved from large mappings that the host backs with huge pages.
 * A launch in timing mode starts every resident block at once: thousands
 * of register files, first touched one 4 KiB page at a time, were a
 * quarter to a half of a short launch's time under a hypervisor (the
 * timed 1024x1024 transpose: 1.2 s, 0.4-0.8 s with the heap on huge
 * pages).  Freed buffers are kept for the next of their size, never given
 * back to the system.  Where no slab can be mapped (a small address-space
 * limit), a buffer comes from malloc.  Thread-safe.  Under
 * AddressSanitizer, plain malloc. */
#ifndef PTXEMU_UTIL_WBUF_H
#define PTXEMU_UTIL_WBUF_H
#include <stdbool.h>
#include <stddef.h>

/* bytes of memory, zeroed when zero is set; NULL when out of memory */
void *wbuf_alloc(size_t bytes, bool zero);
/* bytes from slabs of their own, for buffers most runs never touch (a
 * warp's local memory): beside the register files, the huge pages those
 * fill would back them too (8192 resident warps of a timed transpose: 12
 * MiB of untouched local memory).  Zeroed when zero is set; a buffer new
 * from a slab is zero either way (and untouched) */
void *wbuf_alloc_apart(size_t bytes, bool zero);
/* p (NULL: nothing) as wbuf_alloc(bytes, ...) or wbuf_alloc_apart gave it;
 * its memory is not written (a buffer never touched stays unbacked) */
void wbuf_free(void *p, size_t bytes);
#endif
