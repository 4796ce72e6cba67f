/* traces/trace.h - execution traces in SQLite (ptxemu-trace(5)).
 *
 * A trace is a SQLite database that a run appends to: one `runs` row per
 * ptxemu invocation, the static program (modules, kernels, instructions,
 * PTX lines) and, per launch, what the emulator observed.  The schema and
 * every metric view are documented in man/ptxemu-trace.5; the SQL text is
 * in traces/schema.c.
 *
 * Recording.  The emulator calls an emu_observer for every warp
 * instruction and every global/shared memory request.  The writer keeps
 * the hot path to a few stores: straight-line warp instructions with the
 * same active mask are folded into one `warp_runs` row (the `warp_insts`
 * view expands them again, one row per dynamic warp instruction), rows are
 * buffered in memory and a second thread inserts full buffers through a
 * virtual table (INSERT ... SELECT), each buffer one transaction, in WAL
 * mode with synchronous=NORMAL.
 *
 * Crash safety.  A launch's row is committed with status 'unfinished'
 * before the launch runs and set to 'completed' or 'faulted' after its last
 * rows are committed.  A killed run leaves a database that opens, passes
 * integrity_check and holds every completed launch; `runs.finished_at` stays
 * NULL.
 */
#ifndef TRACES_TRACE_H
#define TRACES_TRACE_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct emu;
struct emu_launch;
struct emu_observer;

/* Schema version written to PRAGMA user_version (and the application id). */
#define TRACE_SCHEMA_VERSION 5
#define TRACE_APPLICATION_ID 0x50545845   /* "PTXE" */

enum trace_level { TRACE_LAUNCH, TRACE_WARP, TRACE_MEM, TRACE_ALL };

typedef struct trace_opts {
  const char *path;              /* database file                                 */
  enum trace_level level;
  const char **kernels;          /* record details only for these kernels; NULL: all */
  int nkernels;
  uint32_t block_lo, block_hi;   /* linear block ids (inclusive); 0..UINT32_MAX: all */
  uint32_t pc_lo, pc_hi;         /* PCs inside a function (as `ptxemu dis` counts) */
  const char *command_line;      /* for runs.command_line                         */
  const char *launch_file;
  const char *config_name;       /* GPU configuration; NULL: "functional"         */
  const char *config_params;     /* its parameters as text; NULL: the emulator options */
  bool verbose;                  /* trace_close prints rows written and rows/s  */
  uint64_t max_bytes;            /* size cap of the database file; 0: none      */
} trace_opts;

typedef struct trace trace;

/* Open (create, or append a run to) a trace database.  NULL with a message
 * in err on failure (unwritable file, not a ptxemu trace, other schema). */
trace *trace_open(const trace_opts *o, char *err, size_t errlen);

/* The observer to install as emu->obs (trace_launch_begin installs it, or
 * NULL for launches recorded at level launch only). */
struct emu_observer *trace_observer(trace *t);

/* session hooks (host/session.h): before and after each launch */
void trace_launch_begin(void *t, int index, const char *kernel, struct emu *e, const struct emu_launch *l);
void trace_launch_done(void *t, int index, const char *kernel, struct emu *e, int rc);
/* A sanitizer finding of the launch being recorded (a hazards row); the
 * sink that sanitize/sanitize.h's san_set_sink takes. */
struct san_finding;
void trace_hazard(void *t, const struct san_finding *f);

/* Wait until every row is written and stop the writer thread.  Returns 0,
 * -1 if some rows could not be written, -2 if the size cap dropped rows
 * (message on stderr). */
int trace_drain(trace *t);
/* Drain, then finish the run (runs.exit_status: the status the process
 * exits with, finished_at), checkpoint, close.  0, or -1 (message on
 * stderr) when the exit status could not be recorded. */
int trace_close(trace *t, int exit_status);

/* Set exit_status of the newest runs row of command_line (a program run
 * by ptxemu exec); 0, or -1 with a message. */
int trace_record_exit(const char *path, const char *command_line, int status);
/* Open a trace read-only (stats, report; traces/reader.c): immutable when
 * the folder is not writable.  NULL with a message in err; *unreadable is
 * set when the file cannot be read at all (exit status 66, else 65). */
struct sqlite3;
struct sqlite3 *trace_open_read(const char *path, char *err, size_t errlen, bool *unreadable);

/* Parse "launch|warp|mem|all"; -1 if unknown. */
int trace_level_from_name(const char *s);
extern const char *const trace_level_names[4];

/* The schema (tables, lookup rows, views) as one SQL script. */
extern const char trace_schema_sql[];
#endif
