/* report/source.c - the kernel's PTX, one table row per line, with what
 * the trace says about the line: executions, active threads, branch
 * efficiency, global sectors, shared wavefronts and bank conflicts, and
 * (timed traces) the cycles warps waited before issuing it.  The heat of a
 * line is its share of the hottest line's cycles (timed) or executions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"

/* ?1 launch, ?2 file, ?3 ?4 line range; the stall columns come from
 * temp.rep_stall (report/stalls.c) or are NULL */
#define LINES_SQL(STALL_CTE, STALL_COLS, STALL_JOIN) \
  "WITH ws AS (SELECT ptx_line, inst_executed, thread_inst_executed, branches, divergent_branches\n" \
  "            FROM line_warp_stats WHERE launch_id = ?1 AND file_id = ?2),\n" \
  "     ms AS (SELECT ptx_line, coalesce(gld_requests, 0) + coalesce(gst_requests, 0) AS greq,\n" \
  "                   coalesce(gld_sectors, 0) + coalesce(gst_sectors, 0) AS gsec,\n" \
  "                   coalesce(shared_ld_requests, 0) + coalesce(shared_st_requests, 0) AS sreq,\n" \
  "                   coalesce(shared_ld_wavefronts, 0) + coalesce(shared_st_wavefronts, 0) AS wav,\n" \
  "                   coalesce(shared_ld_bank_conflicts, 0) + coalesce(shared_st_bank_conflicts, 0) AS conf\n" \
  "            FROM line_mem_stats WHERE launch_id = ?1 AND file_id = ?2)" STALL_CTE "\n" \
  "SELECT p.line, p.text, ws.inst_executed, ws.thread_inst_executed, ws.branches, ws.divergent_branches,\n" \
  "  ms.greq, ms.gsec, ms.sreq, ms.wav, ms.conf, " STALL_COLS "\n" \
  "FROM ptx_lines p LEFT JOIN ws ON ws.ptx_line = p.line LEFT JOIN ms ON ms.ptx_line = p.line " STALL_JOIN "\n" \
  "WHERE p.file_id = ?2 AND p.line BETWEEN ?3 AND ?4 ORDER BY p.line"

static const char lines_timed_sql[] = LINES_SQL(
  ",\n     st AS (SELECT line, sum(waits) AS waits, sum(waits) + sum(insts) AS cycles FROM temp.rep_stall WHERE file_id = ?2 GROUP BY line),\n"
  "     top AS (SELECT line, stall_id, max(waits) AS w FROM temp.rep_stall WHERE file_id = ?2 AND stall_id <> 1 AND waits > 0 GROUP BY line)",
  "st.waits, st.cycles, top.stall_id",
  "LEFT JOIN st ON st.line = p.line LEFT JOIN top ON top.line = p.line");
static const char lines_functional_sql[] = LINES_SQL("", "NULL, NULL, NULL", "");

enum { C_LINE, C_TEXT, C_EXEC, C_THR, C_BR, C_DIV, C_GREQ, C_GSEC, C_SREQ, C_WAV, C_CONF, C_WAIT, C_CYC, C_TOP };

typedef struct src_line {
  long long line;
  char *text;
  long long v[C_TOP - C_EXEC];   /* C_EXEC .. C_CYC; the stall columns -1 when NULL */
  int top;                       /* main stall reason, -1: none              */
} src_line;

void rep_source(rep *r, const rep_launch *l) {
  FILE *f = r->f;
  fprintf(f, "<section id=\"source-%lld\">\n<h3>PTX source, annotated</h3>\n", l->id);
  long long lo = l->kernel_line, hi;
  hi = rep_scalar(r, "SELECT max(ptx_line) FROM instructions WHERE kernel_id = ?1 AND file_id = ?2", l->kernel_id, l->file_id, -1);
  if (lo <= 0) lo = rep_scalar(r, "SELECT min(ptx_line) FROM instructions WHERE kernel_id = ?1 AND file_id = ?2", l->kernel_id, l->file_id, -1);
  if (l->file_id < 0 || hi < 0 || lo < 0) {
    html_note(f, "The trace holds no PTX text for this kernel (loaded from an object without line information?).");
    fputs("</section>\n", f);
    return;
  }
  hi++;                                         /* the closing brace */
  bool cut = false;
  if (hi - lo + 1 > r->max_lines) { hi = lo + r->max_lines - 1; cut = true; }
  if (!l->has_warps && !l->has_mem)
    html_note(f, "This launch was recorded at level launch: no per-line numbers (record with --trace-level warp, mem or all).");
  sqlite3_stmt *s = rep_prepare(r, l->timed && r->stalls_ready ? lines_timed_sql : lines_functional_sql);
  if (!s) { fputs("</section>\n", f); return; }
  sqlite3_bind_int64(s, 1, l->id);
  sqlite3_bind_int64(s, 2, l->file_id);
  sqlite3_bind_int64(s, 3, lo);
  sqlite3_bind_int64(s, 4, hi);
  bool by_cycles = l->timed && r->stalls_ready;
  /* the rows first: the heat scale needs the hottest line */
  src_line *lines = calloc((size_t)(hi - lo + 1), sizeof *lines);
  size_t n = 0;
  double hot = 0;
  int rc = SQLITE_NOMEM;
  while (lines && n < (size_t)(hi - lo + 1) && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    src_line *x = &lines[n++];
    x->line = sqlite3_column_int64(s, C_LINE);
    x->text = strdup((const char *)sqlite3_column_text(s, C_TEXT));
    for (int c = C_EXEC; c <= C_CYC; c++) x->v[c - C_EXEC] = rep_int(s, c, c >= C_WAIT ? -1 : 0);
    x->top = (int)rep_int(s, C_TOP, -1);
    hot = fmax(hot, (double)(by_cycles ? x->v[C_CYC - C_EXEC] : x->v[0]));
  }
  if (rc == SQLITE_ROW) rc = SQLITE_DONE;
  rep_finish(r, s, rc);
  fputs("<table class=\"src\">\n<tr><th title=\"PTX line\">line</th>"
        "<th title=\"warp instructions executed (line_warp_stats.inst_executed)\">execs</th>"
        "<th title=\"active threads per warp instruction / 32 (warp execution efficiency)\">threads</th>"
        "<th title=\"branches whose threads all went one way / branches (branch efficiency)\">branch eff</th>"
        "<th title=\"global 32-byte sectors (and sectors per request)\">gl sectors</th>"
        "<th title=\"shared-memory wavefronts (and bank conflicts)\">sh wavefronts</th>"
        "<th title=\"cycles warps waited before issuing the line (and the main reason)\">stall cycles</th>"
        "<th class=\"l\">PTX</th></tr>\n", f);
  for (size_t i = 0; i < n; i++) {
    const src_line *x = &lines[i];
    long long ex = x->v[0], thr = x->v[1], br = x->v[2], dv = x->v[3], greq = x->v[4], gsec = x->v[5];
    long long sreq = x->v[6], wav = x->v[7], conf = x->v[8], wait = x->v[9], cyc = x->v[10];
    double heat = (double)(by_cycles ? cyc : ex);
    int h = hot > 0 && heat > 0 ? (int)ceil(9 * heat / hot) : 0;
    fprintf(f, "<tr id=\"l%lld-%lld\"", l->id, x->line);
    if (h > 0) fprintf(f, " class=\"h%d\"", h > 9 ? 9 : h);
    fprintf(f, "><td>%lld</td><td>", x->line);
    if (ex > 0) html_num(f, ex);
    fputs("</td>", f);
    if (ex > 0) fprintf(f, "<td>%.0f%%</td>", 100.0 * (double)thr / (32.0 * (double)ex)); else fputs("<td></td>", f);
    if (br > 0) fprintf(f, "<td%s>%.0f%%</td>", dv ? " class=\"d\"" : "", 100.0 * (double)(br - dv) / (double)br);
    else fputs("<td></td>", f);
    fputs("<td>", f);
    if (greq > 0) { html_num(f, gsec); fprintf(f, " (%.1f)", (double)gsec / (double)greq); }
    fputs(conf > 0 ? "</td><td class=\"d\">" : "</td><td>", f);
    if (sreq > 0) { html_num(f, wav); fputs(" (", f); html_num(f, conf); fputc(')', f); }
    fputs("</td><td>", f);
    if (wait >= 0) {
      html_num(f, wait);
      if (x->top >= 0 && x->top < REP_NSTALL) { fputc(' ', f); html_esc(f, r->stall_name[x->top]); }
    }
    fputs("</td><td class=\"t\">", f);
    html_esc_n(f, x->text, 240);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
  for (size_t i = 0; i < n; i++) free(lines[i].text);
  free(lines);
  char note[300];
  snprintf(note, sizeof note, "Heat: the line's %s relative to the hottest line.%s", by_cycles ? "cycles (issue + stall)" : "executions",
           cut ? " The kernel is longer than the page's line budget: the first lines are shown." : "");
  html_note(f, note);
  fputs("</section>\n", f);
}
