/* report/svg.c - small inline-SVG writers.  Figures are sized in user
 * units (one unit = one CSS pixel at full width) and scale with the page. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/internal.h"

/* Coordinates with at most one decimal, without trailing zeros: the
 * figures are mostly these numbers, so every byte counts. */
static int fmt_coord(char *out, size_t n, double v) {
  long long t = llround(v * 10);
  if (t % 10 == 0) return snprintf(out, n, "%lld", t / 10);
  return snprintf(out, n, "%s%lld.%lld", t < 0 ? "-" : "", llabs(t) / 10, llabs(t) % 10);
}

static void put_coord(FILE *f, double v) {
  char b[32];
  fmt_coord(b, sizeof b, v);
  fputs(b, f);
}

void svg_open(FILE *f, double w, double h, const char *label) {
  fputs("<div class=\"fig\"><svg viewBox=\"0 0 ", f);
  put_coord(f, w);
  fputc(' ', f);
  put_coord(f, h);
  fputs("\" width=\"", f);
  put_coord(f, w);
  fputs("\" role=\"img\" aria-label=\"", f);
  html_esc(f, label);
  fputs("\">\n", f);
}

void svg_close(FILE *f) { fputs("</svg></div>\n", f); }

void svg_text(FILE *f, double x, double y, const char *anchor, const char *cls, const char *text) {
  fputs("<text x=\"", f);
  put_coord(f, x);
  fputs("\" y=\"", f);
  put_coord(f, y);
  fputc('"', f);
  if (anchor && strcmp(anchor, "start")) fprintf(f, " text-anchor=\"%s\"", anchor);
  if (cls) fprintf(f, " class=\"%s\"", cls);
  fputc('>', f);
  html_esc(f, text);
  fputs("</text>\n", f);
}

void svg_rect(FILE *f, double x, double y, double w, double h, const char *cls, const char *title) {
  fputs("<rect x=\"", f);
  put_coord(f, x);
  fputs("\" y=\"", f);
  put_coord(f, y);
  fputs("\" width=\"", f);
  put_coord(f, w);
  fputs("\" height=\"", f);
  put_coord(f, h);
  fputc('"', f);
  if (cls) fprintf(f, " class=\"%s\"", cls);
  if (title) {
    fputs("><title>", f);
    html_esc(f, title);
    fputs("</title></rect>\n", f);
  } else fputs("/>\n", f);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *cls) {
  fputs("<line x1=\"", f);
  put_coord(f, x1);
  fputs("\" y1=\"", f);
  put_coord(f, y1);
  fputs("\" x2=\"", f);
  put_coord(f, x2);
  fputs("\" y2=\"", f);
  put_coord(f, y2);
  fprintf(f, "\" class=\"%s\"/>\n", cls);
}

static void path_append(svg_path *p, const char *fmt, ...) {
  char tmp[160];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (p->len + (size_t)n + 1 > p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 4096;
    while (cap < p->len + (size_t)n + 1) cap *= 2;
    char *nb = realloc(p->buf, cap);
    if (!nb) return;             /* the figure loses a shape, the page stays valid */
    p->buf = nb;
    p->cap = cap;
  }
  memcpy(p->buf + p->len, tmp, (size_t)n + 1);
  p->len += (size_t)n;
}

void svg_path_rect(svg_path *p, double x, double y, double w, double h) {
  char a[32], b[32], c[32], d[32];
  fmt_coord(a, sizeof a, x);
  fmt_coord(b, sizeof b, y);
  fmt_coord(c, sizeof c, w);
  fmt_coord(d, sizeof d, h);
  path_append(p, "M%s %sh%sv%sh-%sz", a, b, c, d, c);
  p->n++;
}

void svg_path_point(svg_path *p, double x, double y) {
  char a[32], b[32];
  fmt_coord(a, sizeof a, x);
  fmt_coord(b, sizeof b, y);
  path_append(p, "%s%s %s", p->n ? "L" : "M", a, b);
  p->n++;
}

void svg_path_emit(FILE *f, svg_path *p, const char *cls) {
  if (p->len) fprintf(f, "<path class=\"%s\" d=\"%s\"/>\n", cls, p->buf);
  p->len = 0;
  p->n = 0;
  if (p->buf) p->buf[0] = 0;
}

void svg_path_free(svg_path *p) {
  free(p->buf);
  memset(p, 0, sizeof *p);
}

/* Ticks at 1, 2 or 5 times a power of ten, about six of them. */
void svg_axis(FILE *f, double x0, double x1, double y, double v0, double v1, const char *unit) {
  svg_line(f, x0, y, x1, y, "ax");
  if (!(v1 > v0)) return;
  double raw = (v1 - v0) / 6, mag = pow(10, floor(log10(raw))), step = mag;
  if (raw / mag > 5) step = 10 * mag;
  else if (raw / mag > 2) step = 5 * mag;
  else if (raw / mag > 1) step = 2 * mag;
  for (double v = ceil(v0 / step) * step; v <= v1 + step * 1e-9; v += step) {
    double x = x0 + (v - v0) / (v1 - v0) * (x1 - x0);
    char label[48];
    snprintf(label, sizeof label, "%.12g", v);
    svg_line(f, x, y, x, y + 4, "ax");
    svg_text(f, x, y + 15, "middle", NULL, label);
  }
  if (unit) svg_text(f, x1, y + 28, "end", NULL, unit);
}
