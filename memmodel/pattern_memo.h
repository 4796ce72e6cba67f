/* memmodel/pattern_memo.h - the lane pattern of the last access counted
 * (an SM's in memsys, a worker's counters in emu), so that an access with
 * the same pattern takes its geometry from that one instead of counting
 * it again.
 *
 * How many sectors, lines and bank wavefronts a warp's access takes
 * depends on where its lanes' addresses lie relative to one another, and
 * on where the first lies in an aligned block: 128 bytes for global
 * memory (a line: its four sectors and one row of the L1's 32 four-byte
 * data banks), a bank's width for shared memory's 4-byte banks.  Moving
 * every lane by a multiple of the block moves the sectors and lines by
 * the same count and permutes the banks, so the counts stay.  A tile's
 * unrolled accesses through one register, and the other warps' same
 * accesses, repeat their pattern: comparing it is one pass over the
 * lanes, where counting takes several (coalesce.c).  Exact: the caller
 * keeps the answers of the pattern it set and adds the shift back. */
#ifndef MEMMODEL_PATTERN_MEMO_H
#define MEMMODEL_PATTERN_MEMO_H

#include <stdbool.h>
#include <stdint.h>

typedef struct pattern_memo {
  uint64_t rel[32];                /* active lane i's address less the first active lane's (0: inactive) */
  uint64_t first;                  /* the first active lane's address, of the access asked about last */
  uint32_t mask, bytes;
  bool valid;
} pattern_memo;

/* Whether addr (32 lanes, those of mask active; bytes: the access's size)
 * repeats m's pattern with its first active lane at the same place in an
 * aligned block of align bytes (a power of two; 0: only the same
 * addresses).  Otherwise m takes this access's pattern (its answers are
 * the caller's to record) and false is returned.  Either way m->first is
 * then this access's first active lane's address: answers kept relative
 * to it move with the lanes. */
bool pattern_memo_same(pattern_memo *m, const uint64_t *addr, uint32_t mask, uint32_t bytes, uint64_t align);

#endif
