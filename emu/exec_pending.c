/* emu/exec_pending.c - placeholders for instruction families being written. */
#include "emu/internal.h"
