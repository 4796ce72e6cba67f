/* cli/cmd_stats.c - "ptxemu stats TRACE.db": the metric views of a trace
 * database (ptxemu-trace(5)) as a table, one column per launch, or the
 * per-PTX-line profile of each launch.  Everything printed comes from the
 * views, so it is what a SQL query on the same file gives. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/source_file.h"
#include "cli/cli.h"
#include "report/report.h"
#include "traces/trace.h"
#include "util/demangle.h"
#include "util/num.h"

static void usage(FILE *f) {
  fputs("usage: ptxemu stats [options] TRACE.db\n"
        "  --run N         launches of run N (default: the last run; 'all': every run)\n"
        "  --launch ID     only launch ID (launches.launch_id; repeatable)\n"
        "  --by-line       per PTX line: executions, efficiencies, transactions per request,\n"
        "                  and the CUDA line (file:line) of PTX compiled with -lineinfo or -G\n"
        "  --by-cuda-line  the same per CUDA source line (the sums of its PTX lines), with its text\n"
        "  --source-dir DIR  where the CUDA sources are (default: their .file path, beside the\n"
        "                  PTX, beside the trace)\n"
        "  --csv           machine-readable: launch_id,kernel,metric,value (or the per-line columns)\n"
        "Prints the metric views of a trace written by 'ptxemu run --trace' (see\n"
        "ptxemu-trace(5) for every definition); '-' is a metric the trace cannot\n"
        "tell (timing metrics of a functional run, memory metrics at level warp...).\n"
        "metric_set names the profiler whose definitions apply: nvprof on fermi and\n"
        "kepler (128-byte transactions), ncu (Nsight Compute, 32-byte sectors) otherwise.\n"
        "time_us and the throughputs are the modelled GPU's (cycles at its clock);\n"
        "emulator_wall_ms is how long the emulator itself took.\n", f);
}

/* Metrics in print order, with their unit. */
static const struct { const char *name, *unit; } metric_list[] = {
  { "metric_set", "" },
  { "cycles", "" }, { "time_us", "us" }, { "dram_read_throughput", "GB/s" }, { "dram_write_throughput", "GB/s" },
  { "l2_throughput", "GB/s" },
  { "inst_executed", "" }, { "thread_inst_executed", "" }, { "inst_per_warp", "" }, { "sass_inst_per_warp", "" },
  { "branch_efficiency", "%" }, { "warp_execution_efficiency", "%" }, { "warp_nonpred_execution_efficiency", "%" },
  { "gld_efficiency", "%" }, { "gst_efficiency", "%" }, { "gld_transactions", "" }, { "gst_transactions", "" },
  { "gld_transactions_per_request", "" }, { "gst_transactions_per_request", "" }, { "shared_load_transactions_per_request", "" },
  { "shared_store_transactions_per_request", "" }, { "shared_atom_transactions_per_request", "" }, { "shared_efficiency", "%" },
  { "l1_hit_rate", "%" }, { "l2_hit_rate", "%" }, { "dram_read_bytes", "" }, { "achieved_occupancy", "%" }, { "ipc", "" },
  { "emulator_wall_ms", "ms, emulator itself" },
};
#define NMETRICS (sizeof metric_list / sizeof metric_list[0])

static void fmt_value(sqlite3_stmt *s, int col, char *out, size_t n) {
  switch (sqlite3_column_type(s, col)) {
  case SQLITE_NULL: snprintf(out, n, "-"); break;
  case SQLITE_INTEGER: snprintf(out, n, "%lld", (long long)sqlite3_column_int64(s, col)); break;
  case SQLITE_FLOAT: {
    double v = sqlite3_column_double(s, col);
    if (v == (double)(long long)v && (v > 1e6 || v < -1e6)) snprintf(out, n, "%.0f", v);
    else snprintf(out, n, "%.2f", v);
    break;
  }
  default: snprintf(out, n, "%s", (const char *)sqlite3_column_text(s, col)); break;
  }
}

static void csv_field(const char *s) {
  if (!strpbrk(s, ",\"\n")) { fputs(s, stdout); return; }
  putchar('"');
  for (; *s; s++) { if (*s == '"') putchar('"'); putchar(*s); }
  putchar('"');
}

typedef struct col { char head[3][40]; char val[NMETRICS][32]; } col;

/* A kernel's name for a column head: demangled, without its parameter
 * list and the return type of a template ("kernel<256, float>"). */
static void short_name(const char *sym, char *out, size_t n) {
  char dm[1024];
  if (!demangle(sym, dm, sizeof dm)) snprintf(dm, sizeof dm, "%.1000s", sym);
  size_t len = strlen(dm);
  if (len && dm[len - 1] == ')') {
    int depth = 0;
    for (size_t k = len; k-- > 0;) {
      if (dm[k] == ')') depth++;
      else if (dm[k] == '(' && --depth == 0) { dm[k] = 0; break; }
    }
  }
  const char *p = dm;
  if (strncmp(p, "void ", 5) == 0 && strchr(p, '<')) p += 5;
  size_t pl = strlen(p) < n ? strlen(p) : n - 1;
  memcpy(out, p, pl);
  out[pl] = 0;
}

static int print_metrics(sqlite3 *db, const char *where, bool csv) {
  char sql[1024];
  snprintf(sql, sizeof sql, "SELECT * FROM launch_metrics WHERE %s ORDER BY launch_id", where);
  sqlite3_stmt *s;
  if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) { fprintf(stderr, "ptxemu stats: %s\n", sqlite3_errmsg(db)); return EXIT_DATAERR; }
  int idx[NMETRICS];
  for (size_t m = 0; m < NMETRICS; m++) {
    idx[m] = -1;
    for (int c = 0; c < sqlite3_column_count(s); c++) if (strcmp(sqlite3_column_name(s, c), metric_list[m].name) == 0) idx[m] = c;
  }
  col *cols = NULL;
  size_t ncols = 0, cap = 0;
  int rc;
  if (csv) puts("launch_id,kernel,metric,value");
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    if (csv) {
      for (size_t m = 0; m < NMETRICS; m++) {
        if (idx[m] < 0) continue;
        printf("%lld,", (long long)sqlite3_column_int64(s, 0));
        csv_field((const char *)sqlite3_column_text(s, 1));
        printf(",%s,", metric_list[m].name);
        if (sqlite3_column_type(s, idx[m]) == SQLITE_TEXT) csv_field((const char *)sqlite3_column_text(s, idx[m]));
        else if (sqlite3_column_type(s, idx[m]) != SQLITE_NULL) printf("%.17g", sqlite3_column_double(s, idx[m]));
        putchar('\n');
      }
      continue;
    }
    if (ncols == cap) { cap = cap ? cap * 2 : 8; col *nc = realloc(cols, cap * sizeof *cols); if (!nc) break; cols = nc; }
    col *c = &cols[ncols++];
    snprintf(c->head[0], sizeof c->head[0], "launch %lld", (long long)sqlite3_column_int64(s, 0));
    short_name((const char *)sqlite3_column_text(s, 1), c->head[1], sizeof c->head[1]);
    snprintf(c->head[2], sizeof c->head[2], "%s", (const char *)sqlite3_column_text(s, 3));
    for (size_t m = 0; m < NMETRICS; m++) {
      if (idx[m] < 0) snprintf(c->val[m], sizeof c->val[m], "?");
      else fmt_value(s, idx[m], c->val[m], sizeof c->val[m]);
    }
  }
  if (rc != SQLITE_DONE) fprintf(stderr, "ptxemu stats: %s\n", sqlite3_errmsg(db));
  sqlite3_finalize(s);
  if (csv) return rc == SQLITE_DONE ? EXIT_OK : EXIT_DATAERR;
  if (!ncols) { printf("no launches\n"); free(cols); return EXIT_OK; }
  /* a block of columns at a time, as many as fit in 120 characters */
  const int namew = 42;
  for (size_t first = 0; first < ncols;) {
    size_t last = first;
    int width = namew;
    int w[64];
    while (last < ncols && last - first < 64) {
      int cw = 10;
      for (int h = 0; h < 3; h++) if ((int)strlen(cols[last].head[h]) + 2 > cw) cw = (int)strlen(cols[last].head[h]) + 2;
      for (size_t m = 0; m < NMETRICS; m++) if ((int)strlen(cols[last].val[m]) + 2 > cw) cw = (int)strlen(cols[last].val[m]) + 2;
      if (last > first && width + cw > 120) break;
      w[last - first] = cw;
      width += cw;
      last++;
    }
    static const char *const heads[3] = { "", "kernel", "status" };
    for (int h = 0; h < 3; h++) {
      printf("%-*s", namew, heads[h]);
      for (size_t c = first; c < last; c++) printf("%*s", w[c - first], cols[c].head[h]);
      putchar('\n');
    }
    for (size_t m = 0; m < NMETRICS; m++) {
      char name[64];
      snprintf(name, sizeof name, "%s%s%s%s", metric_list[m].name, metric_list[m].unit[0] ? " [" : "", metric_list[m].unit,
               metric_list[m].unit[0] ? "]" : "");
      printf("%-*s", namew, name);
      for (size_t c = first; c < last; c++) printf("%*s", w[c - first], cols[c].val[m]);
      putchar('\n');
    }
    first = last;
    if (first < ncols) putchar('\n');
  }
  free(cols);
  return EXIT_OK;
}

/* The text of line n of a CUDA source (cached: the last file read). */
typedef struct src_cache { char *path; char **lines; size_t n; const char *dir, *trace; } src_cache;

static const char *src_text(src_cache *c, const char *cuda_path, const char *ptx_path, long long n) {
  if (!cuda_path) return "";
  if (!c->path || strcmp(c->path, cuda_path)) {
    src_free_lines(c->lines);
    free(c->path);
    c->lines = NULL;
    c->n = 0;
    c->path = strdup(cuda_path);
    const char *beside[2] = { ptx_path, c->trace };
    char *found = src_find(cuda_path, c->dir, beside, 2);
    if (found) c->lines = src_read_lines(found, &c->n);
    free(found);
  }
  return c->lines && n >= 1 && (size_t)n <= c->n ? c->lines[n - 1] : "";
}

/* by PTX line (cuda = false) or by CUDA line (cuda = true) */
static int print_by_line(sqlite3 *db, const char *where, bool csv, bool cuda, src_cache *sc) {
  char sql[4096];
  const char *key = cuda ? "src_file_id, src_line" : "file_id, ptx_line";
  const char *wsrc = cuda ? "cuda_line_warp_stats" : "line_warp_stats", *msrc = cuda ? "cuda_line_mem_stats" : "line_mem_stats";
  snprintf(sql, sizeof sql,
    "WITH sel AS (SELECT launch_id FROM launches WHERE %s),\n"
    " u AS (SELECT launch_id, %s, inst_executed, thread_inst_executed, branches, divergent_branches,\n"
    "              NULL AS gld_requests, NULL AS gld_sectors, NULL AS gst_requests, NULL AS gst_sectors,\n"
    "              NULL AS shl_requests, NULL AS shl_wavefronts, NULL AS shs_requests, NULL AS shs_wavefronts,\n"
    "              NULL AS sha_requests, NULL AS sha_rounds, NULL AS gld_lines, NULL AS gst_lines, %s AS o1, NULL AS o2, %s AS sl\n"
    "       FROM %s WHERE launch_id IN sel\n"
    "       UNION ALL\n"
    "       SELECT launch_id, %s, NULL, NULL, NULL, NULL, gld_requests, gld_sectors, gst_requests, gst_sectors,\n"
    "              shared_ld_requests, shared_ld_wavefronts, shared_st_requests, shared_st_wavefronts,\n"
    "              shared_atom_requests, shared_atom_rounds, gld_lines, gst_lines, NULL, %s, %s\n"
    "       FROM %s WHERE launch_id IN sel),\n"
    " k AS (SELECT launch_id, %s, sum(inst_executed) AS inst, sum(thread_inst_executed) AS tinst,\n"
    "              sum(branches) AS br, sum(divergent_branches) AS div, sum(gld_requests) AS glr, sum(gld_sectors) AS gls,\n"
    "              sum(gst_requests) AS gsr, sum(gst_sectors) AS gss, sum(shl_requests) AS lr, sum(shl_wavefronts) AS lw,\n"
    "              sum(shs_requests) AS sr, sum(shs_wavefronts) AS sw, sum(sha_requests) AS ar, sum(sha_rounds) AS aw,\n"
    "              sum(gld_lines) AS gll, sum(gst_lines) AS gsl, coalesce(max(o1), max(o2)) AS other, max(sl) AS sl\n"
    "       FROM u GROUP BY launch_id, %s)\n"
    "SELECT k.launch_id, kn.name, %s, k.inst, 100.0 * k.tinst / (32.0 * k.inst),\n"
    "  CASE WHEN k.br > 0 THEN 100.0 * (k.br - k.div) / k.br END,\n"
        /* transactions as the GPU's profiler defines them (128-byte lines for nvprof) */
    "  1.0 * CASE WHEN l.metric_set = 'nvprof' THEN k.gll ELSE k.gls END / nullif(k.glr, 0),\n"
    "  1.0 * CASE WHEN l.metric_set = 'nvprof' THEN k.gsl ELSE k.gss END / nullif(k.gsr, 0), 1.0 * k.lw / nullif(k.lr, 0), 1.0 * k.sw / nullif(k.sr, 0),\n"
    "  %s, sf.path, %s, (SELECT path FROM files WHERE file_id = kn.file_id), 1.0 * k.aw / nullif(k.ar, 0)\n"
    "FROM k JOIN launches l ON l.launch_id = k.launch_id JOIN kernels kn ON kn.kernel_id = l.kernel_id\n"
    "  %s\n"
    "ORDER BY k.launch_id, %s",
    where, key, cuda ? "ptx_lines" : "src_file_id", cuda ? "NULL" : "src_line", wsrc, key,
    cuda ? "ptx_lines" : "src_file_id", cuda ? "NULL" : "src_line", msrc, key, key,
    cuda ? "k.src_line" : "k.ptx_line",
    cuda ? "k.other" : "coalesce(pl.text, '')",
    cuda ? "k.src_line" : "k.sl",
    cuda ? "JOIN files sf ON sf.file_id = k.src_file_id"
         : "LEFT JOIN ptx_lines pl ON pl.file_id = k.file_id AND pl.line = k.ptx_line LEFT JOIN files sf ON sf.file_id = k.other",
    cuda ? "sf.path, k.src_line" : "k.ptx_line");
  sqlite3_stmt *s;
  if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) { fprintf(stderr, "ptxemu stats: %s\n", sqlite3_errmsg(db)); return EXIT_DATAERR; }
  static const char *const names[] = { "launch_id", "kernel", "ptx_line", "inst_executed", "warp_execution_efficiency",
    "branch_efficiency", "gld_transactions_per_request", "gst_transactions_per_request",
    "shared_load_transactions_per_request", "shared_store_transactions_per_request", "shared_atom_transactions_per_request", "text",
    "cuda_file", "cuda_line" };
  long long cur = -1;
  int rc;
  /* the CUDA column only where some kernel of the launches has .loc lines */
  bool any_cuda = cuda;
  char q[900];
  snprintf(q, sizeof q, "SELECT EXISTS (SELECT 1 FROM instructions WHERE src_line IS NOT NULL AND kernel_id IN "
                        "(SELECT kernel_id FROM launches WHERE %s))", where);
  sqlite3_stmt *qs;
  if (!cuda && sqlite3_prepare_v2(db, q, -1, &qs, NULL) == SQLITE_OK) {
    if (sqlite3_step(qs) == SQLITE_ROW) any_cuda = sqlite3_column_int(qs, 0) != 0;
    sqlite3_finalize(qs);
  }
  if (csv) {
    if (cuda)   /* per CUDA line: the file and line first, the PTX lines last */
      puts("launch_id,kernel,cuda_file,cuda_line,inst_executed,warp_execution_efficiency,branch_efficiency,"
           "gld_transactions_per_request,gst_transactions_per_request,shared_load_transactions_per_request,"
           "shared_store_transactions_per_request,shared_atom_transactions_per_request,ptx_lines,text");
    else { for (int i = 0; i < 14; i++) printf("%s%s", i ? "," : "", names[i]); putchar('\n'); }
  }
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    char v[12][48];
    for (int i = 0; i < 10; i++) fmt_value(s, i, v[i], sizeof v[i]);
    fmt_value(s, 11, v[11], sizeof v[11]);      /* shared atomics: rounds per request */
    const char *text = (const char *)sqlite3_column_text(s, 10);
    const char *cfile = (const char *)sqlite3_column_text(s, 11);
    long long cline = sqlite3_column_int64(s, 12);
    bool has_cline = sqlite3_column_type(s, 12) != SQLITE_NULL && cfile;
    const char *ptx_path = (const char *)sqlite3_column_text(s, 13);
    char sha[48];
    fmt_value(s, 14, sha, sizeof sha);          /* shared atomics: rounds per request */
    if (!text) text = "";
    if (csv) {
      for (int i = 0; i < 10; i++) {
        if (i) putchar(',');
        if (i == 1) csv_field(v[i]);
        else if (cuda && i == 2) { csv_field(cfile ? cfile : ""); printf(",%lld", cline); }
        else if (strcmp(v[i], "-")) fputs(v[i], stdout);
      }
      putchar(',');
      if (strcmp(sha, "-")) fputs(sha, stdout);
      putchar(',');
      csv_field(text);
      if (cuda) { putchar(','); csv_field(src_text(sc, cfile, ptx_path, cline)); }
      else if (has_cline) { putchar(','); csv_field(cfile); printf(",%lld", cline); }
      else fputs(",,", stdout);
      putchar('\n');
      continue;
    }
    long long id = sqlite3_column_int64(s, 0);
    if (id != cur) {
      if (cur >= 0) putchar('\n');
      cur = id;
      char dm[1024];
      printf("launch %lld %s\n", id, demangle_or_self(v[1], dm, sizeof dm));
      if (cuda) printf("%-16s %10s %7s %7s %7s %7s %7s %7s %7s  %s\n", "CUDA line", "execs", "warp%", "branch%",
                       "gld t/r", "gst t/r", "shl t/r", "shs t/r", "sha t/r", "source (PTX lines)");
      else printf("%6s %10s %7s %7s %7s %7s %7s %7s %7s  %-*s%s\n", "line", "execs", "warp%", "branch%",
                  "gld t/r", "gst t/r", "shl t/r", "shs t/r", "sha t/r", any_cuda ? 17 : 0, any_cuda ? "CUDA line" : "", "PTX");
    }
    char src[64], where_[64] = "";
    const char *t = cuda ? src_text(sc, cfile, ptx_path, cline) : text;
    size_t o = 0;
    for (; *t && o < sizeof src - 1; t++) {
      bool blank = *t == ' ' || *t == '\t';
      if (blank && (!o || src[o - 1] == ' ')) continue;
      src[o++] = blank ? ' ' : *t;
    }
    src[o] = 0;
    if (has_cline) snprintf(where_, sizeof where_, "%.40s:%lld", isa_path_base(cfile), cline);
    if (cuda) printf("%-16s %10s %7s %7s %7s %7s %7s %7s %7s  %s  (PTX %s)\n", where_, v[3], v[4], v[5], v[6], v[7], v[8], v[9], sha, src, text);
    else {
      char col[80] = "";
      if (any_cuda) snprintf(col, sizeof col, "%-16s ", where_);
      printf("%6s %10s %7s %7s %7s %7s %7s %7s %7s  %s%s\n", v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], sha, col, src);
    }
  }
  if (rc != SQLITE_DONE) { fprintf(stderr, "ptxemu stats: %s\n", sqlite3_errmsg(db)); sqlite3_finalize(s); return EXIT_DATAERR; }
  sqlite3_finalize(s);
  if (cur < 0 && !csv) printf(cuda ? "no per-line data with CUDA lines (compile with nvcc -lineinfo or -G, record with --trace-level warp, mem or all)\n"
                                   : "no per-line data (record with --trace-level warp, mem or all)\n");
  return EXIT_OK;
}

/* Warp states of each timed launch, from the stall_breakdown view (the one
 * definition: emu/timing.h, doc/stall-reasons.md), largest share first. */
static int print_stalls(sqlite3 *db, const char *where, bool csv) {
  char sql[1024];
  snprintf(sql, sizeof sql, "SELECT launch_id, kernel, reason, value FROM stall_breakdown WHERE %s AND value > 0 "
                            "ORDER BY launch_id, value DESC", where);
  sqlite3_stmt *s;
  if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) { fprintf(stderr, "ptxemu stats: %s\n", sqlite3_errmsg(db)); return EXIT_DATAERR; }
  long long cur = -1;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    long long id = sqlite3_column_int64(s, 0);
    const char *reason = (const char *)sqlite3_column_text(s, 2);
    double v = sqlite3_column_double(s, 3);
    if (csv) {
      printf("%lld,", id);
      csv_field((const char *)sqlite3_column_text(s, 1));
      printf(",stall_%s,%.17g\n", reason, v);
      continue;
    }
    if (id != cur) {
      printf("%swarp states of launch %lld %s [%% of warp cycles]:", cur < 0 ? "\n" : "\n", id, sqlite3_column_text(s, 1));
      cur = id;
    }
    printf(" %s %.1f", reason, v);
  }
  if (cur >= 0 && !csv) putchar('\n');
  if (rc != SQLITE_DONE) fprintf(stderr, "ptxemu stats: %s\n", sqlite3_errmsg(db));
  sqlite3_finalize(s);
  return rc == SQLITE_DONE ? EXIT_OK : EXIT_DATAERR;
}

int cmd_stats(int argc, char **argv) {
  const char *path = NULL, *run = NULL;
  bool csv = false, by_line = false, by_cuda = false;
  src_cache sc = { 0 };
  char launches[512] = "";
  size_t ll = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_help(a)) { usage(stdout); return EXIT_OK; }
    else if (strcmp(a, "--run") == 0 && i + 1 < argc) run = argv[++i];
    else if (strcmp(a, "--launch") == 0 && i + 1 < argc) {
      int64_t id;
      if (num_s64(argv[++i], 1, INT64_MAX, &id)) { fprintf(stderr, "ptxemu stats: bad --launch '%s': a launch id from 1 to 2^63-1\n", argv[i]); return EXIT_USAGE; }
      if (ll > sizeof launches - 32) { fprintf(stderr, "ptxemu stats: too many --launch options\n"); return EXIT_USAGE; }
      ll += (size_t)snprintf(launches + ll, sizeof launches - ll, "%s%lld", ll ? ", " : "", (long long)id);
    }
    else if (strcmp(a, "--csv") == 0) csv = true;
    else if (strcmp(a, "--by-line") == 0) by_line = true;
    else if (strcmp(a, "--by-cuda-line") == 0) by_cuda = true;
    else if (strcmp(a, "--source-dir") == 0 && i + 1 < argc) sc.dir = argv[++i];
    else if (a[0] == '-' && a[1]) { fprintf(stderr, "ptxemu stats: unknown option '%s'\n", a); usage(stderr); return EXIT_USAGE; }
    else if (!path) path = a;
    else { fprintf(stderr, "ptxemu stats: more than one trace\n"); return EXIT_USAGE; }
  }
  if (!path) { usage(stderr); return EXIT_USAGE; }
  sc.trace = path;
  char err[600];
  bool unreadable;
  sqlite3 *db = trace_open_read(path, err, sizeof err, &unreadable);
  if (!db) { fprintf(stderr, "ptxemu stats: %s\n", err); return unreadable ? EXIT_NOINPUT : EXIT_DATAERR; }
  sqlite3_stmt *s;
  long long appid = -1, version = -1;
  if (sqlite3_prepare_v2(db, "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version)",
                         -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
    appid = sqlite3_column_int64(s, 0);
    version = sqlite3_column_int64(s, 1);
  }
  sqlite3_finalize(s);
  if (appid != TRACE_APPLICATION_ID) {
    fprintf(stderr, "ptxemu stats: '%s' is not a ptxemu trace%s\n", path, appid < 0 ? " (not a SQLite database)" : "");
    sqlite3_close(db);
    return EXIT_DATAERR;
  }
  if (version != TRACE_SCHEMA_VERSION) fprintf(stderr, "ptxemu stats: warning: trace schema version %lld, expected %d\n", version, TRACE_SCHEMA_VERSION);
  /* which launches */
  char where[700];
  long long run_id = 0;
  if (ll) snprintf(where, sizeof where, "launch_id IN (%s)", launches);
  else if (run && strcmp(run, "all") == 0) snprintf(where, sizeof where, "1");
  else {
    if (run) {
      int64_t id;
      if (num_s64(run, 1, INT64_MAX, &id)) { fprintf(stderr, "ptxemu stats: bad --run '%s': a run id from 1 to 2^63-1, or all\n", run); sqlite3_close(db); return EXIT_USAGE; }
      run_id = id;
    } else if (sqlite3_prepare_v2(db, "SELECT max(run_id) FROM runs", -1, &s, NULL) == SQLITE_OK) {
      if (sqlite3_step(s) == SQLITE_ROW) run_id = sqlite3_column_int64(s, 0);
      sqlite3_finalize(s);
    }
    snprintf(where, sizeof where, "launch_id IN (SELECT launch_id FROM launches WHERE run_id = %lld)", run_id);
  }
  if (!csv && run_id && sqlite3_prepare_v2(db, "SELECT command_line, gpu_config, trace_level, coalesce(filters, ''), started_at, "
                                               "coalesce(finished_at, 'never (killed?)'), exit_status FROM runs WHERE run_id = ?",
                                           -1, &s, NULL) == SQLITE_OK) {
    sqlite3_bind_int64(s, 1, run_id);
    if (sqlite3_step(s) == SQLITE_ROW)
      printf("run %lld: %s\n  config %s, trace level %s%s%s, started %s, finished %s\n\n", run_id, sqlite3_column_text(s, 0),
             sqlite3_column_text(s, 1), sqlite3_column_text(s, 2), *sqlite3_column_text(s, 3) ? ", filters " : "",
             sqlite3_column_text(s, 3), sqlite3_column_text(s, 4), sqlite3_column_text(s, 5));
    sqlite3_finalize(s);
  }
  int rc = by_line || by_cuda ? print_by_line(db, where, csv, by_cuda, &sc) : print_metrics(db, where, csv);
  if (by_line && by_cuda && rc == EXIT_OK) { if (!csv) putchar('\n'); rc = print_by_line(db, where, csv, false, &sc); }
  if (rc == EXIT_OK && !by_line && !by_cuda) rc = print_stalls(db, where, csv);
  src_free_lines(sc.lines);
  free(sc.path);
  sqlite3_close(db);
  return rc;
}
