/* host/launcher.h - one kernel launch with everything the host side asks
 * for around it: the trace hooks, the --stats line, the cycle and speed
 * messages, the fault report and the exit status a fault gives.  Launch
 * files (session.c) and the CUDA libraries (cudart/) launch through here,
 * so both behave the same. */
#ifndef HOST_LAUNCHER_H
#define HOST_LAUNCHER_H
#include <stdio.h>
#include "host/session.h"

struct emu;
struct emu_launch;
struct gpu_config;
struct timing_result;

typedef struct host_launcher {
  const session_opts *o;
  FILE *stats;                       /* --stats file, or NULL                   */
  const struct gpu_config *gcfg;     /* timing mode: the GPU, else NULL         */
  struct timing_result *tres;        /* timing mode: the launch's figures       */
  uint64_t last_wall_ns;             /* emulator wall time of the last launch   */
  int children;                      /* device-launched grids run so far (their
                                        numbers in traces and stats follow the
                                        host launches': 100000 + n)             */
} host_launcher;

/* Run launch el (index numbers it in traces and stats) of kernel on e.
 * where ("file:line", or NULL) prefixes the failure line.  Returns 0, 3 (a
 * kernel fault, reported on stderr) or 4 (a limit was reached). */
int host_launch(host_launcher *hl, struct emu *e, const struct emu_launch *el, int index, const char *kernel,
                const char *where);
/* The --stats file's first line when --set overrides parameters: "gpu NAME"
 * and each overridden parameter's effective value ("NAME VALUE" pairs, as
 * the launch lines'); nothing without overrides. */
void host_stats_header(FILE *f, const struct gpu_config *c, const char *const *sets, int nsets);
/* Exit status of the fault e holds (3 or 4). */
int host_fault_status(const struct emu *e);
#endif
