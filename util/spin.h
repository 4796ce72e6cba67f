/* util/spin.h - a step of waiting for another thread's atomic store:
 * spin a while, then yield (the threads may share fewer cores than there
 * are).  for (uint32_t n = 0; !done(); n++) spin_step(n); */
#ifndef PTXEMU_UTIL_SPIN_H
#define PTXEMU_UTIL_SPIN_H
#include <sched.h>
#include <stdint.h>

static inline void spin_step(uint32_t spins) { if (spins > 256) sched_yield(); }
#endif
