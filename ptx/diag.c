/* ptx/diag.c - gcc-style diagnostics with the offending source line and a
 * caret under the column. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "ptx/ast.h"

static void emit(ptx_diag *d, ptx_loc loc, const char *kind, const char *fmt, va_list ap) {
  FILE *out = d->out;
  if (!out) return;
  if (d->max_errors && d->errors > d->max_errors) return;
  fprintf(out, "%s:%u:%u: %s: ", d->path ? d->path : "<input>", loc.line, loc.col, kind);
  vfprintf(out, fmt, ap);
  fputc('\n', out);
  if (!d->src || loc.line == 0) return;
  /* find the line: errors are rare, a scan is fine */
  const char *p = d->src, *end = d->src + d->src_len;
  for (uint32_t l = 1; l < loc.line && p < end; p++)
    if (*p == '\n') l++;
  const char *e = memchr(p, '\n', (size_t)(end - p));
  if (!e) e = end;
  if (e - p > 200) e = p + 200;
  fprintf(out, " %.*s\n ", (int)(e - p), p);
  for (uint32_t c = 1; c < loc.col && p + c - 1 < e; c++) fputc(p[c - 1] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
}

void ptx_error(ptx_diag *d, ptx_loc loc, const char *fmt, ...) {
  d->errors++;
  va_list ap;
  va_start(ap, fmt);
  emit(d, loc, "error", fmt, ap);
  va_end(ap);
  if (d->max_errors && d->errors == d->max_errors + 1 && d->out)
    fprintf(d->out, "%s: too many errors, stopping the report\n", d->path ? d->path : "<input>");
}

void ptx_warning(ptx_diag *d, ptx_loc loc, const char *fmt, ...) {
  d->warnings++;
  va_list ap;
  va_start(ap, fmt);
  emit(d, loc, "warning", fmt, ap);
  va_end(ap);
}
