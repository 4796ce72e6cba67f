/* emu/exec_pending.c - placeholders for instruction families being written. */
#include "emu/internal.h"
int prep_tex(emu *e, xinsn *x) { (void)e; (void)x; return -1; }
