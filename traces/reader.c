/* traces/reader.c - open a trace for reading (ptxemu stats, ptxemu report).
 *
 * A trace is in WAL mode, and SQLite reads a WAL database through a shared
 * index file (TRACE-shm) that it creates next to the database.  A reader
 * that may not write in that folder (someone else's trace, a read-only
 * mount) cannot create it, and the plain read-only open then fails with
 * errors that look like a damaged file.  Such a file is not being written
 * (its writer would need the same folder), so it is opened immutable. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include "traces/trace.h"

/* A query every SQLite database answers: SQLITE_ROW when it can be read. */
static int probe(sqlite3 *db) {
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &s, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(s);
  sqlite3_finalize(s);
  return rc == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(db);
}

/* "file:PATH?immutable=1" with PATH percent-encoded where a URI needs it. */
static char *immutable_uri(const char *path) {
  size_t n = strlen(path);
  char *u = malloc(n * 3 + 32);
  if (!u) return NULL;
  size_t k = (size_t)sprintf(u, "file:");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)path[i];
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("/._-~", c);
    if (c == '/' && i == 0 && path[1] == '/') plain = false;     /* "file://" would name a host */
    if (plain) u[k++] = (char)c;
    else k += (size_t)sprintf(u + k, "%%%02X", c);
  }
  strcpy(u + k, "?immutable=1");
  return u;
}

sqlite3 *trace_open_read(const char *path, char *err, size_t errlen, bool *unreadable) {
  *unreadable = false;
  struct stat st;
  FILE *f = fopen(path, "rb");
  if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "cannot open '%s': %s", path, f ? "not a regular file" : strerror(errno));
    if (f) fclose(f);
    *unreadable = true;
    return NULL;
  }
  char magic[16] = {0};
  size_t got = fread(magic, 1, sizeof magic, f);
  fclose(f);
  if (got != sizeof magic || memcmp(magic, "SQLite format 3", 16) != 0) {
    snprintf(err, errlen, "'%s' is not a ptxemu trace (not a SQLite database)", path);
    return NULL;
  }
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(db, 5000);
    rc = probe(db);
    if (rc == SQLITE_OK) return db;
  }
  char first[200];
  snprintf(first, sizeof first, "%s", db ? sqlite3_errmsg(db) : "out of memory");
  sqlite3_close(db);
  db = NULL;
  if (rc != SQLITE_NOTADB && rc != SQLITE_CORRUPT) {
    /* most likely no write access to the folder: read the file as it is */
    char *uri = immutable_uri(path);
    if (uri && sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK && probe(db) == SQLITE_OK) {
      free(uri);
      size_t n = strlen(path);
      char *wal = malloc(n + 5);
      if (wal) {
        snprintf(wal, n + 5, "%s-wal", path);
        if (stat(wal, &st) == 0 && st.st_size > 0)
          fprintf(stderr, "ptxemu: warning: %s cannot be read without write access to its folder: the rows of a run "
                          "that did not finish may be missing\n", wal);
        free(wal);
      }
      return db;
    }
    free(uri);
    sqlite3_close(db);
    db = NULL;
  }
  snprintf(err, errlen, "cannot read the trace '%s': %s", path, first);
  return NULL;
}
