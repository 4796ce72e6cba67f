/* ptx/parse.c - entry point of the front end: runs scanner and parser over
 * one text and checks the module-level must-haves. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "ptx/parse_state.h"
#include "ptx/parser.h"
#define YYSTYPE PTXYYSTYPE
#define YYLTYPE ptx_yyltype
#include "ptx/lexer.h"

const char *const ptx_type_names[PTX_T_COUNT] = {
#define X(id, s) s,
  PTX_TYPES(X)
#undef X
};

const char *const ptx_space_names[PTX_SPACE_COUNT] = {
#define X(id, s) s,
  PTX_SPACES(X)
#undef X
};

int ptx_type_bits(enum ptx_type t) {
  switch (t) {
  case PTX_T_NONE: return 0;
  case PTX_T_PRED: case PTX_T_B1: return 1;
  case PTX_T_U4: case PTX_T_S4: case PTX_T_E2M1: return 4;
  case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: case PTX_T_E4M3: case PTX_T_E5M2:
  case PTX_T_E2M1X2: case PTX_T_E2M3: case PTX_T_E3M2: case PTX_T_UE8M0: return 8;
  case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16:
  case PTX_T_E4M3X2: case PTX_T_E5M2X2: case PTX_T_E2M3X2: case PTX_T_E3M2X2:
  case PTX_T_UE8M0X2: case PTX_T_E2M1X4: return 16;
  case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32: case PTX_T_TF32:
  case PTX_T_F16X2: case PTX_T_BF16X2: case PTX_T_U16X2: case PTX_T_S16X2:
  case PTX_T_E4M3X4: case PTX_T_E5M2X4: return 32;
  case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64:
  case PTX_T_TEXREF: case PTX_T_SAMPLERREF: case PTX_T_SURFREF: return 64;
  case PTX_T_B128: return 128;
  default: return 0;
  }
}

enum ptx_type ptx_type_from_name(const char *s, size_t n) {
  for (int t = 1; t < PTX_T_COUNT; t++)
    if (strlen(ptx_type_names[t]) == n && memcmp(ptx_type_names[t], s, n) == 0) return (enum ptx_type)t;
  return PTX_T_NONE;
}

int ptxyyparse(void *scanner, ptx_pstate *ps);

ptx_module *ptx_parse_stream(char *buf, size_t len, const char *path, ptx_diag *diag, const ptx_consumer *cons) {
  arena *a = arena_new();
  ptx_module *m = arena_alloc(a, sizeof *m);
  m->arena = a;
  m->path = arena_strndup(a, path, strlen(path));
  m->address_size = 64;
  m->diag = diag;
  ptx_diag_hold(diag);                   /* flushed in source order by the assembler */
  m->names = arena_alloc(a, sizeof *m->names);
  strtab_init(m->names, arena_new());    /* strings live apart: the assembler keeps them */

  ptx_pstate ps;
  memset(&ps, 0, sizeof ps);
  ps.mod = m;
  ps.arena = ps.marena = a;
  ps.cons = cons && cons->stmt ? cons : NULL;
  if (ps.cons) ps.farena = arena_new();
  ps.diag = diag;
  ps.names = m->names;
  ps.guard.kind = PO_SINK;

  static const ptx_lexstate ls0;
  ptx_lexstate ls = ls0;
  ls.line = 1;
  ls.line_start = buf;
  ls.diag = diag;
  ps.ls = &ls;
  void *scanner;
  if (ptxyylex_init_extra(&ls, &scanner)) { ptx_module_free(m); return NULL; }
  ps.scanner = scanner;
  YY_BUFFER_STATE b = ptxyy_scan_buffer(buf, len + 2, scanner);
  if (!b) { ptxyylex_destroy(scanner); ptx_module_free(m); return NULL; }
  ptxyyparse(scanner, &ps);
  ptxyy_delete_buffer(b, scanner);
  if (ls.line_path_set) m->path = arena_strndup(a, ls.line_path, strlen(ls.line_path));
  ptxyylex_destroy(scanner);

  if (ps.nmstmts) {
    m->stmts = arena_alloc(a, ps.nmstmts * sizeof *m->stmts);
    memcpy(m->stmts, ps.mstmts, ps.nmstmts * sizeof *m->stmts);
    m->nstmts = ps.nmstmts;
  }
  free(ps.mstmts);
  free(ps.stmts);
  free(ps.ops);
  free(ps.fpragmas);
  arena_free(ps.farena);
  if (!m->has_version) ptx_error(diag, (ptx_loc){1, 1}, "missing .version directive");
  if (!m->has_target) ptx_error(diag, (ptx_loc){1, 1}, "missing .target directive");
  return m;
}

ptx_module *ptx_parse_buffer(char *buf, size_t len, const char *path, ptx_diag *diag) {
  return ptx_parse_stream(buf, len, path, diag, NULL);
}

ptx_module *ptx_parse(const char *text, size_t len, const char *path, ptx_diag *diag) {
  char *buf = malloc(len + 2);
  if (!buf) return NULL;
  memcpy(buf, text, len);
  buf[len] = buf[len + 1] = 0;
  ptx_module *m = ptx_parse_buffer(buf, len, path, diag);
  free(buf);                     /* every string the module keeps is interned */
  return m;
}

void ptx_module_free(ptx_module *m) {
  if (!m) return;
  ptx_diag_flush(m->diag);
  arena *strings = m->names->arena;
  strtab_fini(m->names);
  arena_free(strings);
  arena_free(m->arena);
}

const char *ptx_opnd_name(const ptx_opnd *o, char *buf, size_t len) {
  if (!(o->flags & POF_INDEXED)) return o->name ? o->name : "?";
  snprintf(buf, len, "%s%u", o->name, o->idx);
  return buf;
}

/* A big buffer about to be filled: back it with huge pages and fault it in
 * at once (first touch, page by page, is what reading a file costs most). */
static void prepare_pages(void *p, size_t n) {
  enum { HUGE = 2 << 20, PAGE = 4096 };
  uintptr_t a = (uintptr_t)p, e = a + n;
  if (n < HUGE) return;
#ifdef MADV_HUGEPAGE
  uintptr_t ha = (a + HUGE - 1) & ~(uintptr_t)(HUGE - 1), he = e & ~(uintptr_t)(HUGE - 1);
  if (he > ha) madvise((void *)ha, he - ha, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
  uintptr_t pa = (a + PAGE - 1) & ~(uintptr_t)(PAGE - 1), pe = e & ~(uintptr_t)(PAGE - 1);
  if (pe > pa) madvise((void *)pa, pe - pa, MADV_POPULATE_WRITE);
#endif
}

static uint64_t input_cap = PTX_DEFAULT_INPUT_CAP;
void ptx_set_input_cap(uint64_t bytes) { input_cap = bytes; }
uint64_t ptx_input_cap(void) { return input_cap; }

char *ptx_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t limit = input_cap < SIZE_MAX / 4 ? (size_t)input_cap : SIZE_MAX / 4;
  /* a regular file is read in one go into a buffer of its size; a pipe or
   * a device grows the buffer as it comes, up to the input cap (so
   * /dev/zero is refused, not read until memory runs out) */
  struct stat st;
  bool reg = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  if (reg && (uint64_t)st.st_size > limit) { fclose(f); errno = EFBIG; return NULL; }
  size_t cap = reg && st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 16;
  if (cap > limit + 1) cap = limit + 1;
  size_t n = 0;
  char *buf = malloc(cap + 2);
  if (buf) prepare_pages(buf, cap + 2);
  for (;;) {
    if (!buf) { fclose(f); return NULL; }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (n < cap) break;
    if (n > limit) { free(buf); fclose(f); errno = EFBIG; return NULL; }
    cap = cap > limit / 2 ? limit + 1 : cap * 2;
    char *nb = realloc(buf, cap + 2);
    if (!nb) { free(buf); fclose(f); return NULL; }
    buf = nb;
  }
  int err = ferror(f);
  fclose(f);
  if (err) { free(buf); return NULL; }
  buf[n] = buf[n + 1] = 0;
  *len = n;
  return buf;
}
