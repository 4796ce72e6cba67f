/* ptx/diag.c - gcc-style diagnostics with the offending source line and a
 * caret under the column.
 *
 * The parser and the assembler find errors in different passes; while a
 * module is read (ptx_parse .. isa_assemble) the messages are held and
 * ptx_diag_flush prints them sorted by position, so a file's errors come
 * out in source order.  Only the first max_errors (by position) are kept. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ast.h"

struct ptx_held { ptx_loc loc; uint32_t seq; bool warning; char *msg; };

static void print_one(ptx_diag *d, ptx_loc loc, const char *kind, const char *msg) {
  FILE *out = d->out;
  fprintf(out, "%s:%u:%u: %s: %s\n", d->path ? d->path : "<input>", loc.line, loc.col, kind, msg);
  if (!d->src || loc.line == 0) return;
  /* find the line: errors are rare, a scan is fine */
  const char *p = d->src, *end = d->src + d->src_len;
  for (uint32_t l = 1; l < loc.line && p < end; p++) {
    p = memchr(p, '\n', (size_t)(end - p));
    if (!p) { p = end; break; }
    l++;
  }
  const char *e = memchr(p, '\n', (size_t)(end - p));
  if (!e) e = end;
  if (e > p && e[-1] == '\r') e--;
  if (e - p > 200) e = p + 200;
  fprintf(out, " %.*s\n ", (int)(e - p), p);
  for (uint32_t c = 1; c < loc.col && p + c - 1 < e; c++) fputc(p[c - 1] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
}

static int held_cmp(const void *x, const void *y) {
  const struct ptx_held *a = x, *b = y;
  if (a->loc.line != b->loc.line) return a->loc.line < b->loc.line ? -1 : 1;
  if (a->loc.col != b->loc.col) return a->loc.col < b->loc.col ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Keep memory bounded however many errors a file has: only the first
 * max_errors by position can be printed. */
static void trim(ptx_diag *d) {
  if (d->nheld) qsort(d->held, d->nheld, sizeof *d->held, held_cmp);
  for (uint32_t i = d->max_errors; i < d->nheld; i++) free(d->held[i].msg);
  d->nheld = d->max_errors;
}

static void hold(ptx_diag *d, ptx_loc loc, bool warning, const char *msg) {
  if (d->max_errors && d->nheld >= 2 * d->max_errors + 256) trim(d);
  if (d->nheld == d->capheld) {
    uint32_t nc = d->capheld ? d->capheld * 2 : 16;
    struct ptx_held *nh = realloc(d->held, nc * sizeof *nh);
    if (!nh) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
    d->held = nh;
    d->capheld = nc;
  }
  char *m = strdup(msg);
  if (!m) { fputs("ptxemu: out of memory\n", stderr); exit(70); }
  d->held[d->nheld++] = (struct ptx_held){ loc, d->seq++, warning, m };
}

static void emit(ptx_diag *d, ptx_loc loc, bool warning, const char *fmt, va_list ap) {
  if (!d->out) return;
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  if (d->hold) { hold(d, loc, warning, buf); return; }
  if (!warning && d->max_errors && d->errors > d->max_errors) {
    if (d->errors == d->max_errors + 1)
      fprintf(d->out, "%s: too many errors, stopping the report\n", d->path ? d->path : "<input>");
    return;
  }
  print_one(d, loc, warning ? "warning" : "error", buf);
}

void ptx_error(ptx_diag *d, ptx_loc loc, const char *fmt, ...) {
  d->errors++;
  va_list ap;
  va_start(ap, fmt);
  emit(d, loc, false, fmt, ap);
  va_end(ap);
}

void ptx_warning(ptx_diag *d, ptx_loc loc, const char *fmt, ...) {
  d->warnings++;
  va_list ap;
  va_start(ap, fmt);
  emit(d, loc, true, fmt, ap);
  va_end(ap);
}

void ptx_diag_hold(ptx_diag *d) { d->hold = true; }

void ptx_diag_flush(ptx_diag *d) {
  if (!d || !d->hold) return;
  d->hold = false;
  if (d->nheld) qsort(d->held, d->nheld, sizeof *d->held, held_cmp);
  uint32_t shown = 0;
  for (uint32_t i = 0; i < d->nheld; i++) {
    struct ptx_held *h = &d->held[i];
    if (h->warning || !d->max_errors || shown < d->max_errors) print_one(d, h->loc, h->warning ? "warning" : "error", h->msg);
    if (!h->warning) shown++;
    free(h->msg);
  }
  if (d->max_errors && d->errors > d->max_errors && d->out)
    fprintf(d->out, "%s: too many errors, stopping the report\n", d->path ? d->path : "<input>");
  free(d->held);
  d->held = NULL;
  d->nheld = d->capheld = 0;
}
