/* debug/internal.h - what the files of debug/ share. */
#ifndef DEBUG_INTERNAL_H
#define DEBUG_INTERNAL_H
#include <stdarg.h>
#include "debug/debug.h"
#include "emu/emu.h"
#include "host/session.h"
#include "host/obs_chain.h"

enum bp_kind { BP_PTX_LINE, BP_CUDA_LINE, BP_PC, BP_FUNC, BP_WATCH };

typedef struct dbg_bp {
  int num, kind;
  char *where;              /* as the user spelled it: "vecadd.cu:5", "23", "*7" */
  char *file;               /* BP_CUDA_LINE: the file name given                  */
  char *func;               /* BP_FUNC: the function; BP_PC: the kernel or NULL   */
  uint32_t line, pc;        /* lines: the line; BP_PC: index in the function      */
  bool has_block, has_thread;
  uint32_t block[3], thread[3];
  uint64_t hits;
  /* resolved against the module that runs: (function, instruction) pairs */
  const isa_module *rm;
  uint32_t nat, *at_f, *at_i;
  /* BP_WATCH: a space (PTX_SPACE_GLOBAL or _SHARED), address and bytes; a
   * shared watch belongs to one block */
  int space, type;          /* type: ptx_type used to print the value            */
  uint64_t addr;
  uint32_t size;
  uint8_t old[8];
  bool have_old;
} dbg_bp;

/* What the warp that ran the previous instruction did (watchpoints name
 * the writer). */
typedef struct dbg_last {
  bool valid;
  uint32_t block[3], warp;
  const xinsn *x;
  lanemask g;
  int wlane;                /* lane whose store touched a watch, -1 unknown     */
  lanemask wmask;           /* every lane whose access touched it               */
} dbg_last;

typedef struct src_file { char *path; char **lines; uint32_t nlines; struct src_file *next; } src_file;   /* lines: util/source_file.h */

enum run_mode { RM_CONT, RM_STEP, RM_NEXT, RM_FINISH };

struct dbg {
  dbg_config c;
  bool interactive;         /* in is a terminal: no echo of commands           */
  bool quitting;
  bool prompt_at_start;     /* stop before the first launch of the first run    */
  bool pre_start;           /* stopped there: the kernel has not started         */
  char lastcmd[64];         /* an empty line repeats it (a terminal only)        */
  /* breakpoints and watchpoints */
  dbg_bp *bps;
  int nbps, capbps, next_num;
  bool has_watch;
  /* the session (chained hooks) */
  session_opts *so;
  void *next_ctx;
  void (*next_begin)(void *, int, const char *, struct emu *, const struct emu_launch *);
  void (*next_done)(void *, int, const char *, struct emu *, int);
  emu_observer obs, *next_obs;
  obs_chain chain;               /* next_obs (a trace's) first, then obs */
  int launches;             /* launches seen in this run of the program        */
  /* the launch running */
  emu *e;                   /* non-NULL from a launch's start to its end        */
  bool started;             /* its first instruction ran                        */
  int launch_index;
  const char *kernel;
  emu_launch launch;        /* its shape (e->launch is filled once it starts)   */
  cta **ctas;               /* blocks seen (slots of the emulator; a slot is
                               reused, so check its id and warps)               */
  uint32_t nctas, capctas;
  /* focus */
  uint32_t fblock[3], fthread[3];
  /* where it stopped */
  const warp *sw;
  const xinsn *sx;
  lanemask sm;
  /* how to go on */
  int mode;
  uint32_t step_depth;
  dbg_last last;
  src_file *files;
};

/* Ctrl-C was typed (session.c: the kernel stops at its next instruction) */
#include <signal.h>
extern volatile sig_atomic_t dbg_interrupted;

/* output (commands.c) */
bool isatty_file(FILE *f);
/* session.c: the cycle and stall reason of the stop (timing mode) */
void dbg_print_cycle(dbg *d);
/* breakpoints.c: a watched value changed (old value in was) */
void dbg_report_watch(dbg *d, dbg_bp *bp, const uint8_t was[8]);
void dbg_printf(dbg *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The command loop: returns when the program is to go on (continue, step...);
 * running: a launch is stopped; false from a top-level loop means quit. */
bool dbg_command_loop(dbg *d);

/* breakpoints.c */
int dbg_cmd_break(dbg *d, const char *args);
int dbg_cmd_watch(dbg *d, const char *args);
int dbg_cmd_delete(dbg *d, const char *args);
void dbg_info_breakpoints(dbg *d);
/* The breakpoint warp w hits at x for its group m, or NULL. */
dbg_bp *dbg_bp_hit(dbg *d, const warp *w, const xinsn *x, lanemask m, int *lane);
/* A watched value changed since the last look: the watchpoint, else NULL;
 * old/new values are in bp->old (updated) and the returned *was. */
dbg_bp *dbg_watch_changed(dbg *d, uint8_t was[8]);
void dbg_watch_note_mem(dbg *d, const warp *w, const uint64_t *a, lanemask m, uint32_t bytes, bool shared);
/* Parse "X[,Y[,Z]]" or "(X,Y,Z)"; the rest after it in *end. */
bool dbg_parse_dim3(const char *s, uint32_t v[3], const char **end);

/* state.c: finding blocks, warps and lanes of the running launch */
cta *dbg_find_cta(dbg *d, const uint32_t id[3]);
const warp *dbg_focus_warp(dbg *d, int *lane);
uint32_t dbg_lane_pc(const warp *w, int lane);
const char *dbg_lane_state(const warp *w, int lane);
void dbg_thread_of(const dbg *d, const warp *w, int lane, uint32_t t[3]);
bool dbg_is_running(dbg *d, bool say);

/* where.c: source lines */
void dbg_print_where(dbg *d, const xinsn *x);
void dbg_print_pos(dbg *d, const xinsn *x);   /* "vecadd.cu:5 (vecadd.ptx:23)" */
int dbg_cmd_list(dbg *d, const char *args);
uint32_t dbg_func_pc(const dbg *d, const xinsn *x);  /* index in its function */
void dbg_free_sources(dbg *d);
/* the text of line n of a file (NULL: unreadable or past its end) */
const char *dbg_source_line(dbg *d, const char *path, uint32_t n, const char **found);

/* warps.c */
int dbg_cmd_info_warps(dbg *d);
int dbg_cmd_info_lanes(dbg *d);
int dbg_cmd_focus(dbg *d, const char *args);
void dbg_print_focus(dbg *d);

/* print.c and examine.c */
int dbg_cmd_print(dbg *d, const char *args);
int dbg_cmd_info_registers(dbg *d, const char *args);
int dbg_cmd_examine(dbg *d, const char *fmt, const char *args);
/* A value of type t (ptx_type) from little-endian bytes, as text. */
void dbg_format_value(char *buf, size_t n, int t, uint64_t v);
/* Host pointer of n bytes at addr of space (PTX_SPACE_*) for the focus, or
 * NULL with a message printed. */
const uint8_t *dbg_mem(dbg *d, int space, uint64_t addr, uint32_t n);
/* A symbol of the running module: its space, address (offset for shared and
 * param) and element type; false when there is none. */
bool dbg_symbol(dbg *d, const char *name, int *space, uint64_t *addr, uint64_t *size, int *type);
#endif
