/* emu/rowlive.h - which register rows are live where in the timed
 * program (e->prog with its timing deps): the classic backward dataflow
 * over basic blocks, for the register budget of ptxas's scheduling
 * (reorder.c).  A row is live before an instruction when some path from
 * there reads it before writing it; a guarded write does not end a
 * value (the lanes whose guard is false keep it). */
#ifndef EMU_ROWLIVE_H
#define EMU_ROWLIVE_H
#include <stdint.h>
#include "emu/internal.h"
#include "emu/timing_insn.h"

typedef struct rowlive rowlive;

/* leader[pc]: pc starts a basic block (emu_block_leaders).  NULL when out
 * of memory or when the sets would be too large (a budget then has no
 * information to work with, and callers go without). */
rowlive *rowlive_new(const emu *e, const deps *dep, const uint8_t *leader);
void rowlive_free(rowlive *l);
/* Words of a row set (bit r of word r / 64: row r). */
uint32_t rowlive_words(const rowlive *l);
/* The rows live just before instruction pc, into out. */
void rowlive_before(const rowlive *l, uint32_t pc, uint64_t *out);
#endif
