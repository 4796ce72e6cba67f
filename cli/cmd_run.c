/* cli/cmd_run.c - "ptxemu run" and "ptxemu check" (emulator not linked yet). */
#include <stdio.h>
#include "cli/cli.h"
int cmd_run(int argc, char **argv) { (void)argc; (void)argv; fputs("ptxemu run: not available in this build\n", stderr); return EXIT_SOFTWARE; }
int cmd_check(int argc, char **argv) { (void)argc; (void)argv; fputs("ptxemu check: not available in this build\n", stderr); return EXIT_SOFTWARE; }
