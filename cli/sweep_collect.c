/* cli/sweep_collect.c - "ptxemu sweep collect DIR -o OUT.db": every point's
 * result file merged into one database: points (a column per swept
 * parameter), metrics (long: one row per launch and counter), launches
 * (wide: a column per counter), and views for the usual questions:
 * point_totals, speedup (over the baseline point of each workload),
 * param_effect (which parameter matters) and failures.  Points without a
 * result are rows of status 'missing'. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/sweep.h"

#define SQL_OK(x) ((x) == SQLITE_OK || (x) == SQLITE_DONE || (x) == SQLITE_ROW)

/* a metric name becomes a column: lower-case letters, digits and '_' only */
static bool plain_name(const char *n) {
  if (!n || !*n || strlen(n) > 64 || (*n >= '0' && *n <= '9')) return false;
  for (; *n; n++) if (!((*n >= 'a' && *n <= 'z') || (*n >= '0' && *n <= '9') || *n == '_')) return false;
  return true;
}

static int exec_str(sqlite3 *db, char *sql) {
  int rc = sql ? sqlite3_exec(db, sql, NULL, NULL, NULL) : SQLITE_NOMEM;
  free(sql);
  return rc;
}

/* "CREATE TABLE points(...)" with the swept columns */
static char *points_sql(const sweep_spec *s) {
  char *q = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&q, &n);
  if (!f) return NULL;
  fputs("CREATE TABLE points(point_id INTEGER PRIMARY KEY, workload TEXT NOT NULL, kind TEXT, gpu TEXT, rep INTEGER", f);
  for (int i = 0; i < s->ncols; i++) fprintf(f, ", \"%s\" NUMERIC", s->cols[i]);
  fputs(", is_baseline INTEGER, status TEXT NOT NULL, exit_status INTEGER, reason TEXT, wall_seconds REAL, host TEXT,"
        " finished_at TEXT, key TEXT, trace TEXT, gpu_params TEXT);\n"
        "CREATE TABLE metrics(point_id INTEGER NOT NULL REFERENCES points, launch INTEGER, kernel TEXT, name TEXT NOT NULL, value REAL);\n", f);
  fclose(f);
  return q;
}

static int insert_point(sqlite3 *db, const char *dir, const sweep_spec *s, int i) {
  const sweep_point *p = &s->points[i];
  char path[PATH_MAX];
  sweep_result_path(dir, i, path, sizeof path);
  int state = sweep_point_state(dir, s, i);
  char *q = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&q, &n);
  if (!f) return SQLITE_NOMEM;
  fputs("INSERT INTO points SELECT ?1, ?2, ?3, ?4, ?5", f);
  for (int c = 0; c < s->ncols; c++) fprintf(f, ", ?%d", 6 + c);
  if (state) fputs(", ?99, status, exit_status, reason, wall_seconds, host, finished_at, key, trace, gpu_params FROM r.point", f);
  else fputs(", ?99, 'missing', NULL, 'no result file', NULL, NULL, NULL, ?98, NULL, NULL", f);
  fclose(f);
  if (!q) return SQLITE_NOMEM;
  int rc = SQLITE_OK;
  if (state) {
    sqlite3_stmt *at;
    rc = sqlite3_prepare_v2(db, "ATTACH ? AS r", -1, &at, NULL);
    if (rc == SQLITE_OK) { sqlite3_bind_text(at, 1, path, -1, SQLITE_STATIC); rc = sqlite3_step(at); sqlite3_finalize(at); }
  }
  sqlite3_stmt *st = NULL;
  if (SQL_OK(rc)) rc = sqlite3_prepare_v2(db, q, -1, &st, NULL);
  if (SQL_OK(rc)) {
    sqlite3_bind_int(st, 1, i);
    sqlite3_bind_text(st, 2, s->w[p->workload].name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, s->w[p->workload].exec ? "exec" : "launch", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, s->gpus[p->gpu], -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, p->rep);
    for (int c = 0; c < s->ncols; c++) if (s->combos[p->combo].values[c]) sqlite3_bind_text(st, 6 + c, s->combos[p->combo].values[c], -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 99, p->baseline);
    if (!state) sqlite3_bind_text(st, 98, p->key, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
  }
  sqlite3_finalize(st);
  free(q);
  if (!SQL_OK(rc)) fprintf(stderr, "ptxemu sweep collect: point %d: %s\n", i, sqlite3_errmsg(db));
  if (state) {
    if (SQL_OK(rc)) {
      char m[96];
      snprintf(m, sizeof m, "INSERT INTO metrics SELECT %d, launch, kernel, name, value FROM r.metrics", i);
      rc = sqlite3_exec(db, m, NULL, NULL, NULL);
    }
    int d = sqlite3_exec(db, "DETACH r", NULL, NULL, NULL);
    if (SQL_OK(rc)) rc = d;
  }
  return rc;
}

/* launches, point_totals, speedup, param_effect, failures */
static char *views_sql(sqlite3 *db, const sweep_spec *s) {
  char *q = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&q, &n);
  if (!f) return NULL;
  sqlite3_stmt *st;
  const char *names[256];
  int nn = 0;
  if (sqlite3_prepare_v2(db, "SELECT DISTINCT name FROM metrics ORDER BY rowid", -1, &st, NULL) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW && nn < 256) {
      const char *m = (const char *)sqlite3_column_text(st, 0);
      if (plain_name(m)) names[nn++] = strdup(m);
    }
    sqlite3_finalize(st);
  }
  fputs("CREATE TABLE launches AS SELECT point_id, launch, kernel", f);
  for (int i = 0; i < nn; i++) fprintf(f, ", max(CASE WHEN name = '%s' THEN value END) AS %s", names[i], names[i]);
  fputs(" FROM metrics GROUP BY point_id, launch, kernel ORDER BY point_id, launch;\n", f);
  /* totals over a point's launches: rates and percentages average, the rest add up */
  fputs("CREATE VIEW point_totals AS SELECT p.*, t.launches", f);
  for (int i = 0; i < nn; i++) fprintf(f, ", t.%s", names[i]);
  fputs(" FROM points p LEFT JOIN (SELECT point_id, count(*) AS launches", f);
  for (int i = 0; i < nn; i++) {
    size_t l = strlen(names[i]);
    const char *agg = (l > 4 && strcmp(names[i] + l - 4, "_pct") == 0) || strstr(names[i], "efficiency") ? "avg" :
                      strcmp(names[i], "regs_per_thread") == 0 ? "max" : "sum";
    fprintf(f, ", %s(%s) AS %s", agg, names[i], names[i]);
  }
  fputs(" FROM launches GROUP BY point_id) t USING (point_id);\n", f);
  bool cycles = false;
  for (int i = 0; i < nn; i++) cycles |= strcmp(names[i], "cycles") == 0;
  for (int i = 0; i < nn; i++) free((char *)names[i]);
  /* speed-up of each point over its workload's baseline (the mean of its repetitions) */
  fprintf(f, "CREATE VIEW speedup AS SELECT t.*, b.base_cycles AS baseline_cycles, b.base_cycles / t.%s AS speedup FROM point_totals t"
             " LEFT JOIN (SELECT workload, avg(%s) AS base_cycles FROM point_totals WHERE is_baseline AND status = 'done' GROUP BY workload) b"
             " USING (workload);\n", cycles ? "cycles" : "NULL", cycles ? "cycles" : "NULL");
  /* which parameter matters: per parameter, the spread of the mean speed-up over its values */
  fputs("CREATE VIEW param_effect AS ", f);
  int parts = 0;
  for (int i = -1; i < s->ncols; i++) {
    if (i < 0 && s->ngpus < 2) continue;
    const char *c = i < 0 ? "gpu" : s->cols[i];
    fprintf(f, "%sSELECT '%s' AS param, count(*) AS nvalues, min(m) AS min_speedup, max(m) AS max_speedup, max(m) / min(m) AS spread"
               " FROM (SELECT \"%s\" AS v, avg(speedup) AS m FROM speedup WHERE status = 'done' AND \"%s\" IS NOT NULL GROUP BY \"%s\")",
            parts++ ? " UNION ALL " : "", c, c, c, c);
  }
  if (!parts) fputs("SELECT NULL AS param, 0 AS nvalues, NULL AS min_speedup, NULL AS max_speedup, NULL AS spread WHERE 0", f);
  fputs(";\nCREATE VIEW failures AS SELECT point_id, workload, status, exit_status, reason, key FROM points WHERE status <> 'done';\n", f);
  fclose(f);
  return q;
}

int sweep_collect(const char *dir, const char *out) {
  sweep_spec s;
  int rc = sweep_dir_load(dir, &s);
  if (rc) return rc;
  char tmp[PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s.tmp%d", out, (int)getpid());
  unlink(tmp);
  sqlite3 *db;
  int r = sqlite3_open(tmp, &db);
  /* no transaction around it all: a point's file is attached and detached in turn */
  if (r == SQLITE_OK) r = sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;", NULL, NULL, NULL);
  if (r == SQLITE_OK) r = exec_str(db, points_sql(&s));
  int done = 0, failed = 0, missing = 0;
  for (int i = 0; i < s.npoints && SQL_OK(r); i++) {
    r = insert_point(db, dir, &s, i);
    int st = sweep_point_state(dir, &s, i);
    done += st == 1;
    failed += st == 2;
    missing += st == 0;
  }
  if (SQL_OK(r)) r = sqlite3_exec(db, "CREATE INDEX metrics_point ON metrics(point_id, launch);", NULL, NULL, NULL);
  if (SQL_OK(r)) r = exec_str(db, views_sql(db, &s));
  if (!SQL_OK(r)) fprintf(stderr, "ptxemu sweep collect: cannot write '%s': %s\n", out, sqlite3_errmsg(db));
  sqlite3_close(db);
  if (!SQL_OK(r) || rename(tmp, out)) {
    if (SQL_OK(r)) fprintf(stderr, "ptxemu sweep collect: cannot write '%s': %s\n", out, strerror(errno));
    unlink(tmp);
    sweep_spec_free(&s);
    return EXIT_CANTCREAT;
  }
  printf("%s: %d points (%d done, %d failed, %d missing)\n", out, s.npoints, done, failed, missing);
  sweep_spec_free(&s);
  return EXIT_OK;
}
