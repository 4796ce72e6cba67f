/* debug/commands.c - the command loop: read a line, run the command, print
 * clear messages for bad ones and go on.  Commands read from a pipe or a
 * file are echoed after the prompt, so a transcript reads like a session. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debug/internal.h"

bool isatty_file(FILE *f) { return f && isatty(fileno(f)); }

void dbg_printf(dbg *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(d->c.out, fmt, ap);
  va_end(ap);
}

static const char help_text[] =
  "Running:\n"
  "  run (r)                 start the kernel (again, after it finished)\n"
  "  continue (c)            go on until a breakpoint or watchpoint\n"
  "  step (s, stepi)         run one instruction of the focused warp\n"
  "  next (n, nexti)         the same, stepping over calls\n"
  "  finish                  run until the current function returns\n"
  "  quit (q)                stop debugging\n"
  "Breakpoints:\n"
  "  break FILE.cu:N | FILE.ptx:N | N | *PC | KERNEL  [if block X,Y,Z thread X,Y,Z]\n"
  "  watch global ADDR | shared ADDR | VARIABLE[I]   stop when the value is written\n"
  "  delete [N...]           remove breakpoints (all without N)\n"
  "  info breakpoints        list them\n"
  "Focus (which thread the commands look at):\n"
  "  block X,Y,Z thread X,Y,Z   (also 'cuda block ...', 'thread X' alone)\n"
  "Looking around:\n"
  "  where, list             the current CUDA and PTX line (list: with context)\n"
  "  info warps              the warps of the focused block: PC, mask, state\n"
  "  info lanes              the lanes of the focused warp\n"
  "  info registers [%rN]    registers of the focused thread\n"
  "  print %rN [lane L | thread]   a register in every lane, one lane or the focused thread\n"
  "  print NAME | NAME[I]    a variable or kernel parameter\n"
  "  x/NFU SPACE ADDR        memory: N units, F format (x d u f c), U size (b h w g);\n"
  "                          SPACE: global shared local const param; ADDR: number or variable\n"
  "  cycle                   the cycle and the warp's stall reason (--timing)\n";

static const char *skip_ws(const char *s) { while (*s == ' ' || *s == '\t') s++; return s; }

/* Does word w (length n) name command c, or one of its abbreviations? */
static bool is(const char *w, size_t n, const char *names) {
  for (const char *p = names; *p;) {
    size_t k = strcspn(p, "|");
    if (k == n && memcmp(p, w, n) == 0) return true;
    p += k + (p[k] == '|');
  }
  return false;
}

enum { GO_ON, GO_RUN, GO_NONE };

static int go(dbg *d, int mode) {
  if (d->pre_start) {
    if (mode != RM_CONT) { dbg_printf(d, "The kernel has not started: 'run' starts it, then 'step' works.\n"); return GO_NONE; }
    return GO_ON;
  }
  if (!d->e) { dbg_printf(d, "The program is not running: 'run' starts it.\n"); return GO_NONE; }
  if (mode != RM_CONT && d->e->faulted) { dbg_printf(d, "The kernel has faulted and cannot go on: 'continue' ends the launch.\n"); return GO_NONE; }
  if (mode != RM_CONT) {
    int lane;
    const warp *fw = dbg_focus_warp(d, &lane);
    if (!fw) { dbg_printf(d, "The focused block is not running: choose one with 'block X,Y,Z' (see 'info warps').\n"); return GO_NONE; }
    if (!~fw->exited) { dbg_printf(d, "The focused warp has exited: nothing to step.\n"); return GO_NONE; }
    uint16_t depth = fw->cur ? fw->cur_depth : fw->depth[lane];
    if (mode == RM_FINISH && depth == 0) {
      dbg_printf(d, "\"finish\" not meaningful in the outermost frame (the kernel itself): use 'continue'.\n");
      return GO_NONE;
    }
    d->step_depth = depth;
  }
  d->mode = mode;
  return GO_ON;
}

static void quit(dbg *d) {
  d->quitting = true;
  fflush(d->c.out);
  if (d->e || d->pre_start) exit(0);     /* like gdb: the program being debugged is killed */
}

/* One command; GO_NONE keeps reading. */
static int run_command(dbg *d, char *line) {
  const char *s = skip_ws(line);
  if (!*s || *s == '#') return GO_NONE;
  /* x/FMT is one word with its format */
  size_t n = strcspn(s, " \t/");
  const char *args = skip_ws(s + n);
  if (s[n] == '/') { if (n == 1 && s[0] == 'x') { const char *f = s + 2; size_t fl = strcspn(f, " \t");
                       char fmt[16]; snprintf(fmt, sizeof fmt, "%.*s", (int)(fl < 15 ? fl : 15), f);
                       dbg_cmd_examine(d, fmt, skip_ws(f + fl)); return GO_NONE; }
                     dbg_printf(d, "Unknown command '%.*s'. Type 'help' for the list of commands.\n", (int)strcspn(s, " \t"), s);
                     return GO_NONE; }
  if (is(s, n, "help|h")) dbg_printf(d, "%s", help_text);
  else if (is(s, n, "quit|q|exit")) { quit(d); return GO_RUN + 1; }
  else if (is(s, n, "run|r")) {
    if (d->pre_start) return GO_ON;
    if (d->e) { dbg_printf(d, "The kernel is already running: 'continue' goes on.\n"); return GO_NONE; }
    return GO_RUN;
  }
  else if (is(s, n, "continue|c|cont")) return go(d, RM_CONT);
  else if (is(s, n, "step|s|stepi|si")) return go(d, RM_STEP);
  else if (is(s, n, "next|n|nexti|ni")) return go(d, RM_NEXT);
  else if (is(s, n, "finish|fin")) return go(d, RM_FINISH);
  else if (is(s, n, "break|b|br")) dbg_cmd_break(d, args);
  else if (is(s, n, "watch")) dbg_cmd_watch(d, args);
  else if (is(s, n, "delete|d")) dbg_cmd_delete(d, args);
  else if (is(s, n, "info|i")) {
    size_t k = strcspn(args, " \t");
    const char *rest = skip_ws(args + k);
    if (!k) dbg_printf(d, "info what? breakpoints, warps, lanes or registers.\n");
    else if (is(args, k, "breakpoints|break|b|watchpoints")) dbg_info_breakpoints(d);
    else if (is(args, k, "warps|warp")) dbg_cmd_info_warps(d);
    else if (is(args, k, "lanes|lane|threads")) dbg_cmd_info_lanes(d);
    else if (is(args, k, "registers|reg|r")) dbg_cmd_info_registers(d, rest);
    else dbg_printf(d, "Unknown info command '%.*s': try breakpoints, warps, lanes or registers.\n", (int)k, args);
  }
  else if (is(s, n, "block|thread|cuda|focus")) dbg_cmd_focus(d, s);
  else if (is(s, n, "print|p|inspect")) dbg_cmd_print(d, args);
  else if (is(s, n, "x")) dbg_cmd_examine(d, "", args);
  else if (is(s, n, "list|l")) dbg_cmd_list(d, args);
  else if (is(s, n, "where|bt|backtrace|frame")) {
    if (dbg_is_running(d, true)) {
      int lane;
      const warp *w = dbg_focus_warp(d, &lane);
      if (w) { dbg_print_focus(d); dbg_print_where(d, &d->e->prog[dbg_lane_pc(w, lane)]); }
    }
  }
  else if (is(s, n, "cycle")) dbg_print_cycle(d);
  else dbg_printf(d, "Unknown command '%.*s'. Type 'help' for the list of commands.\n", (int)n, s);
  return GO_NONE;
}

/* Read a line; false at the end of all input. */
static bool read_line(dbg *d, char **buf, size_t *cap) {
  for (;;) {
    if (d->interactive) { fputs("(ptxemu-dbg) ", d->c.out); fflush(d->c.out); }
    errno = 0;
    ssize_t r = d->c.in ? getline(buf, cap, d->c.in) : -1;
    if (r < 0 && errno == EINTR && d->interactive) { clearerr(d->c.in); dbg_interrupted = 0; fputc('\n', d->c.out); continue; }   /* Ctrl-C at the prompt */
    if (r >= 0) {
      while (r > 0 && ((*buf)[r - 1] == '\n' || (*buf)[r - 1] == '\r')) (*buf)[--r] = 0;
      if (!d->interactive) dbg_printf(d, "(ptxemu-dbg) %s\n", *buf);
      return true;
    }
    if (d->interactive) fputc('\n', d->c.out);
    if (!d->c.then) return false;
    d->c.in = d->c.then;       /* the command file ended: go on from the terminal */
    d->c.then = NULL;
    d->interactive = isatty_file(d->c.in);
  }
}

bool dbg_command_loop(dbg *d) {
  char *buf = NULL;
  size_t cap = 0;
  int r = GO_NONE;
  while (r == GO_NONE) {
    if (!read_line(d, &buf, &cap)) { free(buf); buf = NULL; quit(d); return false; }
    /* an empty line repeats step/next (a terminal only, as gdb does) */
    const char *t = skip_ws(buf);
    if (!*t && d->interactive && d->lastcmd[0]) { free(buf); buf = strdup(d->lastcmd); cap = buf ? strlen(buf) + 1 : 0; if (!buf) break; }
    else if (*t) {
      size_t k = strcspn(t, " \t");
      d->lastcmd[0] = 0;
      if (is(t, k, "step|s|stepi|si|next|n|nexti|ni")) snprintf(d->lastcmd, sizeof d->lastcmd, "%.*s", (int)k, t);
    }
    r = run_command(d, buf);
    fflush(d->c.out);
  }
  free(buf);
  if (r == GO_RUN + 1) return false;
  return r == GO_RUN || r == GO_ON;
}
