/* traces/reserve.h - disk space kept for how a traced run ends (reserve.c). */
#ifndef TRACES_RESERVE_H
#define TRACES_RESERVE_H

/* Room for the runs row's last update: a WAL frame or two (pages of
 * 64 KiB). */
#define TRACE_RESERVE_BYTES ((size_t)256 << 10)

/* TRACE_RESERVE_BYTES of allocated blocks on DB_PATH's file system, held by
 * the descriptor returned (an unlinked file), or -1 where the space or the
 * file could not be had (the trace goes on without). */
int trace_reserve_take(const char *db_path);
/* Gives the space back; *reserve becomes -1. */
void trace_reserve_release(int *reserve);
#endif
