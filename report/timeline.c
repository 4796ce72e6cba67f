/* report/timeline.c - one row per warp, grouped by SM and sub-partition.
 *
 * Timed launches: x is the cycle; each column is coloured by the warp
 * state that took most of its cycles (issue = 'selected', the waits before
 * an issue = its stall reason, barrier waits included), over a pale band
 * for the block's residency.  Functional launches have no cycles: x is
 * each warp's own instruction count (wseq), coloured by active threads,
 * with a tick where the warp made memory requests.
 *
 * Everything is bucketed in SQL: at most r->cols columns times
 * r->max_warps_drawn rows reach C, and adjacent columns of one colour
 * become one rectangle. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"

#define LABEL_W 150.0            /* row labels left of the chart             */
#define CHART_W 1000.0
#define ROW_H 10.0
#define BAR_H 8.0
#define GROUP_GAP 14.0           /* between SMs: room for the SM's name      */
#define SP_GAP 3.0
#define NTHREAD_CLASSES 5

typedef struct warp_row { long long sm, block, warp, insts; int sp; double y; } warp_row;

static int row_cmp(const void *a, const void *b) {
  const warp_row *x = a, *y = b;
  if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
  if (x->sp != y->sp) return x->sp - y->sp;
  if (x->block != y->block) return x->block < y->block ? -1 : 1;
  return (x->warp > y->warp) - (x->warp < y->warp);
}

/* Warps of the blocks, from the blocks table (which SM ran a block and how
 * many warps it had, so no pass over warp_runs is needed): with r->sm < 0
 * every SM gets an equal share of max_warps_drawn rows (its first blocks'
 * warps; at least one, and with more SMs than rows, SMs evenly spaced),
 * else only SM r->sm's warps.  Without blocks rows (a launch that did not
 * finish), the warps are grouped from warp_runs. */
typedef struct blk { long long sm, block, warps; } blk;

static bool push_row(warp_row **v, size_t *n, size_t *cap, warp_row w) {
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 256;
    warp_row *nv = realloc(*v, *cap * sizeof **v);
    if (!nv) return false;
    *v = nv;
  }
  (*v)[(*n)++] = w;
  return true;
}

static size_t candidate_warps(rep *r, const rep_launch *l, warp_row **out, long long *nwarps, long long *nsms) {
  sqlite3_stmt *s = rep_prepare(r, "SELECT sm, block, warps FROM blocks WHERE launch_id = ?1 ORDER BY sm, block");
  if (!s) return 0;
  sqlite3_bind_int64(s, 1, l->id);
  size_t nb = 0, capb = 0, n = 0, cap = 0;
  blk *b = NULL;
  warp_row *v = NULL;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    if (nb == capb) {
      capb = capb ? capb * 2 : 256;
      blk *nbk = realloc(b, capb * sizeof *b);
      if (!nbk) { rc = SQLITE_NOMEM; break; }
      b = nbk;
    }
    b[nb++] = (blk){ sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2) };
  }
  rep_finish(r, s, rc);
  long long shown = 0;           /* SMs that ran blocks, of those asked for */
  for (size_t i = 0; i < nb; i++) {
    if (i == 0 || b[i].sm != b[i - 1].sm) {
      (*nsms)++;
      shown += r->sm < 0 || b[i].sm == r->sm;
    }
    *nwarps += b[i].warps;
  }
  long long budget = r->max_warps_drawn, quota = shown ? budget / shown : 0, stride = 1;
  if (quota < 1) { quota = 1; stride = (shown + budget - 1) / budget; }
  long long smi = -1, taken = 0;
  for (size_t i = 0; i < nb && !r->failed && n < (size_t)budget; i++) {
    if (r->sm >= 0 && b[i].sm != r->sm) continue;
    if (i == 0 || b[i].sm != b[i - 1].sm || smi < 0) { smi++; taken = 0; }
    if (smi % stride) continue;
    for (long long w = 0; w < b[i].warps && w < 64 && (r->sm >= 0 || taken < quota) && n < (size_t)budget; w++, taken++)
      if (!push_row(&v, &n, &cap, (warp_row){ .sm = b[i].sm, .block = b[i].block, .warp = w, .sp = l->timed ? (int)(w % l->nsub) : 0 })) {
        r->failed = true;
        snprintf(r->err, sizeof r->err, "out of memory");
      }
  }
  free(b);
  if (!nb && !r->failed) {
    s = rep_prepare(r, "SELECT min(sm), block, warp FROM warp_runs WHERE id BETWEEN ?1 AND ?2 GROUP BY block, warp");
    if (s) {
      sqlite3_bind_int64(s, 1, l->first_run);
      sqlite3_bind_int64(s, 2, l->last_run);
      while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        long long w = sqlite3_column_int64(s, 2), sm = sqlite3_column_int64(s, 0);
        (*nwarps)++;
        if (r->sm >= 0 && sm != r->sm) continue;
        if (!push_row(&v, &n, &cap, (warp_row){ .sm = sm, .block = sqlite3_column_int64(s, 1), .warp = w, .sp = l->timed ? (int)(w % l->nsub) : 0 })) {
          rc = SQLITE_NOMEM;
          break;
        }
      }
      rep_finish(r, s, rc);
      if (n) qsort(v, n, sizeof *v, row_cmp);
      for (size_t i = 0; i < n; i++) if (i == 0 || v[i].sm != v[i - 1].sm) (*nsms)++;
    }
  }
  if (r->failed) { free(v); return 0; }
  if (n) qsort(v, n, sizeof *v, row_cmp);
  *out = v;
  return n;
}

/* The drawn warps: rows (and temp.rep_warps), with their instruction counts. */
static int pick_warps(rep *r, const rep_launch *l, warp_row **rows_out, long long *nwarps, long long *nsms) {
  *rows_out = NULL;
  sqlite3_exec(r->db, "DROP TABLE IF EXISTS temp.rep_warps", NULL, NULL, NULL);
  if (sqlite3_exec(r->db, "CREATE TEMP TABLE rep_warps(block INTEGER, warp INTEGER, row INTEGER, PRIMARY KEY(block, warp)) WITHOUT ROWID",
                   NULL, NULL, NULL) != SQLITE_OK) {
    snprintf(r->err, sizeof r->err, "%s", sqlite3_errmsg(r->db));
    r->failed = true;
    return 0;
  }
  warp_row *rows = NULL;
  size_t n = candidate_warps(r, l, &rows, nwarps, nsms);
  if (n > (size_t)r->max_warps_drawn) n = (size_t)r->max_warps_drawn;
  sqlite3_stmt *ins = rep_prepare(r, "INSERT INTO temp.rep_warps VALUES (?1, ?2, ?3)");
  for (size_t i = 0; ins && i < n; i++) {
    sqlite3_reset(ins);
    sqlite3_bind_int64(ins, 1, rows[i].block);
    sqlite3_bind_int64(ins, 2, rows[i].warp);
    sqlite3_bind_int64(ins, 3, (long long)i);
    if (sqlite3_step(ins) != SQLITE_DONE) { rep_finish(r, ins, SQLITE_ERROR); ins = NULL; }
  }
  sqlite3_finalize(ins);
  sqlite3_stmt *s = r->failed ? NULL : rep_prepare(r,
    "SELECT t.row, sum(r.n * r.reps) FROM warp_runs r JOIN temp.rep_warps t ON t.block = r.block AND t.warp = r.warp\n"
    "WHERE r.id BETWEEN ?1 AND ?2 GROUP BY t.row");
  if (s) {
    sqlite3_bind_int64(s, 1, l->first_run);
    sqlite3_bind_int64(s, 2, l->last_run);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
      long long row = sqlite3_column_int64(s, 0);
      if (row >= 0 && (size_t)row < n) rows[row].insts = sqlite3_column_int64(s, 1);
    }
    rep_finish(r, s, rc);
  }
  if (r->failed) { free(rows); return 0; }
  *rows_out = rows;
  return (int)n;
}

/* Spread each interval [s, e) of iv(row, st, s, e) over the columns it
 * covers: rows of (row, column, class, weight) ordered by row and column.
 * ?1 ?2 the id range, ?3 x of column 0, ?4 column width, ?5 columns. */
#define BUCKETS_SQL \
  "     b AS (SELECT row, st, s, e, max(CAST((s - ?3) / ?4 AS INTEGER), 0) AS b0,\n" \
  "                  min(CAST((e - ?3) / ?4 - 1e-9 AS INTEGER), ?5 - 1) AS b1 FROM iv)\n" \
  "SELECT row, b0 + c.k AS bk, st, sum(min(e, ?3 + (b0 + c.k + 1) * ?4) - max(s, ?3 + (b0 + c.k) * ?4)) AS v\n" \
  "FROM b JOIN counter c ON c.k <= b1 - b0\n" \
  "GROUP BY row, bk, st ORDER BY row, bk"

/* timed: the waits before an issue have the stall reason, the
 * issue cycle is 'selected' (1) */
static const char timed_cells_sql[] =
  "WITH r AS MATERIALIZED (SELECT t.row, r.issue_cycle AS ic, coalesce(r.stall_id, 0) AS st,\n"
  "             lag(r.issue_cycle) OVER (PARTITION BY t.row ORDER BY r.issue_cycle, r.id) AS prev\n"
  "           FROM warp_runs r JOIN temp.rep_warps t ON t.block = r.block AND t.warp = r.warp\n"
  "           WHERE r.id BETWEEN ?1 AND ?2 AND r.issue_cycle IS NOT NULL),\n"
  "     iv AS (SELECT row, prev + 1 AS s, ic AS e, st FROM r WHERE prev + 1 < ic\n"
  "            UNION ALL SELECT row, ic, ic + 1, 1 FROM r),\n"
  BUCKETS_SQL;

/* functional: a run covers wseq .. wseq + n * reps with one active mask */
static const char functional_cells_sql[] =
  "WITH iv AS (SELECT t.row, r.wseq AS s, r.wseq + r.n * r.reps AS e,\n"
  "              CASE WHEN r.threads >= 32 THEN 4 WHEN r.threads >= 24 THEN 3 WHEN r.threads >= 16 THEN 2\n"
  "                   WHEN r.threads >= 8 THEN 1 ELSE 0 END AS st\n"
  "            FROM warp_runs r JOIN temp.rep_warps t ON t.block = r.block AND t.warp = r.warp\n"
  "            WHERE r.id BETWEEN ?1 AND ?2),\n"
  BUCKETS_SQL;

static const char mem_ticks_sql[] =
  "SELECT t.row, min(max(CAST((m.wseq - ?3) / ?4 AS INTEGER), 0), ?5 - 1) AS bk, 0, count(*)\n"
  "FROM mem_accesses m JOIN temp.rep_warps t ON t.block = m.block AND t.warp = m.warp\n"
  "WHERE m.id BETWEEN ?1 AND ?2 GROUP BY 1, 2 ORDER BY 1, 2";

typedef struct run_state { int row, st; long long b0, b1; } run_state;

static void flush_run(run_state *cur, svg_path *paths, int nclasses, const warp_row *rows, double colw, double h, double dy) {
  if (cur->row < 0 || cur->st < 0 || cur->st >= nclasses) return;
  svg_path_rect(&paths[cur->st], LABEL_W + cur->b0 * colw, rows[cur->row].y + dy, (double)(cur->b1 - cur->b0 + 1) * colw, h);
}

/* Read (row, bucket, class, weight) rows; draw each bucket in its heaviest
 * class, merging neighbours of one class. */
static void draw_cells(rep *r, sqlite3_stmt *s, svg_path *paths, int nclasses, const warp_row *rows, int nrows, double colw,
                       double h, double dy) {
  run_state cur = { -1, -1, 0, 0 };
  int brow = -1, bst = -1, rc;
  long long bbk = -1;
  double bv = -1;
  for (;;) {
    rc = sqlite3_step(s);
    bool row = rc == SQLITE_ROW;
    int rr = row ? sqlite3_column_int(s, 0) : -1;
    long long bk = row ? sqlite3_column_int64(s, 1) : -1;
    if (brow >= 0 && (!row || rr != brow || bk != bbk)) {
      /* bucket (brow, bbk) complete: class bst */
      if (cur.row == brow && cur.st == bst && cur.b1 + 1 == bbk) cur.b1 = bbk;
      else {
        flush_run(&cur, paths, nclasses, rows, colw, h, dy);
        cur = (run_state){ brow, bst, bbk, bbk };
      }
      bv = -1;
    }
    if (!row) break;
    if (rr < 0 || rr >= nrows) continue;
    brow = rr;
    bbk = bk;
    double v = sqlite3_column_double(s, 3);
    if (v > bv) { bv = v; bst = sqlite3_column_int(s, 2); }
  }
  flush_run(&cur, paths, nclasses, rows, colw, h, dy);
  rep_finish(r, s, rc);
}

static sqlite3_stmt *bind_cells(rep *r, const char *sql, long long lo, long long hi, double x0, double colw, int cols) {
  sqlite3_stmt *s = rep_prepare(r, sql);
  if (!s) return NULL;
  sqlite3_bind_int64(s, 1, lo);
  sqlite3_bind_int64(s, 2, hi);
  sqlite3_bind_double(s, 3, x0);
  sqlite3_bind_double(s, 4, colw);
  sqlite3_bind_int(s, 5, cols);
  return s;
}

/* the share of warp cycles per stall reason, as one stacked bar */
static void stall_breakdown(rep *r) {
  FILE *f = r->f;
  double total = 0;
  for (int i = 0; i < REP_NSTALL; i++) total += r->stall_cycles[i];
  if (total <= 0) return;
  fputs("<h3>Warp states</h3>\n", f);
  svg_open(f, LABEL_W + CHART_W + 10, 28, "share of warp cycles per stall reason");
  svg_text(f, LABEL_W - 6, 16, "end", NULL, "all warps");
  double x = LABEL_W;
  for (int i = 0; i < REP_NSTALL; i++) {
    if (r->stall_cycles[i] <= 0) continue;
    double w = r->stall_cycles[i] / total * CHART_W;
    char cls[8], title[320];
    snprintf(cls, sizeof cls, "s%d", i);
    snprintf(title, sizeof title, "%s: %.1f %% of warp cycles (%.0f cycles)%s%s", r->stall_name[i], 100 * r->stall_cycles[i] / total,
             r->stall_cycles[i], r->stall_desc[i][0] ? ": " : "", r->stall_desc[i]);
    svg_rect(f, x, 4, w, 18, cls, title);
    x += w;
  }
  svg_close(f);
  fputs("<div class=\"legend\">", f);
  for (int i = 0; i < REP_NSTALL; i++) {
    if (r->stall_cycles[i] <= 0) continue;
    fprintf(f, "<span title=\"");
    html_esc(f, r->stall_desc[i]);
    fprintf(f, "\"><i class=\"s%d\"></i>", i);
    html_esc(f, r->stall_name[i]);
    fprintf(f, " %.1f %%</span>", 100 * r->stall_cycles[i] / total);
  }
  fputs("</div>\n<p class=\"note\">Each warp instruction accounts for the cycles since its warp's previous issue: the "
        "issue cycle is 'selected', the cycles before it its stall reason (warp_runs.stall_id).</p>\n", f);
}

static void residency(rep *r, const rep_launch *l, const warp_row *rows, int n, double x0, double x1) {
  sqlite3_stmt *s = rep_prepare(r, "SELECT start_cycle, end_cycle FROM blocks WHERE launch_id = ?1 AND block = ?2");
  if (!s) return;
  svg_path p = { 0 };
  for (int i = 0; i < n; i++) {
    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, l->id);
    sqlite3_bind_int64(s, 2, rows[i].block);
    if (sqlite3_step(s) != SQLITE_ROW || sqlite3_column_type(s, 0) == SQLITE_NULL || sqlite3_column_type(s, 1) == SQLITE_NULL) continue;
    double a = sqlite3_column_double(s, 0), b = sqlite3_column_double(s, 1);
    a = fmax(a, x0);
    b = fmin(b, x1);
    if (b <= a) continue;
    svg_path_rect(&p, LABEL_W + (a - x0) / (x1 - x0) * CHART_W, rows[i].y - 1, (b - a) / (x1 - x0) * CHART_W, ROW_H);
  }
  sqlite3_finalize(s);
  svg_path_emit(r->f, &p, "res");
  svg_path_free(&p);
}

void rep_timeline(rep *r, const rep_launch *l) {
  FILE *f = r->f;
  /* a functional run has no cycles: each warp along its own instructions */
  fprintf(f, "<section id=\"timeline-%lld\">\n<h3>%s</h3>\n", l->id,
          l->has_warps && !l->timed ? "Warps along their instructions (active threads, no cycles)" : "Timeline of the warps");
  if (!l->has_warps) {
    html_note(f, "No timeline: this launch was recorded without its warp instructions (trace level launch or mem); "
                 "record it with --trace-level warp or all.");
    fputs("</section>\n", f);
    return;
  }
  if (l->timed && r->stalls_ready) stall_breakdown(r);
  warp_row *rows;
  long long nwarps = 0, nsms = 0;
  int n = pick_warps(r, l, &rows, &nwarps, &nsms);
  if (!n) {
    char none[160];
    snprintf(none, sizeof none, "SM %lld ran no block of this launch (%lld SMs did; report --sm all shows them).", r->sm, nsms);
    if (!r->failed) html_note(f, r->sm >= 0 && nsms ? none : "No warp instructions were recorded for this launch.");
    free(rows);
    fputs("</section>\n", f);
    return;
  }
  /* the x range */
  double x0 = 0, x1 = 0;
  if (l->timed) {
    x1 = (double)rep_scalar(r, "SELECT max(max(coalesce(complete_cycle, 0), issue_cycle + 1)) FROM warp_runs "
                               "WHERE id BETWEEN ?1 AND ?2 AND issue_cycle IS NOT NULL", l->first_run, l->last_run, 1);
    /* and end where it ends: the blocks' last cycle (their stores drained),
     * not launches.cycles, which adds the launch's own end */
    if (l->has_block_cycles) {
      long long lb = rep_scalar(r, "SELECT max(end_cycle) FROM blocks WHERE launch_id = ?1", l->id, 0, 0);
      if ((double)lb > x1) x1 = (double)lb;
    } else if (l->cycles > x1) x1 = (double)l->cycles;
    /* start where the launch's activity starts: the first issue or block
     * start, not cycle 0 (the launch overhead before it is empty) */
    long long first = rep_scalar(r, "SELECT min(issue_cycle) FROM warp_runs WHERE id BETWEEN ?1 AND ?2", l->first_run,
                                 l->last_run, 0);
    if (l->has_block_cycles) {
      long long fb = rep_scalar(r, "SELECT min(start_cycle) FROM blocks WHERE launch_id = ?1", l->id, 0, first);
      if (fb >= 0 && fb < first) first = fb;
    }
    if (first > 0 && (double)first < x1) x0 = (double)first;
  } else
    for (int i = 0; i < n; i++) x1 = fmax(x1, (double)rows[i].insts);
  if (x1 <= x0) x1 = x0 + 1;
  int cols = r->cols;
  if (x1 - x0 < cols) cols = (int)ceil(x1 - x0);
  double span = (x1 - x0) / cols, colw = CHART_W / cols;
  /* row positions: a gap and a label where the SM changes, a thin gap
   * between its sub-partitions */
  double y = 4;
  for (int i = 0; i < n; i++) {
    if (i == 0 || rows[i].sm != rows[i - 1].sm) y += GROUP_GAP;
    else if (l->timed && rows[i].sp != rows[i - 1].sp) y += SP_GAP;
    rows[i].y = y;
    y += ROW_H;
  }
  double height = y + 36;
  char label[160];
  snprintf(label, sizeof label, "timeline of %d warps of launch %lld", n, l->id);
  svg_open(f, LABEL_W + CHART_W + 10, height, label);
  for (int i = 0; i < n; i++) {
    if (i == 0 || rows[i].sm != rows[i - 1].sm) {
      snprintf(label, sizeof label, "SM %lld", rows[i].sm);
      svg_text(f, 4, rows[i].y - 3, "start", "big", label);
    }
    /* a functional run has no schedulers: no sub-partition */
    if (l->timed) snprintf(label, sizeof label, "SP%d  b%lld w%lld", rows[i].sp, rows[i].block, rows[i].warp);
    else snprintf(label, sizeof label, "block %lld warp %lld", rows[i].block, rows[i].warp);
    svg_text(f, LABEL_W - 6, rows[i].y + BAR_H - 0.5, "end", NULL, label);
  }
  if (l->timed && l->has_block_cycles) residency(r, l, rows, n, x0, x1);
  int nclasses = l->timed ? REP_NSTALL : NTHREAD_CLASSES;
  svg_path paths[REP_NSTALL] = { 0 };
  sqlite3_stmt *s = bind_cells(r, l->timed ? timed_cells_sql : functional_cells_sql, l->first_run, l->last_run, x0, span, cols);
  if (s) draw_cells(r, s, paths, nclasses, rows, n, colw, BAR_H, 0);
  for (int c = 0; c < nclasses; c++) {
    snprintf(label, sizeof label, "%c%d", l->timed ? 's' : 't', c);
    svg_path_emit(f, &paths[c], label);
  }
  if (!l->timed && l->has_mem) {
    s = bind_cells(r, mem_ticks_sql, l->first_mem, l->last_mem, x0, span, cols);
    if (s) draw_cells(r, s, paths, 1, rows, n, colw, 2, BAR_H - 2);
    svg_path_emit(f, &paths[0], "mem");
  }
  for (int c = 0; c < REP_NSTALL; c++) svg_path_free(&paths[c]);
  svg_axis(f, LABEL_W, LABEL_W + CHART_W, y + 4, x0, x1, l->timed ? "cycle" : "warp instruction (wseq)");
  /* a tooltip per row, on top */
  for (int i = 0; i < n; i++) {
    snprintf(label, sizeof label, "SM %lld, sub-partition %d, block %lld, warp %lld: %lld warp instructions", rows[i].sm,
             rows[i].sp, rows[i].block, rows[i].warp, rows[i].insts);
    svg_rect(f, LABEL_W, rows[i].y - 1, CHART_W, ROW_H, "hit", label);
  }
  svg_close(f);
  /* legend and notes */
  fputs("<div class=\"legend\">", f);
  if (l->timed) {
    for (int c = 0; c < REP_NSTALL; c++) {
      if (r->stall_cycles[c] <= 0 && c != 1 && c != 6) continue;
      fprintf(f, "<span><i class=\"s%d\"></i>", c);
      html_esc(f, c == 0 ? "no reason recorded" : r->stall_name[c]);
      fputs(c == 6 ? " (barrier wait)" : "", f);
      fputs("</span>", f);
    }
    if (l->has_block_cycles) fputs("<span><i class=\"res\"></i>block resident</span>", f);
  } else {
    static const char *const names[NTHREAD_CLASSES] = { "1-7 threads", "8-15", "16-23", "24-31", "32 threads (no divergence)" };
    for (int c = NTHREAD_CLASSES - 1; c >= 0; c--) fprintf(f, "<span><i class=\"t%d\"></i>%s</span>", c, names[c]);
    if (l->has_mem) fputs("<span><i class=\"mem\"></i>memory requests</span>", f);
  }
  fputs("</div>\n", f);
  char note[600];
  if (!l->timed && strcmp(l->gpu, "functional") == 0)
    html_note(f, "Functional trace: no timing model ran, so there are no cycles. Each row is one warp drawn along its own "
                 "instruction sequence (warp_runs.wseq), coloured by how many of its threads were active. "
                 "Record with --timing to see issue cycles and stall reasons.");
  else if (!l->timed)
    html_note(f, "This timed trace records no issue cycles (warp_runs.issue_cycle is NULL), so each row is one warp drawn "
                 "along its own instruction sequence (warp_runs.wseq), coloured by how many of its threads were active.");
  long long smn = 0;
  for (int i = 0; i < n; i++) smn += i == 0 || rows[i].sm != rows[i - 1].sm;
  if (r->sm >= 0)
    snprintf(note, sizeof note, "%d of %lld warps drawn, those of SM %lld (report --sm; %lld SMs ran warps, --sm all draws "
             "each); ", n, nwarps, r->sm, nsms);
  else
    snprintf(note, sizeof note, "%d of %lld warps drawn, from %lld of the %lld SMs that ran warps (the first warps of each; "
             "report --sm N draws one SM's); ", n, nwarps, smn, nsms);
  size_t nlen = strlen(note);
  snprintf(note + nlen, sizeof note - nlen, "%d columns of %.4g %s each, coloured by what took most of the column.%s",
           cols, span, l->timed ? "cycles" : "instructions",
           l->timed ? " Sub-partition (SP) = warp index in its block mod the GPU's sub-partitions: the trace does not "
                      "record the scheduler slot." : "");
  html_note(f, note);
  if (x0 > 0 || (l->timed && l->cycles > x1)) {
    snprintf(note, sizeof note, "The chart shows cycles %.0f to %.0f, from the launch's first activity (its first block "
             "or issue) to its blocks' end; the launch took %lld cycles in all, the GPU's launch overhead before and after "
             "included (launches.cycles).", x0, x1, l->cycles);
    html_note(f, note);
  }
  free(rows);
  fputs("</section>\n", f);
}
