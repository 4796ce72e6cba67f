/* host/obs_chain.h - two emulator observers as one.  The emulator holds one
 * observer pointer (emu->obs, one test on the hot path); a launch watched
 * by a trace and a sanitizer (or a debugger) installs a chain of them.
 * Each callback calls the first observer's, then the second's; callbacks
 * neither has stay NULL, so the emulator skips them as before.  A new
 * callback in emu_observer gets its pass-through here. */
#ifndef HOST_OBS_CHAIN_H
#define HOST_OBS_CHAIN_H
#include "emu/emu.h"

typedef struct obs_chain {
  emu_observer obs;              /* what to install                           */
  emu_observer *a, *b;
} obs_chain;

/* The observer that runs a then b: a or b itself when the other is NULL,
 * else &c->obs (c must outlive the launch). */
emu_observer *obs_chain_make(obs_chain *c, emu_observer *a, emu_observer *b);
#endif
