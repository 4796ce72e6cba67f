/* report/occupancy.c - active warps per SM over the cycles of a launch:
 * from the timing model's sm_samples when the trace has them, else from
 * the blocks' start and end cycles, else a note (functional runs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"

#define LEFT 150.0
#define CHART_W 1000.0
#define CHART_H 140.0
#define TOP 10.0

/* column, average active warps, average eligible warps (or NULL) */
static const char samples_sql[] =
  "SELECT CAST((cycle - ?2) / ?3 AS INTEGER) AS bk, avg(active_warps), avg(eligible_warps)\n"
  "FROM sm_samples WHERE launch_id = ?1 GROUP BY bk ORDER BY bk";
/* resident warps of the blocks spread over the columns, per SM that ran blocks */
static const char blocks_sql[] =
  "WITH iv AS (SELECT warps AS w, start_cycle AS s, end_cycle AS e FROM blocks\n"
  "            WHERE launch_id = ?1 AND start_cycle IS NOT NULL AND end_cycle > start_cycle),\n"
  "     b AS (SELECT w, s, e, max(CAST((s - ?2) / ?3 AS INTEGER), 0) AS b0,\n"
  "                 min(CAST((e - ?2) / ?3 - 1e-9 AS INTEGER), ?4 - 1) AS b1 FROM iv)\n"
  "SELECT b0 + c.k AS bk,\n"
  "  sum(w * (min(e, ?2 + (b0 + c.k + 1) * ?3) - max(s, ?2 + (b0 + c.k) * ?3))) / ?3\n"
  "    / (SELECT count(DISTINCT sm) FROM blocks WHERE launch_id = ?1), NULL\n"
  "FROM b JOIN counter c ON c.k <= b1 - b0 GROUP BY bk ORDER BY bk";

void rep_occupancy(rep *r, const rep_launch *l) {
  FILE *f = r->f;
  fprintf(f, "<section id=\"occupancy-%lld\">\n<h3>Occupancy over time</h3>\n", l->id);
  if (!l->has_samples && !l->has_block_cycles) {
    html_note(f, l->cycles < 0 ? "Unavailable: a functional run has no cycles (record the trace with --timing)."
                               : "Unavailable: the trace has neither sm_samples nor block start and end cycles for this launch.");
    fputs("</section>\n", f);
    return;
  }
  double x0 = 0, x1 = (double)(l->cycles > 0 ? l->cycles : 0);
  double last = (double)(l->has_samples
    ? rep_scalar(r, "SELECT max(cycle) + 1 FROM sm_samples WHERE launch_id = ?1", l->id, 0, 0)
    : rep_scalar(r, "SELECT max(end_cycle) FROM blocks WHERE launch_id = ?1", l->id, 0, 0));
  if (last > x1) x1 = last;
  if (x1 <= x0) x1 = x0 + 1;
  int cols = r->cols / 2;
  if (x1 - x0 < cols) cols = (int)ceil(x1 - x0);
  double span = (x1 - x0) / cols;
  sqlite3_stmt *s = rep_prepare(r, l->has_samples ? samples_sql : blocks_sql);
  if (!s) { fputs("</section>\n", f); return; }
  sqlite3_bind_int64(s, 1, l->id);
  sqlite3_bind_double(s, 2, x0);
  sqlite3_bind_double(s, 3, span);
  sqlite3_bind_int(s, 4, cols);
  double *act = calloc((size_t)cols, sizeof *act), *elig = calloc((size_t)cols, sizeof *elig);
  bool *have = calloc((size_t)cols, sizeof *have), any_elig = false;
  double ymax = l->max_warps > 0 ? (double)l->max_warps : 0, sum = 0;
  int rc = SQLITE_NOMEM, nhave = 0;
  while (act && elig && have && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    long long bk = sqlite3_column_int64(s, 0);
    if (bk < 0 || bk >= cols) continue;
    act[bk] = sqlite3_column_double(s, 1);
    elig[bk] = rep_real(s, 2, -1);
    any_elig |= elig[bk] >= 0;
    have[bk] = true;
    ymax = fmax(ymax, act[bk]);
    sum += act[bk];
    nhave++;
  }
  rep_finish(r, s, rc);
  if (r->failed || !nhave) {
    if (!r->failed) html_note(f, "No samples fall in the launch's cycles.");
    free(act); free(elig); free(have);
    fputs("</section>\n", f);
    return;
  }
  if (ymax <= 0) ymax = 1;
  char label[160];
  snprintf(label, sizeof label, "active warps per SM over time, launch %lld", l->id);
  svg_open(f, LEFT + CHART_W + 10, TOP + CHART_H + 40, label);
  for (int q = 0; q <= 4; q++) {
    double yv = ymax * q / 4, yy = TOP + CHART_H - CHART_H * q / 4;
    svg_line(f, LEFT, yy, LEFT + CHART_W, yy, "grid");
    snprintf(label, sizeof label, l->max_warps > 0 ? "%.4g warps (%d%%)" : "%.4g warps", yv, q * 25);
    svg_text(f, LEFT - 6, yy + 4, "end", NULL, label);
  }
  svg_path pa = { 0 }, pe = { 0 };
  for (int c = 0; c < cols; c++) {
    if (!have[c]) continue;
    double x = LEFT + (c + 0.5) * CHART_W / cols;
    svg_path_point(&pa, x, TOP + CHART_H - act[c] / ymax * CHART_H);
    if (elig[c] >= 0) svg_path_point(&pe, x, TOP + CHART_H - elig[c] / ymax * CHART_H);
  }
  svg_path_emit(f, &pa, "occ");
  svg_path_emit(f, &pe, "elig");
  svg_path_free(&pa);
  svg_path_free(&pe);
  svg_axis(f, LEFT, LEFT + CHART_W, TOP + CHART_H, x0, x1, "cycle");
  svg_close(f);
  fputs("<div class=\"legend\"><span><i style=\"background:#1f77b4\"></i>active warps per SM</span>", f);
  if (any_elig) fputs("<span><i style=\"background:#2ca02c\"></i>eligible warps per SM</span>", f);
  fputs("</div>\n", f);
  char note[400];
  snprintf(note, sizeof note, "%s; average over the plotted columns %.1f warps per SM%s.",
           l->has_samples ? "From sm_samples (the timing model's periodic samples), averaged over the SMs in each column"
                          : "From the blocks' start and end cycles (no sm_samples), averaged over the SMs that ran blocks",
           sum / nhave, l->max_warps > 0 ? "; 100% is the GPU's maximum warps per SM" : "");
  html_note(f, note);
  free(act); free(elig); free(have);
  fputs("</section>\n", f);
}
