/* traces/reserve.c - disk space kept for how a traced run ends.
 *
 * A trace that fills its disk stops the launch (exit status 73), and the
 * run's last rows (its exit status, finished_at) must still be written.  In
 * WAL mode a write after a failed one reuses the failed frames' space only
 * when that transaction had written some: whether the final UPDATE found
 * room depended on where the disk filled.  So a trace holds
 * TRACE_RESERVE_BYTES of the database's file system in a file it unlinks at
 * once (no name left behind, whatever happens to the process; runs writing
 * one trace together each hold their own) and closes before those last
 * writes when a write failed, and when the trace closes in any case. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "traces/reserve.h"

int trace_reserve_take(const char *db_path) {
  size_t n = strlen(db_path);
  char *p = malloc(n + sizeof "-reserve-XXXXXX");
  if (!p) return -1;
  memcpy(p, db_path, n);
  memcpy(p + n, "-reserve-XXXXXX", sizeof "-reserve-XXXXXX");
  int fd = mkostemp(p, O_CLOEXEC);
  if (fd >= 0) unlink(p);
  free(p);
  if (fd < 0) return -1;
  /* blocks allocated, not a sparse file: posix_fallocate, or zeros where
   * the file system cannot */
  int ok = posix_fallocate(fd, 0, (off_t)TRACE_RESERVE_BYTES) == 0;
  if (!ok) {
    static const char zeros[65536];
    ok = 1;
    for (size_t left = TRACE_RESERVE_BYTES; ok && left; left -= sizeof zeros) ok = write(fd, zeros, sizeof zeros) == (ssize_t)sizeof zeros;
  }
  if (!ok) { close(fd); return -1; }
  return fd;
}

void trace_reserve_release(int *reserve) {
  if (*reserve < 0) return;
  close(*reserve);
  *reserve = -1;
}
