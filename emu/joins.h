/* emu/joins.h - where the paths of a divergent branch meet (joins.c). */
#ifndef EMU_JOINS_H
#define EMU_JOINS_H
#include <stdbool.h>
#include <stdint.h>
#include "emu/emu.h"

/* join[pc] = 1 where pc is the immediate post-dominator of a conditional
 * branch (every PC of a function it cannot follow); join is e->nprog bytes,
 * zeroed by the caller.  false: out of memory. */
bool emu_join_points(const emu *e, uint8_t *join);

#endif
