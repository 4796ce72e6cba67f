/* ptx/parse.c - entry point of the front end: runs scanner and parser over
 * one text and checks the module-level must-haves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

ptx_module *ptx_parse(const char *text, size_t len, const char *path, ptx_diag *diag) {
  ptx_module *m;
  arena *a = arena_new();
  m = arena_alloc(a, sizeof *m);
  m->arena = a;
  m->path = arena_strndup(a, path, strlen(path));
  m->address_size = 64;

  ptx_pstate ps;
  memset(&ps, 0, sizeof ps);
  ps.mod = m;
  ps.arena = a;
  ps.diag = diag;
  strtab_init(&ps.names, arena_new());   /* strings live apart: the assembler keeps them */

  static const ptx_lexstate ls0;
  ptx_lexstate ls = ls0;
  ls.line = 1; ls.col = 1; ls.diag = diag;
  ps.ls = &ls;
  void *scanner;
  if (ptxyylex_init_extra(&ls, &scanner)) { arena_free(a); return NULL; }
  ps.scanner = scanner;
  YY_BUFFER_STATE b = ptxyy_scan_bytes(text, (int)len, scanner);
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
  free(ps.fpragmas);
  m->names = arena_alloc(a, sizeof *m->names);
  *m->names = ps.names;          /* kept: the assembler interns into the same table */
  if (!m->has_version) ptx_error(diag, (ptx_loc){1, 1}, "missing .version directive");
  if (!m->has_target) ptx_error(diag, (ptx_loc){1, 1}, "missing .target directive");
  return m;
}

void ptx_module_free(ptx_module *m) {
  if (!m) return;
  arena *strings = m->names->arena;
  strtab_fini(m->names);
  arena_free(strings);
  arena_free(m->arena);
}

char *ptx_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (!buf) { fclose(f); return NULL; }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (n < cap) break;
    cap *= 2;
    char *nb = realloc(buf, cap + 1);
    if (!nb) { free(buf); fclose(f); return NULL; }
    buf = nb;
  }
  int err = ferror(f);
  fclose(f);
  if (err) { free(buf); return NULL; }
  buf[n] = 0;
  *len = n;
  return buf;
}
