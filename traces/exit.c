/* traces/exit.c - record a program's exit status in the runs row its
 * process wrote (ptxemu exec: the CUDA libraries inside the program cannot
 * know the status it exits with). */
#include <sqlite3.h>
#include <stdio.h>
#include "traces/trace.h"

int trace_record_exit(const char *path, const char *command_line, int status) {
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) { sqlite3_close(db); return -1; }
  sqlite3_busy_timeout(db, 5000);
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2(db,
      "UPDATE runs SET exit_status = ?1 WHERE run_id = (SELECT max(run_id) FROM runs WHERE command_line = ?2)", -1, &s, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_int(s, 1, status);
    sqlite3_bind_text(s, 2, command_line, -1, SQLITE_STATIC);
    rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
  }
  sqlite3_finalize(s);
  sqlite3_close(db);
  if (rc != SQLITE_OK) { fprintf(stderr, "ptxemu: cannot record the exit status in '%s'\n", path); return -1; }
  return 0;
}
