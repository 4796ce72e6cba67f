/* debug/debug.h - a gdb-like warp debugger over the emulator (ptxemu debug,
 * ptxemu-debug(1)).
 *
 * The debugger observes execution as traces do: it wraps a session's launch
 * hooks and installs an emu_observer whose on_before_insn runs before every
 * warp instruction.  Stopping is not returning from that hook: the command
 * loop runs inside it until the user says continue, step, next or finish.
 * Nothing changes when no debugger is attached.  Commands are read one line
 * at a time from a terminal, a pipe or a command file. */
#ifndef DEBUG_DEBUG_H
#define DEBUG_DEBUG_H
#include <stdbool.h>
#include <stdio.h>

struct session_opts;
typedef struct dbg dbg;

typedef struct dbg_config {
  FILE *in;                 /* commands (a terminal, a pipe or a file)          */
  FILE *out;                /* everything the debugger prints                    */
  FILE *then;               /* after in ends: more commands (the terminal after
                               -x FILE), or NULL: the end of in is quit          */
  const char *source_dir;   /* --source-dir: where CUDA sources are looked for   */
} dbg_config;

dbg *dbg_new(const dbg_config *c);
void dbg_free(dbg *d);
/* Hook into a session: its launch hooks (a trace's, if any) keep running,
 * chained after the debugger's. */
void dbg_attach(dbg *d, struct session_opts *o);
/* After the program (all its launches) ended with exit status rc: say so
 * and read commands until 'run' (true: run it again) or quit/end of input. */
bool dbg_after_exit(dbg *d, int rc);
/* The user quit (the program was stopped, not finished). */
bool dbg_quitting(const dbg *d);
/* Kernel launches seen in the last run of the program. */
int dbg_launches(const dbg *d);
/* For the CUDA libraries: a debugger configured by PTXEMU_DEBUG (a command
 * file, or "-": the standard input), PTXEMU_DEBUG_BATCH and
 * PTXEMU_DEBUG_SOURCE_DIR, attached to o; NULL when PTXEMU_DEBUG is unset.
 * Exits with status 66 when the command file cannot be read. */
dbg *dbg_from_env(struct session_opts *o);
#endif
