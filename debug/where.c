/* debug/where.c - where an instruction is: its CUDA line (isa_source_pos)
 * and PTX line, with their text read from the files, and 'list'. */
#include <stdlib.h>
#include <string.h>
#include "debug/internal.h"
#include "util/source_file.h"

/* A file's lines, read once per session (a file that cannot be read is
 * remembered as such, so it is not tried at every step). */
static src_file *load(dbg *d, const char *path) {
  for (src_file *f = d->files; f; f = f->next) if (strcmp(f->path, path) == 0) return f->lines ? f : NULL;
  src_file *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->path = strdup(path);
  if (!f->path) { free(f); return NULL; }
  f->next = d->files;
  d->files = f;
  size_t n = 0;
  f->lines = src_read_lines(path, &n);
  f->nlines = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
  return f->lines ? f : NULL;
}

void dbg_free_sources(dbg *d) {
  for (src_file *f = d->files, *n; f; f = n) { n = f->next; free(f->path); src_free_lines(f->lines); free(f); }
  d->files = NULL;
}

/* A CUDA source, where util/source_file.c looks for it: --source-dir,
 * the .file path, beside the PTX file. */
static src_file *find_source(dbg *d, const char *path, const char **found) {
  const char *beside[1] = { d->e && d->e->m->path ? d->e->m->path : NULL };
  char *p = src_find(path, d->c.source_dir, beside, 1);
  src_file *f = p ? load(d, p) : NULL;
  free(p);
  if (found) *found = f ? f->path : NULL;
  return f;
}

const char *dbg_source_line(dbg *d, const char *path, uint32_t n, const char **found) {
  src_file *f = find_source(d, path, found);
  return f && n >= 1 && n <= f->nlines ? f->lines[n - 1] : NULL;
}

static const char *trimmed(const char *s) { while (*s == ' ' || *s == '\t') s++; return s; }

uint32_t dbg_func_pc(const dbg *d, const xinsn *x) {
  const emu *e = d->e;
  return x->spc - e->func_base[x->f - e->m->funcs];
}

void dbg_print_pos(dbg *d, const xinsn *x) {
  isa_source src;
  if (isa_source_pos(d->e->m, x->f, x->in, &src)) dbg_printf(d, "%s:%u (%s:%u)", isa_path_base(src.path), src.line, isa_path_base(d->e->m->path), x->in->line);
  else dbg_printf(d, "%s:%u", isa_path_base(d->e->m->path), x->in->line);
}

void dbg_print_where(dbg *d, const xinsn *x) {
  const isa_module *m = d->e->m;
  char pos[512];
  isa_source src;
  if (isa_source_pos(m, x->f, x->in, &src)) {
    const char *t = dbg_source_line(d, src.path, src.line, NULL);
    snprintf(pos, sizeof pos, "%s:%u", isa_path_base(src.path), src.line);
    dbg_printf(d, "%-20s %s\n", pos, t ? trimmed(t) : "(source file not found: --source-dir DIR tells where)");
    if (src.inlined_in && src.call_path) dbg_printf(d, "%-20s (in %s, inlined at %s:%u)\n", "", src.inlined_in, isa_path_base(src.call_path), src.call_line);
  }
  const char *t = m->path ? dbg_source_line(d, m->path, x->in->line, NULL) : NULL;
  char name[128];
  if (!t) { isa_format_opname(x->in, name, sizeof name); t = name; }
  snprintf(pos, sizeof pos, "%s:%u", isa_path_base(m->path ? m->path : "module"), x->in->line);
  /* one blank between words: PTX aligns operands with tabs */
  char text[256];
  size_t k = 0;
  for (const char *p = trimmed(t); *p && k + 1 < sizeof text; p++) {
    bool ws = *p == ' ' || *p == '\t';
    if (ws && (k == 0 || text[k - 1] == ' ')) continue;
    text[k++] = ws ? ' ' : *p;
  }
  while (k && text[k - 1] == ' ') k--;
  text[k] = 0;
  dbg_printf(d, "%-20s %s   (pc %u in %s)\n", pos, text, dbg_func_pc(d, x), x->f->name);
}

static void context(dbg *d, const char *label, const char *path, uint32_t line, int around) {
  const char *found;
  src_file *f = find_source(d, path, &found);
  if (!f) { dbg_printf(d, "%s: cannot read '%s'%s\n", label, path, label[0] == 'C' ? " (--source-dir DIR tells where the sources are)" : ""); return; }
  uint32_t lo = line > (uint32_t)around ? line - (uint32_t)around : 1, hi = line + (uint32_t)around;
  if (hi > f->nlines) hi = f->nlines;
  dbg_printf(d, "%s %s:\n", label, isa_path_base(path));
  for (uint32_t i = lo; i <= hi; i++) dbg_printf(d, "%s%5u  %s\n", i == line ? "=>" : "  ", i, f->lines[i - 1]);
}

int dbg_cmd_list(dbg *d, const char *args) {
  (void)args;
  if (!dbg_is_running(d, true)) return -1;
  int lane;
  const warp *w = dbg_focus_warp(d, &lane);
  if (!w) { dbg_printf(d, "The focused block is not running.\n"); return -1; }
  const xinsn *x = &d->e->prog[dbg_lane_pc(w, lane)];
  isa_source src;
  if (isa_source_pos(d->e->m, x->f, x->in, &src)) context(d, "CUDA", src.path, src.line, 3);
  else dbg_printf(d, "(the PTX has no .loc line information: compile with nvcc -lineinfo for CUDA lines)\n");
  if (d->e->m->path) context(d, "PTX", d->e->m->path, x->in->line, 3);
  return 0;
}
