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
/* A load of bytes in [lo, end), inside one allocation: true when no shadow
 * is needed (the region has only been read so far in this attempt), so
 * the caller may skip emu_par_span; false: ask emu_par_span. */
bool emu_par_read_unshadowed(warp *w, uint64_t lo, uint64_t end);

/* A launch whose caller runs the blocks on its own threads (timing mode,
 * timing.c): n workers' copies of the launch state (emu_par_job_emu), each
 * block's global accesses checked against the others' (set its cta's
 * par_owner to 1 + its cluster's number; emu_par_release after each of
 * its warps' runs).  NULL: the launch must run sequentially (e->par_last
 * says why). */
typedef struct emu_par_job emu_par_job;
emu_par_job *emu_par_job_begin(emu *e, uint32_t n);
emu *emu_par_job_emu(emu_par_job *j, uint32_t i);
void emu_par_release(emu *e);
bool emu_par_job_stopped(emu_par_job *j);
void emu_par_job_stop(emu_par_job *j, const char *why);
/* warp instructions of all workers so far */
uint64_t emu_par_job_insts(emu_par_job *j);
/* The end (after the workers' blocks are freed): true: their counters
 * are added to the launch's; false (a conflict, a worker's fault, a stop):
 * device memory is as before the launch, which must run again
 * sequentially.  Frees j. */
bool emu_par_job_end(emu_par_job *j);
#endif
