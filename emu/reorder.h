/* emu/reorder.h - ptxas-like list scheduling of basic blocks for timed
 * runs (see reorder.c). */
#ifndef EMU_REORDER_H
#define EMU_REORDER_H
#include "emu/emu.h"
#include "emu/timing_insn.h"
#include "gpu/config.h"

/* Permute e->prog inside basic blocks into the issue order ptxas would
 * give it, and dep (timing_build_deps of e->prog) with it; 0, or -1 when
 * out of memory (both are then unchanged). */
int emu_reorder(emu *e, const gpu_config *g, deps *dep);
/* Set leader[pc] for the first instruction of every basic block (function
 * entries, labels, what follows a control instruction); leader has
 * e->nprog + 1 entries. */
void emu_block_leaders(const emu *e, uint8_t *leader);
/* Whether an instruction may move inside its block (see reorder.c). */
bool emu_reorder_movable(const xinsn *x, const deps *d);
#endif
