/* report/report.c - open and check the trace, choose the launches, set
 * the budgets and write the page (through a temporary file). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "config.h"
#include "report/report.h"
#include "report/internal.h"
#include "util/demangle.h"
#include "traces/trace.h"
#include "util/outfile.h"

#define REP_MAX_LAUNCHES 64      /* columns of the metric table              */
#define REP_MAX_DETAILED 8       /* launches drawn in detail                 */
#define REP_CELL_BUDGET 48000    /* timeline cells of all launches together  */
#define REP_LINE_BUDGET 3000     /* annotated PTX lines of all launches      */
#define REP_SOURCE_BYTES 800000  /* and their bytes (long or escaped lines)  */

/* ---- SQL helpers ---- */

sqlite3_stmt *rep_prepare(rep *r, const char *sql) {
  sqlite3_stmt *s = NULL;
  if (sqlite3_prepare_v2(r->db, sql, -1, &s, NULL) != SQLITE_OK) {
    if (!r->failed) snprintf(r->err, sizeof r->err, "%s", sqlite3_errmsg(r->db));
    r->failed = true;
    sqlite3_finalize(s);
    return NULL;
  }
  return s;
}

void rep_finish(rep *r, sqlite3_stmt *s, int rc) {
  if (rc != SQLITE_DONE && rc != SQLITE_ROW && !r->failed) {
    snprintf(r->err, sizeof r->err, "%s", sqlite3_errmsg(r->db));
    r->failed = true;
  }
  sqlite3_finalize(s);
}

long long rep_int(sqlite3_stmt *s, int col, long long dflt) {
  return sqlite3_column_type(s, col) == SQLITE_NULL ? dflt : sqlite3_column_int64(s, col);
}

long long rep_count(sqlite3_stmt *s, int col, long long dflt, long long lo, long long hi) {
  long long v = rep_int(s, col, dflt);
  return v < lo ? lo : v > hi ? hi : v;
}

void rep_add(long long *x, long long v) {
  if (__builtin_add_overflow(*x, v, x)) *x = LLONG_MAX;
}

double rep_real(sqlite3_stmt *s, int col, double dflt) {
  return sqlite3_column_type(s, col) == SQLITE_NULL ? dflt : sqlite3_column_double(s, col);
}

long long rep_scalar(rep *r, const char *sql, long long a, long long b, long long dflt) {
  sqlite3_stmt *s = rep_prepare(r, sql);
  if (!s) return dflt;
  int n = sqlite3_bind_parameter_count(s);
  if (n >= 1) sqlite3_bind_int64(s, 1, a);
  if (n >= 2) sqlite3_bind_int64(s, 2, b);
  long long v = dflt;
  int rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) v = rep_int(s, 0, dflt);
  rep_finish(r, s, rc);
  return v;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

void rep_lap(rep *r, const char *what, long long launch) {
  double t = now(), c = cpu_now();
  if (r->verbose) {
    char name[48];
    snprintf(name, sizeof name, launch > 0 ? "%s %lld" : "%s", what, launch);
    fprintf(stderr, "ptxemu report: %-14s %7.3f s wall %7.3f s cpu\n", name, t - r->t_last, c - r->cpu_last);
  }
  r->t_last = t;
  r->cpu_last = c;
}

void rep_id_list(const rep *r, char *out, size_t n) {
  size_t w = 0;
  out[0] = 0;
  for (size_t i = 0; i < r->nl && w + 24 < n; i++) w += (size_t)snprintf(out + w, n - w, "%s%lld", i ? "," : "", r->l[i].id);
}

/* ---- the trace ---- */

/* "key = value" (timing configurations) or "key=value" (functional) lines */
static long long gpu_param(const char *params, const char *key, long long dflt) {
  size_t kl = strlen(key);
  for (const char *p = params; p && *p;) {
    while (*p == ' ') p++;
    if (strncmp(p, key, kl) == 0) {
      const char *v = p + kl;
      while (*v == ' ') v++;
      if (*v == '=') return strtoll(v + 1, NULL, 10);
    }
    p = strchr(p, '\n');
    if (p) p++;
  }
  return dflt;
}

static int check_trace(rep *r, const char *path, char *err, size_t errlen) {
  long long appid = -1;
  sqlite3_stmt *s;
  if (sqlite3_prepare_v2(r->db, "SELECT application_id FROM pragma_application_id", -1, &s, NULL) == SQLITE_OK &&
      sqlite3_step(s) == SQLITE_ROW)
    appid = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  if (appid < 0) {
    snprintf(err, errlen, "'%s' is not a SQLite database (%s)", path, sqlite3_errmsg(r->db));
    return REPORT_NOT_TRACE;
  }
  if (appid != TRACE_APPLICATION_ID) { snprintf(err, errlen, "'%s' is not a ptxemu trace", path); return REPORT_NOT_TRACE; }
  long long version = rep_scalar(r, "SELECT user_version FROM pragma_user_version", 0, 0, -1);
  if (version != TRACE_SCHEMA_VERSION) {
    snprintf(err, errlen, "'%s' has trace schema version %lld, this ptxemu reads version %d", path, version, TRACE_SCHEMA_VERSION);
    return REPORT_NOT_TRACE;
  }
  return REPORT_OK;
}

static void load_stall_names(rep *r) {
  for (int i = 0; i < REP_NSTALL; i++) { r->stall_name[i] = "other"; r->stall_desc[i] = ""; }
  r->stall_name[0] = "none";
  sqlite3_stmt *s = rep_prepare(r, "SELECT stall_id, name, description FROM stall_reasons WHERE stall_id BETWEEN 1 AND 18");
  if (!s) return;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    int id = sqlite3_column_int(s, 0);
    snprintf(r->stall_text[id], sizeof r->stall_text[id], "%s", (const char *)sqlite3_column_text(s, 1));
    size_t nl = strlen(r->stall_text[id]) + 1;
    snprintf(r->stall_text[id] + nl, sizeof r->stall_text[id] - nl, "%s", (const char *)sqlite3_column_text(s, 2));
    r->stall_name[id] = r->stall_text[id];
    r->stall_desc[id] = r->stall_text[id] + nl;
  }
  rep_finish(r, s, rc);
}

static bool exists(rep *r, const char *sql, long long a, long long b) { return rep_scalar(r, sql, a, b, 0) != 0; }

static int select_launches(rep *r, const report_opts *o, char *err, size_t errlen) {
  char where[1200] = "";
  size_t w = 0;
  if (o->nlaunches) {
    w += (size_t)snprintf(where + w, sizeof where - w, "l.launch_id IN (");
    for (size_t i = 0; i < o->nlaunches && w < sizeof where - 40; i++)
      w += (size_t)snprintf(where + w, sizeof where - w, "%s%lld", i ? "," : "", o->launches[i]);
    w += (size_t)snprintf(where + w, sizeof where - w, ")");
  } else w += (size_t)snprintf(where, sizeof where, "l.run_id = (SELECT max(run_id) FROM runs)");
  if (o->kernel) snprintf(where + w, sizeof where - w, " AND k.name = ?1");
  char sql[2400];
  snprintf(sql, sizeof sql,
    "SELECT l.launch_id, l.run_id, l.kernel_id, k.name, k.file_id, coalesce(k.ptx_line, 0),\n"
    "  l.first_run_id, l.last_run_id, l.first_mem_id, l.last_mem_id,\n"
    "  l.grid_x, l.grid_y, l.grid_z, l.block_x, l.block_y, l.block_z, l.dynamic_shared,\n"
    "  l.cluster_x, l.cluster_y, l.cluster_z, l.status, l.trace_level, l.wall_ns, l.cycles, l.max_warps_per_sm,\n"
    "  k.registers, k.shared_bytes, r.gpu_config, coalesce(r.gpu_params, ''),\n"
    "  (SELECT i.ptx_line FROM instructions i WHERE i.insn_id = l.fault_insn_id AND i.file_id = k.file_id)\n"
    "FROM launches l JOIN kernels k USING (kernel_id) JOIN runs r USING (run_id)\n"
    "WHERE %s ORDER BY l.launch_id", where);
  sqlite3_stmt *s = rep_prepare(r, sql);
  if (!s) { snprintf(err, errlen, "not a readable ptxemu trace: %s", r->err); return REPORT_BAD_TRACE; }
  if (o->kernel) sqlite3_bind_text(s, 1, o->kernel, -1, SQLITE_STATIC);
  r->l = calloc(REP_MAX_LAUNCHES + 1, sizeof *r->l);
  if (!r->l) { sqlite3_finalize(s); snprintf(err, errlen, "out of memory"); return REPORT_BAD_TRACE; }
  int rc;
  size_t total = 0;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    total++;
    if (r->nl == REP_MAX_LAUNCHES) continue;
    rep_launch *l = &r->l[r->nl++];
    l->id = sqlite3_column_int64(s, 0);
    l->run_id = sqlite3_column_int64(s, 1);
    l->kernel_id = sqlite3_column_int64(s, 2);
    snprintf(l->symbol, sizeof l->symbol, "%s", (const char *)sqlite3_column_text(s, 3));
    demangle_or_self(l->symbol, l->kernel, sizeof l->kernel);
    l->file_id = rep_int(s, 4, -1);
    l->kernel_line = sqlite3_column_int64(s, 5);
    l->first_run = sqlite3_column_int64(s, 6);
    l->last_run = sqlite3_column_int64(s, 7);
    l->first_mem = sqlite3_column_int64(s, 8);
    l->last_mem = sqlite3_column_int64(s, 9);
    for (int d = 0; d < 3; d++) {
      l->grid[d] = sqlite3_column_int64(s, 10 + d);
      l->block[d] = sqlite3_column_int64(s, 13 + d);
      l->cluster[d] = sqlite3_column_int64(s, 17 + d);
    }
    l->dyn_shared = sqlite3_column_int64(s, 16);
    snprintf(l->status, sizeof l->status, "%s", (const char *)sqlite3_column_text(s, 20));
    snprintf(l->level, sizeof l->level, "%s", (const char *)sqlite3_column_text(s, 21));
    l->wall_ns = rep_int(s, 22, -1);
    l->cycles = rep_int(s, 23, -1);
    l->max_warps = rep_int(s, 24, -1);
    l->registers = rep_int(s, 25, -1);
    l->shared_bytes = rep_int(s, 26, -1);
    snprintf(l->gpu, sizeof l->gpu, "%s", (const char *)sqlite3_column_text(s, 27));
    l->fault_line = rep_int(s, 29, -1);
    const char *params = (const char *)sqlite3_column_text(s, 28);
    l->nsub = (int)gpu_param(params, "sub_partitions", 4);
    if (l->nsub < 1 || l->nsub > 64) l->nsub = 4;
    if (l->max_warps < 0) l->max_warps = gpu_param(params, "max_warps_per_sm", -1);
    l->has_warps = strcmp(l->level, "warp") == 0 || strcmp(l->level, "all") == 0;
    l->has_mem = strcmp(l->level, "mem") == 0 || strcmp(l->level, "all") == 0;
  }
  rep_finish(r, s, rc);
  if (r->failed) { snprintf(err, errlen, "not a readable ptxemu trace: %s", r->err); return REPORT_BAD_TRACE; }
  if (!r->nl) {
    if (o->kernel) snprintf(err, errlen, "no launch of kernel '%s'%s", o->kernel,
                            o->nlaunches ? " matches --launch" : " in the last run");
    else if (o->nlaunches) snprintf(err, errlen, "no launch matches --launch");
    else snprintf(err, errlen, "the trace has no launches");
    return REPORT_NO_LAUNCHES;
  }
  for (size_t i = 0; i < r->nl; i++) {
    rep_launch *l = &r->l[i];
    l->timed = l->has_warps && exists(r, "SELECT 1 FROM warp_runs WHERE id BETWEEN ?1 AND ?2 AND issue_cycle IS NOT NULL LIMIT 1",
                                      l->first_run, l->last_run);
    l->has_samples = exists(r, "SELECT 1 FROM sm_samples WHERE launch_id = ?1 LIMIT 1", l->id, 0);
    l->has_block_cycles = exists(r, "SELECT 1 FROM blocks WHERE launch_id = ?1 AND start_cycle IS NOT NULL AND end_cycle IS NOT NULL LIMIT 1",
                                 l->id, 0);
  }
  if (total > REP_MAX_LAUNCHES) r->nl_more = total - REP_MAX_LAUNCHES;
  return r->failed ? REPORT_BAD_TRACE : REPORT_OK;
}

/* ---- the page ---- */

static void write_page(rep *r, const char *db_path) {
  FILE *f = r->f;
  size_t nd = r->nl < REP_MAX_DETAILED ? r->nl : REP_MAX_DETAILED;
  r->cols = nd == 1 ? 1000 : 500;
  r->max_warps_drawn = (int)(REP_CELL_BUDGET / nd / (size_t)r->cols);
  if (r->max_warps_drawn > 64) r->max_warps_drawn = 64;
  if (r->max_warps_drawn < 4) r->max_warps_drawn = 4;
  r->max_lines = (int)(REP_LINE_BUDGET / nd);
  if (r->max_lines < 300) r->max_lines = 300;
  r->max_source_bytes = REP_SOURCE_BYTES / (long)nd;

  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>ptxemu report: ", f);
  for (size_t i = 0; i < r->nl && i < 4; i++) { if (i) fputs(", ", f); html_esc(f, r->l[i].kernel); }
  if (r->nl > 4) fputs(", ...", f);
  fprintf(f, "</title>\n<style>\n%s</style></head><body>\n", html_style);
  fputs("<h1>ptxemu report: ", f);
  html_esc(f, db_path);
  fputs("</h1>\n<nav><a href=\"#summary\">summary</a><a href=\"#metrics\">metrics</a>", f);
  for (size_t i = 0; i < nd; i++) {
    fprintf(f, "<a href=\"#launch-%lld\">launch %lld ", r->l[i].id, r->l[i].id);
    html_esc(f, r->l[i].kernel);
    fputs("</a>", f);
  }
  fputs("</nav>\n", f);
  rep_summary(r);
  rep_lap(r, "summary", 0);
  rep_metrics(r);
  rep_lap(r, "metrics", 0);
  if (r->nl > nd) {
    char note[200];
    snprintf(note, sizeof note, "%zu launches are in the tables above; the first %zu are drawn below "
             "(choose others with --launch ID or --kernel NAME).", r->nl, nd);
    html_note(f, note);
  }
  for (size_t i = 0; i < nd && !r->failed; i++) {
    const rep_launch *l = &r->l[i];
    fprintf(f, "<section id=\"launch-%lld\" class=\"launch\">\n<h2>Launch %lld: ", l->id, l->id);
    html_esc(f, l->kernel);
    fprintf(f, " &lt;&lt;&lt;(%lld,%lld,%lld), (%lld,%lld,%lld)&gt;&gt;&gt;</h2>\n", l->grid[0], l->grid[1], l->grid[2],
            l->block[0], l->block[1], l->block[2]);
    rep_collect(r, l);
    rep_lap(r, "collect", l->id);
    rep_timeline(r, l);
    rep_lap(r, "timeline", l->id);
    rep_occupancy(r, l);
    rep_lap(r, "occupancy", l->id);
    if (!rep_cuda_source(r, l)) rep_source(r, l);
    rep_lap(r, "source", l->id);
    rep_memory(r, l);
    rep_lap(r, "memory", l->id);
    fputs("</section>\n", f);
  }
  rep_collect_free(r);
  fprintf(f, "<footer><p class=\"note\">Made by ptxemu %s report from ", PACKAGE_VERSION);
  html_esc(f, db_path);
  fputs(" (ptxemu-trace(5) describes every table and metric).</p></footer>\n</body></html>\n", f);
}

static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int report_write(const char *db_path, const char *out_path, const report_opts *o, char *err, size_t errlen) {
  rep r = { .verbose = o->verbose, .t_last = now(), .cpu_last = cpu_now(), .trace_path = db_path, .source_dir = o->source_dir, .sm = o->sm };
  struct stat st;
  if (stat(db_path, &st) != 0) { snprintf(err, errlen, "cannot open '%s': %s", db_path, strerror(errno)); return REPORT_NOINPUT; }
  if (same_file(db_path, out_path)) { snprintf(err, errlen, "the output '%s' is the trace itself", out_path); return REPORT_CANTCREAT; }
  bool unreadable;
  r.db = trace_open_read(db_path, err, errlen, &unreadable);
  if (!r.db) return unreadable ? REPORT_NOINPUT : REPORT_NOT_TRACE;
  int status = check_trace(&r, db_path, err, errlen);
  if (status == REPORT_OK) status = select_launches(&r, o, err, errlen);
  if (status != REPORT_OK) { free(r.l); sqlite3_close(r.db); return status; }
  load_stall_names(&r);
  rep_lap(&r, "open", 0);

  outfile of;
  if (outfile_open(&of, out_path)) {
    snprintf(err, errlen, "cannot write '%s': %s", out_path, strerror(errno));
    status = REPORT_CANTCREAT;
  } else {
    r.f = of.f;
    write_page(&r, db_path);
    int ok = !r.failed && !ferror(r.f);
    if (outfile_close(&of, ok) && !r.failed) { snprintf(err, errlen, "cannot write '%s': %s", out_path, strerror(errno)); status = REPORT_CANTCREAT; }
    if (r.failed) { snprintf(err, errlen, "reading the trace failed: %s", r.err); status = REPORT_BAD_TRACE; }
  }
  free(r.l);
  sqlite3_close(r.db);
  return status;
}
