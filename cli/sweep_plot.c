/* cli/sweep_plot.c - "ptxemu sweep plot DB --axis A [--metric M] -o F.svg":
 * one metric (a column of the collected database's speedup view, averaged
 * over the other parameters) against one swept axis, one line per
 * workload, as a standalone SVG.  Numeric axes are spaced by value (a log
 * scale when they span a factor of 16 or more), others evenly. */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/sweep.h"
#include "util/outfile.h"

#define MAXX 256
#define MAXS 32

typedef struct series { char name[65]; double y[MAXX]; bool has[MAXX]; } series;

static void esc(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '&') fputs("&amp;", f);
    else if (*s == '"') fputs("&quot;", f);
    else fputc(*s, f);
  }
}

static bool is_column(sqlite3 *db, const char *name) {
  sqlite3_stmt *st;
  bool found = false;
  if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info('speedup') WHERE name = ?", -1, &st, NULL) != SQLITE_OK) return false;
  sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  found = sqlite3_step(st) == SQLITE_ROW;
  sqlite3_finalize(st);
  return found;
}

int sweep_plot(const char *dbpath, const char *axis, const char *metric, const char *out) {
  sqlite3 *db;
  if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    fprintf(stderr, "ptxemu sweep plot: cannot open '%s'\n", dbpath);
    sqlite3_close(db);
    return EXIT_NOINPUT;
  }
  if (!is_column(db, "speedup")) { fprintf(stderr, "ptxemu sweep plot: '%s' is not a collected sweep (ptxemu sweep collect)\n", dbpath); sqlite3_close(db); return EXIT_DATAERR; }
  const char *bad = !is_column(db, axis) ? axis : !is_column(db, metric) ? metric : NULL;
  if (bad || strchr(axis, '"') || strchr(metric, '"')) {
    fprintf(stderr, "ptxemu sweep plot: no column '%s' in the speedup view (SELECT name FROM pragma_table_info('speedup') lists them)\n", bad ? bad : axis);
    sqlite3_close(db);
    return EXIT_USAGE;
  }
  char q[512];
  snprintf(q, sizeof q, "SELECT workload, \"%s\", avg(\"%s\") FROM speedup WHERE status = 'done' AND \"%s\" IS NOT NULL AND \"%s\" IS NOT NULL"
           " GROUP BY workload, \"%s\" ORDER BY \"%s\"", axis, metric, axis, metric, axis, axis);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) { fprintf(stderr, "ptxemu sweep plot: %s\n", sqlite3_errmsg(db)); sqlite3_close(db); return EXIT_DATAERR; }
  static char xs[MAXX][65];
  static series ser[MAXS];
  double xv[MAXX];
  int nx = 0, ns = 0;
  bool numeric = true;
  double ylo = INFINITY, yhi = -INFINITY;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *w = (const char *)sqlite3_column_text(st, 0), *x = (const char *)sqlite3_column_text(st, 1);
    if (!w || !x) continue;
    int xi = 0, si = 0;
    while (xi < nx && strcmp(xs[xi], x)) xi++;
    if (xi == nx) {
      if (nx == MAXX) continue;
      snprintf(xs[nx], sizeof xs[nx], "%s", x);
      int t = sqlite3_column_type(st, 1);
      numeric &= t == SQLITE_INTEGER || t == SQLITE_FLOAT;
      xv[nx++] = sqlite3_column_double(st, 1);
    }
    while (si < ns && strcmp(ser[si].name, w)) si++;
    if (si == ns) {
      if (ns == MAXS) continue;
      memset(&ser[ns], 0, sizeof ser[ns]);
      snprintf(ser[ns++].name, sizeof ser[0].name, "%s", w);
    }
    double y = sqlite3_column_double(st, 2);
    ser[si].y[xi] = y;
    ser[si].has[xi] = true;
    if (y < ylo) ylo = y;
    if (y > yhi) yhi = y;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  if (!nx) { fprintf(stderr, "ptxemu sweep plot: no finished point has both '%s' and '%s'\n", axis, metric); return EXIT_DATAERR; }
  /* x positions: by value (log when wide) or evenly */
  double xlo = xv[0], xhi = xv[0];
  for (int i = 0; i < nx; i++) { if (xv[i] < xlo) xlo = xv[i]; if (xv[i] > xhi) xhi = xv[i]; }
  bool logx = numeric && xlo > 0 && xhi / xlo >= 16;
  const double W = 640, H = 400, L = 80, R = 150, T = 40, B = 60;
  double pos[MAXX];
  for (int i = 0; i < nx; i++) {
    double f = nx == 1 ? 0.5 : !numeric || xhi == xlo ? (double)i / (nx - 1) :
               logx ? log(xv[i] / xlo) / log(xhi / xlo) : (xv[i] - xlo) / (xhi - xlo);
    pos[i] = L + f * (W - L - R);
  }
  if (ylo > 0 && ylo < yhi * 0.5) ylo = 0;
  if (yhi == ylo) { yhi += fabs(yhi) * 0.1 + 1; ylo -= fabs(ylo) * 0.1; }
  outfile of;
  if (outfile_open(&of, out)) { fprintf(stderr, "ptxemu sweep plot: cannot write '%s'\n", out); return EXIT_CANTCREAT; }
  FILE *f = of.f;
  static const char *colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f" };
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %g %g\" width=\"%g\" height=\"%g\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H);
  fprintf(f, "<rect width=\"%g\" height=\"%g\" fill=\"white\"/>\n<text x=\"%g\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">", W, H, W / 2);
  esc(f, metric);
  fputs(" against ", f);
  esc(f, axis);
  fputs("</text>\n", f);
  fprintf(f, "<path d=\"M%g %gV%gH%g\" stroke=\"black\" fill=\"none\"/>\n", L, T, H - B, W - R);
  for (int k = 0; k <= 4; k++) {
    double v = ylo + (yhi - ylo) * k / 4, y = H - B - (H - T - B) * k / 4;
    fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%.4g</text><path d=\"M%g %gH%g\" stroke=\"#ddd\"/>\n", L - 6, y + 4, v, L, y, W - R);
  }
  for (int i = 0; i < nx; i++) {
    fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">", pos[i], H - B + 18);
    esc(f, xs[i]);
    fputs("</text>\n", f);
  }
  fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">", (L + W - R) / 2, H - 15);
  esc(f, axis);
  fputs(logx ? " (log scale)</text>\n" : "</text>\n", f);
  for (int si = 0; si < ns; si++) {
    const char *col = colors[si % 8];
    fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" d=\"", col);
    bool first = true;
    for (int i = 0; i < nx; i++) {
      if (!ser[si].has[i]) continue;
      fprintf(f, "%s%.1f %.1f", first ? "M" : " L", pos[i], H - B - (H - T - B) * (ser[si].y[i] - ylo) / (yhi - ylo));
      first = false;
    }
    fputs("\"/>\n", f);
    for (int i = 0; i < nx; i++)
      if (ser[si].has[i]) fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", pos[i], H - B - (H - T - B) * (ser[si].y[i] - ylo) / (yhi - ylo), col);
    fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%g\" y=\"%g\">", W - R + 15, T + 18.0 * si, col, W - R + 32, T + 18.0 * si + 10);
    esc(f, ser[si].name);
    fputs("</text>\n", f);
  }
  fputs("</svg>\n", f);
  if (outfile_close(&of, 1)) { fprintf(stderr, "ptxemu sweep plot: cannot write '%s'\n", out); return EXIT_CANTCREAT; }
  return EXIT_OK;
}
