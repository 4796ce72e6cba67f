/* report/summary.c - the page header (runs, modules, launch
 * configurations) and the metric table of the selected launches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"

static void kv_row(FILE *f, const char *key, const char *value) {
  fprintf(f, "<tr><td>%s</td><td>", key);
  html_esc(f, value);
  fputs("</td></tr>\n", f);
}

/* the GPU's one-line description from runs.gpu_params ("description = ...") */
static void gpu_description(const char *params, char *out, size_t n) {
  out[0] = 0;
  const char *p = params ? strstr(params, "description") : NULL;
  if (!p || (p != params && p[-1] != '\n')) return;
  p = strchr(p, '=');
  if (!p) return;
  p++;
  while (*p == ' ') p++;
  size_t len = strcspn(p, "\n");
  snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), p);
}

static void runs_table(rep *r) {
  FILE *f = r->f;
  sqlite3_stmt *s = rep_prepare(r,
    "SELECT run_id, command_line, tool_version, gpu_config, coalesce(gpu_params, ''), trace_level, coalesce(filters, ''),\n"
    "  started_at, coalesce(finished_at, 'never (the run was killed?)'), exit_status FROM runs WHERE run_id = ?1");
  sqlite3_stmt *m = rep_prepare(r,
    "SELECT coalesce(f.path, '?'), coalesce(m.ptx_version, '?'), coalesce(m.target, '?'), coalesce(m.address_size, 0),\n"
    "  (SELECT group_concat(name, ', ') FROM (SELECT name FROM kernels k WHERE k.module_id = m.module_id AND k.entry ORDER BY kernel_id))\n"
    "FROM modules m LEFT JOIN files f USING (file_id) WHERE m.run_id = ?1 ORDER BY m.module_id");
  if (!s || !m) { sqlite3_finalize(s); sqlite3_finalize(m); return; }
  for (size_t i = 0; i < r->nl; i++) {
    bool seen = false;
    for (size_t j = 0; j < i; j++) seen |= r->l[j].run_id == r->l[i].run_id;
    if (seen) continue;
    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, r->l[i].run_id);
    if (sqlite3_step(s) != SQLITE_ROW) continue;
    fprintf(f, "<h3>Run %lld</h3>\n<table class=\"kv\">\n", r->l[i].run_id);
    kv_row(f, "command", (const char *)sqlite3_column_text(s, 1));
    char buf[400], desc[200];
    gpu_description((const char *)sqlite3_column_text(s, 4), desc, sizeof desc);
    const char *gpu = (const char *)sqlite3_column_text(s, 3);
    if (strcmp(gpu, "functional") == 0) snprintf(buf, sizeof buf, "none: functional run (no timing model, no cycles)");
    else snprintf(buf, sizeof buf, "%s%s%s%s", gpu, desc[0] ? " (" : "", desc, desc[0] ? ")" : "");
    kv_row(f, "GPU model", buf);
    snprintf(buf, sizeof buf, "%s%s%s", (const char *)sqlite3_column_text(s, 5), *sqlite3_column_text(s, 6) ? ", filters " : "",
             (const char *)sqlite3_column_text(s, 6));
    kv_row(f, "trace level", buf);
    snprintf(buf, sizeof buf, "%s to %s, exit status %s", (const char *)sqlite3_column_text(s, 7),
             (const char *)sqlite3_column_text(s, 8),
             sqlite3_column_type(s, 9) == SQLITE_NULL ? "unknown" : (const char *)sqlite3_column_text(s, 9));
    kv_row(f, "time", buf);
    kv_row(f, "ptxemu", (const char *)sqlite3_column_text(s, 2));
    sqlite3_reset(m);
    sqlite3_bind_int64(m, 1, r->l[i].run_id);
    int rc;
    while ((rc = sqlite3_step(m)) == SQLITE_ROW) {
      snprintf(buf, sizeof buf, "%s: PTX %s, %s, %lld-bit addresses; kernels %s", (const char *)sqlite3_column_text(m, 0),
               (const char *)sqlite3_column_text(m, 1), (const char *)sqlite3_column_text(m, 2),
               (long long)sqlite3_column_int64(m, 3),
               sqlite3_column_type(m, 4) == SQLITE_NULL ? "none" : (const char *)sqlite3_column_text(m, 4));
      kv_row(f, "module", buf);
    }
    if (rc != SQLITE_DONE) rep_finish(r, m, rc), m = NULL;
    fputs("</table>\n", f);
    if (!m) break;
  }
  sqlite3_finalize(s);
  sqlite3_finalize(m);
}

static void dims(FILE *f, const long long d[3]) {
  if (d[1] == 1 && d[2] == 1) fprintf(f, "%lld", d[0]);
  else fprintf(f, "%lld&times;%lld&times;%lld", d[0], d[1], d[2]);
}

void rep_summary(rep *r) {
  FILE *f = r->f;
  fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", f);
  runs_table(r);
  fputs("<h3>Launches</h3>\n<table>\n<tr><th>launch</th><th class=\"l\">kernel</th><th>grid</th><th>block</th>"
        "<th>cluster</th><th>dynamic shared</th><th>registers</th><th>static shared</th><th class=\"l\">status</th>"
        "<th class=\"l\">trace level</th><th class=\"l\">GPU model</th><th>cycles</th><th>wall time</th></tr>\n", f);
  for (size_t i = 0; i < r->nl; i++) {
    const rep_launch *l = &r->l[i];
    fprintf(f, "<tr><td>%lld</td><td class=\"l\" title=\"", l->id);
    html_esc(f, l->symbol);
    fputs("\">", f);
    html_esc(f, l->kernel);
    fputs("</td><td>", f);
    dims(f, l->grid);
    fputs("</td><td>", f);
    dims(f, l->block);
    fputs("</td><td>", f);
    dims(f, l->cluster);
    fprintf(f, "</td><td>%lld B</td><td>", l->dyn_shared);
    if (l->registers >= 0) fprintf(f, "%lld", l->registers); else fputs("-", f);
    fputs("</td><td>", f);
    if (l->shared_bytes >= 0) fprintf(f, "%lld B", l->shared_bytes); else fputs("-", f);
    fputs("</td><td class=\"l\">", f);
    html_esc(f, l->status);
    fputs("</td><td class=\"l\">", f);
    html_esc(f, l->level);
    fputs("</td><td class=\"l\">", f);
    html_esc(f, l->gpu);
    fputs("</td><td>", f);
    if (l->cycles >= 0) html_num(f, l->cycles); else fputs("-", f);
    fputs("</td><td>", f);
    if (l->wall_ns >= 0) fprintf(f, "%.3f ms", l->wall_ns / 1e6); else fputs("-", f);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
  if (r->nl_more) {
    char note[160];
    snprintf(note, sizeof note, "%zu more launches are not shown (select them with --launch ID or --kernel NAME).", r->nl_more);
    html_note(f, note);
  }
  /* faults, with the faulting PTX line */
  sqlite3_stmt *s = rep_prepare(r, "SELECT l.fault, i.ptx_line, i.text FROM launches l LEFT JOIN instructions i ON i.insn_id = l.fault_insn_id "
                                   "WHERE l.launch_id = ?1 AND l.fault IS NOT NULL");
  for (size_t i = 0; s && i < r->nl; i++) {
    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, r->l[i].id);
    if (sqlite3_step(s) != SQLITE_ROW) continue;
    fprintf(f, "<p><b>Launch %lld faulted:</b> ", r->l[i].id);
    html_esc(f, (const char *)sqlite3_column_text(s, 0));
    if (sqlite3_column_type(s, 1) != SQLITE_NULL) {
      fprintf(f, " (PTX line %lld: <code>", (long long)sqlite3_column_int64(s, 1));
      html_esc(f, (const char *)sqlite3_column_text(s, 2));
      fputs("</code>)", f);
    }
    fputs("</p>\n", f);
  }
  sqlite3_finalize(s);
  fputs("</section>\n", f);
}

/* ---- the metric table ---- */

typedef struct metric { const char *col, *label, *unit, *what; } metric;
static const metric metrics[] = {
  { "inst_executed", "warp instructions", "", "warp instructions executed" },
  { "thread_inst_executed", "thread instructions", "", "instructions executed by all active threads" },
  { "inst_per_warp", "instructions per warp", "", "warp instructions / warps" },
  { "branch_efficiency", "branch efficiency", "%", "branches whose threads all went one way / branches" },
  { "warp_execution_efficiency", "warp execution efficiency", "%", "active threads per warp instruction / 32" },
  { "warp_nonpred_execution_efficiency", "non-predicated execution efficiency", "%", "threads with a true guard / 32" },
  { "metric_set", "metric definitions", "", "the profiler whose definitions apply: nvprof (Fermi/Kepler: 128-byte "
    "transactions, L1-cached loads in whole lines) or ncu (Nsight Compute: 32-byte sectors)" },
  { "time_us", "modelled time", "us", "cycles at the GPU's clock (timing model)" },
  { "dram_read_throughput", "DRAM read throughput", "GB/s", "DRAM bytes read per modelled second (timing model)" },
  { "dram_write_throughput", "DRAM write throughput", "GB/s", "DRAM bytes written per modelled second (timing model)" },
  { "l2_throughput", "L2 lookup throughput", "GB/s", "32-byte L2 lookups of every kind (loads, stores, atomics, code, "
    "launch) per modelled second (timing model)" },
  { "gld_efficiency", "global load efficiency", "%", "bytes requested / bytes of the transactions moved (nvprof: 128 "
    "per line of an L1-cached load; else 32 per sector)" },
  { "gst_efficiency", "global store efficiency", "%", "bytes written / bytes of the sectors moved" },
  { "gld_transactions_per_request", "global load transactions/request", "", "transactions per warp load: 128-byte lines (nvprof) or 32-byte sectors (ncu)" },
  { "gst_transactions_per_request", "global store transactions/request", "", "transactions per warp store: 128-byte lines (nvprof) or 32-byte sectors (ncu)" },
  { "shared_load_transactions_per_request", "shared load wavefronts/request", "", "shared-memory wavefronts per warp load (1 = no conflict)" },
  { "shared_store_transactions_per_request", "shared store wavefronts/request", "", "shared-memory wavefronts per warp store" },
  { "shared_atom_transactions_per_request", "shared atomic rounds/request", "", "rounds per warp atomic on shared memory: "
    "threads updating one address take one each (contention)" },
  { "shared_efficiency", "shared efficiency", "%", "bytes requested / 128 bytes per wavefront" },
  { "x_conflicts", "shared bank conflicts (ld / st)", "", "extra wavefronts caused by bank conflicts (the emulator's counters)" },
  { "l1_hit_rate", "L1 hit rate", "%", "sectors served by L1 / sectors requested (timing model)" },
  { "l2_hit_rate", "L2 hit rate", "%", "L1 misses served by L2 (timing model)" },
  { "dram_read_bytes", "DRAM read bytes", "B", "bytes read from DRAM (timing model)" },
  { "achieved_occupancy", "achieved occupancy", "%", "average active warps per SM / maximum (timing model)" },
  { "ipc", "IPC", "", "warp instructions per cycle per SM used (timing model)" },
  { "x_cycles", "cycles", "", "cycles of the launch (timing model)" },
  { "x_wall", "emulator wall time", "ms", "how long the emulator took on this machine (not a GPU time)" },
};
#define NMETRICS (sizeof metrics / sizeof metrics[0])

void rep_metrics(rep *r) {
  FILE *f = r->f;
  char ids[REP_ID_LIST];
  rep_id_list(r, ids, sizeof ids);
  char sql[2600];
  snprintf(sql, sizeof sql,
    "SELECT m.*, l.cycles AS x_cycles, l.wall_ns AS x_wall,\n"
    "  l.shared_ld_bank_conflicts AS x_ldc, l.shared_st_bank_conflicts AS x_stc\n"
    "FROM launch_metrics m JOIN launches l USING (launch_id)\n"
    "WHERE m.launch_id IN (%s) ORDER BY m.launch_id", ids);
  sqlite3_stmt *s = rep_prepare(r, sql);
  if (!s) return;
  int idx[NMETRICS], ldc = -1, stc = -1;
  for (size_t k = 0; k < NMETRICS; k++) idx[k] = -1;
  for (int c = 0; c < sqlite3_column_count(s); c++) {
    const char *n = sqlite3_column_name(s, c);
    for (size_t k = 0; k < NMETRICS; k++) if (strcmp(n, metrics[k].col) == 0) idx[k] = c;
    if (strcmp(n, "x_ldc") == 0) ldc = c;
    if (strcmp(n, "x_stc") == 0) stc = c;
  }
  /* one column per launch: collect the rows first (a few at most 64) */
  typedef struct { char v[NMETRICS][48]; } col;
  col *cols = calloc(r->nl, sizeof *cols);
  long long *ids_seen = calloc(r->nl, sizeof *ids_seen);
  size_t n = 0;
  int rc = SQLITE_DONE;
  while (cols && ids_seen && n < r->nl && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    ids_seen[n] = sqlite3_column_int64(s, 0);
    for (size_t k = 0; k < NMETRICS; k++) {
      char *out = cols[n].v[k];
      size_t sz = sizeof cols[n].v[k];
      int c = idx[k];
      if (strcmp(metrics[k].col, "x_conflicts") == 0) {
        if (sqlite3_column_type(s, ldc) == SQLITE_NULL && sqlite3_column_type(s, stc) == SQLITE_NULL) snprintf(out, sz, "-");
        else snprintf(out, sz, "%lld / %lld", rep_int(s, ldc, 0), rep_int(s, stc, 0));
      } else if (c < 0 || sqlite3_column_type(s, c) == SQLITE_NULL) snprintf(out, sz, "-");
      else if (strcmp(metrics[k].col, "x_wall") == 0) snprintf(out, sz, "%.3f", sqlite3_column_double(s, c) / 1e6);
      else if (sqlite3_column_type(s, c) == SQLITE_INTEGER) snprintf(out, sz, "%lld", (long long)sqlite3_column_int64(s, c));
      else if (sqlite3_column_type(s, c) == SQLITE_TEXT) snprintf(out, sz, "%s", (const char *)sqlite3_column_text(s, c));
      else snprintf(out, sz, "%.2f", sqlite3_column_double(s, c));
    }
    n++;
  }
  if (rc != SQLITE_ROW) rep_finish(r, s, rc); else sqlite3_finalize(s);
  fputs("<section id=\"metrics\">\n<h2>Metrics</h2>\n<table>\n<tr><th class=\"l\">metric</th>", f);
  for (size_t i = 0; i < n; i++) fprintf(f, "<th>launch %lld</th>", ids_seen[i]);
  fputs("</tr>\n", f);
  for (size_t k = 0; k < NMETRICS; k++) {
    fprintf(f, "<tr id=\"m-%s\"><td class=\"l\" title=\"", metrics[k].col[0] == 'x' && metrics[k].col[1] == '_' ? metrics[k].col + 2 : metrics[k].col);
    html_esc(f, metrics[k].what);
    fputs("\">", f);
    html_esc(f, metrics[k].label);
    if (metrics[k].unit[0]) fprintf(f, " [%s]", metrics[k].unit);
    fputs("</td>", f);
    for (size_t i = 0; i < n; i++) {
      fputs("<td>", f);
      const char *v = cols[i].v[k];
      /* integers with thousands separators, the rest as formatted */
      char *end;
      long long iv = strtoll(v, &end, 10);
      if (*v && *end == 0 && strcmp(v, "-")) html_num(f, iv); else html_esc(f, v);
      fputs("</td>", f);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n<p class=\"note\">'-': the trace cannot tell (timing metrics of a functional run, memory metrics "
        "without memory records...); hover a metric for its definition, ptxemu-trace(5) has the exact SQL.</p>\n</section>\n", f);
  free(cols);
  free(ids_seen);
}
