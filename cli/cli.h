/* cli/cli.h - the ptxemu command line: one function per sub-command. */
#ifndef CLI_CLI_H
#define CLI_CLI_H
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

/* Load a module from PTX text or a .pxo object (decided by content).
 * Diagnostics go to stderr.  *status gets an exit status on failure. */
isa_module *cli_load_module(const char *path, int *status);
/* True when argv[i] is -h/--help. */
int cli_is_help(const char *a);
#endif
