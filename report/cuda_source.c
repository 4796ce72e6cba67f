/* report/cuda_source.c - the kernel's CUDA source, one table row per CUDA
 * line with the sums of the PTX instructions its .loc gives it, and those
 * PTX lines folded under it (<details>, no script).  The source text is
 * not in the trace: it is read where --source-dir, the .file path or the
 * PTX's folder say (util/source_file.c); without it the rows still name the
 * lines.  Kernels without .loc keep the annotated PTX (source.c). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"
#include "report/report.h"
#include "util/source_file.h"

#define SRC_CONTEXT 2                  /* lines shown above the kernel's first line  */
#define SRC_MAX_SPAN 100000            /* CUDA lines of one file a kernel may span   */
#define SRC_MAX_FOLD 200               /* PTX lines shown under one CUDA line        */

typedef struct cu_line {
  long long exec, thr, br, div, greq, gsec, sreq, wav, conf, issued;
  double waits[REP_NSTALL];
  long long *ptx;               /* the PTX lines of this CUDA line            */
  int nptx, capptx;
  bool fault;
} cu_line;

typedef struct cu_file { long long id; char *path; long long lo, hi, n; } cu_file;

static void fold(rep *r, const rep_launch *l, cu_line *x, long long insn_id, long long ptx_line) {
  if (x->nptx == 0 || x->ptx[x->nptx - 1] != ptx_line) {
    if (x->nptx == x->capptx) {
      int cap = x->capptx ? x->capptx * 2 : 4;
      long long *np = realloc(x->ptx, (size_t)cap * sizeof *np);
      if (!np) return;
      x->ptx = np;
      x->capptx = cap;
    }
    x->ptx[x->nptx++] = ptx_line;
  }
  if (ptx_line == l->fault_line) x->fault = true;
  const rep_insn *in = rep_insn_at(r, insn_id);
  if (!in) return;
  rep_add(&x->exec, in->execs);
  rep_add(&x->thr, in->threads);
  rep_add(&x->br, in->branches);
  rep_add(&x->div, in->divergent);
  rep_add(&x->greq, in->gld_req + in->gst_req);
  rep_add(&x->gsec, in->gld_sec + in->gst_sec);
  rep_add(&x->sreq, in->shl_req + in->shs_req);
  rep_add(&x->wav, in->shl_wav + in->shs_wav);
  rep_add(&x->conf, in->shl_conf + in->shs_conf);
  rep_add(&x->issued, in->issued);
  for (int k = 0; k < REP_NSTALL; k++) x->waits[k] += in->waits[k];
}

/* The PTX text of the folded lines, one <pre> line each with its number
 * and executions. */
static void ptx_fold(rep *r, const rep_launch *l, const cu_line *x) {
  FILE *f = r->f;
  sqlite3_stmt *s = rep_prepare(r, "SELECT text FROM ptx_lines WHERE file_id = ?1 AND line = ?2");
  if (!s) return;
  fputs("<pre>", f);
  for (int i = 0; i < x->nptx; i++) {
    if (i == SRC_MAX_FOLD) { fprintf(f, "        ... %d more PTX lines\n", x->nptx - i); break; }
    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, l->file_id);
    sqlite3_bind_int64(s, 2, x->ptx[i]);
    const char *t = sqlite3_step(s) == SQLITE_ROW ? (const char *)sqlite3_column_text(s, 0) : NULL;
    fprintf(f, "%6lld  ", x->ptx[i]);
    html_esc_n(f, t ? t : "", 200);
    if (x->ptx[i] == l->fault_line) fputs("   &#9664; the launch faulted here", f);
    fputc('\n', f);
  }
  fputs("</pre>", f);
  sqlite3_finalize(s);
}

static void file_table(rep *r, const rep_launch *l, const cu_file *cf, const char *ptx_path, cu_line *lines) {
  FILE *f = r->f;
  const char *beside[2] = { ptx_path, r->trace_path };
  char *found = src_find(cf->path, r->source_dir, beside, 2);
  size_t ntext = 0;
  char **text = found ? src_read_lines(found, &ntext) : NULL;
  fputs("<h4>", f);
  html_esc(f, cf->path);
  if (found && strcmp(found, cf->path)) { fputs(" (read from ", f); html_esc(f, found); fputc(')', f); }
  fputs("</h4>\n", f);
  long long lo = cf->lo - SRC_CONTEXT, hi = cf->hi;
  if (lo < 1) lo = 1;
  bool cut = false;
  if (hi - lo + 1 > r->max_lines) { hi = lo + r->max_lines - 1; cut = true; }
  bool by_cycles = r->stalls_ready;
  double hot = 0;
  for (long long k = cf->lo; k <= cf->hi; k++) {
    const cu_line *x = &lines[k - cf->lo];
    double cyc = (double)x->issued;
    for (int j = 0; j < REP_NSTALL; j++) cyc += x->waits[j];
    hot = fmax(hot, by_cycles ? cyc : (double)(x->exec + x->conf));
  }
  fputs("<table class=\"src\">\n<tr><th title=\"CUDA source line\">line</th>"
        "<th title=\"warp instructions of the line's PTX executed\">execs</th>"
        "<th title=\"active threads per warp instruction / 32 (warp execution efficiency)\">threads</th>"
        "<th title=\"branches whose threads all went one way / branches (branch efficiency)\">branch eff</th>"
        "<th title=\"global 32-byte sectors (and sectors per request)\">gl sectors</th>"
        "<th title=\"shared-memory wavefronts (and bank conflicts)\">sh wavefronts</th>"
        "<th title=\"cycles warps waited before issuing the line's PTX\">stall cycles</th>"
        "<th class=\"l\">CUDA source (open a line for its PTX)</th></tr>\n", f);
  long start = ftell(f);
  for (long long k = lo; k <= hi; k++) {
    if (ftell(f) - start > r->max_source_bytes) { cut = true; break; }
    const cu_line *x = k >= cf->lo ? &lines[k - cf->lo] : NULL;
    const char *t = text && k <= (long long)ntext ? text[k - 1] : NULL;
    if (!t && (!x || !x->nptx)) continue;           /* no text and nothing to show */
    double wait = 0, cyc = 0;
    if (x) { cyc = (double)x->issued; for (int j = 0; j < REP_NSTALL; j++) if (j != 1) wait += x->waits[j]; cyc += wait; }
    double heat = !x ? 0 : by_cycles ? cyc : (double)(x->exec + x->conf);
    int h = hot > 0 && heat > 0 ? (int)ceil(9 * heat / hot) : 0;
    fprintf(f, "<tr id=\"c%lld-%lld-%lld\"", l->id, cf->id, k);
    if (h > 0) fprintf(f, " class=\"h%d\"", h > 9 ? 9 : h);
    fprintf(f, "><td>%lld</td><td>", k);
    if (x && x->exec > 0) html_num(f, x->exec);
    fputs("</td>", f);
    if (x && x->exec > 0) fprintf(f, "<td>%.0f%%</td>", 100.0 * (double)x->thr / (32.0 * (double)x->exec)); else fputs("<td></td>", f);
    if (x && x->br > 0) fprintf(f, "<td%s>%.0f%%</td>", x->div ? " class=\"d\"" : "", 100.0 * (double)(x->br - x->div) / (double)x->br);
    else fputs("<td></td>", f);
    fputs("<td>", f);
    if (x && x->greq > 0) { html_num(f, x->gsec); fprintf(f, " (%.1f)", (double)x->gsec / (double)x->greq); }
    fputs(x && x->conf > 0 ? "</td><td class=\"d\">" : "</td><td>", f);
    if (x && x->sreq > 0) { html_num(f, x->wav); fputs(" (", f); html_num(f, x->conf); fputc(')', f); }
    fputs("</td><td>", f);
    if (by_cycles && wait > 0) html_num(f, (long long)wait);
    fputs("</td><td class=\"t\">", f);
    if (x && x->nptx) {
      fputs("<details><summary>", f);
      html_esc_n(f, t ? t : "(source not found)", 240);
      if (x->fault) fputs(" <b class=\"d\">&#9664; the launch faulted here</b>", f);
      fputs("</summary>", f);
      ptx_fold(r, l, x);
      fputs("</details>", f);
    } else html_esc_n(f, t, 240);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
  if (!text) {
    char note[700];
    snprintf(note, sizeof note, "The CUDA source %.300s was not found at its .file path, beside the PTX or the trace: "
             "ptxemu report --source-dir DIR reads it from DIR.", cf->path);
    html_note(f, note);
  }
  if (cut) html_note(f, "The source is longer than the page's budget of lines and bytes: its first lines are shown.");
  src_free_lines(text);
  free(found);
}

bool rep_cuda_source(rep *r, const rep_launch *l) {
  if (l->file_id < 0) return false;
  /* the CUDA files of the kernel's instructions, the one with most first */
  sqlite3_stmt *s = rep_prepare(r,
    "SELECT i.src_file_id, f.path, min(i.src_line), max(i.src_line), count(*) FROM instructions i JOIN files f ON f.file_id = i.src_file_id\n"
    "WHERE i.kernel_id = ?1 AND i.src_line > 0 GROUP BY i.src_file_id ORDER BY count(*) DESC, i.src_file_id LIMIT 8");
  if (!s) return false;
  sqlite3_bind_int64(s, 1, l->kernel_id);
  cu_file files[8];
  int nf = 0, rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW && nf < 8) {
    const char *p = (const char *)sqlite3_column_text(s, 1);
    long long lo = sqlite3_column_int64(s, 2), hi = sqlite3_column_int64(s, 3);
    if (!p || lo < 1 || hi < lo || hi > INT32_MAX || hi - lo > SRC_MAX_SPAN) continue;   /* values from the trace are untrusted */
    files[nf] = (cu_file){ sqlite3_column_int64(s, 0), strdup(p), lo, hi, sqlite3_column_int64(s, 4) };
    if (files[nf].path) nf++;
  }
  rep_finish(r, s, rc);
  if (!nf) return false;
  char *ptx_path = NULL;
  s = rep_prepare(r, "SELECT path FROM files WHERE file_id = ?1");
  if (s) {
    sqlite3_bind_int64(s, 1, l->file_id);
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) ptx_path = strdup((const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
  }
  FILE *f = r->f;
  fprintf(f, "<section id=\"source-%lld\">\n<h3>CUDA source, annotated</h3>\n", l->id);
  if (!l->has_warps && !l->has_mem)
    html_note(f, "This launch was recorded at level launch: no per-line numbers (record with --trace-level warp, mem or all).");
  for (int i = 0; i < nf && !r->failed; i++) {
    size_t span = (size_t)(files[i].hi - files[i].lo + 1);
    cu_line *lines = calloc(span, sizeof *lines);
    s = lines ? rep_prepare(r, "SELECT insn_id, ptx_line, src_line FROM instructions\n"
                               "WHERE kernel_id = ?1 AND src_file_id = ?2 AND file_id = ?3 ORDER BY insn_id") : NULL;
    if (s) {
      sqlite3_bind_int64(s, 1, l->kernel_id);
      sqlite3_bind_int64(s, 2, files[i].id);
      sqlite3_bind_int64(s, 3, l->file_id);
      while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        long long line = sqlite3_column_int64(s, 2);
        if (line < files[i].lo || line > files[i].hi) continue;
        fold(r, l, &lines[line - files[i].lo], sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1));
      }
      rep_finish(r, s, rc);
      if (!r->failed) file_table(r, l, &files[i], ptx_path, lines);
    }
    for (size_t k = 0; lines && k < span; k++) free(lines[k].ptx);
    free(lines);
  }
  html_note(f, r->stalls_ready ? "Heat: the line's cycles (issue + stall) relative to the hottest line. A CUDA line's numbers are the sums of its PTX lines."
                               : "Heat: the line's executions plus bank-conflict replays relative to the hottest line. A CUDA line's numbers are the sums of its PTX lines.");
  fputs("</section>\n", f);
  for (int i = 0; i < nf; i++) free(files[i].path);
  free(ptx_path);
  return true;
}
