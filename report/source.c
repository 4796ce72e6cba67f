/* report/source.c - the kernel's PTX, one table row per line, with what
 * the trace says about the line: executions, active threads, branch
 * efficiency, global sectors, shared wavefronts and bank conflicts, and
 * (timed traces) the cycles warps waited before issuing it.  The heat of a
 * line is its share of the hottest line's cycles (timed) or, without
 * cycles, of its executions plus bank-conflict replays (the extra
 * wavefronts a warp's shared access costs). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"


typedef struct src_line {
  long long line;
  char *text;
  long long exec, thr, br, div;  /* as line_warp_stats counts them            */
  long long greq, gsec, sreq, wav, conf;   /* the launch's memory requests  */
  double waits[REP_NSTALL];      /* cycles waited before issuing it          */
  long long issued;
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
  /* line numbers from the trace are untrusted: the kernel's first line
   * must lie at or before its last instruction's, far from overflow */
  if (hi < lo || hi > INT32_MAX) {
    html_note(f, "The trace's line numbers for this kernel are inconsistent (a damaged trace): no source is shown.");
    fputs("</section>\n", f);
    return;
  }
  hi++;                                         /* the closing brace */
  bool cut = false;
  if (hi - lo + 1 > r->max_lines) { hi = lo + r->max_lines - 1; cut = true; }
  if (!l->has_warps && !l->has_mem)
    html_note(f, "This launch was recorded at level launch: no per-line numbers (record with --trace-level warp, mem or all).");
  sqlite3_stmt *s = rep_prepare(r, "SELECT line, text FROM ptx_lines WHERE file_id = ?1 AND line BETWEEN ?2 AND ?3");
  if (!s) { fputs("</section>\n", f); return; }
  sqlite3_bind_int64(s, 1, l->file_id);
  sqlite3_bind_int64(s, 2, lo);
  sqlite3_bind_int64(s, 3, hi);
  size_t span = (size_t)(hi - lo + 1);
  src_line *lines = calloc(span, sizeof *lines);
  int rc = SQLITE_NOMEM;
  while (lines && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    long long line = sqlite3_column_int64(s, 0);
    if (line < lo || line > hi) continue;
    src_line *x = &lines[line - lo];
    x->line = line;
    const char *t = (const char *)sqlite3_column_text(s, 1);
    free(x->text);                              /* a trace may hold a line twice */
    x->text = t ? strdup(t) : NULL;
  }
  rep_finish(r, s, rc);
  /* the per-instruction sums (report/collect.c) added up per line */
  s = r->insn ? rep_prepare(r, "SELECT insn_id, ptx_line FROM instructions WHERE file_id = ?1 AND ptx_line BETWEEN ?2 AND ?3") : NULL;
  if (s && lines) {
    sqlite3_bind_int64(s, 1, l->file_id);
    sqlite3_bind_int64(s, 2, lo);
    sqlite3_bind_int64(s, 3, hi);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
      const rep_insn *in = rep_insn_at(r, sqlite3_column_int64(s, 0));
      long long line = sqlite3_column_int64(s, 1);
      if (!in || line < lo || line > hi) continue;  /* values from the trace are untrusted */
      src_line *x = &lines[line - lo];
      x->exec += in->execs;
      x->thr += in->threads;
      x->br += in->branches;
      x->div += in->divergent;
      x->greq += in->gld_req + in->gst_req;
      x->gsec += in->gld_sec + in->gst_sec;
      x->sreq += in->shl_req + in->shs_req;
      x->wav += in->shl_wav + in->shs_wav;
      x->conf += in->shl_conf + in->shs_conf;
      for (int k = 0; k < REP_NSTALL; k++) x->waits[k] += in->waits[k];
      x->issued += in->issued;
    }
    rep_finish(r, s, rc);
  } else sqlite3_finalize(s);
  bool by_cycles = r->stalls_ready;
  double hot = 0;
  for (size_t i = 0; lines && i < span; i++) {
    src_line *x = &lines[i];
    double cyc = (double)x->issued;
    for (int k = 0; k < REP_NSTALL; k++) cyc += x->waits[k];
    hot = fmax(hot, by_cycles ? cyc : (double)(x->exec + x->conf));
  }
  size_t n = lines ? span : 0;
  fputs("<table class=\"src\">\n<tr><th title=\"PTX line\">line</th>"
        "<th title=\"warp instructions executed (line_warp_stats.inst_executed)\">execs</th>"
        "<th title=\"active threads per warp instruction / 32 (warp execution efficiency)\">threads</th>"
        "<th title=\"branches whose threads all went one way / branches (branch efficiency)\">branch eff</th>"
        "<th title=\"global 32-byte sectors (and sectors per request)\">gl sectors</th>"
        "<th title=\"shared-memory wavefronts (and bank conflicts)\">sh wavefronts</th>"
        "<th title=\"cycles warps waited before issuing the line (and the main reason)\">stall cycles</th>"
        "<th class=\"l\">PTX</th></tr>\n", f);
  long start = ftell(f);
  for (size_t i = 0; i < n; i++) {
    const src_line *x = &lines[i];
    if (!x->text) continue;                     /* no such line in ptx_lines */
    if (ftell(f) - start > r->max_source_bytes) { cut = true; break; }
    long long ex = x->exec, thr = x->thr, br = x->br, dv = x->div, greq = x->greq, gsec = x->gsec;
    long long sreq = x->sreq, wav = x->wav, conf = x->conf;
    double wait = 0, cyc = (double)x->issued;
    int top = -1;
    for (int k = 0; k < REP_NSTALL; k++) {
      wait += x->waits[k];
      if (k != 1 && x->waits[k] > 0 && (top < 0 || x->waits[k] > x->waits[top])) top = k;
    }
    cyc += wait;
    double heat = by_cycles ? cyc : (double)(ex + conf);
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
    if (by_cycles && wait > 0) {
      /* the reasons of the waits, as a tooltip */
      fputs("</td><td title=\"", f);
      for (int k = 0, first = 1; k < REP_NSTALL; k++) {
        if (k == 1 || x->waits[k] <= 0) continue;
        fprintf(f, "%s%s %.0f", first ? "" : ", ", r->stall_name[k], x->waits[k]);
        first = 0;
      }
      fputs("\">", f);
    } else fputs("</td><td>", f);
    if (by_cycles && (x->issued || wait > 0)) {
      html_num(f, (long long)wait);
      if (top >= 0) { fputc(' ', f); html_esc(f, r->stall_name[top]); }
    }
    fputs("</td><td class=\"t\">", f);
    html_esc_n(f, x->text, 240);
    if (x->line == l->fault_line) fputs("</td><td class=\"d\">&#9664; the launch faulted here", f);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
  for (size_t i = 0; i < n; i++) free(lines[i].text);
  free(lines);
  char note[300];
  snprintf(note, sizeof note, "Heat: the line's %s relative to the hottest line.%s",
           by_cycles ? "cycles (issue + stall)" : "executions plus bank-conflict replays (no cycles in a functional trace)",
           cut ? " The kernel is longer than the page's budget of lines and bytes: its first lines are shown." : "");
  html_note(f, note);
  fputs("</section>\n", f);
}
