/* emu/timing_par.h - the threads of a timed launch on several threads
 * (doc/parallel.md): for each window of cycles, every thread runs fn(ctx,
 * i) once, thread 0 being the caller's, and tteam_run returns when all
 * have. */
#ifndef EMU_TIMING_PAR_H
#define EMU_TIMING_PAR_H
#include <stdint.h>

typedef struct tteam tteam;
/* NULL when the threads cannot be started (the launch then runs on one). */
tteam *tteam_new(uint32_t n, void (*fn)(void *ctx, uint32_t i), void *ctx);
void tteam_run(tteam *t);
void tteam_free(tteam *t);
#endif
