/* cli/cli.h - the ptxemu command line: one function per sub-command. */
#ifndef CLI_CLI_H
#define CLI_CLI_H
#include <stdio.h>
#include "isa/isa.h"

/* Exit statuses (documented in ptxemu(1)). */
enum {
  EXIT_OK = 0,
  EXIT_MISMATCH = 1,      /* check: some expected buffer differs            */
  EXIT_FAULT = 3,         /* the kernel faulted (trap, bad access, deadlock) */
  EXIT_LIMIT = 4,         /* a configured limit was reached                  */
  EXIT_USAGE = 64,        /* bad command line                               */
  EXIT_DATAERR = 65,      /* bad input: PTX, object or launch file          */
  EXIT_NOINPUT = 66,      /* input file missing or unreadable               */
  EXIT_SOFTWARE = 70,     /* internal error                                 */
  EXIT_CANTCREAT = 73     /* cannot write an output file                    */
};

int cmd_asm(int argc, char **argv);
int cmd_dis(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_gpus(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_stats(int argc, char **argv);      /* cli/cmd_stats.c: metrics of a trace */
int cmd_report(int argc, char **argv);     /* cli/cmd_report.c: HTML report of a trace */
int cmd_exec(int argc, char **argv);       /* cli/cmd_exec.c: a CUDA program on ptxemu's libraries */
/* exec --format json (cli/exec_json.c): the document, from the run's stats
 * file and captured stdout (either may be NULL); argv ends with NULL. */
void exec_write_json(FILE *f, char **argv, int status, int signal, double wall, const char *gpu, FILE *stats, FILE *out);
int cmd_debug(int argc, char **argv);      /* cli/cmd_debug.c: the warp debugger */
/* "ptxemu run" with attach(session options, ctx) called just before the
 * session starts (the debugger hooks in there); argv[0] names the command. */
struct session_opts;
int cli_run_attached(int argc, char **argv, void (*attach)(struct session_opts *, void *), void *ctx);
int cmd_sweep(int argc, char **argv);      /* cli/cmd_sweep.c: design-space sweeps (ptxemu-sweep(1)) */

/* --trace options of run/check (cli/trace_opts.c). */
struct session_opts;
typedef struct cli_trace cli_trace;
extern const char cli_trace_usage[];
/* argv[*i] is a --trace* option: consume it and its value, return 1 (-1 on a
 * bad value, message printed); 0 when it is not one. */
/* a is one of the options in the blank-separated list opts, given as the
 * last argument without its value: say so (not "unknown option"), return 1. */
int cli_missing_value(const char *cmd, const char *a, const char *opts);
int cli_trace_option(cli_trace **ct, int argc, char **argv, int *i);
/* Open the trace (when --trace was given) and hook it into the session;
 * 0 or an exit status. */
int cli_trace_start(cli_trace *ct, struct session_opts *o, int argc, char **argv, const char *input);
/* Close the trace; rc, or EXIT_CANTCREAT if rc was 0 and it could not be written. */
int cli_trace_finish(cli_trace *ct, int rc);
/* The open trace of --trace (NULL without one), for the sanitizer's findings. */
struct trace *cli_trace_of(cli_trace *ct);

/* --set NAME=VALUE (run, check, exec): at most this many. */
#define CLI_MAX_SETS 256
/* Check the overrides on GPU gpu: 0; EXIT_DATAERR when the configuration
 * itself is bad, EXIT_USAGE when an override is (messages printed). */
int cli_check_sets(const char *gpu, const char *const *sets, int nsets);
/* Load a module from PTX text or a .pxo object (decided by content).
 * Diagnostics go to stderr.  *status gets an exit status on failure. */
isa_module *cli_load_module(const char *path, int *status);
/* path names CUDA C++ source (.cu, .cuh): say how to compile it to PTX
 * (or run the program with exec), as "ptxemu CMD: ...", and return 1. */
int cli_cuda_source(const char *cmd, const char *path);
/* True when argv[i] is -h/--help. */
int cli_is_help(const char *a);
/* A byte count with an optional K/M/G/T suffix (powers of 1024): 0 or -1. */
int cli_parse_size(const char *s, uint64_t *out);
#endif
