/* util/arena.h - bump allocator: many small objects, freed all at once.
 * Used by the parser and assembler so that no per-token or per-instruction
 * malloc/free happens on hot paths. */
#ifndef UTIL_ARENA_H
#define UTIL_ARENA_H
#include <stddef.h>

typedef struct arena_block arena_block;
typedef struct arena { arena_block *head, *spare; size_t total, next; } arena;   /* next: the next standard block's size (arena.c) */

arena *arena_new(void);
void arena_free(arena *a);
/* Drop everything allocated so far but keep the memory for what comes next
 * (a scratch arena reused for one item after another). */
void arena_reset(arena *a);
/* Zeroed memory, 16-byte aligned.  Aborts on out-of-memory (callers are
 * command-line tools; there is nothing sensible to continue with). */
void *arena_alloc(arena *a, size_t n);
/* The same without zeroing, for memory about to be written whole. */
void *arena_alloc_raw(arena *a, size_t n);
char *arena_strndup(arena *a, const char *s, size_t n);
/* Grow an array kept in the arena: returns a copy with room for newcap. */
void *arena_grow(arena *a, void *old, size_t oldbytes, size_t newbytes);
#endif
