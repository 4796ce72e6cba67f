/* emu/parallel.h - functional launches on several threads, with the
 * sequential answer (doc/parallel.md). */
#ifndef EMU_PARALLEL_H
#define EMU_PARALLEL_H
#include "emu/emu.h"

/* After emu_launch_begin: run the launch's clusters on e->opt.threads
 * worker threads.  true: the launch ran (stats, fault state as the
 * sequential loop leaves them); false: it did not run in parallel (not
 * eligible, or a conflict, fault or limit stopped the attempt and device
 * memory is as it was before it): run it sequentially.  e->par_last says
 * which. */
bool emu_par_run(emu *e);

/* A worker's global-memory access (from emu_translate, only where e->par is
 * set): lanes of m whose kind is MM_GLOBAL at addresses a, size bytes each.
 * false: the access depends on another block's (a conflict): the attempt
 * stops, e->faulted is set and the access must not happen. */
bool emu_par_access(warp *w, const xinsn *x, const uint64_t *a, lanemask m, uint32_t size, const uint8_t *kind);
/* The same for an access whose lanes' bytes all lie in [lo, end), a span
 * of at most 256 bytes inside one allocation (the fused path's check). */
bool emu_par_span(warp *w, const xinsn *x, uint64_t lo, uint64_t end);
#endif
